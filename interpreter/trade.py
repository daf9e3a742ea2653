"""Trade between players (`trade neighbours PRICE where=COND`): buying the resources a build lacks
from the two neighbouring seats, each unit paid to the neighbour who makes it.

A neighbour sells what its items in play for which COND holds produce (a one-of producer sells
either of its resources, whatever its owner uses it for); the seller keeps its production; each
unit of a neighbour's production is bought at most once per purchase.  The buyer's own
production is used first (its one-of producers as it likes).  Of all the ways to cover the
missing units, the ones offered are those not dominated for the buyer: no other way pays each
neighbour no more and one of them less (a cheaper unit on the other side is still a choice,
since who receives the coins matters to the players).  A discount of N (`free`) makes N of the
units the buyer's own production leaves missing free, whichever it likes: the ways to pay are
those of every way to waive N of them.  Offers and payments are cached until a city changes
(`core.dirty`)."""

from __future__ import annotations

import re

from itertools import product
from typing import TYPE_CHECKING, AbstractSet

from . import seats
from .costs import FEW_PRODUCERS, Stats, useful_one_of
from .state import Frame

if TYPE_CHECKING:
    from .game import Game

# Above this many units bought at once, `_buy` leaves its search unit by unit for `_reach`: that
# search is as deep as the units, and its positions multiply with the units of each resource
# (21 units of seven resources took 9 s).  The bundled games buy at most seven.
MANY_UNITS = 8

Payment = tuple[tuple[int, int], ...]   # (seat, coins) per seller, by seat, sellers paid only

_UNKNOWN = object()   # (not worked out yet: a purchase's cheapest may be None, none possible)


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
        prices.append(low if low is not None and low < base else base)   # (no call of `min`)
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
    covers = _own_covers(need, s.one_of) if s.one_of else (need,)
    if len(covers) == 1:   # (most purchases: the buyer's one-of producers give nothing asked)
        found = _buy(covers[0], sides, cache)
    else:
        found = set()
        for left in covers:
            found |= _buy(left, sides, cache)
    result = _frontier(found, sides)
    cache[need] = result
    return result


def payments_waived(g: Game, p: int, need: tuple[int, ...], s: Stats, free: int) -> list[tuple[int, Payment]]:
    """`payments` with `free` of the units p's own production leaves missing waived, whichever
    p likes (a discount): the ways to pay of every way to waive them, the dominated left out.
    (Apart from `payments`, which most purchases take, so that they pay nothing for it.)"""
    if not free:
        return payments(g, p, need, s)
    cache = g._trade_cache[p]
    key = (need, free)
    hit = cache.get(key)
    if hit is not None:
        return hit
    sides = _sides(g, p, s)
    found: set[tuple[int, ...]] = set()
    for left in _own_covers(need, s.one_of):
        for rest in waived(left, free):
            found |= _buy(rest, sides, cache)
    result = _frontier(found, sides)
    cache[key] = result
    return result


def cheapest_waived(g: Game, p: int, need: tuple[int, ...], s: Stats, free: int) -> int | None:
    """`cheapest` with `free` of the missing units waived (`payments_waived`): the first of its
    ways."""
    if not free:
        return cheapest(g, p, need, s)
    cache = g._cheapest_cache[p]
    key = (need, free)
    if key not in cache:
        options = payments_waived(g, p, need, s, free)
        cache[key] = options[0][0] if options else None
    return cache[key]


def waived(left: list[int], free: int) -> list[list[int]]:
    """What is left to buy after each way of waiving `free` units of `left` (all of them when it
    asks no more): waiving fewer is never better, since a unit bought costs no less than none."""
    total = sum(left)
    if total <= free:
        return [[0] * len(left)]
    out: list[list[int]] = []
    _waive(left, 0, free, out)
    return out


def _waive(left: list[int], r: int, free: int, out: list[list[int]]) -> None:
    """`waived`: each way, from resource r on, resources in order, fewest of r waived first."""
    if not free:
        out.append(list(left))
        return
    rest = 0
    for n in left[r + 1:]:
        rest += n
    have = left[r]
    for k in range(max(0, free - rest), min(have, free) + 1):
        left[r] = have - k
        _waive(left, r + 1, free - k, out)
    left[r] = have


