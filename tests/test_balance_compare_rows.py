"""Each row of an A/B (`rulesdsl balance --compare`) says one thing: its interval leaves out 0
exactly when its p-value (before Holm's correction) is below 0.05, since the p is the one the
interval inverts; and a definition's row takes the deal as its unit, as the metrics do, a deal's
seat-games going together; a single run's definitions' rows agree with themselves too
(docs/balance.md)."""

from __future__ import annotations

import json
import random
from collections import Counter

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from balance_games import games_won_by_deal as _games
from rulesdsl.balance.analysis import Holdings, Tally, compare, summarise
from rulesdsl.balance.deals import DealSums
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.report import metric_cells
from rulesdsl.balance.stats import (newcombe, newcombe_p, newcombe_paired_clustered, newcombe_paired_p,
                                    ratio_design_effect)
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
    n = len(games_a)
    built = (n, Holdings.of(games_a).counts(), Holdings.of(games_b).counts())
    result = compare(a, b, Outcomes.of(games_a), Outcomes.of(games_b), built=built)
    rows = result["metrics"] + [d for d in result["definitions"] if d["p"] is not None]
    for row in rows:
        assert _agree(row), row
    for d in result["definitions"]:
        if d["p"] is not None:
            assert d["a_deff"] >= 1 and d["b_deff"] >= 1


# -- a definition's rows take the deal as their unit ----------------------------------------------

def test_the_sums_over_the_deals_are_those_of_each_deal_whatever_cuts_the_games():
    rng = random.Random(4)
    seats = 3
    games = _games(rng, 30, seats)
    # (what each deal's seat-games built and won, counted directly)
    b, w = Counter(), Counter()
    for g in games:
        for s in range(seats):
            if g["built"][s]:
                b[g["index"] // seats] += 1
                w[g["index"] // seats] += g["winner"] == s
    whole = Holdings.of(games)
    assert whole.deals.squares("X") == (sum(v * v for v in b.values()), sum(b[d] * w[d] for d in b),
                                        sum(v * v for v in w.values()))
    assert not whole.deals.open
    # Batches cut mid-deal (a run stopped and resumed), merged in any order: the same sums.
    cuts = [0, 4, 5, 17, 31, 44, 45, 62, 90]
    parts = [Holdings.of(games[i:j]) for i, j in zip(cuts, cuts[1:])]
    assert parts[1].deals.open and not parts[1].deals.bb   # (games 4: a deal cut at both ends)
    rng.shuffle(parts)
    merged = Holdings()
    for part in parts:
        merged.merge(part)
    assert merged.deals == whole.deals and merged.counts() == whole.counts()
    # The design effect is the ratio estimator's between-deal variance over the binomial one.
    k, n = whole.counts()["X"][1], whole.counts()["X"][0]
    r = k / n
    between = 30 / 29 * sum((w[d] - r * b[d]) ** 2 for d in range(30)) / n ** 2
    assert ratio_design_effect(k, n, *whole.deals.squares("X"), 30) == max(1.0, between / (r * (1 - r) / n))
    assert ratio_design_effect(k, n, *whole.deals.squares("X"), 30) > 1.2   # (deals that go together)
    assert ratio_design_effect(k, n, *whole.deals.squares("X"), 1) == 1.0   # (one deal: nothing to measure)
    assert DealSums().squares("X") == (0, 0, 0)


def test_a_real_compare_every_row_agrees_and_the_definitions_count_deals(tmp_path):
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
        effective = (d["b_won"] / d["b_deff"], d["b_built"] / d["b_deff"], d["a_won"] / d["a_deff"],
                     d["a_built"] / d["a_deff"])
        assert [d["low"], d["high"]] == list(newcombe(*effective)) and d["p"] == newcombe_p(*effective)
    # (a deal's seat-games go together: many definitions' design effects are above 1)
    assert sum(d["a_deff"] > 1 for d in compared) > len(compared) / 3
    # This run's Lumber Yard row: taken seat-game by seat-game, its interval [-0.15 %, 31.9 %] held
    # 0 beside a z test's p of 0.048.
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


def test_a_sides_sums_at_the_games_compared_make_whole_the_deal_a_batch_end_cuts(monkeypatch):
    # A side's batches end at games 5 and 11 (a run stopped mid-deal and resumed): compared on
    # its first 8 games, the tally's sums at 5 and games 5 to 7 played again make deal 2 whole.
    from rulesdsl.balance import lab
    from rulesdsl.balance.runner import RunResult
    games = _games(random.Random(7), 12, 2)
    tally = Tally()
    for i, j in [(0, 5), (5, 11), (11, 24)]:
        tally.add(j, Holdings.of(games[i:j]))
    assert tally.at(8) is None and tally.cut(5).open and 11 in tally.cuts and not tally.cut(24).open
    assert tally.at(24) == Holdings.of(games).counts()
    monkeypatch.setattr(lab, "replay", lambda plan, indexes, jobs: RunResult(
        Outcomes.of(games[indexes.start:indexes.stop]), holdings=Holdings.of(games[indexes.start:indexes.stop])))
    got = lab._built_over(None, tally, Outcomes.of(games), 8, 1)
    assert got == Holdings.of(games[:8]).counts() and got["X"][2] > 0


def test_a_checkpoint_keeps_the_sums_over_the_deals_and_the_deals_its_lines_cut(tmp_path):
    from rulesdsl.balance.checkpoint import Checkpoint
    games = _games(random.Random(9), 8, 2)
    kept, identity = tmp_path / "study.jsonl", [{"seed": 1, "agents": ["a0", "a1"]}]
    with Checkpoint.open(kept, identity, every=0) as cp:
        for i, j in [(0, 5), (5, 11)]:   # (lines cutting deals 2 and 5)
            cp.append(0, Outcomes.of(games[i:j]), Holdings.of(games[i:j]))
    with Checkpoint.open(kept, identity) as cp:
        saved = cp.saved[0]
    assert saved.holdings == Holdings.of(games[:11]) and saved.holdings.deals.open
    assert saved.tally.cut(5).open and saved.tally.at(10) is None
    assert saved.tally.at(11) == Holdings.of(games[:11]).counts()


def test_a_single_runs_definitions_rows_agree_with_themselves_too():
    # (built against not built in one run: Newcombe's interval, and the z test's p beside it
    # before: Press's [+0.04 %, +42.1 %] beside a p of 0.05004 in this run)
    from rulesdsl.balance.lab import balance
    from rulesdsl.balance.runner import Plan
    report, _ = balance(Plan("duel", (), None, ("greedy", "random"), 60, seed=1), rows=False)
    tested = [e for es in report["definitions"].values() for e in es if e["p"] is not None]
    assert len(tested) > 50
    for e in tested:
        assert _agree({"low": e["delta_low"], "high": e["delta_high"], "p": e["p"]}), e["name"]
        # (both sides at their effective numbers of seat-games, over the difference's design effect
        # of the deals)
        d = e["deff"]
        assert e["p"] == newcombe_p(e["won_built"] / d, e["built"] / d, e["won_not_built"] / d, e["not_built"] / d)
    press = next(e for e in tested if e["name"] == "Press")
    # (its seat-games taken as independent, the interval that left out 0 beside the z test's p;
    # deal by deal, a design effect above 1, it holds 0, and its p is above the level)
    counts = (press["won_built"], press["built"], press["won_not_built"], press["not_built"])
    assert newcombe(*counts)[0] > 0 and newcombe_p(*counts) < LEVEL
    assert press["deff"] > 1 and press["delta_low"] < 0 < press["delta_high"] and press["p"] > LEVEL
