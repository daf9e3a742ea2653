"""Worker processes stop with the command that started them (`rulesdsl.workers`): Ctrl-C ends
a `simulate`, `verify` or `balance` run at once, not after every game it handed out, and no
worker is left behind however the command ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from rulesdsl.balance.runner import Plan, run
from rulesdsl.workers import default_jobs, worker_pool

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")


def _sleep_noting_pid(folder: str) -> None:
    Path(folder, str(os.getpid())).touch()
    time.sleep(60)


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended and not yet reaped, does not)."""
    stat = Path(f"/proc/{pid}/stat")
    if Path("/proc/self/stat").exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_for(check, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_pool_left_by_an_exception_ends_its_busy_workers_at_once(tmp_path):
    start = None
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            for _ in range(6):   # two running, four waiting: none of them may hold the exit up
                pool.submit(_sleep_noting_pid, str(tmp_path))
            assert _wait_for(lambda: len(list(tmp_path.iterdir())) == 2, 20)
            start = time.monotonic()
            raise KeyboardInterrupt
    assert time.monotonic() - start < 5
    pids = [int(p.name) for p in tmp_path.iterdir()]
    assert len(pids) == 2   # only the two running started: the others were cancelled
    assert _wait_for(lambda: not any(_alive(pid) for pid in pids), 10)


def test_workers_end_when_their_parent_dies(tmp_path):
    # A parent that ends without any clean-up (as `kill -9` or an unhandled SIGTERM leaves it).
    script = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_workers import _sleep_noting_pid
        from rulesdsl.workers import worker_pool
        from pathlib import Path
        with worker_pool(2) as pool:
            for _ in range(2):
                pool.submit(_sleep_noting_pid, {str(tmp_path)!r})
            while len(list(Path({str(tmp_path)!r}).iterdir())) < 2:
                time.sleep(0.05)
            os._exit(0)
    """)
    parent = subprocess.run([sys.executable, "-c", script], timeout=60, start_new_session=True)
    assert parent.returncode == 0
    pids = [int(p.name) for p in tmp_path.iterdir()]
    assert len(pids) == 2
    assert _wait_for(lambda: not any(_alive(pid) for pid in pids), 10), "a worker outlived its parent"


def _started(args: list[str]) -> subprocess.Popen:
    """`rulesdsl ARGS` in a process group of its own, Ctrl-C at its default (a test runner may
    have started us with it ignored)."""
    return subprocess.Popen([sys.executable, "-m", "rulesdsl", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _members(pgid: int) -> int:
    """How many living processes the group holds, zombies left out (an ended worker that no
    process reaped yet: in a container, nobody may). Linux: read from /proc; elsewhere `ps`."""
    if Path("/proc/self/stat").exists():
        n = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:   # (pid (name) state ppid pgrp ...: the name may hold spaces, not a ')')
                state, _, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
            except (OSError, IndexError, ValueError):   # a process that ended meanwhile
                continue
            n += int(pgrp) == pgid and state != "Z"
        return n
    table = subprocess.run(["ps", "-A", "-o", "pgid=,stat="], capture_output=True, text=True).stdout.splitlines()
    return sum(1 for line in table if line.split()[:1] == [str(pgid)] and "Z" not in line.split()[1])


def _playing(proc: subprocess.Popen, workers: int = 2) -> None:
    """Wait until the command's workers have started (then a little, so that they play)."""
    assert _wait_for(lambda: _members(proc.pid) >= 1 + workers, 30), "the workers did not start"
    time.sleep(0.5)
    assert proc.poll() is None


def _group_gone(pgid: int) -> bool:
    return _members(pgid) == 0


@pytest.mark.parametrize("command", [["simulate", "-n", "1000000", "-j", "2"],
                                     ["verify", "-n", "100000", "-j", "2"],
                                     ["balance", "--agents", "random,random", "-n", "1000000", "-j", "2"]])
@pytest.mark.parametrize("to", ["the command", "its process group"])
def test_ctrl_c_ends_a_long_run_at_once_and_leaves_no_process(command, to):
    proc = _started(command)
    try:
        _playing(proc)
        if to == "the command":   # `kill -INT`, `timeout -s INT`
            proc.send_signal(signal.SIGINT)
        else:                     # a terminal's Ctrl-C reaches every process of the command
            os.killpg(proc.pid, signal.SIGINT)
        start = time.monotonic()
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - start < 10
        assert proc.returncode == 1
        assert "Traceback" not in err
        if command[0] == "simulate":   # the summary of the games played before Ctrl-C
            assert "interrupted after" in err and "games per second" in out
        else:
            assert "Aborted!" in err or "interrupted after" in err
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker is left"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_an_interrupted_balance_run_keeps_the_games_before_the_first_not_back():
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    result = run(Plan("duel", (), None, ("random", "random"), 2000, seed=3), jobs=2, progress=progress)
    indexes = [r["index"] for r in result.records]
    assert indexes == list(range(len(indexes))) and 0 < len(indexes) < 2000
    assert result.failure == f"interrupted after {len(indexes)} games"


@pytest.mark.parametrize("command, sig", [(["simulate", "-n", "1000000", "-j", "2"], signal.SIGTERM),
                                          (["verify", "-n", "100000", "-j", "2"], signal.SIGTERM),
                                          (["simulate", "-n", "1000000", "-j", "2"], signal.SIGKILL)])
def test_a_killed_run_leaves_no_worker(command, sig):
    proc = _started(command)
    try:
        _playing(proc)
        proc.send_signal(sig)   # `kill`, `timeout`, a cancelled CI job: the command ends at once
        proc.communicate(timeout=30)
        assert proc.returncode == -sig
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker outlived the command"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize("to", ["the command", "its process group"])
def test_sigterm_ends_a_balance_study_as_ctrl_c_does_its_games_kept_and_reported(tmp_path, to):
    # (`kill`, `timeout` and a batch system's time limit send SIGTERM: killed at once, a study
    # lost up to the last 10 seconds of games from its checkpoint and printed no report)
    kept = tmp_path / "study.jsonl"
    command = ["balance", "--agents", "random,random", "-n", "1000000", "-j", "2", "--json",
               "--checkpoint", str(kept)]
    proc = _started(command)
    try:
        _playing(proc)
        if to == "the command":   # `kill PID`
            proc.send_signal(signal.SIGTERM)
        else:                     # `timeout`, which signals the command's process group too
            os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 1, err
        assert "Traceback" not in err
        report = json.loads(out)
        played = report["meta"]["games_played"]
        assert report["meta"]["partial"] and 0 < played < 1000000
        assert f"interrupted after {played} games" in err and f"kept in {kept}" in err
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker is left"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    again = subprocess.run([sys.executable, "-m", "rulesdsl", *command[:4], str(played), *command[5:]],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"holds {played} games of this study" in again.stderr
    assert json.loads(again.stdout)["run"]["resumed"] == played


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="POSIX signals")
def test_a_worker_ends_on_sigterm_under_a_command_that_hears_sigterm_as_ctrl_c():
    # Python 3.12's pool ends the other workers with SIGTERM when one died (the out-of-memory
    # killer): forked under `balance`, whose handler leaves SIGTERM to the command, they heard
    # nothing, and the pool, and the command, waited for them for ever.
    from rulesdsl.balance.command import _terminate_as_ctrl_c
    from rulesdsl.workers import TERM_GRACE
    with _terminate_as_ctrl_c():
        with worker_pool(1, method="fork") as pool:
            worker = pool.result(pool.submit(os.getpid))
            os.kill(worker, signal.SIGTERM)
            assert _wait_for(lambda: not _alive(worker), TERM_GRACE + 10), "the worker lives on"


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this system")
def test_the_default_jobs_are_the_cpus_the_command_may_use():
    # (`taskset -c 0 rulesdsl simulate ...`, or a container's cpuset, allows fewer than the machine has)
    script = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
              "from rulesdsl.workers import default_jobs; print(default_jobs())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "1"
    assert default_jobs() == len(os.sched_getaffinity(0))


