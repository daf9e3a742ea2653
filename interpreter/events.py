"""Events and the triggers they set off: which items (and rules) hear an event, as whom, and
the frames that run their blocks.  The caller schedules the frames (`machine.schedule`), so the
order in which several events' triggers run is the caller's to say."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import machine, seats
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


NO_FIELDS: dict = {}   # (read only)


def event_frames(g: Game, name: str, actor: int, item: int = -1, only: int = -1,
                 fields: dict = NO_FIELDS) -> list[Frame]:
    """Frames for the triggers an event sets off (`only`: just that item's triggers, and the
    item's controller as `me` even before the event reaches the rules); `fields`: what else the
    event says, by name.  (A dict, not keyword arguments: CPython matches each keyword that
    goes into `**kwargs` against every parameter's name by comparing strings, some hundred
    machine instructions a parameter, at every call.)"""
    triggers = g.content.triggers_by_event.get(name)
    if not triggers:
        return []
    if only >= 0:
        return _item_frames(g, triggers, name, actor, only, fields)
    if item >= 0:
        it = g.content.items[item]
        key: tuple | str = (name, it.kind, it.color, fields.get("via"))
    else:
        it, key = None, name
    # What the event itself says first (its item's colour and kind, how it was built, its zone):
    # most triggers fail these, before their item's place and owner are looked up.  The
    # colour, kind and `via` filters depend only on the item's printed kind and colour and on
    # how it came: read once (`hearing`).  (An item's arrival reads the same key first:
    # `economy._into_play`, interpreter/arrivals.py.)
    hearing = g._hearing.get(key)
    if hearing is None:
        hearing = g._hearing[key] = _hearing(triggers, it, key[3] if it is not None else None)
    return heard_frames(g, hearing, name, actor, item, it, fields)


def in_play(g: Game, hearing: list | tuple) -> bool:
    """Whether some trigger of `hearing` may hear an event, by what `heard_frames` asks first
    of each: a rule's trigger may, an item's only where the item is in a seat's active zone or
    in a ruled one.  (False: mostly triggers of items out of play, and no call to make.)
    `arrivals.OUT_OF_PLAY` is this, written into each item's arrival."""
    st = g.state
    for t in hearing:
        if t.item < 0:
            return True
        at = st.loc[t.item]
        if at in g.ruled or at >= 0 and g.slot_active[at]:
            return True
    return False


def heard_frames(g: Game, hearing: list | tuple, name: str, actor: int, item: int, it, fields: dict) -> list[Frame]:
    """`event_frames`, given what may hear the event (`_hearing`, kept in `g._hearing`) and
    the event's item's definition (None: no item): for a caller that has read them already."""
    if hearing.__class__ is tuple:   # rules alone, each hearing it as the actor (`_hearing`)
        out = []
        if hearing:
            event = {"name": name, "by": actor, "item": item, **fields}
            stops = g.block_stops
            for t in hearing:
                out.append(machine.frame(g, t.block, stops[t.block], actor, {"event": event}))
        return out
    st = g.state
    event = None   # made for the first trigger that hears it (most events set off none)
    out = []
    for t in hearing:
        # (Where its item lies first: most items' triggers are out of play, most events'.)
        if t.item >= 0:
            slot = st.loc[t.item]
            if slot in g.ruled:
                me = seats.ruled_owner(g, t.item, slot)
                # A ruled item hears the events of its own space of the zone that rules it.
                if me < 0 or ("space" in fields and (st.positions.get(t.item) != fields["space"]
                                                     or fields.get("zone") != g.ruled[slot])):
                    continue
            elif slot < 0 or not g.slot_active[slot]:
                continue
            else:
                me = g.slot_owner[slot]
        else:
            me = actor
        # (an item's event was heard by `via` already: `_hearing`)
        if t.via is not None and it is None and fields.get("via") != t.via:
            continue
        if t.zone is not None and t.zone != fields.get("zone"):
            continue
        # `me` inline: the most common filter, on the path of every event.
        if t.by != "any" and not (actor == me if t.by == "me" else seats.acts_as(g, t.by, actor, me)):
            continue
        if event is None:
            event = {"name": name, "by": actor, "item": item, **fields}
        out.append(machine.frame(g, t.block, g.block_stops[t.block], me, {"event": event}))
    return out


# (The comprehensions live apart: one inside `event_frames` would make the names it reads cells
# that every event, most of which set off nothing, pays to create.)
def _item_frames(g: Game, triggers: list, name: str, actor: int, only: int, fields: dict) -> list[Frame]:
    stops = g.block_stops
    event = {"name": name, "by": actor, **fields}
    return [machine.frame(g, t.block, stops[t.block], actor, {"event": event})
            for t in triggers if t.item == only and (t.zone is None or t.zone == fields.get("zone"))]


def _hearing(triggers: list, it, via: str | None) -> list | tuple:
    """The triggers whose colour, kind and `via` filters an event of item `it` (None: no item,
    and no `via` read) that came `via` passes: as a tuple where each of them is sure to hear it,
    as its actor (a rule, no item's, by `me` or `any`, with no `zone` or `via` filter left for
    `event_frames` to test), so that the frames are made without a test; else a list."""
    heard = [t for t in triggers if ((t.colors is None or it is not None and it.color in t.colors)
                                     and (t.kind is None or it is not None and it.kind == t.kind)
                                     and (it is None or t.via is None or t.via == via))]
    if all(t.item < 0 and t.by in ("me", "any") and t.zone is None and (t.via is None or it is not None)
           for t in heard):
        return tuple(heard)
    return heard


def riders_only(content, name: str) -> bool:
    """Whether every trigger of event `name` does something only where something lies on the
    event's item (each step of its block `take_attached event.item`, the compiler's
    `event_riders_only`): then an event of an item that carries nothing sets off nothing that
    acts, and its frames need not be made (`structure.uncover`)."""
    triggers = content.triggers_by_event.get(name)
    return bool(triggers) and all(
        all(getattr(step, "event_riders_only", False) for step in content.blocks[t.block].steps)
        for t in triggers)


def event_field(g: Game, event: dict, name: str):
    """A field of an event, by name.  (The compiler writes every field but `kind` and `color`,
    its `EVENT_ITEM_FIELDS`, as the dict's own `get`: tests/test_events.py holds both alike.)"""
    if name == "kind" or name == "color":
        # Read from the event's item when asked: most events never need them.
        item = event.get("item", -1)
        return getattr(g.content.items[item], name) if item >= 0 else None
    return event.get(name)


def trigger(g: Game, me: int, item: int) -> None:
    """Run an item's effect again, for player `me`."""
    it = g.content.items[item]
    if it.effect >= 0:
        machine.push(g, it.effect, me, {})
