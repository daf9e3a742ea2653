"""A cost no seat can ever pay (W512), found without playing.

Only a game whose seats buy from their neighbours (`trade neighbours`) or buy nothing (`trade
none`) can make a resource scarce: without either the bank sells any resource, as many units as a
seat can pay for.  With it, a seat pays a resource with what its own items produce and (with
neighbours) what its neighbours' items produce, each unit once (interpreter/trade.py).  Every item lies in one place, so what all the items of
the game at its most players produce together (each copy counted; a one-of producer gives one
unit of any of its resources) is more than any seat can ever have of that resource.  A cost
asking more is never paid.  Whatever could waive or lower the cost without that resource (a
chain some item gives or a chain price, a discount that may apply) leaves the item unjudged,
as does content whose production is not written with plain numbers.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

import attrs

from . import ast
from .diagnostics import Diagnostic, Span
from .loader import Merged
from .no_trade import trade_mode
from .playable import copies_at

COIN_WORDS = ("coin", "coins")


@attrs.frozen
class Asked:
    """One resource of a cost: how many units in all, and where the cost first names it."""

    resource: str
    amount: int
    span: Span


def unpayable_costs(merged: Merged, kinds: set[str], resources: set[str], most_players: int) -> list[Diagnostic]:
    """W512 at each resource of an item's cost that asks more than all the game's items make."""
    game = next(iter(merged.by_kind("game")), None)
    header = game.block.statements if game and game.block else ()
    trade = next((s for s in header if s.verb == "trade"), None)
    if trade is None or any(s.verb == "trade_price" for s in header):
        return []   # the bank sells (a formula's price, or 2 coins a unit): no resource runs out
    untraded = trade_mode(trade) == "none"
    items = [d for d in merged.definitions if d.kind in kinds and d.block]
    most = _most_made(items, most_players)
    if most is None:
        return []
    given = {a.name for d in items for s in _properties(d, "chain_gives") for a in s.args if isinstance(a, ast.Name)}
    chain_priced = any(True for d in items for _ in _properties(d, "chain_price"))
    discounts = [_discount_filter(s) for d in items for s in _properties(d, "discount")]
    out: list[Diagnostic] = []
    for d in items:
        if _waived(d, given, chain_priced, discounts):
            continue
        for asked in _asked(d, resources):
            have = most.get(asked.resource, 0)
            if asked.amount > have:
                out.append(_warning(d, asked, have, most_players, untraded))
    return out


def _properties(d: ast.Definition, verb: str) -> Iterator[ast.Statement]:
    return (s for s in d.block.statements if s.verb == verb) if d.block else iter(())


def _most_made(items: list[ast.Definition], players: int) -> Counter[str] | None:
    """Per resource, the units all the items (each copy) make together at `players` players;
    None where a `produce` is written in a way not bounded here."""
    made: Counter[str] = Counter()
    for d in items:
        copies = copies_at(d, players)
        for s in _properties(d, "produce"):
            if len(s.args) == 1 and isinstance(s.args[0], ast.Alternatives):
                for r in set(s.args[0].names):
                    made[r] += copies
                continue
            counted = _counted(s.args)
            if counted is None:
                return None
            for r, n in counted:
                made[r] += n * copies
    return made


def _counted(args: tuple[ast.Expr, ...]) -> list[tuple[ast.Name, int]] | None:
    """`2 wood clay` as [(wood, 2), (clay, 1)] (the count before a word applies to it alone, as
    the compiler reads it); None for anything else than numbers and words."""
    out, pending = [], None
    for a in args:
        if isinstance(a, ast.Int):
            pending = a.value
        elif isinstance(a, ast.Name):
            out.append((a, 1 if pending is None else pending))
            pending = None
        else:
            return None
    return [(a.name, n) for a, n in out]  # type: ignore[misc]


def _asked(d: ast.Definition, resources: set[str]) -> list[Asked]:
    """The resources of an item's cost, each with its units in all and the span of its first
    mention (its count and word)."""
    units: dict[str, int] = {}
    spans: dict[str, Span] = {}
    for s in _properties(d, "cost"):
        pending: ast.Int | None = None
        for a in s.args:
            if isinstance(a, ast.Int):
                pending = a
                continue
            if isinstance(a, ast.Name) and a.name in resources and a.name not in COIN_WORDS:
                units[a.name] = units.get(a.name, 0) + (pending.value if pending else 1)
                start = pending.span if pending else a.span
                spans.setdefault(a.name, Span(a.span.file, start.line, start.column, a.span.end_line, a.span.end_column))
            pending = None
    return [Asked(r, n, spans[r]) for r, n in units.items()]


def _discount_filter(s: ast.Statement) -> tuple[str | None, str | None]:
    """(kind, colour) a `discount` is limited to (None: any); a value not a plain word is taken
    as any, so that an item it might apply to is never judged."""
    kw = {k.name: k.value for k in s.kwargs}

    def word(key: str) -> str | None:
        v = kw.get(key)
        return v.name if isinstance(v, ast.Name) else None
    return word("kind"), word("color")


def _waived(d: ast.Definition, given: set[str], chain_priced: bool,
            discounts: list[tuple[str | None, str | None]]) -> bool:
    """Whether something may let the item be had without paying its resources in full: a chain
    some item gives, a chain price (both only for an item with `chain_from`), or a discount that
    may apply to it."""
    chains = {a.name for s in _properties(d, "chain_from") for a in s.args if isinstance(a, ast.Name)}
    if chains and (chain_priced or chains & given):
        return True
    color = next((a.name for s in _properties(d, "color") for a in s.args[:1] if isinstance(a, ast.Name)), None)
    return any((kind is None or kind == d.kind) and (c is None or c == color) for kind, c in discounts)


def _warning(d: ast.Definition, asked: Asked, have: int, players: int, untraded: bool) -> Diagnostic:
    r = asked.resource
    buys = "nothing is bought in this game (`trade none`)" if untraded else "a seat buys only from its neighbours"
    return Diagnostic(
        "warning", "W512",
        f"{d.kind} `{d.name}` costs {asked.amount} {r}, but no seat can ever have more than {have}: "
        f"that is what every item of a game of {players} players makes together, and {buys}",
        asked.span,
        f"lower the cost to at most {have} {r}, or make more {r}: an item that produces it (`produce {r}`), "
        "or a chain that makes the item free (an effect's `build ... free` puts it into play unpaid)")
