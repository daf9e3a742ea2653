"""`costs.cheapest_trade` with one one-of producer and nothing free (most prices of a Duel
game) subtracts the dearest missing unit the producer can cover (none: nothing) instead of
trying each of its choices: the same coins as every combination tried (`product` of the
choices, each unit left bought at its price) and as the producers' reach walked
(`_left_after`), over random needs, prices and producers, with and without the discount that
sends them the generic way."""

from __future__ import annotations

import random
from itertools import product

from rulesdsl.interpreter import costs


def tried(need: list[int], prices: list[int], one_of: list[tuple[int, ...]], discount: int) -> int:
    """Every combination of the producers' choices, each unit left bought (the dearest
    `discount` free)."""
    best = None
    for pick in product(*one_of) if one_of else [()]:
        left = list(need)
        for r in pick:
            if left[r]:
                left[r] -= 1
        units = sorted((p for q, p in zip(left, prices) for _ in range(q)), reverse=True)
        cost = sum(units[max(0, discount):])
        best = cost if best is None else min(best, cost)
    return best


def test_one_producer_covers_the_dearest_unit_it_can():
    rng = random.Random(12)
    one_producer = 0
    for _ in range(3000):
        need = [rng.choice((0, 0, 1, 2, 3)) for _ in range(5)]
        prices = [rng.randint(0, 6) if q else 0 for q in need]
        one_of = [tuple(rng.sample(range(5), rng.randint(1, 3))) for _ in range(rng.choice((1, 1, 1, 2)))]
        discount = rng.choice((0, 0, 0, -1, 1, 2))
        useful = costs.useful_one_of(need, one_of)
        one_producer += len(one_of) == 1 and discount <= 0
        assert costs.cheapest_trade(need, prices, one_of, discount) == tried(need, prices, one_of, discount), \
            (need, prices, one_of, discount)
        if useful:
            walked = costs._cheapest_left(costs._left_after(need, useful), prices, discount)
            assert costs.cheapest_trade(need, prices, one_of, discount) == walked
    assert one_producer > 1000
