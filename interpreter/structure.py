"""The card structure of an age (Duel's pyramid): cards laid out by a layout, some face down,
each accessible once no card covers it; cards uncovered during a turn are turned up at its end
(`uncovered` events); the age ends when the structure is empty.  A construct of the Duel
content, kept apart from the core so that it can become one that a game declares."""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from . import core, dealing, events, machine
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def accessible(g: Game) -> list[int]:
    """Structure cards no other card covers, in slot order (cached until the structure changes)."""
    cached = g._accessible
    if cached is not None:
        return cached
    structure = g.state.structure
    slots = g._open_slots
    if slots is None:
        slots = g._open_slots = _open_slots(g)
    # (A loop: `map` over a bound `__getitem__` costs fewer bytecodes but about twice the
    # machine instructions per card, and the bound method is made at every call.)
    cards = []
    for slot in slots:
        cards.append(structure[slot])
    g._accessible = cards
    return cards


def open_slots(g: Game) -> list[int]:
    """The structure slots whose card can be taken, in order: the slots of `accessible`'s cards
    (kept as cards leave and turn up; read-only for callers)."""
    slots = g._open_slots
    if slots is None:
        slots = g._open_slots = _open_slots(g)
    return slots


def _open_slots(g: Game) -> list[int]:
    """The structure slots whose card can be taken, in order."""
    cover = covering(g)
    slots = g._open_slots
    if slots is not None:   # (a structure just dealt: `covering` listed them)
        return slots
    structure, face_up = g.state.structure, g.state.face_up
    # A card uncovered during a turn is turned up at its end: until then it cannot be chosen.
    return [slot for slot, item in enumerate(structure) if item >= 0 and not cover[slot] and face_up[slot]]


def covering(g: Game) -> list[int]:
    """For each structure slot, how many cards still lie on it (derived; rebuilt on load)."""
    if g._cover_count is None:
        st = g.state
        lay = g.content.layouts.get(st.layout)
        structure = st.structure
        # (what each slot's card covers, beside the counts: `core._leave_structure` reads it)
        g._covers = lay.covers if lay else []
        if not lay:
            g._cover_count = []
        elif -1 not in structure:   # a structure just dealt: every card lies where the layout puts it
            g._cover_count = list(map(len, lay.covered_by))
            # (What may be turned up is what nothing covers: the top row, not every slot.)
            g._to_uncover = list(lay.uncovered)
            # (What can be taken is what nothing covers and lies face up: the top row, looked
            # at alone, not every slot of the structure.)
            g._open_slots = _face_up_among(lay.uncovered, st.face_up)
            return g._cover_count
        else:
            g._cover_count = _still_covering(structure, lay.covered_by)
        g._to_uncover = None   # counted afresh: which slots came free is not known
        g._open_slots = None
    return g._cover_count


# (Apart from `covering`: the name its comprehension reads would be a cell every call creates.)
def _face_up_among(slots: tuple[int, ...], face_up: list[bool]) -> list[int]:
    return [slot for slot in slots if face_up[slot]]


def _still_covering(structure: list[int], covered_by) -> list[int]:
    return [sum(1 for c in cov if structure[c] >= 0) for cov in covered_by]


def exhausted(g: Game) -> bool:
    """A structure was laid out and every card of it is gone: the age is over."""
    structure = g.state.structure
    if not structure:
        return False
    at = g._structure_at   # (the cards left, with their places: kept as they leave)
    if at is None:
        at = g._structure_at = core._places(structure)
    return not at


