"""What the engine keeps between decisions and updates as items move, instead of working it out
afresh, is what it would work out afresh: each seat's stats (what its items in play give, taken
in item by item as they arrive, `costs.add_item`, and forgotten when one leaves or a space
that rules items changes hands), each seat's price of each resource and of every item
(`economy.trade_price`, `economy.price`, kept until `core.dirty` says a change can reach them),
what a seat sells its neighbours (`trade.offer`, which takes an arriving item in through
`trade.offer_after_arrival`), the colour tally of each slot that `count(ZONE, color=...)`
reads (`selection.count_colors`, `count_color` for one colour, kept up to date by `core.relocate`), the items something
lies on (`zones.carries`, forgotten when an item comes to lie on one or leaves it), the items
that may lie on one, on a space or face down (`core.placed_items`), and the
values of expressions of a seat's `modify` amounts kept with its stats (`economy.kept_value`), and
the points that are numbers of each seat's items in play (`scoring.total`).  Checked after every action
of seeded random games: the kept values against a copy of the game that keeps nothing
(`unkept`), or against the slot's items.  A clone starts with what its original keeps, copied
(`core.copy_caches`): that the copies hold, and stay apart from the original's, is checked too,
and so is a copy in which what a seat cannot see is drawn again (`search.determinize`)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import attrs
import pytest

from card_folders import copy_with
from golden_games import SETS
from rulesdsl.interpreter import Game, core, economy, scoring, structure, trade, zones
from rulesdsl.interpreter.persistence import copy_state
from rulesdsl.interpreter.search import determinize
from rulesdsl.loader import bundled_folder
from rulesdsl.pipeline import load_ruleset


def unkept(game):
    """A copy of the game that keeps nothing: what it is asked, it works out afresh."""
    fresh = game.clone()
    core.clear_caches(fresh)
    return fresh


def held(per_seat: list) -> list[tuple[int, object]]:
    """(seat, value) of each seat whose value is kept (not None)."""
    return [(p, v) for p, v in enumerate(per_seat) if v is not None]


def kept_offers_hold(game) -> int:
    """Compare every kept offer with a fresh one; how many were kept."""
    kept = held(game._offers)
    for p, offered in kept:
        game._offers[p] = None
        fresh = trade.offer(game, p)
        assert offered == fresh, (game.state.turn, p, offered, fresh)
        game._offers[p] = offered
    return len(kept)


def kept_prices_hold(game) -> int:
    """Compare the prices a game has kept with those of a copy that keeps none; how many."""
    fresh = unkept(game)
    compared = 0
    for p in range(game.content.players):
        kept = game._prices[p]
        for r, price in enumerate(kept or ()):
            if price >= 0:
                assert price == economy.trade_price(fresh, p, r), (game.state.turn, p, r)
                compared += 1
        for item, price in list(game._price_cache[p].items()):
            assert price == economy.price(fresh, p, item), (game.state.turn, p, game.content.items[item].name)
            compared += 1
    return compared


def kept_tallies_hold(game) -> int:
    """Compare every kept colour tally with the colours of its slot's items; how many."""
    kept = 0
    items = game.content.items
    for slot, tally in enumerate(game._tally):
        if tally is None:
            continue
        kept += 1
        colors = [items[i].color for i in game.state.zones[slot]]
        assert {c: n for c, n in tally.items() if n} == {c: colors.count(c) for c in colors}, (game.state.turn, slot)
    return kept


def kept_stats_hold(game) -> int:
    """Compare every seat's kept stats with those worked out afresh from its items; how many.
    Lists are compared as the multisets a bank price reads, except where neighbours trade:
    there the order of the one-of producers says which units are bought from whom."""
    kept = held(game._stats)
    for p, s in kept:
        fresh = economy._fresh_stats(game, p)
        ordered = bool(game.content.trade_base)
        for field in attrs.fields(type(s)):
            if field.name in ("colored", "kept", "science_scores"):   # (what `production`, `kept_value`, `science_score` read: caches of their own)
                continue
            if field.name == "cloned":   # (whether a clone holds them too: no stat)
                continue
            a, b = getattr(s, field.name), getattr(fresh, field.name)
            if field.name in ("one_of", "discounts") and not (ordered and field.name == "one_of"):
                a, b = sorted(a, key=repr), sorted(b, key=repr)
            elif isinstance(a, dict):   # (a count that fell back to 0 is no count)
                a, b = {k: v for k, v in a.items() if v}, {k: v for k, v in b.items() if v}
            assert a == b, (game.state.turn, p, field.name, a, b)
        # (the science scores kept with them: each as worked out from the fresh stats)
        for bonus, score in s.science_scores.items():
            game._stats[p] = fresh
            fresh.science_scores.clear()
            assert score == scoring.science_score(game, p, bonus), (game.state.turn, p, bonus)
            game._stats[p] = s
        scoring.science_score(game, p, 7)   # (kept from now on: the next look checks it again)
    return len(kept)


