"""The start of a turn's action, written out for each action of a content set.

Starting an action is the same work every turn: the turn counted, the frame of the action's
block made with its parameters bound, the block's steps run while nothing else stands above
that frame, then the end of the turn.  Done by one generic function, every turn reads the
action's names, its block, where the block stops and which of its steps may set something off,
all of which the content fixes.  So for each action this module writes that work as Python
source, once per content: the names bound by a dict display, the block and its stop as
integers, and the steps run one after another, each followed by the test the frame loop
makes (did it push or schedule a block, ask a decision, end the game) unless it is a step that
only changes numbers (the compiler's `NUMBERS_ONLY`), which can do none of these.  What runs is
what `machine.run` would run from the same frame, with the same budget (`turns.start_action`).

While its steps push nothing, the action's frame is not put on the stack at all (the stack is
empty when a turn starts): a step that pushes a block or asks a decision finds it put where it
would have stood, under what it pushed, and the frame loop goes on from there; a step that ends
the game leaves no frame, as `turns.win` clears the stack; a step that fails names the
definitions running with the frame at the bottom of the stack (`machine.unstacked`).  So the
state after every step that hands over is the state the frame loop leaves.

What the turn's last step that may push something pushes (a built card's effect, the rules its
arrival sets off) is often a block of one step that only changes numbers or of one `if`, or of
one step that only schedules frames (moving the conflict pawn, whose rules hear it): the
starter runs such frames itself, one after another as the frame loop would, while the budget
holds each and the steps after (and, for one that schedules, while what it may schedule cannot
make too many frames wait), and the turn goes on as if nothing had been pushed.  At the first
other frame, or where the budget might not hold, it hands over as above, the frames left as
the loop would have them.

A simultaneous round resolves its seats' actions one after another, each as its frame would run
first on the stack (`turns.resolve_round`): for these the module writes the same work without
the turn's beginning and end, the seat given (`round_starters_of`); a runner whose step hands
over says so, and the round leaves the seats after it to the frame loop, under it.

A step the compiler wrote as one expression (`Compiler.fused`, most steps) is written into
the starter as that expression, not called: one call fewer per step, and the frame's seat and
parameters are read from the starter's locals (`me`, `b0`...), which hold what the frame's
would.  Any other step is called from the block's own list (`Block.steps`).  Whatever replaces
a block's steps after its starter is written (a benchmark counting them) needs the starters
written again (`write`) to run.

The only text of the content in the source is the parameters' names, as string literals
(`repr` of names the grammar allows), the keys of the frame's names; everything else is an
integer or a name of the compiler's namespace (`_k12`), whose values the starter's own
namespace holds.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from rulesdsl.model import ActionDef, Content

from . import machine, turns
from .budget import EffectFailed
from .state import Frame

if TYPE_CHECKING:
    from .game import Game

Starter = Callable[..., None]   # start(g, *binding)


def starters_of(content: Content) -> list[Starter]:
    """Each action's starter, by action number: `start(g, *binding)` starts the action with its
    parameters bound to the items of `binding`, in order, as the current seat's turn.  Written
    by the content's first game and shared by the rest."""
    starts = content._starts
    if starts is None:
        starts = content._starts = write(content)
    return starts


def round_starters_of(content: Content) -> list[Starter]:
    """Each action's runner in a simultaneous round, by action number: `run(g, me, *binding)`
    runs the action of seat `me` as its frame would run first on an empty stack, within the
    budget (the caller makes sure of both, `turns.resolve_round`): its steps one after another
    while they push nothing; at a step that hands over (pushes or schedules a block, asks a
    decision, ends the game), its frame put where it would stand, under what the step pushed,
    and True returned.  Written by the content's first game and shared by the rest."""
    runs = content._round_starts
    if runs is None:
        runs = content._round_starts = write(content, in_round=True)
    return runs


def write(content: Content, in_round: bool = False) -> list[Starter]:
    out = []
    block_code = [b.steps for b in content.blocks]   # (the lists themselves: see above)
    shapes = machine.procedure_shapes(content)
    scheduling = scheduling_blocks(content)
    for act in content.actions:
        ns = {"Frame": Frame, "advance": turns.advance, "end_turn": turns.end_turn, "scheduling": scheduling,
              "EffectFailed": EffectFailed, "unstacked": machine.unstacked,
              "frame_at": frame_at, "block_code": block_code, "shapes": shapes,
              "steps": content.blocks[act.block].steps}
        text = source(act, content, ns, in_round)
        what = "round's run" if in_round else "start"
        exec(compile(text, f"<{what} of action {act.id}>", "exec"), ns)   # (trusted source: see above)
        start = ns["start"]
        start.source = text   # type: ignore[attr-defined]  (for a reader)
        out.append(start)
    return out


