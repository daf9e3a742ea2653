"""Every diagnostic code, on a deliberately broken card file each (tests/broken/).

Each file starts with `# expect: CODE LINE COLUMN [SEVERITY]`: the one diagnostic checking it
must produce.  Files without a `game` are checked on top of the bundled base game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulesdsl import codes
from rulesdsl.diagnostics import Diagnostic, RulesError, Span, render
from rulesdsl.parser import parse_file
from rulesdsl.report import check_layers, check_paths

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "broken"
BROKEN_FILES = sorted(BROKEN.glob("*.rules"))
EXPECT = re.compile(rb"^# expect: ([EW]\d{3}) (\d+) (\d+)(?: (error|warning))?\s*$")

# Codes that no file in tests/broken can show, and the test here that creates the situation.
CREATED_IN_TESTS = {"E009": "test_unreadable_file_E009", "E011": "test_folder_without_card_file_E011"}


def expectation(path: Path) -> tuple[str, int, int, str]:
    first = path.read_bytes().split(b"\n", 1)[0]
    m = EXPECT.match(first)
    assert m, f"{path.name}: the first line must be `# expect: CODE LINE COLUMN [SEVERITY]`"
    code = m.group(1).decode()
    return code, int(m.group(2)), int(m.group(3)), (m.group(4) or codes.severity(code).encode()).decode()


def emitted_codes() -> set[str]:
    """Every code string literal in the package's sources (codes.py itself excepted)."""
    found = set()
    for src in (ROOT / "rulesdsl").rglob("*.py"):
        if src.name != "codes.py":
            found |= set(re.findall(r"""["']([EW]\d{3})["']""", src.read_text(encoding="utf-8")))
    return found


# -- one file per code ---------------------------------------------------------------------------

def test_there_are_enough_broken_files():
    assert len(BROKEN_FILES) >= 25


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.stem)
def test_broken_file(path: Path):
    code, line, column, severity = expectation(path)
    assert path.name.startswith(code), "the file name starts with its code"
    report = check_paths([path])
    got = [(d.code, d.span.line, d.span.column, d.severity) for d in report.diagnostics]
    assert got == [(code, line, column, severity)], report.human()
    d = report.diagnostics[0]
    assert d.span.file == str(path)
    assert d.message and code in codes.CODES
    assert (d.span.end_line, d.span.end_column) >= (d.span.line, d.span.column)
    assert report.errors == (severity == "error") and report.warnings == (severity == "warning")


def test_every_emitted_code_is_listed():
    missing = emitted_codes() - set(codes.CODES)
    assert not missing, f"add these codes to rulesdsl/codes.py: {sorted(missing)}"


def test_every_listed_code_is_emitted_and_tested():
    assert set(codes.CODES) <= emitted_codes(), "codes.py lists a code nothing emits"
    tested = {expectation(p)[0] for p in BROKEN_FILES} | set(CREATED_IN_TESTS)
    missing = set(codes.CODES) - tested
    assert not missing, f"add a file to tests/broken for: {sorted(missing)}"
    for name in CREATED_IN_TESTS.values():
        assert callable(globals().get(name)), name


def test_code_titles():
    for code, title in codes.CODES.items():
        assert re.fullmatch(r"[EW]\d{3}", code)
        assert title and "\n" not in title
        assert codes.severity(code) == ("warning" if code[0] == "W" else "error")


