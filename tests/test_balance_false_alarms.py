"""An A/B's answer to "did my change unbalance the game?" holds at the level it states: the
metrics are tested with the deal as their unit (a deal's seatings go together) and every row
the verdict reads, metrics and definitions, is one family under Holm's correction
(docs/balance.md; the calibration study is benchmarks/balance_calibration.py)."""

from __future__ import annotations

import math
import re

import attrs
import pytest

from rulesdsl.balance.analysis import compare, summarise
from rulesdsl.balance.lab import ab
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.report import verdict
from rulesdsl.balance.runner import Plan
from rulesdsl.balance.stats import (design_effect, holm, mean_interval, mean_p, newcombe_paired_clustered,
                                    newcombe_paired_p, t_cdf)

META = {"players": 2, "game": "duel", "seed": 0, "agents": ["x", "y"], "content_hash": "0" * 16}


def _record(index: int, winner: int, turns: int, totals: list[int]) -> dict:
    return {"index": index, "deal": index // 2, "seed": 1, "rotation": index % 2,
            "agents": ["x", "y"] if index % 2 == 0 else ["y", "x"], "winner": winner, "victory": "civilian",
            "scores": [{"points": t} for t in totals], "totals": totals, "turns": turns, "actions": turns,
            "taken": [[], []], "built": [[], []]}


def _compare(games_a: list[dict], games_b: list[dict]) -> dict:
    a, b = summarise(games_a, META, []), summarise(games_b, META, [])
    return compare(a, b, Outcomes.of(games_a), Outcomes.of(games_b))


def test_the_mean_test_is_students_t_and_the_sign_test_without_spread():
    values = [1.0, 2.0, 3.0, 4.0]
    t = 2.5 / math.sqrt(math.fsum((v - 2.5) ** 2 for v in values) / 3 / 4)
    assert mean_p(values) == pytest.approx(2 * t_cdf(-t, 3), rel=1e-12)
    # (the interval and the test agree: 0 on the interval's edge is p = 0.05)
    m, low, high = mean_interval(values)
    assert mean_p([v - low for v in values]) == pytest.approx(0.05, rel=1e-9)
    assert mean_p([1.0] * 5) == 2 / 2 ** 5 and mean_p([0.0, 0.0]) == 1.0 and mean_p([3.0]) == 1.0


