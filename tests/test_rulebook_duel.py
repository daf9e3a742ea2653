"""7 Wonders Duel rulebook (shared/seeds/000, Dutch): every worked example, every wonder,
progress token, guild and core rule, as positions played through legal_actions()/apply().

Names: Coen and Eddy are the rulebook's two players; here Coen is player 0 and Eddy player 1
unless a test says otherwise.  Dutch -> English card names: Groeve = Shelf Quarry, Vestingwerk =
Fortifications, Karavanserai = Caravansery, Aquaduct = Aqueduct, Badhuis = Baths, Palissade =
Palisade, Paardenfokkers = Horse Breeders, Stallen = Stable, Schietbaan = Archery Range,
Kolossus = Colossus, Piramides = Pyramids."""

from __future__ import annotations

import json

import pytest

from rulesdsl.interpreter import DRAW, Action, IllegalAction, new_game
from rulesdsl.interpreter.observation import observe
from rulesdsl.interpreter.persistence import dumps
from positions import (act, assert_illegal, discard_pile, fresh_game, give, give_wonders, item, leave_only, names,
                       put_accessible, remove_military_tokens, set_board_tokens, set_coins, set_pawn, set_turn, set_wonders, to_age, total,
                       where)

COEN, EDDY = 0, 1
BOARD5 = ("Agriculture", "Law", "Philosophy", "Strategy", "Urbanism")


def price(game, p, name):
    return game.price(p, item(game, name))


def build(game, name):
    put_accessible(game, name)
    game.apply(act("build", name))


def wonder(game, card, wonder_name):
    put_accessible(game, card)
    game.apply(act("wonder", card, wonder_name))


def stone(game, p):
    return game.trade_prices(p)[game.content.resources.index("stone")]


def trade(game, p, resource):
    return game.trade_prices(p)[game.content.resources.index(resource)]


def any_other_card(game, *avoid):
    """The name of an accessible card not among `avoid` (to spend a turn with)."""
    skip = {item(game, n) for n in avoid}
    return next(game.name(i) for i in game.accessible() if i not in skip)


def pass_turn(game, *avoid):
    """The player to move discards some accessible card."""
    game.apply(act("discard", any_other_card(game, *avoid)))


# =================================================================================================
# Setup
# =================================================================================================

def test_setup():
    game = fresh_game()
    st = game.state
    assert st.coins == [7, 7]
    assert st.pawn == 0
    assert len(names(game, "board_tokens")) == 5
    assert len(names(game, "progress_deck")) == 5          # left out at setup (the Great Library's pool)
    assert len(st.zones[game.track_slot]) == 4              # the 4 military tokens
    assert st.age == 0 and st.current == 0
    structure = [i for i in st.structure if i >= 0]
    assert len(structure) == 20
    assert all(game.content.items[i].age == 1 for i in structure)
    box_age1 = [n for n in names(game, "box") if game.content.items[item(game, n)].age == 1]
    assert len(box_age1) == 3                                # 3 cards removed unseen
    assert names(game, "discard") == []
    # beginner wonders (rulebook: "Als je de eerste keer speelt")
    assert sorted(names(game, "wonders", 0)) == sorted(["Pyramids", "Great Lighthouse", "Temple of Artemis",
                                                          "Statue of Zeus"])
    assert sorted(names(game, "wonders", 1)) == sorted(["Circus Maximus", "Piraeus", "Appian Way", "Colossus"])
    # Age I: the bottom row of 6 is accessible
    assert len(game.accessible()) == 6
    assert [st.structure.index(i) for i in game.accessible()] == [14, 15, 16, 17, 18, 19]


def test_wonder_draft_order():
    """4 wonders: first player takes 1, the other 2, the first the last; then 4 more with the
    second player first."""
    game = new_game(seed=4)
    st = game.state
    order = []
    while st.pending is not None:
        order.append((game.to_move(), len(st.pending.options)))
        game.apply(game.legal_actions()[0])
    assert order == [(0, 4), (1, 3), (1, 2), (1, 4), (0, 3), (0, 2)]
    assert len(names(game, "wonders", 0)) == 4 and len(names(game, "wonders", 1)) == 4
    assert len([n for n in names(game, "box") if game.content.items[item(game, n)].kind == "wonder"]) == 4
    assert st.flow == "turn" and st.current == 0 and st.age == 0


def test_face_down_card_turned_up_when_uncovered():
    game = fresh_game()
    st = game.state
    assert not st.face_up[9]
    pass_turn(game)   # p0 takes slot 14 ...
    assert st.structure[14] < 0 or st.structure[15] < 0
    # take the two cards covering slot 9 (slots 14 and 15)
    for slot in (14, 15):
        if st.structure[slot] >= 0:
            game.apply(act("discard", game.name(st.structure[slot])))
    assert st.structure[9] in game.accessible()
    assert st.face_up[9]


def test_covered_card_cannot_be_taken():
    game = fresh_game()
    st = game.state
    covered = game.name(st.structure[0])
    set_coins(game, 0, 99)
    assert_illegal(game, act("build", covered))
    assert_illegal(game, act("discard", covered))
    assert_illegal(game, act("wonder", covered, "Pyramids"))


# =================================================================================================
# Building: costs, production, trade (BOUWEN IN 7 WONDERS DUEL)
# =================================================================================================

def test_cost_examples():
    """Lumber Yard is free, Stone Pit costs 1 coin, Baths 1 stone, Arena clay+stone+wood."""
    game = fresh_game()
    assert price(game, 0, "Lumber Yard") == (0, 0, False)
    assert price(game, 0, "Stone Pit") == (1, 0, False)
    assert price(game, 0, "Scriptorium") == (2, 0, False)
    assert price(game, 0, "Baths") == (2, 2, False)
    assert price(game, 0, "Arena") == (6, 6, False)
    give(game, 0, "Quarry")
    assert price(game, 0, "Baths") == (0, 0, False)


def test_free_card_can_be_built_with_no_coins():
    game = fresh_game()
    set_coins(game, 0, 0)
    build(game, "Lumber Yard")
    assert "Lumber Yard" in names(game, "city", 0)
    assert game.state.coins[0] == 0


def test_eddy_production_example():
    """Eddy makes 1 stone, 3 clay, 1 papyrus: he can build Baths or Garrison without trading, but
    not the Apothecary (glass)."""
    game = fresh_game()
    set_turn(game, EDDY)
    give(game, EDDY, "Quarry", "Brickyard", "Clay Pool", "Press")
    assert game.production(EDDY, "stone", None) == 1
    assert game.production(EDDY, "clay", None) == 3
    assert game.production(EDDY, "papyrus", None) == 1
    assert price(game, EDDY, "Baths") == (0, 0, False)
    assert price(game, EDDY, "Garrison") == (0, 0, False)
    assert price(game, EDDY, "Apothecary") == (2, 2, False)
    set_coins(game, EDDY, 0)
    put_accessible(game, "Baths")
    put_accessible(game, "Garrison", avoid=("Baths",))
    put_accessible(game, "Apothecary", avoid=("Baths", "Garrison"))
    legal = game.legal_actions()
    assert act("build", "Baths") in legal and act("build", "Garrison") in legal
    reason = assert_illegal(game, act("build", "Apothecary"))
    assert "coins" in reason
    game.apply(act("build", "Garrison"))
    assert game.state.pawn == -1 and game.state.coins[EDDY] == 0


