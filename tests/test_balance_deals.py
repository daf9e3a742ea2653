"""The balance lab's intervals take the deal as their unit: a deal's games (its seatings, the
line-up rotated) share their cards and their results go together, so a figure's interval counted
game by game held its truth some 88-93 % of the time, not 95 % (docs/balance.md)."""

from __future__ import annotations

import pytest

from rulesdsl.balance.analysis import compare, summarise
from rulesdsl.balance.runner import Plan, run
from rulesdsl.balance.stats import (clustered, clustered_mean_interval, design_effect, mean_interval, newcombe_paired, wilson)


def test_the_design_effect_is_the_variance_between_deals_over_the_variance_of_games():
    # 8 games in deals of 2 whose games agree: deal sums 2, 0, 2, 0 about a mean of 1 a deal:
    # 4/3 * 4 / 64 between deals, against (8 * 0.25 / 7) / 8 were the games independent.
    assert design_effect([1, 1, 0, 0, 1, 1, 0, 0], 2) == pytest.approx((4 / 3 * 4 / 64) / (0.25 / 7), rel=1e-12)
    # (deals that all agree vary less than their games: truncated at 1, never narrower)
    assert design_effect([1, 0, 1, 0, 0, 1], 2) == 1.0
    assert design_effect([0, 0, 0, 0], 2) == 1.0 and design_effect([1, 0], 2) == 1.0   # (no spread; one deal)
    # A mean over whole deals: the t interval of the deals' means (J - 1 degrees of freedom).
    assert clustered_mean_interval([1, 2, 3, 7, 5, 6], 2) == pytest.approx(mean_interval([1.5, 5.0, 5.5]), abs=1e-12)
    # Games 1.. of a run (the first deal cut short): deals {1}, {2, 3}, {4, 5}.
    m, low, high = clustered_mean_interval([1, 2, 3, 4, 5], 2, offset=1)
    assert m == 3.0 and low < 3.0 < high
    # sums 1, 5, 9 of 1, 2, 2 values about 3 a value: 3/2 * (4 + 1 + 9) / 5^2 between deals
    assert clustered([1, 2, 3, 4, 5], 2, offset=1) == pytest.approx((3.0, 0.84, 2.5 / 5, 3), rel=1e-12)
    # (a run cut short: its last deal {5} of one game)
    assert clustered([1, 2, 3, 4, 5], 2) == pytest.approx((3.0, 0.84, 2.5 / 5, 3), rel=1e-12)
    assert clustered([1, 2, 3], 4, offset=1)[3] == 1


def _games(seed: int, n: int = 40):
    return run(Plan("duel", (), None, ("random", "random"), n, seed)).outcomes


def test_the_ab_win_rates_intervals_count_deals_not_games():
    # A/A on other deals (seeds 5 and 105): the agents' win rates' differences go together within
    # a deal (design effect 1.29 here), so the interval is Newcombe's paired one at 40 / 1.29 pairs.
    oa, ob = _games(5), _games(105)
    a, b = summarise(oa, {}, []), summarise(ob, {}, [])
    metrics = {m["metric"]: m for m in compare(a, b, oa, ob)["metrics"]}
    m = metrics[f"win rate {a['agents'][0]['agent']}"]
    won_a = [w != -1 and (w - k) % 2 == 0 for k, w in enumerate(oa.winners)]   # (position 0's wins)
    won_b = [w != -1 and (w - k) % 2 == 0 for k, w in enumerate(ob.winners)]
    both = sum(x and y for x, y in zip(won_a, won_b))
    table = (both, sum(won_b) - both, sum(won_a) - both, 40 - sum(won_a) - sum(won_b) + both)
    deals = [sum(won_b[d:d + 2]) - sum(won_a[d:d + 2]) for d in range(0, 40, 2)]
    games = [y - x for x, y in zip(won_a, won_b)]
    mean = sum(games) / 40
    deff = (20 / 19 * sum((s - 2 * mean) ** 2 for s in deals) / 40 ** 2) / (
        sum((g - mean) ** 2 for g in games) / 39 / 40)
    assert deff == pytest.approx(1.287, abs=1e-3)
    assert (m["low"], m["high"]) == pytest.approx(newcombe_paired(*(c / deff for c in table)), abs=1e-12)
    game_by_game = newcombe_paired(*table)
    assert m["high"] - m["low"] > (game_by_game[1] - game_by_game[0]) * 1.1


