"""Save and load: the state to and from JSON through cattrs.  A file that does not describe
a valid state is refused with a reason; nothing is half-loaded."""

from __future__ import annotations

import functools
import json
import re
import typing
from pathlib import Path

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn

from rulesdsl.files import FileProblem, read_regular
from rulesdsl.model import Content

from . import knowledge, majority
from .actions import CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS
from .budget import MAX_QUANTITY, MAX_REPEAT
from .chance import is_seed
from .state import DRAW, NOWHERE, Decision, Frame, State

_converter = cattrs.Converter(forbid_extra_keys=True)
FORMAT = "rulesdsl-state"
VERSION = 5         # 2: the state records its content's fingerprint; 3: simultaneous rounds, counters;
                    # 4: whether this age named the next one's starter; 5: what seats know of face-down items
OLD_VERSIONS = (1, 2, 3, 4)  # still read: the fields added since take their defaults
# Fields added in version 3, with their values in an older save.
ADDED_IN_3 = {"acting": [], "choices": [], "again": [], "deferred": [], "counters": {}, "prepaid": {}}
# Fields added in version 4, with their values in an older save.
ADDED_IN_4 = {"starter_named": False}
# Fields added in version 5, with their values in an older save (which kept no seat's knowledge).
ADDED_IN_5 = {"known": {}}


class SaveFileError(ValueError):
    """The save file is not a valid game state."""


def copy_state(state: State) -> State:
    """An independent copy, cheaper than deepcopy (the greedy agent copies on every look-ahead).
    Frame and decision environments hold only ints, strings and read-only event dicts; the
    set-up script, kept as it was given, and the entries of the history and of the chance
    record, never changed once written (entries are added, or the lists replaced), are shared."""
    # (Every field set once, by hand, on a state made without `__init__`: half the cost of
    # making it with all 42 fields and setting half of them again.  A field left out here is
    # no attribute at all on the copy: tests/test_api.py checks every field is there, equal,
    # and in a container of its own.)
    new = _new_state(State)
    new.layers = state.layers[:]
    new.options = state.options[:]
    new.seed = state.seed
    new.players = state.players
    new.loc = state.loc[:]
    new.zones = list(map(list.copy, state.zones))   # (a third less than a comprehension)
    new.coins = state.coins[:]
    new.pawn = state.pawn
    new.structure = state.structure[:]
    new.face_up = state.face_up[:]
    new.layout = state.layout
    new.age = state.age
    new.flow = state.flow
    new.current = state.current
    new.next_starter = state.next_starter
    new.starter_named = state.starter_named
    new.last_actor = state.last_actor
    new.play_again = state.play_again
    new.frames = [Frame(f.block, f.pc, f.stop, f.me, dict(f.env)) for f in state.frames] if state.frames else []
    d = state.pending
    new.pending = None if d is None else attrs.evolve(d, options=d.options[:], env=dict(d.env),
                                                      labels=d.labels[:], bodies=d.bodies[:])
    new.winner = state.winner
    new.victory = state.victory
    new.attached = dict(state.attached)
    new.positions = dict(state.positions)
    new.item_coins = dict(state.item_coins)
    new.hidden = state.hidden[:]
    new.known = {k: v[:] for k, v in state.known.items()} if state.known else {}
    # (the dicts of lists are empty in most content: no comprehension is run for them)
    new.cubes = {k: [row[:] for row in v] for k, v in state.cubes.items()} if state.cubes else {}
    new.supply = {k: v[:] for k, v in state.supply.items()} if state.supply else {}
    new.control = {k: v[:] for k, v in state.control.items()} if state.control else {}
    new.before_used = state.before_used
    new.rng = state.rng
    new.script = {k: v[:] for k, v in state.script.items()} if state.script else {}
    new.setup_script = state.setup_script
    new.turn = state.turn
    new.history = state.history[:]
    new.chance = state.chance[:]
    new.fingerprint = state.fingerprint
    new.acting = state.acting[:]
    new.choices = [c if c is None else c[:] for c in state.choices] if state.choices else []
    new.again = state.again[:]
    new.deferred = [Frame(f.block, f.pc, f.stop, f.me, dict(f.env)) for f in state.deferred] if state.deferred else []
    new.counters = {k: v[:] for k, v in state.counters.items()} if state.counters else {}
    new.prepaid = dict(state.prepaid)
    return new


