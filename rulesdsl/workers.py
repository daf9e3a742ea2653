"""Worker processes for batches of games (`simulate`, `verify`, `balance`): a process pool
whose workers stop with the command that started them.

- Ctrl-C is the parent's to handle: a terminal sends it to every process of the command, and
  a worker that took it too would die mid-game with a traceback of its own, so workers ignore
  it, from their birth (`_held`: a spawned one imports for a second before it can say so).
  The parent, interrupted, leaves the pool at once (below).
- A pool left by an exception (Ctrl-C, an error, a generator closed early) cancels the tasks
  not started and asks the workers to stop the one they play (`stop_now`), instead of waiting
  for every task it was given (a million-game run would go on after Ctrl-C).  A worker is not
  killed: one killed while it sends a result back would leave half a message in the pool's
  pipe, which the parent would wait on forever.  It is sent a signal on which it abandons
  its task if it is playing one (its result is then that exception, sent whole) and starts
  none after.
- A worker ends when its parent does, however the parent ended (`kill`, `timeout`, a CI job
  cancelled): left alone it would wait for work forever.
- While the pool runs, Ctrl-C never raises inside the pool's own code. A KeyboardInterrupt
  raised while the parent held one of its futures' locks (waiting in `as_completed`) left the
  lock held, and the pool's thread, and the exit with it, waited for it for ever. The signal
  is noted (or handed to a handler the command set, such as `cli_support.stop_on_ctrl_c`'s)
  and the pool's waits (`WorkerPool.map`, `WorkerPool.as_completed`) raise KeyboardInterrupt
  themselves, at most `POLL` seconds later.  Where the command's handler took the signal
  (it stops after the result it waits for), the waits raise `StopAsked` instead: a task is a
  run of games, and one of slow games (the search agent's) came back minutes after Ctrl-C.
- `map` keeps a bounded number of tasks submitted ahead of the one it waits for: a run of ten
  million games no longer queues 200,000 tasks before the first result.  `Window` does the
  same for results taken as they finish: what a run holds does not grow with its length.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import attrs

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# (multiprocessing and concurrent.futures are imported where a pool starts: some 25 ms that
# the commands which never start one, and the pytest plugin, need not pay)

# The signal by which the parent asks its workers to stop (none where there is no such
# signal: there a stopped pool's workers finish the task they play).
STOP_SIGNAL: int | None = getattr(signal, "SIGUSR1", None)


class StopAsked(KeyboardInterrupt):
    """The command heard Ctrl-C (its own handler took it): the pool's wait ends now, with the
    tasks not back dropped, and the command reports what came back before (a caller that does
    not know it takes it for the Ctrl-C it is)."""


class WorkerLost(RuntimeError):
    """A worker process ended abruptly (killed, out of memory, or, spawned, failed to start):
    the pool cannot go on (concurrent.futures' BrokenProcessPool, said in one line)."""


def lost_message(method: str) -> str:
    """What `WorkerLost` says: what ends a worker, and where its workers were not forked
    (`method`), what ends one as it starts."""
    message = "a worker process ended abruptly (killed, or out of memory?)"
    if method != "fork":
        message += (f"; a worker started by {method} imports the script that started the run again: a script "
                    "must be a file, and start the run under `if __name__ == \"__main__\":` (docs/cli.md, "
                    "\"Worker processes\")")
    return message


class Stopped(BaseException):
    """A worker's task abandoned because the parent stopped the pool (a BaseException: no
    `except Exception` of the game's code or an agent's turns it into a result)."""


@attrs.define
class _Worker:
    """What a worker's stop signal reads: whether it is playing a task, and whether it was
    asked to stop; and whether it heard SIGTERM (`_on_terminate`)."""
    playing: bool = False
    stopping: bool = False
    terminating: bool = False


# (one per worker process, set as it starts: the signal handler can reach nothing else)
_SELF = _Worker()


def default_jobs() -> int:
    """Every CPU this process may run on: its affinity where the system keeps one (`taskset`,
    a container's cpuset may allow fewer than the machine has), else the machine's count."""
    getaffinity = getattr(os, "sched_getaffinity", None)
    if getaffinity is not None:
        return max(1, len(getaffinity(0)))
    return max(1, os.cpu_count() or 1)


# The environment variable that chooses how workers start (`start_method`).
START_METHOD = "RULESDSL_START_METHOD"


class StartMethodError(ValueError):
    """`RULESDSL_START_METHOD` names no start method of this platform."""


def start_method(fork_only: bool = False) -> str:
    """How workers start: `RULESDSL_START_METHOD` if set (spawn on a POSIX system runs the
    path Windows takes); else fork where there is one and this process runs no other thread:
    the workers start with the compiled rules (and a user's agent modules) as the parent has
    them; else forkserver (spawn where there is none), where they load the rules again.
    A fork copies only the thread that calls it: a lock another thread held at that moment (a
    progress bar's, a notebook kernel's, a web server's, one of standard error's buffer) stays
    held in the worker for ever, and the worker that takes it hangs (Python 3.12 warns of it).
    `fork_only`: the workers need what only a fork gives them (an agent class defined in a
    notebook or a console, `agents.defined_interactively`): fork where there is one, threads or
    not, as Python did by default before 3.14 (a new process cannot import that class at all).
    A StartMethodError names the methods there are, for one unknown."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    asked = os.environ.get(START_METHOD, "").strip()
    if asked:
        if asked not in methods:
            raise StartMethodError(f"{START_METHOD}={asked!r} is no start method here; "
                                   f"one of: {', '.join(methods)}")
        return asked
    if "fork" in methods and (threads() == 1 or fork_only):
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def threads() -> int:
    """The Python threads this process runs.  (Not the system's count: a library's thread pool
    in C, such as numpy's BLAS, stops before a fork and starts again after it, and counted it
    would have every run of a process that imported numpy start without fork.)"""
    return threading.active_count()


def _native_ids() -> set[int]:
    return {t.native_id for t in threading.enumerate() if t.native_id is not None}


def _ended(ids: set[int]) -> None:
    """Return once the system has ended the threads `ids` (joined: Python is done with them;
    at most `SETTLE` seconds).  A pool's threads are still ending in the system a millisecond
    after their join: a pool forked at once after was warned of them by Python 3.12 (3 to 21
    runs in 30 of two pools in a row), which counts them with the process's threads."""
    import time
    give_up = time.monotonic() + SETTLE
    tasks = "/proc/self/task"
    if not os.path.isdir(tasks):
        return
    while any(os.path.exists(f"{tasks}/{i}") for i in ids) and time.monotonic() < give_up:
        time.sleep(0.001)


# How often a wait on the pool looks whether Ctrl-C was pressed (seconds).
POLL = 0.1


@attrs.define
class WorkerPool:
    """A process pool whose tasks a stop can cut short (`task`), and whose waits Ctrl-C ends."""
    executor: "ProcessPoolExecutor"
    interrupted: threading.Event = attrs.Factory(threading.Event)
    stop_asked: threading.Event = attrs.Factory(threading.Event)   # (the command's handler took Ctrl-C)

    def submit(self, fn: Callable[..., Any], *args: Any) -> "Future":
        with _held():   # (the pool starts its workers in `submit`: they are born holding them)
            return self.executor.submit(task, fn, *args)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], ahead: int = 0) -> Iterator[Any]:
        """fn(item) of each item, in order; at most `ahead` tasks (default: four a worker)
        submitted beyond the one waited for."""
        from collections import deque
        ahead = ahead or self.ahead()
        items = iter(items)
        queued: deque = deque()
        for item in itertools.islice(items, ahead + 1):
            queued.append(self.submit(fn, item))
        while queued:
            result = self.result(queued.popleft())
            for item in itertools.islice(items, 1):
                queued.append(self.submit(fn, item))
            yield result

    def ahead(self) -> int:
        """How many tasks `map` and `Window` keep submitted by default: four a worker."""
        return 4 * max(1, self.executor._max_workers)

    def result(self, future: "Future") -> Any:
        """The future's result, waiting in steps of `POLL` (KeyboardInterrupt once Ctrl-C came)."""
        from concurrent.futures import TimeoutError as Pending
        while True:
            self.check()
            try:
                return future.result(timeout=POLL)
            except Pending:
                continue

    def as_completed(self, pending: Iterable["Future"]) -> Iterator["Future"]:
        """The futures as they finish (`concurrent.futures.as_completed`, Ctrl-C heard)."""
        from concurrent.futures import FIRST_COMPLETED, wait
        order = {f: k for k, f in enumerate(pending)}   # (those done together: in the order given)
        left = set(order)
        while left:
            self.check()
            done, left = wait(left, timeout=POLL, return_when=FIRST_COMPLETED)
            yield from sorted(done, key=order.__getitem__)

    def check(self) -> None:
        if self.interrupted.is_set():
            raise KeyboardInterrupt
        if self.stop_asked.is_set():
            raise StopAsked


