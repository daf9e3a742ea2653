"""Traces: how a game was created and every action applied, so it can be replayed exactly."""

from __future__ import annotations

import json
from pathlib import Path

from .diagnostics import RulesError
from .files import FileProblem, read_regular, write_atomic
from .interpreter.actions import CHOOSE, Action, IllegalAction, briefly
from .interpreter.budget import DEFAULT_MAX_STEPS, EffectFailed, ScriptedDrawFailed
from .interpreter.chance import SEED_MAX, SEED_MIN, is_seed
from .interpreter.decisions import unseen_place
from .interpreter.game import Game
from .interpreter.persistence import dumps, loads
from .limits import MAX_PLAYERS
from .loader import BASE_GAME
from .names import UnknownName
from .pipeline import Ruleset, load_ruleset
from .safe_text import canonical

FORMAT = "rulesdsl-trace"
# 2: seeds are mixed through a hash (a version 1 trace's seed drew other dice); 3: a choice's
# answer names an item lying face down by its place (`choose slot 7 (face down)`), where version
# 2 named the item: a version 2 trace is read as version 3 writes it (`_upgraded`).
VERSION = 3


class TraceError(ValueError):
    """A trace file that cannot be replayed."""


def trace_of(game: Game) -> dict:
    st = game.state
    data = {**trace_start(st.layers, st.players, st.seed, st.options, st.setup_script),
            "actions": [list(a) for a in st.history]}
    chosen = unrecorded_choices(game)
    if chosen:
        data["round"] = [[seat, *choice] for seat, choice in chosen]
    data["final"] = {"winner": st.winner, "victory": st.victory, "coins": st.coins, "pawn": st.pawn,
                     "scores": [game.score(p) for p in range(st.players)]}
    data["final_state"] = dumps(_comparable(game))
    return data


def unrecorded_choices(game: Game) -> list[tuple[int, list[str]]]:
    """The choices of the round under way that the history does not hold yet, as (seat, action).

    The history takes a round's choices in seat order, as the run of seats that have chosen
    from the round's first grows; a later seat may choose first (`apply(action, seat=2)`), and
    its choice waits outside the history until the seats before it have chosen.  A trace keeps
    them under `round`, applied for their seats after the actions."""
    st = game.state
    run = 0
    for p in st.acting:
        if st.choices[p] is None:
            break
        run += 1
    return [(p, list(st.choices[p])) for p in st.acting[run:] if st.choices[p] is not None]


def trace_start(layers: list[str], players: int, seed: int, options: list[str], script: dict) -> dict:
    """What creates a trace's game, and no action yet (a game whose set-up fails has no more)."""
    return {"format": FORMAT, "version": VERSION, "base": layers[0], "expansions": list(layers[1:]),
            "players": players, "seed": seed, "options": list(options), "script": script, "actions": []}


def _comparable(game: Game):
    return game.state


def save_trace(game: Game, path: Path) -> None:
    """Write the trace atomically: a failed write (rulesdsl.files.FileProblem) leaves any old file intact."""
    write_atomic(Path(path), json.dumps(trace_of(game), indent=1) + "\n")


