"""Agora: senators in the age structures (5/5/3; structures of 25/25/23 cards), recruiting costs,
politicians (Senate actions by blue cards, the rulebook example), conspirators (a cube or
conspire), and senators used like any Age card.

Rules: Dutch Agora rulebook shared/seeds/004 (VOORBEREIDING, A. Een senator rekruteren);
facts shared/reference/duel-agora.yaml (senators, setup.structures_detail)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agora_positions import (CONSPIRATORS, POLITICIANS, SECTION_SPACES, SENATORS, act, add_cubes, advance_to_age,
                             agora_game, answer, conspiracy_deck, give, give_conspiracy, item, names, offered,
                             put_accessible, recruit, senate, set_coins, set_conspiracy_deck, set_decree, set_senate,
                             set_turn, set_wonders, supply, where)
from rulesdsl.interpreter import new_game
from rulesdsl.interpreter.observation import observe

ROOT = Path(__file__).resolve().parent.parent
YAML_PATH = ROOT / "tests" / "data" / "reference" / "duel-agora.yaml"

BLUE = ["Theater", "Altar", "Baths", "Statue", "Temple", "Aqueduct"]


# -- senators in the ages ---------------------------------------------------------------------------

def _laid(game):
    return [game.name(i) for i in game.state.structure if i >= 0]


def test_13_senators_7_politicians_6_conspirators():
    game = agora_game()
    items = {it.name: it for it in game.content.items}
    assert sorted(n for n, it in items.items() if it.deck == game.content.zone_index["senators"]) == sorted(SENATORS)
    assert all(items[n].color == "white" for ps in POLITICIANS.values() for n in ps)
    assert all(items[n].color == "black" for n in CONSPIRATORS)
    assert {k: len(v) for k, v in POLITICIANS.items()} == {"left": 2, "middle": 3, "right": 2}


@pytest.mark.parametrize("seed", range(4))
def test_structures_25_25_23_cards_with_5_5_3_senators_after_removing_3_age_cards(seed):
    game = new_game(expansions=["agora"], seed=seed, options=["beginner_wonders"])
    st = game.state
    seen: set[str] = set()
    for age, (cards, senators, plain) in enumerate([(25, 5, 20), (25, 5, 20), (23, 3, 17)], start=1):
        if age > 1:
            advance_to_age(game, age)
        laid = _laid(game)
        assert st.age == age - 1 and len(laid) == len(st.structure) == cards
        here = [n for n in laid if n in SENATORS]
        assert len(here) == senators, (age, here)
        assert not seen & set(here)
        seen |= set(here)
        ages = [game.content.items[item(game, n)].age for n in laid   # (guilds, Age III too, apart)
                if n not in SENATORS and game.content.items[item(game, n)].color != "purple"]
        assert ages.count(age) == plain
        if age == 3:
            assert len(laid) - senators - plain == 3            # the 3 guilds
        # The 3 cards removed at set-up are Age cards of this age, never senators (the guilds
        # left out of Age III lie in the box too).
        box = [n for n in names(game, "box") if game.content.items[item(game, n)].kind == "card"
               and game.content.items[item(game, n)].color != "purple"]
        assert not set(box) & set(SENATORS)
        assert sorted(game.content.items[item(game, n)].age for n in box
                      if game.content.items[item(game, n)].age) == sorted([1, 1, 1, 2, 2, 2, 3, 3, 3][:3 * age])
    assert names(game, "senators") == []                                 # all 13 were dealt


@pytest.mark.parametrize("age", [1, 2, 3])
def test_agora_layouts_match_the_reference(age):
    import yaml  # a test dependency (pyproject [test]); comparing with the reference needs it
    ref = yaml.safe_load(YAML_PATH.read_text(encoding="utf-8"))["setup"]["structures_detail"][f"age_{age}"]
    game = agora_game()
    lay = game.content.layouts[f"age{age}"]
    assert len(lay.face_up) == ref["card_count"]
    for card in ref["cards"]:
        i = card["index"]
        assert lay.face_up[i] == card["face_up"], i
        assert sorted(lay.covered_by[i]) == sorted(card["covered_by"]), i


def test_senators_are_laid_out_face_down_in_hidden_rows_too():
    # Senators are Age cards: in a face-down row they show the senators' back only.
    for seed in range(10):
        game = new_game(expansions=["agora"], seed=seed, options=["beginner_wonders"])
        st = game.state
        for slot, i in enumerate(st.structure):
            if game.name(i) in SENATORS and not st.face_up[slot]:
                assert observe(game, 0)["structure"][slot] == {"back": "senators", "accessible": False}
                return
    pytest.fail("no face-down senator in 10 seeds")


# -- recruiting ---------------------------------------------------------------------------------

def test_recruiting_costs_the_number_of_senators_already_in_the_city():
    game = agora_game()
    set_coins(game, 0, 10)
    set_senate(game, [0] * 6, [0, 0, 0, 0, 0, 0])
    expected_cost = [0, 1, 2, 3]
    for n, name in enumerate(["Conspirator A", "Conspirator B", "Conspirator C", "Conspirator D"]):
        set_turn(game, 0)
        before = game.state.coins[0]
        recruit(game, name)
        answer(game, "influence", n)
        assert before - game.state.coins[0] == expected_cost[n], name
        assert where(game, name) == ("city", 0)
    assert game.state.coins[0] == 10 - 6
    # The opponent's senators do not count for player 0's price, nor player 0's for player 1.
    set_turn(game, 1)
    recruit(game, "Conspirator E")
    answer(game, "influence", 5)
    assert game.state.coins[1] == 7


def test_a_senator_without_the_coins_cannot_be_recruited():
    game = agora_game()
    give(game, 0, "Conspirator A", "Conspirator B")         # the third costs 2
    set_coins(game, 0, 1)
    put_accessible(game, "Politician (right) A")
    assert act("build", "Politician (right) A") not in game.legal_actions()
    assert act("discard", "Politician (right) A") in game.legal_actions()


def test_corruption_makes_every_senator_free():
    game = agora_game()
    give(game, 0, "Conspirator A", "Conspirator B", "Conspirator C", "Corruption")
    set_coins(game, 0, 0)
    recruit(game, "Conspirator D")
    answer(game, "influence", 0)
    assert game.state.coins[0] == 0 and where(game, "Conspirator D") == ("city", 0)
    assert game.price(1, item(game, "Conspirator E"))[0] == 0       # player 1 has no senator yet
    give(game, 1, "Conspirator F")
    assert game.price(1, item(game, "Conspirator E"))[0] == 1        # Corruption is player 0's only


# -- senators used like any Age card ----------------------------------------------------------------

def test_a_senator_may_be_discarded_for_coins():
    game = agora_game()
    give(game, 0, "Tavern")
    put_accessible(game, "Politician (left) A")
    game.apply(act("discard", "Politician (left) A"))
    assert game.state.coins[0] == 7 + 2 + 1 and where(game, "Politician (left) A") == ("discard", None)
    assert senate(game) == [[0] * 6, [0] * 6] and game.state.pending is None


def test_a_senator_may_be_used_to_build_a_wonder():
    game = agora_game()
    set_wonders(game, 0, "Pyramids")
    set_coins(game, 0, 30)
    put_accessible(game, "Conspirator B")
    game.apply(act("wonder", "Conspirator B", "Pyramids"))
    assert where(game, "Pyramids") == ("built_wonders", 0)
    assert where(game, "Conspirator B") == ("under", 0)
    assert game.state.pending is None and senate(game) == [[0] * 6, [0] * 6]


def test_a_senator_may_be_used_to_prepare_a_conspiracy():
    game = agora_game()
    give_conspiracy(game, 0, "Coup")
    put_accessible(game, "Politician (middle) C")
    game.apply(act("prepare", "Politician (middle) C", "Coup"))
    assert where(game, "Politician (middle) C") == ("prepared", 0)
    assert game.state.attached[item(game, "Politician (middle) C")] == item(game, "Coup")
    assert game.state.current == 1 and game.state.coins == [7, 7]


# -- politicians --------------------------------------------------------------------------------

def test_rulebook_example_left_politician_with_3_blue_cards_place_1_and_move_1():
    game = agora_game()
    give(game, 0, "Theater", "Altar", "Baths")
    recruit(game, "Politician (left) A")
    assert game.state.coins[0] == 7                          # the first senator is free
    assert offered(game) == ["place", "move", "pass"]
    answer(game, "place")
    assert offered(game) == ["0", "1"]                       # only the left section
    answer(game, 1)
    assert offered(game) == ["place", "move", "pass"]                # the second action
    answer(game, "move")
    assert offered(game) == ["1"]                            # the cube to move (the one just placed)
    answer(game, 1)
    assert offered(game) == ["0", "2"]                       # adjacent chambers, across sections too
    answer(game, 2)
    assert senate(game)[0] == [0, 0, 1, 0, 0, 0]
    assert game.state.pending is None and game.state.current == 1


@pytest.mark.parametrize("section", ["left", "middle", "right"])
def test_politicians_place_only_in_their_section_and_may_split_the_cubes(section):
    game = agora_game()
    give(game, 0, *BLUE[:4])                                 # 4 blue: 3 actions
    recruit(game, POLITICIANS[section][0])
    a, b = SECTION_SPACES[section]
    answer(game, "place")
    assert offered(game) == [str(a), str(b)]
    answer(game, a, "place", b, "place", a)
    expected = [0] * 6
    expected[a], expected[b] = 2, 1
    assert senate(game)[0] == expected and game.state.pending is None


def test_the_same_cube_may_be_moved_several_times():
    game = agora_game()
    give(game, 0, *BLUE[:4])
    recruit(game, "Politician (right) B")
    answer(game, "place", 4, "move", 4, 3, "move", 3, 2)
    assert senate(game)[0] == [0, 0, 1, 0, 0, 0]


def _actions_of_politician(blue: int, decree: bool = False) -> int:
    game = agora_game()
    give(game, 0, *BLUE[:blue])
    if decree:
        set_decree(game, 5, "Decree: two more blue")
        add_cubes(game, 0, 5)
    before = sum(senate(game)[0])
    recruit(game, "Politician (middle) A")
    n = 0
    while game.state.pending is not None:
        answer(game, "place", 2)
        n += 1
    assert sum(senate(game)[0]) - before == n
    return n


@pytest.mark.parametrize("blue,actions", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 3)])
def test_politician_senate_actions_by_blue_cards(blue, actions):
    assert _actions_of_politician(blue) == actions


@pytest.mark.parametrize("blue,actions", [(0, 2), (1, 2), (2, 3), (4, 3)])
def test_two_more_blue_decree_adds_2_to_the_blue_count(blue, actions):
    assert _actions_of_politician(blue, decree=True) == actions


def test_two_more_blue_decree_is_for_its_controller_only():
    game = agora_game()
    set_decree(game, 5, "Decree: two more blue")
    add_cubes(game, 1, 5)
    set_turn(game, 0)
    recruit(game, "Politician (left) B")
    answer(game, "place", 0)
    assert game.state.pending is None                        # 1 action only


def test_a_politician_move_needs_a_cube_and_a_place_needs_the_supply():
    game = agora_game()
    set_senate(game, [0, 0, 0, 0, 0, 0], [0] * 6)
    recruit(game, "Politician (left) A")
    answer(game, "move")                                     # no cube to move: the action is lost
    assert game.state.pending is None and senate(game)[0] == [0] * 6 and game.state.current == 1


# -- conspirators ---------------------------------------------------------------------------------

def test_conspirator_places_one_cube_in_any_chamber():
    game = agora_game()
    recruit(game, "Conspirator A")
    assert offered(game) == ["influence", "conspire"]
    answer(game, "influence")
    assert offered(game) == [str(s) for s in range(6)]
    answer(game, 5)
    assert senate(game)[0] == [0, 0, 0, 0, 0, 1] and supply(game, 0) == 11
    assert game.state.pending is None and game.state.current == 1


@pytest.mark.parametrize("where_to", ["top", "bottom"])
def test_conspirator_conspires_draws_2_keeps_1_the_other_on_top_or_bottom(where_to):
    game = agora_game()
    set_conspiracy_deck(game, "Coup", "Treason", "Espionage", "Blackmail")    # Blackmail on top
    recruit(game, "Conspirator C")
    answer(game, "conspire")
    assert sorted(offered(game)) == ["Blackmail", "Espionage"]               # the top two
    answer(game, "Espionage")
    assert offered(game) == ["top", "bottom"]
    answer(game, where_to)
    assert names(game, "conspiracies", 0) == ["Espionage"]
    expected = ["Coup", "Treason", "Blackmail"] if where_to == "top" else ["Blackmail", "Coup", "Treason"]
    assert conspiracy_deck(game) == expected
    assert not names(game, "drawn", 0)
    assert senate(game) == [[0] * 6, [0] * 6]
    assert game.state.pending is None and game.state.current == 1


def test_conspirator_with_organized_crime_keeps_both():
    game = agora_game()
    give(game, 0, "Organized Crime")
    set_conspiracy_deck(game, "Coup", "Treason", "Espionage", "Blackmail")
    recruit(game, "Conspirator D")
    answer(game, "conspire")
    assert game.state.pending is None and game.state.current == 1
    assert sorted(names(game, "conspiracies", 0)) == ["Blackmail", "Espionage"]
    assert conspiracy_deck(game) == ["Coup", "Treason"]


def test_conspiracies_in_hand_are_hidden_from_the_opponent():
    game = agora_game()
    set_conspiracy_deck(game, "Coup", "Treason")
    recruit(game, "Conspirator D")
    answer(game, "conspire", "Treason", "top")
    assert observe(game, 0)["zones"]["conspiracies"] == {"0": ["Treason"], "1": 0}
    assert observe(game, 1)["zones"]["conspiracies"] == {"0": 1, "1": []}
    assert "Treason" not in str(observe(game, 1)["zones"])
