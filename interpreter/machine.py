"""The frame machine: a stack of frames (a block, the next step, whose it is, its names) run
step by step within the step budget of one action (interpreter/budget.py).  A step is one
compiled closure, called with the game and its frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .budget import MAX_QUANTITY, MAX_REPEAT, BudgetExceeded, EffectFailed, chain_of
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def set_budget(g: Game, max_steps: int) -> None:
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer of at least 1, not {max_steps!r}")
    g.max_steps = max_steps
    g.steps_left = max_steps
    # The state at this game's first action and its history length then (see `undo.snapshot`).
    g._origin_of = None
    g._origin = None
    g.short_draws = []   # (zone, asked, found, age: 0 the game's set-up): set-up draws the deck could not fill (see `dealing.draw`)


def frame(g: Game, block: int, stop: int, me: int, env: dict[str, Any]) -> Frame:
    """A frame to run `block` from its first step up to `stop`: a spare one refilled, or a new one.
    The frame loop keeps the frames of finished blocks as spares (`g._spare_frames`): nothing
    holds a frame once its block is done, and refilling one costs a third of making one (a
    random Duel game runs some 120 blocks, classic at 7 seats some 640)."""
    spare = g._spare_frames
    if spare:
        f = spare.pop()
        f.block = block
        f.pc = 0
        f.stop = stop
        f.me = me
        f.env = env
        return f
    return Frame(block, 0, stop, me, env)


def push(g: Game, block: int, me: int, env: dict[str, Any]) -> None:
    spare = g._spare_frames
    if spare:   # (`frame`, inline: the verb of every `if`, `run` and `each_player`)
        f = spare.pop()
        f.block = block
        f.pc = 0
        f.stop = g.block_stops[block]
        f.me = me
        f.env = env
        g.state.frames.append(f)
    else:
        g.state.frames.append(Frame(block, 0, g.block_stops[block], me, env))


def schedule(g: Game, frames: list[Frame]) -> None:
    """Run these frames next, in list order."""
    stack = g.state.frames
    # (A reversed copy, not `extend(reversed(frames))`: `extend` asks a `reversed` view for
    # its length hint through a method call, which cost more than the whole copy.)
    stack += frames[::-1]
    # Events may set off several triggers each: bound what waits to run, not only what runs.
    if len(stack) > g.max_steps:
        raise _too_many_waiting(g, stack)


def schedule_under(g: Game, frames: list[Frame]) -> None:
    """Run these frames, in list order, once what is on the stack now has run."""
    stack = g.state.frames
    stack[0:0] = frames[::-1]
    if len(stack) > g.max_steps:
        raise _too_many_waiting(g, stack)


def _too_many_waiting(g: Game, stack: list[Frame]) -> BudgetExceeded:
    return runaway(g, f"{len(stack)} effects are waiting to run, more than the budget of {g.max_steps} steps")


def run(g: Game) -> None:
    """Run steps until the stack is empty, a player must decide, or the game is over."""
    st = g.state
    if st.pending is not None or st.flow == "over":
        return
    blocks = g.content.blocks
    frames = st.frames
    spare = g._spare_frames
    left = g.steps_left
    while frames:
        f = frames[-1]
        pc = f.pc
        if pc >= f.stop:
            spare.append(frames.pop())   # (a finished block's frame: see `frame`)
            continue
        left -= 1
        if left < 0:
            g.steps_left = left
            raise out_of_steps(g)
        f.pc = pc + 1
        blocks[f.block].steps[pc](g, f)
        # Only a step can ask for a decision or end the game; a game that ends clears the
        # stack (`turns.win`, `turns.finish`), so only a decision needs looking for here.
        if st.pending is not None:
            break
    g.steps_left = left


def out_of_steps(g: Game) -> BudgetExceeded:
    """The error of an action whose effects took more steps than the budget (`run`, and
    `turns.advance`, which runs the same loop written in)."""
    return runaway(g, f"its effects did not end within {g.max_steps} steps")


def run_procedure(g: Game, block: int, f: Frame) -> None:
    """`run PROCEDURE` from frame f.  The procedure's frame would run next, as the same player
    with the same names; where its block is one step it is run here instead, with the same
    outcome: a step that only changes numbers (the compiler's `NUMBERS_ONLY`) at once, an `if`
    by its condition, read now, pushing the procedure's frame, finished, under the block the
    `if` picks (as it would stand there), or nothing at all when it picks none."""
    shape = g.procedure_shapes[block]
    if shape is None:
        push(g, block, f.me, f.env)
    elif shape.__class__ is tuple:
        cond, then, other = shape
        picked = then if cond(g, f) else other
        if picked >= 0:
            stop = g.block_stops[block]
            done = frame(g, block, stop, f.me, f.env)
            done.pc = stop
            g.state.frames.append(done)
            push(g, picked, f.me, f.env)
    else:
        shape(g, f)


def run_branch(g: Game, block: int, picked: int, f: Frame) -> None:
    """`run PROCEDURE` where the procedure is one `if` (the compiler reads its condition in the
    `run` statement itself) and it picked `picked`: the procedure's frame, finished, under the
    picked block's, as `run_procedure` stacks them."""
    stop = g.block_stops[block]
    done = frame(g, block, stop, f.me, f.env)
    done.pc = stop
    g.state.frames.append(done)
    push(g, picked, f.me, f.env)


def procedure_shapes(content) -> list:
    """Per block, how `run_procedure` runs it: None (its frame is pushed), its one step where
    that step only changes numbers, or (condition, then, else) where it is one `if`."""
    shapes: list = []
    for block in content.blocks:
        step = block.steps[0] if len(block.steps) == 1 else None
        if step is not None and getattr(step, "numbers_only", False):
            shapes.append(step)
        elif step is not None and getattr(step, "branches", None) is not None:
            shapes.append(step.branches)
        else:
            shapes.append(None)
    return shapes


def each_seat(g: Game, block: int, env: dict[str, Any]) -> None:
    """Run a block for every seat in turn, seat 0 first, where its steps only change numbers
    (the compiler's `NUMBERS_ONLY`): what a frame pushed per seat would do, without the frames."""
    f = frame(g, block, g.block_stops[block], 0, env)
    steps = g.content.blocks[block].steps
    for p in g.seats:
        f.me = p
        for step in steps:
            step(g, f)
    g._spare_frames.append(f)


def repeat(g: Game, rounds: int, count: int, f: Frame) -> None:
    """Start a `repeat` of `count` rounds (its frame counts them down, one step each)."""
    if count > MAX_REPEAT:
        raise runaway(g, f"`repeat` asked for {count} rounds, more than the limit of {MAX_REPEAT}")
    g.state.frames.append(frame(g, rounds, count, f.me, f.env))


def runaway(g: Game, what: str) -> BudgetExceeded:
    return BudgetExceeded(what, running(g))


def failure(g: Game, what: str) -> EffectFailed:
    """The error of an effect that cannot go on, naming the definitions running."""
    return EffectFailed(what, running(g))


def too_large(g: Game, what: str, value: int) -> EffectFailed:
    """The error of a number the game keeps (or a score) that an effect would take past
    MAX_QUANTITY either way: content whose numbers grow without end."""
    shown = f"{value:,}" if abs(value) < 10**30 else f"{'-' if value < 0 else ''}more than 10^30"
    return EffectFailed(f"{what} would be {shown}, beyond the most a game keeps ({MAX_QUANTITY - 1:,} either "
                        "way): a number that grows without end", running(g))


def unstacked(g: Game, f: Frame, exc: EffectFailed) -> EffectFailed:
    """`exc`, raised by a step of frame `f` while `f` was not on the stack (a turn's first
    steps run by its starter, interpreter/starters.py, whose frame is pushed only once a step
    pushes one): naming the definitions running as they would be with `f` under the stack."""
    stack = g.state.frames
    stack.insert(0, f)
    try:
        exc.chain = running(g)
    finally:
        del stack[0]
    exc.args = (exc._message(),)
    return exc


def running(g: Game) -> list[str]:
    """The definitions whose blocks are running, outermost first."""
    origins = g.content.block_origins
    stack = g.state.frames
    # Frames not started yet (pc 0) are waiting, not running: they are left out of the chain.
    frames = [(f.block, origins[f.block] if f.block < len(origins) else "?") for i, f in enumerate(stack)
              if f.pc > 0 or i == len(stack) - 1]
    return chain_of(frames)
