"""`check`'s trial games (rulesdsl/trial.py) ask at every action whether the seat to move has a
legal action, not for the list of them: an action of three parameters makes thousands of
bindings (a designer's fan action found by test_fuzz_speed_paths.py made `check` take 44 s
listing them 7,600 times), and a stuck game is still found."""

from __future__ import annotations

import shutil
import re
from pathlib import Path

import pytest

from rulesdsl.interpreter import Game
from rulesdsl.loader import load_paths
from rulesdsl.report import check_layers
from rulesdsl.trial import trial_diagnostics

DUEL = Path(__file__).resolve().parent.parent / "cards" / "duel"

# Taking a structure card, face down or not, leaves it there: the ages last thousands of turns,
# and `pick`'s bindings are the discard pile times the structure twice.
MANY_BINDINGS = """
expansion many {
    title "Many bindings"
}

action pick {
    require age >= 3
    param old from discard kind=card
    param first from structure_all
    param second from structure_all
    shields 1
}

action linger {
    param card from structure_all
    gain 1 coins
}
"""


@pytest.fixture
def no_listing(monkeypatch):
    def listed(self, seat=None):
        raise AssertionError("the trial game listed the legal actions")
    monkeypatch.setattr(Game, "legal_actions", listed)


def test_a_trial_game_never_lists_the_legal_actions(tmp_path: Path, no_listing):
    many = tmp_path / "many"
    many.mkdir()
    (many / "many.rules").write_text(MANY_BINDINGS, encoding="utf-8")
    report = check_layers([DUEL, many])
    assert not report.errors, [d.message for d in report.diagnostics]


def test_a_trial_game_with_no_legal_action_is_an_error_where_w504_warned_too(tmp_path: Path, no_listing):
    # (discard, the action always possible, made nearly impossible: W504 warns that a player may
    # be stuck, and the trial game shows one is; `check` exited 0 with the warning alone, and
    # the first `simulate` stopped on it)
    base = tmp_path / "stuck"
    shutil.copytree(DUEL, base)
    game = base / "game.rules"
    text = game.read_text(encoding="utf-8")
    assert "action discard {\n    param card from structure\n" in text
    game.write_text(text.replace("action discard {\n", "action discard {\n    require coins >= 99\n", 1), encoding="utf-8")
    merged = load_paths([base])
    (found,) = trial_diagnostics(merged)
    assert found.code == "E409" and "the game gets stuck at action " in found.message
    assert re.search(r"player \d has no legal action", found.message)
    report = check_layers([base])
    assert sorted(d.code for d in report.diagnostics) == ["E409", "W504"] and report.errors


@pytest.mark.parametrize("layers", [("duel",), ("duel", "duel-pantheon", "duel-agora"), ("classic",)])
def test_trial_games_are_played_as_simulate_plays_them(monkeypatch, layers):
    """The trial games take the path of `simulate` (`play_out`: each random seat's turn drawn
    and started by the functions written for the content), not `random_action` and `apply`
    action by action: what `check` accepts is what a designer's simulations then play, and it
    costs a third as much."""
    def by_hand(self, *args, **kwargs):
        raise AssertionError("a trial game applied an action by hand")
    monkeypatch.setattr(Game, "_apply", by_hand)
    monkeypatch.setattr(Game, "random_action", by_hand)
    cards = DUEL.parent
    assert trial_diagnostics(load_paths([cards / layer for layer in layers])) == []
