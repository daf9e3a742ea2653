"""Testing tools for card designers: hypothesis strategies, rule invariants, `verify`, scenarios.

    from rulesdsl.testing import strategies, check_game, run_checked, INVARIANTS

- `rulesdsl.testing.strategies`: hypothesis strategies for any content set (set-ups, action
  sequences drawn from the legal actions, games).
- `rulesdsl.testing.invariants`: the invariant library, `check_game(game)` and
  `run_checked(game, ...)`; designers add their own with `invariant "..." { holds ... }`.
- `rulesdsl.testing.verify`: N random games with every invariant checked, shrinking, traces
  (`rulesdsl verify`).
- `rulesdsl.testing.scenarios`: `*.scenario` files (`rulesdsl test`, and pytest through the
  plugin in `rulesdsl.testing.pytest_plugin`).

Documentation: docs/testing.md.  Names are imported on first use.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "INVARIANTS": "invariants", "Invariant": "invariants", "InvariantViolation": "invariants",
    "check_game": "invariants", "run_checked": "invariants", "all_invariants": "invariants",
    "verify": "verify", "run_paths": "scenarios", "run_file": "scenarios",
}
__all__ = sorted(_EXPORTS) + ["strategies", "invariants", "scenarios"]


def __getattr__(name: str):
    if name in ("strategies", "invariants", "scenarios", "pytest_plugin", "commands"):
        return importlib.import_module(f"{__name__}.{name}")
    if name in _EXPORTS:
        module = importlib.import_module(f"{__name__}.{_EXPORTS[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
