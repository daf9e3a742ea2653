"""Seeded environment games show exactly the recorded observations and masks
(tests/data/golden/rl_observations.json; see tests/rl_observations.py).  Recorded with the
observation encoder as it was before its speed work: that is the test such work keeps."""

from __future__ import annotations

import json
from pathlib import Path

from rl_observations import summaries

GOLDEN = Path(__file__).parent / "data" / "golden" / "rl_observations.json"


def test_seeded_environment_games_show_the_recorded_observations():
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = summaries()
    assert set(now) == set(recorded)
    for name in recorded:
        changed = [i for i, (a, b) in enumerate(zip(recorded[name], now[name])) if a != b]
        assert not changed and len(now[name]) == len(recorded[name]), f"{name}: games {changed} differ"
