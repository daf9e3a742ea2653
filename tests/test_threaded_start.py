"""Workers started from a process that runs other threads (a notebook kernel, a web server, a
GUI, a progress bar): no fork then, unless the user asked for it (`rulesdsl.workers.start_method`).
A fork copies only the thread that calls it, and a lock another thread held at that moment stays
held in the worker; Python 3.12 warns "This process ... is multi-threaded, use of fork() may lead
to deadlocks in the child".  The results are those of one process whichever way the workers start."""

from __future__ import annotations

import io
import multiprocessing
import threading
import warnings
from pathlib import Path
from typing import Iterator

import pytest

from rulesdsl.balance.lab import balance
from rulesdsl.balance.runner import Plan
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate
from rulesdsl.testing.verify import verify
from rulesdsl import workers
from rulesdsl.workers import START_METHOD, start_method

HANDS = str(Path(__file__).parent / "data" / "hands")
METHODS = multiprocessing.get_all_start_methods()
NOT_FORK = "forkserver" if "forkserver" in METHODS else "spawn"

needs_fork = pytest.mark.skipif("fork" not in METHODS, reason="no fork start method")


@pytest.fixture
def other_thread(monkeypatch) -> Iterator[threading.Thread]:
    """A second thread, alive until the test ends; the start method left to the default."""
    monkeypatch.delenv(START_METHOD, raising=False)
    release = threading.Event()
    thread = threading.Thread(target=release.wait, daemon=True)
    thread.start()
    yield thread
    release.set()
    thread.join()


def forks_warned(caught: list[warnings.WarningMessage]) -> list[str]:
    """Python 3.12's fork warnings among those recorded (recorded, not made errors: 3.12 drops
    the warning when the filter says `error`, as it cannot raise in the middle of a fork)."""
    return [str(w.message) for w in caught if "use of fork() may lead to deadlocks" in str(w.message)]


def test_the_threads_of_this_process_are_counted(other_thread):
    assert workers.threads() == threading.active_count() >= 2


@needs_fork
def test_a_second_thread_alive_starts_workers_without_fork(other_thread):
    assert start_method() == NOT_FORK


@needs_fork
def test_fork_asked_for_is_kept_with_a_second_thread_alive(other_thread, monkeypatch):
    monkeypatch.setenv(START_METHOD, "fork")
    assert start_method() == "fork"
    rules = load_ruleset((), "duel", None)
    with warnings.catch_warnings(record=True):   # (warned of on 3.12: the user's choice)
        warnings.simplefilter("always", DeprecationWarning)
        one, two = (simulate(rules, 24, seed=3, jobs=j) for j in (1, 2))
    for result in (one, two):
        del result["seconds"], result["games_per_second"]
    assert one == two


@needs_fork
def test_one_thread_alone_still_forks(monkeypatch):
    monkeypatch.delenv(START_METHOD, raising=False)
    if workers.threads() > 1:
        pytest.skip("another thread of the test run is alive")
    assert start_method() == "fork"


@needs_fork
def test_pools_one_after_another_leave_no_thread_for_the_next_to_see(monkeypatch):
    # (a pool's threads, joined, were still ending in the system when the next pool forked:
    # Python 3.12 warned of them in 3 to 21 runs in 30)
    monkeypatch.delenv(START_METHOD, raising=False)
    if workers.threads() > 1:
        pytest.skip("another thread of the test run is alive")
    system = Path("/proc/self/task")
    # (a library's own threads, numpy's, are there before and after; one of an earlier test
    # may still be ending: none may be added)
    before = {t.name for t in system.iterdir()} if system.is_dir() else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        for _ in range(100):
            assert start_method() == "fork"
            with workers.worker_pool(2) as pool:
                assert list(pool.map(abs, range(-5, 5))) == [5, 4, 3, 2, 1, 0, 1, 2, 3, 4]
            if before is not None:
                assert {t.name for t in system.iterdir()} <= before
    assert not forks_warned(caught)


