"""Content that `check` once passed, or met with a traceback or a diagnostic without help, found
by an audit: a pick's `as=` that names a name in use, an `at=` the engine does not read,
nested `repeat`s whose steps (not rounds) pass an action's budget, an action's parameter on a
zone of face-down items, a quoted zone name, a `table`/`row` with no numbers, and a `move`
onto the item moved."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from card_folders import codes, diagnostics, folder as card_folder, to_first_build
from rulesdsl.bounds import least_steps
from rulesdsl.interpreter import Ruleset
from rulesdsl.cli import cli
from rulesdsl.loader import load_paths
from rulesdsl.report import layers_for


def card(effect: str, name: str = "Echo") -> str:
    return f'card "{name}" {{\n    age 1\n    color yellow\n    {effect}\n}}\n'


# -- 1. `as=` names a new name ------------------------------------------------------------------

@pytest.mark.parametrize("effect, column", [
    ("choose 1 from city as=chosen { discard chosen }", 27),
    ("choose_space track as=chosen { gain 1 coin }", 27),
])
def test_as_chosen_is_E204_not_a_traceback(tmp_path, effect, column):
    found = diagnostics(tmp_path, card(effect))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E204", 4, column)]
    assert "already has" in found[0].message and "as=picked" in found[0].help


def test_check_prints_the_as_chosen_diagnostic(tmp_path):
    (tmp_path / "c.rules").write_text(
        'card "A" { age 1; color yellow; choose 1 from city as=chosen { discard chosen } }\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "error[E204]" in result.output and "^^^^^^" in result.output


@pytest.mark.parametrize("effect, name", [
    ("choose 1 from city as=me { gain 1 coin }", "me"),
    ("choose 1 from city as=pick { choose 1 from city as=pick { discard pick } }", "pick"),
    ("choose 1 from city where=it.age == 1 as=it { discard it }", "it"),
])
def test_as_a_name_in_use_is_E204(tmp_path, effect, name):
    found = [d for d in diagnostics(tmp_path, card(effect)) if d.code == "E204"]
    assert len(found) == 1 and f"`as={name}`" in found[0].message and found[0].help


def test_as_a_new_name_is_legal(tmp_path):
    assert codes(tmp_path, card("choose 1 from city as=pick { choose 1 from city as=other { discard pick } }")) == []


# -- 2. `at=` is `top` or `bottom` ---------------------------------------------------------------

def test_an_unknown_at_word_is_E204_with_did_you_mean(tmp_path):
    found = diagnostics(tmp_path, card('move "Law" progress_deck at=buttom'))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E204", 4, 33)]
    assert found[0].help == "did you mean `bottom`?"


def test_at_top_and_bottom_are_legal(tmp_path):
    assert codes(tmp_path, card('move "Law" progress_deck at=bottom\n    move "Law" progress_deck at=top')) == []


def test_a_far_off_at_word_lists_the_words(tmp_path):
    found = diagnostics(tmp_path, card('move "Law" progress_deck at=middle'))
    assert [d.code for d in found] == ["E204"] and "`top`" in found[0].help and "`bottom`" in found[0].help


# -- 3. E411 counts the steps nested `repeat`s take ---------------------------------------------------

def test_nested_repeats_whose_steps_pass_the_budget_are_E411(tmp_path):
    found = diagnostics(tmp_path, card("if coins >= 12 { repeat 300 { repeat 300 { gain 1 coin } } }"))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E411", 4, 29)]
    assert "180600 steps" in found[0].message and "100000" in found[0].message


def test_steps_through_each_player_count_per_seat(tmp_path):
    # 200 rounds of (1 + 1 + 2 seats * (1 + 130 * 2)): 104800 steps
    found = diagnostics(tmp_path, card("repeat 200 { each_player { repeat 130 { gain 1 coin } } }"))
    assert [(d.code, d.span.column) for d in found] == [("E411", 12)]


@pytest.mark.parametrize("effect", [
    "repeat 199 { repeat 249 { gain 1 coin } }",                     # 99500 steps: played below
    "repeat 400 { if coins < 5 { repeat 400 { gain 1 coin } } }",    # may not run each round
    "choose 400 from city { repeat 400 { gain 1 coin } }",           # each pick an action of its own
])
def test_repeats_within_the_step_budget_are_legal(tmp_path, effect):
    assert codes(tmp_path, card(effect)) == []


def test_rounds_past_the_budget_are_reported_once(tmp_path):
    found = diagnostics(tmp_path, card("repeat 400 { repeat 400 { gain 1 coin } }"))
    assert [(d.code, d.span.column) for d in found] == [("E411", 25)] and "160000 times" in found[0].message


def engine_steps(tmp_path: Path, effect: str) -> tuple[int, int]:
    """The steps the engine takes for `effect` in a rule heard at a build, beyond those of a
    `repeat 0`, and the least the checker counts for it (rulesdsl/bounds.py)."""
    def taken(text: str, name: str) -> int:
        game = Ruleset.load([str(card_folder(tmp_path, text, name))]).new_game(seed=1, options=["beginner_wonders"])
        build = to_first_build(game)
        before = game.steps_left
        game.apply(build)
        return before - game.steps_left

    def rule(body: str) -> str:
        return f'rule "Busy" {{\n    when built {{\n        {body}\n    }}\n}}\n'
    file = tmp_path / "probe.rules"
    file.write_text(rule(effect), encoding="utf-8")
    busy = load_paths(layers_for(file)).by_kind("rule")[-1]
    least = least_steps(busy.block.statements[0].block.statements[0], range(2, 3))
    return taken(rule(effect), "probe") - taken(rule("repeat 0 { gain 1 coins }"), "idle"), least


@pytest.mark.parametrize("effect", [
    "repeat 3 { gain 1 coins; gain 2 coins }",                     # (two numbers-only steps: 3 each round)
    "repeat 2 { each_player { repeat 3 { gain 1 coins } } }",
    "repeat 4 { if coins > 0 { repeat 5 { gain 1 coins } } }",
    "repeat 3 { gain 1 coins; repeat 2 { gain 1 coins } }",
])
def test_the_steps_counted_are_at_most_the_engines(tmp_path, effect):
    taken, least = engine_steps(tmp_path, effect)
    assert 0 < least <= taken


def test_the_steps_of_nested_repeats_are_the_engines(tmp_path):
    assert engine_steps(tmp_path, "repeat 3 { repeat 4 { gain 1 coins } }") == (30, 30)


# -- 4. W506 for a parameter on a zone of face-down items -------------------------------------------------

BLIND = """expansion blind_market {
    zone blind public
    setup { deal 2 progress_deck blind face_down=true }
}
action blind_buy {
    param tok from blind
    pay 3 coins
    acquire tok
}
"""


def test_a_param_from_a_zone_dealt_face_down_is_W506(tmp_path):
    found = diagnostics(tmp_path, BLIND)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("W506", 6, 20)]
    assert "face down" in found[0].message and "reveal blind" in found[0].help


def test_a_zone_turned_up_is_not_W506(tmp_path):
    text = BLIND.replace("face_down=true }", "face_down=true; reveal blind }")
    assert codes(tmp_path, text) == []


def test_a_zone_placed_into_face_down_is_W506(tmp_path):
    text = BLIND.replace("setup { deal 2 progress_deck blind face_down=true }",
                         "zone pool public spaces=3\n    setup { deal 2 progress_deck blind }") \
        .replace("param tok from blind", "param tok from pool") \
        + card('place "Law" pool space=1 face_down=true')
    assert [d.code for d in diagnostics(tmp_path, text)] == ["W506"]


# -- 5. help for a quoted zone, numbers missing; a move onto itself -----------------------------------------

def test_a_quoted_zone_name_says_zone_names_are_plain_words(tmp_path):
    found = diagnostics(tmp_path, 'expansion stash {\n    zone "secret stash" public\n}\n')
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E309", 2, 10)]
    assert "zone names are plain words" in found[0].help and "`secret_stash`" in found[0].help


def test_a_quoted_procedure_says_so(tmp_path):
    found = diagnostics(tmp_path, 'procedure p { gain 1 coin }\n' + card('run "p q"'))
    assert [d.code for d in found] == ["E309"] and "`p_q`" in found[0].help


@pytest.mark.parametrize("text, example", [
    ("layout odd {\n    row up\n}\n", "`row up 5 7`"),
    ("expansion t {\n    table bonus\n}\n", "`table bonus 0 5 12 21`"),
])
def test_a_table_or_row_without_numbers_has_help(tmp_path, text, example):
    found = [d for d in diagnostics(tmp_path, text) if d.code == "E203"]
    assert len(found) == 1 and example in found[0].help


@pytest.mark.parametrize("effect", [
    "move this city onto=this",
    'move "Echo" city onto=this',
    "choose 1 from city { move chosen city onto=chosen }",
])
def test_a_move_onto_the_item_moved_is_E204(tmp_path, effect):
    found = diagnostics(tmp_path, card(effect))
    assert [d.code for d in found] == ["E204"] and "to itself" in found[0].message and found[0].help


def test_a_move_onto_another_item_is_legal(tmp_path):
    assert codes(tmp_path, card("choose 1 from city { move chosen city onto=this }")) == []


def test_a_parameter_whose_selector_reads_another_parameter_is_E307(tmp_path):
    # Each parameter's candidates are listed on their own: the other parameter had no value
    # there, and the engine failed with a KeyError while listing the legal actions.
    found = [d for d in diagnostics(tmp_path, "action swap {\n    param card from structure\n"
                                              "    param theirs from city owner=opponent where=it.color == card.color\n"
                                              "    discard card\n    move theirs city\n}\n")
             if d.severity == "error"]
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E307", 3, 61)], found
    assert "reads parameter `card`" in found[0].message and "require theirs.color == card.color" in found[0].help


def test_an_item_that_starts_by_its_kind_in_a_zone_nothing_takes_from_is_W503(tmp_path):
    # W503 named only an item's own `deck`: one placed by its kind's `start_zone` went unwarned.
    found = [(d.code, d.span.line, d.span.column) for d in diagnostics(tmp_path, (
        "expansion relics {\n    item_kinds relic\n    zone vault player active public\n    zone relic_pile\n"
        "    build_zone relic vault\n    start_zone relic relic_pile\n}\n"
        'relic "Lost Crown" { points 5 }\n')) if d.severity == "warning"]
    assert found == [("W503", 8, 7)]