def kept_values_hold(game) -> int:
    """Compare every value kept with a seat's stats (`economy.kept_value`: an expression of the
    seat's `modify` amounts) with the expression worked out on a copy that keeps nothing; how many."""
    fresh = unkept(game)
    compared = 0
    for p, s in held(game._stats):
        for fn, value in s.kept.items():
            assert value == fn(fresh, fresh._reading[p]), (game.state.turn, p, fn.source)
            compared += 1
    return compared


def kept_points_hold(game) -> int:
    """Compare every seat's kept points (`scoring.total`: the points that are numbers of its
    items in play, added up once per change of its city) with its `score` worked out afresh;
    how many were kept.  Each seat's total is asked at the end, so that the next look checks
    what this one kept."""
    kept = held(game._points)
    for p, _ in kept:
        assert scoring.total(game, p) == sum(scoring.score(unkept(game), p).values()), (game.state.turn, p)
    for p in range(game.content.players):
        scoring.total(game, p)
    return len(kept)


def after_every_action(rules, games: int, check) -> int:
    """Play seeded random games, running `check(game)` after every action; what it counted."""
    counted = 0
    for seed in range(games):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game._apply(game.random_action(rng))
            counted += check(game)
    return counted


@pytest.mark.parametrize("players", [3, 5, 7])
def test_kept_offers_are_what_offer_works_out(players):
    kept = after_every_action(load_ruleset((), "classic", players), 3, kept_offers_hold)
    assert kept > 100 * players   # the comparison did happen, many times


@pytest.mark.parametrize("name", sorted(SETS))
def test_kept_prices_are_what_a_fresh_game_works_out(name):
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 2, kept_prices_hold) > 100


@pytest.mark.parametrize("name", sorted(SETS))
def test_kept_stats_are_what_the_seats_items_give(name):
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 2, kept_stats_hold) > 100


@pytest.mark.parametrize("name", sorted(SETS))
def test_kept_points_are_what_the_seats_items_score(name):
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 2, kept_points_hold) > 100


@pytest.mark.parametrize("players", [3, 7])
def test_kept_values_are_what_their_expressions_work_out(players):
    # (classic's free builds: a guard adding up three `modify` amounts, read by every seat every round)
    assert after_every_action(load_ruleset((), "classic", players), 3, kept_values_hold) > 100


@pytest.mark.parametrize("name", sorted(n for n in SETS if not n.startswith("classic")))   # (classic counts none)
def test_kept_colour_tallies_are_the_colours_of_their_slots(name):
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 2, kept_tallies_hold) > 20


def kept_structure_holds(game) -> int:
    """The structure's kept places of its cards (and so how many are left), cover counts and
    open slots are those a copy that keeps nothing works out, and the structure's slot holds
    its cards in the structure's order (`core._leave_structure` keeps them as cards leave)."""
    st = game.state
    if not st.structure:
        return 0
    fresh = unkept(game)
    kept = 0
    if game._structure_at is not None:
        # (as the places were first worked out: not `core._places`, which a fresh game reads too)
        assert game._structure_at == {item: place for place, item in enumerate(st.structure) if item >= 0}, st.turn
        assert structure.exhausted(game) == structure.exhausted(fresh), st.turn
        kept += 1
    if game._cover_count is not None:
        assert game._cover_count == structure.covering(fresh), st.turn
        kept += 1
    else:   # (`turns.end_turn` asks `structure.uncover` where slots are freed, or none are kept)
        assert game._to_uncover is None, st.turn
    if st.flow == "turn":   # (a turn ended: the slots freed in it were looked at and forgotten, `uncover`)
        assert not game._to_uncover, st.turn
    if game._open_slots is not None:
        assert game._open_slots == structure.open_slots(fresh), st.turn
        # (also as first worked out, slot by slot: a fresh game of a structure just dealt lists
        # them as the kept ones were, from the layout's uncovered slots)
        cover = structure.covering(fresh)
        assert game._open_slots == [slot for slot, item in enumerate(st.structure)
                                    if item >= 0 and not cover[slot] and st.face_up[slot]], st.turn
        kept += 1
    cards = set(st.structure)
    assert [i for i in st.zones[game.structure_slot] if i in cards] == [i for i in st.structure if i >= 0], st.turn
    return kept


