"""The turn flow: set-up, ages, turns, the end of an age and of the game.

A game says how a turn goes (`turns alternate | simultaneous`):
- alternate (Duel): one seat's turn after another's, extra turns, an optional first action;
- simultaneous (classic): a *round* in which every seat that can act chooses an action without
  seeing the others' (`choose`), then all resolve together (`resolve_round`): every payment
  first, from the coins held at the start of the round, then each seat's effects in seat order.
After a turn or round: its `after_turn` blocks, then (simultaneous) the `after_round` hook and
the seats that play again; then the age may end (`age_ends when`, or its structure is empty):
the `end_of_age` hook, then `between_ages` and the next age, or after the last one the
`end_of_game` hook and the final scoring.

`state.flow` says where the game stands between steps:
setup -> age_setup -> turn -> (before_action -> turn ->) action -> turn ... -> end_of_age -> between -> ...
                   -> round -> resolve -> after_round -> round ... -> end_of_age -> ... -> end_of_game -> over
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import decisions, economy, events, legality, machine, scoring, structure
from .actions import Action
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def start(g: Game) -> None:
    g.state.flow = "setup"
    machine.push(g, g.content.setup, 0, {})
    advance(g)


def advance(g: Game) -> None:
    """Run until a player must decide something or the game ends."""
    st = g.state
    content = g.content
    blocks = content.blocks
    frames = st.frames
    spare = g._spare_frames
    while True:
        if st.pending is not None or st.flow == "over":
            return
        if frames:
            # `machine.run`, written in (one call fewer a pass): the same steps, the same budget.
            left = g.steps_left
            while frames:
                f = frames[-1]
                pc = f.pc
                if pc >= f.stop:
                    spare.append(frames.pop())   # (a finished block's frame: see `machine.frame`)
                    continue
                left -= 1
                if left < 0:
                    g.steps_left = left
                    raise machine.out_of_steps(g)
                f.pc = pc + 1
                blocks[f.block].steps[pc](g, f)
                if st.pending is not None:   # (only a decision stops the loop: see `machine.run`)
                    g.steps_left = left
                    return
            g.steps_left = left
            if st.flow == "over":   # (a step that ended the game took the stack away)
                return
        flow = st.flow
        # (Tested in this order: first the flows that every action or round passes through.)
        if flow == "action":
            end_turn(g)
            if st.flow == "turn":
                return
        elif flow == "resolve":
            if st.deferred:
                machine.schedule(g, st.deferred)
                st.deferred = []
                continue
            st.flow = "after_round"
            if content.after_round >= 0:
                machine.push(g, content.after_round, 0, {})
        elif flow == "after_round":
            end_round(g)
            if st.flow == "round":
                return
        elif flow == "round":
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
        elif flow == "age_setup":
            st.starter_named = False   # (the age begins: who starts the next one is not said yet)
            if content.simultaneous:
                begin_round(g, list(range(st.players)))
                if st.flow == "round":
                    return
                continue
            st.flow = "turn"
            st.current = st.next_starter
            st.play_again = False
            st.before_used = False
            return
        elif flow == "setup":
            begin_age(g, 0)
        elif flow == "between":
            begin_age(g, st.age + 1)
        elif flow == "end_of_age":
            if st.age + 1 >= len(content.ages):
                st.flow = "end_of_game"
                ended = _every_seat(g, "game_ended")
                if content.end_of_game >= 0:
                    ended.append(_hook(g, content.end_of_game, 0))
                machine.schedule(g, ended)
            else:
                st.flow = "between"
                if not st.starter_named:   # (a card of the age that named one decides)
                    st.next_starter = st.last_actor
                if content.between_ages >= 0:
                    machine.push(g, content.between_ages, st.last_actor, {})
        elif flow == "end_of_game":
            finish(g)
            return
        else:
            return


def _every_seat(g: Game, event: str) -> list[Frame]:
    """The frames an event of every seat, in seat order, sets off."""
    frames: list[Frame] = []
    if event in g.content.triggers_by_event:   # (an event nothing hears: no call for each seat)
        for p in g.seats:
            frames += events.event_frames(g, event, p)
    return frames


def _hook(g: Game, block: int, me: int) -> Frame:
    return machine.frame(g, block, g.block_stops[block], me, {})


def begin_age(g: Game, age: int) -> None:
    st = g.state
    st.age = age
    st.flow = "age_setup"
    machine.push(g, g.content.ages[age], st.next_starter, {})


def age_ended(g: Game) -> bool:
    """Whether the age is over: the game's `age_ends when` condition, or else its structure is empty."""
    cond = g.content.age_ends
    if cond is not None:
        return bool(cond(g, g._reading[0]))
    return structure.exhausted(g)


