"""`rulesdsl check` at scale and in CI: linear rendering, --max-errors, long tokens, errors before
an unclosed `{`, the `or` hint, stdin, -e, explain CODE, and the github and SARIF formats."""

from __future__ import annotations

import gc
import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl import codes
from rulesdsl import report as report_module
from rulesdsl.cli import cli
from rulesdsl.diagnostics import ELIDE_AT, SHOWN_LINE, Diagnostic, Span, render
from rulesdsl.loader import Inline
from rulesdsl.parser import parse_file
from rulesdsl.report import Report, check_paths

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "broken"


def run(*args, input: str | bytes | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def card(name: str, body: str) -> str:
    return f'card "{name}" {{\n    age 1\n{body}}}\n\n'


def many_errors(tmp_path: Path, n: int, name: str = "many.rules") -> Path:
    path = tmp_path / name
    path.write_text("".join(card(f"Test Card {i}", "    color purpel\n") for i in range(n)), encoding="utf-8")
    return path


# -- rendering is linear -----------------------------------------------------------------------------

def test_rendering_splits_each_file_once(tmp_path, monkeypatch):
    report = check_paths([many_errors(tmp_path, 30)])
    assert report.errors == 30
    calls = []
    real = report_module.source_lines
    monkeypatch.setattr(report_module, "source_lines", lambda source: calls.append(1) or real(source))
    text = report.human(0)
    assert len(calls) == 1
    assert text.count("error[E302]") == 30


def test_many_diagnostics_of_a_big_file_render_fast():
    # 2 MB and 20,000 diagnostics: splitting the file once per diagnostic took minutes.
    lines = [f"    color purpel{i}" for i in range(100_000)]
    source = "\n".join(lines)
    assert len(source) > 2_000_000
    diags = [Diagnostic("error", "E302", f"unknown colour `purpel{i}`", Span("big.rules", i + 1, 11, i + 1, 17))
             for i in range(0, 100_000, 5)]
    report = Report(diags, {"big.rules": source}, 1, {})
    start = time.process_time()
    text = report.human(0)
    assert time.process_time() - start < 10
    assert text.count("error[E302]") == 20_000
    assert "99996 |     color purpel99995" in text


# -- --max-errors --------------------------------------------------------------------------------------

def test_max_errors_shows_the_first_and_counts_the_rest(tmp_path):
    report = check_paths([many_errors(tmp_path, 7)])
    text = report.human(3)
    assert text.count("error[E302]") == 3
    assert "... and 4 more errors" in text
    assert text.splitlines()[-1].startswith("failed: ") and "7 errors" in text.splitlines()[-1]
    assert report.human(0).count("error[E302]") == 7
    assert report.human(7) == report.human(0) and "more error" not in report.human(7)


def test_max_errors_counts_warnings_apart():
    d = [Diagnostic("error", "E302", "e", Span.point("a.rules", 1, 1))] * 3 + \
        [Diagnostic("warning", "W501", "w", Span.point("a.rules", 2, 1))] * 2
    report = Report(d, {}, 1, {})
    assert "... and 2 more errors and 2 more warnings" in report.human(1)
    assert "... and 1 more warning\n" in report.human(4) + "\n"
    assert "... and 1,234 more errors" in Report(d[:1] * 1235, {}, 1, {}).human(1)


def test_cli_max_errors_default_and_option(tmp_path):
    path = many_errors(tmp_path, 205)
    result = run("check", path)
    assert result.exit_code == 1
    assert result.output.count("error[E302]") == 200 and "... and 5 more errors" in result.output
    result = run("check", "--max-errors", "2", path)
    assert result.output.count("error[E302]") == 2 and "... and 203 more errors" in result.output
    assert run("check", "--max-errors", "0", path).output.count("error[E302]") == 205
    assert run("check", "--max-errors", "-1", path).exit_code == 2
    # JSON and SARIF keep every diagnostic whatever the limit.
    data = json.loads(run("check", "--format", "json", "--max-errors", "2", path).output)
    assert len(data["diagnostics"]) == 205 and data["summary"]["errors"] == 205
    sarif = json.loads(run("check", "--format", "sarif", "--max-errors", "2", path).output)
    assert len(sarif["runs"][0]["results"]) == 205


# -- long tokens ---------------------------------------------------------------------------------------

def test_a_huge_name_is_elided_in_messages_and_windowed_in_the_line(tmp_path):
    word = "x" * 200_000
    path = tmp_path / "long.rules"
    path.write_text(f'card "Test Card" {{\n    age 1\n    color brown\n    {word} 1\n    produce {"w" * 100_000}\n}}\n',
                    encoding="utf-8")
    report = check_paths([path])
    assert [d.code for d in report.diagnostics] == ["E201", "E301"]
    for d in report.diagnostics:
        assert len(d.message) < 100 and "..." in d.message
        assert d.help is None or len(d.help) < 200
    assert report.diagnostics[0].message == f"unknown statement `{'x' * ELIDE_AT}...`"
    text = report.human()
    assert len(text) < 2000
    data = json.loads(report.to_json())
    assert all(len(d["message"]) < 100 for d in data["diagnostics"])


def test_render_windows_a_long_line_around_the_caret():
    line = "".join(chr(ord("a") + i % 26) for i in range(5000))
    d = Diagnostic("error", "E002", "m", Span("f.rules", 1, 3001, 1, 3004))
    out = render(d, line).splitlines()
    shown, caret = out[2][4:], out[3][4:]
    assert shown.startswith("...") and shown.endswith("...")
    assert len(shown) == SHOWN_LINE + 6
    start = caret.index("^")
    assert caret[start:] == "^^^"
    assert shown[start:start + 3] == line[3000:3003]
    # At the end of the line: no trailing "...", the caret still under its characters.
    d = Diagnostic("error", "E002", "m", Span("f.rules", 1, 5000, 1, 5001))
    out = render(d, line).splitlines()
    shown, caret = out[2][4:], out[3][4:]
    assert not shown.endswith("...") and shown[caret.index("^")] == line[4999]
    # A short line is shown whole.
    assert render(Diagnostic("error", "E002", "m", Span.point("f.rules", 1, 2)), "abc").splitlines()[2] == "1 | abc"


def test_short_quoted_tokens_are_not_elided():
    d = Diagnostic("error", "E201", f"unknown statement `{'y' * ELIDE_AT}`", Span.point("f", 1, 1),
                   'did you mean `colour`? "' + "z" * (ELIDE_AT + 1) + '"')
    assert d.message == f"unknown statement `{'y' * ELIDE_AT}`"
    assert d.help == 'did you mean `colour`? "' + "z" * ELIDE_AT + '..."'


def test_the_prose_between_two_quoted_tokens_is_never_elided():
    # Before, the closing backtick of `deal` opened a "token" running to the next backtick: the
    # prose between was cut ("... for eac...`hand`").
    text = "the game cannot be played: `deal` of age 1 wants twenty-one cards for each of the seats `hand`"
    d = Diagnostic("error", "E409", text, Span.point("f", 1, 1), 'in "a" and in "b", not in the ' + "c" * 50)
    assert d.message == text and d.help == 'in "a" and in "b", not in the ' + "c" * 50


# -- an unclosed `{` or `"` ------------------------------------------------------------------------------

def test_errors_before_an_unclosed_brace_are_reported(tmp_path):
    path = tmp_path / "cards.rules"
    path.write_text(card("Test A", "    color purpel\n") + card("Test B", "    color brown)\n")
                    + 'card "Test C" {\n    age 1\n    color brown\n    if coins >= 3 {\n        gain 1 coin\n}\n'
                    + card("Test D", "    color purpel\n"), encoding="utf-8")
    report = check_paths([path])
    # Test D comes after the unclosed `{`: the file cannot be cut into definitions there.
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [
        ("E302", 3, 11), ("E001", 8, 16), ("E003", 14, 19)]


def test_errors_before_an_unterminated_string_are_reported(tmp_path):
    path = tmp_path / "cards.rules"
    path.write_text(card("Test A", "    color purpel\n") + 'card "Test B {\n    age 1\n    color brown\n}\n',
                    encoding="utf-8")
    assert [(d.code, d.span.line) for d in check_paths([path]).diagnostics] == [("E302", 3), ("E004", 6)]


def test_definitions_before_an_unclosed_brace_are_kept():
    text = card("Test A", "    color brown\n") + 'card "Test B" {\n    age 1\n'
    tree, diags = parse_file("x.rules", text)
    assert [d.code for d in diags] == ["E003"]
    assert tree is not None and [d.name for d in tree.definitions] == ["Test A"]
    assert tree.definitions[0].name_span.line == 1


def test_pieces_keep_their_lines_and_many_stray_lines_are_cheap():
    # Each broken definition is parsed alone but reports its line in the file; 40,000 lines
    # without a brace in a row are merged once, not copied again at every line.
    text = "".join(card(f"Test {i}", "    color brown)\n") for i in range(300)) + "# x\n" * 40_000
    start = time.process_time()
    tree, diags = parse_file("x.rules", text)
    assert time.process_time() - start < 20
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("E001", 3 + 5 * i, 16) for i in range(300)]
    assert gc.isenabled()