def source(act: ActionDef, content: Content, names: dict | None = None, in_round: bool = False) -> str:
    """The starter's source (`in_round`: the round's runner's, `round_starters_of`); the values
    its steps' own sources name are put in `names`."""
    if names is None:
        names = {}
    block = content.blocks[act.block]
    stop = len(block.steps)
    bound = {name: f"b{k}" for k, name in enumerate(act.param_names)}
    env = ", ".join(f"{name!r}: b{k}" for k, name in enumerate(act.param_names))

    def refill(pc: int) -> list[str]:   # (`machine.frame`, inline, with the frame's first step at pc)
        return ["    if spare:",
                "        f = spare.pop()",
                f"        f.block = {act.block}",
                f"        f.pc = {pc}",
                f"        f.stop = {stop}",
                "        f.me = me",
                "        f.env = env",
                "    else:",
                f"        f = Frame({act.block}, {pc}, {stop}, me, env)"]
    # The steps as the starter runs them: (pc, the statement, the step after it).
    run: list[tuple[int, str, int]] = []
    pc = 0
    while pc < stop:
        step = block.steps[pc]
        # (`compiler.then_next`: a step that runs the steps after it as well, moving the frame
        # on: the next, or a chain of them, numbers-only steps in a row)
        after = pc + getattr(step, "spans", 1)
        run.append((pc, _written(step, pc, names, bound), after))
        pc = after
    # Where no statement reads the frame (every step written in, none handed the frame itself),
    # the frame is made only where one is needed: when a step hands over, or fails.  Where none
    # reads the frame's names either, they are made with it.
    lazy = not any(FRAME.search(text) for _, text, _ in run)
    names_made = lazy and not any(ENV.search(text) for _, text, _ in run)
    frame_env = f"{{{env}}}" if names_made else "env"
    binding = [f"b{k}" for k in range(len(act.param_names))]
    if in_round:   # (its seat given; the turn, the flow and the budget are the round's)
        lines = [f"def start({', '.join(['g', 'me'] + binding)}):",
                 "    st = g.state"]
    else:
        lines = [f"def start({', '.join(['g'] + binding)}):",
                 "    st = g.state",
                 "    st.turn += 1",
                 "    me = st.last_actor = st.current",
                 f"    st.flow = {'before_action' if act.before_turn else 'action'!r}"]
    lines += [f"    env = {{{env}}}"] * (not names_made) + [
        "    spare = g._spare_frames"] * (not lazy) + [
        "    frames = st.frames",
        "    left = g.steps_left"]
    if not in_round:
        # Run here only what the budget surely allows and where nothing stands under the frame
        # (an action started inside another block's turn): otherwise the frame loop runs it.
        lines += [f"    if frames or left <= {stop}:"]
        if lazy:
            lines += [f"        frames.append(frame_at(g, {act.block}, 0, {stop}, me, {frame_env}))"]
        else:
            lines += ["    " + line for line in refill(0)] + ["        frames.append(f)"]
        lines += ["        advance(g)",
                  "        return"]
    lines += [] if lazy else refill(1)
    handed = ["        return True"] if in_round else ["        advance(g)", "        return"]
    # The frame stays off the stack while its steps run and push nothing: it is put where it
    # would have stood, under what a step pushed, when one does (or asks a decision), and named
    # with the definitions running when a step fails (`machine.unstacked`).
    # After a turn's last step that may push something (only steps of numbers come after it),
    # the frames it pushed are run here, as the frame loop would run them next, while each is
    # a block of one step of numbers or of one `if` (`machine.procedure_shapes`: neither
    # schedules, asks nor ends the game) and the budget holds it and the steps after: then the
    # turn goes on without handing over.  Not after an earlier step, nor in a round: a later
    # step's (or seat's) `schedule` would count what waits without the frames under it.
    # A block of one step that only schedules frames (`scheduling_blocks`) is run too, but only
    # while they cannot be too many to wait: `machine.schedule` counts the stack, which here
    # lacks the action's frame under it, so what waits, that frame and the most the step may
    # schedule must stay within the budget, and neither count stops the action.  (Asked where
    # the loop would stop, not at every frame it runs: most frames run here are the others.)
    schedules = any(scheduling_blocks(content))
    last = -1 if in_round else max((k for k, (pc, _, _) in enumerate(run)
                                    if not getattr(block.steps[pc], "numbers_only", False)), default=-1)
    ran = 0
    for pc, text, after in run:
        ran += 1
        frame = f"frame_at(g, {act.block}, {pc + 1}, {stop}, me, {frame_env})" if lazy else "f"
        if pc and not lazy:
            lines += [f"    f.pc = {pc + 1}"]
        lines += ["    try:",
                  f"        {text}",
                  "    except EffectFailed as exc:",
                  f"        raise unstacked(g, {frame}, exc)"]
        if not getattr(block.steps[pc], "numbers_only", False):
            # A step that ended the game took the stack away, the frame with it (`turns.win`):
            # the block stops there.  (After a turn's last step, the turn's end sees it.)
            over = " or st.flow == 'over'" if after < stop or in_round else ""
            if ran - 1 == last:   # (the loop of `machine.run`, stopping where the frame loop must go on)
                lines += ["    if frames and st.pending is None:",
                          f"        left -= {ran}"] + ["        spare = g._spare_frames"] * lazy + [
                          "        try:",
                          "            while frames:",
                          "                t = frames[-1]",
                          "                pc = t.pc",
                          "                if pc >= t.stop:",
                          "                    spare.append(frames.pop())",
                          "                    continue",
                          f"                if left <= {len(run) - ran} or shapes[t.block] is None:"] + [
                          f"                    if left <= {len(run) - ran} or not scheduling[t.block] or "
                          f"len(frames) + {scheduled_at_most(content)} >= g.max_steps:"] * schedules + [
                          "    " * schedules + "                    break",
                          "                left -= 1",
                          "                t.pc = pc + 1",
                          "                block_code[t.block][pc](g, t)",
                          "        except EffectFailed as exc:",
                          f"            raise unstacked(g, {frame}, exc)",
                          f"        left += {ran}"]
            lines += [f"    if frames or st.pending is not None{over}:",
                      f"        g.steps_left = left - {ran}",
                      "        if st.flow != 'over':",
                      f"            frames.insert(0, {frame})"] + handed
    lines += [f"    g.steps_left = left - {ran}"] + ["    spare.append(f)"] * (not lazy)
    if in_round:
        return "\n".join(lines + ["    return False"]) + "\n"
    if not act.before_turn:
        lines += ["    if st.flow == 'action':",
                  "        end_turn(g)",
                  "        if st.flow == 'turn':",
                  "            return"]
    lines += ["    advance(g)"]
    return "\n".join(lines) + "\n"


