"""Seeded games give exactly the recorded games (tests/data/golden/games.json; see
tests/golden_games.py).  The Duel hashes were first recorded with the engine as it was before the
N-seat redesign, and the redesign reproduced all of them: that is the test that speed work keeps."""

from __future__ import annotations

from pathlib import Path

from golden_games import assert_recorded, summaries

GOLDEN = Path(__file__).parent / "data" / "golden" / "games.json"


def test_seeded_games_are_the_recorded_ones():
    assert_recorded(GOLDEN, summaries())
