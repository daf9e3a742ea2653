"""Seeded games of greedy seats only give exactly the recorded games
(tests/data/golden/greedy_games.json; see tests/greedy_games.py): the agent's speed work keeps
every decision and every number it draws."""

from __future__ import annotations

from pathlib import Path

from golden_games import assert_recorded
from greedy_games import summaries

RECORDED = Path(__file__).parent / "data" / "golden" / "greedy_games.json"


def test_seeded_greedy_games_are_the_recorded_ones():
    assert_recorded(RECORDED, summaries())
