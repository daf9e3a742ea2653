"""A minus sign with a space before it and none after begins an argument of its own.

`modify shields -1` and `table defeat 0 -1 -1 -1` are two and five arguments: before, they read
as `shields - 1` (refused: `modify` wants a word and a number) and `0 - 1 - 1 - 1` (a table of
one number, -3, accepted silently).  `a - 1` and `a-1` still subtract, and inside brackets so
does `(a -1)`: only a statement's arguments stand side by side."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulesdsl import ast
from rulesdsl.cli import cli
from rulesdsl.formatter import format_text
from rulesdsl.parser import parse_file
from rulesdsl.report import check_paths


def statements(body: str) -> list[ast.Statement]:
    tree, diagnostics = parse_file("x.rules", 'card "A" {\n' + body + "\n}\n")
    assert diagnostics == [], diagnostics
    return list(tree.definitions[0].block.statements)


def values(args) -> list:
    return [a.value if isinstance(a, ast.Int) else a.name if isinstance(a, ast.Name) else type(a).__name__
            for a in args]


def test_a_spaced_sign_begins_an_argument():
    table, modify, names = statements("table defeat 0 -1 -1 -1\nmodify shields -1\nx a -b -(2) -c")
    assert values(table.args) == ["defeat", 0, -1, -1, -1]
    assert values(modify.args) == ["shields", -1]
    a, minus_b, minus_two, minus_c = names.args
    assert a.name == "a" and minus_two.value == -2
    for negated, name in ((minus_b, "b"), (minus_c, "c")):   # `-b` is `0 - b`, as a sign always was
        assert isinstance(negated, ast.BinOp) and negated.left.value == 0 and negated.right.name == name


def test_a_minus_between_spaces_or_none_and_one_in_brackets_subtract():
    for body in ("gain a - 1 coins", "gain a-1 coins", "gain (a -1) coins", "gain max(a -1, 0) coins"):
        (s,) = statements(body)
        assert len(s.args) == 2 and s.args[1].name == "coins", body
        (first,) = [s.args[0]] if isinstance(s.args[0], ast.BinOp) else s.args[0].args[:1]
        assert isinstance(first, ast.BinOp) and first.op == "-" and first.right.value == 1, body
    (s,) = statements("points [a -1, 2]")
    assert isinstance(s.args[0].items[0], ast.BinOp)
    (s,) = statements("if 3 * -1 < 0 and not -x > 2 { gain 1 coin }")
    assert len(s.args) == 1


def test_the_formatter_keeps_a_spaced_sign_on_its_number_and_spaces_a_minus_in_brackets():
    text = 'card "A" {\n    modify shields  -1\n    table t 0 -1  -x\n    gain (a -1) coins\n}\n'
    assert format_text(text) == ('card "A" {\n    modify shields -1\n    table t 0 -1 -x\n'
                                 '    gain (a - 1) coins\n}\n')


def test_check_says_why_when_a_sign_split_an_argument(tmp_path: Path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "cards.rules").write_text('card "Dig" {\n    age 1\n    color red\n'
                                        '    gain count(city) -1 coins\n}\n', encoding="utf-8")
    report = check_paths([folder])
    assert {d.code for d in report.diagnostics} == {"E203"}, report.human()
    assert all("to subtract, write `a - b`" in d.help for d in report.diagnostics)
    (folder / "cards.rules").write_text('card "Dig" {\n    age 1\n    color red\n'
                                        '    gain count(city) - 1 coins\n}\n', encoding="utf-8")
    # (one argument now; W508 says the amount is taken as 0 in a city of no card)
    assert [d.code for d in check_paths([folder]).diagnostics] == ["W508"]


def test_a_negative_modifier_and_table_play(tmp_path: Path):
    """A card that takes a shield away and a table of defeats, in a classic game."""
    sap = tmp_path / "sap"
    sap.mkdir()
    (sap / "expansion.rules").write_text("expansion sappers {\n    table defeat 0 -1 -1 -1\n}\n", encoding="utf-8")
    (sap / "cards.rules").write_text('card "Sapper" {\n    age 1\n    color red\n    copies 3\n'
                                     '    modify shields -1\n}\n', encoding="utf-8")
    (tmp_path / "s.scenario").write_text(
        'scenario "sappers" {\n    base classic\n    expansion "sap"\n    players 3\n    give 0 "Sapper"\n'
        '    expect modifier(shields) == -1 and modifier(shields, owner=left) == 0\n'
        '    expect lookup(defeat, 0) == 0 and lookup(defeat, 3) == -1\n}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(tmp_path / "s.scenario")])
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output
    assert CliRunner().invoke(cli, ["check", "--game", "classic", "-e", str(sap)]).exit_code == 0


def test_explain_reads_a_negative_modifier_as_taking_away():
    from rulesdsl.explain_text import english
    modify, = statements("modify shields -1")
    assert english(modify) == "Takes 1 from your `shields` modifier"
    modify, = statements("modify shields 2")
    assert english(modify) == "Adds 2 to your `shields` modifier"
