"""Trade between players (`trade neighbours PRICE where=COND`): buying the resources a build lacks
from the two neighbouring seats, each unit paid to the neighbour who makes it.

A neighbour sells what its items in play for which COND holds produce (a one-of producer sells
either of its resources, whatever its owner uses it for); the seller keeps its production; each
unit of a neighbour's production is bought at most once per purchase.  The buyer's own
production is used first (its one-of producers as it likes).  Of all the ways to cover the
missing units, the ones offered are those not dominated for the buyer: no other way pays each
neighbour no more and one of them less (a cheaper unit on the other side is still a choice,
since who receives the coins matters to the players).  Offers and payments are cached until a
city changes (`core.dirty`)."""

from __future__ import annotations

import re

from itertools import chain, product, repeat
from typing import TYPE_CHECKING

from . import seats
from .costs import Stats, useful_one_of
from .state import Frame

if TYPE_CHECKING:
    from .game import Game

Payment = tuple[tuple[int, int], ...]   # (seat, coins) per seller, by seat, sellers paid only


def offer(g: Game, seller: int) -> tuple[list[int], list[tuple[int, ...]]]:
    """What a seat sells: fixed units per resource, and its one-of producers."""
    cached = g._offers[seller]
    if cached is not None:
        return cached
    fixed = [0] * len(g.content.resources)
    one_of: list[tuple[int, ...]] = []
    items = g.content.items
    f = Frame(0, 0, 0, seller, {})
    for slot in g.active_slots[seller]:
        for i in g.state.zones[slot]:
            it = items[i]
            if (it.produced or it.produce_one_of) and _sells(g, i, f):
                for r, q in it.produced:   # (the resources it makes, without the zeros)
                    fixed[r] += q
                one_of.extend(it.produce_one_of)
    g._offers[seller] = (fixed, one_of)
    return fixed, one_of


def offer_after_arrival(g: Game, seller: int, offered: tuple[list[int], list[tuple[int, ...]]],
                        item: int) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """What a seat sells once `item` has come into its city (`offered`: what it sold before),
    the same as `offer` would work out afresh; None when that is not known without it: a
    `where=` that reads the state, or a one-of producer (`offer` lists those in the order it
    meets them, and neighbour trade reads that order)."""
    it = g.content.items[item]
    if it.produce_one_of or g.content.trade_where is not None and not g.content.trade_where_static:
        return None
    if not it.produced or not _sells(g, item, Frame(0, 0, 0, seller, {})):
        return offered
    fixed = list(offered[0])   # (a new list: the old offer may still be read where it was handed out)
    for r, q in it.produced:
        fixed[r] += q
    return fixed, offered[1]


def _sells(g: Game, item: int, f: Frame) -> bool:
    """Whether the trade's `where=` lets an item in play be sold (by `f.me`); known once per
    item when the condition reads only the item (`trade_where_static`)."""
    where = g.content.trade_where
    if where is None:
        return True
    sells = g._sells if g.content.trade_where_static else None   # item -> whether it sells
    known = sells.get(item) if sells is not None else None
    if known is None:
        f.env["it"] = item
        known = bool(where(g, f))
        if sells is not None:
            sells[item] = known
    return known


def unit_prices(g: Game, s: Stats, side: str) -> list[int]:
    """The price per resource that a seat with stats `s` pays the neighbour on `side`."""
    base = g.content.trade_base
    lowered = s.side_prices.get(side)
    if not lowered:
        return [base] * len(g.content.resources)
    return _lowered(base, lowered)


def _lowered(base: int, lowered: list[int | None]) -> list[int]:
    prices = []
    for low in lowered:
        prices.append(base if low is None else min(base, low))
    return prices


def payments(g: Game, p: int, need: tuple[int, ...], s: Stats) -> list[tuple[int, Payment]]:
    """The ways p (whose stats are `s`) can buy what its own production leaves of `need` (units
    per resource, before its one-of producers): (coins in all, coins per seller), not dominated,
    cheapest first.  Empty when the neighbours cannot supply it."""
    cache = g._trade_cache[p]
    hit = cache.get(need)
    if hit is not None:
        return hit
    sides = _sides(g, p, s)
    found: set[tuple[int, ...]] = set()
    for left in _own_covers(need, s.one_of):
        found |= _buy(left, sides, cache)
    sellers = []
    for side in sides:
        sellers.append(side[0])
    result = _frontier(found, sellers)
    cache[need] = result
    return result


