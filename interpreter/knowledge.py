"""What each seat knows of the items it cannot see where they lie (`State.known`: item -> the
seats that know it).

The rule: a seat knows an item whose face it saw where the item lay just before a statement
hid it, while the item lies there.  Two ways to hide it:
- turned face down where it lies (`place`/`deal ... face_down=true`): the seats that saw its
  face there know it; it lies face down in `hidden`;
- put into a deck no seat sees (`deck_slots`: a zone no seat sees that items start in, so
  items are drawn from it again) by `move`, `move_all`, `take_top`, `return_to_deck` or a
  face-up `deal`, on top or, `at=bottom`, at the bottom (the compiler calls the `_unseen`
  verbs for such a zone, zones.py, dealing.py; `return_to_deck` tests each item): the seats
  that saw its face know that it lies in that deck, where it lies (the observation counts its
  place from the top and from the bottom, as a player at the table counts the cards put on it
  or drawn from above it since: what it remembers is "the one I put back, under whatever went
  on it since", so the engine keeps no depth of its own, only that the seat knows it there).
A seat saw the face of an item face up in a public zone or in the structure, lying on a card
of it (every seat), in its own private zone (that seat), or face down already or in a deck
already and known to it (it moves on, hidden, and the seat saw it go).  The seat keeps knowing
it while it lies there: it turns face up (`reveal`: seen by all, known to none alone), leaves
its place (any move: drawn, taken, put elsewhere) or its deck is shuffled, and the entry goes.
An item hidden from where no seat sees it (drawn from a deck into another) is known to nobody.

Not recorded: what a seat saw only among the options of a choice (a zone it does not see
otherwise); an item put where no seat sees it that is no deck (the box, a pile of cards tucked
under others: out of play, nothing is drawn from there); an item put into another seat's
private zone (its owner sees it there: who gave it is not kept)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from rulesdsl.model import Content

    from .game import Game


def deck_zones(content: Content) -> set[int]:
    """The zones no seat sees that items start in (`deck`): drawn from again, so a seat that saw
    an item go into one knows it lies there (`deck_slots`, their slots, is `Game`'s)."""
    decks = {it.deck for it in content.items if it.deck >= 0}
    return {z.id for z in content.zones if z.id in decks and z.seen_by_none}


def seers(g: Game, item: int) -> list[int]:
    """The seats that see (or, face down, know) `item`'s face where it lies now, in seat order;
    the same rule as `observation.observe`."""
    st = g.state
    slot = st.loc[item]
    if slot < 0:
        return []
    hidden = st.hidden
    if hidden and item in hidden or slot in g.deck_slots:   # (face down, or in a deck: known, or not seen)
        return list(st.known.get(item, ()))
    seen = g.slot_seers[slot]
    if seen is None:
        # (a card of the structure shows its face if it lies face up; what lies on a card lies face up)
        if item in st.structure:
            return list(g.seats) if st.face_up[st.structure.index(item)] else []
        return list(g.seats)
    return list(seen)


def slot_seers(content: Content, slot_zone: list[int], slot_owner: list[int]) -> list[tuple[int, ...] | None]:
    """By slot, the seats that see the face of an item lying face up there (`seers`, one answer
    for a whole slot: a public zone every seat, a seat's private zone that seat, others none);
    None for the structure, whose cards show their faces one by one."""
    everyone = tuple(range(content.players))
    out: list[tuple[int, ...] | None] = []
    for z, owner in zip(slot_zone, slot_owner):
        if z < 0:
            out.append(None)
            continue
        zone = content.zones[z]
        out.append((owner,) if zone.per_player and zone.private else everyone if zone.public else ())
    return out


def remember(g: Game, item: int, seats: list[int]) -> None:
    """`item`, just put face down, is known to `seats` (those that saw it: `seers` before the move)."""
    if seats:
        g.state.known[item] = seats


def remember_put(g: Game, item: int, seats: list[int]) -> None:
    """`item`, just put into a deck no seat sees, is known there to `seats` (those that saw it:
    `seers` before the move); `relocate` forgets it when it moves (`core.placed_items`)."""
    if seats:
        g.state.known[item] = seats
        marked = g._placed
        if marked is not None:
            marked.add(item)


def seen_in(g: Game, slots: Iterable[int]) -> dict[int, list[int]]:
    """Before a statement moves items out of `slots` into a deck no seat sees: each item there
    that some seat sees (or knows), with those seats (`remember_arrived` after the move).  One
    answer holds for a whole slot but for what lies face down there (`slot_seers`)."""
    out = {}
    st = g.state
    known = st.known
    for slot in slots:
        if slot in g.deck_slots:   # (in a deck: only what a seat knows lies there, where any does)
            if known:   # (the items of both, found by the set operation, not item by item)
                for item in known.keys() & st.zones[slot]:
                    out[item] = list(known[item])
            continue
        seen = g.slot_seers[slot]
        if seen is None:   # (the structure: card by card)
            for item in st.zones[slot]:
                seats = seers(g, item)
                if seats:
                    out[item] = seats
            continue
        hidden = st.hidden
        for item in st.zones[slot]:
            if hidden and item in hidden:
                seats = known.get(item)
                if seats:
                    out[item] = list(seats)
            elif seen:
                out[item] = list(seen)
    return out


def remember_arrived(g: Game, saw: dict[int, list[int]]) -> None:
    """Of the items of `saw` (`seen_in` before the move), those now in a deck no seat sees are
    known there to the seats that saw them."""
    if not saw:
        return
    loc, decks, known, marked = g.state.loc, g.deck_slots, g.state.known, g._placed
    for item, seats in saw.items():
        if loc[item] in decks:
            known[item] = seats
            if marked is not None:
                marked.add(item)


def forget_shuffled(g: Game, slot: int) -> None:
    """A shuffle of `slot`: no seat knows where any of its items lies any more."""
    known = g.state.known
    if known:
        for item in g.state.zones[slot]:
            known.pop(item, None)


def knows(g: Game, seat: int, item: int) -> bool:
    """Whether `seat` knows the face-down `item` (False for an item face up: it is seen, not known)."""
    known = g.state.known
    return bool(known) and seat in known.get(item, ())


def known_to(g: Game, seat: int) -> list[int]:
    """The items `seat` knows where it does not see them (face down, or in a deck), in item order."""
    return sorted(i for i, seats in g.state.known.items() if seat in seats)