def uncover(g: Game) -> bool:
    """Turn up the face-down cards nothing covers any more; True if `uncovered` triggers run.
    The slots to look at are those whose last covering card left since the last look
    (`core.relocate` notes them), or every slot when that is not known."""
    st = g.state
    if not st.layout:
        return False
    freed = g._to_uncover
    cover = g._cover_count
    if cover is None:
        cover = covering(g)
        freed = g._to_uncover   # (counting the covers says what came free)
    elif freed is not None and not freed:
        return False   # no card lost its last cover since the last look: most turns
    structure = st.structure
    face_up = st.face_up
    if "uncovered" not in g.content.triggers_by_event:
        # Most content hears none: the cards are turned up in any order (`insort` keeps the open
        # slots in theirs), and the slots freed are forgotten in place (no other holds the list).
        opened = g._open_slots
        if freed is None:   # (not known: every slot looked at)
            g._to_uncover = []
            slots: range | list[int] = range(len(structure))
        else:
            slots = freed
        for slot in slots:
            if structure[slot] >= 0 and not face_up[slot] and not cover[slot]:
                face_up[slot] = True
                g._accessible = None
                if opened is not None:
                    insort(opened, slot)
        if freed:
            freed.clear()
        return False
    g._to_uncover = []
    if freed is None:
        slots = range(len(structure))
    else:
        freed.sort()   # (in place: the list is no longer kept, `_to_uncover` is a new one)
        slots = freed
    if not slots:
        return False
    turned: list[int] = []
    for slot in slots:
        item = structure[slot]
        if item >= 0 and not face_up[slot] and not cover[slot]:
            face_up[slot] = True
            turned.append(item)
            g._accessible = None
            if g._open_slots is not None:
                insort(g._open_slots, slot)
    if not turned:
        return False
    # (Whether something lies on a card turned up: the kept set of hosts asked once, in C,
    # rather than `core.carries` called for each card.)
    if g._uncover_idle and (not st.attached or (g._hosts or core.hosts_of(g)).isdisjoint(turned)):
        # Its rules act only on what lies on the cards turned up, and nothing does: their
        # frames would run and do nothing, and the turn would end through the frame loop.
        # (Where one card carries something, every card's frames run as ever: what one
        # card's take sets off might put something on another before its frame runs.)
        return False
    frames: list[Frame] = []
    hearings = g._hearing
    items = g.content.items
    for item in turned:
        # (`events.event_frames` without its call where the key was seen, as `economy.build`)
        it = items[item]
        hearing = hearings.get(("uncovered", it.kind, it.color, None))
        if hearing is None:
            frames += events.event_frames(g, "uncovered", st.current, item)
        elif hearing:
            frames += events.heard_frames(g, hearing, "uncovered", st.current, item, it, events.NO_FIELDS)
    if frames:
        machine.schedule(g, frames)
        return True
    return False


def deal_structure(g: Game, src: int, layout: str) -> None:
    st = g.state
    lay = g.content.layouts[layout]
    items, left = dealing.draw(g, g.zone_slots[src][0], len(lay.face_up), g.content.zones[src].name)
    st.layout = layout
    g._accessible = None
    g._cover_count = None
    g._to_uncover = None   # (counted with the covers: no slot freed in the last age is looked at)
    g._open_slots = None
    g._structure_at = None
    st.structure = [-1] * len(lay.face_up)
    st.face_up = list(lay.face_up)
    core.relocate_all(g, items, g.structure_slot, left)
    st.structure[:len(items)] = items
    machine.schedule(g, events.event_frames(g, "structure_dealt", st.next_starter))


def deal_onto_structure(g: Game, count: int, src: int, slots: list[int]) -> None:
    """Lay `count` items from `src` onto the given structure slots that still hold a card (a
    count below 0 lays none, as every count is taken: sliced, -1 laid onto all but one)."""
    st = g.state
    spots = [s for s in slots if 0 <= s < len(st.structure) and st.structure[s] >= 0][:max(0, count)]
    if not spots:   # (nothing drawn: no empty draw in the chance record either)
        return
    for item, spot in zip(dealing.draw(g, g.zone_slots[src][0], len(spots), g.content.zones[src].name)[0], spots):
        core.relocate(g, item, g.structure_slot)
        st.attached[item] = st.structure[spot]
        g._hosts = None
        core.placed(g, item)


def marked_slots(g: Game, mark: str) -> list[int]:
    lay = g.content.layouts.get(g.state.layout)
    return list(lay.marks.get(mark, [])) if lay else []


def structure_row(g: Game, item: int) -> int:
    st = g.state
    lay = g.content.layouts.get(st.layout)
    if lay is None or item < 0 or item not in st.structure:   # (-1 marks an empty place too)
        return -1
    return lay.row_of[st.structure.index(item)]
