"""Text as users hand it over: a name spelt with a combining accent (NFD) or a precomposed one
(NFC) is one name, in card files, on the command line, in traces and in the parse cache;
diagnostics line up whatever the width of their line numbers; an output path that names nothing
is a usage error; old Mac line ends are named as such."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl import loader, parse_cache
from rulesdsl.cli import cli
from rulesdsl.interpreter.actions import Action
from rulesdsl.parser import parse_file
from rulesdsl.trace import actions_of, round_of

NFC = "Caf\u00e9 No\u00ebl"
NFD = unicodedata.normalize("NFD", NFC)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def card(name: str, produce: str = "wood") -> str:
    return f'card "{name}" {{\n    age 1\n    color brown\n    produce {produce}\n}}\n'


@pytest.fixture
def no_cache(monkeypatch):
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")


def test_the_two_forms_differ_as_text():
    assert NFC != NFD and len(NFD) == len(NFC) + 2


def test_a_name_written_in_both_forms_is_one_name_defined_twice(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card(NFD) + card(NFC, "stone"), encoding="utf-8")
    result = run("check", "--format", "json", tmp_path)
    assert result.exit_code == 1
    codes = [(d["code"], d["line"]) for d in json.loads(result.output)["diagnostics"]]
    assert codes == [("E102", 6)]


def test_explain_finds_a_name_written_nfd_when_asked_nfc_and_the_other_way(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card(NFD), encoding="utf-8")
    for asked in (NFC, NFD):
        result = run("explain", "-e", tmp_path, asked)
        assert result.exit_code == 0, result.output
        assert result.output.startswith(f"{NFC} (card, ")


def test_list_shows_the_one_form(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card(NFD), encoding="utf-8")
    result = run("list", "cards", "-e", tmp_path)
    assert NFC in result.output and NFD not in result.output


def test_actions_typed_or_read_from_a_trace_take_the_one_form():
    assert Action.parse(f'build "{NFD}"') == Action("build", (NFC,))
    data = {"actions": [["build", NFD]], "round": [[1, "choose", NFD]]}
    assert actions_of(data) == [Action("build", (NFC,))]
    assert round_of(data) == [(1, Action("choose", (NFC,)))]


def test_a_file_with_an_nfd_name_is_taken_from_the_parse_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    folder = tmp_path / "cards"
    folder.mkdir()
    path = folder / "a.rules"
    path.write_text(card(NFD), encoding="utf-8")
    parsed: list[str] = []

    def counting(shown, text):
        parsed.append(shown)
        return parse_file(shown, text)
    monkeypatch.setattr(loader, "parse_file", counting)
    first = run("check", "--format", "json", folder).output
    assert parsed
    parsed.clear()
    assert run("check", "--format", "json", folder).output == first
    assert parsed == []   # every file came from the cache, the NFD one too
    data = path.read_bytes()
    assert parse_cache.load(path, "a.rules", data, data.decode()) == parse_file("a.rules", data.decode())[0]


def test_help_stands_under_the_gutter_at_line_9_and_at_line_10000(tmp_path, no_cache):
    lines = ['card "A" {', "    age 1", "    color brown", *[""] * 5, "    colr brown",
             *[""] * 9990, "    colr brown", "}"]
    (tmp_path / "a.rules").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run("check", tmp_path).output
    blocks = [b.splitlines() for b in out.split("\n\n") if "error[E201]" in b]
    assert [b[0].split(":")[1] for b in blocks] == ["9", "10000"]
    for block in blocks:
        bars = {line.index("|") for line in block[1:4]}
        assert len(bars) == 1   # the gutter of one diagnostic is one column
        assert block[4].index("=") == bars.pop(), block


@pytest.mark.parametrize("args", [
    ("play", "--plain", "--save", ""),
    ("play", "--plain", "--save", " "),
    ("verify", "--games", "1", "--out", ""),
    ("balance", "--games", "2", "--html", ""),
    ("balance", "--games", "2", "--checkpoint", ""),
])
def test_an_empty_output_path_is_a_usage_error_before_any_work(args, tmp_path, monkeypatch, no_cache):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].endswith(": an empty path is not a file")
    assert list(tmp_path.iterdir()) == []   # nothing written where `.` would have been


def test_old_mac_line_ends_are_refused_with_a_help_that_names_them(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card("A").replace("\n", "\r"), encoding="utf-8", newline="")
    result = run("check", "--format", "json", tmp_path)
    [found] = json.loads(result.output)["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == ("E002", 1, 11)
    assert "carriage return alone" in found["help"] and "CRLF" in found["help"]


def test_crlf_line_ends_and_a_byte_order_mark_are_read(tmp_path, no_cache):
    text = "\ufeff" + card("A").replace("\n", "\r\n")
    (tmp_path / "a.rules").write_text(text, encoding="utf-8", newline="")
    assert run("check", tmp_path).exit_code == 0


@pytest.mark.parametrize("before, cells", [
    ("\u200b\u200b", 0),          # zero-width spaces: drawn in no cell
    ("x\ufe0f\u0301", 1),         # a variation selector and a combining accent: none
    ("\u6728\U0001F600", 4),      # CJK and an emoji: two each
    ("\u202e\x1b", 2),            # shown as `\ufffd` and `\u241b`: one each
])
def test_the_caret_stands_under_its_column_after_characters_of_any_width(before, cells):
    from rulesdsl.diagnostics import Diagnostic, Span, render
    source = f'card "A" # {before}colr\n'
    column = source.index("colr") + 1
    out = render(Diagnostic("error", "E201", "unknown statement `colr`", Span("a.rules", 1, column, 1, column + 4)),
                 source).splitlines()
    assert out[3] == "  | " + " " * (len('card "A" # ') + cells) + "^^^^", out


@pytest.mark.parametrize("hidden", ["\u200b", "\u2060", "\ufeff", "\u3164"])
def test_a_name_with_a_character_drawn_as_nothing_is_e010(tmp_path, no_cache, hidden):
    (tmp_path / "a.rules").write_text(card("Shed") + card(f"Shed{hidden}"), encoding="utf-8")
    result = run("check", "--format", "json", tmp_path)
    [found] = json.loads(result.output)["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == ("E010", 6, 11)
    assert found["message"] == f"invisible character U+{ord(hidden):04X} in a quoted name"


def test_joiners_that_emoji_and_scripts_need_stay_allowed(tmp_path, no_cache):
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    (tmp_path / "a.rules").write_text(card(family) + card("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "stone"),
                                      encoding="utf-8")
    assert run("check", tmp_path).exit_code == 0


def test_list_lines_up_its_second_column_by_terminal_cells(tmp_path, no_cache):
    from rulesdsl.safe_text import cells
    names = ["\u6728\u5c4b\u6728\u5c4b\u6728\u5c4b\u6728\u5c4b\u6728\u5c4b\u6728", NFC, "Plain"]
    (tmp_path / "a.rules").write_text("".join(card(n) for n in names), encoding="utf-8")
    rows = [line for line in run("list", "cards", "-e", tmp_path).output.splitlines() if "a.rules:" in line]
    assert len(rows) == 3
    starts = {cells(row[:row.index(str(tmp_path)[:8])]) for row in rows}
    assert len(starts) == 1, rows


def test_fmt_keeps_crlf_line_ends_and_a_byte_order_mark(tmp_path):
    path = tmp_path / "a.rules"
    path.write_bytes(b'\xef\xbb\xbfcard "Shed" {\r\n  age   1\r\n    color brown\r\n}\r\n')
    assert run("fmt", path).exit_code == 0
    assert path.read_bytes() == b'\xef\xbb\xbfcard "Shed" {\r\n    age 1\r\n    color brown\r\n}\r\n'
    # A formatted file checked out with CRLF (Windows) is formatted: `--check` passes.
    result = run("fmt", "--check", path)
    assert result.exit_code == 0 and "1 unchanged" in result.output


def test_fmt_of_standard_input_keeps_crlf_line_ends():
    result = CliRunner().invoke(cli, ["fmt", "-"], input=b'card "Shed" {\r\n  age   1\r\n}\r\n')
    assert result.exit_code == 0
    assert result.stdout_bytes == b'card "Shed" {\r\n    age 1\r\n}\r\n'   # (`.stdout` reads CRLF as LF)


def test_fmt_of_standard_input_keeps_a_byte_order_mark_as_a_file_keeps_it():
    # (an editor formatting through `fmt -` writes back what it gets: it dropped the mark)
    result = CliRunner().invoke(cli, ["fmt", "-"], input=b'\xef\xbb\xbfcard "Shed" {\n  age   1\n}\n')
    assert result.exit_code == 0
    assert result.stdout_bytes == b'\xef\xbb\xbfcard "Shed" {\n    age 1\n}\n'
    formatted = CliRunner().invoke(cli, ["fmt", "--check", "-"], input=result.stdout_bytes)
    assert formatted.exit_code == 0 and formatted.stdout_bytes == b""


def test_explain_matches_case_by_unicode_case_folding(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card("Stra\u00dfe"), encoding="utf-8")
    result = run("explain", "-e", tmp_path, "STRASSE")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Stra\u00dfe (card, ")


def test_explain_finds_a_name_that_holds_two_spaces_in_a_row(tmp_path, no_cache):
    (tmp_path / "a.rules").write_text(card("Two  Spaces"), encoding="utf-8")
    for asked in ("Two  Spaces", "two spaces"):
        result = run("explain", "-e", tmp_path, asked)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Two  Spaces (card, ")
