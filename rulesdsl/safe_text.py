"""Text from card files, traces and saves, made safe to print on a terminal.

A control character (ESC starting an ANSI or OSC sequence, a carriage return, a backspace, a
bidirectional override, a line separator) in a name could recolour, retitle or rewrite the
user's terminal, or hide what is shown.  The checker refuses such characters in names and
strings (E010); everything printed from files the user did not write themselves still goes
through `printable`, which also covers traces, saves and file names."""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls, the Arabic letter mark, the
# left-to-right/right-to-left marks, the line and paragraph separators, the bidirectional
# embeddings/overrides and isolates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# A name or string may not hold a tab either: it would print as blank space of any width.
_NOT_IN_NAMES = re.compile("[\t\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _shown(match: re.Match) -> str:
    code = ord(match.group())
    # One character for one character, so a caret under a diagnostic's line still lines up:
    # the Unicode "control pictures" (U+2400 SYMBOL FOR NULL ...) for C0 controls and DEL,
    # the replacement character for the rest.
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


def printable(text: str) -> str:
    """`text` with every control character replaced by a visible one (newlines and tabs kept)."""
    return _UNSAFE.sub(_shown, text) if _UNSAFE.search(text) else text


def one_line(text: str) -> str:
    """`printable`, with newlines and tabs shown too: text that must stay on its line (a file
    name that holds a newline could otherwise print a line that reads as a diagnostic)."""
    return printable(text).replace("\n", "\u2424").replace("\t", "\u2409")


def first_control(text: str) -> int | None:
    """The index of the first character a name or string may not hold, or None."""
    m = _NOT_IN_NAMES.search(text)
    return m.start() if m else None


def describe(char: str) -> str:
    """`U+001B` for a character that cannot be shown."""
    return f"U+{ord(char):04X}"
