"""Pantheon: the board and its activation action, the Gate, mythology and offering tokens on the
structure (Dutch rulebook shared/seeds/003; facts shared/reference/duel-pantheon.yaml)."""

from __future__ import annotations

import pytest

from rulesdsl.interpreter import new_game
from pantheon_positions import (BEGINNER, DECK_OF, GODS, MYTHOLOGIES, OFFERINGS, PANTHEON, act, answer, assert_illegal,
                                deck, give_token, item, leave_one_cover, names, options, pantheon, pantheon_game, price,
                                put_god, set_coins, set_deck, set_turn, set_wonders, structure_tokens, where)

MYTHOLOGY_TOKEN_NAMES = {f"{m.capitalize()} token {x}" for m in MYTHOLOGIES for x in "AB"}


def mythology_of_token(name: str) -> str:
    return name.split()[0].lower()


# -- the board and the activation action ----------------------------------------------------------------

def test_pantheon_board_prices_match_the_rulebook_board():
    game = pantheon_game(age=2)
    assert game.content.tables["pantheon_cost"] == [8, 7, 6, 5, 4, 3]
    assert game.content.zone("pantheon").spaces == 6


@pytest.mark.parametrize("space", range(6))
def test_each_player_pays_the_price_on_their_own_side(space):
    game = pantheon_game(age=2)
    expected = {0: [8, 7, 6, 5, 4, 3][space], 1: [3, 4, 5, 6, 7, 8][space]}
    for p in (0, 1):
        trial = game.clone()
        set_turn(trial, p)
        put_god(trial, "Tanit", space)
        set_coins(trial, p, expected[p] - 1)
        assert_illegal(trial, act("activate", "Tanit"))          # one coin short
        set_coins(trial, p, expected[p])
        trial.apply(act("activate", "Tanit"))
        assert trial.state.coins[p] == 12                          # paid exactly, then Tanit's 12
        assert names(trial, "gods", p) == ["Tanit"]
        assert space not in pantheon(trial)


def test_activation_is_not_possible_in_age_one():
    game = pantheon_game(age=1)
    put_god(game, "Mars", 5)
    put_god(game, "Gate", 4)
    set_coins(game, 0, 40)
    give_token(game, 0, "Offering 4")
    assert not [a for a in game.legal_actions() if a.name not in ("build", "discard", "wonder")]
    assert_illegal(game, act("activate", "Mars"))
    assert_illegal(game, act("activate_with_offering", "Mars", "Offering 4"))
    assert_illegal(game, act("open_gate", "Gate"))


@pytest.mark.parametrize("age", [2, 3])
def test_activation_is_a_fourth_action_from_age_two_and_takes_no_card(age):
    game = pantheon_game(age=age)
    put_god(game, "Mars", 5)
    set_coins(game, 0, 3)
    structure = list(game.state.structure)
    assert act("activate", "Mars") in game.legal_actions()
    game.apply(act("activate", "Mars"))
    assert game.state.structure == structure
    assert names(game, "gods", 0) == ["Mars"]
    assert game.state.pawn == 2
    assert game.state.current == 1


def test_an_unaffordable_activation_is_not_legal():
    game = pantheon_game(age=2)
    put_god(game, "Mars", 3)                  # 5 coins for player 0
    set_coins(game, 0, 4)
    reason = assert_illegal(game, act("activate", "Mars"))
    assert "5" in reason


def test_offering_rulebook_example_mars_for_an_offering_3_and_2_coins():
    # Rulebook: Mars on a space costing 5, paid with the -3 offering token and 2 coins; pawn moves 2.
    game = pantheon_game(age=2)
    put_god(game, "Mars", 3)
    assert price(0, 3) == 5
    set_coins(game, 0, 2)
    give_token(game, 0, "Offering 3")
    assert act("activate", "Mars") not in game.legal_actions()
    assert act("activate_with_offering", "Mars", "Offering 3") in game.legal_actions()
    game.apply(act("activate_with_offering", "Mars", "Offering 3"))
    assert game.state.coins[0] == 0
    assert game.state.pawn == 2
    assert "Offering 3" not in names(game, "tokens", 0)          # used up
    assert where(game, "Offering 3")[0] == "box"