# -- `or` in a resource position -------------------------------------------------------------------------

@pytest.mark.parametrize("line, message, hint", [
    ("produce wood or clay", "`or` cannot join resources here", "produce wood|clay"),
    ("produce 2 wood or clay or stone", "`or` cannot join resources here", "produce wood|clay|stone"),
    ("cost 2 wood or clay", "`or` cannot join resources in `cost`", "`or` joins conditions"),
    ("points production(wood or clay)", "expected one resource here, found `or`", "`or` joins conditions"),
])
def test_or_between_resources_gets_its_own_hint(tmp_path, line, message, hint):
    path = tmp_path / "or.rules"
    path.write_text(card("Test Card", f"    color brown\n    {line}\n"), encoding="utf-8")
    diags = check_paths([path]).diagnostics
    assert [(d.code, d.message) for d in diags] == [("E309", message)]
    assert hint in diags[0].help
    assert "cost 2 coins wood 2 stone" not in diags[0].message


# -- check - (stdin) and -e ------------------------------------------------------------------------------

def test_check_stdin(tmp_path):
    text = card("Test Card", "    color purpel\n")
    result = run("check", "-", input=text)
    assert result.exit_code == 1
    assert "<stdin>:3:11: error[E302]: unknown colour `purpel`" in result.output
    assert "3 |     color purpel" in result.output
    assert run("check", "-", input=card("Test Card", "    color brown\n")).exit_code == 0
    # Beside other paths, and as a whole game of its own (it defines a `game`).
    result = run("check", "--format", "json", BROKEN / "E301_unknown_resource.rules", "-", input=text)
    assert {(d["file"], d["code"]) for d in json.loads(result.output)["diagnostics"]} == {
        ("<stdin>", "E302"), (str(BROKEN / "E301_unknown_resource.rules"), "E301")}
    result = run("check", "--format", "json", "-", input=(BROKEN / "E403_two_games.rules").read_bytes())
    assert [d["code"] for d in json.loads(result.output)["diagnostics"]] == ["E403"]
    # Bytes that are not UTF-8, and `-` twice.
    result = run("check", "-", input=b'card "Caf\xe9" {\n}\n')
    assert result.exit_code == 1 and "<stdin>:1:10: error[E005]" in result.output
    assert run("check", "-", "-", input=text).exit_code == 2


