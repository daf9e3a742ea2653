"""Effects that certainly never end, found before any game is played.

E410: a cycle of definitions that run each other with nothing on the way that could stop it: a
procedure that runs itself (or procedures that run each other), an item whose effect re-runs
itself (`trigger this`, `build this free`), an item or rule whose `when` block certainly sets
off its own event again.  An item's `when built` (`when acquired`) hears the item's own coming
into play, whose `event.item` is the item itself: that is where a `build event.item free` of an
item is followed from (a rule's `event.item` stays unknown).  "Certainly" is strict: a step
under a condition (`if`, `else`, the body of a `choose...`, `choose_one`, a `repeat` whose count
is not a constant of at least 1), a trigger whose filter may not match, an item that may not be
in play, or anything on the way that may end the game (`win`, directly or through what it runs)
makes the cycle one that may end, and it is left to the step budget at run time
(rulesdsl/limits.py).

E411: a `repeat` whose constant count is above `MAX_REPEAT`, or a `choose` asking more picks; and
constant counts that multiply past a limit when nested: the rounds of `repeat`s in `repeat`s
(all run in one action) past the step budget `DEFAULT_MAX_STEPS`, the picks of a `choose` in
`repeat`s and `choose`s past `MAX_REPEAT`.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from . import ast
from . import registry as R
from .diagnostics import Diagnostic
from .limits import DEFAULT_MAX_STEPS, MAX_REPEAT

# Blocks that run only when something (a condition, a player's pick) says so.
CONDITIONAL = frozenset({"if", "else", "choose", "choose_player", "choose_space", "choose_one", "option"})
# Events an effect may set off (not necessarily each time): what could end the game on the way.
MAY_FIRE: dict[str, tuple[str, ...]] = {
    "build": ("built", "traded", "gained_science"),
    "acquire": ("acquired", "gained_science"),
    "take_attached": ("acquired", "gained_science"),
    "shields": ("pawn_moved",),
    "add_cube": ("cube_added", "control_gained", "control_lost"),
    "move_cube": ("cube_added", "control_gained", "control_lost"),
    "remove_cube": ("control_gained", "control_lost"),
    "place": ("control_gained", "control_lost"),
    "move": ("gained_science", "control_gained", "control_lost"),
    "move_all": ("control_gained", "control_lost"),
    "deal_structure": ("structure_dealt",),
    "discard": ("discarded",),
}
# Verbs that run an item's own effect (or its `on_claim` block for `claim`).
RUNS_ITEM = ("trigger", "build", "acquire")
# Events an item sets off by coming into play, heard by its own `when` (whose `event.item` is then
# the item itself).
OWN_EVENTS = ("built", "acquired")


@attrs.frozen
class Node:
    """Something that runs a block: a procedure, an item's effect, a `when`, an `on_claim`."""

    kind: str            # "procedure", "effect", "when", "claim"
    name: str            # the definition's name
    index: int = 0       # which `when` of the definition

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.kind, self.name, self.index)


@attrs.define
class Entry:
    node: Node
    label: str
    statements: tuple[ast.Statement, ...]
    item: str | None = None          # the item it belongs to, if any
    event: str | None = None         # `when`: its event
    filters: dict[str, ast.Expr] = attrs.Factory(dict)


