"""The cycle collector while many games are played: what exists before (the compiled rules
above all, which outlive the run) and what the run keeps is left out of its passes, which
otherwise go over all of it again and again (when the balance lab kept a dict per game, a
batch of them unpickled four times as fast, docs/speed.md), and handed back to it at the end."""

from __future__ import annotations

import contextlib
import gc
from typing import Callable, Iterator


@contextlib.contextmanager
def skipping_what_exists() -> Iterator[Callable[[], None]]:
    """Freeze what exists now (`gc.freeze`); the function yielded freezes what exists when it
    is called (what the run has kept since).  Afterwards everything is handed back to the
    collector (`gc.unfreeze`), so nothing is kept that it would have freed; where the caller
    had frozen objects itself, all stay frozen, as it wanted its own."""
    frozen_by_caller = gc.get_freeze_count() > 0   # (theirs to hand back, with ours: one pool)
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        if not frozen_by_caller:
            gc.unfreeze()
