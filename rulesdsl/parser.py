"""Text -> AST.  Lark does the parsing; this module turns its tree into `rulesdsl.ast` nodes
and its exceptions into diagnostics.  Nothing here evaluates the text: card files are data."""

from __future__ import annotations

import contextlib
import functools
import gc
from importlib.resources import files
from pathlib import Path

from typing import TYPE_CHECKING

import attrs

from . import ast
from .diagnostics import Diagnostic, Span
from .safe_text import canonical, describe, first_control, invisible

GRAMMAR_PATH = Path(str(files("rulesdsl.grammar") / "rules.lark"))
MAX_INT_DIGITS = 9
# Blocks and expressions nest at most this deep: the checker, the compiler and the game all
# walk the tree recursively, and no card needs more than a handful of levels.
MAX_DEPTH = 100
MODIFIERS = ("replace", "extend", "remove")

# Token names Lark uses, in words a designer knows.
TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "SPACED_SIGN": "`+` or `-`", "STRING": "a quoted name", "LBRACE": "`{`", "RBRACE": "`}`",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COMMA": "`,`", "EQUAL": "`=`",
    "_NL": "a new line", "SEMICOLON": "`;`", "DOT": "`.`", "VBAR": "`|`", "COMPARE": "a comparison",
    "ADD_OP": "`+` or `-`", "MUL_OP": "`*`, `//` or `%`", "$END": "the end of the file",
    "NOT": "`not`", "AND": "`and`", "OR": "`or`",
}


if TYPE_CHECKING:
    from lark import Lark


@functools.lru_cache(maxsize=1)
def _parser() -> "Lark":
    # Lark is imported here, not at module level: a run whose files are all in the parse
    # cache never needs it.  The tables are built in-process (about 25 ms, only when some file
    # must be parsed): Lark's own `cache=True` unpickles a file at a predictable name in the
    # shared temporary folder, which another local user could plant.
    from lark import Lark
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True,
                maybe_placeholders=False, postlex=_SignsInBrackets())


class _SignsInBrackets:
    """Inside brackets `(a -1)` subtracts: a spaced sign (`SPACED_SIGN`) begins an argument only
    among a statement's arguments, which stand side by side.  (Lark's LALR tables merge the
    states after an expression inside and outside brackets, so the lexer alone cannot tell.)"""

    always_accept = ()

    def process(self, stream):
        from lark import Token
        depth = 0
        for tok in stream:
            kind = tok.type
            if kind in ("LPAR", "LSQB"):
                depth += 1
            elif kind in ("RPAR", "RSQB"):
                depth = max(0, depth - 1)
            elif kind == "SPACED_SIGN" and depth:
                tok = Token.new_borrow_pos("ADD_OP", "-", tok)
            yield tok


