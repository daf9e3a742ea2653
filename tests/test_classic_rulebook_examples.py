"""The classic 7 Wonders rulebook's rules that tests/test_classic_content.py leaves untested, as
positions played through legal_actions()/apply() (helpers: tests/classic_positions.py).

Items (A1..H3) are those of tests/data/classic/rulebook-examples.md; the wonder abilities' details
come from the reference YAML's `wonder_abilities` (tests/data/reference/seven-wonders-v2.yaml).

Seats: at 3 players seat 0's left neighbour is seat 1 and its right neighbour seat 2."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulesdsl.interpreter import IllegalAction
from classic_positions import (act, actions_named, assert_hands_pass_from, build_stages, classic_game, discard_pile,
                               give, names, paying, pays, place, play_round, play_until_age, score, set_board,
                               set_coins, set_hand)

P0, P1, P2 = 0, 1, 2
REF = yaml.safe_load((Path(__file__).resolve().parent / "data" / "reference" / "seven-wonders-v2.yaml")
                     .read_text(encoding="utf-8"))
FILLER = ("Altar", "Theater", "Baths", "Scriptorium", "Guard Tower", "Temple", "Statue")      # one copy at 3+


def boards(game, sides: dict[int, str]) -> None:
    for p, side in sides.items():
        set_board(game, p, side)


def hand_with(card: str, *more: str) -> tuple[str, ...]:
    """A hand of 7: the cards named, then fillers that are none of them."""
    wanted = (card, *more)
    return wanted + tuple(n for n in FILLER if n not in wanted)[:7 - len(wanted)]


def to_the_last_turn(game) -> None:
    """Every seat sells until the hands hold 2 cards (the 6th turn of the age)."""
    while len(names(game, "hand", P0)) > 2:
        play_round(game)


# =================================================================================================
# D. Trade: raw materials and manufactured goods (D2, D9)
# =================================================================================================

def test_a_trading_post_lowers_raw_materials_not_goods():
    """D9: West Trading Post makes the left neighbour's raw materials (its board's base resource
    too) cost 1; its manufactured goods still cost 2."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})       # P1: ore
    give(game, P0, "West Trading Post")
    give(game, P1, "Glassworks")
    set_hand(game, P0, *hand_with("Barracks", "Workshop"))
    assert pays(game, P0, "build", "Barracks") == {((P1, 1),)}
    assert pays(game, P0, "build", "Workshop") == {((P1, 2),)}


def test_the_marketplace_lowers_goods_not_raw_materials():
    """D9: Marketplace makes both neighbours' goods cost 1; their raw materials still cost 2."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Alexandria (Day)"})    # ore; glass
    give(game, P0, "Marketplace")
    set_hand(game, P0, *hand_with("Barracks", "Workshop"))
    assert pays(game, P0, "build", "Barracks") == {((P1, 2),)}
    assert pays(game, P0, "build", "Workshop") == {((P2, 1),)}


def test_both_trading_posts_lower_both_sides():
    """D9: East and West Trading Post together: raw materials from either side cost 1."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})
    give(game, P0, "West Trading Post", "East Trading Post")
    give(game, P2, "Ore Vein")
    set_hand(game, P0, *hand_with("Barracks"))
    assert pays(game, P0, "build", "Barracks") == {((P1, 1),), ((P2, 1),)}


