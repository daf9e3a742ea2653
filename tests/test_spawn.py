"""How worker processes start (`rulesdsl.workers.start_method`): `RULESDSL_START_METHOD` chooses,
so that the spawn path Windows takes (no fork there) runs on any system."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.pipeline import load_ruleset
from rulesdsl.testing.verify import verify
from rulesdsl.workers import StartMethodError, start_method
from spawn_notes import noting

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
def test_verify_from_python_loads_the_contents_own_game_in_spawned_workers(monkeypatch):
    # (its `base` left at its default had the workers load Duel: a classic run was refused
    # there, "duel plays with 2 players, not 3", and a Duel + expansion run verified plain Duel)
    monkeypatch.setenv("RULESDSL_START_METHOD", "spawn")
    for rules in (load_ruleset((), "classic", 3), load_ruleset(("pantheon",))):
        one, two = (verify(rules, 20, seed=1, jobs=j) for j in (1, 2))
        assert two.ok and (two.games, two.actions) == (one.games, one.actions)


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
    assert done.stderr.rstrip().splitlines()[-1] == (
        "rulesdsl.workers.WorkerLost: a worker process ended abruptly (killed, or out of memory?); a spawned "
        "worker imports the script that started the run again: a script must be a file, and start the run under "
        "`if __name__ == \"__main__\":` (docs/cli.md, \"Worker processes\")")
