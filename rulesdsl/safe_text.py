"""Text from card files, traces and saves, made safe to print on a terminal.

A control character (ESC starting an ANSI or OSC sequence, a carriage return, a backspace, a
bidirectional override, a line separator) in a name could recolour, retitle or rewrite the
user's terminal, or hide what is shown.  The checker refuses such characters in names and
strings (E010); everything printed from files the user did not write themselves still goes
through `printable`, which also covers traces, saves and file names."""

from __future__ import annotations

import re
import unicodedata

# C0 controls except tab and newline, DEL, C1 controls, the Arabic letter mark, the
# left-to-right/right-to-left marks, the line and paragraph separators, the bidirectional
# embeddings/overrides and isolates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# Characters drawn as nothing, or as blank space, that no script needs inside a name: the
# zero-width space, the word joiner and invisible operators, a byte order mark, the Hangul and
# Mongolian fillers.  `"Shed"` and `"Shed"` with one of them after it would be two names that look
# the same.  (The zero-width joiner and non-joiner are left: emoji and several scripts need them.)
_INVISIBLE = "\u115f\u1160\u180e\u200b\u2060-\u2064\u3164\ufeff\uffa0"
# A name or string may not hold a tab either: it would print as blank space of any width.
_NOT_IN_NAMES = re.compile("[\t\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                           + _INVISIBLE + "]")
_INVISIBLE_CHAR = re.compile(f"[{_INVISIBLE}]")


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


def invisible(char: str) -> bool:
    """A character a name may not hold because it is drawn as nothing (not a control)."""
    return bool(_INVISIBLE_CHAR.fullmatch(char))


def describe(char: str) -> str:
    """`U+001B` for a character that cannot be shown."""
    return f"U+{ord(char):04X}"


def canonical(name: str) -> str:
    """The one form of a quoted name: Unicode NFC.  An editor may write `é` as one character or
    as `e` and a combining accent (NFD, as macOS file names have it); the two look alike and
    are typed alike, so they are one name, in card files and wherever a name is asked for."""
    return name if name.isascii() else unicodedata.normalize("NFC", name)


# Characters a terminal draws in no cell: combining and enclosing marks (some have combining
# class 0, a variation selector among them) and format characters (a zero-width space or joiner;
# a soft hyphen is drawn as a hyphen).
_NO_CELL = frozenset(("Mn", "Me", "Cf"))


def cells(text: str) -> int:
    """The terminal columns `text` takes (a diagnostic's caret, a column of names)."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in _NO_CELL and ch != "\u00ad":
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n