def cheapest(g: Game, p: int, need: tuple[int, ...], s: Stats) -> int | None:
    """The fewest coins p can buy `need` for (None: it cannot), without listing the ways: what
    deciding whether a build is affordable needs."""
    cache = g._cheapest_cache[p]
    best = cache.get(need, _UNKNOWN)
    if best is not _UNKNOWN:
        return best
    kept = g._trade_cache[p]
    listed = kept.get(need)
    if listed is not None:  # the ways were listed already: the first is the cheapest
        best = listed[0][0] if listed else None
        cache[need] = best
        return best
    ladder = kept.get("ladder", _UNKNOWN)
    if ladder is _UNKNOWN:
        ladder = _ladder(g, p, _sides(g, p, s))
    if ladder is None:  # neighbours' one-of producers: the full search
        options = payments(g, p, need, s)
        best = options[0][0] if options else None
        cache[need] = best
        return best
    best = None
    for left in _own_covers(need, s.one_of) if s.one_of else (need,):
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


def purchases(g: Game, p: int, need: tuple[int, ...], s: Stats, pay: Payment,
              free: int = 0) -> list[tuple[int, int, int]]:
    """One way to buy `need`, `free` of its units waived, that pays each seller what `pay` says:
    (seller, resource, coins) per seller and resource (what the `traded` events tell); the units
    waived are those of the first way (`waived`'s order) that lets `pay` be paid.  Empty if `pay`
    is not a way to buy it."""
    sides = _sides(g, p, s)
    target = tuple(dict(pay).get(q, 0) for q, *_ in sides)
    for covered in _own_covers(need, s.one_of):
        for left in waived(covered, free) if free else (covered,):
            units = _assign(left, sides, target)
            if units is None:
                continue
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
    if len(useful) > FEW_PRODUCERS:   # (each combination tried: eight producers of one of seven took 14 s)
        return _covers_walked(need, useful)
    return _covers(need, useful)


def _covers_walked(need: tuple[int, ...], useful: list[tuple[int, ...]]) -> list[list[int]]:
    """`_covers`, the same list in the same order, walking the choices producer by producer:
    what is left and which resources an idle producer could have given decide what the later
    producers can add, so a position reached again adds nothing new and is skipped."""
    out: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    visited: set[tuple[int, tuple[int, ...], int]] = set()
    last = len(useful)
    # (a stack, not recursion: a city may hold more producers than Python's recursion limit;
    # children pushed last choice first, so they are taken in `product`'s order)
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, tuple(need), 0)]
    while stack:
        key = stack.pop()
        if key in visited:
            continue
        visited.add(key)
        i, left, idle = key
        if i == last:
            if left not in seen and not any(left[r] for r in range(len(left)) if idle >> r & 1):
                seen.add(left)
                out.append(list(left))
            continue
        mask = idle
        for r in useful[i]:
            mask |= 1 << r
        stack.append((i + 1, left, mask))
        for r in reversed(useful[i]):
            if left[r]:
                stack.append((i + 1, left[:r] + (left[r] - 1,) + left[r + 1:], idle))
    return out


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
    """(side, resource) for each unit bought, paying exactly `target` per side; None if no way does.

    The sources, in order: each side's fixed units of a resource, then each side's one-of
    producers.  Of the ways to pay `target`, the one taken gives each unit, in order, the
    first source from which the rest can still be paid (what a search unit by unit, trying
    the sources in order, finds first).  The units of a resource then come from sources in
    order, so a source found is taken for as many units as it can still give (counted by
    doubling, then halving); and that way always takes the first unused of producers alike
    (same side, same resources: swapping two of them changes nothing), so the search goes by
    kinds of source.  Whether the rest can be paid is asked of `_reach`, never found by trying
    every way to use the sources (eight producers on one side and ten on the other took a
    minute and a half)."""
    kinds, firsts, caps, prices, givers = _market(sides)
    if target not in _reach(kinds, caps, prices, need, givers, target):
        return None
    out: list[tuple[int, int]] = []
    rest = list(need)
    left = list(target)

    def payable(j: int, k: int, r: int, n: int) -> bool:
        """Whether the rest can be paid once kind j has given n more units of r."""
        caps[j] -= n
        rest[r] -= n
        left[k] -= n * prices[k][r]
        ok = min(left) >= 0 and (not any(rest) and not any(left)
                                 or tuple(left) in _reach(kinds, caps, prices, rest, givers, left))
        caps[j] += n
        rest[r] += n
        left[k] += n * prices[k][r]
        return ok

    for r in range(len(need)):
        floor = -1   # (the place of the source the last unit of r came from)
        while rest[r]:
            for place, j, k in sorted((firsts[j][caps[j] - 1], j, k) for j in givers[r]
                                      for k in (kinds[j][0],) if caps[j] and firsts[j][caps[j] - 1] >= floor):
                if not payable(j, k, r, 1):
                    continue
                # (a fixed source gives all its units at one place; a producer, one)
                most = min(rest[r], caps[j]) if len(kinds[j][1]) == 1 and place == firsts[j][0] else 1
                good, step = 1, 1
                while good < most and payable(j, k, r, min(most, good + step)):
                    good = min(most, good + step)
                    step *= 2
                bad = min(most + 1, good + step)
                while bad - good > 1:
                    mid = (good + bad) // 2
                    if payable(j, k, r, mid):
                        good = mid
                    else:
                        bad = mid
                caps[j] -= good
                rest[r] -= good
                left[k] -= good * prices[k][r]
                out += [(k, r)] * good
                floor = place
                break
            else:
                return None   # (never: the whole was found payable above)
    return out