def test_the_metrics_of_an_ab_take_the_deal_as_their_unit():
    # Each deal's two games shift alike in B (by +2, -2, +2, ... turns and points): 10 deals, not
    # 20 independent games.  The games' t interval was sqrt(2) too narrow, and their +1 seat 0
    # wins a deal counted as two independent games.
    games_a = [_record(i, i % 2, 20, [30, 30]) for i in range(20)]
    shift = [2 if (i // 2) % 3 else -2 for i in range(20)]
    games_b = [_record(i, 0 if (i // 2) % 3 else i % 2, 20 + s, [30 + s, 30 + s]) for i, s in enumerate(shift)]
    metrics = {m["metric"]: m for m in _compare(games_a, games_b)["metrics"]}
    by_deal = [float(s) for s in shift[::2]]
    for name in ("game length (turns)", "mean score"):
        m = metrics[name]
        assert (m["delta"], m["low"], m["high"]) == pytest.approx(mean_interval(by_deal), abs=1e-12), name
        assert m["p"] == pytest.approx(mean_p(by_deal), abs=1e-15), name
    # (seat 0 wins both games of 6 deals in B where it won one of two in A: +1 a deal, 6 deals;
    # the p is the one its interval, taken at the deals' design effect, inverts)
    seat = metrics["win rate seat 0"]
    won_a = [i % 2 == 0 for i in range(20)]
    won_b = [g["winner"] == 0 for g in games_b]
    both = sum(x and y for x, y in zip(won_a, won_b))
    table = (both, sum(won_b) - both, sum(won_a) - both, 20 - sum(won_a) - sum(won_b) + both)
    deff = design_effect([y - x for x, y in zip(won_a, won_b)], 2)
    assert (seat["low"], seat["high"]) == newcombe_paired_clustered(*table, deff)
    assert seat["p"] == newcombe_paired_p(*table, deff) < 0.05 and seat["low"] > 0


def test_every_row_the_verdict_reads_is_one_family_under_holms_correction():
    games_a = [_record(i, i % 2, 20 + i % 3, [30 + i % 5, 31]) for i in range(40)]
    games_b = [_record(i, (i // 3) % 2, 21 + i % 4, [31 + i % 7, 30]) for i in range(40)]
    cmp = _compare(games_a, games_b)
    rows = cmp["metrics"] + [d for d in cmp["definitions"] if d["p"] is not None]
    assert all(m["p"] is not None for m in cmp["metrics"])
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        assert row["p_holm"] == adjusted and row["significant"] is (adjusted < 0.05), row


@pytest.fixture(scope="module")
def same_rules_other_deals() -> dict:
    """An A/A: Duel against itself, random agents, 200 games each, on other deals (seeds 1004
    and 5004): no difference exists.  Each metric tested alone at 5 % called the agents' win
    rates different (+11.0 points, one of 23 such runs in 100 of an audit's A/A study)."""
    plan = Plan("duel", (), None, ("random", "random"), 200, seed=1004)
    result, _ = ab(plan, attrs.evolve(plan, seed=5004), "duel", "duel", 1, rows=False)
    return result


def test_an_aa_run_on_other_deals_finds_no_difference(same_rules_other_deals):
    cmp = same_rules_other_deals["compare"]
    agent = next(m for m in cmp["metrics"] if m["metric"] == "win rate random#1")
    assert agent["low"] > 0 and agent["p"] < 0.05   # (what was called significant)
    assert not agent["significant"] and agent["p_holm"] >= 0.05
    assert verdict(same_rules_other_deals) == (
        "No significant difference between A and B at 0.05 over 200 games (more games find smaller ones)")


@pytest.fixture(scope="module")
def ten_points_more(tmp_path_factory) -> dict:
    """A card that gives 10 points more, 200 random Duel games."""
    from rulesdsl.loader import CARDS_ROOT
    block = 'card "Altar" {\n    age 1\n    color blue\n    chain_gives moon\n    points 3\n}\n'
    assert block in (CARDS_ROOT / "duel" / "age1.rules").read_text(encoding="utf-8")
    stronger = tmp_path_factory.mktemp("stronger")
    (stronger / "altar.rules").write_text("replace " + block.replace("points 3", "points 13"), encoding="utf-8")
    plan = Plan("duel", (), None, ("random", "random"), 200, seed=0)
    return ab(plan, attrs.evolve(plan, expansions=(str(stronger),)), "duel", "stronger", 1, rows=False)[0]


def test_a_change_that_matters_is_still_found_and_named(ten_points_more):
    line = verdict(ten_points_more)
    assert line.startswith("Significant at 0.05, B - A: ") and "card Altar: win rate when built +" in line
    assert "mean score +" in line


def test_the_metrics_tables_show_holms_p_and_mark_what_is_significant(ten_points_more):
    from io import StringIO

    from rich.console import Console

    from rulesdsl.balance.html import render_html
    from rulesdsl.balance.report import render_compare
    out = StringIO()
    render_compare(ten_points_more, Console(file=out, width=300, color_system=None), 5)
    rows = {}
    for line in out.getvalue().splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 7:
            rows[cells[0]] = cells
    score = next(m for m in ten_points_more["compare"]["metrics"] if m["metric"] == "mean score")
    assert re.search(r"95% interval\s*┃\s*Holm p\s*┃\s*at 0.05\s*┃", out.getvalue())
    assert rows["mean score"][5:] == [f"{score['p_holm']:.4f} *", "significant"]
    seat = next(m for m in ten_points_more["compare"]["metrics"] if m["metric"] == "win rate seat 0")
    assert rows["win rate seat 0"][5:] == [f"{seat['p_holm']:.4f}", "-"] and not seat["significant"]
    page = render_html(ten_points_more)
    assert "<th>Holm p</th>" in page and f"{score['p_holm']:.4f} *" in page
