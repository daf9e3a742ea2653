"""Diagnostics: what `rulesdsl check` reports, rendered like rustc/ruff."""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Sequence

import attrs

# A token longer than this is shown as its first ELIDE_AT characters and "...": a 1 MB name
# in a card file must not make a 1 MB message.
ELIDE_AT = 40
# Every token, short or long, in order: a closing mark is never read as the opening of another
# token, which would elide the prose between two tokens.
_QUOTED = re.compile(r"`([^`\n]*)`|\"([^\"\n]*)\"")
# A source line longer than this is shown as a window around the caret.
SHOWN_LINE = 160


def elide(token: str, limit: int = ELIDE_AT) -> str:
    """`token` itself, or its first `limit` characters and "..." when it is longer."""
    return token if len(token) <= limit else token[:limit] + "..."


def elide_quoted(text: str | None) -> str | None:
    """Every `backticked` or "quoted" token of a message, elided when long."""
    if text is None or len(text) <= ELIDE_AT:
        return text
    return _QUOTED.sub(_elided_token, text)


def _elided_token(m: re.Match) -> str:
    token = m.group(1)
    return f"`{elide(token)}`" if token is not None else f'"{elide(m.group(2))}"'


@attrs.frozen
class Span:
    """A region of a source file; lines and columns count from 1, end is exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, file: str, line: int, column: int) -> "Span":
        return cls(file, line, column, line, column + 1)


@attrs.frozen
class Diagnostic:
    severity: str  # "error" or "warning"
    code: str
    message: str = attrs.field(converter=elide_quoted)
    span: Span
    help: str | None = attrs.field(default=None, converter=elide_quoted)

    def as_json(self) -> dict:
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "help": self.help,
        }


class RulesError(Exception):
    """Raised by the API when content does not load; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        # In the order `rulesdsl check` lists them (file, line, column): the first error shown is
        # the first in the files, not the first some check happened to find.
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
        self.sources = sources or {}
        errors = [d for d in self.diagnostics if d.severity == "error"]
        first = self.first
        summary = render(first, self.sources.get(first.span.file)) if first else "invalid content"
        rest = len(errors) - 1
        more = f"\n(and {rest} more error{'s' if rest != 1 else ''})" if rest > 0 else ""
        super().__init__(summary + more)

    @property
    def first(self) -> Diagnostic | None:
        """The first error in the files (a warning where there is none; None: no diagnostic)."""
        return next((d for d in self.diagnostics if d.severity == "error"),
                    self.diagnostics[0] if self.diagnostics else None)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A `help:` text naming the closest known word, if any is close."""
    pool = sorted(set(candidates))
    match = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not match:
        lowered = {c.lower(): c for c in pool}
        match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        match = [lowered[m] for m in match]
    return f"did you mean `{match[0]}`?" if match else None


def source_lines(source: str | None) -> list[str]:
    """A file's lines, split once per file and shared by all its diagnostics (rendering is then
    linear in the file's size plus the number of diagnostics).  Lines end at "\n" only, as the
    parser counts them (str.splitlines also splits at \f, ...)."""
    return source.split("\n") if source else []


def render(diag: Diagnostic, source: str | None, lines: Sequence[str] | None = None) -> str:
    """`path:line:col: error[CODE]: message`, the source line, a caret under the span, help.

    `lines` is `source_lines(source)`, given by callers that render many diagnostics of a file."""
    from .safe_text import cells, one_line, printable  # names, paths and source lines reach the terminal
    s = diag.span
    out = [f"{one_line(s.file)}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {one_line(diag.message)}"]
    pad = " "   # (the gutter's blank: `= help` stands under its `|`, line 9 or line 10000)
    if lines is None:
        lines = source_lines(source)
    if 1 <= s.line <= len(lines):
        # (made printable before its cells are counted: a control shown as `␛` takes one)
        text = printable(lines[s.line - 1].rstrip("\r").replace("\t", " "))
        gutter = str(s.line)
        pad = " " * len(gutter)
        width = (s.end_column - s.column) if s.end_line == s.line else len(text) - s.column + 1
        width = max(1, min(width, max(1, len(text) - s.column + 1)))
        text, column, width = _window(text, s.column, width)
        out.append(f"{pad} |")
        out.append(f"{gutter} | {text}")
        # (spaces and carets by the cells a terminal gives each character: a wide one, CJK or an
        # emoji, takes two; a combining mark none)
        lead, marked = cells(text[:column - 1]), cells(text[column - 1:column - 1 + width])
        out.append(f"{pad} | {' ' * lead}{'^' * max(1, marked)}")
    if diag.help:
        out.append(f"{pad} = help: {diag.help}")
    return printable("\n".join(out))


def _window(text: str, column: int, width: int) -> tuple[str, int, int]:
    """A long line cut to SHOWN_LINE characters around the caret, "..." marking each cut."""
    if len(text) <= SHOWN_LINE:
        return text, column, width
    start = max(0, min(column - 1 - SHOWN_LINE // 4, len(text) - SHOWN_LINE))
    end = start + SHOWN_LINE
    shown = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
    column = column - start + (3 if start else 0)
    width = max(1, min(width, SHOWN_LINE - (column - 1 - (3 if start else 0))))
    return shown, column, width
