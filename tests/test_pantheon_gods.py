"""Pantheon: the 15 gods, each activated through the real `activate` action (Age II), with the
outcome the Dutch rulebook (shared/seeds/003) describes.  Positions: tests/pantheon_positions.py."""

from __future__ import annotations

from pantheon_positions import (act, answer, build_wonder_with, deck, discard_pile, give, give_god, give_token, item,
                                leave_only, names, options, pantheon, pantheon_game, place, play_random_until, price,
                                put_accessible, put_god,
                                set_board_tokens, set_coins, set_deck, set_pawn, set_turn, set_wonders, slot_of,
                                minerva_pawn, snake_token, structure_tokens, where)

SPACE = 5            # the cheapest space for player 0 (3 coins)


def activate(game, god, player=0, space=SPACE, coins=20):
    """`player` activates `god` standing on `space`, with `coins` in the treasury beforehand."""
    set_turn(game, player)
    put_god(game, god, space)
    set_coins(game, player, coins)
    game.apply(act("activate", god))




# -- Mesopotamian ------------------------------------------------------------------------------------

def test_enki_offers_two_set_aside_progress_tokens_keeps_one_returns_the_other():
    game = pantheon_game(age=2)
    set_deck(game, "progress_deck", "Agriculture", "Philosophy")     # the tokens left out at setup
    board = names(game, "board_tokens")
    activate(game, "Enki", coins=20)
    assert game.state.coins[0] == 20 - price(0, SPACE)
    assert sorted(options(game)) == ["Agriculture", "Philosophy"]
    answer(game, "Agriculture")
    assert names(game, "tokens", 0) == ["Agriculture"]
    assert game.state.coins[0] == 20 - price(0, SPACE) + 6            # the chosen token's effect applies
    assert deck(game, "progress_deck") == ["Philosophy"]               # the other goes back with the set-aside ones
    assert names(game, "enki_offer") == []
    assert names(game, "board_tokens") == board                       # the board is not touched
    assert names(game, "gods", 0) == ["Enki"]
    assert game.state.pending is None and game.state.current == 1


def test_enki_turned_up_at_age_two_shows_its_two_tokens_until_it_is_activated():
    # Rulebook (003): "Wanneer Enki is omgedraaid trek je willekeurig 2 vooruitgang-fiches ...
    # Deze fiches worden open op de kaart van Enki gelegd. Wanneer je Enki oproept, kies je één
    # van deze": drawn when it is turned up, seen by both players, offered when activated.
    import json
    import random
    from rulesdsl.interpreter.observation import observe
    for seed in range(40):
        game = pantheon_game(age=1, seed=seed, clean=False)
        play_random_until(game, random.Random(seed), lambda g: g.state.age >= 1)
        if "Enki" in pantheon(game).values():
            break
    else:
        raise AssertionError("no seed put Enki on the Pantheon in Age I")
    offer = names(game, "enki_offer")
    assert len(offer) == 2 and not set(offer) & set(deck(game, "progress_deck"))
    for p in (0, 1):
        assert all(t in json.dumps(observe(game, p)) for t in offer)   # open, for both players
    space = next(s for s, g in pantheon(game).items() if g == "Enki")
    st = game.state
    while st.pending is not None:
        game.apply(game.legal_actions()[0])
    set_coins(game, st.current, 20)
    game.apply(act("activate", "Enki"))
    assert sorted(options(game)) == sorted(offer)                     # those, not others
    answer(game, offer[0])
    assert offer[0] in names(game, "tokens", game.state.last_actor) and offer[1] in deck(game, "progress_deck")
    assert names(game, "enki_offer") == [] and space not in pantheon(game)


def test_ishtar_law_symbol_pairs_with_the_law_token_for_a_progress_token():
    game = pantheon_game(age=2)
    give(game, 0, "Law")
    set_board_tokens(game, "Agriculture", "Philosophy")
    activate(game, "Ishtar")
    assert game.science_count(0, "law") == 2
    assert game.state.pending is not None and game.state.pending.player == 0
    assert sorted(options(game)) == ["Agriculture", "Philosophy"]
    answer(game, "Philosophy")
    assert "Philosophy" in names(game, "tokens", 0)
    assert names(game, "board_tokens") == ["Agriculture"]


def test_ishtar_law_symbol_counts_for_scientific_supremacy():
    game = pantheon_game(age=2)
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")   # 5 different symbols
    assert game.distinct_science(0) == 5
    activate(game, "Ishtar")
    assert game.over and game.state.winner == 0 and game.state.victory == "science"