def cheapest(g: Game, p: int, need: tuple[int, ...], s: Stats) -> int | None:
    """The fewest coins p can buy `need` for (None: it cannot), without listing the ways: what
    deciding whether a build is affordable needs."""
    cache = g._cheapest_cache[p]
    if need in cache:
        return cache[need]
    listed = g._trade_cache[p].get(need)
    if listed is not None:  # the ways were listed already: the first is the cheapest
        best = listed[0][0] if listed else None
        cache[need] = best
        return best
    sides = _sides(g, p, s)
    ladder = _ladder(g, p, sides)
    if ladder is None:  # neighbours' one-of producers: the full search
        options = payments(g, p, need, s)
        best = options[0][0] if options else None
        cache[need] = best
        return best
    best = None
    for left in _own_covers(need, s.one_of):
        cost = 0
        for r, n in enumerate(left):
            if not n:
                continue
            for price, supply in ladder[r]:
                take = n if n < supply else supply
                cost += take * price
                n -= take
                if not n:
                    break
            if n:
                break
        else:
            if best is None or cost < best:
                best = cost
    cache[need] = best
    return best


def _ladder(g: Game, p: int, sides) -> list[list[tuple[int, int]]] | None:
    """Per resource, the (price, units) the neighbours sell, cheapest first; None when a
    neighbour has a one-of producer (then the sides cannot be priced resource by resource).
    Cached with p's purchases."""
    cache = g._trade_cache[p]
    if "ladder" in cache:
        return cache["ladder"]
    cache["ladder"] = ladder = _ladder_of(sides, len(g.content.resources))
    return ladder


def _ladder_of(sides, resources: int) -> list[list[tuple[int, int]]] | None:
    # (Loops here and below: a comprehension or generator is a function made at every call,
    # and these run at every purchase a seat that trades with neighbours weighs.)
    for side in sides:
        if side[2]:
            return None
    ladder = []
    if len(sides) == 2:   # (two neighbours, as at three seats or more: each rung pair in order)
        (_, left, _, left_price), (_, right, _, right_price) = sides
        for r in range(resources):
            a, b = left[r], right[r]
            if a and b:
                x, y = (left_price[r], a), (right_price[r], b)
                ladder.append([x, y] if x <= y else [y, x])   # (what `sort` makes of the two)
            elif a:
                ladder.append([(left_price[r], a)])
            elif b:
                ladder.append([(right_price[r], b)])
            else:
                ladder.append([])
        return ladder
    for r in range(resources):
        rungs = []
        for side in sides:
            if side[1][r]:
                rungs.append((side[3][r], side[1][r]))
        rungs.sort()
        ladder.append(rungs)
    return ladder


def purchases(g: Game, p: int, need: tuple[int, ...], s: Stats, pay: Payment) -> list[tuple[int, int, int]]:
    """One way to buy `need` that pays each seller what `pay` says: (seller, resource, coins) per
    seller and resource (what the `traded` events tell).  Empty if `pay` is not a way to buy it."""
    sides = _sides(g, p, s)
    target = tuple(dict(pay).get(q, 0) for q, *_ in sides)
    for left in _own_covers(need, s.one_of):
        units = _assign(left, sides, target)
        if units is not None:
            out: dict[tuple[int, int], int] = {}
            for k, r in units:
                key = (sides[k][0], r)
                out[key] = out.get(key, 0) + sides[k][3][r]
            return [(q, r, c) for (q, r), c in sorted(out.items())]
    return []


def _own_covers(need: tuple[int, ...], one_of: list[tuple[int, ...]]) -> list[list[int]]:
    """What is left to buy after each way of using the buyer's own one-of producers.  A way that
    leaves a producer idle while it could cover a unit still needed is left out: using it costs
    nothing, so that way is never better."""
    useful = useful_one_of(need, one_of)
    if not useful:
        return [list(need)]
    return _covers(need, useful)


