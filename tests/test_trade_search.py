"""The purchase searches of neighbour trade: every vector of coins per neighbour that buys a
need (`trade._buy`), and the one way to buy it that a chosen payment makes (`trade._assign`,
which the `traded` events report).  Both must give what their definitions give, found by
plain exhaustive searches written here, and both must stay quick when the neighbours hold
many one-of producers of different resources (an exhaustive search took minutes there)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.interpreter import trade

RESOURCES = 4


def units_and_sources(need, sides):
    """The units of `need` in order of resource, and the sources in order: (side, resources it
    gives, units it has) for each side's fixed units of a resource, then each one-of producer."""
    units = [r for r, q in enumerate(need) for _ in range(q)]
    sources = [(k, (r,), q) for k, (_, fixed, _, _) in enumerate(sides) for r, q in enumerate(fixed) if q]
    sources += [(k, tuple(opts), 1) for k, (_, _, one_of, _) in enumerate(sides) for opts in one_of]
    return units, sources


def exhaustive_vectors(need, sides):
    """Every vector of coins per side that buys `need`: each unit, in turn, from every source
    that still has one (fixed units of a side, or one of its one-of producers)."""
    units, sources = units_and_sources(need, sides)
    found = set()

    def go(u, caps, spent):
        if u == len(units):
            found.add(tuple(spent))
            return
        r = units[u]
        for j, (k, gives, _) in enumerate(sources):
            if caps[j] and r in gives:
                caps[j] -= 1
                spent[k] += sides[k][3][r]
                go(u + 1, caps, spent)
                caps[j] += 1
                spent[k] -= sides[k][3][r]

    go(0, [c for _, _, c in sources], [0] * len(sides))
    return found


def first_way(need, sides, target):
    """The way `_assign` is defined to take: each unit, in order, from the first source (fixed
    units of each side, then each side's one-of producers, in order) from which the rest can
    still be paid exactly `target`; None when no way pays it."""
    units, sources = units_and_sources(need, sides)

    def go(u, caps, spent):
        if u == len(units):
            return [] if tuple(spent) == tuple(target) else None
        r = units[u]
        for j, (k, gives, _) in enumerate(sources):
            cost = sides[k][3][r]
            if caps[j] and r in gives and spent[k] + cost <= target[k]:
                caps[j] -= 1
                spent[k] += cost
                rest = go(u + 1, caps, spent)
                caps[j] += 1
                spent[k] -= cost
                if rest is not None:
                    return [(k, r)] + rest
        return None

    return go(0, [c for _, _, c in sources], [0] * len(sides))


resource_lists = st.lists(st.integers(0, 2), min_size=RESOURCES, max_size=RESOURCES)
producer = st.lists(st.integers(0, RESOURCES - 1), min_size=1, max_size=RESOURCES, unique=True).map(tuple)


@st.composite
def markets(draw):
    """(need, sides): one or two neighbours, each with fixed units, a few one-of producers (some
    alike) and prices; a need of up to six units."""
    sides = []
    for seat in range(1, draw(st.integers(1, 2)) + 1):
        one_of = draw(st.lists(producer, max_size=3))
        if one_of and draw(st.booleans()):
            one_of += [one_of[0]] * draw(st.integers(1, 3))   # (producers alike: one kind of source)
        one_of = draw(st.permutations(one_of))
        prices = draw(st.lists(st.integers(1, 3), min_size=RESOURCES, max_size=RESOURCES))
        sides.append((seat, draw(resource_lists), list(one_of), prices))
    need = draw(st.lists(st.integers(0, 2), min_size=RESOURCES, max_size=RESOURCES).filter(lambda n: sum(n) <= 6))
    return need, sides


@settings(max_examples=300, deadline=None)
@given(markets())
def test_the_ways_to_pay_are_every_way_an_exhaustive_search_finds(market):
    need, sides = market
    assert trade._buy(need, sides, {}) == exhaustive_vectors(need, sides)


