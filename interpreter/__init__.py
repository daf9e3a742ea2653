"""The rulesdsl runtime: game state, turn loop, triggers, decisions, legal actions, scoring.

It is played from compiled content (`rulesdsl.model`) and imports nothing of the front end
(loader, checker, compiler): `rulesdsl.pipeline` turns card files into content and games."""

from __future__ import annotations

from .actions import Action, GameOver, IllegalAction
from .budget import (DEFAULT_MAX_STEPS, MAX_GAME_ACTIONS, MAX_REPEAT, BudgetExceeded, EffectFailed, GameStuck, GameTooLong,
                     ScriptedDrawFailed, ShortDeal)
from .game import Game
from .state import DRAW, State

# Loading lives in rulesdsl.pipeline, above the runtime; these names stay importable from here as
# they always were, resolved on first use so that importing the runtime does not load the front end.
_FROM_PIPELINE = ("Ruleset", "load_ruleset", "new_game")


def __getattr__(name: str):
    if name in _FROM_PIPELINE:
        from rulesdsl import pipeline
        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Action", "BudgetExceeded", "EffectFailed", "GameOver", "GameStuck", "GameTooLong", "ScriptedDrawFailed", "ShortDeal", "DEFAULT_MAX_STEPS", "DRAW", "MAX_GAME_ACTIONS", "MAX_REPEAT", "Game", "IllegalAction", "Ruleset", "State", "load_ruleset", "new_game"]
