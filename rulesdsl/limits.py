"""Limits of the language that both `rulesdsl check` and the runtime apply (one place for both).

`DEFAULT_MAX_STEPS`: the step budget of one action (and of a game's setup): a step is one
statement run, one round of a `repeat`.  The bundled games use at most a few dozen steps per
action (benchmarks/step_counts.py measures it), so only an effect that never ends comes near.
`MAX_REPEAT`: the most rounds one `repeat` may ask for (a constant above it is error E411; a
computed one stops the action at run time).
`MAX_GAME_ACTIONS`: the most actions (turns, choices, answers to decisions) a game played out by
agents may take: `check`'s trial game calls content that goes beyond it a game that does not end
(E409), and `simulate`, `balance` and the search stop such a game with an error rather than
play on for ever (a classic game at 7 seats takes some 130).
`MAX_QUANTITY`: numbers a game keeps (a seat's coins, coins on an item, a counter) and the points a
seat scores stay below it (and a counter above minus it): an effect that would take one past it
fails, naming the definitions running, so content whose numbers grow without end (`gain coins *
coins coins`) is an error where it runs, and `check`'s trial games find it (E409), rather than
numbers too big to average or to save (a save holds coins below it).
`MAX_PLAYERS`: the most seats a game may have (`players 3 7`; more is E404, which `check` says
before it plays a trial game at every count, and a trace naming more is refused unread).
`MAX_ITEMS`: the most items (copies counted) a game may hold at its most players; more is E412,
which `check` says before it compiles anything: each item is compiled, dealt and kept in every
game, and `copies` of hundreds of thousands of numbers fit in a card file (the bundled games
hold a few hundred).
`SEED_MIN`, `SEED_MAX`: a game's seed (its dice are seeded from a 64-bit hash of it, the same
on every machine); the commands refuse another before any work.
"""

from __future__ import annotations

DEFAULT_MAX_STEPS = 100_000
MAX_REPEAT = 1000
MAX_GAME_ACTIONS = 20_000
MAX_QUANTITY = 10**8
MAX_PLAYERS = 64
MAX_ITEMS = 10_000
SEED_MIN = -(1 << 63)
SEED_MAX = (1 << 64) - 1