@attrs.define
class Window:
    """fn(item) of each item on the pool, taken as each finishes (`finished`), with at most
    `ahead` (default: `WorkerPool.ahead`) submitted and not yet taken: the items are drawn as
    room comes, so a run of a billion games holds a few tasks, not one per task it will run."""
    pool: WorkerPool
    fn: Callable[[Any], Any]
    items: Iterator[Any]
    ahead: int = 0
    pending: dict["Future", Any] = attrs.Factory(dict)   # (each task not yet taken: its item, in submission order)

    def __attrs_post_init__(self) -> None:
        self.items = iter(self.items)
        self.ahead = self.ahead or self.pool.ahead()

    def finished(self) -> Iterator[tuple[Any, "Future"]]:
        """(item, future) of each task as it finishes, those found done together in the order
        submitted (`WorkerPool.as_completed`'s order); a task cancelled by `stop` too."""
        from concurrent.futures import FIRST_COMPLETED, wait
        self._fill()
        while self.pending:
            self.pool.check()
            done, _ = wait(self.pending, timeout=POLL, return_when=FIRST_COMPLETED)
            for fut in [f for f in self.pending if f in done]:
                item = self.pending.pop(fut)
                self._fill()   # (before the caller reads it: the workers need not wait for the parent)
                yield item, fut

    def stop(self) -> None:
        """Submit no more items, and cancel the tasks not started (those started finish)."""
        self.items = iter(())
        for fut in self.pending:
            fut.cancel()

    def _fill(self) -> None:
        for item in itertools.islice(self.items, max(0, self.ahead - len(self.pending))):
            self.pending[self.pool.submit(self.fn, item)] = item