def test_nisaba_snake_on_an_opponents_green_card_copies_its_symbol_for_a_pair():
    game = pantheon_game(age=2)
    give(game, 0, "School")                          # wheel
    give(game, 1, "Apothecary", "Workshop", "Glassworks")   # wheel, plumb_bob, and a grey card
    set_board_tokens(game, "Agriculture", "Philosophy")
    activate(game, "Nisaba")
    assert sorted(options(game)) == ["Apothecary", "Workshop"]   # only the opponent's green cards
    answer(game, "Apothecary")
    snake = snake_token(game)
    assert game.state.attached.get(snake) == item(game, "Apothecary")
    assert where(game, "Apothecary") == ("city", 1)             # the card itself stays with its owner
    assert game.science_count(0, "wheel") == 2
    assert game.science_count(1, "wheel") == 1                  # the opponent keeps the symbol too
    # the copied symbol completes a pair: a progress token for Nisaba's owner
    assert game.state.pending is not None and game.state.pending.player == 0
    answer(game, "Agriculture")
    assert "Agriculture" in names(game, "tokens", 0)


def test_nisaba_copied_symbol_counts_for_scientific_supremacy():
    game = pantheon_game(age=2)
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    give(game, 1, "University")                       # globe
    activate(game, "Nisaba")
    answer(game, "University")
    assert game.over and game.state.winner == 0 and game.state.victory == "science"


# -- Phoenician ---------------------------------------------------------------------------------------

def test_astarte_puts_7_coins_on_her_card_outside_the_treasury():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3)
    astarte = item(game, "Astarte")
    assert game.state.coins[0] == 0
    assert game.state.item_coins[astarte] == 7
    assert game.available_coins(0) == 7


def test_astarte_coins_are_spent_after_the_treasury():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3 + 2)            # 2 coins left in the treasury
    astarte = item(game, "Astarte")
    put_accessible(game, "Courthouse")                # costs 8 coins
    set_turn(game, 0)
    assert act("build", "Courthouse") in game.legal_actions()   # 2 + 7 >= 8
    game.apply(act("build", "Courthouse"))
    assert game.state.coins[0] == 0
    assert game.state.item_coins[astarte] == 1        # treasury first, then 6 of Astarte's 7


def test_astarte_coins_pay_for_a_pantheon_activation():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3)
    put_god(game, "Tanit", 0)                         # costs 8 for player 0
    set_turn(game, 0)
    set_coins(game, 0, 1)
    assert act("activate", "Tanit") in game.legal_actions()
    game.apply(act("activate", "Tanit"))
    assert game.state.item_coins[item(game, "Astarte")] == 0
    assert game.state.coins[0] == 12


def test_astarte_coins_are_safe_from_appian_way():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3 + 1)            # 1 coin left in the treasury
    set_turn(game, 1)
    set_coins(game, 1, 40)
    set_wonders(game, 1, "Appian Way")
    card = game.name(game.accessible()[0])
    game.apply(act("wonder", card, "Appian Way"))     # the opponent loses 3 coins
    assert game.state.coins[0] == 0
    assert game.state.item_coins[item(game, "Astarte")] == 7


def test_astarte_coins_are_safe_from_military_tokens():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3 + 1)
    set_pawn(game, -2)
    activate(game, "Mars", player=1, space=0)         # pawn -2 -> -4: Looting 2 on player 0's side
    assert game.state.pawn == -4
    assert where(game, "Looting 2 (first player's side)") == ("nowhere", None)
    assert game.state.coins[0] == 0
    assert game.state.item_coins[item(game, "Astarte")] == 7


def test_astarte_coins_score_1_vp_each_and_not_in_the_coins_category():
    game = pantheon_game(age=2)
    activate(game, "Astarte", coins=3 + 2)            # 2 treasury coins + 7 on Astarte
    score = game.score(0)
    assert score["god"] == 7
    assert score["coins"] == 0                         # 2 // 3, not 9 // 3


def test_baal_steals_a_brown_or_grey_card_and_its_production():
    game = pantheon_game(age=2)
    give(game, 1, "Glassworks", "Lumber Yard", "Baths", "Workshop")
    assert game.production(1, "glass", None) == 1
    activate(game, "Baal")
    assert sorted(options(game)) == ["Glassworks", "Lumber Yard"]
    answer(game, "Glassworks")
    assert where(game, "Glassworks") == ("city", 0)
    assert game.production(0, "glass", None) == 1
    assert game.production(1, "glass", None) == 0


def test_tanit_gives_12_coins():
    game = pantheon_game(age=2)
    activate(game, "Tanit", coins=3)
    assert game.state.coins[0] == 12


# -- Greek ----------------------------------------------------------------------------------------------

def test_aphrodite_is_worth_9_vp():
    game = pantheon_game(age=2)
    set_coins(game, 0, 3)
    before = sum(game.score(0).values())
    activate(game, "Aphrodite", coins=3)
    assert game.score(0)["god"] == 9
    assert sum(game.score(0).values()) == before - 1 + 9      # 3 coins (1 VP) paid, 9 VP gained


