"""Benchmark: random games per second on one core (not a test: timings vary by machine).

    python benchmarks/random_games.py [--games N] [--expansion NAME ...]
"""

from __future__ import annotations

import argparse
import time

from rulesdsl.interpreter import load_ruleset
from rulesdsl.simulate import game_seed, play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expansion", action="append", default=[])
    parser.add_argument("--agents", default="random,random")
    args = parser.parse_args()
    rules = load_ruleset(tuple(args.expansion))
    agents = args.agents.split(",")
    play_one(rules, 12345, agents)  # warm-up: compile caches, first-call costs
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        actions += len(play_one(rules, game_seed(args.seed, i), agents).state.history)
    elapsed = time.perf_counter() - start
    label = "+".join(["duel", *args.expansion])
    print(f"{label}: {args.games} games in {elapsed:.2f} s = {args.games / elapsed:.0f} games/s, "
          f"{actions / elapsed:.0f} actions/s ({actions / args.games:.1f} actions per game)")


if __name__ == "__main__":
    main()
