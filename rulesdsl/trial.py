"""Trial games: the last part of `check`.  Content that checks clean is compiled at each player
count its game supports and `TRIAL_GAMES` random games are played at each; a count at which the set-up
finds a deck too small, the game gets stuck or fails, or does not end is an error (E409): "a clean
check means the content plays" at every count.  A deck too small is said at the deal that comes up
short where the decks can be counted (`starved_decks.short_deal`), the rest at the game's `players`
(a game that does not end at its `age_ends`)."""

from __future__ import annotations

import attrs

from .compiler import Compiler, label, player_range
from .diagnostics import Diagnostic, Span
from .limits import MAX_GAME_ACTIONS
from .loader import Merged
from .starved_decks import ShortDeal, short_deal


def trial_diagnostics(merged: Merged) -> list[Diagnostic]:
    """E409 for each player count at which a random game does not play to its end (a game
    stuck with no legal action too, where W504 warned that one may be: this one is)."""
    games = merged.by_kind("game")
    if not games:
        return []
    game = games[0]
    headers = [game] + merged.by_kind("expansion")
    low, high = player_range(headers)
    where = next((s.args[-1].span for s in game.block.statements if s.verb == "players" and s.args),
                 game.name_span) if game.block else game.name_span
    # (a game that does not end is most likely its `age_ends` condition: said there, not at `players`)
    ends = next((s.args[-1].span for s in game.block.statements if s.verb == "age_ends" and s.args),
                None) if game.block else None
    out = []
    for players in range(low, high + 1):
        problem = _trial(merged, players)
        if isinstance(problem, _Runaway):
            out.append(_runaway(merged, where, players, problem.exc))
        elif problem:
            short = _short_deal(merged, players, problem)
            span = ends if problem.hint is ENDLESS and ends is not None else where
            out.append(_short_error(players, short) if short is not None else _error(span, players, problem))
    return out


def _short_deal(merged: Merged, players: int, problem: _Problem) -> ShortDeal | None:
    """The deal written that came up short in a trial game, where the decks as counted by
    `starved_decks` find it (a deal the game's own rules fill otherwise is said at `players`)."""
    if problem.short is None:
        return None
    from .checker import declared_item_kinds
    zone, _asked, _found, age = problem.short
    return short_deal(merged, declared_item_kinds(merged), players, zone, age)


def _short_error(players: int, short: ShortDeal) -> Diagnostic:
    return Diagnostic("error", "E409", f"at {players} players the game cannot be played: {short.said(players)}",
                      short.statement.span,
                      f"`{short.zone}` is {short.needs - short.holds} short at {players} players: give it more "
                      "items at that count (`copies`), deal fewer, or change `players`")


@attrs.frozen
class _Problem:
    """Why a trial game does not play to its end, and what to look at."""

    text: str
    hint: str
    short: tuple | None = None   # the first deal that came up short (`Game.short_draws`), if that is the problem


SHORT = "check the copies and the deals for that many players, or change `players`"
ENDLESS = ("the game never reached its end: an age ends when the game's `age_ends` condition holds (without "
           "one, when its structure is empty), so some action must lead there; or end the game with `win`")
STUCK = ("keep an action that is always possible, such as one that takes a card for nothing, or one that takes "
         "no card (`action rest { gain 1 coin }`); `rulesdsl verify` finds such positions")
FAILED = "the game could not go on: `rulesdsl verify` plays such games and writes a trace that `replay` re-runs"


class _Runaway(Exception):
    """A trial game's effect that did not end (`BudgetExceeded`), or could not go on (another
    `EffectFailed` naming the definitions running: a number grown past the limit): reported
    where it runs."""

    def __init__(self, exc: Exception):
        super().__init__(str(exc))
        self.exc = exc


TRIAL_GAMES = 8   # random games per player count: content that fails one game in ten is found most times