def test_resources_are_not_consumed():
    """Belangrijk: resources are not used up; they serve every turn of the game."""
    game = fresh_game()
    give(game, 0, "Lumber Yard", "Quarry")
    set_coins(game, 0, 0)
    build(game, "Baths")                 # 1 stone
    pass_turn(game)                      # p1
    build(game, "Rostrum")               # wood + stone, again
    assert game.state.coins[0] == 0
    assert {"Baths", "Rostrum"} <= set(names(game, "city", 0))
    assert game.production(0, "stone", None) == 1


def test_trade_price_shelf_quarry_example():
    """Coen makes 2 stone with his Shelf Quarry: Eddy pays 4 per stone; Coen pays 2 for a third
    one since Eddy's brown cards make no stone."""
    game = fresh_game()
    give(game, COEN, "Shelf Quarry")
    assert stone(game, EDDY) == 4
    assert stone(game, COEN) == 2
    assert price(game, COEN, "Aqueduct") == (2, 2, False)    # 3 stone: 2 own + 1 bought
    assert price(game, EDDY, "Walls") == (8, 8, False)       # 2 stone at 4


def test_fortifications_trade_example():
    """Coen builds Fortifications (2 stone, clay, papyrus) with 2 stone of his own; Eddy has 1
    clay, no papyrus: 3 for the clay + 2 for the papyrus = 5 coins to the bank."""
    game = fresh_game()
    give(game, COEN, "Shelf Quarry")
    give(game, EDDY, "Clay Pool")
    assert price(game, COEN, "Fortifications") == (5, 5, False)
    put_accessible(game, "Fortifications")
    set_coins(game, COEN, 4)
    assert_illegal(game, act("build", "Fortifications"))
    set_coins(game, COEN, 5)
    coins_eddy = game.state.coins[EDDY]
    game.apply(act("build", "Fortifications"))
    assert game.state.coins == [0, coins_eddy]               # paid to the bank, not to Eddy
    assert "Fortifications" in names(game, "city", COEN)
    assert game.state.pawn == 2


def test_caravansery_trade_example():
    """Caravansery: 2 coins + glass (Eddy makes 1: 3 coins) + papyrus (2 coins) = 7."""
    game = fresh_game()
    give(game, EDDY, "Glassworks")
    assert price(game, COEN, "Caravansery") == (7, 5, False)
    put_accessible(game, "Caravansery")
    set_coins(game, COEN, 6)
    assert_illegal(game, act("build", "Caravansery"))
    set_coins(game, COEN, 7)
    game.apply(act("build", "Caravansery"))
    assert game.state.coins[COEN] == 0


def test_aqueduct_trade_example():
    """Eddy builds the Aqueduct (3 stone), makes none, Coen makes 2 with brown cards: 3 x 4 = 12."""
    game = fresh_game()
    set_turn(game, EDDY)
    give(game, COEN, "Shelf Quarry")
    assert price(game, EDDY, "Aqueduct") == (12, 12, False)
    put_accessible(game, "Aqueduct")
    set_coins(game, EDDY, 11)
    assert_illegal(game, act("build", "Aqueduct"))
    set_coins(game, EDDY, 12)
    game.apply(act("build", "Aqueduct"))
    assert game.state.coins[EDDY] == 0
    assert game.score(EDDY).get("blue") == 5


def test_trade_price_counts_opponent_brown_and_grey_only():
    game = fresh_game()
    give(game, EDDY, "Sawmill", "Glassworks", "Glass-blower")
    assert trade(game, COEN, "wood") == 4
    assert trade(game, COEN, "glass") == 4
    assert trade(game, COEN, "clay") == 2
    # my own production does not change my prices
    give(game, COEN, "Brickyard")
    assert trade(game, COEN, "clay") == 2
    assert trade(game, EDDY, "clay") == 4


def test_yellow_and_wonder_production_do_not_raise_trade_price():
    """Resources made by yellow cards (Forum, Caravansery) and wonders (Great Lighthouse,
    Piraeus) do not count for the opponent's price."""
    game = fresh_game()
    give(game, EDDY, "Forum", "Caravansery", "Great Lighthouse", "Piraeus")
    assert game.trade_prices(COEN) == [2, 2, 2, 2, 2]


def test_one_of_production_covers_one_unit_per_turn():
    game = fresh_game()
    give(game, COEN, "Caravansery")                # wood | clay | stone
    assert price(game, COEN, "Baths") == (0, 0, False)
    assert price(game, COEN, "Walls") == (2, 2, False)      # 2 stone: one from Caravansery, one bought
    assert price(game, COEN, "Rostrum") == (2, 2, False)    # wood + stone: only one of them
    give(game, COEN, "Forum")                      # glass | papyrus
    assert price(game, COEN, "Archery Range") == (2, 2, False)   # wood stone papyrus: 2 covered


@pytest.mark.parametrize("reserve, resource, producer", [
    ("Stone Reserve", "stone", "Shelf Quarry"),
    ("Clay Reserve", "clay", "Brickyard"),
    ("Wood Reserve", "wood", "Sawmill"),
])
def test_reserve_fixes_price_at_1(reserve, resource, producer):
    game = fresh_game()
    give(game, EDDY, producer)
    assert trade(game, COEN, resource) == 4
    give(game, COEN, reserve)
    assert trade(game, COEN, resource) == 1
    others = [r for r in game.content.resources if r != resource]
    assert all(trade(game, COEN, r) == 2 for r in others)
    assert trade(game, EDDY, resource) == 2                # only for its owner


def test_customs_house_fixes_glass_and_papyrus_at_1():
    game = fresh_game()
    give(game, EDDY, "Glassworks", "Glass-blower", "Press")
    give(game, COEN, "Customs House")
    assert trade(game, COEN, "glass") == 1
    assert trade(game, COEN, "papyrus") == 1
    assert trade(game, COEN, "wood") == 2
    assert price(game, COEN, "Caravansery") == (4, 2, False)


# =================================================================================================
# Chains (gratis bouwen)
# =================================================================================================

def test_chain_baths_aqueduct_is_free():
    """Eddy has the Baths: in Age II he builds the Aqueduct for free."""
    game = fresh_game()
    set_turn(game, EDDY)
    give(game, EDDY, "Baths")
    give(game, COEN, "Shelf Quarry")
    assert price(game, EDDY, "Aqueduct") == (0, 0, True)
    set_coins(game, EDDY, 0)
    build(game, "Aqueduct")
    assert game.state.coins[EDDY] == 0
    assert "Aqueduct" in names(game, "city", EDDY)


