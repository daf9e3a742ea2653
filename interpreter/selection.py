"""Selection: the items a selector picks (zone, owner, colour, kind, age, deck, `where`), how
many, and what an expression reads of an item or of the game's options."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from rulesdsl.model import STRUCTURE, Selector

from . import seats, structure
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def candidates(g: Game, sel: Selector, me: int, env: dict | None = None) -> list[int]:
    if sel.more_zones or sel.where is not None or sel.named is not None:
        return _candidates_slow(g, sel, me, env)
    return zone_pool(g, sel, sel.zone, me, env)


def _candidates_slow(g: Game, sel: Selector, me: int, env: dict | None) -> list[int]:
    pool = zone_pool(g, sel, sel.zone, me, env)   # (read-only: each filter below makes a new list)
    if sel.more_zones:
        pool = [*pool, *_more_zones(g, sel, me, env)]
    if sel.named is not None:
        pool = _named_alike(g, sel, me, env, pool)
    return _where(g, sel, me, env, pool)


def own_candidates(g: Game, sel: Selector, me: int, pool: list[int]) -> list[int]:
    """`candidates` of a selector of seat `me`'s own slot of a zone (no more zones), given
    that slot's items: what the open actions' written functions ask (`spaces`)."""
    if sel.printed:
        pool = kept_in(pool, sel.matching(g.content.items))
    if sel.named is not None:
        pool = _named_alike(g, sel, me, None, pool)
    return _where(g, sel, me, None, pool)


def _where(g: Game, sel: Selector, me: int, env: dict | None, pool: list[int]) -> list[int]:
    """The items of `pool` for which the selector's `where=` holds (all without one)."""
    if sel.where is None:
        return pool
    if not pool:
        return []   # (nothing to test: no frame to make for `it`)
    if sel.key is not None:  # `it.ATTR == VALUE`: the value once, then the attribute of each item
        value = sel.key[1](g, Frame(0, 0, 0, me, env) if env else g._reading[me])
        return with_attr(g, pool, sel.key[0], value)
    f = Frame(0, 0, 0, me, dict(env) if env else {})
    out = []
    for i in pool:
        f.env["it"] = i
        if sel.where(g, f):
            out.append(i)
    return out


def _more_zones(g: Game, sel: Selector, me: int, env: dict | None) -> list[int]:
    return list(chain.from_iterable([zone_pool(g, sel, z, me, env) for z in sel.more_zones]))


def _named_alike(g: Game, sel: Selector, me: int, env: dict | None, pool: list[int]) -> list[int]:
    """The items of `pool` with the name of the item `named=` gives, evaluated once, before
    `it` names the candidates (`named=it` is the outer item)."""
    items = g.content.items
    named = sel.named(g, Frame(0, 0, 0, me, env) if env else g._reading[me])
    name = items[named].name if isinstance(named, int) and 0 <= named < len(items) else None
    return [i for i in pool if items[i].name == name]


def zone_pool(g: Game, sel: Selector, zone: int, me: int, env: dict | None = None) -> list[int]:
    """The items of one zone a selector picks by owner and printed attributes (read-only for
    callers: often the zone's own list)."""
    pool = _owners_items(g, sel, zone, me, env)
    if not sel.printed:
        return pool  # read-only for callers: copying it is the hot path
    return kept_in(pool, sel.matching(g.content.items))


def _owners_items(g: Game, sel: Selector, zone: int, me: int, env: dict | None = None) -> list[int]:
    """The items of one zone the selector's owner picks, each once (read-only for callers);
    `env`: the names of the frame asking, which a computed owner may read."""
    if zone < 0:   # the structure: its accessible cards, or every card of it (STRUCTURE_ALL)
        return structure.accessible(g) if zone == STRUCTURE else [i for i in g.state.structure if i >= 0]
    if g.content.zones[zone].per_player:
        if sel.owner == "me":
            return g.state.zones[g.zone_base[zone] + me]   # the hot case: no list to build
        return _owned(g, zone, seats.owners(g, sel.owner, me, env))
    return g.state.zones[g.zone_base[zone]]


def kept_in(pool: list[int], matching: frozenset[int]) -> list[int]:
    """The items of `pool` in `matching`, in order."""
    kept = []   # (a loop: `filter` over a bound method costs more per item)
    for item in pool:
        if item in matching:
            kept.append(item)
    return kept


def _owned(g: Game, zone: int, owners: list[int]) -> list[int]:
    """The items of these seats' slots of a per-seat zone, seat by seat."""
    zones, base = g.state.zones, g.zone_base[zone]
    out: list[int] = []   # (a loop: a comprehension is a function made at every call)
    for o in owners:
        out += zones[base + o]
    return out


def kept_where(g: Game, values: list, where, me: int, env: dict | None, name: str) -> list:
    """The values (items, spaces) for which a `where=` condition holds, each bound as `name`."""
    probe = Frame(0, 0, 0, me, dict(env) if env else {})
    kept = []
    for v in values:
        probe.env[name] = v
        if where(g, probe):
            kept.append(v)
    return kept


