"""The places a seat cannot see (`search.unknown_items`, which the greedy agent's and the
search's redraws read) are those a plain listing, item by item, gives, although the places of
the zones nobody sees are kept with the content between calls (docs/speed.md)."""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.search import _class, unknown_items
from rulesdsl.pipeline import load_ruleset

from played_out import after_each_action

SETS = [((), "duel", None), (("pantheon", "agora"), "duel", None),
        ((), "classic", 3), ((), "classic", 5), ((), "classic", 7)]


def _same(game, seat):
    now, plain = unknown_items(game, seat), unknown_items(game, seat, kept_places=False)
    assert list(now) == list(plain)
    assert now == plain


@pytest.mark.parametrize("expansions,base,players", SETS)
def test_the_places_are_those_listed_item_by_item(expansions, base, players):
    """At every decision of seeded games played one after another on one content (the kept
    places of one game's decks met by the next game's, dealt otherwise), for every seat."""
    rules = load_ruleset(expansions, base, players)

    def every_seat(game) -> int:
        for seat in range(game.state.players):
            _same(game, seat)
        return game.state.players
    asked = 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        asked += every_seat(game) + sum(after_each_action(game, seed, every_seat))
    assert asked > 100


def test_a_zone_nobody_sees_reordered_or_at_another_age_is_listed_again():
    """The kept places follow a slot's items in place (a deck reordered, its length the same) and
    the age (an item without one counts as of the age being played)."""
    rules = load_ruleset((), "classic", 3)
    game = rules.new_game(seed=1)
    st, c = game.state, game.content
    nobody = [game.slot(z.id, 0) for z in c.zones if not z.public and not z.private and not z.per_player]
    slot = max(nobody, key=lambda s: len({_class(c.items[i], st.age) for i in st.zones[s]}))
    assert len({_class(c.items[i], st.age) for i in st.zones[slot]}) > 1   # (a reorder moves classes)
    before = unknown_items(game, 0)
    st.zones[slot].reverse()
    _same(game, 0)
    assert unknown_items(game, 0) != before
    ageless = [s for s in nobody if any(c.items[i].age is None for i in st.zones[s])]
    assert ageless
    before = unknown_items(game, 0)
    st.age += 1
    _same(game, 0)
    assert unknown_items(game, 0) != before