def test_chain_palisade_fortifications_is_free():
    """Coen has the Palisade: in Age III he builds Fortifications for free."""
    game = fresh_game()
    give(game, COEN, "Palisade")
    assert price(game, COEN, "Fortifications") == (0, 0, True)
    set_coins(game, COEN, 0)
    build(game, "Fortifications")
    assert game.state.coins[COEN] == 0
    assert game.state.pawn == 2


def test_horse_breeders_clay_and_wood_or_stable():
    game = fresh_game()
    assert price(game, COEN, "Horse Breeders") == (4, 4, False)
    give(game, COEN, "Lumber Yard", "Clay Pool")
    assert price(game, COEN, "Horse Breeders") == (0, 0, False)
    game2 = fresh_game()
    give(game2, COEN, "Stable")
    assert price(game2, COEN, "Horse Breeders") == (0, 0, True)


def test_opponent_chain_symbol_does_not_help():
    game = fresh_game()
    give(game, EDDY, "Baths")
    assert price(game, COEN, "Aqueduct") == (6, 6, False)


# =================================================================================================
# Discarding (afleggen)
# =================================================================================================

def test_discard_gives_2_coins():
    game = fresh_game()
    put_accessible(game, "Aqueduct")
    game.apply(act("discard", "Aqueduct"))
    assert game.state.coins[0] == 9
    assert names(game, "discard") == ["Aqueduct"]


def test_discard_income_with_tavern_and_clay_reserve():
    """The Aqueduct discarded with Tavern and Clay Reserve in the city gives 2 + 2 = 4 coins."""
    game = fresh_game()
    give(game, COEN, "Tavern", "Clay Reserve")
    set_coins(game, COEN, 0)
    put_accessible(game, "Aqueduct")
    game.apply(act("discard", "Aqueduct"))
    assert game.state.coins[COEN] == 4
    assert "Aqueduct" in names(game, "discard")


def test_discard_always_possible():
    game = fresh_game()
    set_coins(game, 0, 0)
    legal = game.legal_actions()
    assert all(act("discard", game.name(i)) in legal for i in game.accessible())


# =================================================================================================
# Building a wonder
# =================================================================================================

def test_colossus_example():
    """Eddy builds the Colossus (3 clay + glass) with an accessible card: he pays the Colossus's
    cost, not the card's, tucks the card under it and moves the pawn 2 spaces."""
    game = fresh_game()
    set_turn(game, EDDY)
    give(game, EDDY, "Brickyard", "Clay Pool", "Glass-blower")
    set_coins(game, EDDY, 7)
    put_accessible(game, "Courthouse")          # costs 8 coins as a building
    game.apply(act("wonder", "Courthouse", "Colossus"))
    assert game.state.coins[EDDY] == 7
    assert game.state.pawn == -2
    assert "Colossus" in names(game, "built_wonders", EDDY)
    assert "Colossus" not in names(game, "wonders", EDDY)
    assert where(game, "Courthouse") == ("under", EDDY)
    assert "Courthouse" not in names(game, "discard")
    assert "Courthouse" not in names(game, "city", EDDY)
    assert game.score(EDDY).get("wonder") == 3
    assert game.to_move() == COEN


def test_wonder_price_is_the_wonders_cost():
    game = fresh_game()
    set_coins(game, COEN, 20)
    put_accessible(game, "Courthouse")
    # Pyramids: 3 stone + papyrus, nothing produced, Eddy makes nothing: 8 coins
    assert price(game, COEN, "Pyramids") == (8, 8, False)
    game.apply(act("wonder", "Courthouse", "Pyramids"))
    assert game.state.coins[COEN] == 12
    assert game.score(COEN).get("wonder") == 9


def test_unaffordable_wonder_is_illegal():
    game = fresh_game()
    set_coins(game, COEN, 7)
    card = game.name(game.accessible()[0])
    assert price(game, COEN, "Pyramids")[0] == 8
    assert_illegal(game, act("wonder", card, "Pyramids"))
    # a wonder the player does not own
    set_coins(game, COEN, 50)
    assert_illegal(game, act("wonder", card, "Colossus"))


def test_seventh_wonder_sends_the_last_one_to_the_box():
    """Eddy has just built the Colossus; 7 wonders are built (4 by Coen, 3 by Eddy): Eddy's
    Pyramids go back to the box and can no longer be built."""
    game = fresh_game()
    give(game, COEN, "Great Lighthouse", "Temple of Artemis", "Statue of Zeus", "Sphinx")
    set_wonders(game, COEN)
    give(game, EDDY, "Circus Maximus", "Piraeus")
    set_wonders(game, EDDY, "Colossus", "Pyramids")
    set_turn(game, EDDY)
    set_coins(game, EDDY, 60)
    wonder(game, any_other_card(game), "Colossus")
    built = names(game, "built_wonders", COEN) + names(game, "built_wonders", EDDY)
    assert len(built) == 7
    assert where(game, "Pyramids") == ("box", None)
    assert names(game, "wonders", EDDY) == []
    pass_turn(game)          # Coen
    assert game.to_move() == EDDY
    assert not [a for a in game.legal_actions() if a.name == "wonder"]
    assert_illegal(game, act("wonder", game.name(game.accessible()[0]), "Pyramids"))


def test_six_wonders_built_keeps_the_others():
    game = fresh_game()
    give(game, COEN, "Great Lighthouse", "Temple of Artemis", "Statue of Zeus")
    give(game, EDDY, "Circus Maximus", "Piraeus")
    set_turn(game, EDDY)
    set_coins(game, EDDY, 60)
    wonder(game, any_other_card(game), "Colossus")
    assert names(game, "wonders", COEN) == ["Pyramids"]
    assert names(game, "wonders", EDDY) == ["Appian Way"]


# =================================================================================================
# Play again
# =================================================================================================

def test_play_again_wonder_gives_another_turn():
    game = fresh_game()
    set_coins(game, COEN, 50)
    wonder(game, any_other_card(game), "Temple of Artemis")
    assert game.to_move() == COEN and game.state.flow == "turn"
    pass_turn(game)
    assert game.to_move() == EDDY


def test_play_again_is_lost_at_the_end_of_an_age():
    """A play-again earned with the last card of an age is lost: the age ends and the start
    player of the next age is chosen as usual."""
    game = fresh_game()
    set_coins(game, COEN, 50)
    put_accessible(game, "Altar")
    leave_only(game, "Altar")
    game.apply(act("wonder", "Altar", "Temple of Artemis"))
    st = game.state
    # pawn in the middle: Coen took the last card and chooses
    assert st.pending is not None and st.pending.kind == "player"
    assert game.to_move() == COEN
    game.apply(Action("choose_player", ("p1",)))
    assert st.age == 1 and st.flow == "turn"
    assert game.to_move() == EDDY


# =================================================================================================
# Military
# =================================================================================================

