"""An item's arrival in a seat's city, written out for each item of a content set.

`economy._into_play` moves the item into its seat's build zone (`core.relocate`), keeps the
seat's points, stats and the prices the change reaches (`core.dirty`, `costs.add_item`), then
gathers what the arrival sets off.  Most of that work asks questions whose answers the item's
printed parts fix: its kind and colour, what it makes, whether it has points, chains or
effects, which prices it can reach.  So for each item this module writes it as Python source
once per content, with those answers taken: the same work, in the same order, on the same
state.  Whatever depends on the game as it stands (the slot it leaves, a slot that is ruled or
watched, the caches kept or not) is asked as the generic functions ask it, or handed to them.
Items of one shape (the same lines) share one maker, which is given each item's values.

An item whose kind has no build zone, or whose build zone no seat owns, is handed to
`economy._into_play` whole (the failure it raises names the item).  The content's text never
reaches the source: the item's values are the maker's arguments; the rest is integers.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable

from rulesdsl.model import Content

from . import core, costs, economy, events, machine, trade

if TYPE_CHECKING:
    from .game import Game

Arrival = Callable[..., None]   # arrive(g, p, event, via, frames)


def arrivals_of(content: Content, tables: dict) -> list[Arrival]:
    """Each item's arrival, by item number: `arrive(g, p, event, via, frames)` does what
    `economy._into_play(g, p, item, event, via, frames)` does.  Written by the content's first
    game and shared by the rest."""
    written = content._arrivals
    if written is None:
        written = content._arrivals = [_write(content, tables, it) for it in content.items]
    return written


def _generic(item: int) -> Arrival:
    """The generic arrival of `item`, for one the writer leaves alone (and for tests)."""
    def arrive(g: Game, p: int, event: str, via, frames: list) -> None:
        economy._into_play(g, p, item, event, via, frames)
    return arrive


# A maker per shape of arrival, by its source: the source names only this module's functions and
# the maker's arguments, so content sets of one shape share it, and a code object run by many
# items is specialised by CPython after a few builds (one per item ran mostly unspecialised: a
# random game builds each item about once, and the count of classic at 7 seats rose 0.4 %).
@functools.lru_cache(maxsize=None)
def _maker(text: str) -> Callable:
    """The maker whose source is `text`, compiled once per process (a memo, as the parse of the
    grammar is: the same text gives the same function)."""
    space = dict(_common())
    exec(compile(text, "<an item's arrival>", "exec"), space)   # (trusted source: names and integers)
    return space["make"]


def _common() -> dict:
    """What a written arrival calls, by module (`machine.schedule`...): the generic functions,
    for what the state decides, looked up at each call as the generic path looks them up, so
    that a caller wrapping one (a test, a benchmark) sees the written path call it too."""
    return {"core": core, "economy": economy, "events": events, "machine": machine, "trade": trade, "costs": costs}


def _write(content: Content, t: dict, it) -> Arrival:
    """`it`'s arrival (`t`: the content's slot tables)."""
    if it.kind not in content.build_zone or not content.zones[content.build_zone[it.kind]].per_player:
        return _generic(it.id)   # (the failure it raises, or a zone of no seat: as ever)
    names: list[str] = []
    values: list = []

    def val(x) -> str:   # (a value of the maker's, named)
        name = f"_v{len(names)}"
        names.append(name)
        values.append(x)
        return name

    it_name, tbe = val(it), val(content.triggers_by_event)
    zone = content.build_zone[it.kind]
    i = val(it.id)
    color = val(it.color)
    # (A seat below 0 reads the last seat's slot, whose owner `dirty` is handed: the generic path.)
    L = ["def arrive(g, p, event, via, frames):",
         "    if p < 0:",
         f"        return economy._into_play(g, p, {i}, event, via, frames)"]
    L += [f"    slot = g.zone_slots[{val(zone)}][p]",
          # core.relocate, leaving
          "    st = g.state",
          f"    old = st.loc[{i}]"]
    if content.structure_riders:   # (`core.leaving_with`, inline: what lies on it leaves the structure with it)
        L.append(f"    riders = core.riders(st.attached, {i}) if st.attached and old == g.structure_slot "
                 f"and {i} in (g._hosts or core.hosts_of(g)) else None")
    L += ["    if g._round_pools:",
          "        g._round_pools.clear()",
          "    if old >= 0:",
          "        kind = g.slot_kind[old]",
          "        if not kind:",
          f"            st.zones[old].remove({i})",
          "            tally = g._tally[old]",
          "            if tally is not None:",
          f"                tally[{color}] -= 1",
          f"        elif kind == {core.STRUCTURE_SLOT}:",
          f"            core._leave_structure(g, st, {i}, st.zones[old])",
          "        else:",
          f"            core._left_kinds(g, st, {i}, old, kind)",
          "    marked = g._placed",
          "    if marked is None:",
          "        marked = core.placed_items(g)",
          f"    if {i} in marked:",
          f"        marked.discard({i})",
          f"        if st.attached.pop({i}, -1) >= 0:",
          "            g._hosts = None",
          f"        st.positions.pop({i}, None)",
          f"        if {i} in st.hidden:",
          f"            st.hidden.remove({i})",
          "            if st.known:",
          f"                st.known.pop({i}, None)",
          f"        elif st.known and {i} in st.known:",
          f"            del st.known[{i}]",
          # arriving
          f"    st.loc[{i}] = slot",
          f"    st.zones[slot].append({i})",
          "    tally = g._tally[slot]",
          "    if tally is not None:",
          f"        tally[{color}] = tally.get({color}, 0) + 1",
          "    kind = g.slot_kind[slot]",
          f"    if kind == {core.ACTIVE_SLOT}:"]
    L += ["        " + line for line in _dirty(content, t, it, i, val)]
    L += ["    elif kind:",
          f"        core._arrived_kinds(g, {i}, slot, kind)"]
    # what the arrival sets off
    L += [f"    if event in {tbe}:",
          f"        hearing = g._hearing.get((event, {val(it.kind)}, {color}, via))",
          "        if hearing is None:",
          f"            frames += events.event_frames(g, event, p, {i}, fields={{'via': via}})",
          "        elif hearing:"]
    L += ["            " + line for line in OUT_OF_PLAY]
    L += ["            if hearing is not None:",
          f"                frames += events.heard_frames(g, hearing, event, p, {i}, {it_name}, {{'via': via}})"]
    if it.effect >= 0:
        L.append(f"    frames.append(machine.frame(g, {val(it.effect)}, {val(t['block_stops'][it.effect])}, p, {{}}))")
    for sym in it.science:
        symbol = val(sym)
        if "gained_science" not in content.triggers_by_event:   # (content that hears none: the call returns at once)
            L.append(f"    frames += events.event_frames(g, 'gained_science', p, fields={{'symbol': {symbol}}})")
            continue
        # (`events.event_frames` without its call: an event of no item, heard by its name alone)
        L += ["    hearing = g._hearing.get('gained_science')",
              "    if hearing is None:",
              f"        frames += events.event_frames(g, 'gained_science', p, fields={{'symbol': {symbol}}})",
              "    elif hearing:",
              f"        frames += events.heard_frames(g, hearing, 'gained_science', p, -1, None, {{'symbol': {symbol}}})"]
    if content.structure_riders:
        L += ["    if riders:", "        economy.taken_along(g, p, riders)"]
    L += ["    if frames:", "        machine.schedule(g, frames)"]
    # One maker per shape of arrival, its values (the item's number and parts) as arguments.
    body = "\n".join("    " + line for line in L)
    text = f"def make({', '.join(names)}):\n{body}\n    return arrive\n"
    arrive = _maker(text)(*values)
    arrive.source = text   # type: ignore[attr-defined]  (for a reader)
    return arrive


# `events.in_play` written into an arrival (no call at each build): what `events.heard_frames`
# asks first of each trigger.  Where every trigger that may hear the item is an item's, and
# each of those items is out of play (in no seat's active zone, nor in a ruled one), nothing
# hears it, and no call is made (a red card built: mostly so in Duel).  `hearing` becomes None
# then.
OUT_OF_PLAY = ["for t in hearing:",
               "    if t.item < 0:",
               "        break",
               "    at = st.loc[t.item]",
               "    if at in g.ruled or at >= 0 and g.slot_active[at]:",
               "        break",
               "else:",
               "    hearing = None"]


def _dirty(content: Content, t: dict, it, i: str, val) -> list[str]:
    """`core.dirty(g, p, item, slot)` for this item (`i`: its number's name) arriving in seat
    p's city (p a seat)."""
    L: list[str] = []
    n, fns = t["_item_points"][it.id]
    if n or fns:
        L += ["points = g._points[p]",
              "if points is not None:",
              f"    g._points[p] = (points[0] + {val(n)}, points[1] + {val(fns)})"]
    in_play = [z.id for z in content.zones if z.active and z.per_player]
    last_zone = bool(in_play) and content.build_zone[it.kind] == in_play[-1]
    forget = it.copy_science or (it.produce_one_of and content.trade_base and (bool(t["ruled"]) or not last_zone))
    if forget:
        L += ["if g._stats[p] is not None:", "    g._stats[p] = None"]
    elif it.has_statics:
        L += ["s = g._stats[p]",
              "if s is not None:",
              "    if s.cloned:",
              "        s = g._stats[p] = costs.copy_stats(s)"]
        L += ["    " + line for line in _add_item(it, val)]
    shared = content.price_spread
    if shared is not None and not shared[it.id]:
        reach = t["_price_reach"][it.id]
        if reach is None:
            if it.trade_fixed or it.trade_discounts:
                L.append("g._prices[p] = None")
            L.append("g._price_cache[p].clear()")
            return L or ["pass"]
        if reach:
            L += ["cache = g._price_cache[p]", f"for x in {val(reach)}:", "    cache.pop(x, None)"]
        if t["_computed_costs"]:
            L.append(f"core._forget_items(g._price_cache[p], {val(t['_computed_costs'])})")
        return L or ["pass"]
    scope = t["_price_scope"]
    adjusts = bool(it.trade_fixed or it.trade_discounts)
    if scope is None and not content.trade_base:
        own = "-1" if content.trade_price_reads_own else "p"
        reaches = t["_resource_reach"]
        if reaches is not None and reaches[it.id] is not None:
            # (`core._forget_resources`, its calls written out: each seat forgets its prices of
            # the items asking for these resources, and each seat but `own` its price of each)
            made, asking = reaches[it.id]
            L += ["for q in g.seats:",
                  "    cache = g._price_cache[q]",
                  f"    for x in {val(asking)}.intersection(cache):",
                  "        del cache[x]"]
            if made:
                rs = [val(r) for r in made]
                L += [f"    if q != {own}:",
                      "        kept, values = g._prices[q], g._trade_formula[q]",
                      "        if kept is not None:"]
                L += [f"            kept[{r}] = -1" for r in rs]
                L += ["        if values is not None:"]
                L += [f"            values[{r}] = -1" for r in rs]
            if t["_computed_costs"]:
                L.append(f"core._forget_items(g._price_cache[p], {val(t['_computed_costs'])})")
            return L
        L += ["prices, formula, cache = g._prices, g._trade_formula, g._price_cache",
              "for q in g.seats:",
              "    cache[q].clear()",
              f"    if q != {own}:",
              "        prices[q] = formula[q] = None"]
        if adjusts:
            L += ["    else:", "        prices[q] = None"]
        return L
    L += ["offered = g._offers[p]",
          "if offered is not None:",
          f"    g._offers[p] = trade.offer_after_arrival(g, p, offered, {i})"]
    reaches = t["_resource_reach"]
    reach = reaches[it.id] if reaches is not None else None
    L.append("for q in " + ("g.seats" if scope is None else "g._price_scope[p]") + ":")
    if reach is None:
        L += ["    g._prices[q] = g._trade_formula[q] = None", "    g._price_cache[q].clear()"]
    else:
        L.append(f"    core._forget_asking(g, q, {val(reach)})")
    L += ["    g._trade_cache[q].clear()", "    g._cheapest_cache[q].clear()"]
    if reach is not None and t["_computed_costs"]:
        L.append(f"core._forget_items(g._price_cache[p], {val(t['_computed_costs'])})")
    return L


def _add_item(it, val) -> list[str]:
    """`costs.add_item(s, it)`, its parts taken."""
    L: list[str] = []
    if it.produced:
        color = val(it.color)
        L += [f"row = s.by_color.get({color})",
              "if row is None:",
              f"    row = s.by_color[{color}] = [0] * len(s.produce)",
              "produce = s.produce"]
        for r, q in it.produced:
            r, q = val(r), val(q)
            L += [f"produce[{r}] += {q}", f"row[{r}] += {q}"]
        L.append("s.colored.clear()")
    if it.produce_one_of:
        L.append(f"s.one_of.extend({val(it.produce_one_of)})")
    if it.science:
        L.append("science = s.science")
        for sym in it.science:
            name = val(sym)
            L.append(f"science[{name}] = science.get({name}, 0) + 1")
        L.append("s.science_scores.clear()")
    if it.chain_gives:
        L.append(f"s.chains.update({val(it.chain_gives)})")
    if it.has_price_statics:
        L.append(f"costs._add_price_statics(s, {val(it)})")
    return L or ["pass"]
