"""`rulesdsl verify --skip`: the driver's invariants are listed but cannot be skipped, and say so."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.testing.invariants import DRIVER_INVARIANTS

DRIVER = [inv.name for inv in DRIVER_INVARIANTS]


def test_the_driver_invariants_are_the_documented_three():
    assert DRIVER == ["game-ends", "engine-error", "effects-end"]


@pytest.mark.parametrize("name", DRIVER)
def test_skipping_a_driver_invariant_says_it_cannot_be_skipped(name):
    listed = CliRunner().invoke(cli, ["verify", "--list"])
    assert listed.exit_code == 0 and name in listed.output
    result = CliRunner().invoke(cli, ["verify", "-n", "2", "--skip", name])
    assert result.exit_code == 2, result.output
    assert f"invariant `{name}` is checked by the driver" in result.output
    assert "cannot be skipped" in result.output
    assert "unknown invariant" not in result.output


def test_skipping_an_unknown_invariant_still_says_unknown():
    result = CliRunner().invoke(cli, ["verify", "-n", "2", "--skip", "no-such-invariant"])
    assert result.exit_code == 2
    assert "unknown invariant `no-such-invariant` for --skip" in result.output
    assert "cannot be skipped" not in result.output


def test_replay_of_a_verify_trace_keeps_the_step_budget_it_recorded(tmp_path):
    # (testing.md: `replay` stops at the set-up with the same error; it replayed with the default
    # budget and said "same final state")
    out = tmp_path / "vs.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", "--max-steps", "10", "-n", "2", "-e", "pantheon", "-e", "agora",
                                 "-o", str(out)])
    assert result.exit_code == 1 and out.exists()
    again = runner.invoke(cli, ["replay", str(out)])
    assert again.exit_code == 1 and "did not end within 10 steps" in again.output
    assert runner.invoke(cli, ["replay", str(out), "--max-steps", "100000"]).exit_code == 0


def test_a_designer_invariant_broken_says_what_its_comparisons_compared(tmp_path):
    # (it said only the coins, whatever the `holds` was about)
    folder = tmp_path / "inv"
    folder.mkdir()
    (folder / "inv.rules").write_text('invariant "few yellow" {\n    holds count(city, color=yellow) <= 2 and '
                                      'coins < 40\n}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(folder), "--games", "30", "--jobs", "1",
                                      "--out", str(tmp_path / "t.json")])
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "is false for player" in x)
    assert "count(city, color=yellow) is 3" in line and "coins is " in line
