"""What an agent is, and the random one: apart from the other agents (`agents`), because the
search, which those list, plays its rollouts with random seats (`playout.play_out`)."""

from __future__ import annotations

import random
from typing import Protocol

from rulesdsl.names import integer

from .actions import Action, GameOver
from .game import Game


class Agent(Protocol):
    name: str

    def act(self, game: Game) -> Action: ...


def playing(game: object) -> Game:
    """The game an agent is asked to move in: a `Game` (anything else failed on an attribute)
    that has not ended (`GameOver`: the greedy agent failed on an empty range, the random one
    said "no legal action")."""
    if not isinstance(game, Game):
        raise TypeError(f"an agent acts in a Game, not {type(game).__name__}")
    if game.state.flow == "over":
        raise GameOver()
    return game


def seeded(seed: object) -> random.Random:
    """An agent's generator, seeded by an integer (numpy's too): a string or a float seeded one
    silently, which `make_agent` and the search refuse."""
    return random.Random(seed if type(seed) is int else integer(seed, "seed"))


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0, rng: random.Random | None = None):
        """`rng`: the generator to draw from (several agents may share one), else one seeded by
        `seed`, an integer (numpy's too).  (A string or a float seeded one silently, and any
        `rng` was taken, to fail at the first move.)"""
        if rng is None:
            rng = seeded(seed)
        elif not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        self.rng = rng

    def act(self, game: Game) -> Action:
        return playing(game).random_action(self.rng)
