"""The `rulesdsl` command (rulesdsl.cli), through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.loader import CARDS_ROOT

BASE = CARDS_ROOT / "duel"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


# -- check ----------------------------------------------------------------------------------------

def test_check_refuses_a_game_folder_with_another_game_flag_and_a_file_that_is_no_card_file(tmp_path):
    # As `verify` and `list` do (docs/cli.md): it was checked as the folder's game, silently.
    result = run("check", "--game", "duel", CARDS_ROOT / "classic")
    assert result.exit_code == 2 and "defines its own game" in result.output
    assert run("check", "--game", "classic", CARDS_ROOT / "classic").exit_code == 0   # the same game twice
    many = tmp_path / "many"   # (past a folder's limits, with --game: a usage error, not a traceback)
    many.mkdir()
    for i in range(1001):
        (many / f"f{i}.rules").write_text(f"# {i}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(many), "--game", "duel"])
    assert result.exit_code == 2 and "more than the limit" in result.output, result.output
    notes = tmp_path / "notes.txt"
    notes.write_text('card "Test Card" {\n    age 1\n}\n', encoding="utf-8")
    result = run("check", notes)
    assert result.exit_code == 2 and "neither a folder nor a card file" in result.output


def test_check_bundled_content_is_clean():
    result = run("check")
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("ok: ")
    result = run("check", BASE)
    assert result.exit_code == 0, result.output
    assert " 0 errors" in result.output


@pytest.fixture
def broken(tmp_path) -> Path:
    path = tmp_path / "broken.rules"
    path.write_text('card "Lumber Shed" {\n    age 1\n    colr brown\n    produce wood\n}\n', encoding="utf-8")
    return path


def test_check_broken_file_exits_1(broken):
    result = run("check", broken)
    assert result.exit_code == 1
    assert f"{broken}:3:5: error[E201]: unknown statement `colr`" in result.output
    assert "did you mean `color`?" in result.output
    assert result.output.strip().splitlines()[-1].startswith("failed: ")


def test_check_missing_path_exits_2(tmp_path):
    result = run("check", tmp_path / "nowhere.rules")
    assert result.exit_code == 2
    assert "no such file or folder" in result.output


def test_check_unknown_option_exits_2():
    assert run("check", "--format", "xml").exit_code == 2


def test_check_json_shape(broken):
    result = run("check", "--format", "json", broken)
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert set(data) == {"diagnostics", "summary"}
    assert set(data["summary"]) == {"files", "errors", "warnings", "definitions", "hidden"}
    assert data["summary"]["errors"] == len([d for d in data["diagnostics"] if d["severity"] == "error"]) >= 1
    for d in data["diagnostics"]:
        assert set(d) == {"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "help"}
        assert d["severity"] in ("error", "warning") and d["code"][0] in "EW"
    e201 = next(d for d in data["diagnostics"] if d["code"] == "E201")
    assert (e201["file"], e201["line"], e201["column"]) == (str(broken), 3, 5)
    assert e201["help"] == "did you mean `color`?"

    clean = json.loads(run("check", "--format", "json", BASE).output)
    assert clean["diagnostics"] == [] or all(d["severity"] == "warning" for d in clean["diagnostics"])
    assert clean["summary"]["errors"] == 0
    assert clean["summary"]["definitions"]["card"] >= 73 and clean["summary"]["definitions"]["wonder"] >= 12


# -- explain --------------------------------------------------------------------------------------

def test_explain_known_card():
    result = run("explain", "Lumber Yard")
    assert result.exit_code == 0, result.output
    assert "Lumber Yard" in result.output and "wood" in result.output


def test_explain_takes_the_words_of_a_name_unquoted():
    # docs/cli.md shows `explain action discard`: it was "unexpected extra argument", exit 2.
    assert run("explain", "Lumber", "Yard").output == run("explain", "Lumber Yard").output
    discard = run("explain", "action", "discard")
    assert discard.exit_code == 0 and discard.output == run("explain", "action discard").output
    assert discard.output.startswith("discard (action, ")
    assert run("explain").exit_code == 2


def test_explain_unknown_name_suggests():
    # rulesdsl.explain raises UnknownName (a KeyError) whose str() carries the did-you-mean;
    # the command must print that, not just the name.
    result = run("explain", "Lumber Yrad")
    assert result.exit_code == 1
    assert "did you mean" in result.output and "Lumber Yard" in result.output


# -- simulate -------------------------------------------------------------------------------------

def test_simulate_json_is_reproducible():
    first = run("simulate", "--games", "8", "--seed", "3", "--json")
    second = run("simulate", "--games", "8", "--seed", "3", "--json")
    assert first.exit_code == second.exit_code == 0
    a, b = json.loads(first.output), json.loads(second.output)
    assert {"games", "seed", "wins", "victories", "mean_score", "games_per_second", "seconds"} <= set(a)
    assert a["games"] == 8 and a["seed"] == 3 and a["agents"] == ["random", "random"]
    assert set(a["wins"]) == {"0", "1", "draw"} and sum(a["wins"].values()) == 8
    assert sum(a["victories"].values()) == 8 - a["wins"]["draw"]
    assert set(a["mean_score"]) == {"0", "1"} and all("total" in s for s in a["mean_score"].values())
    for key in ("seconds", "games_per_second"):
        del a[key], b[key]
    assert a == b
    other = json.loads(run("simulate", "--games", "8", "--seed", "4", "--json").output)
    assert other["mean_score"] != a["mean_score"]


def test_simulate_text_and_agents():
    result = run("simulate", "-n", "4", "-s", "1", "--agents", "greedy,random")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("4 games, seed 1, agents greedy vs random")
    assert "wins: player 0 " in result.output and "games per second" in result.output


@pytest.mark.parametrize("args", [["--agents", "random"], ["--agents", "random,clever"], ["--games", "0"],
                                  ["--expansion", "no-such-expansion"]])
def test_simulate_usage_errors(args):
    assert run("simulate", *args).exit_code == 2


# -- play and replay ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def trace(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("play") / "game.json"
    result = run("play", "--agent", "random", "--seed", "5", "--save", path, input="1\n" * 300)
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.startswith("seed 5\n")
    assert "result: winner" in result.output and "(game over)" in result.output
    assert f"trace written to {path}" in result.output
    return path


def test_play_writes_a_trace(trace):
    data = json.loads(trace.read_text(encoding="utf-8"))
    assert data["format"] == "rulesdsl-trace" and data["version"] == 3
    assert data["base"] == "duel" and data["expansions"] == [] and data["seed"] == 5
    assert all(isinstance(a, list) and all(isinstance(x, str) for x in a) for a in data["actions"])
    assert data["final"]["winner"] in (0, 1, -1)
    assert json.loads(data["final_state"])["format"] == "rulesdsl-state"


def test_replay_same_final_state(trace):
    result = run("replay", trace)
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("same final state")
    assert "actions replayed" in result.output


def _tampered(trace: Path, tmp_path: Path, change) -> Path:
    data = json.loads(trace.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_of_a_tampered_result_exits_1(trace, tmp_path):
    def change(data):
        data["final"]["coins"][0] += 1
    result = run("replay", _tampered(trace, tmp_path, change))
    assert result.exit_code == 1
    assert "mismatch: coins" in result.output and "same final state" not in result.output


def test_replay_of_a_tampered_action_exits_1(trace, tmp_path):
    def change(data):
        i = next(i for i, a in enumerate(data["actions"]) if a[0] == "build")
        data["actions"][i] = ["build", "Palace"]  # an Age III card, not there in Age I
    result = run("replay", _tampered(trace, tmp_path, change))
    assert result.exit_code == 1
    assert "error:" in result.output and "Palace" in result.output


def test_replay_of_a_tampered_seed_exits_1(trace, tmp_path):
    def change(data):
        data["seed"] = data["seed"] + 1
    assert run("replay", _tampered(trace, tmp_path, change)).exit_code == 1


def test_replay_of_something_else_exits_1(tmp_path):
    path = tmp_path / "not-a-trace.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1 and "not a rulesdsl trace" in result.output
    path.write_text("not json", encoding="utf-8")
    assert run("replay", path).exit_code == 1
    assert run("replay", tmp_path / "missing.json").exit_code == 2


def test_play_quit_and_hot_seat(tmp_path):
    path = tmp_path / "quit.json"
    result = run("play", "--agent", "human", "--seed", "2", "--save", path, input="x\n1\nq\n")
    assert result.exit_code == 0
    assert "type one of the numbers above" in result.output and "bye" in result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["actions"]) == 1
    assert run("replay", path).exit_code == 0


def test_play_with_an_unknown_agent_is_a_usage_error():
    """Like `simulate --agents random,clever`: a usage error (exit 2), not a traceback."""
    result = CliRunner().invoke(cli, ["play", "--agent", "clever", "--seed", "1"], input="q\n")
    assert not isinstance(result.exception, ValueError), "traceback: " + repr(result.exception)
    assert result.exit_code == 2
    assert "clever" in result.output


def test_the_counts_docs_cli_shows_are_what_the_commands_print():
    """docs/cli.md's `$ rulesdsl check` and `$ rulesdsl list` examples, line for line (`...`
    stands for lines left out): kept true as content and language grow."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")

    def shown(command: str) -> list[str]:
        start = doc.index(f"$ {command}\n") + len(command) + 3
        lines = []
        for line in doc[start:].splitlines():
            if line.startswith(("$ ", "```")):
                return lines
            lines.append(line)
        return lines

    assert shown("rulesdsl check") == run("check").output.splitlines()
    real = run("list").output.splitlines()
    listed = [line for line in shown("rulesdsl list") if line != "..."]
    assert listed and all(line in real for line in listed), sorted(set(listed) - set(real))