def test_ctrl_c_of_simulate_json_prints_the_summary_so_far():
    proc = _started(["simulate", "-n", "1000000", "-j", "2", "--json", "--seed", "4"])
    try:
        _playing(proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    summary = json.loads(out)
    assert proc.returncode == 1 and summary["interrupted"] is True
    assert 0 < summary["games"] < 1000000 and sum(summary["wins"].values()) == summary["games"]
    assert f"interrupted after {summary['games']} of 1000000 games" in err


@pytest.fixture
def ctrl_c_heard():
    """Ctrl-C heard as at a terminal: a test run that a shell started in the background has
    SIGINT ignored, and the run then rightly leaves it so (the children above get it back too)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_first_ctrl_c_asks_a_run_to_stop_and_a_second_stops_it_at_once(ctrl_c_heard):
    from rulesdsl.cli_support import SAME_CTRL_C, stop_on_ctrl_c
    from rulesdsl.simulate import Stop

    before = signal.getsignal(signal.SIGINT)
    with stop_on_ctrl_c() as asked:
        asked()   # nothing pressed yet
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)   # (the handler runs at the first bytecode after the signal)
        with pytest.raises(Stop):
            asked()
        # One sent right after, as `timeout -s INT` sends the command's process group another:
        # the same Ctrl-C.
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)
        with pytest.raises(Stop):
            asked()
        time.sleep(SAME_CTRL_C)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_while_waiting_on_the_pool_ends_the_wait_and_the_pool(ctrl_c_heard):
    # The interrupt is raised by the pool's wait, never inside concurrent.futures (where one
    # left a future's lock held and the exit waiting for it for ever).
    start = time.monotonic()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            pending = [pool.submit(time.sleep, 30) for _ in range(4)]
            timer.start()
            for _ in pool.as_completed(pending):
                pass
    assert time.monotonic() - start < 10


def test_map_keeps_a_bounded_number_of_tasks_ahead():
    consumed: list[int] = []

    def items():
        for i in range(300):
            consumed.append(i)
            yield i

    with worker_pool(2) as pool:
        results = pool.map(abs, items(), ahead=3)
        assert next(results) == 0
        assert len(consumed) <= 5   # (the one waited for, three ahead, one refilled)
        assert list(results) == list(range(1, 300))


def test_a_stopped_pool_has_ended_its_own_thread_before_the_command_exits(tmp_path):
    """CPython 3.11's exit wakes a pool's thread through a pipe that the thread closes as it
    ends, without a lock between the two: a Ctrl-C whose exit came while the thread was ending
    printed a traceback (`OSError: [Errno 9] Bad file descriptor`, 2 runs in 80 of `simulate
    -j 2` on a busy machine).  `stop_now` now returns once that thread has ended."""
    from rulesdsl.workers import stop_now
    with worker_pool(2) as pool:
        for _ in range(4):
            pool.submit(_sleep_noting_pid, str(tmp_path))
        assert _wait_for(lambda: len(list(tmp_path.iterdir())) == 2, 20)
        thread = pool.executor._executor_manager_thread
        assert thread is not None and thread.is_alive()
        start = time.monotonic()
        stop_now(pool)
        assert not thread.is_alive()
        assert time.monotonic() - start < 5


def _spawned(args: list[str]) -> subprocess.Popen:
    """`_started`, with the workers spawned (`RULESDSL_START_METHOD`): they import the rules'
    modules and load the rules again as they start, for a second or more."""
    return subprocess.Popen([sys.executable, "-m", "rulesdsl", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "RULESDSL_START_METHOD": "spawn"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("command", [["simulate", "-n", "1000000", "-j", "2"],
                                     ["verify", "-n", "100000", "-j", "2"],
                                     ["balance", "--agents", "random,random", "-n", "1000000", "-j", "2"]])
def test_ctrl_c_while_spawned_workers_start_ends_the_run_without_their_tracebacks(command):
    # (each worker still importing took the terminal's Ctrl-C: a KeyboardInterrupt traceback of
    # its own, a screenful, before the command's one line)
    proc = _spawned(command)
    try:
        assert _wait_for(lambda: _members(proc.pid) >= 3, 30), "the workers did not start"
        os.killpg(proc.pid, signal.SIGINT)   # at once: they are still starting
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 1
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker is left"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_ctrl_c_while_spawned_workers_play_prints_the_summary_so_far():
    proc = _spawned(["simulate", "-n", "1000000", "-j", "2", "--json", "--seed", "4"])
    try:
        _playing(proc)
        time.sleep(2)   # (spawned: the rules loaded again before the first game)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker is left"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    summary = json.loads(out)
    assert proc.returncode == 1 and summary["interrupted"] is True and "Traceback" not in err
    assert sum(summary["wins"].values()) == summary["games"] < 1000000
    assert f"interrupted after {summary['games']} of 1000000 games" in err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker in /proc")
@pytest.mark.parametrize("command, method", [(["simulate", "-n", "1000000", "-j", "2"], "fork"),
                                             (["verify", "-n", "100000", "-j", "2"], "fork"),
                                             (["balance", "--agents", "random,random", "-n", "1000000", "-j", "2"],
                                              "fork"),
                                             (["simulate", "-n", "1000000", "-j", "2"], "spawn")])
def test_a_worker_killed_ends_the_run_with_one_error_line(command, method):
    # (the out-of-memory killer picks a worker: concurrent.futures' BrokenProcessPool, with a
    # traceback, was all the command said)
    proc = subprocess.Popen([sys.executable, "-m", "rulesdsl", *command],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "RULESDSL_START_METHOD": method})
    try:
        _playing(proc)
        worker = next(int(p.name) for p in Path("/proc").glob("[0-9]*")
                      if p.name != str(proc.pid) and _in_group(int(p.name), proc.pid)
                      and "resource_tracker" not in _command_line(int(p.name)))
        os.kill(worker, signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 1
        assert err.splitlines()[-1].startswith("error: a worker process ended abruptly (killed, or out of memory?)")
        assert "Traceback" not in err, err
        assert _wait_for(lambda: _group_gone(proc.pid), 10), "a worker is left"
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _in_group(pid: int, pgid: int) -> bool:
    try:
        state, _, pgrp = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:3]
    except (OSError, IndexError, ValueError):
        return False
    return int(pgrp) == pgid and state != "Z"


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""
