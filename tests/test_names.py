"""One set of names everywhere: unknown game options, expansions, games, agents and seats are
refused with did-you-mean alike by the API, every command and scenarios; output paths are checked
before any work and written atomically; `rulesdsl list`."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdsl.files
from rulesdsl.cli import cli
from rulesdsl.files import FileProblem
from rulesdsl.interpreter import load_ruleset, new_game
from rulesdsl.interpreter.agents import make_agent
from rulesdsl.interpreter.observation import observe
from rulesdsl.simulate import simulate
from rulesdsl.trace import save_trace
from rulesdsl.loader import resolve_layers
from rulesdsl.names import UnknownName
from rulesdsl.testing import scenarios as S
from rulesdsl.testing.verify import verify

DATA = Path(__file__).resolve().parent / "data"
BROKEN_COINS = str(DATA / "broken_coins")   # verify finds a failure in it within a second
RULES = load_ruleset()


def run(*args, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def error_line(result) -> str:
    """The last line click printed: the usage error, or our `error:` line."""
    return result.output.strip().splitlines()[-1]


# -- the API ---------------------------------------------------------------------------------------

def test_an_unknown_game_option_is_refused_with_did_you_mean():
    for make in (lambda: new_game(seed=1, options=["beginers_wonders"]),
                 lambda: RULES.new_game(seed=1, options=["beginers_wonders"])):
        with pytest.raises(UnknownName) as info:
            make()
        assert str(info.value) == ("unknown game option `beginers_wonders`; did you mean `beginner_wonders`? "
                                   "game options: beginner_wonders")
        assert isinstance(info.value, ValueError) and info.value.help == "did you mean `beginner_wonders`?"


def test_known_options_still_work_and_a_string_is_one_option():
    listed = RULES.new_game(seed=1, options=["beginner_wonders"])
    single = RULES.new_game(seed=1, options="beginner_wonders")   # not the letters b, e, g, ...
    assert listed.state.options == single.state.options == ["beginner_wonders"]
    assert listed.state.age == 0 and listed.state.pending is None
    assert RULES.content.options == ("beginner_wonders",)


def test_a_non_name_option_is_refused():
    with pytest.raises(UnknownName, match="unknown game option `3`"):
        RULES.new_game(options=[3])


def test_an_unknown_expansion_lists_the_names_the_flag_takes():
    with pytest.raises(UnknownName) as info:
        load_ruleset(["pantheo"])
    assert str(info.value) == ("unknown expansion `pantheo`; did you mean `pantheon`? expansions: agora, pantheon (for duel); "
                               "nor is there a folder `pantheo` here")
    # A folder name is still accepted (and suggested), but the list shows the expansion names.
    with pytest.raises(UnknownName) as info:
        load_ruleset(["duel-pantheo"])
    assert str(info.value).startswith("unknown expansion `duel-pantheo`; did you mean `duel-pantheon`?")
    assert str(info.value).endswith("expansions: agora, pantheon (for duel); nor is there a folder `duel-pantheo` here")
    assert resolve_layers(["duel-pantheon"]) == resolve_layers(["pantheon"])


def test_games_and_expansions_are_different_kinds_of_name():
    with pytest.raises(UnknownName, match=r"^unknown game `pantheon`; games: classic, duel; nor is there a folder `pantheon` here$"):
        load_ruleset(base="pantheon")
    with pytest.raises(UnknownName, match=r"^unknown expansion `duel`; expansions: agora, pantheon \(for duel\); nor is there a folder `duel` here$"):
        load_ruleset(["duel"])


def test_a_game_or_an_expansion_given_as_anything_but_a_name_or_a_folder_is_a_type_error():
    # A loaded ruleset passed where its game's name goes was read as a file name: the error
    # message was its whole text (140,000 characters), and an int among the expansions failed
    # inside the loader ("argument of type 'int' is not iterable").
    from rulesdsl.pipeline import Ruleset, compile_layers

    for call in (lambda: load_ruleset(base=RULES), lambda: new_game(base=RULES), lambda: Ruleset.load(base=3),
                 lambda: compile_layers(base=RULES), lambda: load_ruleset(base=b"duel")):
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value).startswith("the base game is a name or a folder (a string or a path), not ")
        assert len(str(info.value)) < 80
    for call in (lambda: load_ruleset([5]), lambda: load_ruleset(["pantheon", RULES]),
                 lambda: Ruleset.load([None]), lambda: compile_layers([3.5])):
        with pytest.raises(TypeError, match=r"^an expansion is a name or a folder \(a string or a path\), not "):
            call()
    # None is the default, no longer a TypeError: the game the expansions' `base` names, else
    # the bundled base game (test_expansion_base.py).
    assert load_ruleset(base=None) is load_ruleset() is load_ruleset((), "duel")
    assert load_ruleset(["pantheon"], None) is load_ruleset(["pantheon"], "duel")
    # Names and folders, as strings or paths, load as before.
    from rulesdsl.loader import bundled_folder

    assert load_ruleset("pantheon", base=Path("duel")).content is load_ruleset(["pantheon"]).content
    by_folder = load_ruleset([bundled_folder("pantheon")], base=bundled_folder("duel")).content
    assert [it.name for it in by_folder.items] == [it.name for it in load_ruleset(["pantheon"]).content.items]


def test_simulate_refuses_a_count_of_games_or_jobs_it_cannot_play_and_a_game_by_name():
    # A negative count played nothing and `jobs=0` played on one process, both silently; a game's
    # name where the ruleset goes failed on an attribute ("'str' object has no attribute 'content'").
    with pytest.raises(ValueError, match=r"^the number of games must be an integer of at least 0, not -1$"):
        simulate(RULES, -1)
    with pytest.raises(TypeError, match=r"^the number of games must be an integer of at least 0, not '5'$"):
        simulate(RULES, "5")
    with pytest.raises(ValueError, match=r"^jobs must be an integer of at least 1, not 0$"):
        simulate(RULES, 2, jobs=0)
    with pytest.raises(TypeError, match=r"^rules must be a Ruleset \(`load_ruleset\(...\)`\), not str$"):
        simulate("duel", 2)
    assert simulate(RULES, 0)["games"] == 0 and simulate(RULES, 2, jobs=2)["games"] == 2


def test_verify_refuses_counts_it_cannot_play_and_takes_a_ruleset_for_its_content():
    # A negative count reported -1 games verified, `max_actions=0` games of no action (every
    # invariant "held"), `jobs=0` ran on one process and a float seed was hashed: all silently.
    # A Ruleset where its content goes failed on an attribute; it is taken for its content.
    for call, kind, message in ((lambda: verify(RULES.content, -1), ValueError, "the number of games must be"),
                                (lambda: verify(RULES.content, 1, max_actions=0), ValueError, "max_actions must be"),
                                (lambda: verify(RULES.content, 1, jobs=0), ValueError, "jobs must be"),
                                (lambda: verify(RULES.content, 1, seed=1.5), ValueError, "the seed must be an integer"),
                                (lambda: verify("duel", 1), TypeError, "content must be compiled content or a Ruleset")):
        with pytest.raises(kind, match=f"^{message}"):
            call()
    by_ruleset, by_content = verify(RULES, 2, seed=3), verify(RULES.content, 2, seed=3)
    assert by_ruleset.ok and by_ruleset.actions == by_content.actions > 0


def test_unknown_agents_and_seats():
    with pytest.raises(UnknownName, match=r"^unknown agent `gredy`; did you mean `greedy`\? agents: random, greedy, mcts$"):
        make_agent("gredy", 1)
    with pytest.raises(ValueError, match="1 agent given, the game has 2 seats"):
        simulate(RULES, 1, agents=["random"])
    with pytest.raises(UnknownName, match="unknown agent `clever`"):
        simulate(RULES, 1, agents=["random", "clever"])
    game = RULES.new_game(seed=1)
    with pytest.raises(UnknownName, match=r"^unknown seat `2`; seats: 0, 1$"):
        observe(game, 2)
    with pytest.raises(UnknownName, match="unknown seat `-1`"):
        observe(game, -1)
    assert observe(game, 1)["to_move"] == 0
    # (a bot author's state or save text for the game was an AttributeError on `content`)
    for wrong in (game.state, "game", None):
        with pytest.raises(TypeError, match="^observe looks at a Game, not "):
            observe(wrong, 0)


def test_verify_refuses_an_unknown_option_before_playing():
    with pytest.raises(UnknownName, match="did you mean `beginner_wonders`"):
        verify(RULES.content, 5, options=["beginers_wonders"])


def test_names_with_control_characters_are_shown_escaped():
    with pytest.raises(UnknownName) as info:
        make_agent("gre\x1b[2Jedy", 1)
    assert "\x1b" not in str(info.value) and "`gre\\x1b[2Jedy`" in str(info.value)


# -- scenarios use the same checks -----------------------------------------------------------------

def test_scenarios_refuse_unknown_options_and_expansions_with_did_you_mean(tmp_path):
    option = tmp_path / "option.scenario"
    option.write_text('scenario "opt" {\n    option beginers_wonders\n    expect coins(me) == 7\n}\n', encoding="utf-8")
    text = S.run_paths([option]).human()
    assert "2:12: error[S301]: the game has no option `beginers_wonders`" in text
    assert "help: did you mean `beginner_wonders`?" in text
    expansion = tmp_path / "expansion.scenario"
    expansion.write_text('scenario "exp" {\n    expansion pantheo\n    expect coins(me) == 7\n}\n', encoding="utf-8")
    text = S.run_paths([expansion]).human()
    assert "2:5: error[S401]: unknown expansion `pantheo`; did you mean `pantheon`? expansions: agora, pantheon (for duel)" in text


# -- every command ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, line", [
    (["simulate", "-n", "1", "--agents", "random,gredy"],
     "Error: Invalid value for --agents: unknown agent `gredy`; did you mean `greedy`? agents: random, greedy, mcts"),
    (["simulate", "-n", "1", "-e", "pantheo"],
     "Error: Invalid value for --expansion: unknown expansion `pantheo`; did you mean `pantheon`? expansions: agora, pantheon (for duel)"),
    (["play", "--agent", "hman"],
     "Error: Invalid value for --agent: unknown agent `hman`; did you mean `human`? agents: human, random, greedy, mcts"),
    (["play", "--seat", "2"], "Error: Invalid value for --seat: unknown seat `2`; seats: 0, 1"),
    (["play", "-e", "agor"],
     "Error: Invalid value for --expansion: unknown expansion `agor`; did you mean `agora`? expansions: agora, pantheon (for duel)"),
    (["explain", "Pyramids", "-e", "agor"],
     "Error: Invalid value for --expansion: unknown expansion `agor`; did you mean `agora`? expansions: agora, pantheon (for duel)"),
    (["verify", "-n", "1", "--option", "beginers_wonders"],
     "Error: Invalid value for --option: unknown game option `beginers_wonders`; did you mean `beginner_wonders`? "
     "game options: beginner_wonders"),
    (["verify", "-n", "1", "-e", "pantheo"],
     "Error: Invalid value for --expansion: unknown expansion `pantheo`; did you mean `pantheon`? expansions: agora, pantheon (for duel)"),
    (["list", "crads"], "Error: Invalid value for KIND: unknown kind `crads`; did you mean `cards`?"),
    # (a kind a bundled expansion of the game declares, not loaded: the expansion to add, found
    # by its `base`, as the checker names it for a name of that expansion)
    (["list", "conspiracies"],
     "Error: Invalid value for KIND: unknown kind `conspiracies`; `conspiracy` is a kind of the bundled expansion "
     "agora: add -e agora"),
    (["list", "god"],
     "Error: Invalid value for KIND: unknown kind `god`; `god` is a kind of the bundled expansion pantheon: "
     "add -e pantheon"),
    (["list", "gods", "--game", "classic"],   # (Pantheon is not an expansion of the classic game)
     "Error: Invalid value for KIND: unknown kind `gods`; did you mean `boards`? kinds: "),
])
def test_unknown_names_are_usage_errors(args, line):
    result = run(*args, input="q\n")
    assert result.exit_code == 2, result.output
    assert error_line(result).startswith(line), result.output
    assert "seed" not in result.output and "verify:" not in result.output   # refused before any game


def test_replaying_a_trace_with_an_unknown_option_is_an_error(tmp_path):
    path = tmp_path / "t.json"
    save_trace(RULES.new_game(seed=3), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["options"] = ["beginers_wonders"]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1
    assert result.output.strip() == ("error: unknown game option `beginers_wonders`; did you mean "
                                     "`beginner_wonders`? game options: beginner_wonders")


# -- output paths ----------------------------------------------------------------------------------

class _FailingOs:
    """`os` for rulesdsl.files, failing after the data is written and before the rename."""

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def fsync(fd):
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("command", [["play", "--agent", "human", "--seed", "2", "--save"],
                                     ["verify", BROKEN_COINS, "-n", "100", "-j", "1", "-o"]])
def test_an_unwritable_output_path_is_refused_before_any_work(tmp_path, command):
    target = tmp_path / "missing" / "out.json"
    result = run(*command, target, input="q\n")
    assert result.exit_code == 1, result.output
    assert result.output.strip() == f"error: cannot write {target}: no folder {target.parent}"  # nothing played first
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = run(*command, fifo, input="q\n")
    assert result.exit_code == 1, result.output
    assert result.output.strip() == f"error: cannot write {fifo}: not a regular file"
    folder = run(*command, tmp_path, input="q\n")      # click's own check: a usage error
    assert folder.exit_code == 2 and "is a directory" in folder.output


def test_save_trace_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("the old trace\n", encoding="utf-8")
    monkeypatch.setattr(rulesdsl.files, "os", _FailingOs())
    with pytest.raises(FileProblem, match="cannot write .*game.json: No space left on device"):
        save_trace(RULES.new_game(seed=3), path)
    assert path.read_text(encoding="utf-8") == "the old trace\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]   # no temporary file left
    monkeypatch.undo()
    save_trace(RULES.new_game(seed=3), path)
    assert json.loads(path.read_text(encoding="utf-8"))["seed"] == 3


@pytest.mark.parametrize("command", [["play", "--agent", "human", "--seed", "2", "--save"],
                                     ["verify", BROKEN_COINS, "-n", "100", "-j", "1", "-o"]])
def test_a_failed_write_is_one_error_line_and_keeps_the_old_file(tmp_path, monkeypatch, command):
    path = tmp_path / "out.json"
    path.write_text("the old trace\n", encoding="utf-8")
    monkeypatch.setattr(rulesdsl.files, "os", _FailingOs())
    result = run(*command, path, input="1\nq\n")
    assert result.exit_code == 1, result.output
    assert error_line(result) == f"error: cannot write {path}: No space left on device"
    assert "Traceback" not in result.output and "trace written" not in result.output
    assert path.read_text(encoding="utf-8") == "the old trace\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


# -- rulesdsl list ---------------------------------------------------------------------------------

def test_list_without_a_kind_gives_kinds_and_counts():
    result = run("list")
    assert result.exit_code == 0, result.output
    counts = dict(line.split() for line in result.output.splitlines())
    assert counts["card"] == "73" and counts["wonder"] == "12" and counts["token"] == "10"
    assert counts["zone"] == "17" and counts["option"] == "1" and int(counts["verb"]) > 50
    assert "god" not in counts
    data = json.loads(run("list", "--json", "-e", "pantheon").output)
    assert data["kinds"]["god"] == 15 and data["kinds"]["wonder"] == 14 and data["kinds"]["card"] == 78   # 5 Grand Temples


def test_list_a_kind():
    result = run("list", "cards")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 73
    assert lines[0].split() == ["Lumber", "Yard", "cards/duel/age1.rules:3"]
    assert run("list", "card").output == result.output          # singular or plural
    gods = json.loads(run("list", "gods", "--json", "-e", "pantheon").output)
    assert gods["kind"] == "god" and len(gods["names"]) == 15
    assert gods["names"][0] == {"name": "Enki", "file": "cards/duel-pantheon/gods.rules", "line": 4}
    assert run("list", "option").output.split() == ["beginner_wonders", "cards/duel/game.rules:54"]
    assert "built" in run("list", "events").output.split()
    listed = run("list", "invariants")                            # a known kind with no names: says so
    assert (listed.stdout, listed.stderr) == ("", "no invariant in this content\n")


def test_list_a_folder(tmp_path):
    fan = "examples/fan_expansion"
    root = Path(__file__).resolve().parent.parent
    alone = run("list", f"{root / fan}")       # a lone argument holding `/` is the PATH
    assert alone.exit_code == 0
    assert dict(line.split() for line in alone.output.splitlines())["expansion"] == "1"
    wonders = run("list", "wonders", root / fan).output
    assert len(wonders.splitlines()) == 13


def test_list_escapes_control_characters_and_refuses_unparsable_content(tmp_path):
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "x.rules").write_text('expansion evil { }\ntoken "Red\x1b[31mAlert" { }\n', encoding="utf-8")
    # A control character in a name is a syntax error (E010): `list` refuses the content, and
    # the diagnostic it prints reaches the terminal escaped.
    result = run("list", "token", folder)
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "E010" in result.output and "Red\u241b[31mAlert" in result.output
    (folder / "x.rules").write_text('token "Unclosed" {\n', encoding="utf-8")
    broken = run("list", folder)
    assert broken.exit_code == 1 and "run `rulesdsl check`" in broken.output