def test_offering_gives_no_change():
    # FAQ: an offering token only lowers a cost; no coins come back.
    game = pantheon_game(age=2)
    put_god(game, "Mars", 5)                  # 3 coins for player 0
    set_coins(game, 0, 7)
    give_token(game, 0, "Offering 4")
    game.apply(act("activate_with_offering", "Mars", "Offering 4"))
    assert game.state.coins[0] == 7
    assert "Offering 4" not in names(game, "tokens", 0)


def test_only_own_offering_tokens_can_be_used():
    game = pantheon_game(age=2)
    put_god(game, "Mars", 3)
    set_coins(game, 0, 2)
    give_token(game, 1, "Offering 3")
    assert_illegal(game, act("activate_with_offering", "Mars", "Offering 3"))


@pytest.mark.parametrize("god", ["Baal", "Hades", "Anubis", "Isis", "Ra", "Nisaba", "Neptune", "Enki"])
def test_a_god_may_be_activated_when_its_effect_is_impossible(god):
    # FAQ: yes.  Nothing to take, build, discard or steal: the god is taken, the price paid.
    game = pantheon_game(age=2)
    st = game.state
    box = game.slot(game.content.zone_index["box"], 0)
    for zone, owners in (("city", (0, 1)), ("wonders", (0, 1)), ("discard", (0,))):
        for p in owners:
            for i in list(st.zones[game.slot(game.content.zone_index[zone], p)]):
                game.relocate(i, box)
    for i in [i for i in st.zones[game.track_slot] if game.content.items[i].kind == "military_token"]:
        game.relocate(i, -1)
    for i in list(st.zones[game.slot(game.content.zone_index["progress_deck"], 0)]):
        game.relocate(i, box)                                  # Enki: no set-aside token left
    put_god(game, god, 5)
    set_coins(game, 0, 3)
    assert act("activate", god) in game.legal_actions()
    game.apply(act("activate", god))
    assert names(game, "gods", 0) == [god]
    assert st.coins[0] == 0
    assert st.pending is None


# -- the Gate ---------------------------------------------------------------------------------------------

def test_the_gate_costs_twice_the_price_of_its_space():
    game = pantheon_game(age=2)
    put_god(game, "Gate", 3)
    for p in (0, 1):
        trial = game.clone()
        set_turn(trial, p)
        cost = 2 * price(p, 3)                 # player 0: 2 x 5, player 1: 2 x 6
        set_coins(trial, p, cost - 1)
        assert_illegal(trial, act("open_gate", "Gate"))
        set_coins(trial, p, cost)
        assert_illegal(trial, act("activate", "Gate"))          # the Gate has its own action
        trial.apply(act("open_gate", "Gate"))
        assert trial.state.coins[p] == 0
        assert trial.state.pending is not None and trial.state.pending.player == p


def test_the_gate_with_an_offering_token():
    game = pantheon_game(age=2)
    put_god(game, "Gate", 5)                   # 2 x 3 for player 0
    set_coins(game, 0, 2)
    give_token(game, 0, "Offering 4")
    game.apply(act("open_gate_with_offering", "Gate", "Offering 4"))
    assert game.state.coins[0] == 0
    assert "Offering 4" not in names(game, "tokens", 0)


def test_the_gate_reveals_the_top_god_of_each_deck_one_is_activated_free_the_others_go_back():
    game = pantheon_game(age=2)
    order = {m: gods for m, gods in MYTHOLOGIES.items()}      # the last is the top
    for m, gods in order.items():
        set_deck(game, f"{m}_gods", *gods)
    put_god(game, "Gate", 5)
    set_coins(game, 0, 6)
    game.apply(act("open_gate", "Gate"))
    tops = sorted(gods[-1] for gods in order.values())
    assert sorted(options(game)) == tops
    answer(game, "Tanit")
    assert game.state.coins[0] == 12                            # Tanit free, her effect applies
    assert sorted(names(game, "gods", 0)) == ["Gate", "Tanit"]
    assert "Gate" not in pantheon(game).values()
    for m, gods in order.items():
        expected = [g for g in gods if g != "Tanit"]
        assert deck(game, f"{m}_gods") == expected               # same order, back on top
    assert names(game, "revealed") == []
    assert game.state.current == 1


