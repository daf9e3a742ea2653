"""Rulebook worked examples that had no test of their own (audit of every example in the four Dutch
rulebooks: Duel base game, Pantheon, Agora, classic 7 Wonders).

The rulebook facts these tests need are quoted in the docstrings (short Dutch phrases, so an item can
be found again in the rulebook; translation beside it).  Sources: the Dutch rulebooks as transcribed
in the project's shared seeds (Duel base game "000", Pantheon "003", Agora "004"); this file does not
read them.  Ids: BOOK-section-title, as in the audit table.

Positions follow tests/test_rulebook_duel.py, tests/test_pantheon_*.py and tests/test_agora_*.py
(helpers: positions.py, pantheon_positions.py, agora_positions.py); one example also runs as scenario
text through rulesdsl.testing.  Coen is player 0 and Eddy player 1 (Duel), as in test_rulebook_duel.py.

The one example the engine reads otherwise (with the pawn in the middle, the player who took the
last card of an Age *chooses* who begins the next, where the Dutch text says that player begins:
docs/rules-notes.md gives the reasons) is tested as read in tests/test_rulebook_duel.py
(`test_weaker_player_chooses_who_starts_the_next_age`).
"""

from __future__ import annotations

import collections

from rulesdsl.interpreter import DRAW, load_ruleset
from rulesdsl.testing import scenarios as S
from positions import act, fresh_game, give, item, leave_only, names, put_accessible

COEN, EDDY = 0, 1


def price(game, p, name):
    return game.price(p, item(game, name))


# =================================================================================================
# 7 Wonders Duel (base game)
# =================================================================================================

def test_duel_bouwkosten_cost_examples_name_the_resources():
    """DUEL-Bouwkosten: "de Houtwerf is gratis, de Steenput kost 1 muntstuk, het Badhuis kost 1x
    steen voor het bouwen en de Arena kost 1x klei, 1x steen en 1x hout" (Lumber Yard free, Stone Pit
    1 coin, Baths 1 stone, Arena 1 clay, 1 stone, 1 wood).  test_rulebook_duel.test_cost_examples
    checks the prices with nothing produced; here each named resource is produced in turn, so the
    cost is shown to be exactly those resources."""
    game = fresh_game()
    assert price(game, COEN, "Lumber Yard") == (0, 0, False)
    assert price(game, COEN, "Stone Pit") == (1, 0, False)
    give(game, COEN, "Quarry")                          # 1 stone
    assert price(game, COEN, "Baths") == (0, 0, False)
    assert price(game, COEN, "Arena") == (4, 4, False)  # clay and wood still bought at 2
    give(game, COEN, "Clay Pool")                       # 1 clay
    assert price(game, COEN, "Arena") == (2, 2, False)
    give(game, COEN, "Lumber Yard")                     # 1 wood: clay + stone + wood
    assert price(game, COEN, "Arena") == (0, 0, False)
    put_accessible(game, "Arena")
    game.state.coins[COEN] = 0
    game.apply(act("build", "Arena"))
    assert "Arena" in names(game, "city", COEN)


ACCESSIBLE = ("Baths", "Stone Pit", "Lumber Yard", "Scriptorium")


def test_duel_speelbeurt_accessible_cards_example():
    """DUEL-Speelbeurt-toegankelijk: "het Badhuis, de Steenput, de Houtwerf en het Scriptorium zijn
    toegankelijk. De andere kaarten zijn momenteel niet toegankelijk." (Baths, Stone Pit, Lumber Yard
    and Scriptorium are accessible; the other cards are not.)  The figure (Age I) is not
    transcribed: the four named cards lie in the uncovered bottom row of Age I; every card of the
    rows above is covered and cannot be taken in any way."""
    game = fresh_game()
    st = game.state
    for name in ACCESSIBLE:
        put_accessible(game, name, avoid=ACCESSIBLE)
    accessible = {game.name(i) for i in game.accessible()}
    assert set(ACCESSIBLE) <= accessible
    assert all(st.structure.index(item(game, n)) >= 14 for n in ACCESSIBLE)     # the bottom row
    legal = game.legal_actions()
    for name in ACCESSIBLE:
        assert act("discard", name) in legal
    covered = [game.name(i) for s, i in enumerate(st.structure) if i >= 0 and s < 14]
    assert len(covered) == 14 and not set(covered) & accessible
    for name in covered:
        assert all(name not in a.args for a in legal)
    game.apply(act("build", "Lumber Yard"))           # free
    assert "Lumber Yard" in names(game, "city", COEN)


# =================================================================================================
# Pantheon
# =================================================================================================

