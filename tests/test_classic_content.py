"""The classic 7 Wonders card files (cards/classic) against the facts: the reference YAML
(tests/data/reference/seven-wonders-v2.yaml: cards, copies, costs, chains, boards) and the
rulebook's checklist (tests/data/classic/rulebook-examples.md, items A1..H3), the worked examples as
positions played through legal_actions()/apply() (helpers: tests/classic_positions.py).

Seats: at 3 players seat 0's left neighbour is seat 1 and its right neighbour seat 2."""

from __future__ import annotations

import collections
import random
import re
from pathlib import Path

import pytest
import yaml

from rulesdsl.pipeline import load_ruleset
from rulesdsl.testing.verify import verify
from rulesdsl.interpreter import DRAW, IllegalAction
from classic_positions import (CLASSIC, act, actions_named, assert_hands_pass_from, build_stages, classic_game,
                               discard_pile, give, names, paying, pays, play_round, play_until_age, score, set_board,
                               set_coins, set_hand, stages_of)

ROOT = Path(__file__).resolve().parent.parent
REF = yaml.safe_load((ROOT / "tests" / "data" / "reference" / "seven-wonders-v2.yaml").read_text(encoding="utf-8"))
AGE_CARDS = REF["age_cards"]
GUILDS = REF["guilds"]
COUNTS = (3, 4, 5, 6, 7)
P0, P1, P2 = 0, 1, 2


def content(players: int = 3):
    return load_ruleset((), base=CLASSIC, players=players).content


def first(c, name: str):
    return c.items[c.item_index[name]]


def cost_of(c, it) -> dict[str, int]:
    if it.cost is None:
        return {}
    found = {r: n for r, n in zip(c.resources, it.cost.resources) if n}
    if it.cost.coins:
        found["coins"] = it.cost.coins
    return found


def in_play(c, name: str) -> list:
    """The copies of a card a game of this content uses (an unused one stays out: deck -1)."""
    return [it for it in c.items if it.name == name and it.deck != -1]


# =================================================================================================
# Cards and copies (A1, A4-A6)
# =================================================================================================

def test_the_box_holds_148_age_cards():
    """A1: 49 + 49 + 50 age cards; at 7 players every copy is used."""
    c = content(7)
    cards = [it for it in c.items if it.kind == "card"]
    assert len(cards) == 148
    assert len([it for it in cards if it.color == "purple"]) == 10


@pytest.mark.parametrize("players", COUNTS)
def test_every_card_has_the_copies_its_player_marks_give(players):
    """A4: a copy is used from its mark on ("3+", "5+"); Loom, Glassworks and Press are one card in
    Ages I and II, so their copies of both ages add up."""
    c = content(players)
    expected = collections.Counter()
    for card in AGE_CARDS:
        expected[card["name"]] += sum(1 for m in card["min_players"] if m <= players)
    for guild in GUILDS:
        expected[guild["name"]] += 1
    defined = {it.name for it in c.items if it.kind == "card"}
    assert defined == set(expected)
    assert {name: len(in_play(c, name)) for name in expected} == dict(expected)


def dealt_names(game, players: int) -> collections.Counter:
    return collections.Counter(n for p in range(players) for n in names(game, "hand", p))


def yaml_age(age: int, players: int) -> collections.Counter:
    return collections.Counter({card["name"]: sum(1 for m in card["min_players"] if m <= players)
                                for card in AGE_CARDS if card["age"] == age})


@pytest.mark.parametrize("players", COUNTS)
def test_each_age_deals_a_hand_of_7_to_every_player(players):
    """A5, A6: 7 x players cards per age, exactly the YAML's copies; Age III with players + 2 of the
    10 guilds, the other guilds in the box."""
    game = classic_game(players, seed=players)
    for age in (1, 2, 3):
        play_until_age(game, age)
        assert [len(names(game, "hand", p)) for p in range(players)] == [7] * players
        dealt = dealt_names(game, players)
        expected = +yaml_age(age, players)
        if age == 3:
            guilds = {g["name"] for g in GUILDS}
            dealt_guilds = [n for n in dealt.elements() if n in guilds]
            assert len(dealt_guilds) == len(set(dealt_guilds)) == players + 2
            assert len([n for n in names(game, "box") if n in guilds]) == 10 - (players + 2)
            dealt = collections.Counter({n: k for n, k in dealt.items() if n not in guilds})
        assert dealt == expected, f"Age {age}"
        assert names(game, f"age{age}") == []


@pytest.mark.parametrize("players", COUNTS)
def test_costs_match_the_yaml(players):
    c = content(players)
    for card in AGE_CARDS + GUILDS:
        assert cost_of(c, first(c, card["name"])) == card["cost"], card["name"]


def test_chains_link_the_cards_the_yaml_links():
    """C7: a chain icon given by one card makes the cards that show it free; compared as card names."""
    c = content(7)
    cards = {it.name: it for it in c.items if it.kind == "card"}
    givers = collections.defaultdict(set)
    takers = collections.defaultdict(set)
    for it in cards.values():
        for s in it.chain_gives:
            givers[s].add(it.name)
        for s in it.chain_from:
            takers[s].add(it.name)
    for card in AGE_CARDS + GUILDS:
        it = cards[card["name"]]
        chains = card.get("chains") or {}
        assert {g for s in it.chain_from for g in givers[s]} == set(chains.get("from", [])), card["name"]
        assert {t for s in it.chain_gives for t in takers[s]} == set(chains.get("gives", [])), card["name"]


