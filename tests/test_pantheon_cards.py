"""Pantheon: Grand Temples, the two new wonders, the three new progress tokens, and the FAQ answers
not covered by test_pantheon_gods.py / test_pantheon_board.py (Dutch rulebook shared/seeds/003)."""

from __future__ import annotations

import pytest

from pantheon_positions import (DECK_OF, MYTHOLOGIES, TEMPLES, act, answer, build_wonder_with, deck, give, give_god,
                                give_token, item, minerva_pawn, names, options, pantheon, pantheon_game, put_accessible,
                                put_god, remove_military_tokens, set_board_tokens, set_coins, set_deck, set_pawn, set_turn, set_wonders, slot_of,
                                where)

GUILDS = ["Builders Guild", "Moneylenders Guild", "Scientists Guild", "Shipowners Guild", "Traders Guild",
          "Magistrates Guild", "Tacticians Guild"]


def guild_names(game):
    return [it.name for it in game.content.items if it.kind == "card" and it.color == "purple"
            and it.deck != game.content.zone_index["temples"]]


# -- Grand Temples ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_age_three_three_grand_temples_replace_the_guilds(seed):
    game = pantheon_game(age=3, seed=seed)
    st = game.state
    laid = [game.name(i) for i in st.structure if i >= 0]
    assert len(laid) == 20
    temples = [n for n in laid if n in TEMPLES.values()]
    assert len(temples) == 3
    guilds = guild_names(game)
    assert len(guilds) == 7
    assert not set(laid) & set(guilds)
    assert all(where(game, g)[0] == "box" for g in guilds)
    assert sorted(where(game, t)[0] for t in TEMPLES.values() if t not in temples) == ["box", "box"]
    assert all(game.content.items[item(game, n)].age == 3 for n in laid if n not in temples)


def test_grand_temples_vary_with_the_seed():
    seen = set()
    for seed in range(6):
        game = pantheon_game(age=3, seed=seed)
        seen.add(tuple(sorted(game.name(i) for i in game.state.structure if i >= 0 and game.name(i) in TEMPLES.values())))
    assert len(seen) > 1


@pytest.mark.parametrize("mythology", list(MYTHOLOGIES))
def test_a_grand_temple_is_free_with_its_mythology_token_which_is_kept(mythology):
    game = pantheon_game(age=3)
    temple = TEMPLES[mythology]
    token = f"{mythology.capitalize()} token B"
    give_token(game, 0, token)
    put_accessible(game, temple)
    set_coins(game, 0, 0)
    assert game.available_coins(0) == 0
    assert act("build", temple) in game.legal_actions()
    game.apply(act("build", temple))
    assert where(game, temple) == ("city", 0)
    assert game.state.coins[0] == 0
    assert names(game, "tokens", 0) == [token]          # not spent


def test_a_grand_temple_is_not_free_with_another_mythologys_token():
    game = pantheon_game(age=3)
    give_token(game, 0, "Roman token A", "Egyptian token A")
    put_accessible(game, TEMPLES["greek"])
    set_coins(game, 0, 0)
    assert act("build", TEMPLES["greek"]) not in game.legal_actions()


def test_a_grand_temple_free_with_its_mythology_token_is_a_chain_build_for_urbanism():
    # The temple shows its mythology's emblem as its free-construction (chain) symbol and the token
    # carries it, so Urbanism's "gratis via een keten" pays its 4 coins (our reading: the
    # rulebook is silent; docs/rules-notes.md, Pantheon).
    game = pantheon_game(age=3)
    give_token(game, 0, "Greek token A", "Urbanism")
    put_accessible(game, TEMPLES["greek"])
    set_coins(game, 0, 0)
    game.apply(act("build", TEMPLES["greek"]))
    assert where(game, TEMPLES["greek"]) == ("city", 0)
    assert game.state.coins[0] == 4