def test_pantheon_inhoud_components():
    """PANTHEON-Inhoud: "15 God-kaarten, 1 Poort-kaart, 5 Grote Tempel-kaarten, 2 Wonder-kaarten,
    10 Mythologie-fiches, 3 Offer-fiches, 1 Slang-fiche, 3 Vooruitgang-fiches, 1 Minerva pion"
    (15 gods, the Gate, 5 Grand Temples, 2 wonders, 10 mythology tokens, 3 offering tokens, the snake
    token, 3 progress tokens, the Minerva pawn); gods in 5 mythologies ("verdeeld over 5
    verschillende mythologieën"), so 3 gods and 2 mythology tokens per mythology."""
    content = load_ruleset(["pantheon"]).content
    base = {it.name for it in load_ruleset().content.items}
    new = [it for it in content.items if it.name not in base]

    def zone(it):
        return content.zones[it.deck].name

    kinds = collections.Counter(it.kind for it in new)
    assert kinds["god"] == 15
    assert kinds["gate"] == 1
    assert kinds["wonder"] == 2
    temples = [it for it in new if it.kind == "card" and zone(it) == "temples"]
    assert len(temples) == 5 and all(it.color == "purple" for it in temples)
    tokens = collections.Counter(zone(it) for it in new if it.kind == "token")
    assert tokens == {"mythology_tokens": 10, "offering_tokens": 3, "progress_deck": 3}
    assert sorted(it.name for it in new if it.kind == "pawn") == ["Minerva pawn", "Snake token"]
    gods_per_deck = collections.Counter(zone(it) for it in new if it.kind == "god")
    assert len(gods_per_deck) == 5 and set(gods_per_deck.values()) == {3}
    mythology = collections.Counter(it.name.split()[0] for it in new if it.kind == "token"
                                    and zone(it) == "mythology_tokens")
    assert len(mythology) == 5 and set(mythology.values()) == {2}


# =================================================================================================
# Agora
# =================================================================================================

def _agora_final_turn(blue0, blue1, senate0, senate1):
    from agora_positions import agora_game, set_coins, set_senate
    game = agora_game(age=3)
    set_senate(game, senate0, senate1)
    give(game, 0, *blue0)
    give(game, 1, *blue1)
    set_coins(game, 0, 0)                  # the last discard gives player 0 two coins: 0 VP
    set_coins(game, 1, 0)
    last = game.name(game.accessible()[0])
    leave_only(game, last)
    game.apply(act("discard", last))
    assert game.over and game.state.victory == "civilian"
    return game


def test_agora_einde_tie_broken_by_blue_card_vp():
    """AGORA-Einde-van-het-spel: "Bij een gelijk aantal punten wint de speler die de meeste
    overwinningspunten dankzij blauwe kaarten heeft verkregen." (On equal points the player with the
    most VP from blue cards wins.)  Player 0: Theater (3 blue VP); player 1: the chamber worth 3
    (chamber 2) -- 3 VP each, the Senate's points count in the total but not as blue."""
    game = _agora_final_turn(["Theater"], [], [0] * 6, [0, 0, 1, 0, 0, 0])
    s0, s1 = game.score(0), game.score(1)
    assert sum(s0.values()) == sum(s1.values()) == 3
    assert s0.get("blue") == 3 and s1.get("senate") == 3 and not s1.get("blue")
    assert game.state.winner == 0


def test_agora_einde_tie_on_blue_too_is_shared():
    """AGORA-Einde-van-het-spel: "Is er dan nog geen winnaar, dan wordt de overwinning gedeeld."
    (Still tied: the victory is shared.)  Theater against Altar: 3 blue VP each, nothing else."""
    game = _agora_final_turn(["Theater"], ["Altar"], [0] * 6, [0] * 6)
    assert sum(game.score(0).values()) == sum(game.score(1).values()) == 3
    assert game.state.winner == DRAW


# =================================================================================================
# The Arena example again, as scenario text (rulesdsl.testing)
# =================================================================================================

ARENA_SCENARIO = '''
scenario "Duel rulebook: the Arena costs 1 clay, 1 stone and 1 wood" {
    option beginner_wonders
    give 0 "Clay Pool" "Quarry" "Lumber Yard"
    accessible "Arena"
    coins 0 0
    expect cost(0, "Arena") == 0
    do build "Arena"
    expect owner("Arena") == 0
}

scenario "Duel rulebook: without the wood the Arena costs Coen 2 coins" {
    option beginner_wonders
    give 0 "Clay Pool" "Quarry"
    accessible "Arena"
    expect cost(0, "Arena") == 2
}
'''


def test_duel_bouwkosten_arena_example_as_a_scenario(tmp_path):
    path = tmp_path / "arena.scenario"
    path.write_text(ARENA_SCENARIO, encoding="utf-8")
    report = S.run_paths([path])
    assert report.ok, report.human()
    assert len(report.results) == 2 and all(r.passed for r in report.results)
