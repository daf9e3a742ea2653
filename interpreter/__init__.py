"""The rulesdsl runtime: game state, turn loop, triggers, decisions, legal actions, scoring."""

from __future__ import annotations

import functools

from .actions import Action, IllegalAction
from .budget import DEFAULT_MAX_STEPS, MAX_REPEAT, BudgetExceeded
from .game import Game
from .ruleset import Ruleset
from .state import DRAW, State


@functools.lru_cache(maxsize=16)
def _ruleset(expansions: tuple[str, ...], base: str) -> Ruleset:
    return Ruleset.load(expansions, base)


def load_ruleset(expansions: list[str] | tuple[str, ...] = (), base: str = "duel") -> Ruleset:
    """The compiled rules for a base game and expansions (compiled once per process)."""
    from rulesdsl.loader import canonical_expansions
    return _ruleset(tuple(canonical_expansions(list(expansions))), str(base))


def new_game(expansions: list[str] | tuple[str, ...] = (), seed: int = 0, options: list[str] | tuple[str, ...] = (),
             script: dict[str, list[str]] | None = None, base: str = "duel",
             max_steps: int = DEFAULT_MAX_STEPS) -> Game:
    """Start a game: a bundled base game plus expansions, by name or folder path.  `max_steps`
    bounds the work of the setup and of each action (BudgetExceeded beyond it)."""
    return load_ruleset(expansions, base).new_game(seed=seed, options=options, script=script, max_steps=max_steps)


__all__ = ["Action", "BudgetExceeded", "DEFAULT_MAX_STEPS", "DRAW", "MAX_REPEAT", "Game", "IllegalAction", "Ruleset", "State", "load_ruleset", "new_game"]