def test_own_yellow_cards_produce_for_their_owner():
    """C5: the city's own production includes its yellow cards: Forum gives a good of choice,
    Caravansery a raw material of choice, with no coins spent."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})
    give(game, P0, "Forum", "Caravansery")
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Workshop", "Stockade", "Guard Tower"))
    for card in ("Workshop", "Stockade", "Guard Tower"):
        assert actions_named(game, P0, "build", card) == [act("build", card)]
    play_round(game, {P0: act("build", "Workshop")})
    assert "Workshop" in names(game, "city", P0) and game.state.coins[P0] == 0


def test_an_either_or_card_yields_one_unit_a_turn():
    """C4, D3, D5: a Timber Yard (stone|wood) gives its owner stone or wood, not both, and sells a
    buyer one of them a turn, not both.  Senate costs 2 wood, stone and ore."""
    game = classic_game(3)
    boards(game, {P0: "Rhodos (Day)", P1: "Ephesos (Day)", P2: "Alexandria (Day)"})  # ore
    give(game, P0, "Lumber Yard", "Timber Yard")
    set_coins(game, P0, 10)
    set_hand(game, P0, *hand_with("Senate"))
    assert pays(game, P0, "build", "Senate") == set()       # wood, ore own; a second wood or the stone lacking
    game2 = classic_game(3)
    boards(game2, {P0: "Rhodos (Day)", P1: "Ephesos (Day)", P2: "Alexandria (Day)"})
    give(game2, P0, "Lumber Yard")
    give(game2, P1, "Timber Yard")
    set_coins(game2, P0, 10)
    set_hand(game2, P0, *hand_with("Senate"))
    assert pays(game2, P0, "build", "Senate") == set()      # the neighbour's card sells one unit
    give(game2, P2, "Stone Pit")
    assert pays(game2, P0, "build", "Senate") == {((P1, 2), (P2, 2))}


def test_a_purchase_the_buyer_cannot_pay_is_refused_and_changes_nothing():
    """D1, D6: with 1 coin a resource at 2 is not offered; applying it anyway is refused and
    leaves the position as it was."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})
    set_coins(game, P0, 1)
    set_hand(game, P0, *hand_with("Barracks"))
    assert pays(game, P0, "build", "Barracks") == set()
    before = (list(game.state.coins), names(game, "hand", P0), names(game, "city", P0))
    with pytest.raises(IllegalAction):
        game.apply(act("build", "Barracks", pay=((P1, 2),)), seat=P0)
    assert (list(game.state.coins), names(game, "hand", P0), names(game, "city", P0)) == before


# =================================================================================================
# C. Chains (C7)
# =================================================================================================

def test_without_the_chain_the_cost_is_paid():
    """C7: "Als een kaart niet beschikt over het juiste Keten-symbool, dan kun je deze kaart toch
    bouwen door de bouwkosten te betalen": Gardens (wood, 2 clay) without Theater is paid for."""
    game = classic_game(3)
    boards(game, {P0: "Olympia (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})    # clay
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Gardens"))
    assert actions_named(game, P0, "build", "Gardens") == []             # one clay, no wood
    give(game, P0, "Clay Pit", "Lumber Yard")
    assert actions_named(game, P0, "build", "Gardens") == [act("build", "Gardens")]
    play_round(game, {P0: act("build", "Gardens")})
    assert "Gardens" in names(game, "city", P0) and game.state.coins[P0] == 0


def test_one_card_opens_two_chains_and_two_cards_open_one():
    """C7: "Sommige kaarten behoren tot twee ketens": Apothecary makes both Stables and Dispensary
    free; either trading post makes Forum free."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})
    give(game, P0, "Apothecary")
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Stables", "Dispensary", "Forum"))
    assert actions_named(game, P0, "build", "Stables") == [act("build", "Stables")]
    assert actions_named(game, P0, "build", "Dispensary") == [act("build", "Dispensary")]
    assert actions_named(game, P0, "build", "Forum") == []
    give(game, P0, "East Trading Post")
    assert actions_named(game, P0, "build", "Forum") == [act("build", "Forum")]


def test_a_card_under_a_stage_opens_no_chain():
    """C7: the chain needs a card "gebouwd" in the city; a Theater tucked under a stage (B2: it
    only pays for the stage) does not make Gardens free."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Alexandria (Day)"})
    build_stages(game, P0, 1)
    place(game, "Theater", "under", P0)
    set_coins(game, P0, 0)
    set_hand(game, P0, "Gardens", "Altar", "Baths", "Scriptorium", "Guard Tower", "Temple", "Statue")
    assert actions_named(game, P0, "build", "Gardens") == []


# =================================================================================================
# B. Passing and the last card
# =================================================================================================

def test_hands_pass_left_in_age_3():
    """B3: "aan hun linkerbuurman (tijdens Tijdperken I en III)": in Age III you receive your right
    neighbour's hand, minus the card it played."""
    game = classic_game(3)
    play_until_age(game, 3)
    assert_hands_pass_from(game, -1)


