"""The names users hand us (expansions and games, game options, agents, seats): one check per
kind of name, used alike by the API, every command and scenario files. An unknown name is an
`UnknownName` (a ValueError) whose message says what was expected, the closest known name and
every name that is accepted."""

from __future__ import annotations

import operator
from os import PathLike, fspath
from pathlib import PurePath
from typing import Iterable

from . import ast
from .diagnostics import did_you_mean, elide


class UnknownName(ValueError):
    """A name that is not one of those accepted. `help` is the did-you-mean text (or None);
    `known` lists the accepted names, as the user would type them; `listed`, where given, is
    how the message lists them (grouped, or with a word on each); `note` ends the message."""

    def __init__(self, kind: str, name: object, known: Iterable[str], plural: str | None = None,
                 extra: Iterable[str] = (), listed: str | None = None, note: str = ""):
        self.kind = kind
        self.name = name if isinstance(name, str) else repr(name)
        self.known = list(dict.fromkeys(known))
        # `extra`: names also accepted (aliases) that are offered by did-you-mean but not listed.
        self.help = did_you_mean(self.name, [*self.known, *extra]) if isinstance(name, str) else None
        plural = plural or f"{kind}s"
        if listed is None:
            listed = f"{plural}: {', '.join(shown(k) for k in self.known)}" if self.known else f"there are no {plural}"
        super().__init__(f"unknown {kind} {quoted(self.name)}; " + (f"{self.help} " if self.help else "") + listed
                         + (f"; {note}" if note else ""))


def shown(name: str) -> str:
    """A name as printed: escaped (repr-style) when it holds control or other unprintable
    characters, so a terminal never receives them raw."""
    return name if name.isprintable() else repr(name)[1:-1]


def quoted(name: str) -> str:
    """A name a message quotes: escaped, and cut where long (a user's 10,000-character typo is
    not printed back whole)."""
    return f"`{elide(shown(name))}`"


# -- game options ----------------------------------------------------------------------------------

def options_read(definitions: Iterable[ast.Definition]) -> list[str]:
    """The game options content knows: the names its cards test with `option(NAME)`."""
    return sorted({n.name for n in option_calls(definitions)})


def option_calls(definitions: Iterable[ast.Definition]) -> list[ast.Name]:
    """The NAME of every `option(NAME)` in the definitions, in order (with its span)."""
    found: list[ast.Name] = []

    def expr(e) -> None:
        if isinstance(e, ast.Call):
            if e.func == "option" and e.args and isinstance(e.args[0], ast.Name):
                found.append(e.args[0])
            for a in (*e.args, *(k.value for k in e.kwargs)):
                expr(a)
        elif isinstance(e, ast.BinOp):
            expr(e.left)
            expr(e.right)
        elif isinstance(e, ast.Not):
            expr(e.operand)
        elif isinstance(e, ast.Attribute):
            expr(e.obj)
        elif isinstance(e, ast.ListExpr):
            for a in e.items:
                expr(a)

    def block(b: ast.Block | None) -> None:
        for s in b.statements if b else ():
            for a in (*s.args, *(k.value for k in s.kwargs)):
                expr(a)
            block(s.block)

    for d in definitions:
        block(d.block)
    return found


def name_or_folder(value: object, what: str) -> str:
    """A game or an expansion a caller gave, by name or by folder (a string or a path); anything
    else is a TypeError naming its type (read as a file name, a loaded ruleset made an error
    message of its whole text)."""
    if isinstance(value, str):
        return value
    if isinstance(value, PathLike):
        path = fspath(value)
        if isinstance(path, str):
            return path
    raise TypeError(f"{what} is a name or a folder (a string or a path), not {type(value).__name__}")


def layers_given(expansions: object, base: object) -> tuple[list[str], str | None]:
    """The expansions (`names_given`) and the base game a caller gave, each by name or folder
    (a base of None stays None: `pipeline.layers_of` makes it the game the expansions name)."""
    return ([name_or_folder(e, "an expansion") for e in names_given(expansions)],
            None if base is None else name_or_folder(base, "the base game"))


def names_given(value: object) -> list:
    """Names a caller gave: one name alone (a string, or a path) is one name, not a list of its
    letters; anything else is listed."""
    if isinstance(value, (str, PurePath)):
        return [str(value)]
    return list(value)   # type: ignore[call-overload]


def check_options(known: Iterable[str], options: Iterable[str] | str) -> list[str]:
    """The options a game is created with, sorted; each must be one the content reads (`known`).
    A single string is one option, not a list of letters."""
    allowed = set(known)
    chosen = names_given(options)
    for o in chosen:
        if not isinstance(o, str) or o not in allowed:
            raise UnknownName("game option", o, sorted(allowed))
    return sorted(chosen)


# -- numbers a caller gives ----------------------------------------------------------------------

def integer(value: object, what: str, least: int | None = None, takes: str | None = None,
            wrong_type: type[Exception] = TypeError) -> int:
    """An integer a caller gave (numpy's integers taken as their value): `wrong_type` (TypeError)
    for anything else, a float, a string or a bool; ValueError below `least`.  The message says
    `what` must be `takes` (default: an integer, of at least `least`)."""
    takes = takes or "an integer" + (f" of at least {least}" if least is not None else "")
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise wrong_type(f"{what} must be {takes}, not {value!r}")
    number = operator.index(value)
    if least is not None and number < least:
        raise ValueError(f"{what} must be {takes}, not {value!r}")
    return number


# -- agents and seats ------------------------------------------------------------------------------

def check_agent(name: str, agents: Iterable[str]) -> str:
    """An agent name (`agents`: the names accepted where it is used)."""
    allowed = list(agents)
    if not isinstance(name, str) or name not in allowed:
        raise UnknownName("agent", name, allowed)
    return name


def agent_list(text: str) -> list[str]:
    """A comma-separated line-up, one agent per seat (spaces around a name ignored).  An empty
    entry (two commas, a comma at an end) is a ValueError: dropped, it shifted the seats that
    followed, or passed a line-up one seat short."""
    names = [a.strip() for a in text.split(",")]
    if "" in names:
        raise ValueError(f"an empty agent name in {text!r} (agent {names.index('') + 1}): "
                         "one name per seat, comma-separated")
    return names


def check_agents(names: Iterable[str], players: int, agents: Iterable[str]) -> list[str]:
    """One agent per seat."""
    allowed = list(agents)
    chosen = [check_agent(n, allowed) for n in names_given(names)]
    if len(chosen) != players:
        raise ValueError(f"{len(chosen)} agent{'s' if len(chosen) != 1 else ''} given, the game has {players} "
                         f"seats: one agent per seat, each one of: {', '.join(allowed)}")
    return chosen


def check_seat(seat: object, players: int) -> int:
    """A seat (player index): an int from 0 up to the number of players, exclusive."""
    if type(seat) is int and 0 <= seat < players:   # (asked at every call a bot makes: no list then)
        return seat
    known = [str(p) for p in range(players)]
    if isinstance(seat, bool) or not isinstance(seat, int):
        # Not an int: shown as Python writes it (the string "0" as `'0'`, not as the seat `0`),
        # and said so (it read "unknown seat `0`; did you mean `0`?").
        error = UnknownName("seat", repr(seat), known)
        error.help = None
        error.args = (f"unknown seat {quoted(error.name)}: a seat is an int, not {type(seat).__name__}; "
                      f"seats: {', '.join(known)}",)
        raise error
    if not 0 <= seat < players:
        raise UnknownName("seat", str(seat), known)
    return seat
