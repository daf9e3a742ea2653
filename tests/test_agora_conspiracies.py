"""Agora: preparing and triggering conspiracies, and each of the 16 conspiracies.

Rules: Dutch Agora rulebook shared/seeds/004 (B. Een samenzwering voorbereiden, C. Een samenzwering
uitvoeren, symbol pages); names and details shared/reference/duel-agora.yaml (conspiracies);
clarifications shared/reference/duel-expansions-NOTES.md section 3."""

from __future__ import annotations

import pytest

from agora_positions import (CONSPIRACIES, act, add_cubes, agora_game, answer, any_card, assert_illegal, control,
                             decrees, give, give_conspiracy, give_wonders, item, leave_only, names,
                             offered, put_accessible, put_in_slot, senate, set_board_tokens, set_coins, set_decree,
                             set_pawn, set_senate, set_turn, set_wonders, where)
from rulesdsl.interpreter.observation import observe


def trigger(game, name, player=0, prepared=True):
    """Give the player a prepared conspiracy and trigger it at the start of their turn."""
    set_turn(game, player)
    give_conspiracy(game, player, name, prepared=prepared)
    game.apply(act("conspire", name))


def normal_action_follows(game, player=0):
    """After the conspiracy, the same player takes a normal action (and no second conspiracy)."""
    assert game.state.pending is None and game.state.current == player and not game.over
    acts = game.legal_actions()
    assert acts and all(a.name != "conspire" for a in acts)
    assert "discard" in {a.name for a in acts}


def build_wonder_with(game, player, wonder, card):
    """The wonder built by `player` with `card` tucked under it (no effect runs)."""
    from agora_positions import place
    place(game, card, "box")
    game.move(item(game, wonder), game.content.zone_index["built_wonders"], player)
    game.move(item(game, card), game.content.zone_index["under"], player, onto=item(game, wonder))


# -- preparing -------------------------------------------------------------------------------------

def test_preparing_slides_any_accessible_card_under_a_conspiracy_and_ends_the_turn():
    game = agora_game()
    give_conspiracy(game, 0, "Coup")
    accessible = [game.name(i) for i in game.accessible()]
    offered_cards = {a.args[0] for a in game.legal_actions() if a.name == "prepare"}
    assert offered_cards == set(accessible)                      # any accessible card, senators too
    card = accessible[0]
    game.apply(act("prepare", card, "Coup"))
    assert where(game, card) == ("prepared", 0)
    assert game.state.attached[item(game, card)] == item(game, "Coup")
    assert where(game, "Coup") == ("conspiracies", 0)
    assert game.state.coins == [7, 7] and game.state.pending is None
    assert game.state.current == 1                               # the turn ended


def test_prepare_needs_an_unprepared_conspiracy():
    game = agora_game()
    card = any_card(game)
    assert all(a.name != "prepare" for a in game.legal_actions())          # no conspiracy at all
    give_conspiracy(game, 0, "Coup", prepared=True)
    assert all(a.name != "prepare" for a in game.legal_actions())          # only a prepared one
    assert_illegal(game, act("prepare", card, "Coup"))
    give_conspiracy(game, 0, "Blackmail")
    assert {a.args[1] for a in game.legal_actions() if a.name == "prepare"} == {"Blackmail"}


def test_the_card_of_a_prepared_conspiracy_is_hidden_from_the_opponent():
    game = agora_game()
    give_conspiracy(game, 0, "Coup")
    card = any_card(game)
    game.apply(act("prepare", card, "Coup"))
    assert card not in str(observe(game, 1)["zones"])


# -- triggering ------------------------------------------------------------------------------------

def test_a_prepared_conspiracy_is_triggered_at_the_start_of_a_turn_then_a_normal_action():
    game = agora_game()
    give_conspiracy(game, 0, "Coup", prepared=True)
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    give_conspiracy(game, 0, "Treason")                                    # not prepared
    conspire = sorted(a.args[0] for a in game.legal_actions() if a.name == "conspire")
    assert conspire == ["Blackmail", "Coup"]
    game.apply(act("conspire", "Coup"))
    assert game.state.pawn == 2
    assert where(game, "Coup") == ("conspired", 0)
    under = [n for n in names(game, "prepared", 0) if game.state.attached.get(item(game, n)) == item(game, "Coup")]
    assert len(under) == 1                                                 # the age card stays under it
    assert "Coup" in observe(game, 1)["zones"]["conspired"]["0"]           # face up now
    normal_action_follows(game)                                            # one conspiracy per turn
    assert_illegal(game, act("conspire", "Blackmail"))
    game.apply(act("discard", any_card(game)))
    assert game.state.current == 1
    assert all(a.name != "conspire" for a in game.legal_actions())         # player 1 has none
    game.apply(act("discard", any_card(game)))
    assert sorted(a.args[0] for a in game.legal_actions() if a.name == "conspire") == ["Blackmail"]


