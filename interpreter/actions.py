"""Actions: plain, hashable, printable values a player (or agent) hands to `Game.apply`."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from rulesdsl.diagnostics import elide
from rulesdsl.safe_text import canonical

CHOOSE = "choose"
CHOOSE_PLAYER = "choose_player"
CHOOSE_SPACE = "choose_space"
CHOOSE_OPTION = "choose_option"
PASS = "pass"


class Action(NamedTuple):
    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        # str() of every part: a malformed action (an int, a list) must still print in its refusal.
        args = self.args if isinstance(self.args, (tuple, list)) else (self.args,)
        return " ".join([shown(self.name), *(shown(a) for a in args)])

    @classmethod
    def parse(cls, text: str) -> "Action":
        """`build "My Card"` or `wonder Card Wonder` -> Action; names in the form card files
        give them (`safe_text.canonical`)."""
        import shlex
        if not isinstance(text, str):   # (shlex.split(None) would read standard input: a hang)
            raise TypeError(f"Action.parse reads a string, not {type(text).__name__}")
        try:
            parts = shlex.split(text)
        except ValueError as exc:   # (shlex says only "No closing quotation")
            raise ValueError(f"cannot read the action {elide(text)!r}: {str(exc)[0].lower()}{str(exc)[1:]}") from None
        if not parts:
            raise ValueError("empty action")
        return cls(parts[0], tuple(canonical(p) for p in parts[1:]))


def briefly(action: object) -> str:
    """An action as a refusal names it: each long part cut (`diagnostics.elide`), so that a
    10,000-character name refused is not printed whole, twice."""
    if isinstance(action, Action) and isinstance(action.args, (tuple, list)):
        return " ".join([elide(shown(action.name)), *(elide(shown(a)) for a in action.args)])
    return elide(str(action))


def shown(part: object) -> str:
    """One part of an action as `str(action)` writes it: quoted where `Action.parse` would not
    read it back as it is (a space, a quote, a backslash, nothing at all: `build "Hera's"`, where
    `build Hera's` was "no closing quotation"), a quote or backslash inside escaped; and
    escaped as in Python where it holds a character that does not print (a newline in a name
    read from a trace would start a line of its own in the message that refuses it)."""
    text = str(part)
    if not text.isprintable():
        return repr(text)
    if text and not any(c in text for c in _READ_OTHERWISE):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# What `shlex.split` (Action.parse) does not read as itself outside quotes.
_READ_OTHERWISE = frozenset(" \"'\\")


# Action(name, args) without the Python-level `__new__` of a named tuple (the engine's own actions)
new_action = partial(tuple.__new__, Action)


def malformed(action: object) -> str | None:
    """Why a value is not a well-formed Action (a name and a tuple of strings), or None."""
    if not isinstance(action, Action):
        return "not an Action"
    if type(action.name) is not str or not action.name:
        return f"the action name must be a non-empty string, not {elide(repr(action.name))}"
    if type(action.args) is not tuple:
        return f"the arguments must be a tuple of strings, not {elide(repr(action.args))}"
    for arg in action.args:   # (a loop: a comprehension is a function made at every apply)
        if type(arg) is not str:
            return f"every argument must be a string, not {elide(repr(arg))}"
    return None


def player_label(p: int) -> str:
    return f"p{p}"


class GameOver(ValueError):
    """A move asked of a game that has ended (`random_action`, an agent's `act`): no seat has
    one to make.  (It said "no legal action", or failed inside the agent, as if the content had
    left a seat stuck.)"""

    def __init__(self, message: str = "the game is over: no seat has a move to make (`game.over` says so)") -> None:
        super().__init__(message)


class IllegalAction(ValueError):
    """Raised by `Game.apply` for an action that is not legal now; the game is unchanged."""

    def __init__(self, action: object, reason: str):
        super().__init__(f"illegal action {briefly(action)}: {reason}")
        self.action = action
        self.reason = reason
