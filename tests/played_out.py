"""A random game played out action by action, for the tests that compare two ways of playing
the same game (a path written for the content against the generic one): what they look at
after each action, for the two lists to be compared."""

from __future__ import annotations

import random
from typing import Any, Callable

from rulesdsl.interpreter.persistence import dumps


def saved(game) -> str:
    """The game's state as a save holds it."""
    return dumps(game.state)


def after_each_action(game, seed: int, look: Callable[[Any], Any] = saved) -> list:
    """`look(game)` after each action of `game` played out by uniformly random legal actions
    drawn with `random.Random(seed)`."""
    rng = random.Random(seed)
    out = []
    while not game.over:
        game._apply(game.random_action(rng))
        out.append(look(game))
    return out