def _market(sides) -> tuple[list[tuple[int, frozenset[int]]], list[list[int]], list[int], list[list[int]],
                            list[list[int]]]:
    """What `_reach` and `_assign` search: the kinds of source, as (side, resources it gives):
    each side's fixed units of a resource, then its one-of producers, those alike one kind; per
    kind, the place in the order of sources of each of its units, the last to be used first,
    and how many units it has; each side's prices; per resource, the kinds that give it."""
    kinds: list[tuple[int, frozenset[int]]] = []
    firsts: list[list[int]] = []
    alike: dict[tuple[int, frozenset[int]], int] = {}
    place = 0
    for k, (_, fixed, _, _) in enumerate(sides):
        for r, q in enumerate(fixed):
            if q:
                kinds.append((k, frozenset((r,))))
                firsts.append([place] * q)
                place += 1
    for k, (_, _, one_of, _) in enumerate(sides):
        for opts in one_of:
            key = (k, frozenset(opts))
            j = alike.get(key)
            if j is None:
                j = alike[key] = len(kinds)
                kinds.append(key)
                firsts.append([])
            firsts[j].insert(0, place)
            place += 1
    givers: list[list[int]] = [[] for _ in sides[0][1]]
    for j, (_, gives) in enumerate(kinds):
        for r in gives:
            givers[r].append(j)
    return kinds, firsts, [len(f) for f in firsts], [side[3] for side in sides], givers


def _reach(kinds: list[tuple[int, frozenset[int]]], caps: list[int], prices, need: list[int],
           givers: list[list[int]], bound: list[int] | tuple[int, ...] | None = None) -> set[tuple[int, ...]]:
    """Every vector of coins per side that buys exactly `need` from `caps[j]` units of each kind
    of source (none above `bound`, where given); `givers`: per resource, the kinds that give
    it, in order.  Two searches find it, each in time that grows with what the other does not
    see: source by source, whose positions are the units still needed (at most the product,
    over the resources, of each one's units plus one), or resource by resource, whose positions
    are the one-of producers still unused (at most the product, over their kinds, of each
    kind's count plus one); the one with fewer positions is taken.  (A search unit by unit, trying each source for each unit, met
    every subset of the producers: twenty of different resources took half a minute.)"""
    by_units = by_producers = 1
    for r, n in enumerate(need):
        if n:
            by_units *= n + 1
    for j, (_, gives) in enumerate(kinds):
        if caps[j] and len(gives) > 1:
            for r in gives:
                if need[r]:
                    by_producers *= caps[j] + 1
                    break
    if by_producers < by_units:
        return _reach_by_resource(kinds, caps, prices, need, givers, bound)
    return _reach_by_source(kinds, caps, prices, need, givers, bound)


