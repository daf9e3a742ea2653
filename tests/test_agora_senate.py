"""Agora: the Senate (cubes, majority control, decrees that work for the controller, face-down
decrees, political supremacy, chamber VP), the shield decree and Agora's military tokens.

Rules: Dutch Agora rulebook shared/seeds/004 (D. Een vak beheren, E. Politieke Overheersing,
symbol pages); facts shared/reference/duel-agora.yaml; clarifications
shared/reference/duel-expansions-NOTES.md section 3.  Chambers are spaces 0..5."""

from __future__ import annotations

from agora_positions import (CHAMBER_POINTS, MILITARY, act, add_cubes, agora_game, answer, any_card, control,
                             decrees, give, is_hidden, leave_only, move_cube, names, offered, put_accessible,
                             recruit, remove_cubes, senate, set_coins, set_decree, set_pawn, set_senate, set_turn,
                             supply, total, where)
from rulesdsl.interpreter.observation import observe


# -- cubes and control ----------------------------------------------------------------------------

def test_twelve_cubes_each_and_an_empty_senate_at_the_start():
    game = agora_game(clean=False)
    assert supply(game, 0) == supply(game, 1) == 12
    assert senate(game) == [[0] * 6, [0] * 6]
    assert control(game) == [-1] * 6


def test_strict_majority_controls_a_tie_controls_nothing():
    game = agora_game()
    add_cubes(game, 0, 2)
    assert control(game) == [-1, -1, 0, -1, -1, -1]
    assert supply(game, 0) == 11
    add_cubes(game, 1, 2)                       # 1 - 1: nobody
    assert control(game)[2] == -1
    add_cubes(game, 1, 2)                       # 1 - 2: player 1
    assert control(game)[2] == 1
    add_cubes(game, 0, 2, 2)                    # 3 - 2: player 0 again
    assert control(game)[2] == 0
    remove_cubes(game, 0, 2)                    # 2 - 2
    assert control(game)[2] == -1
    assert senate(game) == [[0, 0, 2, 0, 0, 0], [0, 0, 2, 0, 0, 0]]
    assert supply(game, 0) == 10 and supply(game, 1) == 10


def test_a_chamber_holds_any_number_of_cubes():
    game = agora_game()
    add_cubes(game, 0, 4, 9)
    assert senate(game)[0] == [0, 0, 0, 0, 9, 0] and supply(game, 0) == 3


def test_no_cube_can_be_placed_with_an_empty_supply():
    game = agora_game()
    set_senate(game, [5, 0, 7, 0, 0, 0], [0, 0, 0, 0, 0, 0])
    assert supply(game, 0) == 0
    add_cubes(game, 0, 4)                       # the verb itself refuses
    assert senate(game)[0] == [5, 0, 7, 0, 0, 0] and supply(game, 0) == 0
    # A conspirator's "place 1 cube" then offers no chamber: the turn simply ends.
    recruit(game, "Conspirator A")
    answer(game, "influence")
    assert game.state.pending is None and game.state.current == 1
    assert senate(game)[0] == [5, 0, 7, 0, 0, 0] and supply(game, 0) == 0


# -- decrees work for the controller only -----------------------------------------------------------

def _discard(game, player):
    set_turn(game, player)
    before = game.state.coins[player]
    game.apply(act("discard", any_card(game)))
    return game.state.coins[player] - before


def test_discard_bonus_decree_gives_2_more_coins_only_to_the_controller():
    game = agora_game()
    set_decree(game, 3, "Decree: discard bonus")
    assert _discard(game, 0) == 2               # nobody controls chamber 3
    add_cubes(game, 0, 3)
    assert control(game)[3] == 0
    assert _discard(game, 0) == 4
    assert _discard(game, 1) == 2               # the opponent gets no bonus
    add_cubes(game, 1, 3)                       # tie: the decree works for nobody
    assert _discard(game, 0) == 2
    add_cubes(game, 1, 3)                       # now player 1 controls it
    assert _discard(game, 1) == 4 and _discard(game, 0) == 2


