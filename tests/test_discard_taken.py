"""`discard` of an item picked from the structure alone (an action's parameter `from structure`)
is its own verb (`zones.discard_taken`), which moves the card to the pile itself where it still
lies in the structure, carries nothing, lies on nothing and no rule hears the pile, and hands
anything else to `zones.discard`: the same state and the same kept structure, tallies and
places after every action of seeded random games as with `discard` alone, in content with tokens
on structure cards too (Pantheon), and in a game whose structure is watched."""

from __future__ import annotations

import random

import pytest

from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl.interpreter import Game, core, selection, structure, zones
from rulesdsl.pipeline import load_ruleset


def kept(game) -> tuple:
    """What a move out of the structure keeps true, as values."""
    return (None if game._structure_at is None else dict(game._structure_at), game._cover_count,
            game._open_slots, game._to_uncover, game._accessible, list(game._tally),
            None if game._placed is None else set(game._placed), game._hosts)


def played(rules, seed: int, watch: str = "") -> list:
    game = rules.new_game(seed=seed)
    # (the pile's colour tally kept from the start, as a count of its colours would keep it)
    selection.count_colors(game, rules.content.discard_zone, 0, ("brown",))
    assert game._tally[game.discard_slot] is not None
    if watch:
        core.watch(game, {getattr(game, watch)})
    return after_each_action(game, seed, lambda game: (saved(game), kept(game)))


@pytest.mark.parametrize("name", ["duel", "pantheon", "agora+pantheon"])
def test_a_discard_from_the_structure_plays_what_discard_plays(name, monkeypatch):
    rules = load_ruleset(*SETS[name])
    sources = [getattr(step, "source", "") for block in rules.content.blocks for step in block.steps]
    assert any("g.discard_taken(" in s for s in sources)
    calls = {"taken": 0, "handed": 0}
    taken, generic = zones.discard_taken, zones.discard

    def counted_taken(g, me, item):
        calls["taken"] += 1
        taken(g, me, item)

    def counted_generic(g, me, item):
        calls["handed"] += 1
        generic(g, me, item)

    monkeypatch.setattr(Game, "discard_taken", counted_taken)
    monkeypatch.setattr(zones, "discard", counted_generic)   # (what `discard_taken` hands over to)
    for seed in range(3):
        written = played(rules, seed)
        with monkeypatch.context() as m:
            m.setattr(Game, "discard_taken", generic)
            assert written == played(rules, seed), seed
    # (the discards of these games are moved by `discard_taken` itself: a card turned up gives
    # up its token at once, so none carries one when taken)
    assert calls["taken"] > 50 and not calls["handed"], calls


@pytest.mark.parametrize("watch", ["structure_slot", "discard_slot"])
def test_a_discard_from_a_watched_structure_or_into_a_watched_pile_is_handed_to_discard(watch, monkeypatch):
    # (`watch` makes a game's own slot kinds, after set-up: what `discard_taken` reads of them
    # is worked out again then, `core.quiet_discard`)
    rules = load_ruleset(*SETS["duel"])
    handed = []
    generic = zones.discard
    monkeypatch.setattr(zones, "discard", lambda g, me, item: handed.append(item) or generic(g, me, item))
    written = played(rules, 1, watch=watch)
    assert len(handed) > 10
    monkeypatch.setattr(Game, "discard_taken", generic)
    assert written == played(rules, 1, watch=watch)


def test_a_card_on_a_space_of_its_own_is_handed_to_discard():
    # (an item with a place of its own, on a space, face down or known, leaves it with `relocate`)
    rules = load_ruleset(*SETS["duel"])
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while not game.state.structure:
        game._apply(game.random_action(rng))
    card = structure.accessible(game)[0]
    game.state.positions[card] = 4
    core.placed(game, card)
    other = game.clone()
    zones.discard_taken(game, game.state.current, card)
    zones.discard(other, other.state.current, card)
    assert card not in game.state.positions and game.state.loc[card] == game.discard_slot
    assert saved(game) == saved(other) and kept(game) == kept(other)
