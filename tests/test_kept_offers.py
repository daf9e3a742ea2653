"""What a seat sells its neighbours (`trade.offer`) is kept between decisions and, as items
arrive in its city, updated in place of being worked out afresh (`trade.offer_after_arrival`,
called from `core.dirty`).  Checked after every action of seeded random classic games at every
seat count: each kept offer is what `offer` works out from scratch, the same units and the same
one-of producers in the same order."""

from __future__ import annotations

import random

import pytest

from rulesdsl.interpreter import trade
from rulesdsl.pipeline import load_ruleset


def kept_offers_hold(game) -> int:
    """Compare every kept offer with a fresh one; how many were kept."""
    kept = 0
    for p in range(game.content.players):
        offered = game._offers[p]
        if offered is None:
            continue
        kept += 1
        game._offers[p] = None
        fresh = trade.offer(game, p)
        assert offered == fresh, (game.state.turn, p, offered, fresh)
        game._offers[p] = offered
    return kept


@pytest.mark.parametrize("players", [3, 5, 7])
def test_kept_offers_are_what_offer_works_out(players):
    rules = load_ruleset((), "classic", players)
    kept = 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game._apply(game.random_action(rng))
            kept += kept_offers_hold(game)
    assert kept > 100 * players   # the comparison did happen, many times