class Recursion:
    def __init__(self, definitions: list[ast.Definition], item_kinds: set[str]):
        self.items: dict[str, ast.Definition] = {d.name: d for d in definitions if d.kind in item_kinds and d.block}
        self.entries: dict[tuple, Entry] = {}
        self.listeners: dict[str, list[Entry]] = {}
        self.in_play_kinds = _kinds_built_into_play(definitions)
        for d in definitions:
            if d.block is None:
                continue
            if d.kind == "procedure":
                self._add(Entry(Node("procedure", d.name), f"procedure `{d.name}`", d.block.statements))
            elif d.kind in item_kinds or d.kind == "rule":
                item = d.name if d.kind in item_kinds else None
                effects = tuple(s for s in d.block.statements if s.verb not in ("when", "on_claim")
                                and not _is_property(s))
                if item is not None and effects:
                    self._add(Entry(Node("effect", d.name), f"{d.kind} `{d.name}`", effects, item))
                whens = [s for s in d.block.statements if s.verb == "when" and s.block and s.args
                         and isinstance(s.args[0], ast.Name)]
                for i, s in enumerate(whens):
                    e = Entry(Node("when", d.name, i), f"{d.kind} `{d.name}` (when {s.args[0].name})",
                              s.block.statements, item, s.args[0].name, {k.name: k.value for k in s.kwargs})
                    self._add(e)
                    self.listeners.setdefault(e.event, []).append(e)
                for s in d.block.statements:
                    if s.verb == "on_claim" and s.block and item is not None:
                        self._add(Entry(Node("claim", d.name), f"{d.kind} `{d.name}` (on_claim)",
                                        s.block.statements, item))
        for event, entries in self.listeners.items():
            # The interpreter sets off the rules' triggers first, then the items' (each in order).
            entries.sort(key=lambda e: e.item is not None)
        self.may_win = self._may_win()

    def _add(self, e: Entry) -> None:
        self.entries[e.node.key] = e

    # -- what may end the game -------------------------------------------------------------------
    def _may_win(self) -> set[tuple]:
        """Keys of the entries that may end the game (a `win` anywhere in what they may run)."""
        calls = {key: set(self._possible_callees(e.statements, e.item)) for key, e in self.entries.items()}
        wins = {key for key, e in self.entries.items() if any(s.verb == "win" for s in _walk(e.statements))}
        changed = True
        while changed:
            changed = False
            for key, callees in calls.items():
                if key not in wins and callees & wins:
                    wins.add(key)
                    changed = True
        return wins

    def _possible_callees(self, statements, current: str | None) -> Iterator[tuple]:
        for s in _walk(statements):
            yield from self._statement_callees(s, current)

    def _statement_callees(self, s: ast.Statement, current: str | None) -> Iterator[tuple]:
        """Keys of every entry this one statement (not its block) may run, if only sometimes."""
        if s.verb == "run" and s.args and isinstance(s.args[0], ast.Name):
            yield ("procedure", s.args[0].name, 0)
        if s.verb in RUNS_ITEM + ("claim", "move_all") and s.args:
            item = self.item_named(s.args[0], current)
            names = [item] if item else list(self.items)
            for n in names:
                yield ("claim" if s.verb in ("claim", "move_all") else "effect", n, 0)
        for event in MAY_FIRE.get(s.verb, ()):
            for e in self.listeners.get(event, ()):
                yield e.node.key

    def statement_may_win(self, s: ast.Statement, current: str | None) -> bool:
        return any(x.verb == "win" for x in _walk((s,))) or any(
            k in self.may_win for x in _walk((s,)) for k in self._statement_callees(x, current))

    # -- what certainly runs ---------------------------------------------------------------------
    def item_named(self, e: ast.Expr, current: str | None = None, event_item: str | None = None) -> str | None:
        """The item an expression certainly names: a quoted name, `this`, or `event.item` when the
        event's item is known (`event_item`)."""
        if isinstance(e, ast.Str) and e.value in self.items:
            return e.value
        if isinstance(e, ast.Name) and e.name == "this" and current in self.items:
            return current
        if isinstance(e, ast.Attribute) and e.name == "item" and isinstance(e.obj, ast.Name) \
                and e.obj.name == "event" and event_item in self.items:
            return event_item
        return None

    def certain(self, entry: Entry, in_play: frozenset[str], event_item: str | None = None
                ) -> Iterator[tuple[ast.Statement, Entry, frozenset[str], str | None]]:
        """(statement, entry it certainly runs, items then known in play for `me`, the item of
        the event that entry hears if known), in the order the block runs them, up to the first
        statement that may end the game.  `event_item`: the item of the event `entry` (a `when`)
        runs for, when known (its `event.item`)."""
        for s in _certain_statements(entry.statements, lambda x: self.statement_may_win(x, entry.item)):
            target = self.item_named(s.args[0], entry.item, event_item) if s.args else None
            if s.verb == "run" and s.args and isinstance(s.args[0], ast.Name):
                e = self.entries.get(("procedure", s.args[0].name, 0))
                if e is not None:
                    yield s, e, in_play, None
            elif s.verb == "trigger" and target:
                e = self.entries.get(("effect", target, 0))
                if e is not None:
                    yield s, e, in_play, None
            elif s.verb == "claim" and target:
                e = self.entries.get(("claim", target, 0))
                if e is not None:
                    yield s, e, in_play, None
            elif s.verb in ("build", "acquire") and s.args:
                if target:   # it is now in its kind's build zone: in play if that zone is active
                    active = self.items[target].kind in self.in_play_kinds
                    in_play = in_play | {target} if active else in_play - {target}
                yield from self._into_play(s, target, in_play)
            elif s.verb == "deal_structure":
                if any(e.node.key in self.may_win for e in self.listeners.get("structure_dealt", ())):
                    continue
                for e in self.listeners.get("structure_dealt", ()):
                    # set off by the player who starts the age: only `by=any` surely matches an item's
                    if self.matches(e, in_play, None, None, actor_is_me=False):
                        yield s, e, in_play, None

    def _into_play(self, s: ast.Statement, target: str | None, in_play: frozenset[str]):
        """What a build or acquire certainly runs, in the order the interpreter runs it: the
        `traded` triggers (a paid build), the `built`/`acquired` triggers (whose `event.item` is
        `target`), the item's effect, the `gained_science` triggers; up to the first that may end
        the game."""
        item = self.items.get(target) if target else None
        via = "free" if s.verb == "build" and len(s.args) > 1 else None
        queue: list[tuple[str, Entry | None]] = []
        if s.verb == "build" and via is None:
            queue += [("traded", e) for e in self.listeners.get("traded", ())]
        event = "built" if s.verb == "build" else "acquired"
        queue += [(event, e) for e in self.listeners.get(event, ())]
        queue.append(("effect", self.entries.get(("effect", target, 0)) if target else None))
        if item is not None and any(x.verb == "science" for x in item.block.statements):
            queue += [("gained_science", e) for e in self.listeners.get("gained_science", ())]
        for kind, e in queue:
            if kind == "effect":
                if e is not None:
                    yield s, e, in_play, None
                if e is None and target is None and any(k[0] == "effect" for k in self.may_win) \
                        or e is not None and e.node.key in self.may_win:
                    return
                continue
            about = item if kind == event else None
            if not self.may_match(e, about, via if kind == event else None, kind == event):
                continue
            if self.matches(e, in_play, about, via if kind == event else None):
                yield s, e, in_play, target if kind == event else None
            if e.node.key in self.may_win:
                return

    def may_match(self, e: Entry, item: ast.Definition | None, via: str | None, has_item: bool) -> bool:
        """False when this `when` certainly does not run for the event (set off by `me`): a rule's
        `by=opponent`, a colour or kind the event's item (when known) does not have, another `via`."""
        by = e.filters.get("by")
        if e.item is None and isinstance(by, ast.Name) and by.name == "opponent":
            return False
        for name in ("color", "kind"):
            if name in e.filters and (not has_item or item is not None):
                have = item.kind if name == "kind" and item is not None else _property(item, name)
                if have is None or have not in _words(e.filters[name]):
                    return False
        want = e.filters.get("via")
        return not (via is not None and isinstance(want, ast.Name) and want.name != via)

    def matches(self, e: Entry, in_play: frozenset[str], item: ast.Definition | None, via: str | None,
                actor_is_me: bool = True) -> bool:
        """Whether this `when` certainly runs for the event (set off by `me` unless told)."""
        if e.item is not None and e.item not in in_play:
            return False
        by = e.filters.get("by")
        by = by.name if isinstance(by, ast.Name) else ("any" if by is None else "?")
        if by == "opponent" or by == "?" or (by == "me" and e.item is not None and not actor_is_me):
            return False
        for name in ("color", "kind"):
            if name in e.filters:
                have = item.kind if name == "kind" and item is not None else _property(item, name)
                if have is None or have not in _words(e.filters[name]):
                    return False
        if "via" in e.filters:
            want = e.filters["via"]
            if via is None or not isinstance(want, ast.Name) or want.name != via:
                return False
        return True

    # -- cycles ----------------------------------------------------------------------------------
    def cycles(self) -> list[tuple[ast.Statement, list[Entry]]]:
        """One (first statement, entries of the cycle, the first repeated) per certain cycle."""
        found: list[tuple[ast.Statement, list[Entry]]] = []
        reported: set[frozenset] = set()
        for start in self.entries.values():
            in_play = frozenset([start.item]) if start.node.kind == "when" and start.item else frozenset()
            # An item's `when built`/`when acquired` hears the item itself coming into play: the
            # event's item is then the item (a rule's, or another event's, stays unknown).
            own = start.item if start.node.kind == "when" and start.event in OWN_EVENTS else None
            cycle = self._cycle_from(start, in_play) or (own and self._cycle_from(start, in_play, own))
            if cycle is None:
                continue
            statement, path = cycle
            key = frozenset(e.node.key for e in path)
            if key not in reported:
                reported.add(key)
                found.append((statement, path + [start]))
        return found

    def _cycle_from(self, start: Entry, in_play: frozenset[str], event_item: str | None = None):
        """A path of certain runs from `start` back to it: (first statement, entries), or None.
        Started with the event's item known (`event_item`), the path must come back with the same
        item: the next round is then the same as this one.  (Unknown, what certainly runs for any
        item runs for the one it comes back with.)"""
        seen = {start.node.key}
        stack = [(start, in_play, [start], None, self.certain(start, in_play, event_item))]
        while stack:
            entry, play, path, first, successors = stack[-1]
            step = next(successors, None)
            if step is None:
                stack.pop()
                continue
            statement, target, now_in_play, its_item = step
            first_statement = first if first is not None else statement
            if target.node.key == start.node.key:
                if event_item is None or its_item == event_item:
                    return first_statement, path
                continue
            if target.node.key in seen:
                continue
            seen.add(target.node.key)
            stack.append((target, now_in_play, path + [target], first_statement,
                          self.certain(target, now_in_play, its_item)))
        return None


