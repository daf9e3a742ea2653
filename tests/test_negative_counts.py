"""A count below 0 is taken as 0 by every statement that takes a count (check warns of one that
can be, W508); `deal_onto_structure` sliced its slots with it instead, and a count of -1 laid
tokens onto all but one of them."""

from __future__ import annotations

from rulesdsl.interpreter import new_game
from rulesdsl.interpreter.structure import deal_onto_structure, marked_slots


def test_deal_onto_structure_of_a_negative_count_lays_nothing():
    game = new_game(["pantheon"], seed=2)
    while game.state.pending is not None:
        game.apply(game.legal_actions()[0])
    src = game.content.zone_index["mythology_tokens"]
    slots = [s for s in range(len(game.state.structure)) if game.state.structure[s] >= 0]
    before = repr(game.state)
    for count in (-1, -5, 0):
        deal_onto_structure(game, count, src, slots)
        assert repr(game.state) == before, count
    deal_onto_structure(game, 2, src, slots)   # (a positive count still lays as many)
    assert len(game.state.attached) > 0 and repr(game.state) != before
    assert marked_slots(game, "nothing-marked-so") == []
