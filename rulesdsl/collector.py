"""The cycle collector while many games are played: what exists before (the compiled rules
above all, which outlive the run) and what the run keeps is left out of its passes, which
otherwise go over all of it again and again (when the balance lab kept a dict per game, a
batch of them unpickled four times as fast, docs/speed.md), and handed back to it at the end."""

from __future__ import annotations

import contextlib
import gc
from typing import Callable, Iterator

_HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made at run time, not one of the interpreter's


def interpreters_own_frozen() -> int:
    """How many objects the interpreter may hold frozen of its own: CPython 3.12 starts with its
    built-in types' `__mro__` and `__bases__` tuples (immortal) frozen, 375 on 3.12.1, until a
    `gc.unfreeze`; 3.11 and 3.13 do not track these tuples, and freeze none.  (Counted without
    listing what the collector tracks: that list would be a run's largest allocation before
    its first game, tests/test_long_runs_memory.py.)"""
    types, seen, stack = [], set(), [object]
    while stack:
        t = stack.pop()
        if id(t) not in seen:
            seen.add(id(t))
            types.append(t)
            stack.extend(type.__subclasses__(t))
    tuples = {id(x): x for t in types if not t.__flags__ & _HEAP_TYPE for x in (t.__mro__, t.__bases__)}
    return sum(1 for x in tuples.values() if gc.is_tracked(x))


@contextlib.contextmanager
def skipping_what_exists() -> Iterator[Callable[[], None]]:
    """Freeze what exists now (`gc.freeze`); the function yielded freezes what exists when it
    is called (what the run has kept since).  Afterwards everything is handed back to the
    collector (`gc.unfreeze`), so nothing is kept that it would have freed; where the caller
    had frozen objects itself, all stay frozen, as it wanted its own."""
    frozen = gc.get_freeze_count()
    # (theirs to hand back, with ours: one pool; "any frozen" was always true on 3.12, whose
    # interpreter freezes some of its own, and nothing a run froze was ever handed back there)
    frozen_by_caller = frozen > 0 and frozen > interpreters_own_frozen()
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        if not frozen_by_caller:
            gc.unfreeze()
