"""A game played out by its agents, with random seats' turns taken in numbers.

A random seat's turn (`RandomAgent`) is a binding drawn by the function written for the content
(`spaces`), which `Game._apply` would receive named as an `Action` and decode into the same
numbers again.  Here the drawn numbers start the action directly; the history still names it.
The game is the one `Game._apply(agent.act(game))` plays, action for action and random number
for random number (tests/test_playout.py).  A random seat's choice in a simultaneous round is
drawn as `random_action` draws it, without asking the agent, and kept in numbers for the round
to resolve (`turns.choose`) beside the name the history holds.  A random seat's answer to a
pending decision is drawn by number among its answers (the one `random_action` draws from the
list, `decisions.answer_at`) and started from the number (`decisions.answer_number`), the
history naming it.  Other agents, and turns of
content where a name can stand for several items (copies) or an action names a payment to
neighbours, go through `act` and `_apply` as always."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from . import turns, undo
from .random_agent import Agent, RandomAgent
from .budget import MAX_GAME_ACTIONS, EffectFailed, GameTooLong
from .actions import Action
from .decisions import answer_count, answer_number
from .legality import below_of, drawn_among, named, not_stuck
from .game import Game
from .trade import pay_label


def play_out(g: Game, agents: Sequence[Agent], after: Callable[[Game], object] | None = None,
             trusted: bool = False) -> None:
    """Play `g` to its end, the agent of each seat choosing its actions; `after(g)`, when given,
    is called after every action (a turn, a seat's choice in a round, an answer to a decision),
    as a loop of `g.apply(agent.act(g))` would call it after each.  An agent's answer is checked
    as `apply` checks it (IllegalAction, the game as it was before it) unless the agent is a
    `RandomAgent` or the caller vouches for every agent (`trusted`: the bundled agents, made by
    name), whose answers are taken from the legal actions."""
    seated(g, agents)
    play = g._apply if trusted else g.apply
    st = g.state
    content = g.content
    history = st.history
    turn = g._turn   # (a random seat's turn: its draw, named and started, written for the content)
    direct = not (g.copied_names or content.trade_base) and len(g.action_by_name) == len(content.actions)
    belows = [below_of(a.rng) if type(a) is RandomAgent else None for a in agents]   # (as `random_action` draws)
    # (a bound on the actions, `MAX_GAME_ACTIONS`: content whose game never ends stops with an
    # error, not a run that never returns; a loop over a range costs two bytecodes an action)
    if not any(belows):
        for _ in range(MAX_GAME_ACTIONS):
            if st.flow == "over":
                return
            play(_acted(g, agents))
            if after is not None:
                after(g)
        too_long(g)
    every_seat_random = all(b is not None for b in belows)
    # (seats that take turns: no round to look for first, the hot path of Duel's games)
    turn_based = direct and turn is not None
    max_steps = g.max_steps
    held = st.pending   # (the caller's, maybe kept: not refilled)
    for _ in range(MAX_GAME_ACTIONS):
        if st.flow == "over":
            return
        if st.pending is None:
            if turn_based:
                below = belows[st.current]
                if below is not None:
                    # `Game._apply` of the action `random_action` would name, without the names:
                    # the written turn draws it, names it in the history and starts it
                    g.steps_left = max_steps
                    drawn = len(history)
                    try:
                        turn(g, st.current, below)
                    except EffectFailed as exc:
                        if len(history) == drawn:   # (the draw itself: no action to undo, as ever)
                            raise
                        entry = history[drawn]
                        undo.undo_last(g, (drawn, []))
                        raise exc.for_action(Action(entry[0], tuple(entry[1:]))) from None
                    if after is not None:
                        after(g)
                    continue
            elif st.flow == "round":
                # (a whole round where no seat has chosen yet: the first to choose is the first
                # acting seat, and no later one chose before it, as `apply(action, seat)` may)
                if (every_seat_random and g._draw_in_round is not None and st.current == st.acting[0]
                        and st.choices.count(None) == len(st.choices) and after is None):
                    _whole_round(g, belows)   # (not where `after` asks to see each choice)
                    continue
                # `random_action` of the first seat still to choose
                me = st.current   # (`to_move`: a round keeps it on the first seat still to choose)
                below = belows[me]
                if below is not None:
                    # `Game._apply` of the action `random_action` would name, kept in numbers too
                    if g._draw_in_round is not None:
                        act, binding, pay, pools = g._draw_in_round(g, me, below)
                    else:
                        spaces, total = g._open_spaces(g, me)
                        act, binding, pay, pools = drawn_among(g, me, below, spaces, total)
                    action = named(g, act, binding, pay)
                    g.steps_left = g.max_steps
                    before = (len(history), st.choices[:])
                    try:
                        turns.choose(g, None, action, (act, binding, pay or None, pools))
                    except EffectFailed as exc:
                        undo.undo_last(g, before)
                        raise exc.for_action(named(g, act, binding, pay)) from None
                    if after is not None:
                        after(g)
                    continue
        else:
            d = st.pending
            below = belows[d.player]
            n = answer_count(d)
            if below is not None and n:
                # `Game._apply` of `random_action`'s answer to a pending decision, drawn by
                # number, its body started from the number (the history still names it);
                # `below`'s numbers drawn with its `bits` where it says how (no call per answer)
                bits = below.bits
                if bits is None:
                    k = below(n)
                else:
                    nb = n.bit_length()
                    k = bits(nb)
                    while k >= n:
                        k = bits(nb)
                g.steps_left = g.max_steps
                before = (len(history), st.choices[:]) if st.choices else None
                st.pending = None
                spent = after is None and d is not held   # (nothing else sees it: see `decisions.made`)
                entry = answer_number(g, d, k, spent)
                history.append(entry)
                if spent:
                    g._spare_decision = d
                try:
                    turns.advance(g)
                except EffectFailed as exc:
                    undo.undo_last(g, before)
                    raise exc.for_action(Action(entry[0], tuple(entry[1:]))) from None
                if after is not None:
                    after(g)
                continue
        # (a random seat here: content with copies or payments, its answer from `random_action`)
        (g._apply if belows[g.to_move()] is not None else play)(_acted(g, agents))
        if after is not None:
            after(g)
    too_long(g)


def seated(g: object, agents: object) -> None:
    """`play_out`'s game and line-up: a `Game`, and a sequence of one agent (an object with
    `act(game)`) per seat.  (One agent too many was ignored, one too few failed at the seat
    without one, and a name or a bare agent failed on an attribute.)"""
    if not isinstance(g, Game):
        raise TypeError(f"play_out plays a Game, not {type(g).__name__}")
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list of agents, one per seat, not {type(agents).__name__}")
    players = g.state.players
    if len(agents) != players:
        raise ValueError(f"{len(agents)} agent{'s' if len(agents) != 1 else ''} given, the game has {players} seats: "
                         "one agent per seat")
    for p, agent in enumerate(agents):
        if not callable(getattr(agent, "act", None)):
            raise TypeError(f"the agent of seat {p} is a {type(agent).__name__}, which has no act(game): an agent "
                            "is an object with act(game) -> Action, e.g. RandomAgent(seed)")


def _acted(g: Game, agents: Sequence[Agent]) -> Action:
    """What the agent of the seat to move chooses; GameStuck where that seat has nothing to
    choose from (an agent would fail on an empty list its own way)."""
    me = g.to_move()
    not_stuck(g, me)
    return agents[me].act(g)


def too_long(g: Game) -> None:
    """After `MAX_GAME_ACTIONS` actions of a loop playing `g` out: GameTooLong unless it ended."""
    if g.state.flow != "over":
        history = g.state.history
        last = Action(history[-1][0], tuple(history[-1][1:])) if history else None
        raise GameTooLong(MAX_GAME_ACTIONS, last)


def _whole_round(g: Game, belows: list) -> None:
    """A round no seat has chosen in yet, every seat random: what `turns.choose` of each seat's
    drawn action in seat order does, with the round resolved once the last has chosen.  A
    seat's draw reads nothing another seat's choice changes (the round's kept candidates, its
    coins, its prices), so drawing them one after another is drawing them between choices."""
    st = g.state
    history = st.history
    choices = st.choices
    kept = g._round_pools
    draw = g._draw_in_round
    item_names = g.item_names
    for me in st.acting:
        act, binding, pay, pools = draw(g, me, belows[me])
        choice = [act.name]   # (what `named` names, without the `Action` between)
        for item in binding:
            choice.append(item_names[item])
        if pay:
            choice.append(pay_label(pay))
        choices[me] = choice
        kept[("drawn", me)] = (choice, (act, binding, pay or None, pools))
        history.append(choice[:])
    # (the state before the last seat's choice, which resolves the round: `undo.undo_last`)
    before = (len(history) - 1, choices[:])
    before[1][st.acting[-1]] = None
    st.current = st.acting[-1]   # (where `choose` leaves it: on the last seat to choose)
    g.steps_left = g.max_steps
    try:
        turns.resolve_round(g)
        turns.advance(g)
    except EffectFailed as exc:
        undo.undo_last(g, before)
        raise exc.for_action(named(g, act, binding, pay)) from None