def test_discard_bonus_adds_to_the_yellow_card_coins():
    game = agora_game()
    set_decree(game, 0, "Decree: discard bonus")
    give(game, 0, "Tavern", "Stone Reserve")
    add_cubes(game, 0, 0)
    assert _discard(game, 0) == 2 + 2 + 2


def _build(game, player, card):
    set_turn(game, player)
    put_accessible(game, card)
    game.apply(act("build", card))


def test_blue_coins_decree_pays_the_controller_age_coins_when_either_player_builds_blue():
    game = agora_game()
    set_decree(game, 4, "Decree: blue coins")
    _build(game, 0, "Theater")                  # nobody controls chamber 4 yet
    assert game.state.coins == [7, 7]
    add_cubes(game, 0, 4)
    _build(game, 0, "Altar")                    # the controller builds blue: +1 (Age I)
    assert game.state.coins == [8, 7]
    set_coins(game, 1, 10)
    _build(game, 1, "Baths")                    # the opponent builds blue (buys a stone for 2): +1 for player 0
    assert game.state.coins == [9, 8]
    _build(game, 1, "Lumber Yard")              # not blue: nothing
    assert game.state.coins == [9, 8]


def test_blue_coins_decree_pays_the_current_age():
    game = agora_game(age=2)
    set_decree(game, 4, "Decree: blue coins")
    add_cubes(game, 1, 4)
    give(game, 0, "Clay Pool", "Clay Pit")
    _build(game, 0, "Statue")                   # 2 clay, produced
    assert game.state.coins == [7, 9]


# -- face-down decrees ---------------------------------------------------------------------------------

def test_decrees_face_up_in_chambers_0_2_4_face_down_in_1_3_5_until_a_cube_is_placed():
    for seed in range(5):
        game = agora_game(seed=seed, clean=False)
        laid = decrees(game)
        assert sorted(laid) == [0, 1, 2, 3, 4, 5] and all(len(v) == 1 for v in laid.values())
        assert len(set(n for v in laid.values() for n in v)) == 6
        assert len(names(game, "box")) >= 10 and not names(game, "decree_deck")
        for space, (name,) in laid.items():
            assert is_hidden(game, name) == (space in (1, 3, 5)), (seed, space, name)
        obs = observe(game, 0)
        shown = obs["zones"]["decrees"]
        for space, (name,) in laid.items():
            if space in (1, 3, 5):
                assert name not in shown and name not in obs["positions"]
            else:
                assert name in shown and obs["positions"][name] == space
        assert sum(1 for n in shown if n.startswith("face down")) == 3
        # A cube placed (by either player) in chamber 3 turns its decree up; 1 and 5 stay down.
        add_cubes(game, 1, 3)
        (d3,) = laid[3]
        assert not is_hidden(game, d3)
        assert d3 in observe(game, 0)["zones"]["decrees"] and d3 in observe(game, 1)["zones"]["decrees"]
        assert is_hidden(game, laid[1][0]) and is_hidden(game, laid[5][0])


def test_a_decree_that_works_is_never_face_down_a_cube_moved_in_turns_it_up():
    # Rulebook: the decree of a controlled chamber works for its controller; a cube that arrives
    # by a move gives control as well as a placed one, so the decree must be face up then
    # (A2 reveals a decree when control is gained).
    game = agora_game()
    set_decree(game, 1, "Decree: discard bonus", face_down=True)
    add_cubes(game, 0, 0)
    move_cube(game, 0, 0, 1)
    assert control(game)[1] == 0
    assert _discard(game, 0) == 4               # the decree works ...
    assert not is_hidden(game, "Decree: discard bonus"), "a controlled chamber's decree is still face down"


# -- political supremacy ----------------------------------------------------------------------------

def test_political_supremacy_controlling_all_6_chambers_wins_at_once():
    game = agora_game()
    set_senate(game, [1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0])
    assert not game.over
    add_cubes(game, 0, 5)
    assert game.over and game.state.winner == 0 and game.state.victory == "political"


