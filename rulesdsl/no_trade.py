"""The game's `trade` statement as written, and a game where nothing is bought (`trade none`):
a price written beside it would never be read (E204, as a bank price is beside `trade
neighbours`), so `check` says so rather than accept a statement that does nothing."""

from __future__ import annotations

from typing import Iterable

from . import ast
from .diagnostics import Diagnostic


def trade_mode(trade: ast.Statement | None) -> str | None:
    """`neighbours` or `none` of the game's `trade` statement; None without one (the bank sells),
    or where its first word is neither (E203 already)."""
    if trade is None or not trade.args or not isinstance(trade.args[0], ast.Name):
        return None
    return trade.args[0].name if trade.args[0].name in ("neighbours", "none") else None


def trade_shape(trade: ast.Statement) -> list[Diagnostic]:
    """`trade neighbours` needs its price; `trade none` takes neither a price nor `where=`."""
    mode = trade_mode(trade)
    out: list[Diagnostic] = []
    if mode == "neighbours" and len(trade.args) < 2:
        out.append(Diagnostic("error", "E203", "`trade neighbours` needs a price: the coins a unit costs",
                              trade.span, "e.g. trade neighbours 2"))
    elif mode == "none":
        if len(trade.args) > 1:
            out.append(Diagnostic("error", "E203", "`trade none` takes no price: nothing is bought",
                                  trade.args[1].span,
                                  "write `trade none`, or `trade neighbours PRICE` to buy from the neighbours"))
        for option in trade.kwargs:
            out.append(Diagnostic("error", "E204", f"`{option.name}=` says what a neighbour sells, and with "
                                                   "`trade none` nothing is sold", option.span, "remove it"))
    return out


def prices_never_read(game: Iterable[ast.Statement], items: Iterable[ast.Statement]) -> list[Diagnostic]:
    """In a game of `trade none` (`game`: its statements, `items`: every statement of its items):
    the game's `trade_price`, an item's `trade_price` (with or without `from=`) or
    `trade_discount` sets a price nobody pays.  A `discount` still waives units: no trade."""
    out: list[Diagnostic] = []
    for s in game:
        if s.verb == "trade_price":
            out.append(Diagnostic("error", "E204", "`trade_price` sets the price at the bank, and nothing is "
                                                   "bought in this game (`trade none`): it would never be read",
                                  s.verb_span, "remove it, or remove `trade none` to buy from the bank at this price"))
    for s in items:
        if s.verb in ("trade_price", "trade_discount"):
            out.append(Diagnostic("error", "E204", f"`{s.verb}` sets a price, and nothing is bought in this game "
                                                   "(`trade none`): it would never be read",
                                  s.verb_span, "remove it; a `discount` still makes missing units free"))
    return out
