"""What an item costs a seat, written out for each item of a content set.

`economy.price` keeps each seat's prices; on a miss it works the price out from what the item's
printed cost fixes (its coins, whether a formula adds to them, the resources it asks for, its
chains) and what the content fixes (whether neighbours trade), then from the seat's stats.  So
for each item this module writes the price as Python source once per content, with the printed
answers taken: the needs unrolled, each read against the seat's production and its kept unit
prices; units missing where one-of producers may stand in, or bought from neighbours, go to the
functions `_cost` hands them to (`economy.cheapest_trade`, `trade.cheapest`), looked up in their
modules at each call as `_cost` looks them up; a coin formula, with the bank, is read as `_cost`
reads it.  Whatever is unusual (a discount that reaches the item, a chain's price, a chain
borrowed; with neighbours, a coin formula, or a discount once a unit is missing) is handed to
the generic functions (`economy._priced`, `economy._cost`).

Items of one shape (the same lines) share one maker, which is given each item's values, as
interpreter/arrivals.py does it, so that CPython specialises a code object many items run.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Callable

from rulesdsl.model import Content

from . import economy, trade

if TYPE_CHECKING:
    from .game import Game

Pricer = Callable[..., tuple]   # priced(g, p, s): (coins in all, of which for trading, free by chain)


def pricers_of(content: Content) -> list[Pricer]:
    """Each item's price, by item number: `priced(g, p, s)` returns what `economy._priced(g, p,
    it, s)` returns (`s`: seat p's stats).  Written by the content's first game and shared."""
    written = content._pricers
    if written is None:
        written = content._pricers = [_write(content, it) for it in content.items]
    return written


def bank_price_of(content: Content) -> Callable[..., int]:
    """The bank's price of a resource to a seat, `bank_price(g, p, r)`: what `economy.trade_price`
    works out, with the content's price formula written in (no call of the formula's function,
    and the seat and resource read from the arguments, not from a frame).  Written by the
    content's first game and shared."""
    written = content._bank_price
    if written is None:
        written = content._bank_price = _write_bank_price(content)
    return written


def generic(item: int, content: Content) -> Pricer:
    """The generic price of `item` (for tests)."""
    it = content.items[item]
    way = economy._priced_untraded if content.trade_none else economy._priced

    def priced(g: Game, p: int, s) -> tuple:
        return way(g, p, it, s)
    return priced


@functools.lru_cache(maxsize=None)
def _maker(text: str) -> Callable:
    """The maker whose source is `text`, compiled once per process."""
    space = {"economy": economy, "trade": trade}
    exec(compile(text, "<a price>", "exec"), space)   # (trusted source: names, integers, operators)
    return space["make"]


def _namer() -> tuple[list[str], list, Callable[[object], str]]:
    """The names a written function's values go by in its source (`_v0`, `_v1`, ...), the values,
    and `val`, which names one more."""
    names: list[str] = []
    values: list = []

    def val(x) -> str:
        name = f"_v{len(names)}"
        names.append(name)
        values.append(x)
        return name
    return names, values, val


def _write(content: Content, it) -> Pricer:
    names, values, val = _namer()
    it_name = val(it)
    cost = it.cost
    if content.trade_none:
        return _written(_untraded(it, it_name, val), names, values)
    L = ["def priced(g, p, s):"]
    if it.chain_from:
        # (a chain the seat holds makes it free; one borrowed, or a chain's price: the generic way)
        L += [f"    if not s.chains.isdisjoint({val(it.chain_from)}) or s.borrow_chains or s.chain_price is not None:",
              f"        return economy._priced(g, p, {it_name}, s)"]
    if cost is None:
        L.append("    return (0, 0, False)")
    elif cost.coins_fn is not None and content.trade_base:
        L.append(f"    return economy._cost(g, p, {it_name}, s)")
    elif not cost.needs and content.trade_base:
        L.append(f"    return {val((cost.coins, 0, False))}")
    elif not cost.needs:
        L += _reached(it, it_name, val)   # (a discount may waive the coins)
        L.append(f"    return {_coins(cost, val, L)[1]}")
    elif content.trade_base:
        # The units missing, bought from neighbours.
        L += ["    produce = s.produce", "    need = None"]
        for k, (r, c) in enumerate(cost.needs):
            r, c = val(r), val(c)
            L += [f"    q = produce[{r}]", f"    if {c} > q:"]
            if k:
                L += ["        if need is None:", "            need = [0] * len(produce)"]
            else:
                L.append("        need = [0] * len(produce)")
            L.append(f"        need[{r}] = {c} - q")
        L += ["    if need is None:",
              f"        return {val((cost.coins, 0, False))}",
              "    if s.discounts:",   # (some missing units may be free)
              f"        return economy._cost(g, p, {it_name}, s)",
              "    least = trade.cheapest(g, p, tuple(need), s)",
              "    if least is None:",
              f"        return {val((economy.IMPOSSIBLE, economy.IMPOSSIBLE, False))}",
              f"    return ({val(cost.coins)} + least, least, False)"]
    else:
        L += _reached(it, it_name, val)
        coins, free = _coins(cost, val, L)
        needs = [(val(r), val(c)) for r, c in cost.needs]
        bank = val(bank_price_of(content))
        n = len(content.resources)   # (the length of every seat's `produce`, written in: no call of `len`)
        L += ["    produce = s.produce",
              "    if s.one_of:"]
        # (the units missing and their prices, weighed against the one-of producers)
        L += ["        need = None"]
        for r, c in needs:
            L += [f"        q = produce[{r}]",
                  f"        if {c} > q:",
                  "            if need is None:",
                  f"                need = [0] * {n}",
                  f"                prices = [0] * {n}",
                  # (the seat's kept unit prices, read once and made where none are, as `bank_price`
                  # makes them: it fills them in, so each missing unit reads them with no test, and
                  # `bank_price` is called only to work one out)
                  "                kept = g._prices[p]",
                  "                if kept is None:",
                  f"                    kept = g._prices[p] = [-1] * {n}",
                  f"            need[{r}] = {c} - q",
                  f"            unit = kept[{r}]",
                  f"            prices[{r}] = unit if unit >= 0 else {bank}(g, p, {r})"]
        L += ["        if need is None:",
              f"            return {free}",
              "        trade = economy.cheapest_trade(need, prices, s.one_of, 0)",
              f"        return ({coins} + trade, trade, False)",
              "    trade = 0",
              "    kept = g._prices[p]",
              "    if kept is None:",
              f"        kept = g._prices[p] = [-1] * {n}"]
        for r, c in needs:   # (the kept unit prices read as above: most are kept)
            L += [f"    q = produce[{r}]",
                  f"    if {c} > q:",
                  f"        unit = kept[{r}]",
                  f"        trade += ({c} - q) * (unit if unit >= 0 else {bank}(g, p, {r}))"]
        L += [f"    return ({coins} + trade, trade, False)"]
    return _written(L, names, values)


def _reached(it, it_name: str, val: Callable) -> list[str]:
    """The lines that hand `it`'s price to `economy._cost` where one of the seat's discounts
    reaches it (by its kind and colour), to weigh the units it waives: a discount that reaches
    none of its kind and colour changes nothing `_cost` works out (most discounts reach one
    colour or kind: a seat holding one prices every other item the written way)."""
    kind, color = val(it.kind), val(it.color)
    return ["    if s.discounts:",
            "        for _, kind, color, _ in s.discounts:",
            f"            if (kind is None or kind == {kind}) and (color is None or color == {color}):",
            f"                return economy._cost(g, p, {it_name}, s)"]


def _coins(cost, val: Callable, L: list[str]) -> tuple[str, str]:
    """The coins `cost` asks, and its price where no unit is missing: its printed coins, or, where
    a formula adds to them (`coins_fn`, read for the seat as `economy._cost` reads it), the local
    `coins`, set by a line added to `L`."""
    if cost.coins_fn is None:
        return val(cost.coins), val((cost.coins, 0, False))
    # (a formula below 0 adds nothing: a test, as `compiler.larger` writes a `max`, not its call)
    L += [f"    coins = {val(cost.coins_fn)}(g, g._reading[p])",
          f"    coins = {val(cost.coins)} + (coins if coins > 0 else 0)"]
    return "coins", "(coins, 0, False)"


# What the compiler wrote a price formula from (`Compiler.fused`: its `source`, naming the values
# in `names`): the seat it is read for, the resource asked about, the values, the frame.
SEAT = re.compile(r"\bf\.me\b")
NAME_READS = re.compile(r"\bf\.env\[(_k\d+)\]")
COMPILED_VALUES = re.compile(r"\b_k\d+\b")
FRAME = re.compile(r"\bf\b")


def _write_bank_price(content: Content) -> Callable[..., int]:
    names, values, val = _namer()
    fn = content.trade_price
    frame = False
    if fn is None:
        formula = "2"
    elif getattr(fn, "source", None) is None or getattr(fn, "names", None) is None:
        formula, frame = f"{val(fn)}(g, f)", True
    else:
        read = fn.names
        formula = NAME_READS.sub(lambda m: "r" if read[m.group(1)] == "resource" else m.group(0), fn.source)
        formula = COMPILED_VALUES.sub(lambda m: val(read[m.group(0)]), SEAT.sub("p", formula))
        # (what still reads the frame, as `kept_value` does, reads the frame the formula is read in)
        frame = FRAME.search(formula) is not None
    n = len(content.resources)
    L = ["def bank_price(g, p, r):",
         "    prices = g._prices[p]",
         "    if prices is None:",
         f"        prices = g._prices[p] = [-1] * {n}",
         "    price = prices[r]",
         "    if price >= 0:",
         "        return price",
         "    s = g._stats[p]",
         "    if s is None:",
         "        s = economy.stats(g, p)",
         "    formula = g._trade_formula[p]",
         "    if formula is None:",
         f"        formula = g._trade_formula[p] = [-1] * {n}",
         "    price = formula[r]",
         "    if price < 0:"]
    if frame:
        L.append("        f = g._pricing[p][r]")
    L += [f"        price = formula[r] = {formula}",
          "    fixed = s.fixed[r]",
          "    if fixed is not None and fixed < price:",
          "        price = fixed",
          "    if s.trade_discount[r]:",
          "        price -= s.trade_discount[r]",
          "        if price < 1:",
          "            price = 1",
          "    prices[r] = price",
          "    return price"]
    return _written(L, names, values, "bank_price")


def _untraded(it, it_name: str, val: Callable) -> list[str]:
    """The lines of `it`'s price in a game where nothing is bought (`trade none`): a unit the
    seat does not produce makes it impossible, unless a one-of producer or a discount (handed to
    `economy._untraded`) covers it; no bank price is read."""
    cost = it.cost
    L = ["def priced(g, p, s):"]
    if it.chain_from:
        L += [f"    if not s.chains.isdisjoint({val(it.chain_from)}) or s.borrow_chains or s.chain_price is not None:",
              f"        return economy._priced_untraded(g, p, {it_name}, s)"]
    if cost is None:
        return L + ["    return (0, 0, False)"]
    if cost.coins_fn is not None:
        return L + [f"    return economy._untraded(g, p, {it_name}, s)"]
    if not cost.needs:   # (a discount may waive the coins)
        return L + ["    if s.discounts:", f"        return economy._untraded(g, p, {it_name}, s)",
                    f"    return {val((cost.coins, 0, False))}"]
    L += ["    if s.discounts or s.one_of:", f"        return economy._untraded(g, p, {it_name}, s)",
          "    produce = s.produce"]
    impossible = val((economy.IMPOSSIBLE, economy.IMPOSSIBLE, False))
    for r, c in cost.needs:
        L += [f"    if {val(c)} > produce[{val(r)}]:", f"        return {impossible}"]
    return L + [f"    return {val((cost.coins, 0, False))}"]


def _written(L: list[str], names: list[str], values: list, function: str = "priced") -> Callable:
    """The function `function` whose lines are `L`, made by the maker of those lines given
    `values` (named `names` in them)."""
    body = "\n".join("    " + line for line in L)
    text = f"def make({', '.join(names)}):\n{body}\n    return {function}\n"
    priced = _maker(text)(*values)
    priced.source = text   # type: ignore[attr-defined]  (for a reader)
    return priced
