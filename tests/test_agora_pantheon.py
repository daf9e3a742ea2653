"""Agora with Pantheon: the turn (a conspiracy first, then a structure card OR a Pantheon
activation), Pantheon's tokens on Agora's structures, Age III with Grand Temples and senators.

Rules: Dutch Agora rulebook shared/seeds/004 (AGORA EN PANTHEON UITBREIDINGEN); token spots
shared/reference/duel-pantheon.yaml (structure_token_spots.with_agora_structures)."""

from __future__ import annotations

import pytest

from agora_positions import (SENATORS, act, advance_to_age, agora_game, any_card, assert_illegal, give_conspiracy,
                             item, names, set_coins, where)
from rulesdsl.interpreter import load_ruleset, new_game
from pantheon_positions import TEMPLES, clear_pantheon, put_god

BOTH = [["pantheon", "agora"], ["agora", "pantheon"]]
MYTHOLOGY_SLOTS = [4, 6, 12, 14, 17]
OFFERING_SLOTS = [7, 9, 12]


def token_slots(game):
    st = game.state
    return sorted(st.structure.index(h) for t, h in st.attached.items()
                  if st.loc[t] == game.structure_slot and h in st.structure)


@pytest.mark.parametrize("expansions", BOTH)
def test_the_combined_layouts_mark_agoras_slots(expansions):
    lays = load_ruleset(expansions).content.layouts
    assert lays["age1"].marks.get("mythology") == MYTHOLOGY_SLOTS
    assert lays["age2"].marks.get("offering") == OFFERING_SLOTS
    assert len(lays["age1"].face_up) == 25 and len(lays["age2"].face_up) == 25 and len(lays["age3"].face_up) == 23


@pytest.mark.parametrize("expansions", BOTH)
@pytest.mark.parametrize("seed", range(3))
def test_mythology_tokens_on_agoras_age_1_slots_offering_tokens_on_its_age_2_slots(expansions, seed):
    game = new_game(expansions=expansions, seed=seed, options=["beginner_wonders"])
    assert token_slots(game) == MYTHOLOGY_SLOTS
    assert all(not game.state.face_up[s] for s in MYTHOLOGY_SLOTS)
    advance_to_age(game, 2)
    assert token_slots(game) == OFFERING_SLOTS
    assert sorted(game.name(t) for t, h in game.state.attached.items() if game.state.loc[t] == game.structure_slot) \
        == ["Offering 2", "Offering 3", "Offering 4"]


@pytest.mark.parametrize("expansions", BOTH)
@pytest.mark.parametrize("seed", range(3))
def test_age_3_holds_17_age_3_cards_3_grand_temples_and_3_senators(expansions, seed):
    game = new_game(expansions=expansions, seed=seed, options=["beginner_wonders"])
    advance_to_age(game, 3)
    laid = [game.name(i) for i in game.state.structure if i >= 0]
    assert len(laid) == 23
    items = game.content.items
    assert sum(1 for n in laid if items[item(game, n)].age == 3) == 17
    assert sum(1 for n in laid if n in TEMPLES.values()) == 3
    assert sum(1 for n in laid if n in SENATORS) == 3
    assert not [n for n in laid if "Guild" in n]


def test_age_1_and_2_of_the_combination_have_25_cards_with_5_senators():
    game = new_game(expansions=["pantheon", "agora"], seed=5, options=["beginner_wonders"])
    for age in (1, 2):
        if age == 2:
            advance_to_age(game, 2)
        laid = [game.name(i) for i in game.state.structure if i >= 0]
        assert len(laid) == 25 and sum(1 for n in laid if n in SENATORS) == 5


def _both_age2():
    game = agora_game(age=2, expansions=("pantheon", "agora"))
    clear_pantheon(game)
    put_god(game, "Tanit", 5)                   # 3 coins for player 0; Tanit gives 12 coins
    return game


def test_a_turn_may_start_with_a_conspiracy_then_a_pantheon_activation():
    game = _both_age2()
    give_conspiracy(game, 0, "Coup", prepared=True)
    assert act("conspire", "Coup") in game.legal_actions()
    assert act("activate", "Tanit") in game.legal_actions()
    game.apply(act("conspire", "Coup"))
    assert game.state.pawn == 2 and game.state.current == 0
    assert act("activate", "Tanit") in game.legal_actions()
    game.apply(act("activate", "Tanit"))
    assert names(game, "gods", 0) == ["Tanit"]
    assert game.state.coins[0] == 7 - 3 + 12
    assert game.state.current == 1 and game.state.pending is None


