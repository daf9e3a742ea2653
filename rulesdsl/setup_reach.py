"""What the set-up can set going, as far as the card files tell: whether it can run an item's own
effect (or its `on_claim`), and which events it can set off.  An item without an age is taken to
act from the set-up on only where the set-up can make it act (timing.py): one that only the
first age's play builds, acquires or triggers cannot run before that age's deal."""

from __future__ import annotations

from typing import Iterator

import attrs

from . import ast
from .loader import Merged
from .recursion import MAY_FIRE

# Kinds of definition that are no item: whatever else a definition is, it is an item.
NOT_ITEMS = frozenset({"game", "expansion", "track", "layout", "age", "action", "rule", "procedure", "invariant"})
# Verbs that run an item's own effect: coming into play and `trigger` (any item's), and the pawn
# reaching a military token (`shields`: a military token's only).
RUNS_ITEMS = frozenset({"build", "acquire", "take_attached", "trigger"})
PAWN = ("shields", "military_token")
# Verbs that move items, with the argument naming the zone they go to: to the discard pile, they
# set off `discarded` (as `discard` always does).
MOVES = {"deal": 2, "take_top": 2, "move": 1, "move_all": 1, "place": 1, "claim": 1}
# Verbs that put influence cubes on spaces: without them no seat controls a ruled zone's space,
# so no item changes hands by control (the control events `place` and `move` may set off).
CUBES = frozenset({"add_cube", "move_cube", "remove_cube"})
CONTROL = frozenset({"control_gained", "control_lost"})


def _walk(top: ast.Statement) -> Iterator[ast.Statement]:
    """`top` and every statement within it, but for the `when` blocks within (set off by events
    of their own)."""
    yield top
    stack = [top.block] if top.block is not None else []
    while stack:
        for s in stack.pop().statements:
            yield s
            if s.block is not None and s.verb != "when":
                stack.append(s.block)


@attrs.define
class SetupReach:
    """Found by following the set-up's statements: the procedures they run, the items' effects
    and `on_claim` blocks they can run, the triggers of the events they can set off, and so on
    until nothing new is reached."""

    merged: Merged
    piles: set[str] = attrs.field(factory=set)   # the discard piles (`discard_pile`)
    items_run: bool = False        # any item's effect can run in the set-up
    kinds_run: set[str] = attrs.field(factory=set)   # the kinds whose items' effects can, short of that
    claims_run: bool = False
    fired: set[str] = attrs.field(factory=set)

    def __attrs_post_init__(self) -> None:
        headers = self.merged.by_kind("game") + self.merged.by_kind("expansion")
        self.piles = {s.args[0].name for g in headers for s in (g.block.statements if g.block else ())
                      if s.verb == "discard_pile" and s.args and isinstance(s.args[0], ast.Name)}
        procedures = {d.name: d for d in self.merged.by_kind("procedure")}
        items = [d for d in self.merged.definitions if d.kind not in NOT_ITEMS and d.block]
        triggers = [s for d in self.merged.definitions for s in self.whens(d.block)]
        todo: list[ast.Statement] = [s for g in headers for s in (g.block.statements if g.block else ())
                                     if s.verb == "setup"]
        seen: set[int] = set()
        cubes = claims_added = False
        ran: tuple[bool, int] = (False, 0)   # (the items' effects added so far: looked at again once more can run)
        raw: set[str] = set()
        heard_at = -1   # (the triggers are looked at again only once more events are set off)
        while todo:
            top = todo.pop()
            if id(top) in seen:
                continue
            seen.add(id(top))
            for s in _walk(top):
                if s.verb == "run" and s.args and isinstance(s.args[0], ast.Name) and s.args[0].name in procedures:
                    block = procedures[s.args[0].name].block
                    todo += block.statements if block else ()
                self.items_run |= s.verb in RUNS_ITEMS
                if s.verb == PAWN[0]:
                    self.kinds_run.add(PAWN[1])
                self.claims_run |= s.verb == "claim" or s.verb == "move_all" and any(k.name == "claim" for k in s.kwargs)
                cubes |= s.verb in CUBES
                raw |= self.fires(s)
            # (control changes hands only where cubes lie: a move alone sets off no control event)
            self.fired = raw if cubes else raw - CONTROL
            if (self.items_run, len(self.kinds_run)) != ran:
                ran = (self.items_run, len(self.kinds_run))
                todo += [s for d in items if self.runs(d.kind) for s in d.block.statements
                         if s.verb not in ("when", "on_claim") and id(s) not in seen]
            if self.claims_run and not claims_added:
                claims_added = True
                todo += [s for d in items for s in d.block.statements if s.verb == "on_claim"]
            if len(self.fired) != heard_at:
                heard_at = len(self.fired)
                todo += [s for s in triggers if id(s) not in seen and self.heard(s)]

    def runs(self, kind: str) -> bool:
        """Whether the set-up can run the effect of an item of `kind`."""
        return self.items_run or kind in self.kinds_run

    @staticmethod
    def whens(block: ast.Block | None) -> Iterator[ast.Statement]:
        stack = [block] if block is not None else []
        while stack:
            for s in stack.pop().statements:
                if s.verb == "when":
                    yield s
                if s.block is not None:
                    stack.append(s.block)

    def fires(self, s: ast.Statement) -> set[str]:
        """The events `s` may set off (a `move` sets off `gained_science` only onto a card, as a
        copying token does)."""
        out = set(MAY_FIRE.get(s.verb, ()))
        if s.verb == "move" and not any(k.name == "onto" for k in s.kwargs):
            out.discard("gained_science")
        to = MOVES.get(s.verb)
        if to is not None:
            out |= CONTROL
            if len(s.args) <= to or not isinstance(s.args[to], ast.Name) or s.args[to].name in self.piles:
                out.add("discarded")
        return out

    def heard(self, when: ast.Statement) -> bool:
        """Whether a `when` can be set off in the set-up."""
        event = when.args[0].name if when.args and isinstance(when.args[0], ast.Name) else None
        return event is None or event in self.fired


__all__ = ["SetupReach", "NOT_ITEMS"]
