"""The step budget: how much work one action (or the game's setup) may do before the engine
calls it a runaway effect (the figures are in rulesdsl/limits.py, shared with the checker); and
the error of an effect that cannot go on, of which a runaway is one kind.

A step is one statement run (`gain`, `run`, one round of `repeat`, ...); the effects waiting to
run (triggers set off by events) are bounded by the same number, so memory stays bounded too.
A `repeat` whose count is computed during the game may ask for at most `MAX_REPEAT` rounds.
"""

from __future__ import annotations

from rulesdsl.limits import DEFAULT_MAX_STEPS, MAX_GAME_ACTIONS, MAX_QUANTITY, MAX_REPEAT

__all__ = ["DEFAULT_MAX_STEPS", "MAX_GAME_ACTIONS", "MAX_REPEAT", "BudgetExceeded", "EffectFailed", "GameStuck", "GameTooLong",
           "ScriptedDrawFailed", "chain_of"]


class EffectFailed(RuntimeError):
    """An action's effects (or the setup's) cannot go on: what the content asked makes no sense
    in this game (a computed seat beyond the last), or they ran away (`BudgetExceeded`).
    `chain` names the definitions that were running, outermost first; the game is left exactly
    as it was before the action (`Game.apply` restores it)."""

    def __init__(self, what: str, chain: list[str], action: object = None):
        self.what = what
        self.chain = list(chain)
        self.action = action
        self.context = ""
        super().__init__(self._message())

    def _message(self) -> str:
        where = "the game's setup" if self.action is None else f"the action `{self.action}`"
        running = " -> ".join(self.chain) if self.chain else "no definition"
        return f"{self.context}{where}: {self.what} (running: {running})"

    def within(self, context: str) -> "EffectFailed":
        """The same error, saying where it happened (`game 3 (seed 21)`)."""
        self.context = f"{context}: "
        self.args = (self._message(),)
        return self

    def for_action(self, action: object) -> "EffectFailed":
        """The same error, told as caused by this action."""
        self.action = action
        self.args = (self._message(),)
        return self


class BudgetExceeded(EffectFailed):
    """An action's effects did not end within the step budget (or a `repeat` asked for more than
    MAX_REPEAT rounds)."""


class GameTooLong(BudgetExceeded):
    """A game played out by agents did not end within MAX_GAME_ACTIONS actions (content whose
    game never ends: an age that cannot end while some action stays legal).  The game is left
    as it stands after the last of them."""

    def __init__(self, actions: int, last: object = None):
        self.actions = actions
        super().__init__(f"the game did not end within {actions} actions", [], last)

    def _message(self) -> str:
        last = f" (the last: `{self.action}`)" if self.action is not None else ""
        return f"{self.context}{self.what}{last}"


class GameStuck(EffectFailed):
    """A seat must act and has no legal action: content that can leave a player nothing to do
    (every action that takes a card costs something or filters what it takes: `check` warns
    W504).  Raised before anything is applied: the game is left as it stands."""

    def __init__(self, seat: int):
        self.seat = seat
        super().__init__(f"player {seat} has no legal action: the game is stuck (content where a player can "
                         "be left with nothing to do; `rulesdsl check` warns W504)", [])

    def _message(self) -> str:
        return f"{self.context}{self.what}"


class ShortDeal(EffectFailed):
    """A deal of the set-up found fewer items than it asks for: the game went on with fewer
    (a deck too small for the set-up, content `check` reports as E409 where its trial game
    meets it).  Raised once the game is played, by what judges games: `simulate`, `balance`."""

    def __init__(self, zone: str, asked: int, found: int, age: int = 0):
        self.zone, self.asked, self.found, self.age = zone, asked, found, age
        super().__init__(f"{short_deal(zone, asked, found, age)}: the game went on with fewer (a deck too "
                         "small; `rulesdsl check` reports it, E409, where its trial game meets it)", [])

    def _message(self) -> str:
        return f"{self.context}{self.what}"


def short_deal(zone: str, asked: int, found: int, age: int = 0) -> str:
    """A deal of the set-up that came up short (an entry of `Game.short_draws`), in words: of the
    game's set-up (age 0), or of an age's (the structure of age 2 is no deal of the game's set-up)."""
    whose = f"age {age}'s set-up" if age > 0 else "the game's set-up"
    return f"a deal of {whose} draws {asked} from {zone}, which holds {found}"


def complete_deals(game) -> None:
    """ShortDeal where a deal of `game`'s set-up came up short (`Game.short_draws`)."""
    if game.short_draws:
        raise ShortDeal(*game.short_draws[0])


class ScriptedDrawFailed(EffectFailed, ValueError):
    """A draw the game's script names (`new_game(script=...)`) cannot happen: the item is not in
    the zone then.  An EffectFailed, so that an action drawing it is undone and the game left as
    it was; a ValueError, as `new_game` raises for a script of the set-up."""


def chain_of(frames: list[tuple[int, str]]) -> list[str]:
    """The definitions running, from (block, label) of each frame on the stack, outermost first.
    Nested blocks of one definition (an `if` body) count once; the walk stops at the first block
    that comes back, so a cycle shows as `procedure a -> procedure b -> procedure a`."""
    out: list[str] = []
    seen: set[int] = set()
    for block, label in frames:
        if block in seen:
            out.append(label)
            break
        seen.add(block)
        if not out or out[-1] != label:
            out.append(label)
    return out
