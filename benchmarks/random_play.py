"""Shared by the benchmarks: random games played to the end, timed (not a benchmark itself)."""

from __future__ import annotations

import random
import time


def play_simulated(rules, games: int, seed: int = 0, agent: str = "random") -> dict:
    """`games` games of uniformly random seats (or of `agent` at every seat) played and
    summarised by `rulesdsl simulate`'s code path on one core (`simulate.simulate`); its summary."""
    from rulesdsl.simulate import simulate

    return simulate(rules, games, seed=seed, jobs=1, agents=[agent] * rules.content.players)


def play_random(rules, games: int, seed: int = 0, listing: bool = False) -> tuple[int, float]:
    """(actions played, seconds) for `games` games of uniformly random legal actions; `listing`:
    each action picked from the full list of legal actions, as a masked loop must, instead of
    the engine's draw that lists nothing."""
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        game = rules.new_game(seed=seed + i)
        rng = random.Random(seed + i)
        while not game.over:
            if listing:
                legal = game.legal_actions()
                game._apply(legal[rng.randrange(len(legal))])
            else:
                game._apply(game.random_action(rng))
        actions += len(game.state.history)
    return actions, time.perf_counter() - start
