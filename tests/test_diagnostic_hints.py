"""Diagnostics whose hints once misled (a design audit): each says what is wrong where it is, and
its hint names the fix (rulesdsl/checker.py, rulesdsl/loader.py).

Every diagnostic here must render as `path:line:col`, the line, a caret and a `help:` line, and
no hint may be cut short (a backticked or quoted token of more than 40 characters is elided)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.diagnostics import Diagnostic, render
from rulesdsl.report import check_layers, check_paths

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
ELIDED = re.compile(r"\S\.\.\.[`\"]")


def check(tmp_path: Path, text: str, expansions: tuple[str, ...] = (), name: str = "cards.rules",
          folder: str = "mine") -> list[Diagnostic]:
    """The diagnostics of one card file in its own folder, checked on top of the base game (and
    `expansions`); each renders with its line, a caret and a hint that is not cut short."""
    (tmp_path / folder).mkdir(exist_ok=True)
    path = tmp_path / folder / name
    path.write_text(text, encoding="utf-8")
    report = check_paths([path.parent], expansions)
    for d in report.diagnostics:
        assert_rendered(d, report.sources.get(d.span.file))
    return report.diagnostics


def assert_rendered(d: Diagnostic, source: str | None) -> None:
    out = render(d, source)
    assert re.match(rf"{re.escape(d.span.file)}:{d.span.line}:{d.span.column}: (error|warning)\[{d.code}\]", out)
    # (`= help` stands under the gutter's `|`, as wide as the line number)
    assert "^" in out and "\n" + " " * (len(str(d.span.line)) + 1) + "= help: " in out, out
    assert d.help and not ELIDED.search(d.help), d.help


def only(diags: list[Diagnostic], code: str | None = None) -> Diagnostic:
    assert len(diags) == 1, [(d.code, d.message, d.help) for d in diags]
    if code:
        assert diags[0].code == code, (diags[0].code, diags[0].message)
    return diags[0]


def card(body: str, color: str = "yellow") -> str:
    return f'card "Test Card" {{\n    age 1\n    color {color}\n' + "".join(f"    {line}\n" for line in body.split("\n")) + "}\n"


# -- 1. a property in an action (or the like): the statement that does its job there -----------------

def test_cost_in_an_action_names_pay(tmp_path):
    d = only(check(tmp_path, "action bargain {\n    param card from structure\n    cost 1 coin\n    build card\n}\n"), "E202")
    assert d.message == "`cost` cannot be used in an action"   # (was "in a action")
    assert "`pay 1 coin`" in d.help and "top level" not in d.help


def test_cost_in_a_block_of_an_action_names_pay(tmp_path):
    d = only(check(tmp_path, "action bargain {\n    param card from structure\n"
                             "    if coins > 3 { cost 2 coins }\n    build card\n}\n"), "E202")
    assert "`pay 2 coins`" in d.help


def test_cost_of_resources_in_an_action_says_pay_takes_coins_only(tmp_path):
    d = only(check(tmp_path, "action bargain {\n    param card from structure\n    cost 2 wood\n    build card\n}\n"), "E202")
    assert "only coins" in d.help and "top level" not in d.help


def test_cost_in_a_rule_is_not_told_to_go_to_its_top_level(tmp_path):
    d = only(check(tmp_path, 'rule "Costly" {\n    cost 3 stone\n    when built by=me { gain 1 coin }\n}\n'), "E202")
    assert d.message == "`cost` cannot be used in a rule"
    assert "top level" not in d.help and "`when`" in d.help


def test_a_property_in_a_block_of_its_item_goes_to_the_top_level(tmp_path):
    d = only(check(tmp_path, card("if coins > 3 {\n    color red\n}")), "E202")
    assert "top level" in d.help


def test_cost_of_coins_in_a_block_of_an_item_names_pay(tmp_path):
    d = only(check(tmp_path, card("if coins > 3 {\n    cost 1 coin\n}")), "E202")
    assert "top level" in d.help and "`pay 1 coin`" in d.help


def test_a_property_of_another_kind_says_whose_it_is(tmp_path):
    d = only(check(tmp_path, "action bargain {\n    param card from structure\n    color blue\n    build card\n}\n"), "E202")
    assert d.help == "`color` describes a card, not an action"


def test_param_and_require_outside_an_action_name_choose_and_if(tmp_path):
    diags = check(tmp_path, card("param pick from discard\nrequire coins > 2"))
    assert [d.code for d in diags] == ["E202", "E202"]
    assert "choose 1 from discard" in diags[0].help
    assert "if CONDITION" in diags[1].help


def test_an_effect_at_the_top_of_a_rule_goes_in_a_trigger(tmp_path):
    d = only(check(tmp_path, 'rule "Loose" {\n    gain 2 coins\n}\n'), "E202")
    assert "`when built by=me { gain 2 coins }`" in d.help


def test_an_expansion_statement_in_a_card_has_its_article(tmp_path):
    d = only(check(tmp_path, card("order 2")), "E202")
    assert d.help == "`order` belongs in an expansion definition"


# -- 2. a single `=` in a condition -------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    card("if coins = 3 { gain 1 coin }"),
    "action bargain {\n    param card from structure\n    require coins = 3\n    build card\n}\n",
    'invariant "Rich" {\n    holds coins = 3\n}\n',
])
def test_a_single_equals_in_a_condition_says_to_compare(tmp_path, text):
    d = only(check(tmp_path, text), "E204")
    assert d.help == "to compare, write `coins == 3`"
    assert "comparison" in d.message


# -- 3. a statement after the `}` of a definition -------------------------------------------------------

def test_a_statement_after_a_closing_brace_is_outside_any_definition(tmp_path):
    text = 'card "Outside" {\n    age 1\n    color blue\n    points 2\n}\n    cost 2 wood\n'
    d = only(check(tmp_path, text), "E101")
    assert (d.span.line, d.span.column) == (6, 5)
    assert d.message == "`cost` stands outside any definition"
    assert "closed at line 5" in d.help and "wonder" not in d.help


def test_two_stray_statements_are_two_errors_and_no_duplicate(tmp_path):
    text = ('card "A" {\n    age 1\n    color blue\n}\n    cost 2 wood\n'
            'card "B" {\n    age 1\n    color blue\n}\n    cost 2 wood\n')
    diags = check(tmp_path, text)
    assert [(d.code, d.span.line) for d in diags] == [("E101", 5), ("E101", 10)]
    assert "closed at line 4" in diags[0].help and "closed at line 9" in diags[1].help


def test_a_bodyless_definition_after_a_closing_brace_may_be_a_stray_statement(tmp_path):
    diags = check(tmp_path, 'card "A" {\n    age 1\n    color blue\n}\n    age 4\n')
    d = only([d for d in diags if d.code == "E106"])   # (and E405: an age 4 that lays out nothing)
    assert 'card "A" above' in d.help and "line 4" in d.help


# -- 4. articles; a missing count ----------------------------------------------------------------------

def test_a_missing_number_has_its_article(tmp_path):
    d = only(check(tmp_path, card("shields", "red")), "E203")
    assert d.message == "`shields` needs a number (count)"   # (was "a int")


def test_choose_without_a_count_is_one_error_saying_so(tmp_path):
    d = only(check(tmp_path, card("choose from discard { build chosen free }", "purple")), "E203")
    assert d.message == "`choose` needs a number (count) before `from`"
    assert d.help == "write the count first: `choose 1 from discard`"
    assert (d.span.line, d.span.column) == (4, 12)   # (at `from`)


def test_lose_coins_without_an_amount_says_the_amount_is_missing(tmp_path):
    d = only(check(tmp_path, card("lose coins who=opponent")), "E203")
    assert d.message == "`lose` needs a number (amount) before `coins`"


# -- 5. seat words get a did-you-mean wherever they are taken ---------------------------------------

@pytest.mark.parametrize("line, suggestion", [
    ("when built by=opponnent { gain 1 coin }", "opponent"),
    ("when built by=neighbors { gain 1 coin }", "neighbours"),
    ("gain count(city, owner=neighbors) coins", "neighbours"),
    ("gain production(wood, owner=opponet) coins", "opponent"),
    ("lose 2 coins who=oponent", "opponent"),
    ("trade_price 1 wood from=lef", "left"),
])
def test_a_misspelt_seat_word_gets_a_did_you_mean(tmp_path, line, suggestion):
    d = only(check(tmp_path, card(line)))
    assert d.help == f"did you mean `{suggestion}`?"


# -- 6. where to declare; the colour a misspelt line gives --------------------------------------------

def test_an_unknown_counter_can_be_declared_in_an_expansion_header(tmp_path):
    d = only(check(tmp_path, 'token "Test Token" {\n    add 2 militray\n}\n'), "E316")
    assert "`expansion` header" in d.help and "`counter militray`" in d.help


def test_a_missing_colour_is_the_one_a_misspelt_line_gives(tmp_path):
    diags = check(tmp_path, 'card "Test Card" {\n    age 1\n    colour purpel\n}\n')
    assert [d.code for d in diags] == ["E104", "E201"]
    assert diags[0].help == "add a line: color purple"   # (was "color brown", whatever the line said)


def test_a_missing_colour_with_no_line_for_it_keeps_the_example(tmp_path):
    d = only(check(tmp_path, 'card "Test Card" {\n    age 1\n}\n'), "E104")
    assert d.help == "add a line: color brown"


# -- 7. content of a bundled expansion that is not loaded, or applied later -------------------------

CROSS = ('card "Priest" {\n    age 2\n    color blue\n    cost 1 coin\n'
         '    if count(gods) > 0 { gain 2 coins }\n'
         '    choose 1 from city named="Enki" { discard chosen }\n    points 1\n}\n'
         'extend god "Enki" { gain 1 coin }\n')


def test_a_name_of_a_bundled_expansion_not_loaded_says_which(tmp_path):
    diags = check(tmp_path, CROSS)
    assert [d.code for d in diags] == ["E305", "E306", "E105"]
    assert diags[0].help == "`gods` is a zone of the bundled expansion pantheon: add -e pantheon"   # (not `guilds`)
    assert diags[1].help == '"Enki" is a god of the bundled expansion pantheon: add -e pantheon'
    assert diags[2].help == "god `Enki` is defined by the bundled expansion pantheon: add -e pantheon"


def test_a_kind_and_a_colour_of_a_bundled_expansion_say_which(tmp_path):
    diags = check(tmp_path, 'god "Mine" {\n    points 1\n}\n' + card("points 1", "white"))
    assert [d.code for d in diags] == ["E101", "E302"]
    assert diags[0].help == "`god` is a kind of the bundled expansion pantheon: add -e pantheon"
    assert diags[1].help == "`white` is a colour of the bundled expansion agora: add -e agora"


def test_an_extend_applied_before_the_expansion_defining_it_says_to_raise_its_order(tmp_path):
    d = only(check(tmp_path, CROSS, ("pantheon",)), "E105")
    assert "cards/duel-pantheon/gods.rules:" in d.help and "after this one" in d.help
    assert "`expansion mine { order 2 }`" in d.help   # (the folder's name)


def test_an_extend_at_the_same_order_as_the_expansion_says_so(tmp_path):
    (tmp_path / "priests").mkdir()
    (tmp_path / "priests" / "a.rules").write_text('expansion priests { order 1 }\nextend god "Enki" { gain 1 coin }\n',
                                                  encoding="utf-8")
    report = check_layers([CARDS / "duel", tmp_path / "priests", CARDS / "duel-pantheon"])
    d = only(report.diagnostics, "E105")
    assert "at the same order" in d.help and "`order 2` in its expansion header" in d.help
    assert not ELIDED.search(d.help)


def test_the_order_the_hint_gives_works(tmp_path):
    (tmp_path / "priests").mkdir()
    (tmp_path / "priests" / "a.rules").write_text('expansion priests { order 2 }\nextend god "Enki" { gain 1 coin }\n',
                                                  encoding="utf-8")
    assert check_paths([tmp_path / "priests"], ["pantheon"]).diagnostics == []


# -- 8. a computed count that can be below 0 (W508) -----------------------------------------------------

@pytest.mark.parametrize("line, low", [
    ("gain count(city) - 10 coins", -10),
    ("lose count(city) - 10 coins who=opponent", -10),
    ("repeat count(city) - 5 { gain 1 coin }", -5),
    ("shields count(city) - 6", -6),
    ("put_coins count(city) - 9 this", -9),
    ("pay 3 - coins coins", None),
])
def test_a_computed_count_that_can_be_below_0_is_a_warning(tmp_path, line, low):
    d = only(check(tmp_path, card(line)), "W508")
    assert d.severity == "warning"
    assert d.message.endswith(f"can be below 0 (as low as {low})" if low is not None else "can be below 0")
    assert "max(0, " in d.help


@pytest.mark.parametrize("line", [
    "gain max(0, count(city) - 10) coins",
    "gain count(city) + 2 coins",
    "gain modifier(luck) coins",                 # a range the expression does not tell
    "points 3 - count(city)",                    # points may be negative: no count
    "gain 2 * count(city) coins",
    "repeat (count(city) - 1) % 3 { gain 1 coin }",
])
def test_a_count_that_stays_at_0_or_more_is_not_warned_about(tmp_path, line):
    assert check(tmp_path, card(line)) == []


def test_bundled_content_is_free_of_w508():
    report = check_paths([])
    assert not [d for d in report.diagnostics if d.code == "W508"]
    assert report.errors == 0 and report.warnings == 0


def test_what_a_remove_breaks_in_the_base_game_names_the_remove(tmp_path):
    # (removing an Age I card: E401 and W502 pointed into cards/duel only, never at the line
    # that caused them)
    diags = check(tmp_path, 'remove card "Tavern"\n')
    by_code = {d.code: d for d in diags}
    for code in ("E401", "W502"):
        assert "`remove card \"Tavern\"` at " in by_code[code].help and "cards.rules:1 removed" in by_code[code].help
    assert by_code["E401"].span.file.endswith("game.rules")   # (still where the count falls short)


def test_a_comparison_its_ranges_settle_is_W510_but_not_in_an_invariant(tmp_path):
    diags = check(tmp_path, card("if pawn_distance > 20 { gain 5 coins }\n    if age <= 3 { gain 1 coin }"))
    assert [(d.code, d.message) for d in diags] == [
        ("W510", "`pawn_distance > 20` is never true here"), ("W510", "`age <= 3` is always true here")]
    assert "lies between -9 and 9" in diags[0].help
    assert not check(tmp_path, 'invariant "never broke" {\n    holds coins >= 0\n}\n', name="inv.rules", folder="inv")
    assert not check(tmp_path, card("if pawn_distance >= 6 { gain 5 coins }"), folder="fine")


@pytest.mark.parametrize("line, at, code, message, hint", [
    ("produce wood 3", "3", "E203", "a count at the end of `produce` counts nothing",
     "a count comes before what it counts: `produce 3 wood`"),
    ("cost stone 2", "2", "E203", "a count at the end of `cost` counts nothing",
     "a count comes before what it counts: `cost 2 stone`"),
    ("produce 3", "3", "E203", "a count at the end of `produce` counts nothing", "e.g. `produce 2 wood`"),
    ("produce wood 2 3 stone", " 3", "E309", "a count must be followed by what it counts", "e.g. `produce 2 wood`"),
    ('produce "wood"', '"', "E309", "`produce` lists counts and resources", "e.g. `produce 2 wood stone`"),
    ('cost "wood"', '"', "E309", "`cost` lists counts and resources", "e.g. `cost 2 coins wood 2 stone`"),
])
def test_a_count_out_of_place_is_said_in_the_words_of_its_statement(tmp_path, line, at, code, message, hint):
    """`produce wood 3` was "a count at the end of a cost counts nothing", with `cost 2 wood` as
    its example: neither the statement the designer wrote nor the order its count goes in."""
    d = only(check(tmp_path, f'card "Quarry Yard" {{\n    age 1\n    color brown\n    {line}\n}}\n'), code)
    assert (d.message, d.help, d.span.line, d.span.column) == (message, hint, 4, 5 + line.index(at) + at.startswith(" "))


def test_a_remove_with_a_body_says_its_statements_are_not_read(tmp_path):
    """`remove card "X" { ... }` with statements (a `replace` meant) removed the card and read
    nothing of the body, garbage included, and `check` said ok."""
    (found,) = check(tmp_path, 'remove card "Tacticians Guild" {\n    colr purple\n    bogus_statement 1 2 3\n}\n')
    assert (found.code, found.span.line, found.span.column) == ("E205", 1, 32)
    assert found.message == "`remove` takes no body: the statements of this one are not read"
    assert "`replace` it (the whole definition) or `extend` it" in found.help
    # An empty body, or none, removes as before.
    assert check(tmp_path, 'remove card "Tacticians Guild" { }\n', folder="empty") == []


def test_a_price_paid_to_neighbours_in_a_game_that_trades_with_the_bank_is_E204(tmp_path):
    """`trade_price 1 wood from=left` on a Duel card passed `check`, did nothing, and `explain`
    said it worked; the mirror mistake in the classic game (a bank price) was E204 already."""
    (found,) = check(tmp_path, 'card "Left Dock" {\n    age 1\n    color yellow\n    trade_price 1 wood from=left\n}\n')
    assert (found.code, found.span.line, found.span.column) == ("E204", 4, 24)
    assert found.message == "`from=` sets a price paid to neighbours, and this game trades with the bank only"
    assert check(tmp_path, 'card "Dock" {\n    age 1\n    color yellow\n    trade_price 1 wood\n}\n', folder="bank") == []


def test_a_statement_an_extend_gives_twice_names_replace(tmp_path):
    """`extend card "Baths" { color yellow }` said "keep one of them", the other being in a
    bundled file the designer does not edit."""
    (found,) = check(tmp_path, 'extend card "Baths" {\n    color yellow\n}\n')
    assert (found.code, found.span.line, found.span.column) == ("E206", 2, 5)
    assert found.help.startswith("`extend` adds statements to the card, which has `color` already (cards/duel/")
    assert found.help.endswith("to change it, `replace` the card")
    # Twice in one definition of one file: keep one, as before.
    (same,) = check(tmp_path, 'card "Test Card" {\n    age 1\n    color grey\n    color brown\n}\n', folder="twice")
    assert (same.code, same.help) == ("E206", "keep one of them")


def test_a_diagnostic_in_a_bundled_file_names_the_change_that_caused_it(tmp_path):
    """A designer's `replace` that left age I a card short was E401 at the bundled age alone,
    naming nothing of theirs (a designer's audit); the bundled content checks clean by itself."""
    (found,) = [d for d in check(tmp_path, 'replace card "Tavern" {\n    age 2\n    color yellow\n    chain_gives vase\n'
                                           '    gain 4 coins\n}\n') if d.severity == "error"]
    assert found.code == "E401" and found.span.file == "cards/duel/game.rules"
    assert found.help.endswith("; the bundled content is clean alone: this comes of your changes to it "
                               f'(`replace card "Tavern"` at {tmp_path / "mine" / "cards.rules"}:1)')
    # Diagnostics in the designer's own file are left as they were; the warning the same
    # `replace` causes in a bundled file (no card gives `vase` any more) names it.
    found = check(tmp_path, 'replace card "Tavern" {\n    age 1\n    colr yellow\n}\n', folder="own")
    assert sorted(d.code for d in found) == ["E104", "E201", "W502"]
    for d in found:
        assert ("bundled content is clean alone" in d.help) == (d.code == "W502"), (d.code, d.help)


def test_a_replace_that_lacks_a_statement_is_told_the_replaced_ones_line(tmp_path):
    """`replace card "Tavern" { gain 5 coins }` was told to add `color brown` (the statement's
    example) to a yellow card, and not that `replace` gives the whole card anew."""
    found = check(tmp_path, 'replace card "Tavern" {\n    gain 5 coins\n}\n')
    by_need = {d.message: d for d in found if d.code == "E104"}
    color = by_need["card `Tavern` needs `color`"]
    assert color.help == ("add a line: color yellow (as the card it replaces has: `replace` gives the whole "
                          "definition anew; `extend` adds statements to it)")
    # A new card lacking it is given the example, as before.
    (new,) = check(tmp_path, 'card "Test Card" {\n    age 1\n}\n', folder="new")
    assert new.code == "E104" and new.help == "add a line: color brown"


def test_a_change_of_a_definition_of_another_kind_names_its_kind(tmp_path):
    """`replace wonder "Tavern"` was E105 with no help at all: Tavern is a card."""
    (found,) = check(tmp_path, 'replace wonder "Tavern" {\n    cost 1 coin\n}\n')
    assert (found.code, found.help) == ("E105", '`Tavern` is a card: replace card "Tavern"')
    (extended,) = check(tmp_path, 'extend token "Pyramids" {\n    points 1\n}\n', folder="token")
    assert extended.help == '`Pyramids` is a wonder: extend wonder "Pyramids"'


def test_an_unknown_word_among_alternatives_is_marked_alone(tmp_path):
    """`produce clay|ston` put the caret under all of `clay|ston`."""
    (found,) = check(tmp_path, 'card "Test Card" {\n    age 1\n    color brown\n    produce clay|ston\n}\n')
    assert (found.code, found.span.line, found.span.column, found.span.end_column) == ("E301", 4, 18, 22)
    (first,) = check(tmp_path, 'card "Test Card" {\n    age 1\n    color brown\n    produce cly|stone\n}\n', folder="first")
    assert (first.span.column, first.span.end_column) == (13, 16)


@pytest.mark.parametrize("copies, warned", [("0", True), ("1", True), ("2", False), ("2 2", False)])
def test_a_copy_for_fewer_players_than_any_game_is_W511(tmp_path, copies, warned):
    """`copies 0` passed silently (and `explain` read "player counts and up: 0"), where a copy
    above the most players was W511 already."""
    found = check(tmp_path, f'card "Test Card" {{\n    age 1\n    color brown\n    copies {copies}\n}}\n')
    assert [d.code for d in found] == (["W511"] if warned else [])
    if warned:
        assert found[0].message == f"a copy from {copies} players: no game has fewer than 2, so every game holds it"


@pytest.mark.parametrize("copies, warned", [("2", True), ("3 2", True), ("3", False), ("3 3 7", False)])
def test_a_copy_below_the_fewest_players_of_a_game_of_three_or_more_is_W511(tmp_path, copies, warned):
    """`copies 2` in the classic game (3 to 7 players) passed silently: every game holds the
    copy, as `copies 0` does in Duel."""
    text = (f'expansion mine {{\n    base classic\n}}\n\ncard "Test Card" {{\n    age 1\n    color brown\n'
            f'    copies {copies}\n}}\n')
    found = [d for d in check(tmp_path, text) if d.code == "W511"]
    assert len(found) == (1 if warned else 0)
    if warned:
        assert found[0].message == "a copy from 2 players: no game has fewer than 3, so every game holds it"
        assert found[0].help.endswith("a copy in every game is from 3")


def test_the_statements_of_a_duplicate_definition_are_checked_too(tmp_path):
    """A second `card "X"` (E102) was left out unread: the mistakes in its body showed only
    after the designer had renamed it or made it a `replace`."""
    text = ('card "Test Card" {\n    age 1\n    color brown\n    chain_gives moon\n}\n\n'
            'card "Test Card" {\n    age 1\n    color brwn\n    chain_gives sunx\n}\n')
    found = check(tmp_path, text)
    assert [(d.code, d.span.line) for d in found] == [("E102", 7), ("E302", 9), ("E304", 10)]


def test_a_duplicate_definition_gives_no_chain_to_the_content(tmp_path):
    """What a left-out duplicate gives of chains is not in the content: a symbol only it gives
    is still one no card gives (W502), and one only it asks for is still given to no card
    (W501)."""
    text = ('expansion mine {\n    chains star\n}\n\n'
            'card "Test Card" {\n    age 1\n    color brown\n    chain_from star\n}\n\n'
            'card "Test Card" {\n    age 1\n    color brown\n    chain_gives star\n}\n')
    assert [(d.code, d.span.line) for d in check(tmp_path, text)] == [("W502", 8), ("E102", 11)]
    mirrored = text.replace("chain_from star", "chain_g").replace("chain_gives star", "chain_from star") \
        .replace("chain_g", "chain_gives star")
    assert [(d.code, d.span.line) for d in check(tmp_path, mirrored, folder="mirrored")] == [("W501", 8), ("E102", 11)]
