"""Effects that never end: the checker's E410/E411 (rulesdsl/recursion.py) and the runtime step
budget (interpreter/budget.py): a runaway action stops with BudgetExceeded naming what ran, and
leaves the game exactly as it was."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from card_folders import folder as card_folder, to_first_build
from rulesdsl.cli import cli
from rulesdsl.interpreter import MAX_REPEAT, Action, BudgetExceeded, Ruleset, machine, new_game
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.limits import DEFAULT_MAX_STEPS
from rulesdsl.report import check_paths

# Legal content (a condition stands on each circle) that nevertheless never ends once started.
ECHO = """
rule "Echo" {
    when built {
        if coins < 1000000 { build event.item free }
    }
}
"""
# Two rules set off by every build, each building again: the waiting triggers double each round.
FAN_OUT = """
rule "Echo" {
    when built { if coins < 1000000 { build event.item free } }
}
rule "Other echo" {
    when built { if coins < 1000000 { build event.item free } }
}
"""
BIG_REPEAT = """
rule "Busy" {
    when built {
        repeat coins * 1000 { gain 1 coins }
    }
}
"""
SMALL_REPEAT = """
rule "Tithe" {
    when built by=me {
        repeat 3 { gain 1 coins }
    }
}
"""
SETUP_LOOP = """
expansion spinning {
    setup { run spin }
}
procedure spin {
    if coins < 1000000 { run spin }
}
"""


def folder(tmp_path: Path, text: str, name: str = "runaway") -> Path:
    return card_folder(tmp_path, text, name)


def rules_with(tmp_path: Path, text: str) -> Ruleset:
    return Ruleset.load([str(folder(tmp_path, text))])


# -- the runtime budget -------------------------------------------------------------------------------

def test_a_runaway_action_is_stopped_and_changes_nothing(tmp_path):
    game = rules_with(tmp_path, ECHO).new_game(seed=1, options=["beginner_wonders"])
    build = to_first_build(game)
    before, legal = dumps(game.state), game.legal_actions()
    with pytest.raises(BudgetExceeded) as info:
        game.apply(build)
    exc = info.value
    assert exc.action == build
    assert f"{DEFAULT_MAX_STEPS} steps" in str(exc)
    assert exc.chain[0] == "action `build`"
    assert exc.chain[-2:] == ["rule `Echo` (when built)", "rule `Echo` (when built)"]
    assert str(exc).startswith(f"the action `{build}`: ")
    assert dumps(game.state) == before
    assert game.legal_actions() == legal
    # The game goes on: another action is played as if nothing had happened.
    discard = next(a for a in legal if a.name == "discard")
    game.apply(discard)
    again = new_game([str(tmp_path / "runaway")], seed=1, options=["beginner_wonders"])
    for h in game.state.history:
        again.apply(Action(h[0], tuple(h[1:])))
    assert dumps(again.state) == dumps(game.state)


def test_the_budget_is_a_parameter_and_restoring_works_after_any_history(tmp_path):
    rules = rules_with(tmp_path, ECHO)
    game = rules.new_game(seed=4, options=["beginner_wonders"], max_steps=300)
    assert game.max_steps == 300 and game.clone().max_steps == 300
    # Some actions first (discarding never builds), so the undo replays them.
    for _ in range(5):
        game.apply(next(a for a in game.legal_actions() if a.name == "discard"))
    before = dumps(game.state)
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="300 steps"):
        game.apply(next(a for a in game.legal_actions() if a.name == "build"))
    assert time.perf_counter() - start < 2
    assert dumps(game.state) == before
    # A copy made before fails the same way and is restored the same way.
    copy = game.clone()
    with pytest.raises(BudgetExceeded):
        copy._apply(next(a for a in copy.legal_actions() if a.name == "build"))
    assert dumps(copy.state) == before


def test_the_unchecked_path_restores_from_the_seed(tmp_path):
    # Agents and simulations use `_apply` (no legality check, no snapshot): the undo replays the
    # game from its seed.
    game = rules_with(tmp_path, ECHO).new_game(seed=2, max_steps=500)
    while True:
        legal = game.legal_actions()
        build = next((a for a in legal if a.name == "build"), None)
        if build is not None:
            break
        game._apply(legal[0])
    before = dumps(game.state)
    with pytest.raises(BudgetExceeded):
        game._apply(build)
    assert dumps(game.state) == before


def test_a_position_set_up_by_hand_is_kept(tmp_path):
    game = rules_with(tmp_path, ECHO).new_game(seed=1, options=["beginner_wonders"], max_steps=500)
    game.state.coins[0] = 31   # a test position: not reachable by replaying the actions
    before = dumps(game.state)
    with pytest.raises(BudgetExceeded):
        game.apply(to_first_build(game))
    assert dumps(game.state) == before


def test_waiting_triggers_are_bounded_too(tmp_path, monkeypatch):
    game = rules_with(tmp_path, FAN_OUT).new_game(seed=1, options=["beginner_wonders"], max_steps=2000)
    build = to_first_build(game)
    seen = []
    original = machine.schedule   # every module schedules the frames of events through it

    def watch(g, frames):
        original(g, frames)
        seen.append(len(g.state.frames))
    monkeypatch.setattr(machine, "schedule", watch)
    with pytest.raises(BudgetExceeded):
        game.apply(build)
    assert max(seen) <= 2000 + 10   # what one event adds at once, beyond the bound it then trips on


def test_a_computed_repeat_above_the_limit_stops_the_action(tmp_path):
    game = rules_with(tmp_path, BIG_REPEAT).new_game(seed=1, options=["beginner_wonders"])
    build = to_first_build(game)
    before = dumps(game.state)
    with pytest.raises(BudgetExceeded) as info:
        game.apply(build)
    assert f"more than the limit of {MAX_REPEAT}" in str(info.value)
    assert info.value.chain[-1] == "rule `Busy` (when built)"
    assert dumps(game.state) == before


def test_repeat_runs_its_rounds_in_one_frame(tmp_path):
    game = rules_with(tmp_path, SMALL_REPEAT).new_game(seed=1, options=["beginner_wonders"])
    build = to_first_build(game)
    me = game.to_move()
    price = game.price(me, game.content.item_index[build.args[0]])[0]
    coins = game.state.coins[me]
    game.apply(build)
    # The card's own effect may pay coins too: compare with the same build without the rule.
    plain = new_game(seed=1, options=["beginner_wonders"])
    for h in game.state.history[:-1]:
        plain.apply(Action(h[0], tuple(h[1:])))
    plain.apply(build)
    assert game.state.coins[me] == plain.state.coins[me] + 3
    assert coins - price <= game.state.coins[me]


def test_a_runaway_setup_raises_from_new_game(tmp_path):
    with pytest.raises(BudgetExceeded, match="^the game's setup: ") as info:
        rules_with(tmp_path, SETUP_LOOP).new_game(seed=1)
    assert "procedure `spin`" in info.value.chain


def test_the_bundled_games_stay_far_below_the_budget():
    # benchmarks/step_counts.py measures it over many games: at most a few dozen steps.
    for expansions in ((), ("pantheon", "agora")):
        game = new_game(list(expansions), seed=11)
        most = game.max_steps - game.steps_left
        import random
        rng = random.Random(11)
        while not game.over:
            game.apply(game.random_action(rng))
            most = max(most, game.max_steps - game.steps_left)
        assert 0 < most < 100 and 100 * 1000 <= DEFAULT_MAX_STEPS
    with pytest.raises(BudgetExceeded):
        new_game(seed=11, max_steps=3)


# -- the command line ---------------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_simulate_prints_one_error_line(tmp_path):
    path = folder(tmp_path, ECHO)
    result = run("simulate", "-e", path, "-n", "2", "--max-steps", "500")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    from rulesdsl.simulate import game_seed
    assert len(lines) == 1 and lines[0].startswith(f"error: game 0 (seed {game_seed(0, 0)}): the action `build ")
    assert "within 500 steps" in lines[0] and "rule `Echo` (when built)" in lines[0]
    assert "Traceback" not in result.output


def test_replay_stops_at_the_runaway_action(tmp_path):
    path = folder(tmp_path, ECHO)
    game = new_game([str(path)], seed=1, options=["beginner_wonders"])
    build = to_first_build(game)
    trace = {"format": "rulesdsl-trace", "expansions": [str(path)], "seed": 1, "options": ["beginner_wonders"],
             "actions": [list(a) for a in game.state.history] + [[build.name, *build.args]]}
    file = tmp_path / "t.json"
    file.write_text(json.dumps(trace), encoding="utf-8")
    result = run("replay", file, "--max-steps", "400")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [result.output.strip()]
    n = len(trace["actions"])   # (which action of the trace ran away, then the action)
    assert result.output.startswith(f"error: action {n} of {n}: the action `{build}`: ")
    assert "400 steps (running: action `build` -> " in result.output


def test_verify_reports_effects_end_with_a_shrunk_trace(tmp_path):
    path = folder(tmp_path, ECHO)
    out = tmp_path / "failure.json"
    result = run("verify", path, "-n", "2", "-j", "1", "--max-steps", "300", "--option", "beginner_wonders",
                 "-o", out)
    assert result.exit_code == 1, result.output
    assert "invariant `effects-end` broken" in result.output
    assert "then: build " in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["verify"]["invariant"] == "effects-end" and data["verify"]["max_steps"] == 300
    assert data["verify"]["then"][0] == "build"
    # Shrunk: a build is the first action possible with the beginner wonders.
    assert data["actions"] == []
    again = run("verify", "--trace", out)
    assert again.exit_code == 1 and "effects-end" in again.output


# -- the checker ------------------------------------------------------------------------------------------

def codes(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    """What the checker's static passes say (before `check` plays its trial games)."""
    from rulesdsl.checker import check
    from rulesdsl.loader import load_paths
    from rulesdsl.report import layers_for
    file = tmp_path / "cards.rules"
    file.write_text(text, encoding="utf-8")
    merged = load_paths(layers_for(file))
    return [(d.code, d.span.line) for d in merged.diagnostics + check(merged)]


