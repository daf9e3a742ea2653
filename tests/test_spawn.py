"""The spawn start method, end to end (`rulesdsl.workers.start_method`): Windows has no fork, so
there the worker processes of `simulate`, `verify` and `balance` load the rules again and
resolve the agents by name.  `RULESDSL_START_METHOD=spawn` runs that path here: each run below
is a `rulesdsl` process whose workers are really spawned (noted: `spawn_notes`) and gives the
output of the same run on one process.  (A custom agent by `module:Class` or entry point:
tests/test_custom_agents_cli.py; Ctrl-C and a killed worker: tests/test_workers.py.)"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulesdsl.pipeline import load_ruleset
from rulesdsl.testing.verify import verify
from rulesdsl.workers import StartMethodError, start_method
from spawn_notes import noting

DATA = Path(__file__).resolve().parent / "data"
FAN = Path(__file__).resolve().parents[1] / "examples" / "fan_expansion"

needs_spawn = pytest.mark.skipif("spawn" not in multiprocessing.get_all_start_methods(), reason="no spawn start method")


@pytest.fixture
def spawning(tmp_path: Path) -> tuple[dict, Path]:
    """An environment whose pools spawn their workers, and the folder where they are noted."""
    site = tmp_path / "site"
    site.mkdir()
    notes = tmp_path / "notes"
    env = {**os.environ, **noting(site, notes),
           "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return env, notes


def rulesdsl(env: dict, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


def same_output(done: subprocess.CompletedProcess) -> str:
    """The output, without what depends on the run's speed or its number of jobs."""
    out = done.stdout
    try:
        data = json.loads(out)
    except ValueError:
        out = re.sub(r"[\d.]+ games per second|\([\d.]+ s\)|\d+ jobs?", "", out)
        return out
    if "games_per_second" in data:   # (simulate)
        del data["seconds"], data["games_per_second"]
    data.pop("run", None)   # (balance: its jobs and seconds)
    return json.dumps(data, sort_keys=True)


def on_one_and_spawned(spawning, *args: str, cwd: Path | None = None, status: int = 0) -> str:
    """The command's output on one process, on two forked workers and on two spawned ones: the same."""
    env, notes = spawning
    for note in notes.iterdir():
        note.unlink()
    alone = rulesdsl({k: v for k, v in env.items() if k != "RULESDSL_START_METHOD"}, *args, "-j", "1", cwd=cwd)
    assert alone.returncode == status, alone.stderr
    if "fork" in multiprocessing.get_all_start_methods():
        forked = rulesdsl({**env, "RULESDSL_START_METHOD": "fork"}, *args, "-j", "2", cwd=cwd)
        assert forked.returncode == status, forked.stderr
        assert same_output(forked) == same_output(alone)
    assert not list(notes.iterdir())
    spawned = rulesdsl(env, *args, "-j", "2", cwd=cwd)
    assert spawned.returncode == status, spawned.stderr
    assert "Traceback" not in spawned.stderr
    assert list(notes.iterdir()), "no worker was spawned"
    assert same_output(spawned) == same_output(alone)
    return spawned.stdout


def test_the_start_method_is_chosen_by_the_environment(monkeypatch):
    monkeypatch.setenv("RULESDSL_START_METHOD", "spawn")
    assert start_method() == "spawn"
    monkeypatch.setenv("RULESDSL_START_METHOD", "thread")
    with pytest.raises(StartMethodError, match="RULESDSL_START_METHOD='thread' is no start method here; one of: "):
        start_method()
    monkeypatch.delenv("RULESDSL_START_METHOD")
    assert start_method() in ("fork", "spawn")


@pytest.mark.parametrize("command", [["simulate", "-n", "30"], ["verify", "-n", "30"],
                                     ["balance", "-n", "30", "--agents", "random,random"]])
def test_an_unknown_start_method_is_one_error_line_before_any_game(command):
    done = rulesdsl({**os.environ, "RULESDSL_START_METHOD": "thread"}, *command, "-j", "2")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: RULESDSL_START_METHOD='thread' is no start method here; one of: "
        + ", ".join(multiprocessing.get_all_start_methods())]


@needs_spawn
@pytest.mark.parametrize("args", [
    ["simulate", "-n", "24", "--seed", "3", "--json"],
    ["simulate", "-n", "20", "-e", "pantheon", "--json"],
    ["simulate", "-n", "20", "--game", "classic", "-p", "5", "--agents", "random,greedy,random,random,random"],
])
def test_bundled_content_on_spawned_workers(spawning, args):
    on_one_and_spawned(spawning, *args)


@needs_spawn
@pytest.mark.parametrize("args", [
    ["simulate", "-n", "20", "--option", "beginner_wonders", "--json"],
    ["simulate", "-n", "20", "--game", "classic", "-p", "3", "--option", "night_sides", "--json"],
    ["balance", "-n", "20", "--agents", "random,greedy", "--option", "beginner_wonders", "--json"],
])
def test_game_options_on_spawned_workers(spawning, args):
    # (each worker creates its games with the options: the same output as one process, and not
    # the output of the run without them)
    out = json.loads(on_one_and_spawned(spawning, *args))
    meta = out.get("meta", out)
    assert meta["options"] == [args[args.index("--option") + 1]]
    env, _ = spawning
    cut = args.index("--option")
    plain = rulesdsl({k: v for k, v in env.items() if k != "RULESDSL_START_METHOD"}, *args[:cut], *args[cut + 2:],
                     "-j", "1")
    assert plain.returncode == 0
    without = json.loads(same_output(plain))
    (without.get("meta", without))["options"] = meta["options"]   # (the games differ, not only what is said)
    assert json.dumps(without, sort_keys=True) != same_output(rulesdsl(env, *args, "-j", "2"))


