"""What a run freezes for the cycle collector is handed back, whatever the interpreter froze
of its own (rulesdsl/collector.py)."""

from __future__ import annotations

import gc

from rulesdsl import collector


def test_the_interpreters_own_frozen_objects_are_not_the_callers(monkeypatch):
    # CPython 3.12 starts with 375 of its own objects frozen: taken for the caller's, they kept
    # everything every run froze there frozen for good.  Any Python, made to look like 3.12:
    gc.unfreeze()
    gc.freeze()
    try:
        own = gc.get_freeze_count()
        monkeypatch.setattr(collector, "interpreters_own_frozen", lambda: own)
        with collector.skipping_what_exists():
            assert gc.get_freeze_count() >= own
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


def test_a_callers_own_freeze_stays_frozen(monkeypatch):
    gc.unfreeze()
    gc.freeze()
    try:
        held = gc.get_freeze_count()
        monkeypatch.setattr(collector, "interpreters_own_frozen", lambda: held - 1)
        with collector.skipping_what_exists():
            pass
        assert gc.get_freeze_count() >= held
    finally:
        gc.unfreeze()


def test_the_interpreters_own_are_what_a_fresh_interpreter_holds_frozen():
    import subprocess
    import sys
    fresh = subprocess.run([sys.executable, "-c", "import gc; print(gc.get_freeze_count())"],
                           capture_output=True, text=True, check=True)
    assert collector.interpreters_own_frozen() == int(fresh.stdout)
