"""Scenario files: the rulebook examples pass under `rulesdsl test` and under plain pytest (the
rulesdsl plugin); every scenario diagnostic has a broken file (tests/data/broken_scenarios/)
whose first line says what it must report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.testing import scenarios as S

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "scenarios"
BROKEN = Path(__file__).resolve().parent / "data" / "broken_scenarios"
BROKEN_FILES = sorted(BROKEN.glob("*.txt"))
EXPECT = re.compile(r"^# expect: ([ES]\d{3}) (\d+) (\d+) (error|failure)\s*$")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(tmp_path: Path, text: str, name: str = "t.scenario") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the documented examples -----------------------------------------------------------------------

def test_rulebook_examples_pass():
    report = S.run_paths([EXAMPLES])
    assert report.ok, report.human()
    names = [r.name for r in report.results]
    assert len(names) >= 12
    for topic in ("Fortifications", "Caravansery", "Aqueduct costs Eddy 12", "Discard", "Baths", "Palisade",
                  "Archery Range", "Strategy", "seventh wonder", "12 face up, 8 face down", "turned up once it is uncovered",
                  "Eddy cannot act on Coen's turn", "Temple of Artemis", "Coen chooses the progress token",
                  "towards Coen's capital", "applies the tokens it reaches", "Great Library"):
        assert any(topic in n for n in names), topic
    assert all(r.checks >= 1 for r in report.results)


def test_the_examples_pass_from_inside_their_folder(monkeypatch):
    # `rulesdsl test` with no path runs the current folder's scenarios; in examples/scenarios the
    # folder `pantheon/` (of scenarios, no card file) stood in for the bundled expansion that
    # `expansion pantheon` names: "no card file (*.rules) in folder pantheon", S401.
    monkeypatch.chdir(EXAMPLES)
    result = run("test")
    assert result.exit_code == 0, result.output
    assert "ok    Pantheon: Isis cannot build an eighth wonder" in result.output


def test_a_bare_name_in_a_scenario_is_the_bundled_set_whatever_folder_is_here(tmp_path, monkeypatch):
    (tmp_path / "pantheon").mkdir()
    (tmp_path / "pantheon" / "x.rules").write_text('expansion pantheon { }\n', encoding="utf-8")
    (tmp_path / "duel").mkdir()
    monkeypatch.chdir(tmp_path)
    (r,) = results(tmp_path, """\
scenario "gods" {
    base duel
    expansion pantheon
    option beginner_wonders
    age 2
    expect count(pantheon) >= 1
}
""")
    assert r.passed, r.render()


def test_rulesdsl_test_command_passes_on_the_examples():
    result = run("test", str(EXAMPLES))
    assert result.exit_code == 0, result.output
    assert re.search(r"\d+ scenarios: \d+ passed, 0 failed, 0 errors", result.output)
    assert "  ok    Trade: the Aqueduct costs Eddy 12 coins (6 checks)" in result.output


def test_pytest_collects_scenario_files():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                           str(EXAMPLES)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    count = len(S.run_paths([EXAMPLES]).results)
    assert f"{count} passed" in proc.stdout


def test_pytest_reports_a_failing_scenario(tmp_path):
    write(tmp_path, FAILING)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout
    assert "1 failed, 1 passed" in out
    assert "t.scenario:9:5: failure[S501]: expected coins(0) == 5, but coins(0) is 11" in out
    assert "9 |     expect coins(0) == 5" in out and "^^^^" in out
    assert "Traceback" not in out


FAILING = """\
scenario "passes" {
    option beginner_wonders
    expect coins(0) == 7
}
scenario "fails" {
    option beginner_wonders
    accessible "Tavern"
    do build "Tavern"
    expect coins(0) == 5
}
"""


def test_rulesdsl_test_reports_failures_with_exit_1(tmp_path):
    path = write(tmp_path, FAILING)
    result = run("test", str(path))
    assert result.exit_code == 1
    assert "  ok    passes (1 check)" in result.output and "  FAIL  fails" in result.output
    assert "failure[S501]" in result.output and "= help: now: age 1, player 1 to move, coins [11, 7]" in result.output
    assert result.output.rstrip().endswith("2 scenarios: 1 passed, 1 failed, 0 errors")
    result = run("test", str(path), "-k", "pass")
    assert result.exit_code == 0 and "1 scenario: 1 passed" in result.output
    data = json.loads(run("test", str(path), "--format", "json").output)
    assert data["summary"] == {"scenarios": 2, "passed": 1, "failed": 1, "errors": 0}
    assert data["scenarios"][1]["diagnostics"][0]["code"] == "S501"


def test_rulesdsl_test_usage_errors(tmp_path):
    result = run("test", str(tmp_path))
    assert result.exit_code == 2 and "no scenario files" in result.output
    result = run("test", str(tmp_path / "missing.scenario"))
    assert result.exit_code == 2


def test_syntax_error_in_a_scenario_file(tmp_path):
    path = write(tmp_path, 'scenario "x" {\n    coins 0 (\n}\n')
    result = run("test", str(path))
    assert result.exit_code == 1 and "error[E001]" in result.output and "Traceback" not in result.output


# -- the statements and expressions --------------------------------------------------------------

def results(tmp_path, text: str):
    return S.run_file(write(tmp_path, text))


def test_expressions_and_setup_statements(tmp_path):
    (r,) = results(tmp_path, """\