def test_no_conspiracy_after_the_normal_action_of_the_turn():
    game = agora_game()
    give_conspiracy(game, 0, "Coup", prepared=True)
    give_wonders(game, 0, "Piraeus")                       # Piraeus: play again
    set_coins(game, 0, 30)
    card = any_card(game)
    game.apply(act("wonder", card, "Piraeus"))
    # An extra turn is a new turn: it may start with a conspiracy.
    assert game.state.current == 0
    assert act("conspire", "Coup") in game.legal_actions()


def test_a_conspiracy_may_start_the_first_turn_of_the_next_age():
    # The player who took the last card of Age I began that turn with a conspiracy; the first
    # turn of Age II is a new turn and may start with another one.
    game = agora_game()
    give_conspiracy(game, 0, "Coup", prepared=True)
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    last = any_card(game)
    leave_only(game, last)
    game.apply(act("conspire", "Coup"))
    game.apply(act("discard", last))
    while game.state.pending is not None:                  # who begins Age II: player 0
        answer(game, "p0")
    assert game.state.age == 1 and game.state.current == 0 and game.state.flow == "turn"
    assert act("conspire", "Blackmail") in game.legal_actions(), \
        "the first turn of Age II cannot start with a conspiracy"


def test_each_conspiracy_once_triggered_cannot_be_triggered_again():
    game = agora_game()
    trigger(game, "Coup")
    game.apply(act("discard", any_card(game)))
    game.apply(act("discard", any_card(game)))
    assert game.state.current == 0
    assert all(a.name != "conspire" for a in game.legal_actions())
    assert all(a.name != "prepare" for a in game.legal_actions())


def test_sixteen_conspiracies():
    game = agora_game()
    assert sorted(it.name for it in game.content.items if it.kind == "conspiracy") == sorted(CONSPIRACIES)
    assert sorted(names(game, "conspiracy_deck")) == sorted(CONSPIRACIES)


# -- the 16 conspiracies --------------------------------------------------------------------------

def test_extortion_steals_an_unbuilt_wonder_then_may_move():
    game = agora_game()
    set_senate(game, [0, 0, 1, 0, 0, 0], [0] * 6)
    build_wonder_with(game, 1, "Colossus", "Guard Tower")
    trigger(game, "Extortion")
    assert offered(game) == ["Circus Maximus", "Piraeus", "Appian Way"]   # not the built Colossus
    answer(game, "Piraeus")
    assert where(game, "Piraeus") == ("wonders", 0)
    assert offered(game) == ["move", "pass"]
    answer(game, "move", 2, 3)
    assert senate(game)[0] == [0, 0, 0, 1, 0, 0]
    normal_action_follows(game)


def test_blackmail_takes_half_the_opponents_coins_rounded_up():
    for coins, taken in [(7, 4), (8, 4), (1, 1), (0, 0)]:
        game = agora_game()
        set_coins(game, 1, coins)
        trigger(game, "Blackmail")
        answer(game, "pass")
        assert game.state.coins == [7 + taken, coins - taken], coins
        normal_action_follows(game)


def test_expropriation_discards_a_blue_card_of_the_opponent():
    game = agora_game()
    give(game, 1, "Theater", "Altar", "Tavern")
    give(game, 0, "Baths")
    trigger(game, "Expropriation")
    assert offered(game) == ["Theater", "Altar"]
    answer(game, "Altar", "pass")
    assert where(game, "Altar") == ("discard", None) and where(game, "Baths") == ("city", 0)
    assert game.score(1).get("blue") == 3
    normal_action_follows(game)


