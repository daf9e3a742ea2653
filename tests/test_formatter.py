"""`rulesdsl fmt`: canonical layout, comments kept, idempotent, meaning-preserving."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from rulesdsl.cli import cli
from rulesdsl.formatter import FormatError, _strip, format_text, same_meaning
from rulesdsl.loader import CARDS_ROOT
from rulesdsl.parser import parse_file

BUNDLED = sorted(CARDS_ROOT.glob("*/*.rules"))


def test_layout_of_a_messy_file():
    messy = (
        "\n\n# head\n"
        'card "A"{age 1;color brown   # trailing\n'
        "  produce   wood|clay  # t2\n"
        "cost 1 coin ;shields(2)\n"
        "  when built by = me color=[ brown,grey ] {   # open\n"
        "       gain 2+3 * ( age ) coins\n"
        "\n\n\n"
        "       if not(x) and a.b>=3 {gain 1 coin}  # after close\n"
        "  }    # close\n"
        "    x \\\n      y\n"
        "}\n\n\n\n"
        "extend age 1 { deal 5 senators age1 } # c\n"
        'decree "D" { deck d; when built color=blue { gain age coins } }\n'
        'card "F" { }\n'
        "# tail\n\n"
    )
    assert format_text(messy) == (
        "# head\n"
        'card "A" {\n'
        "    age 1\n"
        "    color brown              # trailing\n"
        "    produce wood|clay  # t2\n"
        "    cost 1 coin\n"
        "    shields (2)\n"
        "    when built by=me color=[brown, grey] {    # open\n"
        "        gain 2 + 3 * (age) coins\n"
        "\n"
        "        if not (x) and a.b >= 3 { gain 1 coin }  # after close\n"
        "    }  # close\n"
        "    x y\n"
        "}\n"
        "\n"
        "extend age 1 { deal 5 senators age1 } # c\n"
        'decree "D" { deck d; when built color=blue { gain age coins } }\n'
        'card "F" { }\n'
        "# tail\n"
    )


def test_calls_keep_their_parentheses_and_verbs_their_space():
    text = 'game g {\n    trade_price 2 + production( resource , owner = opponent , color=[brown, grey] )\n}\n'
    assert format_text(text) == (
        'game g {\n    trade_price 2 + production(resource, owner=opponent, color=[brown, grey])\n}\n')


def test_empty_and_comment_only_files():
    assert format_text("") == ""
    assert format_text("\n\n  \n") == ""
    assert format_text("   # only a comment   \n") == "# only a comment\n"


def test_a_file_with_syntax_errors_is_refused_with_its_diagnostics():
    with pytest.raises(FormatError) as info:
        format_text('card "x" {\n  age 1\n', "x.rules")
    assert [d.code for d in info.value.diagnostics] == ["E003"]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_files_keep_their_meaning_and_format_is_idempotent(path: Path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text, str(path))
    assert same_meaning(str(path), text, once)
    assert format_text(once, str(path)) == once


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_files_are_formatted(path: Path):
    # After a change to a bundled file, run `rulesdsl fmt cards/`.
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text, f"run `rulesdsl fmt {path}`"


def test_formatted_content_compiles_to_the_same_game(tmp_path: Path):
    """The compiled content of formatted copies plays exactly like the original: same explain
    texts for every definition and the same seeded games."""
    import shutil
    from rulesdsl.interpreter import load_ruleset
    from rulesdsl.simulate import simulate
    from rulesdsl.explain import entries, explain
    for folder in ("duel", "duel-pantheon"):
        shutil.copytree(CARDS_ROOT / folder, tmp_path / folder)
    for f in tmp_path.rglob("*.rules"):
        f.write_text(format_text(f.read_text(encoding="utf-8"), str(f)), encoding="utf-8")
    before = load_ruleset(["pantheon"])
    after = load_ruleset([str(tmp_path / "duel-pantheon")], str(tmp_path / "duel"))
    names_before = [e.label for e in entries(before.content)]
    assert names_before == [e.label for e in entries(after.content)]
    strip = lambda s: "\n".join(line.split("(", 1)[0] if i == 0 else line for i, line in enumerate(s.split("\n")))
    for name in names_before[:60]:
        assert strip(explain(name, before.content)) == strip(explain(name, after.content))
    games = lambda rules: {k: v for k, v in simulate(rules, 3, seed=7).items()
                           if k not in ("seconds", "games_per_second", "expansions")}
    assert games(before) == games(after) and games(before)["games"] == 3


# -- hypothesis: random files written with random spacing ------------------------------------------

NAMES = st.sampled_from(["age", "gain", "coins", "wood", "x", "me", "opponent", "color", "red", "when", "built"])
KEYS = st.sampled_from(["by", "color", "owner", "where"])


def _expr(depth: int = 0):
    atoms = st.one_of(NAMES, st.integers(0, 999).map(str), st.sampled_from(['"A B"', '"x"']),
                      st.lists(NAMES, min_size=2, max_size=3).map("|".join))
    if depth > 1:
        return atoms
    sub = _expr(depth + 1)
    return st.one_of(
        atoms,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "//", "%", "==", "<=", ">", "and", "or"]), sub)
        .map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        sub.map(lambda e: f"({e})"),
        sub.map(lambda e: f"not {e}"),
        st.tuples(NAMES, st.lists(sub, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.lists(sub, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        st.tuples(NAMES, NAMES).map(lambda t: f"{t[0]}.{t[1]}"),
    )


def _statement(depth: int = 0):
    args = st.lists(st.one_of(_expr(), st.tuples(KEYS, _expr()).map(lambda t: f"{t[0]}={t[1]}")), max_size=3)
    plain = st.tuples(NAMES, args).map(lambda t: " ".join([t[0], *t[1]]))
    if depth >= 2:
        return plain.map(lambda s: [s])
    return st.one_of(
        plain.map(lambda s: [s]),
        st.tuples(plain, st.lists(_statement(depth + 1), max_size=3)).map(lambda t: [t[0] + " {", *[s for b in t[1] for s in b], "}"]),
    )


@st.composite
def _noisy_file(draw) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        head = draw(st.sampled_from(['card "A"', 'rule "R"', "procedure p", "extend age 1", 'remove card "B"']))
        if head.startswith("remove"):
            lines.append(head)
            continue
        body = [s for b in draw(st.lists(_statement(), max_size=4)) for s in b]
        lines += [head + " {", *body, "}"]
    out: list[str] = []
    for line in lines:
        words = line.split(" ")
        # Random spacing between words (never inside a quoted name), indentation and comments.
        spaced = words[0]
        quoted = words[0].count('"') % 2 == 1
        for w in words[1:]:
            spaced += " " if quoted else draw(st.sampled_from([" ", "  ", "\t", " \\\n "]))
            spaced += w
            quoted ^= w.count('"') % 2 == 1
        indent = draw(st.sampled_from(["", "  ", "\t", "        "]))
        comment = draw(st.sampled_from(["", "", " # note", "      #x"]))
        out.append(indent + spaced + comment)
        if draw(st.booleans()) and draw(st.booleans()):
            out.append(draw(st.sampled_from(["", "# a comment line", "   "])))
    return "\n".join(out) + draw(st.sampled_from(["", "\n", "\n\n"]))


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_noisy_file())
def test_formatting_generated_files_keeps_meaning_and_comments_and_is_idempotent(text: str):
    tree, diagnostics = parse_file("g.rules", text)
    if diagnostics:  # a generated pattern the grammar refuses (e.g. a keyword as a name)
        with pytest.raises(FormatError):
            format_text(text, "g.rules")
        return
    once = format_text(text, "g.rules")
    again, _ = parse_file("g.rules", once)
    assert _strip(again) == _strip(tree)
    assert format_text(once, "g.rules") == once
    comments = lambda t: [line[line.index("#"):].rstrip() for line in t.split("\n") if "#" in line]
    assert comments(once) == comments(text)


# -- the command ------------------------------------------------------------------------------------

def test_fmt_check_prints_a_diff_and_exits_1_and_changes_nothing(tmp_path: Path):
    f = tmp_path / "a.rules"
    f.write_text('card "A" {\n  age 1\n}\n')
    result = CliRunner().invoke(cli, ["fmt", "--check", str(tmp_path)])
    assert result.exit_code == 1
    assert "-  age 1\n+    age 1" in result.output
    assert f.read_text() == 'card "A" {\n  age 1\n}\n'


def test_fmt_rewrites_in_place_then_check_is_clean(tmp_path: Path):
    f = tmp_path / "a.rules"
    f.write_text('card "A" {\n  age 1\n}\n')
    assert CliRunner().invoke(cli, ["fmt", str(f)]).exit_code == 0
    assert f.read_text() == 'card "A" {\n    age 1\n}\n'
    assert CliRunner().invoke(cli, ["fmt", "--check", str(f)]).exit_code == 0


def test_fmt_stdin_to_stdout():
    result = CliRunner().invoke(cli, ["fmt", "-"], input='card "A" {age 1;color red}\n')
    assert result.exit_code == 0
    assert result.output == 'card "A" { age 1; color red }\n'


def test_fmt_refuses_a_broken_file_with_its_diagnostic_and_leaves_it(tmp_path: Path):
    f = tmp_path / "a.rules"
    f.write_text('card "A" {\n  age 1\n')
    result = CliRunner().invoke(cli, ["fmt", str(f)])
    assert result.exit_code == 1
    assert "error[E003]" in result.output and "Traceback" not in result.output
    assert f.read_text() == 'card "A" {\n  age 1\n'


def test_fmt_usage_errors():
    assert CliRunner().invoke(cli, ["fmt"]).exit_code == 2
    assert CliRunner().invoke(cli, ["fmt", "/no/such/file.rules"]).exit_code == 2


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('card "A" {}()[]=|.,;#\\\n\t 0123456789+-*/%<>!xyz_é')), max_size=120))
def test_any_text_is_formatted_or_refused_with_a_format_error(text: str):
    try:
        once = format_text(text, "t.rules")
    except FormatError:
        return
    assert format_text(once, "t.rules") == once


def test_a_sign_stays_on_its_number_and_a_minus_between_spaces():
    text = 'card "N" {\n    points  - 1\n    gain 2-1 coins\n    points max( -1 ,3 - - 2)+( - 4)\n    add - 1 military\n}\n'
    assert format_text(text) == ('card "N" {\n    points -1\n    gain 2 - 1 coins\n'
                                 '    points max(-1, 3 - -2) + (-4)\n    add -1 military\n}\n')


def test_fmt_stdin_past_the_size_limit_of_check_is_refused(monkeypatch):
    from rulesdsl import loader
    monkeypatch.setattr(loader, "MAX_FOLDER_BYTES", 100)
    result = CliRunner().invoke(cli, ["fmt", "-"], input='card "A" { age 1 }\n' * 10)
    assert result.exit_code == 1 and "more than the limit of 100 bytes" in result.output


@pytest.mark.parametrize("text, formatted", [
    # a continuation and a form feed are spaces, before a sign as anywhere (fmt refused these)
    ('card "A" {\n    gain 3 \\\n-1 coins\n}\n', 'card "A" {\n    gain 3 -1 coins\n}\n'),
    ('card "A" {\n    modify shields\f-1\n}\n', 'card "A" {\n    modify shields -1\n}\n'),
])
def test_a_sign_after_a_continuation_or_a_form_feed(text, formatted):
    assert format_text(text) == formatted
    tree, diagnostics = parse_file("x.rules", text)
    assert not diagnostics and _strip(tree) == _strip(parse_file("x.rules", formatted)[0])


def test_and_or_not_are_not_names():
    """`x == not-1` read `not` as a name (`x == (not - 1)`), which fmt then formatted as the
    keyword and refused: the three words are the language's own."""
    for word in ("and", "or", "not"):
        _, diagnostics = parse_file("x.rules", f'card "A" {{\n    if count(city) == {word}-1 {{ gain 1 coin }}\n}}\n')
        assert [d.code for d in diagnostics] == ["E001"], word
    tree, diagnostics = parse_file("x.rules", 'card "A" {\n    if nothing and notes or order { gain 1 coin }\n}\n')
    assert not diagnostics   # (words that begin with them are names)