def test_hades_builds_a_discarded_card_for_free():
    game = pantheon_game(age=2)
    discard_pile(game, "Courthouse", "Baths")
    activate(game, "Hades", coins=3)
    assert sorted(options(game)) == ["Baths", "Courthouse"]
    answer(game, "Courthouse")                        # costs 8 coins normally
    assert where(game, "Courthouse") == ("city", 0)
    assert game.state.coins[0] == 0
    assert game.state.pawn == 3                       # its effect applies
    assert names(game, "discard") == ["Baths"]


def test_zeus_discards_a_face_down_card_with_the_token_on_it():
    game = pantheon_game(age=2)
    st = game.state
    tokens = structure_tokens(game)
    assert 6 in tokens and not st.face_up[6]
    card, token = st.structure[6], tokens[6]
    # Any card, face up or down, covered or not; a face-down one is picked unseen, by its place.
    cards = [game.name(i) if st.face_up[k] else f"slot {k} (face down)" for k, i in enumerate(st.structure) if i >= 0]
    activate(game, "Zeus")
    assert sorted(options(game)) == sorted(cards)
    assert game.name(card) not in options(game)
    answer(game, "slot 6 (face down)")
    assert where(game, game.name(card)) == ("discard", None)
    assert where(game, token) == ("discard", None)
    assert st.structure[6] == -1
    assert token not in names(game, "tokens", 0) + names(game, "tokens", 1)


def test_zeus_may_discard_a_face_up_accessible_card():
    game = pantheon_game(age=2)
    card = game.name(game.accessible()[0])
    activate(game, "Zeus")
    answer(game, card)
    assert where(game, card) == ("discard", None)
    assert act("build", card) not in game.legal_actions()


def test_zeus_discarding_the_last_card_of_the_structure_ends_the_age():
    # An activation takes no card, but Zeus empties the structure as taking its last card would:
    # the age is over and Age III begins (the weaker player chooses who starts it).
    game = pantheon_game(age=2)
    last = game.name(game.accessible()[0])
    leave_only(game, last)
    activate(game, "Zeus")
    answer(game, last)
    st = game.state
    assert where(game, last) == ("discard", None)
    assert st.age == 1 and st.flow == "between"
    assert st.pending is not None and st.pending.kind == "player"


def test_hades_offers_only_cards_after_zeus_discarded_a_token():
    # Hades builds a *card* of the discard pile; a token Zeus sent there with its card is not one.
    game = pantheon_game(age=2)
    st = game.state
    card, token = st.structure[6], structure_tokens(game)[6]
    activate(game, "Zeus")
    answer(game, "slot 6 (face down)")
    activate(game, "Hades", player=1, space=0)
    assert token not in options(game)
    assert game.name(card) in options(game)


# -- Egyptian ---------------------------------------------------------------------------------------------

def test_anubis_discards_the_card_under_a_built_wonder_which_becomes_unbuilt():
    game = pantheon_game(age=2)
    set_wonders(game, 1, "Circus Maximus")
    build_wonder_with(game, 1, "Pyramids", "Baths")
    assert game.score(1).get("wonder") == 9
    activate(game, "Anubis")
    assert options(game) == ["Baths"]
    answer(game, "Baths")
    assert where(game, "Baths") == ("discard", None)
    assert where(game, "Pyramids") == ("wonders", 1)
    assert game.score(1).get("wonder", 0) == 0         # its VP are not scored while unbuilt


def test_anubis_may_pick_own_wonder_and_offers_both_players_cards():
    game = pantheon_game(age=2)
    build_wonder_with(game, 0, "Pyramids", "Baths")
    build_wonder_with(game, 1, "Colossus", "Altar")
    activate(game, "Anubis")
    assert sorted(options(game)) == ["Altar", "Baths"]
    answer(game, "Baths")
    assert where(game, "Pyramids") == ("wonders", 0)


def test_anubis_keeps_instant_effects_and_the_wonder_can_be_rebuilt():
    game = pantheon_game(age=2)
    set_wonders(game, 1, "Colossus")
    set_turn(game, 1)
    set_coins(game, 1, 40)
    game.apply(act("wonder", game.name(game.accessible()[0]), "Colossus"))     # 2 shields
    assert game.state.pawn == -2
    under = names(game, "under", 1)
    activate(game, "Anubis")
    answer(game, under[0])
    assert where(game, "Colossus") == ("wonders", 1)
    assert game.state.pawn == -2                        # shields already had are kept
    assert game.state.current == 1
    set_coins(game, 1, 40)
    card = game.name(game.accessible()[0])
    assert act("wonder", card, "Colossus") in game.legal_actions()
    game.apply(act("wonder", card, "Colossus"))
    assert where(game, "Colossus") == ("built_wonders", 1)
    assert game.state.pawn == -4                        # its effect applies again
    assert game.score(1)["wonder"] == 3


