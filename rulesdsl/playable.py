"""Whole-content checks that the game can be played, beyond each statement being well formed:
enough players for the seats the content names, ages that lay out structures and deal every
age's cards, an action that takes cards, a zone for every item that comes into play.

What is found here would otherwise surface mid-game as an engine error or a game that cannot
go on; `rulesdsl check` reports it with the place to fix instead.
"""

from __future__ import annotations

from typing import Callable, Iterator

from . import ast
from . import registry as R
from .bounds import bounds
from .diagnostics import Diagnostic, Span
from .flows import propagate
from .limits import MAX_PLAYERS
from .loader import Merged
from .no_trade import prices_never_read, trade_mode, trade_shape
from .timing import LAST, Moment, Timing, Window

# Statements that take items out of a zone and put them in another: verb -> (from arg, to arg).
FLOWS = {"deal": (1, 2), "move_all": (0, 1), "take_top": (1, 2)}
# Statements that put one item (first argument) into a zone (second argument).
PUTS = ("move", "place", "claim")
# Statements that put items face down with `face_down=true`, and which argument is their zone:
# a parameter picking from that zone would name items its player cannot see (W506).
PUTS_FACE_DOWN = {"deal": 2, "place": 1}


def statements(block: ast.Block | None) -> Iterator[ast.Statement]:
    """Every statement of a block, at any depth."""
    stack = [block] if block is not None else []
    while stack:
        for s in stack.pop().statements:
            yield s
            if s.block is not None:
                stack.append(s.block)


def expressions(s: ast.Statement) -> Iterator[ast.Expr]:
    """Every expression of a statement (not of its block), at any depth."""
    for top in [*s.args, *(k.value for k in s.kwargs)]:
        yield from ast.walk(top)