def test_production_science_and_shields_match_the_yaml():
    c = content(7)
    res = c.resources
    for card in AGE_CARDS + GUILDS:
        it = first(c, card["name"])
        produce = {r: n for r, n in zip(res, it.produce) if n}
        one_of = [sorted(res[k] for k in group) for group in it.produce_one_of]
        shields = dict(it.modifiers).get("shields", 0)
        want_produce, want_one_of, want_science, want_shields = {}, [], [], 0
        for effect in card["effects"]:
            if "produce" in effect:
                want_produce = effect["produce"]
            if "produce_one_of" in effect:
                want_one_of = [sorted(effect["produce_one_of"])]
            if "science" in effect:
                want_science = [effect["science"]]
            if "shields" in effect:
                want_shields = effect["shields"]
        assert (produce, one_of, list(it.science), shields) == (want_produce, want_one_of, want_science,
                                                                 want_shields), card["name"]


def test_colours_and_ages_match_the_yaml():
    c = content(7)
    ages: dict[str, set[int]] = {}
    for card in AGE_CARDS:
        it = first(c, card["name"])
        assert it.color == card["color"], card["name"]
        ages.setdefault(card["name"], set()).add(card["age"])
    for name, want in ages.items():
        # A card of two ages (Loom, Glassworks, Press) is one definition whose copies the game
        # deals into both (the copy counts per age are checked below): it names no one age.
        assert first(c, name).age == (next(iter(want)) if len(want) == 1 else None), name
    for card in GUILDS:
        it = first(c, card["name"])
        # Age III cards (A5), dealt from a zone of their own: the age filters and explain read
        assert (it.color, c.zones[it.deck].name, it.age) == ("purple", "guilds", 3)


# =================================================================================================
# Boards (H1, H3)
# =================================================================================================

def side_name(wonder: str, side: str) -> str:
    return f"{wonder} ({'Day' if side == 'day' else 'Night'})"


def test_every_board_side_has_its_stages_in_order_with_the_yaml_costs():
    """H1, H3: 7 wonders, 2 sides each, 2 to 4 stages per side, one base resource for both sides."""
    c = content(3)
    sides = [it for it in c.items if it.kind == "board"]
    assert len(sides) == 14
    for wonder in REF["wonders"]:
        for side in ("day", "night"):
            board = first(c, side_name(wonder["name"], side))
            assert [r for r, n in zip(c.resources, board.produce) if n] == [wonder["base_resource"]]
            stages = sorted((it for it in c.items if it.kind == "stage" and it.part_of == board.id),
                            key=lambda it: it.value)
            assert [it.value for it in stages] == list(range(1, len(wonder[side]) + 1))
            assert 2 <= len(stages) <= 4
            assert [cost_of(c, it) for it in stages] == [s["cost"] for s in wonder[side]], board.name
            for it, stage in zip(stages, wonder[side]):
                shields = sum(e.get("shields", 0) for e in stage["effects"])
                science = [e["science"] for e in stage["effects"] if "science" in e]
                assert dict(it.modifiers).get("shields", 0) == shields, it.name
                assert list(it.science) == science, it.name
        day, night = first(c, side_name(wonder["name"], "day")), first(c, side_name(wonder["name"], "night"))
        assert day.value == night.value


COMPLETE_SIDE_VP = {  # H3's derived totals
    "Alexandria (Day)": 10, "Babylon (Day)": 10, "Ephesos (Day)": 10, "Gizah (Day)": 15,
    "Halikarnassos (Day)": 10, "Olympia (Day)": 10, "Rhodos (Day)": 10,
    "Alexandria (Night)": 7, "Babylon (Night)": 0, "Ephesos (Night)": 10, "Gizah (Night)": 20,
    "Halikarnassos (Night)": 3, "Olympia (Night)": 10, "Rhodos (Night)": 7,
}


@pytest.mark.parametrize("board", sorted(COMPLETE_SIDE_VP))
def test_a_complete_side_scores_its_stages_vp(board):
    """H2, H3: the stages' VP score in the wonder (`stage`) category."""
    game = classic_game(3)
    set_board(game, P0, board)
    build_stages(game, P0, 4)
    assert names(game, "stages", P0) == []
    assert score(game, P0, "stage") == COMPLETE_SIDE_VP[board]


def test_setup_gives_3_coins_and_a_day_board_with_its_stages():
    """A7, A8: 3 coins, one board each, Day side by default, the stages of that side, no wonder twice."""
    for seed in range(5):
        game = classic_game(7, seed=seed)
        assert game.state.coins == [3] * 7
        boards = [names(game, "board", p) for p in range(7)]
        assert all(len(b) == 1 and b[0].endswith("(Day)") for b in boards)
        assert len({b[0] for b in boards}) == 7
        for p in range(7):
            stages = [game.name(i) for i in stages_of(game, boards[p][0])]
            assert sorted(names(game, "stages", p)) == sorted(stages)


@pytest.mark.parametrize("option, suffixes", [("night_sides", {"(Night)"}), ("random_sides", {"(Day)", "(Night)"})])
def test_board_side_options(option, suffixes):
    seen = set()
    for seed in range(8):
        game = classic_game(5, seed=seed, options=(option,))
        boards = [names(game, "board", p)[0] for p in range(5)]
        wonders = {b.split(" (")[0] for b in boards}
        assert len(wonders) == 5                      # never both sides of one wonder
        seen |= {b[b.index(" ("):].strip() for b in boards}
    assert seen == suffixes


# =================================================================================================
# B. Turns, hands, the last card
# =================================================================================================

