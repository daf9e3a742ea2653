"""Each item's price to a seat, written for the content (interpreter/pricing.py), is what
`economy._priced` works out: for every item and seat after every action of seeded random games
of every bundled content set, with the same unit prices kept by both; and a game priced the
written way plays what one priced the generic way plays, with the same kept prices.  So is the
bank's price of a resource, its formula written in (`pricing.bank_price_of`), what
`economy.trade_price` works out, the formulas of the bundled games and ones read from a frame.
And the written turn, which prices a drawn build with `economy.price`'s lines written in,
draws, builds and keeps prices as the generic draw and `economy.price` do."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from card_folders import copy_with
from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl.interpreter import Action, core, economy, legality, pricing
from rulesdsl.pipeline import load_ruleset
from test_arrivals import kept
from test_open_spaces import plain_open_spaces


def unit_prices(game) -> tuple:
    return ([None if p is None else list(p) for p in game._prices],
            [None if f is None else list(f) for f in game._trade_formula])


def every_price(game, written: bool) -> tuple:
    """Every seat's price of every item, worked out afresh on a copy (the game's kept prices of
    items left alone), and the unit prices the copy keeps after."""
    copy = game.clone()
    items = copy.content.items
    out = []
    for p in copy.seats:
        s = economy.stats(copy, p)
        for it in items:
            out.append(copy._priced[it.id](copy, p, s) if written else economy._priced(copy, p, it, s))
    return out, unit_prices(copy)


@pytest.mark.parametrize("name", list(SETS))
def test_a_written_price_is_the_generic_price_of_every_item_to_every_seat(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    for seed in range(2 if players and players > 3 else 3):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        actions = 0
        while not game.over:
            written = every_price(game, written=True)
            assert written == every_price(game, written=False), (seed, actions)
            game._apply(game.random_action(rng))
            actions += 1
        assert actions > 15


def bank_prices(game, written: bool) -> tuple:
    """Every seat's bank price of every resource, worked out afresh on a copy (no unit price
    kept), and the unit prices the copy keeps after."""
    copy = game.clone()
    copy._prices = [None] * len(copy._prices)
    copy._trade_formula = [None] * len(copy._trade_formula)
    bank = copy._bank_price if written else economy.trade_price
    out = [bank(copy, p, r) for p in copy.seats for r in range(len(copy.content.resources))]
    return out, unit_prices(copy)


def assert_bank_prices_alike(rules, seeds: range) -> None:
    """The bank's written price is `economy.trade_price`'s after every action of seeded games."""
    for seed in seeds:
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        actions = 0
        while not game.over:
            assert bank_prices(game, written=True) == bank_prices(game, written=False), (seed, actions)
            game._apply(game.random_action(rng))
            actions += 1


@pytest.mark.parametrize("name", list(SETS))
def test_the_written_bank_price_is_the_generic_one_to_every_seat(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    assert_bank_prices_alike(rules, range(2))
    if rules.content.trade_price is not None:   # (the formula written in: no frame read)
        assert "_pricing" not in rules.new_game(seed=0)._bank_price.source


DUEL = Path(__file__).resolve().parent.parent / "cards" / "duel"
DUEL_FORMULA = "trade_price 2 + production(resource, owner=opponent, color=[brown, grey])"


@pytest.mark.parametrize("formula", [
    "trade_price production(resource, owner=all, color=[brown, grey])",   # (a function of no source)
    "trade_price 1 + production(resource, owner=all, color=[brown, grey])",   # (one calling such a function)
])
def test_a_bank_price_formula_read_from_its_frame_is_written_alike(tmp_path, formula):
    rules = load_ruleset((), str(copy_with(DUEL, tmp_path / "duel", DUEL_FORMULA, formula)))
    written = rules.new_game(seed=0)._bank_price.source
    assert "_pricing" in written
    assert_bank_prices_alike(rules, range(2))


def played(rules, seed: int, written: bool) -> list:
    """The state and the kept values after every action of a random game."""
    game = rules.new_game(seed=seed)
    if not written:
        game._priced = [pricing.generic(i, rules.content) for i in range(len(rules.content.items))]
        game._bank_price = economy.trade_price
    return after_each_action(game, seed, lambda game: (saved(game), kept(game)))


@pytest.mark.parametrize("name", list(SETS))
def test_a_game_priced_the_written_way_plays_what_the_generic_way_plays(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    for seed in range(3):
        assert played(rules, seed, written=True) == played(rules, seed, written=False), seed


def test_every_item_is_written_once_per_shape_and_makes_no_cells():
    rules = load_ruleset(("agora", "pantheon"), "duel", None)
    game = rules.new_game(seed=1)
    written = game._priced
    assert len(written) == len(rules.content.items)
    assert all(priced.__code__.co_cellvars == () for priced in written)
    # (one function per shape of price, its values given: far fewer shapes than items)
    assert len({priced.source for priced in written}) < len(written) // 5
    assert written is rules.new_game(seed=2)._priced


@pytest.mark.parametrize("name", list(SETS))
def test_every_item_that_changes_prices_is_priced_the_generic_way_too(name):
    """Random games meet few of the items that change what a seat pays (a chain's price, chains
    borrowed from neighbours, discounts, one-of production), and rarely while much is left to
    price: each is brought into seat 0's city by hand, midway through a game, and every price
    compared; then again with every item that gives chains in the next seat's city (for chains
    borrowed)."""
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    changing = [it.id for it in rules.content.items if it.has_price_statics or it.produce_one_of]
    assert changing
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        game._apply(game.random_action(rng))
    givers = [it.id for it in rules.content.items if it.chain_gives]
    for item in changing:
        for lent in ([], givers):
            copy = game.clone()
            for giver in lent:
                if giver != item:
                    core.relocate(copy, giver, copy.active_slots[1][0])
            core.relocate(copy, item, copy.active_slots[0][0])
            assert every_price(copy, written=True) == every_price(copy, written=False), rules.content.items[item].name


def test_a_discount_in_a_game_of_neighbour_trade_is_priced_alike_both_ways():
    """The classic game with a lodge discounting blue cards (tests/test_neighbour_discounts.py):
    every item's price to every seat, the lodges in seat 0's city, with and without its own
    stone and a cheaper side, the written way and the generic way alike; and the discount
    reached the written price (the blue cards cost less than without the lodge)."""
    from classic_positions import give
    from test_neighbour_discounts import P0, lodge_game, price
    plain = price(lodge_game(0), "Lodge Shrine")
    for lodges in (1, 2):
        for more in ((), ("Stone Pit",), ("West Trading Post",)):
            game = lodge_game(lodges)
            give(game, P0, *more)
            assert every_price(game, written=True) == every_price(game, written=False), (lodges, more)
            assert price(game, "Lodge Shrine")[0] < plain[0]


def turn_checked(game, rng: random.Random) -> int:
    """Play `game` out, each seat's turn through the written turn (`Game._turn`, as `play_out`
    starts it) with `rng`'s numbers, checking at each turn that it starts the action the generic
    draw (`legality.draw_among` over the plain open actions) picks from the same numbers, and
    after it that the game is what that action applied to a copy keeping no price makes of it,
    and that every price it kept is `economy.price`'s on a copy that keeps none (the turn prices
    a drawn build with `economy.price`'s lines written in, and `economy.build` reads the price
    kept).  How many turns."""
    turns = 0
    while not game.over:
        st = game.state
        if st.pending is not None or st.flow == "round":
            game._apply(game.random_action(rng))
            continue
        me = st.current
        twin = random.Random()
        twin.setstate(rng.getstate())
        copy = game.clone()
        plain = [(copy.action_by_name[name], pools, size) for name, pools, size in plain_open_spaces(copy, me)[0]]
        expected = legality.draw_among(copy, me, twin.randrange, plain, sum(n for *_, n in plain))
        unkept = game.clone()   # (the action applied with nothing kept: every price from `economy.price`)
        core.clear_caches(unkept)
        drawn = len(st.history)
        game.steps_left = game.max_steps
        game._turn(game, me, legality.below_of(rng))
        entry = st.history[drawn]
        assert Action(entry[0], tuple(entry[1:])) == expected and rng.getstate() == twin.getstate(), st.turn
        unkept._apply(expected)
        assert saved(game) == saved(unkept), st.turn
        fresh = game.clone()
        core.clear_caches(fresh)
        for p in game.seats:
            for item, price in list(game._price_cache[p].items()):
                assert price == economy.price(fresh, p, item), (st.turn, p, game.content.items[item].name)
        turns += 1
    return turns


# (the sets whose seats take turns and trade with the bank alone: those with a written turn)
TURNS = [name for name in SETS if SETS[name][1] == "duel"]


@pytest.mark.parametrize("name", TURNS)
def test_the_written_turn_prices_a_drawn_build_as_economy_price_does(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    turns = 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        assert game._turn is not None
        turns += turn_checked(game, random.Random(seed))
    assert turns > 100


def test_a_discount_hands_the_generic_way_only_the_items_it_reaches(monkeypatch):
    """A seat holding a discount prices the items no discount of its reaches (by kind and
    colour) the written way, with no call of `economy._cost`, coin formulas read in the written
    lines, and hands `_cost` those one reaches: every price what `economy._priced` works out."""
    rules = load_ruleset(*SETS["agora+pantheon"])
    items = rules.content.items
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        game._apply(game.random_action(rng))
    priced = [it for it in items if it.cost is not None and not it.chain_from]
    assert any(it.cost.coins_fn is not None for it in priced)
    generic_cost = economy._cost
    handed: list[int] = []
    reached_seen = unreached_seen = 0
    for giver in [it.id for it in items if it.discounts]:
        copy = game.clone()
        core.relocate(copy, giver, copy.active_slots[0][0])
        s = economy.stats(copy, 0)
        assert s.discounts
        for it in priced:
            expected = economy._priced(copy, 0, it, s)
            handed.clear()
            monkeypatch.setattr(economy, "_cost", lambda g, p, it, s: handed.append(it.id) or generic_cost(g, p, it, s))
            assert copy._priced[it.id](copy, 0, s) == expected, (items[giver].name, it.name)
            monkeypatch.setattr(economy, "_cost", generic_cost)
            reached = any((kind is None or kind == it.kind) and (color is None or color == it.color)
                          for _, kind, color, _ in s.discounts)
            assert handed == ([it.id] if reached else []), (items[giver].name, it.name)
            reached_seen += reached
            unreached_seen += not reached
    assert reached_seen > 10 and unreached_seen > 100


@pytest.mark.parametrize("formula", [-4, -1, 0, 1, 6])
def test_a_written_coin_formula_below_zero_adds_nothing_as_the_generic_way(formula):
    """The written coin cost clamps its formula at 0 with a test, not `max` (issue 12): every item
    with a coin formula, given one that reads `formula`, is priced what `economy._priced` works
    out, whose `max(0, ...)` adds nothing for a formula below 0."""
    import copy

    import attrs
    rules = load_ruleset(*SETS["agora+pantheon"])
    content = rules.content
    game = rules.new_game(seed=2)
    s = economy.stats(game, 0)
    formulas = [it for it in content.items if it.cost is not None and it.cost.coins_fn is not None]
    assert formulas
    for it in formulas:
        cost = attrs.evolve(it.cost, coins_fn=lambda g, reading: formula)
        item = copy.copy(it)
        item.cost = cost
        written = pricing._write(content, item)
        assert "max(" not in written.source
        price = written(game, 0, s)
        assert price == economy._priced(game, 0, item, s), it.name
        assert price[0] == cost.coins + (formula if formula > 0 else 0) + price[1], it.name