def scheduling_blocks(content: Content) -> list[bool]:
    """Per block, whether it is one step that only schedules frames (the compiler's
    `SCHEDULES_ONLY`), at most `scheduled_at_most` of them: a starter runs it itself after the
    turn's last step that may push something, as the frame loop would run it next."""
    return [len(b.steps) == 1 and getattr(b.steps[0], "schedules_only", False) for b in content.blocks]


def scheduled_at_most(content: Content) -> int:
    """The most frames a step that only schedules can schedule at once: one per item (its effect)
    and one per trigger (of the event it raises)."""
    return len(content.items) + sum(len(ts) for ts in content.triggers_by_event.values())


FRAME_READS = re.compile(r"\bf\.(me|env)\b")
PARAMETER_READS = re.compile(r"\bf\.env\[(_k\d+)\]")
FRAME = re.compile(r"\bf\b")
ENV = re.compile(r"\benv\b")


def frame_at(g: Game, block: int, pc: int, stop: int, me: int, env: dict) -> Frame:
    """A frame of `block` at step `pc`: the action's frame, made when a starter needs it."""
    f = machine.frame(g, block, stop, me, env)
    f.pc = pc
    return f


def _written(step, pc: int, names: dict, bound: dict[str, str]) -> str:
    """The statement that runs step `pc`: the step's own source where the compiler wrote it as
    one expression in `g`, `f` and its namespace (`Compiler.fused`: the values it names are
    added to `names`), with the frame's seat and names read from the starter's locals, which
    are the frame's (`me`, `env`); else a call of the step, read from the block's list."""
    text = getattr(step, "source", None)
    values = getattr(step, "names", None)
    if text is None or values is None:
        return f"steps[{pc}](g, f)"
    for name, value in values.items():
        if names.setdefault(name, value) is not value:   # (one compiler's names: never two values)
            return f"steps[{pc}](g, f)"
    # A parameter, read from the frame's names: the item bound to it, which those names keep
    # while the steps run here (a block that binds names, or a decision, copies them first).
    text = PARAMETER_READS.sub(lambda m: bound.get(values[m.group(1)], m.group(0))
                               if isinstance(values[m.group(1)], str) else m.group(0), text)
    return FRAME_READS.sub(lambda m: m.group(1), text)