@pytest.mark.parametrize("seed", ["18446744073709551616", "-9223372036854775809"])
def test_play_with_a_seed_out_of_range_is_a_usage_error(seed):
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", seed], input="", catch_exceptions=False)
    assert result.exit_code == 2 and "is not in the range" in result.output, result.output   # (a traceback)


def test_list_takes_a_lone_folder_named_without_a_slash(tmp_path, monkeypatch):
    # (`list harbours` was "unknown kind" unless written `./harbours`; a kind still wins)
    folder = tmp_path / "harbours"
    folder.mkdir()
    (folder / "a.rules").write_text('card "Harbour" {\n    age 1\n    color blue\n    points 1\n}\n',
                                    encoding="utf-8")
    (tmp_path / "cards").mkdir()   # a folder named like a kind
    monkeypatch.chdir(tmp_path)
    plain = run("list", "harbours", "--json")
    assert plain.exit_code == 0, plain.output
    assert json.loads(plain.output)["kinds"]["card"] == json.loads(run("list", "./harbours", "--json").output)["kinds"]["card"]
    names = json.loads(run("list", "cards", "--json").output)
    assert names["kind"] == "card" and "Lumber Yard" in [n["name"] for n in names["names"]]
    assert run("list", "nosuch").exit_code == 2


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["verify", "-n", "1"], ["balance", "-n", "2"],
                                     ["check"], ["list"], ["list", "cards"], ["explain", "Quarry"], ["play"]])