@pytest.mark.parametrize("name", ["duel", "pantheon", "agora+pantheon"])
def test_the_kept_structure_is_what_a_fresh_game_works_out(name):
    # (Pantheon lays tokens on structure cards: they lie in the structure's slot too, and leave with their card)
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 3, kept_structure_holds) > 100


def test_an_item_missing_from_the_structures_slot_fails_as_ever_and_leaves_the_slot_as_it_was():
    # (`core._leave_structure` looks for it from the end: the slot's order is turned back)
    game = load_ruleset(*SETS["duel"]).new_game(seed=1)
    rng = random.Random(1)
    while not game.state.structure:
        game._apply(game.random_action(rng))
    held = game.state.zones[game.structure_slot]
    card = held.pop(3)
    before = held[:]
    with pytest.raises(ValueError, match="not in list"):
        core.relocate(game, card, game.zone_base[game.content.discard_zone])
    assert held == before


def kept_hosts_hold(game) -> int:
    if game._hosts is None:
        return 0
    assert game._hosts == set(game.state.attached.values()), game.state.turn
    return 1


@pytest.mark.parametrize("name", ["duel", "pantheon", "agora+pantheon", "classic-5"])
def test_the_kept_items_something_lies_on_are_those_of_the_state(name):
    # (Duel and classic tuck cards under wonders; Pantheon lays tokens on structure cards, taken
    # when the card is turned up or discarded with it)
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 3, kept_hosts_hold) > 20


def test_a_card_discarded_takes_what_lies_on_it_before_the_items_carrying_are_kept(tmp_path: Path):
    # (`zones.discard` reads the kept set of the items something lies on, worked out where none
    # is kept: a game just loaded.  The riders test game, with a structure card discarded.)
    riders_game = Path(__file__).resolve().parent / "data" / "riders"
    rules = load_ruleset((), str(copy_with(riders_game, tmp_path / "riders", "action cash {",
                                           "action throw {\n    param card from structure\n    discard card\n}\naction cash {")))
    discarded = 0
    for seed in range(12):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            hosts = set(game.state.attached.values())
            carrying = [card for card in structure.accessible(game) if card in hosts]
            if carrying:
                break
            game._apply(game.random_action(rng))
        else:
            continue
        loaded = Game(game.content, game.state)
        assert loaded._hosts is None
        card, pile = carrying[0], loaded.discard_slot
        riders = core.riders(loaded.state.attached, card)
        zones.discard(loaded, loaded.state.current, card)
        assert [loaded.state.loc[i] for i in [card, *riders]] == [pile] * (1 + len(riders))
        discarded += 1
    assert discarded > 5


def kept_placed_hold(game) -> int:
    """The kept items that may lie on another, on a space or face down (`core.placed_items`)
    hold every such item of the state: `core.relocate` asks them alone before it looks."""
    if game._placed is None:
        return 0
    st = game.state
    missing = ({*st.attached, *st.positions, *st.hidden}) - game._placed
    assert not missing, (game.state.turn, [game.content.items[i].name for i in missing])
    return 1


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-5"])
def test_the_kept_placed_items_hold_those_of_the_state(name):
    # (Duel tucks cards under wonders; Pantheon lays tokens on structure cards and gods on
    # spaces, Agora decrees face down on the Senate's spaces)
    rules = load_ruleset(*SETS[name])
    assert after_every_action(rules, 3, kept_placed_hold) > 20


def _duel_edited(tmp_path: Path, file: str, old: str, new: str):
    """Duel's rules, copied, with `old` replaced by `new` (each place) in one of its files."""
    folder = tmp_path / "duel-edited"
    shutil.copytree(bundled_folder("duel"), folder)
    rules_file = folder / file
    text = rules_file.read_text(encoding="utf-8")
    assert old in text
    rules_file.write_text(text.replace(old, new), encoding="utf-8")
    return load_ruleset((), str(folder))