def _kinds_built_into_play(definitions: list[ast.Definition]) -> set[str]:
    """The item kinds whose `build_zone` is an `active` zone: built, their triggers work."""
    active, built = set(), {}
    for d in definitions:
        if d.kind in ("game", "expansion") and d.block:
            for s in d.block.statements:
                words = [a.name for a in s.args if isinstance(a, ast.Name)]
                if s.verb == "zone" and words and "active" in words[1:]:
                    active.add(words[0])
                if s.verb == "build_zone" and len(words) == 2:
                    built[words[0]] = words[1]
    return {kind for kind, zone in built.items() if zone in active}


def _walk(statements) -> Iterator[ast.Statement]:
    """Every statement, at any depth."""
    stack = list(reversed(statements))
    while stack:
        s = stack.pop()
        yield s
        if s.block is not None:
            stack.extend(reversed(s.block.statements))


def _certain_statements(statements, may_win) -> Iterator[ast.Statement]:
    """The statements that certainly run, in order (nested unconditional blocks included), up to
    and including the first that may end the game."""
    for s in statements:
        yield s
        if s.block is not None and s.verb not in CONDITIONAL and s.verb != "when":
            if s.verb != "repeat" or (s.args and (_constant(s.args[0]) or 0) >= 1):
                inner = list(_certain_statements(s.block.statements, may_win))
                yield from inner
                if inner and may_win(inner[-1]):
                    return
        if may_win(s):
            return


