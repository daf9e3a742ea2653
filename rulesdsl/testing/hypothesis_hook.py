"""The `hypothesis` entry point (pyproject.toml): `st.from_type(Game)`, `st.from_type(Playthrough)`
and `st.from_type(Setup)` draw bundled games in any hypothesis test.

Kept apart from `strategies`, which imports hypothesis: hypothesis calls its entry points while
it is being imported, so a hook inside `strategies`, imported first, was looked up in a module
half made (`from rulesdsl.testing import strategies` raised AttributeError)."""

from __future__ import annotations

import sys


def setup() -> None:
    """Register the strategies.  Never fails: a broken installation must not break every
    hypothesis run."""
    module = sys.modules.get("rulesdsl.testing.strategies")
    if module is not None and getattr(getattr(module, "__spec__", None), "_initializing", False):
        return   # `strategies` is being imported (it imports hypothesis): it registers them at its end
    try:
        from rulesdsl.testing.strategies import register_types
    except Exception:  # noqa: BLE001
        return
    register_types()