def test_a_mythology_token_does_not_make_its_gods_free_to_activate():
    # Pantheon rulebook: a mythology token places a god and frees its Grand Temple; an activation
    # always costs the price of the god's space (BGA's code lets a matching token activate it for
    # free; the rulebook and the reference do not: docs/rules-notes.md, Pantheon).
    game = pantheon_game(age=2)
    give_token(game, 0, "Roman token A")
    put_god(game, "Mars", 5)
    set_coins(game, 0, 2)
    assert act("activate", "Mars") not in game.legal_actions()
    set_coins(game, 0, 3)
    game.apply(act("activate", "Mars"))
    assert game.state.coins[0] == 0 and names(game, "tokens", 0) == ["Roman token A"]


def test_a_grand_temple_may_be_paid_for():
    game = pantheon_game(age=3)
    temple = TEMPLES["greek"]                             # 3 stone, glass, papyrus
    put_accessible(game, temple)
    give(game, 0, "Quarry", "Stone Pit", "Shelf Quarry", "Glassworks", "Press")   # 1 + 1 + 2 stone, glass, papyrus
    set_coins(game, 0, 0)
    game.apply(act("build", temple))
    assert where(game, temple) == ("city", 0)
    assert game.score(0)["temples"] == 5


def test_grand_temple_scoring_rulebook_example_and_three_temples():
    # Rulebook: Stefan built 2 Grand Temples (12 VP), Michel 1 (5 VP).
    game = pantheon_game(age=3)
    give(game, 0, TEMPLES["greek"], TEMPLES["roman"])
    give(game, 1, TEMPLES["egyptian"])
    assert game.score(0)["temples"] == 12
    assert game.score(1)["temples"] == 5
    give(game, 0, TEMPLES["phoenician"])
    assert game.score(0)["temples"] == 21
    assert pantheon_game(age=1).score(0)["temples"] == 0


# -- the two wonders -----------------------------------------------------------------------------------------

def test_the_sanctuary_lowers_every_activation_by_2_coins():
    game = pantheon_game(age=2)
    give(game, 0, "The Sanctuary")                      # built
    put_god(game, "Mars", 3)                             # 5 - 2
    set_coins(game, 0, 3)
    game.apply(act("activate", "Mars"))
    assert game.state.coins[0] == 0
    # the Gate: twice the price, then -2
    put_god(game, "Gate", 3)
    set_turn(game, 0)
    set_coins(game, 0, 8)
    game.apply(act("open_gate", "Gate"))
    assert game.state.coins[0] == 0


def test_the_sanctuary_and_an_offering_token_never_cost_less_than_nothing():
    game = pantheon_game(age=2)
    give(game, 0, "The Sanctuary")
    give_token(game, 0, "Offering 4")
    put_god(game, "Mars", 4)                             # 4 - 4 - 2
    set_coins(game, 0, 5)
    game.apply(act("activate_with_offering", "Mars", "Offering 4"))
    assert game.state.coins[0] == 5


def test_the_sanctuary_gives_another_turn():
    game = pantheon_game(age=2)
    set_wonders(game, 0, "The Sanctuary")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Sanctuary"))
    assert where(game, "The Sanctuary") == ("built_wonders", 0)
    assert game.state.current == 0
    assert game.score(0).get("wonder", 0) == 0