@settings(max_examples=300, deadline=None)
@given(markets(), st.data())
def test_the_ways_to_pay_are_exact_whatever_the_prices(market, data):
    # (the search unit by unit adds coins packed into one int per vector: a price of none, a
    # negative one or one of thirteen digits must come out as it went in)
    need, sides = market
    wide = st.sampled_from([0, 1, -1, -7, 2, 10**12, -(10**12), 2**40 - 1])
    sides = [(seat, fixed, one_of, [data.draw(wide) for _ in prices]) for seat, fixed, one_of, prices in sides]
    assert trade._buy(need, sides, {}) == exhaustive_vectors(need, sides)


def generic_frontier(found, sellers):
    """The ways not dominated, by their definition: no other vector pays every seller at most
    as much; cheapest first, then by the vector; sellers paid nothing left out, by seat."""
    kept = [v for v in found if not any(w != v and all(a <= b for a, b in zip(w, v)) for w in found)]
    return [(sum(v), tuple(sorted((s, c) for s, c in zip(sellers, v) if c))) for v in sorted(kept, key=lambda v: (sum(v), v))]


@settings(max_examples=500, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=12),
       st.lists(st.integers(0, 6), min_size=2, max_size=2, unique=True))
def test_the_frontier_of_two_sellers_is_the_ways_not_dominated(found, sellers):
    sides = [(q, [], [], []) for q in sellers]
    assert trade._frontier(found, sides) == generic_frontier(found, sellers)


@settings(max_examples=300, deadline=None)
@given(markets(), st.data())
def test_the_purchase_a_payment_makes_is_the_first_way_in_order(market, data):
    need, sides = market
    ways = sorted(exhaustive_vectors(need, sides))
    targets = ways + [tuple(data.draw(st.integers(0, 8)) for _ in sides)]   # (and one that may pay nothing)
    for target in targets:
        assert trade._assign(need, sides, target) == first_way(need, sides, target)


@settings(max_examples=300, deadline=None)
@given(markets(), st.lists(st.integers(0, 12), min_size=2, max_size=2))
def test_both_searches_of_reach_find_every_way_to_pay(market, bound):
    # (`_reach` takes whichever meets fewer positions: each must be right on its own, with a
    # bound and without)
    need, sides = market
    kinds, _, caps, prices, givers = trade._market(sides)
    every = exhaustive_vectors(need, sides)
    bound = bound[:len(sides)]
    within = {v for v in every if all(a <= b for a, b in zip(v, bound))}
    for search in (trade._reach_by_source, trade._reach_by_resource):
        assert search(kinds, caps, prices, need, givers, None) == every
        assert search(kinds, caps, prices, need, givers, bound) == within


def test_the_searches_source_by_source_match_the_searches_unit_by_unit_above_few_producers():
    # (`_buy` searches unit by unit up to FEW_PRODUCERS one-of producers a side, source by
    # source above: the same ways either side of the line)
    need = [2, 1, 1, 0]
    kinds = [(0, 1), (1, 2), (0, 2, 3), (1,), (2, 3)]
    for count in range(1, trade.FEW_PRODUCERS + 3):
        sides = [(1, [1, 0, 0, 1], kinds[:count], [1, 2, 3, 1]), (2, [0, 1, 0, 0], kinds[-count:], [2, 1, 1, 3])]
        assert trade._buy(need, sides, {}) == exhaustive_vectors(need, sides)


def cpu_within(seconds, work):
    start = time.process_time()
    result = work()
    used = time.process_time() - start
    assert used < seconds, f"took {used:.1f} s of processor time"
    return result