def count_named(g: Game, sel: Selector, me: int, named: int, env: dict | None = None) -> int:
    """`count(ZONE, named=ITEM)` with no other filter: how many items of the zone bear that name."""
    return count_name(g, zone_pool(g, sel, sel.zone, me, env), named)


def count_name(g: Game, pool: list[int], named: int) -> int:
    """How many items of `pool` bear the name of item `named` (none: not an item): what
    `count(ZONE, named=ITEM)` of the seat's own slot of a zone reads, given the slot."""
    names = g.item_names
    if not isinstance(named, int) or not 0 <= named < len(names):
        return 0
    name = names[named]
    n = 0   # (a loop: `map` over a bound method costs more per item)
    for item in pool:
        if names[item] == name:
            n += 1
    return n


def count_colors(g: Game, zone: int, me: int, colors: tuple[str, ...]) -> int:
    """How many items of the seat's slot of a per-seat zone have one of these colours, read
    from a tally of the slot's colours, made when first asked and kept up to date as items
    enter and leave the slot one by one (`core.relocate`; moves of many forget it)."""
    slot = g.zone_base[zone] + me
    tally = g._tally[slot]
    if tally is None:
        items = g.content.items
        tally = g._tally[slot] = {}
        for i in g.state.zones[slot]:
            color = items[i].color
            tally[color] = tally.get(color, 0) + 1
    n = 0
    for color in colors:
        n += tally.get(color, 0)
    return n


def count_color(g: Game, zone: int, me: int, color: str) -> int:
    """`count_colors` of one colour (Duel's discard reads its yellow cards every time): the
    tally read once, with no loop over the colours."""
    tally = g._tally[g.zone_base[zone] + me]
    if tally is None:
        return count_colors(g, zone, me, (color,))
    return tally.get(color, 0)


def count_owned(g: Game, zone: int, me: int, word: str) -> int:
    """`count(ZONE, owner=WORD)` of a per-seat zone with no other filter: how many items the
    slots of the seats the word names hold (`candidates` would list them first)."""
    zones, base = g.state.zones, g.zone_base[zone]
    n = 0
    if word == "all" or word == "any":
        # (every seat: the seats' slots, read through the content's range, with no list of
        # them made by `seats_of`, which compares the word with each other word first)
        for q in g.seats:
            n += len(zones[base + q])
        return n
    for q in seats.seats_of(g, word, me):
        n += len(zones[base + q])
    return n


def count(g: Game, sel: Selector, me: int, env: dict | None = None) -> int:
    if sel.owner == "most" and sel.zone >= 0 and g.content.zones[sel.zone].per_player:
        return _most(g, sel)
    if sel.more_zones or sel.where is not None or sel.named is not None:
        return len(_candidates_slow(g, sel, me, env))
    pool = _owners_items(g, sel, sel.zone, me, env)
    if not sel.printed:
        return len(pool)
    # (how many of them the printed filters keep, counted in C: an item lies in one place, so
    # each is in the pool once)
    return len(sel.matching(g.content.items).intersection(pool))


def _most(g: Game, sel: Selector) -> int:
    """`count(..., owner=most)`: the most any seat has."""
    zones = g.state.zones
    base = g.zone_base[sel.zone]
    matching = sel.matching(g.content.items)
    most = 0   # (a loop: `max` of a generator is a call and a function resumed per seat)
    for p in g.seats:
        n = len(matching.intersection(zones[base + p]))
        if n > most:
            most = n
    return most


def with_attr(g: Game, pool: list[int], name: str, value) -> list[int]:
    """The items of `pool` whose attribute `name` is `value` (as `item_attr` reads it), read
    from the attribute's column of values by item (no attribute looked up by name per item)."""
    column = g._columns.get(name) or _column(g, name)
    out = []   # (a loop: pools are a hand or a few stages, too short for a chain of iterators to pay)
    for i in pool:
        if column[i] == value:
            out.append(i)
    return out


def _column(g: Game, name: str) -> list:
    """The attribute's value for every item, by item number, as `item_attr` reads it: made when
    first asked and kept with the content's tables (`g._columns`)."""
    column = g._columns[name] = [item_attr(g, i, name) for i in range(len(g.content.items))]
    return column


def split_attr(g: Game, pool: list[int], name: str, value) -> tuple[list[int], list[int]]:
    """`with_attr`, and the rest of `pool`, both in order (a move of those items: what is left)."""
    column = g._columns.get(name) or _column(g, name)
    out: list[int] = []
    rest: list[int] = []
    for i in pool:
        if column[i] == value:
            out.append(i)
        else:
            rest.append(i)
    return out, rest


ZERO_WHEN_MISSING = ("age", "value", "side", "space")


def item_attr(g: Game, item: int, name: str):
    if not isinstance(item, int) or not 0 <= item < len(g.content.items):
        # No item (`first_in` of an empty zone): a number reads 0, a word nothing.
        return 0 if name in ZERO_WHEN_MISSING else None
    value = getattr(g.content.items[item], name, None)
    if value is None and name in ZERO_WHEN_MISSING:
        return 0  # an item without an age compares as age 0, never as a crash
    return value


def has_option(g: Game, name: str) -> bool:
    return name in g.state.options