def test_swindle_discards_a_yellow_card_of_the_opponent():
    game = agora_game()
    give(game, 1, "Theater", "Wood Reserve")
    trigger(game, "Swindle")
    assert offered(game) == ["Wood Reserve"]
    answer(game, "Wood Reserve", "pass")
    assert where(game, "Wood Reserve") == ("discard", None)
    assert game.price(1, item(game, "Stable"))[0] == 2            # no more wood at 1
    normal_action_follows(game)


def test_obscurantism_locks_a_progress_token_of_the_board_the_opponent_or_out_of_the_game():
    game = agora_game()
    set_board_tokens(game, "Law", "Economy")
    give(game, 1, "Agriculture")
    give(game, 0, "Strategy")
    trigger(game, "Obscurantism")
    choice = set(offered(game))
    out_of_game = set(names(game, "progress_deck"))
    assert choice == {"Law", "Economy", "Agriculture"} | out_of_game
    assert "Strategy" not in choice                              # not one of your own
    assert game.score(1)["token"] == 4
    answer(game, "Agriculture")
    assert where(game, "Agriculture") == ("locked", None)
    assert game.state.attached[item(game, "Agriculture")] == item(game, "Obscurantism")
    assert game.score(1).get("token", 0) == 0                    # nobody uses it any more
    normal_action_follows(game)


def test_obscurantism_lays_a_token_from_out_of_the_game_face_down_unseen_by_the_opponent():
    # "Kies 1 vooruitgang-fiche van het bord of van jouw tegenstander of dat buiten het spel ligt
    # en leg deze gesloten op deze samenzwering": face down; one from out of the game the
    # opponent never sees (its chooser saw it, in the choice).
    import json
    game = agora_game()
    trigger(game, "Obscurantism")
    chooser = game.state.pending.player
    token = sorted(names(game, "progress_deck"))[0]
    answer(game, token)
    assert where(game, token) == ("locked", None)
    assert token not in json.dumps(observe(game, 1 - chooser))
    assert token not in json.dumps(observe(game, chooser))   # face down: the state keeps no memory of it


def test_obscurantism_on_a_board_token_keeps_it_from_both_players():
    game = agora_game()
    set_board_tokens(game, "Law", "Economy")
    trigger(game, "Obscurantism")
    answer(game, "Law")
    assert names(game, "board_tokens") == ["Economy"]


def test_coup_moves_the_pawn_2_towards_the_opponent():
    game = agora_game()
    set_pawn(game, -1)
    trigger(game, "Coup", player=0)
    assert game.state.pawn == 1
    normal_action_follows(game)
    game = agora_game()
    trigger(game, "Coup", player=1)
    assert game.state.pawn == -2


def test_property_fraud_builds_a_back_row_card_for_free_even_covered_never_a_senator():
    game = agora_game()
    st = game.state
    put_in_slot(game, "Politician (left) A", 0)
    put_in_slot(game, "Baths", 1)                                # costs a stone
    put_in_slot(game, "Stable", 2)
    set_coins(game, 0, 0)
    trigger(game, "Property Fraud")
    assert offered(game) == ["Baths", "Stable"]                  # the back row (3 cards), no senator
    assert all(st.structure[s] not in game.accessible() for s in (1, 2))
    answer(game, "Baths")
    assert where(game, "Baths") == ("city", 0) and game.state.coins == [0, 7]
    assert game.score(0)["blue"] == 3
    normal_action_follows(game)


def test_property_fraud_back_row_of_age_2_is_the_row_of_7():
    game = agora_game(age=2)
    lay = game.content.layouts[game.state.layout]
    back = [game.name(game.state.structure[s]) for s in range(len(lay.face_up)) if lay.row_of[s] == 0]
    assert len(back) == 7
    trigger(game, "Property Fraud")
    assert sorted(offered(game)) == sorted(n for n in back if game.content.items[item(game, n)].color
                                           not in ("white", "black"))


def _removed(game):
    # (the guilds left out of Age III lie in the box too: Age III cards, never removed at set-up)
    return sorted(n for n in names(game, "box") if game.content.items[item(game, n)].kind == "card"
                  and game.content.items[item(game, n)].age and game.content.items[item(game, n)].color != "purple")