def end_age(g: Game) -> None:
    """The age is over: its `end_of_age` hook and `age_ended` events run, then the next age or the end."""
    st = g.state
    st.play_again = False  # an extra turn is lost when the age ends
    st.before_used = False
    st.again = []
    st.acting = []
    st.flow = "end_of_age"
    frames = _every_seat(g, "age_ended")
    if g.content.end_of_age >= 0:
        frames.append(_hook(g, g.content.end_of_age, 0))
    machine.schedule(g, frames)


def end_turn(g: Game) -> None:
    st = g.state
    if st.deferred:
        machine.schedule(g, st.deferred)  # `after_turn` blocks end the turn
        st.deferred = []
        st.flow = "action"
        return
    # (`structure.uncover` asked only when a card may have come free: most turns none has.  No
    # slots kept, None, where the cover counts are not kept either.)
    freed = g._to_uncover
    while (freed is None or freed) and st.layout and structure.uncover(g):
        # Effects of uncovering run first, and the turn ends when they are done: run here, as
        # `advance` would run them and then end the turn again, unless one of them asks a
        # decision, ends the game or leaves `after_turn` blocks (then `advance` goes on).
        st.flow = "action"
        machine.run(g)
        if st.pending is not None or st.flow != "action" or st.deferred:
            return
        freed = g._to_uncover
    if g.content.age_ends is None:
        left = g._structure_at   # (`structure.exhausted`, inline while the cards left are kept)
        if not left and (structure.exhausted(g) if left is None else bool(st.structure)):
            end_age(g)
            return
    elif age_ended(g):
        end_age(g)
        return
    if st.play_again:
        st.play_again = False
    else:
        st.current = g.next_seat[st.current]  # seats.left_of, read from a table made once
    st.before_used = False
    st.flow = "turn"


# -- simultaneous rounds ----------------------------------------------------------------------------
def begin_round(g: Game, candidates: list[int]) -> None:
    """A new round for the seats among `candidates` that have a legal action; when none has,
    the age ends (nothing could ever happen in it again)."""
    acting = _able(g, candidates)
    if not acting:
        end_age(g)
        return
    _open_round(g, acting)


def _able(g: Game, candidates: list[int]) -> list[int]:
    """The seats among `candidates` that have a legal action, as a round sees them."""
    g._round_pools.clear()
    g.state.flow = "round"   # (the candidates worked out now are kept while the round waits)
    acting = []   # (a loop: a comprehension would make `g` a cell for the whole function)
    free = g._round_free
    for p in candidates:
        # (`legality.can_act`, whose first question, in a round, is the flag the seat's record
        # keeps: asked of the actions that need no check alone, the record made when the seat
        # draws; a copy that only looks at how the round ended never makes it)
        if free is not None and free(g, p) or legality.can_act(g, p):
            acting.append(p)
    return acting


def _open_round(g: Game, acting: list[int]) -> None:
    st = g.state
    st.flow = "round"
    st.acting = acting
    st.choices = [None] * st.players
    st.current = acting[0]


def waiting(g: Game) -> list[int]:
    """The seats of this round that have not chosen yet."""
    st = g.state
    return [p for p in st.acting if st.choices[p] is None]


def choose(g: Game, seat: int | None, action: Action, drawn: tuple | None = None) -> None:
    """Seat `seat` (None: the first that has not chosen) commits its action for this round
    (known legal).  Choices enter the history in seat order, as the run of chosen seats from
    the round's first grows (a replay, which acts for `to_move`, meets them in the same order);
    the round resolves when the last seat has chosen.  `drawn`: the action in numbers (action
    definition, items, payment or None, the candidates the items were drawn from), as a random
    seat drew it, kept with the round's candidates so that the round need not decode the names
    again."""
    st = g.state
    acting, choices = st.acting, st.choices
    # (Where every seat acts, as in most rounds, a seat's index among them is its seat: the
    # runs of chosen seats are found by list methods.  A seat still to choose is this one.)
    everyone = acting == g.seat_list
    before = choices.index(None) if everyone else _chosen_run(g)
    if seat is None:
        seat = acting[before]
    choices[seat] = choice = [action.name, *action.args]
    if drawn is not None:
        g._round_pools[("drawn", seat)] = (choice, drawn)
    if everyone:
        after = choices.index(None, before) if None in choices else len(choices)
    else:
        after = before
        while after < len(acting) and choices[acting[after]] is not None:
            after += 1
    for p in acting[before:after]:
        st.history.append(list(choices[p]))
    if after == len(acting):
        # (on the round's last seat, where seats choosing in order leave it: whatever order the
        # seats chose in, the state after the round is the same)
        st.current = acting[-1]
        resolve_round(g)
        advance(g)
    else:
        st.current = acting[after]   # the first seat still to choose