def test_babylon_night_built_on_the_6th_turn_plays_the_7th_card_of_every_age():
    """B4's exception, Babylon Night stage 1 (YAML play_last_card: "Built in Age I -> usable 3
    times"): built with the 6th card of Age I it keeps that age's 7th card, and those of Ages II
    and III; the others discard theirs."""
    game = classic_game(3)
    boards(game, {P0: "Babylon (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    give(game, P0, "Stone Pit", "Timber Yard")                             # 2 stone
    to_the_last_turn(game)
    card, kept = names(game, "hand", P0)
    play_round(game, {P0: act("wonder", card, "Babylon (Night) stage 1")})
    extra_rounds = 0
    for age in (0, 1, 2):
        assert game.state.age == age
        if age:
            to_the_last_turn(game)
            play_round(game)
        assert game.to_act() == [P0] and len(names(game, "hand", P0)) == 1
        assert [names(game, "hand", p) for p in (P1, P2)] == [[], []]
        coins = game.state.coins[P0]
        play_round(game)                                                    # P0 sells its 7th card
        assert game.state.coins[P0] == coins + 3
        extra_rounds += 1
    assert extra_rounds == 3 and game.over


def test_without_babylon_no_one_plays_the_7th_card():
    """B4: "De afgelegde kaart levert je geen munten op": after the 6th turn the next age begins at
    once, the 7th cards in the discard pile, no coins for them."""
    game = classic_game(3)
    to_the_last_turn(game)
    coins = list(game.state.coins)
    pile = len(names(game, "discard"))
    play_round(game)                                     # everyone sells one card of two
    assert game.state.age == 1
    assert game.state.coins == [c + 3 for c in coins]
    assert len(names(game, "discard")) == pile + 3 + 3


# =================================================================================================
# E. Military
# =================================================================================================

def test_equal_shields_take_no_token():
    """E1: "Is jullie militaire macht gelijk, dan neemt geen enkele speler een fiche", also when
    both have shields."""
    game = classic_game(3)
    give(game, P0, "Stockade")
    give(game, P1, "Barracks")
    give(game, P2, "Guard Tower")
    play_until_age(game, 2)
    assert [score(game, p, "military") for p in range(3)] == [0, 0, 0]


def test_the_last_and_first_seats_are_neighbours_in_war():
    """E1 at 7 players: the table is round, so seat 6 fights seats 5 and 0; the others nothing."""
    game = classic_game(7)
    give(game, 6, "Stockade")
    play_until_age(game, 2)
    assert [score(game, p, "military") for p in range(7)] == [-1, 0, 0, 0, 0, -1, 2]


def test_rhodos_night_stages_give_a_shield_each():
    """H2, H3: Rhodos Night, both stages built: 2 shields, beating a neighbour's Stockade (1)."""
    game = classic_game(3)
    boards(game, {P0: "Rhodos (Night)", P1: "Ephesos (Day)", P2: "Gizah (Day)"})
    build_stages(game, P0, 2)
    give(game, P1, "Stockade")
    play_until_age(game, 2)
    assert [score(game, p, "military") for p in range(3)] == [2, -1 + 1, -1 - 1]
    assert score(game, P0, "stage") == 3 + 4


def test_a_card_built_after_the_6th_turn_fights_in_that_age():
    """E1 ("Elk Tijdperk eindigt met het Oplossen van Militaire Conflicten"): the war comes after
    everything the last turn builds: a red card Halikarnassos takes from the discard pile on the
    6th turn, and the 7th card Babylon Night plays, count in that age's conflicts."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Glassworks", "Press")
    discard_pile(game, "Barracks")
    to_the_last_turn(game)
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: act("wonder", card, "Halikarnassos (Day) stage 2")})
    assert game.state.age == 0 and game.to_act() == [P0]
    game.apply(act("choose", "Barracks"), seat=P0)
    assert game.state.age == 1
    assert [score(game, p, "military") for p in range(3)] == [2, -1, -1]

    game = classic_game(3)
    boards(game, {P0: "Babylon (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    to_the_last_turn(game)
    set_hand(game, P0, "Altar", "Stockade")                      # Babylon's base resource: wood
    play_round(game, {P0: act("sell", "Altar")})
    assert game.to_act() == [P0] and names(game, "hand", P0) == ["Stockade"]
    play_round(game, {P0: act("build", "Stockade")})
    assert game.state.age == 1
    assert [score(game, p, "military") for p in range(3)] == [2, -1, -1]


# =================================================================================================
# F. Science: the table up to 6 identical symbols
# =================================================================================================

@pytest.mark.parametrize("side, stages, guild, points", [
    ("Babylon (Day)", 2, False, 25),            # 4 compass cards + 1 any
    ("Babylon (Day)", 2, True, 36),             # + the Scientists Guild: 6 identical
    ("Babylon (Night)", 2, True, 36),           # F3: the Night side's science stage counts too
    ("Babylon (Night)", 1, False, 16),          # stage 1 gives no symbol
])
def test_five_and_six_identical_symbols(side, stages, guild, points):
    """F1: "Aantal identieke symbolen ... 5 6 / Overwinningspunten ... 25 36"."""
    game = classic_game(3)
    set_board(game, P0, side)
    build_stages(game, P0, stages)
    give(game, P0, "Apothecary", "Dispensary", "Lodge", "Academy", *(("Scientists Guild",) if guild else ()))
    assert score(game, P0, "science") == points


# =================================================================================================
# Wonder abilities (H3)
# =================================================================================================

def test_each_halikarnassos_night_stage_builds_from_the_discard_once():
    """H3, YAML build_from_discard ("Each stage that carries it triggers once"): Night stage 1 gives
    one free build at the end of its turn and none in the next turn; stage 2 gives one more.  A card
    whose name is in the city is never offered (B5)."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    give(game, P0, "Clay Pool", "Clay Pit", "Glassworks")
    discard_pile(game, "Palace", "Senate", "Glassworks")       # 3 players: two Glassworks
    set_hand(game, P0, *hand_with("Baths", "Stockade"))
    play_round(game, {P0: act("wonder", "Baths", "Halikarnassos (Night) stage 1")})
    assert game.to_act() == [P0]
    offered = {a.args[0] for a in game.legal_actions(P0) if a.name == "choose"}
    assert {"Palace", "Senate"} <= offered and "Glassworks" not in offered
    game.apply(act("choose", "Palace"), seat=P0)
    assert "Palace" in names(game, "city", P0) and score(game, P0, "stage") == 2
    play_round(game)                                     # a turn without a stage: no free build
    assert sorted(game.to_act()) == [P0, P1, P2]
    assert not [a for a in game.legal_actions(P0) if a.name == "choose"]
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: paying(game, P0, "wonder", card, "Halikarnassos (Night) stage 2", pay=((P1, 2),))})
    assert game.to_act() == [P0]
    game.apply(act("choose", "Senate"), seat=P0)
    assert "Senate" in names(game, "city", P0)
    assert score(game, P0, "stage") == 2 + 1


