"""docs/language.md: every example in it is valid, and it covers the whole language.

Fenced blocks by info string:
  ```rules                  a file layered on the base game (cards/duel): no errors, no warnings
  ```rules on=duel-pantheon  the same on top of the base game and that bundled expansion
  ```rules-error            a file that must produce at least one error
  ```rules-base             a whole game on its own: no errors, and a random game plays to the end
The worked example's `rulesdsl check` and `rulesdsl explain` outputs must be what the tools print.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from rulesdsl.interpreter import new_game
from rulesdsl.pipeline import Ruleset
from rulesdsl import codes
from rulesdsl import registry as R
from rulesdsl.explain import explain
from rulesdsl.report import check_layers, check_paths

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
CARDS = ROOT / "cards"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.S | re.M)


def blocks() -> list[tuple[str, str, int]]:
    """(info string, text, line) of every fenced block."""
    text = DOC.read_text(encoding="utf-8")
    return [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def of(kind: str) -> list[tuple[str, str, int]]:
    return [b for b in blocks() if b[0].split(" ")[0] == kind]


def layers_for(info: str) -> list[Path]:
    extra = [CARDS / v for k, v in (w.split("=", 1) for w in info.split()[1:] if "=" in w) if k == "on"]
    return [CARDS / "duel", *extra]


def write(tmp_path: Path, text: str, name: str = "example.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_there_are_examples():
    assert len(of("rules")) >= 60
    assert of("rules-error") and of("rules-base")


@pytest.mark.parametrize("info, text, line", of("rules"), ids=lambda x: str(x) if isinstance(x, int) else None)
def test_rules_examples_check_clean(tmp_path, info, text, line):
    report = check_layers([*layers_for(info), write(tmp_path, text)])
    assert report.errors == 0, f"docs/language.md:{line}: example has errors:\n{report.human()}"
    # (a designer copies an example as it stands: one that warns teaches content that warns)
    assert report.warnings == 0, f"docs/language.md:{line}: example has warnings:\n{report.human()}"


@pytest.mark.parametrize("info, text, line", of("rules-error"), ids=lambda x: str(x) if isinstance(x, int) else None)
def test_error_examples_have_errors(tmp_path, info, text, line):
    report = check_layers([CARDS / "duel", write(tmp_path, text)])
    assert report.errors > 0, f"docs/language.md:{line}: this example was meant to show an error"


@pytest.mark.parametrize("info, text, line", of("rules-base"), ids=lambda x: str(x) if isinstance(x, int) else None)
def test_whole_game_examples_check_and_play(tmp_path, info, text, line):
    write(tmp_path, text)
    report = check_layers([tmp_path])
    assert report.errors == 0, f"docs/language.md:{line}: example has errors:\n{report.human()}"
    rng = random.Random(line)
    for seed in range(3):
        game = new_game(base=str(tmp_path), seed=seed)
        for _ in range(500):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert game.over


# -- coverage ---------------------------------------------------------------------------------------

def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_verb_has_a_section():
    text = doc_text()
    missing = [v for v in R.VERBS if f"#### `{v}`" not in text]
    assert not missing, f"docs/language.md has no `#### \\`VERB\\`` section for: {', '.join(missing)}"


def test_every_function_name_event_kind_and_code_is_listed():
    text = doc_text()
    assert not [f for f in R.FUNCTIONS if f"| `{f}(" not in text], "functions missing from the table"
    assert not [n for n in R.NAMES if f"| `{n}` |" not in text], "names missing from the table"
    assert not [e for e in R.EVENTS if f"| `{e}` |" not in text], "events missing from the table"
    assert not [k for k in R.KINDS if f"| `{k}` |" not in text], "kinds missing from the table"
    assert not [c for c in codes.CODES if f"| `{c}` |" not in text], "diagnostic codes missing from the table"
    assert "<!-- codes: generated from rulesdsl/codes.py -->" in text


# -- the worked example ---------------------------------------------------------------------------

def harbor(kind: str) -> str:
    return next(t for _, t, _ in of(kind) if 'card "Harbor"' in t)


def console(command: str) -> list[str]:
    """The output lines shown after `$ command` in a text block (up to the next `$`)."""
    for info, text, _ in blocks():
        lines = text.splitlines()
        if info == "text" and lines and lines[0] == f"$ {command}":
            out = []
            for line in lines[1:]:
                if line.startswith("$ "):
                    break
                out.append(line)
            return out
    raise AssertionError(f"no `$ {command}` block")


def shown_blocks(command: str) -> list[list[str]]:
    found = []
    for info, text, _ in blocks():
        lines = text.splitlines()
        if info == "text" and lines and lines[0] == f"$ {command}":
            found.append([ln for ln in lines[1:]])
    return found


def run_check(tmp_path: Path, text: str):
    folder = tmp_path / "my_cards"
    folder.mkdir(exist_ok=True)
    (folder / "harbor.rules").write_text(text + "\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        report = check_paths([Path("my_cards")])
        content = Ruleset.load(["my_cards"]).content if not report.errors else None
        return report, (explain("harbor", content) if content else None)
    finally:
        os.chdir(cwd)


SUMMARY = re.compile(r"^(ok|failed): \d+ files, (\d+) errors, (\d+) warnings; .*$")


def same_output(shown: list[str], real: str) -> None:
    real_lines = real.splitlines()
    assert shown[:-1] == real_lines[:-1]
    a, b = SUMMARY.match(shown[-1]), SUMMARY.match(real_lines[-1])
    assert a and b and a.groups() == b.groups(), (shown[-1], real_lines[-1])


def test_worked_example_outputs_are_real(tmp_path):
    broken_shown, fixed_shown = shown_blocks("rulesdsl check my_cards")
    report, _ = run_check(tmp_path, harbor("rules-error"))
    assert report.errors == 3
    same_output(broken_shown[:broken_shown.index("$ echo $?")], report.human())
    assert broken_shown[broken_shown.index("$ echo $?") + 1] == "1"
    report, explained = run_check(tmp_path, harbor("rules"))
    assert report.errors == 0
    same_output(fixed_shown, report.human())
    assert console("rulesdsl explain harbor -e my_cards") == explained.splitlines()
