"""Benchmark: random games per second on one core, through the code path of `rulesdsl simulate`
(one job), for every content set the issue on speed names: Duel, Duel with Pantheon, with Agora,
with both, and the classic game at 3, 5 and 7 seats.  Not a test: timings vary by machine.

    python benchmarks/speed.py [--rounds R] [--scale X] [--only duel,classic-7] [--vs REF | --python EXE] [--loop api]

--loop api times instead what a bot author's own loop does through the public API: the legal
actions listed (`game.legal_actions(seat)`), one picked at random, and applied with its check
(`game.apply(action, seat)`), until the game ends (no target: the issue's targets are for
`simulate`'s path).

--vs REF measures the commit REF (a tag, a branch, HEAD~1...) in the same sitting: its tree is
installed into a temporary folder and the two engines take turns, round by round, so a machine
that speeds up or slows down meanwhile weighs on both alike; the ratio now/REF is printed per set.
--python EXE measures this same checkout on another Python in the same way (EXE: the python of an
environment where this checkout is installed, `pip install -e .`): the ratio is this Python's
over that one's.  Each figure is the best of R rounds (the least disturbed run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import random
import tempfile
import time
from pathlib import Path

SETS = {  # name: (expansions, base, players, games per measure at --scale 1)
    "duel": ((), "duel", None, 400),
    "duel+pantheon": (("pantheon",), "duel", None, 200),
    "duel+agora": (("agora",), "duel", None, 200),
    "duel+both": (("agora", "pantheon"), "duel", None, 150),
    "classic-3": ((), "classic", 3, 150),
    "classic-5": ((), "classic", 5, 80),
    "classic-7": ((), "classic", 7, 60),
}
TARGETS = {"duel": 2000, "duel+both": 1000, "classic-7": 400}   # games/s, from the issue
ROOT = Path(__file__).resolve().parent.parent


def measure(names: list[str], scale: float, seed: int, loop: str = "simulate") -> dict[str, float]:
    """One round: games per second of each set (run in the worker process)."""
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.simulate import simulate

    out = {}
    for name in names:
        expansions, base, players, games = SETS[name]
        rules = load_ruleset(expansions, base, players)
        if loop == "api":
            api_games(rules, 3, 999)   # warm-up: first-call costs
            n = max(5, int(games * scale / 3))   # (a third as many: the loop is some 3x slower)
            start = time.perf_counter()
            api_games(rules, n, seed)
            out[name] = n / (time.perf_counter() - start)
            continue
        simulate(rules, 3, seed=999, jobs=1)   # warm-up: first-call costs
        out[name] = simulate(rules, max(5, int(games * scale)), seed=seed, jobs=1)["games_per_second"]
    return out


def api_games(rules, games: int, seed: int) -> None:
    """`games` games played as a bot author's loop plays them: list the legal actions of the seat
    to move, pick one at random, apply it (checked)."""
    for i in range(games):
        game = rules.new_game(seed=seed + i)
        rng = random.Random(seed + i)
        while not game.over:
            seat = game.to_move()
            legal = game.legal_actions(seat)
            game.apply(legal[rng.randrange(len(legal))], seat)


def run_worker(names: list[str], scale: float, seed: int, site: Path | None,
               python: str = sys.executable, loop: str = "simulate") -> dict[str, float]:
    env = dict(os.environ)
    if site is not None:  # the other commit's package shadows this checkout's
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [python, __file__, "--worker", "--only", ",".join(names), "--scale", str(scale),
           "--seed", str(seed), "--loop", loop]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the measuring process failed:\n{done.stderr}")
    return json.loads(done.stdout)


def python_of(exe: str) -> str:
    """`exe`'s Python version, after checking that it runs this checkout's package: figures of
    another copy of the engine would be compared as if they were this one's."""
    ask = "import sys, rulesdsl; print(sys.version.split()[0]); print(rulesdsl.__file__)"
    try:   # (-P: not from the working folder, whose `rulesdsl` source folder is not the package)
        done = subprocess.run([exe, "-P", "-c", ask], capture_output=True, text=True, check=False)
    except OSError as exc:
        sys.exit(f"cannot run {exe}: {exc.strerror}")
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"{exe} cannot import rulesdsl ({last}): install this checkout there, "
                 f"`{exe} -m pip install -e {ROOT}`")
    version, package = done.stdout.split()
    if not Path(package).resolve().is_relative_to(ROOT):
        sys.exit(f"{exe} runs the rulesdsl installed at {Path(package).parent}, not this checkout "
                 f"({ROOT}): install this checkout there, `{exe} -m pip install -e {ROOT}`")
    return version