@contextlib.contextmanager
def worker_pool(jobs: int, initializer: Callable[..., Any] | None = None,
                initargs: tuple = (), method: str | None = None) -> Iterator[WorkerPool]:
    """A pool of `jobs` worker processes, each running `initializer(*initargs)` first (callers
    ask for no more than they have tasks: with fork, every worker starts at the first task),
    started by `method` (default: `start_method()`; a caller that prepared the workers' state
    for one method passes the one it chose: a thread may start or end meanwhile)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    before = _native_ids()
    method = method or start_method()
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method),
                                   initializer=_start_worker, initargs=(initializer, initargs))
    pool = WorkerPool(executor)
    previous = _hear_ctrl_c(pool)
    try:
        yield pool
    except BaseException as exc:
        ours = _native_ids() - before
        stop_now(pool)
        _ended(ours - _native_ids())
        from concurrent.futures.process import BrokenProcessPool
        if isinstance(exc, BrokenProcessPool):
            raise WorkerLost(lost_message(method)) from None
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    ours = _native_ids() - before
    executor.shutdown(wait=True)
    _ended(ours - _native_ids())


def _hear_ctrl_c(pool: WorkerPool) -> Any:
    """Have Ctrl-C noted for the pool's waits rather than raised wherever the parent is; the
    handler it replaces (None: none was replaced, off the main thread or where Ctrl-C is
    ignored).  A handler of the command's own (a flag it reads after each game) still hears
    it; what it would raise is noted instead."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN or previous is None:
        return None

    def noted(signum: int, frame: object) -> None:
        if callable(previous) and previous is not signal.default_int_handler:
            try:
                previous(signum, frame)
                pool.stop_asked.set()
                return
            except KeyboardInterrupt:
                pass
        pool.interrupted.set()

    signal.signal(signal.SIGINT, noted)
    return previous