def test_political_supremacy_through_a_politician_in_the_middle_of_a_turn():
    game = agora_game()
    set_senate(game, [0, 0, 0, 0, 0, 0], [1, 1, 0, 1, 1, 1])
    give(game, 1, "Theater", "Altar")           # 2 blue cards: 2 Senate actions
    set_turn(game, 1)
    recruit(game, "Politician (middle) A")
    answer(game, "place", 2)
    assert game.over and game.state.winner == 1 and game.state.victory == "political"
    assert game.state.pending is None


def test_political_supremacy_goes_to_the_player_not_on_turn_when_a_move_hands_them_a_chamber():
    # "Beheer jij op enig moment ... alle 6 vakken": player 0 moves its cube out of a tied chamber
    # (a politician's move), player 1 now controls all six and wins at once, on player 0's turn.
    game = agora_game()
    set_senate(game, [1, 0, 0, 0, 0, 0], [1, 2, 1, 1, 1, 1])
    assert control(game) == [-1, 1, 1, 1, 1, 1]
    recruit(game, "Politician (left) A")
    answer(game, "move", 0, 1)
    assert control(game) == [1] * 6
    assert game.over and game.state.winner == 1 and game.state.victory == "political"


def test_five_chambers_and_a_tie_is_no_supremacy():
    game = agora_game()
    set_senate(game, [1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 1])
    add_cubes(game, 0, 5)
    assert not game.over and control(game) == [0, 0, 0, 0, 0, -1]


# -- chamber VP ------------------------------------------------------------------------------------

def test_senate_vp_1_2_3_3_2_1_for_controlled_chambers():
    game = agora_game()
    set_senate(game, [2, 0, 1, 1, 0, 3], [1, 1, 0, 1, 2, 0])
    assert control(game) == [0, 1, 0, -1, 1, 0]
    assert game.score(0)["senate"] == 1 + 3 + 1
    assert game.score(1)["senate"] == 2 + 2
    set_senate(game, [1] * 6, [0] * 6)
    assert game.score(0)["senate"] == sum(CHAMBER_POINTS) == 12
    assert game.score(1)["senate"] == 0


def test_senate_vp_count_in_the_final_score():
    game = agora_game(age=3)
    set_senate(game, [0, 0, 2, 2, 0, 0], [0, 0, 0, 0, 0, 0])          # chambers 2 and 3: 6 VP
    set_coins(game, 0, 0)
    set_coins(game, 1, 0)
    last = game.name(game.accessible()[0])
    leave_only(game, last)
    game.apply(act("discard", last))            # the last card of Age III: the game ends
    assert game.over and game.state.victory == "civilian"
    assert game.score(0)["senate"] == 6 and game.score(1).get("senate", 0) == 0
    # Nothing else was scored by anyone (no cities, no wonders, pawn in the middle, no coins).
    assert total(game, 0) == 6 and total(game, 1) == 0
    assert game.state.winner == 0


# -- the shield decree -------------------------------------------------------------------------------

def test_shield_decree_gaining_control_moves_the_pawn_1_towards_the_opponent():
    game = agora_game()
    set_decree(game, 2, "Decree: shield")
    add_cubes(game, 0, 2)
    assert game.state.pawn == 1
    add_cubes(game, 0, 2)                       # still in control: nothing more
    assert game.state.pawn == 1


def test_shield_decree_losing_control_to_a_tie_moves_it_1_back():
    game = agora_game()
    set_decree(game, 2, "Decree: shield")
    add_cubes(game, 1, 2)
    assert game.state.pawn == -1
    add_cubes(game, 0, 2)                       # tie
    assert control(game)[2] == -1 and game.state.pawn == 0


def test_shield_decree_taken_over_by_the_opponent_moves_it_2_towards_the_old_controller():
    game = agora_game()
    set_decree(game, 3, "Decree: shield")
    add_cubes(game, 0, 3)                       # player 0 controls: pawn 1 towards player 1
    assert game.state.pawn == 1
    give(game, 1, "Theater", "Altar")           # 2 blue: 2 Senate actions
    set_turn(game, 1)
    recruit(game, "Politician (middle) B")
    answer(game, "place", 3, "place", 3)        # 1 - 2: player 1 takes the chamber over
    assert control(game)[3] == 1
    assert game.state.pawn == -1                # 2 spaces towards player 0
    assert game.state.pending is None and game.state.current == 0


