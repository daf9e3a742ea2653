"""Runaway input: content `check` accepts loads, compiles and plays in time proportional to its
size, and a run asked for more than it will ever finish stops promptly on Ctrl-C."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from card_folders import folder as card_folder
from rulesdsl.compiler import Compiler
from rulesdsl.loader import load_paths, resolve_layers


class TookTooLong(Exception):
    pass


def within(seconds: float, work):
    """work(), or TookTooLong once it has used `seconds` of processor time (a quadratic walk of
    a big input would otherwise hold the test for minutes).  Processor time, not the clock's: a
    machine busy with other work slows the clock's seconds, not the work's."""
    def ring(signum, frame):
        raise TookTooLong
    previous = signal.signal(signal.SIGPROF, ring)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def test_many_copies_compile_in_linear_time(tmp_path: Path):
    # Each copy was compiled re-reading every number of its item's `copies`: 50,000 copies took
    # minutes (1.25 billion numbers read); now each item's numbers are read once.
    copies = 50_000
    text = 'card "Crowd" {\n    age 1\n    color brown\n    copies ' + " 2" * copies + "\n}\n"
    path = card_folder(tmp_path, text)
    # (compiled without `check`, which stops more than MAX_ITEMS items first: E412 below)
    merged = load_paths(resolve_layers([str(path)], "duel"))
    content = within(25, lambda: Compiler(merged, ["duel", str(path)]).compile())
    assert sum(1 for it in content.items if it.name == "Crowd") == copies


def test_ctrl_c_stops_a_run_of_slow_games_at_once_with_its_summary():
    # A worker's task is a run of up to 50 games; the command's own Ctrl-C handler waited for
    # the task's result before it stopped, and 50 games of the search agent take minutes.
    from test_workers import _group_gone, _playing, _started
    proc = _started(["simulate", "-n", "1000000", "-j", "2", "--agents", "mcts,mcts"])
    try:
        _playing(proc)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - start < 10
        assert proc.returncode == 1 and "Traceback" not in err
        assert "interrupted after 0 of 1000000 games: the summary covers those" in err
        assert out.startswith("0 games, seed 0, agents mcts vs mcts") and "games per second" in out
    finally:
        if not _group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_buying_from_many_alike_one_of_producers_is_quick():
    # Two neighbours with 20 producers each of "one of 7 resources": the purchase search tried
    # every subset of the producers (minutes for a single build); producers alike are now one
    # source of as many units, and the ways to pay are the same.
    from rulesdsl.interpreter import trade
    every = tuple(range(7))
    sides = [(seat, [0] * 7, [every] * 20, [2] * 7) for seat in (1, 2)]
    need = [2] * 7
    ways = within(20, lambda: trade._buy(need, sides, {}))
    assert ways == {(2 * a, 2 * (14 - a)) for a in range(15)}


def test_a_buyer_with_many_one_of_producers_finds_its_ways_to_pay_quickly():
    # Ten producers of "one of 7 resources" in the buyer's own city: every combination of their
    # choices (8^10) was tried for each build. The ways found, and their order, are the same.
    from itertools import product
    from rulesdsl.interpreter import trade
    every = tuple(range(7))
    need = (2,) * 7
    left = within(20, lambda: trade._own_covers(need, [every] * 10))
    # (no producer may stay idle while a unit is still needed, so all ten give one)
    assert sorted(map(tuple, left)) == sorted(v for v in product(range(3), repeat=7) if sum(v) == 4)
    for producers in range(1, 8):
        alike = [every[: 2 + k % 5] for k in range(producers)]
        assert trade._covers_walked(need, alike) == trade._covers(need, alike)


def test_a_price_with_many_one_of_producers_is_quick():
    # Eleven producers of "one of 5 resources" (no neighbour trade, as in Duel): every
    # combination of their choices (5^11) was tried for each price, 48 s.
    from rulesdsl.interpreter import costs
    every = tuple(range(5))
    price = within(20, lambda: costs.cheapest_trade([3] * 5, [2, 3, 4, 5, 6], [every] * 11, 0))
    assert price == 3 * 2 + 3   # (11 of the 15 units covered; the 4 cheapest left are bought)
    assert costs.cheapest_trade([3] * 5, [2, 3, 4, 5, 6], [every] * 11, 2) == 2 * 2   # (the 2 dearest free)


def test_more_items_than_a_game_may_hold_is_e412_before_anything_is_compiled(tmp_path: Path):
    # 300,000 copies (a 600 KB file) took 21 s and 650 MB to check; a 16 MB file of them would
    # hold gigabytes. `check` now says so at once; the limit counts the copies of every item.
    # (30,000 here: three times the limit, a second to read, so the time limit only catches a
    # hang, even on a machine busy with other work)
    from rulesdsl.limits import MAX_ITEMS
    from rulesdsl.report import check_paths
    path = tmp_path / "crowd.rules"
    path.write_text('card "Crowd" {\n    age 1\n    color brown\n    copies' + " 2" * 30_000 + "\n}\n",
                    encoding="utf-8")
    report = within(20, lambda: check_paths([path]))
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E412", 4, 5)]
    assert f"more than {MAX_ITEMS} items at 2 players" in report.diagnostics[0].message
    # Many items, none with many copies, are counted alike (reported at the one past the limit).
    many = "".join(f'card "Card {i}" {{\n    age 1\n    color brown\n    copies 2 2\n}}\n'
                   for i in range(MAX_ITEMS // 2))
    path.write_text(many, encoding="utf-8")
    got = [d for d in check_paths([path]).diagnostics if d.code == "E412"]
    assert len(got) == 1 and "card `Card " in got[0].message


def test_a_long_flat_sum_is_told_that_each_operator_is_a_level(tmp_path: Path):
    # `points 1+1+...` of 120 terms is E007, as documented (each operator a level); its message
    # spoke of "blocks and brackets" only, and the text has neither.
    from rulesdsl.report import check_paths
    path = tmp_path / "sum.rules"
    path.write_text('card "Sum" {\n    age 1\n    color blue\n    points ' + "+".join(["1"] * 120) + "\n}\n",
                    encoding="utf-8")
    (d,) = check_paths([path]).diagnostics
    assert d.code == "E007" and "levels of blocks, brackets and operators" in d.message
    assert "takes a level for each `+` (write its total)" in d.help