def test_archery_range_example():
    """Eddy builds the Archery Range (2 shields): the pawn moves 2 spaces towards Coen's capital
    into a new zone: Coen loses 2 coins and the token goes back to the box."""
    game = fresh_game()
    EDDY_, COEN_ = 0, 1          # Eddy moves first here
    give(game, EDDY_, "Lumber Yard", "Quarry", "Press")
    set_pawn(game, 1)
    set_coins(game, COEN_, 7)
    build(game, "Archery Range")
    assert game.state.pawn == 3
    assert game.state.coins[COEN_] == 5
    assert where(game, "Looting 2 (second player's side)") == ("nowhere", None)
    assert where(game, "Looting 5 (second player's side)") == ("track", None)
    # entering the same zone again costs nothing more
    pass_turn(game)
    set_coins(game, COEN_, 7)
    build(game, "Guard Tower")
    assert game.state.pawn == 4
    assert game.state.coins[COEN_] == 7


def test_military_token_on_player_0_side():
    game = fresh_game()
    set_turn(game, 1)
    give(game, 1, "Shelf Quarry")
    set_pawn(game, -1)
    build(game, "Walls")
    assert game.state.pawn == -3
    assert game.state.coins[0] == 5
    assert where(game, "Looting 2 (first player's side)") == ("nowhere", None)


def test_military_token_never_below_zero():
    game = fresh_game()
    give(game, 0, "Shelf Quarry")
    set_pawn(game, 2)
    set_coins(game, 1, 1)
    build(game, "Walls")
    assert game.state.pawn == 4
    assert game.state.coins[1] == 0


def test_both_military_tokens_in_one_move():
    """Going from 2 to 6 in one move passes both zones: the opponent loses 2 then 5."""
    game = fresh_game()
    give(game, 0, "Strategy")
    set_pawn(game, 2)
    set_coins(game, 0, 8)
    set_coins(game, 1, 10)
    build(game, "Courthouse")       # 3 shields + 1 (Strategy)
    assert game.state.pawn == 6
    assert game.state.coins == [0, 3]
    assert where(game, "Looting 2 (second player's side)") == ("nowhere", None)
    assert where(game, "Looting 5 (second player's side)") == ("nowhere", None)


def test_both_military_tokens_never_below_zero():
    game = fresh_game()
    give(game, 0, "Strategy")
    set_pawn(game, 2)
    set_coins(game, 0, 8)
    set_coins(game, 1, 4)
    build(game, "Courthouse")
    assert game.state.pawn == 6
    assert game.state.coins[1] == 0


def test_pushing_back_on_your_own_side_loots_nothing():
    game = fresh_game()
    give(game, 0, "Shelf Quarry")
    set_pawn(game, -4)                       # on p0's half, past p0's 2-coin token
    remove_military_tokens(game, "Looting 2 (first player's side)")
    build(game, "Walls")
    assert game.state.pawn == -2
    assert game.state.coins == [7, 7]
    assert where(game, "Looting 5 (first player's side)") == ("track", None)
    assert where(game, "Looting 2 (second player's side)") == ("track", None)


def test_military_supremacy():
    game = fresh_game()
    give(game, 0, "Shelf Quarry")
    set_pawn(game, 7)
    build(game, "Walls")
    st = game.state
    assert st.over and st.winner == 0 and st.victory == "military"
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(act("discard", game.name(game.accessible()[0])))


def test_military_supremacy_for_player_1_and_pawn_stops_at_capital():
    game = fresh_game()
    set_turn(game, 1)
    set_coins(game, 1, 8)
    set_pawn(game, -8)
    build(game, "Courthouse")       # 3 shields, only 1 space left
    st = game.state
    assert st.pawn == -9
    assert st.over and st.winner == 1 and st.victory == "military"


def test_military_supremacy_by_wonder_shields():
    game = fresh_game()
    set_turn(game, 1)
    set_coins(game, 1, 50)
    set_pawn(game, -7)
    wonder(game, any_other_card(game), "Colossus")
    assert game.state.over and game.state.winner == 1 and game.state.victory == "military"


@pytest.mark.parametrize("pawn, vp0, vp1", [(0, 0, 0), (1, 2, 0), (2, 2, 0), (3, 5, 0), (5, 5, 0), (6, 10, 0),
                                            (8, 10, 0), (-1, 0, 2), (-4, 0, 5), (-8, 0, 10)])
def test_military_points(pawn, vp0, vp1):
    game = fresh_game()
    set_pawn(game, pawn)
    assert game.score(0).get("military", 0) == vp0
    assert game.score(1).get("military", 0) == vp1


# =================================================================================================
# Science
# =================================================================================================

def science_position():
    game = fresh_game()
    set_board_tokens(game, *BOARD5)
    give(game, 0, "Lumber Yard", "Glassworks", "Glass-blower")    # wood + 2 glass: Laboratory for free
    return game


def test_science_pair_takes_a_progress_token():
    game = science_position()
    give(game, 0, "Workshop")                     # plumb bob
    build(game, "Laboratory")                     # plumb bob again
    st = game.state
    assert st.pending is not None and game.to_move() == 0
    assert sorted(a.args[0] for a in game.legal_actions()) == sorted(BOARD5)
    assert all(a.name == "choose" for a in game.legal_actions())
    assert_illegal(game, act("choose", "Mathematics"))        # not on the board
    game.apply(act("choose", "Agriculture"))
    assert names(game, "tokens", 0) == ["Agriculture"]
    assert "Agriculture" not in names(game, "board_tokens")
    assert st.coins[0] == 7 + 6
    assert game.to_move() == 1


def test_single_symbol_gives_no_token():
    game = science_position()
    build(game, "Laboratory")
    assert game.state.pending is None and game.to_move() == 1


def test_science_pair_with_empty_board_gives_nothing():
    game = science_position()
    set_board_tokens(game)
    give(game, 0, "Workshop")
    build(game, "Laboratory")
    assert game.state.pending is None and game.to_move() == 1


def test_science_supremacy_six_symbols():
    game = science_position()
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist")   # plumb bob, wheel, quill, mortar
    set_board_tokens(game, "Philosophy")
    give(game, 0, "Law")                                                    # law
    give(game, 0, "Stone Pit", "Glass-blower")
    set_coins(game, 0, 50)
    build(game, "Academy")                                                  # sundial: the 6th
    st = game.state
    assert st.over and st.winner == 0 and st.victory == "science"


def test_five_symbols_is_not_supremacy():
    game = science_position()
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist")
    set_coins(game, 0, 50)
    build(game, "Academy")
    assert not game.state.over
    assert game.distinct_science(0) == 5


def test_science_supremacy_with_law_taken_from_a_pair():
    """The Law token is a science symbol: a pair that yields Law can complete 6 different symbols."""
    game = science_position()
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    build(game, "Laboratory")
    assert not game.state.over
    game.apply(act("choose", "Law"))
    st = game.state
    assert st.over and st.winner == 0 and st.victory == "science"


# =================================================================================================
# Progress tokens
# =================================================================================================