def test_check_stdin_refuses_a_player_count_outside_the_game_range():
    """`check - --players 9` said ok and exited 0 on Duel, where `check FOLDER --players 9`
    says the range and exits 2: the count was compiled for folders only."""
    text = card("Test Card", "    color brown\n")
    result = run("check", "-", "--players", "9", input=text)
    assert result.exit_code == 2
    assert "error: duel plays with 2 players, not 9" in result.output
    assert run("check", "-", "--players", "2", input=text).exit_code == 0
    # On the classic game (--game), its own range.
    result = run("check", "--game", "classic", "-", "--players", "8", input=text)
    assert result.exit_code == 2 and "error: classic plays with 3 to 7 players, not 8" in result.output


def test_check_stdin_is_laid_on_the_game_its_base_names():
    """An expansion on stdin made for the classic game was laid on Duel (E107) while the same
    file by name was checked on classic: docs/cli.md says a path that defines no `game` is laid
    on the game its `base` names, and `-` is such a path."""
    text = ('expansion on_stdin {\n    base classic\n}\n\ncard "Stdin Stall" {\n    age 1\n    color yellow\n'
            '    copies 3\n    gain count(city, owner=neighbours, color=brown) coins\n}\n')
    result = run("check", "-", input=text)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: 7 files,") and "14 boards" in result.output
    # (--game still decides; an expansion on `-e` names the game first, as for a folder)
    result = run("check", "--game", "duel", "-", input=text)
    assert result.exit_code == 1 and "<stdin>:2:10: error[E107]: expansion `on_stdin` is made for `classic`" in result.output
    result = run("check", "-e", "agora", "-", input=text)
    assert result.exit_code == 1 and "error[E107]" in result.output
    assert run("check", "-", input=text.replace("base classic", "base duel").replace("owner=neighbours", "owner=opponent")
               .replace("    copies 3\n", "")).exit_code == 0


