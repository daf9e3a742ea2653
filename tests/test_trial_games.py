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

# Taking a structure card, face down or not, leaves it there: the ages last hundreds of turns,
# and `pick`'s bindings are the discard pile times the structure twice.  (`linger` stops at 20
# coins: without it, one of the trial games, `simulate`'s first eight, did not end within the
# limit of actions.)
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
    require coins < 20
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


def test_the_trial_games_are_the_first_games_simulate_plays(monkeypatch):
    """Content `check` accepted failed in the first games of `rulesdsl simulate` (a designer's
    audit): the trial games had seeds of their own (0 to 7).  They are now simulate's own first
    eight games, game seeds and agents alike: a game that fails there fails the trial."""
    from rulesdsl.interpreter.random_agent import RandomAgent
    from rulesdsl.pipeline import Ruleset
    from rulesdsl.simulate import simulate
    from rulesdsl.trial import TRIAL_GAMES

    games: list[int] = []   # each game's seed, and the seeds of its agents, in the order made
    create, agent = Game.create.__func__, RandomAgent.__init__

    def created(cls, content, *args, seed=0, **kwargs):
        games.append(("game", seed))
        return create(cls, content, *args, seed=seed, **kwargs)

    def seeded(self, seed=0, rng=None):
        games.append(("agent", seed))
        agent(self, seed, rng)
    monkeypatch.setattr(Game, "create", classmethod(created))
    monkeypatch.setattr(RandomAgent, "__init__", seeded)
    assert trial_diagnostics(load_paths([DUEL])) == []
    trial, games[:] = games[:], []
    simulate(Ruleset.load(), TRIAL_GAMES, seed=0)
    assert trial == games and len({s for kind, s in games if kind == "game"}) == TRIAL_GAMES