def take_token(game, token):
    """p0 completes a pair (Workshop + Laboratory) and chooses `token` from the board."""
    set_board_tokens(game, token, *[t for t in BOARD5 if t != token][:4])
    give(game, 0, "Lumber Yard", "Glassworks", "Glass-blower", "Workshop")
    build(game, "Laboratory")
    game.apply(act("choose", token))
    assert token in names(game, "tokens", 0)


def test_agriculture():
    game = fresh_game()
    coins = game.state.coins[0]
    take_token(game, "Agriculture")
    assert game.state.coins[0] == coins + 6
    assert game.score(0).get("token") == 4


def test_philosophy():
    game = fresh_game()
    take_token(game, "Philosophy")
    assert game.score(0).get("token") == 7


def test_law_is_a_science_symbol():
    game = fresh_game()
    take_token(game, "Law")
    assert game.science_count(0, "law") == 1
    assert game.distinct_science(0) == 2           # plumb bob + law
    assert game.score(0).get("token", 0) == 0


def test_mathematics():
    game = fresh_game()
    give(game, 0, "Mathematics")
    assert game.score(0).get("token") == 3
    give(game, 0, "Philosophy", "Agriculture")
    assert game.score(0).get("token") == 3 * 3 + 7 + 4


def test_urbanism_gives_6_coins_and_4_per_chain_build():
    game = fresh_game()
    coins = game.state.coins[0]
    take_token(game, "Urbanism")
    assert game.state.coins[0] == coins + 6
    give(game, 0, "Baths")
    pass_turn(game)                      # p1
    set_coins(game, 0, 0)
    build(game, "Aqueduct")              # free through the Baths
    assert game.state.coins[0] == 4
    pass_turn(game)
    build(game, "Quarry")                # free card, but not through a chain
    assert game.state.coins[0] == 4
    pass_turn(game)
    set_coins(game, 0, 2)
    build(game, "Scriptorium")           # paid
    assert game.state.coins[0] == 0
    pass_turn(game)
    set_coins(game, 0, price(game, 0, "Pyramids")[0])
    wonder(game, any_other_card(game), "Pyramids")   # a wonder is no chain build
    assert game.state.coins[0] == 0


def test_urbanism_is_only_for_its_owner():
    game = fresh_game()
    give(game, 1, "Urbanism")
    give(game, 0, "Baths")
    build(game, "Aqueduct")
    assert game.state.coins == [7, 7]


def test_strategy_example():
    """With Strategy a red card with 2 shields moves the pawn 3 spaces."""
    game = fresh_game()
    give(game, 0, "Strategy", "Shelf Quarry")
    build(game, "Walls")
    assert game.state.pawn == 3


def test_strategy_not_for_wonders():
    game = fresh_game()
    give(game, 1, "Strategy", "Brickyard", "Clay Pool", "Glassworks")
    set_turn(game, 1)
    wonder(game, any_other_card(game), "Colossus")
    assert game.state.pawn == -2


def test_strategy_not_for_red_cards_built_before():
    game = fresh_game()
    give(game, 0, "Walls", "Garrison")
    take_token(game, "Strategy")
    assert game.state.pawn == 0


def test_theology_gives_wonders_play_again():
    game = fresh_game()
    give(game, 0, "Theology")
    set_coins(game, 0, 50)
    wonder(game, any_other_card(game), "Pyramids")
    assert game.to_move() == 0
    pass_turn(game)
    assert game.to_move() == 1


def test_theology_never_two_extra_turns():
    game = fresh_game()
    give(game, 0, "Theology")
    set_coins(game, 0, 50)
    wonder(game, any_other_card(game), "Temple of Artemis")
    assert game.to_move() == 0
    pass_turn(game)
    assert game.to_move() == 1


def test_theology_only_for_its_owner():
    game = fresh_game()
    give(game, 1, "Theology")
    set_coins(game, 0, 50)
    wonder(game, any_other_card(game), "Pyramids")
    assert game.to_move() == 1


def test_architecture_two_fewer_resources_the_most_expensive():
    game = fresh_game()
    give(game, 1, "Shelf Quarry", "Press")     # stone 4, papyrus 3
    assert price(game, 0, "Pyramids") == (15, 15, False)      # 3 x 4 + 3
    give(game, 0, "Architecture")
    assert price(game, 0, "Pyramids") == (7, 7, False)        # 2 stones free: 4 + 3
    assert price(game, 0, "Aqueduct") == (12, 12, False)      # not for buildings
    set_coins(game, 0, 7)
    wonder(game, any_other_card(game), "Pyramids")
    assert game.state.coins[0] == 0


def test_architecture_with_own_production():
    game = fresh_game()
    give(game, 0, "Architecture", "Quarry", "Stone Pit")
    give(game, 1, "Press")
    # Pyramids: 3 stone (2 own) + papyrus: 1 stone (2) and 1 papyrus (3) to buy, both free
    assert price(game, 0, "Pyramids") == (0, 0, False)


def test_masonry_two_fewer_resources_on_blue_cards():
    game = fresh_game()
    give(game, 1, "Glassworks")                # glass 3
    assert price(game, 0, "Palace") == (12, 12, False)        # wood clay stone 2 glass: 2+2+2+3+3
    give(game, 0, "Masonry")
    assert price(game, 0, "Palace") == (6, 6, False)
    assert price(game, 0, "Baths") == (0, 0, False)
    assert price(game, 0, "Walls") == (4, 4, False)           # not for red cards
    assert price(game, 0, "Pyramids") == (8, 8, False)        # not for wonders


def test_economy_gets_the_trade_coins_only():
    """Economy: the coins the opponent pays for trading come to you; not the card's printed coin cost."""
    game = fresh_game()
    give(game, 1, "Economy")
    set_coins(game, 0, 6)
    set_coins(game, 1, 0)
    build(game, "Caravansery")         # 2 coins + glass 2 + papyrus 2
    assert game.state.coins == [0, 4]


def test_economy_gets_what_was_actually_paid():
    game = fresh_game()
    give(game, 1, "Economy", "Glassworks")
    give(game, 0, "Customs House")     # glass and papyrus at 1 for p0
    set_coins(game, 0, 4)
    set_coins(game, 1, 0)
    build(game, "Caravansery")
    assert game.state.coins == [0, 2]


def test_economy_also_for_wonders():
    game = fresh_game()
    give(game, 1, "Economy")
    set_coins(game, 0, 8)
    set_coins(game, 1, 0)
    wonder(game, any_other_card(game), "Pyramids")     # 3 stone + papyrus, all bought
    assert game.state.coins == [0, 8]


def test_economy_nothing_without_trade_and_nothing_from_own_trade():
    game = fresh_game()
    give(game, 1, "Economy")
    set_coins(game, 1, 0)
    build(game, "Scriptorium")         # 2 coins, no trade
    assert game.state.coins == [5, 0]
    # the owner's own trading pays the bank as usual
    set_coins(game, 1, 2)
    build(game, "Baths")               # p1 buys a stone for 2
    assert game.state.coins == [5, 0]


