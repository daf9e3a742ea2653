"""A deck emptied before its deal (E409 without playing): an effect that takes a named item, or
items a `choose` picks, out of a deck that a later age deals whole.  The trial games find such a
game only where a random game happens to run that effect first; here the decks are counted
through the set-up and the ages at each player count, as they are dealt, and any effect that can
run before a deal that needs every item its deck then holds is an error where it is written."""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterator

import attrs

from . import ast
from .diagnostics import Diagnostic
from .playable import FLOWS, copy_marks, item_start_zone, name_of, statements
from .timing import SETUP, Timing
from .loader import Merged

ALL = 1 << 30   # what a `move_all` can take: every item
# Statements that take their first argument, one item, out of where it is.
TAKES_ONE = ("move", "claim", "place", "discard", "build", "acquire")
AFTER_AGE_START = 1 << 30   # an effect of an age's start runs once its statements (and its deal) are done

Key = tuple[int, int, int]   # (age, phase, index of the age's or set-up's statement): the order of a game


@attrs.frozen
class Draw:
    zone: str
    key: Key
    left: int            # the items the deck keeps once this deal has taken what it asks for
    statement: ast.Statement
    what: str            # "age 2's `deal_structure`", for the message
    want: int = 0        # what this deal asks for


@attrs.frozen
class Removal:
    zone: str
    amount: int
    key: Key
    statement: ast.Statement
    item: str | None = None   # the item a statement names: it takes one only where a game has a copy
    by: str | None = None     # the item whose effect it is: each of its copies in a game runs it


