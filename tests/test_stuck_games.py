"""Content that can leave a player with no legal action: `check` warns (W504) and every command
that plays says so in one line (`GameStuck`, an EffectFailed), not a traceback.

Found by an audit that mutated the bundled cards: a filter on the discard action's card
(`color=[...]`) passed `check` without W504 (only `require`, `pay` and a paid `build` counted),
and a stuck game was `RuntimeError: no legal action` in `simulate`, `ValueError: empty range for
randrange()` with greedy agents, in `balance` and `play` too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.interpreter import GameStuck
from rulesdsl.loader import CARDS_ROOT
from rulesdsl.pipeline import load_ruleset
from rulesdsl.report import check_paths

DISCARD = "action discard {\n    param card from structure\n"


def duel_with_discard(tmp_path: Path, edit) -> Path:
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder)
    game = folder / "game.rules"
    text = game.read_text(encoding="utf-8")
    assert DISCARD in text
    game.write_text(text.replace(DISCARD, edit(DISCARD)), encoding="utf-8")
    return folder


@pytest.mark.parametrize("edit, trial_stuck", [
    (lambda d: d.replace("from structure", "from structure color=[brown, grey, blue, green, yellow, red]"), True),
    (lambda d: d.replace("from structure", "from structure where=it.age >= 2"), True),
    (lambda d: d + "    param token from board_tokens\n", False),
    (lambda d: d + "    require coins < 3\n", True),
])
def test_check_warns_of_a_discard_that_may_not_be_possible(tmp_path, edit, trial_stuck):
    # (and where its trial game gets stuck, that is an error: the content does not play)
    report = check_paths([duel_with_discard(tmp_path, edit)])
    assert sorted(d.code for d in report.diagnostics) == (["E409", "W504"] if trial_stuck else ["W504"]), report.human()


def test_the_bundled_games_have_an_action_that_is_always_possible():
    for game in ("duel", "classic"):
        assert not [d for d in check_paths([CARDS_ROOT / game]).diagnostics if d.code == "W504"]


@pytest.fixture
def stuck(tmp_path) -> Path:
    return duel_with_discard(tmp_path, lambda d: d + "    require coins < 3\n")


@pytest.mark.parametrize("agents", [[], ["--agents", "greedy,greedy"], ["--agents", "random,greedy"]])
def test_simulate_of_a_stuck_game_is_one_error_line(stuck, agents):
    result = CliRunner().invoke(cli, ["simulate", "--game", str(stuck), "--games", "6", "--seed", "1",
                                      "--jobs", "1", *agents], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "has no legal action: the game is stuck" in result.output and "W504" in result.output
    assert "Traceback" not in result.output


def test_balance_and_play_of_a_stuck_game_say_so(stuck):
    result = CliRunner().invoke(cli, ["balance", "--game", str(stuck), "--games", "4", "--seed", "1", "--jobs", "1"],
                                catch_exceptions=False)
    assert "has no legal action: the game is stuck" in result.output, result.output
    result = CliRunner().invoke(cli, ["play", "--game", str(stuck), "--plain", "--agent", "greedy", "--seed", "1",
                                      "--option", "beginner_wonders"], input="1\n" * 300, catch_exceptions=False)
    assert "has no legal action: the game is stuck" in result.output, result.output[-500:]


def test_play_out_raises_game_stuck_and_leaves_the_game_as_it_stands(stuck):
    from rulesdsl.interpreter.persistence import dumps
    from rulesdsl.interpreter.playout import play_out
    from rulesdsl.interpreter.random_agent import RandomAgent
    from rulesdsl.interpreter.agents import make_agent
    rules = load_ruleset((), str(stuck))
    for make in (lambda s: [RandomAgent(seed=s), RandomAgent(seed=s + 1)],
                 lambda s: [make_agent("greedy", s), make_agent("greedy", s + 1)]):
        stuck_games = 0
        for seed in range(12):
            game = rules.new_game(seed=seed)
            try:
                play_out(game, make(seed))
            except GameStuck as exc:
                stuck_games += 1
                assert exc.seat == game.to_move() and game.legal_actions() == [] and not game.over
                before = dumps(game.state)
                with pytest.raises(GameStuck):
                    play_out(game, make(seed))
                assert dumps(game.state) == before
        assert stuck_games >= 2