def load_trace(path: Path) -> dict:
    """Read and check a trace file (a regular file of bounded size); raises TraceError."""
    try:
        text = read_regular(Path(path), MAX_TRACE_BYTES)
    except FileProblem as exc:
        raise TraceError(str(exc)) from None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise TraceError(f"cannot read trace {path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TraceError(f"{path} is not a rulesdsl trace")
    try:
        return validate_trace(data)
    except TraceError as exc:
        raise TraceError(f"{path}: {exc}") from None


MAX_TRACE_BYTES = 16 * 1024 * 1024  # a long game's trace is tens of kB
MAX_TRACE_PLAYERS = MAX_PLAYERS     # a count past any game's: refused before anything is compiled
_FINAL_KEYS = ("winner", "victory", "coins", "pawn", "scores")
_VERIFY_KEYS = {"invariant": str, "message": str, "detail": str, "game_index": int, "original_length": int,
                "max_steps": int, "max_actions": int}


def _is_int(x: object) -> bool:
    return type(x) is int  # not bool


def _strings(x: object, non_empty: bool = False) -> bool:
    return type(x) is list and all(type(s) is str and (s or not non_empty) for s in x)


def validate_trace(data: object) -> dict:
    """The trace with every key checked (types and ranges) and the optional ones filled in;
    raises TraceError naming the first bad key.  Only `format` and `actions` are required."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TraceError("not a rulesdsl trace (no \"format\": \"rulesdsl-trace\")")
    known = {"format", "version", "base", "expansions", "players", "seed", "options", "script", "actions", "round",
             "final", "final_state", "verify"}
    extra = sorted(k for k in data if k not in known)
    if extra:
        raise TraceError(f"unknown key {extra[0]!r} in the trace")

    def bad(key: str, want: str) -> TraceError:
        return TraceError(f"`{key}` must be {want}, not {json.dumps(data[key])[:60]}")

    out = dict(data)
    version = out.setdefault("version", VERSION)
    if version == 1 and _is_int(version):
        raise TraceError("trace version 1 was written by an older rulesdsl whose seeds drew other dice; "
                         f"it cannot be replayed (expected version 2 or {VERSION})")
    if not _is_int(version) or version not in (2, VERSION):
        raise TraceError(f"trace version {json.dumps(version)[:20]} is not supported (expected {VERSION})")
    base = out.setdefault("base", BASE_GAME)
    if type(base) is not str or not base:
        raise bad("base", "the name or folder of a base game")
    if not _strings(out.setdefault("expansions", []), non_empty=True):
        raise bad("expansions", "a list of expansion names or folders")
    players = out.setdefault("players", None)  # None (older traces): the game's fewest
    if players is not None and (not _is_int(players) or not 1 <= players <= MAX_TRACE_PLAYERS):
        raise bad("players", f"the number of players, 1 to {MAX_TRACE_PLAYERS}")
    if not is_seed(out.setdefault("seed", 0)):
        raise bad("seed", f"an integer from {SEED_MIN} to {SEED_MAX}")
    if not _strings(out.setdefault("options", [])):
        raise bad("options", "a list of option names")
    script = out.get("script")
    if script is None:
        out["script"] = {}
    elif type(script) is not dict or not all(type(k) is str and _strings(v) for k, v in script.items()):
        raise bad("script", "an object mapping zone names to lists of item names")
    actions = data.get("actions")
    if type(actions) is not list:
        raise TraceError("`actions` must be a list of actions")
    for i, raw in enumerate(actions):
        if not _strings(raw) or not raw or not raw[0]:
            raise TraceError(f"action {i + 1} is malformed: {json.dumps(raw)[:60]} (expected [name, argument, ...])")
    chosen = out.setdefault("round", [])
    if type(chosen) is not list or not all(
            type(raw) is list and len(raw) >= 2 and _is_int(raw[0]) and raw[0] >= 0 and _strings(raw[1:]) and raw[1]
            for raw in chosen):
        raise bad("round", "a list of a round's choices, each [seat, name, argument, ...]")
    if len({raw[0] for raw in chosen}) != len(chosen):
        raise TraceError("`round` gives a seat two choices")
    final = out.setdefault("final", {})
    if type(final) is not dict:
        raise bad("final", "an object")
    extra = sorted(k for k in final if k not in _FINAL_KEYS)
    if extra:
        raise TraceError(f"unknown key {extra[0]!r} in `final`")
    checks = {"winner": lambda v: v is None or _is_int(v), "victory": lambda v: v is None or type(v) is str,
              "coins": lambda v: type(v) is list and all(_is_int(c) for c in v), "pawn": _is_int,
              "scores": lambda v: type(v) is list and all(
                  type(s) is dict and all(type(k) is str and _is_int(n) for k, n in s.items()) for s in v)}
    for key, value in final.items():
        if not checks[key](value):
            raise TraceError(f"`final.{key}` has the wrong type: {json.dumps(value)[:60]}")
    if "final_state" in out and type(out["final_state"]) is not str:
        raise bad("final_state", "a string (a saved state)")
    info = out.get("verify")
    if info is not None:
        if type(info) is not dict:
            raise bad("verify", "an object")
        for key, value in info.items():
            want = _VERIFY_KEYS.get(key)
            ok = (value is None or _strings(value, non_empty=True) and bool(value)) if key == "then" \
                else want is not None and type(value) is want
            if not ok:
                raise TraceError(f"`verify.{key}` is unknown or has the wrong type")
    return _upgraded(out) if out["version"] == 2 else out


def _upgraded(data: dict) -> dict:
    """A version 2 trace as version 3 writes it: each answer that named an item lying face down
    (among the actions, and a `verify` trace's `then`) names its place instead.  Which answers
    those are shows only in play, so the trace is played (no check but legality) as far as its
    actions go; the rest is left as it was, for the replay to report where it stops."""
    try:   # (with the larger budget: `play --load` replays with the default, `replay` with the recorded one)
        game = new_game_of(data, max(recorded_max_steps(data), DEFAULT_MAX_STEPS))
    except EffectFailed:   # (a set-up that does not end: the replay reports it)
        return {**data, "version": VERSION}
    actions = [list(raw) for raw in data["actions"]]
    if actions:
        actions[0] = _named_as_now(game, actions[0])
    played = 0
    for raw in actions:
        try:
            game.apply(Action(raw[0], tuple(raw[1:])))
        except (IllegalAction, EffectFailed, ValueError):
            break
        played += 1
        if played < len(actions):
            actions[played] = _named_as_now(game, actions[played])
    out = {**data, "version": VERSION, "actions": actions}
    info = data.get("verify")
    if played == len(actions) and info and info.get("then"):
        out["verify"] = {**info, "then": _named_as_now(game, info["then"])}
    recorded = data.get("final_state")
    if recorded is not None and actions != data["actions"]:
        # The recorded end holds the history as version 2 named it: named as now as far as
        # the history is the actions one for one (the rest, where a trace was cut or edited,
        # is left as it was, and compared so: the replay names the first action that differs).
        try:
            end = loads(recorded)
        except Exception:   # (a broken saved state: the replay's comparison says so)
            return out
        same = 0
        for old, raw in zip(end.history, data["actions"]):
            if old != raw:
                break
            same += 1
        if same:
            end.history[:same] = [list(raw) for raw in actions[:same]]
            out["final_state"] = dumps(end)
    return out


def _named_as_now(game: Game, raw: list[str]) -> list[str]:
    """A version 2 action as version 3 names it, in the position it is applied in: an answer that
    named an item lying face down (the copy the engine took: the content's first of that name
    where it was offered) names its place."""
    d = game.state.pending
    index = game.content.item_index
    if d is None or d.kind != "item" or raw[0] != CHOOSE or len(raw) != 2 or raw[1] not in index:
        return list(raw)
    first = index[raw[1]]
    offered = [first] if first in d.options else [o for o in d.options if game.item_names[o] == raw[1]]
    place = unseen_place(game, offered[0]) if offered else None
    return [CHOOSE, place] if place is not None else list(raw)


def new_game_of(data: dict, max_steps: int = DEFAULT_MAX_STEPS) -> Game:
    """The game a (validated) trace starts from; content or set-up that cannot be created
    raises TraceError with one line."""
    rules = rules_of(data)
    try:
        return rules.new_game(seed=data["seed"], options=data["options"], script=data["script"] or None,
                              max_steps=max_steps)
    except UnknownName as exc:  # already says what is unknown, the closest name and all of them
        raise TraceError(str(exc)) from None
    except ValueError as exc:
        raise TraceError(f"the game the trace describes cannot be created: {exc}") from None


def rules_of(data: dict) -> Ruleset:
    """The rules a (validated) trace names; content that does not load raises TraceError."""
    try:
        rules: Ruleset = load_ruleset(tuple(data["expansions"]), data["base"], data["players"])
    except RulesError as exc:
        first = exc.first
        where = f"{first.span.file}:{first.span.line}:{first.span.column}: {first.message}" if first else "errors"
        raise TraceError(f"the content the trace names does not load ({where}); run `rulesdsl check`") from None
    except (ValueError, OSError) as exc:
        raise TraceError(f"the content the trace names does not load: {exc}{_elsewhere(data)}") from None
    return rules


def _elsewhere(data: dict) -> str:
    """A hint where a trace names a folder by a relative path that is not here: a trace keeps
    folders as they were given, relative to where the game was played, and replayed from
    another directory such a folder read as an unknown bundled name."""
    import os
    from .loader import bundled_folder
    missing = [name for name, kind in ((data["base"], "game"), *((e, "expansion") for e in data["expansions"]))
               if not os.path.isabs(name) and not os.path.lexists(name) and bundled_folder(name, kind) is None]
    if not missing:
        return ""
    # (the loader's message has said that no such folder is here)
    return (" (a trace names a folder as it was given, relative to the directory the game was played "
            "in: replay it from there)")


def actions_of(data: dict) -> list[Action]:
    """A (validated) trace's actions, each name in the form card files give it (a trace written
    by hand may spell `Café` with a combining accent)."""
    return [Action(raw[0], tuple(canonical(a) for a in raw[1:])) for raw in data["actions"]]


def round_of(data: dict) -> list[tuple[int, Action]]:
    """The choices a trace's round under way holds beyond its actions, as (seat, action)."""
    return [(raw[0], Action(raw[1], tuple(canonical(a) for a in raw[2:]))) for raw in data.get("round", [])]


def compare_end(game: Game, data: dict) -> list[str]:
    """The differences between the game and the end the trace records (empty: the same).  A
    trace recorded with other card files (`other_cards`) is compared by its `final` only: its
    saved state is laid out for those cards."""
    diffs = []
    recorded = data.get("final_state")
    if recorded is not None and not other_cards(game.state.fingerprint, data):
        replayed = dumps(_comparable(game))
        if replayed != recorded:
            diffs.append(state_difference(recorded, replayed))
    now = trace_of(game)["final"]
    for key, value in data.get("final", {}).items():
        if now.get(key) != value:
            diffs.append(f"{key}: recorded {value!r}, replayed {now.get(key)!r}")
    return diffs


SHOWN_FIELDS = 8   # (a state that differs in more names the first ones and how many more)


def state_difference(recorded: str, replayed: str) -> str:
    """What differs between two saved states of one game: the first action where their
    histories part (an edited action that stayed legal), and the names of the other parts of
    the state that differ (`coins`, `zones`...)."""
    said = "the final state differs from the recorded one"
    try:
        old, new = json.loads(recorded)["state"], json.loads(replayed)["state"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return said
    if not isinstance(old, dict):
        return said
    parts = []
    before, after = old.get("history"), new["history"]
    if isinstance(before, list) and before != after:
        k = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), None)
        if k is not None:
            parts.append(f"action {k + 1}: recorded `{_entry(before[k])}`, replayed `{_entry(after[k])}`")
        else:
            parts.append(f"the recorded game has {len(before)} actions, the replay {len(after)}")
    fields = [name for name, value in new.items() if name != "history" and old.get(name) != value]
    if fields:
        more = f" and {len(fields) - SHOWN_FIELDS} more" if len(fields) > SHOWN_FIELDS else ""
        parts.append(f"differing: {', '.join(fields[:SHOWN_FIELDS])}{more}")
    return f"{said} ({'; '.join(parts)})" if parts else said


