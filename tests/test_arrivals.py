"""Each item's arrival in a city, written for the content (interpreter/arrivals.py), does what
`economy._into_play` does: the same state after every action of seeded random games of every
bundled content set, and the same kept points, stats and prices (what `core.dirty` keeps or
forgets), with the unusual cases (a watched city, tokens riding on structure cards, an item
whose kind has no build zone) still handed to the generic functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from card_folders import copy_with
from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl.interpreter import arrivals, core
from rulesdsl.pipeline import load_ruleset


def generic(rules) -> list:
    return [arrivals._generic(i) for i in range(len(rules.content.items))]


def kept(game) -> tuple:
    """What `core.dirty` keeps or forgets, as values."""
    return (list(game._points), [None if s is None else attrs_tuple(s) for s in game._stats],
            [None if p is None else list(p) for p in game._prices],
            [None if f is None else list(f) for f in game._trade_formula],
            [dict(c) for c in game._price_cache], list(game._offers))


def attrs_tuple(s) -> tuple:
    return tuple(repr(getattr(s, a.name)) for a in type(s).__attrs_attrs__)


def played(rules, seed: int, written: bool, watch: bool = False) -> list:
    """The state and the kept values after every action of a random game."""
    game = rules.new_game(seed=seed)
    if not written:
        game._arrive = generic(rules)
    noted = core.watch(game, set(game.active_slots[0])) if watch else None
    return after_each_action(game, seed, lambda game: (saved(game), kept(game), list(noted) if watch else None))


@pytest.mark.parametrize("name", list(SETS))
def test_a_written_arrival_plays_what_the_generic_one_plays(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    for seed in range(3):
        written = played(rules, seed, written=True)
        assert written == played(rules, seed, written=False), seed
        assert len(written) > 15


def test_a_watched_city_is_handed_to_the_generic_functions():
    rules = load_ruleset()
    written = played(rules, 2, written=True, watch=True)
    assert written == played(rules, 2, written=False, watch=True)
    assert written[-1][2], "the observer noted nothing"


def test_every_item_that_can_come_into_play_is_written_and_makes_no_cells():
    rules = load_ruleset(("agora", "pantheon"), "duel", None)
    game = rules.new_game(seed=1)
    content = rules.content
    for it in content.items:
        arrive = game._arrive[it.id]
        if it.kind in content.build_zone:
            assert hasattr(arrive, "source"), it.id
            assert arrive.__code__.co_cellvars == ()
        else:
            assert not hasattr(arrive, "source"), it.id
    # (one function per shape of arrival, its values given: fewer shapes than items)
    assert len({a.source for a in game._arrive if hasattr(a, "source")}) < len(content.items) // 3
    assert game._arrive is rules.new_game(seed=2)._arrive


def test_a_written_arrival_takes_along_what_lies_on_a_structure_card_built(tmp_path: Path):
    # (the riders test game, its structure cards built: the tokens dealt onto them reach their
    # seat's trophies with the card, which the written arrival looks for itself, in a game whose
    # kept set of the items something lies on is forgotten as the tokens are dealt)
    riders = Path(__file__).resolve().parent / "data" / "riders"
    rules = load_ruleset((), str(copy_with(riders, tmp_path / "riders", "    move card hand", "    build card")))
    trophies = rules.content.zone_index["trophies"]
    carried = 0
    for seed in range(8):
        written = played(rules, seed, written=True)
        assert written == played(rules, seed, written=False), seed
        game = rules.new_game(seed=seed)
        after_each_action(game, seed, lambda game: None)
        carried += sum(len(game.state.zones[slot]) for slot in game.zone_slots[trophies])
    assert carried > 4
