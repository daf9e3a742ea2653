"""Who the player words of the card language mean: `opponent`, and the owners a selector's
`owner=` names (me, opponent, all, most, any, or a player expression)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def opponent(g: Game, p: int) -> int:
    # Two seats: the other one.  (With more seats this is the next seat: see issue 10.)
    return (p + 1) % g.content.players


def owners(g: Game, owner, me: int) -> list[int]:
    if owner == "me":
        return [me]
    if owner == "opponent":
        return [opponent(g, me)]
    if owner in ("all", "most", "any"):
        return list(range(g.content.players))
    return [owner(g, Frame(0, 0, 0, me, {}))] if callable(owner) else [int(owner)]


def ruled_owner(g: Game, item: int, slot: int) -> int:
    """Who owns an item ruled by a zone (it stands on a space of a zone with control): the
    controller of its space (-1: nobody)."""
    ctrl = g.state.control.get(g.ruled[slot])
    space = g.state.positions.get(item, -1)
    return ctrl[space] if ctrl and 0 <= space < len(ctrl) else -1