def value_at(e: ast.Expr, players: int) -> int | None:
    """A count written with numbers, `players` and `either(...)`, at `players` players; None for
    anything that reads the game."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.Name) and e.name == "players":
        return players
    if isinstance(e, ast.Call) and e.func == "either" and len(e.args) == 3 and not e.kwargs:
        cond = value_at(e.args[0], players)
        return None if cond is None else value_at(e.args[1] if cond else e.args[2], players)
    if isinstance(e, ast.BinOp):
        a, b = value_at(e.left, players), value_at(e.right, players)
        if a is None or b is None:
            return None
        ops: dict[str, Callable[[int, int], int]] = {
            "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
            "//": lambda x, y: x // y if y else 0, "%": lambda x, y: x % y if y else 0,
            "==": lambda x, y: int(x == y), "!=": lambda x, y: int(x != y), "<": lambda x, y: int(x < y),
            "<=": lambda x, y: int(x <= y), ">": lambda x, y: int(x > y), ">=": lambda x, y: int(x >= y),
            "and": lambda x, y: int(bool(x and y)), "or": lambda x, y: int(bool(x or y))}
        return ops[e.op](a, b) if e.op in ops else None
    return None


class StarvedDecks:
    def __init__(self, merged: Merged, item_kinds: set[str], player_counts: range, timing: Callable[[], Timing]):
        self.merged = merged
        self.players = player_counts
        self.timing = timing
        start_zone: dict[str, str] = {}
        self.unknown: set[str] = set()   # zones something refills: their counts are not known here
        self.headers = merged.by_kind("game") + merged.by_kind("expansion")
        for g in self.headers:
            for s in g.block.statements if g.block else ():
                if s.verb == "start_zone" and len(s.args) == 2 and all(isinstance(a, ast.Name) for a in s.args):
                    start_zone[s.args[0].name] = s.args[1].name
                if s.verb in ("build_zone", "discard_pile") and s.args and isinstance(s.args[-1], ast.Name):
                    self.unknown.add(s.args[-1].name)
        self.items = [d for d in merged.definitions if d.kind in item_kinds and d.block]
        self.zone_of = {d.name: item_start_zone(d, start_zone) for d in self.items}
        self.marks = {d.name: copy_marks(d) for d in self.items}
        self.slots = {lay.name: sum(max(0, len(s.args) - 1) for s in (lay.block.statements if lay.block else ())
                                    if s.verb == "row")
                      for lay in merged.by_kind("layout")}
        self.steps = self.timeline()
        walked = {id(s) for _, s in self.steps}
        every = [s for d in merged.definitions for s in statements(d.block)]
        self.fed = self.feeds(every)
        for s in every:
            if id(s) not in walked:
                self.unknown |= self.filled(s)

    def timeline(self) -> list[tuple[Key, ast.Statement]]:
        """The set-up's and the ages' own statements, in the order a game runs them (an age lays
        out its structure last, as the compiler has it)."""
        out: list[tuple[Key, ast.Statement]] = []
        for g in self.headers:
            for s in g.block.statements if g.block else ():
                if s.verb == "setup" and s.block:
                    out += [((0, 0, len(out) + i), x) for i, x in enumerate(s.block.statements)]
        for n, age in enumerate(self.merged.by_kind("age"), 1):
            body = list(age.block.statements) if age.block else []
            body = [s for s in body if s.verb != "deal_structure"] + [s for s in body if s.verb == "deal_structure"]
            out += [((n, 0, i), s) for i, s in enumerate(body)]
        return out

    def filled(self, s: ast.Statement) -> set[str]:
        """The zones `s` may put items into, and for a `return_to_deck` the decks it refills."""
        out = set()
        target = {"move": 1, "move_all": 1, "deal": 2, "take_top": 2, "claim": 1}.get(s.verb)
        if target is not None and len(s.args) > target and name_of(s.args[target]):
            out.add(s.args[target].name)
        if s.verb == "return_to_deck" and s.args and name_of(s.args[0]):
            out |= self.fed.get(s.args[0].name, set())
        return out

    def feeds(self, every: list[ast.Statement]) -> dict[str, set[str]]:
        """The zones whose items each zone may receive (what a `return_to_deck` of it refills)."""
        out: dict[str, set[str]] = {}
        for s in every:
            flow = FLOWS.get(s.verb)
            if flow and len(s.args) > max(flow) and all(name_of(s.args[i]) for i in flow):
                out.setdefault(s.args[flow[1]].name, set()).add(s.args[flow[0]].name)
            elif s.verb in TAKES_ONE and len(s.args) > 1 and isinstance(s.args[0], ast.Str) and name_of(s.args[1]):
                zone = self.zone_of.get(s.args[0].value)
                if zone:
                    out.setdefault(s.args[1].name, set()).add(zone)
            elif s.verb == "choose" and len(s.args) == 3:
                alias = next((name_of(k.value) for k in s.kwargs if k.name == "as"), None) or "chosen"
                zones = s.args[2].items if isinstance(s.args[2], ast.ListExpr) else (s.args[2],)
                for x in statements(s.block):
                    if x.verb in TAKES_ONE and len(x.args) > 1 and name_of(x.args[0]) == alias and name_of(x.args[1]):
                        out.setdefault(x.args[1].name, set()).update(z.name for z in zones if name_of(z))
        return out

    def run(self) -> list[Diagnostic]:
        dealt = self.dealt()
        if not dealt:
            return []
        removals = list(self.removals(dealt))
        if not removals:
            return []
        out: list[Diagnostic] = []
        told: set[int] = set()
        for players in self.players:
            draws = self.draws(players)
            for r in removals:
                times = self.copies(r.by, players) if r.by is not None else 1
                if id(r.statement) in told or not times or r.item is not None and not self.copies(r.item, players):
                    continue
                amount = r.amount if r.amount >= ALL else r.amount * times
                if r.item is not None:
                    amount = min(amount, self.copies(r.item, players))
                starved = next((d for d in draws if d.zone == r.zone and d.key > r.key and 0 <= d.left < amount),
                               None)
                if starved is not None and all(d.left >= 0 for d in draws if d.zone == r.zone and d.key > r.key):
                    told.add(id(r.statement))
                    out.append(self.diagnostic(r, starved, players, amount))
        return out

    def dealt(self) -> set[str]:
        """The zones the set-up and the ages deal from, whose counts are known here."""
        out = set()
        for _, s in self.steps:
            for x in [s, *statements(s.block)] if s.verb == "each_player" else [s]:
                if x.verb in ("deal", "take_top") and len(x.args) == 3 and name_of(x.args[1]):
                    out.add(x.args[1].name)
                elif x.verb == "deal_structure" and x.args and name_of(x.args[0]):
                    out.add(x.args[0].name)
        return out - self.unknown

    def diagnostic(self, r: Removal, d: Draw, players: int, amount: int) -> Diagnostic:
        span, at = r.statement.span, d.statement.span
        needs = d.left + (self.slots_or_count(d))
        return Diagnostic(
            "error", "E409",
            f"`{self.text(r.statement)}` can take {'an item' if amount == 1 else 'items'} out of zone "
            f"`{r.zone}` "
            + (f"(once for each of the {amount // r.amount} copies of `{r.by}`) " if r.by and amount > r.amount else "")
            + f"before {d.what} (`{self.text(d.statement)}`), which takes {self.slots_or_count(d)} of "
            f"the {needs} it holds then at {players} players: that deal would come up short",
            span,
            f"the deal at {at.file}:{at.line} draws every item `{r.zone}` can spare; take the item from "
            "another zone, put one back before that age, or deal fewer (a game that runs this first stops "
            "with an error there)")

    def slots_or_count(self, d: Draw) -> int:
        return self._wanted[id(d.statement)]

    @staticmethod
    def text(s: ast.Statement) -> str:
        """The statement as written, its block left out."""
        words = [s.verb, *(_written(a) for a in s.args), *(f"{k.name}={_written(k.value)}" for k in s.kwargs)]
        return " ".join(words) + (" { ... }" if s.block is not None else "")

    def copies(self, item: str, players: int) -> int:
        """The copies of an item in its deck at `players` (none used at this count: the one
        compiled stays out of play, in no deck)."""
        marks = self.marks.get(item)
        if marks is None:
            return 0
        return sum(1 for m in marks if m <= players) if marks else 1

    # -- the decks through the set-up and the ages ----------------------------------------------
    def draws(self, players: int) -> list[Draw]:
        counts: Counter[str] = Counter()
        for d in self.items:
            zone = self.zone_of[d.name]
            if zone:
                counts[zone] += self.copies(d.name, players)
        unknown = set(self.unknown)
        out: list[Draw] = []
        self._wanted: dict[int, int] = {}
        for key, s in self.steps:
            self.step(s, key, counts, unknown, out, players, 1)
        return out

    def step(self, s: ast.Statement, key: Key, counts: Counter[str], unknown: set[str], out: list[Draw],
             players: int, times: int) -> None:
        if s.verb == "each_player" and s.block is not None and times == 1:
            for inner in s.block.statements:
                self.step(inner, key, counts, unknown, out, players, players)
            return
        if s.block is None and s.verb in ("deal", "take_top") and len(s.args) == 3 \
                and name_of(s.args[1]) and name_of(s.args[2]):
            source, target = s.args[1].name, s.args[2].name
            want = value_at(s.args[0], players)
            if want is None:
                unknown |= {source, target}
                return
            for _ in range(times):
                self.drawn(s, source, want, key, counts, unknown, out, f"a deal of {_when(key)}")
                counts[target] += want
            return
        if s.block is None and s.verb == "move_all" and len(s.args) == 2 and all(name_of(a) for a in s.args):
            source, target = s.args[0].name, s.args[1].name
            if any(k.name == "where" for k in s.kwargs):
                unknown |= {source, target}
                return
            counts[target] += counts[source]
            counts[source] = 0
            return
        if s.block is None and s.verb == "deal_structure" and s.args and name_of(s.args[0]):
            layout = next((name_of(k.value) for k in s.kwargs if k.name == "layout"), None)
            need = self.slots.get(layout or "")
            if need is None:
                unknown.add(s.args[0].name)
                return
            self.drawn(s, s.args[0].name, need, key, counts, unknown, out, f"{_when(key)}'s structure")
            return
        for inner in statements(s.block):   # (a conditional or chosen deal: counts no longer known)
            if inner.verb in FLOWS or inner.verb == "deal_structure":
                unknown |= {name_of(a) for a in inner.args if name_of(a)}

    def drawn(self, s: ast.Statement, zone: str, want: int, key: Key, counts: Counter[str], unknown: set[str],
              out: list[Draw], what: str) -> None:
        if zone not in unknown:
            out.append(Draw(zone, key, counts[zone] - want, s, what, want))
            self._wanted[id(s)] = want
        counts[zone] = max(0, counts[zone] - want)

    # -- what can take items out of a deck ---------------------------------------------------------
    def removals(self, dealt: set[str]) -> Iterator[Removal]:
        """What can take items out of the decks in `dealt`, each at the earliest it can run."""
        steps = {id(s): key for key, s in self.steps}
        for d in self.merged.definitions:
            for s, own in self.keyed(d.block, steps, None):
                for zone, amount, item in self.taken(s, own is not None):
                    if zone not in dealt:
                        continue
                    key = own if own is not None else self.earliest(s)
                    if key is not None:
                        yield Removal(zone, amount, key, s, item, d.name if d.name in self.marks else None)

    def taken(self, s: ast.Statement, own: bool) -> Iterator[tuple[str, int, str | None]]:
        """(zone, how many, the item named) for each zone `s` can take items out of."""
        if s.verb in TAKES_ONE and s.args and isinstance(s.args[0], ast.Str):
            zone = self.zone_of.get(s.args[0].value)
            to = name_of(s.args[1]) if len(s.args) > 1 else None
            if zone and zone != to:
                yield zone, 1, s.args[0].value
        elif s.verb == "choose" and len(s.args) == 3 and self.takes_chosen(s):
            zones = s.args[2].items if isinstance(s.args[2], ast.ListExpr) else (s.args[2],)
            for z in zones:
                if name_of(z):
                    yield z.name, ast.constant_value(s.args[0]) or 1, None
        elif not own and s.verb in ("deal", "take_top") and len(s.args) == 3 and name_of(s.args[1]):
            yield s.args[1].name, ast.constant_value(s.args[0]) or 1, None
        elif not own and s.verb == "move_all" and s.args and name_of(s.args[0]):
            yield s.args[0].name, 1 if any(k.name == "where" for k in s.kwargs) else ALL, None

    def earliest(self, s: ast.Statement) -> Key | None:
        lo = self.timing().earliest(s)
        return None if lo is None else (lo[0], lo[1], -1 if lo == SETUP else AFTER_AGE_START)

    def keyed(self, block: ast.Block | None, steps: dict[int, Key], top: Key | None) \
            -> Iterator[tuple[ast.Statement, Key | None]]:
        """Every statement of a block, with its place among the set-up's and the ages' own
        statements where it is one of them or inside one (whose deals the decks are counted
        through: a deal of theirs is not an effect taking items out), else None."""
        for s in block.statements if block else ():
            own = steps.get(id(s), top)
            yield s, own
            if s.block is not None:
                yield from self.keyed(s.block, steps, own)

    @staticmethod
    def takes_chosen(s: ast.Statement) -> bool:
        """Whether a `choose`'s block takes what is chosen out of where it is."""
        alias = next((name_of(k.value) for k in s.kwargs if k.name == "as"), None) or "chosen"
        return any(x.verb in TAKES_ONE and x.args and name_of(x.args[0]) == alias for x in statements(s.block))


