"""Agora: the wonders Curia Julia and Knossos (effects when chosen in the wonder draft and when
built) and the progress tokens Corruption and Organized Crime.

Rules: Dutch Agora rulebook shared/seeds/004 (Wonder kaarten, Vooruitgang-fiches, VOORBEREIDING);
facts shared/reference/duel-agora.yaml (wonders, progress_tokens, setup)."""

from __future__ import annotations

from agora_positions import (act, agora_game, answer, any_card, conspiracy_deck, give, give_conspiracy, is_hidden,
                             item, names, offered, put_accessible, recruit, senate, set_board_tokens, set_coins,
                             set_conspiracy_deck, set_senate, set_wonders, where)
from rulesdsl.interpreter import new_game

OTHERS = ["Pyramids", "Colossus", "Piraeus", "Appian Way", "Great Library", "Sphinx"]


def draft(first, second, seed=3, more=None):
    """A non-beginner Agora game whose first draft shows `first`, `second` and 2 base wonders;
    player 0 picks first."""
    script = {"wonder_deck": [first, second, *OTHERS]}
    script.update(more or {})
    game = new_game(expansions=["agora"], seed=seed, script=script)
    assert game.state.pending is not None and game.state.pending.player == 0
    assert sorted(offered(game)) == sorted([first, second, *OTHERS[:2]])
    return game


def finish_draft(game):
    """Answer the rest of the draft with the first option offered."""
    while game.state.pending is not None:
        answer(game, offered(game)[0])
    assert game.state.flow == "turn"


def test_the_agora_wonders_and_tokens_join_the_base_ones():
    game = agora_game()
    wonders = [it.name for it in game.content.items if it.kind == "wonder"]
    assert "Curia Julia" in wonders and "Knossos" in wonders and len(wonders) == 14
    tokens = [it.name for it in game.content.items if it.kind == "token"]
    assert "Corruption" in tokens and "Organized Crime" in tokens and len(tokens) == 12
    assert len(names(game, "board_tokens")) == 5 and len(names(game, "progress_deck")) == 7


def test_wonder_costs():
    game = agora_game()
    res = game.content.resources
    def cost(name):
        c = game.content.items[item(game, name)].cost
        return {r: n for r, n in zip(res, c.resources) if n}, c.coins
    assert cost("Curia Julia") == ({"wood": 1, "clay": 1, "stone": 1, "glass": 1, "papyrus": 1}, 0)
    assert cost("Knossos") == ({"wood": 1, "clay": 1, "stone": 1, "glass": 2}, 0)


# -- chosen in the draft ---------------------------------------------------------------------------

def test_curia_julia_chosen_in_the_draft_draws_2_conspiracies_keeps_1():
    game = draft("Curia Julia", "Knossos")
    answer(game, "Curia Julia")
    assert game.state.pending.player == 0
    drawn = offered(game)
    assert len(drawn) == 2
    answer(game, drawn[1])
    assert offered(game) == ["top", "bottom"]
    answer(game, "bottom")
    assert names(game, "conspiracies", 0) == [drawn[1]]
    assert game.state.pending.player == 1                          # the draft goes on
    finish_draft(game)
    assert names(game, "conspiracies", 0) == [drawn[1]] and names(game, "conspiracies", 1) == []
    assert len(conspiracy_deck(game)) == 15
    assert where(game, "Curia Julia") == ("wonders", 0)


def test_curia_julia_draws_from_the_shuffled_conspiracy_deck():
    # Set-up (rulebook VOORBEREIDING): the conspiracy deck is shuffled before the wonders are
    # chosen, so Curia Julia's draw is the top of the shuffled deck.
    game = draft("Curia Julia", "Knossos", more={"conspiracy_deck": ["Coup", "Blackmail"]})
    answer(game, "Curia Julia")
    assert sorted(offered(game)) == ["Blackmail", "Coup"], \
        f"Curia Julia drew {offered(game)} from an unshuffled deck"