def _covers(need: tuple[int, ...], useful: list[tuple[int, ...]]) -> list[list[int]]:
    out = []
    seen = set()
    choices = []
    for u in useful:
        choices.append(u + (-1,))
    for pick in product(*choices):
        left = list(need)
        for r in pick:
            if r >= 0:
                if not left[r]:
                    break
                left[r] -= 1
        else:
            if _idle(pick, useful, left):
                continue
            key = tuple(left)
            if key not in seen:
                seen.add(key)
                out.append(left)
    return out


def _idle(pick: tuple[int, ...], useful: list[tuple[int, ...]], left: list[int]) -> bool:
    """Whether a producer left idle (-1 in `pick`) could cover a unit `left` still asks for."""
    for r, opts in zip(pick, useful):
        if r < 0:
            for x in opts:
                if left[x]:
                    return True
    return False


def _sides(g: Game, p: int, s: Stats) -> list:
    """(seat, fixed units, one-of producers, p's prices) of each neighbour p buys from, cached
    with p's purchases (`core.dirty` forgets both)."""
    cache = g._trade_cache[p]
    hit = cache.get("sides")
    if hit is not None:
        return hit
    sides = []
    for side, q in (("left", seats.left_of(g, p)), ("right", seats.right_of(g, p))):
        fixed, one_of = offer(g, q)
        sides.append((q, fixed, one_of, unit_prices(g, s, side)))
    if sides[0][0] == sides[1][0]:
        sides = sides[:1]  # two seats: one neighbour, on both sides
    cache["sides"] = sides
    return sides