def _reach_by_source(kinds: list[tuple[int, frozenset[int]]], caps: list[int], prices, need: list[int],
                     givers: list[list[int]], bound: list[int] | tuple[int, ...] | None) -> set[tuple[int, ...]]:
    """`_reach` source by source: after each, the units still needed, each with the coins paid
    so far."""
    zero = (0,) * len(need)
    layer: dict[tuple[int, ...], set[tuple[int, ...]]] = {tuple(need): {(0,) * len(prices)}}
    needed = [r for r in range(len(need)) if need[r]]
    if not needed:
        return set(layer[zero])
    order = givers[needed[0]] if len(needed) == 1 else sorted({j for r in needed for j in givers[r]})
    for j in order:
        cap = caps[j]
        if not cap:
            continue
        k, gives = kinds[j]
        useful = []
        for r in gives:
            if need[r]:
                useful.append(r)
        price = prices[k]
        limit = bound[k] if bound is not None else None
        # (units of one resource in bundles of 1, 2, 4 ... units, each taken or not: any number up
        # to `cap` is some of them; units of several resources one at a time, each giving one of
        # them or none)
        if len(useful) == 1:
            bundles = []
            size = 1
            while cap > 0:
                bundles.append(size if size < cap else cap)
                cap -= size
                size *= 2
        else:
            bundles = [1] * cap
        for n in bundles:
            # (a set of the layer before may be taken over whole: that layer is not read again)
            after: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
            for left, vecs in layer.items():
                have = after.get(left)
                if have is None:
                    after[left] = vecs
                else:
                    have |= vecs
                for r in useful:
                    if left[r] >= n:
                        cost = n * price[r]
                        moved = set()
                        for v in vecs:
                            paid = v[k] + cost
                            if limit is None or paid <= limit:
                                moved.add(v[:k] + (paid,) + v[k + 1:])
                        if moved:
                            to = left[:r] + (left[r] - n,) + left[r + 1:]
                            have = after.get(to)
                            if have is None:
                                after[to] = moved
                            else:
                                have |= moved
            layer = after
        if len(layer) == 1 and zero in layer:
            break   # (all bought: the sources left can only give nothing)
    return layer.get(zero, set())


def _reach_by_resource(kinds: list[tuple[int, frozenset[int]]], caps: list[int], prices, need: list[int],
                       givers: list[list[int]], bound: list[int] | tuple[int, ...] | None) -> set[tuple[int, ...]]:
    """`_reach` resource by resource: after each, how many units each kind of one-of producer
    has left, each with the coins paid so far (fixed units give only their own resource, so
    what they have left is never asked again)."""
    shared = [j for j, (_, gives) in enumerate(kinds) if len(gives) > 1]
    index = {j: i for i, j in enumerate(shared)}
    sides = len(prices)
    layer: dict[tuple[int, ...], set[tuple[int, ...]]] = {tuple(caps[j] for j in shared): {(0,) * sides}}
    # (per resource, its one-of producers first, then the kinds that give it alone: the last
    # kind gives what is left, and those may give many units)
    order = [[j for j in js if j in index] + [j for j in js if j not in index] for js in givers]
    for r, n in enumerate(need):
        if not n:
            continue
        after: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        for left, vecs in layer.items():
            # every way to take the n units of r from the kinds that give it: what is left of
            # the producers, and the coins it pays each side
            ways: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
            _split(order[r], 0, n, list(left), [0] * sides, kinds, caps, index, prices, r, ways)
            for to, paid in ways.items():
                got = set()
                for v in vecs:
                    for d in paid:
                        w = tuple(a + b for a, b in zip(v, d))
                        if bound is None or _at_most(w, bound):
                            got.add(w)
                if got:   # (a position every way of reaching overpays is no position)
                    _into(after, to, got)
        layer = after
        if not layer:
            return set()
    out: set[tuple[int, ...]] = set()
    for vecs in layer.values():
        out |= vecs
    return out