def test_an_age_is_6_turns_of_shrinking_hands_and_the_7th_cards_are_discarded():
    """B1, B4, E4: hands of 7, 6, ..., 2 at the start of the turns; after the age the discard pile
    holds the sold cards and one 7th card per player, which gave no coins; nobody built a red card, so
    no military tokens."""
    game = classic_game(3)
    for turn in range(6):
        assert [len(names(game, "hand", p)) for p in range(3)] == [7 - turn] * 3
        assert sorted(game.to_act()) == [0, 1, 2]
        play_round(game)                                  # everyone sells
    assert game.state.age == 1                            # Age II has begun
    assert len(names(game, "discard")) == 21              # 6 x 3 sold + 3 seventh cards
    assert game.state.coins == [3 + 6 * 3] * 3
    assert [score(game, p, "military") for p in range(3)] == [0, 0, 0]


def test_selling_gives_3_coins_and_discards_the_card():
    """B2 C: selling."""
    game = classic_game(3)
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: act("sell", card)})
    assert game.state.coins[P0] == 6
    assert card in names(game, "discard")


def test_hands_pass_left_in_age_1_and_right_in_age_2():
    """B3: in Age I you receive your right neighbour's hand (minus the card it played), in Age II
    your left neighbour's."""
    game = classic_game(3)
    assert_hands_pass_from(game, -1)
    play_until_age(game, 2)
    assert_hands_pass_from(game, 1)


def test_no_two_cards_of_one_name_in_a_city():
    """B5: a city with the Age I Loom cannot build the Age II Loom; it may still sell it or use it
    for a stage."""
    game = classic_game(3)
    set_board(game, P0, "Gizah (Day)")
    give(game, P0, "Loom", "Lumber Yard")
    set_coins(game, P0, 0)
    set_hand(game, P0, "Loom", "Altar", "Baths", "Stockade", "Barracks", "Apothecary", "Marketplace")
    give(game, P0, "Timber Yard")          # stone|wood: with the Lumber Yard, 2 wood for stage 1
    assert actions_named(game, P0, "build", "Loom") == []
    assert actions_named(game, P0, "sell", "Loom")
    assert actions_named(game, P0, "wonder", "Loom", "Gizah (Day) stage 1")


def test_stages_are_built_in_order():
    """B6: stage 2 before stage 1 is refused; the stage is paid, the card tucked under it; a board
    with all its stages built offers no stage any more."""
    game = classic_game(3)
    set_board(game, P0, "Gizah (Day)")
    give(game, P0, "Sawmill", "Brickyard", "Loom")            # 2 wood, 2 clay, textile
    set_hand(game, P0, "Altar", "Theater", "Baths", "Workshop", "Stockade", "Barracks", "Guard Tower")
    assert actions_named(game, P0, "wonder", "Altar", "Gizah (Day) stage 2") == []
    with pytest.raises(IllegalAction):
        game.apply(act("wonder", "Altar", "Gizah (Day) stage 2"), seat=P0)
    assert actions_named(game, P0, "wonder", "Altar", "Gizah (Day) stage 1")
    play_round(game, {P0: act("wonder", "Altar", "Gizah (Day) stage 1")})
    assert names(game, "built_stages", P0) == ["Gizah (Day) stage 1"]
    assert "Altar" in names(game, "under", P0)
    assert game.state.coins[P0] == 3
    assert score(game, P0, "stage") == 3
    build_stages(game, P0, 2)
    assert not [a for a in game.legal_actions(P0) if a.name == "wonder"]


# =================================================================================================
# C. Costs and production
# =================================================================================================

def test_own_production_pays_for_barracks_and_scriptorium_but_not_guard_tower():
    """C6 [example]: producing 2 stone, 1 ore, 1 papyrus: Barracks (ore) and Scriptorium (papyrus)
    are built for nothing; Guard Tower (clay) is not buildable from own production."""
    game = classic_game(3)
    set_board(game, P0, "Gizah (Day)")                      # stone
    for p, board in ((P1, "Rhodos (Day)"), (P2, "Ephesos (Day)")):
        set_board(game, p, board)
    give(game, P0, "Stone Pit", "Ore Vein", "Press")
    set_coins(game, P0, 0)                                   # nothing can be bought
    set_hand(game, P0, "Barracks", "Scriptorium", "Guard Tower", "Altar", "Theater", "Baths", "Marketplace")
    assert actions_named(game, P0, "build", "Barracks") == [act("build", "Barracks")]
    assert actions_named(game, P0, "build", "Scriptorium") == [act("build", "Scriptorium")]
    assert actions_named(game, P0, "build", "Guard Tower") == []
    play_round(game, {P0: act("build", "Barracks")})
    assert "Barracks" in names(game, "city", P0) and game.state.coins[P0] == 0


