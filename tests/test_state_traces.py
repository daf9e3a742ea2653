"""The differential test of the speed work (issue 12): 504 seeded games replayed on the engine as
it is now give, after every action, the states recorded with the engine before that work
(tests/data/golden/states.json; see tests/state_traces.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden_games import SETS
from state_traces import traces

RECORDED = Path(__file__).parent / "data" / "golden" / "states.json"


@pytest.mark.parametrize("name", list(SETS))
def test_every_state_of_every_seeded_game_is_the_recorded_one(name):
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))[name]
    now = traces([name])[name]
    changed = [i for i, (a, b) in enumerate(zip(recorded, now)) if a != b]
    assert len(now) == len(recorded) == 72
    assert not changed, f"{name}: games {changed} pass through other states than recorded"
