"""Playing many games between agents and summarising the results."""

from __future__ import annotations

import time
from typing import Callable

from .interpreter.agents import AGENTS, make_agent
from .interpreter.budget import DEFAULT_MAX_STEPS, BudgetExceeded
from .interpreter.chance import derive
from .interpreter.state import DRAW
from .names import check_agents
from .pipeline import Ruleset


def game_seed(seed: int, index: int) -> int:
    """Game `index` of a batch: a hash of both, so games of one batch and of different batches
    do not share seeds (no folding into a smaller range, where distinct batches could coincide)."""
    return derive("game", seed, index)


def agent_seed(game_seed: int, seat: int) -> int:
    return derive("agent", game_seed, seat)


def play_one(rules: Ruleset, seed: int, agent_names: list[str], max_steps: int = DEFAULT_MAX_STEPS):
    game = rules.new_game(seed=seed, max_steps=max_steps)
    agents = [make_agent(name, agent_seed(seed, i)) for i, name in enumerate(agent_names)]
    while not game.over:
        game._apply(agents[game.to_move()].act(game))
    return game


def simulate(rules: Ruleset, games: int, seed: int = 0, agents: list[str] | None = None,
             progress: Callable[[int], None] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> dict:
    """Play `games` games between agents (one name per seat; default: random at every seat) and
    summarise them: wins per seat and draws, victories by kind, mean scores per seat."""
    players = rules.content.players
    agent_names = check_agents(agents or ["random"] * players, players, AGENTS)
    wins = {str(p): 0 for p in range(players)}
    wins["draw"] = 0
    victories: dict[str, int] = {}
    totals: dict[str, float] = {}
    start = time.perf_counter()
    for i in range(games):
        try:
            g = play_one(rules, game_seed(seed, i), agent_names, max_steps)
        except BudgetExceeded as exc:
            raise exc.within(f"game {i} (seed {game_seed(seed, i)})")
        st = g.state
        wins["draw" if st.winner == DRAW else str(st.winner)] += 1
        victories[st.victory] = victories.get(st.victory, 0) + 1
        for p in range(players):
            for cat, pts in g.score(p).items():
                key = f"{p}.{cat}"
                totals[key] = totals.get(key, 0) + pts
        if progress:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    mean: dict[str, dict[str, float]] = {str(p): {} for p in range(players)}
    for key, total in sorted(totals.items()):
        p, cat = key.split(".", 1)
        mean[p][cat] = round(total / games, 3) if games else 0.0
    for p in mean:
        mean[p]["total"] = round(sum(mean[p].values()), 3)
    return {"games": games, "seed": seed, "game": rules.content.name, "players": players,
            "expansions": rules.content.layers[1:], "agents": agent_names,
            "wins": wins, "victories": dict(sorted(victories.items())), "mean_score": mean,
            "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None}
