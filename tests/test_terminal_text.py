"""Control characters from card files, traces and saves never reach the terminal raw: names
and strings holding them are E010, and what is printed goes through safe_text.printable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.diagnostics import Diagnostic, Span, render
from rulesdsl.report import check_paths
from rulesdsl.safe_text import first_control, printable

ESC_TITLE = "\x1b]0;owned\x07"  # an OSC sequence setting the terminal's title
RAW = ("\x1b", "\x07", "\x9b", "\r", "\u202e", "\x7f")


def shows_nothing_raw(text: str) -> bool:
    return not any(c in text for c in RAW)


def test_printable_keeps_text_and_replaces_controls_one_for_one():
    assert printable("Lumber Yard\n\tsecond line") == "Lumber Yard\n\tsecond line"
    assert printable("é — 日本") == "é — 日本"
    shown = printable(f"a{ESC_TITLE}b\r\x9b\u202e\x7f")
    assert shows_nothing_raw(shown)
    assert shown == "a\u241b]0;owned\u2407b\u240d\ufffd\ufffd\u2421"
    assert len(shown) == len(f"a{ESC_TITLE}b\r\x9b\u202e\x7f")


@pytest.mark.parametrize("char", ["\x1b", "\t", "\r", "\x00", "\x7f", "\x9b", "\u202e", "\u2066", "\u2028"])
def test_control_character_in_a_quoted_name_is_E010(tmp_path: Path, char: str):
    path = tmp_path / "cards.rules"
    path.write_text(f'card "Good Card" {{\n    age 1\n    color brown\n}}\n'
                    f'card "Bad{char}Card" {{\n    age 1\n    color brown\n}}\n', encoding="utf-8")
    report = check_paths([path])
    # The other definition is still read and checked: only E010, at the character.
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E010", 5, 10)]
    assert f"U+{ord(char):04X}" in report.diagnostics[0].message
    assert report.definitions.get("card", 0) >= 1
    text = report.human()
    assert shows_nothing_raw(text)
    caret = text.splitlines()
    line = next(i for i, x in enumerate(caret) if x.startswith("5 | "))
    assert caret[line + 1].index("^") == caret[line].index("Bad") + 3  # the caret is under the character


def test_control_character_in_a_string_argument_is_E010(tmp_path: Path):
    path = tmp_path / "cards.rules"
    path.write_text(f'card "Test Card" {{\n    age 1\n    color brown\n    chain_from "x{ESC_TITLE}"\n}}\n',
                    encoding="utf-8")
    report = check_paths([path])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E010", 4, 18)]


def test_first_control():
    assert first_control("Plain name 1") is None
    assert first_control("a\tb") == 1
    assert first_control("ab\x1b") == 2


def test_diagnostics_escape_paths_messages_and_source_lines():
    d = Diagnostic("error", "E306", f"unknown item `x{ESC_TITLE}`", Span(f"we\x1bird.rules", 1, 7, 1, 9),
                   f"did you mean `{ESC_TITLE}`?")
    text = render(d, f'gain "x{ESC_TITLE}"\n')
    assert shows_nothing_raw(text)
    assert "we\u241bird.rules:1:7" in text


def _trace(tmp_path: Path, actions) -> Path:
    path = tmp_path / "t.trace.json"
    path.write_text(json.dumps({"format": "rulesdsl-trace", "version": 2, "base": "duel", "expansions": [],
                                "seed": 1, "actions": actions}), encoding="utf-8")
    return path


def test_replay_and_verify_print_a_hostile_trace_escaped(tmp_path: Path):
    trace = _trace(tmp_path, [[f"pick{ESC_TITLE}", f"Card\r{ESC_TITLE}"]])
    runner = CliRunner()
    got = runner.invoke(cli, ["replay", str(trace)])
    assert got.exit_code == 1 and "illegal action" in got.output
    # (the action's parts that do not print are escaped as Python writes them, `str(action)`)
    assert shows_nothing_raw(got.output) and "\\x1b]0;owned" in got.output
    got = runner.invoke(cli, ["verify", "--trace", str(trace)])
    assert got.exit_code == 1 and "FAILED" in got.output
    assert shows_nothing_raw(got.output) and ("\\x1b]0;owned" in got.output or "\u241b]0;owned" in got.output)


def test_explain_of_content_with_a_control_character_reports_E010_escaped(tmp_path: Path):
    folder = tmp_path / "exp"
    folder.mkdir()
    (folder / "cards.rules").write_text(f'card "Test{ESC_TITLE}" {{\n    age 1\n    color brown\n}}\n',
                                        encoding="utf-8")
    got = CliRunner().invoke(cli, ["explain", "Test", "-e", str(folder)])
    assert got.exit_code == 1 and "E010" in got.output
    assert shows_nothing_raw(got.output)


def test_a_file_name_holding_a_newline_cannot_print_a_line_of_its_own(tmp_path):
    """A diagnostic's `file:line:col` printed a newline in a file name as it is: the rest of the
    name came out as a line of its own, which could read as another diagnostic."""
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a\nb.rules:9:9: error[E000]: forged.rules").write_text('card "X" {\n    age 1\n}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code == 1
    headers = [line for line in result.output.splitlines() if "error[" in line]
    assert headers and all(line.startswith(str(folder)) for line in headers), result.output
    assert "a\u2424b.rules:9:9: error[E000]: forged.rules:1:6: error[E104]" in result.output
