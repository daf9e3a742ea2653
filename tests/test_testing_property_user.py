"""A property tester's day with rulesdsl.testing: the plugin's fixtures, what a failing
hypothesis test shows (the way to a stuck game, a falsifying Playthrough one can paste back),
and how a mistake in the user's content reads inside a test run."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis.vendor.pretty import pretty

from rulesdsl.interpreter import Action, BudgetExceeded, GameStuck
from rulesdsl.testing import check_game
from rulesdsl.testing import strategies as rs

ROOT = Path(__file__).resolve().parent.parent


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest on a user's folder, in a child process (its own hypothesis database)."""
    return subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                           *args, str(folder)], capture_output=True, text=True, cwd=folder, timeout=600)


# -- the fixtures ----------------------------------------------------------------------------------

def test_the_game_factory_reads_one_name_alone_as_one_name(rulesdsl_new_game):
    # `tuple("pantheon")` made it the letters p, a, n, ...: "unknown expansion `p`"
    game = rulesdsl_new_game("pantheon", seed=3)
    assert "god" in game.content.item_kinds
    game = rulesdsl_new_game(options="beginner_wonders")
    assert game.state.pending is None      # no wonder draft to answer first
    assert game.legal_actions()


# -- what a failure shows ---------------------------------------------------------------------------

RUNAWAY = '''expansion runaway {
    base duel
}

card "Money Pit" {
    age 1
    color yellow
    repeat 1001 + coins {    # a computed count above 1000 rounds: the action cannot go on
        gain 1 coin
    }
}
'''


def replayed(note: str):
    """The `Playthrough.of(...)` of a note, evaluated as a user pasting it would."""
    source = note.split("reached by: ", 1)[1].split("\nthen ", 1)[0]
    return eval(source, {"Playthrough": rs.Playthrough, "Setup": rs.Setup})   # noqa: S307


def test_a_stuck_game_found_while_drawing_says_how_to_reach_it():
    # The error is raised while the example is drawn: hypothesis prints no falsifying example,
    # and the shrunk way to the stuck position was lost (only "player 0 has no legal action").
    @settings(max_examples=30, database=None, deadline=None, derandomize=True)
    @given(rs.finished_games(expansions=[str(ROOT / "tests" / "data" / "no_discard")]))
    def every_game_ends(play):
        pass

    with pytest.raises(GameStuck) as info:
        every_game_ends()
    note = next(n for n in info.value.__notes__ if n.startswith("reached by: "))
    play = replayed(note)
    assert len(play.actions) >= 6 and not play.game.over
    assert play.game.legal_actions() == []           # the stuck position itself


def test_an_action_that_raises_while_drawing_is_named_with_the_way_to_it(tmp_path):
    (tmp_path / "runaway").mkdir()
    (tmp_path / "runaway" / "x.rules").write_text(RUNAWAY, encoding="utf-8")

    @settings(max_examples=50, database=None, deadline=None, derandomize=True)
    @given(rs.action_sequences(expansions=[str(tmp_path / "runaway")], options="beginner_wonders"))
    def nothing_raises(play):
        pass

    with pytest.raises(BudgetExceeded) as info:
        nothing_raises()
    note = next(n for n in info.value.__notes__ if n.startswith("reached by: "))
    assert note.endswith('then the action `build "Money Pit"` raised this')
    play = replayed(note)
    with pytest.raises(BudgetExceeded):
        play.game.apply(Action.parse('build "Money Pit"'))


def test_a_falsifying_playthrough_prints_as_python_that_makes_it_again():
    setup = rs.Setup(expansions=("pantheon",), seed=5)
    game, actions = setup.new_game(), []
    for _ in range(3):
        actions.append(game.legal_actions()[-1])
        game.apply(actions[-1])
    play = rs.Playthrough.of(setup, [str(a) for a in actions])
    shown = pretty(play)
    assert "<" not in shown and "object at" not in shown     # (was: game=<...Game object at 0x...>)
    assert shown.splitlines()[0] == "Playthrough.of(Setup(base='duel', expansions=('pantheon',), seed=5), ["
    again = eval(shown, {"Playthrough": rs.Playthrough, "Setup": rs.Setup})   # noqa: S307
    assert again.actions == play.actions and again.game.state == play.game.state
    assert pretty(play.setup) == repr(play.setup)


