"""`simulate` and `play` seat a bot author's own agent by the names `balance` takes (`module:Class`,
an entry point of `rulesdsl.agents`), resolved in one place (`rulesdsl.agents`).  Each run is a
`rulesdsl` process with the agents' module on PYTHONPATH, as a bot author runs it: the worker
processes of `--jobs` import it too.  A custom agent that raises or answers an illegal action
ends the run with one `error:` line naming it, its seat and the game's seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot_sources import MISBEHAVING
from spawn_notes import noting

BOTS = MISBEHAVING + '''
from rulesdsl.simulate import game_seed


class Last:
    def __init__(self, seed):
        pass

    def act(self, game):
        return game.legal_actions()[-1]


class FailsInGame25:
    """Raises in game 25 of a run of seed 0 (whichever process plays it), plays the others."""

    def __init__(self, seed):
        pass

    def act(self, game):
        if game.state.seed == game_seed(0, 25):
            raise ValueError("not this one")
        return game.legal_actions()[0]
'''


@pytest.fixture
def bots(tmp_path: Path) -> tuple[str, dict]:
    """The module's name and an environment whose PYTHONPATH holds it, with an installed
    distribution (a dist-info folder) registering `lastbot` in the group `rulesdsl.agents`."""
    name = f"my_bots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(BOTS), encoding="utf-8")
    info = tmp_path / "my_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-bots\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[rulesdsl.agents]\nlastbot = {name}:Last\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    return name, env


def rulesdsl(env: dict, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=600)


def summary(done: subprocess.CompletedProcess) -> dict:
    result = json.loads(done.stdout)
    del result["seconds"], result["games_per_second"]
    return result


def test_simulate_plays_a_custom_agent_by_module_and_by_entry_point_alike_on_any_jobs(bots):
    name, env = bots
    runs = {}
    for agent, jobs in ((f"{name}:Last", "1"), (f"{name}:Last", "2"), ("lastbot", "2")):
        done = rulesdsl(env, "simulate", "-n", "24", "--agents", f"{agent},random", "-j", jobs, "--json")
        assert done.returncode == 0, done.stderr
        runs[agent, jobs] = summary(done)
    one, two, registered = runs.values()
    assert one == two and one["games"] == 24 and one["error"] is None
    assert one["agents"] == [f"{name}:Last", "random"] and registered["agents"] == ["lastbot", "random"]
    assert {k: v for k, v in registered.items() if k != "agents"} == {k: v for k, v in one.items() if k != "agents"}


def test_spawned_workers_import_a_custom_agent_by_module_and_by_entry_point(bots, tmp_path):
    # (as on Windows: no fork, each worker imports the agent's module again, or loads its entry point)
    name, env = bots
    spawning = {**env, **noting(tmp_path, tmp_path / "notes")}
    lineup = f"{name}:Last,lastbot"
    one = rulesdsl(env, "simulate", "-n", "24", "--agents", lineup, "-j", "1", "--json")
    two = rulesdsl(spawning, "simulate", "-n", "24", "--agents", lineup, "-j", "2", "--json")
    assert one.returncode == two.returncode == 0, two.stderr
    assert summary(two) == summary(one) and summary(one)["games"] == 24
    balanced = [rulesdsl(e, "balance", "-n", "20", "--agents", lineup, "-j", j, "--json")
                for e, j in ((env, "1"), (spawning, "2"))]
    assert [b.returncode for b in balanced] == [0, 0], balanced[1].stderr
    reports = [json.loads(b.stdout) for b in balanced]
    for report in reports:
        del report["run"]   # (its jobs and seconds)
    assert reports[0] == reports[1]
    assert len(list((tmp_path / "notes").iterdir())) >= 2, "no worker was spawned"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_agent_that_raises_ends_simulate_with_the_summary_of_the_games_before(bots, jobs):
    name, env = bots
    done = rulesdsl(env, "simulate", "-n", "60", "--agents", f"random,{name}:FailsInGame25", "-j", jobs, "--json")
    assert done.returncode == 1
    err = done.stderr.strip().splitlines()
    assert len(err) == 1, done.stderr
    assert err[0].startswith(f"error: agent '{name}:FailsInGame25' (seat 1) raised ValueError: not this one in "
                             "game 25 (seed ")
    assert err[0].endswith("; the summary covers the 25 games before it")
    asked = rulesdsl(env, "simulate", "-n", "25", "--agents", f"random,{name}:FailsInGame25", "-j", "1", "--json")
    stopped = summary(done)
    assert stopped.pop("error").startswith(f"agent '{name}:FailsInGame25' (seat 1) raised ValueError")
    expected = summary(asked)
    assert expected.pop("error") is None
    assert stopped == expected and stopped["games"] == 25


@pytest.mark.parametrize("bot, message", [
    ("Illegal", "(seat 0) answered an illegal action fly away in game 0 (seed "),
    ("PlaysOnTheGame", "(seat 0) changed the game it was asked about in game 0 (seed "),
])
def test_a_custom_agent_is_not_taken_at_its_word_in_simulate(bots, bot, message):
    name, env = bots
    done = rulesdsl(env, "simulate", "-n", "3", "--agents", f"{name}:{bot},greedy")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: agent '{name}:{bot}' {message}")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "0 games, seed 0, agents" in done.stdout   # (the summary of the games before it: none)


@pytest.mark.parametrize("args, status, line", [
    (["simulate", "--agents", "NAME:Nothing,random"], 1,
     "error: --agents: agent 'NAME:Nothing': module NAME has no 'Nothing'"),
    (["simulate", "--agents", "no_such_module_xyz:Bot,random"], 1,
     "error: --agents: agent 'no_such_module_xyz:Bot': cannot import no_such_module_xyz"),
    (["simulate", "--agents", "lastbt,random"], 2,
     "Error: Invalid value for --agents: unknown agent `lastbt`; did you mean `lastbot`? agents: random, greedy, "
     "mcts, lastbot, or module:Class"),
    (["play", "--agent", "NAME:Nothing"], 1, "error: --agent: agent 'NAME:Nothing': module NAME has no 'Nothing'"),
    (["play", "--agents", "human,no_such_module_xyz:Bot"], 1,
     "error: --agents: agent 'no_such_module_xyz:Bot': cannot import no_such_module_xyz"),
])
def test_an_agent_that_does_not_load_is_one_error_line_before_any_game(bots, args, status, line):
    name, env = bots
    done = rulesdsl(env, *[a.replace("NAME", name) for a in args], "--plain" if args[0] == "play" else "-n1")
    assert done.returncode == status, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(line.replace("NAME", name))
    assert "Traceback" not in done.stderr and "seed" not in done.stdout


def test_play_against_a_custom_agent(bots):
    name, env = bots
    done = rulesdsl(env, "play", "--agent", f"{name}:Last", "-s", "4", "--plain", stdin="1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert f"player 1 ({name}:Last): " in done.stdout and "game over" in done.stdout
    by_entry_point = rulesdsl(env, "play", "--agents", "human,lastbot", "-s", "4", "--plain", stdin="1\n" * 400)
    assert by_entry_point.returncode == 0, by_entry_point.stderr
    assert by_entry_point.stdout.replace("(lastbot)", f"({name}:Last)") == done.stdout


def test_a_custom_agent_that_answers_an_illegal_action_ends_play_with_an_error_line(bots, tmp_path):
    name, env = bots
    save = tmp_path / "kept.json"
    done = rulesdsl(env, "play", "--agents", f"{name}:Illegal,human", "--seat", "1", "-s", "4", "--plain",
                    "--save", str(save), stdin="1\n" * 5)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"error: agent '{name}:Illegal' (seat 0) answered an illegal action fly away in the game of seed 4: ")
    # (the game as it was before its answer, saved: its trace replays)
    assert f"trace written to {save}" in done.stdout and json.loads(save.read_text(encoding="utf-8"))["seed"] == 4
    replayed = rulesdsl(env, "replay", str(save))
    assert replayed.returncode == 0, replayed.stderr


def test_a_bot_module_in_the_working_folder_but_not_on_the_path_is_said_to_be_there(tmp_path, monkeypatch):
    """The `rulesdsl` command does not search the working folder: a bot author's first
    `rulesdsl simulate --agents mybot:Bot` beside mybot.py met a bare ModuleNotFoundError."""
    from rulesdsl.agents import AgentError, resolve
    name = f"bot_here_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(BOTS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    with pytest.raises(AgentError, match=rf"cannot import {name}: ModuleNotFoundError: .* \(it is in the current "
                                         r"folder, which is not searched: run with PYTHONPATH=\. or install it\)$"):
        resolve(f"{name}:Last")
    with pytest.raises(AgentError, match=r"cannot import no_such_module_xyz: ModuleNotFoundError: [^(]*$"):
        resolve("no_such_module_xyz:Bot")
