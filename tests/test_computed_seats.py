"""A seat a content computes while playing (`player(<expression>)`): one the game has is used as
any seat; one it lacks stops the action (or the setup) with EffectFailed naming the seat and the
definitions running, leaves the game as it was, and reaches the commands as one `error:` line."""

from __future__ import annotations

import json


import pytest
from click.testing import CliRunner

from card_folders import folder, to_first_build
from rulesdsl.cli import cli
from rulesdsl.interpreter import BudgetExceeded, EffectFailed, Ruleset, new_game
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.report import check_paths

# Every build by a seat pays a coin to the seat its city's size names.
ROUND_THE_TABLE = """
rule "Gift" {
    when built by=me kind=card {
        gain 1 coins who=player(count(city) % 2)
    }
}
"""
# The same, to a seat three past the city's size: never a seat of a two-seat game, though the
# checker cannot tell (nothing bounds a modifier, 0 here), so it only warns (W505).
BEYOND_THE_TABLE = """
rule "Gift" {
    when built by=me kind=card {
        gain 1 coins who=player(count(city) + 3 + modifier(luck))
    }
}
"""
BEYOND_AT_SETUP = """
expansion far {
    setup { gain 1 coins who=player(coins + 5 + modifier(luck)) }
}
"""
# A seat the checker can tell is never one of the game's (a count is never below 0).
NEVER_A_SEAT = BEYOND_THE_TABLE.replace(" + modifier(luck)", "")


def test_a_computed_seat_the_game_has_gets_the_coins(tmp_path):
    game = Ruleset.load([str(folder(tmp_path, ROUND_THE_TABLE))]).new_game(seed=3, options=["beginner_wonders"])
    plain = new_game(seed=3, options=["beginner_wonders"])
    build = to_first_build(game)
    to_first_build(plain)   # (the same actions: the rule has heard no build yet)
    assert plain.state.history == game.state.history and plain.state.coins == game.state.coins
    me = game.to_move()
    for g in (game, plain):
        g.apply(build)
    size = len(game.items_in("city", me))
    gained = [game.state.coins[p] - plain.state.coins[p] for p in range(2)]
    assert gained == [1 if p == size % 2 else 0 for p in range(2)]


def test_a_computed_seat_beyond_the_table_stops_the_action_and_changes_nothing(tmp_path):
    game = Ruleset.load([str(folder(tmp_path, BEYOND_THE_TABLE))]).new_game(seed=3, options=["beginner_wonders"])
    build = to_first_build(game)
    before, legal = dumps(game.state), game.legal_actions()
    with pytest.raises(EffectFailed) as info:
        game.apply(build)
    exc = info.value
    assert not isinstance(exc, BudgetExceeded)
    assert exc.action == build
    assert "computed seat 4" in str(exc) and "seats of this game are 0 to 1" in str(exc)
    assert exc.chain[0] == "action `build`" and exc.chain[-1] == "rule `Gift` (when built)"
    assert dumps(game.state) == before and game.legal_actions() == legal


def test_a_computed_seat_beyond_the_table_at_setup_fails_new_game(tmp_path):
    with pytest.raises(EffectFailed, match=r"^the game's setup: `player\(...\)` computed seat \d+, .* expansion `far` \(setup\)\)$"):
        new_game([str(folder(tmp_path, BEYOND_AT_SETUP))], seed=1)


def test_simulate_prints_one_error_line(tmp_path):
    path = folder(tmp_path, BEYOND_THE_TABLE)
    result = CliRunner().invoke(cli, ["simulate", "-e", str(path), "-n", "3", "-j", "1"], catch_exceptions=False)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: game 0 (seed ")
    assert "computed seat" in lines[0] and "rule `Gift` (when built)" in lines[0]
    assert "Traceback" not in result.output


def test_check_warns_and_reports_it_from_the_trial_game(tmp_path):
    path = folder(tmp_path, BEYOND_THE_TABLE)
    found = {d.code: d for d in check_paths([path]).diagnostics}
    assert set(found) == {"W505", "E409"}
    assert "may name a seat the game does not have" in found["W505"].message
    # (said where it failed, the rule running, no longer at `players` with the exception's class)
    assert found["E409"].message.startswith("at 2 players a random game's effects failed: `player(...)` computed seat")
    assert found["E409"].message.endswith("(running: action `build` -> rule `Gift` (when built))")
    assert found["E409"].span.file == str(path / "cards.rules") and found["E409"].span.line == 2


def test_check_refuses_a_computed_seat_that_is_never_one(tmp_path):
    (found,) = check_paths([folder(tmp_path, NEVER_A_SEAT)]).diagnostics
    assert found.code == "E404" and "always 3 or more" in found.message


@pytest.mark.parametrize("expression", ["(seat + 1) % players", "min(count(city), 1)", "coins % 2",
                                        "pawn_distance % 2", "max(0, min(1, modifier(luck)))"])
def test_check_accepts_computed_seats_it_can_bound(tmp_path, expression):
    text = ROUND_THE_TABLE.replace("count(city) % 2", expression)
    assert expression in text and check_paths([folder(tmp_path, text)]).diagnostics == []


def test_a_game_of_several_counts_is_judged_at_each(tmp_path):
    rule = 'rule "Gift" {{\n    when built by=me kind=card {{\n        gain 1 coins who=player({})\n    }}\n}}\n'
    # The next seat round the table is a seat at every count from 3 to 7.
    assert check_paths([folder(tmp_path, rule.format("(seat + 1) % players"), "next")], base="classic").diagnostics == []
    # A seat from the 6th on exists at 6 and 7 players only.
    (found,) = [d for d in check_paths([folder(tmp_path, rule.format("count(city) + 5"), "far")], base="classic").diagnostics
                if d.code != "E409"]
    assert found.code == "W505" and "no seat at 3 players" in found.message


def test_verify_reports_it_with_a_shrunk_trace(tmp_path):
    path = folder(tmp_path, BEYOND_THE_TABLE)
    out = tmp_path / "failure.json"
    result = CliRunner().invoke(cli, ["verify", str(path), "-n", "2", "-j", "1", "--option", "beginner_wonders",
                                      "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "invariant `engine-error` broken" in result.output and "computed seat" in result.output
    assert "seats.py" not in result.output   # (the content's words say where, not the engine's lines)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["verify"]["invariant"] == "engine-error" and data["verify"]["then"][0] == "build"
