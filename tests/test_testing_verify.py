"""rulesdsl verify: deliberately broken content folders are caught, the failing game is shrunk,
and the trace it writes replays to the same failing state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.interpreter import Action, load_ruleset
from rulesdsl.interpreter.game import Game
from rulesdsl.trace import load_trace, replay
from rulesdsl.cli import cli
from rulesdsl.testing.verify import check_trace, find_failure, shrink, verify, write_trace

DATA = Path(__file__).resolve().parent / "data"
BROKEN_COINS = str(DATA / "broken_coins")    # a designer invariant broken by a typo in a card
NO_DISCARD = str(DATA / "no_discard")        # a variant without the discard action: games get stuck
DESIGNER = "designer: Nobody gets rich in Age I"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def coins_failure(tmp_path_factory):
    rules = load_ruleset((BROKEN_COINS,))
    report = verify(rules.content, 100, seed=0, jobs=1)
    assert not report.ok
    path = tmp_path_factory.mktemp("verify") / "failure.json"
    write_trace(rules.content, report.failure, path)
    return report, path


def test_broken_card_is_caught_and_shrunk(coins_failure):
    report, _ = coins_failure
    f = report.failure
    assert f.invariant == DESIGNER
    assert "false for player" in f.detail and "invariants.rules:4" in f.detail
    assert len(f.actions) < f.original_length
    assert len(f.actions) <= 20
    assert f.actions[-1] == Action("build", ("Tavern",))      # the card with the typo, last
    assert f.game_index == report.games - 1


def test_the_trace_replays_to_the_same_failing_state(coins_failure):
    report, path = coins_failure
    data = load_trace(path)
    assert data["verify"]["invariant"] == DESIGNER
    assert data["expansions"] == [BROKEN_COINS]
    game, diffs = replay(data)
    assert diffs == []
    assert max(game.state.coins) > 40 and game.state.age == 0
    result = run("replay", str(path))
    assert result.exit_code == 0 and "same final state" in result.output
    game, violation = check_trace(data)
    assert violation is not None and violation.invariant == DESIGNER


def test_verify_command_reports_the_failure(tmp_path):
    out = tmp_path / "f.json"
    result = run("verify", BROKEN_COINS, "--games", "100", "--jobs", "1", "-o", str(out))
    assert result.exit_code == 1
    assert f"FAILED: invariant `{DESIGNER}` broken" in result.output
    assert "shrunk to" in result.output and "build Tavern" in result.output
    assert f"trace written to {out}" in result.output and f"rulesdsl replay {out}" in result.output
    again = run("verify", "--trace", str(out))
    assert again.exit_code == 1 and DESIGNER in again.output
    assert run("replay", str(out)).exit_code == 0


def test_a_broken_builtin_invariant_is_caught(tmp_path):
    rules = load_ruleset((NO_DISCARD,))
    report = verify(rules.content, 50, seed=0, jobs=1)
    f = report.failure
    assert f is not None and f.invariant == "legal-action-exists"
    game = Game.create(rules.content, seed=f.seed)
    for a in f.actions:
        game.apply(a)
    assert not game.over and game.legal_actions() == []
    write_trace(rules.content, f, tmp_path / "stuck.json")
    assert run("replay", str(tmp_path / "stuck.json")).exit_code == 0


def test_parallel_and_serial_runs_find_the_same_failure():
    rules = load_ruleset((BROKEN_COINS,))
    one = verify(rules.content, 40, seed=0, jobs=1, shrink_failure=False)
    two = verify(rules.content, 40, seed=0, jobs=2, shrink_failure=False, expansions=(BROKEN_COINS,))
    assert one.failure.game_index == two.failure.game_index
    assert one.failure.actions == two.failure.actions


def test_shrinking_an_engine_crash(monkeypatch):
    original = Game._apply

    def crash(self, action):
        if action == Action("discard", ("Tavern",)):
            raise KeyError("crash")
        original(self, action)
    monkeypatch.setattr(Game, "_apply", crash)
    rules = load_ruleset(())
    report = verify(rules.content, 60, seed=0, jobs=1)
    f = report.failure
    assert f.invariant == "engine-error" and "KeyError" in f.detail
    assert f.action == Action("discard", ("Tavern",))
    assert len(f.actions) < f.original_length


def test_verify_passes_on_the_bundled_games():
    result = run("verify", "--games", "15", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verify: duel; 15 random games") and "ok: 15 games" in result.output
    result = run("verify", "-e", "pantheon", "--games", "8", "--jobs", "2")
    assert result.exit_code == 0, result.output


def test_verify_lists_and_skips_invariants():
    result = run("verify", "--list")
    assert result.exit_code == 0
    assert "coins-not-negative" in result.output and "observation-hides" in result.output
    result = run("verify", BROKEN_COINS, "--list")
    assert DESIGNER in result.output
    result = run("verify", BROKEN_COINS, "--games", "20", "--jobs", "1", "--skip", DESIGNER)
    assert result.exit_code == 0, result.output
    result = run("verify", "--skip", "no-such-invariant")
    assert result.exit_code == 2 and "unknown invariant" in result.output


def test_verify_a_folder_with_errors_exits_1(tmp_path):
    (tmp_path / "bad.rules").write_text('card "X" { age 1; color purpel }\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(tmp_path)])
    assert result.exit_code == 1 and "E302" in result.output


def test_shrink_keeps_an_unshrinkable_failure():
    rules = load_ruleset((BROKEN_COINS,))
    index = verify(rules.content, 20, seed=0, shrink_failure=False).failure.game_index  # the first failing game
    f = find_failure(rules.content, index, 0, shrink_it=False)
    smaller = shrink(rules.content, f, budget_seconds=0.0)
    assert smaller.invariant == f.invariant and len(smaller.actions) <= len(f.actions)
    data = json.loads(json.dumps([str(a) for a in smaller.actions]))
    assert data


SETUP_LOOP = """
procedure save_up {
    if coins < 1000000 {
        gain 1 coin
        run save_up
    }
}
rule "Loop" {
    when structure_dealt {
        each_player { run save_up }
    }
}
"""


@pytest.mark.parametrize("flags", [["-j", "2"], ["-j", "1", "--no-shrink"]])
def test_a_setup_that_never_ends_is_reported_with_a_trace_that_replays_it(tmp_path, flags):
    folder = tmp_path / "loopy"
    folder.mkdir()
    (folder / "loop.rules").write_text(SETUP_LOOP, encoding="utf-8")
    out = tmp_path / "failure.json"
    result = run("verify", str(folder), "--option", "beginner_wonders", "-n", "4", "--max-steps", "500", "-o", str(out),
                 *flags)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "FAILED: invariant `effects-end` broken" in result.output
    assert "creating the game failed: the game's setup: its effects did not end within 500 steps" in result.output
    assert "the 0 action(s) that lead to it:" in result.output   # (nothing shrunk: nothing to shrink)
    assert json.loads(out.read_text(encoding="utf-8"))["actions"] == []
    replayed = run("replay", str(out), "--max-steps", "500")
    assert replayed.exit_code == 1
    assert replayed.output.startswith("error: the game's setup: its effects did not end within 500 steps")


def test_verify_trace_of_a_game_that_does_not_end_fails_again(tmp_path):
    out = tmp_path / "long.json"
    result = run("verify", "--max-actions", "5", "-n", "2", "-o", str(out), "--no-shrink")
    assert result.exit_code == 1 and "invariant `game-ends` broken" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["verify"]["max_actions"] == 5
    again = CliRunner().invoke(cli, ["verify", "--trace", str(out)])
    assert again.exit_code == 1
    assert "invariant `game-ends` broken" in again.output and "not over after 5 actions" in again.output
