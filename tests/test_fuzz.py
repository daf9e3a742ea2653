"""Fuzzing the front end: whatever a card file holds, loading and checking it returns
diagnostics and never raises.  Random text and bytes, mutations of the bundled cards, files
generated from the grammar itself, and a few pathological shapes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from rulesdsl import registry as R
from rulesdsl.codes import CODES
from rulesdsl.diagnostics import RulesError, render
from rulesdsl.parser import GRAMMAR_PATH
from rulesdsl.report import Report, check_layers, check_paths
from scratch import scratch_dir

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "cards" / "duel"
CARD_FILES = sorted(DUEL.glob("*.rules"))
CARD_BYTES = {p.name: p.read_bytes() for p in CARD_FILES}

FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

_WORK = scratch_dir("rulesdsl-fuzz-")


def _file(name: str, data: bytes) -> Path:
    """The same temporary path for every example of a test (the parse cache stays small)."""
    path = _WORK / name
    path.write_bytes(data)
    return path


def well_formed(report: Report) -> Report:
    """Every diagnostic is a known code with a sane location, and renders."""
    for d in report.diagnostics:
        assert d.code in CODES, d
        assert d.severity == ("warning" if d.code.startswith("W") else "error")
        assert d.span.line >= 1 and d.span.column >= 1, d
        assert d.message
        render(d, report.sources.get(d.span.file))
        d.as_json()
    report.human()
    report.to_json()
    return report


def check_both(name: str, data: bytes) -> None:
    path = _file(name, data)
    well_formed(check_paths([path]))     # on top of the base game unless it defines a game
    well_formed(check_layers([path]))    # alone


# -- random text and bytes ---------------------------------------------------------------------

@FUZZ
@given(st.text(max_size=400))
@example("card \"X\" {\n  age 1\n  color brown\n  gain " + "1+" * 3000 + "1 coins\n}\n")
@example("\x0c\r\x1c\u2028card\n")
@example("game")
def test_random_text(text: str):
    check_both("random.rules", text.encode("utf-8", errors="surrogatepass"))


@FUZZ
@given(st.binary(max_size=400))
@example(b"\xff\xfe")
@example(b"card \"\xe9\" {}")
@example(b"\x00")
def test_random_bytes(data: bytes):
    check_both("random.rules", data)


# -- mutations of the bundled cards --------------------------------------------------------------

TOKENS = [b"{", b"}", b"(", b")", b"[", b"]", b'"', b"=", b"|", b".", b",", b";", b"\n", b"#", b"\\\n",
          b"9" * 30, b"0" * 12, b"\xff", b"\xc3", b"\xe2\x82", b"\x00", b"\t", b"\r", b"not ", b" or ",
          b"replace ", b"extend ", b"remove ", b"game ", b"card ", b" wood", b" purpel", b"structure",
          b"chosen", b"event.", b"else { }", b"if true { }", b"when built { }", b"\xe9t\xe9"]


@st.composite
def mutated(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(CARD_BYTES)))
    data = bytearray(CARD_BYTES[name])
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "swap_chars", "swap_lines", "delete_line"]))
        n = len(data)
        i = draw(st.integers(0, n))
        if op == "delete":
            del data[i:i + draw(st.integers(1, 40))]
        elif op == "duplicate":
            j = min(n, i + draw(st.integers(1, 80)))
            data[j:j] = data[i:j]
        elif op == "insert":
            data[i:i] = draw(st.sampled_from(TOKENS))
        elif op == "swap_chars" and n > 1:
            j = draw(st.integers(0, n - 1))
            i = min(i, n - 1)
            data[i], data[j] = data[j], data[i]
        else:
            lines = bytes(data).split(b"\n")
            a = draw(st.integers(0, len(lines) - 1))
            if op == "swap_lines":
                b = draw(st.integers(0, len(lines) - 1))
                lines[a], lines[b] = lines[b], lines[a]
            else:
                del lines[a]
            data = bytearray(b"\n".join(lines))
    return name, bytes(data)


@FUZZ
@given(mutated())
def test_mutated_card_files(case: tuple[str, bytes]):
    # The mutated file replaces its original in a copy of the base game, so names clash as little
    # as they would in real editing; the copy is checked as a whole.
    name, data = case
    folder = _WORK / "duel-mutated"
    if not folder.is_dir():
        shutil.copytree(DUEL, folder)
    try:
        (folder / name).write_bytes(data)
        report = well_formed(check_paths([folder]))
        if data != CARD_BYTES[name]:
            assert report.files == len(CARD_FILES)
    finally:
        (folder / name).write_bytes(CARD_BYTES[name])


@FUZZ
@given(mutated())
def test_mutated_file_on_top_of_the_base_game(case: tuple[str, bytes]):
    check_both("mutated.rules", case[1])


# -- files generated from the grammar ----------------------------------------------------------------

def _words() -> list[str]:
    words = set(R.KINDS) | set(R.VERBS) | set(R.FUNCTIONS) | set(R.NAMES) | set(R.EVENTS) | set(R.OWNER_WORDS)
    words |= {"wood", "clay", "stone", "glass", "papyrus", "brown", "red", "purple", "globe", "law", "horseshoe",
              "city", "discard", "structure", "age1", "guilds", "from", "free", "coins", "coin", "chosen",
              "event", "resource", "up", "down", "replace", "extend", "remove", "player", "active", "public",
              "symbol", "amount", "item", "duel", "purpel", "wod", "x"}
    return sorted(words)


def _item_names() -> list[str]:
    import re
    names = set()
    for data in CARD_BYTES.values():
        names |= set(re.findall(r'^\w+ "([^"]+)"', data.decode("utf-8"), flags=re.M))
    return sorted(names)


def _grammar_strategy():
    from lark import Lark
    grammar = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start=["start", "block"])
    spaced = lambda s: st.just(f" {s} ")  # noqa: E731 - keywords and names need a space around them
    explicit = {
        "NAME": st.one_of(st.sampled_from(_words()), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True))
                  .map(lambda s: f" {s} "),
        "INT": st.one_of(st.integers(0, 12).map(str), st.sampled_from(["0", "007", "9" * 10, "1" * 30, "9" * 100]))
                 .map(lambda s: f" {s} "),
        "STRING": st.one_of(st.sampled_from(_item_names()), st.text("abc XYZ", max_size=6)).map(lambda s: f' "{s}" '),
        "_NL": st.sampled_from(["\n", "\r\n", "\n\n"]),
        "COMMENT": st.just(" "),  # a real comment would swallow the rest of the line
        "OR": spaced("or"), "AND": spaced("and"), "NOT": spaced("not"),
    }
    # Whole files, and (more often valid, and reaching the checker) one definition of a real kind
    # with a generated block.
    whole = from_lark(grammar, start="start", explicit=explicit)
    header = st.tuples(st.sampled_from(sorted(R.KINDS)), st.sampled_from(_item_names() + ["x", "1", "age1"]))
    block = from_lark(grammar, start="block", explicit=explicit)
    one = st.tuples(header, block).map(lambda t: f'{t[0][0]} "{t[0][1]}" {t[1]}\n')
    return st.one_of(whole, st.lists(one, min_size=1, max_size=3).map("".join))


_GRAMMAR = _grammar_strategy()


@FUZZ
@given(_GRAMMAR)
def test_grammar_generated_files(text: str):
    check_both("generated.rules", text.encode("utf-8"))


def _has_statements(text: str) -> bool:
    from rulesdsl.parser import parse_file
    tree, _ = parse_file("g.rules", text)
    return tree is not None and any(d.block and d.block.statements for d in tree.definitions)


def test_generators_make_parsable_files():
    # The generators must also make syntactically valid files, or the tests only fuzz the
    # parser's error path.
    # The grammar's own generator rarely makes a whole valid file (names it draws collide with
    # keywords), and how rarely varies between hypothesis versions: sample it more.
    for strategy, examples, least in ((_GRAMMAR, 300, 3), (card_shaped(), 40, 20)):
        parsable = []

        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def sample(text):
            parsable.append(_has_statements(text))

        sample()
        assert sum(parsable) >= least, (strategy, sum(parsable), len(parsable))


# -- card-shaped files from the registry ----------------------------------------------------------------

_WORD = st.sampled_from(_words())
_EXPR = st.recursive(
    st.one_of(_WORD, st.integers(0, 20).map(str), st.sampled_from(_item_names()).map(lambda n: f'"{n}"'),
              st.sampled_from(["wood|clay|stone", "glass|papyrus", "event.amount", "chosen.color"])),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or"]), inner)
          .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(sorted(R.FUNCTIONS) + ["cnt"]), st.lists(inner, max_size=3),
                  st.lists(st.tuples(st.sampled_from(["owner", "color", "kind", "age", "deck", "x"]), inner),
                           max_size=2))
          .map(lambda t: f"{t[0]}({', '.join(list(t[1]) + [f'{k}={v}' for k, v in t[2]])})"),
        st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        inner.map(lambda x: f"(not {x})"),
    ),
    max_leaves=5)


def _statement(block):
    verbs = sorted(R.VERBS) + ["sheilds", "resources", "zone", "players"]
    kwargs = sorted({k for v in R.VERBS.values() for k, _ in v.kwargs} | {"x"})
    return st.tuples(
        st.sampled_from(verbs), st.lists(_EXPR, max_size=3),
        st.lists(st.tuples(st.sampled_from(kwargs), _EXPR), max_size=2), block,
    ).map(lambda t: " ".join([t[0], *t[1], *(f"{k}={v}" for k, v in t[2])]) + (f" {{ {t[3]} }}" if t[3] is not None else ""))


_STATEMENTS = st.recursive(
    _statement(st.none()),
    lambda inner: _statement(st.one_of(st.none(), st.lists(inner, max_size=3).map("; ".join))),
    max_leaves=4)


@st.composite
def card_shaped(draw) -> str:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        modifier = draw(st.sampled_from(["", "", "", "replace ", "extend ", "remove "]))
        kind = draw(st.sampled_from(sorted(R.KINDS) + ["crad"]))
        name = draw(st.one_of(st.sampled_from(_item_names() + ["1", "4", "age1", "big", "duel"]),
                              st.text("ab ", max_size=4)))
        body = draw(st.lists(_STATEMENTS, max_size=5))
        out.append(f'{modifier}{kind} "{name}" {{\n' + "".join(f"    {b}\n" for b in body) + "}\n")
    return "".join(out)


@FUZZ
@given(card_shaped())
@example('card "Test Card" {\n    age 1\n    color brown\n    chain_from horseshoe\n    chain_from moon\n}\n')
def test_card_shaped_files(text: str):
    check_both("shaped.rules", text.encode("utf-8"))


# -- pathological shapes -------------------------------------------------------------------------------

def _card(statement: str) -> str:
    return f'card "Test Card" {{\n    age 1\n    color brown\n    {statement}\n}}\n'


PATHOLOGICAL = {
    "parens_5000": _card("points " + "(" * 5000 + "1" + ")" * 5000),
    "unclosed_parens_5000": _card("points " + "(" * 5000 + "1"),
    "brackets_5000": _card("points " + "[" * 5000 + "1" + "]" * 5000),
    "braces_5000": 'card "Test Card" ' + "{" * 5000,
    "braces_balanced_5000": 'card "Test Card" ' + "{" * 5000 + "}" * 5000,
    "blocks_5000": _card("if true { " * 5000 + "gain 1 coin" + " }" * 5000),
    "not_5000": _card("if " + "not " * 5000 + "true { gain 1 coin }"),
    "not_98": _card("if " + "not " * 98 + "true { gain 1 coin }"),
    "sum_5000": _card("points " + " + ".join(["1"] * 5000)),
    "calls_5000": _card("points " + "max(1, " * 5000 + "1" + ")" * 5000),
    "attributes_5000": _card("points chosen" + ".x" * 5000),
    "number_100_digits": _card("points " + "9" * 100),
    "number_leading_zeros": _card("points " + "0" * 100 + "7"),
    "long_line": _card("points " + "1" * 200_000),
    "many_definitions": "".join(f'card "C{i}" {{ age 9; color brown }}\n' for i in range(2000)),
    "long_name": 'card "' + "x" * 100_000 + '" { age 1; color brown }\n',
    "empty": "",
    "only_newlines": "\n" * 1000,
    "nul": "card\x00",
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological(name: str):
    text = PATHOLOGICAL[name]
    check_both(f"{name}.rules", text.encode("utf-8"))
    report = check_paths([_file(f"{name}.rules", text.encode("utf-8"))])
    codes = [d.code for d in report.diagnostics]
    if name in ("parens_5000", "not_98", "number_leading_zeros", "empty", "only_newlines"):
        assert not report.errors, report.human()
    elif name in ("brackets_5000", "blocks_5000", "not_5000", "sum_5000", "calls_5000", "attributes_5000"):
        assert codes == ["E007"]
    elif name in ("number_100_digits", "long_line"):
        assert codes == ["E006"]
    elif name in ("braces_5000", "unclosed_parens_5000"):
        assert codes and codes[0] in ("E001", "E003")


def test_deep_nesting_location():
    report = check_paths([_file("deep.rules", PATHOLOGICAL["brackets_5000"].encode())])
    [d] = report.diagnostics
    # The block is level 1; the 100th `[` is level 101.
    assert (d.code, d.span.line, d.span.column) == ("E007", 4, 12 + 99)


# -- the play API -------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_play_api_raises_only_rules_error(case: tuple[str, bytes]):
    from rulesdsl.interpreter import Ruleset
    name, data = case
    folder = _WORK / "duel-play"
    if not folder.is_dir():
        shutil.copytree(DUEL, folder)
    try:
        (folder / name).write_bytes(data)
        try:
            Ruleset.load(base=folder)
        except RulesError as exc:
            assert exc.diagnostics and any(d.severity == "error" for d in exc.diagnostics)
            str(exc)
    finally:
        (folder / name).write_bytes(CARD_BYTES[name])
