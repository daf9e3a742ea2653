"""A long run holds memory independent of the number of games asked: its tasks are made as the
worker pool takes them, a few ahead of the one waited for, and their results are still added up
in game order, so any number of jobs gives the same results.  (`simulate -n 1000000000` held
4 GB before its first game, `verify --games 1000000000` 4.4 GB, `balance -n 1000000000` 23 GB.)

The long runs here ask 10**7 games, not 10**9: enough that what a run made per task before it
played (hundreds of thousands of tasks) shows far above the bounds, without taking gigabytes
when these tests run on code that still does."""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import time
import tracemalloc
from typing import Iterator

import attrs
import pytest

from rulesdsl.balance.analysis import Holdings
from rulesdsl.balance.runner import CHUNK, Plan, _chunks, _each_chunk, load, run
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import Stop, chunk_size, chunks, simulate
from rulesdsl.testing.verify import verify
from rulesdsl.workers import Window, start_method, worker_pool

LONG = 10**7
# What the parent may allocate, at its peak, to start a long run and take its first results.
BOUND = 4_000_000   # bytes
# The seconds that takes (a task of random games: well under one).
SECONDS = 15

needs_fork = pytest.mark.skipif(start_method() != "fork", reason="traces the parent alone (fork)")


# -- tracing the parent's allocations alone ----------------------------------------------------

# (a forked worker inherits the parent's tracing: it would play seven times slower, and what it
# allocates is not the parent's)
_PARENT_ONLY: list[bool] = []


def _untrace_child() -> None:
    if _PARENT_ONLY and tracemalloc.is_tracing():
        tracemalloc.stop()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_untrace_child)


@attrs.define
class Traced:
    peak: int = 0
    seconds: float = 0.0


@contextlib.contextmanager
def traced() -> Iterator[Traced]:
    """The peak of what the parent allocated inside the block, and the time the block took."""
    for module in ("concurrent.futures.process", "multiprocessing.connection"):
        importlib.import_module(module)   # (imported once for all: not the run's)
    out = Traced()
    _PARENT_ONLY.append(True)
    tracemalloc.start()
    start = time.monotonic()
    try:
        yield out
    finally:
        out.seconds = time.monotonic() - start
        out.peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        _PARENT_ONLY.clear()


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


@pytest.fixture(scope="module")
def duel():
    return load_ruleset((), "duel", None)


# -- balance's cuts ----------------------------------------------------------------------------

