"""Decisions: a step that asks a player to choose (an item, a space, an option, a player) stops
the machine with `state.pending`; the next action answers it, and the answer runs the choice's
body with `chosen` (and its alias) bound."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesdsl.model import Fn, Selector

from . import machine, selection, track
from .core import STRUCTURE_SLOT
from .actions import CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS, Action, new_action, player_label
from .state import Decision, Frame

if TYPE_CHECKING:
    from .game import Game


def made(g: Game, player: int, kind: str, options: list[int], body: int, env: dict, again_block: int, again_pc: int,
         again_me: int, remaining: int, prompt: str, optional: bool, labels: list[str], bodies: list[int]) -> Decision:
    """`Decision(...)` of every field, in order, made without calling the class: the class
    called from Python (its attrs `__init__` run from C) costs some thousand machine
    instructions more than this function filling a new one, at every decision a game asks, and
    some nine hundred more again where a field is given by keyword.  (-1, -1, 0, 0 below: no
    `choose` step to ask again from, no picks left after this one.)  The one `play_out` answered
    last for a random seat, which nothing else sees, is filled again (`g._spare_decision`):
    a decision made and freed costs some thousand more."""
    d = g._spare_decision
    if d is None:
        d = _new(Decision)
    else:
        g._spare_decision = None
    d.player = player
    d.kind = kind
    d.options = options
    d.body = body
    d.env = env
    d.again_block = again_block
    d.again_pc = again_pc
    d.again_me = again_me
    d.remaining = remaining
    d.prompt = prompt
    d.optional = optional
    d.labels = labels
    d.bodies = bodies
    return d


_new = object.__new__


def choose(g: Game, by: int, count: int, sel: Selector, body: int, f: Frame, alias: str | None = None,
           optional: bool = False) -> None:
    count = f.env.get("_remaining", count)
    options = selection.candidates(g, sel, f.me, f.env)
    if count <= 0 or not options:
        return
    env = dict(f.env)   # (the names without `_remaining`, in their order)
    env.pop("_remaining", None)
    if alias:
        env["_alias"] = alias
    g.state.pending = made(g, by, "item", list(options), body, env, f.block, f.pc - 1, f.me, count,
                           f"choose from {sel.text}", optional, [], [])


def choose_space(g: Game, by: int, zone: int, empty: bool, body: int, f: Frame, where=None,
                 alias: str | None = None) -> None:
    st = g.state
    z = g.content.zones[zone]
    if zone == g.content.track.zone:
        options = track.spaces(g)
    else:
        options = list(range(z.spaces))
    if empty:
        taken = {st.positions.get(i) for i in st.zones[g.zone_slots[zone][by]]}
        options = [o for o in options if o not in taken]
    if where is not None:
        options = selection.kept_where(g, options, where, f.me, f.env, "space")
    env = dict(f.env)
    if alias:
        env["_alias"] = alias
    if options:
        st.pending = made(g, by, "space", options, body, env, -1, -1, 0, 0, f"choose a space of {z.name}", False,
                          [], [])


def choose_option(g: Game, by: int, options: list[tuple[str, int, Fn | None]], f: Frame) -> None:
    """The options offered: those without a condition (`if=`), and those whose condition holds
    now, asked in the frame of the `choose_one`; none offered, nothing is decided."""
    labels, bodies = [], []
    for label, body, offered in options:
        if offered is None or offered(g, f):
            labels.append(label)
            bodies.append(body)
    if labels:
        g.state.pending = made(g, by, "option", list(range(len(labels))), -1, dict(f.env), -1, -1, 0, 0, "choose one",
                               False, labels, bodies)


def choose_player(g: Game, by: int, body: int, f: Frame) -> None:
    g.state.pending = made(g, by, "player", g.seat_list[:], body, dict(f.env), -1, -1, 0, 0,
                           "choose a player", False, [], [])


def answers(g: Game, d: Decision) -> list[Action]:
    """The legal answers to a pending decision."""
    if d.kind == "player":
        return [new_action((CHOOSE_PLAYER, (player_label(o),))) for o in d.options]
    if d.kind == "space":
        return [new_action((CHOOSE_SPACE, (str(o),))) for o in d.options]
    if d.kind == "option":
        return [new_action((CHOOSE_OPTION, (label,))) for label in d.labels]
    out = [new_action((CHOOSE, (name,))) for name in map(g.item_names.__getitem__, d.options)]
    if g.state.hidden or g.state.structure:   # (nothing can lie face down elsewhere)
        for k, item in enumerate(d.options):
            place = unseen_place(g, item)
            if place is not None:
                out[k] = new_action((CHOOSE, (place,)))
    if d.optional:
        out.append(Action(PASS))
    return out


def answer_count(d: Decision) -> int:
    """How many legal answers `d` has: `len(answers(g, d))`, without making them."""
    if d.kind == "option":
        return len(d.labels)
    return len(d.options) + (d.optional and d.kind != "player" and d.kind != "space")


def answer_at(g: Game, d: Decision, k: int) -> Action:
    """`answers(g, d)[k]`, without making the others (a random seat's answer: `playout`)."""
    if d.kind == "player":
        return new_action((CHOOSE_PLAYER, (player_label(d.options[k]),)))
    if d.kind == "space":
        return new_action((CHOOSE_SPACE, (str(d.options[k]),)))
    if d.kind == "option":
        return new_action((CHOOSE_OPTION, (d.labels[k],)))
    if k == len(d.options):
        return Action(PASS)
    item = d.options[k]
    return new_action((CHOOSE, (unseen_place(g, item) or g.item_names[item],)))


def answer(g: Game, d: Decision, action: Action) -> None:
    """Start what a legal answer to `d` runs (the caller has cleared `pending` and advances):
    the choice's body, after which a choice of several items asks again."""
    if action.name == PASS:
        return
    if d.kind == "option":
        machine.push(g, d.bodies[d.labels.index(action.args[0])], d.player, dict(d.env))
        return
    if d.kind == "player":
        chosen = int(action.args[0][1:])
    elif d.kind == "space":
        chosen = int(action.args[0])
    else:
        # An item its chooser cannot see is named by its place; (an item whose own name ends
        # like a place's, offered face up, by its name)
        name = action.args[0]
        placed = [o for o in d.options if unseen_place(g, o) == name] if name.endswith(FACE_DOWN) else None
        chosen = placed[0] if placed else offered_copy(g, d, name)
    _answer_with(g, d, chosen)


def answer_number(g: Game, d: Decision, k: int, spent: bool = False) -> list[str]:
    """`answer(g, d, answer_at(g, d, k))`, read by its number: nothing is named and decoded again
    but the history's entry, which it returns (a random seat's answer: `playout`).  `spent`: no
    one reads `d` once answered (`playout` refills it), so its names are the body's, not copied."""
    kind = d.kind
    if kind == "item":
        if k == len(d.options):
            return [PASS]
        item = d.options[k]
        place = unseen_place(g, item)
        if place is not None:
            _answer_with(g, d, item, spent)
            return [CHOOSE, place]
        name = g.item_names[item]
        # (the copy of that name decoding takes: the item itself, where it has no copies)
        _answer_with(g, d, offered_copy(g, d, name) if name in g.copied_names else item, spent)
        return [CHOOSE, name]
    if kind == "option":
        label = d.labels[k]
        machine.push(g, d.bodies[d.labels.index(label)], d.player, d.env if spent else dict(d.env))
        return [CHOOSE_OPTION, label]
    chosen = d.options[k]
    _answer_with(g, d, chosen, spent)
    return [CHOOSE_PLAYER, player_label(chosen)] if kind == "player" else [CHOOSE_SPACE, str(chosen)]


# What ends the name of an option its chooser cannot see (below).
FACE_DOWN = " (face down)"


def unseen_place(g: Game, item: int) -> str | None:
    """How a choice names an item its chooser cannot see, by the place everyone sees it lie in
    (`slot 7 (face down)`: a face-down card of the structure; `ZONE 3 (face down)`: an item
    lying face down on space 3 of a zone; `ZONE #2 (face down)` on none, `ZONE of p1 ...` in a
    seat's zone); None for an item that lies face up.  Naming it would tell the chooser what
    the rules have them pick unseen (the rulebooks' "gesloten").  (Cheap for an item that
    lies neither in the structure nor face down: two tests.)"""
    st = g.state
    slot = st.loc[item]
    if g.slot_kind[slot] & STRUCTURE_SLOT:
        at = g._structure_at
        position = at.get(item, -1) if at is not None else (st.structure.index(item) if item in st.structure else -1)
        if position >= 0:
            return None if st.face_up[position] else slot_place(position)
    if not st.hidden or item not in st.hidden:
        return None
    zone = g.content.zones[g.slot_zone[slot]]
    owner = g.slot_owner[slot] if zone.per_player else None
    space = st.positions.get(item)
    return zone_place(zone.name, owner, space) if space is not None else \
        zone_place(zone.name, owner, f"#{st.zones[slot].index(item)}")


def slot_place(position: int) -> str:
    """The name of a face-down card of the structure, by its slot."""
    return f"slot {position}{FACE_DOWN}"


def zone_place(zone: str, owner: int | None, at: int | str) -> str:
    """The name of an item lying face down in a zone (`owner`: the seat of a zone each seat has),
    by its space (`at`: a number) or its place among the zone's items (`#2`)."""
    return f"{zone}{'' if owner is None else f' of p{owner}'} {at}{FACE_DOWN}"


def offered_copy(g: Game, d: Decision, name: str) -> int:
    """The item an answer naming `name` chooses: the content's first copy of that name where it is
    offered, else the first offered copy.  (The first copy may lie elsewhere, in a seat's city,
    while another copy is offered from the discard pile: it was taken from that city.
    A copy lying face down is never the one a name takes: it is offered by its place.)"""
    first = g.content.item_index[name]
    if first in d.options and unseen_place(g, first) is None:
        return first
    names = g.item_names
    return next((o for o in d.options if names[o] == name and unseen_place(g, o) is None), first)


def _answer_with(g: Game, d: Decision, chosen: int, spent: bool = False) -> None:
    """The body of an item, space or player decision with `chosen` bound (in `d.env` itself
    where `d` is `spent`: see `answer_number`)."""
    if d.remaining > 1:
        env = dict(d.env)
        env["_remaining"] = d.remaining - 1
        again = machine.frame(g, d.again_block, d.again_pc + 1, d.again_me, env)
        again.pc = d.again_pc
        g.state.frames.append(again)
    env = d.env if spent else dict(d.env)
    env["chosen"] = chosen
    alias = env.pop("_alias", None)
    if alias:
        env[alias] = chosen
    # (`machine.push`, written in: a call fewer at every answer)
    block = d.body
    spare = g._spare_frames
    if spare:
        f = spare.pop()
        f.block = block
        f.pc = 0
        f.stop = g.block_stops[block]
        f.me = d.player
        f.env = env
        g.state.frames.append(f)
    else:
        g.state.frames.append(Frame(block, 0, g.block_stops[block], d.player, env))