def test_simulate_with_a_second_thread_alive_forks_nothing_and_gives_one_process_s_summary(other_thread):
    rules = load_ruleset((), "duel", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        two = simulate(rules, 24, seed=7, jobs=2)
    one = simulate(rules, 24, seed=7, jobs=1)
    assert not forks_warned(caught)
    for result in (one, two):
        del result["seconds"], result["games_per_second"]
    assert one == two and sum(one["wins"].values()) == 24


def test_verify_with_a_second_thread_alive_forks_nothing_and_finds_what_one_process_finds(other_thread):
    rules = load_ruleset((), "duel", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        two = verify(rules.content, 40, seed=0, jobs=2, shrink_failure=False)
    one = verify(rules.content, 40, seed=0, jobs=1, shrink_failure=False)
    assert not forks_warned(caught)
    assert (two.games, two.actions, two.failure) == (one.games, one.actions, one.failure)
    assert one.games == 40 and one.failure is None


def test_balance_with_a_second_thread_alive_forks_nothing_and_gives_one_process_s_report(other_thread):
    plan = Plan(HANDS, (), 3, ("random", "greedy", "random"), 9, seed=7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        two, rec2 = balance(plan, jobs=2)
    one, rec1 = balance(plan, jobs=1)
    assert not forks_warned(caught)
    assert rec1 == rec2
    one.pop("run"), two.pop("run")
    assert one == two


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_balance_progress_bar_draws_without_a_thread_of_its_own(monkeypatch):
    # (rich's drawing thread was alive when the run forked its workers)
    from rulesdsl.balance import command
    screen = _Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    before = threading.active_count()
    with command._progress() as progress:
        assert threading.active_count() == before
        progress(3, 9)
        progress(9, 9)
        assert threading.active_count() == before
    assert "9/9" in screen.getvalue()


# An agent class defined in a notebook, a console or a script on stdin: a new process (forkserver,
# spawn) cannot import it, so a run that names one forks, threads or not, as Python did by
# default before 3.14 (it ended "a worker process ended abruptly" at its first game).
_INTERACTIVE = """
import json, random, sys, threading
from rulesdsl.balance.lab import balance
from rulesdsl.balance.runner import Plan
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate
release = threading.Event()
threading.Thread(target=release.wait, daemon=True).start()   # (a notebook kernel's)
class Mine:
    name = "mine"
    def __init__(self, seed=0):
        self.rng = random.Random(seed)
    def act(self, game):
        actions = game.legal_actions()
        return actions[self.rng.randrange(len(actions))]
if sys.argv[1] == "simulate":
    got = [simulate(load_ruleset([], base="duel"), 30, seed=2, agents=["__main__:Mine", "random"], jobs=j)
           for j in (1, 2)]
    print(json.dumps([{k: g[k] for k in ("games", "wins", "error")} for g in got]))
else:
    got = [balance(Plan("duel", (), None, ("__main__:Mine", "random"), 30, seed=2), jobs=j)[0] for j in (1, 2)]
    for report in got:
        report.pop("run")
    print(json.dumps(got, sort_keys=True))
release.set()
"""


@needs_fork
@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_an_agent_defined_interactively_plays_on_workers_with_a_second_thread_alive(command):
    import json
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != START_METHOD}
    done = subprocess.run([sys.executable, "-", command], input=_INTERACTIVE, capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    one, two = json.loads(done.stdout)
    assert one == two
    if command == "simulate":
        assert one["games"] == 30 and one["error"] is None
    else:
        assert one["meta"]["error"] is None and len(one["games"]) == 30


def test_which_agents_only_a_fork_can_give(monkeypatch):
    import sys
    import types
    from rulesdsl.agents import defined_interactively
    console = types.ModuleType("__main__")   # (a console's, a notebook's: no file)
    monkeypatch.setitem(sys.modules, "__main__", console)
    assert defined_interactively(["random", "__main__:Mine"])
    assert defined_interactively([" __main__ : Mine"])
    assert not defined_interactively(["random", "greedy", "mypackage.bots:Mine"])
    console.__file__ = __file__   # (a script: a new process imports it again)
    assert not defined_interactively(["__main__:Mine"])
    console.__file__ = "<stdin>"
    assert defined_interactively(["__main__:Mine"])


@needs_fork
def test_a_run_that_needs_fork_forks_with_a_second_thread_alive_unless_told_otherwise(other_thread, monkeypatch):
    assert start_method(fork_only=True) == "fork"
    assert start_method() == NOT_FORK
    monkeypatch.setenv(START_METHOD, "spawn")
    assert start_method(fork_only=True) == "spawn"   # (asked for: the run then says why the agent is missing)


def test_a_lost_worker_is_said_of_the_method_its_pool_used():
    # (it asked `start_method()` again, and said "spawned" of workers started by forkserver)
    from rulesdsl.workers import lost_message
    assert lost_message("fork") == "a worker process ended abruptly (killed, or out of memory?)"
    assert "; a worker started by forkserver imports the script that started the run again" in lost_message("forkserver")
    assert "; a worker started by spawn imports" in lost_message("spawn")
