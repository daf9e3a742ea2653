"""What the runtime keeps on a `Game` has a slot (`Game.__slots__`): a slot is read by offset,
where an instance dict of 41 names outgrows the keys it can share and makes every read a dict
lookup.  A game played to its end, cloned, saved and loaded in every bundled content set
keeps no attribute in its own dict; a caller may still add attributes of its own."""

from __future__ import annotations

import random

import pytest

from golden_games import SETS
from rulesdsl.interpreter import Game
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.interpreter.persistence import dumps, loads
from rulesdsl.interpreter.playout import play_out
from rulesdsl.pipeline import load_ruleset


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_played_game_keeps_everything_in_slots(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    game = rules.new_game(seed=5)
    game.apply(game.random_action(random.Random(5)))   # (checked, with a snapshot for undo)
    play_out(game, [RandomAgent(5 + p) for p in range(game.state.players)])
    assert game.over
    copy = game.clone()
    loaded = Game(rules.content, loads(dumps(game.state)))
    for g in (game, copy, loaded):
        assert vars(g) == {}, f"kept outside Game.__slots__: {sorted(vars(g))}"


def test_a_caller_may_still_add_attributes():
    game = load_ruleset().new_game(seed=1)
    game.note = "mine"
    assert game.note == "mine" and vars(game) == {"note": "mine"}