def test_shield_decree_loss_can_give_military_supremacy_to_the_player_not_on_turn():
    game = agora_game()
    set_decree(game, 0, "Decree: shield")
    set_senate(game, [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0])
    set_pawn(game, -8)                          # player 1 is 8 ahead (player 0 controls the shield)
    move_cube(game, 0, 0, 1)                    # player 0 gives chamber 0 up
    assert game.over and game.state.winner == 1 and game.state.victory == "military"


# -- military tokens -----------------------------------------------------------------------------

def test_agora_military_tokens_replace_the_base_ones():
    game = agora_game(clean=False)
    assert sorted(names(game, "track")) == sorted(MILITARY.values())
    assert not any("Looting" in it.name for it in game.content.items)


def _push(game, player, card="Guard Tower"):
    """The player builds a 1-shield card (free)."""
    _build(game, player, card)


def test_small_military_token_places_a_cube_anywhere_and_no_coins_are_lost():
    game = agora_game()
    set_pawn(game, 2)
    _push(game, 0)                              # pawn to 3 on player 1's half
    assert game.state.pawn == 3
    assert game.state.pending is not None and game.state.pending.player == 0
    assert offered(game) == ["0", "1", "2", "3", "4", "5"]
    answer(game, 5)
    assert senate(game)[0] == [0, 0, 0, 0, 0, 1]
    assert game.state.coins == [7, 7]           # nobody loses coins
    assert where(game, MILITARY[(1, "small")]) == ("nowhere", None)
    assert where(game, MILITARY[(0, "small")]) == ("track", None)
    assert game.state.current == 1


def test_small_military_token_of_the_first_players_side_is_for_the_second_player():
    game = agora_game()
    set_pawn(game, -2)
    _push(game, 1)
    assert game.state.pending is not None and game.state.pending.player == 1
    answer(game, 0)
    assert senate(game)[1] == [1, 0, 0, 0, 0, 0] and game.state.coins == [7, 7]
    assert where(game, MILITARY[(0, "small")]) == ("nowhere", None)


def test_large_military_token_removes_an_opponent_cube_then_you_may_move_one():
    game = agora_game()
    set_senate(game, [1, 0, 0, 0, 0, 0], [0, 0, 2, 0, 1, 0])
    set_pawn(game, 5)
    _push(game, 0)                              # pawn to 6
    assert game.state.pawn == 6
    assert offered(game) == ["2", "4"]          # chambers with an opponent cube
    answer(game, 4)
    assert senate(game)[1] == [0, 0, 2, 0, 0, 0] and supply(game, 1) == 10
    assert offered(game) == ["move", "pass"]
    answer(game, "move", 0, 1)
    assert senate(game)[0] == [0, 1, 0, 0, 0, 0]
    assert game.state.coins == [7, 7]
    assert where(game, MILITARY[(1, "large")]) == ("nowhere", None)


def test_large_military_token_the_move_is_optional():
    game = agora_game()
    set_senate(game, [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1])
    set_pawn(game, -5)
    _push(game, 1)
    answer(game, 0)                             # player 1 removes player 0's only cube
    answer(game, "pass")
    assert senate(game) == [[0] * 6, [0, 0, 0, 0, 0, 1]]
    assert game.state.pending is None and game.state.current == 0


def test_shield_decree_pushing_the_pawn_into_a_token_zone_applies_the_token():
    game = agora_game()
    set_decree(game, 5, "Decree: shield")
    set_pawn(game, 2)
    recruit(game, "Conspirator C")
    answer(game, "influence", 5)                # control of chamber 5: pawn 2 -> 3
    assert game.state.pawn == 3
    assert game.state.pending is not None and game.state.pending.player == 0
    answer(game, 1)                             # the small token: a cube anywhere
    assert senate(game)[0] == [0, 1, 0, 0, 0, 1]
    assert game.state.pending is None and game.state.current == 1