def test_a_runs_agents_intervals_count_deals_not_games():
    o = _games(5)
    report = summarise(o, {}, [])
    wider = 0
    for p, e in enumerate(report["agents"]):
        won = [w == (p + k) % 2 for k, w in enumerate(o.winners)]
        assert e["wins"] == sum(won)
        games = [int(x) for x in won]
        mean = sum(games) / 40
        deals = [sum(games[d:d + 2]) for d in range(0, 40, 2)]
        deff = max(1.0, (20 / 19 * sum((s - 2 * mean) ** 2 for s in deals) / 40 ** 2) / (
            sum((g - mean) ** 2 for g in games) / 39 / 40))
        assert (e["low"], e["high"]) == pytest.approx(wilson(sum(won) / deff, 40 / deff), abs=1e-12)
        wider += e["high"] - e["low"] > wilson(sum(won), 40)[1] - wilson(sum(won), 40)[0] + 1e-9
        # Its mean score: the t interval of its deals' mean scores (19 degrees of freedom).
        scores = o.by_position(o.totals, p)
        by_deal = [(scores[d] + scores[d + 1]) / 2 for d in range(0, 40, 2)]
        assert (e["score"]["low"], e["score"]["high"]) == pytest.approx(mean_interval(by_deal)[1:], abs=1e-12)
    assert wider == 2
    for s, e in enumerate(report["seats"]):
        by_deal = [(o.totals[2 * d + s] + o.totals[2 * d + 2 + s]) / 2 for d in range(0, 40, 2)]
        assert (e["score"]["low"], e["score"]["high"]) == pytest.approx(mean_interval(by_deal)[1:], abs=1e-12)
    turns = [(o.turns[d] + o.turns[d + 1]) / 2 for d in range(0, 40, 2)]
    assert (report["length"]["turns"]["low"], report["length"]["turns"]["high"]) == pytest.approx(
        mean_interval(turns)[1:], abs=1e-12)


def test_the_draws_share_is_given_deal_by_deal_and_the_page_shows_it(tmp_path):
    """The page's shared-victory row took Wilson's interval game by game from the count alone,
    where every other rate of the report counts deals (seed 3: game 87 of 200 is shared)."""
    import json
    from click.testing import CliRunner
    from rulesdsl.cli import cli
    o = run(Plan("duel", (), None, ("random", "random"), 200, 3)).outcomes
    report = summarise(o, {}, [])
    shared = report["draw_rate"]
    assert shared["wins"] == report["draws"] == sum(w == -1 for w in o.winners) >= 1
    deff = design_effect([w == -1 for w in o.winners], 2)
    assert (shared["low"], shared["high"]) == pytest.approx(wilson(report["draws"] / deff, 200 / deff), abs=1e-12)
    page = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["balance", "--agents", "random,random", "-n", "200", "-s", "3", "-j", "1",
                                      "--json", "--html", str(page)], catch_exceptions=False)
    printed = json.loads(result.stdout)["draw_rate"]
    assert (printed["low"], printed["high"]) == pytest.approx((shared["low"], shared["high"]), abs=1e-12)
    row = f"<td>shared (draw)</td><td>{report['draws']}</td><td>{100 * shared['rate']:.1f}%</td>" \
          f"<td>[{100 * shared['low']:.1f}%, {100 * shared['high']:.1f}%]</td>"
    assert row in page.read_text(encoding="utf-8")
    # (one draw in 200 games: its design effect is 1, the game-by-game interval's; the page reads
    # the report's, whatever it is)
    from rulesdsl.balance.html import render_html
    made = json.loads(result.stdout)
    made["draw_rate"] = {**made["draw_rate"], "low": 0.0123, "high": 0.0456}
    assert "<td>[1.2%, 4.6%]</td>" in render_html(made)