def test_a_circle_the_checker_cannot_judge_is_found_by_the_trial_games(tmp_path):
    file = tmp_path / "cards.rules"
    file.write_text('rule "Echo" {\n    when built color=blue { build event.item free }\n}\n', encoding="utf-8")
    (found,) = [d for d in check_paths([file]).diagnostics if d.code == "E409"]
    assert "effects did not end" in found.message and "at 2 players" in found.message
    assert "rule `Echo`" in found.message and (found.span.file, found.span.line) == (str(file), 1)   # at the rule


@pytest.mark.parametrize("text", [
    # a condition on the way
    "procedure spin {\n    if coins < 20 { gain 1 coin; run spin }\n}\n",
    "procedure spin {\n    choose 1 from city { run spin }\n}\n",
    # the game may end first
    "procedure spin {\n    win civilian\n    run spin\n}\n",
    # the trigger may not match (the opponent's builds only; blue cards only)
    'card "Echo Hall" {\n    age 1\n    color blue\n    when built by=opponent { build this free }\n}\n',
    'rule "Echo" {\n    when built color=blue { build event.item free }\n}\n',
    # a repeat of 0 rounds never runs its block
    "procedure spin {\n    repeat 0 { run spin }\n}\n",
    # building sets off `built`, not the `acquired` this card waits for
    'card "Echo Hall" {\n    age 1\n    color blue\n    when acquired { build this free }\n}\n',
    # taken again into a zone that is not `active`: its trigger no longer works
    'expansion relics {\n    item_kinds relic\n    zone relics player\n    build_zone relic relics\n}\n'
    'relic "Echo Relic" {\n    when acquired { acquire this }\n}\n'
    'rule "Find" {\n    when built kind=wonder { acquire "Echo Relic" }\n}\n',  # (an item nothing names is E406)
    ECHO, FAN_OUT, BIG_REPEAT, SMALL_REPEAT,
])
def test_circles_that_may_end_are_legal(tmp_path, text):
    assert codes(tmp_path, text) == []