def _chosen_run(g: Game) -> int:
    """How many of the round's seats, from its first, have chosen."""
    st = g.state
    n = 0
    choices = st.choices
    for p in st.acting:
        if choices[p] is None:
            break
        n += 1
    return n


def resolve_round(g: Game) -> None:
    """All seats have chosen: every payment first (each computed from the state at the start of
    the round, so coins received this round cannot be spent in it and a card built this round
    sells nothing in it), then each seat's action in seat order (each after what its payments
    set off, each finished, with what it set off, before the next starts)."""
    st = g.state
    plans = []
    kept = g._round_pools
    # (items the seats before have chosen in this round, where seats may choose the same)
    claimed: set[int] | None = set() if g.content.shared_picks else None
    for p in st.acting:  # (decoded with the candidates the round kept: nothing has moved yet)
        choice = st.choices[p]
        drawn = kept.get(("drawn", p))
        if drawn is not None and drawn[0] is choice:   # (a seat's choice is replaced, never changed)
            act, binding, pay, pools = drawn[1]
            if g.copied_names:
                binding = legality.canonical(g, act, binding, p, pools)
        else:
            name, *args = choice
            act, binding, pay = legality.decode(g, Action(name, tuple(args)), p)
        if claimed is not None and act.takes:
            taken = list(map(binding.__getitem__, act.takes))   # (no comprehension: no cell)
            if claimed and not claimed.isdisjoint(taken):
                # Seats before in seat order chose to take the same item (from a zone seats
                # share): this one takes another copy of it where one is left, else its action is
                # void: nothing is paid and nothing happens (before, each moved the one item in
                # turn, and paid).
                binding = _unclaimed(g, act, binding, p, claimed)
                if binding is None:
                    continue
                taken = list(map(binding.__getitem__, act.takes))
            claimed.update(taken)
        # (an action that builds nothing it pays for pays nothing before it resolves)
        plans.append((p, act, binding, economy.round_payment(g, p, act, binding, pay) if act.paid else None))
    g._round_pools.clear()
    st.turn += 1
    st.flow = "resolve"
    actions = []   # (seat, action, binding, the frames of what its payments set off)
    stacked = len(plans)   # (the frames the frame loop would put on the stack at once)
    for p, act, binding, payment in plans:
        if payment is None:
            actions.append((p, act, binding, []))
        else:
            heard = _paid(g, p, payment)
            if heard:
                stacked += len(heard)
            actions.append((p, act, binding, heard))
    st.last_actor = st.acting[-1]
    st.acting = []
    st.choices = []
    # Each action runs as its frame would, first on the stack, in seat order (what its payments
    # set off before it): run here while the stack is empty and the budget holds, by the
    # action's runner written for the content (interpreter/starters.py); once one hands over
    # (pushes a block, asks a decision), what is left goes under it for the frame loop.
    runs = g._round_starts
    if stacked > g.max_steps:   # (more than the budget waiting at once: the frame loop's error)
        runs = None
    for k, (p, act, binding, heard) in enumerate(actions):
        if runs is None or heard or st.frames or g.steps_left <= g.block_stops[act.block]:
            machine.schedule(g, _round_frames(g, actions[k:]))
            return
        if runs[act.id](g, p, *binding):
            if st.flow != "over":   # (a game that ended took the stack away: nothing more runs)
                machine.schedule_under(g, _round_frames(g, actions[k + 1:]))
            return


def _unclaimed(g: Game, act, binding: list[int], p: int, claimed: set[int]) -> list[int] | None:
    """Seat p's binding with each item it takes that another seat claimed this round replaced by
    another copy of it among the parameter's candidates; None where some item has none left."""
    names = g.item_names
    pools = None
    out: list[int] = []
    for k, item in enumerate(binding):
        if k not in act.takes or item not in claimed:
            out.append(item)
            continue
        if names[item] not in g.copied_names:
            return None
        if pools is None:
            pools = legality.pools_of(g, act, p)
        other = next((i for i in pools[k] if names[i] == names[item] and i not in claimed and i not in out), -1)
        if other < 0:
            return None
        out.append(other)
    return out


def _paid(g: Game, p: int, payment) -> list[Frame]:
    """Seat p pays what `economy.round_payment` worked out: the bank and each seller, the items
    paid for kept as paid (`build` pays them no more); the frames of the `traded` it sets off."""
    st = g.state
    bank, to_seats, paid, trades = payment
    economy.spend(g, p, bank + sum(to_seats.values()))
    for item in paid:
        st.prepaid[item] = p
    return economy.pay_sellers(g, p, to_seats.items(), trades)


