"""Chance steps that move items: drawing at random (or as the script dictates), dealing, and
shuffling.  Every outcome is recorded in `state.chance`; the dice are `state.rng` (chance.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import chance, core, knowledge, machine
from .budget import ScriptedDrawFailed
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def draw(g: Game, slot: int, count: int, label: str, unseen: bool = False) -> tuple[list[int], list[int] | None]:
    """A chance step: `count` items at random from a slot (or as the script dictates), and what
    the slot holds without them, in its order (None where the script had a say): the drawn
    items are still in the slot, which the caller moves them out of (`core.relocate_all`).
    An `unseen` draw (cards leaving the game face down) is never dictated: it takes items
    the zone's script does not name, so the script describes what players do see."""
    st = g.state
    pool = st.zones[slot]
    scripted = st.script.get(label)
    if unseen and scripted:
        pool = _not_named(g, pool, set(scripted))
        scripted = None
    if count > len(pool):   # (a test, not `min`: most draws ask for no more than there is)
        if st.flow in ("setup", "age_setup"):
            # A deck too small for the set-up: the game goes on with fewer, `check` reports it.
            # (the age whose set-up it is, counted from 1 (`age` counts from 0), 0 for the game's: said in the message, `budget.short_deal`)
            g.short_draws.append((label, count, len(pool), st.age + 1 if st.flow == "age_setup" else 0))
        count = len(pool)
    rest = list(pool)  # what is still there, in the zone's order: the k-th of it is drawn
    if not scripted:   # every item at random: the numbers drawn in one go
        entry = [label]   # (the chance record's: the zone, then the items' names)
        st.rng, out = chance.take(st.rng, rest, count, g.item_names, entry)
        st.chance.append(entry)
        return out, (rest if pool is st.zones[slot] else None)
    return _scripted_draw(g, rest, count, label, scripted), None


# (Apart from `draw`: the names their comprehensions read would be cells every draw creates.)
def _not_named(g: Game, pool: list[int], names: set[str]) -> list[int]:
    return [i for i in pool if g.content.items[i].name not in names]


def _scripted_draw(g: Game, rest: list[int], count: int, label: str, scripted: list[str]) -> list[int]:
    """`draw`, as far as the script dictates, then at random."""
    st = g.state
    out = []
    for _ in range(count):
        if scripted:
            name = scripted.pop(0)
            item = next((i for i in rest if g.content.items[i].name == name), None)  # any copy of it
            if item is None:
                raise ScriptedDrawFailed(f"scripted draw from {label}: {name!r} is not there", machine.running(g))
            rest.remove(item)
        else:
            st.rng, k = chance.below(st.rng, len(rest))
            item = rest.pop(k)
        out.append(item)
    st.chance.append(_named(g, label, out))
    return out


def _named(g: Game, label: str, items: list[int]) -> list[str]:
    """What the chance record keeps of a draw: the zone, then the items' names."""
    names = g.item_names
    entry = [label]
    for item in items:
        entry.append(names[item])
    return entry


def deal(g: Game, count: int, src: int, dst: int, owner: int, space: int | None = None,
         hidden: bool = False, unseen: bool = False, by: int = -1) -> None:
    frames: list[Frame] = []
    drawn, left = draw(g, g.zone_slots[src][owner], count, g.content.zones[src].name, unseen)
    if space is None and not hidden:
        core.arrive_all(g, drawn, g.zone_slots[dst][owner], by, frames, left)
    elif hidden:
        _deal_face_down(g, drawn, g.zone_slots[dst][owner], space, by, frames)
    else:
        for item in drawn:
            core.arrive(g, item, g.zone_slots[dst][owner], by, frames)
            g.state.positions[item] = space
            core.placed(g, item)
    if frames:
        machine.schedule(g, frames)


def deal_unseen(g: Game, count: int, src: int, dst: int, owner: int, space: int | None = None,
                hidden: bool = False, unseen: bool = False, by: int = -1) -> None:
    """`deal` face up into a zone that may be a deck no seat sees (the compiler tells): into a
    deck, the seats that saw an item where it was drawn from know it lies there (knowledge.py;
    from a deck, only a seat that knew it there).  (Its own verb: a deal elsewhere pays nothing.)"""
    from_slot = g.zone_slots[src][owner]
    if g.zone_slots[dst][owner] not in g.deck_slots or from_slot in g.deck_slots and not g.state.known:
        deal(g, count, src, dst, owner, space, hidden, unseen, by)
        return
    saw = knowledge.seen_in(g, (from_slot,))
    deal(g, count, src, dst, owner, space, hidden, unseen, by)
    knowledge.remember_arrived(g, saw)


def _deal_face_down(g: Game, drawn: list[int], slot: int, space: int | None, by: int, frames: list[Frame]) -> None:
    """`deal` of items put face down: each known to the seats that saw its face where it was
    drawn from (knowledge.py; drawn, it still lies there: a deck, seen by none)."""
    st = g.state
    for item in drawn:
        saw = knowledge.seers(g, item)
        core.arrive(g, item, slot, by, frames)
        if space is not None:
            st.positions[item] = space
        st.hidden.append(item)
        knowledge.remember(g, item, saw)
        core.placed(g, item)


def shuffle(g: Game, zone: int, me: int) -> None:
    """A chance step: put a zone (`me`'s, of a zone each seat has) in random order (the last item is the top)."""
    slot = g.zone_slots[zone][me]
    order, _ = draw(g, slot, len(g.state.zones[slot]), g.content.zones[zone].name)
    if g.state.known:
        knowledge.forget_shuffled(g, slot)
    g.state.zones[slot][:] = list(reversed(order))  # the first drawn is the top