def _split(sources: list[int], i: int, n: int, left: list[int], paid: list[int], kinds, caps, index,
           prices, r: int, ways: dict) -> None:
    """Each way the kinds `sources[i:]` give n units of r (`_reach_by_resource`): `left`, the
    one-of producers' units still unused, and `paid`, the coins so far, are changed and put
    back."""
    if not n:
        ways.setdefault(tuple(left), set()).add(tuple(paid))
        return
    if i == len(sources):
        return
    j = sources[i]
    k = kinds[j][0]
    at = index.get(j)
    have = caps[j] if at is None else left[at]
    if have > n:
        have = n
    for take in range(n if i == len(sources) - 1 else 0, have + 1):   # (the last gives all that is left)
        if at is not None:
            left[at] -= take
        paid[k] += take * prices[k][r]
        _split(sources, i + 1, n - take, left, paid, kinds, caps, index, prices, r, ways)
        if at is not None:
            left[at] += take
        paid[k] -= take * prices[k][r]


def _into(layer: dict, key: tuple[int, ...], vecs: set) -> None:
    """Add `vecs` to what `layer` holds at `key`."""
    have = layer.get(key)
    if have is None:
        layer[key] = vecs
    else:
        have |= vecs


def _sources(sides) -> tuple[list[list[tuple[int, int]]], tuple[int, ...], int]:
    """What the sides sell, as `_buy` searches it: sources, numbered (a side's fixed units of one
    resource, grouped, or one of its one-of producers), each listed under every resource it
    gives as (source, the unit's price packed), so a unit looks only at the sources that can
    give it; what each can give (`caps`); the bits of a side's coins in a packed vector.  A
    vector of coins per side is packed into one int, side k's coins times 2 ** (bits * k):
    adding one is one addition, not a tuple made; `bits` holds what `MANY_UNITS` units at the
    dearest price come to, with a sign.  Kept with the purchases they serve."""
    top = 0
    for side in sides:
        for price in side[3]:
            if abs(price) > top:
                top = abs(price)
    bits = (MANY_UNITS * top).bit_length() + 2
    caps: list[int] = []
    givers: list[list[tuple[int, int]]] = [[] for _ in sides[0][1]]
    for k, (_, fixed, one_of, prices) in enumerate(sides):
        for r, q in enumerate(fixed):
            if q:
                givers[r].append((len(caps), prices[r] << bits * k))
                caps.append(q)
        for opts in one_of:
            for r in dict.fromkeys(opts):
                givers[r].append((len(caps), prices[r] << bits * k))
            caps.append(1)
    return givers, tuple(caps), bits


def _unpacked(packed: AbstractSet[int], bits: int, sides: int) -> set[tuple[int, ...]]:
    """The vectors of coins per side that `_sources` packed."""
    mask = (1 << bits) - 1
    half = 1 << bits - 1
    out = set()
    for v in packed:
        vec = []
        for _ in range(sides - 1):
            c = v & mask
            if c >= half:   # (a negative price's coins: the side above was borrowed from)
                c -= mask + 1
            vec.append(c)
            v = (v - c) >> bits
        vec.append(v)
        out.add(tuple(vec))
    return out


def _buy(need: list[int], sides, kept: dict) -> AbstractSet[tuple[int, ...]]:
    """Every vector of coins per side that buys `need` from the sides' production (`kept`: the
    buyer's purchases, which keep the sides' kinds of source once they are asked for)."""
    total = sum(need)
    if not total:
        return {(0,) * len(sides)}
    if total > 64 and total > sum(sum(fixed) + len(one_of) for _, fixed, one_of, _ in sides):
        return set()   # (more than the sides make: a cost of a billion units is listed unit by unit below)
    if not _one_of_helps(need, sides):
        return _buy_fixed(need, sides)
    if total <= MANY_UNITS and _few_producers(sides):
        # (a search unit by unit, each position's ways remembered: quicker for a few units and
        # producers, as the bundled games have; but the positions grow with the subsets of the
        # producers used)
        sources = kept.get("sources")
        if sources is None:
            sources = kept["sources"] = _sources(sides)
        givers, caps, bits = sources
        units = []
        for r, q in enumerate(need):
            if q:
                units += [r] * q
        return _unpacked(_vectors(units, givers, {}, 0, caps), bits, len(sides))
    market = kept.get("market")
    if market is None:
        market = kept["market"] = _market(sides)
    kinds, _, caps, prices, givers = market
    return _reach(kinds, caps, prices, need, givers)


