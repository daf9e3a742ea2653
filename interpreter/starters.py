"""The start of a turn's action, written out for each action of a content set.

Starting an action is the same work every turn: the turn counted, the frame of the action's
block made with its parameters bound, the block's steps run while nothing else stands above
that frame, then the end of the turn.  Done by one generic function, every turn reads the
action's names, its block, where the block stops and which of its steps may set something off,
all of which the content fixes.  So for each action this module writes that work as Python
source, once per content: the names bound by a dict display, the block and its stop as
integers, and the steps called one after another, each followed by the test the frame loop
makes (did it push or schedule a block, ask a decision, end the game) unless it is a step that
only changes numbers (the compiler's `NUMBERS_ONLY`), which can do none of these.  What runs is
what `machine.run` would run from the same frame, with the same budget (`turns.start_action`).

The only text of the content in the source is the parameters' names, as string literals
(`repr` of names the grammar allows), the keys of the frame's names; everything else is an
integer.  The steps are read from the block's own list (`Block.steps`), so whatever replaces a
step there (a benchmark counting them) is what runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulesdsl.model import ActionDef, Content

from . import turns
from .state import Frame

if TYPE_CHECKING:
    from .game import Game

Starter = Callable[["Game", list[int]], None]


def starters_of(content: Content) -> list[Starter]:
    """Each action's starter, by action number: `start(g, binding)` starts the action with its
    parameters bound to the items of `binding`, in order, as the current seat's turn.  Written
    by the content's first game and shared by the rest."""
    starts = content._starts
    if starts is None:
        starts = content._starts = write(content)
    return starts


def write(content: Content) -> list[Starter]:
    out = []
    for act in content.actions:
        ns = {"Frame": Frame, "advance": turns.advance, "end_turn": turns.end_turn,
              "steps": content.blocks[act.block].steps}
        text = source(act, content)
        exec(compile(text, f"<start of action {act.id}>", "exec"), ns)   # (trusted source: see above)
        start = ns["start"]
        start.source = text   # type: ignore[attr-defined]  (for a reader)
        out.append(start)
    return out


def source(act: ActionDef, content: Content) -> str:
    block = content.blocks[act.block]
    stop = len(block.steps)
    env = ", ".join(f"{name!r}: binding[{k}]" for k, name in enumerate(act.param_names))
    lines = [
        "def start(g, binding):",
        "    st = g.state",
        "    st.turn += 1",
        "    me = st.last_actor = st.current",
        f"    st.flow = {'before_action' if act.before_turn else 'action'!r}",
        f"    env = {{{env}}}",
        "    spare = g._spare_frames",
        "    if spare:   # (`machine.frame`, inline)",
        "        f = spare.pop()",
        f"        f.block = {act.block}",
        "        f.pc = 0",
        f"        f.stop = {stop}",
        "        f.me = me",
        "        f.env = env",
        "    else:",
        f"        f = Frame({act.block}, 0, {stop}, me, env)",
        "    frames = st.frames",
        "    frames.append(f)",
        "    left = g.steps_left",
        # Run here only what the budget surely allows and where nothing stands under the frame
        # (an action started inside another block's turn): otherwise the frame loop runs it.
        f"    if len(frames) != 1 or left <= {stop}:",
        "        advance(g)",
        "        return",
    ]
    pc = ran = 0
    while pc < stop:
        step = block.steps[pc]
        ran += 1
        lines += [f"    f.pc = {pc + 1}",
                  f"    steps[{pc}](g, f)"]
        if not getattr(step, "numbers_only", False):
            lines += ["    if len(frames) != 1 or st.pending is not None:",
                      f"        g.steps_left = left - {ran}",
                      "        advance(g)",
                      "        return"]
        # (`compiler.then_next`: a step that runs the step after it as well, moving the frame on)
        pc += 2 if getattr(step, "runs_next", False) else 1
    lines += [f"    g.steps_left = left - {ran}",
              "    spare.append(frames.pop())"]
    if not act.before_turn:
        lines += ["    if st.flow == 'action':",
                  "        end_turn(g)",
                  "        if st.flow == 'turn':",
                  "            return"]
    lines += ["    advance(g)"]
    return "\n".join(lines) + "\n"
