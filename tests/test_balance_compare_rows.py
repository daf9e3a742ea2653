"""Each row of an A/B (`rulesdsl balance --compare`) says one thing: its interval leaves out 0
exactly when its p-value (before Holm's correction) is below 0.05, since the p is the one the
interval inverts (docs/balance.md)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from rulesdsl.balance.analysis import compare, summarise
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.report import metric_cells
from rulesdsl.balance.stats import newcombe, newcombe_p, newcombe_paired_clustered, newcombe_paired_p
from rulesdsl.cli import cli

LEVEL = 0.05
META = {"players": 2, "game": "duel", "seed": 0, "agents": ["x", "y"], "content_hash": "0" * 16}


def _leaves_out_0(row: dict) -> bool:
    # (no interval: the whole line, which holds 0)
    return row["low"] is not None and (row["low"] > 0 or row["high"] < 0)


def _agree(row: dict) -> bool:
    return _leaves_out_0(row) is (row["p"] < LEVEL)


# -- the statistics, on generated count tables -----------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60),
       st.floats(1.0, 3.0))
def test_a_paired_rates_interval_leaves_out_0_exactly_when_its_p_is_below_the_level(both, b_only, a_only, neither,
                                                                                     deff):
    low, high = newcombe_paired_clustered(both, b_only, a_only, neither, deff)
    p = newcombe_paired_p(both, b_only, a_only, neither, deff)
    assert 0 <= p <= 1
    assert (low > 0 or high < 0) is (p < LEVEL)
    if b_only == a_only:   # (no difference)
        assert p == 1.0


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), st.data(), st.floats(1.0, 3.0), st.floats(1.0, 3.0))
def test_two_rates_interval_leaves_out_0_exactly_when_its_p_is_below_the_level(n1, n2, data, d1, d2):
    k1, k2 = data.draw(st.integers(0, n1)), data.draw(st.integers(0, n2))
    counts = (k1 / d1, n1 / d1, k2 / d2, n2 / d2)
    low, high = newcombe(*counts)
    p = newcombe_p(*counts)
    assert (low > 0 or high < 0) is (p < LEVEL)


# -- the compare rows, on generated games ---------------------------------------------------------

def _record(index: int, winner: int, turns: int, built: list[list[str]]) -> dict:
    return {"index": index, "deal": index // 2, "seed": 1, "rotation": index % 2,
            "agents": ["x", "y"] if index % 2 == 0 else ["y", "x"], "winner": winner, "victory": "civilian",
            "scores": [{"points": 30 + turns % 3}, {"points": 30}], "totals": [30 + turns % 3, 30], "turns": turns,
            "actions": turns, "taken": [[[n, "card", 1] for n in seat] for seat in built],
            "built": [[[n, "card", 1] for n in seat] for seat in built]}


GAME = st.tuples(st.sampled_from([0, 1, -1]), st.integers(10, 13),
                 st.lists(st.lists(st.sampled_from(["X", "Y"]), max_size=2, unique=True), min_size=2, max_size=2))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 20).flatmap(lambda deals: st.tuples(st.lists(GAME, min_size=2 * deals, max_size=2 * deals),
                                                          st.lists(GAME, min_size=2 * deals, max_size=2 * deals))))
def test_every_row_of_a_compare_agrees_with_itself(sides):
    games_a, games_b = ([_record(i, *g) for i, g in enumerate(side)] for side in sides)
    a, b = summarise(games_a, META, [("X", "card"), ("Y", "card")]), summarise(games_b, META, [("X", "card"),
                                                                                                   ("Y", "card")])
    result = compare(a, b, Outcomes.of(games_a), Outcomes.of(games_b))
    rows = result["metrics"] + [d for d in result["definitions"] if d["p"] is not None]
    for row in rows:
        assert _agree(row), row


def test_a_real_compare_every_row_agrees(tmp_path):
    tweak = tmp_path / "tweak"
    tweak.mkdir()
    (tweak / "x.rules").write_text('extend card "Lumber Yard" {\n    points 3\n}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["balance", "--compare", "duel", str(tweak), "--agents", "greedy,random", "-n",
                                      "60", "-s", "4", "-j", "1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    cmp = json.loads(result.stdout)["compare"]
    rows = cmp["metrics"] + [d for d in cmp["definitions"] if d["p"] is not None]
    assert len(rows) > 50
    for row in rows:
        assert _agree(row), row
    compared = [d for d in cmp["definitions"] if d["p"] is not None]
    for d in compared:
        counts = (d["b_won"], d["b_built"], d["a_won"], d["a_built"])
        assert [d["low"], d["high"]] == list(newcombe(*counts)) and d["p"] == newcombe_p(*counts)
    # This run's Lumber Yard row: its interval [-0.15 %, 31.9 %] held 0 beside a z test's p of 0.048.
    lumber = next(d for d in compared if d["name"] == "Lumber Yard")
    assert lumber["low"] < 0 and lumber["p"] >= LEVEL


def test_a_mean_with_no_spread_on_too_few_deals_shows_no_interval():
    # B's games each one turn longer, over 3 deals: the differences have no spread and the sign
    # test's p is 2 / 2^3; an interval [1, 1] would leave out 0 beside it.
    games_a = [_record(i, i % 2, 10, [[], []]) for i in range(6)]
    games_b = [_record(i, i % 2, 11, [[], []]) for i in range(6)]
    result = compare(summarise(games_a, META, []), summarise(games_b, META, []), Outcomes.of(games_a),
                     Outcomes.of(games_b))
    length = next(m for m in result["metrics"] if m["metric"] == "game length (turns)")
    assert (length["delta"], length["low"], length["high"], length["p"]) == (1.0, None, None, 2 / 2 ** 3)
    assert metric_cells(length)[0][4] == "-"
    # (from 6 deals on, the sign test tells it from 0: the interval of no width stands)
    games_a = [_record(i, i % 2, 10, [[], []]) for i in range(12)]
    games_b = [_record(i, i % 2, 11, [[], []]) for i in range(12)]
    result = compare(summarise(games_a, META, []), summarise(games_b, META, []), Outcomes.of(games_a),
                     Outcomes.of(games_b))
    length = next(m for m in result["metrics"] if m["metric"] == "game length (turns)")
    assert (length["low"], length["high"]) == (1.0, 1.0) and length["p"] == 2 / 2 ** 6 < LEVEL
    assert metric_cells(length)[0][4] == "[1.00, 1.00]"
