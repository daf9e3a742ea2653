"""A decision among items names them, and copies share a name: the answer takes a copy that was
offered.  In classic, a Halikarnassos build from the discard pile named `Press` took the
content's first Press, which lay in another seat's city: that seat lost its card and the
discarded one stayed in the pile."""

from __future__ import annotations

import random

from rulesdsl.interpreter.playout import play_out
from rulesdsl.interpreter.random_agent import RandomAgent
from rulesdsl.pipeline import load_ruleset


def test_an_answer_takes_an_offered_copy_not_one_from_a_city():
    rules = load_ruleset((), "classic", 7)
    found = 0
    for seed in range(200):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            d = game.state.pending
            action = game.random_action(rng)
            if d is not None and d.kind == "item" and action.name == "choose":
                first = game.content.item_index[action.args[0]]
                if first not in d.options:   # the first copy lies elsewhere
                    where = game.state.loc[first]
                    offered = [o for o in d.options if game.name(o) == action.args[0]]
                    game.apply(action)
                    assert game.state.loc[first] == where       # not taken from where it lay
                    assert game.state.loc[offered[0]] != game.slot(game.content.zone_index["discard"], 0)
                    found += 1
                    continue
            game.apply(action)
        if found >= 3:
            break
    assert found >= 3


def test_play_out_takes_the_same_copy_as_apply():
    rules = load_ruleset((), "classic", 7)
    for seed in range(40):
        a, b = rules.new_game(seed=seed), rules.new_game(seed=seed)
        play_out(a, [RandomAgent(rng=random.Random(seed))] * 7)
        rng = random.Random(seed)
        while not b.over:
            b._apply(b.random_action(rng))
        assert a.state == b.state, seed