scenario "everything" {
    option beginner_wonders
    seed 4
    give 1 "Glassworks" "Law"
    move "Baths" discard
    clear board_tokens to=progress_deck
    move "Strategy" board_tokens
    pawn 1 2
    coins 1 20
    turn 1
    expect to_move == 1 and pawn == 0 - 2 and pawn_distance == 2 player=1
    expect zone("Law") == tokens and owner("Law") == 1 and zone("Baths") == discard
    expect count(board_tokens, owner=all) == 1
    expect production(glass) == 1 player=1
    expect trade(0, glass) == 3 and vp(1) == vp(1, token) + vp(1, coins) + vp(1, military)
    expect not over and winner == none and victory == none
    structure "Lumber Yard" "Stone Pit"
    expect accessible("Lumber Yard") and accessible("Stone Pit")
    do build "Lumber Yard"
    do discard "Stone Pit"
    expect age == 1 and turn == 2 and options == [p0, p1]
}
""")
    assert r.passed, r.render()


def test_age_statement_moves_on_to_a_later_age(tmp_path):
    (r,) = results(tmp_path, """\
scenario "age 3" {
    option beginner_wonders
    coins 0 11
    age 3
    expect age == 3 and coins(0) == 11 and coins(1) == 7
    expect count(discard) == 0
    turn 0
    expect to_move == 0
}
""")
    assert r.passed, r.render()


def test_age_statement_discards_in_a_game_whose_discard_is_named_otherwise(tmp_path):
    """`age N` looked for an action named `discard`: the classic game's is `sell`, so the ages
    before were played with builds, and the cities were not empty (a rules audit)."""
    (r,) = results(tmp_path, """\
scenario "classic age 3" {
    base classic
    players 3
    age 3
    expect age == 3 and count(discard) == 0
    expect count(city, owner=me) == 0 and count(city, owner=left) == 0 and count(city, owner=right) == 0
}
""")
    assert r.passed, r.render()


def test_manual_setup_choices_and_choose(tmp_path):
    (r,) = results(tmp_path, """\
scenario "draft" {
    setup_choices manual
    script wonder_deck "Pyramids" "Colossus" "Sphinx" "Piraeus"
    expect options == ["Colossus", "Piraeus", "Pyramids", "Sphinx"] and to_move == 0
    do choose "Sphinx"
    expect to_move == 1
    expect legal choose "Pyramids"
    expect illegal choose "Sphinx" reason="not one of the options"
}
""")
    assert r.passed, r.render()


def test_legal_and_illegal_expectations_fail_with_reasons(tmp_path):
    rs = results(tmp_path, """\
scenario "legal fails" {
    option beginner_wonders
    expect legal build "Academy"
}
scenario "illegal fails" {
    option beginner_wonders
    accessible "Lumber Yard"
    expect illegal build "Lumber Yard"
}
scenario "wrong reason" {
    option beginner_wonders
    expect illegal build "Academy" reason="coins"
}
""")
    assert [r.status for r in rs] == ["failed"] * 3
    assert "not accessible" in rs[0].diagnostics[0].message
    assert "is legal" in rs[1].diagnostics[0].message
    assert "because Academy is not accessible" in rs[2].diagnostics[0].message


def test_several_static_errors_are_reported_together(tmp_path):
    (r,) = results(tmp_path, """\
