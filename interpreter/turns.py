"""The turn flow: set-up, ages, one player's turn after the other's, extra turns, the end of an
age and of the game.  `state.flow` says where the game stands between steps:
setup -> age_setup -> turn -> (before_action -> turn ->) action -> turn ... -> between -> ... -> over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import decisions, machine, scoring, seats, structure
from .actions import Action

if TYPE_CHECKING:
    from .game import Game


def start(g: Game) -> None:
    g.state.flow = "setup"
    machine.push(g, g.content.setup, 0, {})
    advance(g)


def advance(g: Game) -> None:
    """Run until a player must decide something or the game ends."""
    st = g.state
    while True:
        machine.run(g)
        if st.pending is not None or st.flow == "over":
            return
        flow = st.flow
        if flow == "setup":
            begin_age(g, 0)
        elif flow == "between":
            begin_age(g, st.age + 1)
        elif flow == "age_setup":
            st.flow = "turn"
            st.current = st.next_starter
            st.play_again = False
            st.before_used = False
            return
        elif flow == "action":
            end_turn(g)
            if st.flow == "turn":
                return
        elif flow == "before_action":
            if structure.uncover(g):
                continue  # what the first action uncovered is turned up before the normal action
            st.flow = "turn"
            st.before_used = True
            if structure.exhausted(g):
                st.flow = "action"   # nothing left to take: the turn (and the age) ends
                continue
            return
        else:
            return


def begin_age(g: Game, age: int) -> None:
    st = g.state
    st.age = age
    st.flow = "age_setup"
    machine.push(g, g.content.ages[age], st.next_starter, {})


def end_turn(g: Game) -> None:
    st = g.state
    if structure.uncover(g):
        st.flow = "action"  # effects of uncovering run first; the turn ends when they are done
        return
    if structure.exhausted(g):
        st.play_again = False  # an extra turn is lost when the age ends
        st.before_used = False
        if st.age + 1 >= len(g.content.ages):
            finish(g)
            return
        st.flow = "between"
        st.next_starter = st.last_actor
        if g.content.between_ages >= 0:
            machine.push(g, g.content.between_ages, st.last_actor, {})
        return
    if not st.play_again:
        st.current = seats.opponent(g, st.current)
    st.play_again = False
    st.before_used = False
    st.flow = "turn"


def finish(g: Game) -> None:
    """The end of the last age: the civilian victory (or a draw) by the scores."""
    st = g.state
    st.flow = "over"
    st.frames.clear()
    st.pending = None
    st.winner = scoring.civilian_winner(g)
    st.victory = "civilian"


def win(g: Game, p: int, victory: str) -> None:
    """An immediate victory (military, science, ...): the game ends now."""
    st = g.state
    st.flow = "over"
    st.winner = p
    st.victory = victory
    st.frames.clear()
    st.pending = None


def grant_play_again(g: Game, p: int) -> None:
    if p == g.state.current:
        g.state.play_again = True


def set_next_starter(g: Game, p: int) -> None:
    g.state.next_starter = p


def run_action(g: Game, action: Action) -> None:
    """Apply an action known to be legal: the answer to a pending decision, or a turn's action."""
    st = g.state
    st.history.append([action.name, *action.args])
    if st.pending is not None:
        d = st.pending
        st.pending = None
        decisions.answer(g, d, action)
        advance(g)
        return
    act = next(a for a in g.content.actions if a.name == action.name)
    binding = [g.content.item_index[a] for a in action.args]
    start_action(g, act, binding)


def start_action(g: Game, act, binding: list[int]) -> None:
    st = g.state
    st.turn += 1
    st.last_actor = st.current
    st.flow = "before_action" if act.before_turn else "action"
    machine.push(g, act.block, st.current, {p.name: i for p, i in zip(act.params, binding)})
    advance(g)