def test_check_stdin_over_the_size_limit(monkeypatch):
    from rulesdsl import loader
    monkeypatch.setattr(loader, "MAX_FOLDER_BYTES", 10)
    result = CliRunner().invoke(cli, ["check", "-"], input="card " * 10)
    assert result.exit_code == 1
    assert "error: cannot read <stdin>: more than the limit of 10 bytes" in result.output
    assert "Traceback" not in result.output


def test_check_inline_source_through_the_api():
    report = check_paths([Inline("<stdin>", card("Test Card", "    color purpel\n").encode())])
    assert [(d.span.file, d.code) for d in report.diagnostics] == [("<stdin>", "E302")]
    assert report.files == 8 + 1


def test_check_on_top_of_an_expansion(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "changes.rules").write_text('expansion mine {\n    order 3\n}\n\nremove decree "Decree: blue coins"\n',
                                          encoding="utf-8")
    # Alone on the base game, the decree does not exist; on top of Agora it does.
    result = run("check", "--format", "json", folder)
    assert [d["code"] for d in json.loads(result.output)["diagnostics"]] == ["E105"]
    result = run("check", "-e", "duel-agora", folder)
    assert result.exit_code == 0, result.output
    data = json.loads(run("check", "--format", "json", "-e", "duel-agora", folder).output)
    assert data["summary"]["definitions"]["decree"] == 15
    # The expansion's own folder given as the path is not read twice.
    assert run("check", "-e", "duel-agora", ROOT / "cards" / "duel-agora").exit_code == 0
    # With no path: the base game and the expansion together.
    data = json.loads(run("check", "--format", "json", "-e", "duel-agora").output)
    assert data["summary"]["errors"] == 0 and data["summary"]["definitions"]["decree"] == 16
    # From stdin, and an unknown expansion.
    result = run("check", "-e", "duel-agora", "-", input='expansion mine {\n    order 3\n}\n\nremove decree "Decree: blue coins"\n')
    assert result.exit_code == 0, result.output
    result = run("check", "-e", "nowhere", folder)
    assert result.exit_code == 2 and "Invalid value for --expansion: unknown expansion `nowhere`" in result.output


