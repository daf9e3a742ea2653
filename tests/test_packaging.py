"""Packaging: a wheel installs one top-level package, `rulesdsl`, with the grammar and the bundled
cards inside it; `python -m rulesdsl` and `rulesdsl --version` work."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import rulesdsl

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_has_one_top_level_package_with_grammar_and_cards(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    wheel, = tmp_path.glob("rulesdsl-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"rulesdsl"}
    assert "rulesdsl/grammar/rules.lark" in names
    assert "rulesdsl/cards/duel/age1.rules" in names
    assert "rulesdsl/cards/duel-pantheon/gods.rules" in names
    assert "rulesdsl/interpreter/game.py" in names
    assert any(n.endswith(".dist-info/LICENSE") or "/licenses/" in n for n in names)


def test_python_dash_m_and_version():
    done = subprocess.run([sys.executable, "-m", "rulesdsl", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip().endswith(rulesdsl.__version__)


def test_grammar_and_cards_found_through_the_package():
    from rulesdsl.loader import CARDS_ROOT
    from rulesdsl.parser import GRAMMAR_PATH
    assert (CARDS_ROOT / "duel" / "game.rules").is_file()
    assert GRAMMAR_PATH.is_file()
