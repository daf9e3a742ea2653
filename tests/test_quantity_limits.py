"""Numbers a game keeps stay below `limits.MAX_QUANTITY` (a seat's coins, coins on an item, a
counter, a seat's points): content whose numbers grow without end fails where it runs, naming
the definitions running, and `check`'s trial games find it (E409).  Before, `gain coins * coins
coins` passed `check`, then `simulate` and `balance` died averaging numbers too big for a float,
a `repeat` of it made `check` run for ever, and a seat past 10^8 coins could not be saved."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from card_folders import folder, to_first_build
from rulesdsl.cli import cli
from rulesdsl.interpreter import EffectFailed, Ruleset
from rulesdsl.interpreter.persistence import dumps, loads
from rulesdsl.limits import MAX_PLAYERS, MAX_QUANTITY
from rulesdsl.report import check_paths

SQUARING = """
expansion squaring {
    title "Coins squared"
    base duel
}
extend action build {
    gain coins * coins + 2 coins
}
"""
# A `repeat` of it: the numbers' digits doubled each round, and `check` never ended.
REPEATED = """
expansion repeated {
    title "Coins squared, sixty times"
    base duel
}
extend card "Lumber Yard" {
    repeat 60 { gain coins * coins + 2 coins }
}
"""
# A counter of the classic game, squared at every build.
COUNTED = """
expansion counted {
    title "Victories squared"
    base classic
}
extend action build {
    add counter(victories) * counter(victories) + 2 victories
}
"""
# Points no game keeps, scored by a card.
POINTS = """
expansion pointed {
    title "Too many points"
    base duel
}
extend card "Lumber Yard" {
    points 99999 * 99999 * 99999
}
"""
# Coins laid on an item, squared.
ON_ITEMS = """
expansion hoard {
    title "Coins on cards"
    base duel
}
extend card "Lumber Yard" {
    repeat 40 { put_coins coins_on(this) * coins_on(this) + 2 this }
}
"""


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def too_large(tmp_path: Path, text: str, name: str) -> str:
    """The E409 `check` gives the content (one per player count, nothing else): the first's message."""
    report = check_paths([folder(tmp_path, text, name)])
    found = [(d.code, d.message) for d in report.diagnostics if d.severity == "error"]
    assert found and {code for code, _ in found} == {"E409"}, found
    assert "beyond the most a game keeps (99,999,999 either way)" in found[0][1]
    return found[0][1]


def test_coins_grown_without_end_are_an_error_where_they_grow_and_the_game_is_left_as_it_was(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, SQUARING, "squaring"))])
    game = rules.new_game(seed=1, options=["beginner_wonders"])
    for _ in range(40):
        build = to_first_build(game)
        before, legal = dumps(game.state), game.legal_actions()
        try:
            game.apply(build)
        except EffectFailed as exc:
            assert "coins would be" in str(exc) and exc.chain[0] == "action `build`"
            assert str(exc).startswith(f"the action `{build}`: ")
            assert dumps(game.state) == before and game.legal_actions() == legal
            break
        assert all(c < MAX_QUANTITY for c in game.state.coins)
        loads(dumps(game.state))   # (every position reached can be saved)
    else:
        raise AssertionError("the coins never reached the limit")


def test_check_finds_numbers_that_grow_without_end_at_the_definition_running(tmp_path):
    message = too_large(tmp_path, SQUARING, "squaring")
    assert message.startswith("at 2 players a random game's effects failed: player ")
    assert message.endswith("(running: action `build`)")
    # Said where the expansion extends `action build` (the base game plays without it), not
    # where the base game defines it.
    span = check_paths([tmp_path / "squaring"]).diagnostics[0].span
    assert (span.file, span.line, span.column) == (str(tmp_path / "squaring" / "cards.rules"), 6, 15)


def test_a_repeat_of_growing_numbers_no_longer_keeps_check_running(tmp_path):
    start = time.perf_counter()
    message = too_large(tmp_path, REPEATED, "repeated")
    assert "card `Lumber Yard`" in message
    assert time.perf_counter() - start < 30   # (it ran for ever: 14 s at 24 rounds)


@pytest.mark.parametrize("text, name, what", [(COUNTED, "counted", "'s victories would be"),
                                              (POINTS, "pointed", "'s points would be"),
                                              (ON_ITEMS, "hoard", "the coins on ")])
def test_counters_points_and_coins_on_items_are_bounded_too(tmp_path, text, name, what):
    assert what in too_large(tmp_path, text, name)


def test_simulate_and_balance_say_it_in_one_line(tmp_path):
    path = folder(tmp_path, SQUARING, "squaring")
    result = run("simulate", "-e", path, "-n", "3", "--jobs", "1")
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: game 0 (seed ")
    assert "beyond the most a game keeps" in lines[0] and "OverflowError" not in lines[0]
    balanced = run("balance", "-e", path, "-n", "4", "--agents", "random,random")
    assert "beyond the most a game keeps" in balanced.output and "OverflowError" not in balanced.output


def test_a_scenario_cannot_give_more_coins_than_a_game_keeps(tmp_path):
    scenario = tmp_path / "rich.scenario"
    scenario.write_text(f'scenario "rich" {{\n    coins 0 {MAX_QUANTITY}\n    expect coins(0) == 1\n}}\n',
                        encoding="utf-8")
    result = run("test", scenario)
    assert result.exit_code == 1
    assert f"error[S203]: coins go up to {MAX_QUANTITY - 1:,}" in result.output
    assert "SaveFileError" not in result.output


def test_more_players_than_the_engine_seats_is_E404_before_any_trial_game(tmp_path):
    game = tmp_path / "huge"
    game.mkdir()
    source = Path(__file__).resolve().parent.parent / "cards" / "classic"
    for f in source.glob("*.rules"):
        text = f.read_text(encoding="utf-8")
        (game / f.name).write_text(text.replace("players 3 7", "players 3 999999999"), encoding="utf-8")
    start = time.perf_counter()
    report = check_paths([game])
    assert time.perf_counter() - start < 30   # (it tried every count up to 999,999,999)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.code, d.message, d.help) for d in errors] == [
        ("E404", "a game of up to 999999999 players cannot be played",
         f"the engine plays with at most {MAX_PLAYERS} players")]