def test_isis_builds_own_wonder_free_with_a_discarded_card():
    game = pantheon_game(age=2)
    set_wonders(game, 0, "Pyramids", "Temple of Artemis")
    discard_pile(game, "Baths", "Altar")
    activate(game, "Isis", coins=3)
    assert sorted(options(game)) == ["Pyramids", "Temple of Artemis"]
    answer(game, "Temple of Artemis")
    assert sorted(options(game)) == ["Altar", "Baths"]
    answer(game, "Altar")
    assert where(game, "Temple of Artemis") == ("built_wonders", 0)
    assert where(game, "Altar") == ("under", 0)
    assert game.state.attached[item(game, "Altar")] == item(game, "Temple of Artemis")
    assert game.state.coins[0] == 12                   # free, and the wonder's effect applies
    assert names(game, "discard") == ["Baths"]


def test_ra_steals_an_unbuilt_wonder():
    game = pantheon_game(age=2)
    set_wonders(game, 1, "Piraeus", "Colossus")
    build_wonder_with(game, 1, "Appian Way", "Baths")
    activate(game, "Ra")
    assert sorted(options(game)) == ["Colossus", "Piraeus"]    # not the built one
    answer(game, "Piraeus")
    assert where(game, "Piraeus") == ("wonders", 0)
    assert names(game, "wonders", 1) == ["Colossus"]


# -- Roman ------------------------------------------------------------------------------------------------

def test_mars_gives_2_shields():
    game = pantheon_game(age=2)
    activate(game, "Mars")
    assert game.state.pawn == 2
    activate(game, "Mars", player=1, space=0)
    assert game.state.pawn == 0


def test_minerva_god_stays_with_its_owner_and_the_pawn_goes_on_the_track():
    game = pantheon_game(age=2)
    activate(game, "Minerva")
    assert sorted(options(game)) == list(range(-9, 10))   # any space of the track
    answer(game, 2)
    assert names(game, "gods", 0) == ["Minerva"]          # the god card stays in front of its owner
    pawn = minerva_pawn(game)
    assert game.state.loc[pawn] == game.track_slot
    assert game.state.positions.get(pawn) == 2


def test_minerva_rulebook_example_three_shields_move_the_pawn_only_two_spaces():
    # Rulebook: Minerva stands in the way; a 3-shield card moves the conflict pawn 2 spaces, then
    # the Minerva pawn is discarded (the last shield is lost).
    game = pantheon_game(age=2)
    activate(game, "Minerva")
    answer(game, 3)
    set_turn(game, 0)
    set_coins(game, 0, 8)
    put_accessible(game, "Courthouse")
    game.apply(act("build", "Courthouse"))                # 3 shields
    assert game.state.pawn == 2
    assert game.state.loc[minerva_pawn(game)] != game.track_slot   # discarded once it stopped the pawn


def test_minerva_on_own_capital_prevents_a_military_victory():
    game = pantheon_game(age=2)
    activate(game, "Minerva")
    answer(game, -9)                                      # player 0's own capital (FAQ: allowed)
    set_pawn(game, -7)
    activate(game, "Mars", player=1, space=0)             # -7 -> -8, then Minerva stops the pawn
    assert game.state.pawn == -8
    assert not game.over


def test_neptune_discards_one_token_unused_and_applies_another_for_you():
    # Rulebook example: discard the token that could cost you 5 coins, apply the one that makes the
    # opponent lose 5.
    game = pantheon_game(age=2)
    set_coins(game, 1, 9)
    activate(game, "Neptune", coins=3)
    tokens = ["Looting 2 (first player's side)", "Looting 5 (first player's side)",
              "Looting 2 (second player's side)", "Looting 5 (second player's side)"]
    assert sorted(options(game)) == sorted(tokens)
    answer(game, "Looting 5 (first player's side)")
    assert game.state.coins == [0, 9]                     # discarded unused
    assert sorted(options(game)) == sorted(t for t in tokens if t != "Looting 5 (first player's side)")
    answer(game, "Looting 5 (second player's side)")
    assert game.state.coins == [0, 4]
    track = [game.name(i) for i in game.state.zones[game.track_slot]]
    assert "Looting 5 (first player's side)" not in track and "Looting 5 (second player's side)" not in track
    assert game.state.pawn == 0


def test_neptune_may_apply_a_token_from_own_side_against_the_opponent():
    # FAQ: Neptune lets you pick any two military tokens, your own side's too.
    game = pantheon_game(age=2)
    set_coins(game, 1, 9)
    activate(game, "Neptune", coins=3 + 4)
    answer(game, "Looting 2 (second player's side)")
    answer(game, "Looting 2 (first player's side)")       # lies on player 0's own side
    assert game.state.coins == [4, 7]                      # the opponent loses, not the activator
