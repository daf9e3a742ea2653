"""A `discount` in a game whose seats buy from their neighbours (`trade neighbours`): after the
seat's own production, that many of the units still missing are free, whichever the seat likes;
its ways to pay are those of every way to waive them, the dominated ones left out.  (Before, the
price was worked out without the discount: it did nothing, and nothing said so.)

The content: the classic game with a fan expansion (tests/data/classic_discount): "Masons'
Lodge" (yellow, `discount 1 color=blue`), two blue cards, "Lodge Shrine" (stone, clay) and
"Lodge Tower" (2 stone, clay), and a red one, "Lodge Fort" (stone, clay).  At 3 players seat 0
(Rhodos, Day: ore) has seat 1 (Gizah, Day: stone) on its left and seat 2 (Olympia, Day: clay)
on its right; a unit costs 2 coins."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.interpreter import economy
from rulesdsl.pipeline import new_game
from classic_positions import (CLASSIC, give, names, paying, pays, play_round, set_board, set_coins,
                               set_hand)

P0, P1, P2 = 0, 1, 2
LODGES = str(Path(__file__).resolve().parent / "data" / "classic_discount")
FILLER = ("Altar", "Theater", "Baths", "Scriptorium", "Guard Tower", "Temple", "Statue")


def lodge_game(*lodges: int):
    """Seat 0 with `lodges` copies of the lodge in its city (0, 1 or 2), the boards above, and a
    hand holding the three cards to build."""
    game = new_game([LODGES], base=CLASSIC, players=3, seed=0)
    for p, board in ((P0, "Rhodos (Day)"), (P1, "Gizah (Day)"), (P2, "Olympia (Day)")):
        set_board(game, p, board)
    for _ in range(lodges[0] if lodges else 0):
        give(game, P0, "Masons' Lodge")
    set_hand(game, P0, "Lodge Shrine", "Lodge Tower", "Lodge Fort", *FILLER[:4])
    set_coins(game, P0, 6)
    return game


def price(game, card: str) -> tuple[int, int, bool]:
    return game.price(P0, game.content.item_index[card])


def test_without_a_lodge_both_units_are_bought():
    game = lodge_game(0)
    # Stone from the left (2), clay from the right (2): one way.
    assert price(game, "Lodge Shrine") == (4, 4, False)
    assert pays(game, P0, "build", "Lodge Shrine") == {((P1, 2), (P2, 2))}
    # 2 stone: the left makes one, the right none: not to be had.
    assert price(game, "Lodge Tower")[0] >= economy.IMPOSSIBLE
    assert pays(game, P0, "build", "Lodge Tower") == set()


def test_the_unit_waived_is_the_seats_choice_and_decides_who_is_paid():
    game = lodge_game(1)
    # One of the two missing units is free: the stone (the clay bought on the right, 2) or
    # the clay (the stone bought on the left, 2).  Neither way pays each neighbour no more than
    # the other: both are offered; the price is the least, 2.
    assert price(game, "Lodge Shrine") == (2, 2, False)
    assert pays(game, P0, "build", "Lodge Shrine") == {((P1, 2),), ((P2, 2),)}
    item = game.content.item_index["Lodge Shrine"]
    assert economy._bought(game, P0, item, ((P1, 2),)) == [(P1, "stone", 2)]
    assert economy._bought(game, P0, item, ((P2, 2),)) == [(P2, "clay", 2)]


def test_a_cheaper_side_makes_both_ways_still_offered_at_their_prices():
    game = lodge_game(1)
    give(game, P0, "West Trading Post")   # stone from the left at 1
    # Waive the clay: the stone from the left, 1.  Waive the stone: the clay from the right, 2.
    # The first pays the left more, the second the right: both offered, the cheaper first.
    assert price(game, "Lodge Shrine") == (1, 1, False)
    assert pays(game, P0, "build", "Lodge Shrine") == {((P1, 1),), ((P2, 2),)}
    item = game.content.item_index["Lodge Shrine"]
    assert [pay for _, pay in economy.payment_options(game, P0, item)] == [((P1, 1),), ((P2, 2),)]


def test_a_unit_no_neighbour_sells_may_be_the_one_waived():
    game = lodge_game(1)
    # 2 stone and a clay, the left selling one stone: waiving a stone leaves a stone (left, 2)
    # and the clay (right, 2); waiving the clay leaves 2 stone, which cannot be had.
    assert price(game, "Lodge Tower") == (4, 4, False)
    assert pays(game, P0, "build", "Lodge Tower") == {((P1, 2), (P2, 2))}


def test_own_production_comes_first():
    game = lodge_game(1)
    give(game, P0, "Stone Pit")
    # Its own stone leaves a stone and the clay of the tower missing: one free, as above.
    assert price(game, "Lodge Tower") == (2, 2, False)
    assert pays(game, P0, "build", "Lodge Tower") == {((P1, 2),), ((P2, 2),)}


def test_two_lodges_make_both_units_free():
    game = lodge_game(2)
    assert price(game, "Lodge Shrine") == (0, 0, False)
    assert pays(game, P0, "build", "Lodge Shrine") == {()}


def test_a_card_of_another_colour_gets_no_discount():
    game = lodge_game(2)
    assert price(game, "Lodge Fort") == (4, 4, False)
    assert pays(game, P0, "build", "Lodge Fort") == {((P1, 2), (P2, 2))}


def test_the_neighbour_of_the_payment_chosen_gets_the_coins():
    for pay, left, right in ((((P1, 2),), 2, 0), (((P2, 2),), 0, 2)):
        game = lodge_game(1)
        coins = list(game.state.coins)
        others = {p: next(a for a in game.legal_actions(p) if a.name == "sell") for p in (P1, P2)}
        play_round(game, {P0: paying(game, P0, "build", "Lodge Shrine", pay=pay), **others})
        assert "Lodge Shrine" in names(game, "city", P0)
        # (each neighbour also sold a card: 3 coins)
        assert game.state.coins == [coins[P0] - 2, coins[P1] + 3 + left, coins[P2] + 3 + right]
