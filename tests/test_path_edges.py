"""Paths the program cannot look at, or that lead nowhere, are one clear line, never a traceback
(docs/cli.md: exit 2 for a usage error, one `error: cannot write ...` line for an output file).

A name longer than the system allows (ENAMETOOLONG) stands for every path whose `stat` fails
with something other than "not there": Path.exists() and is_dir() raise on it, as on a folder
the user may not enter (EACCES), and it needs neither root nor another user.  The permission case
itself is made by a stat that refuses one folder (monkeypatched)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl import files, loader
from rulesdsl.cli import cli
from rulesdsl.files import FileProblem, check_writable

LONG = "a" * 300   # past NAME_MAX (255): ENAMETOOLONG for any user
CARD = 'card "Test Card" {\n    age 1\n    color brown\n    produce wood\n}\n'


def run(*args, input: str | None = None):
    # catch_exceptions=False: a traceback fails the test with the exception itself
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def one_line(result, *wanted: str, status: int) -> None:
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    for text in wanted:
        assert text in result.output, result.output


def played_nothing(result) -> None:
    """The command stopped before any game: `play` prints `seed N` first, `verify` its plan."""
    assert "seed " not in result.output and "verify:" not in result.output, result.output


@pytest.fixture
def long_name(tmp_path) -> Path:
    return tmp_path / LONG


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- a path that cannot be looked at, named on the command line -----------------------------------

def test_check_and_fmt_of_a_name_too_long(long_name):
    for command in ("check", "fmt"):
        result = run(command, f"{long_name}.rules")
        one_line(result, "no such file or folder", "File name too long", status=2)


def test_list_path_of_a_name_too_long(long_name):
    one_line(run("list", long_name), "no such file or folder", "File name too long", status=2)


def test_output_files_with_a_name_too_long(long_name, in_tmp):
    result = run("play", "--plain", "--seed", "1", "--save", f"{LONG}.json", input="q\n")
    one_line(result, "error: cannot write", "File name too long", status=1)
    played_nothing(result)
    result = run("verify", "--games", "1", "--jobs", "1", "--out", f"{long_name}.json")
    one_line(result, "error: cannot write", "File name too long", status=1)
    played_nothing(result)


def test_balance_output_files_with_a_name_too_long(long_name):
    pytest.importorskip("matplotlib")
    pytest.importorskip("rich")
    for flag in ("--html", "--checkpoint"):
        result = run("balance", "-n", "2", "--jobs", "1", flag, f"{long_name}.out")
        one_line(result, "error: cannot write", "File name too long", status=1)


def test_an_expansion_folder_with_a_name_too_long_is_E009_as_a_missing_one(long_name):
    # (as `-e /nowhere` is: the folder is read, and reading it says why it cannot be)
    for args in (("simulate", "-n", "1", "--jobs", "1"), ("explain", "Quarry"), ("list",), ("check",),
                 ("verify", "-n", "1", "--jobs", "1")):
        result = run(*args, "-e", long_name)
        one_line(result, "error[E009]", "File name too long", status=1)


def test_a_game_folder_with_a_name_too_long(long_name):
    for args in (("explain", "Quarry"), ("simulate", "-n", "1"), ("check",), ("test",)):
        one_line(run(*args, "--game", long_name), "no such folder", "File name too long", status=2)


def test_lsp_expansion_with_a_name_too_long(long_name):
    pytest.importorskip("pygls")
    one_line(run("lsp", "-e", long_name), "no such folder", "File name too long", status=2)


def test_editor_grammar_into_a_folder_with_a_name_too_long(long_name):
    one_line(run("editor-grammar", "--check", "-o", long_name), "no such folder", "File name too long", status=2)


def test_play_load_of_a_trace_naming_a_folder_with_a_name_too_long(tmp_path):
    trace = tmp_path / "game.json"
    assert run("play", "--plain", "--seed", "1", "--save", trace, input="q\n").exit_code == 0
    data = json.loads(trace.read_text(encoding="utf-8"))
    data["expansions"] = [str(tmp_path / LONG)]
    trace.write_text(json.dumps(data), encoding="utf-8")
    one_line(run("play", "--plain", "--load", trace, input="q\n"), "File name too long", status=1)


def test_the_api_raises_what_the_docs_say():
    from rulesdsl.diagnostics import RulesError
    from rulesdsl.interpreter import new_game
    from rulesdsl.names import UnknownName
    with pytest.raises(UnknownName):   # a ValueError: a bare name is a bundled expansion's, or none
        new_game(expansions=[LONG])
    with pytest.raises(RulesError, match="E009.*File name too long"):   # a path: as a missing one
        new_game(expansions=["/" + LONG])


def test_a_loop_of_links_as_an_expansion_is_E009(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    # (Path.resolve() raises RuntimeError on a loop)
    one_line(run("simulate", "-n", "1", "--jobs", "1", "-e", loop), "error[E009]",
             "Too many levels of symbolic links", status=1)
    one_line(run("check", "-e", loop), "error[E009]", status=1)


# -- a folder the user may not enter (EACCES), as a stat that refuses it ----------------------------

@pytest.fixture
def forbidden(tmp_path, monkeypatch) -> Path:
    """A folder whose contents cannot be looked at, as for a user who may not enter it."""
    folder = tmp_path / "forbidden"
    folder.mkdir()
    (folder / "x.rules").write_text(CARD, encoding="utf-8")
    (folder / "exp").mkdir()
    (folder / "exp" / "x.rules").write_text(CARD, encoding="utf-8")
    real = os.stat

    def stat(path, *args, **kwargs):
        if str(path).startswith(f"{folder}/"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    return folder


def test_a_path_in_a_folder_the_user_may_not_enter(forbidden):
    one_line(run("check", forbidden / "x.rules"), "no such file or folder", "(Permission denied)", status=2)
    one_line(run("fmt", forbidden / "x.rules"), "no such file or folder", "(Permission denied)", status=2)
    result = run("play", "--plain", "--seed", "1", "--save", forbidden / "new.json", input="q\n")
    one_line(result, f"error: cannot write {forbidden / 'new.json'}: Permission denied", status=1)
    played_nothing(result)
    one_line(run("simulate", "-n", "1", "--jobs", "1", "-e", forbidden / "exp"), "error[E009]",
             "Permission denied", status=1)
    one_line(run("explain", "Quarry", "--game", forbidden / "exp"), "no such folder (Permission denied",
             status=2)
    one_line(run("list", "-e", forbidden / "exp"), "error[E009]", status=1)


def test_fmt_of_a_folder_holding_card_files_that_cannot_be_looked_at(forbidden):
    # (found in the folder named, as a link into a folder the user may not enter would be: each
    # is one failed file, not a traceback)
    result = run("fmt", forbidden.parent)
    one_line(result, f"error: cannot read {forbidden / 'x.rules'}: Permission denied",
             "0 files reformatted, 0 unchanged, 2 failed", status=1)


# -- list PATH past a folder's limits --------------------------------------------------------------

def test_list_of_a_folder_past_the_limits_is_a_usage_error(tmp_path, monkeypatch):
    # (`rulesdsl list cards /`: a FolderProblem traceback; every other command says it in one line)
    monkeypatch.setattr(loader, "MAX_FOLDER_WALK", 10)
    big = tmp_path / "big"
    big.mkdir()
    for i in range(20):
        (big / f"notes{i}.txt").write_text("x", encoding="utf-8")
    for args in (("list", "cards", big), ("list", big)):
        one_line(run(*args), "more than 10 files and folders", status=2)


# -- an output file that is a link to nowhere -------------------------------------------------------

def test_save_to_a_dangling_link_is_refused_before_the_game(in_tmp):
    Path("link.json").symlink_to("missing_dir/g.json")
    result = run("play", "--plain", "--seed", "3", "--save", "link.json", input="1\n1\n1\nq\n")
    one_line(result, "error: cannot write link.json: no folder", "missing_dir", status=1)
    played_nothing(result)
    with pytest.raises(FileProblem, match="no folder"):
        check_writable(Path("link.json"))


def test_verify_out_to_a_loop_of_links_is_refused_before_the_games(in_tmp):
    Path("loop").symlink_to("loop")
    result = run("verify", "--games", "1", "--jobs", "1", "--out", "loop")
    one_line(result, "error: cannot write loop: Too many levels of symbolic links", status=1)
    played_nothing(result)


def test_a_link_that_leads_somewhere_writable_still_passes(in_tmp):
    Path("real").mkdir()
    Path("link.json").symlink_to("real/g.json")
    check_writable(Path("link.json"))   # (a new file where the link points)
    result = run("play", "--plain", "--seed", "3", "--save", "link.json", input="q\n")
    assert result.exit_code == 0, result.output
    assert Path("link.json").is_symlink() and json.loads(Path("real/g.json").read_text())["seed"] == 3


def test_the_stat_helpers_never_raise(long_name, tmp_path):
    assert files.lookup(long_name) == (None, "File name too long")
    assert files.lookup(tmp_path / "missing") == (None, None)
    assert files.lookup(tmp_path / "x\0y")[0] is None
    assert not files.exists(long_name) and not files.is_dir(long_name) and not files.is_file(long_name)
    assert files.unreachable(long_name) == "File name too long" and files.unreachable(tmp_path) is None
    assert files.is_dir(tmp_path) and files.exists(tmp_path)


# -- fmt counts a file it could not write as failed, not as reformatted ----------------------------

def test_fmt_does_not_count_a_failed_write_as_reformatted(tmp_path, monkeypatch):
    card = tmp_path / "a.rules"
    card.write_text('card "X" {\nage 1\n   color brown\n produce wood }\n', encoding="utf-8")

    def refuse(path, text):
        raise FileProblem(f"cannot write {path}: Permission denied")

    monkeypatch.setattr(files, "write_atomic", refuse)
    result = run("fmt", card)
    one_line(result, f"error: cannot write {card}", "0 files reformatted, 0 unchanged, 1 failed", status=1)
    assert "reformatted " + str(card) not in result.output


# -- the commands' other ways to name a folder ------------------------------------------------------

def test_balance_compare_of_a_folder_too_long(long_name):
    result = run("balance", "--compare", "duel", long_name, "--games", "2")
    one_line(result, "neither a bundled game", "File name too long", status=2)


def test_a_scenario_naming_a_folder_too_long_is_its_own_error(tmp_path):
    scenario = tmp_path / "s.scenario"
    scenario.write_text(f'scenario "far" {{\n    expansion "{LONG}"\n    expect coins(0) == 7\n}}\n')
    result = run("test", scenario)
    one_line(result, "S401", "File name too long", status=1)
    assert "S503" not in result.output and "a bug in rulesdsl" not in result.output


def test_check_with_an_expansion_that_is_a_loop_of_links(in_tmp):
    os.symlink("loop", "loop")
    (in_tmp / "a.rules").write_text(CARD)
    result = run("check", "-e", "./loop", "a.rules")
    assert "Traceback" not in result.output and result.exit_code in (1, 2), result.output


def test_the_language_server_setting_naming_a_folder_too_long(tmp_path):
    from rulesdsl.lsp.project import Project
    project = Project([str(tmp_path / LONG)])
    (problem,) = project.unknown_expansions()
    assert "File name too long" in problem
    card = tmp_path / "a.rules"
    card.write_text(CARD)
    project.layers_for(card)   # (raised OSError: the setting's folder is left out, as a missing one)


# -- a name given as an expansion or PATH that is here, but no folder ------------------------------

def test_an_expansion_name_that_is_a_file_here_is_said_to_be_one(in_tmp):
    """`-e NAME` that names no bundled expansion but a file, a FIFO or a loop of links here was
    "unknown expansion `NAME`; expansions: ...", as if it were a mistyped bundled name."""
    (in_tmp / "afile").write_text("", encoding="utf-8")
    os.mkfifo(in_tmp / "fifo")
    (in_tmp / "loop").symlink_to("loop")
    for name in ("afile", "fifo"):
        for args in (("simulate", "-n", "1", "--jobs", "1"), ("check",), ("explain", "Quarry")):
            result = run(*args, "-e", name)
            one_line(result, f"{name} is neither a folder nor a card file (.rules)", status=2)
            assert "unknown expansion" not in result.output
    one_line(run("simulate", "-n", "1", "--jobs", "1", "-e", "loop"), "error[E009]",
             "Too many levels of symbolic links", status=1)
    (in_tmp / "extra.rules").write_text(CARD, encoding="utf-8")   # a card file is a layer
    assert run("simulate", "-n", "1", "--jobs", "1", "-e", "extra.rules").exit_code == 0


def test_a_path_argument_that_is_no_folder_is_said_of_the_path_with_its_reason(in_tmp):
    (in_tmp / "afile").write_text("", encoding="utf-8")
    os.mkfifo(in_tmp / "fifo")
    (in_tmp / "loop").symlink_to("loop")
    for name in ("afile", "fifo"):   # (blamed on --expansion before)
        one_line(run("list", "cards", name), "Invalid value for PATH",
                 f"{name} is neither a folder nor a card file", status=2)
    # (click said "Path 'loop' does not exist", without the reason every other command gives)
    for args in (("list", "cards"), ("verify",), ("test",), ("replay",)):
        one_line(run(*args, "loop"), "no such file or folder: loop (Too many levels of symbolic links)", status=2)
    one_line(run("play", "--load", "loop"), "(Too many levels of symbolic links)", status=2)


def test_balance_traces_follow_the_rules_of_every_output_path(tmp_path, in_tmp):
    """`--traces /nonexist/x` made `/nonexist` and wrote there, and `--traces ''` wrote into
    the current folder; `--html`, `--save` and `--checkpoint` refuse a missing folder."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("rich")
    missing = tmp_path / "nowhere" / "traces"
    one_line(run("balance", "-n", "2", "--jobs", "1", "--agents", "random,random", "--traces", missing),
             f"error: cannot create {missing}: no folder {missing.parent}", status=1)
    assert not missing.parent.exists()
    one_line(run("balance", "-n", "2", "--jobs", "1", "--agents", "random,random", "--traces", ""),
             "error: --traces: an empty path is not a folder", status=2)
    assert not list(in_tmp.glob("game-*.json"))
    made = tmp_path / "traces"
    assert run("balance", "-n", "2", "--jobs", "1", "--agents", "random,random", "--traces", made).exit_code == 0
    assert sorted(p.name for p in made.iterdir()) == ["game-0.json", "game-1.json"]


def test_editor_grammar_into_an_empty_path_is_refused(in_tmp):
    one_line(run("editor-grammar", "-o", ""), "an empty path is not a folder", status=2)
    assert not list(in_tmp.glob("*.json"))


@pytest.mark.parametrize("args", [("replay", ""), ("play", "--plain", "--load", ""), ("verify", ""),
                                  ("list", "cards", ""), ("test", " ")])
def test_an_empty_path_to_read_is_a_usage_error_naming_it_so(args):
    """`replay ''` said "no such file or folder: " and named nothing."""
    result = run(*args)
    one_line(result, "an empty path names no file or folder", status=2)
    played_nothing(result)