scenario "many" {
    option beginner_wonders
    give 0 "Lumbr Yard"
    move "Baths" dicsard
    expect cost(0, "Baths", 3) == 1
}
""")
    assert r.status == "error"
    assert [d.code for d in r.diagnostics] == ["S301", "S301", "S203"]
    assert "did you mean `Lumber Yard`?" in r.diagnostics[0].help
    assert "did you mean `discard`?" in r.diagnostics[1].help


def test_scenarios_with_a_folder_of_cards(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "x.rules").write_text('expansion x { }\nreplace card "Tavern" { age 1; color yellow; gain 9 coins }\n',
                                   encoding="utf-8")
    (r,) = results(tmp_path, """\
scenario "my Tavern" {
    expansion "cards"
    option beginner_wonders
    accessible "Tavern"
    do build "Tavern"
    expect coins(0) == 16
}
""")
    assert r.passed, r.render()


def test_pantheon_scenario(tmp_path):
    (r,) = results(tmp_path, """\
scenario "gods" {
    expansion pantheon
    option beginner_wonders
    age 2
    expect count(pantheon) >= 1
}
""")
    assert r.passed, r.render()


# -- negative numbers ----------------------------------------------------------------------------

def test_a_sign_before_a_number_a_name_or_a_bracket():
    from rulesdsl import ast
    from rulesdsl.parser import parse_file
    tree, diags = parse_file("x.rules", 'card "A" {\n    gain -3 coins\n    x -pawn_distance\n    y -(2) 4 -3 [-1]\n}\n')
    assert diags == []
    gain, x, y = tree.definitions[0].block.statements
    assert gain.args[0] == ast.Int(-3, gain.args[0].span)
    (neg_name,) = x.args
    assert isinstance(neg_name, ast.BinOp) and neg_name.op == "-" and neg_name.left.value == 0
    neg_bracket, four, minus_three, items = y.args
    assert neg_bracket.value == -2
    # between the space-separated arguments of a statement, `4 -3` is two (a sign after a space)
    assert (four.value, minus_three.value) == (4, -3)
    assert items.items[0].value == -1


def test_negative_numbers_in_expectations_and_the_signed_pawn(tmp_path):
    (r,) = results(tmp_path, """\
scenario "negative" {
    option beginner_wonders
    pawn -2
    expect pawn == -2 and pawn_distance == -2 and -pawn == 2
    expect pawn_distance == 2 player=1
    expect vp(1, military) - vp(0, military) == 2 and 0 - 3 == -3 and -(1 + 2) == -3
    pawn 1 1
    expect pawn == -1
}
""")
    assert r.passed, r.render()
    rs = results(tmp_path, """\
scenario "wrong" {
    option beginner_wonders
    pawn 1 1
    expect pawn == 1
}
scenario "spaced" {
    coins 0 -3
}
scenario "negative coins" {
    coins 0 (-3)
}
scenario "negative distance" {
    pawn 0 (-2)
}
scenario "off the track" {
    pawn -10
}
scenario "negative seed" {
    seed (-1)
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("failed", "S501")] + [("error", "S203")] * 5
    assert "expected pawn == 1, but pawn is -1" in rs[0].diagnostics[0].message
    assert rs[1].diagnostics[0].message == "coins cannot be negative"   # `0 -3`: two arguments
    assert "cannot be negative" in rs[2].diagnostics[0].message
    assert "`pawn N` takes a signed position" in rs[3].diagnostics[0].help
    assert "between -9 and 9" in rs[4].diagnostics[0].message