def test_the_divine_theater_turns_up_one_deck_and_activates_one_of_its_gods_free_and_is_worth_2_vp():
    # Rulebook (seeds/003, Het Theater van de goden): turn up every card of one mythology deck of
    # your choice, choose one of those gods and activate it for free, put the others back face down
    # "in een volgorde naar keuze" (the player chooses the one on top).
    game = pantheon_game(age=2)
    put_god(game, "Mars", 0)                              # on the Pantheon: not in a deck
    before = {m: deck(game, f"{m}_gods") for m in MYTHOLOGIES}
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    coins = game.state.coins[0]
    assert options(game) == list(MYTHOLOGIES)             # a deck first, every god still face down
    assert names(game, "revealed") == []
    answer(game, "greek")
    assert sorted(names(game, "revealed")) == sorted(before["greek"])   # turned up for both players
    assert sorted(options(game)) == sorted(before["greek"])
    answer(game, "Aphrodite")
    assert names(game, "gods", 0) == ["Aphrodite"]
    assert game.state.coins[0] == coins                   # free
    rest = [g for g in before["greek"] if g != "Aphrodite"]   # bottom to top, as they lay
    assert sorted(options(game)) == sorted(rest)          # which of the other two goes on top
    answer(game, rest[0])                                 # the bottom one of the two, on top now
    assert game.state.pending is None
    assert game.score(0)["wonder"] == 2 and game.score(0)["god"] == 9
    for m, gods in before.items():
        assert deck(game, f"{m}_gods") == (rest[::-1] if m == "greek" else gods)
    assert names(game, "revealed") == [] and names(game, "theater_top") == []
    assert pantheon(game) == {0: "Mars"}


def test_the_divine_theater_offers_only_decks_that_hold_gods():
    game = pantheon_game(age=2)
    set_deck(game, "phoenician_gods")
    set_deck(game, "roman_gods")
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    assert options(game) == ["mesopotamian", "greek", "egyptian"]
    assert game.explain_illegal(act("choose_option", "roman")) is not None


def test_the_divine_theater_with_every_deck_empty_does_nothing_but_score():
    game = pantheon_game(age=2)
    for m in MYTHOLOGIES:
        set_deck(game, f"{m}_gods")
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    assert game.state.pending is None and game.state.current == 1
    assert names(game, "gods", 0) == [] and game.score(0)["wonder"] == 2


@pytest.mark.parametrize("top", [0, 1])
def test_the_divine_theater_puts_the_other_gods_back_in_the_order_its_builder_chooses(top):
    # Rulebook: "Maak daarna opnieuw een gesloten stapel van de niet gekozen kaarten in een
    # volgorde naar keuze": the player picks the one on top; every other deck keeps its order.
    game = pantheon_game(age=2)
    for m, gods in MYTHOLOGIES.items():
        set_deck(game, f"{m}_gods", *gods)                # the last is the top
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    answer(game, "phoenician", "Tanit")
    rest = [g for g in MYTHOLOGIES["phoenician"] if g != "Tanit"]
    answer(game, rest[top])
    for m, gods in MYTHOLOGIES.items():
        expected = [rest[1 - top], rest[top]] if m == "phoenician" else list(gods)
        assert deck(game, f"{m}_gods") == expected


def test_the_divine_theater_asks_no_order_for_one_god_left():
    game = pantheon_game(age=2)
    set_deck(game, "greek_gods", "Zeus", "Hades")
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    answer(game, "greek", "Hades")
    assert game.state.pending is None and deck(game, "greek_gods") == ["Zeus"]


def test_the_divine_theater_can_activate_a_god_in_age_one():
    game = pantheon_game(age=1)
    set_wonders(game, 0, "The Divine Theater")
    set_coins(game, 0, 30)
    game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
    answer(game, "roman", "Mars")
    assert game.state.pawn == 2


# -- the three progress tokens ----------------------------------------------------------------------------------

def test_mysticism_rulebook_example_two_mythology_one_offering_token_6_vp():
    game = pantheon_game(age=3)
    give_token(game, 0, "Mysticism", "Greek token A", "Roman token B", "Offering 3")
    assert game.score(0)["token"] == 6


def test_mysticism_counts_only_the_holders_tokens():
    game = pantheon_game(age=3)
    give_token(game, 0, "Mysticism")
    give_token(game, 1, "Greek token A", "Offering 2")
    assert game.score(0)["token"] == 0


def test_mathematics_counts_progress_tokens_only_not_mythology_or_offering_tokens():
    # Mathematics: 3 VP per *progress* token (itself included); Pantheon's other tokens are not ones.
    game = pantheon_game(age=3)
    give_token(game, 0, "Mathematics", "Agriculture", "Greek token A", "Offering 2")
    assert game.score(0)["token"] == 3 * 2 + 4            # Mathematics 6, Agriculture 4


