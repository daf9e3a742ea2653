"""Scoring: victory points by category, science symbols, and the winner by points at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import economy
from .state import DRAW, Frame

if TYPE_CHECKING:
    from .game import Game


def score(g: Game, p: int) -> dict[str, int]:
    """VP by category: card colours, `wonder`, `token`, and the game's own categories."""
    out: dict[str, int] = {}
    items = g.content.items
    zones = g.state.zones
    frame = Frame(0, 0, 0, p, {})
    for slot in g.active_slots[p]:
        for i in zones[slot]:
            it = items[i]
            if it.points:
                cat = it.color if it.kind == "card" and it.color else it.kind
                out[cat] = out.get(cat, 0) + sum(fn(g, frame) for fn, _ in it.points)
    for cat, fn in g.content.scores:
        out[cat] = out.get(cat, 0) + fn(g, frame)
    return out


def civilian_winner(g: Game) -> int:
    """The player with most points (then most of the tiebreak category), or DRAW."""
    st = g.state
    totals = [sum(score(g, p).values()) for p in range(st.players)]
    best = max(totals)
    leaders = [p for p, t in enumerate(totals) if t == best]
    if len(leaders) > 1 and g.content.tiebreak:
        tb = [score(g, p).get(g.content.tiebreak, 0) for p in leaders]
        top = max(tb)
        leaders = [p for p, t in zip(leaders, tb) if t == top]
    return leaders[0] if len(leaders) == 1 else DRAW


def science_count(g: Game, p: int, symbol: str) -> int:
    return economy.stats(g, p).science.get(symbol, 0)


def distinct_science(g: Game, p: int) -> int:
    return sum(1 for n in economy.stats(g, p).science.values() if n > 0)
