"""`economy.build` takes the price from the treasury itself where the treasury pays it all,
`spend`'s common case without its call: the coins left after each build of random games are
those `spend` leaves, on a copy of the game taken before the build."""

from __future__ import annotations

import pytest

from golden_games import SETS
from played_out import after_each_action
from rulesdsl.interpreter import Game, economy
from rulesdsl.pipeline import load_ruleset


@pytest.mark.parametrize("name", ["duel", "agora+pantheon"])
def test_a_build_pays_what_spend_pays(name, monkeypatch):
    build = economy.build
    paid = []

    def checked(g, p, item, free=False):
        spent = g.clone()
        prepaid = spent.state.prepaid
        if not free and not (prepaid and prepaid.get(item) == p):
            total = economy.price(spent, p, item)[0]
            economy.spend(spent, p, total)
            paid.append(total)
        build(g, p, item, free)
        assert (g.state.coins, g.state.item_coins) == (spent.state.coins, spent.state.item_coins)

    monkeypatch.setattr(Game, "build", checked)
    rules = load_ruleset(*SETS[name])
    for seed in range(3):
        after_each_action(rules.new_game(seed=seed), seed, look=lambda g: None)
    assert sum(1 for total in paid if total > 0) > 20   # (builds that cost coins were checked)