@pytest.mark.parametrize("age,count", [(1, 3), (2, 6), (3, 9)])
def test_treason_builds_for_free_a_card_removed_at_setup_of_this_or_an_earlier_age(age, count):
    game = agora_game(age=age)
    removed = _removed(game)
    assert len(removed) == count
    assert all(game.content.items[item(game, n)].age <= age for n in removed)
    set_coins(game, 0, 0)
    trigger(game, "Treason")
    assert sorted(offered(game)) == removed
    pick = removed[0]
    answer(game, pick)
    assert where(game, pick) == ("city", 0) and game.state.coins[0] >= 0
    normal_action_follows(game)


def test_political_maneuver_places_removes_then_may_move():
    game = agora_game()
    set_senate(game, [0] * 6, [0, 1, 0, 0, 2, 0])
    trigger(game, "Political Maneuver")
    assert offered(game) == [str(s) for s in range(6)]
    answer(game, 1)                                             # place: 1 - 1 in chamber 1
    assert offered(game) == ["1", "4"]                          # chambers with an opponent cube
    answer(game, 1)
    assert senate(game) == [[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 2, 0]] and control(game)[1] == 0
    answer(game, "move", 1, 0)
    assert senate(game)[0] == [1, 0, 0, 0, 0, 0]
    normal_action_follows(game)


def test_espionage_takes_one_of_the_progress_tokens_removed_at_setup():
    game = agora_game()
    out = sorted(names(game, "progress_deck"))
    assert len(out) == 12 - 5
    trigger(game, "Espionage")
    assert sorted(offered(game)) == out
    pick = "Agriculture" if "Agriculture" in out else out[0]
    answer(game, pick)
    assert where(game, pick) == ("tokens", 0)
    if pick == "Agriculture":
        assert game.state.coins[0] == 7 + 6                     # its effect applies
    normal_action_follows(game)


def test_turn_of_events_discards_one_accessible_card_and_optionally_a_second():
    game = agora_game()
    acc = [game.name(i) for i in game.accessible()]
    trigger(game, "Turn Of Events")
    assert offered(game) == acc
    answer(game, acc[0])
    assert "pass" in offered(game)
    answer(game, acc[1])
    assert where(game, acc[0]) == ("discard", None) and where(game, acc[1]) == ("discard", None)
    answer(game, "pass")                                        # no cube move
    normal_action_follows(game)
    game = agora_game()
    acc = [game.name(i) for i in game.accessible()]
    trigger(game, "Turn Of Events")
    answer(game, acc[3], None, "pass")                          # the second discard is optional
    assert names(game, "discard") == [acc[3]]
    normal_action_follows(game)


def test_turn_of_events_cards_it_uncovers_are_turned_up_before_the_normal_action():
    game = agora_game()
    st = game.state
    lay = game.content.layouts[st.layout]
    covered = next(s for s in range(len(lay.face_up)) if not lay.face_up[s] and len(lay.covered_by[s]) == 2
                   and all(not lay.covered_by[c] for c in lay.covered_by[s]))
    a, b = (game.name(st.structure[c]) for c in lay.covered_by[covered])
    hidden = game.name(st.structure[covered])
    trigger(game, "Turn Of Events")
    answer(game, a, b, "pass")
    assert st.structure[covered] in game.accessible()
    assert st.face_up[covered], "a card uncovered by the conspiracy is still face down during the turn"
    assert observe(game, 0)["structure"][covered]["card"] == hidden


def test_turn_of_events_the_second_discard_is_never_a_card_still_face_down():
    game = agora_game()
    st = game.state
    lay = game.content.layouts[st.layout]
    covered = next(s for s in range(len(lay.face_up)) if not lay.face_up[s] and len(lay.covered_by[s]) == 2
                   and all(not lay.covered_by[c] for c in lay.covered_by[s]))
    a, b = (game.name(st.structure[c]) for c in lay.covered_by[covered])
    game.apply(act("discard", b))                               # player 0; `covered` still lies under a
    game.apply(act("discard", any_card(game, avoid=(a,))))      # player 1
    assert not st.face_up[covered]
    trigger(game, "Turn Of Events")
    answer(game, a)                                             # uncovers `covered`
    choice = [n for n in offered(game) if n != "pass"]
    for name in choice:
        assert st.face_up[st.structure.index(item(game, name))], f"{name} is offered face down"


