"""Undoing a runaway action: a game keeps a copy of the state before its first checked action;
an action that exceeds the step budget is undone by replaying, on a copy of that state, the
actions applied since (a game is deterministic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from . import core, turns
from .actions import Action
from .persistence import copy_state
from .state import State

if TYPE_CHECKING:
    from .game import Game


def snapshot(g: Game) -> None:
    """Keep a copy of the state before this game's first checked action (or after `state`
    was replaced): a runaway action is undone by replaying the actions applied since, so a
    position set up by hand before it is kept."""
    g._origin_of = g.state
    g._origin = (copy_state(g.state), len(g.state.history))


def undo_last(g: Game, before: tuple[int, list] | None = None) -> None:
    """Put the state back as it was before the last action: replay the actions before it (a
    game is deterministic) on a copy of the snapshot, or without one from the game's seed.
    `before`: the history's length and the round's choices before that action (a choice that
    completes a simultaneous round may add several entries; choices made out of seat order are
    not in the history yet)."""
    Game = type(g)  # the façade's class, without importing the module that binds this one
    st = g.state
    unlimited = 2**62
    if g._origin_of is st:
        saved, known = g._origin
        # (the game's own state, from before its first action: not checked again as a save is,
        # whose script must still be drawable; a script that is not is what may be undone here)
        again = Game.__new__(Game)
        again._adopt(g.content, copy_state(saved), unlimited)
    else:
        known = 0
        again = Game.create(g.content, seed=st.seed, options=st.options, script=st.setup_script or None,
                            max_steps=unlimited)
    end = before[0] if before is not None else len(st.history) - 1
    history, replayed = st.history, again.state.history
    offset = len(replayed) - known   # (the copy's history holds the entries before `known`)
    k = known
    while k < end:
        # (one choice may log several: a round's choices enter the history in seat order, so a
        # seat's choice logs those of later seats made before it, which the copy holds where
        # its state was saved in the middle of a round; replayed, they are not made again)
        h = history[k]
        turns.run_action(again, Action(h[0], tuple(h[1:])))
        k = max(k + 1, len(replayed) - offset)
    if before is not None and again.state.flow == "round":
        for p, choice in enumerate(before[1]):
            if choice is not None and again.state.choices[p] is None:
                again.state.choices[p] = choice
    for field in attrs.fields(State):
        setattr(st, field.name, getattr(again.state, field.name))
    core.clear_caches(g)
