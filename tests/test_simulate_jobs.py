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


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_stopped_by_its_progress_callback_sums_up_the_games_before(jobs):
    from rulesdsl.simulate import Stop

    def progress(n: int) -> None:
        if n == 23:
            raise Stop

    rules = load_ruleset((), "duel", None)
    stopped = simulate(rules, 400, seed=5, jobs=jobs, progress=progress)
    asked = simulate(rules, 23, seed=5, jobs=1)
    assert stopped.pop("interrupted") is True and asked.pop("interrupted") is False
    for result in (stopped, asked):
        del result["seconds"], result["games_per_second"]
    assert stopped == asked   # the same 23 games, added up the same way
    assert stopped["games"] == 23 == sum(stopped["wins"].values())


@pytest.mark.parametrize("seed", ["x", 1.5, None, True])
def test_a_seed_that_is_no_integer_is_refused(seed):
    # (it was hashed into the games' seeds as text: `seed="x"` ran, and the summary said "x")
    with pytest.raises(ValueError, match="the seed must be an integer"):
        simulate(load_ruleset(), 1, seed=seed)


def test_any_integer_seeds_a_run():
    # Each game's seed is a hash of the run's seed and the game's number: no range to keep to.
    big = simulate(load_ruleset(), 2, seed=10**30)
    assert big["games"] == 2 and big["seed"] == 10**30
    assert simulate(load_ruleset(), 2, seed=-5)["wins"] == simulate(load_ruleset(), 2, seed=-5)["wins"]