_new_state = object.__new__


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
    item_type = _item_type(type_)
    if item_type in _SCALARS:
        # (most of a save: the zones' items, the history's names; checked in one pass, as
        # `_exact` checks each, without a converter's call per item)
        return _scalars(value, item_type)
    inner = _scalar_rows(item_type)
    if inner is not None:
        # (lists of such lists, the zones, the history, the chance record: each row checked
        # here as `_list` would check it, without the converter's dispatch per row)
        out = []
        for row in value:
            if type(row) is not list:
                raise TypeError(f"expected a list, got {type(row).__name__}")
            out.append(_scalars(row, inner))
        return out
    return [_converter.structure(v, item_type) for v in value]


def _scalars(value: list, item_type: type) -> list:
    for v in value:
        if type(v) is not item_type:
            raise TypeError(f"expected {item_type.__name__}, got {type(v).__name__}")
    return value[:]


_SCALARS = (int, str, bool)


@functools.cache   # (the few list types of a state, asked for every list of a save)
def _item_type(type_) -> object:
    (item_type,) = typing.get_args(type_) or (typing.Any,)
    return item_type


@functools.cache
def _scalar_rows(type_) -> type | None:
    """The item type of `type_` where it is a list of numbers, names or flags, else None."""
    if typing.get_origin(type_) is not list:
        return None
    item_type = _item_type(type_)
    return item_type if item_type in _SCALARS else None


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


for _kind in _SCALARS:
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
    version = data.get("version")
    if type(version) is not int or version != VERSION and version not in OLD_VERSIONS:
        raise SaveFileError(f"save file version {version!r} is not supported (expected {VERSION})")
    extra = sorted(set(data) - {"format", "version", "state"})
    if extra:
        raise SaveFileError(f"unknown key {extra[0]!r} in the save file")
    raw = data.get("state")
    if version == 1 and isinstance(raw, dict):
        if "fingerprint" in raw:
            raise SaveFileError("invalid state: a version 1 save has no fingerprint")
        raw = {**raw, "fingerprint": ""}
    elif isinstance(raw, dict) and raw.get("fingerprint") == "":
        # (only a version 1 save has none: without it, a save of other content would load)
        raise SaveFileError(f"invalid state: a version {version} save names its content's fingerprint")
    if version in (1, 2) and isinstance(raw, dict):
        if any(k in raw for k in ADDED_IN_3):
            raise SaveFileError(f"invalid state: a version {version} save has no simultaneous rounds")
        raw = {**raw, **ADDED_IN_3}
    if version in (1, 2, 3) and isinstance(raw, dict):
        if any(k in raw for k in ADDED_IN_4):
            raise SaveFileError(f"invalid state: a version {version} save names no next age's starter")
        raw = {**raw, **ADDED_IN_4}
    if version in (1, 2, 3, 4) and isinstance(raw, dict):
        if any(k in raw for k in ADDED_IN_5):
            raise SaveFileError(f"invalid state: a version {version} save records no seat's knowledge")
        raw = {**raw, **ADDED_IN_5}
    try:
        state = _converter.structure(raw, State)
    except Exception as exc:  # cattrs raises several exception types; all mean a bad file
        detail = "; ".join(cattrs.transform_error(exc)) if isinstance(exc, cattrs.BaseValidationError) else str(exc)
        raise SaveFileError(f"invalid state: {detail}") from None
    _validate(state)
    return state


# More coins than any game holds (an effect that would go past it fails: `limits.MAX_QUANTITY`),
# and below the price of what cannot be had at all (`economy.IMPOSSIBLE`), which a seat holding
# as many could otherwise pay.
MAX_COINS = MAX_QUANTITY

