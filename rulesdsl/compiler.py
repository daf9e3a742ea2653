"""Checked AST -> `model.Content`: expressions and effects become closures over the game.

The closures call the interpreter's generic verbs (`g.gain_coins`, `g.build`, ...) by name,
only those of the closed table in interpreter/verbs.py (tests/test_verbs.py holds the two
equal); the compiler knows what a verb means only through the registry and this table of
compile functions, one per registry verb.
"""

from __future__ import annotations

import operator
import re
import sys
from collections import Counter
from functools import partial
from typing import Callable

from . import ast
from . import registry as R
from .checker import item_start_zone
from .explain_text import context_for, english, unparse
from .loader import Merged
from .model import (STRUCTURE, STRUCTURE_ALL, ActionDef, Block, Content, Cost, Fn, ItemDef, Layout, Param, Phrase,
                    Selector, Step, Track, Trigger, ZoneDef)
from .names import options_read
from .playable import copies_at, copy_marks, statements

ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
         "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
         ">=": operator.ge}
# A card's operators as written source spells them (the same: only these strings reach the source).
PYTHON_OPS = {op: op for op in ARITH}


VALUES = re.compile(r"\b(?:_k\d+|\d+)\b")   # the values in a written source: namespace names, numbers


class Src(str):
    """Python source an argument of a written call reads as (`f.me`), as opposed to a string value."""


ME = Src("f.me")
ENV = Src("f.env")


class MaybeItem:
    """An item argument of a verb that may name no item (-1: `first_in` of an empty zone, the
    `host` of an item lying on nothing, `event.item` of an event without one), or a player
    argument that may name no seat (`event.seller` of a trade with the bank): `Compiler.call`
    writes the call so that it is made only when the item or seat is one."""

    def __init__(self, fn: Fn):
        self.fn = fn
        self.name = ""   # (its name in the call's source: `_i0`, set by `Compiler.call`)


# The verbs that take an item from where it lies (an action's parameter so moved is taken: in a
# round, two seats cannot both take one item).
MOVES = ("build", "acquire", "discard", "move", "place", "claim")

# The fields of an event read from its item, not from the event (`events.event_field`): the
# others are read from the event's dict in the written source, with no call.
EVENT_ITEM_FIELDS = ("kind", "color")

# A number as a written source: `larger`/`smaller` compare it where it stands, with no name.
LITERAL = re.compile(r"-?\d+")
# The names `larger`/`smaller` hold their sides in (`_x3`, `_y3`).
SIDES = re.compile(r"\b_[xy](\d+)\b")


def _either(a: str, b: str, beats: str) -> str:
    """`b if a BEATS b else a`, each side evaluated once and in order: the first kept on a tie,
    as `max` and `min` keep it.  (The builtin's call makes and iterates a tuple of its arguments
    and compares them the generic way; a comparison followed by a jump is one CPython 3.11
    specialises for small integers: 0.8 % of a game of Duel + both.)  The names are fresh past
    those of the sides, so a side that is itself one does not overwrite them."""
    k = max((int(n) + 1 for n in SIDES.findall(a + b)), default=0)
    x = a if LITERAL.fullmatch(a) else f"(_x{k} := {a})"
    first = a if LITERAL.fullmatch(a) else f"_x{k}"
    if LITERAL.fullmatch(b):
        return f"({b} if {x} {beats} {b} else {first})"
    return f"(_y{k} if {x} {beats} (_y{k} := {b}) else {first})"


def larger(a: str, b: str) -> str:
    """The source of `max(a, b)`, without the call (`_either`)."""
    return _either(a, b, "<")


def smaller(a: str, b: str) -> str:
    """The source of `min(a, b)`, without the call (`_either`)."""
    return _either(a, b, ">")


# What written expressions may call besides the game's verbs.
BUILTINS = {"len": len, "list": list, "min": min, "max": max, "abs": abs}

# The verbs that only change numbers (coins, counters, who plays again or starts next): they
# never run a block, ask a decision, move an item or end the game, so a block made of them can
# run inside the step that would have pushed it (an `if`, an `each_player`), without a frame,
# and the game goes exactly as it would have (tests/test_numbers_only.py holds them to that).
NUMBERS_ONLY = frozenset({"gain_coins", "lose_coins", "put_coins", "add_counter", "grant_play_again",
                          "set_next_starter"})

# The verbs that, beyond moving items, only schedule frames (`machine.schedule`): at most one
# per item and one per trigger, and never push a block, ask a decision, run a frame or end the
# game.  A turn's starter may run a block of one such step that a turn's last step pushed, as the
# frame loop would run it next (interpreter/starters.py), while what it may schedule cannot
# reach the count of what waits that stops a runaway.
SCHEDULES_ONLY = frozenset({"shields"})


def player_range(headers: list[ast.Definition]) -> tuple[int, int]:
    """The player counts a game supports, from its `players N` or `players LOW HIGH`."""
    for g in headers:
        for s in g.block.statements:
            if s.verb == "players" and s.args:
                values = [a.value for a in s.args]
                return values[0], values[-1]
    return R.MIN_PLAYERS, R.MIN_PLAYERS


def overlapping(params: list[Param]) -> bool:
    """Whether two of an action's parameters may draw the same item: they pick from a zone in
    common, or one from the accessible cards and another from all of the structure's.  A
    binding never names one item for two parameters (`explain_illegal`: "the same item
    twice"), so such an action's bindings are checked for it (`ActionDef.shared_pools`)."""
    seen: set[int] = set()
    for p in params:
        zones = {STRUCTURE_ALL if z == STRUCTURE else z for z in (p.selector.zone, *p.selector.more_zones)}
        if zones & seen:
            return True
        seen |= zones
    return False


