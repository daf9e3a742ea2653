"""What each seat knows of the items lying face down (`State.known`: item -> the seats that know it).

The rule: a seat knows a face-down item when its face showed to that seat where the item lay
just before it was turned face down (`place`/`deal ... face_down=true`): in a public zone face
up (every seat), in the seat's own private zone (that seat), face up in the structure or lying
on a card of it (every seat), or face down already and known to it (it moves on, still face
down, and the seat saw it go).  The seat keeps knowing it while it lies face down; it turns
face up (`reveal`) or leaves its place, and it is no longer face down: the entry goes.  An
item put face down from where no seat sees it (a deck) is known to nobody and has no entry.

Not recorded: what a seat saw only among the options of a choice (a zone it does not see
otherwise), and where an item it saw lies in an unseen zone (the top of a deck)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def seers(g: Game, item: int) -> list[int]:
    """The seats that see (or, face down, know) `item`'s face where it lies now, in seat order;
    the same rule as `observation.observe`."""
    st = g.state
    slot = st.loc[item]
    if slot < 0:
        return []
    if st.hidden and item in st.hidden:
        return list(st.known.get(item, ()))
    if slot == g.structure_slot:
        # (a card of the structure shows its face if it lies face up; what lies on a card lies face up)
        if item in st.structure:
            return list(range(st.players)) if st.face_up[st.structure.index(item)] else []
        return list(range(st.players))
    z = g.content.zones[g.slot_zone[slot]]
    if z.per_player and z.private:
        return [g.slot_owner[slot]]
    return list(range(st.players)) if z.public else []


def remember(g: Game, item: int, seats: list[int]) -> None:
    """`item`, just put face down, is known to `seats` (those that saw it: `seers` before the move)."""
    if seats:
        g.state.known[item] = seats


def knows(g: Game, seat: int, item: int) -> bool:
    """Whether `seat` knows the face-down `item` (False for an item face up: it is seen, not known)."""
    known = g.state.known
    return bool(known) and seat in known.get(item, ())


def known_to(g: Game, seat: int) -> list[int]:
    """The face-down items `seat` knows, in item order."""
    return sorted(i for i, seats in g.state.known.items() if seat in seats)
