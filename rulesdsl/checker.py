"""Checks beyond syntax, against the registry and the vocabulary the game declares.

Every problem found is reported; checking never stops at the first one.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter

import attrs

from . import ast
from . import registry as R
from .bounds import below_zero, bounds, least_rounds, least_steps, never_or_always
from .diagnostics import Diagnostic, Span, did_you_mean
from .loader import Merged, bundled_hint, closed_before, stray_hint
from .limits import DEFAULT_MAX_STEPS, MAX_ITEMS, MAX_PLAYERS
from .parser import missing_brace_hint
from .playable import Playable, a, copies_at, expressions, item_start_zone, name_of, statements
from .recursion import check_recursion, check_repeat_counts
from .starved_decks import starved_decks
from .timing import Timing
from .unpayable import unpayable_costs

EVENT_TYPE = "event:"  # the type of `event` inside `when EVENT`: "event:built", ...
# The longest `label=` of a zone or counter: `explain` says a zone's wherever it names the zone, in
# sentences; the play screens put a counter's beside its number.
ZONE_LABEL_MAX = 60
# What a `label=` is for, and the hints for an empty one and for one too long.
LABEL_USE = {
    "zone": ("how `explain` names the zone",
             'write what the zone holds, e.g. label="cards under the wonders", or remove `label=`',
             "a short noun phrase reads best after \"your\" or \"the\", e.g. \"cards under the wonders\""),
    "counter": ("how the play screens name the counter",
                'write what the number counts, e.g. label="victory points", or remove `label=`',
                "a short noun phrase reads best before the number, e.g. \"victory points\""),
}
# Why a verb runs only in some definitions (Verb.contexts), for the hint.
CONTEXT_WHY = {"deal_structure": "a structure is laid out when an age begins, and the age ends when it is empty"}
ZONE_FLAGS = ("player", "active", "public", "private", "majority")
# Verbs that act on the numbered spaces of a zone: `choose_space` needs spaces (or the track's
# pieces), the cube verbs cubes (`counters=`) and spaces; without them they do nothing (E204).
SPACE_VERBS = ("choose_space", "add_cube", "remove_cube", "move_cube")
# Verbs that put items on a space of a zone (`space=`), with the index of their zone argument.
SPACED_PUTS = {"place": 1, "deal": 2}
# The verbs that deal onto the structure, by the position of the zone they deal from.
STRUCTURE_SOURCES = {"deal_structure": 0, "deal_onto_structure": 1}
# Names a pick's `as=` may not take besides those in scope: `it` and `space`, which filters inside
# the block bind to what they test.
ALIAS_TAKEN = ("it", "space")
# Where `move ... at=` and `move_all ... at=` put items; the compiler reads anything but `bottom`
# as the top, so another word (`at=buttom`) would pass silently.
AT_WORDS = ("top", "bottom")
# The numbers that count something (statement, parameter): written negative, E317.  (`points`,
# `modify`, `value`, `add` and the spaces of a track may be negative.)
COUNTS = {("gain", "amount"), ("lose", "amount"), ("pay", "amount"), ("put_coins", "amount"),
          ("shields", "count"), ("choose", "count"), ("deal", "count"), ("repeat", "count"),
          ("take_top", "count"), ("deal_onto_structure", "count"), ("discount", "count"),
          ("chain_price", "coins"), ("cost_coins", "coins"), ("trade_discount", "coins"),
          ("trade_price", "price")}   # (a negative price: the buyer gained, the seller lost coins)
# How an unknown word of each sort is declared (in the game or an `expansion` header), or defined.
DECLARE = {R.RESOURCE: "resources {name}", R.COLOR: "colors {name}", R.SCIENCE: "science {name}",
           R.CHAIN: "chains {name}", R.ZONE: "zone {name}", R.KIND: "item_kinds {name}",
           "table": "table {name} 0 1 2", "counter": "counter {name}", "procedure": "procedure {name} {{ ... }}",
           R.LAYOUT: "layout {name} {{ row up 5 7 }}"}
# The statement or kind of definition that makes a word of each sort (loader.bundled_hint).
BUNDLED_WHAT = {R.RESOURCE: "resources", R.COLOR: "colors", R.SCIENCE: "science", R.CHAIN: "chains",
                R.ZONE: "zone", R.KIND: "item_kinds", R.LAYOUT: "layout"}
# What a parameter's type is called in a message ("`shields` needs a number (count)").
TYPE_NAMES = {R.INT: "number", R.BOOL: "condition", R.PLAYER: "player", R.ITEM: "item", R.ZONE: "zone",
              R.SELECTOR_ZONE: "zone", R.RESOURCE: "resource", R.COLOR: "colour", R.COLORS: "colour",
              R.SCIENCE: "scientific symbol", R.CHAIN: "chain symbol", R.LAYOUT: "layout", R.KIND: "kind",
              R.EVENT: "event", R.WORD: "word", R.TEXT: "quoted text"}
VOCAB_VERBS = {"resources": R.RESOURCE, "colors": R.COLOR, "science": R.SCIENCE, "chains": R.CHAIN}
VOCAB_LABEL = {R.RESOURCE: ("E301", "resource"), R.COLOR: ("E302", "colour"), R.SCIENCE: ("E303", "scientific symbol"),
               R.CHAIN: ("E304", "chain symbol"), R.ZONE: ("E305", "zone"), R.LAYOUT: ("E311", "layout"),
               R.KIND: ("E313", "kind"), "table": ("E314", "table"), "procedure": ("E315", "procedure"),
               "counter": ("E316", "counter")}


@attrs.define
class Vocabulary:
    words: dict[str, set[str]] = attrs.Factory(lambda: {t: set() for t in VOCAB_LABEL})
    zone_flags: dict[str, set[str]] = attrs.Factory(dict)
    items: dict[str, str] = attrs.Factory(dict)  # item name -> kind

    def known(self, type_: str) -> set[str]:
        return self.words.get(type_, set())


def vocabulary(merged: Merged) -> Vocabulary:
    voc = Vocabulary()
    voc.words[R.KIND] = declared_item_kinds(merged)
    for d in merged.definitions:
        if d.kind in voc.words[R.KIND]:
            voc.items[d.name] = d.kind
        if d.kind == "layout":
            voc.words[R.LAYOUT].add(d.name)
        if d.kind == "procedure":
            voc.words["procedure"].add(d.name)
        if d.kind in ("game", "expansion") and d.block:
            for s in d.block.statements:
                if s.verb in VOCAB_VERBS:
                    voc.words[VOCAB_VERBS[s.verb]].update(a.name for a in s.args if isinstance(a, ast.Name))
                if s.verb in ("table", "counter") and s.args and isinstance(s.args[0], ast.Name):
                    voc.words[s.verb].add(s.args[0].name)
                if s.verb == "zone" and s.args and isinstance(s.args[0], ast.Name):
                    voc.words[R.ZONE].add(s.args[0].name)
                    voc.zone_flags[s.args[0].name] = {a.name for a in s.args[1:] if isinstance(a, ast.Name)}
    voc.words[R.SCIENCE].add("any")  # `science any`: a symbol of any kind, chosen when scored
    return voc


def declared_item_kinds(merged: Merged) -> set[str]:
    """Item kinds come from `item_kinds` lines in the game and expansions (default: the base set)."""
    kinds: set[str] = set()
    for d in merged.definitions:
        if d.kind in ("game", "expansion") and d.block:
            for s in d.block.statements:
                if s.verb == "item_kinds":
                    kinds.update(a.name for a in s.args if isinstance(a, ast.Name))
    return kinds or set(R.ITEM_KINDS)


def or_words(e: ast.Expr) -> list[str] | None:
    """The words of `a or b or c` when every operand is a plain word (else None)."""
    if isinstance(e, ast.Name):
        return [e.name]
    if isinstance(e, ast.BinOp) and e.op == "or":
        left, right = or_words(e.left), or_words(e.right)
        if left is not None and right is not None:
            return left + right
    return None


@attrs.define
class Scope:
    """Names an expression may use at one place, with their types."""

    names: dict[str, str]
    kind: str

    def with_(self, **more: str) -> "Scope":
        return Scope({**self.names, **more}, self.kind)


def _sign_help(s: ast.Statement) -> str | None:
    """Where a statement's arguments do not fit, a signed argument after another is the likely
    cause: `gain count(city) -1 coins` is three arguments (a `-` after a space, none after it)."""
    for arg in s.args[1:]:
        if isinstance(arg, ast.Int) and arg.value < 0 or ast.is_negation(arg):
            return "a minus sign with a space before it and none after starts an argument; to subtract, write `a - b`"
    return None


def _per_check(method):
    """A method of no argument whose answer the definitions settle: worked out once per
    `Checker` (they do not change while it runs).  Its callers ask for each statement that
    may need it, and each asking scans every definition: with thousands of cards, a scan per
    statement made a check's time grow with the square of the cards."""
    key = "_" + method.__name__

    @functools.wraps(method)
    def once(self):
        kept = self.__dict__
        if key not in kept:
            kept[key] = method(self)
        return kept[key]
    return once


# What the block of a definition holds, for one written without it (E106).
BODY_HINTS = {
    "age": "add `{ ... }` after the name: an age's block holds its set-up, what is dealt as it begins "
           "(`age 1 { deal 3 deck hand }`, `deal_structure`), and may be empty (`age 1 { }`); "
           "ages run in the order they are defined",
}


