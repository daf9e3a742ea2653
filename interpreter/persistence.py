"""Save and load: the state to and from JSON through cattrs.  A file that does not describe
a valid state is refused with a reason; nothing is half-loaded."""

from __future__ import annotations

import copy
import json
import re
import typing

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn

from .state import DRAW, NOWHERE, Decision, Frame, State

_converter = cattrs.Converter(forbid_extra_keys=True)
FORMAT = "rulesdsl-state"
VERSION = 1


class SaveFileError(ValueError):
    """The save file is not a valid game state."""


def copy_state(state: State) -> State:
    """An independent copy, cheaper than deepcopy (the greedy agent copies on every look-ahead).
    Frame and decision environments hold only ints, strings and read-only event dicts."""
    new = copy.copy(state)
    new.loc = state.loc[:]
    new.zones = [z[:] for z in state.zones]
    new.coins = state.coins[:]
    new.structure = state.structure[:]
    new.face_up = state.face_up[:]
    new.frames = [Frame(f.block, f.pc, f.stop, f.me, dict(f.env)) for f in state.frames]
    d = state.pending
    new.pending = None if d is None else attrs.evolve(d, options=d.options[:], env=dict(d.env),
                                                      labels=d.labels[:], bodies=d.bodies[:])
    new.attached = dict(state.attached)
    new.positions = dict(state.positions)
    new.hidden = state.hidden[:]
    new.cubes = {k: [row[:] for row in v] for k, v in state.cubes.items()}
    new.supply = {k: v[:] for k, v in state.supply.items()}
    new.control = {k: v[:] for k, v in state.control.items()}
    new.item_coins = dict(state.item_coins)
    new.script = {k: v[:] for k, v in state.script.items()}
    new.setup_script = state.setup_script
    new.history = [h[:] for h in state.history]
    new.chance = [c[:] for c in state.chance]
    new.options = state.options[:]
    new.layers = state.layers[:]
    return new


# A save file is read strictly: no value is coerced (cattrs would turn "7" or 7.9 into 7 and
# "77" into [7, 7]) and no field may be missing (cattrs would fill in the default).
def _exact(kind: type):
    def structure(value, _type):
        if type(value) is not kind:  # bool is an int subclass: `type`, not isinstance
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value
    return structure


def _list(value, type_):
    if type(value) is not list:
        raise TypeError(f"expected a list, got {type(value).__name__}")
    (item_type,) = typing.get_args(type_) or (typing.Any,)
    return [_converter.structure(v, item_type) for v in value]


def _dict(value, type_):
    if type(value) is not dict:
        raise TypeError(f"expected an object, got {type(value).__name__}")
    key_type, value_type = typing.get_args(type_) or (typing.Any, typing.Any)
    out = {}
    for k, v in value.items():
        if key_type is int:  # JSON object keys are strings
            if type(k) is not str or not re.fullmatch(r"-?[0-9]+", k):
                raise TypeError(f"expected an integer key, got {k!r}")
            k = int(k)
        elif key_type is str and type(k) is not str:
            raise TypeError(f"expected a string key, got {k!r}")
        out[k] = _converter.structure(v, value_type)
    return out


def _complete(cls: type):
    names = [a.name for a in attrs.fields(cls)]
    inner = make_dict_structure_fn(cls, _converter, _cattrs_forbid_extra_keys=True)

    def structure(value, _type):
        if type(value) is not dict:
            raise TypeError(f"expected an object ({cls.__name__}), got {type(value).__name__}")
        missing = [n for n in names if n not in value]
        if missing:
            raise ValueError(f"{cls.__name__} is missing {', '.join(missing)}")
        return inner(value, cls)
    return structure


for _kind in (int, str, bool):
    _converter.register_structure_hook(_kind, _exact(_kind))
_converter.register_structure_hook_func(lambda t: typing.get_origin(t) is list, _list)
_converter.register_structure_hook_func(lambda t: typing.get_origin(t) is dict, _dict)
for _cls in (State, Frame, Decision):
    _converter.register_structure_hook(_cls, _complete(_cls))