def _duel_priced(tmp_path: Path, price: str):
    """Duel's rules, copied, with another bank trade price."""
    duel_price = "trade_price 2 + production(resource, owner=opponent, color=[brown, grey])"
    return _duel_edited(tmp_path, "game.rules", duel_price, f"trade_price {price}")


def test_a_trade_price_reading_the_buyers_own_city_is_forgotten_with_it(tmp_path: Path):
    # Duel's bank price reads only the opponent's production, so a seat's own builds leave its
    # trade prices alone; a variant whose price reads the buyer's production must not keep them.
    assert load_ruleset((), "duel").content.trade_price_reads_own is False
    rules = _duel_priced(tmp_path, "6 - production(resource, color=[brown, grey])")
    assert rules.content.trade_price_reads_own is True
    assert after_every_action(rules, 2, kept_prices_hold) > 100


@pytest.mark.parametrize("coins", ["count(city, color=brown)", "count(city, color=blue) + modifier(tax)"])
def test_a_coin_cost_reading_the_buyers_city_is_forgotten_with_it(tmp_path: Path, coins: str):
    # A coin cost that reads the buyer's own city (Agora's senators read how many it holds) is
    # forgotten at every change of that city, whatever the change forgets besides: a brown card
    # arriving (only the prices asking for its resource, `core.resource_reach`), a blue one (no
    # other price), so the other kept prices stay kept (`core._computed_costs`).
    red = "    color red\n"   # (every red card of Age I)
    rules = _duel_edited(tmp_path, "age1.rules", red, red + f"    cost_coins {coins}\n")
    assert rules.content.price_spread is not None   # (a cost reading the own city keeps prices spread)
    computed = {it.id for it in rules.content.items if it.cost is not None and it.cost.coins_fn is not None}
    priced = [0]

    def computed_priced(game) -> int:
        priced[0] += sum(len(computed.intersection(cache)) for cache in game._price_cache)
        return kept_prices_hold(game)

    assert after_every_action(rules, 4, computed_priced) > 100
    # (A seat's change forgets its own: most are priced again by the next draw that asks.)
    assert priced[0] >= 5   # their prices were kept, and compared


@pytest.mark.parametrize("price, by_resource", [
    ("2 + production(resource, owner=opponent, color=[brown, grey])", True),   # Duel's own
    ("2 + production(resource, owner=opponent) + production(glass, owner=opponent)", False),
    ("max(2, 5 - production(stone, owner=opponent))", False)])
def test_a_trade_price_reading_another_resource_is_forgotten_with_it(tmp_path: Path, price: str, by_resource: bool):
    # Where the price of a resource reads what seats make of that resource only, a card that
    # makes some resources forgets the prices of those and of the items that ask for them
    # (`core.resource_reach`); a price reading another resource must forget every price.
    rules = _duel_priced(tmp_path, price)
    assert rules.content.trade_price_by_resource is by_resource
    assert after_every_action(rules, 2, kept_prices_hold) > 100


@pytest.mark.parametrize("name", ["duel", "classic-3"])
def test_a_chain_coming_into_a_city_reaches_the_prices_it_makes_free(name):
    """An item that gives chains and no other thing a price reads forgets only the kept prices
    of the items its chains make free (`core.price_reach`).  Random games never meet this while
    the freed item is priced (chains lead to the next age), so each chain is brought into the
    city by hand over a kept price."""
    rules = load_ruleset(*SETS[name])
    content = rules.content
    checked = 0
    for giver in content.items:
        if not giver.chain_gives or core.price_reach(content)[giver.id] is None:
            continue
        freed = [it for it in content.items if set(it.chain_from) & set(giver.chain_gives) and it.cost is not None]
        for target in freed[:2]:
            game = rules.new_game(seed=checked)
            kept = economy.price(game, 0, target.id)
            assert game._price_cache[0][target.id] == kept
            core.relocate(game, giver.id, game.zone_slots[content.build_zone[giver.kind]][0])
            assert economy.price(game, 0, target.id) == (0, 0, True), (giver.name, target.name, kept)
            checked += 1
    assert checked >= 10