class Compiler:
    def __init__(self, merged: Merged, layers: list[str], players: int | None = None):
        self.merged = merged
        self.layers = layers
        # The player count to compile for (None: the game's smallest); copies of items are kept
        # or left out by it (`copies`), so a content is compiled for one count.
        self.wanted_players = players
        self.kept_out: set[str] = set()   # items of which no copy is used at the count compiled for
        self.blocks: list[Block] = []
        self.resources: list[str] = []
        self.colors: list[str] = []
        self.science: list[str] = []
        self.chains: list[str] = []
        self.zones: list[ZoneDef] = []
        self.zone_index: dict[str, int] = {}
        self.item_index: dict[str, int] = {}
        self.layouts: dict[str, Layout] = {}
        self.dealt_layouts: set[str] = set()   # (the layouts of the age being compiled)
        self.item_kinds: list[str] = []
        self.tables: dict[str, list[int]] = {}
        self.counters: list[str] = []
        self.counter_labels: dict[str, str] = {}
        self.foreign_costs = False   # a coin cost reads more than the buyer's own city (`Content.local_prices`)
        self.ruled_later: list[tuple[str, str]] = []
        self.text_context = context_for(merged)
        self.current_item = -1
        self.reads: list[set[str]] = []   # per block being compiled, the frame names it reads
        self.items: list[frozenset[str]] = []   # per block being compiled, its names that hold items (`Block.items`)
        self.namespace: dict[str, object] = {"__builtins__": BUILTINS}   # of expressions written as source
        self.sources: list[str] = []   # the source of each such expression
        self.keeping = False   # writing an expression `economy.kept_value` keeps (`operators`)
        self.shapes: dict[str, Callable[..., Fn]] = {}   # a source with its values taken out -> its maker (`fused`)
        # Names bound around the code being compiled (action parameters, `as=` aliases): such a
        # name hides a zone or kind word of the same spelling, as the checker reads it.
        self.bound: list[str] = []
        # The zones each name bound to an item around the code being compiled picks from (an
        # action's parameter, a choice's `chosen` and alias), and whether anything may come to lie
        # on a card of the structure (`Content.structure_riders`).
        self.item_zones: dict[str, frozenset[int]] = {}
        self.structure_riders = False
        # Whether some points read a zone not every seat sees (`Content.points_public`).
        self.points_unseen = False
        # The definition each block comes from, to name what was running in a runtime error.
        self.origin = ""
        self.origins: list[str] = []

    # -- entry ---------------------------------------------------------------------------------
    def compile(self) -> Content:
        games = self.merged.by_kind("game")
        game = games[0]
        headers = [game] + self.merged.by_kind("expansion")
        for g in headers:
            self.vocabulary(g)
        for name, ruler in self.ruled_later:
            self.zones[self.zone_index[name]].ruled_by = self.zone_index[ruler]
        low, high = player_range(headers)
        players = low if self.wanted_players is None else self.wanted_players
        if not low <= players <= high:
            span = f"{low}" if low == high else f"{low} to {high}"
            raise ValueError(f"{game.name} plays with {span} players, not {players}")
        self.players = players
        items = [d for d in self.merged.definitions if d.kind in self.item_kinds for _ in range(copies_at(d, players))]
        # (Found once per definition: an item may have many copies, each compiled on its own.)
        self.kept_out = {d.name for d in self.merged.definitions
                         if d.kind in self.item_kinds and (marks := copy_marks(d)) and min(marks) > players}
        for i, d in enumerate(items):
            self.item_index.setdefault(d.name, i)
        # The zones items start in (a superset of the decks: interpreter/knowledge.py's
        # `deck_zones`), known before any block is compiled: a move into one that no seat sees
        # calls an `_unseen` verb (`into_deck`).
        starts = {s.args[0].name: s.args[1].name for g in headers for s in g.block.statements
                  if s.verb == "start_zone" and len(s.args) == 2}
        self.deck_names = {item_start_zone(d, starts) for d in items}
        for d in self.merged.by_kind("layout"):
            self.layouts[d.name] = self.layout(d)
        # Procedures first: items and actions `run` them by name.
        self.procedures: dict[str, int] = {}
        for d in self.merged.by_kind("procedure"):
            self.origin = label(d)
            self.procedures[d.name] = self.new_block([], [])
        for d in self.merged.by_kind("procedure"):
            self.origin = label(d)
            compiled = self.blocks[self.block(d.block.statements)]
            self.blocks[self.procedures[d.name]] = compiled
        start_zone: dict[str, str] = {}
        build_zone: dict[str, int] = {}
        scores: list[tuple[str, Fn]] = []
        settings: dict[str, object] = {"title": game.name, "tiebreak": None, "discard": -1,
                                       "trade": None, "setup": [], "between": -1, "turns": "alternate",
                                       "after_round": -1, "end_of_age": -1, "end_of_game": -1, "age_ends": None,
                                       "trade_where": None, "trade_base": 0, "tiebreak_by": None,
                                       "trade_static": True, "trade_production_only": True, "trade_none": False}
        for g in headers:
            for s in g.block.statements:
                self.origin = f"{label(g)} ({s.verb})"
                self.game_statement(s, settings, start_zone, build_zone, scores)
        # Expansions set up their own material before the game's setup (the wonder draft among
        # it) runs, as their rulebooks do: the game's own setup block comes last.
        if settings["setup"] and game.block and any(s.verb == "setup" for s in game.block.statements):
            settings["setup"] = settings["setup"][1:] + settings["setup"][:1]
        compiled_items = [self.item(d, i, start_zone) for i, d in enumerate(items)]
        rules = []
        for d in self.merged.by_kind("rule"):
            self.origin = label(d)
            for s in d.block.statements:
                rules.append(self.trigger(s, -1))
        triggers_by_event: dict[str, list[Trigger]] = {}
        for t in rules + [t for it in compiled_items for t in it.triggers]:
            triggers_by_event.setdefault(t.event, []).append(t)
        actions = [self.action(d, i) for i, d in enumerate(self.merged.by_kind("action"))]
        share_pools(actions)
        # An age lays out its structure last, so an expansion's `extend age` can add cards first.
        ages = []
        age_layouts = []
        for d in self.merged.by_kind("age"):
            self.origin = label(d)
            self.dealt_layouts = set()   # (what `do_deal_structure` meets in this age, at any depth)
            ages.append(self.block([s for s in d.block.statements if s.verb != "deal_structure"]
                                   + [s for s in d.block.statements if s.verb == "deal_structure"]))
            age_layouts.append(frozenset(self.dealt_layouts))
        setup_blocks = settings["setup"]
        self.origin = f"{label(game)} (setup)"
        setup = self.new_block(self.sequence_steps(setup_blocks), ["setup"]) if setup_blocks else self.new_block([], [])
        track_def = next(iter(self.merged.by_kind("track")), None)
        return Content(
            name=game.name, title=str(settings["title"]), layers=self.layers, players=players,
            min_players=low, max_players=high,
            resources=self.resources, colors=self.colors, science=self.science, chains=self.chains,
            zones=self.zones, zone_index=self.zone_index, items=compiled_items, item_index=self.item_index,
            blocks=self.blocks, actions=actions, rules=rules, triggers_by_event=triggers_by_event,
            build_zone=build_zone, discard_zone=int(settings["discard"]), trade_price=settings["trade"],
            scores=scores, tiebreak=settings["tiebreak"], setup=setup, between_ages=int(settings["between"]),
            ages=ages, age_names=[d.name for d in self.merged.by_kind("age")], layouts=self.layouts,
            age_layouts=age_layouts,
            track=self.track(track_def), military_tokens=[it.id for it in compiled_items if it.kind == "military_token"],
            item_kinds=self.item_kinds, tables=self.tables, sources=self.merged.sources,
            options=tuple(options_read(self.merged.definitions)), block_origins=self.origins,
            simultaneous=settings["turns"] == "simultaneous", after_round=int(settings["after_round"]),
            end_of_age=int(settings["end_of_age"]), end_of_game=int(settings["end_of_game"]),
            age_ends=settings["age_ends"], trade_where=settings["trade_where"], trade_base=int(settings["trade_base"]),
            trade_none=bool(settings["trade_none"]),
            counters=tuple(self.counters), counter_labels=dict(self.counter_labels),
            tiebreak_by=settings["tiebreak_by"],
            trade_where_static=bool(settings["trade_static"]),
            price_spread=self.price_spread(compiled_items, settings),
            trade_price_reads_own=settings.get("trade_reads_own", True),
            trade_price_by_resource=settings.get("trade_by_resource", False),
            copied_names=frozenset(n for n, k in Counter(it.name for it in compiled_items).items() if k > 1),
            structure_riders=self.structure_riders,
            points_public=not self.points_unseen and all(z.public and not z.private for z in self.zones if z.active),
            shared_picks=any(p.selector.zone < 0 or not self.zones[p.selector.zone].per_player
                             or p.selector.owner != "me" or p.selector.more_zones
                             for a in actions for p in (a.params[k] for k in a.takes)))

    def sequence_steps(self, block_ids: list[int]) -> list[Step]:
        # Each step pushes one block; it runs to completion before the next step starts.
        def runner(bid: int) -> Step:
            return lambda g, f: g.push(bid, f.me, f.env)
        return [runner(b) for b in block_ids]

    # -- game definition -------------------------------------------------------------------------
    def vocabulary(self, g: ast.Definition) -> None:
        for s in g.block.statements:
            words = [a.name for a in s.args if isinstance(a, ast.Name)]
            target = {"resources": self.resources, "colors": self.colors, "science": self.science,
                      "chains": self.chains, "item_kinds": self.item_kinds}.get(s.verb)
            if target is not None:
                target.extend(w for w in words if w not in target)
            elif s.verb == "table" and words:
                self.tables[words[0]] = [a.value for a in s.args[1:]]
            elif s.verb == "counter" and words:
                if words[0] not in self.counters:
                    self.counters.append(words[0])
                label = next((k.value.value for k in s.kwargs
                              if k.name == "label" and isinstance(k.value, ast.Str)), "")
                if label:   # (a later declaration's label, an expansion's, has the last word)
                    self.counter_labels[words[0]] = label
            elif s.verb == "zone" and words:
                name, flags = words[0], set(words[1:])
                kw = {k.name: k.value for k in s.kwargs}
                spaces = kw["spaces"].value if "spaces" in kw else 0
                counters = kw["counters"].value if "counters" in kw else 0
                label = kw["label"].value if isinstance(kw.get("label"), ast.Str) else ""
                if name not in self.zone_index:
                    self.zone_index[name] = len(self.zones)
                    self.zones.append(ZoneDef(len(self.zones), name, "player" in flags, "active" in flags,
                                              "public" in flags, spaces, "private" in flags, counters,
                                              "majority" in flags, label=label))
                    if "ruled_by" in kw:
                        self.ruled_later.append((name, kw["ruled_by"].name))

    def game_statement(self, s: ast.Statement, settings: dict, start_zone: dict, build_zone: dict,
                       scores: list) -> None:
        a = s.args
        if s.verb == "title":
            settings["title"] = a[0].value
        elif s.verb == "build_zone":
            build_zone[a[0].name] = self.zone_index[a[1].name]
        elif s.verb == "start_zone":
            start_zone[a[0].name] = a[1].name
        elif s.verb == "discard_pile":
            settings["discard"] = self.zone_index[a[0].name]
        elif s.verb == "trade_price":
            settings["trade"] = self.expr(a[0])
            settings["trade_production_only"] = self.reads_only_production(a[0])
            settings["trade_reads_own"] = not (settings["trade_production_only"] and self.reads_others_only(a[0]))
            settings["trade_by_resource"] = settings["trade_production_only"] and self.reads_its_resource_only(a[0])
        elif s.verb == "score":
            scores.append((a[0].name, self.whole(self.expr(a[1]))))
            self.note_points(a[1])
        elif s.verb == "tiebreak":
            settings["tiebreak"] = a[0].name
        elif s.verb == "setup":
            settings["setup"].append(self.block(s.block.statements))
        elif s.verb == "between_ages":
            settings["between"] = self.block(s.block.statements)
        elif s.verb == "turns":
            settings["turns"] = a[0].name
        elif s.verb in ("after_round", "end_of_age", "end_of_game"):
            settings[s.verb] = self.block(s.block.statements)
        elif s.verb == "age_ends":
            settings["age_ends"] = self.expr(a[1])
        elif s.verb == "trade" and a[0].name == "none":
            settings["trade_none"] = True
        elif s.verb == "trade":
            settings["trade_base"] = a[1].value
            kw = {k.name: k.value for k in s.kwargs}
            settings["trade_where"] = self.expr(kw["where"]) if "where" in kw else None
            settings["trade_static"] = "where" not in kw or self.reads_only_item(kw["where"])
        elif s.verb == "tiebreak_by":
            settings["tiebreak_by"] = self.expr(a[0])

    def layout(self, d: ast.Definition) -> Layout:
        rows: list[list[int]] = []
        face_up: list[bool] = []
        columns: list[int] = []
        marks: dict[str, list[int]] = {}
        row_of: list[int] = []
        for s in d.block.statements:
            if s.verb == "mark":
                marks.setdefault(s.args[0].name, []).extend(a.value for a in s.args[1:])
                continue
            up = s.args[0].name == "up"
            row = []
            for c in s.args[1:]:
                row.append(len(columns))
                columns.append(c.value)
                face_up.append(up)
                row_of.append(len(rows))
            rows.append(row)
        covered_by: list[list[int]] = [[] for _ in columns]
        for r in range(len(rows) - 1):
            for slot in rows[r]:
                covered_by[slot] = [b for b in rows[r + 1] if abs(columns[b] - columns[slot]) == 1]
        covers: list[list[int]] = [[] for _ in columns]
        for slot, cov in enumerate(covered_by):
            for c in cov:
                covers[c].append(slot)
        return Layout(d.name, face_up, covered_by, rows, columns, covers, marks, row_of)

    def track(self, d: ast.Definition | None) -> Track:
        t = Track()
        if d is None:
            return t
        for s in d.block.statements:
            if s.verb == "capital":
                t.capital = s.args[0].value
            elif s.verb == "points":
                t.points = [a.value for a in s.args]
            elif s.verb == "pieces":
                t.zone = self.zone_index[s.args[0].name]
        return t

    # -- items -----------------------------------------------------------------------------------
    def item(self, d: ast.Definition, index: int, start_zone: dict[str, str]) -> ItemDef:
        # (Kinds and colours interned: the engine's kept tables are keyed and compared by them
        # at every move and event, and one string object per value makes those comparisons
        # identity tests: a key of a tuple, `_hearing`'s, is compared element by element.)
        it = ItemDef(index, d.name, sys.intern(d.kind), d.name_span)
        self.current_item = index
        self.origin = label(d)
        zone = item_start_zone(d, start_zone)
        it.deck = self.zone_index.get(zone, -1) if zone else -1
        if d.name in self.kept_out:
            it.deck = -1  # no copy is used at this player count: the one kept stays out of play
        effects: list[ast.Statement] = []
        produce = [0] * len(self.resources)
        one_of, fixed, discounts, science = [], [], [], []
        chain_from, chain_gives = [], []
        for s in d.block.statements:
            verb = R.verb_for(d.kind, s.verb)
            if verb.role == R.EFFECT:
                effects.append(s)
                continue
            if verb.role == R.TRIGGER:
                it.triggers.append(self.trigger(s, index))
                it.phrases.append(it.triggers[-1].phrase)   # (one text for both, written once)
                continue
            it.phrases.append(self.phrase(s))
            a = s.args
            if s.verb == "age":
                it.age = a[0].value
            elif s.verb == "color":
                it.color = sys.intern(a[0].name)
            elif s.verb == "cost":
                fn = it.cost.coins_fn if it.cost else None
                c = self.cost(a)
                it.cost = Cost(c.coins, c.resources, fn)
            elif s.verb == "chain_from":
                chain_from.append(a[0].name)
            elif s.verb == "chain_gives":
                chain_gives.append(a[0].name)
            elif s.verb == "produce":
                if len(a) == 1 and isinstance(a[0], ast.Alternatives):
                    one_of.append(tuple(self.resources.index(n) for n in a[0].names))
                else:
                    for r, n in self.counted(a):
                        produce[self.resources.index(r)] += n
            elif s.verb == "trade_price":
                side = next((k.value.name for k in s.kwargs if k.name == "from"), None)
                if side is None:
                    for r in a[1:]:
                        fixed.append((self.resources.index(r.name), a[0].value))
                else:
                    sides = ("left", "right") if side == "neighbours" else (side,)
                    it.side_prices += tuple((sd, self.resources.index(r.name), a[0].value) for sd in sides for r in a[1:])
            elif s.verb == "part_of":
                it.part_of = self.item_index[a[0].value]
            elif s.verb == "discount":
                kw = {k.name: k.value.name for k in s.kwargs}
                discounts.append((a[0].value, kw.get("kind"), kw.get("color"), kw.get("or_coins") == "true"))
            elif s.verb == "science":
                science.append(a[0].name)
            elif s.verb == "points":
                it.points.append((self.whole(self.expr(a[0])), it.phrases[-1]))
                self.note_points(a[0])
            elif s.verb == "side":
                it.side = a[0].value
            elif s.verb == "space":
                it.space = a[0].value
            elif s.verb == "value":
                it.value = a[0].value
            elif s.verb == "modify":
                it.modifiers += ((a[0].name, a[1].value),)
            elif s.verb == "copy_science":
                it.copy_science = True
            elif s.verb == "blocks_pawn":
                it.blocks_pawn = True
            elif s.verb == "chain_price":
                it.chain_price = a[0].value
            elif s.verb == "trade_discount":
                it.trade_discounts += tuple((self.resources.index(r.name), a[0].value) for r in a[1:])
            elif s.verb == "borrow_chains":
                it.borrow_chains = True
            elif s.verb == "cost_coins":
                base = it.cost or Cost(0, tuple([0] * len(self.resources)))
                it.cost = Cost(base.coins, base.resources, self.expr(a[0]))
                self.foreign_costs = self.foreign_costs or not self.reads_only_own_city(a[0])
            elif s.verb == "on_claim":
                it.claim_block = self.block(s.block.statements)
        it.produce = tuple(produce)
        it.produce_one_of = tuple(one_of)
        it.trade_fixed = tuple(fixed)
        it.discounts = tuple(discounts)
        it.science = tuple(science)
        it.chain_from = tuple(chain_from)
        it.chain_gives = tuple(chain_gives)
        it.has_statics = bool(any(produce) or one_of or fixed or discounts or science or chain_gives
                              or it.modifiers or it.copy_science or it.chain_price is not None
                              or it.trade_discounts or it.borrow_chains or it.side_prices)
        it.produced = tuple((r, q) for r, q in enumerate(produce) if q)
        it.has_price_statics = bool(fixed or discounts or it.modifiers or it.chain_price is not None
                                or it.trade_discounts or it.borrow_chains or it.side_prices)
        if effects:
            it.effect = self.block(effects)
            it.phrases.extend(self.blocks[it.effect].phrases)
        self.current_item = -1
        return it

    def counted(self, args) -> list[tuple[str, int]]:
        out, pending = [], None
        for a in args:
            if isinstance(a, ast.Int):
                pending = a.value
            else:
                out.append((a.name, 1 if pending is None else pending))
                pending = None
        return out

    def cost(self, args) -> Cost:
        res = [0] * len(self.resources)
        coins = 0
        for word, n in self.counted(args):
            if word in ("coin", "coins"):
                coins += n
            else:
                res[self.resources.index(word)] += n
        return Cost(coins, tuple(res))

    def trigger(self, s: ast.Statement, item: int) -> Trigger:
        kw = {k.name: k.value for k in s.kwargs}
        by = kw["by"].name if "by" in kw else "any"
        colors = self.colorset(kw["color"]) if "color" in kw else None
        kind = kw["kind"].name if "kind" in kw else None
        via = kw["via"].name if "via" in kw else None
        zone = kw["zone"].name if "zone" in kw else None
        outer = self.origin
        self.origin = f"{outer} (when {s.args[0].name})"
        block = self.block(s.block.statements)
        self.origin = outer
        return Trigger(sys.intern(s.args[0].name), sys.intern(by), colors, kind and sys.intern(kind),
                       via and sys.intern(via), block, item, self.phrase(s), zone)

    def colorset(self, e: ast.Expr) -> frozenset[str]:
        if isinstance(e, ast.ListExpr):
            return frozenset(sys.intern(i.name) for i in e.items)
        return frozenset([sys.intern(e.name)])

    # -- actions ---------------------------------------------------------------------------------
    def action(self, d: ast.Definition, index: int) -> ActionDef:
        self.origin = label(d)
        depth = len(self.bound)
        around = dict(self.item_zones)
        try:
            return self._action(d, index)
        finally:
            del self.bound[depth:]
            self.item_zones = around

    def _action(self, d: ast.Definition, index: int) -> ActionDef:
        params: list[Param] = []
        requires: list[Fn] = []
        pays: list[Fn] = []
        guards: list[Fn] = []
        before = False
        effects: list[ast.Statement] = []
        texts = []
        for s in d.block.statements:
            if s.verb == "param":
                params.append(Param(s.args[0].name, self.selector(s.args[2], s.kwargs)))
                self.item_zones[s.args[0].name] = _zones_of(params[-1].selector)
                self.bound.append(s.args[0].name)
                texts.append(self.phrase(s))
            elif s.verb == "before_turn":
                before = True
                texts.append(self.phrase(s))
            elif s.verb == "require":
                if mentions(s.args[0], {p.name for p in params}):
                    requires.append(self.expr(s.args[0]))
                else:
                    guards.append(self.expr(s.args[0]))
                texts.append(self.phrase(s))
            else:
                if s.verb == "pay":   # (one function of its written source: asked at every draw that binds it)
                    pays.append(self.whole(self.expr(s.args[0])))
                effects.append(s)
        names = [p.name for p in params]
        paid = [names.index(s.args[0].name) for s in effects
                if s.verb == "build" and isinstance(s.args[0], ast.Name) and s.args[0].name in names
                and len(s.args) == 1]
        for s in effects:
            if s.verb == "build" and len(s.args) == 1 and isinstance(s.args[0], ast.Str):
                # An item named in quotes is paid for as a parameter's is: its price counts
                # among what the action pays, so the action is legal only while it can be paid.
                item = self.item_index[s.args[0].value]
                pays.append(self.written(lambda g, f, item=item: g.price_of(f.me, item)[0], f"g.price_of(f.me, {item})[0]"))
        block = self.block(effects, names_of_items=tuple(names))
        moved = {s.args[0].name for e in effects for s in (e, *statements(e.block))
                 if s.verb in MOVES and s.args and isinstance(s.args[0], ast.Name)}
        return ActionDef(index, d.name, params, requires, paid, pays, block, d.name_span,
                         texts + self.blocks[block].phrases, shared_pools=overlapping(params),
                         guards=guards, before_turn=before, param_names=tuple(p.name for p in params),
                         takes=tuple(k for k, name in enumerate(names) if name in moved),
                         discards=any(s.verb == "discard" for s in effects))

    def zone_id(self, zone: ast.Expr) -> int:
        special = {"structure": STRUCTURE, "structure_all": STRUCTURE_ALL}.get(zone.name)
        return special if special is not None else self.zone_index[zone.name]

    def selector(self, zone: ast.Expr, kwargs) -> Selector:
        kw = {k.name: k.value for k in kwargs}
        more: tuple[int, ...] = ()
        if isinstance(zone, ast.ListExpr):
            zone_id = self.zone_id(zone.items[0])
            more = tuple(self.zone_id(z) for z in zone.items[1:])
        else:
            zone_id = self.zone_id(zone)
        owner: str | Fn = "me"
        if "owner" in kw:
            o = kw["owner"]
            owner = o.name if isinstance(o, ast.Name) and o.name in R.OWNER_WORDS else self.expr(o)
        text = unparse(zone) + "".join(f", {k.name}={unparse(k.value)}" for k in kwargs
                                       if k.name not in ("by", "optional", "as"))
        return Selector(zone_id, owner, self.colorset(kw["color"]) if "color" in kw else None,
                        kw["kind"].name if "kind" in kw else None,
                        kw["age"].value if "age" in kw and isinstance(kw["age"], ast.Int) else None,
                        self.zone_index[kw["deck"].name] if "deck" in kw else None, text,
                        self.expr(kw["where"]) if "where" in kw else None, more,
                        self.expr(kw["named"]) if "named" in kw else None,
                        self.attribute_test(kw["where"]) if "where" in kw else None)

    # -- blocks and effects ----------------------------------------------------------------------
    def new_block(self, steps: list[Step], texts: list[str]) -> int:
        self.blocks.append(Block(steps, texts))
        self.origins.append(self.origin)
        return len(self.blocks) - 1

    def block(self, statements, binds: tuple[str | None, ...] = (), items: bool = False,
              names_of_items: tuple[str, ...] = ()) -> int:
        """Compile a block; `binds`: the names it gets on entry (`chosen`), which the block
        around it does not need to hold; `items`: those names hold items (an item choice's), not
        spaces or players; `names_of_items`: names its frame starts with that hold items (an
        action's parameters)."""
        index = self.new_block([], [])
        steps, texts = [], []
        self.reads.append(set())
        around = self.items[-1] if self.items else frozenset()
        bound = {b for b in binds if b}
        self.items.append((around - bound) | (bound if items else set()) | set(names_of_items))
        stmts = list(statements)
        i = 0
        while i < len(stmts):
            s = stmts[i]
            if s.verb == "if":
                otherwise = stmts[i + 1] if i + 1 < len(stmts) and stmts[i + 1].verb == "else" else None
                steps.append(self.if_step(s, otherwise))
                texts.append(self.phrase(s, otherwise))
                i += 2 if otherwise else 1
                continue
            steps.append(self.effect(s))
            texts.append(self.phrase(s))
            i += 1
        # A step that only changes numbers runs the step after it as well, as the frame loop
        # would run it next (nothing can come between): one turn of the loop less.  The later
        # step keeps its place, for a frame that stands there (a save, a decision asked again).
        for k in range(len(steps) - 2, -1, -1):
            if getattr(steps[k], "numbers_only", False) and not getattr(steps[k + 1], "numbers_only", False):
                steps[k] = then_next(steps[k], steps[k + 1])
        reads = self.reads.pop()
        if self.reads:  # a nested block runs with the names of the frame around it
            self.reads[-1].update(reads.difference(binds))
        self.blocks[index] = Block(steps, texts, frozenset(reads), items=frozenset(self.items.pop()))
        return index

    def if_step(self, s: ast.Statement, otherwise: ast.Statement | None) -> Step:
        cond = self.expr(s.args[0])
        then = self.block(s.block.statements)
        other = self.block(otherwise.block.statements) if otherwise else -1
        if self.numbers_only(then) and (other < 0 or self.numbers_only(other)):
            # Bodies that only change numbers run here, in order, as their frame would have
            # run them next: `(STEP, STEP) if COND else (...)`.
            step = self.fused(f"({self.inline(then)} if {self.source(cond)} else "
                              f"{self.inline(other) if other >= 0 else self.constant(None)})")
            step.numbers_only = True   # type: ignore[attr-defined]
            return step
        # One function: `g.push(then, f.me, f.env) if COND else None` (or the other block).
        otherwise_source = self.call_source("push", other, ME, ENV) if other >= 0 else self.constant(None)
        step = self.fused(f"({self.call_source('push', then, ME, ENV)} if {self.source(cond)} else {otherwise_source})")
        step.branches = (cond, then, other)   # type: ignore[attr-defined]  (`machine.run_procedure` reads them)
        return step

    def numbers_only(self, block: int) -> bool:
        """Whether every step of a compiled block only changes numbers (`NUMBERS_ONLY`)."""
        return all(getattr(step, "numbers_only", False) for step in self.blocks[block].steps)

    def inline(self, block: int) -> str:
        """The source running a block of steps that only change numbers, in order, in the
        frame of the step it stands in (the same player and names as the block's own frame)."""
        steps = self.blocks[block].steps
        return f"({', '.join(self.source(step) for step in steps)},)" if steps else self.constant(None)

    def effect(self, s: ast.Statement) -> Step:
        return getattr(self, f"do_{s.verb}")(s, {k.name: k.value for k in s.kwargs})

    def who(self, kw: dict, name: str = "who") -> Fn | MaybeItem:
        if name not in kw:
            return self.written(lambda g, f: f.me, ME)
        fn = self.expr(kw[name])
        # (an event's seat may be none, -1: the bank sold, nobody owned; the statement then does
        # nothing, where the seat -1 would have been the last one)
        return MaybeItem(fn) if isinstance(kw[name], ast.Attribute) else fn

    def acted_on(self, e: ast.Expr) -> Fn | MaybeItem:
        """An item a verb acts on: a name (`this`, `chosen`, an action's card, an item's name)
        always names one; anything else (`first_in`, `host`, `rider`, `event.item`, `either`)
        may name none, and the verb is then not called (`call`)."""
        fn = self.expr(e)
        return fn if isinstance(e, (ast.Name, ast.Str)) else MaybeItem(fn)

    # A step that calls one verb is one function written from source (`call`): its arguments
    # are spelled out in it where they read as source, rather than a closure per argument.
    def do_gain(self, s, kw) -> Step:
        return self.call("gain_coins", self.who(kw), self.expr(s.args[0]))

    def do_lose(self, s, kw) -> Step:
        return self.call("lose_coins", self.who(kw), self.expr(s.args[0]))

    def do_shields(self, s, kw) -> Step:
        return self.call("shields", self.who(kw, "by"), self.expr(s.args[0]))

    def do_play_again(self, s, kw) -> Step:
        return self.call("grant_play_again", ME)

    def do_win(self, s, kw) -> Step:
        return self.call("win", ME, s.args[0].name)

    def do_choose(self, s, kw) -> Step:
        count = self.expr(s.args[0])
        selector = self.selector(s.args[2], [k for k in s.kwargs if k.name not in ("as", "optional")])
        by = self.who(kw, "by")
        alias = kw["as"].name if "as" in kw else None
        optional = "optional" in kw and kw["optional"].name == "true"
        around = dict(self.item_zones)
        for name in ("chosen", alias):
            if name:
                self.item_zones[name] = _zones_of(selector)
        try:
            body = self.aliased_block(s.block.statements, alias, items=True)
        finally:
            self.item_zones = around
        return self.call("choose", by, count, selector, body, Src("f"), alias, optional)

    def do_choose_space(self, s, kw) -> Step:
        zone = self.zone_index[s.args[0].name]
        empty = len(s.args) > 1
        by = self.who(kw, "by")
        where = self.expr(kw["where"]) if "where" in kw else None
        alias = kw["as"].name if "as" in kw else None
        body = self.aliased_block(s.block.statements, alias)
        # (`where` is handed over, to be asked of each space: a value, not read here)
        return self.call("choose_space", by, zone, empty, body, Src("f"), Src(self.constant(where)), alias)

    def do_choose_one(self, s, kw) -> Step:
        by = self.who(kw, "by")
        options = []
        for o in s.block.statements:
            if o.verb == "option":
                offered = next((k.value for k in o.kwargs if k.name == "if"), None)
                options.append((o.args[0].name, self.block(o.block.statements),
                                None if offered is None else self.expr(offered)))
        return self.call("choose_option", by, options, Src("f"))

    def do_run(self, s, kw) -> Step:
        block = self.procedures[s.args[0].name]
        return self.inline_run(block) or self.call("run_procedure", block, Src("f"))

    def inline_run(self, block: int) -> Step | None:
        """`run` of a procedure of one step, compiled already, written out where the `run`
        stands, as `machine.run_procedure` would run it: its step of numbers itself; its `if`
        read here, stacking the procedure's finished frame under the block it picks
        (`machine.run_branch`).  None for any other procedure (one not compiled yet among them:
        a procedure that runs one defined after it)."""
        steps = self.blocks[block].steps
        if len(steps) != 1:
            return None
        step = steps[0]
        branches = getattr(step, "branches", None)
        if branches is not None:
            cond, then, other = branches
            picked = self.call_source("run_branch", block, then, Src("f"))
            otherwise = self.call_source("run_branch", block, other, Src("f")) if other >= 0 else self.constant(None)
            return self.fused(f"({picked} if {self.source(cond)} else {otherwise})")
        if getattr(step, "numbers_only", False):
            return self.fused(self.source(step))
        return None

    def do_option(self, s, kw) -> Step:  # only inside choose_one, which reads it
        return lambda g, f: None

    def do_claim(self, s, kw) -> Step:
        return self.call("claim", self.acted_on(s.args[0]), self.zone_index[s.args[1].name], self.who(kw, "owner"), ME)

    def do_add_cube(self, s, kw) -> Step:
        zone, space, who = self.zone_index[s.args[0].name], self.expr(kw["space"]), self.who(kw)
        return self.call("add_cube", zone, who, space)

    def do_remove_cube(self, s, kw) -> Step:
        zone, space, who = self.zone_index[s.args[0].name], self.expr(kw["space"]), self.who(kw)
        return self.call("remove_cube", zone, who, space)

    def do_move_cube(self, s, kw) -> Step:
        zone, who = self.zone_index[s.args[0].name], self.who(kw)
        src, dst = self.expr(kw["from"]), self.expr(kw["to"])
        return self.call("move_cube", zone, who, src, dst)

    def do_reveal(self, s, kw) -> Step:
        zone = self.zone_index[s.args[0].name]
        space = self.expr(kw["space"]) if "space" in kw else None
        return self.call("reveal", zone, self.who(kw, "owner"), space)

    def do_pay(self, s, kw) -> Step:
        return self.call("spend", ME, self.expr(s.args[0]))

    def do_place(self, s, kw) -> Step:
        item, zone, space = self.acted_on(s.args[0]), self.zone_index[s.args[1].name], self.expr(kw["space"])
        owner = self.who(kw, "owner")
        if "face_down" in kw and kw["face_down"].name == "true":
            return self.call("place_face_down", item, zone, owner, space, ME)
        return self.call("place", item, zone, owner, space, False, ME)

    def do_shuffle(self, s, kw) -> Step:
        zone = self.zone_index[s.args[0].name]
        return self.call("shuffle", zone, ME)

    def into_deck(self, zone: int) -> bool:
        """Whether `zone` may be a deck no seat sees (items start in it): a move into it calls the
        `_unseen` verb, which records what a seat saw go in (interpreter/knowledge.py); a move
        elsewhere pays nothing for it."""
        z = self.zones[zone]
        return z.seen_by_none and z.name in self.deck_names

    def do_take_top(self, s, kw) -> Step:
        count = self.expr(s.args[0])
        src, dst = self.zone_index[s.args[1].name], self.zone_index[s.args[2].name]
        if self.into_deck(dst):
            return self.call("take_top_unseen", count, src, dst, ME)
        return self.call("take_top", count, src, dst, ME)

    def do_return_to_deck(self, s, kw) -> Step:
        zone = self.zone_index[s.args[0].name]
        return self.call("return_to_deck", zone, ME)

    def do_deal_onto_structure(self, s, kw) -> Step:
        self.structure_riders = True
        count = self.expr(s.args[0])
        src = self.zone_index[s.args[1].name]
        if "marked" in kw:
            mark = kw["marked"].name
            return lambda g, f: g.deal_onto_structure(count(g, f), src, g.marked_slots(mark))
        slots = [i.value for i in kw["slots"].items]
        return lambda g, f: g.deal_onto_structure(count(g, f), src, slots)

    def do_take_attached(self, s, kw) -> Step:
        step = self.call("take_attached", ME, self.acted_on(s.args[0]))
        e = s.args[0]
        if isinstance(e, ast.Attribute) and e.name == "item" and isinstance(e.obj, ast.Name) and e.obj.name == "event":
            # It does nothing where nothing lies on the event's item: an event whose triggers
            # are all such steps need not run them then (`events.riders_only`).
            step.event_riders_only = True   # type: ignore[attr-defined]
        return step

    def do_trigger(self, s, kw) -> Step:
        return self.call("trigger", ME, self.acted_on(s.args[0]))

    def do_put_coins(self, s, kw) -> Step:
        return self.call("put_coins", self.expr(s.args[0]), self.acted_on(s.args[1]))

    def do_choose_player(self, s, kw) -> Step:
        by = self.who(kw, "by")
        body = self.block(s.block.statements, ("chosen",))
        return self.call("choose_player", by, body, Src("f"))

    def do_starts_next_age(self, s, kw) -> Step:
        return self.call("set_next_starter", self.expr(s.args[0]))

    def do_build(self, s, kw) -> Step:
        return self.call("build", ME, self.acted_on(s.args[0]), len(s.args) > 1)

    def do_acquire(self, s, kw) -> Step:
        return self.call("acquire", ME, self.acted_on(s.args[0]))

    def do_discard(self, s, kw) -> Step:
        e = s.args[0]
        if isinstance(e, ast.Name) and self.item_zones.get(e.name) == {STRUCTURE}:
            # (an item picked from the structure alone: its own verb, which tests that first)
            return self.call("discard_taken", ME, self.acted_on(e))
        return self.call("discard", ME, self.acted_on(e))

    def off_structure(self, e: ast.Expr) -> bool:
        """Whether an item expression surely names no card of the structure: `this` (an item's
        effects run once it is in play), or a name bound to an item picked from other zones."""
        if not isinstance(e, ast.Name):
            return False
        if e.name == "this":
            return True
        zones = self.item_zones.get(e.name)
        return zones is not None and STRUCTURE not in zones and STRUCTURE_ALL not in zones

    def do_move(self, s, kw) -> Step:
        item = self.acted_on(s.args[0])
        zone = self.zone_index[s.args[1].name]
        owner = self.who(kw, "owner")
        onto = self.acted_on(kw["onto"]) if "onto" in kw else None
        if onto is not None and not self.off_structure(kw["onto"]):
            self.structure_riders = True
        bottom = "at" in kw and kw["at"].name == "bottom"
        if self.into_deck(zone):
            return self.call("move_unseen", item, zone, owner, onto, bottom, ME)
        return self.call("move", item, zone, owner, onto, bottom, ME)

    def do_move_all(self, s, kw) -> Step:
        src, dst = self.zone_index[s.args[0].name], self.zone_index[s.args[1].name]
        o = kw.get("owner")
        bottom = "at" in kw and kw["at"].name == "bottom"
        claim = "claim" in kw and kw["claim"].name == "true"
        if "where" in kw:
            where = self.expr(kw["where"])
            if o is None:
                mode = "me"
            elif isinstance(o, ast.Name) and o.name in R.OWNER_WORDS:
                mode = o.name
            else:
                mode = self.expr(o)
            key = self.attribute_test(kw["where"])
            if self.into_deck(dst):
                return lambda g, f: g.move_all_unseen(src, dst, mode if isinstance(mode, str) else mode(g, f), f.me,
                                                      bottom, claim, where, f, key)
            return lambda g, f: g.move_all(src, dst, mode if isinstance(mode, str) else mode(g, f), f.me, bottom, claim,
                                           where, f, key)
        if o is None or (isinstance(o, ast.Name) and o.name in R.OWNER_WORDS):
            whose = o.name if o is not None else "me"
        else:
            whose = self.expr(o)
        if self.into_deck(dst):
            return self.call("move_all_unseen", src, dst, whose, ME, bottom, claim)
        return self.call("move_all", src, dst, whose, ME, bottom, claim)

    def do_deal(self, s, kw) -> Step:
        count = self.expr(s.args[0])
        src, dst = self.zone_index[s.args[1].name], self.zone_index[s.args[2].name]
        owner = self.who(kw, "owner")
        space = self.expr(kw["space"]) if "space" in kw else None
        hidden = "face_down" in kw and kw["face_down"].name == "true"
        unseen = "unseen" in kw and kw["unseen"].name == "true"
        if space is None and not hidden and self.into_deck(dst):
            return self.call("deal_unseen", count, src, dst, owner, space, hidden, unseen, ME)
        return self.call("deal", count, src, dst, owner, space, hidden, unseen, ME)

    def do_deal_structure(self, s, kw) -> Step:
        src = self.zone_index[s.args[0].name]
        layout = kw["layout"].name
        self.dealt_layouts.add(layout)
        return self.call("deal_structure", src, layout)

    def note_points(self, e: ast.Expr) -> None:
        """Points that read a zone some seat may not see (a hand, a deck) tell what lies there.
        (`deck=` names a zone as an item's printed attribute, which reads nothing in it.)"""
        for x in ast.walk(e):
            if isinstance(x, ast.Name) and x.name not in self.bound and x.name in self.zone_index:
                z = self.zones[self.zone_index[x.name]]
                if (not z.public or z.private) and not self._deck_word(e, x):
                    self.points_unseen = True

    @staticmethod
    def _deck_word(e: ast.Expr, name: ast.Name) -> bool:
        """Whether `name` stands in `e` as the value of a `deck=`."""
        return any(isinstance(x, ast.Call) and any(k.name == "deck" and (k.value is name or isinstance(k.value, ast.ListExpr)
                                                                          and any(i is name for i in k.value.items))
                                                   for k in x.kwargs)
                   for x in ast.walk(e))

    def reads_only_item(self, e: ast.Expr) -> bool:
        """Whether a condition on `it` reads nothing but the item's printed attributes and words
        (its value for an item never changes: worked out once per item)."""
        words = {"it", "true", "false", *self.colors, *self.item_kinds, *self.resources}
        for x in ast.walk(e):
            if isinstance(x, (ast.Call, ast.ListExpr)):
                return False
            if isinstance(x, ast.Name) and x.name not in words:
                return False
            if isinstance(x, ast.Attribute) and not (isinstance(x.obj, ast.Name) and x.obj.name == "it"):
                return False
        return True

    def price_spread(self, items: list[ItemDef], settings: dict) -> tuple[bool, ...] | None:
        """Per item, whether its coming into or leaving a city can change other seats' prices:
        when prices depend only on a seat's own city and on what seats produce (see
        `Content.price_spread`), only items that produce can, or change what the seat pays its
        neighbours, or give chains where chains are borrowed; otherwise None."""
        if not settings["trade_production_only"] or self.foreign_costs:
            return None
        if settings["trade_base"] and (settings["trade"] is not None or not settings["trade_static"]):
            return None   # neighbour trade: what a seat sells must depend on its items alone
        borrowed = any(it.borrow_chains for it in items)
        sold = bool(settings["trade_base"])   # one-of producers are sold too, and side prices paid
        return tuple(bool(any(it.produce) or sold and (it.produce_one_of or it.side_prices)
                          or borrowed and it.chain_gives) for it in items)

    def reads_only_production(self, e: ast.Expr) -> bool:
        """Whether a bank trade price reads nothing of the game but what seats produce: numbers,
        arithmetic and `production(...)` of seat words (see `Content.local_prices`)."""
        if isinstance(e, ast.Int):
            return True
        if isinstance(e, ast.Name):
            return e.name == "resource" or e.name in self.resources
        if isinstance(e, ast.BinOp):
            return self.reads_only_production(e.left) and self.reads_only_production(e.right)
        if isinstance(e, ast.Call) and e.func in ("max", "min", "either"):
            return not e.kwargs and all(self.reads_only_production(x) for x in e.args)
        if isinstance(e, ast.Call) and e.func == "production":
            kw = {k.name: k.value for k in e.kwargs}
            owner = kw.get("owner")
            return (len(e.args) == 1 and self.reads_only_production(e.args[0]) and set(kw) <= {"owner", "color"}
                    and (owner is None or isinstance(owner, ast.Name) and owner.name in R.SUMMED_OWNER_WORDS))
        return False

    def reads_its_resource_only(self, e: ast.Expr) -> bool:
        """Of a trade price that reads only production (`reads_only_production`): whether every
        `production(...)` in it reads the resource being priced (`resource`), no other."""
        return self.every_production(e, lambda call: isinstance(call.args[0], ast.Name)
                                     and call.args[0].name == "resource")

    def reads_others_only(self, e: ast.Expr) -> bool:
        """Of a trade price that reads only production (`reads_only_production`): whether every
        `production(...)` in it reads seats other than the buyer's."""
        def others(call: ast.Call) -> bool:
            owner = next((k.value for k in call.kwargs if k.name == "owner"), None)
            return isinstance(owner, ast.Name) and owner.name in ("opponent", "others", "neighbours")
        return self.every_production(e, others)

    def every_production(self, e: ast.Expr, test) -> bool:
        """Of a trade price that reads only production: whether `test` holds for every
        `production(...)` call in it."""
        if isinstance(e, ast.BinOp):
            return self.every_production(e.left, test) and self.every_production(e.right, test)
        if isinstance(e, ast.Call) and e.func == "production":
            return test(e)
        if isinstance(e, ast.Call):
            return all(self.every_production(x, test) for x in e.args)
        return True   # numbers and names

    def reads_only_own_city(self, e: ast.Expr) -> bool:
        """Whether a coin cost reads nothing but the buyer's own items in play: numbers,
        arithmetic, `count` of its own cards in play by printed attributes, its `modifier`s."""
        if isinstance(e, ast.Int):
            return True
        if isinstance(e, ast.Name):
            return e.name in ("true", "false")
        if isinstance(e, ast.BinOp):
            return self.reads_only_own_city(e.left) and self.reads_only_own_city(e.right)
        if isinstance(e, ast.Not):
            return self.reads_only_own_city(e.operand)
        if not isinstance(e, ast.Call):
            return False
        if e.func in ("max", "min", "either"):
            return not e.kwargs and all(self.reads_only_own_city(x) for x in e.args)
        if e.func == "modifier":
            return not e.kwargs
        if e.func == "count" and e.args and isinstance(e.args[0], ast.Name):
            zone = self.zone_index.get(e.args[0].name)
            return (zone is not None and self.zones[zone].per_player and self.zones[zone].active
                    and all(k.name in ("color", "kind", "age", "deck") for k in e.kwargs))
        return False

    def attribute_test(self, e: ast.Expr) -> tuple[str, Fn] | None:
        """`it.ATTR == VALUE` where VALUE does not read `it`: (ATTR, VALUE) so the value is worked
        out once for all the items tested, not once per item (set-up filters over many items)."""
        if not (isinstance(e, ast.BinOp) and e.op == "=="):
            return None
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if (isinstance(side, ast.Attribute) and isinstance(side.obj, ast.Name) and side.obj.name == "it"
                    and side.name in R.ITEM_ATTRIBUTES
                    and not any(isinstance(x, ast.Name) and x.name == "it" for x in ast.walk(other))):
                return side.name, self.expr(other)
        return None

    def do_rotate(self, s, kw) -> Step:
        return self.call("rotate", self.zone_index[s.args[0].name], 1 if s.args[1].name == "left" else -1, ME)

    def do_add(self, s, kw) -> Step:
        return self.call("add_counter", s.args[1].name, self.who(kw), self.expr(s.args[0]))

    def do_after_turn(self, s, kw) -> Step:
        body = self.block(s.block.statements)
        return lambda g, f: g.after_turn(body, f)

    def do_each_player(self, s, kw) -> Step:
        body = self.block(s.block.statements)
        if self.numbers_only(body):   # (no frame per seat: `machine.each_seat`)
            return self.call("each_seat", body, ENV)

        def step(g, f):
            for p in reversed(range(g.content.players)):
                g.push(body, p, f.env)
        return step

    def do_repeat(self, s, kw) -> Step:
        count = self.expr(s.args[0])
        body = self.block(s.block.statements)
        # One frame counts the rounds down (each round is a step of the budget), so a large
        # count costs no memory up front and a runaway count meets the budget.
        rounds = self.new_block([], [])

        def round_step(g, f):
            f.pc = 0
            f.stop -= 1
            g.push(body, f.me, f.env)
        self.blocks[rounds] = Block([round_step], [], rounds=True, items=self.blocks[body].items)

        def step(g, f):
            n = count(g, f)
            if n > 0:
                g.repeat(rounds, n, f)
        return step

    def do_if(self, s, kw) -> Step:  # only reached for an `if` compiled alone
        return self.if_step(s, None)

    def do_else(self, s, kw) -> Step:
        return lambda g, f: None

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, e: ast.Expr) -> Fn:
        if isinstance(e, ast.Int):
            v = e.value
            fn = self.written(lambda g, f: v, repr(int(v)))
            fn.value = int(v)   # type: ignore[attr-defined]  (points that are numbers, added up once: `core.item_points`)
            return fn
        if isinstance(e, ast.Str):
            idx = self.item_index[e.value]
            return self.written(lambda g, f: idx, repr(int(idx)))
        if isinstance(e, ast.Name):
            return self.name(e.name)
        if isinstance(e, ast.Attribute):
            base, attr = self.expr(e.obj), e.name
            if isinstance(e.obj, ast.Name) and e.obj.name == "event":
                self.reading("event")
                if attr in EVENT_ITEM_FIELDS:
                    return self.written(lambda g, f: g.event_field(f.env["event"], attr),
                                        f"g.event_field(f.env[{self.constant('event')}], {self.constant(attr)})")
                # (any other field is the event's own, read from it without a call: what
                # `events.event_field` reads, None where the event does not say it)
                return self.written(lambda g, f: f.env["event"].get(attr),
                                    f"f.env[{self.constant('event')}].get({self.constant(attr)})")
            return self.written(lambda g, f: g.item_attr(base(g, f), attr),
                                f"g.item_attr({self.source(base)}, {self.constant(attr)})")
        if isinstance(e, (ast.Not, ast.BinOp)):
            return self.fused(self.operators(e))
        if isinstance(e, ast.ListExpr):
            parts = [self.expr(i) for i in e.items]
            return lambda g, f: [p(g, f) for p in parts]
        if isinstance(e, ast.Alternatives):
            names = e.names
            return lambda g, f: names
        if isinstance(e, ast.Call):
            return getattr(self, f"call_{e.func}")(e)
        raise TypeError(f"cannot compile {type(e).__name__}")

    # -- expressions written as Python source ---------------------------------------------------
    # An expression of operators (`count(hand) == 1 and modifier(play_last_card) == 0`) becomes one
    # function whose body is the whole expression, rather than a closure per operator calling
    # the closures of its operands: the operands that say how they read as source (`written`)
    # are spelled out in it, the others are called.  Nothing of a card's text reaches the source
    # but operators and numbers: names, words and closures are values of the namespace.
    def written(self, fn: Fn, source: str) -> Fn:
        """`fn`, which reads as the Python expression `source` (in `g`, `f` and the namespace)."""
        fn.source = source   # type: ignore[attr-defined]
        return fn

    def source(self, fn: Fn) -> str:
        return getattr(fn, "source", None) or f"{self.constant(fn)}(g, f)"

    def whole(self, fn: Fn) -> Fn:
        """An expression read on its own (a score, an item's points), as one function of its
        source (`fused`): a call of a verb with its arguments written in, where the closure
        would call one closure per argument.  A number stays as it is (its `value` is read)."""
        if hasattr(fn, "value") or hasattr(fn, "names") or getattr(fn, "source", None) is None:
            return fn
        return self.fused(fn.source)

    def constant(self, value: object) -> str:
        name = f"_k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def operators(self, e: ast.Not | ast.BinOp) -> str:
        """The source of an expression of operators, down to its operands.  One that reads
        several of the seat's `modify` amounts and nothing else (a guard adding them up) is
        kept with the seat's stats until an amount changes (`economy.kept_value`)."""
        if not self.keeping and (self.own_modifiers(e) or 0) >= 2:
            self.keeping = True
            try:
                inner = self.fused(self.operators(e))
            finally:
                self.keeping = False
            return self.source(self.written(lambda g, f: g.kept_value(inner, f),
                                            f"g.kept_value({self.constant(inner)}, f)"))
        if isinstance(e, ast.Not):
            return f"(not {self.operand(e.operand)})"
        if e.op in ("and", "or"):
            return f"({self.operand(e.left)} {'and' if e.op == 'and' else 'or'} {self.operand(e.right)})"
        if e.op in ("//", "%") and not (isinstance(e.right, ast.Int) and e.right.value):
            # A division by zero in a card is worth 0, not a crash in the middle of a game.
            left, right, op = self.expr(e.left), self.expr(e.right), ARITH[e.op]
            return self.source(lambda g, f: (lambda b: op(left(g, f), b) if b else 0)(right(g, f)))
        return f"({self.operand(e.left)} {PYTHON_OPS[e.op]} {self.operand(e.right)})"

    def own_modifiers(self, e: ast.Expr) -> int | None:
        """How many of the seat's own `modify` amounts (`modifier(NAME)`) `e` reads, where it
        reads nothing else but numbers; None where it reads anything else."""
        if isinstance(e, ast.Int):
            return 0
        if isinstance(e, ast.Not):
            return self.own_modifiers(e.operand)
        if isinstance(e, ast.BinOp):
            if e.op in ("//", "%"):
                return None
            left, right = self.own_modifiers(e.left), self.own_modifiers(e.right)
            return None if left is None or right is None else left + right
        if isinstance(e, ast.Call) and e.func == "modifier" and not e.kwargs:
            return 1
        return None

    def operand(self, e: ast.Expr) -> str:
        return self.operators(e) if isinstance(e, (ast.Not, ast.BinOp)) else self.source(self.expr(e))

    def call(self, verb: str, *args: object) -> Step:
        """A step calling `g.<verb>(args)`, written as one function from source (`call_source`).
        An item argument that may name no item (`MaybeItem`) is read first: with none, the
        statement does nothing (`discard rider(this)` of a card carrying nothing)."""
        maybe = [a for a in args if isinstance(a, MaybeItem)]
        for k, a in enumerate(maybe):
            a.name = f"_i{k}"
        source = self.call_source(verb, *args)
        if maybe:
            held = " and ".join(f"({a.name} := {self.source(a.fn)}) >= 0" for a in maybe)
            source = f"({held} and {source})"
        step = self.fused(source)
        if verb in NUMBERS_ONLY:
            step.numbers_only = True   # type: ignore[attr-defined]
        elif verb in SCHEDULES_ONLY:
            step.schedules_only = True   # type: ignore[attr-defined]
        return step


    def color_count(self, zone: int, color: str) -> Fn:
        """`count_color`, with the kept tally read where it stands, with no call (a Duel discard
        counts one colour every time); `count_color` makes the tally when first asked (an
        empty one is asked again), and stays the one place that does."""
        c = self.constant(color)
        return self.written(lambda g, f: t.get(color, 0) if (t := g._tally[g.zone_base[zone] + f.me])
                            else g.count_color(zone, f.me, color),
                            f"(_t.get({c}, 0) if (_t := g._tally[g.zone_base[{int(zone)}] + f.me]) "
                            f"else g.count_color({int(zone)}, f.me, {c}))")

    def call_source(self, verb: str, *args: object) -> str:
        """The source of `g.<verb>(args)`: an argument that is a closure reads as its source where
        it has one (`written`) or is called; `Src` is source already; a number or a block index is
        written as a number; any other value (None, a word, a flag) is a constant of the namespace."""
        return f"g.{verb}({', '.join(self.argument(a) for a in args)})"

    def argument(self, value: object) -> str:
        if isinstance(value, Src):
            return str(value)
        if isinstance(value, MaybeItem):
            return value.name
        if callable(value):
            return self.source(value)
        if type(value) is int:
            return repr(value)
        return self.constant(value)

    def fused(self, source: str) -> Fn:
        """The function `lambda g, f: SOURCE`.  Compiling Python costs some 80 microseconds a
        function, and a content writes hundreds that differ only in their values: the source is
        compiled once per shape (its values, `_k3` and numbers, taken out as arguments of a maker
        of such functions), and each function is the maker's, given its values."""
        values: list[object] = []

        def taken(m: re.Match) -> str:
            token = m.group(0)
            values.append(self.namespace[token] if token[0] == "_" else int(token))
            return f"_a{len(values) - 1}"
        shape = VALUES.sub(taken, source)
        make = self.shapes.get(shape)
        if make is None:
            maker: dict[str, object] = {"__builtins__": BUILTINS}
            exec(compile(f"def make({', '.join(f'_a{i}' for i in range(len(values)))}):\n"
                         f"    return lambda g, f: {shape}", "<card expression>", "exec"), maker)
            make = self.shapes[shape] = maker["make"]
        self.sources.append(source)
        fn = self.written(make(*values), source)
        # (the namespace's values its source names: what a reader needs to run the source
        # itself, as the starters do with an action's steps: interpreter/starters.py)
        fn.names = {token: self.namespace[token] for token in VALUES.findall(source) if token[0] == "_"}   # type: ignore[attr-defined]
        return fn

    def name(self, n: str) -> Fn:
        if n == "me":
            return self.written(lambda g, f: f.me, "f.me")
        if n == "opponent":
            # (the seat after `me`, read from the game's table: the other one of two seats, the
            # checker refusing the word in a game of more; no call, where a trade price reads it)
            return self.written(lambda g, f: g.next_seat[f.me], "g.next_seat[f.me]")
        # (`left` and `right` read from the game's tables of next and previous seats, as
        # `opponent` does: no call, where classic's end of an age reads both for every seat)
        if n == "left" and n not in self.bound:
            return self.written(lambda g, f: g.next_seat[f.me], "g.next_seat[f.me]")
        if n == "right" and n not in self.bound:
            return self.written(lambda g, f: g.prev_seat[f.me], "g.prev_seat[f.me]")
        if n == "seat" and n not in self.bound:
            return self.written(lambda g, f: f.me, "f.me")
        if n == "players" and n not in self.bound:
            return self.written(lambda g, f: g.content.players, "g.content.players")
        if n == "coins":
            return self.written(lambda g, f: g.state.coins[f.me], "g.state.coins[f.me]")
        if n == "pawn_distance":
            return self.written(lambda g, f: g.pawn_distance(f.me), "g.pawn_distance(f.me)")
        if n == "distinct_science":
            return self.written(lambda g, f: g.distinct_science(f.me), "g.distinct_science(f.me)")
        if n == "track_points":
            return self.written(lambda g, f: g.track_points(f.me), "g.track_points(f.me)")
        if n in ("true", "false"):
            v = n == "true"
            return self.written(lambda g, f: v, self.constant(v))
        if n == "resource":
            return self.written(lambda g, f: f.env["resource"], f"f.env[{self.constant('resource')}]")
        if n == "age":
            return self.written(lambda g, f: g.state.age + 1, "(g.state.age + 1)")
        if n == "this":
            item = self.current_item
            return self.written(lambda g, f: item, self.argument(item))
        if n in ("it", "space"):
            return self.written(lambda g, f: f.env[n], f"f.env[{self.constant(n)}]")
        if n in self.resources or n in self.colors or n in self.science or n in self.chains:
            return self.written(lambda g, f: n, self.constant(n))
        if (n in self.zone_index or n in self.item_kinds) and n not in self.bound:
            # a word to compare with `event.zone` or `it.kind`
            return self.written(lambda g, f: n, self.constant(n))
        self.reading(n)
        return self.written(lambda g, f: f.env[n], f"f.env[{self.constant(n)}]")   # chosen, event, action parameters

    def aliased_block(self, statements, alias: str | None, items: bool = False) -> int:
        """A choice's body: it gets `chosen` (and `alias`, when given) on entry; `items`: they
        hold an item (not a space)."""
        if alias is None:
            return self.block(statements, ("chosen",), items)
        self.bound.append(alias)
        try:
            return self.block(statements, ("chosen", alias), items)
        finally:
            self.bound.pop()

    def reading(self, name: str) -> None:
        if self.reads:
            self.reads[-1].add(name)

    def call_count(self, e: ast.Call) -> Fn:
        sel = self.selector(e.args[0], e.kwargs)
        if (sel.where is None and sel.named is None and not sel.more_zones and sel.zone >= 0 and sel.owner == "me"
                and sel.colors is None and sel.kind is None and sel.age is None and sel.deck is None):
            zone = sel.zone  # `count(hand)`: the length of one zone slot
            if self.zones[zone].per_player:
                return self.written(lambda g, f: len(g.state.zones[g.zone_base[zone] + f.me]),
                                    f"len(g.state.zones[g.zone_base[{int(zone)}] + f.me])")
            return self.written(lambda g, f: len(g.state.zones[g.zone_base[zone]]),
                                f"len(g.state.zones[g.zone_base[{int(zone)}]])")
        if (sel.where is None and sel.named is None and not sel.more_zones and sel.zone >= 0 and sel.owner == "me"
                and self.zones[sel.zone].per_player and sel.colors is not None
                and sel.kind is None and sel.age is None and sel.deck is None):
            zone, colors = sel.zone, tuple(sorted(sel.colors))  # `count(city, color=yellow)`: a tally
            if len(colors) == 1:
                color = colors[0]
                return self.color_count(zone, color)
            return self.written(lambda g, f: g.count_colors(zone, f.me, colors),
                                self.call_source("count_colors", zone, ME, colors))
        if (sel.where is None and sel.named is None and not sel.more_zones and sel.zone >= 0 and not sel.printed
                and self.zones[sel.zone].per_player and isinstance(sel.owner, str) and sel.owner != "most"):
            zone, word = sel.zone, sel.owner   # `count(built_wonders, owner=all)`: the slots' lengths
            return self.written(lambda g, f: g.count_owned(zone, f.me, word),
                                self.call_source("count_owned", zone, ME, word))
        if sel.where is None and sel.named is None and not callable(sel.owner):
            return self.written(lambda g, f: g.count(sel, f.me), self.call_source("count", sel, ME))
        if (sel.where is None and not sel.more_zones and sel.zone >= 0 and sel.owner == "me" and not sel.printed
                and self.zones[sel.zone].per_player):
            named, zone = sel.named, sel.zone   # `count(city, named=card)`: the seat's own slot, read here
            return self.written(lambda g, f: g.count_name(g.state.zones[g.zone_base[zone] + f.me], named(g, f)),
                                f"g.count_name(g.state.zones[g.zone_base[{int(zone)}] + f.me], {self.source(named)})")
        if sel.where is None and not sel.more_zones and sel.zone >= 0 and not callable(sel.owner):
            named = sel.named  # `count(city, named=card)`: a name compared, no frame to build
            return self.written(lambda g, f: g.count_named(sel, f.me, named(g, f)),
                                self.call_source("count_named", sel, ME, named))
        return self.written(lambda g, f: g.count(sel, f.me, f.env), self.call_source("count", sel, ME, ENV))

    def call_coins(self, e: ast.Call) -> Fn:
        who = self.expr(e.args[0]) if e.args else self.name("me")
        return self.written(lambda g, f: g.state.coins[who(g, f)], f"g.state.coins[{self.source(who)}]")

    def call_max(self, e: ast.Call) -> Fn:
        a, b = self.expr(e.args[0]), self.expr(e.args[1])
        return self.written(lambda g, f: max(a(g, f), b(g, f)), larger(self.source(a), self.source(b)))

    def call_min(self, e: ast.Call) -> Fn:
        a, b = self.expr(e.args[0]), self.expr(e.args[1])
        return self.written(lambda g, f: min(a(g, f), b(g, f)), smaller(self.source(a), self.source(b)))

    def call_either(self, e: ast.Call) -> Fn:
        c, a, b = (self.expr(x) for x in e.args)
        return self.written(lambda g, f: a(g, f) if c(g, f) else b(g, f),
                            f"({self.source(a)} if {self.source(c)} else {self.source(b)})")

    def call_player(self, e: ast.Call) -> Fn:
        if isinstance(e.args[0], ast.Int):   # (a written seat: the checker holds it in range)
            return self.expr(e.args[0])
        index = self.expr(e.args[0])
        return self.written(lambda g, f: g.seat(index(g, f)), f"g.seat({self.source(index)})")

    def call_production(self, e: ast.Call) -> Fn:
        res = self.expr(e.args[0])
        kw = {k.name: k.value for k in e.kwargs}
        colors = self.colorset(kw["color"]) if "color" in kw else None
        o = kw.get("owner")
        if isinstance(o, ast.Name) and o.name in R.MULTI_SEAT_WORDS:
            # Several seats: what they make together.
            word = o.name
            return lambda g, f: sum(g.production(p, res(g, f), colors) for p in g.seats_of(word, f.me))
        if isinstance(e.args[0], ast.Name) and e.args[0].name == "resource":
            # The bank's trade price (`production(resource, ...)`), evaluated most often of all.
            resource, hue = self.constant("resource"), self.constant(colors)
            if o is None:
                return self.written(lambda g, f: g.production(f.me, f.env["resource"], colors),
                                    f"g.production(f.me, f.env[{resource}], {hue})")
            if isinstance(o, ast.Name) and o.name == "opponent":
                return self.written(lambda g, f: g.production(g.next_seat[f.me], f.env["resource"], colors),
                                    f"g.production(g.next_seat[f.me], f.env[{resource}], {hue})")
        owner = (lambda g, f: f.me) if o is None else self.owner_fn(o)
        return lambda g, f: g.production(owner(g, f), res(g, f), colors)

    def owner_fn(self, o: ast.Expr) -> Fn:
        if isinstance(o, ast.Name) and o.name == "opponent":
            return lambda g, f: g.next_seat[f.me]   # (`name`'s opponent)
        return self.expr(o)

    def call_science_count(self, e: ast.Call) -> Fn:
        sym = self.expr(e.args[0])
        return self.written(lambda g, f: g.science_count(f.me, sym(g, f)), f"g.science_count(f.me, {self.source(sym)})")

    def call_lookup(self, e: ast.Call) -> Fn:
        table = self.tables[e.args[0].name]
        index = self.expr(e.args[1])
        last = len(table) - 1
        return self.written(lambda g, f: table[min(max(index(g, f), 0), last)],
                            f"{self.constant(table)}[{smaller(larger(self.source(index), '0'), str(int(last)))}]")

    def call_space(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return self.written(lambda g, f: g.state.positions.get(item(g, f), -1),
                            f"g.state.positions.get({self.source(item)}, -1)")

    def call_first_empty(self, e: ast.Call) -> Fn:
        zone = self.zone_index[e.args[0].name]
        return self.written(lambda g, f: g.first_empty(zone, f.me), f"g.first_empty({int(zone)}, f.me)")

    def call_modifier(self, e: ast.Call) -> Fn:
        name = e.args[0].name
        key = self.constant(name)
        return self.summed(e, lambda g, p: g.modifier(name, p), lambda seat: f"g.modifier({key}, {seat})")

    def summed(self, e: ast.Call, of, written: Callable[[str], str]) -> Fn:
        """`of(g, seat)` for the seat (or the group of seats, added up) the call's `owner=` names;
        `written(seat)`: the source of `of` for a seat given as source."""
        o = next((k.value for k in e.kwargs if k.name == "owner"), None)
        if o is None:   # the reader's own: no seat to work out (guards read it every turn)
            return self.written(lambda g, f: of(g, f.me), written("f.me"))
        if isinstance(o, ast.Name) and o.name in R.MULTI_SEAT_WORDS:
            word = o.name
            return lambda g, f: sum(of(g, p) for p in g.seats_of(word, f.me))
        owner = self.owner_fn(o)
        return self.written(lambda g, f: of(g, owner(g, f)), written(self.source(owner)))

    def call_counter(self, e: ast.Call) -> Fn:
        name = e.args[0].name
        key = self.constant(name)
        return self.summed(e, lambda g, p: g.counter(name, p), lambda seat: f"g.counter({key}, {seat})")

    def call_science_score(self, e: ast.Call) -> Fn:
        bonus = self.expr(e.args[0])
        return self.written(lambda g, f: g.science_score(f.me, bonus(g, f)), f"g.science_score(f.me, {self.source(bonus)})")

    def call_first_in(self, e: ast.Call) -> Fn:
        zone = self.zone_index[e.args[0].name]
        return self.written(lambda g, f: g.first_in(zone, f.me), f"g.first_in({int(zone)}, f.me)")

    def call_host(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return self.written(lambda g, f: g.state.attached.get(item(g, f), -1),
                            f"g.state.attached.get({self.source(item)}, -1)")

    def call_owner(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return self.written(lambda g, f: g.owner_of(item(g, f)), f"g.owner_of({self.source(item)})")

    def call_coins_on(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return self.written(lambda g, f: g.state.item_coins.get(item(g, f), 0),
                            f"g.state.item_coins.get({self.source(item)}, 0)")

    def call_cubes(self, e: ast.Call) -> Fn:
        zone = self.zone_index[e.args[0].name]
        kw = {k.name: k.value for k in e.kwargs}
        space = self.expr(kw["space"]) if "space" in kw else None
        o = kw.get("owner")
        if isinstance(o, ast.Name) and o.name in R.MULTI_SEAT_WORDS:
            word = o.name
            return lambda g, f: sum(g.cubes(zone, p, None if space is None else space(g, f))
                                    for p in g.seats_of(word, f.me))
        owner = self.owner_fn(o) if o is not None else self.name("me")
        return self.written(lambda g, f: g.cubes(zone, owner(g, f), None if space is None else space(g, f)),
                            self.call_source("cubes", zone, owner, space))

    def call_supply(self, e: ast.Call) -> Fn:
        zone = self.zone_index[e.args[0].name]
        return lambda g, f: g.cube_supply(zone, f.me)

    def call_controller(self, e: ast.Call) -> Fn:
        zone, space = self.zone_index[e.args[0].name], self.expr(e.args[1])
        return lambda g, f: g.controller(zone, space(g, f))

    def call_controlled(self, e: ast.Call) -> Fn:
        zone = self.zone_index[e.args[0].name]
        return lambda g, f: sum(1 for c in g.control(zone) if c == f.me)

    def call_controlled_sum(self, e: ast.Call) -> Fn:
        zone, table = self.zone_index[e.args[0].name], self.tables[e.args[1].name]
        return self.written(lambda g, f: g.controlled_sum(zone, table, f.me),
                            f"g.controlled_sum({zone!r}, {self.constant(table)}, f.me)")

    def call_row(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return lambda g, f: g.structure_row(item(g, f))

    def call_rider(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return lambda g, f: next((x for x, h in g.state.attached.items() if h == item(g, f)), -1)

    def call_riders(self, e: ast.Call) -> Fn:
        item = self.expr(e.args[0])
        return self.written(lambda g, f: g.rider_count(item(g, f)), f"g.rider_count({self.source(item)})")

    def call_abs(self, e: ast.Call) -> Fn:
        x = self.expr(e.args[0])
        return self.written(lambda g, f: abs(x(g, f)), f"abs({self.source(x)})")

    def call_option(self, e: ast.Call) -> Fn:
        name = e.args[0].name
        return self.written(lambda g, f: g.has_option(name), f"g.has_option({self.constant(name)})")

    # -- text ------------------------------------------------------------------------------------
    def phrase(self, s: ast.Statement, otherwise: ast.Statement | None = None):
        """A statement's English, written when first read (`model.Block.phrases`); with the
        `else` that follows an `if`, the two as one."""
        if otherwise is None:
            return Phrase(partial(self.describe, s))
        return Phrase(partial(self.describe_with_else, s, otherwise))

    def describe_with_else(self, s: ast.Statement, otherwise: ast.Statement) -> str:
        return f"{self.describe(s)}; {self.describe_after(otherwise)}"

    def describe(self, s: ast.Statement) -> str:
        return english(s, self.block_text, context=self.text_context)

    def describe_after(self, s: ast.Statement) -> str:
        """The text of a statement going on a sentence ("; otherwise, ..."): not capitalized."""
        text = self.describe(s)
        return text[:1].lower() + text[1:]

    def block_text(self, block: ast.Block | None) -> str:
        if block is None:
            return ""
        return "; ".join(english(s, self.block_text, context=self.text_context) for s in block.statements)


def then_next(first: Step, then: Step) -> Step:
    """`first`, then `then`, the frame's next step, as the frame loop would run them.  `then`
    may run the steps after it too (numbers-only steps in a row make a chain): `spans` counts
    the steps the whole runs, which `interpreter.starters` steps over."""
    def step(g, f):
        first(g, f)
        f.pc += 1
        then(g, f)
    step.spans = 1 + getattr(then, "spans", 1)   # type: ignore[attr-defined]
    return step


def label(d: ast.Definition) -> str:
    """How a runtime error names a definition: `procedure `may_move``, `card `Tavern``."""
    return f"{d.kind} `{d.name}`"


def share_pools(actions: list[ActionDef]) -> None:
    """Number the params whose selectors pick the same items (`Param.pool`)."""
    numbers: dict[tuple, int] = {}
    for act in actions:
        for p in act.params:
            sel = p.selector
            if sel.where is None and sel.named is None and not sel.more_zones and isinstance(sel.owner, str):
                key = (sel.zone, sel.owner, sel.colors, sel.kind, sel.age, sel.deck)
                p.pool = numbers.setdefault(key, len(numbers))


def mentions(e: ast.Expr, names: set[str]) -> bool:
    """Whether an expression reads any of these names."""
    if isinstance(e, ast.Name):
        return e.name in names
    if isinstance(e, ast.Attribute):
        return mentions(e.obj, names)
    if isinstance(e, ast.BinOp):
        return mentions(e.left, names) or mentions(e.right, names)
    if isinstance(e, ast.Not):
        return mentions(e.operand, names)
    if isinstance(e, ast.ListExpr):
        return any(mentions(i, names) for i in e.items)
    if isinstance(e, ast.Call):
        return any(mentions(a, names) for a in e.args) or any(mentions(k.value, names) for k in e.kwargs)
    return False


def _zones_of(sel: Selector) -> frozenset[int]:
    """The zones a selector picks from."""
    return frozenset((sel.zone, *sel.more_zones))


def compile_content(merged: Merged, layers: list[str]) -> Content:
    compiler = Compiler(merged, layers)
    content = compiler.compile()
    content.invariants = compile_invariants(compiler, merged)
    return content


def compile_invariants(compiler: Compiler, merged: Merged) -> list:
    """`invariant "Name" { holds COND }` -> (name, condition, span, parts): checked by
    rulesdsl.testing; `parts`, (text, value) of each side its comparisons compare, to say what
    they were where it is false."""
    return [(d.name, compiler.expr(s.args[0]), s.span, _compared(compiler, s.args[0]))
            for d in merged.by_kind("invariant")
            for s in (d.block.statements if d.block else ()) if s.verb == "holds" and s.args]


def _compared(compiler: Compiler, e: ast.Expr) -> list[tuple[str, Fn]]:
    """The sides of the comparisons of a condition (through `and`, `or`, `not`), written numbers
    left out: `count(city, color=yellow) <= 2` -> [("count(city, color=yellow)", its value)]."""
    out: dict[str, Fn] = {}
    todo = [e]
    while todo:
        x = todo.pop(0)
        if isinstance(x, ast.Not):
            todo.append(x.operand)
        elif isinstance(x, ast.BinOp) and x.op in ("and", "or"):
            todo += [x.left, x.right]
        elif isinstance(x, ast.BinOp) and x.op in ("==", "!=", "<", "<=", ">", ">="):
            for side in (x.left, x.right):
                # (a written number says itself; a name is worth showing where it is a number)
                if isinstance(side, ast.Int) or isinstance(side, ast.Name) and R.NAMES.get(side.name) != R.INT:
                    continue
                out.setdefault(unparse(side), compiler.expr(side))
    return list(out.items())