def test_a_copy_of_a_whole_game_is_checked_under_the_expansions(tmp_path):
    """A designer's copy of Duel (it defines its `game`) with -e: the expansion goes on top of
    the copy, as `verify` and `simulate` play it; it was stacked on the bundled Duel too, every
    definition then defined twice (114 E102s)."""
    import shutil
    mine = tmp_path / "my-duel"
    shutil.copytree(ROOT / "cards" / "duel", mine, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    cards = mine / "age3.rules"
    assert cards.exists()
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost 2 wood", "cost 3 wood", 1), encoding="utf-8")
    for layers in (("-e", "pantheon"), ("-e", "pantheon", "-e", "agora")):
        data = json.loads(run("check", "--format", "json", *layers, mine).output)
        assert data["summary"]["errors"] == 0, data["diagnostics"][:3]
        assert data["summary"]["definitions"]["god"] == 15
    # Its own mistakes are still found there.
    (mine / "typo.rules").write_text('card "Odd" {\n    age 1\n    color purpel\n}\n', encoding="utf-8")
    data = json.loads(run("check", "--format", "json", "-e", "pantheon", mine).output)
    assert [d["code"] for d in data["diagnostics"]] == ["E302"]


# -- explain CODE ------------------------------------------------------------------------------------------

def test_every_code_has_an_explanation():
    assert set(codes.EXPLANATIONS) == set(codes.CODES)
    for code, e in codes.EXPLANATIONS.items():
        assert e.meaning.strip() and e.example.strip() and e.fix.strip(), code
        text = codes.explain(code)
        assert text.startswith(f"{code} ({codes.severity(code)}): {codes.CODES[code]}")
        assert e.meaning in text and e.fix in text


def test_every_explanation_example_makes_its_mistake(tmp_path):
    """Each example, checked as a card file on its own (on top of the base game unless it
    defines a game), reports its code and nothing else."""
    paths = {}
    for code, e in codes.EXPLANATIONS.items():
        if code in ("E009", "E011"):  # a file that cannot be read, a folder with none: described
            continue
        if code == "E412":  # 10,001 copies, shortened with `...` (tests/broken/ holds the file itself)
            continue
        path = tmp_path / f"{code}.rules"
        if code == "E005":  # the example shows the Latin-1 byte as the é it stands for
            path.write_bytes(e.example.encode("latin-1"))
        elif code == "E010":  # the example shows the ESC character as the symbol ␛
            path.write_text(e.example.replace("\u241b", "\x1b", 1), encoding="utf-8")
        else:
            path.write_text(e.example, encoding="utf-8")
        paths[code] = path
    report = check_paths(list(paths.values()))
    got: dict[str, list[str]] = {}
    for d in report.diagnostics:
        got.setdefault(Path(d.span.file).stem, []).append(d.code)
    assert got == {code: [code] for code in paths}


def test_cli_explain_code():
    result = run("explain", "E201")
    assert result.exit_code == 0
    assert result.output.startswith("E201 (error): unknown statement")
    assert "Example of the mistake:" in result.output and "How to fix it:" in result.output
    assert "        sheilds 1" in result.output
    assert run("explain", "w501").output.startswith("W501 (warning):")
    result = CliRunner().invoke(cli, ["explain", "E999"])
    assert result.exit_code == 1 and "no diagnostic code E999" in result.output
    # A definition's name still works.
    assert run("explain", "Lumber Yard").output.startswith("Lumber Yard (card")


# -- --format github and sarif --------------------------------------------------------------------------------

GITHUB = re.compile(r"^::(error|warning) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")


def test_github_format(tmp_path):
    folder = tmp_path / "a, b: c"
    folder.mkdir()
    path = folder / "x.rules"
    path.write_text(card("Test Card", "    color purpel\n"), encoding="utf-8")
    # Both files in one folder, so their order (diagnostics are sorted by file) does not depend on
    # where the checkout is: the error's file sorts first.
    warning = tmp_path / "w502.rules"
    warning.write_bytes((BROKEN / "W502_chain_never_given.rules").read_bytes())
    paths = [path, warning]
    result = run("check", "--format", "github", *paths)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-1].startswith("failed: ")
    commands = [GITHUB.match(line) for line in lines[:-1]]
    assert all(commands), lines
    props = [dict(kv.split("=", 1) for kv in m.group(2).split(",")) for m in commands]
    assert [m.group(1) for m in commands] == ["error", "warning"]
    assert props[0] == {"file": str(path).replace("%", "%25").replace(":", "%3A").replace(",", "%2C"),
                        "line": "3", "col": "11", "endLine": "3", "endColumn": "17", "title": "E302%3A unknown colour"}
    assert commands[0].group(3) == "[E302] unknown colour `purpel`%0Ahelp: did you mean `purple`?"
    assert props[1]["line"] == "10" and props[1]["col"] == "16"
    # --max-errors applies as to the human format.
    result = run("check", "--format", "github", "--max-errors", "1", *paths)
    assert sum(1 for line in result.output.splitlines() if line.startswith("::")) == 1
    assert "... and 1 more warning" in result.output


def test_sarif_format(tmp_path, monkeypatch):
    relative = Path("rel dir")
    paths = [BROKEN / "E302_unknown_colour.rules", BROKEN / "W502_chain_never_given.rules"]
    monkeypatch.chdir(tmp_path)
    relative.mkdir()
    (relative / "x.rules").write_text(card("Test Card", "    color purpel\n"), encoding="utf-8")
    result = run("check", "--format", "sarif", *paths, relative / "x.rules")
    assert result.exit_code == 1
    log = json.loads(result.output)
    # The structure SARIF 2.1.0 requires (sarifLog, run, tool, toolComponent, reportingDescriptor,
    # result, message, location, physicalLocation, artifactLocation, region).
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run_ = log["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "rulesdsl" and isinstance(driver["version"], str)
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(codes.CODES)
    for r in rules:
        assert r["shortDescription"]["text"] == codes.CODES[r["id"]]
        assert r["fullDescription"]["text"] and r["help"]["text"]
        assert r["defaultConfiguration"]["level"] in ("error", "warning")
    results = run_["results"]
    assert [r["ruleId"] for r in results] == ["E302", "W502", "E302"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] in ("none", "note", "warning", "error")
        assert isinstance(r["message"]["text"], str) and r["message"]["text"]
        (location,) = r["locations"]
        physical = location["physicalLocation"]
        assert isinstance(physical["artifactLocation"]["uri"], str)
        region = physical["region"]
        assert all(isinstance(region[k], int) and region[k] >= 1 for k in ("startLine", "startColumn", "endLine", "endColumn"))
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])
    first = results[0]
    assert first["level"] == "error" and results[1]["level"] == "warning"
    assert first["message"]["text"] == "unknown colour `purpel`\nhelp: did you mean `purple`?"
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == paths[0].as_uri()
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 11,
                                                                   "endLine": 5, "endColumn": 17}
    assert results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "rel%20dir/x.rules"
    assert run_["columnKind"] == "unicodeCodePoints"
    # Clean content: an empty list of results, exit 0.
    clean = run("check", "--format", "sarif", ROOT / "cards" / "duel")
    assert clean.exit_code == 0 and json.loads(clean.output)["runs"][0]["results"] == []