def test_a_turn_may_start_with_a_conspiracy_then_a_structure_card():
    game = _both_age2()
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    game.apply(act("conspire", "Blackmail"))
    game.apply(act("choose_option", "pass"))
    card = any_card(game)
    game.apply(act("discard", card))
    assert where(game, card) == ("discard", None) and game.state.current == 1


def test_an_activation_ends_the_turn_no_conspiracy_after_it():
    game = _both_age2()
    give_conspiracy(game, 0, "Coup", prepared=True)
    set_coins(game, 0, 7)
    game.apply(act("activate", "Tanit"))
    assert game.state.current == 1
    assert_illegal(game, act("conspire", "Coup"))


def test_the_opponents_chains_decree_borrows_chains_on_cards_not_the_mythology_tokens():
    # Agora: "ketensymbolen op kaarten die jouw tegenstander gebouwd heeft"; a Grand Temple is
    # free to whoever holds its mythology's token (Pantheon), not to the decree's controller.
    from agora_positions import put_accessible, set_decree, set_senate
    from pantheon_positions import give_token
    game = agora_game(age=3, expansions=("pantheon", "agora"))
    set_decree(game, 0, "Decree: opponent's chains")
    set_senate(game, [1, 0, 0, 0, 0, 0], [0] * 6)
    give_token(game, 1, "Greek token A")
    put_accessible(game, "Greek Grand Temple")
    set_coins(game, 0, 0)
    assert_illegal(game, act("build", "Greek Grand Temple"))
    give_token(game, 0, "Greek token A")   # (its own token: free, as ever)
    game.apply(act("build", "Greek Grand Temple"))
    assert "Greek Grand Temple" in game.items_in("city", 0) and game.state.coins[0] == 0


# -- the two expansions' pieces together --------------------------------------------------------------

def test_minerva_also_stops_the_pawn_pushed_back_by_a_lost_shield_decree():
    # Pantheon: the conflict pawn stops before Minerva's space "wanneer de conflict-pion dit veld
    # zou moeten betreden" (whatever moves it); only Agora moves it backwards (reference U7: BGA
    # stops a move into Minerva's space in either direction too).  docs/rules-notes.md, Pantheon.
    from agora_positions import add_cubes, remove_cubes, set_decree, zone_id
    from pantheon_positions import minerva_pawn
    game = agora_game(age=2, expansions=("pantheon", "agora"))
    set_decree(game, 0, "Decree: shield")
    add_cubes(game, 0, 0)                        # player 0 controls it: the pawn moves to +1
    assert game.state.pawn == 1
    minerva = minerva_pawn(game)
    game.place(minerva, zone_id(game, "track"), 0, 0)   # Minerva on the centre space
    remove_cubes(game, 0, 0)                     # control lost: the pawn would go back to 0
    assert game.state.pawn == 1
    assert game.state.loc[minerva] != game.track_slot     # discarded once it stopped the pawn


def test_blackmail_takes_half_the_treasury_and_never_astartes_coins():
    # Pantheon: Astarte's coins are not in the treasury ("geen onderdeel van de schatkist") and
    # are safe from coin losses; Agora's Blackmail takes half "van de munten" of the opponent.
    from agora_positions import answer
    from pantheon_positions import give_god
    game = _both_age2()
    give_god(game, 1, "Astarte")
    astarte = item(game, "Astarte")
    game.state.item_coins[astarte] = 7
    set_coins(game, 1, 5)
    give_conspiracy(game, 0, "Blackmail", prepared=True)
    game.apply(act("conspire", "Blackmail"))
    answer(game, "pass")
    assert game.state.coins == [7 + 3, 5 - 3]    # half of 5, rounded up
    assert game.state.item_coins[astarte] == 7


def test_neptune_in_an_agora_game_applies_a_senate_token_for_the_activator():
    # Agora's military tokens replace the base ones; Neptune applies one "in your favour": the
    # small token places one of the activator's cubes (reference NOTES, Neptune).
    from agora_positions import MILITARY, answer, senate, supply
    game = _both_age2()
    put_god(game, "Neptune", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Neptune"))
    assert sorted(a.args[0] for a in game.legal_actions()) == sorted(MILITARY.values())
    answer(game, MILITARY[(0, "large")])         # discarded unused
    answer(game, MILITARY[(0, "small")])         # on player 0's own side: still for player 0
    answer(game, 3)
    assert senate(game) == [[0, 0, 0, 1, 0, 0], [0] * 6] and supply(game, 0) == 11
    track = [game.name(i) for i in game.state.zones[game.track_slot]]
    assert MILITARY[(0, "large")] not in track and MILITARY[(0, "small")] not in track
