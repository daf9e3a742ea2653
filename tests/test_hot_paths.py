"""What keeps the runtime's hot paths cheap in machine instructions, which a bytecode count does
not see (docs/speed.md):

- what the runtime keeps on a `Game` has a slot (`Game.__slots__`): a slot is read by offset,
  where an instance dict of some forty names outgrows the keys it can share and makes every read a dict
  lookup.  A game played to its end, cloned, saved and loaded in every bundled content set keeps
  no attribute in its own dict; a caller may still add attributes of its own;
- the functions a random game calls most have no cell variables: a comprehension, generator or
  lambda that reads a function's names makes them cells, which every call creates and frees
  whether the comprehension runs or not;
- a finished block's frame is refilled for the next block, not made anew (making an object
  costs as much as a dozen calls);
- a game leaves no reference cycles behind: what it made is freed as it goes, so the cycle
  collector has nothing to look for (a nested function that calls itself is such a cycle: it
  made the collector run about once a game at 7 seats);
- an item's kind and colour, and a trigger's event and filters, are interned strings: one
  object per value, so the keys of tuples kept by them (`g._hearing`'s) compare by identity,
  not character by character through the generic comparison."""

from __future__ import annotations

import random

import pytest

from rulesdsl.interpreter import (core, costs, dealing, decisions, economy, events, legality, machine, seats,
                                  selection, structure, trade, turns, zones)

from golden_games import SETS
from rulesdsl.interpreter import Game
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.interpreter.persistence import dumps, loads
from rulesdsl.interpreter.state import Frame
from rulesdsl.interpreter.playout import play_out
from rulesdsl.pipeline import load_ruleset


@pytest.mark.parametrize("name", sorted(SETS))
def test_random_games_leave_nothing_for_the_cycle_collector(name):
    import gc
    from rulesdsl.simulate import simulate
    rules = load_ruleset(*SETS[name])
    simulate(rules, 2, seed=99)   # (what the first games make for the content, once)
    gc.collect()
    gc.disable()
    try:
        games = 12
        simulate(rules, games, seed=1)
        left = gc.collect()   # (the objects only the collector would have freed)
    finally:
        gc.enable()
    assert left < games, left


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_played_game_keeps_everything_in_slots(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    game = rules.new_game(seed=5)
    game.apply(game.random_action(random.Random(5)))   # (checked, with a snapshot for undo)
    play_out(game, [RandomAgent(5 + p) for p in range(game.state.players)])
    assert game.over
    copy = game.clone()
    loaded = Game(rules.content, loads(dumps(game.state)))
    for g in (game, copy, loaded):
        assert vars(g) == {}, f"kept outside Game.__slots__: {sorted(vars(g))}"


def test_a_caller_may_still_add_attributes():
    game = load_ruleset().new_game(seed=1)
    game.note = "mine"
    assert game.note == "mine" and vars(game) == {"note": "mine"}


HOT = [events.event_frames, economy.price, economy._priced, economy._cost, economy.trade_price, economy.production, economy.stats,
       economy.available_coins, economy.payment_options, economy.round_payment, economy.build,
       selection.candidates, selection._candidates_slow, selection.own_candidates, selection._where,
       selection.zone_pool, selection.count,
       selection.count_colors, selection.count_color, structure.accessible, structure.covering, structure.uncover,
       legality.decode, legality.canonical, legality.pools_of, legality.payments_for, legality.draw_among, legality.drawn_among, legality.allowed,
       legality.can_act, legality.legal_actions, turns.advance, turns.end_turn, turns.begin_round,
       turns.run_action, turns.choose, machine.run, machine.push, machine.frame, turns.resolve_round, seats.seats_of, core.riders_of,
       zones.rotate, zones.discard, zones.discard_taken, costs.cheapest_trade, costs.useful_one_of, dealing.draw, decisions.answers,
       trade.unit_prices, trade.cheapest, trade.payments, trade._ladder, trade._own_covers, trade._sides,
       core.relocate, core._leave_structure, core.dirty, core.relocate_all]


@pytest.mark.parametrize("fn", HOT, ids=lambda fn: f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}")
def test_the_hot_functions_make_no_cells(fn):
    assert fn.__code__.co_cellvars == (), (
        f"{fn.__name__} makes cells of {fn.__code__.co_cellvars} on every call: move the comprehension, "
        "generator or lambda that reads them into a function of its own (or use map/filter)")


def test_expressions_outside_blocks_read_frames_made_once_and_read_only():
    """Guards, conditions, scores, coin costs and trade prices read a frame per seat (and per
    seat and resource) made once per content: its names cannot be bound by mistake."""
    rules = load_ruleset()
    one, two = rules.new_game(seed=1), rules.new_game(seed=2)
    assert one._reading is two._reading and [f.me for f in one._reading] == [0, 1]
    assert one._pricing[1][0].env["resource"] == rules.content.resources[0]
    with pytest.raises(TypeError):
        one._reading[0].env["it"] = 3
    play_out(one, [RandomAgent(1), RandomAgent(2)])
    assert all(not f.env for f in one._reading)


def test_the_frames_of_finished_blocks_are_refilled_not_made_anew(monkeypatch):
    """The frame loop keeps a finished block's frame for the next block to start (`machine.frame`):
    a game makes about as many frames as its stack grows deep, not one per block it runs."""
    made = []

    class Counted(Frame):
        __slots__ = ()

        def __init__(self, *args):
            made.append(args[0])
            super().__init__(*args)

    monkeypatch.setattr(machine, "Frame", Counted)
    game = load_ruleset().new_game(seed=4)
    play_out(game, [RandomAgent(1), RandomAgent(2)])
    actions = [h for h in game.state.history if h[0] in ("build", "discard", "wonder")]
    assert game.over and len(actions) > 40   # (each action alone runs a block of its own)
    assert 0 < len(made) < 15, len(made)   # (a handful: as deep as the stack grows)


def test_each_slot_says_what_a_move_through_it_keeps_true():
    """`relocate` tests one flag per slot: the structure's, a seat's items in play, a zone ruled
    by another's spaces (Agora's decrees)."""
    game = load_ruleset(("agora",)).new_game(seed=1)
    content, kind = game.content, game.slot_kind
    assert len(kind) == game.n_slots and kind[game.structure_slot] == core.STRUCTURE_SLOT
    for slot, zone in enumerate(game.slot_zone[:-1]):
        z = content.zones[zone]
        assert bool(kind[slot] & core.ACTIVE_SLOT) == z.active, z.name
        assert bool(kind[slot] & core.RULED_SLOT) == (z.ruled_by >= 0), z.name
        assert not kind[slot] & core.STRUCTURE_SLOT
    assert any(k & core.RULED_SLOT for k in kind) and any(k & core.ACTIVE_SLOT for k in kind)


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-5"])
def test_kinds_colours_and_trigger_filters_are_interned(name):
    import sys
    content = load_ruleset(*SETS[name]).content
    strings = [s for it in content.items for s in (it.kind, it.color) if s is not None]
    for triggers in content.triggers_by_event.values():
        for t in triggers:
            strings += [s for s in (t.event, t.by, t.kind, t.via) if s is not None] + list(t.colors or ())
    assert len(strings) > len(content.items)
    assert all(s is sys.intern(s) for s in strings), [s for s in strings if s is not sys.intern(s)][:5]
