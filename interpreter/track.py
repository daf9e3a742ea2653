"""The conflict track (Duel's): one pawn between two capitals, moved by shields towards the
opponent; tokens on the track apply when the pawn reaches them, blocking pieces stop it.
`state.pawn` > 0 is towards player 1's capital.  A two-seat construct that a game declares
(`track NAME { ... }`): the checker allows it, and `shields`, only in a game of two players."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, events, machine, seats
from .state import NOWHERE, Frame

if TYPE_CHECKING:
    from .game import Game


def pawn_distance(g: Game, p: int) -> int:
    return g.state.pawn if p == 0 else -g.state.pawn


def track_points(g: Game, p: int) -> int:
    d = pawn_distance(g, p)
    pts = g.content.track.points
    if d <= 0 or not pts:
        return 0
    return pts[min(d, len(pts) - 1)]


def spaces(g: Game) -> list[int]:
    """The track's spaces, as `choose_space` offers them: capital to capital."""
    cap = g.content.track.capital
    return list(range(-cap, cap + 1))


def _blocker(pieces: list[int], items, positions: dict[int, int], target: int) -> int:
    """The piece on the track at `target` that the pawn cannot pass (-1: none)."""
    for b in pieces:
        if items[b].blocks_pawn and positions.get(b) == target:
            return b
    return -1


def shields(g: Game, p: int, n: int) -> None:
    """Move the pawn n spaces towards p's opponent, one at a time; tokens reached apply; a
    blocking piece stops the pawn before its space and is removed."""
    st = g.state
    capital = g.content.track.capital
    direction = 1 if p == 0 else -1
    frames: list[Frame] = []
    moved = 0
    items = g.content.items
    pieces = st.zones[g.track_slot] if g.track_slot >= 0 else []
    blocking = g._pawn_blockers   # (no piece to look for at each step where the content has none)
    token_spaces = g._token_spaces
    for _ in range(n):   # (none where n < 0)
        if st.pawn * direction >= capital:
            break
        target = st.pawn + direction
        blocker = _blocker(pieces, items, st.positions, target) if blocking else -1
        if blocker >= 0:
            # Off the track, back to the zone it started in (its `deck`; none: out of the game).
            deck = items[blocker].deck
            core.relocate(g, blocker, g.zone_base[deck] if deck >= 0 else NOWHERE)
            break
        st.pawn = target
        moved += 1
        dist = target * direction
        if dist in token_spaces:
            side = seats.opponent(g, p)
            for tok in list(pieces):
                it = items[tok]
                if it.side == side and it.space == dist:
                    core.relocate(g, tok, NOWHERE)
                    if it.effect >= 0:
                        frames.append(machine.frame(g, it.effect, g.block_stops[it.effect], p, {}))
    if moved:
        hearing = g._hearing.get("pawn_moved")   # (`events.event_frames` without its call, as `economy.build`)
        if hearing is None:
            frames += events.event_frames(g, "pawn_moved", p, fields={"amount": moved})
        elif hearing:
            frames += events.heard_frames(g, hearing, "pawn_moved", p, -1, None, {"amount": moved})
    if frames:   # (most moves take no token, and no rule hears the pawn)
        machine.schedule(g, frames)