def test_the_gate_skips_an_empty_deck():
    game = pantheon_game(age=2)
    set_deck(game, "roman_gods")
    put_god(game, "Gate", 5)
    set_coins(game, 0, 6)
    game.apply(act("open_gate", "Gate"))
    assert len(options(game)) == 4
    assert not set(options(game)) & set(MYTHOLOGIES["roman"])


@pytest.mark.parametrize("via", ["Gate", "The Divine Theater"])
def test_enki_revealed_and_not_chosen_leaves_the_progress_tokens_alone(via):
    # FAQ: Enki revealed by the Gate or the Divine Theater and not chosen: its face-up tokens go back
    # with the set-aside ones: once the choice is made, the set-aside tokens are as they were.
    game = pantheon_game(age=2)
    set_deck(game, "mesopotamian_gods", "Ishtar", "Nisaba", "Enki")
    set_deck(game, "phoenician_gods", "Astarte", "Baal", "Tanit")
    before = sorted(deck(game, "progress_deck"))
    board = names(game, "board_tokens")
    if via == "Gate":
        put_god(game, "Gate", 5)
        set_coins(game, 0, 6)
        game.apply(act("open_gate", "Gate"))
    else:
        set_wonders(game, 0, "The Divine Theater")
        set_coins(game, 0, 30)
        game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
        answer(game, "mesopotamian")
    assert "Enki" in options(game)
    answer(game, "Ishtar" if via == "The Divine Theater" else "Tanit")
    if via == "The Divine Theater":
        answer(game, "Enki")                              # the one of the other two on top
    assert game.state.pending is None
    assert sorted(deck(game, "progress_deck")) == before
    assert names(game, "board_tokens") == board
    assert names(game, "enki_offer") == []
    assert sorted(deck(game, "mesopotamian_gods")) == (["Enki", "Nisaba"] if via == "The Divine Theater"
                                                       else ["Enki", "Ishtar", "Nisaba"])


@pytest.mark.parametrize("via", ["Gate", "The Divine Theater"])
@pytest.mark.parametrize("chosen", ["Enki", "other"])
def test_enki_turned_up_by_the_gate_or_the_theater_shows_its_tokens_before_the_choice(via, chosen):
    # Rulebook (003): "Wanneer Enki is omgedraaid trek je willekeurig 2 vooruitgang-fiches ... open
    # op de kaart van Enki gelegd"; FAQ: Enki turned up by the Gate or the Divine Theater and not
    # chosen, "de omgedraaide vooruitgang-fiches" go back.  So the player chooses among the gods
    # turned up seeing Enki's two tokens (they were drawn only once Enki had been chosen).
    import json
    from rulesdsl.interpreter.observation import observe
    game = pantheon_game(age=2)
    set_deck(game, "mesopotamian_gods", "Ishtar", "Nisaba", "Enki")
    set_deck(game, "phoenician_gods", "Astarte", "Baal", "Tanit")
    set_deck(game, "progress_deck", "Agriculture", "Philosophy", "Theology")
    if via == "Gate":
        put_god(game, "Gate", 5)
        set_coins(game, 0, 6)
        game.apply(act("open_gate", "Gate"))
        other = "Tanit"
    else:
        set_wonders(game, 0, "The Divine Theater")
        set_coins(game, 0, 30)
        game.apply(act("wonder", game.name(game.accessible()[0]), "The Divine Theater"))
        answer(game, "mesopotamian")
        other = "Ishtar"
    assert "Enki" in options(game) and other in options(game)
    offer = names(game, "enki_offer")
    assert len(offer) == 2 and set(offer) <= {"Agriculture", "Philosophy", "Theology"}
    for p in (0, 1):
        assert all(t in json.dumps(observe(game, p)) for t in offer)     # open, for both players
    answer(game, chosen if chosen == "Enki" else other)
    if chosen == "Enki":
        assert sorted(options(game)) == sorted(offer)                    # those, not others
        answer(game, offer[0])
        assert names(game, "tokens", 0) == [offer[0]]
    while game.state.pending is not None:                              # the Theater's order of the rest
        answer(game, options(game)[0])
    kept = [offer[0]] if chosen == "Enki" else []
    assert names(game, "enki_offer") == []
    assert sorted(deck(game, "progress_deck")) == sorted(t for t in ("Agriculture", "Philosophy", "Theology")
                                                         if t not in kept)


