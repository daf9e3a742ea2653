"""Games on one content in several threads (docs/api.md, "Threads"): the content is read-only
once loaded, so games played at once in threads are the games played one after another."""

from __future__ import annotations

import sys
import threading

import pytest

from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import Ruleset
from rulesdsl.simulate import game_seed, play_one


@pytest.mark.parametrize("base, expansions, players, agents", [
    ("duel", ("pantheon", "agora"), None, ["greedy", "random"]),
    ("classic", (), 4, ["random", "greedy", "random", "random"]),
])
def test_games_in_threads_sharing_one_content_are_the_games_played_alone(base, expansions, players, agents):
    rules = Ruleset.load(expansions, base, players)   # (not the cached one: its first games run in the threads)
    seeds = [game_seed(7, i) for i in range(4)]
    found: dict[int, list[str]] = {}

    def play(k: int) -> None:
        found[k] = [dumps(play_one(rules, s, agents).state) for s in seeds]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)   # (threads change hands every few bytecodes: any shared write shows)
    try:
        threads = [threading.Thread(target=play, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    alone = [dumps(play_one(Ruleset.load(expansions, base, players), s, agents).state) for s in seeds]
    assert len(found) == 4 and all(games == alone for games in found.values())