def test_halikarnassos_may_pass_and_an_empty_pile_offers_nothing():
    """H3 ("may build"): the owner may decline; with nothing discarded the turn just ends."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Glassworks", "Press")
    set_hand(game, P0, *hand_with("Baths"))
    set_hand(game, P1, "Lumber Yard", "Ore Vein", "Clay Pool", "Loom", "Press", "Barracks", "Stockade", keep=(P0,))
    set_hand(game, P2, "Stone Pit", "Sawmill", "Quarry", "Brickyard", "Foundry", "Forum", "Caravansery",
             keep=(P0, P1))
    assert names(game, "discard") == []
    play_round(game, {P0: act("wonder", "Baths", "Halikarnassos (Day) stage 2"),
                      P1: act("build", "Lumber Yard"), P2: act("build", "Stone Pit")})
    assert sorted(game.to_act()) == [P0, P1, P2]
    assert len(names(game, "hand", P0)) == 6

    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Glassworks", "Press")
    discard_pile(game, "Palace")
    set_hand(game, P0, *hand_with("Baths"))
    play_round(game, {P0: act("wonder", "Baths", "Halikarnassos (Day) stage 2")})
    assert act("pass") in game.legal_actions(P0)
    city = names(game, "city", P0)
    game.apply(act("pass"), seat=P0)
    assert names(game, "city", P0) == city and "Palace" in names(game, "discard")
    assert sorted(game.to_act()) == [P0, P1, P2]


def test_olympia_day_frees_one_card_per_colour_in_any_age():
    """H3 Olympia Day stage 2 (YAML free_first_card_of_each_color: "whatever the Age; buildings
    only"): after a free blue card the next blue card is paid for; in Age III the first guild is
    free; a stage is never built through it."""
    game = classic_game(3)
    boards(game, {P0: "Olympia (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 2)
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Palace", "Pantheon"))
    play_round(game, {P0: act("build_free", "Palace")})
    set_hand(game, P0, "Pantheon", "Altar", "Theater", "Apothecary", "Scriptorium", "Baths")
    assert actions_named(game, P0, "build_free", "Pantheon") == []
    assert actions_named(game, P0, "build_free", "Apothecary")
    play_until_age(game, 3)
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Builders Guild"))
    assert actions_named(game, P0, "build_free", "Builders Guild")
    assert not [a for a in game.legal_actions(P0) if a.name == "wonder"]     # stage 3: 3 clay, one held


def test_olympia_night_built_mid_age_frees_the_first_card_of_the_next_ages():
    """H3 Olympia Night stage 1 (YAML free_first_card_of_each_age: "Applies from the next Age on if
    the stage is built mid-Age"): built on Age I's 2nd turn, no free card in Age I, the first card
    free in Ages II and III; a first card sold instead loses the benefit for that age."""
    game = classic_game(3)
    boards(game, {P0: "Olympia (Night)", P1: "Ephesos (Day)", P2: "Gizah (Day)"})
    give(game, P0, "Ore Vein", "Clay Pit")                                  # 2 ore
    play_round(game)
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: act("wonder", card, "Olympia (Night) stage 1")})
    assert names(game, "built_stages", P0) == ["Olympia (Night) stage 1"]
    while game.state.age == 0:
        assert not [a for a in game.legal_actions(P0) if a.name == "build_free"]
        play_round(game)
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Aqueduct"))
    assert actions_named(game, P0, "build_free", "Aqueduct")
    play_round(game, {P0: act("sell", "Altar")})
    assert not [a for a in game.legal_actions(P0) if a.name == "build_free"]
    play_until_age(game, 3)
    set_hand(game, P0, *hand_with("Palace"))
    play_round(game, {P0: act("build_free", "Palace")})
    assert "Palace" in names(game, "city", P0)


def test_alexandria_night_produces_a_good_of_choice_not_for_sale():
    """H3, D2: Alexandria Night stage 2 gives its owner a manufactured good of choice each turn;
    its neighbour cannot buy it."""
    game = classic_game(3)
    boards(game, {P0: "Alexandria (Night)", P1: "Ephesos (Day)", P2: "Gizah (Day)"})
    build_stages(game, P0, 2)
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Apothecary"))
    assert actions_named(game, P0, "build", "Apothecary") == [act("build", "Apothecary")]   # textile
    set_hand(game, P0, *hand_with("Baths"))
    set_hand(game, P1, "Apothecary", "Sawmill", "Quarry", "Brickyard", "Foundry", "Forum", "Caravansery", keep=(P0,))
    assert pays(game, P1, "build", "Apothecary") == set()


# What pays each stage that gives coins (with the side's base resource).
COIN_STAGES = {
    ("Ephesos (Day)", 2): ("Sawmill",),                     # 2 wood
    ("Ephesos (Night)", 1): ("Quarry",),                    # 2 stone
    ("Ephesos (Night)", 2): ("Sawmill",),                   # 2 wood
    ("Ephesos (Night)", 3): ("Foundry", "Loom"),            # 2 ore, textile
    ("Rhodos (Night)", 1): ("Quarry", "Stone Pit"),         # 3 stone
    ("Rhodos (Night)", 2): ("Foundry", "Ore Vein"),         # 4 ore with the base resource
}


@pytest.mark.parametrize("side, stage", sorted(COIN_STAGES))
def test_every_stage_that_gives_coins_pays_them_when_built(side, stage):
    """H3 (the reference YAML's `wonders`, copied in tests/data/reference): a stage's coins come
    once, when it is built; its VP score in the wonder category."""
    wonder, half = side.split(" (")
    facts = next(w for w in REF["wonders"] if w["name"] == wonder)["day" if half == "Day)" else "night"]
    effects = facts[stage - 1]["effects"]
    coins = sum(e.get("coins", 0) for e in effects)
    vp = sum(e.get("vp", 0) for e in facts[stage - 1]["effects"]) + sum(
        e.get("vp", 0) for f in facts[:stage - 1] for e in f["effects"])
    assert coins
    game = classic_game(3)
    boards(game, {P0: side, P1: "Gizah (Day)", P2: "Olympia (Day)"})
    build_stages(game, P0, stage - 1)
    give(game, P0, *COIN_STAGES[side, stage])
    set_coins(game, P0, 0)
    set_hand(game, P0, *hand_with("Baths"))
    play_round(game, {P0: act("wonder", "Baths", f"{side} stage {stage}")})
    assert game.state.coins[P0] == coins
    assert score(game, P0, "stage") == vp
    play_round(game, {P0: act("sell", names(game, "hand", P0)[0])})
    assert game.state.coins[P0] == coins + 3                # nothing more the next turn