def everything_kept_holds(game) -> int:
    """Every check above that applies to the game's content; how many values they compared."""
    checks = [kept_prices_hold, kept_stats_hold, kept_tallies_hold, kept_hosts_hold, kept_placed_hold, kept_points_hold]
    if game.content.trade_base:
        checks += [kept_offers_hold, kept_values_hold]
    return sum(check(game) for check in checks)


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_clone_keeps_what_its_original_keeps_and_apart_from_it(name):
    # `Game.clone` hands the copy what the original keeps (the greedy agent and the search score
    # every move on a copy): the copy's kept values hold, playing the copy on leaves the
    # original's alone, and the original goes on as a twin that was never cloned.
    rules = load_ruleset(*SETS[name])
    compared = 0
    for seed in range(2):
        game, twin = rules.new_game(seed=seed), rules.new_game(seed=seed)
        rng, twin_rng = random.Random(seed), random.Random(seed)
        while not game.over:
            copy = game.clone()
            # (a cache `clear_caches` sets and `copy_caches` forgot would be no attribute at all)
            assert [n for n in Game.__slots__ if hasattr(game, n) != hasattr(copy, n)] == []
            assert copy._stats is not game._stats and copy._price_cache is not game._price_cache
            compared += everything_kept_holds(copy)
            if game.state.turn % 7 == 3:   # (now and then, the copy played to its end first)
                other = random.Random(game.state.turn)
                while not copy.over:
                    copy._apply(copy.random_action(other))
                compared += everything_kept_holds(game)
            action = game.random_action(rng)
            assert action == twin.random_action(twin_rng)
            game._apply(action)
            twin._apply(action)
        assert game.state == twin.state
    assert compared > 200


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_clone_keeps_its_own_when_the_original_plays_on(name):
    # The seats' stats are held by a game and its clones alike until either takes an item into
    # them (`Stats.cloned`): the original playing on first leaves a clone's as they were, and the
    # clone then plays on as a game loaded from its state would.
    rules = load_ruleset(*SETS[name])
    game = rules.new_game(seed=1)
    rng = random.Random(1)
    compared = 0
    while not game.over:
        copy = game.clone()
        for _ in range(3):
            if not game.over:
                game._apply(game.random_action(rng))
        compared += everything_kept_holds(copy) + everything_kept_holds(game)
        compared += plays_on_as_loaded(copy, game.state.turn)
    assert compared > 100


def plays_on_as_loaded(copy, seed: int) -> int:
    """Play `copy` on a few random actions beside a game loaded from its state, which keeps
    nothing: the same actions, the same state, and the copy's kept values hold; how many
    `everything_kept_holds` compared."""
    loaded = Game(copy.content, copy_state(copy.state))
    copy_rng, loaded_rng = random.Random(seed), random.Random(seed)
    for _ in range(4):
        if copy.over:
            break
        action = copy.random_action(copy_rng)
        assert action == loaded.random_action(loaded_rng)
        copy._apply(action)
        loaded._apply(action)
    assert copy.state == loaded.state
    return everything_kept_holds(copy)


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_copy_drawn_again_keeps_what_the_redraw_leaves_true(name):
    # The greedy agent in a simultaneous round, and the search at every iteration, play on a
    # copy in which what the seat cannot see is drawn again (`search.determinize`).  The copy
    # keeps what its original keeps but what the items drawn again reach: the tallies of their
    # slots, the structure's places, what lies on what, and everything where one of them lay
    # in play (a city, a ruled zone).  Its kept values hold, and it plays on as a game loaded
    # from its state would, at every decision of seeded random games.
    rules = load_ruleset(*SETS[name])
    kept = 0
    for seed in range(2):
        game, rng = rules.new_game(seed=seed), random.Random(seed)
        while not game.over:
            for p in range(game.content.players):   # (as the agents ask: the seats' points kept too)
                scoring.total(game, p)
            drawn = determinize(game, game.to_move(), random.Random(game.state.turn))
            kept += everything_kept_holds(drawn)   # (what the copy kept: it once forgot everything)
            plays_on_as_loaded(drawn, game.state.turn)
            game._apply(game.random_action(rng))
    assert kept > 100


def _decree_face_down(held: bool):
    from agora_positions import agora_game, set_decree, set_senate

    game = agora_game()
    if held:   # (bundled Agora turns a chamber's decree up as it is first fought over)
        set_senate(game, [2, 0, 0, 0, 0, 0], [0] * 6)
    set_decree(game, 0, "Decree: cheaper raw materials", face_down=True)
    return game, game.slot(game.content.zone_index["decrees"], 0)


def _card_face_down_in_a_city():
    from positions import fresh_game, give, item, refresh

    game = fresh_game()
    give(game, 0, "Lumber Yard")
    game.state.hidden.append(item(game, "Lumber Yard"))
    refresh(game)
    return game, game.slot(game.content.zone_index["city"], 0)


