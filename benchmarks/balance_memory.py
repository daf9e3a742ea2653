"""Benchmark: what a long `rulesdsl balance` run holds in memory, per game (not a test: a
machine's figures).  Each measure runs the command in a process of its own and reads the peak
resident size of the largest process it started (the command, or one of its workers), for a
short run and a long one; the difference over the games between them is what a game costs.

    python benchmarks/balance_memory.py [--games 100000] [--short 2000] [--jobs 2] [--json]
        [--game duel] [--players N] [--agents random,random]

--json measures `--json` output (its game rows written as they go) instead of the terminal
report.  A million games need about (short run) + 1,000,000 x (per game)."""

from __future__ import annotations

import argparse
import subprocess
import sys

MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if done.returncode:
    sys.exit(done.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)   # kilobytes, on Linux
"""


def peak_kb(command: list[str]) -> int:
    """The peak resident size, in KB, of the largest process `command` started."""
    done = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the run failed: {done.stderr.strip()}")
    return int(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--short", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game", default="duel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agents", default=None, help="the line-up (default: random at every seat)")
    args = parser.parse_args()
    if args.games <= args.short:
        sys.exit("--games must be more than --short")
    from rulesdsl.pipeline import load_ruleset
    seats = load_ruleset((), args.game, args.players).content.players
    agents = args.agents or ",".join(["random"] * seats)
    base = [sys.executable, "-m", "rulesdsl", "balance", "--game", args.game, "--agents", agents,
            "--jobs", str(args.jobs), *(["--players", str(args.players)] if args.players else []),
            *(["--json"] if args.json else [])]
    short = peak_kb([*base, "--games", str(args.short)])
    long = peak_kb([*base, "--games", str(args.games)])
    per_game = (long - short) * 1024 / (args.games - args.short)
    output = "--json" if args.json else "the terminal report"
    print(f"{args.game}, {agents}, {args.jobs} jobs, {output}:")
    print(f"  {args.short:>9,} games: {short / 1024:7.1f} MB at the peak")
    print(f"  {args.games:>9,} games: {long / 1024:7.1f} MB at the peak")
    print(f"  {per_game:.0f} bytes a game; a million games: about "
          f"{(short * 1024 + per_game * (1_000_000 - args.short)) / 2**30:.2f} GB")


if __name__ == "__main__":
    main()