def test_embezzlement_coins_for_own_cubes_opponent_loses_for_theirs():
    game = agora_game()
    set_senate(game, [1, 0, 2, 0, 0, 0], [0, 1, 0, 0, 0, 1])
    trigger(game, "Embezzlement")
    assert game.state.coins == [7 + 3, 7 - 2]
    normal_action_follows(game)
    game = agora_game()
    set_senate(game, [0] * 6, [5, 5, 0, 0, 0, 0])
    trigger(game, "Embezzlement")
    assert game.state.coins == [7, 0]                           # never below 0


def test_foreclosure_takes_a_brown_or_grey_card_of_the_opponent():
    game = agora_game()
    give(game, 1, "Lumber Yard", "Glassworks", "Theater")
    trigger(game, "Foreclosure")
    assert offered(game) == ["Lumber Yard", "Glassworks"]
    answer(game, "Glassworks")
    assert where(game, "Glassworks") == ("city", 0)
    assert game.production(0, "glass", None) == 1 and game.production(1, "glass", None) == 0
    normal_action_follows(game)


def test_coercion_swaps_a_blue_or_green_card_for_one_of_the_same_colour():
    game = agora_game()
    give(game, 1, "Theater", "Workshop", "Tavern")
    give(game, 0, "Altar", "Pharmacist")
    trigger(game, "Coercion")
    assert offered(game) == ["Theater", "Workshop"]
    answer(game, "Workshop")
    assert offered(game) == ["Pharmacist"]                      # only green ones of yours
    answer(game, "Pharmacist")
    assert where(game, "Workshop") == ("city", 0) and where(game, "Pharmacist") == ("city", 1)
    assert offered(game) == ["move", "pass"]
    answer(game, "pass")
    normal_action_follows(game)


def test_coercion_without_a_card_of_that_colour_gives_nothing_back():
    game = agora_game()
    give(game, 1, "Theater")
    give(game, 0, "Workshop")
    trigger(game, "Coercion")
    answer(game, "Theater")
    assert where(game, "Theater") == ("city", 0) and where(game, "Workshop") == ("city", 0)
    assert offered(game) == ["move", "pass"]


def test_insider_influence_moves_a_decree_under_another_the_empty_chamber_still_counts():
    game = agora_game()
    set_decree(game, 0, "Decree: discard bonus")
    set_decree(game, 3, "Decree: blue coins")
    trigger(game, "Insider Influence")
    assert sorted(offered(game)) == ["Decree: blue coins", "Decree: discard bonus"]
    answer(game, "Decree: discard bonus")
    assert offered(game) == ["1", "2", "3", "4", "5"]           # any other chamber
    answer(game, 3, "pass")
    assert decrees(game) == {3: ["Decree: blue coins", "Decree: discard bonus"]}
    normal_action_follows(game)
    # The controller of chamber 3 benefits from both decrees.
    add_cubes(game, 1, 3)
    set_turn(game, 1)
    put_accessible(game, "Theater")
    game.apply(act("build", "Theater"))
    assert game.state.coins[1] == 7 + 1
    set_turn(game, 1)
    game.apply(act("discard", any_card(game)))
    assert game.state.coins[1] == 7 + 1 + 4
    # Chamber 0 has no decree: it still scores and counts for supremacy.
    add_cubes(game, 0, 0)
    assert control(game)[0] == 0 and game.score(0)["senate"] == 1
    set_senate(game, [1, 1, 1, 1, 1, 0], [0] * 6)
    add_cubes(game, 0, 5)
    assert game.over and game.state.winner == 0 and game.state.victory == "political"


def test_sabotage_sends_a_built_wonder_to_the_box_its_card_to_the_discard_and_its_effects_are_lost():
    game = agora_game()
    build_wonder_with(game, 1, "Pyramids", "Tavern")
    build_wonder_with(game, 1, "Piraeus", "Altar")
    give_wonders(game, 1, "Colossus")                           # not built: not a target
    assert game.score(1)["wonder"] == 9 + 2
    assert game.price(1, item(game, "Apothecary"))[0] == 0      # Piraeus makes glass (or papyrus)
    trigger(game, "Sabotage")
    assert offered(game) == ["Pyramids", "Piraeus"]
    answer(game, "Piraeus")
    assert where(game, "Piraeus") == ("box", None)
    assert where(game, "Altar") == ("discard", None)
    assert game.score(1)["wonder"] == 9                          # its VP are lost
    assert game.price(1, item(game, "Apothecary"))[0] == 2      # and its production
    assert where(game, "Colossus") == ("wonders", 1)
    normal_action_follows(game)