def _entry(entry: object) -> str:
    """A history entry as a refusal names an action (long names cut)."""
    if isinstance(entry, list) and entry and all(isinstance(x, str) for x in entry):
        return briefly(Action(entry[0], tuple(entry[1:])))
    return briefly(entry)


# What `replay` and `verify --trace` say of a trace `other_cards` finds, before what follows of it.
OTHER_CARDS = "note: the trace was recorded with other card files (their fingerprint differs)"
OTHER_CARDS_END = f"{OTHER_CARDS}: its end is compared by winner, victory, coins, pawn and scores only"


def other_cards(fingerprint: str, data: dict) -> bool:
    """Whether the trace's saved final state was made with other card files than those of this
    `fingerprint` (`Content.fingerprint`): an edited card file, or rulesdsl's bundled cards
    since changed."""
    recorded = data.get("final_state")
    if recorded is None:
        return False
    try:
        recorded_with = loads(recorded).fingerprint   # ("" in a save of format 1: not known)
        return bool(recorded_with) and recorded_with != fingerprint
    except Exception:   # (a broken saved state: compared, and found different)
        return False


def recorded_max_steps(data: dict) -> int:
    """The step budget a `verify` trace recorded (`verify.max_steps`), else the default."""
    info = data.get("verify")
    steps = info.get("max_steps") if isinstance(info, dict) else None
    return steps if type(steps) is int and steps > 0 else DEFAULT_MAX_STEPS


def replay(data: dict, max_steps: int = DEFAULT_MAX_STEPS) -> tuple[Game, list[str]]:
    """Re-run a trace; returns the game and the differences from the recorded end (empty: same).
    A malformed trace raises TraceError, an action not legal in the replay IllegalAction, an
    action whose effects do not end within `max_steps` BudgetExceeded (an EffectFailed, as is an
    effect that cannot go on)."""
    data = validate_trace(data)
    game = new_game_of(data, max_steps)
    steps = [(None, action) for action in actions_of(data)] + round_of(data)
    for i, (seat, action) in enumerate(steps, start=1):
        try:
            game.apply(action, seat)
        except ScriptedDrawFailed as exc:   # the trace's script dictates a draw that cannot happen
            raise TraceError(f"action {i} ({action}): {exc}") from None
        except EffectFailed as exc:
            raise exc.within(f"action {i} of {len(steps)}") from None
        except IllegalAction as exc:
            # (the same error, saying where the trace stops fitting: an edited trace's action)
            exc.args = (f"action {i} of {len(steps)}: {exc}",)
            raise
        except ValueError as exc:  # a seat past the game's
            raise TraceError(f"action {i} ({action}): {exc}") from None
    return game, compare_end(game, data)
