"""Coins lying on a seat's items pay for a build as its treasury does (`economy.spend`), in a game
whose seats buy from their neighbours too: the ways to pay a neighbour are offered against them.
(Before, the price's check let the build through on them, but its payments were weighed against
the treasury alone: none was offered, the action named with its payment was refused as "not a
way to pay", and a random draw of that build looked for one of no payments for ever.)

The position: the classic game at 3 players, seat 0 (Gizah, Day: stone) with no coins in its
treasury and 4 on its board; "Barracks" costs an ore, which seat 1 (Rhodos, Day) sells for 2."""

from __future__ import annotations

import random

from classic_positions import act, classic_game, names, pays, play_round, set_board, set_coins, set_hand, slot_of
from test_runaway_input import within

P0, P1, P2 = 0, 1, 2


def position():
    game = classic_game(3)
    for p, board in ((P0, "Gizah (Day)"), (P1, "Rhodos (Day)"), (P2, "Ephesos (Day)")):
        set_board(game, p, board)
    set_hand(game, P0, "Barracks", "Altar", "Theater", "Baths", "Scriptorium", "Guard Tower", "Temple")
    set_coins(game, P0, 0)
    board = game.state.zones[slot_of(game, "board", P0)][0]
    game.state.item_coins[board] = 4
    return game, board


def test_coins_on_items_pay_a_neighbour():
    game, board = position()
    assert pays(game, P0, "build", "Barracks") == {((P1, 2),)}
    coins = list(game.state.coins)
    others = {p: next(a for a in game.legal_actions(p) if a.name == "sell") for p in (P1, P2)}
    play_round(game, {P0: act("build", "Barracks", pay=((P1, 2),)), **others})
    assert "Barracks" in names(game, "city", P0)
    # 2 of the 4 coins on the board paid seat 1 (who also sold a card: 3 coins).
    assert game.state.item_coins[board] == 2
    assert game.state.coins == [0, coins[P1] + 3 + 2, coins[P2] + 3]


def test_a_random_draw_of_the_build_names_its_payment():
    game, _ = position()
    # (within a bound of processor time: the draw that looked for ever is not to hold the run)
    drawn = within(20, lambda: {game.random_action(random.Random(seed), seat=P0) for seed in range(40)})
    assert act("build", "Barracks", pay=((P1, 2),)) in drawn
