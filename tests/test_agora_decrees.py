"""Agora: the 16 decrees, each working for the controller of its chamber only.

Rules: Dutch Agora rulebook shared/seeds/004 (Besluitfiches on the symbol pages); facts
shared/reference/duel-agora.yaml (decrees); clarifications duel-expansions-NOTES.md section 3.
The discard bonus, blue coins, +2 blue and shield decrees have more tests in
test_agora_senate.py and test_agora_senators.py."""

from __future__ import annotations

import pytest

from agora_positions import (DECREES, act, add_cubes, agora_game, answer, any_card, give, item,
                             put_accessible, recruit, set_coins, set_decree, set_turn, set_wonders)


def test_sixteen_decrees_six_in_play():
    game = agora_game(clean=False)
    assert sorted(it.name for it in game.content.items if it.kind == "decree") == sorted(DECREES)
    in_play = game.items_in("decrees")
    assert len(in_play) == 6
    assert len([n for n in game.items_in("box") if n in DECREES]) == 10


def controlled(decree: str, by: int = 0, age: int = 1, space: int = 2):
    game = agora_game(age=age)
    set_decree(game, space, decree)
    if by >= 0:
        add_cubes(game, by, space)
    return game


def price(game, player, name):
    return game.price(player, item(game, name))[0]


# -- coins when either player builds a colour / a wonder ------------------------------------------------

COIN_DECREES = [
    ("Decree: blue coins", "Theater"),
    ("Decree: green coins", "Scriptorium"),
    ("Decree: yellow coins", "Stone Reserve"),
    ("Decree: red coins", "Guard Tower"),
]


@pytest.mark.parametrize("decree,card", COIN_DECREES)
def test_coin_decree_pays_the_controller_when_the_opponent_builds_that_colour(decree, card):
    game = controlled(decree, by=0)
    set_turn(game, 1)
    set_coins(game, 1, 10)
    put_accessible(game, card)
    cost = price(game, 1, card)
    game.apply(act("build", card))
    assert game.state.coins == [7 + 1, 10 - cost]


@pytest.mark.parametrize("decree,card", COIN_DECREES)
def test_coin_decree_pays_the_controller_when_they_build_that_colour(decree, card):
    game = controlled(decree, by=1)
    set_turn(game, 1)
    set_coins(game, 1, 10)
    put_accessible(game, card)
    cost = price(game, 1, card)
    game.apply(act("build", card))
    assert game.state.coins == [7, 10 - cost + 1]


@pytest.mark.parametrize("decree,card", COIN_DECREES)
def test_coin_decree_without_a_controller_pays_nobody(decree, card):
    game = controlled(decree, by=-1)
    set_coins(game, 0, 10)
    put_accessible(game, card)
    cost = price(game, 0, card)
    game.apply(act("build", card))
    assert game.state.coins == [10 - cost, 7]


def test_coin_decree_ignores_other_colours():
    game = controlled("Decree: green coins", by=0)
    set_turn(game, 1)
    put_accessible(game, "Theater")
    game.apply(act("build", "Theater"))
    assert game.state.coins == [7, 7]


@pytest.mark.parametrize("age", [1, 2, 3])
def test_wonder_coins_decree_pays_the_controller_the_age_when_either_player_builds_a_wonder(age):
    game = controlled("Decree: wonder coins", by=0, age=age)
    set_turn(game, 1)
    set_wonders(game, 1, "Colossus")
    set_coins(game, 1, 30)
    cost = price(game, 1, "Colossus")
    game.apply(act("wonder", any_card(game), "Colossus"))
    assert game.state.coins == [7 + age, 30 - cost]
    set_turn(game, 0)
    set_wonders(game, 0, "Pyramids")
    set_coins(game, 0, 30)
    cost = price(game, 0, "Pyramids")
    game.apply(act("wonder", any_card(game), "Pyramids"))
    assert game.state.coins[0] == 30 - cost + age