def test_unreadable_file_E009(tmp_path: Path):
    # A folder's card file that cannot be read (a broken link) is reported, not skipped.
    folder = tmp_path / "expansion"
    folder.mkdir()
    (folder / "cards.rules").write_text('card "Test Card" {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    (folder / "gone.rules").symlink_to(tmp_path / "nowhere.rules")
    report = check_paths([folder])
    assert [(d.code, d.span.file, d.span.line, d.span.column) for d in report.diagnostics] == \
        [("E009", str(folder / "gone.rules"), 1, 1)]
    # A file path that does not exist, given directly.
    report = check_paths([tmp_path / "missing.rules"])
    assert [d.code for d in report.diagnostics] == ["E009"]
    assert "cannot read file" in report.diagnostics[0].message


def test_folder_without_card_file_E011(tmp_path: Path):
    # A folder holding no .rules file (a wrong or misspelt folder) is an error, not an empty
    # expansion that passes: for check and for the play API alike.
    folder = tmp_path / "my_cards"
    folder.mkdir()
    (folder / "notes.txt").write_text("card \"X\" { age 1; color brown }\n", encoding="utf-8")
    report = check_paths([folder])
    assert [(d.code, d.span.file, d.span.line, d.span.column) for d in report.diagnostics] == \
        [("E011", str(folder), 1, 1)]
    assert report.errors == 1 and "no card file" in report.diagnostics[0].message
    render(report.diagnostics[0], None)
    from rulesdsl.interpreter import Ruleset
    for load in (lambda: Ruleset.load(base=folder), lambda: Ruleset.load([str(folder)])):
        with pytest.raises(RulesError) as info:
            load()
        assert [d.code for d in info.value.diagnostics] == ["E011"]


# -- rendering -------------------------------------------------------------------------------------

def test_human_output_did_you_mean():
    path = BROKEN / "E302_unknown_colour.rules"
    report = check_paths([path])
    text = report.human()
    lines = text.splitlines()
    head = f"{path}:5:11: error[E302]: unknown colour `purpel`"
    assert head in lines
    i = lines.index(head)
    assert lines[i + 1].strip() == "|"
    assert lines[i + 2] == "5 |     color purpel"
    assert lines[i + 3] == "  |           ^^^^^^"
    assert lines[i + 4] == "  = help: did you mean `purple`?"
    assert lines[-1].startswith("failed: ") and "1 error, 0 warnings" in lines[-1]


def test_render_without_source_and_odd_spans():
    d = Diagnostic("error", "E001", "boom", Span("x.rules", 3, 1, 3, 2), "help text")
    assert render(d, None) == "x.rules:3:1: error[E001]: boom\n  = help: help text"
    # A line past the end of the source, a span running over several lines, form feeds and CRs.
    assert "|" not in render(d, "one line\n")
    multi = Diagnostic("warning", "W501", "m", Span("x.rules", 1, 3, 2, 1))
    out = render(multi, "abcdef\nxyz\n").splitlines()
    assert out[0] == "x.rules:1:3: warning[W501]: m"
    assert out[-1] == "  |   ^^^^"
    ff = Diagnostic("error", "E002", "m", Span.point("x.rules", 2, 1))
    assert "2 | second" in render(ff, "fi\x0crst\r\nsecond\r\n")


def test_json_shape():
    report = check_paths([BROKEN / "E301_unknown_resource.rules", BROKEN / "W502_chain_never_given.rules"])
    data = json.loads(report.to_json())
    assert set(data) == {"diagnostics", "summary"}
    assert set(data["summary"]) == {"files", "errors", "warnings", "definitions", "hidden"}
    assert data["summary"]["hidden"] == 0   # (no file fails to parse)
    assert data["summary"]["errors"] == 1 and data["summary"]["warnings"] == 1
    assert data["summary"]["files"] == 8 + 2  # the base game once, and the two files
    assert data["summary"]["definitions"]["card"] == 73 + 1  # "Test Card" in both files: one key
    keys = {"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "help"}
    for d in data["diagnostics"]:
        assert set(d) == keys
        assert isinstance(d["line"], int) and isinstance(d["column"], int)
        assert d["severity"] in ("error", "warning") and d["code"] in codes.CODES
    first = data["diagnostics"][0]
    assert (first["code"], first["line"], first["column"], first["end_column"]) == ("E301", 6, 13, 16)
    assert first["help"] == "did you mean `wood`?"
    assert data["diagnostics"][1]["code"] == "W502"


def test_cli_json(tmp_path: Path):
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(BROKEN / "E302_unknown_colour.rules")])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert [d["code"] for d in data["diagnostics"]] == ["E302"]
    result = CliRunner().invoke(cli, ["check", str(BROKEN / "E302_unknown_colour.rules")])
    assert result.exit_code == 1
    assert ":5:11: error[E302]: unknown colour `purpel`" in result.output
    result = CliRunner().invoke(cli, ["check", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["diagnostics"] == []


# -- several problems at once ----------------------------------------------------------------------

def test_all_errors_of_a_file_are_reported(tmp_path: Path):
    path = tmp_path / "many.rules"
    path.write_text('''card "One" {
    age 1
    color purpel
    produce wod
    sheilds 1
}

card "Two" {
    age 2
    color red
    shields opponent
    gain coinz coins
}

card "Lumber Yard" {
    age 1
    color brown
}
''', encoding="utf-8")
    report = check_paths([path])
    got = [(d.code, d.span.line) for d in report.diagnostics]
    assert got == [("E302", 3), ("E301", 4), ("E201", 5), ("E309", 11), ("E307", 12), ("E102", 15)]
    assert report.errors == 6
    assert f"{report.errors} errors" in report.human()


def test_errors_of_several_files_are_reported():
    paths = [BROKEN / "E001_unexpected_token.rules", BROKEN / "E004_unterminated_string.rules",
             BROKEN / "E005_not_utf8.rules", BROKEN / "E301_unknown_resource.rules",
             BROKEN / "W501_chain_never_used.rules"]
    report = check_paths(paths)
    assert [d.code for d in report.diagnostics] == ["E001", "E004", "E005", "E301", "W501"]
    assert report.files == 8 + len(paths)


def test_syntax_errors_in_several_files_of_one_folder(tmp_path: Path):
    for name in ("E001_unexpected_token", "E002_unexpected_character", "E302_unknown_colour"):
        (tmp_path / f"{name}.rules").write_bytes((BROKEN / f"{name}.rules").read_bytes())
    report = check_paths([tmp_path])
    assert [d.code for d in report.diagnostics] == ["E001", "E002", "E302"]


def test_bundled_content_checks_clean():
    report = check_paths([])
    assert report.diagnostics == [], report.human()
    assert report.human().startswith("ok: ")
    base = check_paths([ROOT / "cards" / "duel"])
    assert base.definitions["card"] == 73 and base.definitions["wonder"] == 12
    # The Duel folders together: the base game's cards, Pantheon's 5 Grand Temples and Agora's 13
    # senators.  (`report` counts a name once across all bundled games, so it is not summed here.)
    duel = check_paths([], expansions=["pantheon", "agora"])
    assert duel.diagnostics == [] and duel.definitions["card"] == 73 + 5 + 13
    # The classic game: its card definitions (Loom, Glassworks, Press serve two ages), 14 board
    # sides and their 41 stages.
    classic = check_paths([ROOT / "cards" / "classic"])
    assert [classic.definitions[k] for k in ("card", "board", "stage")] == [77, 14, 41]


def test_check_layers_base_and_expansion():
    report = check_layers([ROOT / "cards" / "duel", BROKEN / "W502_chain_never_given.rules"])
    assert [d.code for d in report.diagnostics] == ["W502"]
    assert report.errors == 0


def test_a_folder_with_no_game_alone_is_E403(tmp_path: Path):
    (tmp_path / "a.rules").write_text('card "Test Card" {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    report = check_layers([tmp_path])
    assert "E403" in [d.code for d in report.diagnostics]


# -- the play API ------------------------------------------------------------------------------------

def test_play_api_raises_rules_error(tmp_path: Path):
    from rulesdsl.interpreter import Ruleset
    base = tmp_path / "game"
    base.mkdir()
    for f in (ROOT / "cards" / "duel").glob("*.rules"):
        (base / f.name).write_bytes(f.read_bytes())
    (base / "age1.rules").write_text((ROOT / "cards" / "duel" / "age1.rules").read_text(encoding="utf-8")
                                     .replace("color brown", "color browne", 1), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Ruleset.load(base=base)
    assert [d.code for d in info.value.diagnostics] == ["E302"]
    assert "error[E302]" in str(info.value) and "did you mean `brown`?" in str(info.value)


def test_play_api_syntax_error_and_missing_folder(tmp_path: Path):
    from rulesdsl.interpreter import Ruleset
    (tmp_path / "game.rules").write_text('game broken {\n    players 2\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Ruleset.load(base=tmp_path)
    assert [d.code for d in info.value.diagnostics] == ["E003"]
    with pytest.raises(RulesError):
        Ruleset.load(base=tmp_path / "no-such-folder")


def test_fifo_is_not_read(tmp_path: Path):
    # Reading a FIFO would block: in a folder it is skipped, given by name it is E009.
    import os
    os.mkfifo(tmp_path / "pipe.rules")
    (tmp_path / "cards.rules").write_text('card "Test Card" {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    assert check_paths([tmp_path]).diagnostics == []
    report = check_paths([tmp_path / "pipe.rules"])
    assert [(d.code, d.message) for d in report.diagnostics] == [("E009", "cannot read file: not a regular file")]


def test_byte_order_mark_is_ignored(tmp_path: Path):
    path = tmp_path / "bom.rules"
    path.write_bytes(b'\xef\xbb\xbfcard "Test Card" {\n    age 1\n    color purpel\n}\n')
    report = check_paths([path])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E302", 3, 11)]


def test_every_broken_definition_of_a_file_reports_its_own_syntax_error(tmp_path: Path):
    """A syntax error stops only its own definition: the others still parse and are checked."""
    (tmp_path / "cards.rules").write_text(
        'card "Test Shed" {\n    age 1\n    color brown\n    produce wood wood)\n}\n\n'
        'card "Test Hut" {\n    age 1\n    color brwn\n}\n\n'
        'card "Test Barn" {\n    age 1\n    color grey\n    cost 2 = coins\n}\n', encoding="utf-8")
    report = check_paths([tmp_path])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [
        ("E001", 4, 22), ("E302", 9, 11), ("E001", 15, 12)]


def test_every_broken_definition_of_a_file_with_crlf_line_ends_reports_its_own_syntax_error_alone(tmp_path: Path):
    # Each definition read alone kept the carriage return of its last line without the line
    # feed after it: E002 "unexpected character '\\r'" at the first card's `}`, and that card lost.
    (tmp_path / "cards.rules").write_bytes(
        b'card "Test Shed" {\r\n    age 1\r\n    color brwn\r\n}\r\n'
        b'card "Test Barn" {\r\n    age 1\r\n    cost 2 = coins\r\n}\r\n'
        b'card "Test Hut" {\r\n    age 1\r\n    color blue\r\n}\r\n')
    report = check_paths([tmp_path])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E302", 3, 11), ("E001", 7, 12)]
    assert report.definitions["card"] == 75   # the base game's 73, the shed and the hut


def test_a_stray_closing_brace_leaves_the_definition_before_it_alone(tmp_path: Path):
    # The `}` went with the card before it, which was lost with its own error (E201 unseen).
    (tmp_path / "cards.rules").write_text(
        'card "Test Hut" {\n    age 1\n    color blue\n    colr blue\n}\n}\n'
        'card "Test Barn" {\n    age 1\n    color blue\n}\n', encoding="utf-8")
    report = check_paths([tmp_path])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E201", 4, 5), ("E001", 6, 1)]
    assert report.definitions["card"] == 75   # the base game's 73 and both of these


def test_a_file_whose_braces_are_in_doubt_reports_only_the_first_error(tmp_path: Path):
    # An unterminated string hides a `{`: cutting the file at its braces would invent errors.
    (tmp_path / "cards.rules").write_text('card "Test Card {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    assert [d.code for d in check_paths([tmp_path]).diagnostics] == ["E004"]


def test_spaces_after_a_line_joining_backslash_are_named():
    _, diags = parse_file("x.rules", 'card "X" {\n    age 1 \\   \n    color brown\n}\n')
    (d,) = diags
    assert (d.code, d.span.line, d.span.column) == ("E002", 2, 11)
    assert d.help == "a `\\` joins the next line only as the last character of its line: remove the spaces after it"
    _, diags = parse_file("x.rules", 'card "X" {\n    age 1 \\\n    color brown\n}\n')
    assert diags == []


def test_a_deck_naming_no_zone_is_one_error_not_a_warning_too(tmp_path: Path):
    # W503 "nothing takes items out of zone `nowhere`" came with the E305 of a zone that does not exist.
    (tmp_path / "cards.rules").write_text('card "Test Hut" {\n    age 1\n    color blue\n    deck nowhere\n}\n',
                                          encoding="utf-8")
    assert [(d.code, d.span.line) for d in check_paths([tmp_path]).diagnostics] == [("E305", 4)]


@pytest.mark.parametrize("text, code, line", [
    # a classic designer's audit: each was accepted and then misbehaved in play
    ("action bribe {\n    before_turn\n    require coins >= 1\n    pay 1 coin\n}\n", "E202", 2),   # took the round
    ('card "Test Toll" {\n    age 1\n    color yellow\n    copies 3\n    trade_price -2 wood from=left\n}\n',
     "E317", 5),                                                                                   # negative coins
    ('board "Test Petra" {\n    deck day_boards\n    value 8\n    produce stone\n}\n'
     'stage "Test Petra stage 1" {\n    deck stage_deck\n    part_of this\n    value 1\n}\n', "E309", 8),   # traceback
    ('card "Test Toll" {\n    age 1\n    color yellow\n    copies 3\n    trade_price 1 wood from=left from=right\n}\n',
     "E206", 5),                                                                                   # the last won
    ('card "Test Toll" {\n    age 1\n    color yellow\n    copies 3\n    trade_price 1 glass papyrus\n}\n',
     "E204", 5),                                                                                   # no bank: nothing
    ('card "Test Toll" {\n    age 1\n    color yellow\n    copies 3\n    trade_discount 1 wood clay\n}\n',
     "E204", 5),
    ('card "Test Toll" {\n    age 1\n    color yellow\n    copies 3\n    when pawn_moved by=neighbours { gain 1 coin }\n}\n',
     "E408", 5),                                                                                   # no track
])
def test_classic_content_that_misbehaved_in_play_is_an_error(tmp_path: Path, text, code, line):
    (tmp_path / "cards.rules").write_text(text, encoding="utf-8")
    found = [(d.code, d.span.line) for d in check_paths([tmp_path], base="classic").diagnostics]
    assert found == [(code, line)], found


def test_a_choose_of_more_picks_than_the_limit_is_e411(tmp_path):
    """`choose 999999999 from city` (a typo for 1) passed check; the game then stopped after
    20,000 actions of picks."""
    from rulesdsl.report import check_paths
    folder = tmp_path / "mine"
    folder.mkdir()
    card = 'card "Raid" {{\n    age 1\n    color red\n    choose {n} from discard {{ gain 1 coin }}\n}}\n'
    (folder / "cards.rules").write_text(card.format(n=999999999), encoding="utf-8")
    (d,) = check_paths([folder]).diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E411", 4, 12) and "limit of 1000" in d.message
    (folder / "cards.rules").write_text(card.format(n=1000), encoding="utf-8")
    assert not check_paths([folder]).diagnostics


def test_rules_error_shows_the_first_error_in_the_files_and_counts_the_rest(tmp_path: Path):
    # Checks find errors in their own order; the one shown (by simulate, explain, the API) is the
    # first in the files, as `rulesdsl check` lists them, and the count says "error" for one.
    from rulesdsl.pipeline import load_ruleset
    (tmp_path / "cards.rules").write_text(
        'expansion mine {\n    title "Mine"\n}\n\ncard "Oops" {\n    age 1\n    colr yellow\n}\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset((str(tmp_path),), "duel", None)
    spans = [(d.span.file, d.span.line, d.span.column) for d in info.value.diagnostics]
    assert spans == sorted(spans) and len(spans) == 2
    assert str(info.value).startswith(f"{tmp_path / 'cards.rules'}:5:6: error[E104]")
    assert str(info.value).endswith("(and 1 more error)")
    assert info.value.first.code == "E104"


def test_a_save_whose_cards_no_longer_load_names_the_first_error_and_where(tmp_path: Path):
    from rulesdsl.interpreter.persistence import SaveFileError, dumps
    from rulesdsl.pipeline import load_game, new_game
    mine = tmp_path / "mine"
    mine.mkdir()
    cards = mine / "cards.rules"
    cards.write_text('expansion mine {\n    title "Mine"\n}\n\ncard "Extra" {\n    age 1\n    color yellow\n}\n',
                     encoding="utf-8")
    saved = dumps(new_game((str(mine),), seed=1).state)
    cards.write_text('expansion mine {\n    title "Mine"\n}\n\ncard "Extra" {\n    age 1\n    colr yellow\n}\n',
                     encoding="utf-8")
    with pytest.raises(SaveFileError, match=re.escape(f"does not load: {cards}:5:6: card `Extra` needs `color`")):
        load_game(saved)