def test_a_missing_expansion_folder_is_a_usage_error(tmp_path, command):
    # (it was a diagnostic at `nope:1:1`, then advice to run `rulesdsl check`, which does not help;
    # `check` and `list` said it so until they were made to say it as the others do)
    result = run(*command, "-e", str(tmp_path / "nope"))
    assert result.exit_code == 2 and "nope: no such folder" in result.output and "rulesdsl check" not in result.output
    assert "E009" not in result.output


def test_simulate_counts_a_shared_victory_as_a_draw_not_a_victory_type():
    # (one of seed 0's first 300 random Duel games is shared: it was counted as civilian too)
    data = json.loads(run("simulate", "-n", "300", "-s", "0", "--json").output)
    assert data["wins"]["draw"] == 1
    assert sum(data["victories"].values()) + data["wins"]["draw"] == 300


def _commands(group, path=()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


@pytest.mark.parametrize("path, command", list(_commands(cli)), ids=lambda x: " ".join(x) if isinstance(x, tuple) else None)
def test_every_option_says_what_it_does_in_help(path, command):
    # (`simulate --games`, `--seed`, `balance --seed`, `play --expansion` and `test --format` were
    # listed by `--help` with a type and no word of what they do)
    bare = [p.opts for p in command.params if p.param_type_name == "option" and not p.help]
    assert not bare, f"rulesdsl {' '.join(path)}: options without help: {bare}"
    shown = run(*path, "--help").output
    for param in command.params:
        if param.param_type_name == "option":
            assert param.opts[0] in shown