# =================================================================================================
# Wonders
# =================================================================================================

def build_wonder(game, name, player=0, coins=60):
    """The player builds `name` (given to them if needed) with some accessible card."""
    if name not in names(game, "wonders", player):
        give_wonders(game, player, name)
    set_turn(game, player)
    set_coins(game, player, coins)
    cost = price(game, player, name)[0]
    wonder(game, any_other_card(game), name)
    return coins - cost


def test_pyramids():
    game = fresh_game()
    left = build_wonder(game, "Pyramids")
    assert game.score(0).get("wonder") == 9
    assert game.state.coins[0] == left and game.to_move() == 1


def test_colossus():
    game = fresh_game()
    build_wonder(game, "Colossus")
    assert game.state.pawn == 2
    assert game.score(0).get("wonder") == 3


def test_great_lighthouse():
    game = fresh_game()
    build_wonder(game, "Great Lighthouse")
    assert game.score(0).get("wonder") == 4
    assert game.to_move() == 1
    assert price(game, 0, "Stable") == (0, 0, False)           # wood
    assert price(game, 0, "Garrison") == (0, 0, False)         # clay
    assert price(game, 0, "Walls") == (2, 2, False)            # 2 stone: one made, one bought
    assert price(game, 0, "Glassworks") == (1, 0, False)
    assert game.trade_prices(1) == [2, 2, 2, 2, 2]


def test_temple_of_artemis():
    game = fresh_game()
    left = build_wonder(game, "Temple of Artemis")
    assert game.state.coins[0] == left + 12
    assert game.score(0).get("wonder", 0) == 0
    assert game.to_move() == 0


def test_mausoleum_builds_a_discarded_card_for_free():
    game = fresh_game()
    discard_pile(game, "Walls", "Tavern")
    box_cards = [n for n in names(game, "box") if game.content.items[item(game, n)].kind == "card"]
    assert box_cards
    left = build_wonder(game, "Mausoleum")
    st = game.state
    assert st.pending is not None and game.to_move() == 0
    options = sorted(a.args[0] for a in game.legal_actions())
    assert options == ["Tavern", "Walls"]          # the pile only, not the cards removed at setup
    for c in box_cards:
        assert_illegal(game, act("choose", c))
    game.apply(act("choose", "Walls"))
    assert "Walls" in names(game, "city", 0)
    assert st.pawn == 2                              # the card works as if built
    assert st.coins[0] == left                       # for free
    assert names(game, "discard") == ["Tavern"]
    assert game.score(0).get("wonder") == 2
    assert game.to_move() == 1


def test_mausoleum_card_effect_applies():
    game = fresh_game()
    discard_pile(game, "Tavern")
    left = build_wonder(game, "Mausoleum")
    game.apply(act("choose", "Tavern"))
    assert game.state.coins[0] == left + 4


def test_mausoleum_with_empty_discard_pile():
    game = fresh_game()
    build_wonder(game, "Mausoleum")
    assert game.state.pending is None and game.to_move() == 1
    assert game.score(0).get("wonder") == 2


def test_card_used_for_a_wonder_is_not_in_the_discard_pile():
    game = fresh_game()
    set_coins(game, 0, 60)
    give_wonders(game, 0, "Mausoleum")
    put_accessible(game, "Palace")
    game.apply(act("wonder", "Palace", "Pyramids"))
    pass_turn(game, "Palace")                  # p1 discards a card
    discarded = names(game, "discard")
    wonder(game, any_other_card(game), "Mausoleum")
    assert sorted(a.args[0] for a in game.legal_actions()) == sorted(discarded)


def test_great_library_draws_from_the_tokens_left_out():
    game = fresh_game(seed=5)
    set_board_tokens(game, *BOARD5)
    left_out = sorted(names(game, "progress_deck"))
    assert len(left_out) == 5
    build_wonder(game, "Great Library")
    st = game.state
    assert st.pending is not None and game.to_move() == 0
    offered = sorted(a.args[0] for a in game.legal_actions())
    assert len(offered) == 3
    assert set(offered) <= set(left_out)
    assert not set(offered) & set(BOARD5)
    assert_illegal(game, act("choose", "Agriculture"))          # on the board, not drawn
    # "Trek 3 willekeurige vooruitgang-fiches": drawn, seen by their drawer only.
    assert sorted(names(game, "library", 0)) == offered
    seen = [json.dumps(observe(game, p)) for p in (0, 1)]
    assert all(t in seen[0] for t in offered) and not any(t in seen[1] for t in offered)
    game.apply(act("choose", offered[0]))
    assert names(game, "tokens", 0) == [offered[0]]
    assert sorted(names(game, "board_tokens")) == sorted(BOARD5)
    for t in offered[1:]:
        assert where(game, t)[0] not in ("tokens", "board_tokens", "library")
    assert names(game, "library") == []
    assert game.score(0).get("wonder") == 4
    assert game.to_move() == 1


def test_great_library_token_takes_effect():
    # the game's script dictates chance: the 5 board tokens, then the Great Library's 3
    game = fresh_game(script={"progress_deck": ["Law", "Philosophy", "Strategy", "Urbanism", "Economy",
                                                "Agriculture", "Theology", "Masonry"]})
    left = build_wonder(game, "Great Library")
    assert sorted(a.args[0] for a in game.legal_actions()) == ["Agriculture", "Masonry", "Theology"]
    game.apply(act("choose", "Agriculture"))
    assert game.state.coins[0] == left + 6
    assert game.score(0).get("token") == 4


def test_great_library_law_can_complete_science_supremacy():
    game = fresh_game(script={"progress_deck": ["Agriculture", "Philosophy", "Strategy", "Urbanism", "Economy",
                                                "Law", "Theology", "Masonry"]})
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    build_wonder(game, "Great Library")
    assert not game.over
    game.apply(act("choose", "Law"))
    assert game.state.over and game.state.winner == 0 and game.state.victory == "science"


def test_piraeus():
    game = fresh_game()
    build_wonder(game, "Piraeus")
    assert game.score(0).get("wonder") == 2
    assert game.to_move() == 0                                  # play again
    assert price(game, 0, "Apothecary") == (0, 0, False)        # glass
    assert price(game, 0, "Workshop") == (0, 0, False)          # papyrus
    assert price(game, 0, "Caravansery") == (4, 2, False)       # glass + papyrus: one made
    assert game.trade_prices(1) == [2, 2, 2, 2, 2]


def test_hanging_gardens():
    game = fresh_game()
    left = build_wonder(game, "Hanging Gardens")
    assert game.state.coins[0] == left + 6
    assert game.score(0).get("wonder") == 3
    assert game.to_move() == 0