def test_curia_julia_the_card_put_back_on_top_stays_on_top():
    game = draft("Curia Julia", "Knossos")
    answer(game, "Curia Julia")
    kept, back = offered(game)
    answer(game, kept, "top")
    finish_draft(game)
    assert conspiracy_deck(game)[-1] == back, "the conspiracy put back on top was shuffled away"


def test_knossos_chosen_in_the_draft_places_a_cube():
    game = draft("Knossos", "Curia Julia")
    answer(game, "Knossos")
    assert offered(game) == [str(s) for s in range(6)]
    answer(game, 4)
    assert senate(game) == [[0, 0, 0, 0, 1, 0], [0] * 6]
    finish_draft(game)
    assert game.state.control["senate"][4] == 0
    assert where(game, "Knossos") == ("wonders", 0)


def test_knossos_chosen_cube_on_a_face_down_chamber_turns_its_decree_up():
    # The decrees are on the Senate before the wonders are chosen (VOORBEREIDING), so the cube
    # placed by Knossos's selection effect in chamber 1 turns that decree up.
    game = draft("Knossos", "Curia Julia")
    answer(game, "Knossos", 1)
    finish_draft(game)
    st = game.state
    (decree,) = [i for i in st.zones[game.slot(game.content.zone_index["decrees"], 0)] if st.positions[i] == 1]
    assert st.control["senate"][1] == 0
    assert not is_hidden(game, game.name(decree)), "the decree of chamber 1 stays face down under player 0's cube"


def test_a_wonder_taken_later_does_not_repeat_its_selection_effect():
    game = agora_game()
    set_wonders(game, 1, "Knossos")
    give_conspiracy(game, 0, "Extortion", prepared=True)
    game.apply(act("conspire", "Extortion"))
    answer(game, "Knossos", "pass")
    assert where(game, "Knossos") == ("wonders", 0)
    assert senate(game) == [[0] * 6, [0] * 6] and game.state.pending is None


# -- built ---------------------------------------------------------------------------------------

def test_curia_julia_built_may_trigger_an_unprepared_conspiracy_6_coins_play_again():
    game = agora_game()
    set_wonders(game, 0, "Curia Julia")
    give_conspiracy(game, 0, "Coup")
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    set_coins(game, 0, 10)                                         # 5 resources at 2
    game.apply(act("wonder", any_card(game), "Curia Julia"))
    assert offered(game) == ["Coup", "pass"]                       # only the unprepared one
    answer(game, "Coup")
    assert game.state.pawn == 2
    assert where(game, "Coup") == ("conspired", 0)
    assert game.state.coins[0] == 0 + 6
    assert game.state.pending is None and game.state.current == 0  # another turn
    assert act("conspire", "Blackmail") in game.legal_actions()    # which may start with a conspiracy


def test_curia_julia_the_conspiracy_is_optional():
    game = agora_game()
    set_wonders(game, 0, "Curia Julia")
    give_conspiracy(game, 0, "Coup")
    set_coins(game, 0, 10)
    game.apply(act("wonder", any_card(game), "Curia Julia"))
    answer(game, "pass")
    assert where(game, "Coup") == ("conspiracies", 0) and game.state.pawn == 0
    assert game.state.coins[0] == 6 and game.state.current == 0


def test_curia_julia_after_a_conspiracy_at_the_start_of_the_turn():
    game = agora_game()
    set_wonders(game, 0, "Curia Julia")
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    give_conspiracy(game, 0, "Coup")
    set_coins(game, 0, 10)
    game.apply(act("conspire", "Blackmail"))
    answer(game, "pass")
    assert game.state.coins == [14, 3]
    game.apply(act("wonder", any_card(game), "Curia Julia"))
    answer(game, "Coup")
    assert game.state.pawn == 2 and game.state.coins[0] == 4 + 6


