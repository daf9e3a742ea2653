"""When in a game a statement can run, as far as the card files tell: the earliest and the latest
moment, each an age and a phase of it.  The checks that depend on order (a deck emptied before
its deal, a zone turned up before items are put into it face down) read these windows.

A moment is `(age, phase)`: age 0 is the set-up, 1.. the ages in their order; phase 0 is an
age's start (its own statements), phase 1 its structure laid out (`when structure_dealt`, which
runs after them), phase 2 its play (actions, the effects of what is built, the ends of ages).  A window only narrows where
the card files say so: an age's block, a card's `age N` (it is dealt in that age, so its effects
cannot run earlier), an action's `require age >= N`, an `if age == N` (and its `else`, an
`age != N`); an item without an age, or a trigger, that the set-up cannot set going
(setup_reach.py) from the first age's start; anything else can run from the set-up to the end of
the game."""

from __future__ import annotations

from typing import Iterator

import attrs

from . import ast
from .loader import Merged
from .setup_reach import NOT_ITEMS, SetupReach

Moment = tuple[int, int]
START, DEALT, PLAY = 0, 1, 2   # the phases of an age
SETUP: Moment = (0, START)
LAST: Moment = (1 << 30, PLAY)   # past every age: the end of the game
# The game's blocks that run between turns, from the first age's play on; `end_of_game` after all.
PLAY_BLOCKS = ("between_ages", "end_of_age", "after_round")


@attrs.frozen
class Window:
    lo: Moment
    hi: Moment

    def narrowed(self, lo: Moment, hi: Moment) -> "Window":
        return Window(max(self.lo, lo), min(self.hi, hi))

    def without(self, first: int, last: int, phase: int) -> "Window":
        """The window but for the ages `first` to `last`, where they are at its start or its end
        (ages amid it leave it whole: a window is one stretch)."""
        lo = (last + 1, phase) if first <= self.lo[0] <= last else self.lo
        hi = (first - 1, PLAY) if first <= self.hi[0] <= last else self.hi
        return Window(lo, hi)

    def joined(self, other: "Window") -> "Window":
        return Window(min(self.lo, other.lo), max(self.hi, other.hi))

    @property
    def empty(self) -> bool:
        return self.lo > self.hi


ANY = Window(SETUP, LAST)
NONE = Window(LAST, SETUP)


def age_bounds(e: ast.Expr, ages: int) -> tuple[int, int] | None:
    """The ages (first, last) a condition can hold in, where it says (`age >= 2`, `age == 1 and
    ...`); None where it does not bound the age."""
    if isinstance(e, ast.BinOp) and e.op == "and":
        a, b = age_bounds(e.left, ages), age_bounds(e.right, ages)
        if a is None or b is None:
            return a or b
        return max(a[0], b[0]), min(a[1], b[1])
    if not isinstance(e, ast.BinOp) or e.op not in ("==", ">=", ">", "<=", "<"):
        return None
    op, left, right = e.op, e.left, e.right
    if isinstance(right, ast.Name) and right.name == "age" and isinstance(left, ast.Int):
        op, left, right = {"==": "==", ">=": "<=", ">": "<", "<=": ">=", "<": ">"}[op], right, left
    if not (isinstance(left, ast.Name) and left.name == "age" and isinstance(right, ast.Int)):
        return None
    n = right.value
    # (age 0 is the set-up's: `age <= 1` holds there too)
    return {"==": (n, n), ">=": (n, ages), ">": (n + 1, ages), "<=": (0, n), "<": (0, n - 1)}[op]


def age_excluded(e: ast.Expr) -> tuple[int, int] | None:
    """The age a condition says it is not (`age != 2`): (2, 2); None where it says no such thing."""
    if not isinstance(e, ast.BinOp) or e.op != "!=":
        return None
    left, right = (e.right, e.left) if isinstance(e.left, ast.Int) else (e.left, e.right)
    if isinstance(left, ast.Name) and left.name == "age" and isinstance(right, ast.Int):
        return right.value, right.value
    return None


