"""Benchmark: random games per second on one core at every seat count, Duel beside the classic
game at 3, 5 and 7 players, and what one classic game costs in Duel games (not a test: timings
vary by machine; the figures that matter are the ratios, measured in one process, one after
another, several times over).

    python benchmarks/seat_counts.py [--games N] [--rounds R] [--scaling]
"""

from __future__ import annotations

import argparse

from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate
from random_play import play_random


def games_per_second(rules, games: int, seed: int = 0) -> float:
    return games / play_random(rules, games, seed)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="Duel games per measure (classic: a quarter)")
    parser.add_argument("--rounds", type=int, default=3, help="measures of each, interleaved")
    parser.add_argument("--scaling", action="store_true",
                        help="also `simulate` on 1 and 2 worker processes (the same games), and the ratio")
    args = parser.parse_args()
    sets = {"duel": load_ruleset(())}
    for players in (3, 5, 7):
        sets[f"classic {players}p"] = load_ruleset((), "classic", players)
    for rules in sets.values():
        games_per_second(rules, 3, seed=999)  # warm-up: first-call costs
    best: dict[str, float] = {name: 0.0 for name in sets}
    for _ in range(args.rounds):
        for name, rules in sets.items():
            n = args.games if name == "duel" else max(1, args.games // 4)
            best[name] = max(best[name], games_per_second(rules, n))
    for name, rate in best.items():
        print(f"{name:11} {rate:7.1f} games/s")
    duel = best["duel"]
    for players in (3, 5, 7):
        rate = best[f"classic {players}p"]
        print(f"one classic game at {players} players costs {duel / rate:.2f} Duel games")
    if args.scaling:
        for name in ("duel", "classic 7p"):
            n = args.games * 4 if name == "duel" else args.games
            one, two = (simulate(sets[name], n, seed=1, jobs=j)["games_per_second"] for j in (1, 2))
            print(f"simulate {name}: {one:.0f} games/s on 1 job, {two:.0f} on 2 ({two / one:.2f}x)")


if __name__ == "__main__":
    main()