def _assign(need: list[int], sides, target: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """(side, resource) for each unit bought, paying exactly `target` per side; None if no way does."""
    units = list(chain.from_iterable(map(repeat, range(len(need)), need)))   # r, need[r] times each
    sources = [(k, (r,), q) for k, (_, fixed, _, _) in enumerate(sides) for r, q in enumerate(fixed) if q]
    sources += [(k, tuple(opts), 1) for k, (_, _, one_of, _) in enumerate(sides) for opts in one_of]

    def go(u: int, caps: list[int], spent: list[int]) -> list[tuple[int, int]] | None:
        if u == len(units):
            return [] if tuple(spent) == target else None
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


def _sources(sides) -> tuple[list[list[tuple[int, int]]], tuple[int, ...], list[list[int]]]:
    """What the sides sell, as `_buy` searches it: sources, numbered (a side's fixed units of one
    resource, grouped, or one of its one-of producers), each listed under every resource it
    gives as (source, side), so a unit looks only at the sources that can give it; what each
    can give (`caps`); each side's prices.  Kept with the purchases they serve."""
    caps: list[int] = []
    givers: list[list[tuple[int, int]]] = [[] for _ in sides[0][1]]
    for k, (_, fixed, one_of, _) in enumerate(sides):
        for r, q in enumerate(fixed):
            if q:
                givers[r].append((len(caps), k))
                caps.append(q)
        for opts in one_of:
            for r in dict.fromkeys(opts):
                givers[r].append((len(caps), k))
            caps.append(1)
    prices = []
    for side in sides:
        prices.append(side[3])
    return givers, tuple(caps), prices


def _buy(need: list[int], sides, kept: dict) -> set[tuple[int, ...]]:
    """Every vector of coins per side that buys `need` from the sides' production (`kept`: the
    buyer's purchases, which keep the sides' `_sources` once they are asked for)."""
    total = sum(need)
    if not total:
        return {(0,) * len(sides)}
    if total > 64 and total > sum(sum(fixed) + len(one_of) for _, fixed, one_of, _ in sides):
        return set()   # (more than the sides make: a cost of a billion units is listed unit by unit below)
    units = []
    for r, q in enumerate(need):
        if q:
            units += [r] * q
    if not _one_of_helps(need, sides):
        return _buy_fixed(need, sides)
    sources = kept.get("sources")
    if sources is None:
        sources = kept["sources"] = _sources(sides)
    givers, caps, prices = sources
    nothing = frozenset({(0,) * len(sides)})   # (what the last unit leaves to pay)
    return set(_vectors(units, givers, prices, {}, nothing, 0, caps))


def _vectors(units: list[int], givers, prices, memo: dict, nothing: frozenset, u: int,
             caps: tuple[int, ...]) -> frozenset:
    """The vectors of coins per side that buy `units[u:]` from what each giver has left
    (`caps`), remembered in `memo`.  (A function of the module, not one nested in `_buy`: a
    nested function that calls itself is a reference cycle, left for the cycle collector.)"""
    if u == len(units):
        return nothing
    key = (u, caps)
    if key in memo:
        return memo[key]
    r = units[u]
    out = set()
    for j, k in givers[r]:
        if caps[j]:
            rest = _vectors(units, givers, prices, memo, nothing, u + 1, caps[:j] + (caps[j] - 1,) + caps[j + 1:])
            cost = prices[k][r]
            for vec in rest:
                out.add(vec[:k] + (vec[k] + cost,) + vec[k + 1:])
    result = memo[key] = frozenset(out)
    return result


def _one_of_helps(need: list[int], sides) -> bool:
    """Whether a neighbour's one-of producer makes a resource `need` asks for."""
    for side in sides:
        for opts in side[2]:
            for r in opts:
                if need[r]:
                    return True
    return False


def _buy_fixed(need: list[int], sides) -> set[tuple[int, ...]]:
    """`_buy` when only fixed production can help: each resource is split between the sides on
    its own (k units from the first side, the rest from the second)."""
    vectors = {(0,) * len(sides)}
    for r, n in enumerate(need):
        if not n:
            continue
        if len(sides) == 1:
            _, fixed, _, prices = sides[0]
            if fixed[r] < n:
                return set()
            cost = n * prices[r]
            after = set()
            for v in vectors:
                after.add((v[0] + cost,))
            vectors = after
            continue
        a, b = sides[0][1][r], sides[1][1][r]
        pl, pr = sides[0][3][r], sides[1][3][r]
        low, high = max(0, n - b), min(n, a)
        if low > high:
            return set()
        after = set()
        for v in vectors:
            for k in range(low, high + 1):
                after.add((v[0] + k * pl, v[1] + (n - k) * pr))
        vectors = after
    return vectors


def _frontier(found: set[tuple[int, ...]], sellers: list[int]) -> list[tuple[int, Payment]]:
    """The vectors no other one pays at most as much to every seller, cheapest first, as
    (coins in all, (seller, coins) of each seller paid)."""
    keyed = []
    for v in found:
        for w in found:
            if w != v and _at_most(w, v):
                break
        else:
            keyed.append((sum(v), v))
    keyed.sort()
    out = []
    for total, v in keyed:
        pay = []
        for s, c in zip(sellers, v):
            if c:
                pay.append((s, c))
        pay.sort()
        out.append((total, tuple(pay)))
    return out


def _at_most(w: tuple[int, ...], v: tuple[int, ...]) -> bool:
    """Whether `w` pays every seller at most what `v` pays."""
    for a, b in zip(w, v):
        if a > b:
            return False
    return True


def pay_label(pay: Payment) -> str:
    return "pay=" + ",".join(f"p{s}:{c}" for s, c in pay)


def parse_pay(text: str) -> Payment | None:
    """`pay=p1:2,p2:1` -> ((1, 2), (2, 1)); None when it is not one, written as the legal actions
    write it (seats in order, plain digits: `pay=p+3:02` or a newline after it would be a second
    spelling of one action, in the history as typed)."""
    if not text.startswith("pay=") or _PAY.fullmatch(text) is None:
        return None
    out = []
    for part in text[4:].split(","):
        seat, coins = part.split(":")
        out.append((int(seat[1:]), int(coins)))
    if out != sorted(out) or len({s for s, _ in out}) != len(out):
        return None
    return tuple(out)


_NUMBER = "(?:0|[1-9][0-9]*)"
_PAY = re.compile(rf"pay=p{_NUMBER}:{_NUMBER}(?:,p{_NUMBER}:{_NUMBER})*", re.ASCII)