def state_to_dict(state: State) -> dict:
    return {"format": FORMAT, "version": VERSION, "state": _converter.unstructure(state)}


def state_from_dict(data: object) -> State:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError("not a rulesdsl save file (no \"format\": \"rulesdsl-state\")")
    if data.get("version") != VERSION:
        raise SaveFileError(f"save file version {data.get('version')!r} is not supported (expected {VERSION})")
    try:
        state = _converter.structure(data.get("state"), State)
    except Exception as exc:  # cattrs raises several exception types; all mean a bad file
        detail = "; ".join(cattrs.transform_error(exc)) if isinstance(exc, cattrs.BaseValidationError) else str(exc)
        raise SaveFileError(f"invalid state: {detail}") from None
    _validate(state)
    return state


FLOWS = ("start", "setup", "age_setup", "turn", "action", "before_action", "between", "over")


def _validate(state: State) -> None:
    """What can be checked without the content: every part of the state agrees with the rest."""
    def bad(what: str) -> SaveFileError:
        return SaveFileError(f"invalid state: {what}")

    n = len(state.loc)
    players = state.players
    if players < 1:
        raise bad(f"players is {players}")
    if not state.zones:
        raise bad("no zones")
    seen = set()
    for slot, items in enumerate(state.zones):
        for i in items:
            if not 0 <= i < n or i in seen or state.loc[i] != slot:
                raise bad(f"item {i} is not where the state says it is")
            seen.add(i)
    for i, slot in enumerate(state.loc):
        if slot != NOWHERE and (not 0 <= slot < len(state.zones) or i not in seen):
            raise bad(f"item {i} is not where the state says it is")
    if len(state.coins) != players or any(c < 0 for c in state.coins):
        raise bad("coins")
    laid = [i for i in state.structure if i != NOWHERE]
    if (len(state.face_up) != len(state.structure) or len(set(laid)) != len(laid)
            or any(not 0 <= i < n for i in laid) or len({state.loc[i] for i in laid}) > 1
            or any(state.loc[i] == NOWHERE for i in laid)):
        raise bad("the structure does not match the cards laid out")
    for name in ("current", "next_starter", "last_actor"):
        if not 0 <= getattr(state, name) < players:
            raise bad(f"{name} is not a player")
    if state.flow not in FLOWS:
        raise bad(f"unknown flow {state.flow!r}")
    if state.age < -1 or state.turn < 0:
        raise bad("age or turn out of range")
    if state.winner is not None and state.winner != DRAW and not 0 <= state.winner < players:
        raise bad("the winner is not a player")
    if any(not (0 <= k < n and 0 <= v < n) for k, v in state.attached.items()):
        raise bad("an attached item does not exist")
    for name in ("positions", "item_coins"):  # item -> number
        table = getattr(state, name, None) or {}
        if any(not 0 <= k < n for k in table) or name == "item_coins" and any(v < 0 for v in table.values()):
            raise bad(f"{name} names an item that does not exist")
    d = state.pending
    if d is not None:
        limit = {"item": n, "player": players}.get(d.kind)  # other kinds: options are not items
        if not d.kind or not 0 <= d.player < players or not d.options \
                or limit is not None and any(not 0 <= o < limit for o in d.options):
            raise bad("the pending decision")
    for f in state.frames:
        if f.pc < 0 or f.stop < f.pc - 1 or f.block < 0 or not 0 <= f.me < players:
            raise bad("a frame is out of range")
    if not 0 <= state.rng < 2**64:
        raise bad("the random generator state")


def dumps(state: State) -> str:
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


def loads(text: str | bytes) -> State:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"not valid JSON: {exc}") from None
    return state_from_dict(data)


__all__ = ["SaveFileError", "copy_state", "dumps", "loads", "state_to_dict", "state_from_dict", "Frame", "Decision"]