def test_hypothesis_prints_the_falsifying_playthrough_to_paste(tmp_path):
    (tmp_path / "test_user.py").write_text(
        "from hypothesis import given, settings\n"
        "from rulesdsl.testing import strategies as rs\n"
        "@settings(derandomize=True, database=None)\n"
        "@given(rs.action_sequences())\n"
        "def test_nobody_builds(play):\n"
        "    assert not any(a.name == 'build' for a in play.actions)\n", encoding="utf-8")
    proc = run_pytest(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "play=Playthrough.of(Setup(base='duel', seed=" in out and "object at 0x" not in out
    assert re.search(r"^E +'build [^']+',$", out, re.M), out      # one action a line


# -- a mistake in the user's content, inside a test run ------------------------------------------

BROKEN_CARDS = '''expansion broken_fan {
    base duel
}

card "Oops" {
    age 1
    colr yellow
}
'''

USERS_TESTS = f'''from pathlib import Path
from hypothesis import given
from rulesdsl.testing import run_checked, strategies as rs

HERE = Path(__file__).resolve().parent


def test_my_cards_load(rulesdsl_new_game):
    rulesdsl_new_game([str(HERE / "broken_fan")])


@given(rs.action_sequences(expansions=[str(HERE / "broken_fan")]))
def test_my_cards_play(play):
    pass


def test_the_designer_invariant(rulesdsl_new_game):
    run_checked(rulesdsl_new_game([{str(ROOT / "tests" / "data" / "broken_coins")!r}], seed=648013244), rng=5)
'''


def users_folder(tmp_path: Path) -> Path:
    (tmp_path / "broken_fan").mkdir()
    (tmp_path / "broken_fan" / "cards.rules").write_text(BROKEN_CARDS, encoding="utf-8")
    (tmp_path / "test_mine.py").write_text(USERS_TESTS, encoding="utf-8")
    return tmp_path


def test_an_error_of_the_users_content_is_reported_without_the_engines_frames(tmp_path):
    proc = run_pytest(users_folder(tmp_path))
    out = proc.stdout
    assert proc.returncode == 1 and "3 failed" in out, out + proc.stderr
    # (each was a page of loader, pipeline or invariant-checker code and its locals)
    for inside in ("pipeline.py", "loader.py", "invariants.py", "strategies.py", "def compile_layers", "def check_only"):
        assert inside not in out, inside
    assert "test_mine.py:9: RulesError" in out and "test_mine.py:13: RulesError" in out
    assert "test_mine.py:18: InvariantViolation" in out
    assert "error[E201]: unknown statement `colr`" in out
    # every error of the cards, not the first one alone ("(and 1 more errors)"), in each of the two
    # failures; counted above the short summary, which repeats whole messages when CI is set
    failures = out.split("short test summary info")[0]
    assert failures.count("error[E104]: card `Oops` needs `color`") == 2, out
    assert "is false for player 0: age is 1, coins is" in out


def test_full_trace_keeps_the_engines_frames(tmp_path):
    proc = run_pytest(users_folder(tmp_path), "--full-trace", "-k", "load")
    assert "def compile_layers" in proc.stdout and "1 failed" in proc.stdout, proc.stdout


def test_cards_that_do_not_load_are_loaded_once_however_many_examples_fail(tmp_path, monkeypatch):
    # Loaded afresh for each of some hundred failing examples (hypothesis's explain phase traces
    # each), a typo in the cards took 30 s to report.
    from rulesdsl import pipeline
    from rulesdsl.diagnostics import RulesError
    loads = []

    def counted(*args, **kwargs):
        loads.append(args)
        return load(*args, **kwargs)
    load = pipeline.load_ruleset
    monkeypatch.setattr(pipeline, "load_ruleset", counted)
    folder = users_folder(tmp_path) / "broken_fan"

    @settings(database=None, deadline=None)
    @given(rs.action_sequences(expansions=[str(folder)]))
    def my_cards_play(play):
        pass

    with pytest.raises(RulesError, match="card `Oops` needs `color`"):   # (the first in the file; not hypothesis's FlakyFailure)
        my_cards_play()
    assert len(loads) == 1


# -- scenarios under pytest ----------------------------------------------------------------------------

FOUR_SEATS = '''scenario "four seats" {
    expect coins(3) == 3
}
'''


def test_pytest_runs_scenarios_for_the_game_and_count_rulesdsl_test_takes(tmp_path):
    # `rulesdsl test --game classic --players 4` ran it; pytest had no way to: it failed on Duel.
    (tmp_path / "seats.scenario").write_text(FOUR_SEATS, encoding="utf-8")
    assert "1 failed" in run_pytest(tmp_path).stdout
    proc = run_pytest(tmp_path, "--rulesdsl-game", "classic", "--rulesdsl-players", "4")
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr


def test_a_player_out_of_range_is_told_the_players_of_this_game(tmp_path):
    from rulesdsl.testing import scenarios as S
    (tmp_path / "seats.scenario").write_text(FOUR_SEATS, encoding="utf-8")
    [result] = S.run_file(tmp_path / "seats.scenario", base="classic")
    shown = result.render()
    assert "a number from 0 to 2" in shown
    assert "players are 0 to 2; 0 starts" in shown and "0 and 1" not in shown     # (was: "players are 0 and 1")
    [result] = S.run_file(tmp_path / "seats.scenario")
    assert "players are 0 and 1; 0 starts" in result.render()


def test_a_strategy_argument_that_is_not_a_strategy_is_a_type_error_at_once():
    # (accepted, it failed once drawn: "'int' object has no attribute 'validate'" from hypothesis)
    with pytest.raises(TypeError, match=r"setups must be a hypothesis strategy \(e.g. setups=rs.setups\(...\)\), not int"):
        rs.action_sequences(setups=3)
    with pytest.raises(TypeError, match="setups must be a hypothesis strategy"):
        rs.finished_games(setups=rs.Setup())
    for make in (rs.setups, rs.scripted_setups):
        with pytest.raises(TypeError, match=r"seeds must be a hypothesis strategy \(e.g. seeds=st.just\(3\)\), not list"):
            make(seeds=[1, 2])


def test_cards_that_do_not_load_in_a_fixture_are_reported_without_pytests_frames(tmp_path):
    # (an error while a fixture of the user's was set up showed pytest's runner and pluggy first)
    folder = users_folder(tmp_path)
    (folder / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef my_game(rulesdsl_new_game):\n"
        "    return rulesdsl_new_game(['broken_fan'])\n", encoding="utf-8")
    (folder / "test_mine.py").write_text("def test_uses(my_game):\n    assert my_game\n", encoding="utf-8")
    proc = run_pytest(folder)
    out = proc.stdout
    assert "1 error" in out and "conftest.py:6: RulesError" in out, out
    for inside in ("_pytest", "pluggy", "def from_call", "pipeline.py"):
        assert inside not in out, inside


# -- how soon a failing property is reported ----------------------------------------------------------

def hypothesis_traces() -> bool:
    """Whether hypothesis's line tracer (its `explain` phase) is on in this thread."""
    from rulesdsl.testing.untraced import _hypothesis_monitoring, _hypothesis_trace
    return _hypothesis_trace() is not None or _hypothesis_monitoring() is not None


def test_the_engine_runs_out_of_sight_of_hypothesis_while_it_shrinks(monkeypatch):
    # Once a test has failed, hypothesis traces every line of every example it tries while it
    # shrinks: traced too, each game drawn ran 7-10x slower, and a failing property over finished
    # games took half a minute and more to report (the lines found were the engine's anyway).
    from rulesdsl.interpreter.game import Game
    if sys.gettrace() is not None:
        pytest.skip("a coverage tool or debugger traces this run: hypothesis traces nothing then")
    seen = {"engine traced": 0, "engine untraced": 0, "body traced": 0}

    def watched(method):
        def run(*args, **kwargs):
            seen["engine traced" if hypothesis_traces() else "engine untraced"] += 1
            return method(*args, **kwargs)
        return run
    monkeypatch.setattr(Game, "apply", watched(Game.apply))
    monkeypatch.setattr(Game, "legal_actions", watched(Game.legal_actions))

    @settings(max_examples=50, database=None, deadline=None, derandomize=True)
    @given(rs.action_sequences(max_actions=30))
    def nobody_builds(play):
        seen["body traced"] += hypothesis_traces()
        check_game(play.game)
        play.replay()
        assert not any(a.name == "build" for a in play.actions)

    with pytest.raises(AssertionError):
        nobody_builds()
    assert seen["body traced"] > 10, seen          # the test's own lines are still traced
    assert seen["engine traced"] == 0 and seen["engine untraced"] > 1000, seen



def test_a_tracer_other_than_hypothesis_is_left_alone():
    # (a coverage tool or a debugger must keep seeing the engine's lines)
    from rulesdsl.testing.untraced import untraced

    def tracer(frame, event, arg):
        return None
    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        with untraced():
            inside = sys.gettrace()
        after = sys.gettrace()
    finally:
        sys.settrace(before)
    assert inside is tracer and after is tracer


@contextlib.contextmanager
def line_tool(name: str):
    """A free `sys.monitoring` tool id taken under `name`, hearing LINE events; freed after
    (unless the block freed it already)."""
    tool = next(t for t in range(6) if sys.monitoring.get_tool(t) is None)
    sys.monitoring.use_tool_id(tool, name)
    try:
        sys.monitoring.set_events(tool, sys.monitoring.events.LINE)
        yield tool
    finally:
        if sys.monitoring.get_tool(tool) is not None:
            sys.monitoring.set_events(tool, 0)
            sys.monitoring.free_tool_id(tool)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is Python 3.12's")
def test_a_monitoring_tool_other_than_hypothesis_is_left_alone():
    # (coverage.py's `sysmon` core is such a tool: it must keep seeing the engine's lines)
    from rulesdsl.testing.untraced import untraced
    line = sys.monitoring.events.LINE
    with line_tool("coverage.py") as tool:
        with untraced():
            inside = sys.monitoring.get_events(tool)
        after = sys.monitoring.get_events(tool)
    assert inside == line and after == line


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is Python 3.12's")
def test_hypothesis_giving_its_monitoring_tool_back_inside_the_block_is_no_error():
    # A tool's events are the whole process's: a test of another thread can end, and free
    # hypothesis's tool, while this thread runs the engine.  Restoring the events of the freed
    # tool raised ValueError ("tool 3 is not in use") out of the engine's block.
    from rulesdsl.testing.untraced import untraced
    line = sys.monitoring.events.LINE
    with line_tool("scrutineer") as tool:
        with untraced():
            suspended = sys.monitoring.get_events(tool)
        restored = sys.monitoring.get_events(tool)
        with untraced():
            sys.monitoring.free_tool_id(tool)
        freed = sys.monitoring.get_tool(tool)
        sys.monitoring.use_tool_id(tool, "scrutineer")
        with untraced():
            sys.monitoring.set_events(tool, 0)
            sys.monitoring.free_tool_id(tool)
            sys.monitoring.use_tool_id(tool, "scrutineer")   # taken anew, its events its own
            sys.monitoring.set_events(tool, sys.monitoring.events.CALL)
        retaken = sys.monitoring.get_events(tool)
    assert suspended == 0 and restored == line
    assert freed is None
    assert retaken == sys.monitoring.events.CALL

USERS_PROPERTY = '''from hypothesis import given, settings
from rulesdsl.testing import strategies as rs

@settings(database=None)
@given(rs.finished_games())
def test_nobody_ends_rich(play):
    assert max(play.game.state.coins) <= 20
'''


def test_a_failing_property_of_finished_games_is_reported_in_seconds(tmp_path):
    # Measured on a 2-core machine with CI=1 (hypothesis's `ci` profile: derandomized): 31 s
    # to the report before, 6 s once the engine ran untraced; the same 932 examples tried and
    # the same shrunk game.  Against the time plain games take here, not a wall-clock bound:
    # the ratio was 19 before, under 5 after.
    import os
    import random
    import time
    (tmp_path / "test_rich.py").write_text(USERS_PROPERTY, encoding="utf-8")
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                           str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, timeout=600,
                          env={**os.environ, "CI": "1"})
    took = time.perf_counter() - started
    out = proc.stdout
    assert proc.returncode == 1 and "1 failed" in out, out + proc.stderr
    assert "play=Playthrough.of(Setup(base='duel', seed=" in out      # the pasteable game, kept
    started = time.perf_counter()
    for seed in range(300):      # a third of the games the report tries, played as the strategy does
        game, rng = rs.Setup(seed=seed).new_game(), random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
    plain = 3 * (time.perf_counter() - started)
    assert took < 10 * plain, (took, plain)