@attrs.frozen
class ShortDeal:
    """A deal of the set-up or of an age that its deck cannot fill at a player count."""

    statement: ast.Statement
    zone: str
    needs: int     # what the statement draws in all (each player's deal of an `each_player` counted)
    holds: int     # what the deck holds when it runs
    deals: int     # how many deals it makes: the players for an `each_player`'s, else 1
    age: int       # the age whose set-up it is (from 1), 0 for the game's set-up

    def said(self, players: int) -> str:
        """"age 1's `deal 3 deck hand`, for each of the 4 players, draws 12 items from `deck`,
        which holds 8 then"."""
        whose = "the set-up's" if self.age == 0 else f"age {self.age}'s"
        each = f", for each of the {self.deals} players," if self.deals > 1 else ""
        return (f"{whose} `{StarvedDecks.text(self.statement)}`{each} draws {self.needs} "
                f"item{'s' if self.needs != 1 else ''} from `{self.zone}`, which holds {self.holds} then")


def short_deal(merged: Merged, item_kinds: set[str], players: int, zone: str, age: int) -> ShortDeal | None:
    """The deal of `age`'s set-up (0: the game's) that comes up short from `zone` at `players`,
    as the decks are counted here (a runtime `short_draws` entry, said where it is written);
    None where these counts do not find it (a deck something else fills: not known here)."""
    decks = StarvedDecks(merged, item_kinds, range(players, players + 1), lambda: Timing(merged))
    draws = decks.draws(players)
    first = next((d for d in draws if d.zone == zone and d.key[0] == age and d.left < 0), None)
    if first is None:
        return None
    same = [d for d in draws if d.statement is first.statement and d.key == first.key]
    return ShortDeal(first.statement, zone, sum(d.want for d in same), same[0].left + same[0].want, len(same), age)


def _when(key: Key) -> str:
    return "the set-up" if key[0] == 0 else f"age {key[0]}"


def _written(e: ast.Expr) -> str:
    if isinstance(e, ast.Str):
        return f'"{e.value}"'
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Int):
        return str(e.value)
    return "..."


def starved_decks(merged: Merged, item_kinds: set[str], player_counts: range,
                  timing: Callable[[], Timing]) -> list[Diagnostic]:
    return StarvedDecks(merged, item_kinds, player_counts, timing).run()