@pytest.mark.parametrize("text, line", [
    ("procedure spin {\n    gain 1 coin\n    run spin\n}\n", 3),
    ("procedure spin {\n    each_player { repeat 2 { run spin } }\n}\n", 2),
    ('token "Echo Token" {\n    gain 1 coin\n    trigger this\n}\n', 3),
    ('token "Echo Token" {\n    build this free\n}\n', 2),
    ('card "Echo Hall" {\n    age 1\n    color blue\n    when built by=me { build this free }\n}\n', 4),
    ('card "Echo Hall" {\n    age 1\n    color blue\n    when built color=blue via=free { build this free }\n}\n', 4),
    # through a procedure and another item's effect
    ('procedure echo {\n    trigger "Echo Token"\n}\ntoken "Echo Token" {\n    run echo\n}\n', 2),
])
def test_circles_that_never_end_are_E410(tmp_path, text, line):
    assert codes(tmp_path, text) == [("E410", line)]


def test_E410_names_the_circle(tmp_path):
    file = tmp_path / "cards.rules"
    file.write_text('procedure a {\n    run b\n}\nprocedure b {\n    run c\n}\nprocedure c {\n    run a\n}\n',
                    encoding="utf-8")
    report = check_paths([file])
    assert len(report.diagnostics) == 1
    d = report.diagnostics[0]
    assert d.message == "this never ends: procedure `a` -> procedure `b` -> procedure `c` -> procedure `a`"
    assert "condition" in d.help
    assert "2 |     run b" in report.human() and "^^^^^" in report.human()


