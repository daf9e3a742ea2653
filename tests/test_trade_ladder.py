"""The price ladder of neighbour trade (`trade._ladder_of`): per resource, the (price, units)
each neighbour sells, cheapest first, which prices a purchase resource by resource.  Its case
of two neighbours (every classic game) is written out for speed (issue 12); it must be the
ladder the general definition makes: every side that sells the resource, as (price, units),
sorted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.interpreter import trade

RESOURCES = 7
units = st.lists(st.integers(0, 3), min_size=RESOURCES, max_size=RESOURCES)
prices = st.lists(st.integers(0, 3), min_size=RESOURCES, max_size=RESOURCES)


def defined(sides, resources: int):
    """The ladder as the docstring defines it."""
    if any(side[2] for side in sides):
        return None
    return [sorted((side[3][r], side[1][r]) for side in sides if side[1][r]) for r in range(resources)]


@given(units, prices, units, prices)
def test_two_neighbours_ladder_is_the_sorted_rungs(left_units, left_prices, right_units, right_prices):
    sides = [(1, left_units, [], left_prices), (2, right_units, [], right_prices)]
    assert trade._ladder_of(sides, RESOURCES) == defined(sides, RESOURCES)


@given(units, prices)
def test_one_neighbour_ladder_is_the_sorted_rungs(left_units, left_prices):
    sides = [(1, left_units, [], left_prices)]
    assert trade._ladder_of(sides, RESOURCES) == defined(sides, RESOURCES)


def test_a_neighbour_with_a_one_of_producer_has_no_ladder():
    sides = [(1, [1] * RESOURCES, [], [2] * RESOURCES), (2, [0] * RESOURCES, [(0, 1)], [2] * RESOURCES)]
    assert trade._ladder_of(sides, RESOURCES) is None


def test_equal_rungs_keep_the_left_neighbour_first():
    # (`sort` is stable: equal (price, units) pairs stay in side order)
    sides = [(1, [2] + [0] * 6, [], [1] * RESOURCES), (2, [2] + [0] * 6, [], [1] * RESOURCES)]
    ladder = trade._ladder_of(sides, RESOURCES)
    assert ladder[0] == [(1, 2), (1, 2)] and ladder[1:] == [[]] * 6