@needs_spawn
def test_a_folder_of_ones_own_by_a_relative_path_and_an_absolute_one(spawning, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(DATA / "broken_coins", work / "coins")
    shutil.copytree(FAN, work / "fan")
    shutil.copytree(Path(__file__).resolve().parents[1] / "cards" / "duel", work / "mine")
    # verify finds the broken card, shrinks it and writes the same trace; the workers read the
    # folder by the path given, from the command's folder
    out = on_one_and_spawned(spawning, "verify", "coins", "-n", "40", "--option", "beginner_wonders", "-o",
                             "failure.json", cwd=work, status=1)
    assert "FAILED: invariant `designer: Nobody gets rich in Age I`" in out
    on_one_and_spawned(spawning, "simulate", "-n", "20", "--game", "mine", "--json", cwd=work)
    on_one_and_spawned(spawning, "balance", "-n", "20", "-e", str(work / "fan"), "--agents", "random,greedy",
                       "--json", cwd=tmp_path)


@needs_spawn
def test_verify_from_python_loads_the_contents_own_game_in_spawned_workers(monkeypatch):
    # (its `base` left at its default had the workers load Duel: a Duel + expansion run verified
    # plain Duel there, and a classic run was refused, "duel plays with 2 players, not 3")
    monkeypatch.setenv("RULESDSL_START_METHOD", "spawn")
    rules = load_ruleset(("pantheon",))
    one, two = (verify(rules, 20, seed=1, jobs=j) for j in (1, 2))
    assert two.ok and (two.games, two.actions) == (one.games, one.actions)


SCRIPT = '''
import sys
from rulesdsl.balance.runner import Plan, run
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate

{top}

if __name__ == "__main__":
{main}
    result = simulate(load_ruleset(), 24, agents=["__main__:Mine", "random"], jobs=int(sys.argv[1]))
    print(result["games"], result["wins"], result["error"])
    ran = run(Plan("duel", (), None, ("__main__:Mine", "random"), 10), jobs=int(sys.argv[1]))
    print([r["winner"] for r in ran.records], ran.failure)
'''

MINE = '''
class Mine:
    def __init__(self, seed):
        pass

    def act(self, game):
        return game.legal_actions()[-1]
'''


def script(tmp_path: Path, top: str, main: str) -> Path:
    path = tmp_path / "my_run.py"
    path.write_text(SCRIPT.format(top=top, main=textwrap.indent(main, "    ")), encoding="utf-8")
    return path


def run_script(env: dict, path: Path, jobs: int, method: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path), str(jobs)], capture_output=True, text=True,
                          env={**env, "RULESDSL_START_METHOD": method}, timeout=300)


@needs_spawn
def test_an_agent_class_of_a_scripts_main_module(spawning, tmp_path):
    env, _ = spawning
    # At the script's top level: a spawned worker runs the script again (as `__mp_main__`,
    # without its `if __name__ == "__main__":` block) and finds the class there.
    top = script(tmp_path, MINE, "pass")
    alone = run_script(env, top, 1, "fork")
    assert alone.returncode == 0 and alone.stdout.startswith("24 {"), alone.stderr
    for method in ("fork", "spawn"):
        done = run_script(env, top, 2, method)
        assert (done.returncode, done.stdout) == (0, alone.stdout), done.stderr
    # Made in that block: there in a forked worker, not in a spawned one, where the run ends
    # at its first game with the error saying why, not with a traceback.
    inside = script(tmp_path, "", MINE)
    assert run_script(env, inside, 2, "fork").stdout == alone.stdout
    done = run_script(env, inside, 2, "spawn")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    why = ("agent '__main__:Mine': module __main__ has no 'Mine', in a worker process (one started by spawn or forkserver imports "
           "the agent's module again, and a script's `if __name__ == \"__main__\":` block does not run there: define "
           "the agent at the top level of a module; docs/agents.md)")
    assert done.stdout.splitlines() == [f"0 {{'0': 0, '1': 0, 'draw': 0}} {why}", f"[] {why}"]


@needs_spawn
def test_a_script_that_runs_games_on_spawned_workers_without_a_main_guard_ends(spawning, tmp_path):
    # Each spawned worker runs the script again, which starts a run of its own there: the
    # worker fails as it starts, and the run ends with the error that says so (not a hang).
    env, _ = spawning
    path = tmp_path / "unguarded.py"
    path.write_text("from rulesdsl.pipeline import load_ruleset\nfrom rulesdsl.simulate import simulate\n"
                    "simulate(load_ruleset(), 24, jobs=2)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env={**env, "RULESDSL_START_METHOD": "spawn"}, timeout=300)
    assert done.returncode == 1
    # (multiprocessing's resource tracker, another process sharing stderr, may warn at its own
    # exit of semaphores a worker's pool made before that worker failed: its lines, when they
    # come, come after the run's own)
    own = [line for line in done.stderr.rstrip().splitlines()
           if "resource_tracker" not in line and "warnings.warn(" not in line]
    assert own[-1] == (
        "rulesdsl.workers.WorkerLost: a worker process ended abruptly (killed, or out of memory?); a worker "
        "started by spawn imports the script that started the run again: a script must be a file, and start the "
        "run under `if __name__ == \"__main__\":` (docs/cli.md, \"Worker processes\")")