# -- mythology tokens (Age I) ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_age_one_five_random_mythology_tokens_on_the_face_down_slots(seed):
    game = new_game(expansions=PANTHEON, seed=seed, options=[BEGINNER])
    tokens = structure_tokens(game)
    assert sorted(tokens) == [2, 4, 9, 11, 13]
    assert set(tokens.values()) <= MYTHOLOGY_TOKEN_NAMES and len(set(tokens.values())) == 5
    assert not any(game.state.face_up[s] for s in tokens)
    assert names(game, "mythology_tokens") == []
    boxed = [n for n in names(game, "box") if n in MYTHOLOGY_TOKEN_NAMES]
    assert len(boxed) == 5 and not set(boxed) & set(tokens.values())
    assert pantheon(game) == {}


def test_the_tokens_on_the_structure_lie_face_up_for_both_players():
    # Rulebook (003, Voorbereiding): the mythology tokens are placed face down on the marked
    # cards, "draai daarna de fiches om" (then turned over); the offering tokens of Age II alike.
    # Every seat sees them: the observation, the RL vector, `play`; the search keeps them.
    import random
    from rulesdsl.interpreter.observation import observe
    from rulesdsl.interpreter.search import determinize
    from rulesdsl.play_view import render_game
    from rulesdsl.rl.encoding import Encoder
    game = new_game(expansions=PANTHEON, seed=3, options=[BEGINNER])
    tokens = structure_tokens(game)
    for p in (0, 1):
        shown = observe(game, p)["structure"]
        assert {s: e["on"] for s, e in enumerate(shown) if e and "on" in e} == {s: [t] for s, t in tokens.items()}
        screen = render_game(game, p)
        assert all(f"{t} on #{s}" in screen.replace("\n   ", " ") for s, t in tokens.items())
    enc = Encoder(game.content, game)
    items_at, width = enc.sections["items"][0], enc.width
    vec = enc.encode(game, 1)
    for slot, name in tokens.items():
        row = vec[items_at + width * item(game, name):][:width]
        assert row[enc.structure_place] == 1.0 and row[width - 3] == 1.0 and row[width - 2] == slot
    for k in range(5):
        again = determinize(game, 1, random.Random(k))
        assert structure_tokens(again) == tokens


def test_random_token_draws_vary_with_the_seed():
    seen = {tuple(sorted(structure_tokens(new_game(expansions=PANTHEON, seed=s, options=[BEGINNER])).values()))
            for s in range(10)}
    assert len(seen) > 1


@pytest.mark.parametrize("revealer,pick_top", [(0, False), (1, False), (0, True)])
def test_revealing_a_token_card_the_active_player_places_one_of_the_top_two_gods(revealer, pick_top):
    game = pantheon_game(age=1, starter=revealer)
    token = structure_tokens(game)[9]
    myth = mythology_of_token(token)
    a, b, c = MYTHOLOGIES[myth]
    set_deck(game, f"{myth}_gods", a, b, c)                       # c on top, then b
    other = next(g for g in GODS if DECK_OF[g] != f"{myth}_gods")
    put_god(game, other, 4)                                       # space 4 is taken
    last = leave_one_cover(game, 9)
    game.apply(act("discard", last))                              # uncovers slot 9 at the end of the turn
    st = game.state
    assert st.face_up[9]
    assert token in names(game, "tokens", revealer)               # the token is taken
    assert st.pending is not None and st.pending.player == revealer
    assert sorted(options(game)) == sorted([b, c])                # the top two gods of that mythology
    chosen, back = (c, b) if pick_top else (b, c)
    answer(game, chosen)
    assert options(game) == [0, 1, 2, 3, 5]                       # an empty space of the player's choice
    answer(game, 3)
    assert pantheon(game) == {3: chosen, 4: other}
    assert deck(game, f"{myth}_gods") == [a, back]                # the other back on top
    assert names(game, "revealed") == []
    assert st.pending is None and st.current == 1 - revealer      # then the turn ends


