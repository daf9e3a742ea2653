"""Scoring: victory points by category, science symbols, and the winner by points at the end."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from . import economy, machine
from .budget import MAX_QUANTITY
from .state import DRAW

if TYPE_CHECKING:
    from .game import Game


def score(g: Game, p: int) -> dict[str, int]:
    """VP by category: card colours, `wonder`, `token`, and the game's own categories."""
    out: dict[str, int] = {}
    zones = g.state.zones
    frame = g._reading[p]
    # (Each item's category and its points that are numbers, added up, read from tables made
    # once per content: only the others are worked out, in their order, as `total` does.)
    categories, of = g._point_category, g._item_points
    for slot in g.active_slots[p]:
        for i in zones[slot]:
            cat = categories[i]
            if cat is not None:
                points, fns = of[i]
                points += out.get(cat, 0)
                for fn in fns:   # (a loop: a generator is a function made per item)
                    points += fn(g, frame)
                out[cat] = points
    for cat, fn in g.content.scores:
        out[cat] = out.get(cat, 0) + fn(g, frame)
    if not -MAX_QUANTITY < sum(out.values()) < MAX_QUANTITY:
        raise machine.too_large(g, f"player {p}'s points", sum(out.values()))
    return out


def total(g: Game, p: int) -> int:
    """The sum of `score(g, p)`: the same points, without their categories (the greedy agent,
    the search and the learning environment read a seat's total after every move they weigh).
    The points that are numbers are added up once per change of the seat's city (`g._points`,
    forgotten by `core.dirty`); the others are worked out each time."""
    kept = g._points[p]
    if kept is None:
        kept = g._points[p] = _kept_points(g, p)
    points, variable = kept
    frame = g._reading[p]
    for fn in variable:
        points += fn(g, frame)
    for _, fn in g.content.scores:
        points += fn(g, frame)
    if -MAX_QUANTITY < points < MAX_QUANTITY:
        return points
    raise machine.too_large(g, f"player {p}'s points", points)


def _kept_points(g: Game, p: int) -> tuple[int, tuple]:
    """(The sum of the points that are numbers of seat p's items in play, the functions of the
    others), from each item's (`core.item_points`)."""
    fixed = 0
    variable: list = []
    of = g._item_points
    zones = g.state.zones
    for slot in g.active_slots[p]:
        for i in zones[slot]:
            n, fns = of[i]
            fixed += n
            if fns:
                variable += fns
    return fixed, tuple(variable)


def civilian_winner(g: Game, scores: list[dict[str, int]]) -> int:
    """The player with most points (`scores`: each seat's `score`), then most of the tiebreak
    category, or DRAW."""
    best = leaders(g, scores)
    return best[0] if len(best) == 1 else DRAW


def leaders(g: Game, scores: list[dict[str, int]]) -> list[int]:
    """The seats with most points (`scores`: each seat's `score`), then most of the tiebreaks:
    one, or the seats that share the victory."""
    totals = [sum(s.values()) for s in scores]
    best = max(totals)
    found = [p for p, t in enumerate(totals) if t == best]
    if len(found) > 1 and g.content.tiebreak_by is not None:
        by = [g.content.tiebreak_by(g, g._reading[p]) for p in found]
        top = max(by)
        found = [p for p, t in zip(found, by) if t == top]
    if len(found) > 1 and g.content.tiebreak:
        tb = [scores[p].get(g.content.tiebreak, 0) for p in found]
        top = max(tb)
        found = [p for p, t in zip(found, tb) if t == top]
    return found


def winners(g: Game) -> list[int]:
    """The seats that won a finished game: its winner, or the seats that share a civilian
    victory (`state.winner` says only DRAW); none while it goes on."""
    st = g.state
    if st.flow != "over":
        return []
    if st.winner is not None and st.winner != DRAW:
        return [st.winner]
    return leaders(g, g._ended_scores or [score(g, p) for p in range(st.players)])


def science_count(g: Game, p: int, symbol: str) -> int:
    return economy.stats(g, p).science.get(symbol, 0)


def distinct_science(g: Game, p: int) -> int:
    return len(list(filter(None, economy.stats(g, p).science.values())))   # (counts: none below 0)


def counter(g: Game, name: str, p: int) -> int:
    return g.state.counters[name][p]


def add_counter(g: Game, name: str, p: int, amount: int) -> None:
    row = g.state.counters[name]
    value = row[p] + amount
    if not -MAX_QUANTITY < value < MAX_QUANTITY:
        raise machine.too_large(g, f"player {p}'s {name}", value)
    row[p] = value


def science_score(g: Game, p: int, set_bonus: int) -> int:
    """Per symbol its count squared, plus `set_bonus` per complete set of the game's symbols; each
    `any` symbol counts as whichever symbol makes the total highest (tried exhaustively: a city
    holds few of them)."""
    stats = economy.stats(g, p)
    kept = stats.science_scores   # (kept with the stats until a symbol comes: agents score often)
    score = kept.get(set_bonus)
    if score is None:
        science = stats.science
        counts = [science.get(s, 0) for s in g.content.science if s != "any"]
        score = kept[set_bonus] = _best_science(counts, science.get("any", 0), set_bonus)
    return score


def _best_science(counts: list[int], wild: int, set_bonus: int) -> int:
    if wild == 0:
        # (the squares mapped in C: a generator is a function resumed per symbol)
        return sum(map(operator.mul, counts, counts)) + set_bonus * (min(counts) if counts else 0)
    best = 0
    for k in range(len(counts)):
        counts[k] += 1
        score = _best_science(counts, wild - 1, set_bonus)
        if score > best:
            best = score
        counts[k] -= 1
    return best