class ParseFailure(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


BOM = b"\xef\xbb\xbf"


def decode(path: str, data: bytes) -> tuple[str | None, Diagnostic | None]:
    """Card files are UTF-8; anything else is reported at the first bad byte."""
    if data.startswith(BOM):  # a byte order mark some editors write: not part of the text
        data = data[len(BOM):]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        # Columns count characters, as everywhere else, not bytes.
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
        return None, Diagnostic("error", "E005", f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                                Span.point(path, line, column), "save the file as UTF-8")


def parse_file(path: str, text: str) -> tuple[ast.SourceFile | None, list[Diagnostic]]:
    """Parse one file.  Returns the AST and the syntax errors found.

    A file with a syntax error is parsed again one top-level definition at a time, so every
    broken definition reports its own error and the intact ones are still checked; the AST
    then holds the definitions that parsed.  After an unclosed `{` or `"` the rest of the file
    cannot be cut into definitions, but the complete definitions before it still are."""
    definitions, diagnostics = _parse_text(path, text)
    if not diagnostics:
        return ast.SourceFile(path, text, definitions), []
    pieces = _top_level_pieces(text)
    if diagnostics[0].code in ("E003", "E004"):
        # Braces or quotes out of place: only the pieces that end before the problem are whole.
        stop = diagnostics[0].span.line
        pieces = [(first, last, piece) for first, last, piece in pieces if last < stop]
        good, found = _parse_pieces(path, pieces)
        return (ast.SourceFile(path, text, tuple(good)) if good else None), found + diagnostics
    if len(pieces) < 2:   # (a stray statement read past keeps the definitions around it)
        return (ast.SourceFile(path, text, definitions) if definitions else None), diagnostics
    results = _mend_left_open(path, text, pieces, [_parse_text(path, piece, first) for first, _last, piece in pieces])
    good = [d for defs, _diags in results for d in defs]
    found = [d for _defs, diags in results for d in diags]
    if not found:  # the pieces parse but the whole does not: keep the first diagnosis
        return None, diagnostics
    return (ast.SourceFile(path, text, tuple(good)) if good else None), found


def missing_brace_hint(verb: str, first: int, last: int, closing: int | None) -> str:
    """E205's hint for a statement written without its `{` (`setup` on a line of its own), the
    lines `first` to `last` under it being meant as its block; `closing`: the line of a `}`
    written to close it, if any."""
    said = f"line {first}, indented under it, is" if first == last else f"lines {first} to {last}, indented under it, are"
    return (f"write `{{` after `{verb}`: {said} its block"
            + (f", and the `}}` at line {closing} closes it" if closing is not None
               else f"; close it with a `}}` after line {last}"))


@attrs.frozen
class _LeftOpen:
    """A statement written without its `{` (`_blocks_left_open`): the E205 said there, the line it
    stands on, and the first piece of the definition it is in (its header's)."""
    diagnostic: Diagnostic
    line: int
    piece: int


def _mend_left_open(path: str, text: str, pieces: list[tuple[int, int, str]],
                    results: list[tuple[tuple, list[Diagnostic]]]) -> list[tuple[tuple, list[Diagnostic]]]:
    """The pieces' definitions and diagnostics, each lone `}` left by a statement written without
    its `{` said as that statement's E205 (`_blocks_left_open`).  Where the definition, read
    again with each `{` where the E205s' hints put them, parses and ends at its last lone `}`,
    the pieces from its header to that `}` are that reading: what stood after a `}` meant for a
    block (`points 1`, read as a definition of its own, E101 "stands outside any definition")
    is its definition's again, as the designer meant it, not a follow-on error.  The statements
    are found by indentation (a block's lines indented under it, its `}` level with it), and
    the reading is kept only if it is clean: so two or more `{` missing in one definition, one
    after another or one inside another, are one E205 each.  Where no such reading is clean,
    each lone `}` is said as the piece before it alone shows it."""
    results = list(results)
    lines = text.split("\n")
    lone = {k: diags[0] for k, (_defs, diags) in enumerate(results)
            if len(diags) == 1 and _lone_brace(lines, diags[0])}   # (a lone `}` is all its piece says)
    starts = {k: _definition_start(lines, pieces, k, d.span.line) for k, d in lone.items()}
    last: dict[int, int] = {}   # definition's first piece -> the piece of its last lone `}`
    for k, j in starts.items():
        if j is not None:
            last[j] = max(k, last.get(j, k))
    mended: set[int] = set()
    for j, k in last.items():
        again = _mended(path, lines, pieces, j, k, lone[k].span.line)
        if again is not None:
            results[j:k + 1] = [again] + [((), [])] * (k - j)
            mended.update(n for n, start in starts.items() if start == j)
    for k, d in lone.items():
        if k in mended:
            continue
        left = _blocks_left_open(path, lines, pieces, k - 1, d.span.line, header_brace=False) if k else []
        if left:
            results[k] = (results[k][0], [left[0].diagnostic])
    return results


def _mended(path: str, lines: list[str], pieces: list[tuple[int, int, str]], j: int, k: int,
            lone: int) -> tuple[tuple, list[Diagnostic]] | None:
    """The definition of pieces `j` (its header) to `k` (its `}`, alone on line `lone`) read with
    the `{` its statements left open lack, and their E205s; None where no reading is clean.  The
    innermost statement alone is tried first (one `{` missing, the usual mistake), then all."""
    lefts = _blocks_left_open(path, lines, pieces, j, lone)
    for tried in ([lefts[:1], lefts] if len(lefts) > 1 else [lefts] if lefts else []):
        again = _with_braces(lines, pieces, tried, k, lone)
        if again is not None:
            return again, [left.diagnostic for left in sorted(tried, key=lambda left: left.line)]
    return None


def _lone_brace(lines: list[str], d: Diagnostic) -> bool:
    """Whether `d` is an E001 "unexpected `}`" at a `}` alone on its line."""
    return d.code == "E001" and 0 < d.span.line <= len(lines) and lines[d.span.line - 1].strip() == "}"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _opening(lines: list[str], piece: tuple[int, int, str]) -> int | None:
    """The first line (from 1) of `piece` that is neither blank nor a comment."""
    return next((n for n in range(piece[0] + 1, piece[1] + 1) if _code(lines[n - 1]).strip()), None)


def _definition_start(lines: list[str], pieces: list[tuple[int, int, str]], k: int, lone: int) -> int | None:
    """The piece of the header of the definition whose own `}` is the lone `}` on line `lone`
    (piece `k`): back past the pieces that begin more indented than it (its statements after
    the `}` meant for a block), to one that begins with a `{`; None without one."""
    j = k - 1
    while j >= 0 and (start := _opening(lines, pieces[j])) is not None \
            and _indent(_code(lines[start - 1])) > _indent(lines[lone - 1]):
        j -= 1
    header = _opening(lines, pieces[j]) if j >= 0 else None
    return j if header is not None and "{" in _code(lines[header - 1]) else None


def _with_braces(text_lines: list[str], pieces: list[tuple[int, int, str]], lefts: list[_LeftOpen], k: int,
                 lone: int) -> tuple | None:
    """The definitions of pieces `lefts[0].piece` to `k` read with a `{` after the statement on
    each `left.line` (after its code, before a comment: no other token moves), or None unless
    that reading is clean and its definition ends at the lone `}` on line `lone` (else these
    are not the `{` missing, or not all of them: the pieces are said as they stand)."""
    first, end = pieces[lefts[0].piece][0], pieces[k][1]
    lines = text_lines[first:end + 1]   # (and the line after, if any: `_piece_text` ends as the file does)
    for left in lefts:
        at = left.line - first - 1
        code = _code(lines[at])
        if code.endswith("\\"):   # (continued on the next line: its end is not where the `{` goes)
            return None
        lines[at] = code + " {" + lines[at][len(code):]
    definitions, diagnostics = _parse_text(lefts[0].diagnostic.span.file, _piece_text(lines, 0, end - first), first)
    if diagnostics or not definitions or definitions[0].span.end_line != lone:
        return None
    return definitions


def _code(line: str) -> str:
    """`line` without its comment (a `#` outside quotes) and the spaces before it."""
    if "#" not in line:
        return line.rstrip()
    in_string = False
    for col, ch in enumerate(line):
        if in_string:
            in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif ch == "#":
            return line[:col].rstrip()
    return line.rstrip()


def _blocks_left_open(path: str, lines: list[str], pieces: list[tuple[int, int, str]], j: int, lone: int,
                      header_brace: bool = True) -> list[_LeftOpen]:
    """E205 at each statement written without its `{` where the `}` meant to close it closed the
    definition instead, and the definition's own `}` stands alone after it on line `lone`
    (E001 "unexpected `}`" there, apart from the statement that is the mistake, and with a
    second error for each line of the block), the innermost (the last) first.  The statements
    are sought from piece `j` (the definition's header, which opens with a `{` if
    `header_brace`) to that `}`."""
    from . import registry as R

    def code(n: int) -> str:   # (line n, from 1, without its comment)
        return _code(lines[n - 1])

    def indent(n: int) -> int:
        return _indent(code(n))
    header = _opening(lines, pieces[j])
    if header is None or header >= lone or (header_brace and "{" not in code(header)):
        return []
    found: list[_LeftOpen] = []
    for n in range(lone - 1, header, -1):   # (the innermost first: from the last line; never the header)
        words = code(n).split()
        verb = R.VERBS.get(words[0]) if words else None
        if verb is None or verb.block != "required" or "{" in code(n):
            continue
        inside: list[int] = []
        closing = None
        for m in range(n + 1, lone):
            written = code(m).strip()
            if not written:
                continue
            if written == "}":
                if indent(m) == indent(n):
                    closing = m
                    break
                continue
            if indent(m) <= indent(n):
                break
            inside.append(m)
        if closing is None or not inside:
            continue
        column = indent(n) + 1
        found.append(_LeftOpen(Diagnostic("error", "E205", f"`{words[0]}` needs a block `{{ ... }}`",
                                    Span(path, n, column, n, column + len(words[0])),
                                    missing_brace_hint(words[0], inside[0], inside[-1], closing)
                                    + f" (the `}}` at line {lone} then closes the definition)"), n, j))
    return found


def _parse_pieces(path: str, pieces: list[tuple[int, int, str]]) -> tuple[list[ast.Definition], list[Diagnostic]]:
    good: list[ast.Definition] = []
    found: list[Diagnostic] = []
    for first_line, _last, piece in pieces:
        # Each piece keeps its lines' numbers in the file (its first line is line first_line + 1).
        defs, diags = _parse_text(path, piece, first_line)
        good.extend(defs)
        found.extend(diags)
    return good, found


def _braces(text: str):
    """Each `{` and `}` outside strings and comments, as (line, column, indentation of its line,
    whether it is the first thing on its line, the brace); lines and columns from 1."""
    for number, content in enumerate(text.split("\n"), 1):
        if "{" not in content and "}" not in content:
            continue
        in_string = False
        indent = len(content) - len(content.lstrip(" \t"))
        for col, ch in enumerate(content, 1):
            if in_string:
                in_string = ch != '"'
            elif ch == '"':
                in_string = True
            elif ch == "#":
                break
            elif ch in "{}":
                yield number, col, indent, col == indent + 1, ch


def _piece_text(lines: list[str], first: int, end: int) -> str:
    """Lines `first` to `end` (from 0, `end` not included) of a text cut at its line feeds, and
    the line feed after the last when that ends in a carriage return: the carriage return of a
    CRLF line end, alone at the end of a piece, was E002 "unexpected character" in every piece
    of a file with CRLF line ends."""
    return "\n".join(lines[first:end]) + ("\n" if end < len(lines) and lines[end - 1].endswith("\r") else "")


def _top_level_pieces(text: str) -> list[tuple[int, int, str]]:
    """The file cut into runs of whole lines that each end at brace depth 0 (strings and
    comments skipped): one top-level definition, or a lone top-level line, per piece, as
    (lines before it, its last line, its text); lines count from 1."""
    lines = text.split("\n")
    depth_after: dict[int, int] = {}  # line (from 1) -> depth after its last brace
    depth = 0
    for number, _col, _indent, _first, ch in _braces(text):
        depth = depth + 1 if ch == "{" else max(0, depth - 1)
        depth_after[number] = depth
    ranges: list[tuple[int, int]] = []  # [start, end) line indexes
    start, depth = 0, 0
    for index in range(len(lines)):
        depth = depth_after.get(index + 1, depth)
        if depth == 0:
            ranges.append((start, index + 1))
            start = index + 1
    if start < len(lines):
        ranges.append((start, len(lines)))
    # A line with no block (a comment, `remove card "X"`, or a stray word) goes with the piece
    # before it, so a stray line never becomes a definition of its own; a stray `}` stands
    # alone, so the definition before it is still read (with it, that one was lost).  Ranges
    # are merged before any text is joined: joining as we go would copy a long run of such
    # lines again and again.
    merged: list[list[int]] = []
    for first, end in ranges:
        if merged and not any("{" in lines[i] or "}" in lines[i] for i in range(first, end)):
            merged[-1][1] = end
        else:
            merged.append([first, end])
    pieces = [(first, end, _piece_text(lines, first, end)) for first, end in merged]
    return [(first, end, piece) for first, end, piece in pieces if piece.strip()]


def _parse_text(path: str, text: str, offset: int = 0) -> tuple[tuple, list[Diagnostic]]:
    """Definitions and syntax errors of one text: the whole file, or a piece of it that starts
    after `offset` lines (every line number found is moved down by `offset`)."""
    with _collector_paused():
        return _parse_unpaused(path, text, offset)


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while a text is parsed: parsing allocates millions of
    small objects and no garbage cycles, and the collector's repeated passes over them made the
    time grow faster than the file (a 4 MB file: 25 s instead of 11 s)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# How many statements standing outside any definition a file is read again without (each read
# again in whole): past these, the next is the parse error it is.
MAX_STRAYS = 100


def _parse_unpaused(path: str, text: str, offset: int) -> tuple[tuple, list[Diagnostic]]:
    """The file's definitions and diagnostics; a statement standing outside any definition is
    said (E101) and the file read again without its line, so the definitions around it are kept
    (a loop, not a recursion: a file of a thousand such lines ran out of stack)."""
    strays: list[Diagnostic] = []
    while True:
        definitions, diagnostics, stray_line = _read_once(path, text, offset, len(strays) < MAX_STRAYS)
        if stray_line is None:
            return definitions, strays + diagnostics
        strays += diagnostics
        lines = text.split("\n")
        lines[stray_line - 1] = ""
        text = "\n".join(lines)


def _read_once(path: str, text: str, offset: int, strays: bool) -> tuple[tuple, list[Diagnostic], int | None]:
    """`_parse_unpaused` of one reading: with the line of a stray statement (E101, found where
    `strays`), to be read again without it; else None."""
    from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        return (), [_unexpected_character(path, text, exc, offset)], None
    except UnexpectedEOF as exc:
        return (), [_unexpected_end(path, text, exc, offset)], None
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            return (), [_unexpected_end(path, text, exc, offset)], None
        stray = _stray_statement(path, text, exc, offset) if strays else None
        if stray is not None:   # (read again without that line: the definition before it is kept)
            return (), [stray], exc.token.line
        return (), [_unexpected_token(path, exc, offset)], None
    except (LarkError, RecursionError) as exc:  # any other parser failure is still the file's fault
        return (), [Diagnostic("error", "E001", f"cannot parse this file: {type(exc).__name__}",
                               Span.point(path, 1 + offset, 1))], None
    try:
        from lark import Tree
        builder = _Builder(path, offset)
        definitions = tuple(builder.definition(d) for d in tree.children if isinstance(d, Tree))
    except ParseFailure as exc:
        return (), [exc.diagnostic], None
    except RecursionError:  # MAX_DEPTH should stop this first; kept as a safety net
        return (), [Diagnostic("error", "E007", "expressions are nested too deeply",
                               Span.point(path, 1 + offset, 1), "split the expression into simpler parts")], None
    return definitions, [], None


def _unexpected_character(path: str, text: str, exc, offset: int = 0) -> Diagnostic:
    span = Span.point(path, exc.line + offset, exc.column)
    char = text[exc.pos_in_stream] if 0 <= exc.pos_in_stream < len(text) else "?"
    if char == '"':
        return Diagnostic("error", "E004", "unterminated string", span,
                          "close the name with `\"` on the same line")
    shown = repr(char) if not char.isprintable() or char.isspace() else f"`{char}`"
    if char == "\\":
        rest = text[exc.pos_in_stream + 1:].split("\n", 1)[0]
        if not rest.strip():   # (spaces after it: a `\` continues a line only as its last character)
            return Diagnostic("error", "E002", f"unexpected character {shown}", span,
                              "a `\\` joins the next line only as the last character of its line: "
                              "remove the spaces after it")
    if char == "\r":   # (`\r\n` ends a line; a lone `\r` is an old Mac line end, or a stray one)
        return Diagnostic("error", "E002", f"unexpected character {shown}", span,
                          "a carriage return alone does not end a line: save the file with LF or CRLF "
                          "line ends (an editor's line-ending setting)")
    return Diagnostic("error", "E002", f"unexpected character {shown}", span,
                      "names use letters, digits and `_`; quote names with spaces: \"My Card\"")


def _unclosed_brace(text: str) -> tuple[int, int] | None:
    """Line and column of the `{` most likely never closed (strings and comments skipped).

    Indentation decides between candidates: a `}` that starts a line less indented than the
    line of the innermost open `{` closes an outer one, so the inner `{` is the unclosed one."""
    stack: list[tuple[int, int, int]] = []  # line, column, indentation of that line
    suspects: list[tuple[int, int]] = []
    for line, col, indent, first, ch in _braces(text):
        if ch == "{":
            stack.append((line, col, indent))
        elif stack:
            while first and len(stack) > 1 and stack[-1][2] > indent:
                suspects.append(stack.pop()[:2])
            stack.pop()
    if suspects:
        return suspects[0]
    return stack[-1][:2] if stack else None


def _unexpected_end(path: str, text: str, exc: Exception, offset: int = 0) -> Diagnostic:
    brace = _unclosed_brace(text)
    if brace:
        return Diagnostic("error", "E003", "this `{` is never closed", Span.point(path, brace[0] + offset, brace[1]),
                          "add the matching `}`")
    # Lines end at "\n" only, as Lark counts them (str.splitlines also splits at \f, \x1c, ...).
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return Diagnostic("error", "E003", "unexpected end of file",
                      Span.point(path, len(lines) + offset, len(lines[-1]) + 1),
                      "the last statement or expression is incomplete")


def _stray_statement(path: str, text: str, exc, offset: int = 0) -> Diagnostic | None:
    """E101 for a statement with an option (`gain 1 coin who=left`) after the `}` that closes a
    definition, as for one without (which reads as definitions of kinds `gain`, `coin` and is
    said where the definitions are checked): the `=` was "unexpected", the real mistake not said."""
    from . import registry as R
    tok = exc.token
    if tok.value != "=":
        return None
    line = text.split("\n")[tok.line - 1]
    words = line.split()
    if not words or words[0] not in R.VERBS or words[0] in R.KINDS:
        return None
    depth, closed = 0, None
    for number, _col, _indent, _first, ch in _braces(text):
        if number >= tok.line:
            break
        depth = depth + 1 if ch == "{" else max(0, depth - 1)
        if depth == 0 and ch == "}":
            closed = number
    if depth:
        return None
    column = len(line) - len(line.lstrip()) + 1
    span = Span(path, tok.line + offset, column, tok.line + offset, column + len(words[0]))
    hint = ("a statement belongs inside the `{ ... }` of a definition" if closed is None else
            f"the definition above closed at line {closed + offset}; a statement belongs inside a definition: "
            f"move the line up, before that `}}`")
    return Diagnostic("error", "E101", f"`{words[0]}` stands outside any definition", span, hint)


def _unexpected_token(path: str, exc, offset: int = 0) -> Diagnostic:
    tok = exc.token
    length = max(1, len(str(tok.value))) if tok.type != "_NL" else 1
    span = Span(path, tok.line + offset, tok.column, tok.line + offset, tok.column + length)
    expected = sorted({TOKEN_WORDS.get(e, e) for e in exc.expected if not e.startswith("__")})
    what = "end of line" if tok.type == "_NL" else f"`{tok.value}`"
    hint = ("expected " + ", ".join(expected[:6]) + (" ..." if len(expected) > 6 else "")) if expected else None
    return Diagnostic("error", "E001", f"unexpected {what}", span, hint)


class _Builder:
    """Lark tree -> AST.  Recursive, so nesting deeper than MAX_DEPTH is reported (E007)."""

    def __init__(self, path: str, offset: int = 0):
        self.path = path
        self.offset = offset  # lines of the file before the text parsed
        self.depth = 0

    def _enter(self, node, what: str) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseFailure(Diagnostic(
                "error", "E007", f"{what} nested too deeply (more than {MAX_DEPTH} levels of blocks, brackets and operators)",
                self.span(node), "split it into simpler parts: each operator is a level too, so a chain such "
                                 "as `1 + 1 + 1 + ...` takes a level for each `+` (write its total)"))

    def span(self, node) -> Span:
        from lark import Token
        k = self.offset
        if isinstance(node, Token):
            return Span(self.path, node.line + k, node.column, (node.end_line or node.line) + k,
                        node.end_column or node.column + len(node))
        m = node.meta
        if getattr(m, "empty", True):
            return Span.point(self.path, 1 + k, 1)
        return Span(self.path, m.line + k, m.column, m.end_line + k, m.end_column)

    def definition(self, tree) -> ast.Definition:
        header, *rest = tree.children
        words = [t for t in header.children if t.type == "NAME"]
        names = [t for t in header.children if t.type in ("STRING", "INT")]
        modifier = None
        if words and str(words[0]) in MODIFIERS and len(words) + len(names) >= 3:
            modifier = str(words.pop(0))
        kind_tok = words[0]
        if names:
            name_tok = names[0]
            name = self._string(name_tok) if name_tok.type == "STRING" else str(name_tok)
        elif len(words) > 1:
            name_tok, name = words[1], str(words[1])
        else:
            name_tok, name = kind_tok, ""
        extra = words[2:] if not names else words[1:]
        if extra:
            raise ParseFailure(Diagnostic("error", "E008", f"unexpected word `{extra[0]}` in a definition header",
                                          self.span(extra[0]),
                                          "a header is `kind name`, e.g. card \"My Card\"; quote names with spaces"))
        block = self.block(rest[0]) if rest else None
        return ast.Definition(modifier, str(kind_tok), self.span(kind_tok), name, self.span(name_tok), block,
                              self.span(tree))

    def block(self, tree) -> ast.Block:
        from lark import Tree
        self._enter(tree, "blocks are")
        try:
            return ast.Block(tuple(self.statement(s) for s in tree.children if isinstance(s, Tree)),
                             self.span(tree))
        finally:
            self.depth -= 1

    def statement(self, tree) -> ast.Statement:
        from lark import Tree
        verb, *rest = tree.children
        args, kwargs, block = [], [], None
        for child in rest:
            if isinstance(child, Tree) and child.data == "block":
                block = self.block(child)
            elif isinstance(child, Tree) and child.data == "named_arg":
                kwargs.append(self.named(child))
            else:
                args.append(self.expr(child))
        return ast.Statement(str(verb), self.span(verb), tuple(args), tuple(kwargs), block, self.span(tree))

    def named(self, tree) -> ast.NamedArg:
        name, value = tree.children
        return ast.NamedArg(str(name), self.expr(value), self.span(tree))

    def expr(self, node) -> ast.Expr:
        self._enter(node, "expressions are")
        try:
            return self._expr(node)
        finally:
            self.depth -= 1

    def _expr(self, node) -> ast.Expr:
        from lark import Token, Tree
        if isinstance(node, Token):  # a bare token can reach here through inlined rules
            return self._token_expr(node)
        kind, ch, span = node.data, node.children, self.span(node)
        if kind == "int_":
            return self._int(ch[0])
        if kind == "string":
            return ast.Str(self._string(ch[0]), span)
        if kind == "name":
            return ast.Name(str(ch[0]), span)
        if kind == "attribute":
            return ast.Attribute(self.expr(ch[0]), str(ch[1]), span)
        if kind == "alternatives":
            return ast.Alternatives(tuple(str(t) for t in ch), span)
        if kind == "list_":
            return ast.ListExpr(tuple(self.expr(c) for c in ch), span)
        if kind == "call":
            args, kwargs = [], []
            if len(ch) > 1:
                for a in ch[1].children:
                    if isinstance(a, Tree) and a.data == "named_arg":
                        kwargs.append(self.named(a))
                    else:
                        args.append(self.expr(a))
            return ast.Call(str(ch[0]), tuple(args), tuple(kwargs), span)
        if kind in ("binop", "compare"):
            return ast.BinOp(str(ch[1]), self.expr(ch[0]), self.expr(ch[2]), span)
        if kind in ("and_", "or_"):
            return ast.BinOp(kind[:-1], self.expr(ch[0]), self.expr(ch[1]), span)
        if kind == "not_":
            return ast.Not(self.expr(ch[0]), span)
        if kind == "neg":
            # A sign: `-3` is the number -3; `-x` is `0 - x`, so nothing downstream needs a new node.
            operand = self.expr(ch[1])
            if str(ch[0]) == "+":
                return operand
            if isinstance(operand, ast.Int):
                return ast.Int(-operand.value, span)
            return ast.BinOp("-", ast.Int(0, self.span(ch[0])), operand, span)
        raise ParseFailure(Diagnostic("error", "E001", f"unsupported construct `{kind}`", span))

    def _token_expr(self, tok) -> ast.Expr:
        if tok.type == "INT":
            return self._int(tok)
        if tok.type == "STRING":
            return ast.Str(self._string(tok), self.span(tok))
        return ast.Name(str(tok), self.span(tok))

    def _string(self, tok) -> str:
        """A quoted name's text, in its canonical form (NFC); control characters are refused
        (E010): names reach terminals."""
        text = str(tok)[1:-1]
        at = first_control(text)
        if at is not None:
            # A string never spans lines, so the character is on the token's line.
            raise ParseFailure(Diagnostic(
                "error", "E010", f"{'invisible' if invisible(text[at]) else 'control'} character "
                f"{describe(text[at])} in a quoted name",
                Span.point(self.path, tok.line + self.offset, tok.column + 1 + at),
                "names and strings hold printable text only: remove the character "
                "(an editor may show it as `^[` or not at all)"))
        return canonical(text)

    def _int(self, tok) -> ast.Int:
        text = str(tok)
        if len(text.lstrip("0")) > MAX_INT_DIGITS:
            raise ParseFailure(Diagnostic("error", "E006", f"number `{text[:20]}{'...' if len(text) > 20 else ''}` is too large",
                                          self.span(tok), f"numbers in card files have at most {MAX_INT_DIGITS} digits"))
        return ast.Int(int(text), self.span(tok))