def a(word: str) -> str:
    """`word` after its indefinite article: "an action", "a card"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def name_of(e: ast.Expr | None) -> str | None:
    return e.name if isinstance(e, ast.Name) else None



KEEP_SEAT = "`(EXPRESSION) % players` keeps a number within them"
SEAT_BEYOND = f"a seat beyond them stops the game with an error; {KEEP_SEAT}"


def _outside(low: int | None, top: int | None, n: int) -> str:
    """How a number that is never one of n seats lies outside them."""
    return f"{low} or more" if low is not None and low >= n else f"{top} or less"


class Playable:
    def __init__(self, merged: Merged, item_kinds: set[str], items: dict[str, str],
                 timing: Callable[[], Timing] | None = None):
        self.merged = merged
        # (the checker's, worked out once for the checks that read it)
        self.timing = timing or (lambda: Timing(merged))
        self.item_kinds = item_kinds
        self.items = items  # item name -> kind
        self.diags: list[Diagnostic] = []
        self.headers = merged.by_kind("game") + merged.by_kind("expansion")
        self.game = next(iter(merged.by_kind("game")), None)
        self._every: list[tuple[ast.Definition, ast.Statement]] | None = None
        self._named: set[str] | None = None
        self._exprs: list[ast.Expr] | None = None

    def error(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic("error", code, message, span, help))

    def warning(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic("warning", code, message, span, help))

    def header_statements(self) -> Iterator[ast.Statement]:
        for g in self.headers:
            yield from (g.block.statements if g.block else ())

    def all_statements(self) -> list[tuple[ast.Definition, ast.Statement]]:
        """Every statement of every definition, at any depth (walked once)."""
        if self._every is None:
            self._every = [(d, s) for d in self.merged.definitions for s in statements(d.block)]
        return self._every

    def all_expressions(self) -> list[ast.Expr]:
        """Every expression of every statement, at any depth (walked once)."""
        if self._exprs is None:
            self._exprs = [e for _, s in self.all_statements() for e in expressions(s)]
        return self._exprs

    def named(self) -> set[str]:
        """Item names written out anywhere (`move "Some Wonder" ...`)."""
        if self._named is None:
            self._named = {e.value for e in self.all_expressions() if isinstance(e, ast.Str)}
        return self._named

    def run(self) -> list[Diagnostic]:
        self.single_kinds()
        self.declared_once()
        if len(self.merged.by_kind("game")) != 1:
            return self.diags  # E403 already says what is wrong
        self.players()
        self.ages_and_actions()
        self.age_cards()
        self.zones_for_items()
        self.idle_zones()
        self.words_that_name_something()
        self.params_in_view()
        self.onto_a_structure_not_laid_out()
        self.bank_trade_without_a_bank()
        return self.diags

    # -- definitions a game has one of ----------------------------------------------------------
    def single_kinds(self) -> None:
        for kind in (k for k in R.KINDS.values() if k.single):
            found = self.merged.by_kind(kind.name)
            for extra in found[1:]:
                first = found[0]
                title = first.name if first.name.isidentifier() else f'"{first.name}"'
                self.error("E102", f"a second {kind.name} `{extra.name}`: a game has one {kind.name}, "
                                   f"the second would be ignored", extra.name_span,
                           f"change the first ({first.name_span.file}:{first.name_span.line}) with "
                           f"`replace {kind.name} {title} {{ ... }}`")

    def declared_once(self) -> None:
        """A zone, table, or a kind's build/start zone is declared once in the game and its
        expansions together: the compiler would keep one of two and drop the other unsaid."""
        first: dict[tuple[str, str], ast.Statement] = {}
        for s in self.header_statements():
            if s.verb in ("zone", "table", "build_zone", "start_zone") and s.args and name_of(s.args[0]):
                key = (s.verb, s.args[0].name)
                earlier = first.setdefault(key, s)
                if earlier is not s:
                    self.error("E206", f"`{s.verb} {s.args[0].name}` is declared twice: one of the two would be "
                                       f"ignored", s.args[0].span,
                               f"the first is at {earlier.span.file}:{earlier.span.line}; keep one")

    # -- players ---------------------------------------------------------------------------------
    def players(self) -> None:
        declared = [s for s in self.header_statements() if s.verb == "players" and s.args
                    and isinstance(s.args[0], ast.Int)]
        count = declared[-1].args[0].value if declared else R.MIN_PLAYERS
        if declared and count < R.MIN_PLAYERS:
            self.error("E404", f"a game of {count} player{'s' if count != 1 else ''} cannot be played",
                       declared[-1].args[0].span, f"the engine plays with {R.MIN_PLAYERS} or more players")
            return
        most = declared[-1].args[-1] if declared else None
        if isinstance(most, ast.Int) and most.value > MAX_PLAYERS:
            # (`check` plays trial games at every count: `players 3 999999999` never ended)
            self.error("E404", f"a game of up to {most.value} players cannot be played", most.span,
                       f"the engine plays with at most {MAX_PLAYERS} players")
            return
        if isinstance(most, ast.Int) and most.value < count:
            self.error("E404", f"`players {count} {most.value}`: the most is fewer than the fewest", most.span,
                       f"write the fewest first: players {most.value} {count}")
            return
        # Seats the content names must exist.
        for d, s in self.all_statements():
            if s.verb == "side" and d.kind in self.item_kinds and s.args and isinstance(s.args[0], ast.Int):
                self.seat(s.args[0], count, "a side")
        high = most.value if isinstance(most, ast.Int) else count
        if high > 2:
            self.two_seat_constructs(high)
        for e in self.all_expressions():
            if isinstance(e, ast.Call) and e.func == "player" and e.args and isinstance(e.args[0], ast.Int):
                self.seat(e.args[0], count, "player()")
            elif isinstance(e, ast.Call) and e.func == "player" and e.args:
                self.computed_seat(e.args[0], count, high)
            elif high > 2 and isinstance(e, ast.Name) and e.name in ("pawn_distance", "track_points"):
                self.error("E408", f"`{e.name}` reads the conflict track, which only a game of two players has; "
                                   f"this game seats up to {high}", e.span,
                           "count strength with `modify shields N` and `modifier(shields, owner=left)`")
            elif high > 2 and isinstance(e, ast.Name) and e.name == "opponent":
                # At more than two seats "the other player" is not one player.
                self.error("E408", f"`opponent` names the other player of a two-player game; this game "
                                   f"seats {count} to {high}" if high != count else
                                   f"`opponent` names the other player of a two-player game; this game seats {count}",
                           e.span, "say which seat: left or right (one neighbour); where several players may "
                                   "stand (owner=), also neighbours or others")

    def two_seat_constructs(self, high: int) -> None:
        """The conflict track, its pawn and `shields` (which move it) exist only between two seats."""
        for d in self.merged.by_kind("track"):
            self.error("E408", f"a conflict track has a capital at each end, for two players; this game seats up to "
                               f"{high}", d.name_span, "compare strengths instead: `modify shields N` on the cards, "
                                                        "`modifier(shields, owner=left)` at the end of an age")
        for _, s in self.all_statements():
            if s.verb == "shields":
                self.error("E408", f"`shields` moves the pawn of a two-player conflict track; this game seats up to "
                                   f"{high}", s.verb_span, "write `modify shields N` (a strength the rules compare) instead")
            elif s.verb == "when" and s.args and name_of(s.args[0]) == "pawn_moved":
                self.error("E408", f"`pawn_moved` happens on the two-player conflict track; this game seats up to "
                                   f"{high}", s.args[0].span, "hear what the game has instead (`age_ended`, `built`)")

    def computed_seat(self, e: ast.Expr, count: int, high: int) -> None:
        """`player(EXPRESSION)`: a number that can never be a seat is an error; one that may fall
        outside the seats, as far as the expression tells, a warning (the game stops with an
        error if it does).  Judged at each player count the game supports."""
        never, may = [], None
        for n in range(count, high + 1):
            low, top = bounds(e, n)
            if low is not None and low >= n or top is not None and top < 0:
                never.append((n, low, top))
            elif may is None and (low is None or low < 0 or top is None or top >= n):
                may = (n, low, top)
        if len(never) == high - count + 1:
            n, low, top = never[-1]
            self.error("E404", f"`player(...)` can never name a seat: its number is always {_outside(low, top, n)}, "
                               f"and the game's seats are 0 to {high - 1}", e.span, f"seats count from 0; {KEEP_SEAT}")
        elif never:   # (a seat at some counts, never at others)
            n, low, top = never[0]
            self.warning("W505", f"`player(...)` can name no seat at {n} players: its number is always "
                                 f"{_outside(low, top, n)}, and the seats are 0 to {n - 1}", e.span, SEAT_BEYOND)
        elif may is not None:
            n, low, top = may
            can = []
            if low is None or low < 0:
                can.append("below 0" if low is None else f"as low as {low}")
            if top is None or top >= n:
                can.append(f"{n} or more" if top is None else f"as high as {top}")
            self.warning("W505", f"`player(...)` may name a seat the game does not have: its number can be "
                                 f"{' or '.join(can)}, and the seats are 0 to {n - 1}"
                                 + (f" at {n} players" if high > count else ""), e.span, SEAT_BEYOND)

    def seat(self, e: ast.Int, count: int, what: str) -> None:
        if not 0 <= e.value < count:
            self.error("E404", f"there is no seat {e.value}: the game has {count} players (seats 0 to {count - 1})",
                       e.span, f"{what} counts seats from 0; or change `players` in the game")

    # -- ages and actions ------------------------------------------------------------------------
    def ages_and_actions(self) -> None:
        game = self.game
        ages = self.merged.by_kind("age")
        if not ages:
            removed = [r for r, old in self.merged.removed if old.kind == "age"]
            span = removed[-1].name_span if removed else game.name_span
            self.error("E405", "the game has no age: there is nothing to play", span,
                       "define `age 1 { deal_structure ZONE layout=LAYOUT }`" if not removed
                       else "an expansion may replace an age, but the game needs at least one")
        rows = {lay.name: sum(len(s.args) - 1 for s in statements(lay.block) if s.verb == "row")
                for lay in self.merged.by_kind("layout")}
        # `age_ends when COND`: an age ends on the game's condition, not when a structure is empty.
        by_condition = any(s.verb == "age_ends" for s in self.header_statements())
        for age in ages:
            deals = [s for s in statements(age.block) if s.verb == "deal_structure"]
            if not deals and not by_condition:
                self.error("E405", f"age `{age.name}` lays out no structure: its turns could never end",
                           age.name_span, "an age ends when its structure is empty: add "
                                          "`deal_structure ZONE layout=LAYOUT`")
            for s in deals:
                layout = next((k.value for k in s.kwargs if k.name == "layout"), None)
                if name_of(layout) in rows and rows[name_of(layout)] <= 0:
                    self.error("E405", f"layout `{layout.name}` has no card: the age would end before it began",
                               layout.span, "give the layout rows: row up 5 7")
                elif name_of(layout) in rows and not self.open_at_start(layout.name):
                    self.error("E405", f"layout `{layout.name}` has no face-up card that nothing covers: no card "
                                       f"could be taken when the age begins", layout.span,
                               "the cards of its last row (and any that the next row does not cover) must be "
                               "face up: `row up ...`")
        actions = self.merged.by_kind("action")
        takers = [a for a in actions if any(s.verb == "param" and (by_condition or self.from_structure(s))
                                            and not self.before_turn(a) for s in statements(a.block))]
        if not takers:
            removed = [r for r, old in self.merged.removed if old.kind == "action"]
            span = removed[-1].name_span if removed else game.name_span
            what = "no action takes a card from the structure" if actions else "there is no `action`"
            self.error("E405", f"{what}: players could never end an age", span,
                       "the game needs an action such as `action build { param card from structure; build card }`")
        if any(s.verb == "turns" and s.args and name_of(s.args[0]) == "simultaneous" for s in self.header_statements()):
            for a in actions:
                for s in statements(a.block):
                    if s.verb == "before_turn":   # (in a round the seat's one choice is its whole turn)
                        self.error("E202", f"`before_turn` in action `{a.name}`: in a game of simultaneous rounds "
                                           f"a seat's choice is its whole turn, with no normal action after it",
                                   s.verb_span, "make it a normal action, or a choice inside one (`choose_one`)")
        # (an action that takes no card, `rest { gain 1 coin }`, is always possible as well: a
        # player who has it is never stuck, whatever the card-taking actions ask)
        if takers and not any(self.always_possible(a) for a in takers) \
                and not any(self.always_possible(a) for a in actions if a not in takers and not self.before_turn(a)):
            removed = [r for r, old in self.merged.removed if old.kind == "action"]
            # (at what the last layer did: a designer's `replace action discard` on top of the
            # game, not the game's first action)
            read = {f: i for i, f in enumerate(self.merged.read)}
            latest = max(takers, key=lambda a: read.get(a.name_span.file, -1))
            span = removed[-1].name_span if removed else latest.name_span
            self.warning("W504", "every action that takes a card has a cost, a condition or a filter, and no other "
                                 "action is always possible: a player who can meet none has no legal action and the "
                                 "game is stuck", span,
                         "keep an action that is always possible, such as `action discard { param card from "
                         "structure; discard card }`; `rulesdsl verify` finds such positions")

    def open_at_start(self, name: str) -> bool:
        """Whether some card of the layout is face up with no card of the next row on it (as
        the compiler derives covering: a column one apart)."""
        lay = next(d for d in self.merged.by_kind("layout") if d.name == name)
        rows = [(name_of(s.args[0]) == "up", [a.value for a in s.args[1:] if isinstance(a, ast.Int)])
                for s in statements(lay.block) if s.verb == "row" and s.args]
        for i, (up, columns) in enumerate(rows):
            below = rows[i + 1][1] if i + 1 < len(rows) else []
            if up and any(all(abs(b - c) != 1 for b in below) for c in columns):
                return True
        return False

    @staticmethod
    def always_possible(a: ast.Definition) -> bool:
        """An action with no `require`, no `pay` and no paid `build`, and one parameter that
        filters nothing (`param card from structure`): legal whenever a card can be taken.  (A
        filter, `color=`, `where=`, ..., or a second parameter may leave no candidate.)"""
        params = 0
        for s in statements(a.block):
            if s.verb in ("require", "pay", "before_turn") or (s.verb == "build" and len(s.args) == 1):
                return False
            if s.verb == "param":
                params += 1
                if s.kwargs:
                    return False
        return params <= 1

    @staticmethod
    def before_turn(a: ast.Definition) -> bool:
        return any(s.verb == "before_turn" for s in statements(a.block))

    @staticmethod
    def from_structure(s: ast.Statement) -> bool:
        zone = s.args[2] if len(s.args) > 2 else None
        zones = zone.items if isinstance(zone, ast.ListExpr) else (zone,)
        return any(name_of(z) in ("structure", "structure_all") for z in zones)

    # -- every age's cards are dealt ----------------------------------------------------------------
    def age_cards(self) -> None:
        """A card of `age N` starts in zone `ageN`: some age must take the cards out of it."""
        dealt: set[str] = set()
        removed_from: dict[str, ast.Definition] = {}
        for age in self.merged.by_kind("age"):
            dealt |= self.sources(age.block)
        for removal, old in self.merged.removed:
            if old.kind == "age":
                for zone in self.sources(old.block):
                    removed_from.setdefault(zone, removal)
        reported: set[str] = set()
        start_kinds = {name_of(s.args[0]) for s in self.header_statements() if s.verb == "start_zone" and s.args}
        named = self.named()
        for d in self.merged.definitions:
            if d.kind not in self.item_kinds or d.block is None:
                continue
            if any(s.verb == "deck" for s in d.block.statements):
                continue
            if not any(s.verb == "age" for s in d.block.statements) and d.kind not in start_kinds \
                    and d.name not in named:
                self.error("E406", f"{d.kind} `{d.name}` starts in no zone and nothing names it: it would never "
                                   f"come into play", d.name_span,
                           "give it a `deck ZONE`" + (" or an `age N`" if d.kind == "card" else "")
                           + f", or a `start_zone {d.kind} ZONE` to the game")
                continue
            for s in d.block.statements:
                if s.verb != "age" or not s.args or not isinstance(s.args[0], ast.Int):
                    continue
                n = s.args[0].value
                zone = f"age{n}"
                if zone in dealt:
                    continue
                removal = removed_from.get(zone)
                if removal is not None and zone not in dealt:
                    if zone not in reported:
                        reported.add(zone)
                        self.error("E406", f"after this removal no age deals the cards of age {n}: they would "
                                           f"never come into play", removal.name_span,
                                   f"replace the age instead of removing it, or remove its cards too "
                                   f"(e.g. {d.name_span.file}:{d.name_span.line})")
                    continue
                known = sorted(z[3:] for z in dealt if z.startswith("age") and z[3:].isdigit())
                self.error("E406", f"no age deals the cards of age {n}: this {d.kind} would never come into play",
                           s.args[0].span, f"ages deal the cards of age {', '.join(known)}" if known
                           else "no age deals age cards: an age needs `deal_structure ageN layout=...`")

    def idle_zones(self) -> None:
        """An item whose `deck` is a zone nothing takes items from, reads or makes work, and
        that nothing names, never comes into play (W503: legal, but surely not meant)."""
        used: set[str] = set()
        declared = {s.args[0].name for s in self.header_statements()
                    if s.verb == "zone" and s.args and name_of(s.args[0])}
        for s in self.header_statements():
            if s.verb == "zone" and s.args and name_of(s.args[0]):
                flags = {name_of(a) for a in s.args[1:]}
                if "active" in flags or any(k.name == "ruled_by" for k in s.kwargs):
                    used.add(s.args[0].name)   # what lies there works for a player
        for d, s in self.all_statements():
            if s.verb in FLOWS and len(s.args) > FLOWS[s.verb][0]:
                used.add(name_of(s.args[FLOWS[s.verb][0]]))
            elif s.verb in ("deal_structure", "pieces", "shuffle") and s.args:
                used.add(name_of(s.args[0]))
            elif s.verb == "deal_onto_structure" and len(s.args) > 1:
                used.add(name_of(s.args[1]))
            elif s.verb in ("choose", "param") and len(s.args) > 2:
                zone = s.args[2]
                used.update(name_of(z) for z in (zone.items if isinstance(zone, ast.ListExpr) else (zone,)))
        for e in self.all_expressions():
            if isinstance(e, ast.Call) and e.args:  # count(ZONE), cubes(ZONE), ...: what lies there is read
                zone = e.args[0]
                used.update(name_of(z) for z in (zone.items if isinstance(zone, ast.ListExpr) else (zone,)))
        named = self.named()
        # (an item that names no `deck` nor `age` starts where its kind's `start_zone` says)
        start = {s.args[0].name: s.args[1] for s in self.header_statements()
                 if s.verb == "start_zone" and len(s.args) == 2 and name_of(s.args[0]) and name_of(s.args[1])}
        for d in self.merged.definitions:
            if d.kind not in self.item_kinds or d.block is None or d.name in named:
                continue
            decks = [s.args[0] for s in d.block.statements if s.verb == "deck" and s.args and name_of(s.args[0])]
            aged = any(s.verb == "age" for s in d.block.statements)
            zone = decks[0] if decks else (start.get(d.kind) if not aged else None)
            if zone is not None and zone.name not in used and zone.name in declared:   # (an unknown zone is E305 already)
                how = "" if decks else " (its kind's `start_zone`)"
                self.warning("W503", f"nothing takes items out of zone `{zone.name}`{how}: {d.kind} "
                                     f"`{d.name}` would never come into play", zone.span if decks else d.name_span,
                             "deal, move or choose from that zone, or start the item in another one")

    def words_that_name_something(self) -> None:
        """Words the engine looks up at play time and silently finds nothing for: a mark no
        layout has, a tiebreak category nothing scores."""
        from .diagnostics import did_you_mean
        marks = {name_of(s.args[0]) for lay in self.merged.by_kind("layout") for s in statements(lay.block)
                 if s.verb == "mark" and s.args}
        for _, s in self.all_statements():
            for k in s.kwargs:
                if s.verb == "deal_onto_structure" and k.name == "marked" and name_of(k.value) \
                        and k.value.name not in marks:
                    self.error("E307", f"no layout marks slots `{k.value.name}`: nothing would be dealt",
                               k.value.span, did_you_mean(k.value.name, {m for m in marks if m})
                               or "name slots in a layout: mark NAME 2 4 9")
        categories = set(self.item_kinds)
        for s in self.header_statements():
            if s.verb == "colors":
                categories.update(name_of(a) for a in s.args)
            elif s.verb == "score" and s.args:
                categories.add(name_of(s.args[0]))
        categories.discard(None)
        for s in self.header_statements():
            if s.verb == "tiebreak" and s.args and name_of(s.args[0]) and s.args[0].name not in categories:
                self.error("E307", f"nothing scores in category `{s.args[0].name}`: the tiebreak would never "
                                   f"break a tie", s.args[0].span,
                           did_you_mean(s.args[0].name, categories)
                           or "a category is a card colour, an item kind or a `score` category")

    def bank_trade_without_a_bank(self) -> None:
        """A game that trades with neighbours (`trade neighbours`) has no bank: an item's
        `trade_discount`, or a `trade_price` without `from=` (the game's own formula too), sets a
        bank price nobody pays (E204: accepted, it did nothing); so does a `discount ... or_coins=true`, whose coin cost
        waived instead of a unit would make the coins paid to the bank depend on the payment to
        the neighbours chosen, where a build's price has one such part; and one that trades with
        the bank has no neighbours to buy from: a `trade_price ... from=` sets a price nobody pays
        either (it passed `check`, and `explain` said it worked).  A game where nothing is bought
        (`trade none`) has neither: rulesdsl/no_trade.py."""
        trades = [s for s in self.header_statements() if s.verb == "trade"]
        for s in trades[:1]:   # (a second one is E206 already)
            self.diags += trade_shape(s)
        if trades and trade_mode(trades[0]) == "none":
            if len(trades) == 1:   # (beside another `trade`, E206 says what is wrong)
                self.diags += prices_never_read(
                    self.game.block.statements if self.game is not None and self.game.block else (),
                    (s for d in self.merged.definitions if d.kind in self.item_kinds for s in statements(d.block)))
            return
        with_neighbours = bool(trades)
        if with_neighbours and self.game is not None and self.game.block:
            for s in self.game.block.statements:
                if s.verb == "trade_price":   # (the game's formula: what a unit costs at the bank)
                    self.error("E204", "`trade_price` sets the price at the bank, and this game trades with "
                                       "neighbours only (`trade`): it would never be read", s.verb_span,
                               "remove it, or remove `trade neighbours` to buy from the bank")
        for d in self.merged.definitions:
            if d.kind not in self.item_kinds:
                continue
            for s in statements(d.block):
                from_neighbours = s.verb == "trade_price" and any(k.name == "from" for k in s.kwargs)
                if with_neighbours and (s.verb == "trade_discount" or s.verb == "trade_price" and not from_neighbours):
                    self.error("E204", f"`{s.verb}` sets a price at the bank, and this game trades with neighbours "
                                       f"only", s.verb_span,
                               "fix the price paid to neighbours: `trade_price N RESOURCES from=left|right|neighbours`")
                elif with_neighbours and s.verb == "discount":
                    for option in s.kwargs:
                        if option.name == "or_coins" and name_of(option.value) == "true":
                            self.error("E204", "`or_coins=true` waives a coin cost instead of a resource, and this "
                                               "game trades with neighbours: not supported there (the coins paid "
                                               "to the bank would depend on the neighbours paid)", option.span,
                                       "remove `or_coins=`: the discount then makes missing resources free")
                elif not with_neighbours and from_neighbours:
                    option = next(k for k in s.kwargs if k.name == "from")
                    if name_of(option.value) not in ("left", "right", "neighbours"):
                        continue   # (a word misspelt: said as such, one mistake one error)
                    self.error("E204", "`from=` sets a price paid to neighbours, and this game trades with the "
                                       "bank only", option.span,
                               "fix the bank's price: `trade_price N RESOURCES`, without `from=`")

    def onto_a_structure_not_laid_out(self) -> None:
        """An age lays out its structure after its other statements (so that `extend age` can add
        cards first): a `deal_onto_structure` in an age's block finds none of its cards and
        deals nothing (W507)."""
        for age in self.merged.by_kind("age"):
            for s in statements(age.block):
                if s.verb == "deal_onto_structure":
                    self.warning("W507", f"`deal_onto_structure` in age `{age.name}` runs before the age lays out "
                                         f"its structure (an age lays it out last): it deals onto no card of it",
                                 s.verb_span, "deal from a rule that hears the structure being laid out: "
                                              "`when structure_dealt` (and `if age == N`)")

    def params_in_view(self) -> None:
        """An action's parameters are named in its player's legal actions (`build` and a name), which
        the player's observation lists: a parameter picking from items the player cannot see
        (face-down cards of `structure_all`, a zone no one sees, another player's `private`
        zone, a zone items are put into face down and never turned up) tells them what they
        are.  W506; `verify` finds it too (`observation-hides`), but only once a game reaches
        such a position.  (A `choose` offers its items to the chooser alone, as a decision, and
        names a face-down one by its place: not reported.)"""
        flags: dict[str, set[str | None]] = {}
        for s in self.header_statements():
            if s.verb == "zone" and s.args and name_of(s.args[0]):
                flags[s.args[0].name] = {name_of(a) for a in s.args[1:]}
        face_down = next((lay.name for lay in self.merged.by_kind("layout") for s in statements(lay.block)
                          if s.verb == "row" and s.args and name_of(s.args[0]) == "down"), None)
        every = self.put_face_down()
        for a in self.merged.by_kind("action"):
            # (an action whose `require age` ends it before a put can hide an item never names one)
            ends = self.timing().definition_window(a).hi if every else LAST
            hidden = {z: h for z, h in every.items() if h[2] <= ends}
            for s in (a.block.statements if a.block else ()):
                if s.verb != "param" or len(s.args) < 3 or not name_of(s.args[0]):
                    continue
                owner = next((k.value for k in s.kwargs if k.name == "owner"), None)
                zone = s.args[2]
                for z in (zone.items if isinstance(zone, ast.ListExpr) else (zone,)):
                    why = self._unseen(name_of(z), flags, face_down, owner, hidden)
                    if why:
                        self.warning("W506", f"parameter `{s.args[0].name}` of action `{a.name}` picks from "
                                             f"`{z.name}`, {why}: the player's legal actions would name "
                                             f"items they cannot see", z.span,
                                     (f"turn them up first (`reveal {z.name}`"
                                      + (", in a part that runs after they are put there" if hidden[z.name][1] else "")
                                      + "), or pick with `choose` (it names one by its place)" if z.name in hidden else
                                      "pick from what the player sees: `structure` (the accessible cards), a "
                                      "`public` zone, or their own `private` zone")
                                     + "; `rulesdsl verify` reports such an action as `observation-hides`")

    def put_face_down(self) -> dict[str, tuple[ast.Statement, ast.Statement | None, Moment]]:
        """The zones some statement deals or places items into face down (`face_down=true`),
        each with the first such statement, the `reveal` it comes after (None: there is no
        `reveal` of all of the zone) and the earliest such a put can run.  A zone that such a
        reveal turns up is left out, where and when it does being the game's (an action may
        `require` it done, and `verify` judges the positions reached), unless a put can run
        later than the last reveal by the card files (timing.py): in a later age's block or card,
        after an `if age == N` or an action's `require age >= N`, or after the last reveal in
        the same block.  A put the files do not bound is taken to come before."""
        puts: dict[str, list[ast.Statement]] = {}
        reveals: dict[str, list[ast.Statement]] = {}
        for _, s in self.all_statements():
            if s.verb == "reveal" and s.args and name_of(s.args[0]) and not any(k.name == "space" for k in s.kwargs):
                reveals.setdefault(s.args[0].name, []).append(s)
            target = PUTS_FACE_DOWN.get(s.verb)
            if target is None or len(s.args) <= target or not name_of(s.args[target]):
                continue
            if any(k.name == "face_down" and name_of(k.value) == "true" for k in s.kwargs):
                puts.setdefault(s.args[target].name, []).append(s)
        out: dict[str, tuple[ast.Statement, ast.Statement | None, Moment]] = {}
        if not puts:
            return out
        timing = self.timing()
        blocks = self.blocks_of() if any(z in reveals for z in puts) else {}
        for zone, found in puts.items():
            if zone not in reveals:
                out[zone] = (found[0], None, min((timing.earliest(s) or LAST for s in found), default=LAST))
                continue
            windows = [(w.hi, r) for r in reveals[zone] for w in timing.windows(r) if not w.empty]
            last, reveal = max(windows, key=lambda x: x[0], default=(None, reveals[zone][0]))
            # (the reveals that can run last, each in a block and at a place in it)
            final = [blocks[id(r)] for hi, r in windows if hi == last]
            late = [s for s in found if any(self.after(w, last) for w in timing.windows(s))
                    or final and all(b == blocks[id(s)][0] and i < blocks[id(s)][1] for b, i in final)]
            if late:
                out[zone] = (late[0], reveal, min((timing.earliest(s) or LAST for s in late), default=LAST))
        return out

    def blocks_of(self) -> dict[int, tuple[int, int]]:
        """The block each statement is in and its place there (by `id`)."""
        out: dict[int, tuple[int, int]] = {}
        stack = [d.block for d in self.merged.definitions if d.block is not None]
        while stack:
            block = stack.pop()
            for i, s in enumerate(block.statements):
                out[id(s)] = (id(block), i)
                if s.block is not None:
                    stack.append(s.block)
        return out

    @staticmethod
    def after(w: Window, last: Moment | None) -> bool:
        """Whether a statement of window `w` can run after `last`, the latest a reveal can (None:
        no reveal ever runs): it runs only later, or its own latest is later and bounded."""
        if w.empty:
            return False
        if last is None:
            return True
        return w.lo > last or LAST > w.hi > last

    @staticmethod
    def _unseen(zone: str | None, flags: dict[str, set[str | None]], face_down: str | None,
                owner: ast.Expr | None,
                hidden: dict[str, tuple[ast.Statement, ast.Statement | None, Moment]] | None = None) -> str | None:
        """Why the player choosing from `zone` may not see its items (None: they see them)."""
        if zone == "structure_all":
            return f"which holds face-down cards (layout `{face_down}` lays some out)" if face_down else None
        if zone not in flags:
            return None   # (`structure`, or a zone E305 reports)
        if hidden and zone in hidden:
            put, reveal, _ = hidden[zone]
            if reveal is not None:
                return (f"which holds items face down (`{put.verb}` at {put.span.file}:{put.span.line}) put there "
                        f"after the last `reveal {zone}` (at {reveal.span.file}:{reveal.span.line}) can turn them up")
            return f"which holds items face down (`{put.verb}` at {put.span.file}:{put.span.line}), never turned up"
        if "public" in flags[zone]:
            return None
        if "private" in flags[zone]:
            if owner is None or name_of(owner) == "me":
                return None
            return f"another player's `private` zone (`owner={name_of(owner) or '...'}`)"
        return "a zone no player sees (neither `public` nor `private`)"

    @staticmethod
    def sources(block: ast.Block | None) -> set[str]:
        out = set()
        for s in statements(block):
            if s.verb in FLOWS and len(s.args) > FLOWS[s.verb][0]:
                out.add(name_of(s.args[FLOWS[s.verb][0]]))
            elif s.verb == "deal_structure" and s.args:
                out.add(name_of(s.args[0]))
        out.discard(None)
        return out

    # -- a zone for every item that comes into play -------------------------------------------------
    def zones_for_items(self) -> None:
        """`build`/`acquire` put an item into its kind's `build_zone`; `discard` into the
        `discard_pile`.  The kinds an effect can reach are followed from the zones items start
        in; an item whose kind is not known here is left alone."""
        build_zone: set[str] = set()
        start_zone: dict[str, str] = {}
        has_discard = False
        for s in self.header_statements():
            if s.verb == "build_zone" and s.args:
                build_zone.add(name_of(s.args[0]))
            elif s.verb == "start_zone" and len(s.args) == 2 and name_of(s.args[0]) and name_of(s.args[1]):
                start_zone[s.args[0].name] = s.args[1].name
            elif s.verb == "discard_pile":
                has_discard = True
        self.zone_kinds = self.kinds_by_zone(start_zone)
        attached: set[str] = set()
        for _, s in self.all_statements():
            if s.verb == "deal_onto_structure" and len(s.args) > 1 and name_of(s.args[1]):
                attached |= self.zone_kinds.get(s.args[1].name, set())
        self.attached = attached
        self.structure: set[str] = set()
        for age in self.merged.by_kind("age"):
            for s in statements(age.block):
                if s.verb == "deal_structure" and s.args and name_of(s.args[0]):
                    self.structure |= self.zone_kinds.get(s.args[0].name, set())
        reported: set[tuple[str, int, int]] = set()
        for d in self.merged.definitions:
            env: dict[str, set[str] | None] = {}
            if d.kind == "action" and d.block:
                for s in d.block.statements:
                    if s.verb == "param" and s.args and name_of(s.args[0]):
                        env[s.args[0].name] = self.selector_kinds(s)
            for s, scope in self.scoped(d.block, env):
                if s.verb in ("build", "acquire", "take_attached") and s.args:
                    kinds = self.attached if s.verb == "take_attached" else self.kinds_of(s.args[0], scope, d)
                    for kind in sorted(kinds or ()):
                        key = (kind, s.span.line, s.span.column)
                        if kind not in build_zone and key not in reported:
                            reported.add(key)
                            self.error("E407", f"`{s.verb}` can put {a(kind)} into play, but no zone takes "
                                               f"{a(kind)} that comes into play", s.args[0].span,
                                       f"add `build_zone {kind} ZONE` to the game or the expansion")
                if s.verb == "discard" and not has_discard:
                    self.error("E407", "`discard` needs a discard pile, and the game has none", s.verb_span,
                               "add `discard_pile ZONE` to the game")

    def scoped(self, block: ast.Block | None, env: dict[str, set[str] | None]):
        """Statements with the kinds each item name may hold there (`chosen`, aliases)."""
        if block is None:
            return
        for s in block.statements:
            yield s, env
            if s.block is None:
                continue
            inner = env
            if s.verb == "choose":
                kinds = self.selector_kinds(s)
                inner = {**env, "chosen": kinds}
                for k in s.kwargs:
                    if k.name == "as" and name_of(k.value):
                        inner[k.value.name] = kinds
            elif s.verb in ("choose_player", "choose_space"):
                inner = {**env, "chosen": None}
            yield from self.scoped(s.block, inner)

    def selector_kinds(self, s: ast.Statement) -> set[str] | None:
        """The kinds a `param`/`choose` can pick: its kind= filter, else what its zones may hold."""
        for k in s.kwargs:
            if k.name == "kind" and name_of(k.value):
                return {k.value.name}
        zone = s.args[2] if len(s.args) > 2 else None
        out: set[str] = set()
        for z in (zone.items if isinstance(zone, ast.ListExpr) else (zone,)):
            name = name_of(z)
            if name is None:
                return None
            out |= self.structure if name in ("structure", "structure_all") else self.zone_kinds.get(name, set())
        return out

    def kinds_of(self, e: ast.Expr, env: dict[str, set[str] | None], d: ast.Definition) -> set[str] | None:
        if isinstance(e, ast.Str):
            kind = self.items.get(e.value)
            return {kind} if kind else None
        if isinstance(e, ast.Name):
            if e.name == "this":
                return {d.kind} if d.kind in self.item_kinds else None
            return env.get(e.name)
        return None

    def kinds_by_zone(self, start_zone: dict[str, str]) -> dict[str, set[str]]:
        """The item kinds each zone may hold: where items start, then what moves between zones."""
        kinds: dict[str, set[str]] = {}
        for d in self.merged.definitions:
            if d.kind in self.item_kinds:
                zone = item_start_zone(d, start_zone)
                if zone:
                    kinds.setdefault(zone, set()).add(d.kind)
        flows: list[tuple[str, str]] = []
        for _, s in self.all_statements():
            if s.verb in FLOWS and len(s.args) > max(FLOWS[s.verb]):
                a, b = (name_of(s.args[i]) for i in FLOWS[s.verb])
                if a and b:
                    flows.append((a, b))
            elif s.verb in PUTS and len(s.args) > 1 and isinstance(s.args[0], ast.Str) and name_of(s.args[1]):
                kind = self.items.get(s.args[0].value)
                if kind:
                    kinds.setdefault(s.args[1].name, set()).add(kind)
        propagate(flows, kinds)
        return kinds


def check_playable(merged: Merged, item_kinds: set[str], items: dict[str, str]) -> list[Diagnostic]:
    return Playable(merged, item_kinds, items).run()


def item_start_zone(d: ast.Definition, start_zone: dict[str, str]) -> str | None:
    """The zone an item starts in: its `deck`, else its age's deck, else its kind's start zone.
    (Here rather than in the checker, which imports this module: the compiler reads it too.)"""
    deck = age = None
    for s in d.block.statements if d.block else ():
        if s.verb == "deck" and s.args and isinstance(s.args[0], ast.Name):
            deck = s.args[0].name
        if s.verb == "age" and s.args and isinstance(s.args[0], ast.Int):
            age = s.args[0].value
    if deck:
        return deck
    if age is not None:
        return f"age{age}"
    return start_zone.get(d.kind)


def copy_marks(d: ast.Definition) -> list[int]:
    """The numbers of an item's `copies`: the fewest players of each copy.  (Here, as
    `item_start_zone`: the checker counts a game's items by them, the compiler deals them.)"""
    return [a.value for s in (d.block.statements if d.block else ()) if s.verb == "copies"
            for a in s.args if isinstance(a, ast.Int)]


def copies_at(d: ast.Definition, players: int) -> int:
    """How many copies of an item a game of `players` uses: one per number of its `copies` that
    is at most `players` (none at all: one copy, kept out of play; see `Compiler.item`)."""
    marks = copy_marks(d)
    if not marks:
        return 1
    return max(1, sum(1 for m in marks if m <= players))