POSITIONS = {"decree face down on a chamber seat 0 holds": (lambda: _decree_face_down(True), False),
             "decree face down on a chamber nobody holds": (lambda: _decree_face_down(False), True),
             "card face down in seat 0's city": (_card_face_down_in_a_city, False)}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_copy_drawn_again_forgets_what_an_item_face_down_gave_and_only_that(name):
    # An item face down where it counts for a seat (no bundled content leaves one so; a
    # designer's may) is drawn again with the items seat 1 cannot see: what seat 0's items give
    # changes with it, and the copy forgets what it kept.  Where it counts for nobody (its
    # chamber held by no seat), the copy keeps it all.  Hand-made positions.
    position, keeps = POSITIONS[name]
    game, slot = position()
    wonders = game.content.zone_index["wonders"]
    for p in range(2):   # (prices, stats and points kept, as the agents ask them)
        for i in game.state.zones[game.slot(wonders, p)]:
            economy.price(game, p, i)
        scoring.total(game, p)
    lay = list(game.state.zones[slot])
    swapped = 0
    for k in range(12):
        drawn = determinize(game, 1, random.Random(k))
        if drawn.state.zones[slot] != lay:
            swapped += 1
            assert (drawn._stats[0] is not None) == keeps
        everything_kept_holds(drawn)
        plays_on_as_loaded(drawn, k)
    assert swapped   # (the item face down was drawn again)


def _poke(value: object) -> None:
    """Change a state's container in place, and every list or dict in it."""
    if isinstance(value, list):
        for inner in value:
            _poke(inner)
        value.append(-7)
    elif isinstance(value, dict):
        for inner in value.values():
            _poke(inner)
        value[-7] = [-7]


@pytest.mark.parametrize("name", ["agora", "classic-3"])
def test_what_a_game_does_to_its_own_reaches_no_game_made_after_it(name):
    # A new game takes its slot tables and written functions from a game its content keeps
    # (`Game._take_content`), and plays on a copy of the state its content keeps before set-up
    # (`creation.initial_state`): one game's every list and dict changed in place (cubes and
    # their supplies in Agora, counters in classic), and one game's slot table watched, change
    # nothing of a game made after it, which is the game a content that kept nothing makes.
    content = load_ruleset(*SETS[name]).content
    for seed in (4, 5):
        game = Game.create(content, seed=seed)
        core.watch(game, {0})
        for field in attrs.fields(type(game.state)):
            _poke(getattr(game.state, field.name))
    later = Game.create(content, seed=5)
    afresh = Game.create(attrs.evolve(content), seed=5)   # (`evolve`: a content that kept nothing)
    assert later.content._start_state is not None and afresh.content is not content
    assert later.state == afresh.state
    assert later.slot_kind == afresh.slot_kind and not later.slot_kind[0] & core.WATCHED_SLOT


@pytest.mark.parametrize("name", ["duel", "classic-3"])
def test_a_count_of_one_colour_reads_what_a_count_of_colours_reads(name):
    # `count(ZONE, color=C)` of one colour is written as `count_color` (Duel's discard asks it
    # every time): after every action of seeded games, for every seat's slot of every zone of
    # seats and every colour, kept tally or none, it counts what `count_colors` counts.
    from rulesdsl.interpreter import selection
    from rulesdsl.pipeline import load_ruleset

    rules = load_ruleset(*SETS[name])
    content = rules.content
    colors = sorted({it.color for it in content.items if it.color is not None})
    zones_of_seats = [z.id for z in content.zones if z.per_player]
    sources = [getattr(step, "source", "") for block in content.blocks for step in block.steps]
    assert any("g.count_color(" in s for s in sources)
    for seed in range(2):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        counted = 0
        while not game.over:
            game._apply(game.random_action(rng))
            for zone in zones_of_seats:
                for p in range(content.players):
                    slot = game.zone_base[zone] + p
                    for color in colors:
                        kept = game._tally[slot]
                        game._tally[slot] = None   # (the tally not kept: made by the count)
                        unkept = selection.count_color(game, zone, p, color)
                        game._tally[slot] = kept
                        got = selection.count_color(game, zone, p, color)
                        want = selection.count_colors(game, zone, p, (color,))
                        assert got == unkept == want, (game.state.turn, zone, p, color)
                        counted += want
        assert counted