class Checker:
    def __init__(self, merged: Merged):
        self.merged = merged
        self.voc = vocabulary(merged)
        self.diags: list[Diagnostic] = []
        self.chain_given: dict[str, Span] = {}
        self.chain_used: dict[str, Span] = {}
        self._zone_numbers: dict[str, dict[str, int] | None] | None = None
        self.stray_lines: set[tuple[str, int]] = set()   # (file, line) of statements outside definitions
        self.under: dict[int, list[ast.Statement]] = {}   # what was meant as a block left unwritten (`meant_bodies`)

    def error(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic("error", code, message, span, help))

    def warning(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic("warning", code, message, span, help))

    # -- definitions -----------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        games = self.merged.by_kind("game")
        if not games and self.merged.definitions:
            first = self.merged.definitions[0]
            self.error("E403", "no `game` definition: a base game folder must define its game",
                       first.kind_span, "start from cards/duel/game.rules, or check an expansion together "
                                        "with its base game: rulesdsl check cards/duel cards/EXPANSION")
        for extra in games[1:]:
            self.error("E403", f"a second `game` definition (`{extra.name}`)", extra.name_span,
                       "a content set has exactly one game; expansions use `expansion NAME { }`")
        self.item_names()
        for d in self.merged.definitions:
            self.definition(d)
        self.duplicates()
        self.chains()
        self.copies_in_range()
        self.items_within_limit()
        self.deck_counts()
        self.diags += unpayable_costs(self.merged, self.voc.known(R.KIND), self.voc.known(R.RESOURCE),
                                      self.player_counts()[-1])
        if not any(d.code == "E401" for d in self.diags):
            # (counted where E401 found each deal's deck big enough: a deck already short is said once)
            self.diags += starved_decks(self.merged, self.voc.known(R.KIND), self.player_counts(), self.timing)
        self.diags += ItemZones(self.merged, self.voc.known(R.KIND), self.voc.items, self.timing).run()
        if not any(d.severity == "error" for d in self.diags):
            # Following runs needs content whose names resolve (E315, E306 are reported first).
            self.diags += check_recursion(self.merged.definitions, self.voc.known(R.KIND))
        self.diags += check_repeat_counts(self.merged.definitions)
        self.repeat_steps()
        return self.diags

    def duplicates(self) -> None:
        """The statements of a second definition of a name (E102, left out of the content) are
        checked as any definition's: a designer fixing the E102 learns of their mistakes in the
        same run.  What they give or ask of chains is not kept: they are not in the content."""
        given, used = dict(self.chain_given), dict(self.chain_used)
        for d in self.merged.duplicates:
            self.definition(d)
        self.chain_given, self.chain_used = given, used

    def repeat_steps(self) -> None:
        """E411 for a `repeat` whose rounds certainly take more steps than an action may
        (rulesdsl/bounds.py: each round is a step, and so is its block's first statement, at the
        least): reported at the innermost such `repeat`, and not where a count inside it is
        reported already (check_repeat_counts: the rounds or picks multiplied)."""
        reported = [d.span for d in self.diags if d.code == "E411"]
        counts = self.player_counts()
        for d in self.merged.definitions:
            for s in statements(d.block):
                if s.verb != "repeat" or not s.args or s.block is None:
                    continue
                steps = least_steps(s, counts)
                if steps <= DEFAULT_MAX_STEPS or any(
                        least_steps(x, counts) > DEFAULT_MAX_STEPS for x in statements(s.block) if x.verb == "repeat"):
                    continue
                if any(span.file == s.span.file and (s.span.line, s.span.column) <= (span.line, span.column)
                       <= (s.span.end_line, s.span.end_column) for span in reported):
                    continue
                rounds = least_rounds(s.args[0], counts)
                self.error("E411", f"`repeat {self.source_text(s.args[0].span) or rounds}` takes at least {steps} "
                                   f"steps ({rounds} rounds of {steps // rounds} steps): more than the "
                                   f"{DEFAULT_MAX_STEPS} steps one action may take", s.args[0].span,
                           "each round is a step, and so is each statement it runs: repeat fewer times, "
                           "or give the amount to the statement (`gain 300 coins`)")

    def item_names(self) -> None:
        """Items are named in actions and traces by name alone, so a name is one item of any kind."""
        seen: dict[str, ast.Definition] = {}
        kinds = self.voc.known(R.KIND)
        for d in self.merged.definitions:
            if d.kind not in kinds:
                continue
            first = seen.setdefault(d.name, d)
            if first is not d and first.kind != d.kind:
                self.error("E102", f"the name `{d.name}` is already used by {first.kind} `{first.name}`", d.name_span,
                           f"item names must be unique across kinds (see {first.name_span.file}:{first.name_span.line}); "
                           f"rename one, e.g. \"{d.name} {d.kind}\"")

    def definition(self, d: ast.Definition) -> None:
        item_kinds = self.voc.known(R.KIND)
        kind = R.KINDS.get(d.kind) or (R.Kind(d.kind) if d.kind in item_kinds else None)
        if kind is None or (d.kind in R.ITEM_KINDS and d.kind not in item_kinds):
            place = (d.kind_span.file, d.kind_span.line)
            if place in self.stray_lines:
                return   # (the other words of a statement outside any definition: reported once)
            if d.kind in R.VERBS and d.modifier is None:
                # `cost 2 wood` after a card's `}`: read as definitions of kinds `cost` and `wood`.
                self.stray_lines.add(place)
                self.error("E101", f"`{d.kind}` stands outside any definition", d.kind_span, self.stray_hint(d))
                return
            known = (set(R.KINDS) - set(R.ITEM_KINDS)) | item_kinds
            self.error("E101", f"unknown kind of definition `{d.kind}`", d.kind_span,
                       bundled_hint("item_kinds", d.kind, merged=self.merged)
                       or did_you_mean(d.kind, known) or f"known kinds: {', '.join(sorted(known))}")
            return
        if not d.name and kind.named:
            self.error("E103", f"this {d.kind} has no name", d.kind_span, f'write {d.kind} "Name" {{ ... }}')
        if d.block is None:
            before = self.closed_before(d)
            # (no more than 40 characters between two backticks or two quotes: a longer run is elided)
            # (a statement of the definition above only where that one may hold it: `age 1` is
            # a card's statement, never a game's)
            verb = R.verb_for(before.kind, d.kind) if before is not None else None
            self.error("E106", f"{d.kind} `{d.name}` has no body", d.name_span,
                       f"add {{ ... }} after the name; or, if it is a statement of {before.kind} \"{before.name}\" "
                       f"above, move it up, before the closing brace at line {before.span.end_line}"
                       if before is not None and verb is not None and self.allowed(verb, before.kind, True)
                       else BODY_HINTS.get(d.kind, "add `{ ... }` after the name"))
            return
        scope = Scope(dict(R.NAMES), d.kind)
        if d.kind == "action":
            scope = self.action_scope(d, scope)
        seen: Counter[str] = Counter()
        self.block(d.block, d, scope, top=True, seen=seen)
        for req in kind.required:
            if not seen[req]:
                self.error("E104", f"{d.kind} `{d.name}` needs `{req}`", d.name_span,
                           self.replaced_line(d, req) or f"add a line: {self.required_line(d, req)}")

    def stray_hint(self, d: ast.Definition) -> str:
        return stray_hint(self.closed_before(d))

    def closed_before(self, d: ast.Definition) -> ast.Definition | None:
        return closed_before(d, self.merged.definitions)

    def replaced_line(self, d: ast.Definition, req: str) -> str | None:
        """For a `replace` that lacks a statement the definition it replaced has: that line, and
        that `replace` gives the whole definition anew (a designer's `replace card "Tavern" {
        gain 5 coins }` was told to add `color brown`, the example, to a yellow card)."""
        original = self.merged.replaced.get((d.kind, d.name))
        had = next((s for s in original.block.statements if s.verb == req), None) \
            if original is not None and original.block else None
        text = self.source_text(had.span) if had is not None else None
        if text is None:
            return None
        return (f"add a line: {text.strip()} (as the {d.kind} it replaces has: `replace` gives the whole "
                f"definition anew; `extend` adds statements to it)")

    def required_line(self, d: ast.Definition, req: str) -> str:
        """The line a definition lacks: written from a misspelt statement of the definition that
        is surely it (`colour purpel`: `color purple`, the words nearest to the declared ones),
        or the statement's example."""
        verb = R.VERBS[req]
        for s in d.block.statements if d.block else ():
            if R.verb_for(d.kind, s.verb) is not None or did_you_mean(s.verb, [req]) is None or not s.args:
                continue
            words = []
            for p, arg in zip(verb.params, s.args):
                text = self.source_text(arg.span)
                if text is None:
                    break
                if isinstance(arg, ast.Name) and p.type in VOCAB_LABEL and arg.name not in self.voc.known(p.type):
                    near = difflib.get_close_matches(arg.name, sorted(self.voc.known(p.type)), n=1, cutoff=0.6)
                    text = near[0] if near else text
                words.append(text)
            else:
                if len(words) == len(s.args):
                    return f"{req} {' '.join(words)}"
        return verb.example

    def source_text(self, span: Span) -> str | None:
        """The text of a span on one line of a file read, or None."""
        source = self.merged.sources.get(span.file)
        if source is None or span.line != span.end_line:
            return None
        lines = source.split("\n")
        if not 1 <= span.line <= len(lines):
            return None
        return lines[span.line - 1][span.column - 1:span.end_column - 1] or None

    def action_scope(self, d: ast.Definition, scope: Scope) -> Scope:
        params = {}
        for s in d.block.statements:
            if s.verb == "param" and s.args and isinstance(s.args[0], ast.Name):
                if s.args[0].name in params:
                    # Both would be bound, to different items, and the action read only one of them.
                    self.error("E206", f"parameter `{s.args[0].name}` is given twice in action `{d.name}`",
                               s.args[0].span, "give each `param` its own name, or remove one")
                params[s.args[0].name] = R.ITEM
        self.params_read_apart(d, set(params))
        return scope.with_(**params)

    def params_read_apart(self, d: ast.Definition, params: set[str]) -> None:
        """E307 for a parameter's `owner=`, `where=` or `named=` reading another parameter: each
        parameter's candidates are listed on their own, before any is bound (read there, the
        other one had no value: the engine failed with a KeyError)."""
        for s in d.block.statements:
            if s.verb != "param" or not s.args or not isinstance(s.args[0], ast.Name):
                continue
            others = params - {s.args[0].name}
            for k in s.kwargs:
                if k.name not in ("owner", "where", "named"):
                    continue
                read = next((x for x in ast.walk(k.value) if isinstance(x, ast.Name) and x.name in others), None)
                if read is not None:
                    self.error("E307", f"`{k.name}=` of parameter `{s.args[0].name}` reads parameter `{read.name}`: "
                                       "each parameter's candidates are listed on their own", read.span,
                               f"compare them in a `require` of the action, e.g. `require "
                               f"{s.args[0].name}.color == {read.name}.color`")

    # -- statements ------------------------------------------------------------------------------
    def block(self, block: ast.Block, d: ast.Definition, scope: Scope, top: bool,
              seen: Counter[str] | None = None, parent: str | None = None) -> None:
        previous: ast.Statement | None = None
        options: set[str] = set()
        meant = self.meant_bodies(block, d.kind)
        for s in block.statements:
            if id(s) in meant:
                continue   # (meant as the block of a statement written without one: said once, there)
            if parent == "choose_one" and s.verb != "option":
                # (the compiler reads the options of a `choose_one` and nothing else: ignored in play)
                self.error("E202", f"`{s.verb}` cannot stand in a `choose_one`: only its `option NAME {{ ... }}` blocks",
                           s.verb_span, "put the statement inside an option, or before the `choose_one`")
                previous = s
                continue
            if s.verb == "option" and parent == "choose_one" and s.args and isinstance(s.args[0], ast.Name):
                if s.args[0].name in options:   # (both offered, the first run for either)
                    self.error("E206", f"option `{s.args[0].name}` is given twice in this `choose_one`",
                               s.args[0].span, "give each option a name of its own")
                options.add(s.args[0].name)
            self.statement(s, d, scope, top, seen, previous, parent)
            previous = s

    def said_by_parser(self, code: str, span: Span) -> bool:
        """Whether the parser gave `code` where `span` begins (E205 for a block whose `{` is
        missing, found where its `}` closed the definition: `parser._blocks_left_open`)."""
        return any(d.code == code and (d.span.file, d.span.line, d.span.column) == (span.file, span.line, span.column)
                   for d in self.merged.diagnostics)

    def meant_bodies(self, block: ast.Block, kind: str) -> set[int]:
        """The statements of `block` written on the lines under a statement that needs a block and
        has none (`setup` without `{`), indented past it: meant as its block, they are not the
        mistake (each was E202 "cannot be used in a game"), and are checked once it is written.
        Kept in `self.under` for that statement's E205."""
        out: set[int] = set()
        statements = block.statements
        for i, s in enumerate(statements):
            verb = R.verb_for(kind, s.verb)
            if verb is None or verb.block != "required" or s.block is not None or id(s) in out:
                continue
            under = []
            for x in statements[i + 1:]:
                if x.span.file != s.span.file or x.span.line <= s.span.end_line or x.span.column <= s.span.column:
                    break
                under.append(x)
            if under:
                self.under[id(s)] = under
                out |= {id(x) for x in under}
        return out

    def missing_braces(self, s: ast.Statement) -> str | None:
        """E205's hint for a statement written without its `{`, with the lines meant as its block
        (`meant_bodies`)."""
        under = self.under.get(id(s))
        if not under:
            return None
        return missing_brace_hint(s.verb, under[0].span.line, max(x.span.end_line for x in under), None)

    def statement(self, s: ast.Statement, d: ast.Definition, scope: Scope, top: bool,
                  seen: Counter[str] | None, previous: ast.Statement | None, parent: str | None = None) -> None:
        verb = R.verb_for(d.kind, s.verb)
        if verb is None:
            self.error("E201", f"unknown statement `{s.verb}`", s.verb_span,
                       did_you_mean(s.verb, R.VERBS) or "see docs/language.md for the statements")
            return
        if s.verb == "option" and parent != "choose_one":
            self.error("E202", "`option` stands only in a `choose_one` block", s.verb_span,
                       "e.g. choose_one { option coins { gain 3 coins } option shields { shields 1 } }")
            return
        if not self.allowed(verb, d.kind, top):
            where = f"in {a(d.kind)}" if top else "inside an effect block"
            self.error("E202", f"`{s.verb}` cannot be used {where}", s.verb_span,
                       self.instead(s, verb, d.kind, top) or self.placement_hint(verb, d.kind, top))
            return
        if verb.contexts and d.kind not in verb.contexts:
            self.error("E202", f"`{s.verb}` cannot run in {a(d.kind)}", s.verb_span,
                       f"`{s.verb}` only works in {' or '.join(a(k) for k in verb.contexts)} "
                       f"definition: " + CONTEXT_WHY.get(s.verb, "see docs/language.md"))
            return
        if seen is not None:
            seen[s.verb] += 1
            if seen[s.verb] == 2 and not verb.repeatable:
                first = next((x for x in d.block.statements if x.verb == s.verb), None) if d.block else None
                extended = first is not None and first is not s and first.span.file != s.span.file
                # (one of them in another file: an `extend` adds to what is there, and the other
                # may be in a file the designer does not edit)
                self.error("E206", f"`{s.verb}` is given twice in {d.kind} `{d.name}`", s.verb_span,
                           f"`extend` adds statements to the {d.kind}, which has `{s.verb}` already "
                           f"({first.span.file}:{first.span.line}): to change it, `replace` the {d.kind}"
                           if extended else "keep one of them")
        if s.verb == "part_of" and s.args and not isinstance(s.args[0], ast.Str):
            # (read when the content is compiled: the item it belongs to, by name)
            self.error("E309", "`part_of` names the item in quotes", s.args[0].span, 'e.g. part_of "Petra (Day)"')
            return
        if s.verb == "else" and (previous is None or previous.verb != "if"):
            self.error("E312", "`else` must follow an `if` block", s.verb_span, "put it right after the `if { }`")
        self.arguments(s, verb, d, scope)
        self.onto_itself(s, d)
        if verb.block == "required" and s.block is None and not self.said_by_parser("E205", s.span):
            self.error("E205", f"`{s.verb}` needs a block `{{ ... }}`", s.span,
                       self.missing_braces(s) or f"e.g. {verb.example}")
        elif verb.block == "none" and s.block is not None:
            self.error("E205", f"`{s.verb}` takes no block", s.block.span, "remove the `{ ... }`")
        if s.block is not None and verb.block != "none":
            inner = scope
            if s.verb in ("choose", "choose_player", "choose_space"):
                chosen = {"choose": R.ITEM, "choose_player": R.PLAYER, "choose_space": R.INT}[s.verb]
                inner = scope.with_(chosen=chosen)
                for k in s.kwargs:
                    if k.name == "as" and "as" in verb.kwarg_types and isinstance(k.value, ast.Name) \
                            and self.new_name(k.value, scope):
                        inner = inner.with_(**{k.value.name: chosen})
            elif s.verb == "when":
                # The type names the event, so `event.X` is checked against what it carries.
                event = s.args[0].name if s.args and isinstance(s.args[0], ast.Name) else "?"
                inner = scope.with_(event=EVENT_TYPE + event)
            self.block(s.block, d, inner, top=False, parent=s.verb)

    def onto_itself(self, s: ast.Statement, d: ast.Definition) -> None:
        """E204 for `move ITEM ZONE onto=ITEM` naming one item twice: the engine attaches it to
        itself, and a game saved then cannot be loaded."""
        onto = next((k for k in s.kwargs if k.name == "onto"), None)
        if s.verb != "move" or onto is None or not s.args:
            return
        own = d.name if d.kind in self.voc.known(R.KIND) else None

        def item(e: ast.Expr) -> str | None:
            if isinstance(e, ast.Str):
                return '"' + e.value + '"'
            if isinstance(e, ast.Name):
                return f'"{own}"' if e.name == "this" and own is not None else e.name
            return None
        moved = item(s.args[0])
        if moved is not None and moved == item(onto.value):
            text = self.source_text(onto.value.span) or moved
            self.error("E204", f"`onto={text}` attaches the item moved to itself", onto.span,
                       "an item is attached to another one (a card tucked under a wonder): name a different item")

    def new_name(self, alias: ast.Name, scope: Scope) -> bool:
        """Whether `as=NAME` gives the pick a name of its own; E204 where the name is taken: the
        block would read one of two values under it (`chosen` is the pick's already)."""
        name = alias.name
        if name == "chosen":
            self.error("E204", "`as=chosen` gives the pick the name it already has", alias.span,
                       "the pick is `chosen` inside the block anyway: leave out `as=`, or give it a new name, "
                       "e.g. `as=picked`")
            return False
        if name in scope.names or name in ALIAS_TAKEN:
            self.error("E204", f"`as={name}`: `{name}` already means something here", alias.span,
                       f"name the pick with a new word, e.g. `as=picked`; `{name}` is "
                       + (R.NAME_DOCS.get(name) or ("an action's parameter or a pick around this one"
                                                      if name in scope.names else "what a `where=` filter binds")))
            return False
        return True

    def allowed(self, verb: R.Verb, kind: str, top: bool) -> bool:
        if not top:
            return verb.role == R.EFFECT
        if verb.role == R.EFFECT:
            return kind in self.voc.known(R.KIND) or kind in ("age", "action", "procedure")
        if verb.role == R.TRIGGER:
            return kind in self.voc.known(R.KIND) or kind == "rule"
        if verb.role == R.ACTION_PART:
            return kind == "action"
        if verb.role == R.LAYOUT_PART:
            return kind == "layout"
        if verb.role == R.GAME:
            return kind in verb.kinds
        if verb.role == R.PROPERTY:
            return kind in verb.kinds if verb.kinds else kind in self.voc.known(R.KIND)
        if verb.role == R.INVARIANT_PART:
            return kind == "invariant"
        return False

    def instead(self, s: ast.Statement, verb: R.Verb, kind: str, top: bool) -> str | None:
        """Where a statement cannot stand, the statement that does its job there, if one does:
        an action, an age or a block takes coins with `pay`, not `cost`; a player picks with
        `choose` outside an action's `param`; effects run under `if`, not `require`."""
        # (effects run here: in a block, or at the top of an action, age, procedure or item)
        runs = not top or kind in ("action", "age", "procedure") or kind in self.voc.known(R.KIND)
        if s.verb == "cost":
            coins = self.coins_only(s)
            if runs and coins and kind in self.voc.known(R.KIND):
                return ("an item's cost stands at the top level of its definition; to take coins when this "
                        f"block runs, write `pay {coins}`")
            if runs and coins:
                when = "when the action is taken (it is legal only if the player can pay)" if kind == "action" \
                    else "when this runs"
                what = "an action has no cost" if kind == "action" and top else "`cost` is an item's price"
                return f"{what}: `pay {coins}` takes the coins {when}"
            if kind == "action":
                return ("an action has no cost: `pay N coins` takes coins (only coins); `build card` without "
                        "`free` makes the player pay the card's own `cost`")
            if kind == "rule" and top:
                return ("a rule holds only `when` triggers; a `pay N coins` inside one takes coins when it fires"
                        if coins else "a rule holds only `when` triggers: only items (card, wonder, ...) have a cost")
            return None
        # (hints hold no more than 40 characters between two backticks: a longer run is elided)
        if s.verb == "require" and runs:
            return ("in an action, `require` makes it legal only while a condition holds; here, "
                    "if CONDITION { ... } runs effects only while it holds")
        if s.verb == "param" and runs:
            zone = self.source_text(s.args[-1].span) if len(s.args) >= 3 else None
            return (f"an action's `param` is what its player picks; here a player picks with "
                    f"choose 1 from {zone or 'ZONE'} {{ ... chosen ... }}")
        if verb.role == R.EFFECT and top:
            if kind == "rule":
                text = self.source_text(s.span)
                text = text if text and len(text) <= 20 else f"{s.verb} ..."
                return f"a rule runs effects from its triggers: put it in one, e.g. `when built by=me {{ {text} }}`"
            if kind in ("game", "expansion"):
                blocks = "`setup { ... }`" if kind == "expansion" else \
                    "`setup { ... }`, `between_ages { ... }`, `end_of_age { ... }` or `end_of_game { ... }`"
                return f"in {a(kind)}, effects run from {blocks}"
        return None

    def coins_only(self, s: ast.Statement) -> str | None:
        """`1 coin` of `cost 1 coin`: the amount of a cost of coins alone, as written."""
        if len(s.args) == 2 and isinstance(s.args[0], ast.Int) and isinstance(s.args[1], ast.Name) \
                and s.args[1].name in ("coin", "coins"):
            return f"{s.args[0].value} {s.args[1].name}"
        if len(s.args) == 1 and isinstance(s.args[0], ast.Name) and s.args[0].name in ("coin", "coins"):
            return "1 coin"
        return None

    def placement_hint(self, verb: R.Verb, kind: str, top: bool) -> str:
        if verb.role == R.PROPERTY:
            owners = " or ".join(verb.kinds) if verb.kinds else f"an item ({', '.join(sorted(self.voc.known(R.KIND)))})"
            if not top and self.allowed(verb, kind, True):
                return f"`{verb.name}` describes the {kind} itself: put it at the top level of its definition, " \
                       "outside this block"
            return f"`{verb.name}` describes {a(owners) if verb.kinds else owners}, not {a(kind)}" + \
                ("" if top else ", and is no effect")
        if verb.role == R.GAME:
            return f"`{verb.name}` belongs in {' or '.join(a(k) for k in verb.kinds)} definition"
        if verb.role == R.ACTION_PART:
            return f"`{verb.name}` belongs at the top of an `action`"
        if verb.role == R.TRIGGER:
            return "`when` stands at the top level of an item or a rule"
        if verb.role == R.INVARIANT_PART:
            return f"`{verb.name}` belongs in an `invariant` definition: invariant \"Name\" {{ {verb.example} }}"
        return "effects stand in items, ages, actions and blocks"

    def arguments(self, s: ast.Statement, verb: R.Verb, d: ast.Definition, scope: Scope) -> None:
        args = list(s.args)
        params = list(verb.params)
        compared = self.single_equals(s, verb, args, params)
        params = self.missing_before_word(s, args, params)
        i = 0
        for p in params:
            if p.type in (R.AMOUNTS, R.WORDS, R.INTS):
                rest, args[i:] = args[i:], []
                self.variadic(p, rest, s, d, scope)
                break
            if p.type == R.PRODUCTS:
                rest, args[i:] = args[i:], []
                self.products(rest, s)
                break
            if i >= len(args):
                if p.optional or p.type == R.BOOL and compared:
                    break
                self.error("E203", f"`{s.verb}` needs {self.describe(p)}", s.span, f"e.g. {verb.example}")
                break
            arg = args[i]
            if p.literal:
                if isinstance(arg, ast.Name) and arg.name in p.literal:
                    i += 1
                    continue
                if p.optional:
                    continue
                words = " or ".join(f"`{w}`" for w in p.literal if w not in ("coin",))  # (`coins` says it)
                self.error("E203", f"`{s.verb}` expects {words} here", arg.span,
                           _sign_help(s) or (isinstance(arg, ast.Name) and did_you_mean(arg.name, p.literal))
                           or f"e.g. {verb.example}")
                i += 1
                continue
            self.typed(arg, p.type, scope, s)
            if (s.verb, p.name) in COUNTS:
                self.not_negative(arg, s)
                self.may_be_negative(arg, s, p)
            i += 1
        if i < len(args) and args[i:]:
            extra = args[i]
            self.error("E203", f"`{s.verb}` takes {self.arity(verb)}; this is one too many", extra.span,
                       _sign_help(s) or f"e.g. {verb.example}")
        kwtypes = verb.kwarg_types
        given = {kw.name for kw in s.kwargs}
        for need in verb.needs:
            if not given & set(need):
                self.error("E204", f"`{s.verb}` needs the option {' or '.join(f'`{n}=`' for n in need)}", s.span,
                           f"e.g. {verb.example}")
        fixed = verb.role in (R.PROPERTY, R.GAME, R.LAYOUT_PART) and not verb.evaluated
        if fixed:
            # Read once when the content is compiled: an expression there cannot be evaluated.
            for p, arg in zip(params, s.args):
                if p.type == R.INT and not isinstance(arg, ast.Int):
                    self.error("E309", f"`{s.verb}` needs a number written out here, not an expression",
                               arg.span, f"e.g. {verb.example}")
        given: set[str] = set()
        for kw in s.kwargs:
            if kw.name in compared:
                continue
            if kw.name in given:   # (the last one won, silently)
                self.error("E206", f"`{kw.name}=` is given twice in this `{s.verb}`", kw.span, "keep one of them")
                continue
            given.add(kw.name)
            if kw.name in kwtypes and kwtypes[kw.name] == R.BOOL and kw.name not in ("where", "if") \
                    and not (isinstance(kw.value, ast.Name) and kw.value.name in ("true", "false")):
                # A flag of the statement, fixed when the content is compiled.
                self.error("E309", f"`{kw.name}=` takes `true` or `false`", kw.value.span, f"{kw.name}=true")
                continue
            if (fixed or (kw.name, R.INT) in R.FILTER_KWARGS) and kw.name in kwtypes and kwtypes[kw.name] == R.INT \
                    and not isinstance(kw.value, ast.Int):
                self.error("E309", f"`{kw.name}=` needs a number written out here, not an expression",
                           kw.value.span, f"e.g. {verb.example}")
                continue
            if s.verb == "when" and kw.name == "by" \
                    and not (isinstance(kw.value, ast.Name) and kw.value.name in R.TRIGGER_BY_WORDS):
                self.error("E309", "`by=` of a trigger names whose event it is: `me`, `opponent`, `others`, "
                                   "`left`, `right`, `neighbours` or `any`",
                           kw.value.span, (isinstance(kw.value, ast.Name) and did_you_mean(kw.value.name, R.TRIGGER_BY_WORDS))
                           or "e.g. when built by=me { ... }")
                continue
            if kw.name == "where" and kw.name in kwtypes:
                self.expect(kw.value, R.BOOL, scope.with_(it=R.ITEM, space=R.INT))
                continue
            if kw.name in ("as", "at") and kw.name in kwtypes:
                if not isinstance(kw.value, ast.Name):
                    self.error("E309", "expected a plain word here", kw.value.span,
                               "`at=` takes `top` or `bottom`" if kw.name == "at" else
                               "name the pick with a plain word: `as=picked`")
                elif kw.name == "at" and kw.value.name not in AT_WORDS:
                    self.error("E204", f"`at={kw.value.name}`: an item goes on the `top` or at the `bottom` of a zone",
                               kw.value.span, did_you_mean(kw.value.name, AT_WORDS)
                               or "`at=` takes `top` (the default) or `bottom`")
                continue
            if kw.name not in kwtypes:
                self.error("E204", f"`{s.verb}` has no option `{kw.name}`", kw.span,
                           did_you_mean(kw.name, kwtypes) or (f"options: {', '.join(kwtypes)}" if kwtypes else
                                                              f"`{s.verb}` takes no options"))
                continue
            self.typed(kw.value, kwtypes[kw.name], scope, s)
            if s.verb in ("zone", "counter") and kw.name == "label" and isinstance(kw.value, ast.Str):
                self.label_text(kw.value, s.verb)
        if s.verb == "when" and s.args and isinstance(s.args[0], ast.Name) and s.args[0].name in R.EVENTS:
            event = R.EVENTS[s.args[0].name]
            fields = event.field_types
            self.never_set_off(s, event.name)
            for kw in s.kwargs:
                if kw.name in R.EVENT_FILTERS and kw.name not in fields:
                    filters = [f for f in R.EVENT_FILTERS if f in fields]
                    self.error("E204", f"event `{event.name}` has no `{kw.name}` to filter on", kw.span,
                               f"`{event.name}` filters on: {', '.join(['by'] + filters)}")
                elif kw.name == "via" and isinstance(kw.value, ast.Name) and kw.value.name not in R.VIAS:
                    # (a word no build carries: the trigger would never be set off)
                    self.error("E204", f"`via={kw.value.name}`: an item is built `paid`, through a `chain` or `free`",
                               kw.value.span, did_you_mean(kw.value.name, R.VIAS) or f"via= takes: {', '.join(R.VIAS)}")
                elif kw.name == "zone" and isinstance(kw.value, ast.Name) and kw.value.name in self.voc.known(R.ZONE):
                    cube_zones = self.cube_zones()
                    if kw.value.name not in cube_zones:
                        self.error("E204", f"zone `{kw.value.name}` holds no cubes: `{event.name}` never happens there",
                                   kw.value.span, did_you_mean(kw.value.name, cube_zones)
                                   or (f"zones with cubes: {', '.join(sorted(cube_zones))}" if cube_zones
                                       else "cube zones are declared with `counters=N`"))
        if s.verb in ("param", "choose") and len(s.args) >= 3:
            zone = s.args[-1]
            if isinstance(zone, ast.Name) and zone.name == "structure" and any(k.name == "owner" for k in s.kwargs):
                self.error("E204", "the structure has no owner", zone.span, "remove `owner=`")
        if s.verb in SPACE_VERBS and s.args and isinstance(s.args[0], ast.Name) \
                and s.args[0].name in self.voc.known(R.ZONE):
            self.zone_has_spaces(s, s.args[0])
        if s.verb == "rotate" and s.args and isinstance(s.args[0], ast.Name):
            self.zone_per_seat(s.args[0])
        source = STRUCTURE_SOURCES.get(s.verb)
        if source is not None and len(s.args) > source and isinstance(s.args[source], ast.Name):
            self.zone_of_the_game(s, s.args[source])
        target = SPACED_PUTS.get(s.verb)
        if target is not None and len(s.args) > target and isinstance(s.args[target], ast.Name) \
                and s.args[target].name in self.voc.known(R.ZONE):
            space = next((k.value for k in s.kwargs if k.name == "space"), None)
            if space is not None:
                self.space_of_zone(s, s.args[target], space)

    def label_text(self, label: ast.Str, verb: str) -> None:
        """E204 for a `label=` that cannot name its zone in `explain`, or its counter on the play
        screens: empty, or longer than ZONE_LABEL_MAX.  (A quoted text is one line of printable
        characters already: a newline ends it unterminated, E004, and a control character is E010.)"""
        text = label.value
        use, empty_hint, long_hint = LABEL_USE[verb]
        if not text.strip():
            self.error("E204", f"`label=` is empty: it is {use}", label.span, empty_hint)
        elif text != text.strip() or "  " in text:
            self.error("E204", "`label=` has spaces at its ends or two spaces in a row", label.span,
                       f'write it with single spaces: label="{" ".join(text.split())}"')
        elif len(text) > ZONE_LABEL_MAX:
            self.error("E204", f"`label=` is {len(text)} characters long; a {verb}'s label has at most "
                               f"{ZONE_LABEL_MAX}", label.span, long_hint)

    def zone_per_seat(self, zone: ast.Name) -> None:
        """E204 for `rotate` on a zone that is not a `player` zone: the engine turns the run of
        per-seat slots starting at that zone, so on a shared zone it moves the items of the zones
        declared after it, or fails when there are too few."""
        flags = self.voc.zone_flags.get(zone.name)
        if flags is None or "player" in flags:
            return   # (an unknown zone: E305 there)
        seated = sorted(z for z, f in self.voc.zone_flags.items() if "player" in f)
        self.error("E204", f"zone `{zone.name}` is not a `player` zone: `rotate` has no seats' items to pass "
                           "there", zone.span,
                   "`rotate` passes every seat's items of a `player` zone to a neighbour"
                   + (f"; `player` zones: {', '.join(seated)}" if seated
                      else f"; declare it `zone {zone.name} player ...`"))

    def zone_of_the_game(self, s: ast.Statement, zone: ast.Name) -> None:
        """E204 for dealing the structure (or items onto its cards) from a `player` zone: the
        structure is the whole game's, and no seat is the one whose zone it would be dealt
        from (the engine read the first seat's)."""
        flags = self.voc.zone_flags.get(zone.name)
        if flags is None or "player" not in flags:
            return   # (an unknown zone: E305 there)
        shared = sorted(z for z, f in self.voc.zone_flags.items() if "player" not in f)
        self.error("E204", f"zone `{zone.name}` is a `player` zone: `{s.verb}` deals onto the structure, which is "
                           f"the whole game's, and no seat's `{zone.name}` is the one to deal from", zone.span,
                   "deal the structure from a zone of the whole game (a deck)"
                   + (f"; such zones: {', '.join(shared)}" if shared else ""))

    def zone_has_spaces(self, s: ast.Statement, zone: ast.Name) -> None:
        """E204 for `choose_space` on a zone with no spaces (nothing is offered: its block never runs),
        and a cube verb on a zone with no cubes or no spaces to put them on (it does nothing)."""
        numbers = self.zone_numbers()
        have = numbers.get(zone.name)
        if have is None:
            return   # (a count written as an expression: E309 there)
        if s.verb == "choose_space":
            if have["spaces"] or zone.name in self.track_zones():
                return
            spaced = sorted({z for z, n in numbers.items() if n and n["spaces"]} | self.track_zones())
            self.error("E204", f"zone `{zone.name}` has no spaces: `choose_space` offers nothing there and its "
                               "block never runs", zone.span,
                       did_you_mean(zone.name, spaced)
                       or "a zone's spaces are declared with `spaces=N`"
                       + (f"; zones with spaces: {', '.join(spaced)}" if spaced else ""))
            return
        if not have["counters"]:
            cube_zones = self.cube_zones()
            self.error("E204", f"zone `{zone.name}` holds no cubes: `{s.verb}` does nothing there", zone.span,
                       did_you_mean(zone.name, cube_zones)
                       or (f"zones with cubes: {', '.join(sorted(cube_zones))}" if cube_zones
                           else "cube zones are declared with `counters=N` (and `spaces=N`)"))
        elif not have["spaces"]:
            self.error("E204", f"zone `{zone.name}` has no spaces to put cubes on: `{s.verb}` does nothing there",
                       zone.span, f"give the zone spaces: `zone {zone.name} ... spaces=N`")

    def space_of_zone(self, s: ast.Statement, zone: ast.Name, space: object) -> None:
        """E204 for a `place`/`deal` onto a space a zone does not have: one without spaces (not
        the track's), or a number written out beyond its spaces.  The item would lie on a space
        no `choose_space` offers, and a choice among face-down items would name it by a place
        the game does not number (an RL environment had no action for it)."""
        have = self.zone_numbers().get(zone.name)
        if have is None or zone.name in self.track_zones():
            return   # (a count written as an expression: E309 there; the track's spaces are its positions)
        spaces = have["spaces"]
        if not spaces:
            spaced = sorted({z for z, n in self.zone_numbers().items() if n and n["spaces"]} | self.track_zones())
            self.error("E204", f"zone `{zone.name}` has no spaces: `{s.verb} ... space=` puts items on a space "
                               "it does not have", zone.span,
                       f"give the zone spaces (`zone {zone.name} ... spaces=N`), or leave `space=` out"
                       + (f"; zones with spaces: {', '.join(spaced)}" if spaced else ""))
        elif isinstance(space, ast.Int) and not 0 <= space.value < spaces:
            self.error("E204", f"zone `{zone.name}` has spaces 0 to {spaces - 1}, not {space.value}", space.span,
                       f"a space of `{zone.name}` is a number from 0 to {spaces - 1}")

    def zone_numbers(self) -> dict[str, dict[str, int] | None]:
        """Each zone's `spaces=` and `counters=` (0 when not given); None for a zone where one is
        not a number written out."""
        if self._zone_numbers is None:
            out: dict[str, dict[str, int] | None] = {}
            for d in self.merged.definitions:
                if d.kind not in ("game", "expansion") or not d.block:
                    continue
                for s in d.block.statements:
                    if s.verb != "zone" or not s.args or not isinstance(s.args[0], ast.Name):
                        continue
                    kw = {k.name: k.value for k in s.kwargs if k.name in ("spaces", "counters")}
                    if any(not isinstance(v, ast.Int) for v in kw.values()):
                        out[s.args[0].name] = None
                    else:
                        out[s.args[0].name] = {n: max(0, kw[n].value) if n in kw else 0
                                               for n in ("spaces", "counters")}
            self._zone_numbers = out
        return self._zone_numbers

    @_per_check
    def track_zones(self) -> set[str]:
        """The zones a `track` keeps its pieces in: their spaces are the track's positions."""
        return {s.args[0].name for d in self.merged.by_kind("track") if d.block for s in d.block.statements
                if s.verb == "pieces" and s.args and isinstance(s.args[0], ast.Name)}

    def never_set_off(self, s: ast.Statement, event: str) -> None:
        """W509 for a `when` whose event this game cannot produce: an item of a kind with no
        `build_zone` built or acquired, a cube or control event where no zone holds cubes."""
        if event in ("control_gained", "control_lost", "cube_added") and not self.cube_zones() \
                and not any(k.name == "zone" for k in s.kwargs):   # (`zone=`: E204 says it of that zone)
            self.warning("W509", f"no zone of this game holds cubes: `{event}` never happens", s.args[0].span,
                         "cube zones are declared with `counters=N`; or wait for another event")
        elif event in ("built", "acquired"):
            kind = next((k.value for k in s.kwargs if k.name == "kind" and isinstance(k.value, ast.Name)), None)
            kinds = self.built_kinds()
            if kind is not None and kind.name in self.voc.known(R.KIND) and kind.name not in kinds:
                self.warning("W509", f"no {kind.name} is ever {event} in this game: its kind has no `build_zone`",
                             kind.span, f"items that come into play: {', '.join(sorted(kinds)) or 'none'}")

    @_per_check
    def built_kinds(self) -> set[str]:
        """The item kinds a `build_zone` lets come into play (built or acquired)."""
        return {name_of(s.args[0]) for d in self.merged.definitions if d.kind in ("game", "expansion") and d.block
                for s in d.block.statements if s.verb == "build_zone" and s.args and name_of(s.args[0])}

    @_per_check
    def cube_zones(self) -> set[str]:
        """Zones declared with `counters=`: the only ones zone events happen in."""
        return {s.args[0].name for d in self.merged.definitions if d.kind in ("game", "expansion") and d.block
                for s in d.block.statements if s.verb == "zone" and s.args and isinstance(s.args[0], ast.Name)
                and any(k.name == "counters" for k in s.kwargs)}

    def single_equals(self, s: ast.Statement, verb: R.Verb, args: list[ast.Expr], params: list[R.Param]) -> set[str]:
        """`if coins = 3`: a single `=` makes `coins` an option of `if`, which then has no
        condition.  Said once, as the comparison it surely is; the names of such options."""
        at = next((k for k, p in enumerate(params) if p.type == R.BOOL), None)
        if at is None or len(args) > at:
            return set()
        kw = next((k for k in s.kwargs if k.name not in verb.kwarg_types), None)
        if kw is None:
            return set()
        value = self.source_text(kw.value.span) or "..."
        self.error("E204", f"`{kw.name} = {value}` is no comparison: one `=` names an option", kw.span,
                   f"to compare, write `{kw.name} == {value}`")
        return {kw.name}

    def missing_before_word(self, s: ast.Statement, args: list[ast.Expr], params: list[R.Param]) -> list[R.Param]:
        """`choose from discard`: the fixed word `from` comes where the count should, so the
        count is missing (not `from` an unknown name, nor `discard` a misplaced word).  Said
        once; the parameters to check the arguments against, without the missing ones."""
        for k, p in enumerate(params):
            if p.type in (R.AMOUNTS, R.WORDS, R.INTS, R.PRODUCTS):
                break
            if not p.literal or p.optional:
                continue
            j = next((j for j, arg in enumerate(args[:k]) if isinstance(arg, ast.Name) and arg.name in p.literal), None)
            if j is None or any(q.optional for q in params[j:k]):
                return params
            word, missing = args[j], params[j:k]
            rest = self.source_text(Span(word.span.file, word.span.line, word.span.column,
                                         args[-1].span.end_line, args[-1].span.end_column))
            fill = " ".join(("2" if word.name == "coins" else "1") if q.type == R.INT else q.name.upper()
                            for q in missing)
            self.error("E203", f"`{s.verb}` needs {self.describe(missing[0])} before `{word.name}`", word.span,
                       f"write the {missing[0].name} first: `{s.verb} {fill} {rest}`" if rest
                       else f"e.g. {R.VERBS[s.verb].example}")
            return params[:j] + params[k:]
        return params

    @staticmethod
    def describe(p: R.Param) -> str:
        if p.literal:
            return f"`{p.literal[0]}`"
        name = TYPE_NAMES.get(p.type, p.type.replace("_", " "))
        return a(name) if name == p.name else f"{a(name)} ({p.name})"

    @staticmethod
    def arity(verb: R.Verb) -> str:
        n = len(verb.params)
        return "no arguments" if n == 0 else f"{n} argument{'s' if n > 1 else ''}"

    def zone_flags_agree(self, flags: dict[str, ast.Name]) -> None:
        # (what lies in an active zone works for the seat that owns it: the engine keeps each
        # seat's stats, prices and offers from its own slots, and a zone of all the seats is no
        # seat's)
        if "active" in flags and "player" not in flags:
            self.error("E204", "an `active` zone must be a `player` zone: what lies in it works for its "
                       "owner, and a zone of all the players has none", flags["active"].span,
                       "add `player`, or leave out `active`")

    def variadic(self, p: R.Param, args: list[ast.Expr], s: ast.Statement, d: ast.Definition, scope: Scope) -> None:
        if p.type == R.INTS:
            for a in args:
                if not isinstance(a, ast.Int):
                    self.error("E309", f"`{s.verb}` expects numbers here", a.span, f"e.g. {R.VERBS.get(s.verb, p).example if s.verb in R.VERBS else ''}")
            if not args:
                self.error("E203", f"`{s.verb}` needs at least one number", s.span, self.numbers_hint(s))
            if s.verb == "row":
                cols = [a.value for a in args if isinstance(a, ast.Int)]
                if cols != sorted(set(cols)) or any(b - a < 2 for a, b in zip(cols, cols[1:])):
                    self.error("E402", "the columns of a row must increase by 2 or more (cards may not overlap)",
                               s.span, "e.g. row up 3 5 7 9")
            return
        if p.type == R.WORDS:
            for a in args:
                if not isinstance(a, ast.Name):
                    self.error("E309", f"`{s.verb}` expects plain words here", a.span)
                elif s.verb == "zone" and a.name not in ZONE_FLAGS:   # (`args`: the flags, after the name)
                    self.error("E204", f"unknown zone flag `{a.name}`", a.span,
                               did_you_mean(a.name, ZONE_FLAGS) or "flags: " + ", ".join(ZONE_FLAGS))
                elif p.name == "resources":  # trade_price, trade_discount
                    self.vocab(a, R.RESOURCE)
            if not args and s.verb != "zone":
                self.error("E203", f"`{s.verb}` needs at least one word", s.span)
            if s.verb == "zone":
                self.zone_flags_agree({a.name: a for a in args if isinstance(a, ast.Name)})
            return
        # amounts: [count] word ...
        # (`cost` and `produce` read amounts alike: each hint is written with the statement's verb)
        example = f"e.g. `{s.verb} 2 wood`"
        expect_word = False
        for a in args:
            if isinstance(a, ast.Int):
                self.not_negative(a, s)
                if expect_word:
                    self.error("E309", "a count must be followed by what it counts", a.span, example)
                expect_word = True
            elif isinstance(a, ast.Name):
                expect_word = False
                if a.name in ("coin", "coins"):
                    continue
                self.vocab(a, R.RESOURCE, extra=("coins",))
            elif (words := or_words(a)) is not None:
                # `produce wood or clay`: a designer's way of saying one of several resources.
                expect_word = False
                if s.verb == "produce":
                    self.error("E309", "`or` cannot join resources here", a.span,
                               f"one of several resources is written with `|`: produce {'|'.join(words)}")
                else:
                    self.error("E309", f"`or` cannot join resources in `{s.verb}`", a.span,
                               f"`{s.verb}` lists everything it takes, e.g. `{s.verb} 2 coins wood`; "
                               "`or` joins conditions")
            else:
                listed = "cost 2 coins wood 2 stone" if s.verb == "cost" else f"{s.verb} 2 wood stone"
                self.error("E309", f"`{s.verb}` lists counts and resources", a.span, f"e.g. `{listed}`")
        if expect_word and args:
            count, before = args[-1], args[-2] if len(args) > 1 else None
            # (`produce wood 3`: the count written after its resource, as a designer may say it)
            hint = (f"a count comes before what it counts: `{s.verb} {count.value} {before.name}`"
                    if isinstance(before, ast.Name) and isinstance(count, ast.Int) else example)
            self.error("E203", f"a count at the end of `{s.verb}` counts nothing", count.span, hint)

    def numbers_hint(self, s: ast.Statement) -> str:
        """The help for a statement of numbers written without any (`table bonus`, `row up`)."""
        if s.verb == "table":
            name = name_of(s.args[0]) if s.args else None
            return f"list the numbers after the name, read with lookup(): `table {name or 'bonus'} 0 5 12 21`"
        if s.verb == "row":
            face = name_of(s.args[0]) if s.args else None
            return f"list the half-card columns of the row's cards: `row {face if face in ('up', 'down') else 'up'} 5 7`"
        return f"e.g. {R.VERBS[s.verb].example}" if s.verb in R.VERBS else "list the numbers"

    def not_negative(self, e: ast.Expr, s: ast.Statement) -> None:
        """E317 for a count written negative (`gain -2 coins`); a computed one is the game's."""
        if isinstance(e, ast.Int) and e.value < 0:
            hint = {"gain": "lose", "lose": "gain"}.get(s.verb)
            self.error("E317", f"`{s.verb}` counts, and {e.value} is negative", e.span,
                       f"write `{hint} {-e.value} ...` instead" if hint else
                       f"write a count of 0 or more (`{s.verb} {-e.value} ...`)")

    def may_be_negative(self, e: ast.Expr, s: ast.Statement, p: R.Param) -> None:
        """W508 for a computed count that can fall below 0 (`gain count(city) - 10 coins`): the
        engine takes it as 0, which the expression does not say.  Judged by its range
        (rulesdsl/bounds.py) where it subtracts, or has a negative number: a range unknown
        otherwise (`modifier(...)`, `event.amount`) is left alone."""
        if s.verb not in R.CLAMPED:
            return
        may, lowest = below_zero(e, self.player_counts())
        if not may:
            return
        low = f" (as low as {lowest})" if lowest is not None else ""
        text = self.source_text(e.span) or "..."
        self.warning("W508", f"the {p.name} of `{s.verb}` can be below 0{low}", e.span,
                     f"{a(p.name)} below 0 counts as 0: it then {R.CLAMPED[s.verb]}; if that is meant, "
                     f"write `max(0, {text})`, else rewrite it")

    def settled_comparison(self, e: ast.BinOp) -> None:
        """W510 for an ordered comparison that the ranges of its sides settle at every player
        count (`pawn_distance > 20` on a track of capital 9: never true)."""
        if isinstance(e.left, ast.Int) and isinstance(e.right, ast.Int):
            return   # (written numbers: the designer's own constant)
        if self.in_holds(e.span):
            return   # (an invariant is meant always true: `holds coins >= 0` checks the engine)
        names = self.named_ranges()
        verdicts = {never_or_always(e.op, bounds(e.left, n, names), bounds(e.right, n, names))
                    for n in self.player_counts()}
        if len(verdicts) != 1 or None in verdicts:
            return
        always = verdicts.pop()
        ranges = [f"`{self.source_text(x.span)}` " + (f"lies between {lo} and {hi}" if lo is not None and hi is not None
                                                       else f"is {lo} or more" if lo is not None else f"is at most {hi}")
                  for x in (e.left, e.right) if not isinstance(x, ast.Int)
                  for lo, hi in [bounds(x, self.player_counts()[0], names)] if lo is not None or hi is not None]
        self.warning("W510", f"`{self.source_text(e.span) or '...'}` is {'always' if always else 'never'} true here",
                     e.span, ("; ".join(ranges) or "its sides' ranges settle it")
                     + (": what it guards always happens" if always else ": what it guards never happens"))

    def in_holds(self, span: Span) -> bool:
        """Whether `span` lies in an invariant's `holds`."""
        where = (span.line, span.column)
        for st in self.holds():
            if st.span.file == span.file and (st.span.line, st.span.column) <= where <= (st.span.end_line, st.span.end_column):
                return True
        return False

    @_per_check
    def holds(self) -> list[ast.Statement]:
        """The invariants' `holds` statements."""
        return [st for d in self.merged.by_kind("invariant") for st in (d.block.statements if d.block else ())
                if st.verb == "holds"]

    @_per_check
    def named_ranges(self) -> dict:
        """Ranges the content gives names: `pawn_distance` between its track's capitals, `age`
        from 0 (before the first) to its number of ages."""
        out = {"age": (0, len(self.merged.by_kind("age")))}
        capital = next((s.args[0].value for d in self.merged.by_kind("track") if d.block
                        for s in d.block.statements
                        if s.verb == "capital" and s.args and isinstance(s.args[0], ast.Int)), None)
        if capital is not None:
            out["pawn_distance"] = (-capital, capital)
        return out

    @_per_check
    def timing(self) -> Timing:
        """When each statement can run (timing.py): asked for only where order matters."""
        return Timing(self.merged)

    @_per_check
    def player_counts(self) -> range:
        """The player counts the game supports (`players N [M]`)."""
        declared = [s for d in self.merged.definitions if d.kind in ("game", "expansion") and d.block
                    for s in d.block.statements if s.verb == "players" and s.args
                    and all(isinstance(x, ast.Int) for x in s.args)]
        if not declared:
            return range(R.MIN_PLAYERS, R.MIN_PLAYERS + 1)
        low, high = declared[-1].args[0].value, declared[-1].args[-1].value
        # (no more than the engine seats: a count above it is E404, and every count is weighed here)
        return range(max(min(low, MAX_PLAYERS), 1), min(max(low, high, 1), MAX_PLAYERS) + 1)

    def products(self, args: list[ast.Expr], s: ast.Statement) -> None:
        if not args:
            self.error("E203", "`produce` needs a resource", s.span, "e.g. produce wood")
            return
        if len(args) == 1 and isinstance(args[0], ast.Alternatives):
            for name, span in zip(args[0].names, self.word_spans(args[0])):
                self.vocab(ast.Name(name, span), R.RESOURCE)
            return
        self.variadic(R.Param("amounts", R.AMOUNTS), args, s, None, None)

    def word_spans(self, alt: ast.Alternatives) -> list[Span]:
        """Each word of `clay|stone` where it stands (a diagnostic's caret under `ston`, not under
        the whole `clay|ston`), or the whole span for each where the text cannot be read."""
        text = self.source_text(alt.span)
        if text is None or text.replace(" ", "").split("|") != list(alt.names):
            return [alt.span] * len(alt.names)
        spans, at = [], 0
        for name in alt.names:
            at = text.index(name, at)
            column = alt.span.column + at
            spans.append(Span(alt.span.file, alt.span.line, column, alt.span.line, column + len(name)))
            at += len(name)
        return spans

    # -- expressions -------------------------------------------------------------------------------
    def vocab(self, node: ast.Expr, type_: str, extra: tuple[str, ...] = ()) -> None:
        code, label = VOCAB_LABEL[type_]
        if isinstance(node, ast.Name):
            known = self.voc.known(type_)
            if type_ == R.ZONE and node.name in ("structure", "structure_all"):
                # (only where a selector picks items, `param`, `choose`, `count`..., is the structure a zone)
                self.error(code, f"`{node.name}` is no {label} here: only `param`, `choose` and counts pick from it", node.span,
                           "the structure's cards are picked with `param`/`choose ... from structure` and leave it "
                           "when built, discarded or moved")
                return
            if node.name not in known:
                declare = DECLARE.get(type_, "").format(name=node.name)
                declare = (f"define it: `{declare}`" if type_ in ("procedure", R.LAYOUT) else
                           f"declare it in the game or an `expansion` header: `{declare}`" if declare else "")
                self.error(code, f"unknown {label} `{node.name}`", node.span,
                           bundled_hint(BUNDLED_WHAT.get(type_, type_), node.name, merged=self.merged)
                           or did_you_mean(node.name, set(known) | set(extra))
                           or (f"known: {', '.join(sorted(known))}" + (f"; or {declare}" if declare else "")
                               if known else declare or None))
        elif or_words(node) is not None:
            self.error("E309", f"expected one {label} here, found `or`", node.span,
                       f"`or` joins conditions; name one {label} here")
        else:
            self.error("E309", f"expected {a(label)} here", node.span, self.plain_word_hint(node, None, label))

    def typed(self, e: ast.Expr, type_: str, scope: Scope, s: ast.Statement) -> None:
        if type_ in (R.RESOURCE, R.COLOR, R.SCIENCE, R.CHAIN, R.ZONE, R.LAYOUT, R.KIND):
            if type_ in (R.RESOURCE, R.SCIENCE) and or_words(e) is None:
                got = self.expr(e, scope)  # e.g. event.symbol
                if got not in ("word", "any", None):
                    self.error("E309", f"expected {a(VOCAB_LABEL[type_][1])}, found {self.article(got)}", e.span,
                               "e.g. event.symbol in `when gained_science`" if type_ == R.SCIENCE else None)
                return
            if type_ == R.RESOURCE and isinstance(e, ast.Name) and e.name == "resource" and scope.kind == "game":
                return
            self.vocab(e, type_)
            # An unknown symbol is already an error (E304); do not warn about it as well.
            if type_ == R.CHAIN and isinstance(e, ast.Name) and s is not None and e.name in self.voc.known(R.CHAIN):
                (self.chain_given if s.verb == "chain_gives" else self.chain_used).setdefault(e.name, e.span)
            return
        if type_ == R.COLORS:
            if isinstance(e, ast.ListExpr):
                for item in e.items:
                    self.vocab(item, R.COLOR)
            else:
                self.vocab(e, R.COLOR)
            return
        if type_ == R.SELECTOR_ZONE:
            for z in (e.items if isinstance(e, ast.ListExpr) else (e,)):  # one zone or a list of zones
                if not (isinstance(z, ast.Name) and z.name in ("structure", "structure_all")):
                    self.vocab(z, R.ZONE)
            return
        if type_ in ("owner", R.SEATS):
            words = R.OWNER_WORDS if type_ == "owner" else R.SUMMED_OWNER_WORDS
            if isinstance(e, ast.Name) and e.name in words:
                return
            if isinstance(e, ast.Name) and e.name in R.OWNER_WORDS:
                self.error("E309", f"`owner={e.name}` cannot be added up here", e.span,
                           "name a seat or a group of seats: " + ", ".join(R.SUMMED_OWNER_WORDS + ("left", "right")))
                return
            if isinstance(e, ast.Name) and self.seat_typo(e, words, scope):
                return
            self.expect(e, R.PLAYER, scope)
            return
        if type_ == R.EVENT:
            if not isinstance(e, ast.Name) or e.name not in R.EVENTS:
                name = e.name if isinstance(e, ast.Name) else "?"
                self.error("E310", f"unknown event `{name}`", e.span,
                           did_you_mean(name, R.EVENTS) or f"events: {', '.join(R.EVENTS)}")
            return
        if type_ == R.WORD:
            if not isinstance(e, ast.Name):
                self.error("E309", "expected a plain word here", e.span, self.plain_word_hint(e, s))
            return
        if type_ == R.TEXT:
            if not isinstance(e, ast.Str):
                self.error("E309", 'expected quoted text here, e.g. "7 Wonders Duel"', e.span,
                           f'text is written in quotes: "{e.name.replace("_", " ")}"' if isinstance(e, ast.Name)
                           else "text is written in quotes, on one line")
            return
        if type_ in ("table", "counter"):
            self.vocab(e, type_)
            return
        if type_ == "side":
            if not (isinstance(e, ast.Name) and e.name in ("left", "right", "neighbours")):
                self.error("E309", "expected a side: left, right or neighbours", e.span,
                           (isinstance(e, ast.Name) and did_you_mean(e.name, ("left", "right", "neighbours")))
                           or "`from=left` lowers the price of what the left neighbour sells")
            return
        if type_ == "procedure":
            self.vocab(e, "procedure")
            return
        if type_ == "list":
            if not isinstance(e, ast.ListExpr) or not all(isinstance(i, ast.Int) for i in e.items):
                self.error("E309", "expected a list of numbers, e.g. [2, 4, 9]", e.span)
            return
        self.expect(e, type_, scope)

    @staticmethod
    def plain_word_hint(e: ast.Expr, s: ast.Statement | None, label: str | None = None) -> str | None:
        """The help for a quoted name where a plain word is meant (`zone "secret stash"`): items
        have quoted names; the words a game declares, and the names of layouts and procedures,
        are plain, as expressions read them."""
        if not isinstance(e, ast.Str):
            return None
        word = re.sub(r"\W+", "_", e.value.strip()).strip("_") or "name"
        if not (word[0].isalpha() or word[0] == "_"):
            word = "_" + word
        if label is None and s is not None and s.verb in ("zone", "table", "counter"):
            label = s.verb
        what = f"{label} names are" if label else "this name is"
        return f"{what} plain words of letters, digits and `_`, not quoted: `{word}`"

    def seat_typo(self, e: ast.Name, words: tuple[str, ...], scope: Scope) -> bool:
        """E307 for a name that is no seat where seat words are taken (`owner=neighbors`), with
        the nearest of those words or of the players in scope; False for a name that is known."""
        if e.name in scope.names or any(e.name in self.voc.known(t) for t in VOCAB_LABEL):
            return False
        seats = [*words, *(n for n, t in scope.names.items() if t == R.PLAYER)]
        self.error("E307", f"unknown name `{e.name}`", e.span,
                   did_you_mean(e.name, seats) or "seats here: " + ", ".join(dict.fromkeys(seats)))
        return True

    def expect(self, e: ast.Expr, type_: str, scope: Scope) -> None:
        got = self.expr(e, scope)
        if got in ("any", None) or type_ == "any" or got == type_:
            return
        self.error("E309", f"expected {self.article(type_)}, found {self.article(got)}", e.span,
                   self.type_hint(type_))

    @staticmethod
    def article(t: str) -> str:
        if t.startswith(EVENT_TYPE):
            return "an event"
        return {R.INT: "a number", R.BOOL: "a condition", R.PLAYER: "a player", R.ITEM: "an item",
                "word": "a word", "text": "text", "list": "a list"}.get(t) or a(TYPE_NAMES.get(t, t))

    @staticmethod
    def type_hint(t: str) -> str | None:
        return {R.INT: "e.g. 3, or count(city, color=red)", R.PLAYER: "me, left, right, chosen, or player(0)",
                R.ITEM: 'chosen, an action parameter, or a quoted item name', R.BOOL: "e.g. coins >= 3"}.get(t)

    def expr(self, e: ast.Expr, scope: Scope) -> str | None:
        if isinstance(e, ast.Int):
            return R.INT
        if isinstance(e, ast.Str):
            if e.value not in self.voc.items:
                self.error("E306", f"no item is named \"{e.value}\"", e.span,
                           bundled_hint("item", e.value, merged=self.merged) or did_you_mean(e.value, self.voc.items)
                           or "item names are exact, capitals and spaces included: `rulesdsl list` shows them")
            return R.ITEM
        if isinstance(e, ast.Name):
            if e.name in scope.names:
                return scope.names[e.name]
            if e.name == "resource" and scope.kind == "game":
                return R.RESOURCE
            known = set(scope.names) | {n for t in (R.RESOURCE, R.COLOR, R.SCIENCE) for n in self.voc.known(t)}
            if any(e.name in self.voc.known(t) for t in (R.RESOURCE, R.COLOR, R.SCIENCE, R.CHAIN, R.ZONE, R.KIND)):
                return "word"
            if e.name in R.OWNER_WORDS:
                # `others`, `neighbours`, `all`...: several seats (or a rule), where one player is meant.
                self.error("E309", f"`{e.name}` names several players; one player is needed here", e.span,
                           "name one seat: me, left, right, player(K), chosen; `owner=` of a count and "
                           "`by=` of a trigger take several")
                return None
            self.error("E307", f"unknown name `{e.name}`", e.span,
                       did_you_mean(e.name, known) or "names here: " + ", ".join(sorted(scope.names)))
            return None
        if isinstance(e, ast.Attribute):
            return self.attribute(e, scope)
        if isinstance(e, ast.Alternatives):
            return "word"
        if isinstance(e, ast.ListExpr):
            for item in e.items:
                self.expr(item, scope)
            return "list"
        if isinstance(e, ast.Not):
            self.expect(e.operand, R.BOOL, scope)
            return R.BOOL
        if isinstance(e, ast.BinOp):
            if e.op in ("and", "or"):
                self.expect(e.left, R.BOOL, scope)
                self.expect(e.right, R.BOOL, scope)
                return R.BOOL
            if e.op in ("==", "!="):
                self.expr(e.left, scope)
                self.expr(e.right, scope)
                return R.BOOL
            self.expect(e.left, R.INT, scope)
            self.expect(e.right, R.INT, scope)
            if e.op in ("<", "<=", ">", ">="):
                self.settled_comparison(e)
                return R.BOOL
            return R.INT
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        return None

    def attribute(self, e: ast.Attribute, scope: Scope) -> str | None:
        """`event.X` against the fields of the trigger's event, `ITEM.X` against what items have."""
        base = self.expr(e.obj, scope)
        # The caret goes under the field's name, the part that is wrong.
        field = Span(e.span.file, e.span.end_line, max(1, e.span.end_column - len(e.name)),
                     e.span.end_line, e.span.end_column)
        if base is not None and base.startswith(EVENT_TYPE):
            event = R.EVENTS.get(base[len(EVENT_TYPE):])
            if event is None:
                return "any"  # an unknown event is reported at the `when` (E310)
            types = event.field_types
            if e.name not in types:
                self.error("E307", f"event `{event.name}` has no field `{e.name}`", field,
                           did_you_mean(e.name, types) or f"`{event.name}` carries: {', '.join(types)}")
                return None
            return types[e.name]
        if base == R.ITEM:
            if e.name not in R.ITEM_ATTRIBUTES:
                self.error("E307", f"an item has no attribute `{e.name}`", field,
                           did_you_mean(e.name, R.ITEM_ATTRIBUTES)
                           or f"items have: {', '.join(R.ITEM_ATTRIBUTES)}")
                return None
            return R.ITEM_ATTRIBUTES[e.name]
        if base is not None and base != "any":
            self.error("E307", f"`.{e.name}` can only follow an item or `event`, not {self.article(base)}", e.span,
                       "e.g. chosen.color, event.item")
        return None

    def call(self, e: ast.Call, scope: Scope) -> str | None:
        f = R.FUNCTIONS.get(e.func)
        if f is None:
            self.error("E308", f"unknown function `{e.func}`", e.span,
                       did_you_mean(e.func, R.FUNCTIONS) or f"functions: {', '.join(R.FUNCTIONS)}")
            return None
        low = len(f.params) if f.min_args is None else f.min_args
        if not low <= len(e.args) <= len(f.params):
            want = f"{len(f.params)}" if low == len(f.params) else f"{low} to {len(f.params)}"
            self.error("E203", f"`{e.func}` takes {want} argument{'s' if len(f.params) != 1 else ''}, "
                               f"not {len(e.args)}", e.span, f"e.g. {f.example}")
        for (pname, ptype), arg in zip(f.params, e.args):
            if ptype == R.WORD:
                if not isinstance(arg, ast.Name):
                    self.error("E309", f"`{e.func}` needs a plain word here ({pname})", arg.span, f"e.g. {f.example}")
                continue
            if ptype in (R.INT, R.BOOL, R.PLAYER, "any"):
                self.expect(arg, ptype, scope)
            else:
                self.typed(arg, ptype, scope, None)
        kw = dict(f.kwargs)
        for k in e.kwargs:
            if k.name == "where" and "where" in kw:
                self.expect(k.value, R.BOOL, scope.with_(it=R.ITEM))
                continue
            if k.name not in kw:
                self.error("E204", f"`{e.func}` has no option `{k.name}`", k.span,
                           did_you_mean(k.name, kw) or (f"options: {', '.join(kw)}" if kw else None))
                continue
            if (k.name, kw[k.name]) in R.FILTER_KWARGS and kw[k.name] == R.INT and not isinstance(k.value, ast.Int):
                # A filter is compiled once (Selector): an expression there cannot be evaluated.
                self.error("E309", f"`{k.name}=` needs a number written out here, not an expression", k.value.span,
                           f"e.g. {f.example}")
                continue
            self.typed(k.value, kw[k.name], scope, None)
            if k.name == "owner" and e.args and isinstance(e.args[0], ast.Name) \
                    and e.args[0].name in ("structure", "structure_all"):
                # (as in `param` and `choose`: counted, it was silently every card of the structure)
                self.error("E204", "the structure has no owner", k.span, "remove `owner=`")
        if e.func == "either" and len(e.args) == 3:
            return self.expr(e.args[1], scope)
        return f.returns

    # -- whole-content checks ------------------------------------------------------------------------
    def chains(self) -> None:
        for sym, span in self.chain_given.items():
            if sym not in self.chain_used:
                self.warning("W501", f"chain symbol `{sym}` is given but no card is free with it", span,
                             f"add `chain_from {sym}` to the card it should lead to")
        for sym, span in self.chain_used.items():
            if sym not in self.chain_given:
                gave = self.removed_where(lambda old: any(
                    st.verb == "chain_gives" and any(isinstance(a, ast.Name) and a.name == sym for a in st.args)
                    for st in (old.block.statements if old.block else ())))
                self.warning("W502", f"no card gives chain symbol `{sym}`", span,
                             f"add `chain_gives {sym}` to the card that should lead here"
                             + (f" ({gave} the card that gave it)" if gave else ""))

    def removed_where(self, test) -> str:
        """"`remove card "X"` at FILE:LINE removed" for the removals of definitions `test` accepts
        (a diagnostic in the base game that a designer's `remove` caused says so), or ""."""
        found = [(r, old) for r, old in self.merged.removed if test(old)]
        if not found:
            return ""
        r, old = found[-1]
        more = f" (and {len(found) - 1} more removal(s))" if len(found) > 1 else ""
        return f"`remove {old.kind} \"{old.name}\"` at {r.name_span.file}:{r.name_span.line} removed{more}"

    def copies_in_range(self) -> None:
        """W511 for a `copies` number above the game's most players (a copy no game holds), or
        below the game's fewest (`copies 0`, or `copies 2` in a game of 3 to 7: a count of
        copies written where the player counts were meant, or a copy in every game said oddly;
        `explain` read "player counts and up: 0")."""
        counts = self.player_counts()
        fewest, most = counts[0], counts[-1]
        for d in self.merged.definitions:
            for s in d.block.statements if d.block else ():
                if s.verb != "copies":
                    continue
                for a in s.args:
                    if isinstance(a, ast.Int) and a.value < fewest:
                        self.warning("W511", f"a copy from {a.value} players: no game has fewer than "
                                             f"{fewest}, so every game holds it", a.span,
                                     "`copies` lists the fewest players for each copy (`copies 3 5`: one from 3 "
                                     f"players, a second from 5); a copy in every game is from {fewest}")
                    elif isinstance(a, ast.Int) and a.value > most:
                        self.warning("W511", f"a copy from {a.value} players: this game has at most {most}, so "
                                             "no game holds it", a.span,
                                     "`copies` lists the fewest players for each copy (`copies 3 5`: one from 3 "
                                     "players, a second from 5), not how many copies there are")

    def items_within_limit(self) -> None:
        """E412 at the item whose copies take the game past `MAX_ITEMS` items at its most
        players (every copy is an item compiled, dealt and kept in each game)."""
        most = self.player_counts()[-1]
        kinds = self.voc.known(R.KIND)
        held = 0
        for d in self.merged.definitions:
            if d.kind not in kinds or not d.block:
                continue
            held += copies_at(d, most)
            if held > MAX_ITEMS:
                span = next((s.span for s in d.block.statements if s.verb == "copies"), d.name_span)
                self.error("E412", f"the game holds more than {MAX_ITEMS} items at {most} players "
                                   f"(copies counted): the limit is reached at {d.kind} `{d.name}`",
                           span, "give fewer copies, or fewer items: a card's copies are one per player "
                                 "count that uses them (`copies 3 5`), not a stock of tokens")
                return

    def deck_counts(self) -> None:
        """Follow the cards through the ages: each `deal_structure` must find enough cards for its
        layout, each `deal` enough cards to draw (E401).  A zone that something outside the ages
        fills (a setup `move`, an effect's `deal`, a build) is left alone: its count is not known here."""
        start: Counter[str] = Counter()
        start_zone = {}
        unknown: set[str] = set()
        for g in self.merged.by_kind("game") + self.merged.by_kind("expansion"):
            for s in g.block.statements if g.block else ():
                if s.verb == "start_zone" and len(s.args) == 2 and all(isinstance(a, ast.Name) for a in s.args):
                    start_zone[s.args[0].name] = s.args[1].name
                if s.verb in ("build_zone", "discard_pile") and s.args and isinstance(s.args[-1], ast.Name):
                    unknown.add(s.args[-1].name)
        for d in self.merged.definitions:
            if d.kind != "age" and d.block:
                unknown |= filled_zones(d.block)
        # (each item's copies at the most players: a deal short even then is short at every count;
        # one short at fewer players only is `check`'s trial games' E409, said with that count)
        most = self.player_counts()[-1]
        for d in self.merged.definitions:
            if d.kind in self.voc.known(R.KIND) and d.block:
                zone = item_start_zone(d, start_zone)
                if zone:
                    start[zone] += copies_at(d, most)
        slots = {}
        for lay in self.merged.by_kind("layout"):
            slots[lay.name] = sum(max(0, len(s.args) - 1) for s in (lay.block.statements if lay.block else ())
                                  if s.verb == "row")
        counts = Counter(start)
        for age in self.merged.by_kind("age"):
            statements = list(age.block.statements) if age.block else []
            # As the compiler does: the structure is laid out after the age's other statements.
            statements = ([s for s in statements if s.verb != "deal_structure"]
                          + [s for s in statements if s.verb == "deal_structure"])
            for s in statements:
                if s.verb == "deal" and len(s.args) == 3 and isinstance(s.args[0], ast.Int) \
                        and all(isinstance(a, ast.Name) for a in s.args[1:]):
                    source, want = s.args[1].name, s.args[0].value
                    if source not in unknown and counts[source] < want:
                        self.error("E401", f"`deal` draws {want} cards from zone `{source}` but it holds "
                                           f"{counts[source]} here", s.span,
                                   f"add {want - counts[source]} card(s) to {source}, or deal fewer")
                    n = min(want, counts[source])
                    counts[source] -= n
                    counts[s.args[2].name] += n
                elif s.verb == "move_all" and len(s.args) == 2 and all(isinstance(a, ast.Name) for a in s.args):
                    counts[s.args[1].name] += counts[s.args[0].name]
                    counts[s.args[0].name] = 0
                elif s.verb == "deal_structure" and s.args and isinstance(s.args[0], ast.Name):
                    layout = next((k.value.name for k in s.kwargs if k.name == "layout"
                                   and isinstance(k.value, ast.Name)), None)
                    need = slots.get(layout)
                    have = counts[s.args[0].name]
                    if need is not None and have < need and s.args[0].name not in unknown:
                        zone = s.args[0].name
                        took = self.removed_where(lambda old: item_start_zone(old, start_zone) == zone)
                        self.error("E401", f"layout `{layout}` needs {need} cards but zone `{zone}` "
                                           f"holds {have} here", s.span,
                                   f"add {need - have} card(s) to {zone}, or shrink the layout"
                                   + (f" ({took} one of its cards)" if took else ""))
                    counts[s.args[0].name] = max(0, have - (need or 0))