FLOWS = ("start", "setup", "age_setup", "turn", "action", "before_action", "between", "over",
         "round", "resolve", "after_round", "end_of_age", "end_of_game")


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
    if len(state.coins) != players or any(not 0 <= c < MAX_COINS for c in state.coins):
        raise bad(f"coins (each from 0 to {MAX_COINS - 1})")
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
    if (state.winner is None) != (state.flow != "over"):
        raise bad("a winner in a game not over, or a game over without one")
    if state.pending is None and (state.flow not in ("turn", "round", "over") or state.frames):
        # (a saved game waits on a decision, a turn or a round: anything else could not go on)
        raise bad(f"a game in flow {state.flow!r} with effects under way waits on no decision")
    if any(not (0 <= k < n and 0 <= v < n) for k, v in state.attached.items()):
        raise bad("an attached item does not exist")
    structure_slot = len(state.zones) - 1
    if any(not (i in state.hidden or 0 <= i < n and state.loc[i] not in (NOWHERE, structure_slot))
           for i in set(state.known).difference(state.hidden)):
        # (which zones are decks no seat sees is the content's: `_check_state`)
        raise bad("known names an item that does not lie face down or in a deck")
    if any(not seats or seats != sorted(set(seats)) or seats[0] < 0 or seats[-1] >= players
           for seats in state.known.values()):
        raise bad("known: the seats that know an item, in order, once each")
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
    if any(not 0 <= p < players for p in state.acting + state.again) or len(set(state.acting)) != len(state.acting) \
            or state.choices and len(state.choices) != players \
            or any(len(v) != players for v in state.counters.values()) \
            or any(not 0 <= k < n or not 0 <= v < players for k, v in state.prepaid.items()):
        raise bad("the round (acting seats, choices, counters or payments) does not fit the players")
    for f in state.frames + state.deferred:
        if f.pc < 0 or f.stop < f.pc - 1 or f.block < 0 or not 0 <= f.me < players:
            raise bad("a frame is out of range")
    if not 0 <= state.rng < 2**64:
        raise bad("the random generator state")
    if not is_seed(state.seed):
        raise bad(f"the seed {state.seed} is out of range")
    if state.fingerprint and not re.fullmatch(r"[0-9a-f]{32}", state.fingerprint):
        raise bad("the content fingerprint is not one")
    if not state.layers or any(not layer for layer in state.layers):
        raise bad("layers: no base game")
    if any(not h for h in state.history) or any(not c for c in state.chance):
        raise bad("an empty entry in history or chance")


def check_state(state: State, content: Content, validated: bool = False) -> None:
    """Everything in `state` that points into `content` points somewhere that exists: the state
    was made with this content (its fingerprint), and every item, zone slot, block, step, space,
    player and name is in range, so the game can play on from it.  Raises SaveFileError.
    `validated`: the state is what `loads` returned, whose checks of the state against itself
    (`_validate`) are not run again."""
    if not isinstance(state, State):
        raise SaveFileError(f"not a State: {type(state).__name__}")
    try:
        if not validated:
            _validate(state)  # a State built in Python, not read from a file, gets the same checks
        _check_state(state, content)
    except (TypeError, AttributeError, KeyError, IndexError) as exc:
        # A State built in Python (not read by `loads`, which checks every type) with a field
        # of the wrong type.
        raise SaveFileError(f"invalid state: a field has the wrong type ({type(exc).__name__}: {exc})") from None


