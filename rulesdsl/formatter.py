"""`rulesdsl fmt`: the canonical layout of a card file.

The formatter works on tokens, not on the AST, because the AST drops comments: it re-indents
(4 spaces a block level), puts one space between the words of a statement (none around `=`
of a named argument, `|`, `.`, inside brackets and before `,`), puts each statement of a
multi-line block on its own line, and keeps every comment on the line of the code it follows.
A block written on one line (`extend age 1 { deal 5 extra_deck age1 }`) stays on one line: such
one-liners are a deliberate table layout in the bundled files.  Blank lines are kept, at most
one in a row, none at the start or end of a block.  A `\\` line continuation is joined.

Only a file that parses is formatted, and the result is parsed again and compared with the
original (syntax trees without positions): the formatter never changes what a file means."""

from __future__ import annotations

import re

import attrs

from .diagnostics import Diagnostic
from .parser import parse_file

INDENT = "    "

_TOKEN = re.compile(r"""
    (?P<CONT>\\\r?\n)
  | (?P<NL>\r?\n)
  | (?P<WS>[ \t\f]+)
  | (?P<COMMENT>\#[^\n]*)
  | (?P<STRING>"[^"\\\n]*")
  | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<INT>[0-9]+)
  | (?P<OP>==|!=|<=|>=|//|[<>+\-*%=|.,;()\[\]{}])
""", re.VERBOSE)

_KEYWORDS = {"and", "or", "not"}
_NO_SPACE_AFTER = {"(", "[", ".", "=", "|"}
_NO_SPACE_BEFORE = {")", "]", ".", ",", "=", "|"}