def test_each_produced_unit_pays_once_a_turn():
    """C4: a city producing 1 ore cannot pay a 2-ore stage from it (and with no coins buys nothing)."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Gizah (Day)"})
    give(game, P0, "Ore Vein")
    set_coins(game, P0, 0)
    set_hand(game, P0, "Barracks", "Altar", "Theater", "Baths", "Apothecary", "Marketplace", "Stockade")
    assert actions_named(game, P0, "build", "Barracks") == [act("build", "Barracks")]
    assert actions_named(game, P0, "wonder", "Altar", "Halikarnassos (Day) stage 1") == []
    give(game, P0, "Clay Pit")                               # clay|ore: a second ore
    assert actions_named(game, P0, "wonder", "Altar", "Halikarnassos (Day) stage 1")


def test_excavation_costs_a_coin():
    """C2."""
    game = classic_game(4)
    set_hand(game, P0, "Excavation", "Altar", "Theater", "Baths", "Well", "Tavern", "Stockade")
    play_round(game, {P0: act("build", "Excavation")})
    assert game.state.coins[P0] == 2


def test_a_chain_builds_gardens_for_nothing():
    """C7 [example]: with Theater in the city, Gardens is free (0 coins, no resources)."""
    game = classic_game(3)
    set_board(game, P0, "Ephesos (Day)")
    for p, board in ((P1, "Rhodos (Day)"), (P2, "Alexandria (Day)")):
        set_board(game, p, board)
    give(game, P0, "Theater")
    set_coins(game, P0, 0)
    set_hand(game, P0, "Gardens", "Altar", "Baths", "Stockade", "Barracks", "Apothecary", "Marketplace")
    assert actions_named(game, P0, "build", "Gardens") == [act("build", "Gardens")]
    play_round(game, {P0: act("build", "Gardens")})
    assert "Gardens" in names(game, "city", P0) and game.state.coins[P0] == 0


# =================================================================================================
# D. Trade with neighbours
# =================================================================================================

NO_WOOD = {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"}     # stone, ore, papyrus


def boards(game, sides: dict[int, str]) -> None:
    for p, side in sides.items():
        set_board(game, p, side)


def test_a_resource_from_a_neighbour_costs_2_coins_paid_to_that_neighbour():
    """D1: buyer -2, seller +2, and the seller keeps its card."""
    game = classic_game(3)
    boards(game, NO_WOOD)
    give(game, P1, "Lumber Yard")
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Stockade") == {((P1, 2),)}
    play_round(game, {P0: paying(game, P0, "build", "Stockade", pay=((P1, 2),))})
    assert game.state.coins[P0] == 1
    assert game.state.coins[P1] == 3 + 2 + 3            # + the card it sold
    assert "Lumber Yard" in names(game, "city", P1)


def test_two_units_one_from_each_neighbour():
    """D1, D3: a stage of 2 wood with one wood on each side: 2 coins to each."""
    game = classic_game(3)
    boards(game, NO_WOOD)
    give(game, P1, "Lumber Yard")
    give(game, P2, "Timber Yard")
    set_coins(game, P0, 10)
    set_hand(game, P0, "Altar", "Theater", "Baths", "Stockade", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "wonder", "Altar", "Gizah (Day) stage 1") == {((P1, 2), (P2, 2))}
    play_round(game, {P0: paying(game, P0, "wonder", "Altar", "Gizah (Day) stage 1", pay=((P1, 2), (P2, 2)))})
    assert game.state.coins[P0] == 10 - 4
    assert game.state.coins[P1] == game.state.coins[P2] == 3 + 2 + 3


def test_each_unit_a_neighbour_makes_is_bought_once():
    """D3: one Lumber Yard sells 1 wood a turn: a 2-wood stage cannot be bought from it alone; a
    Sawmill (2 wood on one card) sells both."""
    game = classic_game(3)
    boards(game, NO_WOOD)
    give(game, P1, "Lumber Yard")
    set_coins(game, P0, 10)
    set_hand(game, P0, "Altar", "Theater", "Baths", "Stockade", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "wonder", "Altar", "Gizah (Day) stage 1") == set()
    give(game, P2, "Sawmill")
    assert pays(game, P0, "wonder", "Altar", "Gizah (Day) stage 1") == {((P2, 4),), ((P1, 2), (P2, 2))}


def test_bought_resources_last_one_turn():
    """D4: the wood bought in one round is gone the next: a 2-wood stage needs both units bought."""
    game = classic_game(3)
    boards(game, NO_WOOD)
    give(game, P1, "Lumber Yard")
    give(game, P2, "Timber Yard")
    set_coins(game, P0, 10)
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    play_round(game, {P0: paying(game, P0, "build", "Stockade", pay=((P1, 2),))})
    assert game.state.coins[P0] == 8
    card = names(game, "hand", P0)[0]
    assert pays(game, P0, "wonder", card, "Gizah (Day) stage 1") == {((P1, 2), (P2, 2))}


def test_yellow_cards_and_stages_are_not_for_sale_but_boards_are():
    """D2: a neighbour's Caravansery or Alexandria stage does not sell; its board's base resource,
    brown and grey cards do."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Alexandria (Day)", P2: "Ephesos (Day)"})
    give(game, P1, "Caravansery")
    build_stages(game, P1, 2)
    set_coins(game, P0, 10)
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Stockade") == set()           # wood only from yellow / a stage
    set_hand(game, P0, "Workshop", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Workshop") == {((P1, 2),)}    # glass: Alexandria's base resource


def test_only_the_two_neighbours_sell():
    """D2: at 4 players the seat across the table is no neighbour."""
    game = classic_game(4)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", 2: "Ephesos (Day)", 3: "Alexandria (Day)"})
    give(game, 2, "Lumber Yard")
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Stockade") == set()
    give(game, 3, "Timber Yard")                                   # seat 3 is seat 0's right
    assert pays(game, P0, "build", "Stockade") == {((3, 2),)}


def test_an_either_or_card_sells_either_resource():
    """D5: from a neighbour's Timber Yard (stone|wood) the buyer takes either."""
    game = classic_game(3)
    boards(game, {P0: "Rhodos (Day)", P1: "Ephesos (Day)", P2: "Alexandria (Day)"})
    give(game, P1, "Timber Yard")
    set_hand(game, P0, "Stockade", "Baths", "Altar", "Theater", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Stockade") == {((P1, 2),)}
    assert pays(game, P0, "build", "Baths") == {((P1, 2),)}


def test_coins_received_this_turn_cannot_pay_this_turn():
    """D6: a player with 0 coins cannot buy, even if a neighbour buys from them in the same round."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Ephesos (Day)", P2: "Alexandria (Day)"})
    give(game, P0, "Ore Vein")
    give(game, P1, "Lumber Yard")
    set_coins(game, P0, 0)
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Apothecary", "Marketplace", "Workshop")
    set_hand(game, P1, "Barracks", "Clay Pool", "Stone Pit", "Loom", "Press", "Glassworks", "Scriptorium")
    assert pays(game, P0, "build", "Stockade") == set()
    play_round(game, {P1: paying(game, P1, "build", "Barracks", pay=((P0, 2),))})
    assert game.state.coins[P0] == 2 + 3                 # paid by P1, plus the card P0 sold
    assert "Stockade" not in names(game, "city", P0)


def test_a_card_built_this_turn_does_not_sell_this_turn():
    """D7: a neighbour's card built this round cannot be bought from before the next round."""
    game = classic_game(3)
    boards(game, NO_WOOD)
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    set_hand(game, P1, "Lumber Yard", "Workshop", "Clay Pool", "Stone Pit", "Loom", "Press", "Glassworks")
    game.apply(act("build", "Lumber Yard"), seat=P1)
    assert pays(game, P0, "build", "Stockade") == set()
    play_round(game, {P0: act("sell", "Altar")})
    # The hands moved on: P0 now holds P2's old hand; give it a Stockade again.
    set_hand(game, P0, "Stockade", "Theater", "Baths", "Barracks", "Apothecary", "Marketplace")
    assert pays(game, P0, "build", "Stockade") == {((P1, 2),)}


def test_both_neighbours_may_buy_the_same_stone():
    """D8: the owner cannot refuse; one stone bought by both neighbours: owner +4 (7 players: two
    copies of Baths; seat 0's neighbours are seats 1 and 6)."""
    game = classic_game(7)
    boards(game, {P0: "Rhodos (Day)", P1: "Ephesos (Day)", 6: "Alexandria (Day)"})
    give(game, P0, "Stone Pit")
    set_hand(game, P1, "Baths", "Altar", "Theater", "Stockade", "Barracks", "Apothecary", "Marketplace")
    set_hand(game, 6, "Baths", "Well", "Clay Pool", "Lumber Yard", "Loom", "Press", "Glassworks", keep=(P1,))
    play_round(game, {P1: paying(game, P1, "build", "Baths", pay=((P0, 2),)),
                      6: paying(game, 6, "build", "Baths", pay=((P0, 2),))})
    assert "Baths" in names(game, "city", P1) and "Baths" in names(game, "city", 6)
    assert game.state.coins[P0] == 3 + 4 + 3


def test_the_trading_posts_and_the_marketplace_lower_the_price():
    """D9: West Trading Post: raw materials from the left for 1; Marketplace: goods from both for 1."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})     # P2: ore
    give(game, P0, "West Trading Post", "Marketplace")
    give(game, P1, "Ore Vein", "Glassworks")
    give(game, P2, "Glassworks")
    set_hand(game, P0, "Barracks", "Workshop", "Altar", "Theater", "Baths", "Apothecary", "East Trading Post")
    assert pays(game, P0, "build", "Barracks") == {((P1, 1),), ((P2, 2),)}
    assert pays(game, P0, "build", "Workshop") == {((P1, 1),), ((P2, 1),)}
    play_round(game, {P0: paying(game, P0, "build", "Barracks", pay=((P1, 1),))})
    assert game.state.coins[P0] == 2 and game.state.coins[P1] == 3 + 1 + 3


def test_east_trading_post_lowers_the_right_side_only():
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    give(game, P0, "East Trading Post")
    give(game, P1, "Ore Vein")
    set_hand(game, P0, "Barracks", "Altar", "Theater", "Baths", "Apothecary", "Marketplace", "Stockade")
    assert pays(game, P0, "build", "Barracks") == {((P1, 2),), ((P2, 1),)}


# =================================================================================================
# E. Military
# =================================================================================================

def test_military_at_the_end_of_age_2():
    """E1, E2 [example], H2: end of Age II, you 4 shields, left 5, right 2: -1 and +3 = +2; your left
    neighbour +3 against you, your right neighbour -1 against you.  Shields of stages count."""
    game = classic_game(3)
    play_until_age(game, 2)
    boards(game, {P0: "Gizah (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    give(game, P0, "Stables", "Archery Range")                               # 4
    give(game, P1, "Walls", "Stockade", "Barracks", "Guard Tower")           # 5
    build_stages(game, P2, 2)                                                # Rhodos stage 2: 2
    play_until_age(game, 3)
    assert [score(game, p, "military") for p in range(3)] == [2, 3 + 3, -1 - 1]


@pytest.mark.parametrize("shields, military", [
    ({P0: ("Stockade",)}, [18, -3, -3]),
    ({P1: ("Stockade",), P2: ("Barracks",)}, [-6, 9, 9]),
])
def test_military_extremes(shields, military):
    """E3, E5: beating both neighbours in every age is 2 x (1 + 3 + 5) = 18; losing to both every age
    is -6 (the total may be negative); the game ends after Age III's conflicts."""
    game = classic_game(3)
    for p, cards in shields.items():
        give(game, p, *cards)
    play_until_age(game, 4)
    assert game.over
    assert [score(game, p, "military") for p in range(3)] == military


# =================================================================================================
# F. Science
# =================================================================================================

@pytest.mark.parametrize("cards, points", [
    (("Apothecary", "Workshop", "Scriptorium"), 10),                                         # F2
    (("Apothecary", "Dispensary", "Workshop", "Laboratory", "Scriptorium", "Library"), 26),
    (("Apothecary", "Dispensary", "Lodge", "Workshop"), 10),
    (("Apothecary", "Dispensary", "Lodge", "Workshop", "Laboratory", "Scriptorium"), 21),
    (("Apothecary",), 1), (("Apothecary", "Dispensary"), 4),                                  # F1
    (("Apothecary", "Dispensary", "Lodge", "Academy"), 16),
])
def test_science_scores(cards, points):
    game = classic_game(3)
    give(game, P0, *cards)
    assert score(game, P0, "science") == points


@pytest.mark.parametrize("cards, points", [
    (("Apothecary", "Workshop"), 10),                                                   # F4
    (("Apothecary", "Dispensary", "Lodge"), 16),
    (("Apothecary", "Dispensary", "Workshop", "Laboratory", "Scriptorium"), 26),
    (("Scientists Guild",), 4),
    (("Apothecary", "Workshop", "Scriptorium"), 13),
])
def test_any_symbols_score_the_most(cards, points):
    """F3, F4: Babylon's stage 2 and the Scientists Guild count as whichever symbol scores most."""
    game = classic_game(3)
    set_board(game, P0, "Babylon (Day)")
    build_stages(game, P0, 2)
    give(game, P0, *cards)
    assert score(game, P0, "science") == points


# =================================================================================================
# G. Scoring
# =================================================================================================

@pytest.mark.parametrize("coins, points", [(9, 3), (2, 0), (8, 2), (10, 3)])
def test_coins_score_one_point_per_three(coins, points):
    """G2."""
    game = classic_game(3)
    set_coins(game, P0, coins)
    assert score(game, P0, "coins") == points


def before_the_last_turn(coins: list[int]):
    """A 3-seat game at the last turn of age III, every card sold so far, with these coins."""
    game = classic_game(3)
    play_until_age(game, 3)
    while len(names(game, "hand", P0)) > 2:
        play_round(game)
    for p, n in enumerate(coins):
        set_coins(game, p, n)
    return game


def test_a_tie_goes_to_the_most_coins():
    """G3: equal totals: the most coins wins."""
    game = before_the_last_turn([54, 55, 54])
    play_round(game)                       # everyone sells: 57, 58, 57 coins, 19 VP each
    assert game.over
    assert [sum(game.score(p).values()) for p in range(3)] == [19, 19, 19]
    assert game.state.winner == P1


def test_a_tie_on_coins_too_is_a_shared_victory():
    """G3: still equal: the victory is shared."""
    game = classic_game(3)
    play_until_age(game, 4)
    assert game.over
    assert [sum(game.score(p).values()) for p in range(3)] == [19, 19, 19]
    assert game.state.coins == [57, 57, 57]
    assert game.state.winner == DRAW
    assert game.winners() == [0, 1, 2]


def test_a_shared_victory_names_the_seats_that_share_it():
    """G3: the victory is shared by the tied leaders only; `state.winner` says only DRAW, so a
    seat that finished last looked the same as the winners (a rules audit)."""
    game = before_the_last_turn([54, 54, 0])
    assert game.winners() == []            # (not over yet)
    play_round(game)                       # everyone sells: 57, 57 and 3 coins
    assert game.over and game.state.winner == DRAW
    totals = [sum(game.score(p).values()) for p in range(3)]
    assert totals[0] == totals[1] > totals[2]
    assert game.winners() == [P0, P1]


def test_scoring_categories():
    """G1: blue, yellow and purple cards score by colour, stages as `stage`."""
    game = classic_game(4)                  # Chamber of Commerce: 4+; seat 0's neighbours are 1 and 3
    set_board(game, P0, "Gizah (Day)")
    build_stages(game, P0, 1)
    give(game, P0, "Altar", "Palace", "Chamber of Commerce", "Glassworks", "Press", "Workers Guild")
    give(game, P1, "Lumber Yard", "Stone Pit")
    give(game, 2, "Ore Vein")               # across the table: not counted
    give(game, 3, "Clay Pool")
    got = game.score(P0)
    assert (got["blue"], got["yellow"], got["purple"], got["stage"]) == (3 + 8, 2 * 2, 3, 3)


# =================================================================================================
# Wonder abilities (H3)
# =================================================================================================

def test_halikarnassos_builds_a_discarded_card_at_the_end_of_the_turn():
    """H3 Halikarnassos: at the end of the turn its stage is built, the owner builds a discarded card
    for free; the 7th cards discarded that same turn are among them (YAML build_from_discard)."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Glassworks", "Press")
    for p, cards in ((P0, ("Baths", "Theater")), (P1, ("Stockade", "Palace")), (P2, ("Workshop", "Apothecary"))):
        set_hand(game, p, *cards)
    discard_pile(game, "Altar")
    play_round(game, {P0: act("wonder", "Baths", "Halikarnassos (Day) stage 2")})
    assert game.to_act() == [P0]
    offered = {a.args[0] for a in game.legal_actions(P0) if a.name == "choose"}
    assert {"Altar", "Theater", "Palace", "Apothecary"} <= offered
    game.apply(act("choose", "Palace"), seat=P0)
    assert "Palace" in names(game, "city", P0)
    assert game.state.coins[P0] == 3


def test_olympia_day_builds_the_first_card_of_each_colour_free():
    game = classic_game(3)
    boards(game, {P0: "Olympia (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 2)
    give(game, P0, "Barracks")
    set_coins(game, P0, 0)
    set_hand(game, P0, "Palace", "Stockade", "Altar", "Theater", "Baths", "Apothecary", "Marketplace")
    assert actions_named(game, P0, "build_free", "Palace")
    assert actions_named(game, P0, "build_free", "Stockade") == []     # a red card is there already
    play_round(game, {P0: act("build_free", "Palace")})
    assert "Palace" in names(game, "city", P0) and game.state.coins[P0] == 0


def test_olympia_night_builds_the_first_and_the_last_card_of_an_age_free():
    game = classic_game(3)
    boards(game, {P0: "Olympia (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 2)
    set_coins(game, P0, 0)
    set_hand(game, P0, "Palace", "Stockade", "Altar", "Theater", "Baths", "Apothecary", "Marketplace")
    assert actions_named(game, P0, "build_free", "Palace")           # a hand of 7
    play_round(game, {P0: act("build_free", "Palace")})
    assert "Palace" in names(game, "city", P0)
    assert [a for a in game.legal_actions(P0) if a.name == "build_free"] == []     # a hand of 6
    while len(names(game, "hand", P0)) > 2:
        play_round(game)
    assert [a for a in game.legal_actions(P0) if a.name == "build_free"]           # a hand of 2


def test_babylon_night_plays_the_7th_card():
    """H3 Babylon Night stage 1 (B4's exception): the owner plays the last card in one more turn alone."""
    game = classic_game(3)
    boards(game, {P0: "Babylon (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    while len(names(game, "hand", P0)) > 2:
        play_round(game)
    coins = game.state.coins[P0]
    play_round(game)
    assert game.to_act() == [P0] and len(names(game, "hand", P0)) == 1
    assert [len(names(game, "hand", p)) for p in (P1, P2)] == [0, 0]
    play_round(game)
    assert game.state.coins[P0] == coins + 6
    assert game.state.age == 1


def test_ephesos_and_rhodos_stages_give_coins_when_built():
    game = classic_game(3)
    boards(game, {P0: "Ephesos (Day)", P1: "Rhodos (Night)", P2: "Gizah (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Lumber Yard", "Timber Yard")
    give(game, P1, "Stone Pit", "Quarry")
    set_hand(game, P0, "Altar", "Theater", "Baths", "Stockade", "Barracks", "Apothecary", "Marketplace")
    set_hand(game, P1, "Workshop", "Clay Pool", "Ore Vein", "Loom", "Press", "Glassworks", "Scriptorium")
    play_round(game, {P0: act("wonder", "Altar", "Ephesos (Day) stage 2"),
                      P1: act("wonder", "Workshop", "Rhodos (Night) stage 1")})
    assert game.state.coins[P0] == 3 + 9
    assert game.state.coins[P1] == 3 + 3
    assert score(game, P1, "stage") == 3


def test_alexandria_produces_a_raw_material_of_choice():
    game = classic_game(3)
    boards(game, {P0: "Alexandria (Day)", P1: "Ephesos (Day)", P2: "Gizah (Day)"})
    build_stages(game, P0, 2)
    set_coins(game, P0, 0)
    set_hand(game, P0, "Stockade", "Guard Tower", "Altar", "Theater", "Baths", "Apothecary", "Marketplace")
    assert actions_named(game, P0, "build", "Stockade") == [act("build", "Stockade")]
    assert actions_named(game, P0, "build", "Guard Tower") == [act("build", "Guard Tower")]


# =================================================================================================
# Cards with variable effects
# =================================================================================================

def test_vineyard_counts_brown_cards_in_three_cities_when_built():
    game = classic_game(3)
    play_until_age(game, 2)
    give(game, P0, "Lumber Yard")
    give(game, P1, "Stone Pit", "Clay Pool")
    give(game, P2, "Ore Vein")
    set_hand(game, P0, "Vineyard", "Loom", "Press", "Glassworks", "Sawmill", "Quarry", "Brickyard")
    coins = game.state.coins[P0]
    play_round(game, {P0: act("build", "Vineyard")})
    assert game.state.coins[P0] == coins + 4


VARIABLE_KEYS = ("coins", "coins_per_card", "vp_per_card", "coins_per_wonder_stage", "vp_per_wonder_stage")
VARIABLE = [c for c in AGE_CARDS + GUILDS if any(k in e for e in c["effects"] for k in VARIABLE_KEYS)]
FILLERS = {"brown": ("Lumber Yard", "Ore Vein", "Clay Pool"), "grey": ("Glassworks", "Press", "Loom"),
           "yellow": ("Tavern", "Marketplace", "East Trading Post"), "red": ("Stockade", "Barracks", "Guard Tower"),
           "blue": ("Altar", "Theater", "Baths"), "green": ("Apothecary", "Workshop", "Scriptorium")}


@pytest.mark.parametrize("card", VARIABLE, ids=lambda c: c["name"])
def test_coins_when_built_and_vp_at_the_end_follow_the_yaml(card):
    """YAML coins / coins_per_card / coins_per_wonder_stage (counted once, when built: U9) and
    vp_per_card / vp_per_wonder_stage (at the end), with cities self, left and right.  The card is
    built for free from the discard pile by Halikarnassos (7 players: seat 0's neighbours are 1, 6)."""
    game = classic_game(7)
    left, right = P1, 6
    boards(game, {P0: "Halikarnassos (Day)", left: "Gizah (Day)", right: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    build_stages(game, left, 2)
    cities = {P0: ("brown", "grey", "grey", "yellow", "red"), left: ("brown", "red", "blue", "green", "grey"),
              right: ("brown", "brown", "grey", "yellow", "green")}
    for k, (p, colours) in enumerate(cities.items()):
        taken = {card["name"]}                  # a city never holds two cards of one name
        for colour in colours:
            rotated = FILLERS[colour][k:] + FILLERS[colour][:k]      # copies run out: vary by city
            name = next(n for n in rotated if n not in taken)
            taken.add(name)
            give(game, p, name)
    discard_pile(game, card["name"])
    hand = ["Timber Yard", "Forest Cave", "Mine", "Tree Farm", "Clay Pit", "Excavation", "Baths"]
    set_hand(game, P0, *hand)
    coins = game.state.coins[P0]
    play_round(game, {P0: act("wonder", hand[0], "Halikarnassos (Day) stage 2")})
    game.apply(act("choose", card["name"]), seat=P0)
    assert card["name"] in names(game, "city", P0)

    def in_cities(colours, which) -> int:
        seats = {"self": P0, "left": left, "right": right}
        return sum(1 for w in which for n in names(game, "city", seats[w])
                   if first(game.content, n).color in colours)

    def stages(which) -> int:
        seats = {"self": P0, "left": left, "right": right}
        return sum(len(names(game, "built_stages", seats[w])) for w in which)

    gained = vp = 0
    for effect in card["effects"]:
        if "coins" in effect:
            gained += effect["coins"]
        if "coins_per_card" in effect:
            e = effect["coins_per_card"]
            gained += e["amount"] * in_cities(e["colors"], e["cities"])
        if "coins_per_wonder_stage" in effect:
            e = effect["coins_per_wonder_stage"]
            gained += e["amount"] * stages(e["cities"])
        if "vp_per_card" in effect:
            e = effect["vp_per_card"]
            vp += e["amount"] * in_cities(e["colors"], e["cities"])
        if "vp_per_wonder_stage" in effect:
            e = effect["vp_per_wonder_stage"]
            vp += e["amount"] * stages(e["cities"])
    assert game.state.coins[P0] == coins + gained
    colour = card.get("color", "purple")
    assert score(game, P0, colour) == vp


def test_guilds_score_their_neighbours():
    game = classic_game(3)
    set_board(game, P0, "Gizah (Day)")
    give(game, P0, "Builders Guild", "Decorators Guild", "Shipowners Guild", "Lumber Yard", "Loom")
    build_stages(game, P0, 3)
    set_board(game, P1, "Rhodos (Day)")
    build_stages(game, P1, 1)
    # Builders 3 + 1, Decorators 7 (own board complete), Shipowners: 1 brown + 1 grey + 3 purple.
    assert score(game, P0, "purple") == 4 + 7 + 5


# =================================================================================================
# Whole games
# =================================================================================================

@pytest.mark.parametrize("players", COUNTS)
def test_random_games_play_to_the_end(players):
    """Random legal actions (decisions included) at every count and board option: every game ends
    after Age III with every hand empty, no coins below 0, and the 7 x players cards of each age
    either in a city, under a stage or in the discard pile."""
    for seed, options in enumerate([(), ("night_sides",), ("random_sides",)]):
        game = classic_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(200):
            if game.over:
                break
            for p in list(game.to_act()):
                if p in game.to_act():
                    game.apply(rng.choice(game.legal_actions(p)), seat=p)
                assert min(game.state.coins) >= 0
        assert game.over
        assert all(names(game, "hand", p) == [] for p in range(players))
        placed = sum(len(names(game, zone, p)) for zone in ("city", "under") for p in range(players))
        assert placed + len(names(game, "discard")) == 3 * 7 * players


@pytest.mark.parametrize("players", COUNTS)
def test_the_invariants_hold_over_random_classic_games(players):
    """rulesdsl.testing's invariants (one place per item, coins, hidden hands, determinism, ...)
    after every action of random games."""
    rules = load_ruleset((), base=CLASSIC, players=players)
    for options in ((), ("random_sides",)):
        report = verify(rules.content, 3, seed=players, options=options, base=CLASSIC)
        assert report.failure is None, report.failure


# =================================================================================================
# docs/classic.md quotes the card files
# =================================================================================================

def _normal(text: str) -> str:
    return " ".join(re.sub(r"#[^\n]*", "", text).split())


def test_the_page_quotes_the_card_files():
    page = (ROOT / "docs" / "classic.md").read_text(encoding="utf-8")
    cards = _normal("\n".join(p.read_text(encoding="utf-8") for p in sorted(Path(CLASSIC).glob("*.rules"))))
    blocks = re.findall(r"^```rules\n(.*?)^```", page, re.S | re.M)
    assert blocks
    for block in blocks:
        for definition in re.split(r"\n(?=\S)", block.strip()):
            assert _normal(definition) in cards, definition


@pytest.mark.parametrize("card, counted, own, neighbour, players, gained", [
    ("Vineyard", "Sawmill", 2, 1, 3, 1), ("Vineyard", "Sawmill", 0, 1, 3, 1),
    ("Bazar", "Loom", 2, 1, 4, 2), ("Bazar", "Loom", 0, 1, 4, 2),
])
def test_a_neighbours_card_of_the_same_turn_counts_whichever_seat_it_has(card, counted, own, neighbour, players, gained):
    # The cards of a turn are played at the same time (B2): the count must not depend on the seat
    # order the round resolves in (resolved in it, only a lower neighbour's card counted).
    g = classic_game(players, seed=9)
    play_until_age(g, 2)
    set_hand(g, own, card, "Temple", "Statue", "Walls", "School", "Library", "Aqueduct")
    set_hand(g, neighbour, counted, "Quarry", "Foundry", "Brickyard", "Courthouse", "Dispensary", "Laboratory",
             keep=(own,))
    before = g.state.coins[own]
    play_round(g, {own: act("build", card), neighbour: act("build", counted)})
    assert g.state.coins[own] - before == gained



def test_cards_sold_and_discarded_lie_face_down():
    """B2, B4: a card sold and the 7th card of a hand are discarded face down: no seat's view
    names them (only how many there are), and the search draws them again like other unseen
    cards."""
    from rulesdsl.interpreter.observation import observe
    from rulesdsl.interpreter.search import unknown_items
    game = load_ruleset((), "classic", 3).new_game(seed=4)
    rng = random.Random(4)
    pile_slot = game.slot(game.content.zone_index["discard"], 0)
    while not game.state.zones[pile_slot]:
        game.apply(game.random_action(rng))
    pile = game.state.zones[pile_slot]
    for seat in range(3):
        view = observe(game, seat)
        assert "discard" not in view["zones"] and view["hidden_counts"]["discard"] == len(pile)
        assert sum(1 for spots in unknown_items(game, seat).values()
                   for kind, slot, *_ in spots if kind == "zone" and slot == pile_slot) == len(pile)