def _check_state(state: State, content: Content) -> None:
    def bad(what: str) -> SaveFileError:
        return SaveFileError(f"invalid state: {what}")

    if state.fingerprint:
        if state.fingerprint != content.fingerprint():
            raise SaveFileError(f"this state was saved with other content than {' + '.join(content.layers)} "
                                f"(its items, zones or rules differ); load it with the card set it names: "
                                f"{' + '.join(state.layers)}")
    elif state.layers != list(content.layers):
        raise SaveFileError(f"this state was saved with {' + '.join(state.layers)}, not {' + '.join(content.layers)}")
    players, n_items = content.players, len(content.items)
    if state.players != players:
        raise bad(f"{state.players} players; this content has {players}")
    if len(state.loc) != n_items:
        raise bad(f"{len(state.loc)} items; this content has {n_items}")
    n_slots = sum(players if z.per_player else 1 for z in content.zones) + 1  # + the structure
    structure_slot = n_slots - 1
    if len(state.zones) != n_slots:
        raise bad(f"{len(state.zones)} zone slots; this content has {n_slots}")
    laid = {i for i in state.structure if i != NOWHERE}
    if not laid <= set(state.zones[structure_slot]):  # tokens may lie there too, on the cards
        raise bad("the structure does not match the cards laid out")
    if state.layout:
        layout = content.layouts.get(state.layout)
        if layout is None:
            raise bad(f"unknown layout {state.layout!r}")
        if len(state.structure) != len(layout.face_up):
            raise bad(f"the structure has {len(state.structure)} slots; layout {state.layout!r} has {len(layout.face_up)}")
    elif state.structure:
        raise bad("a structure without a layout")
    if state.layout and 0 <= state.age < len(content.age_layouts) and state.flow != "age_setup":
        # (an age lays out its structure last: while it sets up, the last age's layout lies there)
        dealt = content.age_layouts[state.age]
        if dealt and state.layout not in dealt:
            raise bad(f"layout {state.layout!r} in age {state.age + 1}, which lays out "
                      f"{' or '.join(repr(n) for n in sorted(dealt))}")
    if not -1 <= state.age < len(content.ages) or state.flow == "between" and state.age + 1 >= len(content.ages) \
            or state.age < 0 and state.flow not in ("start", "setup"):  # past the set-up, an age is under way
        raise bad(f"age {state.age}")
    if set(state.counters) != set(content.counters):
        raise bad(f"counters {sorted(state.counters)}; this content has {sorted(content.counters)}")
    if state.flow == "round":
        # (a round waits on the seats still to choose: none, and no one could move again)
        if not content.simultaneous or not state.acting or len(state.choices) != players \
                or all(state.choices[p] is not None for p in state.acting):
            raise bad("a round with no seat left to choose, or in a game of alternate turns")
    action_names = {a.name for a in content.actions}
    for choice in state.choices:
        if choice is not None and (not choice or choice[0] not in action_names):
            raise bad(f"a choice of the round names no action of this content: {choice!r}"[:200])
    capital = content.track.capital
    if abs(state.pawn) > capital:
        raise bad(f"the conflict pawn at {state.pawn}, beyond the capitals")
    spaces = max([capital + 1, players, *(z.spaces for z in content.zones)])
    if len(set(state.hidden)) != len(state.hidden) or any(not 0 <= i < n_items for i in state.hidden):
        raise bad("hidden names an item that does not exist")
    if state.known:
        decks = knowledge.deck_zones(content)
        slot_zone = [z.id for z in content.zones for _ in range(players if z.per_player else 1)]
        if any(i not in state.hidden and not (0 <= state.loc[i] < len(slot_zone) and slot_zone[state.loc[i]] in decks)
               for i in state.known):
            raise bad("known names an item that does not lie face down or in a deck no seat sees")
    if any(_in_a_loop(state.attached, k) for k in state.attached):
        raise bad("an item is attached to itself, or to an item that lies on it")
    if any(abs(v) > spaces for v in state.positions.values()):
        raise bad("an item stands on a space that does not exist")
    counted = {z.name: z for z in content.zones if z.counters}
    for name in ("cubes", "supply", "control"):
        table = getattr(state, name)
        if set(table) != set(counted):
            raise bad(f"{name} is for zones {sorted(table)}; this content has {sorted(counted)}")
    for name, z in counted.items():
        cubes, supply, control = state.cubes[name], state.supply[name], state.control[name]
        if (len(cubes) != players or any(len(row) != z.spaces or any(c < 0 for c in row) for row in cubes)
                or len(supply) != players or any(not 0 <= c <= z.counters for c in supply)
                or len(control) != z.spaces or any(not -1 <= c < players for c in control)):
            raise bad(f"the cubes of {name}")
        # (control follows the cubes: a move recomputes only the spaces it touches)
        if any(control[space] != (majority.majority_of(cubes, space) if z.majority else -1)
               for space in range(z.spaces)):
            raise bad(f"the control of {name} does not follow its cubes")
    blocks = content.blocks

    def block_ok(b: int) -> bool:
        return 0 <= b < len(blocks)

    def names_ok(block: int, env: dict, given: set) -> bool:
        return blocks[block].reads <= env.keys() | given

    for f in state.frames + state.deferred:   # (a deferred frame runs as any other, later)
        # (a `repeat`'s frame counts its rounds down in its stop: at most MAX_REPEAT of them)
        if not block_ok(f.block) or not 0 <= f.pc or not f.stop <= (
                MAX_REPEAT if blocks[f.block].rounds else len(blocks[f.block].steps)):
            raise bad("a frame points outside the rules")
        _check_env(f.env, content, spaces, bad)
        if not names_ok(f.block, f.env, set()):
            raise bad("a frame lacks a name its rules read")
    d = state.pending
    if d is not None:
        if state.flow == "over":
            raise bad("a decision pending in a finished game")
        limits = {"item": (0, n_items), "player": (0, players), "space": (-spaces, spaces + 1),
                  "option": (0, len(d.labels))}
        if d.kind not in limits:
            raise bad(f"a pending decision of unknown kind {d.kind!r}")
        low, high = limits[d.kind]
        if any(not low <= o < high for o in d.options) or len(set(d.options)) != len(d.options):
            raise bad("the options of the pending decision")
        if d.kind == "option":
            if len(d.bodies) != len(d.labels) or len(set(d.labels)) != len(d.labels) \
                    or not all(block_ok(b) for b in d.bodies):
                raise bad("the options of the pending decision")
        elif not block_ok(d.body):
            raise bad("the pending decision points outside the rules")
        if d.again_block != -1 and (not block_ok(d.again_block) or not 0 <= d.again_pc < len(blocks[d.again_block].steps)):
            raise bad("the pending decision points outside the rules")
        if not 0 <= d.again_me < players or d.remaining < 0:
            raise bad("the pending decision")
        _check_env(d.env, content, spaces, bad)
        # What the answer runs gets `chosen` (and its alias) on top of the decision's names.
        given = {"chosen", d.env.get("_alias")}
        if d.kind == "option" and not all(names_ok(b, d.env, set()) for b in d.bodies) \
                or d.kind != "option" and not names_ok(d.body, d.env, given) \
                or d.again_block != -1 and not names_ok(d.again_block, d.env, set()):
            raise bad("the pending decision lacks a name its rules read")
    # (what no game of this content could have: its trace, seed and actions, would not replay)
    unknown = next((o for o in state.options if o not in content.options), None)
    if unknown is not None:
        raise bad(f"unknown game option {unknown!r}; this game's options: {', '.join(content.options) or 'none'}")
    actions = {a.name for a in content.actions} | {CHOOSE, CHOOSE_PLAYER, CHOOSE_SPACE, CHOOSE_OPTION, PASS}
    if any(not entry or entry[0] not in actions for entry in state.history):
        raise bad("the history holds an action this game does not have")
    for name in ("script", "setup_script"):
        for zone, names in getattr(state, name).items():
            z = content.zone_index.get(zone)
            if z is None:
                raise bad(f"{name} names zone {zone!r}, which this content does not have")
            unknown = next((n for n in names if n not in content.item_index), None)
            if unknown is not None:
                raise bad(f"{name} names item {unknown!r}, which this content does not have")
    # (Where a draw still dictated lies now is not checked: a script may name items that reach
    # its zone only later, the guilds an Age III script names before Age III is set up; a draw
    # that cannot happen is refused when it comes, ScriptedDrawFailed, the game as it was.)


