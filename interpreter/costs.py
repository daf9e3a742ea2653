"""What a player's items give them (production, prices, discounts, symbols), and the cheapest
way to pay a cost.  Both are derived from the state and cached until a city changes."""

from __future__ import annotations

from itertools import product
from operator import mul

import attrs

from rulesdsl.model import Content


@attrs.define
class Stats:
    produce: list[int]
    by_color: dict[str | None, list[int]]
    one_of: list[tuple[int, ...]]
    fixed: list[int | None]
    discounts: list[tuple[int, str | None, str | None]]
    science: dict[str, int]
    chains: set[str]
    modifiers: dict[str, int] = attrs.Factory(dict)
    chain_price: int | None = None
    trade_discount: list[int] = attrs.Factory(list)
    borrow_chains: bool = False
    side_prices: dict[str, list[int | None]] = attrs.Factory(dict)   # neighbour trade: side -> price per resource
    colored: dict[frozenset[str], list[int]] = attrs.Factory(dict)   # colours -> what their cards make (production())
    # The values of expressions that read nothing but this seat's `modify` amounts, by expression
    # (`economy.kept_value`): forgotten when an amount changes.
    kept: dict = attrs.Factory(dict)
    # `science_score` by its set bonus (scoring.science_score): forgotten when a symbol comes.
    science_scores: dict[int, int] = attrs.Factory(dict)
    # Held by a game and its clone alike (`core.copy_caches`): whichever first takes an item in
    # copies them (`core.dirty`); what is only worked out from them may be written in either.
    cloned: bool = attrs.field(default=False, eq=False, repr=False)


def compute_stats(content: Content, items: list[int], attached: dict[int, int] | None = None) -> Stats:
    n = len(content.resources)
    s = Stats([0] * n, {}, [], [None] * n, [], {}, set(), trade_discount=[0] * n)
    defs = content.items
    for i in items:
        it = defs[i]
        if it.has_statics:
            add_item(s, it, defs[attached[i]].science if it.copy_science and attached and attached.get(i, -1) >= 0
                     else ())
    return s


def copy_stats(s: Stats) -> Stats:
    """An independent copy of a seat's stats (`add_item` changes them in place); the values of
    `colored`, `kept` and `science_scores` are only ever replaced, so their dicts are copied,
    not the values."""
    # (the dicts of rows most seats keep empty made without a comprehension: a copy is made for
    # every seat a greedy agent's copy of a round changes)
    return Stats(s.produce[:], {c: row[:] for c, row in s.by_color.items()}, s.one_of[:], s.fixed[:],
                 s.discounts[:], dict(s.science), set(s.chains), dict(s.modifiers), s.chain_price,
                 s.trade_discount[:], s.borrow_chains,
                 {side: row[:] for side, row in s.side_prices.items()} if s.side_prices else {},
                 dict(s.colored), dict(s.kept), dict(s.science_scores))


def add_item(s: Stats, it, copied: tuple[str, ...] = ()) -> None:
    """What one more item in the city gives (`copied`: the symbols it copies from the card it holds)."""
    # (Most items make a resource or give a symbol and nothing else: each part is looked at
    # only when the item has it.)
    if it.produced:
        row = s.by_color.get(it.color)
        if row is None:
            row = s.by_color[it.color] = [0] * len(s.produce)
        produce = s.produce
        for r, q in it.produced:
            produce[r] += q
            row[r] += q
        s.colored.clear()
    if it.produce_one_of:
        s.one_of.extend(it.produce_one_of)
    if copied:   # (before its own symbols, as the stats have always listed them)
        for sym in copied:
            s.science[sym] = s.science.get(sym, 0) + 1
        s.science_scores.clear()
    if it.science:
        science = s.science
        for sym in it.science:
            science[sym] = science.get(sym, 0) + 1
        s.science_scores.clear()
    if it.chain_gives:
        s.chains.update(it.chain_gives)
    if it.has_price_statics:
        _add_price_statics(s, it)