@pytest.mark.parametrize("name", ["Extortion", "Expropriation", "Swindle", "Foreclosure", "Coercion", "Sabotage",
                                  "Insider Influence"])
def test_a_conspiracy_with_nothing_to_take_does_nothing_and_the_turn_goes_on(name):
    game = agora_game()
    set_wonders(game, 1)
    trigger(game, name)
    while game.state.pending is not None:
        answer(game, "pass" if "pass" in offered(game) else offered(game)[0])
        if game.state.pending is not None and game.state.pending.kind == "space":
            answer(game, offered(game)[0])
    normal_action_follows(game)


def test_turn_of_events_taking_the_last_cards_ends_the_age_without_a_normal_action():
    game = agora_game()
    a, b = [game.name(i) for i in game.accessible()[:2]]
    leave_only(game, a, b)
    trigger(game, "Turn Of Events")
    answer(game, a, b, "pass")
    # Nothing is left to take: the age is over (the player who took the last card chooses who begins).
    while game.state.pending is not None:
        assert game.state.pending.kind == "player"
        answer(game, "p1")
    assert game.state.age == 1 and game.state.flow == "turn" and game.state.current == 1
    assert len([i for i in game.state.structure if i >= 0]) == 25


def test_a_conspiracy_may_win_the_game_at_the_start_of_the_turn():
    game = agora_game()
    set_pawn(game, 7)
    trigger(game, "Coup")
    assert game.over and game.state.winner == 0 and game.state.victory == "military"
    game = agora_game()
    set_senate(game, [1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 1])
    trigger(game, "Political Maneuver")
    answer(game, 4, 5)                          # place in 4, remove player 1's cube in 5: 5 of 6
    assert not game.over
    answer(game, "move", 4, 5)                  # 2 in chamber 4, move one to 5: all 6
    assert game.over and game.state.winner == 0 and game.state.victory == "political"


def test_insider_influence_offers_a_face_down_decree_by_its_chamber_not_its_name():
    # A face-down decree is picked unseen: the answer names its chamber, and neither the mask
    # nor the observation tells the chooser what it is; moved, it is turned up (rules-notes).
    import json
    game = agora_game()
    set_decree(game, 0, "Decree: discard bonus")
    set_decree(game, 3, "Decree: blue coins", face_down=True)
    trigger(game, "Insider Influence")
    assert sorted(offered(game)) == ["Decree: discard bonus", "decrees 3 (face down)"]
    chooser = game.state.pending.player
    assert "Decree: blue coins" not in json.dumps(observe(game, chooser))
    answer(game, "decrees 3 (face down)")
    answer(game, 1, "pass")
    assert decrees(game) == {0: ["Decree: discard bonus"], 1: ["Decree: blue coins"]}
    assert item(game, "Decree: blue coins") not in game.state.hidden


def test_insider_influence_moving_the_shield_decree_keeps_its_pawn_moves_balanced():
    # The shield decree is "one shield while controlled" (cards/duel-agora/decrees.rules): moved
    # by Insider Influence into a chamber player 0 controls, it now works for player 0 (pawn 1
    # towards player 1); when player 0 later loses that chamber to a tie the shield is lost
    # again: the pawn is back where it was, never 1 towards player 0.
    game = agora_game()
    set_decree(game, 3, "Decree: shield")                         # nobody controls chamber 3
    set_senate(game, [1, 0, 0, 0, 0, 0], [0] * 6)                 # player 0 controls chamber 0
    trigger(game, "Insider Influence")
    answer(game, "Decree: shield", 0, "pass")
    assert decrees(game) == {0: ["Decree: shield"]}
    pawn_with_decree = game.state.pawn
    add_cubes(game, 1, 0)                                         # 1 - 1: player 0 loses chamber 0
    assert game.state.pawn == 0, f"pawn {game.state.pawn}: player 0 lost a shield the decree never gave"
    assert pawn_with_decree == 1, "the shield decree moved into player 0's chamber gives no shield"
