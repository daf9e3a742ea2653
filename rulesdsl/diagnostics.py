"""Diagnostics: what `rulesdsl check` reports, rendered like rustc/ruff."""

from __future__ import annotations

import difflib
from typing import Iterable

import attrs


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
    message: str
    span: Span
    help: str | None = None

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
        self.diagnostics = diagnostics
        self.sources = sources or {}
        errors = [d for d in diagnostics if d.severity == "error"]
        first = errors[0] if errors else (diagnostics[0] if diagnostics else None)
        summary = render(first, self.sources.get(first.span.file)) if first else "invalid content"
        more = f"\n(and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        super().__init__(summary + more)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A `help:` text naming the closest known word, if any is close."""
    pool = sorted(set(candidates))
    match = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not match:
        lowered = {c.lower(): c for c in pool}
        match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        match = [lowered[m] for m in match]
    return f"did you mean `{match[0]}`?" if match else None


def render(diag: Diagnostic, source: str | None) -> str:
    """`path:line:col: error[CODE]: message`, the source line, a caret under the span, help."""
    s = diag.span
    out = [f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}"]
    # Lines end at "\n" only, as the parser counts them (str.splitlines also splits at \f, ...).
    lines = source.split("\n") if source else []
    if 1 <= s.line <= len(lines):
        text = lines[s.line - 1].rstrip("\r").replace("\t", " ")
        gutter = str(s.line)
        pad = " " * len(gutter)
        width = (s.end_column - s.column) if s.end_line == s.line else len(text) - s.column + 1
        width = max(1, min(width, max(1, len(text) - s.column + 1)))
        out.append(f"{pad} |")
        out.append(f"{gutter} | {text}")
        out.append(f"{pad} | {' ' * (s.column - 1)}{'^' * width}")
    if diag.help:
        out.append(f"  = help: {diag.help}")
    from .safe_text import printable  # names, paths and source lines reach the terminal
    return printable("\n".join(out))