# -- ignore one cost symbol -----------------------------------------------------------------------------

@pytest.mark.parametrize("decree,card,full,reduced", [
    ("Decree: yellow discount", "Stone Reserve", 3, 0),     # the coin cost (all of it) ignored
    ("Decree: red discount", "Palisade", 2, 0),
    ("Decree: red discount", "Stable", 2, 0),               # the wood ignored
    ("Decree: green discount", "Scriptorium", 2, 0),
    ("Decree: green discount", "Workshop", 2, 0),
])
def test_ignore_one_cost_symbol_for_the_controller_only(decree, card, full, reduced):
    game = controlled(decree, by=0)
    assert price(game, 0, card) == reduced
    assert price(game, 1, card) == full
    set_coins(game, 0, reduced)
    put_accessible(game, card)
    game.apply(act("build", card))
    assert game.state.coins[0] == 0


def test_ignore_one_cost_symbol_a_resource_or_the_coins_whichever_is_cheaper():
    # Forum: 3 coins + 1 clay.
    game = controlled("Decree: yellow discount", by=0, age=2)
    assert price(game, 1, "Forum") == 3 + 2
    assert price(game, 0, "Forum") == 2                     # the coins ignored, the clay bought for 2
    give(game, 0, "Clay Pool")
    assert price(game, 0, "Forum") == 0                     # the coins ignored, the clay produced
    game = controlled("Decree: yellow discount", by=0, age=2)
    give(game, 1, "Clay Pool", "Clay Pit")                  # clay now costs player 0 4 coins
    assert price(game, 0, "Forum") == 3                     # the clay ignored, the 3 coins paid


def test_ignore_one_cost_symbol_removes_one_resource_only():
    game = controlled("Decree: red discount", by=0, age=2)
    assert price(game, 0, "Walls") == 2                     # 2 stone: one ignored, one bought
    assert price(game, 0, "Archery Range") == 4             # wood stone papyrus: one ignored
    game = controlled("Decree: green discount", by=0, age=2)
    give(game, 1, "Quarry", "Stone Pit")                    # stone costs 4
    assert price(game, 0, "Library") == 4                   # wood stone glass: the stone ignored


def test_ignore_one_cost_symbol_only_for_its_colour():
    game = controlled("Decree: yellow discount", by=0)
    assert price(game, 0, "Palisade") == 2 and price(game, 0, "Scriptorium") == 2


def test_wonder_discount_one_resource_less_the_dearest():
    game = controlled("Decree: wonder discount", by=0)
    assert price(game, 1, "Pyramids") == 8                  # 3 stone + papyrus at 2
    assert price(game, 0, "Pyramids") == 6
    give(game, 1, "Quarry", "Stone Pit")                    # stone at 4 for player 0
    assert price(game, 0, "Pyramids") == 3 * 4 + 2 - 4
    assert price(game, 0, "Stable") == 2                    # cards are not concerned


def test_wonder_discount_used_to_build():
    game = controlled("Decree: wonder discount", by=0)
    set_wonders(game, 0, "Pyramids")
    set_coins(game, 0, 6)
    game.apply(act("wonder", any_card(game), "Pyramids"))
    assert game.state.coins[0] == 0 and "Pyramids" in game.items_in("built_wonders", 0)


# -- cheaper resources from the bank ---------------------------------------------------------------

def test_cheaper_raw_materials_1_less_per_unit_never_below_1():
    game = controlled("Decree: cheaper raw materials", by=0)
    assert price(game, 0, "Stable") == 1 and price(game, 1, "Stable") == 2
    assert price(game, 0, "Apothecary") == 2                # glass is not a raw material
    give(game, 1, "Lumber Yard")                            # wood at 3
    assert price(game, 0, "Stable") == 2
    give(game, 0, "Wood Reserve")                           # wood at 1: never below 1
    assert price(game, 0, "Stable") == 1