def _in_a_loop(attached: dict[int, int], item: int) -> bool:
    """Whether following what `item` lies on, and what that lies on, comes back to it."""
    host = attached.get(item, -1)
    for _ in range(len(attached)):
        if host == item:
            return True
        if host not in attached:
            return False
        host = attached[host]
    return True


_ENV_SCALARS = (int, str, bool, type(None))


def _check_env(env: dict, content: Content, spaces: int, bad) -> None:
    """A block's names: items, players, spaces, counts, resource names and the event."""
    n_items, players = len(content.items), content.players
    for key, value in env.items():
        if type(key) is not str:
            raise bad("a name in a frame is not a string")
        if key == "event":
            if type(value) is not dict or type(value.get("name")) is not str \
                    or type(value.get("by")) is not int or not 0 <= value["by"] < players \
                    or type(value.get("item", -1)) is not int or not -1 <= value.get("item", -1) < n_items \
                    or any(type(k) is not str or type(v) not in _ENV_SCALARS for k, v in value.items()):
                raise bad("an event in a frame")
        elif key == "_remaining":
            if type(value) is not int or value < 1:
                raise bad("a count in a frame")
        elif type(value) not in _ENV_SCALARS:
            raise bad(f"the name {key!r} in a frame holds a {type(value).__name__}")
        elif type(value) is int and not -spaces <= value < max(n_items, spaces + 1):
            raise bad(f"the name {key!r} in a frame holds {value}, which is no item, player or space")


def dumps(state: State) -> str:
    if not isinstance(state, State):   # (a Game given here failed inside `json`)
        raise TypeError(f"dumps saves a State (a game's `.state`), not {type(state).__name__}")
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


def not_text(value: object, takes: str) -> TypeError:
    """What to say of a save given as neither text nor bytes: a path or a Game, json's own
    "the JSON object must be str, bytes or bytearray" named neither way out."""
    hint = ("persistence.load_file reads a file" if isinstance(value, Path)
            else "a Game's state is `game.state`" if hasattr(value, "state")
            else "persistence.state_from_dict reads a dict" if isinstance(value, dict) else "")
    return TypeError(f"{takes}, not {type(value).__name__}" + (f": {hint}" if hint else ""))


def loads(text: str | bytes) -> State:
    if not isinstance(text, (str, bytes, bytearray)):
        raise not_text(text, "loads reads a save's text (str or bytes)")
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]   # (a byte order mark some editors write, as a trace may carry: not part of the JSON)
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"not valid JSON: {exc}") from None
    except RecursionError:   # (arrays nested past Python's limit: no save is)
        raise SaveFileError("not a save: its JSON is nested too deeply") from None
    return state_from_dict(data)


def load_file(path: Path) -> State:
    """`loads` of a file: only a regular file, of a bounded size (`rulesdsl.files.read_regular`)."""
    try:
        data = read_regular(Path(path))
    except FileProblem as exc:
        raise SaveFileError(str(exc)) from None
    return loads(data)


__all__ = ["SaveFileError", "check_state", "copy_state", "dumps", "load_file", "loads", "state_to_dict",
           "state_from_dict", "Frame", "Decision"]
