"""A game or expansion folder, typed on the command line or named in a trace, gets the same
checks (rulesdsl/loader.py: files_in, check_folder, resolve_layers): it holds card files,
within limits on their number and size and on how much is walked to find them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl import loader
from rulesdsl.cli import cli
from rulesdsl.loader import FolderProblem, files_in, resolve_layers

CARD = 'card "Card {i}" {{\n    age 1\n    color brown\n}}\n'


def folder_of(tmp_path: Path, cards: int, name: str = "exp") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for i in range(cards):
        (folder / f"c{i}.rules").write_text(CARD.format(i=i), encoding="utf-8")
    return folder


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_too_many_card_files(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_FOLDER_FILES", 3)
    folder = folder_of(tmp_path, 4)
    with pytest.raises(FolderProblem, match="holds 4 card files, more than the limit of 3"):
        files_in(folder)
    with pytest.raises(FolderProblem):
        resolve_layers([str(folder)])
    got = run("check", folder)
    assert got.exit_code == 2 and "more than the limit of 3" in got.output and "Traceback" not in got.output
    got = run("simulate", "-n", "1", "-e", folder)
    assert got.exit_code == 2 and "more than the limit of 3" in got.output


def test_too_many_bytes(tmp_path, monkeypatch):
    folder = folder_of(tmp_path, 2)
    monkeypatch.setattr(loader, "MAX_FOLDER_BYTES", 50)
    with pytest.raises(FolderProblem, match="more than the limit of 50"):
        files_in(folder)


def test_a_large_tree_is_not_walked_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_FOLDER_WALK", 10)
    folder = folder_of(tmp_path, 1)
    for i in range(3):
        sub = folder / f"sub{i}"
        sub.mkdir()
        for j in range(4):
            (sub / f"notes{j}.txt").write_text("x", encoding="utf-8")
    with pytest.raises(FolderProblem, match="more than 10 files and folders"):
        files_in(folder)


def test_files_in_finds_what_it_found_before(tmp_path):
    folder = folder_of(tmp_path, 2)
    (folder / "deeper").mkdir()
    (folder / "deeper" / "d.rules").write_text(CARD.format(i=9), encoding="utf-8")
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    (folder / "gone.rules").symlink_to(tmp_path / "nowhere")  # reported (E009), not skipped
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "o.rules").write_text(CARD.format(i=8), encoding="utf-8")
    (folder / "linked").symlink_to(tmp_path / "outside")  # a link to a folder is not followed
    assert files_in(folder) == sorted([folder / "c0.rules", folder / "c1.rules", folder / "deeper" / "d.rules",
                                       folder / "gone.rules"])


def test_a_folder_without_card_files_or_a_file_that_is_not_one(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    # No card file at all is a diagnostic with a place (E011), like check reports it.
    from rulesdsl.diagnostics import RulesError
    from rulesdsl.interpreter import Ruleset
    with pytest.raises(RulesError) as info:
        Ruleset.load([str(empty)])
    assert [d.code for d in info.value.diagnostics] == ["E011"]
    other = tmp_path / "notes.txt"
    other.write_text("x", encoding="utf-8")
    with pytest.raises(FolderProblem, match="neither a folder nor a card file"):
        resolve_layers([str(other)])
    card = folder_of(tmp_path, 1, "single") / "c0.rules"
    assert resolve_layers([str(card)])[-1] == card


def test_a_trace_naming_a_large_folder_is_refused_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_FOLDER_FILES", 3)
    folder = folder_of(tmp_path, 4)
    trace = tmp_path / "t.trace.json"
    trace.write_text(json.dumps({"format": "rulesdsl-trace", "version": 2, "base": "duel",
                                 "expansions": [str(folder)], "seed": 0, "actions": []}), encoding="utf-8")
    got = run("replay", trace)
    assert got.exit_code == 1
    assert got.output.startswith("error: ") and "more than the limit of 3" in got.output
    assert len(got.output.strip().splitlines()) == 1


def test_one_card_file_past_the_limit_is_E009(tmp_path, monkeypatch):
    card = folder_of(tmp_path, 1) / "c0.rules"
    monkeypatch.setattr(loader, "MAX_FOLDER_BYTES", 10)
    merged = loader.Merged()
    assert loader.read_files([card], merged) == []
    assert [(d.code, d.message) for d in merged.diagnostics] == \
        [("E009", f"cannot read file: {card.stat().st_size} bytes, more than the limit of 10")]
