"""Benchmark: balance-lab throughput (games per second) for random and search agents, on one and
on two processes, and the scaling ratio (not a test: timings vary by machine and load).

    python benchmarks/balance_throughput.py [--game duel] [--players N] [--random-games 200]
        [--greedy-games 40] [--search-games 4] [--iterations 50]

Each configuration plays the same games at jobs 1 and jobs 2 (the records are checked equal);
the ratio is games/s at 2 jobs over games/s at 1 job (2.0: perfect scaling on two cores)."""

from __future__ import annotations

import argparse

from rulesdsl.balance.agents import SearchOptions
from rulesdsl.balance.runner import Plan, load, run


def measure(plan: Plan) -> tuple[float, float]:
    load(plan)   # compile once: the workers fork with the rules compiled
    one = run(plan, jobs=1)
    two = run(plan, jobs=2)
    assert one.outcomes == two.outcomes, "jobs 1 and 2 gave different games"
    return len(one.outcomes) / one.seconds, len(two.outcomes) / two.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="duel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--random-games", type=int, default=200)
    parser.add_argument("--greedy-games", type=int, default=40)
    parser.add_argument("--search-games", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=50)
    args = parser.parse_args()
    seats = load(Plan(args.game, (), args.players, (), 1)).content.players
    configs = [("random", ("random",) * seats, args.random_games, SearchOptions()),
               ("greedy (the lab's default)", ("greedy",) * seats, args.greedy_games, SearchOptions()),
               (f"mcts({args.iterations}) vs greedy", ("mcts",) + ("greedy",) * (seats - 1), args.search_games,
                SearchOptions(iterations=args.iterations))]
    for label, agents, games, search in configs:
        if not games:   # (a line-up not asked for: --greedy-games 0, --search-games 0)
            continue
        plan = Plan(args.game, (), args.players, agents, games, seed=0, search=search)
        g1, g2 = measure(plan)
        print(f"{args.game} ({seats} seats), {label}: {games} games; jobs 1 {g1:.2f} games/s, "
              f"jobs 2 {g2:.2f} games/s, scaling x{g2 / g1:.2f}")


if __name__ == "__main__":
    main()
