"""Seeded games give exactly the recorded games (tests/data/golden/games.json; see
tests/golden_games.py).  The Duel hashes were first recorded with the engine as it was before the
N-seat redesign, and the redesign reproduced all of them: that is the test that speed work keeps."""

from __future__ import annotations

import json
from pathlib import Path

from golden_games import summaries

GOLDEN = Path(__file__).parent / "data" / "golden" / "games.json"


def test_seeded_games_are_the_recorded_ones():
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = summaries()
    assert set(now) == set(recorded)
    for name in recorded:
        changed = [i for i, (a, b) in enumerate(zip(recorded[name], now[name])) if a != b]
        assert not changed and len(now[name]) == len(recorded[name]), f"{name}: games {changed} differ"