def test_repeat_counts_above_the_limit_are_E411(tmp_path):
    text = ("token \"Busy Token\" {\n    repeat 99999 { repeat 99999 { repeat 99999 { gain 1 coins } } }\n"
            f"    repeat {MAX_REPEAT} {{ gain 1 coin }}\n    repeat 2 * {MAX_REPEAT} {{ gain 1 coin }}\n}}\n")
    assert codes(tmp_path, text) == [("E411", 2), ("E411", 2), ("E411", 2), ("E411", 4)]


# -- a game that never ends -----------------------------------------------------------------------------

def endless_game(tmp_path: Path) -> Path:
    """The base game where no age ends and an action stays legal: every game goes on for ever
    (`check` says so, E409; content whose trial game happened to end would not be told)."""
    import shutil
    base = tmp_path / "endless"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "duel", base)
    game = base / "game.rules"
    game.write_text(game.read_text(encoding="utf-8").replace("    players 2\n", "    players 2\n    age_ends when false\n", 1),
                    encoding="utf-8")
    (base / "pass.rules").write_text("action pass { gain 0 coins }\n", encoding="utf-8")
    return base


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_stops_a_game_that_never_ends(tmp_path, jobs):
    from rulesdsl.limits import MAX_GAME_ACTIONS
    from rulesdsl.simulate import game_seed
    result = run("simulate", "-g", endless_game(tmp_path), "-n", "25", "-j", jobs)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"error: game 0 (seed {game_seed(0, 0)}): the game did not end within {MAX_GAME_ACTIONS} actions "
        "(the last: `pass`)"]


def test_balance_stops_a_game_that_never_ends(tmp_path):
    result = run("balance", "-g", endless_game(tmp_path), "-n", "2", "--agents", "greedy,random", "-j", "1")
    assert result.exit_code == 1
    assert "the game did not end within 20000 actions (the last: `pass`)" in result.output
    assert "Traceback" not in result.output


def test_the_search_stops_a_playout_that_never_ends(tmp_path):
    from rulesdsl.interpreter import GameTooLong
    from rulesdsl.interpreter.agents import MCTSAgent
    rules = Ruleset.load([], base=endless_game(tmp_path))
    game = rules.new_game(seed=0)
    with pytest.raises(GameTooLong, match="did not end within 20000 actions"):
        MCTSAgent(iterations=2).act(game)