def set_names(only: str) -> list[str]:
    """The sets named in `--only` (comma-separated); an unknown one ends the program, naming the sets."""
    names = [n for n in only.split(",") if n]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        sys.exit(f"unknown set(s): {', '.join(unknown)} (sets: {', '.join(SETS)})")
    return names


def install_ref(ref: str, into: Path) -> Path:
    """The package as commit `ref` has it, installed (without dependencies) into `into`/site."""
    src, site = into / "src", into / "site"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=False)
    if archive.returncode:
        sys.exit(f"no such commit: {ref} ({archive.stderr.decode().strip()})")
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                           "--target", str(site), str(src)], capture_output=True, text=True, check=False)
    if done.returncode:  # (offline, it builds with the setuptools installed here: `pip install setuptools`)
        sys.exit(f"could not install commit {ref} to measure it:\n{done.stderr.strip()}")
    return site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="games per measure, as a multiple of the defaults")
    parser.add_argument("--only", default=",".join(SETS), help="content sets, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    other = parser.add_mutually_exclusive_group()
    other.add_argument("--vs", metavar="REF", help="also measure this commit, in turns with this checkout")
    other.add_argument("--python", metavar="EXE",
                       help="also measure this checkout on this Python (installed there), in turns")
    parser.add_argument("--scaling", action="store_true",
                        help="also time `simulate` of Duel and classic-7 on 1 and on every core")
    parser.add_argument("--loop", choices=("simulate", "api"), default="simulate",
                        help="what plays the games: simulate's path (default), or a loop of "
                             "legal_actions and apply as a bot author writes it")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = set_names(args.only)
    if args.worker:
        print(json.dumps(measure(names, args.scale, args.seed, args.loop)))
        return
    print(f"Python {sys.version.split()[0]} ({sys.executable})")
    label = args.vs
    if args.python:
        label = f"Python {python_of(args.python)}"
        print(f"beside {label} ({args.python})")
    with tempfile.TemporaryDirectory() as tmp:
        site = install_ref(args.vs, Path(tmp)) if args.vs else None
        beside = site is not None or args.python is not None
        best_now = dict.fromkeys(names, 0.0)
        best_ref = dict.fromkeys(names, 0.0)
        for _ in range(args.rounds):
            for name, rate in run_worker(names, args.scale, args.seed, None, loop=args.loop).items():
                best_now[name] = max(best_now[name], rate)
            if beside:
                ref = run_worker(names, args.scale, args.seed, site, args.python or sys.executable, args.loop)
                for name, rate in ref.items():
                    best_ref[name] = max(best_ref[name], rate)
    head = f"{'set':14} {'games/s':>8}"
    if beside:
        head += f" {label[:14]:>14} {'ratio':>6}"
    print(head + "  target")
    for name in names:
        line = f"{name:14} {best_now[name]:8.1f}"
        if beside:
            line += f" {best_ref[name]:14.1f} {best_now[name] / best_ref[name]:6.2f}"
        target = TARGETS.get(name) if args.loop == "simulate" else None
        print(line + (f"  >= {target}" if target else ""))
    if args.scaling:
        scaling(args.scale, args.seed)


def scaling(scale: float, seed: int) -> None:
    """`simulate` on one worker process and on every core (results identical: see docs/speed.md)."""
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.simulate import simulate

    from rulesdsl.workers import default_jobs
    cores = default_jobs()
    for name in ("duel", "classic-7"):
        expansions, base, players, games = SETS[name]
        rules = load_ruleset(expansions, base, players)
        # About 3 s of games on one core (times --scale): starting the workers costs some
        # 0.1 s, which a run of under a second counts against the pool (classic at 7 seats
        # measured 1.58x on 480 games, 1.9-2.0x on 1,500).
        rate = simulate(rules, max(5, int(games * scale)), seed=seed + 1, jobs=1)["games_per_second"]
        n = max(40, int(rate * 3 * scale))
        one, many = (simulate(rules, n, seed=seed, jobs=j) for j in (1, cores))
        same = "same results" if {**one, "seconds": 0, "games_per_second": 0} == \
            {**many, "seconds": 0, "games_per_second": 0} else "DIFFERENT RESULTS"
        print(f"simulate {name}: {one['games_per_second']:.0f} games/s on 1 job, {many['games_per_second']:.0f} on "
              f"{cores} ({many['games_per_second'] / one['games_per_second']:.2f}x; {same})")


if __name__ == "__main__":
    main()
