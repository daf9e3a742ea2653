"""A single run's definitions' rows (win rate when built against when not built) take the deal as
their unit, as an A/B's do: a deal's seat-games go together, and in one game a seat-game that
built a definition and won is one that did not build it and lost, so the difference is taken
deal by deal (its design effect of the deals, `deff`) and its interval and p at the effective
numbers of seat-games (docs/balance.md)."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings, strategies as st

from balance_games import games_won_by_deal
from rulesdsl.balance.analysis import Holdings, summarise
from rulesdsl.balance.lab import balance
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.runner import Plan
from rulesdsl.balance.stats import (newcombe, newcombe_p, ratio_design_effect, ratio_difference_design_effect,
                                    wilson)

LEVEL = 0.05
NAMES = ("X", "Y", "Z")
DEFINITIONS = [(n, "card") for n in NAMES]


def _game(index: int, seats: int, winner: int, built: list[list[str]]) -> dict:
    return {"index": index, "deal": index // seats, "seed": index // seats, "rotation": index % seats,
            "agents": [f"a{(s - index) % seats}" for s in range(seats)], "winner": winner, "victory": "civilian",
            "scores": [{"points": 1}] * seats, "totals": [1] * seats, "turns": 20, "actions": 20,
            "built": [[[n, "card", 2] for n in b] for b in built],
            "taken": [[[n, "card", 2] for n in b] for b in built]}


@st.composite
def _runs(draw) -> tuple[int, list[dict]]:
    """A run of 2 to 4 seats: some deals, the last one maybe cut short (a run stopped mid-deal)."""
    seats = draw(st.integers(2, 4))
    n = draw(st.integers(1, 14 * seats))
    games = []
    for i in range(n):
        winner = draw(st.integers(-1, seats - 1))
        built = [draw(st.lists(st.sampled_from(NAMES), max_size=3, unique=True)) for _ in range(seats)]
        games.append(_game(i, seats, winner, built))
    return seats, games


def _by_deal(games: list[dict], seats: int, name: str) -> list[tuple[int, int, int, int]]:
    """Per deal, counted directly: (its seat-games that built `name`, those that won, those that
    did not build it, those that won)."""
    deals: dict[int, list[int]] = {}
    for g in games:
        d = deals.setdefault(g["index"] // seats, [0, 0, 0, 0])
        for s in range(seats):
            has = any(n == name for n, _k, _t in g["built"][s])
            d[0 if has else 2] += 1
            d[1 if has else 3] += g["winner"] == s
    return [tuple(v) for v in deals.values()]


def _deff_directly(games: list[dict], seats: int, name: str) -> float:
    """The design effect of the difference of the two rates, from each deal's residuals."""
    deals = _by_deal(games, seats, name)
    n1, k1 = sum(d[0] for d in deals), sum(d[1] for d in deals)
    n2, k2 = sum(d[2] for d in deals), sum(d[3] for d in deals)
    if len(deals) < 2 or not 0 < k1 < n1 or not 0 < k2 < n2:
        return 1.0
    r1, r2 = k1 / n1, k2 / n2
    between = len(deals) / (len(deals) - 1) * sum(((w - r1 * b) / n1 - (v - r2 * c) / n2) ** 2
                                                  for b, w, c, v in deals)
    return max(1.0, between / (r1 * (1 - r1) / n1 + r2 * (1 - r2) / n2))


def _rows(report: dict) -> list[dict]:
    return [e for es in report["definitions"].values() for e in es]


@settings(max_examples=100, deadline=None)
@given(_runs())
def test_a_rows_interval_leaves_out_0_exactly_when_its_p_is_below_the_level(run):
    seats, games = run
    for e in _rows(summarise(games, {"players": seats}, DEFINITIONS)):
        if e["p"] is None:
            continue
        assert (e["delta_low"] > 0 or e["delta_high"] < 0) is (e["p"] < LEVEL), e
        assert e["deff"] >= 1 and e["built_deff"] >= 1 and e["not_built_deff"] >= 1


