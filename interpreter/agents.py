"""Agents that pick an action: uniformly random, and a one-move look-ahead greedy agent.
Both are generic: they read only legal actions, scores and what items produce."""

from __future__ import annotations

import random
from typing import Protocol

from rulesdsl.names import check_agent

from .actions import Action
from .game import Game
from .search import MCTSAgent


class Agent(Protocol):
    name: str

    def act(self, game: Game) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, game: Game) -> Action:
        return game.random_action(self.rng)


class GreedyAgent:
    """Tries every legal action on a copy and keeps the one whose position scores best for it:
    VP difference (coins and the conflict track included), a win or loss outweighing all, and
    small credits for production and distinct scientific symbols that pay off later."""

    name = "greedy"
    WIN = 1000.0

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, game: Game) -> Action:
        me = game.to_move()
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best, best_value = [], None
        for action in actions:
            trial = game.clone()
            trial._apply(action)
            value = self.evaluate(trial, me)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def evaluate(self, game: Game, me: int) -> float:
        st = game.state
        if st.flow == "over" and st.victory != "civilian":
            return self.WIN if st.winner == me else -self.WIN
        opp = game.opponent(me)
        mine, theirs = sum(game.score(me).values()), sum(game.score(opp).values())
        if st.flow == "over":
            return self.WIN if st.winner == me else (-self.WIN if st.winner == opp else 0.0)
        later = max(0, len(game.content.ages) - 1 - st.age)  # production matters less as the game ends
        value = float(mine - theirs)
        value += 0.6 * later * (sum(game.stats(me).produce) + len(game.stats(me).one_of))
        value += 1.5 * game.distinct_science(me) - 1.5 * game.distinct_science(opp)
        value += 0.8 * game.pawn_distance(me)
        return value


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name (an unknown name is a rulesdsl.names.UnknownName, a ValueError)."""
    return AGENTS[check_agent(name, AGENTS)](seed)
