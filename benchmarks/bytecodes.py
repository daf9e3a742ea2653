"""Benchmark: Python bytecodes executed per random game, for every content set `speed.py` knows,
and which functions execute them.  Not a test, and not a timing: the count depends only on the
code, the content and the seeds, so two runs on a busy machine give the same figure and a
change of one per cent shows as one per cent.  Use it beside `speed.py` (games per second) to
see where a change saves work, and whether it does.

    python benchmarks/bytecodes.py [--only duel,classic-7] [--games N] [--top K] [--vs REF]

Each game is played as `speed.py` plays it (uniformly random legal moves); every bytecode the
interpreter executes while the games run is counted (`sys.settrace` with opcode events, about
fifty times slower than a plain run, so the default game counts are small).  --vs REF counts
commit REF the same way (installed into a temporary folder, as `speed.py --vs` does) and prints
the ratio REF/now: above 1, this checkout executes fewer bytecodes.  --top K lists the K
functions that execute the most bytecodes themselves (callees not included).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import SETS, install_ref, set_names  # noqa: E402  (the same sets, the same way to install a commit)

GAMES = {"duel": 20, "duel+pantheon": 10, "duel+agora": 10, "duel+both": 8,
         "classic-3": 8, "classic-5": 5, "classic-7": 4}   # games counted per set by default


def count(name: str, games: int, seed: int, top: int) -> dict:
    """Bytecodes per game of one set, and the functions that execute the most of them."""
    from random_play import play_random
    from rulesdsl.pipeline import load_ruleset

    expansions, base, players, _ = SETS[name]
    rules = load_ruleset(expansions, base, players)
    play_random(rules, 3, 999)   # first-call costs (selectors' item sets and the like) are not counted
    per_function: collections.Counter = collections.Counter()

    def opcode(frame, event, arg):
        if event == "opcode":
            code = frame.f_code
            per_function[(code.co_filename, code.co_name)] += 1
        return opcode

    def call(frame, event, arg):
        frame.f_trace_opcodes = True
        return opcode

    sys.settrace(call)
    try:
        play_random(rules, games, seed)
    finally:
        sys.settrace(None)
    total = sum(per_function.values())
    return {"per_game": total / games,
            "top": [(f"{Path(f).parent.name}/{Path(f).name}:{fn}", n / total)
                    for (f, fn), n in per_function.most_common(top)]}


def run_worker(names: list[str], games: int | None, seed: int, top: int, site: Path | None) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0")   # the same iteration orders in every run
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [sys.executable, __file__, "--worker", "--only", ",".join(names), "--seed", str(seed), "--top", str(top)]
    if games:
        cmd += ["--games", str(games)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the counting process failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SETS), help="content sets, comma-separated")
    parser.add_argument("--games", type=int, help="games per set (default: a few, by set)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=0, help="list the K functions executing most")
    parser.add_argument("--vs", metavar="REF", help="also count this commit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = set_names(args.only)
    if args.worker:
        print(json.dumps({n: count(n, args.games or GAMES[n], args.seed, args.top) for n in names}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        now = run_worker(names, args.games, args.seed, args.top, None)
        ref = run_worker(names, args.games, args.seed, 0, install_ref(args.vs, Path(tmp))) if args.vs else None
    head = f"{'set':14} {'bytecodes/game':>15}"
    if ref is not None:
        head += f" {args.vs[:12]:>12} {'ratio':>6}"
    print(head)
    for name in names:
        line = f"{name:14} {now[name]['per_game']:15,.0f}"
        if ref is not None:
            line += f" {ref[name]['per_game']:12,.0f} {ref[name]['per_game'] / now[name]['per_game']:6.3f}"
        print(line)
    for name in names if args.top else ():
        print(f"\n{name}: the functions that execute the most bytecodes themselves")
        for where, share in now[name]["top"]:
            print(f"  {100 * share:5.1f}%  {where}")


if __name__ == "__main__":
    main()
