"""Save and load: the state to and from JSON through cattrs.  A file that does not describe
a valid state is refused with a reason; nothing is half-loaded."""

from __future__ import annotations

import copy
import json

import attrs
import cattrs

from .state import Decision, Frame, State

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
    new.pending = None if d is None else attrs.evolve(d, options=d.options[:], env=dict(d.env))
    new.attached = dict(state.attached)
    new.rng = state.rng[:]
    new.script = {k: v[:] for k, v in state.script.items()}
    new.setup_script = state.setup_script
    new.history = [h[:] for h in state.history]
    new.chance = [c[:] for c in state.chance]
    new.options = state.options[:]
    new.layers = state.layers[:]
    return new


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


def _validate(state: State) -> None:
    n = len(state.loc)
    seen = set()
    for slot, items in enumerate(state.zones):
        for i in items:
            if not 0 <= i < n or i in seen or state.loc[i] != slot:
                raise SaveFileError(f"invalid state: item {i} is not where the state says it is")
            seen.add(i)
    if len(state.coins) != state.players or any(c < 0 for c in state.coins):
        raise SaveFileError("invalid state: coins")
    for f in state.frames:
        if f.pc < 0 or f.stop < f.pc - 1:
            raise SaveFileError("invalid state: a frame is out of range")


def dumps(state: State) -> str:
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


def loads(text: str | bytes) -> State:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"not valid JSON: {exc}") from None
    return state_from_dict(data)


__all__ = ["SaveFileError", "copy_state", "dumps", "loads", "state_to_dict", "state_from_dict", "Frame", "Decision"]
