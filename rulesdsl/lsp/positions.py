"""Positions in a text, as the protocol counts them and as the parser does.

The protocol ends a line at `\\n`, `\\r\\n` or a lone `\\r`, and counts columns in UTF-16 code
units.  The parser (and everything in `features`) ends a line at `\\n` only and counts columns in
characters: a form feed, U+2028 or a lone `\\r` in a comment is part of the line for the parser
and the start of a new one for the editor.  Both are mapped through character offsets, so a
position means the same place of the text on both sides.  (str.splitlines() must not be used
for either: it also breaks at `\\f`, `\\v`, `\\x1c`-`\\x1e`, `\\x85`, U+2028 and U+2029.)"""

from __future__ import annotations

import re
from bisect import bisect_right

_LSP_BREAK = re.compile(r"\r\n|\r|\n")


class Lines:
    """One text's line starts under both rules."""

    def __init__(self, text: str):
        self.text = text
        self.nl = [0] + [m.end() for m in re.finditer("\n", text)]
        self.lsp = [0] + [m.end() for m in _LSP_BREAK.finditer(text)]

    # -- the parser's lines (\n), characters -----------------------------------------------------
    def offset(self, line: int, column: int) -> int:
        """The offset of a 0-based (line, character) in `\\n` lines; clamped to the text."""
        if line < 0:
            return 0
        if line >= len(self.nl):
            return len(self.text)
        start = self.nl[line]
        end = self.nl[line + 1] - 1 if line + 1 < len(self.nl) else len(self.text)
        return start + max(0, min(column, end - start))

    def position(self, offset: int) -> tuple[int, int]:
        """The 0-based (line, character) in `\\n` lines of an offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.nl, offset) - 1
        return line, offset - self.nl[line]

    # -- the protocol's lines (\n, \r\n, \r), UTF-16 units ---------------------------------------
    def _lsp_end(self, line: int) -> int:
        """Where the content of protocol line `line` ends (its line break excluded)."""
        if line + 1 < len(self.lsp):
            end = self.lsp[line + 1]
            return end - 2 if self.text[end - 2:end] == "\r\n" else end - 1
        return len(self.text)

    def lsp_offset(self, line: int, character: int) -> int:
        """The offset of a protocol position; a column past the line's end is its end, a line
        past the text's end is the text's end."""
        if line < 0:
            return 0
        if line >= len(self.lsp):
            return len(self.text)
        start, end = self.lsp[line], self._lsp_end(line)
        units = 0
        i = start
        while i < end and units < character:
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
            i += 1
        return i

    def lsp_position(self, offset: int) -> tuple[int, int]:
        """The protocol (line, UTF-16 character) of an offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.lsp, offset) - 1
        start = self.lsp[line]
        offset = min(offset, self._lsp_end(line))   # (inside a \r\n: the end of the line)
        part = self.text[start:offset]
        return line, len(part) + sum(1 for ch in part if ord(ch) > 0xFFFF)

    # -- between the two ---------------------------------------------------------------------------
    def to_lsp(self, line: int, column: int) -> tuple[int, int]:
        return self.lsp_position(self.offset(line, column))

    def from_lsp(self, line: int, character: int) -> tuple[int, int]:
        return self.position(self.lsp_offset(line, character))


def apply_change(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    """`text` with the protocol range start..end (line, UTF-16 character) replaced by `new`."""
    lines = Lines(text)
    a, b = lines.lsp_offset(*start), lines.lsp_offset(*end)
    if b < a:
        a, b = b, a
    return text[:a] + new + text[b:]
