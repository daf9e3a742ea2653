"""Benchmark: Python bytecodes executed per random game, for every content set `speed.py` knows,
and which functions execute them.  Not a test, and not a timing: the count depends only on the
code, the content and the seeds, so two runs on a busy machine give the same figure and a
change of one per cent shows as one per cent.  Use it beside `speed.py` (games per second) to
see where a change saves work, and whether it does.

    python benchmarks/bytecodes.py [--only duel,classic-7] [--games N] [--top K] [--vs REF]
    python benchmarks/bytecodes.py --instructions [--only ...] [--vs REF]
    python benchmarks/bytecodes.py --instructions --agent greedy [--only duel,classic-5] [--vs REF]

Each game is played as `speed.py` plays it (`simulate.simulate`, random seats); every bytecode the
interpreter executes while the games run is counted (`sys.settrace` with opcode events, about
fifty times slower than a plain run, so the default game counts are small).  --vs REF counts
commit REF the same way (installed into a temporary folder, as `speed.py --vs` does) and prints
the ratio REF/now: above 1, this checkout executes fewer bytecodes.  --top K lists the K
functions that execute the most bytecodes themselves (callees not included).

--instructions counts machine instructions instead (valgrind's cachegrind without cache
simulation, where valgrind is installed): a run of N untraced games less a run of none, per
game.  Also repeatable to a few hundredths of a per cent, and closer to time than bytecodes
(a call costs many instructions, an addition few); about a hundred times slower than a plain run.

--agent greedy (or mcts) counts games of that agent at every seat instead, as `simulate --agents`
plays them (a tenth of the random games by default: a greedy game costs some twenty random ones):
the measure of work on what the agents do beside the engine (copies, scoring).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import SETS, install_ref, set_names  # noqa: E402  (the same sets, the same way to install a commit)

GAMES = {"duel": 20, "duel+pantheon": 10, "duel+agora": 10, "duel+both": 8,
         "classic-3": 8, "classic-5": 5, "classic-7": 4}   # games counted per set by default


def count(name: str, games: int, seed: int, top: int, agent: str = "random") -> dict:
    """Bytecodes per game of one set, and the functions that execute the most of them."""
    from random_play import play_simulated
    from rulesdsl.pipeline import load_ruleset

    expansions, base, players, _ = SETS[name]
    rules = load_ruleset(expansions, base, players)
    play_simulated(rules, 3 if agent == "random" else 1, 999, agent)   # first-call costs (selectors' item sets and the like) are not counted
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
        play_simulated(rules, games, seed, agent)
    finally:
        sys.settrace(None)
    total = sum(per_function.values())
    return {"per_game": total / games,
            "top": [(f"{Path(f).parent.name}/{Path(f).name}:{fn}", n / total)
                    for (f, fn), n in per_function.most_common(top)]}


def environment(site: Path | None) -> dict[str, str]:
    env = dict(os.environ, PYTHONHASHSEED="0")   # the same iteration orders in every run
    if site is not None:  # the other commit's package shadows this checkout's
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def instructions(name: str, games: int, seed: int, site: Path | None, agent: str = "random") -> float:
    """Machine instructions per game (valgrind's cachegrind, no cache simulation): a run of
    `games` games less a run of none, so loading and first calls cancel out."""
    env = environment(site)
    play = [sys.executable, __file__, "--play", name, "--seed", str(seed), "--agent", agent]
    subprocess.run(play + ["--games", "0"], env=env, capture_output=True, check=False)   # (the parse cache)
    counts = []
    for n in (games, 0):
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               *play, "--games", str(n)], env=env, capture_output=True, text=True, check=False)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode or found is None:
            sys.exit(f"valgrind could not count {name}:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[0] - counts[1]) / games


def play(name: str, games: int, seed: int, agent: str = "random") -> None:
    """Games of one set, untraced (what `instructions` counts)."""
    from random_play import play_simulated
    from rulesdsl.pipeline import load_ruleset

    expansions, base, players, _ = SETS[name]
    rules = load_ruleset(expansions, base, players)
    play_simulated(rules, 1, 999, agent)   # first-call costs, in both runs
    if games:
        play_simulated(rules, games, seed, agent)


def default_games(name: str, agent: str) -> int:
    return GAMES[name] if agent == "random" else max(1, GAMES[name] // 10)


def run_worker(names: list[str], games: int | None, seed: int, top: int, site: Path | None,
               agent: str = "random") -> dict:
    env = environment(site)
    cmd = [sys.executable, __file__, "--worker", "--only", ",".join(names), "--seed", str(seed), "--top", str(top),
           "--agent", agent]
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
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions instead, under valgrind (Debian: apt-get install valgrind)")
    parser.add_argument("--agent", default="random", choices=["random", "greedy", "mcts"],
                        help="the agent at every seat (default random: simulate's games)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--play", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play, args.games or 0, args.seed, args.agent)
        return
    names = set_names(args.only)
    if args.worker:
        print(json.dumps({n: count(n, args.games or default_games(n, args.agent), args.seed, args.top, args.agent)
                          for n in names}))
        return
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        site = install_ref(args.vs, Path(tmp)) if args.vs else None
        if args.instructions:
            games = {n: args.games or 3 * default_games(n, args.agent) for n in names}
            now = {n: {"per_game": instructions(n, games[n], args.seed, None, args.agent)} for n in names}
            ref = ({n: {"per_game": instructions(n, games[n], args.seed, site, args.agent)} for n in names}
                   if site else None)
        else:
            now = run_worker(names, args.games, args.seed, args.top, None, args.agent)
            ref = run_worker(names, args.games, args.seed, 0, site, args.agent) if site else None
    head = f"{'set':14} {'instructions/game' if args.instructions else 'bytecodes/game':>17}"
    if ref is not None:
        head += f" {args.vs[:12]:>12} {'ratio':>6}"
    print(head)
    for name in names:
        line = f"{name:14} {now[name]['per_game']:17,.0f}"
        if ref is not None:
            line += f" {ref[name]['per_game']:12,.0f} {ref[name]['per_game'] / now[name]['per_game']:6.3f}"
        print(line)
    for name in names if args.top and not args.instructions else ():
        print(f"\n{name}: the functions that execute the most bytecodes themselves")
        for where, share in now[name]["top"]:
            print(f"  {100 * share:5.1f}%  {where}")


if __name__ == "__main__":
    main()