class Timing:
    """The windows of every statement of `merged` (by `id`), worked out once: one for most, one
    per way a procedure is run for a procedure's (a procedure run from the set-up and from a
    later age's card runs at either)."""

    def __init__(self, merged: Merged):
        self.merged = merged
        self.ages = len(merged.by_kind("age"))
        self.reach = SetupReach(merged)
        self.of: dict[int, set[Window]] = {}
        called: dict[str, set[Window]] = {}
        # A procedure runs when what runs it does: follow the `run`s until no window is new.
        for _ in range(len(merged.by_kind("procedure")) + 1):
            self.of.clear()
            runs: dict[str, set[Window]] = {}
            for d in merged.definitions:
                bases = called.get(d.name, set()) if d.kind == "procedure" else {self.definition_window(d)}
                for base in bases:
                    for s, w in self.walk(d, base):
                        self.of.setdefault(id(s), set()).add(w)
                        if s.verb == "run" and s.args and isinstance(s.args[0], ast.Name) and not w.empty:
                            runs.setdefault(s.args[0].name, set()).add(w)
            if runs == called:
                break
            called = runs
        # (a procedure nothing runs never runs: its statements have no window)

    def windows(self, s: ast.Statement) -> set[Window]:
        """The windows `s` runs in, one per way it is reached; none for a statement that never runs."""
        return self.of.get(id(s), set())

    def earliest(self, s: ast.Statement) -> Moment | None:
        found = [w.lo for w in self.windows(s) if not w.empty]
        return min(found) if found else None

    def definition_window(self, d: ast.Definition) -> Window:
        if d.kind == "age":
            n = self.age_number(d)
            return Window((n, START), (n, START))
        if d.kind == "action":
            w = Window((1, PLAY), LAST)
            for s in d.block.statements if d.block else ():
                if s.verb == "require" and s.args:
                    w = self.narrowed_by(w, s.args[0], PLAY, PLAY)
            return w
        age = next((s.args[0].value for s in (d.block.statements if d.block else ())
                    if s.verb == "age" and s.args and isinstance(s.args[0], ast.Int)), None)
        if age is not None and d.kind not in ("game", "expansion", "rule"):
            return Window((age, PLAY), LAST)   # (dealt in its age: built, and so run, from its play on)
        return ANY

    def narrowed_by(self, w: Window, condition: ast.Expr, first: int, last: int) -> Window:
        """`w` where `condition` holds, as far as it bounds the age (`age >= 2`, `age != 1`): from
        phase `first` of its first age to phase `last` of its last."""
        bounds = age_bounds(condition, self.ages)
        if bounds:
            w = w.narrowed((bounds[0], first), (bounds[1], last))
        excluded = age_excluded(condition)
        if excluded:
            w = w.without(*excluded, first)
        return w

    def age_number(self, d: ast.Definition) -> int:
        return next(i for i, a in enumerate(self.merged.by_kind("age"), 1) if a is d)

    def walk(self, d: ast.Definition, base: Window) -> Iterator[tuple[ast.Statement, Window]]:
        """Every statement of `d` at any depth, with its window."""
        # (`cap`: the last phase of an age the block runs in: an `if age == N` in an age's block
        # or in `when structure_dealt` is at age N's start, not its play)
        stack = [(d.block, base, START if d.kind == "age" else PLAY)] if d.block else []
        while stack:
            block, w, cap = stack.pop()
            previous: ast.Statement | None = None
            for s in block.statements:
                inner, inner_cap = w, cap
                if d.kind in ("game", "expansion") and block is d.block:
                    inner = {"setup": Window(SETUP, SETUP), "end_of_game": Window(LAST, LAST)}.get(
                        s.verb, Window((1, PLAY), LAST) if s.verb in PLAY_BLOCKS else w)
                if d.kind not in NOT_ITEMS and block is d.block and s.verb != "when" and not (
                        self.reach.claims_run if s.verb == "on_claim" else self.reach.runs(d.kind)):
                    inner = inner.narrowed((1, START), LAST)   # (built, acquired, claimed only from then on)
                if s.verb == "when" and not self.reach.heard(s):
                    inner = inner.narrowed((1, START), LAST)
                if s.verb == "when" and s.args and isinstance(s.args[0], ast.Name) \
                        and s.args[0].name == "structure_dealt":
                    inner, inner_cap = inner.narrowed((1, DEALT), (self.ages, DEALT)), DEALT
                if s.verb == "if" and s.args:
                    inner = self.narrowed_by(inner, s.args[0], START, inner_cap)
                if s.verb == "else" and previous is not None and previous.verb == "if" and previous.args:
                    bounds = age_bounds(previous.args[0], self.ages)
                    if bounds:   # (the ages the `if` holds in, taken out where they bound the window)
                        inner = inner.without(*bounds, START)
                previous = s
                yield s, inner
                if s.block is not None:
                    stack.append((s.block, inner, inner_cap))


__all__ = ["Timing", "Window", "age_bounds", "age_excluded", "Moment", "SETUP", "LAST", "START", "DEALT", "PLAY"]