def _round_frames(g: Game, actions: list) -> list[Frame]:
    """The frames of a round's actions, in order, each after what its payments set off."""
    frames: list[Frame] = []
    for p, act, binding, heard in actions:
        names = act.param_names
        env = {names[0]: binding[0]} if len(names) == 1 else dict(zip(names, binding))
        frames += heard
        frames.append(machine.frame(g, act.block, g.block_stops[act.block], p, env))
    return frames


def end_round(g: Game) -> None:
    st = g.state
    st.prepaid.clear()
    # Face-down structure cards that nothing covers any more are turned up, as at the end of a
    # turn; what that sets off runs first (a decision it asks: the round's end goes on once it
    # is answered, and finds nothing more to turn up).
    if st.layout:
        st.current = st.last_actor   # (the `uncovered` event is the round's last seat's)
        while structure.uncover(g):
            machine.run(g)
            if st.pending is not None or st.flow != "after_round":
                return
    if st.again:
        again, st.again = sorted(set(st.again)), []
        acting = _able(g, again)
        if acting:
            _open_round(g, acting)
            return
        # (none of them has anything to do: the extra round is lost, as an extra turn at the end
        # of an age is, and the game goes on as after any round)
    if age_ended(g):
        end_age(g)
        return
    begin_round(g, list(range(st.players)))


# -- the end ------------------------------------------------------------------------------------------
CIVILIAN = "civilian"   # the victory by points at the end of the last age (`win` names the others)


def finish(g: Game) -> None:
    """The end of the last age: the civilian victory (or a draw) by the scores."""
    st = g.state
    st.flow = "over"
    st.frames.clear()
    st.pending = None
    scores = [scoring.score(g, p) for p in range(st.players)]
    st.winner = scoring.civilian_winner(g, scores)
    st.victory = CIVILIAN
    g._ended_scores = scores   # (what a simulation reports: nothing changes once the game is over)


def win(g: Game, p: int, victory: str) -> None:
    """An immediate victory (military, science, ...): the game ends now."""
    st = g.state
    st.flow = "over"
    st.winner = p
    st.victory = victory
    st.frames.clear()
    st.pending = None


def grant_play_again(g: Game, p: int) -> None:
    st = g.state
    if g.content.simultaneous:
        st.again.append(p)
    elif p == st.current:
        st.play_again = True


def set_next_starter(g: Game, p: int) -> None:
    st = g.state
    st.next_starter = p
    st.starter_named = True


def after_turn(g: Game, block: int, f: Frame) -> None:
    """Run a block at the end of the current turn (round), as the same player."""
    g.state.deferred.append(machine.frame(g, block, g.block_stops[block], f.me, dict(f.env)))


def to_act(g: Game) -> list[int]:
    """The seats that must act now: the one answering a decision, this round's seats that have
    not chosen, or the seat whose turn it is; none when the game is over."""
    st = g.state
    if st.flow == "over":
        return []
    if st.pending is not None:
        return [st.pending.player]
    if st.flow == "round":
        return waiting(g)
    return [st.current]


def run_action(g: Game, action: Action, seat: int | None = None, drawn: tuple | None = None) -> None:
    """Apply an action known to be legal: the answer to a pending decision, a seat's choice in a
    simultaneous round (`drawn`: in numbers, see `choose`), or a turn's action."""
    st = g.state
    if st.pending is not None:
        st.history.append([action.name, *action.args])
        d = st.pending
        st.pending = None
        decisions.answer(g, d, action)
        advance(g)
        return
    if st.flow == "round":
        choose(g, seat, action, drawn)
        return
    st.history.append([action.name, *action.args])
    if g.copied_names or g.content.trade_base:
        act, binding, pay = legality.decode(g, action, st.current)
        if g.content.trade_base and act.paid:
            # Neighbours sell in a game of turns too: the action pays them as it names (before,
            # `build` paid the whole price to the bank), and what that sets off runs first.
            heard = _paid(g, st.current, economy.round_payment(g, st.current, act, binding, pay))
            if heard:   # (the turn as the action's starter begins it, its frame under what the payment set off)
                st.turn += 1
                me = st.last_actor = st.current
                st.flow = "before_action" if act.before_turn else "action"
                machine.schedule(g, heard + [machine.frame(g, act.block, g.block_stops[act.block], me,
                                                           dict(zip(act.param_names, binding)))])
                advance(g)
                return
    else:  # every name is one item and no payment is named: the hot path of alternate turns
        index = g.content.item_index
        act, binding = g.action_by_name[action.name], list(map(index.__getitem__, action.args))
    start_action(g, act, binding)


def start_action(g: Game, act, binding: list[int]) -> None:
    """Start action `act` with its parameters bound to `binding` as the current seat's turn, and
    run it until a decision is asked or the turn is over: the action's starter, written for the
    content (interpreter/starters.py)."""
    g._starts[act.id](g, *binding)
