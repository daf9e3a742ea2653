"""`simulate --jobs N`: games shared out to worker processes give the same summary as one process
(each game depends only on its seed; results are added up in game order)."""

from __future__ import annotations

import pytest

from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate


@pytest.mark.parametrize("base, players", [("duel", None), ("classic", 4)])
def test_any_number_of_jobs_gives_the_same_summary(base, players):
    rules = load_ruleset((), base, players)
    one, two = (simulate(rules, 24, seed=7, jobs=j) for j in (1, 2))
    for result in (one, two):
        del result["seconds"], result["games_per_second"]
    assert one == two
    assert sum(one["wins"].values()) == 24
