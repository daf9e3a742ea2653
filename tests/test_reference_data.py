"""Facts of the classic 7 Wonders (2nd edition) reference table that the content of issue 10 relies on.

The YAML (tests/data/reference/seven-wonders-v2.yaml) is cross-checked here against what the classic
rulebook states (tests/data/classic/rulebook-examples.md gives the item ids quoted below): every count is
computed from the per-card data, never read from the YAML's own summary tables (those are checked
against the computed values instead)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml  # a test dependency (pyproject [test])

ROOT = Path(__file__).resolve().parent.parent
YAML_PATH = ROOT / "tests" / "data" / "reference" / "seven-wonders-v2.yaml"
EXAMPLES_PATH = ROOT / "tests" / "data" / "classic" / "rulebook-examples.md"

# What the rulebook states (rulebook-examples.md), independent of the YAML.
RULEBOOK_PLAYER_COUNTS = range(3, 8)  # "3-7 spelers"
HAND_SIZE = 7  # A6: "geef je willekeurig 7 kaarten gedekt aan elke speler"
PHYSICAL_CARDS = {1: 49, 2: 49, 3: 50}  # A1
GUILDS_EXTRA = 2  # A5: players + 2 guilds
VICTORY_TOKENS_PER_AGE = 8  # A3
DEFEAT_TOKENS = 24  # A3


@pytest.fixture(scope="module")
def ref() -> dict:
    return yaml.safe_load(YAML_PATH.read_text(encoding="utf-8"))


def _copies_at(card: dict, players: int) -> int:
    return sum(1 for m in card["min_players"] if m <= players)


def _cards_of_age(ref: dict, age: int) -> list[dict]:
    return [c for c in ref["age_cards"] if c["age"] == age]


def test_player_counts_are_the_rulebooks(ref):
    assert ref["meta"]["player_counts"] == list(RULEBOOK_PLAYER_COUNTS)


def test_copy_marks_are_valid_player_counts(ref):
    for card in ref["age_cards"]:
        marks = card["min_players"]
        assert marks, card["name"]
        assert marks == sorted(marks), card["name"]
        assert set(marks) <= set(RULEBOOK_PLAYER_COUNTS), card["name"]


@pytest.mark.parametrize("players", RULEBOOK_PLAYER_COUNTS)
@pytest.mark.parametrize("age", [1, 2])
def test_ages_one_and_two_deal_seven_cards_per_player(ref, age, players):
    dealt = sum(_copies_at(c, players) for c in _cards_of_age(ref, age))
    assert dealt == HAND_SIZE * players


@pytest.mark.parametrize("players", RULEBOOK_PLAYER_COUNTS)
def test_age_three_with_players_plus_two_guilds_deals_seven_per_player(ref, players):
    non_guild = sum(_copies_at(c, players) for c in _cards_of_age(ref, 3))
    guilds = players + GUILDS_EXTRA
    assert guilds <= len(ref["guilds"])  # enough guilds to draw from at every player count
    assert non_guild + guilds == HAND_SIZE * players


def test_physical_card_counts_match_the_rulebook(ref):
    per_age = {age: sum(len(c["min_players"]) for c in _cards_of_age(ref, age)) for age in (1, 2, 3)}
    per_age[3] += len(ref["guilds"])
    assert per_age == PHYSICAL_CARDS
    assert sum(per_age.values()) == 148
    # at the largest player count Ages I and II use every physical card
    top = max(RULEBOOK_PLAYER_COUNTS)
    for age in (1, 2):
        assert sum(_copies_at(c, top) for c in _cards_of_age(ref, age)) == PHYSICAL_CARDS[age]


def test_the_yaml_summary_table_matches_the_card_data(ref):
    sizes = ref["deck_sizes"]
    for players in RULEBOOK_PLAYER_COUNTS:
        computed = {age: sum(_copies_at(c, players) for c in _cards_of_age(ref, age)) for age in (1, 2, 3)}
        assert sizes["age_1"][players] == computed[1]
        assert sizes["age_2"][players] == computed[2]
        assert sizes["age_3_without_guilds"][players] == computed[3]
        assert sizes["age_3_with_guilds"][players] == computed[3] + players + GUILDS_EXTRA
    assert sizes["physical_cards"]["guilds"] == len(ref["guilds"])


def test_guilds(ref):
    guilds = ref["guilds"]
    names = [g["name"] for g in guilds]
    assert len(names) == len(set(names)) == 10
    for guild in guilds:
        assert "min_players" not in guild and "chains" not in guild, guild["name"]
        assert guild["cost"] and guild["effects"], guild["name"]


def test_conflict_token_supply_never_runs_out(ref):
    # A3: each neighbouring pair yields at most one victory and one defeat; n players sit in a ring of n pairs
    top = max(ref["meta"]["player_counts"])
    assert top <= VICTORY_TOKENS_PER_AGE
    assert 3 * top <= DEFEAT_TOKENS


def test_seven_double_sided_wonder_boards(ref):
    wonders = ref["wonders"]
    resources = {r["id"] for r in ref["resources"]}
    assert len({w["name"] for w in wonders}) == len(wonders) == 7
    assert len(wonders) >= max(RULEBOOK_PLAYER_COUNTS)  # A8: one board per player
    for board in wonders:
        assert board["base_resource"] in resources, board["name"]
        for side in ("day", "night"):
            stages = board[side]
            assert 2 <= len(stages) <= 4, (board["name"], side)  # H1: "twee, drie of vier bouwfases"
            for stage in stages:
                assert stage["cost"] and stage["effects"], (board["name"], side)
                assert set(stage["cost"]) <= resources, (board["name"], side)
    # every board starts with a different resource, together all seven
    assert sorted(w["base_resource"] for w in wonders) == sorted(resources)
    stage_counts = Counter(len(b[s]) for b in wonders for s in ("day", "night"))
    assert set(stage_counts) == {2, 3, 4}  # the rulebook's three sizes all occur


def test_chains_point_forward_and_agree_both_ways(ref):
    by_name: dict[str, set[int]] = {}
    for card in ref["age_cards"]:
        by_name.setdefault(card["name"], set()).add(card["age"])
    for card in ref["age_cards"]:
        chains = card.get("chains", {})
        for parent in chains.get("from", []):
            assert max(by_name[parent]) < card["age"], (parent, card["name"])
            parents = [c for c in ref["age_cards"] if c["name"] == parent]
            assert any(card["name"] in c.get("chains", {}).get("gives", []) for c in parents), (parent, card["name"])
        for child in chains.get("gives", []):
            assert min(by_name[child]) > card["age"], (card["name"], child)


def test_rulebook_example_costs_and_chain(ref):
    cards = {c["name"]: c for c in ref["age_cards"]}
    # C1-C3, C6
    assert cards["Lumber Yard"]["cost"] == {}
    assert cards["Excavation"]["cost"] == {"coins": 1}
    assert cards["Stockade"]["cost"] == {"wood": 1}
    city = {"stone": 2, "ore": 1, "papyrus": 1}  # C6: "Je produceert 2 Steen, 1 Erts en 1 Papyrus"

    def affordable(cost: dict) -> bool:
        return all(city.get(res, 0) >= n for res, n in cost.items())

    assert affordable(cards["Barracks"]["cost"])
    assert affordable(cards["Scriptorium"]["cost"])
    assert not affordable(cards["Guard Tower"]["cost"])
    # C7 / Z1: Theater chains to Gardens (a later age; the rulebook's figure says Age III)
    assert "Gardens" in cards["Theater"]["chains"]["gives"]
    assert cards["Gardens"]["age"] == 3 and cards["Theater"]["age"] == 1


def test_rules_constants_match_the_rulebook(ref):
    rc = ref["rules_constants"]
    assert rc["starting_coins"] == 3  # A7
    assert rc["hand_size"] == HAND_SIZE and rc["turns_per_age"] == HAND_SIZE - 1  # B1, B4
    assert rc["pass_direction"] == {"age_1": "left", "age_2": "right", "age_3": "left"}  # B3
    assert rc["sell_card_for_coins"] == 3  # B2
    assert rc["neighbour_purchase_price"] == 2  # D1
    assert rc["military"]["defeat_token"] == -1  # E1
    assert rc["military"]["victory_token"] == {"age_1": 1, "age_2": 3, "age_3": 5}  # E1


def test_same_named_cards_across_ages_are_grey(ref):
    # B5: a city never holds two cards of one name; the names repeated across ages are the grey ones
    ages_by_name: dict[str, set[int]] = {}
    colours: dict[str, str] = {}
    for card in ref["age_cards"]:
        ages_by_name.setdefault(card["name"], set()).add(card["age"])
        colours[card["name"]] = card["color"]
    repeated = {name for name, ages in ages_by_name.items() if len(ages) > 1}
    assert repeated and {colours[n] for n in repeated} == {"grey"}
    # within one age a name appears once (its copies are in min_players)
    for age in (1, 2, 3):
        names = [c["name"] for c in _cards_of_age(ref, age)]
        assert len(names) == len(set(names))


def test_checklist_items_cited_here_exist():
    text = EXAMPLES_PATH.read_text(encoding="utf-8")
    for item in ("A1", "A3", "A5", "A6", "A7", "A8", "B1", "B2", "B3", "B5", "C6", "C7", "D1", "E1", "H1", "Z1"):
        assert f"**{item}**" in text, item
