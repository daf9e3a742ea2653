"""Seeded environment games show exactly the recorded observations and masks
(tests/data/golden/rl_observations.json; see tests/rl_observations.py).  Recorded with the
observation encoder as it was before its speed work: that is the test such work keeps."""

from __future__ import annotations

from pathlib import Path

from golden_games import assert_recorded
from rl_observations import summaries

GOLDEN = Path(__file__).parent / "data" / "golden" / "rl_observations.json"


def test_seeded_environment_games_show_the_recorded_observations():
    assert_recorded(GOLDEN, summaries())
