"""`track.shields` looks for a piece that stops the pawn at each step only where some item of
the content can (`blocks_pawn`, read once into the game's `_pawn_blockers`): Duel has none, so
its pawn moves without the look; with Pantheon there is one.  Games played with the look forced
on are the same, action for action."""

from __future__ import annotations

import pytest

from golden_games import SETS
from played_out import after_each_action
from rulesdsl.interpreter import Game, track
from rulesdsl.pipeline import load_ruleset


def test_the_content_says_whether_a_piece_may_stop_the_pawn():
    assert not load_ruleset(*SETS["duel"]).new_game(seed=0)._pawn_blockers
    assert load_ruleset(*SETS["pantheon"]).new_game(seed=0)._pawn_blockers


@pytest.mark.parametrize("seed", range(3))
def test_a_pawn_moved_without_looking_for_blockers_moves_as_with_the_look(seed, monkeypatch):
    rules = load_ruleset(*SETS["duel"])
    moves = []
    shields = track.shields
    monkeypatch.setattr(Game, "shields", lambda g, p, n: moves.append(n) or shields(g, p, n))
    plain = after_each_action(rules.new_game(seed=seed), seed)
    game = rules.new_game(seed=seed)
    game._pawn_blockers = True
    assert after_each_action(game, seed) == plain
    assert len(moves) > 6   # (both games moved the pawn)