def test_mark_and_change(tmp_path):
    (r,) = results(tmp_path, """\
scenario "change" {
    option beginner_wonders
    accessible "Lumber Yard"
    mark
    expect change(coins(0)) == 0
    do discard "Lumber Yard"
    expect change(coins(0)) == 2 and change(coins(1)) == 0 and change(count(discard)) == 1
    mark
    pawn 1 3
    expect change(coins(0)) == -2 and change(pawn) == -3
}
""")
    assert r.passed, r.render()
    rs = results(tmp_path, """\
scenario "no mark" {
    option beginner_wonders
    expect change(coins(0)) == 0
    mark
}
scenario "not a number" {
    option beginner_wonders
    mark
    expect change(winner) == 0
}
scenario "mark takes nothing" {
    mark 3
}
scenario "wrong change" {
    option beginner_wonders
    mark
    coins 1 3
    expect change(coins(1)) == -3
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("error", "S203"), ("failed", "S503"),
                                                               ("error", "S203"), ("failed", "S501")]
    assert "none came before" in rs[0].diagnostics[0].message
    assert "not a number" in rs[1].diagnostics[0].message
    assert "but change(coins(1)) is -4" in rs[3].diagnostics[0].message


# -- face up, face down, everything laid out ------------------------------------------------------

def test_face_up_and_face_down(tmp_path):
    (r,) = results(tmp_path, """\
scenario "faces" {
    option beginner_wonders
    expect count(structure_all) == 20 and count(structure) == 6
    expect face_up(structure) == 12 and face_down(structure) == 8 and face_down(structure_all) == 8
    expect face_up(board_tokens) == 5 and face_down(board_tokens) == 0
    expect face_up(wonders) == 8
    accessible "Aqueduct"
    expect face_up("Aqueduct") and not face_down("Aqueduct")
    expect not face_up("Brewery") and not face_down("Brewery")     # in a deck: not laid out
    do build "Aqueduct" player=0
    expect face_up("Aqueduct") and face_up(structure) == 11 and count(structure_all) == 19
}
""")
    assert r.passed, r.render()
    (r,) = results(tmp_path, """\
scenario "decrees" {
    expansion agora
    option beginner_wonders
    expect face_down(decrees) == 3 and face_up(decrees) == 3 and count(decrees) == 6
}
""")
    assert r.passed, r.render()
    rs = results(tmp_path, """\
scenario "a deck card is not face up" {
    option beginner_wonders
    expect face_up("Brewery")
}
scenario "wrong count" {
    option beginner_wonders
    expect face_down(structure) == 7
}
scenario "unknown zone" {
    option beginner_wonders
    expect face_up(structur) == 1
}
scenario "not an item" {
    option beginner_wonders
    expect face_down(3)
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("failed", "S501"), ("failed", "S501"),
                                                               ("error", "S301"), ("error", "S203")]
    assert "but face_down(structure) is 8" in rs[1].diagnostics[0].message
    assert "did you mean `structure`?" in rs[2].diagnostics[0].help


# -- acting as a named player, `any` --------------------------------------------------------------

def test_actions_as_a_named_player(tmp_path):
    (r,) = results(tmp_path, """\
scenario "seats" {
    option beginner_wonders
    accessible "Lumber Yard" "Stone Pit"
    expect illegal build "Lumber Yard" player=1 reason="player 0's turn"
    expect legal build "Lumber Yard" player=0
    do build "Lumber Yard" player=0
    do discard "Stone Pit" player=1
    expect to_move == 0
}
""")
    assert r.passed, r.render()
    rs = results(tmp_path, """\
scenario "out of turn" {
    option beginner_wonders
    accessible "Lumber Yard"
    do build "Lumber Yard" player=1
}
scenario "not legal for Eddy" {
    option beginner_wonders
    accessible "Lumber Yard"
    expect legal build "Lumber Yard" player=1
}
scenario "legal for Coen" {
    option beginner_wonders
    accessible "Lumber Yard"
    expect illegal build "Lumber Yard" player=0
}
scenario "no such player" {
    option beginner_wonders
    do build "Lumber Yard" player=2
}
scenario "choice of the other player" {
    setup_choices manual
    do choose any player=1
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("failed", "S502"), ("failed", "S501"),
                                                               ("failed", "S501"), ("error", "S203"),
                                                               ("failed", "S502")]
    assert rs[0].diagnostics[0].message.endswith("is not legal: it is player 0's turn, not player 1's")
    assert "it is player 0's turn, not player 1's" in rs[1].diagnostics[0].message
    assert "is legal" in rs[2].diagnostics[0].message
    assert "it is player 0's choice, not player 1's" in rs[4].diagnostics[0].message
    state = S.run_file(write(tmp_path, 'scenario "x" {\n    option beginner_wonders\n    expect illegal build "Lumber Yard" player=1\n}\n'))
    assert state[0].passed


ANY_DRAFT = """\
scenario "any draft" {
    setup_choices manual
    do choose any
    do choose any
    do choose any
    do choose any
    do choose any
    do choose any
    expect options == []
    expect owner("Pyramids") == 0 and owner("Colossus") == 0 and owner("Statue of Zeus") == 0
    expect owner("Circus Maximus") == 0 and count(wonders) == 4 player=1
    do any
    expect turn == 1
}
"""


def test_any_answers_a_choice_the_same_way_for_the_same_seed(tmp_path):
    # The picks are pinned: they must not depend on the process (hash seed) or the machine.
    (r,) = results(tmp_path, ANY_DRAFT)
    assert r.passed, r.render()
    # ... nor on where the lines stand in the file
    (r,) = results(tmp_path, ANY_DRAFT.replace("    do choose any\n", "    # a comment\n\n    do choose any\n", 1))
    assert r.passed, r.render()
    # another seed, another draft
    (r,) = results(tmp_path, ANY_DRAFT.replace("setup_choices manual", "setup_choices manual\n    seed 1"))
    assert r.status == "failed" and r.diagnostics[0].code == "S501"
    rs = results(tmp_path, """\
scenario "nothing matches" {
    setup_choices manual
    do build any
}
scenario "none legal" {
    setup_choices manual
    expect legal build any
}
scenario "some legal" {
    setup_choices manual
    expect illegal choose any
}
scenario "any takes no arguments" {
    do any "Baths"
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("failed", "S502"), ("failed", "S501"),
                                                               ("failed", "S501"), ("error", "S203")]
    assert "no legal action matches `build any`" in rs[0].diagnostics[0].message
    assert "`choose any` is legal (e.g. `choose " in rs[2].diagnostics[0].message


# -- set-up statements never silently move what matters --------------------------------------------

def test_setup_refuses_to_take_items_from_where_they_matter(tmp_path):
    rs = results(tmp_path, """\
scenario "given twice" {
    option beginner_wonders
    give 0 "Baths"
    give 1 "Baths"
}
scenario "in play" {
    option beginner_wonders
    accessible "Baths"
    do build "Baths"
    give 1 "Baths"
}
scenario "laid out from a city" {
    option beginner_wonders
    give 0 "Baths"
    structure "Baths" "Tavern"
}
scenario "laid out from the discard" {
    option beginner_wonders
    accessible "Baths"
    do discard "Baths"
    accessible "Baths"
}
""")
    assert [(x.status, x.diagnostics[0].code) for x in rs] == [("error", "S504")] * 4
    d = [x.diagnostics[0] for x in rs]
    assert d[0].message == "\"Baths\" is already in player 0's `city`: line 3 put it there"
    assert (d[0].span.line, d[0].span.column) == (4, 12) and 'move "Baths"' in d[0].help
    assert d[1].message == "\"Baths\" is in play, in player 0's `city`"
    assert "in player 0's `city` (line 14 put it there)" in d[2].message
    assert d[3].message.startswith("\"Baths\" is in `discard`: laying it out would put a structure card there")
    assert 'move "Baths" box' in d[3].help


def test_setup_takes_items_when_told_and_keeps_what_earlier_lines_laid_out(tmp_path):
    (r,) = results(tmp_path, """\
scenario "explicit" {
    option beginner_wonders
    give 0 "Baths"
    move "Baths" box                    # said explicitly: fine
    accessible "Baths"
    expect count(city) == 0 and accessible("Baths")
    give 1 "Pyramids"                   # an unbuilt wonder of Coen's is not in play yet
    expect zone("Pyramids") == built_wonders and owner("Pyramids") == 1
    move "Pyramids" city owner=0        # `move` takes from anywhere
    expect owner("Pyramids") == 0
    accessible "Aqueduct"
    accessible "Brewery" "Library" "Caravansery" "Courthouse"
    expect accessible("Aqueduct") and accessible("Baths") and count(structure) == 6
}
""")
    assert r.passed, r.render()
    (r,) = results(tmp_path, """\
scenario "no room" {
    option beginner_wonders
    accessible "Aqueduct" "Brewery" "Library" "Caravansery" "Courthouse" "Statue"
    accessible "Baths"
}
""")
    assert r.status == "failed" and r.diagnostics[0].code == "S503"
    assert "no accessible card is left to make room" in r.diagnostics[0].message


def test_the_pawn_applies_the_military_tokens_it_reaches(tmp_path):
    (r,) = results(tmp_path, """\
scenario "tokens" {
    option beginner_wonders
    pawn 0 4
    expect coins(1) == 5 and zone("Looting 2 (second player's side)") == nowhere
    pawn 0 2
    pawn 0 5
    expect coins(1) == 5                # the token is gone: nothing more
    pawn -6
    expect coins(0) == 0 and count(track) == 1
    pawn 0 9
    expect over and winner == 0 and victory == military
}
""")
    assert r.passed, r.render()
    (r,) = results(tmp_path, """\
scenario "pawn during a choice" {
    setup_choices manual
    pawn 0 1
}
""")
    assert r.status == "failed" and r.diagnostics[0].code == "S503"


# -- one broken file per diagnostic ----------------------------------------------------------------

def expectation(path: Path):
    m = EXPECT.match(path.read_text(encoding="utf-8").split("\n", 1)[0])
    assert m, f"{path.name}: first line must be `# expect: CODE LINE COLUMN error|failure`"
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.stem)
def test_broken_scenario_file(path: Path):
    code, line, column, severity = expectation(path)
    assert path.name.startswith(code)
    (r,) = S.run_file(path)
    assert r.status == ("failed" if severity == "failure" else "error")
    got = [(d.code, d.span.line, d.span.column, d.severity) for d in r.diagnostics]
    assert got == [(code, line, column, severity)], r.render()
    text = r.render()
    assert text.startswith(f"{path}:{line}:{column}: {severity}[{code}]: ")
    assert f"{line} | " in text and "^" in text


def test_every_scenario_code_has_a_broken_file():
    tested = {expectation(p)[0] for p in BROKEN_FILES}
    assert set(S.S_CODES) <= tested, sorted(set(S.S_CODES) - tested)
    source = (ROOT / "rulesdsl" / "testing" / "scenarios.py").read_text(encoding="utf-8")
    assert set(re.findall(r'"(S\d{3})"', source)) == set(S.S_CODES)


# -- never a traceback -------------------------------------------------------------------------

_SOURCES = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.scenario"))]
_TOKENS = ["{", "}", "(", ")", '"', "=", "0", "1", "99", "expect", "do", "give 0", "move", "clear city", "age 3",
           "turn 1", "pawn 0 9", "structure", "accessible", "player=1", "owner=1", "to=box", "cost(0, ", "vp(0, blue)",
           "options", "winner", "zone(", "and", "not", "==", '"Baths"', '"Nope"', "choose", "build", "wonder",
           "setup_choices manual", "expansion pantheon", 'script age1 "Baths"', "[", "]", ",", "\n", "-", "-3", "mark",
           "change(", "face_up(", "face_down(structure)", "any", "player=0", "player=1", "do any", "pawn -4"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_scenario_files_give_diagnostics_not_tracebacks(tmp_path_factory, data):
    text = data.draw(st.sampled_from(_SOURCES))
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()):
            text = text[:k] + " " + data.draw(st.sampled_from(_TOKENS)) + " " + text[k:]
        else:
            text = text[:k] + text[k + data.draw(st.integers(1, 30)):]
    path = tmp_path_factory.mktemp("fuzz") / "f.scenario"
    path.write_text(text, encoding="utf-8")
    for r in S.run_file(path):
        r.render()
        assert r.status in ("passed", "failed", "error")
        assert all(d.code in S.S_CODES or d.code.startswith("E") for d in r.diagnostics)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_or_a_device_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "x.scenario"
    os.mkfifo(fifo)   # (read as a file, it would wait for a writer for ever)
    for path in (fifo, Path(os.devnull), Path("/dev/zero")):
        if not path.exists():
            continue
        loaded = S.read_file(path)
        assert [d.code for d in loaded.diagnostics] == ["E009"], path
        assert "not a regular file" in loaded.diagnostics[0].message


def test_a_scenario_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    import rulesdsl.loader as loader
    monkeypatch.setattr(loader, "MAX_FOLDER_BYTES", 100)
    big = tmp_path / "big.scenario"
    big.write_text("# " + "x" * 200 + "\n", encoding="utf-8")
    loaded = S.read_file(big)
    assert [d.code for d in loaded.diagnostics] == ["E009"]
    assert "more than the limit of 100" in loaded.diagnostics[0].message


def test_options_compares_with_the_names_of_a_choose_ones_options(tmp_path):
    # `options` held the option names, but a quoted name was taken for an item (S301).
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "cards.rules").write_text(
        'replace card "Tavern" {\n    age 1\n    color yellow\n    choose_one {\n'
        '        option coins { gain 4 coins }\n        option tribute if=coins > 100 { gain 1 coin }\n'
        '        option renown { shields 1 }\n    }\n}\n', encoding="utf-8")
    body = ('    expansion "exp"\n    option beginner_wonders\n    accessible "Tavern"\n    do build "Tavern"\n'
            '    expect options == {}\n')
    assert run("test", str(write(tmp_path, 'scenario "S" {\n' + body.format('["coins", "renown"]') + "}\n"))).exit_code == 0
    failed = run("test", str(write(tmp_path, 'scenario "S" {\n' + body.format('["coins", "tribute"]') + "}\n")))
    assert failed.exit_code == 1 and "options is [coins, renown]" in failed.output, failed.output