def _is_property(s: ast.Statement) -> bool:
    verb = R.VERBS.get(s.verb)
    return verb is None or verb.role != R.EFFECT


def _words(e: ast.Expr) -> set[str]:
    if isinstance(e, ast.ListExpr):
        return {x.name for x in e.items if isinstance(x, ast.Name)}
    return {e.name} if isinstance(e, ast.Name) else set()


def _property(d: ast.Definition | None, verb: str) -> str | None:
    if d is None or d.block is None:
        return None
    for s in d.block.statements:
        if s.verb == verb and s.args and isinstance(s.args[0], ast.Name):
            return s.args[0].name
    return None


def _constant(e: ast.Expr) -> int | None:
    """The value of a constant count (`5`, `2 * 500`), or None."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*"):
        a, b = _constant(e.left), _constant(e.right)
        if a is not None and b is not None:
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


# -- the diagnostics ---------------------------------------------------------------------------------

def check_recursion(definitions: list[ast.Definition], item_kinds: set[str]) -> list[Diagnostic]:
    diags = []
    finder = Recursion(definitions, item_kinds)
    for statement, path in finder.cycles():
        chain = " -> ".join(e.label for e in path)
        diags.append(Diagnostic(
            "error", "E410", f"this never ends: {chain}", statement.span,
            "nothing on the way can stop it (no `if`, `choose` or other condition, no `win`); put the step "
            "that starts it again under a condition that eventually fails, or remove it"))
    return diags


def check_repeat_counts(definitions: list[ast.Definition]) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for d in definitions:
        if d.block is not None:
            _counts(d.block.statements, (), (), diags)
    return diags


# A count met on the way in: (its value, the statement).
Around = tuple[tuple[int, ast.Statement], ...]


def _counts(statements, rounds: Around | None, picks: Around | None, diags: list[Diagnostic]) -> None:
    """E411 for the constant counts of `statements`, nested in the constant `repeat`s whose rounds
    all run in the same action (`rounds`) and the constant `repeat`s and `choose`s each of whose
    rounds or picks runs the block again (`picks`); None once a count around was reported.  A
    block that may not run (`if`, `else`, a decision other than `choose`, a count not constant)
    starts afresh: only counts that certainly multiply are multiplied.  (A `choose`'s block runs
    after each pick, an action of its own: the rounds start afresh there too.)"""
    for s in statements:
        n = _constant(s.args[0]) if s.verb in ("repeat", "choose") and s.args else None
        inner_rounds: Around | None = ()
        inner_picks: Around | None = ()
        if n is not None and n > MAX_REPEAT:
            if s.verb == "repeat":
                diags.append(Diagnostic(
                    "error", "E411", f"`repeat {n}` is more than the limit of {MAX_REPEAT} rounds", s.args[0].span,
                    f"a `repeat` runs at most {MAX_REPEAT} rounds; to do something many times, "
                    "give the amount to the statement itself (`gain 5000 coins`)"))
            else:   # (each pick is a decision of its own: a game of a million of them never ends)
                diags.append(Diagnostic(
                    "error", "E411", f"`choose {n}` asks more picks than the limit of {MAX_REPEAT}", s.args[0].span,
                    "each pick is a player's decision; a typo for a small count?"))
            inner_rounds = inner_picks = None   # (reported: not multiplied again below)
        elif n is not None and n < 1:
            pass   # (its block never runs: nothing inside multiplies)
        elif n is not None and s.verb == "repeat":
            inner_rounds = _nested(s, n, rounds, "rounds", DEFAULT_MAX_STEPS, diags)
            inner_picks = None if inner_rounds is None or picks is None else picks + ((n, s),)
        elif n is not None:   # choose
            inner_picks = _nested(s, n, picks, "picks", MAX_REPEAT, diags)
        elif s.verb == "each_player":   # (runs its block for each player: at least once)
            inner_rounds, inner_picks = rounds, picks
        if s.block is not None:
            _counts(s.block.statements, inner_rounds, inner_picks, diags)


def _nested(s: ast.Statement, n: int, around: Around | None, what: str, limit: int,
            diags: list[Diagnostic]) -> Around | None:
    """E411 when the counts `around` times this one pass `limit`; the counts for its block (None
    once reported)."""
    if around is None:
        return None
    total = n
    for value, _ in around:
        total *= value
    if total <= limit:
        return around + ((n, s),)
    outer = " inside ".join(f"`{x.verb} {value}`" for value, x in reversed(around))
    product = " * ".join(str(value) for value, _ in around) + f" * {n}"
    if what == "rounds":
        message = (f"`repeat {n}` inside {outer} runs its block {total} times in all ({product}): "
                   f"more than the {limit} steps one action may take")
        hint = "nested counts multiply, each round a step: repeat fewer times, or give the amount to the statement"
    else:
        message = (f"`choose {n}` inside {outer} asks {total} picks in all ({product}): "
                   f"more than the limit of {limit}")
        hint = "nested counts multiply, each pick a player's decision: a typo for a small count?"
    diags.append(Diagnostic("error", "E411", message, s.args[0].span, hint))
    return None