@settings(max_examples=100, deadline=None)
@given(_runs())
def test_the_design_effect_is_the_differences_between_deals_and_its_interval_is_at_the_effective_numbers(run):
    # Every deal counted directly, the last one cut short as it stands.
    seats, games = run
    for e in _rows(summarise(games, {"players": seats}, DEFINITIONS)):
        if e["delta"] is None:
            assert e["deff"] is None
            continue
        deff = _deff_directly(games, seats, e["name"])
        assert abs(e["deff"] - deff) <= 1e-9 * deff
        effective = (e["won_built"] / e["deff"], e["built"] / e["deff"], e["won_not_built"] / e["deff"],
                     e["not_built"] / e["deff"])
        assert (e["delta_low"], e["delta_high"]) == newcombe(*effective)
        if e["p"] is not None:
            assert e["p"] == newcombe_p(*effective)


@settings(max_examples=100, deadline=None)
@given(_runs())
def test_a_design_effect_of_1_gives_the_numbers_of_seat_games_taken_as_independent(run):
    seats, games = run
    for e in _rows(summarise(games, {"players": seats}, DEFINITIONS)):
        if e["deff"] == 1.0:
            counts = (e["won_built"], e["built"], e["won_not_built"], e["not_built"])
            assert (e["delta_low"], e["delta_high"]) == newcombe(*counts)
            if e["p"] is not None:
                assert e["p"] == newcombe_p(*counts)
        if e["built_deff"] == 1.0 and e["built"]:
            assert (e["built_low"], e["built_high"]) == wilson(e["won_built"], e["built"])


@settings(max_examples=100, deadline=None)
@given(_runs(), st.data())
def test_batches_cut_anywhere_merged_in_any_order_give_the_same_sums_and_rows(run, data):
    seats, games = run
    whole = Holdings.of(games)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(games)), max_size=6))) | {0, len(games)})
    parts = [Holdings.of(games[i:j]) for i, j in zip(cuts, cuts[1:])]
    order = data.draw(st.permutations(range(len(parts))))
    merged = Holdings()
    for k in order:
        merged.merge(parts[k])
    assert merged == whole
    for name in NAMES:
        built = whole.counts().get(name, (0, 0))
        assert merged.deals.sides(name, *built[:2]) == whole.deals.sides(name, *built[:2])
    report = summarise(games, {"players": seats}, DEFINITIONS)
    again = summarise(Outcomes.of(games), {"players": seats}, DEFINITIONS, holdings=merged)
    assert again["definitions"] == report["definitions"]


def test_a_definition_built_and_lost_deal_by_deal_has_a_wider_interval_than_its_seat_games_give():
    # Deals where X wins at every seating, and deals where it loses at every one: its seat-games'
    # results go together by deal, and each seat-game that built it and won is one that did not
    # and lost.  Counted seat-game by seat-game, the interval was the narrower one.
    seats = 2
    games = games_won_by_deal(random.Random(3), 40, seats)
    (e,) = [e for e in _rows(summarise(games, {"players": seats}, [("X", "card")]))]
    plain = newcombe(e["won_built"], e["built"], e["won_not_built"], e["not_built"])
    # The same number summed another way: equal to the last bit where sum() of floats adds them
    # plainly (3.11), an ulp apart where it compensates the rounding (Neumaier, from 3.12).
    direct = _deff_directly(games, seats, "X")
    assert math.isclose(e["deff"], direct, rel_tol=1e-14, abs_tol=0) and direct > 1.5
    assert e["delta_high"] - e["delta_low"] > 1.25 * (plain[1] - plain[0])
    assert e["p"] > newcombe_p(e["won_built"], e["built"], e["won_not_built"], e["not_built"])
    by_deal = _by_deal(games, seats, "X")
    bb = sum(b * b for b, _w, _c, _v in by_deal)
    bw = sum(b * w for b, w, _c, _v in by_deal)
    ww = sum(w * w for _b, w, _c, _v in by_deal)
    assert e["built_deff"] == ratio_design_effect(e["won_built"], e["built"], bb, bw, ww, 40)


def test_one_deal_has_nothing_to_measure_between_deals():
    assert ratio_difference_design_effect(3, 5, (25, 15, 9), 2, 5, (25, 10, 4), (0, 0, 0, 0), 1) == 1.0


def test_a_real_run_reports_the_same_rows_for_any_jobs():
    plan = Plan("duel", (), None, ("greedy", "random"), 24, seed=2)
    one, _ = balance(plan, jobs=1, rows=False)
    two, _ = balance(plan, jobs=2, rows=False)
    assert one["definitions"] == two["definitions"]
    rows = [e for e in _rows(one) if e["p"] is not None]
    assert rows and all(e["deff"] >= 1 for e in rows) and any(e["deff"] > 1 for e in rows)
