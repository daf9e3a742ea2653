"""Actions: plain, hashable, printable values a player (or agent) hands to `Game.apply`."""

from __future__ import annotations

from typing import NamedTuple

CHOOSE = "choose"
CHOOSE_PLAYER = "choose_player"
CHOOSE_SPACE = "choose_space"
CHOOSE_OPTION = "choose_option"
PASS = "pass"


class Action(NamedTuple):
    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.name, *(f'"{a}"' if " " in a else a for a in self.args)])

    @classmethod
    def parse(cls, text: str) -> "Action":
        """`build "My Card"` or `wonder Card Wonder` -> Action."""
        import shlex
        parts = shlex.split(text)
        if not parts:
            raise ValueError("empty action")
        return cls(parts[0], tuple(parts[1:]))


def player_label(p: int) -> str:
    return f"p{p}"


class IllegalAction(ValueError):
    """Raised by `Game.apply` for an action that is not legal now; the game is unchanged."""

    def __init__(self, action: object, reason: str):
        super().__init__(f"illegal action {action}: {reason}")
        self.action = action
        self.reason = reason
