"""Moving items between zones as effects do: to a zone (on top, at the bottom, onto another
item), all of a zone, to the discard pile, the top of a deck, back to their decks; placing on
a numbered space, claiming, turning face-down items up.  Each move that reaches the discard
pile or changes who rules an item sets off its events (`core.arrive`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, economy, events, knowledge, machine, seats, selection
from .core import riders, riders_of
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def move(g: Game, item: int, zone: int, owner: int, onto: int | None = None, bottom: bool = False,
         by: int = -1) -> None:
    frames: list[Frame] = []
    on_it = core.leaving_with(g, item) if g.content.structure_riders else None
    core.arrive(g, item, g.zone_slots[zone][owner], by, frames)
    if on_it:   # (what they set off runs after what the move set off: scheduled first)
        economy.taken_along(g, by, on_it, g.state.loc[item])
    if frames:
        machine.schedule(g, frames)
    if bottom:
        pile = g.state.zones[g.zone_slots[zone][owner]]
        pile.insert(0, pile.pop())
    if onto is not None:
        g.state.attached[item] = onto
        g._hosts = None
        core.placed(g, item)
        it = g.content.items[item]
        if it.copy_science and g.slot_active[g.state.loc[item]]:
            # A copied symbol counts like any other: announce it (pairs, supremacy).
            holder = core.owner_of(g, item)
            core.dirty(g, holder)
            frames = []
            for sym in g.content.items[onto].science:
                frames += events.event_frames(g, "gained_science", holder, fields={"symbol": sym})
            machine.schedule(g, frames)


def move_unseen(g: Game, item: int, zone: int, owner: int, onto: int | None = None, bottom: bool = False,
                by: int = -1) -> None:
    """`move` into a zone that may be a deck no seat sees (the compiler tells: items start in it,
    no seat sees it): into a deck, the seats that saw the item where it lay know it lies there
    (knowledge.py).  (Its own verb, as each `_unseen` one: a move elsewhere pays nothing for it.)"""
    if g.zone_slots[zone][0] not in g.deck_slots:
        move(g, item, zone, owner, onto, bottom, by)
        return
    saw = knowledge.seers(g, item)
    move(g, item, zone, owner, onto, bottom, by)
    knowledge.remember_put(g, item, saw)


def move_all(g: Game, src: int, dst: int, owner, me: int, bottom: bool = False, claim_them: bool = False,
             where=None, f: Frame | None = None, key=None) -> None:
    """Every item of a zone to another (`where=`: those it holds for; `key`: the same test as
    (attribute, value), when it is `it.ATTR == VALUE`, with the value worked out once)."""
    zones = g.content.zones
    owners = seats.owners(g, owner, me, f.env if f is not None else None) \
        if (zones[src].per_player or zones[dst].per_player) else [0]
    frames: list[Frame] = []
    for o in owners:
        moving = list(g.state.zones[g.zone_slots[src][o]])
        left: list[int] | None = []   # (what the zone keeps, in order, where it is known here)
        if key is not None:
            attr, value = key[0], key[1](g, Frame(0, 0, 0, me, dict(f.env) if f is not None else {}))
            moving, left = selection.split_attr(g, moving, attr, value)
        elif where is not None:  # `where=`: only the items it holds for (`it`)
            moving = selection.kept_where(g, moving, where, me, f.env if f is not None else None, "it")
            left = None
        if claim_them:
            for item in moving:
                claim(g, item, dst, o, me)
        else:
            core.arrive_all(g, moving, g.zone_slots[dst][o], me, frames, left)
        if bottom and moving:
            pile = g.state.zones[g.zone_slots[dst][o]]
            pile[:] = pile[-len(moving):] + pile[:-len(moving)]
    if frames:
        machine.schedule(g, frames)


def move_all_unseen(g: Game, src: int, dst: int, owner, me: int, bottom: bool = False, claim_them: bool = False,
                    where=None, f: Frame | None = None, key=None) -> None:
    """`move_all` into a zone no seat sees: into a deck, as `move_unseen`."""
    if g.zone_slots[dst][0] not in g.deck_slots:
        move_all(g, src, dst, owner, me, bottom, claim_them, where, f, key)
        return
    saw = knowledge.seen_in(g, set(g.zone_slots[src]))
    move_all(g, src, dst, owner, me, bottom, claim_them, where, f, key)
    knowledge.remember_arrived(g, saw)


def discard(g: Game, me: int, item: int) -> None:
    """To the discard pile, with whatever lies on the item (tokens on a structure card)."""
    pile = g.discard_slot
    attached = g.state.attached   # (`riders_of`, inline: most items carry nothing)
    # (`carries`, inline: the kept set of the items something lies on, never empty where
    # something lies on an item)
    on_it = riders(attached, item) if attached and item in (g._hosts or core.hosts_of(g)) else ()
    if not on_it and "discarded" not in g.content.triggers_by_event:
        core.relocate(g, item, pile)   # (what `core.arrive` does when nothing hears the pile)
        return
    frames: list[Frame] = []
    core.arrive(g, item, pile, me, frames)
    for x in on_it:
        core.arrive(g, x, pile, me, frames)
    if frames:
        machine.schedule(g, frames)


def discard_taken(g: Game, me: int, item: int) -> None:
    """`discard` of an item the compiler knows was picked from the structure alone (an action's
    parameter `from structure`: Duel's discard, a third of its turns).  Where it still lies in
    the structure, carries nothing, lies on nothing, and no rule hears the pile, what
    `core.relocate` does for it is done here, with the structure's own way out: one call and
    the tests of kinds and places a general move makes fewer.  Anything else is `discard`."""
    st = g.state
    old = st.loc[item]
    pile = g.discard_slot
    marked = g._placed
    if (old != g.structure_slot or not g._quiet_discard or g._round_pools or marked is None or item in marked
            or st.attached and item in (g._hosts or core.hosts_of(g))):
        discard(g, me, item)
        return
    core._leave_structure(g, st, item, st.zones[old])
    st.loc[item] = pile
    st.zones[pile].append(item)
    tally = g._tally[pile]
    if tally is not None:
        color = g.content.items[item].color
        tally[color] = tally.get(color, 0) + 1


def take_top(g: Game, count: int, src: int, dst: int, me: int) -> None:
    """The top `count` items, keeping their order (the top one last, as in the deck)."""
    pile = g.state.zones[g.zone_slots[src][me]]
    frames: list[Frame] = []
    start = len(pile) - count   # (a test, not `min`: a call of `min` or `max` costs some hundreds of machine instructions)
    for item in pile[start if start > 0 else 0:]:
        core.arrive(g, item, g.zone_slots[dst][me], me, frames)
    if frames:
        machine.schedule(g, frames)


def take_top_unseen(g: Game, count: int, src: int, dst: int, me: int) -> None:
    """`take_top` into a zone no seat sees: into a deck, as `move_unseen`."""
    if g.zone_slots[dst][me] not in g.deck_slots:
        take_top(g, count, src, dst, me)
        return
    pile = g.state.zones[g.zone_slots[src][me]]
    taken = pile[len(pile) - min(count, len(pile)):]
    saw = [knowledge.seers(g, item) for item in taken]
    take_top(g, count, src, dst, me)
    for item, seats in zip(taken, saw):
        knowledge.remember_put(g, item, seats)


def return_to_deck(g: Game, zone: int, me: int) -> None:
    """Every item back on top of its own deck, in the order they lie (the last ends on top); into
    a deck no seat sees, the seats that saw it where it lay know it lies there (knowledge.py)."""
    items = g.content.items
    frames: list[Frame] = []
    for item in list(g.state.zones[g.zone_slots[zone][me]]):
        deck = items[item].deck
        if deck >= 0:
            slot = g.zone_slots[deck][me]
            if slot in g.deck_slots:
                saw = knowledge.seers(g, item)
                core.arrive(g, item, slot, me, frames)
                knowledge.remember_put(g, item, saw)
            else:
                core.arrive(g, item, slot, me, frames)
    if frames:
        machine.schedule(g, frames)


def take_attached(g: Game, me: int, host: int) -> None:
    """Player `me` acquires what lies on `host`."""
    for x in reversed(riders_of(g, host)):
        economy.acquire(g, me, x)


def place_face_down(g: Game, item: int, zone: int, owner: int, space: int, by: int = -1) -> None:
    """`place ... face_down=true`: `place`, and the seats that saw the item's face where it lay
    now know it (knowledge.py).  (Its own verb: a face-up `place` pays nothing for it.)"""
    saw = knowledge.seers(g, item)
    place(g, item, zone, owner, space, True, by)
    knowledge.remember(g, item, saw)


def place(g: Game, item: int, zone: int, owner: int, space: int, hidden: bool = False, by: int = -1) -> None:
    """`hidden`: it lies face down, and no seat knows it (`place_face_down` records who does)."""
    st = g.state
    old = st.loc[item]
    before = seats.ruled_owner(g, item, old) if old in g.ruled else -1
    fields = {"zone": g.ruled[old], "space": st.positions.get(item, -1)} if old in g.ruled else {}
    frames: list[Frame] = []
    on_it = core.leaving_with(g, item) if g.content.structure_riders else None
    core.arrive(g, item, g.zone_slots[zone][owner], by, frames)
    if on_it:
        economy.taken_along(g, by, on_it, st.loc[item])
    st.positions[item] = space
    if hidden:
        st.hidden.append(item)
    core.placed(g, item)
    new = st.loc[item]
    after = seats.ruled_owner(g, item, new) if new in g.ruled else -1
    if before != after:
        # A ruled item changing hands: its own lost/gained triggers, as if control had changed
        # (of the space it left, then of the space it came to).
        if before >= 0:
            frames += events.event_frames(g, "control_lost", before, only=item, fields=fields)
        if after >= 0:
            frames += events.event_frames(g, "control_gained", after, only=item,
                                          fields={"zone": g.ruled[new], "space": space})
    if frames:
        machine.schedule(g, frames)


def claim(g: Game, item: int, zone: int, owner: int, by: int = -1) -> None:
    frames: list[Frame] = []
    on_it = core.leaving_with(g, item) if g.content.structure_riders else None
    core.arrive(g, item, g.zone_slots[zone][owner], by, frames)
    if on_it:
        economy.taken_along(g, by, on_it, g.state.loc[item])
    block = g.content.items[item].claim_block
    if block >= 0 and owner < 0:
        owner = core.owner_of(g, item)
    if block >= 0:
        machine.push(g, block, owner, {})
    if frames:
        machine.schedule(g, frames)


def reveal(g: Game, zone: int, owner: int, space: int | None) -> None:
    """Turn up the face-down items of a zone (of one space of it): `owner`'s, of a zone each seat has."""
    st = g.state
    if not st.hidden:
        return
    here = set(st.zones[g.zone_slots[zone][owner]])
    before = st.hidden
    st.hidden = [i for i in before if not (i in here and (space is None or st.positions.get(i) == space))]
    known = st.known
    if known and len(st.hidden) < len(before):   # (face up: seen by all, known to none alone)
        for i in before:
            if i in known and i in here and (space is None or st.positions.get(i) == space):
                del known[i]


def first_empty(g: Game, zone: int, me: int) -> int:
    """The lowest free space of `zone` (`me`'s, of a zone each seat has), -1 when none is free."""
    taken = {g.state.positions.get(i) for i in g.state.zones[g.zone_slots[zone][me]]}
    return next((s for s in range(max(g.content.zones[zone].spaces, 1)) if s not in taken), -1)


def rotate(g: Game, zone: int, step: int, me: int) -> None:
    """Every seat's items in a per-seat zone move together to the seat `step` places on (+1: left):
    hands passed around the table.  No event: the items change hands, not places."""
    st = g.state
    n = g.content.players
    base = g.zone_base[zone]
    g._round_pools.clear()
    held = st.zones[base:base + n]   # (a per-seat zone's slots are consecutive)
    loc = st.loc
    for p in range(n):
        dest = base + (p + step) % n
        for item in held[p]:
            loc[item] = dest
    shift = step % n   # (seat p's list goes to seat p + step: the slice turned by `step`)
    st.zones[base:base + n] = held[n - shift:] + held[:n - shift]
    g._tally[base:base + n] = [None] * n
    if g._arrivals is not None:   # (every item of a watched slot came to it: `core.watch`)
        for slot in range(base, base + n):
            if g.slot_kind[slot] & core.WATCHED_SLOT:
                g._arrivals += st.zones[slot]
    if g.content.zones[zone].active:
        for p in range(n):
            core.dirty(g, p)


def first_in(g: Game, zone: int, me: int) -> int:
    """The first item of the player's zone (-1: none)."""
    items = g.state.zones[g.zone_slots[zone][me]]
    return items[0] if items else -1