def filled_zones(block: ast.Block) -> set[str]:
    """Zones a block may put items into (`move`, `move_all`, `deal`), at any depth."""
    out: set[str] = set()
    stack = [block]
    while stack:
        for s in stack.pop().statements:
            target = {"move": 1, "move_all": 1, "deal": 2}.get(s.verb)
            if target is not None and len(s.args) > target and isinstance(s.args[target], ast.Name):
                out.add(s.args[target].name)
            if s.block is not None:
                stack.append(s.block)
    return out


class ItemZones(Playable):
    """The playability checks (rulesdsl/playable.py), with more item expressions whose kinds are
    known from a zone: `first_in(ZONE)` is an item of a kind that zone may hold, and
    `either(C, A, B)` one of A's or B's; a `build`/`acquire` of one needs its kind's `build_zone`
    (E407) as a `choose ... from ZONE { build chosen }` does."""

    def kinds_of(self, e: ast.Expr, env: dict[str, set[str] | None], d: ast.Definition) -> set[str] | None:
        if isinstance(e, ast.Call) and e.func == "first_in" and len(e.args) == 1 and isinstance(e.args[0], ast.Name):
            return set(self.zone_kinds.get(e.args[0].name, ()))
        if isinstance(e, ast.Call) and e.func == "either" and len(e.args) == 3:
            a, b = (self.kinds_of(x, env, d) for x in e.args[1:])
            return None if a is None and b is None else (a or set()) | (b or set())
        return super().kinds_of(e, env, d)


