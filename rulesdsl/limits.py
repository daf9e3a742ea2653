"""Limits of the language that both `rulesdsl check` and the runtime apply (one place for both).

`DEFAULT_MAX_STEPS`: the step budget of one action (and of a game's setup): a step is one
statement run, one round of a `repeat`.  The bundled games use at most a few dozen steps per
action (benchmarks/step_counts.py measures it), so only an effect that never ends comes near.
`MAX_REPEAT`: the most rounds one `repeat` may ask for (a constant above it is error E411; a
computed one stops the action at run time).
"""

from __future__ import annotations

DEFAULT_MAX_STEPS = 100_000
MAX_REPEAT = 1000
