"""What `check` says of the mistakes a designer of a new game makes first (audit 28): each said
once, where it is, with the numbers and the fix; none followed by errors it sets off.

The games are invented for these tests and written into tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.report import check_paths

GAME = """\
game tiny {
    title "Tiny"
    players 3 5
    resources spice
    colors gold
    item_kinds card
    counter fame
    zone hand player private
    zone tableau player public
    zone deck
    zone discard public
    build_zone card tableau
    discard_pile discard
    age_ends when count(hand) == 0
    score fame counter(fame)
    setup {
        shuffle deck
        each_player { gain 3 coins }
    }
}

age 1 { each_player { deal 2 deck hand } }

card "Spice Cart" { deck deck; color gold; produce spice; copies 3 3 3 3 4 4 5 5 }
card "Tea House" { deck deck; color gold; add 1 fame; copies 3 3 3 3 4 4 5 5 }

action play {
    param card from hand
    build card
}

action rest {
    param card from hand
    discard card
    gain 1 coin
}
"""


def check(tmp_path: Path, text: str = GAME):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.rules").write_text(text, encoding="utf-8")
    return check_paths([folder])


def test_the_game_checks_clean(tmp_path):
    report = check(tmp_path)
    assert report.diagnostics == [], report.human()


def test_an_age_without_a_body_is_not_said_to_be_a_statement_of_the_game(tmp_path):
    # `age` is a card's statement, never a game's: "move it up into the game" misled.
    report = check(tmp_path, GAME.replace("age 1 { each_player { deal 2 deck hand } }", "age 1"))
    [d] = [d for d in report.diagnostics if d.code == "E106"]
    assert (d.span.line, d.span.column) == (22, 5)
    assert "game" not in d.help and "move it up" not in d.help
    assert "an age's block holds its set-up" in d.help and "`age 1 { }`" in d.help


@pytest.mark.parametrize("written", ["players 65", "players 4 2", "players 1"])
def test_a_players_range_that_cannot_be_played_is_one_error_and_no_copies_warnings(tmp_path, written):
    # The copies were weighed against the counts the checker guessed (64 for `players 65`):
    # "no game has fewer than 64" for each copy, warnings that follow from the E404 alone.
    report = check(tmp_path, GAME.replace("players 3 5", written))
    assert [(d.code, d.span.line) for d in report.diagnostics] == [("E404", 3)], report.human()
    assert report.hidden >= 12   # (the copies below the guessed fewest, or above its most)
    assert "they follow from the `players` error above" in report.human()


def test_an_item_limit_reached_only_at_a_guessed_count_follows_from_the_players_error(tmp_path):
    # `players 65` cannot be played; weighed at the 64 players guessed for it, 10,001 copies for
    # 64 players pass the item limit (E412): an error that follows from the E404 alone.
    many = "card \"Crowd\" { deck deck; color gold; copies " + " ".join(["64"] * 10_001) + " }\n"
    report = check(tmp_path, GAME.replace("players 3 5", "players 65") + many)
    assert [(d.code, d.span.line) for d in report.diagnostics] == [("E404", 3)], report.human()
    assert "they follow from the `players` error above" in report.human()


def test_copies_below_a_range_that_can_be_played_are_still_told(tmp_path):
    report = check(tmp_path, GAME.replace("copies 3 3 3 3 4 4 5 5 }\ncard", "copies 2 3 3 3 4 4 5 5 }\ncard"))
    assert [d.code for d in report.diagnostics] == ["W511"] and report.hidden == 0


BRACED_SETUP = "    setup {\n        shuffle deck\n        each_player { gain 3 coins }\n    }\n"


def test_setup_without_braces_is_one_error_at_setup_saying_where_its_block_is(tmp_path):
    # Each line meant as its block was E202 "cannot be used in a game" besides the E205.
    text = GAME.replace(BRACED_SETUP, "    setup\n        shuffle deck\n        each_player { gain 3 coins }\n")
    report = check(tmp_path, text)
    [d] = [d for d in report.diagnostics if d.severity == "error"]
    assert (d.code, d.span.line, d.span.column) == ("E205", 16, 5)
    assert d.help == ("write `{` after `setup`: lines 17 to 18, indented under it, are its block; "
                      "close it with a `}` after line 18")


def test_setup_without_its_opening_brace_is_one_error_at_setup_not_at_the_stray_brace(tmp_path):
    # The `}` meant for the setup closes the game, and the game's own `}` was E001 "unexpected `}`".
    text = GAME.replace(BRACED_SETUP, BRACED_SETUP.replace("setup {", "setup"))
    report = check(tmp_path, text)
    [d] = [d for d in report.diagnostics if d.severity == "error"]
    assert (d.code, d.span.line, d.span.column) == ("E205", 16, 5)
    assert d.help == ("write `{` after `setup`: lines 17 to 18, indented under it, are its block, and the `}` at "
                      "line 19 closes it (the `}` at line 20 then closes the definition)")
    assert report.hidden == 0


def test_a_trigger_without_its_opening_brace_is_one_error_at_the_trigger(tmp_path):
    text = GAME + 'card "Shed" {\n    deck deck\n    color gold\n    when built\n        add 1 fame\n    }\n}\n'
    report = check(tmp_path, text)
    assert [(d.code, d.span.line) for d in report.diagnostics if d.severity == "error"] == [("E205", 40)]


# Definitions with a statement written without its `{`, appended to GAME (its lines from 37):
# the `}` meant for that block closes the statement around it (or the definition), and the
# definition's own `}` stands alone at the end.  (line, column) of the statement.
NO_OPENING_BRACE = {
    "if, a statement after it": ((40, 5),
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2\n        add 2 fame\n'
        '    }\n    add 1 fame\n}\n'),
    "if, a statement with an option after it": ((40, 5),
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2\n        add 2 fame\n'
        '    }\n    gain 1 coin who=me\n}\n'),
    "if, a block after it": ((40, 5),
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2\n        add 2 fame\n'
        '    }\n    each_player { gain 1 coin }\n    add 1 fame\n}\n'),
    "if in an each_player": ((41, 9),
        'card "Stall" {\n    deck deck\n    color gold\n    each_player {\n        if count(hand) >= 2\n'
        '            gain 2 coins\n        }\n        gain 1 coin\n    }\n    add 1 fame\n}\n'),
    "each_player around an if": ((40, 5),
        'card "Stall" {\n    deck deck\n    color gold\n    each_player\n        if count(hand) >= 2 {\n'
        '            gain 2 coins\n        }\n    }\n    add 1 fame\n}\n'),
    "else": ((43, 5),
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2 {\n        add 2 fame\n'
        '    }\n    else\n        add 1 fame\n    }\n    gain 1 coin\n}\n'),
    "if in an else": ((44, 9),
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2 {\n        add 2 fame\n'
        '    }\n    else {\n        if count(hand) >= 1\n            add 1 fame\n        }\n'
        '        gain 1 coin\n    }\n    gain 2 coins\n}\n'),
    "when in a rule": ((38, 5),
        'rule "Bonus" {\n    when built\n        add 1 fame\n    }\n    when built { gain 1 coin }\n}\n'),
    "each_player in a procedure": ((38, 5),
        'procedure bonus {\n    each_player\n        gain 1 coin\n    }\n    add 1 fame\n}\n'),
    "choose in an action": ((39, 5),
        'action market {\n    param card from hand\n    choose 1 from hand\n        discard chosen\n    }\n'
        '    gain 1 coin\n}\n'),
}
LATER_MISTAKE = 'card "Later" {\n    deck deck\n    color gold\n    gian 1 coin\n}\n'


@pytest.mark.parametrize("where", NO_OPENING_BRACE)
def test_a_statement_without_its_opening_brace_is_one_error_and_the_rest_is_read_as_meant(tmp_path, where):
    # What followed the `}` meant for the block was E101 "stands outside any definition" (or an
    # E101 for each line, and E001 at the definition's `}`): read as if the `{` stood where the
    # E205 says, the definition is whole.
    (line, column), text = NO_OPENING_BRACE[where]
    report = check(tmp_path, GAME + text)
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E205", line, column)], \
        report.human()


@pytest.mark.parametrize("where", NO_OPENING_BRACE)
def test_a_mistake_after_a_statement_without_its_opening_brace_is_still_found(tmp_path, where):
    (line, column), text = NO_OPENING_BRACE[where]
    report = check(tmp_path, GAME + text + LATER_MISTAKE)
    after = 37 + text.count("\n") + 3
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [
        ("E205", line, column), ("E201", after, 5)], report.human()


def test_the_e205_of_a_missing_opening_brace_names_the_block_and_both_braces(tmp_path):
    report = check(tmp_path, GAME + NO_OPENING_BRACE["if, a statement after it"][1])
    [d] = report.diagnostics
    assert d.help == ("write `{` after `if`: line 41, indented under it, is its block, and the `}` at line 42 "
                      "closes it (the `}` at line 44 then closes the definition)")


def test_a_mistake_in_the_block_meant_is_said_where_it_is(tmp_path):
    # Read as the block it was meant as, its lines are checked there (they were left unchecked).
    text = NO_OPENING_BRACE["if, a statement after it"][1].replace("add 2 fame", "gian 2 coins")
    report = check(tmp_path, GAME + text)
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E205", 40, 5), ("E201", 41, 9)], \
        report.human()


def test_a_missing_opening_brace_in_a_file_with_crlf_line_ends_is_one_error(tmp_path):
    # Each piece a file with an error is read in kept the `\r` of its last line without its `\n`:
    # E002 "unexpected character" there too.
    text = (GAME + NO_OPENING_BRACE["if, a statement after it"][1] + LATER_MISTAKE).replace("\n", "\r\n")
    report = check(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E205", 40, 5), ("E201", 48, 5)], \
        report.human()


# Two or more `{` missing in one definition: each statement's block is indented under it and
# closed by a `}` level with it, so the definition reads whole with every `{` the E205s put.
# (line, column) of each statement.
OPENING_BRACES_MISSING = {
    "one inside another": ([(40, 5), (41, 9)],
        'card "Stall" {\n    deck deck\n    color gold\n    each_player\n        if count(hand) >= 2\n'
        '            gain 2 coins\n        }\n    }\n    add 1 fame\n}\n'),
    "one after another": ([(40, 5), (43, 5)],
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2\n        add 2 fame\n'
        '    }\n    if count(hand) >= 1\n        gain 1 coin\n    }\n    add 1 fame\n}\n'),
    "three, one of them inside": ([(40, 5), (44, 5), (45, 9)],
        'card "Stall" {\n    deck deck\n    color gold\n    if count(hand) >= 2\n        add 2 fame\n'
        '    }\n    gain 1 coin\n    each_player\n        if count(hand) >= 2\n            gain 2 coins\n'
        '        }\n    }\n}\n'),
}


@pytest.mark.parametrize("where", OPENING_BRACES_MISSING)
def test_each_opening_brace_missing_in_one_definition_is_one_error(tmp_path, where):
    # The first two gave E205, E205 and E001 at the definition's `}` (one inside another), or
    # E205, an E101 "stands outside any definition" for each line after the first block and
    # E001 (one after another).
    said, text = OPENING_BRACES_MISSING[where]
    report = check(tmp_path, GAME + text)
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E205", *at) for at in said], \
        report.human()


def test_a_mistake_in_the_second_block_left_open_is_said_where_it_is(tmp_path):
    # (its lines were E101, and the mistake was not seen)
    text = OPENING_BRACES_MISSING["one after another"][1].replace("gain 1 coin", "gian 1 coin")
    report = check(tmp_path, GAME + text + LATER_MISTAKE)
    after = 37 + text.count("\n") + 3
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [
        ("E205", 40, 5), ("E205", 43, 5), ("E201", 44, 9), ("E201", after, 5)], report.human()


def test_two_lone_closing_braces_with_no_block_read_whole_are_said_as_they_stand(tmp_path):
    # A block's `}` not level with the statement it closes: no reading is sure, none is made up.
    text = ('card "Stall" {\n    deck deck\n    color gold\n    each_player\n        if count(hand) >= 2\n'
            '            gain 2 coins\n          }\n    }\n    add 1 fame\n}\n')
    report = check(tmp_path, GAME + text)
    assert report.errors and all(d.severity == "error" for d in report.diagnostics)
    assert ("E205", 40, 5) in [(d.code, d.span.line, d.span.column) for d in report.diagnostics], report.human()


def test_a_stray_closing_brace_with_no_block_left_open_is_still_e001(tmp_path):
    report = check(tmp_path, GAME + "}\n")
    assert [(d.code, d.span.line) for d in report.diagnostics] == [("E001", 37)]


def test_a_deck_too_small_is_said_at_the_deal_with_what_it_needs_and_holds(tmp_path):
    # 8 copies at 3 players, 12 at 4, 16 at 5; each player is dealt 5: it was said at `players 3 5`
    # for every count, "draws 5 from deck, which holds 1" (one player's deal, the deck's last).
    report = check(tmp_path, GAME.replace("deal 2 deck hand", "deal 5 deck hand"))
    errors = [d for d in report.diagnostics if d.code == "E409"]
    assert [(d.span.line, d.span.column) for d in errors] == [(22, 23)] * 3, report.human()
    assert [d.message.split(": ", 1)[1] for d in errors] == [
        f"age 1's `deal 5 deck hand`, for each of the {n} players, draws {5 * n} items from `deck`, which holds "
        f"{held} then" for n, held in ((3, 8), (4, 12), (5, 16))]
    assert errors[1].message.startswith("at 4 players ")
    assert "`deck` is 8 short at 4 players" in errors[1].help



EXPLAINED = GAME.replace("    zone deck\n", "    zone deck\n    zone row public\n").replace(
    "age 1 { each_player { deal 2 deck hand } }",
    "age 1 {\n    take_top players deck row\n    each_player { deal 2 deck hand }\n    rotate hand left\n}")


def test_explain_says_a_computed_count_as_n_and_what_n_is(tmp_path):
    from rulesdsl.explain import explain
    from rulesdsl.pipeline import Ruleset
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.rules").write_text(EXPLAINED, encoding="utf-8")
    text = explain("age 1", Ruleset.load([], str(folder)).content)
    # (was "Move the top a number of cards equal to the number of players of the deck to the row")
    assert "Move the top N cards of the deck to the row, where N is the number of players." in text
    # (was "Every player passes the items of that zone (your hand) to the left")
    assert "Every player passes their hand to the player on their left." in text


def structure_game(slots: int) -> str:
    places = " ".join(str(1 + 2 * i) for i in range(slots))
    return GAME.replace("    age_ends when count(hand) == 0\n", "").replace(
        "age 1 { each_player { deal 2 deck hand } }",
        f"layout row {{ row up {places} }}\n\nage 1 {{ deal_structure deck layout=row }}").replace(
        "param card from hand", "param card from structure")


def test_a_structure_counts_the_copies_of_its_deck(tmp_path):
    # 2 cards of 8 copies at 3 players: E401 said "needs 6 cards but zone `deck` holds 2".
    report = check(tmp_path, structure_game(6))
    assert report.diagnostics == [], report.human()


def test_a_structure_too_large_at_the_fewest_players_is_said_at_its_deal(tmp_path):
    errors = [d for d in check(tmp_path, structure_game(10)).diagnostics if d.severity == "error"]
    assert [(d.code, d.span.line, d.message) for d in errors] == [
        ("E409", 23, "at 3 players the game cannot be played: age 1's `deal_structure deck layout=row` draws 10 "
                     "items from `deck`, which holds 8 then")]


def test_a_structure_too_large_at_every_count_is_e401_counting_the_copies(tmp_path):
    [d] = [d for d in check(tmp_path, structure_game(20)).diagnostics if d.severity == "error"]
    assert (d.code, d.message) == ("E401", "layout `row` needs 20 cards but zone `deck` holds 16 here")


def with_tea_house(text: str, effects: str) -> str:
    return text.replace("color gold; add 1 fame;", f"color gold; add 1 fame; {effects};", 1)


UNCOUNTED = "if count(hand) < 0 { gain 1 coin }; gain count(hand) - 2 coins"   # at every count


@pytest.mark.parametrize("written, below", [("players 65", "10 - players"), ("players 4 2", "3 - players"),
                                            ("players 1", "players - 2")])
def test_after_an_unplayable_players_range_only_warnings_a_count_decides_are_left_out(tmp_path, written, below):
    # At the count guessed (64 for `players 65`, 4 for `players 4 2`, 1 for `players 1`)
    # `players > 3` is settled and `below` is less than 0; at other counts they are not, so those
    # warnings follow from the E404.  A count of cards is never below 0 and `count(hand) - 2` may be,
    # at any count: those warnings stand.
    game = GAME.replace("players 3 5", written)
    counted = f"gain {below} coins; if players > 3 {{ gain 1 coin }}"
    report = check(tmp_path, with_tea_house(game, f"{UNCOUNTED}; {counted}"))
    got = [(d.code, d.span.line, d.span.column) for d in report.diagnostics]
    assert got == [("E404", 3, got[0][2]), ("W510", 25, 58), ("W508", 25, 96)], report.human()
    (tmp_path / "without").mkdir()
    assert report.hidden == check(tmp_path / "without", with_tea_house(game, UNCOUNTED)).hidden + 2


def test_warnings_a_count_decides_are_told_where_the_range_can_be_played(tmp_path):
    # (`players > 2` holds at every count from 3 to 5, and `2 - players` is below 0 at each)
    report = check(tmp_path, with_tea_house(GAME, "if players > 2 { gain 1 coin }; gain 2 - players coins"))
    assert [d.code for d in report.diagnostics] == ["W510", "W508"] and report.hidden == 0, report.human()