def _trial(merged: Merged, players: int) -> "_Problem | _Runaway | None":
    """Why `TRIAL_GAMES` random games (`rulesdsl simulate`'s first games, run seed 0) at
    `players` do not all play to their end (the first reason found, in game order), or None."""
    from .interpreter.budget import BudgetExceeded, EffectFailed
    try:
        content = Compiler(merged, ["check"], players).compile()
    except Exception as exc:  # (content that does not compile at this count: the reason it does not play)
        return _Problem(f"a random game failed: {type(exc).__name__}: {exc}", FAILED)
    for index in range(TRIAL_GAMES):
        try:
            problem = _trial_game(content, index)
        except Exception as exc:  # anything a trial game raises is a reason the content does not play
            if isinstance(exc, BudgetExceeded) or isinstance(exc, EffectFailed) and exc.chain:
                return _Runaway(exc)   # (said where it runs)
            problem = _Problem(f"a random game failed: {type(exc).__name__}: {exc}", FAILED)
        if problem:
            return problem if not index else _Problem(
                f"{problem.text} (trial game {index + 1} of {TRIAL_GAMES}: `rulesdsl simulate`'s game {index})",
                problem.hint, problem.short)
    return None


def _trial_game(content, index: int) -> _Problem | None:
    """Why the random game `index` does not play to its end, or None: the very game `rulesdsl
    simulate -n 8` plays as its game `index` (its seed, its agents' seeds, `play_out`), so that
    content `check` accepts plays those games (trial games of their own seeds 0 to 7 let a
    designer's first `simulate` fail where `check` had passed)."""
    from .interpreter.agents import RandomAgent
    from .interpreter.budget import GameStuck, GameTooLong
    from .interpreter.chance import agent_seed, game_seed
    from .interpreter.game import Game  # the runtime, only when content is clean
    from .interpreter.playout import play_out
    seed = game_seed(0, index)
    game = Game.create(content, seed=seed)
    if game.short_draws:
        return _shortage(game)
    try:
        play_out(game, [RandomAgent(agent_seed(seed, p)) for p in range(game.state.players)])
    except GameTooLong:
        problem = _Problem(f"a random game did not end within {MAX_GAME_ACTIONS} actions", ENDLESS)
    except GameStuck as exc:
        problem = _Problem(f"the game gets stuck at action {len(game.state.history) + 1}: player {exc.seat} "
                           "has no legal action", STUCK)
    except Exception:
        if game.short_draws:   # (a deal came up short first: where the game went wrong)
            return _shortage(game)
        raise
    else:
        problem = None
    # A deal that came up short is the first thing that went wrong (the game played on past it).
    return _shortage(game) if game.short_draws else problem


def _shortage(game) -> _Problem:
    from .interpreter.budget import short_deal as said
    return _Problem(said(*game.short_draws[0]), SHORT, game.short_draws[0])


def _runaway(merged: Merged, players_span: Span, players: int, exc) -> Diagnostic:
    """E409 at the innermost definition the runaway effect was running (its name, or where an
    expansion last extends it), where the cause most likely is; at `players` when none of them
    is found."""
    labels = {label(d): d for d in merged.definitions}
    found = next((labels[name] for entry in reversed(exc.chain)
                  for name in labels if entry == name or entry.startswith(name + " ")), None)
    # (the last `extend` of it, where there is one: the part the designer most likely just wrote)
    extended = [c for c in merged.changes if c.modifier == "extend" and (c.kind, c.name) == (found.kind, found.name)] \
        if found is not None else []
    where = players_span if found is None else (extended[-1] if extended else found).name_span
    from .interpreter.budget import BudgetExceeded
    running = " -> ".join(exc.chain) or "no definition"
    if not isinstance(exc, BudgetExceeded):
        return Diagnostic("error", "E409", f"at {players} players a random game's effects failed: {exc.what} "
                                           f"(running: {running})", where,
                          "`running:` names the definitions, outermost first: the last is where it failed")
    return Diagnostic("error", "E409", f"at {players} players a random game's effects did not end: {exc.what} "
                                       f"(running: {running})", where,
                      "an effect that sets itself off again (or repeats) without end: give it a condition "
                      "that turns false; `running:` names the definitions, outermost first")


def _error(span: Span, players: int, problem: _Problem) -> Diagnostic:
    return Diagnostic("error", "E409", f"at {players} players the game cannot be played: {problem.text}", span,
                      problem.hint)


__all__ = ["trial_diagnostics"]