def test_poliorcetics_rulebook_example_three_shields_opponent_loses_3_coins():
    game = pantheon_game(age=3)
    give_token(game, 0, "Poliorcetics")
    remove_military_tokens(game, "Looting 2 (second player's side)")   # only Poliorcetics takes coins here
    put_accessible(game, "Courthouse")
    set_coins(game, 0, 8)
    set_coins(game, 1, 7)
    game.apply(act("build", "Courthouse"))
    assert game.state.pawn == 3
    assert game.state.coins == [0, 4]


def test_poliorcetics_counts_only_the_spaces_moved_when_minerva_stops_the_pawn():
    game = pantheon_game(age=2)
    give_token(game, 0, "Poliorcetics")
    put_god(game, "Minerva", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Minerva"))
    answer(game, 2)
    set_turn(game, 0)
    put_accessible(game, "Courthouse")
    set_coins(game, 0, 8)
    set_coins(game, 1, 7)
    game.apply(act("build", "Courthouse"))
    assert game.state.pawn == 1
    assert game.state.coins == [0, 6]
    assert game.state.loc[minerva_pawn(game)] != game.track_slot


def test_poliorcetics_does_nothing_when_the_opponent_moves_the_pawn():
    game = pantheon_game(age=2)
    give_token(game, 0, "Poliorcetics")
    put_god(game, "Mars", 0)
    set_turn(game, 1)
    set_coins(game, 0, 7)
    set_coins(game, 1, 3)
    game.apply(act("activate", "Mars"))
    assert game.state.pawn == -2
    assert game.state.coins == [7, 0]


def test_engineering_rulebook_example_fortifications_without_palisade_for_1_coin():
    game = pantheon_game(age=3)
    give_token(game, 0, "Engineering")
    put_accessible(game, "Fortifications")                 # clay, 2 stone, papyrus; chain from Palisade
    set_coins(game, 0, 1)
    assert act("build", "Fortifications") in game.legal_actions()
    game.apply(act("build", "Fortifications"))
    assert where(game, "Fortifications") == ("city", 0)
    assert game.state.coins[0] == 0
    assert game.state.pawn == 2


def test_engineering_needs_a_chain_symbol_under_the_cost():
    game = pantheon_game(age=3)
    give_token(game, 0, "Engineering")
    put_accessible(game, "Arsenal")                        # no chain symbol
    set_coins(game, 0, 1)
    assert act("build", "Arsenal") not in game.legal_actions()


def test_engineering_builds_a_grand_temple_for_1_coin():
    # Open point (U4), our reading in docs/rules-notes.md: the temple's emblem is a chain symbol.
    game = pantheon_game(age=3)
    give_token(game, 0, "Engineering")
    put_accessible(game, TEMPLES["roman"])
    set_coins(game, 0, 1)
    game.apply(act("build", TEMPLES["roman"]))
    assert where(game, TEMPLES["roman"]) == ("city", 0)
    assert game.state.coins[0] == 0


def test_engineering_with_urbanism_gives_no_4_coins():
    # FAQ: a building bought for 1 coin with Engineering is not a chain build.
    game = pantheon_game(age=3)
    give_token(game, 0, "Engineering", "Urbanism")
    put_accessible(game, "Fortifications")
    set_coins(game, 0, 1)
    game.apply(act("build", "Fortifications"))
    assert game.state.coins[0] == 0


def test_a_real_chain_with_urbanism_still_gives_4_coins():
    game = pantheon_game(age=3)
    give_token(game, 0, "Engineering", "Urbanism")
    give(game, 0, "Palisade")
    put_accessible(game, "Fortifications")
    set_coins(game, 0, 1)
    game.apply(act("build", "Fortifications"))
    assert game.state.coins[0] == 1 + 4


# -- FAQ answers ----------------------------------------------------------------------------------------------

def test_faq_ra_five_wonders_against_two_but_seven_built_in_all():
    game = pantheon_game(age=2)
    for w, c in (("Pyramids", "Baths"), ("Great Lighthouse", "Altar"), ("Temple of Artemis", "Theater"),
                 ("Statue of Zeus", "Tavern")):
        build_wonder_with(game, 0, w, c)
    for w, c in (("Circus Maximus", "Lumber Yard"), ("Appian Way", "Clay Pool")):
        build_wonder_with(game, 1, w, c)
    set_wonders(game, 0)
    set_wonders(game, 1, "Piraeus", "Colossus")
    put_god(game, "Ra", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Ra"))
    answer(game, "Piraeus")
    assert names(game, "wonders", 0) == ["Piraeus"]
    set_turn(game, 0)
    set_coins(game, 0, 40)
    game.apply(act("wonder", game.name(game.accessible()[0]), "Piraeus"))
    assert len(names(game, "built_wonders", 0)) == 5
    assert len(names(game, "built_wonders", 1)) == 2
    assert where(game, "Colossus")[0] == "box"               # the 8th wonder leaves the game
    assert names(game, "wonders", 1) == []


def test_faq_anubis_after_seven_wonders_the_eighth_stays_in_the_box():
    game = pantheon_game(age=2)
    for w, c in (("Pyramids", "Baths"), ("Great Lighthouse", "Altar"), ("Temple of Artemis", "Theater"),
                 ("Statue of Zeus", "Tavern")):
        build_wonder_with(game, 0, w, c)
    set_wonders(game, 0)
    set_wonders(game, 1, "Colossus")
    for w, c in (("Circus Maximus", "Lumber Yard"), ("Appian Way", "Clay Pool"), ("Piraeus", "Quarry")):
        build_wonder_with(game, 1, w, c)
    game.relocate(item(game, "Colossus"), slot_of(game, "box"))   # the seventh wonder sent it away
    put_god(game, "Anubis", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Anubis"))
    answer(game, "Quarry")
    assert names(game, "wonders", 1) == ["Piraeus"]
    assert where(game, "Colossus")[0] == "box"
    set_coins(game, 1, 40)
    legal = game.legal_actions()
    assert not [a for a in legal if a.name == "wonder" and a.args[1] == "Colossus"]
    assert [a for a in legal if a.name == "wonder" and a.args[1] == "Piraeus"]


def test_faq_a_science_pair_with_no_progress_token_left_gives_nothing():
    game = pantheon_game(age=2)
    give(game, 0, "Law")
    set_board_tokens(game)
    put_god(game, "Ishtar", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Ishtar"))
    assert game.science_count(0, "law") == 2
    assert game.state.pending is None and game.state.current == 1
    assert names(game, "tokens", 0) == ["Law"]


def test_faq_returned_progress_tokens_join_the_set_aside_ones():
    # Enki's unchosen token goes back among the tokens left out at setup: the Great Library can draw it.
    game = pantheon_game(age=2)
    set_deck(game, "progress_deck", "Agriculture", "Philosophy")
    put_god(game, "Enki", 5)
    set_coins(game, 0, 3)
    game.apply(act("activate", "Enki"))
    answer(game, "Agriculture")
    assert deck(game, "progress_deck") == ["Philosophy"]
    set_wonders(game, 1, "Great Library")
    set_coins(game, 1, 40)
    game.apply(act("wonder", game.name(game.accessible()[0]), "Great Library"))
    assert options(game) == ["Philosophy"]


def test_pantheon_gods_are_in_their_mythology_decks_at_setup():
    game = pantheon_game(age=1)
    for m, gods in MYTHOLOGIES.items():
        assert sorted(deck(game, f"{m}_gods")) == sorted(gods)
        assert all(DECK_OF[g] == f"{m}_gods" for g in gods)
    assert names(game, "gate_pile") == ["Gate"]
    give_god(game, 0, "Aphrodite")
    assert game.score(0)["god"] == 9