def test_sarif_names_a_file_whose_name_is_not_utf8(tmp_path, monkeypatch):
    import os
    monkeypatch.chdir(tmp_path)
    folder = Path("cards")
    folder.mkdir()
    try:
        name = os.fsdecode(b"a\xffb.rules")   # (a byte no UTF-8 name holds, as a POSIX file system allows)
        (folder / name).write_text(card("Test Card", "    color purpel\n"), encoding="utf-8")
    except (UnicodeError, OSError):
        pytest.skip("the file system takes only UTF-8 names")
    result = run("check", "--format", "sarif", folder)
    assert result.exit_code == 1
    (found,) = json.loads(result.output)["runs"][0]["results"]
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "cards/a%FFb.rules"


def test_a_syntax_error_is_not_buried_under_what_follows_from_it(tmp_path):
    import shutil
    folder = tmp_path / "duel"
    shutil.copytree(ROOT / "cards" / "duel", folder)
    game = folder / "game.rules"
    game.write_text(game.read_text(encoding="utf-8").replace("    resources ", "    resources @ ", 1), encoding="utf-8")
    # A real mistake elsewhere, of a kind no lost definition explains, is still told.
    (folder / "extra.rules").write_text('card "Shed" {\n    age 1\n}\n', encoding="utf-8")
    report = check_paths([folder])
    assert [(d.code, Path(d.span.file).name) for d in report.diagnostics if d.severity == "error"] == [
        ("E104", "extra.rules"), ("E002", "game.rules")]
    assert report.hidden > 300   # (every card's colour and resources were unknown, the game missing)
    human = report.human()
    assert f"note: {report.hidden:,} more diagnostics are left out: they follow from the syntax errors" in human
    assert report.as_json()["summary"]["hidden"] == report.hidden
    # Once the file parses, nothing is left out.
    game.write_text(game.read_text(encoding="utf-8").replace("    resources @ ", "    resources ", 1), encoding="utf-8")
    fixed = check_paths([folder])
    assert fixed.hidden == 0 and [d.code for d in fixed.diagnostics] == ["E104"]


def test_a_name_is_left_unknown_only_when_its_definition_is_lost(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    # "Shed" is defined in a file that does not parse (a number too large); "Shack" nowhere.
    (folder / "a.rules").write_text('card "Shed" {\n    age 1\n    color brown\n    gain 99999999999999 coins\n}\n',
                                    encoding="utf-8")
    (folder / "b.rules").write_text('rule "Gift" {\n    when built { acquire "Shed" }\n}\n'
                                    'rule "Other gift" {\n    when built { acquire "Shack" }\n}\n', encoding="utf-8")
    report = check_paths([folder])
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in report.diagnostics if d.severity == "error"] == [
        ("E006", "a.rules", 4), ("E306", "b.rules", 5)]
    assert report.hidden == 1


def test_carets_stand_under_the_span_after_wide_characters():
    # A CJK character or an emoji takes two columns of a terminal; a combining mark none.
    for before in ("全角カード", "🎲", "Cafe\u0301"):
        text = f'card "{before}" {{ age 1; color yelow }}\n'
        d = Diagnostic("error", "E302", "unknown colour", Span("x.rules", 1, text.index("yelow") + 1, 1,
                                                                text.index("yelow") + 6))
        source_line, carets = render(d, text).splitlines()[2:4]
        cells = {"全角カード": 10, "🎲": 2, "Cafe\u0301": 4}[before]
        shown = source_line.index("yelow") + cells - len(before)   # (where a terminal draws it)
        assert carets.index("^") == shown and carets.count("^") == 5, (before, carets)
