"""Calibration of `rulesdsl balance --compare` (not a test: a study of many runs).

Without --variant, an A/A study: the same content against itself on other deals (A from seed
1000 + r, B from 5000 + r), where no difference exists: how often the verdict says
"Significant" (the false alarms: at most about 0.05), how often each row is significant, and
how often each metric's 95% interval holds the true difference, 0 (its coverage).

With --variant FOLDER, a power study: the content against FOLDER layered on it, on the same
seeds (as the command plays them): how often the verdict names each row.

    python benchmarks/balance_calibration.py --runs 100 --games 200
    python benchmarks/balance_calibration.py --game classic --players 4 --agents random,random,random,random
    python benchmarks/balance_calibration.py --variant my-tweak --games 100 --runs 20
"""

from __future__ import annotations

import argparse
from collections import Counter

import attrs

from rulesdsl.balance.lab import ab
from rulesdsl.balance.runner import Plan


def one_run(plan: Plan, variant: str | None, r: int, jobs: int) -> dict:
    a = attrs.evolve(plan, seed=1000 + r)
    b = attrs.evolve(a, expansions=(*a.expansions, variant)) if variant else attrs.evolve(a, seed=5000 + r)
    return ab(a, b, "A", "B", jobs, rows=False)[0]["compare"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="duel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agents", default="random,random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--variant", default=None, help="a folder layered on the game (a power study)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    plan = Plan(args.game, (), args.players, tuple(args.agents.split(",")), args.games)
    alarms, found, covered, rows = 0, Counter(), Counter(), Counter()
    for r in range(args.runs):
        cmp = one_run(plan, args.variant, r, args.jobs)
        significant = [m["metric"] for m in cmp["metrics"] if m["significant"]]
        significant += [f"{d['kind']} {d['name']}" for d in cmp["definitions"] if d["significant"]]
        alarms += bool(significant)
        found.update(significant)
        for d in cmp["definitions"]:
            if d["p"] is not None:
                # (a definition's row alone, before Holm's correction: at 5 % where calibrated)
                rows["definitions compared"] += 1
                covered["definitions compared"] += d["low"] <= 0 <= d["high"]
        for m in cmp["metrics"]:
            rows[m["metric"]] += 1
            covered[m["metric"]] += m["low"] is None or m["low"] <= 0 <= m["high"]   # (none: the whole line)
        print(f"run {r}: {'; '.join(significant) or '-'}", flush=True)
    print(f"\n{args.runs} runs of {args.games} games ({args.game}, {args.agents}"
          f"{', B: ' + args.variant if args.variant else ', A/A on other deals'}): "
          f"'Significant' in {alarms} ({alarms / args.runs:.0%})")
    for name, k in found.most_common():
        print(f"  {name}: significant in {k}")
    if not args.variant:
        print("coverage of 0 by each metric's 95% interval:")
        for name, n in rows.items():
            print(f"  {name}: {covered[name]} of {n}")


if __name__ == "__main__":
    main()