class FormatError(Exception):
    """The text cannot be formatted: it has syntax errors (carried as diagnostics)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []


@attrs.define
class _Tok:
    kind: str
    text: str
    line: int    # physical line, from 0
    column: int  # from 0
    gap: int     # spaces before it on its line (the original spacing)


@attrs.define
class _Comment:
    text: str
    column: int
    gap: int
    on_open_line: bool = False  # written after a `{`: stays on that line


@attrs.define
class _Statement:
    words: list[_Tok]
    block: "_Block | None" = None
    comment: _Comment | None = None  # on the line this statement ends (or its `{` line)


@attrs.define
class _Block:
    items: list  # _Statement | _Comment (a comment on its own line) | None (a blank line)
    one_line: bool


def _lex(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    pos, line, line_start, gap = 0, 0, 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormatError(f"line {line + 1}: unexpected character {text[pos]!r}")
        kind, value = m.lastgroup, m.group()
        if kind == "WS":
            gap = len(value.expandtabs(1))
        elif kind in ("NL", "CONT"):
            if kind == "NL":
                tokens.append(_Tok("NL", "\n", line, pos - line_start, 0))
            line, line_start, gap = line + 1, m.end(), 0
            if kind == "CONT":
                gap = 1  # a joined continuation is one space
        else:
            tokens.append(_Tok(kind, value, line, pos - line_start, gap))
            gap = 0
        pos = m.end()
    return tokens


class _Reader:
    """Tokens -> statements and blocks (the shape the grammar gives them, comments included)."""

    def __init__(self, tokens: list[_Tok]):
        self.tokens = tokens
        self.pos = 0

    def items(self, closing: bool, open_line: int = -1) -> tuple[list, _Tok | None]:
        """Items up to the matching `}` (returned) or the end of the text.  A blank line is None."""
        items: list = []
        current: _Statement | None = None
        last: _Statement | None = None  # the statement a trailing comment on this line belongs to
        code_on_line = False
        line_empty = True
        while self.pos < len(self.tokens):
            tok = self.tokens[self.pos]
            self.pos += 1
            if tok.kind == "NL":
                if current is not None:
                    items.append(current)
                    current = None
                if line_empty:
                    items.append(None)
                code_on_line, line_empty, last = False, True, None
                continue
            line_empty = False
            if tok.kind == "COMMENT":
                comment = _Comment(tok.text, tok.column, max(1, tok.gap))
                target = current or last
                if code_on_line and target is not None:
                    target.comment = comment
                else:
                    comment.on_open_line = tok.line == open_line
                    items.append(comment)
                continue
            code_on_line = True
            if tok.text == ";":
                if current is not None:
                    items.append(current)
                    last, current = current, None
                continue
            if tok.text == "}":
                if not closing:
                    raise FormatError(f"line {tok.line + 1}: unmatched `}}`")
                if current is not None:
                    items.append(current)
                return items, tok
            if current is None:
                current = _Statement([])
            if tok.text == "{":
                inner, close = self.items(True, tok.line)
                if close is None:
                    raise FormatError(f"line {tok.line + 1}: this `{{` is never closed")
                current.block = _Block(inner, one_line=tok.line == close.line)
                items.append(current)
                # A comment after the `}` on its line is this statement's.
                last, current = current, None
                continue
            current.words.append(tok)
        if closing:
            return items, None
        if current is not None:
            items.append(current)
        return items, None


def _words(words: list[_Tok]) -> str:
    out: list[str] = []
    prev: _Tok | None = None
    sign = False  # the previous token is a sign (`-1`, `-(x)`): nothing between it and its number
    depth = 0     # brackets open: outside them `a -1` is two arguments (the grammar's SPACED_SIGN)
    for index, tok in enumerate(words):
        if prev is not None:
            call = (tok.text == "(" and prev.kind == "NAME" and prev.text not in _KEYWORDS and index > 1)
            if not (prev.text in _NO_SPACE_AFTER and prev.kind == "OP") and tok.text not in _NO_SPACE_BEFORE \
                    and not call and not sign:
                out.append(" ")
        # A sign right after the verb, an operator, a bracket or a comma is a number's sign, not a minus.
        following = words[index + 1] if index + 1 < len(words) else None
        sign = tok.text in ("-", "+") and tok.kind == "OP" and (
            index == 1 or prev is not None and (prev.kind == "OP" and prev.text not in (")", "]")
                                                or prev.text in _KEYWORDS)
            or tok.text == "-" and not depth and tok.gap and following is not None
            and (following.kind in ("INT", "NAME") or following.text == "(") and not following.gap
            and following.line == tok.line)
        if tok.kind == "OP" and tok.text in ("(", "["):
            depth += 1
        elif tok.kind == "OP" and tok.text in (")", "]") and depth:
            depth -= 1
        out.append(tok.text)
        prev = tok
    return "".join(out)


def _inline(statement: _Statement) -> str:
    text = _words(statement.words)
    if statement.block is not None:
        inner = "; ".join(_inline(s) for s in statement.block.items if isinstance(s, _Statement))
        text = (text + " " if text else "") + ("{ " + inner + " }" if inner else "{ }")
    return text


def _with_comment(line: str, comment: _Comment | None) -> str:
    if comment is None:
        return line
    if not line.strip():
        return line + comment.text
    column = comment.column if comment.column > len(line) else len(line) + comment.gap
    return line + " " * (column - len(line)) + comment.text


def _block_is_inline(block: _Block) -> bool:
    return block.one_line and all(
        isinstance(item, _Statement) and item.comment is None and (item.block is None or _block_is_inline(item.block))
        for item in block.items)


def _render(items: list, depth: int, out: list[str]) -> None:
    pad = INDENT * depth
    # No blank line at the start or end of a block, at most one in a row.
    while items and items[0] is None:
        items = items[1:]
    while items and items[-1] is None:
        items = items[:-1]
    previous_blank = False
    for item in items:
        if item is None:
            if not previous_blank:
                out.append("")
            previous_blank = True
            continue
        previous_blank = False
        if isinstance(item, _Comment):
            out.append(pad + item.text)
            continue
        block = item.block
        if block is None or _block_is_inline(block):
            out.append(_with_comment(pad + _inline(item), item.comment))
            continue
        head = _words(item.words)
        opening = pad + (head + " " if head else "") + "{"
        first = block.items[0] if block.items else None
        inner = block.items
        # A comment on the `{` line was read as the block's first item; keep it there.
        if isinstance(first, _Comment) and first.on_open_line:
            opening = _with_comment(opening, first)
            inner = inner[1:]
        out.append(opening)
        _render(inner, depth + 1, out)
        out.append(_with_comment(pad + "}", item.comment))


def _strip(node):
    """A syntax tree without positions, to compare meanings."""
    if isinstance(node, (list, tuple)):
        return tuple(_strip(n) for n in node)
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(
            _strip(getattr(node, f.name)) for f in attrs.fields(type(node))
            if f.name not in ("span", "verb_span", "kind_span", "name_span", "path", "text"))
    return node


def same_meaning(path: str, before: str, after: str) -> bool:
    a, diags_a = parse_file(path, before)
    b, diags_b = parse_file(path, after)
    return not diags_a and not diags_b and _strip(a) == _strip(b)


def with_line_ends_of(original: str, formatted: str) -> str:
    """`formatted` (LF line ends) with the line ends `original` uses: CRLF where its first line
    ends so.  Line ends are the editor's, not layout: a file checked out with CRLF on Windows
    that is formatted stays unchanged (`fmt --check` failed on every such file)."""
    first = original.find("\n")
    return formatted.replace("\n", "\r\n") if first > 0 and original[first - 1] == "\r" else formatted


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical layout of `text`; FormatError when it does not parse."""
    if text.startswith("\ufeff"):
        text = text[1:]
    tree, diagnostics = parse_file(path, text)
    if diagnostics or tree is None:
        raise FormatError(f"{path}: syntax errors, nothing formatted", diagnostics)
    reader = _Reader(_lex(text))
    items, _ = reader.items(False)
    out: list[str] = []
    _render(items, 0, out)
    result = "\n".join(line.rstrip() for line in out)
    result = result + "\n" if result else ""
    if not same_meaning(path, text, result):  # a formatter bug must never reach a file
        raise FormatError(f"{path}: the formatter would change what this file means (a bug: please report it)")
    return result