def check(merged: Merged) -> list[Diagnostic]:
    return Checker(merged).run()


# The warnings whose verdict may rest on the game's player counts (`players`, `seat` in a range).
JUDGED_BY_RANGE = ("W508", "W510")


def decided_by_player_count(merged: Merged, found: list[Diagnostic]) -> list[Diagnostic]:
    """The W508 and W510 of `found` that some player count the engine seats would not give:
    their expression's range rests on `players` or `seat`, so at counts other than those the
    checker weighed the count may stay at 0 or more, or the comparison be open.  (Where the
    `players` range cannot be played, E404, those counts are a guess, and such a warning a
    follow-on of it; one that holds at every count stands.)"""
    wanted = {d.span: d for d in found if d.code in JUDGED_BY_RANGE}
    if not wanted:
        return []
    names = Checker(merged).named_ranges()
    counts = range(1, MAX_PLAYERS + 1)
    out: list[Diagnostic] = []
    for d in merged.definitions:
        for s in statements(d.block):
            for e in expressions(s):
                diag = wanted.get(e.span)
                if diag is None or diag in out:
                    continue
                if diag.code == "W508":
                    varies = not all(below_zero(e, [n])[0] for n in counts)
                elif isinstance(e, ast.BinOp) and e.op in ("<", "<=", ">", ">="):
                    verdicts = {never_or_always(e.op, bounds(e.left, n, names), bounds(e.right, n, names))
                                for n in counts}
                    varies = len(verdicts) != 1 or None in verdicts
                else:
                    continue
                if varies:
                    out.append(diag)
    return out
