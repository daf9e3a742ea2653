"""A clean `rulesdsl check` means the content plays: each case here once passed `check` and then
failed in play (an engine error, a game that cannot go on, cards that never come into play).
Each must now be a diagnostic at the place to fix."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.interpreter import Ruleset
from rulesdsl.report import check_layers

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"


def base_copy(tmp_path: Path, replace: dict[str, tuple[str, str]] | None = None) -> Path:
    """A copy of the base game with some text replaced (file -> (old, new))."""
    folder = tmp_path / "duel"
    shutil.copytree(CARDS / "duel", folder)
    for name, (old, new) in (replace or {}).items():
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def codes_at(paths: list[Path]) -> list[tuple[str, str, int, int]]:
    report = check_layers(paths)
    return [(d.code, Path(d.span.file).name, d.span.line, d.span.column) for d in report.diagnostics
            if d.severity == "error"]


def plays(paths: list[Path], games: int = 2) -> None:
    rules = Ruleset.load([str(p) for p in paths[1:]], base=paths[0])
    for seed in range(games):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(game.random_action(rng))


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_players(tmp_path, count):
    folder = base_copy(tmp_path, {"game.rules": ("players 2", f"players {count}")})
    assert codes_at([folder]) == [("E404", "game.rules", 7, 13)]


def test_a_side_beyond_the_seats(tmp_path):
    folder = base_copy(tmp_path, {"board.rules": ("side 1;", "side 2;")})
    assert codes_at([folder]) == [("E404", "board.rules", 14, 70)]


def test_no_age_at_all(tmp_path):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text("remove age 1\nremove age 2\nremove age 3\n", encoding="utf-8")
    found = codes_at([folder])
    assert ("E405", "x.rules", 3, 12) in found
    assert {c for c, *_ in found} == {"E405", "E406"}


def test_removing_an_age_in_an_expansion_points_at_the_removal(tmp_path):
    folder = base_copy(tmp_path)
    expansion = tmp_path / "exp"
    expansion.mkdir()
    (expansion / "x.rules").write_text('expansion x { title "X" }\nremove age 2\n', encoding="utf-8")
    assert codes_at([folder, expansion]) == [("E406", "x.rules", 2, 12)]


def test_age_without_structure_and_empty_layout(tmp_path):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text("replace age 2 { deal 3 age2 box }\nreplace layout age3 { mark x 1 }\n",
                                    encoding="utf-8")
    assert codes_at([folder]) == [("E405", "game.rules", 100, 32), ("E405", "x.rules", 1, 13)]


def test_discard_without_a_discard_pile(tmp_path):
    folder = base_copy(tmp_path, {"game.rules": ("discard_pile discard", "")})
    found = codes_at([folder])
    assert found and {c for c, *_ in found} == {"E407"}
    assert ("E407", "game.rules", 111, 5) in found


def test_only_a_before_turn_action_is_no_action(tmp_path):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text(
        "remove action build\nremove action discard\n"
        "replace action wonder {\n    before_turn\n    param card from structure\n    discard card\n}\n",
        encoding="utf-8")
    assert [c for c, *_ in codes_at([folder])] == ["E405"]


def test_seats_in_an_expansion_action(tmp_path):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text("action gift {\n    param card from structure\n    discard card\n"
                                    "    gain 1 coin who=player(3)\n}\n", encoding="utf-8")
    assert codes_at([folder]) == [("E404", "x.rules", 4, 28)]


@pytest.mark.parametrize("text", [
    'card "T" { age 1; color brown; discount 1 color=[red, blue] }',       # a list where one colour goes
    'card "T" { age 1; color brown; when built by=opponent { gain 1 coin } }',
    'token "T" { deck box; trade_discount 1 wood }',
])
def test_accepted_content_plays(tmp_path, text):
    # The first is refused (E309); the others are accepted and must play.
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text(text + "\n", encoding="utf-8")
    found = codes_at([folder])
    if "[red, blue]" in text:
        assert [c for c, *_ in found] == ["E309"]
    else:
        assert found == []
        plays([folder])


def test_check_refuses_an_empty_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # were "" taken as ".", this folder would be walked
    result = CliRunner().invoke(cli, ["check", ""])
    assert result.exit_code == 2 and "empty path" in result.output
    with pytest.raises(ValueError):
        Ruleset.load(base="")


def test_check_of_an_empty_folder_fails(tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "empty")])
    assert result.exit_code == 1 and "E011" in result.output


def test_layout_with_no_card_to_take_at_the_start(tmp_path):
    # Found by tests/test_fuzz_play.py: the last row face down, so nothing can be taken at first.
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text("replace layout age2 {\n    row up 3 5\n    row down 2 4 6\n}\n", encoding="utf-8")
    assert codes_at([folder]) == [("E405", "game.rules", 94, 32)]
    # Face up, it plays.
    (folder / "x.rules").write_text("replace layout age2 {\n    row down 3 5\n    row up 2 4 6\n}\n", encoding="utf-8")
    assert codes_at([folder]) == []
    plays([folder], games=1)


def test_tiebreak_category_nothing_scores(tmp_path):
    folder = base_copy(tmp_path, {"game.rules": ("tiebreak blue", "tiebreak bleu")})
    report = check_layers([folder])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E307", 49, 14)]
    assert report.diagnostics[0].help == "did you mean `blue`?"
    for category in ("military", "wonder", "purple"):   # a score category, an item kind, a colour
        folder = base_copy(tmp_path / category, {"game.rules": ("tiebreak blue", f"tiebreak {category}")})
        assert codes_at([folder]) == []


# An item expression may name no item: `first_in` of an empty zone, the `host` of an item lying
# on nothing, the `rider` of one carrying nothing, all -1. A verb given no item does nothing (it
# once crashed the game, or acted on the last item defined); an attribute of no item reads 0 or
# nothing; `owner` and `row` of no item are -1.
NO_ITEM = [
    'card "T" { age 1; color yellow; discard rider(this) }',
    'card "T" { age 1; color yellow; if coins >= 9 { discard rider(this) } }',
    'card "T" { age 1; color yellow; build first_in(board_tokens) free }',
    'card "T" { age 1; color yellow; acquire host(this) }',
    'card "T" { age 1; color yellow; move host(this) box }',
    'card "T" { age 1; color yellow; move this box onto=host(this) }',
    'card "T" { age 1; color yellow; gain coins(owner(host(this))) coins }',
    'card "T" { age 1; color yellow; gain first_in(library).age coins; gain row(host(this)) + 1 coins }',
]


@pytest.mark.parametrize("text", NO_ITEM)
def test_a_verb_given_no_item_does_nothing(tmp_path, text):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text(text + "\n", encoding="utf-8")
    assert codes_at([folder]) == []
    plays([folder], games=30)


def test_trigger_of_no_item_runs_nothing(tmp_path):
    folder = base_copy(tmp_path)
    (folder / "x.rules").write_text('card "T" { age 1; color yellow; trigger first_in(library) }\n'
                                    'token "Z" { deck box; gain 33 coins }\n', encoding="utf-8")
    scenario = tmp_path / "t.scenario"
    scenario.write_text(f'scenario "no item" {{\n    base "{folder}"\n    option beginner_wonders\n'
                        '    accessible "T"\n    coins 0 0\n    do build "T"\n    expect coins(0) == 0\n}\n',
                        encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(scenario)])
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output
