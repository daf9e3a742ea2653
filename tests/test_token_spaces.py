"""`track.shields` looks through the track's pieces for a token only where the pawn reaches a
space some token of a seat's side lies on (`_token_spaces`, read once from the content).  Games
played with the look at every space are the same, action for action."""

from __future__ import annotations

import pytest

from golden_games import SETS
from played_out import after_each_action
from rulesdsl.pipeline import load_ruleset


def test_the_token_spaces_are_those_of_the_content_tokens():
    content = load_ruleset(*SETS["duel"]).content
    game = load_ruleset(*SETS["duel"]).new_game(seed=0)
    tokens = [it for it in content.items if it.side >= 0]
    assert tokens
    assert game._token_spaces == {it.space for it in tokens}
    assert len(game._token_spaces) < content.track.capital   # (some spaces are skipped)


@pytest.mark.parametrize("seed", [0, 2, 3])   # (games whose pawn reaches a token)
def test_a_pawn_looking_for_tokens_at_their_spaces_only_moves_as_at_every_space(seed):
    rules = load_ruleset(*SETS["duel"])
    plain = after_each_action(rules.new_game(seed=seed), seed)
    game = rules.new_game(seed=seed)
    game._token_spaces = frozenset(range(1, rules.content.track.capital + 1))
    looked = after_each_action(game, seed)
    assert looked == plain
    # (the pawn reached a token in these games: a token left the track)
    track = game.state.zones[game.track_slot]
    assert len(track) < len(rules.new_game(seed=seed).state.zones[game.track_slot])