def stop_now(pool: WorkerPool) -> None:
    """Cancel the tasks not started and have the workers stop the ones they play; then give the
    pool's own thread a moment to end (`SETTLE`)."""
    # (The pool names its processes only in this attribute, before Python 3.14 as after.)
    processes = list((getattr(pool.executor, "_processes", None) or {}).values())
    thread = getattr(pool.executor, "_executor_manager_thread", None)   # (`shutdown` lets go of it)
    pool.executor.shutdown(wait=False, cancel_futures=True)
    if STOP_SIGNAL is not None:
        for p in processes:
            with contextlib.suppress(ProcessLookupError):   # (one that has just ended)
                if p.pid is not None:
                    os.kill(p.pid, STOP_SIGNAL)
    # CPython's exit wakes the pool's thread through a pipe that thread closes as it ends, and
    # 3.11 does not lock the two against each other: an exit that came while the thread was
    # ending printed "OSError: [Errno 9] Bad file descriptor" with a traceback after Ctrl-C
    # (2 runs in 80 on a busy machine).  The workers stop within a game, and the thread ends
    # once they have: waited for here, never for long.
    if thread is not None and thread is not threading.current_thread():
        thread.join(SETTLE)


# Seconds `stop_now` waits at most for the pool's thread to end (it takes milliseconds).
SETTLE = 5.0


def task(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a task in a worker, unless it was asked to stop (`stop_now`)."""
    if _SELF.stopping:
        raise Stopped
    _SELF.playing = True
    try:
        return fn(*args)
    finally:
        _SELF.playing = False


def _on_stop(signum: int, frame: object) -> None:
    _SELF.stopping = True
    if _SELF.playing:   # (not while the pool sends a result back: that message must go whole)
        _SELF.playing = False
        raise Stopped


def _on_terminate(signum: int, frame: object) -> None:
    """SIGTERM in a worker: ended `TERM_GRACE` seconds later, unless the pool ends it first.
    Sent to the whole process group (a batch system's time limit, `kill -TERM -PGID`), it
    reaches the command too, which stops the pool in an orderly way within that time (`balance`
    hears it as Ctrl-C and reports the games that came back): a worker that died at once was a
    worker lost to it.  Sent by the pool itself, as Python 3.12's pool ends the others when one
    died (the out-of-memory killer), it must end the worker: ignored, the pool waited for it for
    ever and the command hung."""
    if not _SELF.terminating:
        _SELF.terminating = True
        signal.signal(signal.SIGALRM, signal.SIG_DFL)   # (its default: the process ends)
        signal.alarm(TERM_GRACE)


# Seconds a worker lives on after SIGTERM (`_on_terminate`): the command reacts within `POLL`.
TERM_GRACE = 5


# The signals a worker is born holding (blocked), until it has set what it does with them.
_HELD = {signal.SIGINT} | ({STOP_SIGNAL} if STOP_SIGNAL is not None else set())


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """Ctrl-C and the stop signal held back in this thread meanwhile (they come after, not
    lost).  A process started meanwhile is born holding them, and a spawned one (the
    spawn start method) keeps them through its start: it imports the rules' modules for a
    second or more before `_start_worker` runs, and a Ctrl-C to the command's process group
    then printed a KeyboardInterrupt traceback of every worker still starting."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:   # (no such mask here: Windows)
        yield
        return
    before = block(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)


def _start_worker(initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    import multiprocessing
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # (one held since its birth is dropped here)
    if STOP_SIGNAL is not None:
        signal.signal(STOP_SIGNAL, _on_stop)
    _SELF.terminating = False
    if hasattr(signal, "SIGALRM"):   # (POSIX: a forked worker had the command's handler, or none)
        signal.signal(signal.SIGTERM, _on_terminate)
    if hasattr(signal, "pthread_sigmask"):   # (a stop asked while it started comes now)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    _SELF.playing = _SELF.stopping = False   # (a forked worker starts with its parent's copy)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _end_with(sentinel: int) -> None:
    """Wait for the parent process to end, then end this one (no clean-up: the parent, which
    would have wanted the results, is gone)."""
    import multiprocessing.connection
    multiprocessing.connection.wait([sentinel])
    os._exit(1)
