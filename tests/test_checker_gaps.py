"""Content that `check` once passed and that could not play (an effect that never ends, an item
with no zone to come into play in, more steps than an action may take, a decision that offers
nothing): each is now a diagnostic with its place (rulesdsl/checker.py, rulesdsl/recursion.py)."""

from __future__ import annotations

import pytest

from rulesdsl.report import check_paths

from card_folders import codes, diagnostics


def card(effect: str, color: str = "yellow", name: str = "Echo") -> str:
    return f'card "{name}" {{\n    age 3\n    color {color}\n    cost 4 coins\n    {effect}\n}}\n'


# -- E410: an item's `when` that certainly sets off its own event again --------------------------------

@pytest.mark.parametrize("text, column", [
    # Built, the card hears its own build, whose item is the card itself: built again, and again.
    (card("when built { build event.item free }"), 18),
    (card("when built by=me { build event.item free }"), 24),
    (card("when built via=free { build event.item free }"), 27),
    # a colour its own item has
    (card("when built color=yellow { build event.item free }"), 31),
])
def test_an_item_that_rebuilds_the_item_of_its_event_is_E410(tmp_path, text, column):
    found = diagnostics(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E410", 5, column)]
    assert found[0].message == "this never ends: card `Echo` (when built) -> card `Echo` (when built)"


def test_an_item_that_builds_another_item_on_every_build_is_still_E410(tmp_path):
    # (the item built, Lumber Yard, is not the card's own: the circle runs whatever the event's item)
    found = diagnostics(tmp_path, card('when built { build "Lumber Yard" free }'))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E410", 5, 18)]


def test_a_token_that_takes_the_item_of_its_event_again_is_E410(tmp_path):
    text = ('token "Echo Token" {\n    deck box\n    when acquired { acquire event.item }\n}\n'
            'card "Finder" {\n    age 1\n    color yellow\n    acquire "Echo Token"\n}\n')
    assert codes(tmp_path, text) == [("E410", 3, 21)]


@pytest.mark.parametrize("text", [
    # a filter the rebuilt item (the card itself) cannot match: not certain
    card("when built color=blue { build event.item free }"),
    card("when built kind=wonder { build event.item free }"),
    card("when built via=chain { build event.item free }"),
    card("when built by=opponent { build event.item free }"),
    # a condition on the way
    card("when built { if coins < 30 { build event.item free } }"),
    # a red card: the progress token Strategy adds a shield for each, which may win the game first
    card("when built { build event.item free }", color="red"),
])
def test_an_item_whose_rebuild_may_stop_is_legal(tmp_path, text):
    assert codes(tmp_path, text) == []


def test_E410_of_an_item_is_shown_with_its_place(tmp_path):
    file = tmp_path / "cards.rules"
    file.write_text(card("when built { build event.item free }"), encoding="utf-8")
    human = check_paths([file]).human()
    assert f"{file}:5:18: error[E410]: this never ends" in human
    assert "5 |     when built { build event.item free }" in human
    assert "^^^^^^^^^^^^^^^^^^^^^" in human and "help:" in human


# -- E407: an item expression whose kinds its zone tells ------------------------------------------------

@pytest.mark.parametrize("text, column", [
    (card("if pawn_distance >= 2 { build first_in(track) free }", color="red"), 35),
    (card("acquire first_in(track)"), 13),
    (card("build either(coins > 3, first_in(track), this) free"), 11),
])
def test_an_item_first_in_a_zone_of_a_kind_with_no_build_zone_is_E407(tmp_path, text, column):
    found = diagnostics(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E407", 5, column)]
    assert "military_token" in found[0].message and "build_zone military_token" in found[0].help


@pytest.mark.parametrize("text", [
    card("build first_in(board_tokens) free"),   # progress tokens: they have a build zone
    card("build either(coins > 3, first_in(board_tokens), this) free"),
    card("discard first_in(track)"),              # (not brought into play)
])
def test_an_item_first_in_a_zone_of_kinds_with_a_build_zone_is_legal(tmp_path, text):
    assert codes(tmp_path, text) == []


# -- E411: nested constant counts multiply ---------------------------------------------------------------

def test_nested_repeats_past_the_step_budget_are_E411(tmp_path):
    found = diagnostics(tmp_path, card("repeat 400 { repeat 400 { if coins < 5 { gain 1 coin } } }"))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E411", 5, 25)]
    assert "160000" in found[0].message and "400 * 400" in found[0].message
    assert "100000 steps" in found[0].message and "multiply" in found[0].help


def test_three_nested_repeats_are_reported_once_where_they_pass_the_budget(tmp_path):
    found = diagnostics(tmp_path, card("repeat 10 { repeat 100 { repeat 200 { repeat 2 { gain 1 coin } } } }"))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E411", 5, 37)]
    assert found[0].message.startswith("`repeat 200` inside `repeat 100` inside `repeat 10` runs its block "
                                       "200000 times in all (10 * 100 * 200)")


def test_nested_repeats_through_each_player_multiply(tmp_path):
    assert codes(tmp_path, card("repeat 400 { each_player { repeat 400 { gain 1 coin } } }")) == [("E411", 5, 39)]


def test_nested_chooses_past_the_limit_are_E411(tmp_path):
    found = diagnostics(tmp_path, card("repeat 2 { choose 600 from city { gain 1 coin } }"))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E411", 5, 23)]
    assert "1200 picks" in found[0].message and "2 * 600" in found[0].message


@pytest.mark.parametrize("effect", [
    "repeat 400 { if coins < 5 { repeat 400 { gain 1 coin } } }",   # may not run each round
    "choose 400 from city { repeat 400 { gain 1 coin } }",          # each pick is an action of its own
    "repeat 2 { choose 500 from city { gain 1 coin } }",            # 1000 picks
    "repeat 199 { repeat 249 { gain 1 coin } }",                    # 99,800 steps: within the budget
])
def test_nested_counts_within_the_limits_are_legal(tmp_path, effect):
    assert codes(tmp_path, card(effect)) == []


# Within the rounds' limit, past the steps': each round is a step and so is each statement it runs
# (90,000 rounds of `gain` take 180,600 steps).  These were held legal, and failed every time
# they ran (BudgetExceeded); the outer count unknown, the inner one alone passes the budget.
@pytest.mark.parametrize("effect", [
    "repeat 300 { repeat 300 { gain 1 coin } }",
    "repeat coins { repeat 400 { repeat 200 { gain 1 coin } } }",
])
def test_nested_counts_past_the_step_budget_are_E411(tmp_path, effect):
    assert [c for c, *_ in codes(tmp_path, card(effect))] == ["E411"]


# -- E204: a zone with no spaces, or no cubes -----------------------------------------------------------

@pytest.mark.parametrize("effect, column, words", [
    ("choose_space discard { gain chosen coins }", 18, "has no spaces"),
    ("add_cube discard space=1", 14, "holds no cubes"),
    ("remove_cube discard space=1", 17, "holds no cubes"),
    ("move_cube discard from=0 to=1", 15, "holds no cubes"),
])
def test_a_verb_of_spaces_on_a_zone_without_them_is_E204(tmp_path, effect, column, words):
    found = diagnostics(tmp_path, card(effect))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E204", 5, column)]
    assert words in found[0].message and "discard" in found[0].message


BOARD = 'expansion boards {\n    zone board public spaces=4\n    zone pile public counters=3\n}\n'


def test_cubes_on_a_zone_without_spaces_are_E204(tmp_path):
    found = diagnostics(tmp_path, BOARD + card("add_cube pile space=0"))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E204", 9, 14)]
    assert "has no spaces to put cubes on" in found[0].message and "spaces=N" in found[0].help


@pytest.mark.parametrize("effect", [
    "choose_space board { gain chosen coins }",
    "choose_space track { gain 1 coin }",        # the track's pieces: its positions
])
def test_choose_space_on_a_zone_with_spaces_is_legal(tmp_path, effect):
    assert codes(tmp_path, BOARD + card(effect)) == []


def test_E204_without_spaces_is_shown_with_its_place(tmp_path):
    file = tmp_path / "cards.rules"
    file.write_text(card("choose_space discard { gain chosen coins }"), encoding="utf-8")
    human = check_paths([file]).human()
    assert f"{file}:5:18: error[E204]: zone `discard` has no spaces" in human
    assert "5 |     choose_space discard { gain chosen coins }" in human and "^^^^^^^" in human
    assert "spaces=N" in human


# -- E204: owner= on the structure, counted as in param and choose --------------------------------

@pytest.mark.parametrize("expr", ["count(structure, owner=opponent)", "count(structure_all, owner=all)"])
def test_counting_the_structure_by_owner_is_E204(tmp_path, expr):
    # (it was accepted and counted every card of the structure, whatever the owner said)
    found = [d for d in diagnostics(tmp_path, card(f"points {expr}")) if d.code == "E204"]
    assert [(d.message, d.span.line) for d in found] == [("the structure has no owner", 5)]
    assert not [d for d in diagnostics(tmp_path, card("points count(structure)")) if d.severity == "error"]