def test_curia_julia_without_conspiracies():
    game = agora_game()
    set_wonders(game, 0, "Curia Julia")
    set_coins(game, 0, 10)
    game.apply(act("wonder", any_card(game), "Curia Julia"))
    assert game.state.pending is None and game.state.coins[0] == 6 and game.state.current == 0


def test_knossos_built_places_a_cube_may_move_one_and_is_worth_3_vp():
    game = agora_game()
    set_wonders(game, 0, "Knossos")
    set_coins(game, 0, 10)
    game.apply(act("wonder", any_card(game), "Knossos"))
    assert offered(game) == [str(s) for s in range(6)]
    answer(game, 2)
    assert offered(game) == ["move", "pass"]
    answer(game, "move", 2, 3)
    assert senate(game)[0] == [0, 0, 0, 1, 0, 0]
    assert game.state.pending is None and game.state.current == 1  # no extra turn
    assert game.score(0)["wonder"] == 3


def test_knossos_built_with_an_empty_supply():
    game = agora_game()
    set_senate(game, [12, 0, 0, 0, 0, 0], [0] * 6)
    set_wonders(game, 0, "Knossos")
    set_coins(game, 0, 10)
    game.apply(act("wonder", any_card(game), "Knossos"))
    answer(game, "move", 0, 1)
    assert senate(game)[0] == [11, 1, 0, 0, 0, 0]


# -- progress tokens ------------------------------------------------------------------------------

def test_corruption_taken_with_a_science_pair_makes_senators_free():
    game = agora_game(age=2)
    set_board_tokens(game, "Corruption", "Law")
    give(game, 0, "Workshop", "Conspirator A", "Conspirator B")
    set_coins(game, 0, 30)
    assert game.price(0, item(game, "Politician (left) A"))[0] == 2
    put_accessible(game, "Laboratory")                              # a second plumb bob
    game.apply(act("build", "Laboratory"))
    answer(game, "Corruption")
    assert where(game, "Corruption") == ("tokens", 0)
    assert game.price(0, item(game, "Politician (left) A"))[0] == 0
    assert game.price(1, item(game, "Politician (left) A"))[0] == 0  # player 1 has no senator


def test_organized_crime_keeps_both_conspiracies_when_conspiring():
    game = agora_game()
    give(game, 1, "Organized Crime")
    set_conspiracy_deck(game, "Treason", "Coup", "Sabotage")
    recruit(game, "Conspirator A")                                  # player 0: keeps one
    answer(game, "conspire", "Coup", "top")
    assert names(game, "conspiracies", 0) == ["Coup"] and conspiracy_deck(game) == ["Treason", "Sabotage"]
    recruit(game, "Conspirator B")                                  # player 1: keeps both
    answer(game, "conspire")
    assert sorted(names(game, "conspiracies", 1)) == ["Sabotage", "Treason"]
    assert conspiracy_deck(game) == [] and game.state.pending is None


def test_organized_crime_with_curia_julia():
    game = agora_game()
    give(game, 0, "Organized Crime")
    set_conspiracy_deck(game, "Treason", "Coup", "Sabotage")
    from agora_positions import zone_id
    game.claim(item(game, "Curia Julia"), zone_id(game, "wonders"), 0)   # the selection effect
    game.advance()
    assert sorted(names(game, "conspiracies", 0)) == ["Coup", "Sabotage"]
    assert game.state.pending is None


def test_a_wrong_answer_to_an_optional_choice_is_refused_as_illegal():
    # apply() must raise IllegalAction (and change nothing) for an answer that is not offered,
    # also when the decision may be passed (its `pass` answer has no argument).
    from agora_positions import assert_illegal
    from rulesdsl.interpreter import Action
    game = agora_game()
    set_wonders(game, 0, "Curia Julia")
    give_conspiracy(game, 0, "Coup")
    set_coins(game, 0, 10)
    game.apply(act("wonder", any_card(game), "Curia Julia"))
    assert offered(game) == ["Coup", "pass"]
    reason = assert_illegal(game, Action("choose", ("Blackmail",)))
    assert "Coup" in reason