def test_a_scenario_names_a_payment_to_neighbours(tmp_path):
    # `do build "Workshop" pay=p2:2` did not parse and `pay=` was no option: a build that needs a
    # purchase could not be played in a scenario.
    text = ('scenario "S" {\n    base classic\n    players 3\n    seed 4\n    do any\n'
            '    expect illegal build "Workshop" player=1\n'
            '    expect legal build "Workshop" pay="p2:2" player=1\n'
            '    do build "Workshop" pay="p2:2" player=1\n'
            '    expect illegal build "Workshop" pay="p0:2" player=1\n}\n')
    result = run("test", str(write(tmp_path, text)))
    assert result.exit_code == 0, result.output
    assert "ok    S (3 checks)" in result.output, result.output
    bad = run("test", str(write(tmp_path, text.replace('pay="p2:2" player=1\n    do', 'pay=2 player=1\n    do'))))
    assert bad.exit_code == 1 and "`pay=` takes the payment in quotes" in bad.output, bad.output


def test_give_and_move_take_a_copy_no_seat_holds(tmp_path):
    # At 5 seats there are two Stone Pits: `give 2` after `give 1` was refused (S504, "already in
    # player 1's city"), and `move ... owner=2` took player 1's copy out of its city.
    text = ('scenario "give" {\n    base classic\n    players 5\n    give 1 "Stone Pit"\n    give 2 "Stone Pit"\n'
            '    expect count(city, named="Stone Pit", owner=all) == 2\n}\n'
            'scenario "move" {\n    base classic\n    players 5\n    give 1 "Stone Pit"\n'
            '    move "Stone Pit" city owner=2\n    expect count(city, named="Stone Pit", owner=all) == 2\n}\n')
    result = run("test", str(write(tmp_path, text)))
    assert result.exit_code == 0 and "2 passed" in result.output, result.output
    third = ('scenario "third" {\n    base classic\n    players 5\n    give 1 "Stone Pit"\n    give 2 "Stone Pit"\n'
             '    give 3 "Stone Pit"\n}\n')
    result = run("test", str(write(tmp_path, third, "third.scenario")))
    assert result.exit_code == 1 and "S504" in result.output, result.output


def test_run_paths_takes_one_path_alone_and_strings():
    # A folder named by a string was read letter by letter ("t", "e", ...), and a list of
    # strings failed on `rglob`.
    folder = EXAMPLES
    by_path = S.run_paths([folder])
    names = [r.name for r in by_path.results]
    assert len(names) > 5 and all(r.status == "passed" for r in by_path.results)
    for given in (str(folder), folder, [str(folder)]):
        assert [r.name for r in S.run_paths(given).results] == names
