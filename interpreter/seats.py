"""Who the player words of the card language mean: the seat words (`left`, `right`,
`neighbours`, `others`, `all`, `opponent`), and the owners a selector's `owner=` names (those
words, `me`, `most`, `any`, or a player expression).

Seats are numbered from 0 in turn order.  `left` is the next seat (seat + 1) and `right` the
previous one (seat - 1), both wrapping around the table; with two players both are the other
seat, which is what `opponent` means (a word the checker keeps for two-seat games, E408)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import machine
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def seat(g: Game, p: int) -> int:
    """A seat a content computed (`player(...)` of an expression): p, if the game has it."""
    if type(p) is int and 0 <= p < g.content.players:
        return p
    raise machine.failure(g, f"`player(...)` computed seat {p!r}, but the seats of this game are 0 to "
                             f"{g.content.players - 1}")


def opponent(g: Game, p: int) -> int:
    # Two seats: the other one (the checker refuses the word in a game of more seats).
    return (p + 1) % g.content.players


def left_of(g: Game, p: int) -> int:
    """`left`: the next seat, the one that moves after p where seats take turns."""
    return (p + 1) % g.content.players


def right_of(g: Game, p: int) -> int:
    """`right`: the previous seat."""
    return (p - 1) % g.content.players


def seats_of(g: Game, word: str, me: int) -> list[int]:
    """The seats a seat word names for player `me`, each once, in seat order from `me` on."""
    n = g.content.players
    if word == "me":
        return [me]
    if word in ("left", "opponent"):
        return [(me + 1) % n]
    if word == "right":
        return [(me - 1) % n]
    if word == "neighbours":
        # One seat when the left and right neighbours are the same player (two seats).
        left, right = (me + 1) % n, (me - 1) % n
        return [] if left == me else [left] if left == right else [left, right]
    if word == "others":   # (a loop: a comprehension would make `me` and `n` cells)
        others = []
        for q in range(me + 1, me + n):
            others.append(q % n)
        return others
    if word in ("all", "most", "any"):
        return list(range(n))
    raise ValueError(f"not a seat word: {word}")


def acts_as(g: Game, by: str, actor: int, me: int) -> bool:
    """Whether an event by `actor` is one a trigger of `me` with `by=WORD` hears."""
    if by == "me":
        return actor == me
    if by in ("opponent", "others"):
        # `opponent` has always meant "anyone but me" in a trigger; `others` says so at any count.
        return actor != me
    if by in ("any", "all", "most"):
        return True
    return actor in seats_of(g, by, me)


def owners(g: Game, owner, me: int, env: dict | None = None) -> list[int]:
    """The seats `owner=` names for seat `me`; `env`: the names of the frame asking (a computed
    owner may read `chosen`, an alias, a parameter or the event)."""
    if owner == "me":
        return [me]
    if isinstance(owner, str):
        return seats_of(g, owner, me)
    if not callable(owner):
        return [int(owner)]
    return [owner(g, Frame(0, 0, 0, me, env) if env else g._reading[me])]


def ruled_owner(g: Game, item: int, slot: int) -> int:
    """Who owns an item ruled by a zone (it stands on a space of a zone with control): the
    controller of its space (-1: nobody)."""
    ctrl = g.state.control.get(g.ruled[slot])
    space = g.state.positions.get(item, -1)
    return ctrl[space] if ctrl and 0 <= space < len(ctrl) else -1