def old_chunks(begin: int, total: int, jobs: int, seats: int, marks: int | None = None) -> list[range]:
    """The cuts as they were made before (every one at once): the lazy ones must be the same."""
    size = max(1, min(CHUNK, (total - begin) // (max(1, jobs) * 8)))
    size = max(seats, size - size % seats)
    cuts = {begin, *range(-(-begin // size) * size, total, size)} if begin < total else set()
    if marks:
        cuts |= set(range(-(-begin // marks) * marks, total, marks))
    starts = sorted(cuts)
    return [range(i, j) for i, j in zip(starts, starts[1:] + [total])]


def test_balance_cuts_its_games_where_it_did():
    for begin, total, jobs, seats, marks in itertools.product(
            (0, 1, 3, 17, 100, 250), (0, 6, 17, 60, 200, 1000, 4321), (1, 2, 3, 8), (1, 2, 3, 4, 7),
            (None, 0, 7, 40, 100, 1000)):
        expected = old_chunks(begin, total, jobs, seats, marks)
        assert list(_each_chunk(begin, total, jobs, seats, marks)) == expected, (begin, total, jobs, seats, marks)
        assert _chunks(begin, total, jobs, seats, marks) == expected


def test_balance_cuts_a_billion_games_as_they_are_taken():
    with traced() as run_:
        cuts = _each_chunk(17, 10**9, 4, 2, marks=1000)
        first = list(itertools.islice(cuts, 30))
    assert run_.peak < 100_000 and run_.seconds < 1
    # (past a few thousand games every task is CHUNK games long: the same cuts as a shorter run's)
    assert first == old_chunks(17, 10**5, 4, 2, marks=1000)[:30]


def test_simulate_cuts_a_billion_games_as_they_are_taken():
    with traced() as run_:
        size = chunk_size(10**9, 2)
        first = list(itertools.islice(chunks(10**9, size), 5))
    assert run_.peak < 100_000
    assert first == [range(a, a + 50) for a in range(0, 250, 50)]
    assert list(chunks(123, 50)) == [range(0, 50), range(50, 100), range(100, 123)]


# -- long runs: what the parent holds before the first results ---------------------------------

@needs_fork
def test_a_long_simulate_holds_little_before_its_first_games(duel):
    def stop_at_ten(n: int) -> None:
        if n == 10:
            raise Stop

    with traced() as run_:
        stopped = simulate(duel, LONG, seed=3, jobs=2, progress=stop_at_ten)
    assert run_.peak < BOUND and run_.seconds < SECONDS
    assert stopped["games"] == 10 and stopped["interrupted"]
    asked = simulate(duel, 10, seed=3, jobs=1)
    assert without_timing(stopped) == without_timing(asked) | {"interrupted": True}


class Enough(Exception):
    pass


@needs_fork
def test_a_long_verify_holds_little_before_its_first_games(duel):
    seen: list[int] = []

    def enough_at_ten(n: int) -> None:
        seen.append(n)
        if len(seen) == 10:
            raise Enough

    with traced() as run_, pytest.raises(Enough):
        verify(duel.content, LONG, seed=0, jobs=2, progress=enough_at_ten)
    assert run_.peak < BOUND and run_.seconds < SECONDS


@needs_fork
def test_a_long_balance_run_holds_little_before_its_first_games():
    plan = Plan("duel", (), None, ("random", "random"), LONG, seed=2)
    load(plan)   # (the rules, compiled once for the session: not the run's)
    joined: list[int] = []

    def interrupt_after_a_batch(games: int, total: int) -> None:
        joined.append(games)
        if games:
            raise KeyboardInterrupt

    with traced() as run_:
        result = run(plan, jobs=2, progress=interrupt_after_a_batch, marks=1000)
    assert run_.peak < BOUND and run_.seconds < SECONDS
    # The first batches, joined in game order (one back before the first waits for it); the
    # report is of them alone.
    played = len(result.outcomes)
    assert joined[-1] == played and played % CHUNK == 0 and 0 < played <= 4 * CHUNK
    assert result.failure == f"interrupted after {played} games"
    alone = run(attrs.evolve(plan, games=played), jobs=1)
    assert result.records == alone.records and result.holdings == alone.holdings


# -- short runs: the same results for any number of jobs ----------------------------------------

def test_a_short_simulate_is_the_same_on_one_and_two_jobs(duel):
    one, two = (simulate(duel, 60, seed=11, jobs=j) for j in (1, 2))
    assert without_timing(one) == without_timing(two) and one["games"] == 60


def test_a_short_verify_is_the_same_on_one_and_two_jobs(duel):
    one, two = (verify(duel.content, 60, seed=4, jobs=j) for j in (1, 2))
    assert (one.games, one.actions, one.invariants, one.failure) == (two.games, two.actions, two.invariants,
                                                                     two.failure)
    assert one.games == 60 and one.ok


def test_a_short_balance_run_is_the_same_on_one_and_two_jobs():
    plan = Plan("duel", (), None, ("random", "greedy"), 60, seed=5)
    batches: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
    results = {}
    for jobs in (1, 2):
        results[jobs] = run(plan, jobs=jobs, marks=20,
                            joining=lambda got, held, jobs=jobs: batches[jobs].append((got.first, got.end)))
    one, two = results[1], results[2]
    assert one.failure is None and two.failure is None
    assert one.records == two.records and len(one.records) == 60
    assert one.holdings == two.holdings and one.holdings != Holdings()
    # (batches join in game order, on the same cuts: a checkpoint appends the same lines)
    expected = [(c.start, c.stop) for c in old_chunks(0, 60, 2, 2, 20)]
    assert batches[2] == expected
    assert batches[1] == [(c.start, c.stop) for c in old_chunks(0, 60, 1, 2, 20)]


# -- the window of tasks -----------------------------------------------------------------------

def counting(n: int, drawn: list[int]) -> Iterator[int]:
    for i in range(n):
        drawn.append(i)
        yield i


def test_a_window_keeps_a_bounded_number_of_tasks_submitted():
    drawn: list[int] = []
    with worker_pool(2) as pool:
        window = Window(pool, abs, counting(300, drawn), ahead=3)
        finished = window.finished()
        item, fut = next(finished)
        assert fut.result() == item and len(drawn) <= 4   # (three submitted, one refilled)
        rest = [(item, fut.result()) for item, fut in finished]
    assert sorted([item] + [i for i, _ in rest]) == list(range(300))
    assert all(i == r for i, r in rest)


def test_a_stopped_window_submits_nothing_more_and_cancels_what_did_not_start():
    drawn: list[int] = []
    # (12 ahead: a process pool starts at most 5 tasks of 2 workers, two running and three in
    # its call queue, and what it starts cannot be cancelled; with 6 ahead, the one left might
    # be started just before the stop, and none was left to cancel)
    with worker_pool(2) as pool:
        window = Window(pool, time.sleep, (0.2 for _ in counting(100, drawn)), ahead=12)
        finished = window.finished()
        next(finished)
        window.stop()
        rest = list(finished)
    assert len(drawn) <= 13 and len(rest) == len(drawn) - 1
    assert any(fut.cancelled() for _, fut in rest)   # (two workers: most had not started)
