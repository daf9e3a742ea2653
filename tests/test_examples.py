"""Everything in examples/ and every code sample in docs/api.md runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.interpreter import Action, Ruleset
from rulesdsl.simulate import simulate
from rulesdsl.cli import cli
from rulesdsl.report import check_paths

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NEW_CARD = EXAMPLES / "new_card"
FAN = EXAMPLES / "fan_expansion"
FOLDERS = [NEW_CARD, FAN]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


# -- docs/api.md and the READMEs ------------------------------------------------------------------

def test_api_doc_code_runs(monkeypatch, capsys):
    blocks = python_blocks(ROOT / "docs" / "api.md")
    assert len(blocks) >= 15
    monkeypatch.chdir(ROOT)  # the samples use paths relative to the repository
    namespace: dict = {"__name__": "docs_api"}
    for i, block in enumerate(blocks, 1):
        exec(compile(block, f"docs/api.md (python block {i})", "exec"), namespace)
    assert "not one of the options" in capsys.readouterr().out


@pytest.mark.parametrize("readme", [NEW_CARD / "README.md", FAN / "README.md"], ids=lambda p: p.parent.name)
def test_readme_code_runs(readme, monkeypatch):
    monkeypatch.chdir(ROOT)
    for i, block in enumerate(python_blocks(readme), 1):
        exec(compile(block, f"{readme} (python block {i})", "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_readme_says_how_to_check(folder):
    assert f"rulesdsl check examples/{folder.name}" in (folder / "README.md").read_text(encoding="utf-8")


# -- the example folders --------------------------------------------------------------------------

@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_example_folder_checks_clean(folder):
    report = check_paths([folder])
    assert report.errors == 0 and report.warnings == 0, report.human()
    assert report.files >= 9  # checked on top of the base game's files


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_example_folder_checks_clean_from_the_command_line(folder, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["check", f"examples/{folder.name}"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: ")


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_games_with_the_example_folder(folder):
    rules = Ruleset.load(expansions=[str(folder)])
    assert rules.content.layers[1:] == [str(folder)]
    result = simulate(rules, 6, seed=3)
    assert sum(result["wins"].values()) == 6
    result = simulate(rules, 2, seed=3, agents=["greedy", "random"])
    assert sum(result["wins"].values()) == 2


def _age1(rules: Ruleset) -> list[str]:
    return [it.name for it in rules.content.items if it.kind == "card" and it.age == 1]


def test_new_card_joins_age_one():
    rules = Ruleset.load(expansions=[str(NEW_CARD)])
    age1 = _age1(rules)
    assert len(age1) == 24 and "Market Stall" in age1
    # Script the structure so that the new card lies in the bottom row, and build it.
    others = [n for n in age1 if n != "Market Stall"]
    game = rules.new_game(seed=1, options=["beginner_wonders"], script={"age1": others[:19] + ["Market Stall"]})
    assert Action("build", ("Market Stall",)) in game.legal_actions()
    game.apply(Action("build", ("Market Stall",)))
    assert game.items_in("city", 0) == ["Market Stall"]
    assert game.state.coins[0] == 7 - 1 + 1   # costs a coin, gives 1 + brown cards (none)
    assert game.score(0).get("yellow") == 1


def test_fan_expansion_changes_base_content():
    rules = Ruleset.load(expansions=[str(FAN)])
    content = rules.content
    assert "Tacticians Guild" not in content.item_index
    assert len([it for it in content.items if it.color == "purple"]) == 6
    assert len(_age1(rules)) == 23
    wonders = [it.name for it in content.items if it.kind == "wonder"]
    assert len(wonders) == 13 and "Great Wall" in wonders

    age1 = [n for n in _age1(rules) if n != "Tavern"][:19] + ["Tavern"]
    game = rules.new_game(seed=1, options=["beginner_wonders"], script={"age1": age1})
    # replace: the new Tavern still gives 4 coins, and now 1 VP.
    game.apply(Action("build", ("Tavern",)))
    assert game.state.coins[0] == 7 + 4
    assert game.score(0).get("yellow") == 1
    # extend: the Pyramids (player 0's in the beginner set) give 3 coins besides their 9 VP.
    game.apply(next(a for a in game.legal_actions() if a.name == "discard"))   # player 1
    game.state.coins[0] = 20
    card = next(a.args[0] for a in game.legal_actions() if a.name == "build")
    price = game.price(0, content.item_index["Pyramids"])[0]
    game.apply(Action("wonder", (card, "Pyramids")))
    assert game.state.coins[0] == 20 - price + 3
    assert game.score(0).get("wonder") == 9


def test_great_wall_in_the_draft():
    rules = Ruleset.load(expansions=[str(FAN)])
    draft = ["Great Wall", "Pyramids", "Colossus", "Sphinx", "Piraeus", "Mausoleum", "Appian Way", "Great Library"]
    game = rules.new_game(seed=2, script={"wonder_deck": draft})
    assert Action("choose", ("Great Wall",)) in game.legal_actions()
    game.apply(Action("choose", ("Great Wall",)))
    assert game.items_in("wonders", 0) == ["Great Wall"]


# -- examples/api_script.py -----------------------------------------------------------------------

def test_api_script_runs():
    result = subprocess.run([sys.executable, str(EXAMPLES / "api_script.py")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "saved and loaded after" in out and "winner:" in out
    lines = out.strip().splitlines()
    assert "total" in lines[-3]
    assert lines[-2].split()[0] == "greedy" and lines[-1].split()[0] == "random"