def _vectors(units: list[int], givers, memo: dict, u: int, caps: tuple[int, ...]) -> AbstractSet[int]:
    """The vectors of coins per side, packed (`_sources`), that buy `units[u:]` (at least one)
    from what each giver has left (`caps`), remembered in `memo`.  (A function of the module,
    not one nested in `_buy`: a nested function that calls itself is a reference cycle, left
    for the cycle collector.)"""
    row = givers[units[u]]
    out = set()
    if u + 1 == len(units):   # (the last unit: each giver left, its price)
        for j, cost in row:
            if caps[j]:
                out.add(cost)
        return out
    key = (u, caps)
    if key in memo:
        return memo[key]
    for j, cost in row:
        if caps[j]:
            for vec in _vectors(units, givers, memo, u + 1, caps[:j] + (caps[j] - 1,) + caps[j + 1:]):
                out.add(vec + cost)
    memo[key] = out
    return out


def _few_producers(sides) -> bool:
    """Whether no side has more one-of producers than `FEW_PRODUCERS`."""
    for side in sides:
        if len(side[2]) > FEW_PRODUCERS:
            return False
    return True


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
    if len(sides) == 1:
        _, fixed, _, prices = sides[0]
        cost = 0
        for r, n in enumerate(need):
            if n:
                if fixed[r] < n:
                    return set()
                cost += n * prices[r]
        return {(cost,)}
    (_, fixed_l, _, prices_l), (_, fixed_r, _, prices_r) = sides
    vectors = None   # (None until the first resource bought: its splits are the vectors)
    for r, n in enumerate(need):
        if not n:
            continue
        pl, pr = prices_l[r], prices_r[r]
        low = n - fixed_r[r]
        if low < 0:
            low = 0
        high = fixed_l[r] if fixed_l[r] < n else n
        if low > high:
            return set()
        after = set()
        if vectors is None:
            for k in range(low, high + 1):
                after.add((k * pl, (n - k) * pr))
        else:
            for x, y in vectors:
                for k in range(low, high + 1):
                    after.add((x + k * pl, y + (n - k) * pr))
        vectors = after
    return {(0, 0)} if vectors is None else vectors


def _frontier(found: AbstractSet[tuple[int, ...]], sides) -> list[tuple[int, Payment]]:
    """The vectors no other one pays at most as much to every seller (`sides`: the sellers in
    the vectors' order, as `_sides` lists them), cheapest first, as (coins in all, (seller,
    coins) of each seller paid)."""
    if len(sides) == 2:
        return _frontier_two(found, sides[0][0], sides[1][0])
    sellers = []
    for side in sides:
        sellers.append(side[0])
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


def _frontier_two(found: AbstractSet[tuple[int, ...]], first: int, other: int) -> list[tuple[int, Payment]]:
    """`_frontier` of two sellers (a seat between two neighbours), the same list without
    weighing every pair: in the order of the coins to the first seller, then to the second,
    whatever pays at most as much to both comes before, so a vector is left out exactly when
    one before it pays the second seller no more."""
    keyed = []
    least = None
    for v in sorted(found):
        second = v[1]
        if least is None or second < least:
            least = second
            keyed.append((v[0] + second, v))
    keyed.sort()
    swap = other < first   # (a payment names its sellers by seat)
    out = []
    for total, (a, b) in keyed:
        if not a:
            pay = ((other, b),) if b else ()
        elif not b:
            pay = ((first, a),)
        elif swap:
            pay = ((other, b), (first, a))
        else:
            pay = ((first, a), (other, b))
        out.append((total, pay))
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