@pytest.mark.parametrize("revealer", [0, 1])
def test_the_two_gods_a_token_draws_are_seen_by_their_drawer_only(revealer):
    # Rulebook (003): "Trek onmiddellijk de bovenste twee god-kaarten", one goes face down
    # ("gesloten") on the Pantheon, the other face down back on its deck: drawn, not turned up.
    import json
    from rulesdsl.interpreter.observation import observe
    game = pantheon_game(age=1, starter=revealer)
    token = structure_tokens(game)[9]
    myth = mythology_of_token(token)
    a, b, c = MYTHOLOGIES[myth]
    set_deck(game, f"{myth}_gods", a, b, c)
    game.apply(act("discard", leave_one_cover(game, 9)))
    assert game.state.pending is not None and game.state.pending.player == revealer
    mine, theirs = (json.dumps(observe(game, p)) for p in (revealer, 1 - revealer))
    assert b in mine and c in mine
    assert b not in theirs and c not in theirs and a not in theirs
    answer(game, b)
    answer(game, 3)
    assert all(g not in json.dumps(observe(game, 1 - revealer)) for g in (a, b, c))


def play_age_one(game, avoid_space: int):
    """Play Age I by discarding; place gods on the lowest empty space other than `avoid_space`."""
    st = game.state
    taken = {0: [], 1: []}
    while st.age < 1:
        if st.pending is not None:
            opts = options(game)
            if st.pending.kind == "space":
                answer(game, next(o for o in opts if o != avoid_space))
            elif st.pending.kind == "player":
                answer(game, "p0")
            else:
                answer(game, opts[0])
            continue
        card = game.accessible()[0]
        game.apply(act("discard", game.name(card)))
    for p in (0, 1):
        taken[p] = [n for n in names(game, "tokens", p) if n in MYTHOLOGY_TOKEN_NAMES]
    return taken


@pytest.mark.parametrize("seed,empty", [(0, 2), (1, 0), (2, 5), (3, 3)])
def test_age_two_the_gate_goes_on_the_remaining_empty_space(seed, empty):
    game = new_game(expansions=PANTHEON, seed=seed, options=[BEGINNER])
    taken = play_age_one(game, avoid_space=empty)
    board = pantheon(game)
    assert sorted(board) == list(range(6))
    assert board[empty] == "Gate"
    gods = [n for s, n in board.items() if s != empty]
    # one god per mythology token taken, of that token's mythology
    mythologies = sorted(mythology_of_token(t) for t in taken[0] + taken[1])
    assert sorted(DECK_OF[g][:-5] for g in gods) == mythologies
    assert len(mythologies) == 5


# -- offering tokens (Age II) -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_age_two_three_offering_tokens_on_the_face_down_slots(seed):
    game = pantheon_game(age=2, seed=seed)
    tokens = structure_tokens(game)
    assert sorted(tokens) == [6, 8, 10]
    assert sorted(tokens.values()) == sorted(OFFERINGS.values())
    assert not any(game.state.face_up[s] for s in tokens)
    assert [item(game, n) for n in OFFERINGS.values()] and names(game, "offering_tokens") == []


@pytest.mark.parametrize("revealer", [0, 1])
def test_an_offering_token_is_taken_by_the_player_who_reveals_its_card(revealer):
    game = pantheon_game(age=2)
    set_turn(game, revealer)
    token = structure_tokens(game)[6]
    last = leave_one_cover(game, 6)
    game.apply(act("discard", last))
    assert game.state.face_up[6]
    assert names(game, "tokens", revealer) == [token]
    assert names(game, "tokens", 1 - revealer) == []
    assert game.state.pending is None and game.state.current == 1 - revealer
    assert 6 not in structure_tokens(game)