def test_statue_of_zeus_destroys_a_brown_card():
    game = fresh_game()
    give(game, 1, "Lumber Yard", "Sawmill", "Glassworks")
    build_wonder(game, "Statue of Zeus")
    st = game.state
    assert st.pawn == 1
    assert st.pending is not None and game.to_move() == 0
    assert sorted(a.args[0] for a in game.legal_actions()) == ["Lumber Yard", "Sawmill"]
    assert_illegal(game, act("choose", "Glassworks"))
    assert trade(game, 0, "wood") == 5
    game.apply(act("choose", "Sawmill"))
    assert "Sawmill" in names(game, "discard")
    assert trade(game, 0, "wood") == 3          # the destroyed card no longer produces
    assert sorted(names(game, "city", 1)) == ["Glassworks", "Lumber Yard"]
    assert game.score(0).get("wonder") == 3
    assert game.to_move() == 1


def test_statue_of_zeus_without_opponent_brown_cards():
    game = fresh_game()
    give(game, 1, "Glassworks")
    build_wonder(game, "Statue of Zeus")
    assert game.state.pending is None and game.to_move() == 1
    assert game.state.pawn == 1


def test_circus_maximus_destroys_a_grey_card():
    game = fresh_game()
    give(game, 1, "Lumber Yard", "Glassworks", "Press")
    build_wonder(game, "Circus Maximus")
    st = game.state
    assert st.pawn == 1
    assert sorted(a.args[0] for a in game.legal_actions()) == ["Glassworks", "Press"]
    assert_illegal(game, act("choose", "Lumber Yard"))
    game.apply(act("choose", "Press"))
    assert "Press" in names(game, "discard")
    assert game.score(0).get("wonder") == 3
    # the destroyed card can come back with the Mausoleum
    pass_turn(game)
    build_wonder(game, "Mausoleum")
    assert "Press" in [a.args[0] for a in game.legal_actions()]


def test_sphinx():
    game = fresh_game()
    build_wonder(game, "Sphinx")
    assert game.score(0).get("wonder") == 6
    assert game.to_move() == 0


def test_appian_way():
    game = fresh_game()
    set_coins(game, 1, 5)
    left = build_wonder(game, "Appian Way")
    assert game.state.coins == [left + 3, 2]
    assert game.score(0).get("wonder") == 3
    assert game.to_move() == 0


def test_appian_way_opponent_never_below_zero():
    game = fresh_game()
    set_coins(game, 1, 2)
    build_wonder(game, "Appian Way")
    assert game.state.coins[1] == 0


# =================================================================================================
# Guilds
# =================================================================================================

def build_guild(game, guild, coins=60):
    set_coins(game, 0, coins)
    cost = price(game, 0, guild)[0]
    build(game, guild)
    return game.state.coins[0] - (coins - cost)      # coins the guild gave


def test_shipowners_guild_counts_brown_and_grey_in_one_city():
    game = fresh_game()
    give(game, 0, "Quarry", "Clay Pool", "Lumber Yard")               # 3 brown, 0 grey
    give(game, 1, "Stone Pit", "Clay Pit", "Glassworks", "Press")     # 2 brown + 2 grey = 4
    assert build_guild(game, "Shipowners Guild") == 4                  # not 3 + 2
    assert game.score(0).get("purple") == 4
    give(game, 0, "Sawmill", "Brickyard")                              # p0 now 5: VP recounted, coins not
    assert game.score(0).get("purple") == 5


@pytest.mark.parametrize("guild, mine, theirs", [
    ("Merchants Guild", ["Tavern"], ["Stone Reserve", "Clay Reserve", "Wood Reserve"]),
    ("Magistrates Guild", ["Theater", "Altar", "Baths"], ["Rostrum"]),
    ("Scientists Guild", ["Workshop"], ["Apothecary", "Pharmacist"]),
    ("Tacticians Guild", ["Guard Tower", "Stable", "Garrison", "Palisade"], []),
])
def test_guilds_count_the_city_with_the_most(guild, mine, theirs):
    game = fresh_game()
    give(game, 0, *mine)
    give(game, 1, *theirs)
    most = max(len(mine), len(theirs))
    assert build_guild(game, guild) == most
    assert game.score(0).get("purple") == most


def test_guild_coins_once_points_at_the_end():
    game = fresh_game()
    give(game, 1, "Theater", "Altar")
    assert build_guild(game, "Magistrates Guild") == 2
    coins = game.state.coins[0]
    give(game, 1, "Baths", "Rostrum", "Temple")
    assert game.state.coins[0] == coins
    assert game.score(0).get("purple") == 5


def test_guild_tie_uses_that_count():
    game = fresh_game()
    give(game, 0, "Guard Tower", "Stable")
    give(game, 1, "Garrison", "Palisade")
    assert build_guild(game, "Tacticians Guild") == 2
    assert game.score(0).get("purple") == 2


def test_moneylenders_guild_richest_city():
    game = fresh_game()
    assert build_guild(game, "Moneylenders Guild") == 0              # no coins when built
    set_coins(game, 0, 4)
    set_coins(game, 1, 17)
    assert game.score(0).get("purple") == 5
    set_coins(game, 0, 20)
    assert game.score(0).get("purple") == 6


def test_builders_guild_city_with_most_wonders():
    game = fresh_game()
    give(game, 0, "Pyramids")
    give(game, 1, "Colossus", "Piraeus", "Appian Way")
    assert build_guild(game, "Builders Guild") == 0                  # no coins when built
    assert game.score(0).get("purple") == 6


# =================================================================================================
# Age III yellow cards
# =================================================================================================

def test_lighthouse_counts_itself():
    game = fresh_game()
    give(game, 0, "Tavern", "Clay Reserve")
    assert price(game, 0, "Lighthouse") == (0, 0, True)
    build(game, "Lighthouse")
    assert game.state.coins[0] == 7 + 3
    assert game.score(0).get("yellow") == 3


def test_arena_per_own_wonder():
    game = fresh_game()
    give(game, 0, "Brewery", "Pyramids", "Sphinx")
    give(game, 1, "Colossus", "Piraeus", "Appian Way")
    assert price(game, 0, "Arena") == (0, 0, True)
    build(game, "Arena")
    assert game.state.coins[0] == 7 + 4
    assert game.score(0).get("yellow") == 3


@pytest.mark.parametrize("card, mine, theirs, coins", [
    ("Chamber of Commerce", ["Glassworks", "Press", "Quarry"], ["Glass-blower"], 6),
    ("Port", ["Quarry", "Clay Pool", "Glassworks"], ["Lumber Yard"], 4),
    ("Armory", ["Guard Tower", "Stable", "Quarry"], ["Garrison"], 2),
])
def test_age3_yellow_cards_count_own_city(card, mine, theirs, coins):
    game = fresh_game()
    give(game, 0, *mine)
    give(game, 1, *theirs)
    set_coins(game, 0, 60)
    cost = price(game, 0, card)[0]
    build(game, card)
    assert game.state.coins[0] == 60 - cost + coins
    assert game.score(0).get("yellow") == 3


# =================================================================================================
# End of an age: who starts the next one
# =================================================================================================

