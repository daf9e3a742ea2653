"""Scenario files: the rulebook examples pass under `rulesdsl test` and under plain pytest (the
rulesdsl plugin); every scenario diagnostic has a broken file (tests/data/broken_scenarios/)
whose first line says what it must report."""

from __future__ import annotations

import json
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
                  "Archery Range", "Strategy", "seventh wonder"):
        assert any(topic in n for n in names), topic
    assert all(r.checks >= 1 for r in report.results)


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
           "setup_choices manual", "expansion pantheon", 'script age1 "Baths"', "[", "]", ",", "\n"]


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