# Two neighbours with eight and ten one-of producers of different resources (found by a random
# search for slow cases): the unit-by-unit search took 92 s to find the purchase that pays them
# (6, 18), and listing the ways to pay in markets like it took up to 35 s.
MANY = [(1, [0, 2, 0, 2, 0, 1, 1], [(1, 2, 4, 6), (2, 3), (0, 2, 4, 6), (4, 6), (0, 1, 6), (0, 1, 3, 4, 5, 6),
                                     (4, 5), (2, 3, 4, 5, 6)], [3, 1, 3, 2, 1, 3, 3]),
        (2, [2, 0, 0, 1, 0, 0, 0], [(0, 1, 3, 4, 6), (0, 2, 3, 4, 6), (0, 1, 2, 3, 4), (0, 3, 6), (0, 1, 2, 3, 6),
                                     (1, 2, 3, 6), (0, 2, 3, 5, 6), (2, 3, 5), (0, 3), (0, 1, 3, 4, 5)],
         [3, 2, 1, 1, 1, 1, 2])]
MANY_NEED = [2, 3, 0, 1, 3, 0, 3]


def test_many_different_one_of_producers_are_priced_and_bought_quickly():
    ways = cpu_within(20, lambda: trade._buy(MANY_NEED, MANY, {}))
    assert ways and all(sum(v) >= sum(MANY_NEED) for v in ways)
    assert (6, 18) in ways
    for target in ((6, 18), min(ways), max(ways)):
        units = cpu_within(20, lambda: trade._assign(MANY_NEED, MANY, target))
        # (each unit from a side that makes it, each side paid exactly its share)
        assert sorted(r for _, r in units) == [r for r, q in enumerate(MANY_NEED) for _ in range(q)]
        paid = [0, 0]
        for k, r in units:
            paid[k] += MANY[k][3][r]
        assert tuple(paid) == target
    assert trade._assign(MANY_NEED, MANY, (0, 0)) is None


def test_a_cost_of_every_resource_bought_from_neighbours_with_producers_is_quick():
    # Nine units of each of seven resources, from neighbours who make nine of each and hold a
    # few one-of producers: the search unit by unit ran out of memory, and one source by source
    # would meet 10^7 positions (the units left of each resource); resource by resource meets
    # the producers' 16.
    sides = [(1, [9] * 7, [(0, 1), (2, 3)], [1, 2, 3, 1, 2, 3, 1]), (2, [9] * 7, [(0, 1), (4, 5, 6)], [2, 1, 1, 3, 2, 2, 1])]
    need = [9] * 7
    ways = cpu_within(20, lambda: trade._buy(need, sides, {}))
    cheapest = min(ways, key=sum)
    # (each unit from the side that sells it cheaper: the fixed units suffice)
    assert sum(cheapest) == 9 * sum(min(a, b) for a, b in zip(sides[0][3], sides[1][3]))
    units = cpu_within(20, lambda: trade._assign(need, sides, cheapest))
    paid = [0, 0]
    for k, r in units:
        paid[k] += sides[k][3][r]
    assert tuple(paid) == cheapest and len(units) == 63


def test_a_purchase_of_many_units_is_no_recursion_error():
    # (the unit-by-unit search went one call deeper per unit: 1,500 units were a RecursionError)
    sides = [(1, [1000, 0], [(0, 1)], [2, 2]), (2, [1000, 0], [(0, 1)], [3, 3])]
    need = [1200, 1]
    ways = cpu_within(30, lambda: trade._buy(need, sides, {}))
    cheapest = min(ways, key=sum)
    assert cheapest == (1001 * 2, 200 * 3)   # (the cheaper side's 1,000 units and its producer first)
    units = cpu_within(60, lambda: trade._assign(need, sides, cheapest))
    assert units.count((0, 0)) == 1000 and units.count((1, 0)) == 200 and units.count((0, 1)) == 1
    assert len(units) == 1201


@pytest.mark.parametrize("sides", [MANY, MANY[:1]])
def test_a_need_nobody_sells_is_no_way(sides):
    assert trade._buy([0, 0, 0, 0, 0, 0, 50], sides, {}) == set()