def _add_price_statics(s: Stats, it) -> None:
    """What an item that changes prices gives the stats (`add_item`)."""
    n = len(s.produce)
    for r, off in it.trade_discounts:
        s.trade_discount[r] += off
    s.borrow_chains = s.borrow_chains or it.borrow_chains
    if it.modifiers:
        for name, amount in it.modifiers:
            s.modifiers[name] = s.modifiers.get(name, 0) + amount
        s.kept.clear()
    if it.chain_price is not None:
        s.chain_price = it.chain_price if s.chain_price is None else min(s.chain_price, it.chain_price)
    for r, price in it.trade_fixed:
        s.fixed[r] = price if s.fixed[r] is None else min(s.fixed[r], price)
    for side, r, price in it.side_prices:
        row = s.side_prices.setdefault(side, [None] * n)
        row[r] = price if row[r] is None else min(row[r], price)
    s.discounts.extend(it.discounts)


def cheapest_trade(need: list[int], prices: list[int], one_of: list[tuple[int, ...]], discount: int,
                   or_coins: int | None = None) -> int:
    """Fewest coins to buy the missing resources: each one-of producer covers one unit of its
    choice, then `discount` units are free (the dearest), the rest are bought at `prices`."""
    if not one_of:
        return _buy(need, prices, discount)
    if len(one_of) == 1 and discount <= 0:
        # One producer and every unit bought at its price (most prices in Duel): it covers a
        # unit of the dearest missing resource it offers (none missing: nothing), no combination
        # tried.  (A loop: `max` over a `map` costs more, objects made for one or two choices.)
        dearest = None
        for r in one_of[0]:
            if need[r] and (dearest is None or prices[r] > dearest):
                dearest = prices[r]
        return _buy(need, prices, 0) - (dearest or 0)
    useful = useful_one_of(need, one_of)
    if not useful:
        return _buy(need, prices, discount)
    if len(useful) > FEW_PRODUCERS:
        return _cheapest_left(_left_after(need, useful), prices, discount)
    best = None
    for pick in product(*useful):
        left = list(need)
        for r in pick:
            if left[r]:
                left[r] -= 1
        cost = _buy(left, prices, discount)
        if best is None or cost < best:
            best = cost
            if best == 0:
                break
    return best


# One-of producers up to which every combination of their choices is tried (a handful at most
# in the bundled games, where trying them all is quickest); above it what they can leave
# unpaid is worked out producer by producer (`_left_after`): eleven producers of one of five
# resources took 48 s a price, every combination tried.
FEW_PRODUCERS = 4


def _left_after(need: list[int], useful: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """What may be left to buy once each producer has covered one unit of its choice (a choice
    of a unit not needed covers nothing): the positions reached, one producer after another."""
    reached = {tuple(need)}
    for opts in useful:
        after = set()
        for left in reached:
            after.add(left)   # (its choice needed nowhere)
            for r in opts:
                if left[r]:
                    after.add(left[:r] + (left[r] - 1,) + left[r + 1:])
        reached = after
    return reached


def _cheapest_left(lefts: set[tuple[int, ...]], prices: list[int], discount: int) -> int:
    """The fewest coins to buy one of `lefts` (a function of its own: a generator in
    `cheapest_trade` would make cells of its arguments on every call)."""
    return min(_buy(list(left), prices, discount) for left in lefts)


def useful_one_of(need, one_of: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Of each one-of producer, the resources `need` still asks for (producers of none left out)."""
    # (loops: a comprehension would make `need` a cell every call pays to create, and `map` or
    # `filter` over a bound method costs more per item)
    useful = []
    for one in one_of:
        asked = []
        for r in one:
            if need[r]:
                asked.append(r)
        if asked:
            useful.append(tuple(asked))
    return useful


def _buy(need: list[int], prices: list[int], discount: int) -> int:
    if discount <= 0:
        return sum(map(mul, need, prices))   # (a unit not needed costs 0 whatever its price)
    units = sorted((p for q, p in zip(need, prices) for _ in range(q)), reverse=True)
    return sum(units[discount:])