def last_card_position(pawn, last_player):
    game = fresh_game()
    set_pawn(game, pawn)
    set_turn(game, last_player)
    leave_only(game, "Altar")
    game.apply(act("build", "Altar"))
    return game


@pytest.mark.parametrize("pawn, last_player, chooser", [
    (2, 0, 1), (2, 1, 1),        # pawn towards p1's capital: p1 is weaker and chooses
    (-2, 0, 0), (-2, 1, 0),      # towards p0's capital: p0 chooses
    (0, 0, 0), (0, 1, 1),        # in the middle: whoever took the last card chooses
])
def test_weaker_player_chooses_who_starts_the_next_age(pawn, last_player, chooser):
    game = last_card_position(pawn, last_player)
    st = game.state
    assert st.pending is not None and st.pending.kind == "player"
    assert game.to_move() == chooser
    assert sorted(game.legal_actions()) == [Action("choose_player", ("p0",)), Action("choose_player", ("p1",))]
    other = 1 - chooser
    game.apply(Action("choose_player", (f"p{other}",)))
    assert st.age == 1 and st.flow == "turn" and game.to_move() == other
    structure = [i for i in st.structure if i >= 0]
    assert len(structure) == 20 and all(game.content.items[i].age == 2 for i in structure)
    assert len(game.accessible()) == 2


def test_science_pair_on_the_last_card_comes_before_the_start_choice():
    game = fresh_game()
    set_board_tokens(game, *BOARD5)
    give(game, 0, "Lumber Yard", "Glassworks", "Glass-blower", "Workshop")
    set_pawn(game, -1)                                 # p0 weaker: p0 will choose who starts
    leave_only(game, "Laboratory")
    game.apply(act("build", "Laboratory"))
    st = game.state
    assert st.pending is not None and st.pending.kind == "item" and game.to_move() == 0
    game.apply(act("choose", "Philosophy"))
    assert st.pending is not None and st.pending.kind == "player" and game.to_move() == 0
    game.apply(Action("choose_player", ("p1",)))
    assert st.age == 1 and game.to_move() == 1
    assert "Philosophy" in names(game, "tokens", 0)


def test_chooser_may_start_themselves():
    game = last_card_position(3, 0)
    game.apply(Action("choose_player", ("p1",)))
    assert game.to_move() == 1 and game.state.age == 1


def test_age_two_structure_and_three_removed():
    game = fresh_game()
    to_age(game, 2)
    st = game.state
    assert st.age == 1
    cards = [i for i in st.structure if i >= 0]
    assert len(cards) == 20 and all(game.content.items[i].age == 2 for i in cards)
    assert len([n for n in names(game, "box") if game.content.items[item(game, n)].age == 2]) == 3
    assert [st.structure.index(i) for i in game.accessible()] == [18, 19]


@pytest.mark.parametrize("seed", range(12))
def test_age_three_has_exactly_three_guilds(seed):
    """Setup: 3 Age III cards go back to the box unseen, then 3 random guilds join the Age III
    deck: the Age III structure holds 17 Age III cards and exactly 3 guilds."""
    game = fresh_game(seed)
    to_age(game, 3)
    st = game.state
    cards = [i for i in st.structure if i >= 0]
    assert len(cards) == 20
    guilds = [game.name(i) for i in cards if game.content.items[i].color == "purple"]
    assert len(guilds) == 3, f"Age III structure has {len(guilds)} guilds: {guilds}"


# =================================================================================================
# End of the game
# =================================================================================================

def final_turn(seed=0):
    """Age III with a single card left (the Altar): taking it ends the game."""
    game = fresh_game(seed)
    to_age(game, 3)
    leave_only(game, game.name(game.accessible()[0]))
    return game


def finish(game):
    game.apply(act("discard", game.name(game.accessible()[0])))
    assert game.over


def test_game_ends_after_age_three():
    game = final_turn()
    set_coins(game, 0, 7)
    set_coins(game, 1, 12)
    finish(game)                                   # p0: 9 coins
    st = game.state
    assert st.victory == "civilian" and st.winner == 1
    assert game.score(0).get("coins") == 3 and game.score(1).get("coins") == 4
    assert game.legal_actions() == []


@pytest.mark.parametrize("coins, vp", [(0, 0), (2, 0), (3, 1), (8, 2), (9, 3), (25, 8)])
def test_coins_one_vp_per_three(coins, vp):
    game = fresh_game()
    set_coins(game, 0, coins)
    assert game.score(0).get("coins", 0) == vp


def test_civilian_victory_most_vp():
    game = final_turn()
    give(game, 1, "Pyramids")
    give(game, 0, "Palace", "Theater")           # 10 blue
    set_coins(game, 0, 7)
    set_coins(game, 1, 9)
    finish(game)
    assert total(game, 0) == 10 + 3 and total(game, 1) == 9 + 3
    assert game.state.winner == 0 and game.state.victory == "civilian"


def test_civilian_tie_broken_by_blue_vp():
    game = final_turn()
    give(game, 0, "Theater")                     # 3 blue
    give(game, 1, "Chamber of Commerce")         # 3 yellow
    set_coins(game, 0, 7)                        # +2 for the discard: 9 -> 3 VP
    set_coins(game, 1, 9)
    finish(game)
    assert total(game, 0) == total(game, 1) == 6
    assert game.state.winner == 0 and game.state.victory == "civilian"


def test_civilian_tie_broken_by_blue_vp_for_player_1():
    game = final_turn()
    give(game, 1, "Theater")
    give(game, 0, "Chamber of Commerce")
    set_coins(game, 0, 7)
    set_coins(game, 1, 9)
    finish(game)
    assert total(game, 0) == total(game, 1)
    assert game.state.winner == 1


def test_shared_victory_when_blue_vp_tie_too():
    game = final_turn()
    give(game, 0, "Theater", "Pyramids")
    give(game, 1, "Altar", "Sphinx", "Agriculture")    # 3 blue + 6 + 4 - Pyramids 9 + 3 blue: 12 vs 13
    set_coins(game, 0, 7 + 3)                          # 12 -> 4 VP: 16 vs 13 + coins
    set_coins(game, 1, 9)                              # 3 VP: 16
    finish(game)
    assert total(game, 0) == total(game, 1) == 16
    assert game.score(0)["blue"] == game.score(1)["blue"] == 3
    assert game.state.winner == DRAW


# =================================================================================================
# Illegal actions never change the game
# =================================================================================================

def test_illegal_actions_change_nothing():
    game = fresh_game()
    give(game, 0, "Shelf Quarry")
    put_accessible(game, "Palace")
    set_coins(game, 0, 3)
    before = dumps(game.state)
    for bad in [act("build", "Palace"), act("build", "Colossus"), act("build", "Nothing"),
                act("choose", "Law"), act("wonder", "Palace"), act("fly", "Palace"),
                act("choose_player", "p1")]:
        with pytest.raises(IllegalAction):
            game.apply(bad)
        assert dumps(game.state) == before
    assert game.legal_actions()