def test_cheaper_raw_materials_per_unit():
    game = controlled("Decree: cheaper raw materials", by=0, age=2)
    assert price(game, 0, "Aqueduct") == 3                  # 3 stone at 1 instead of 2
    assert price(game, 0, "Tribunal") == 1 + 1 + 2          # 2 wood at 1, glass at 2


def test_cheaper_goods_1_less_per_unit_never_below_1():
    game = controlled("Decree: cheaper goods", by=0)
    assert price(game, 0, "Apothecary") == 1 and price(game, 0, "Workshop") == 1
    assert price(game, 1, "Apothecary") == 2
    assert price(game, 0, "Stable") == 2                    # wood is not a good
    give(game, 1, "Glassworks")
    assert price(game, 0, "Apothecary") == 2
    game = controlled("Decree: cheaper goods", by=0, age=2)
    give(game, 0, "Customs House")                          # glass and papyrus at 1 already
    assert price(game, 0, "School") == 2 + 1 + 1            # wood at 2, 2 papyrus at 1 each (never 0)


# -- other decrees -------------------------------------------------------------------------------------

def test_discard_bonus_decree():
    game = controlled("Decree: discard bonus", by=0)
    game.apply(act("discard", any_card(game)))
    assert game.state.coins == [7 + 4, 7]
    game.apply(act("discard", any_card(game)))
    assert game.state.coins == [7 + 4, 7 + 2]


def test_opponents_chains_decree():
    game = controlled("Decree: opponent's chains", by=0, age=2)
    give(game, 1, "Stable", "Theater")                      # horseshoe, mask
    assert price(game, 0, "Horse Breeders") == 0            # chained from the opponent's Stable
    assert price(game, 0, "Statue") == 0
    give(game, 0, "Altar")
    assert price(game, 1, "Temple") == 4                    # the opponent does not borrow player 0's
    set_coins(game, 0, 0)
    put_accessible(game, "Horse Breeders")
    game.apply(act("build", "Horse Breeders"))
    assert game.state.coins[0] == 0 and "Horse Breeders" in game.items_in("city", 0)


def test_opponents_chains_decree_without_control():
    game = controlled("Decree: opponent's chains", by=-1, age=2)
    give(game, 1, "Stable")
    assert price(game, 0, "Horse Breeders") == 4


def test_conspirator_replay_decree_gives_the_controller_another_turn_when_recruiting_a_conspirator():
    game = controlled("Decree: conspirator replay", by=0)
    recruit(game, "Conspirator A")
    answer(game, "influence", 0)
    assert game.state.pending is None and game.state.current == 0      # another turn
    recruit(game, "Politician (left) A")                               # a politician: no
    answer(game, "place", 0)
    assert game.state.current == 1
    recruit(game, "Conspirator B")                                     # the opponent: no
    answer(game, "influence", 5)
    assert game.state.current == 0


def test_conspirator_replay_decree_without_control():
    game = controlled("Decree: conspirator replay", by=1)
    recruit(game, "Conspirator A")
    answer(game, "influence", 0)
    assert game.state.current == 1


def test_conspirator_replay_decree_must_be_controlled_when_the_conspirator_is_recruited():
    # "Zodra je een samenzweerder rekruteert": control is judged as the card is recruited, so a
    # chamber its own cube then wins gives no extra turn (as BGA; docs/rules-notes.md, Agora).
    game = agora_game()
    set_decree(game, 2, "Decree: conspirator replay")
    recruit(game, "Conspirator A")
    answer(game, "influence", 2)
    assert game.state.control["senate"][2] == 0
    assert game.state.pending is None and game.state.current == 1


def test_decree_changes_hands_with_the_chamber():
    game = controlled("Decree: cheaper raw materials", by=0)
    assert price(game, 0, "Stable") == 1 and price(game, 1, "Stable") == 2
    add_cubes(game, 1, 2, 2)
    assert price(game, 0, "Stable") == 2 and price(game, 1, "Stable") == 1
