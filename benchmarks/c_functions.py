"""Benchmark: where the machine instructions of a random game go inside CPython, for one content
set `speed.py` knows.  Not a test, and not a timing: valgrind's callgrind counts the
instructions of a run of N games and of a run of none (loading and first calls cancel out), and
this prints the C functions that execute the most of them per game, themselves, with the
callers that account for them.

    python benchmarks/c_functions.py duel                     # the top 25 C functions
    python benchmarks/c_functions.py duel+both --top 40 --games 8
    python benchmarks/c_functions.py classic-7 --callers PyObject_RichCompareBool,k_mul

What a bytecode count cannot see shows here: the dice's 64-bit products (`k_mul`,
`long_bitwise`), generic comparisons of integers (`list_remove`, `x in dict.values()`),
keywords matched against `**kwargs` by comparing strings (`initialize_locals`), objects made
and freed, frames pushed and cleared.  About a thousand times slower than a plain run.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bytecodes import GAMES, environment  # noqa: E402  (the same games, run the same way)
from speed import SETS  # noqa: E402

BYTECODES = Path(__file__).resolve().parent / "bytecodes.py"
# `callgrind_annotate --tree=caller`: a function's own count, and above it each caller's share.
OWN = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\*\s+(\S+)")
CALLER = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+<\s+(\S+) \(([\d,]+)x\)")


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _short(where: str) -> str:
    """`file.c:function'2 [lib]` -> `function`."""
    return where.split(":")[-1].split("'")[0]


def profile(name: str, games: int, seed: int, folder: Path) -> tuple[dict, dict]:
    """(own instructions by C function, {function: {caller: (instructions, calls)}}) of a run."""
    env = environment(None)
    play = [sys.executable, str(BYTECODES), "--play", name, "--seed", str(seed), "--games", str(games)]
    out = folder / f"callgrind.{games}"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *play],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"valgrind could not run {name}:\n{done.stderr[-2000:]}")
    tree = subprocess.run(["callgrind_annotate", "--tree=caller", "--threshold=100", str(out)],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    own: collections.Counter = collections.Counter()
    callers: dict = collections.defaultdict(lambda: collections.Counter())
    pending: list[tuple[str, int, int]] = []
    for line in tree:
        if not line.strip():
            pending = []
            continue
        called = CALLER.match(line)
        if called:
            pending.append((_short(called.group(2)), _number(called.group(1)), _number(called.group(3))))
            continue
        found = OWN.match(line)
        if found:
            fn = _short(found.group(2))
            own[fn] += _number(found.group(1))
            for caller, instructions, calls in pending:
                callers[fn][caller] += instructions
                callers[fn][("calls", caller)] += calls
            pending = []
    return own, callers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=list(SETS))
    parser.add_argument("--games", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--callers", default="", help="also list the callers of these C functions")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("this needs valgrind (Debian: apt-get install valgrind)")
    games = args.games or 2 * GAMES[args.name]
    subprocess.run([sys.executable, str(BYTECODES), "--play", args.name, "--games", "0"],
                   env=environment(None), capture_output=True, check=False)   # (the parse cache)
    with tempfile.TemporaryDirectory() as tmp:
        own, callers = profile(args.name, games, args.seed, Path(tmp))
        own0, callers0 = profile(args.name, 0, args.seed, Path(tmp))
    per_game = {fn: (n - own0.get(fn, 0)) / games for fn, n in own.items()}
    total = sum(per_game.values())
    print(f"{total:,.0f} instructions per game ({games} games)\n  per game   share  C function (own)")
    listed = sorted(per_game.items(), key=lambda kv: -kv[1])[:args.top]
    for fn, n in listed:
        print(f"{n:10,.0f}  {100 * n / total:5.1f}%  {fn}")
    for fn in [f for f in args.callers.split(",") if f]:
        print(f"\n{fn}, by caller (instructions and calls per game, the callee's own and below)")
        got, base = callers.get(fn, {}), callers0.get(fn, {})
        rows = [(c, (got[c] - base.get(c, 0)) / games, (got[("calls", c)] - base.get(("calls", c), 0)) / games)
                for c in got if not isinstance(c, tuple)]
        for caller, n, calls in sorted(rows, key=lambda r: -r[1])[:10]:
            print(f"{n:10,.0f}  {calls:8.1f} calls  {caller}")


if __name__ == "__main__":
    main()
