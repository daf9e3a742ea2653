"""What creates a game: the arguments a user gives (seed, options, script), checked, and the
state before set-up (every item in its deck, the cube supplies full)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from rulesdsl.model import Content
from rulesdsl.names import check_options

from . import chance
from .persistence import copy_state
from .state import State

if TYPE_CHECKING:
    from .game import Game


def compiled(content: object) -> None:
    """TypeError unless `content` is compiled content (a game's name or a Ruleset given where
    it goes failed on an attribute)."""
    if not isinstance(content, Content):
        raise TypeError(f"a game is made of compiled content (`load_ruleset(...).content`), not {type(content).__name__}")


def creation_args(content: Content, seed: object, options: object,
                  script: object) -> tuple[int, list[str], dict[str, list[str]]]:
    """The seed, options and script, checked against the content (ValueError, UnknownName):
    the values come from users and files."""
    compiled(content)
    if type(seed) is int and type(options) is tuple and not options and script is None and chance.is_seed(seed):
        return seed, [], {}   # (what the checks below give: every game of a simulation is made so)
    seed, options, script = _creation_args(seed, options, script)
    options = check_options(content.options, options)  # an unknown option would be ignored silently
    for label, names in script.items():
        if label not in content.zone_index:
            raise ValueError(f"scripted draw from {label}: there is no zone {label!r}")
        unknown = next((n for n in names if n not in content.item_index), None)
        if unknown is not None:
            raise ValueError(f"scripted draw from {label}: {unknown!r} is not an item of this game")
    return seed, options, script


def checked_options(content: Content, options: object) -> list[str]:
    """The game options a caller gave, as a game made of `content` takes them (sorted), checked
    as `creation_args` checks them (ValueError, UnknownName): for a run of many games, which
    refuses them before its first."""
    return creation_args(content, 0, options, None)[1]


def _creation_args(seed: object, options: object, script: object) -> tuple[int, list[str], dict[str, list[str]]]:
    """What creates a game, type-checked (ValueError): the values come from users and files.
    A numpy integer is a seed as its value, as it is wherever else the API takes a number."""
    if type(seed) is not int and not isinstance(seed, bool) and hasattr(seed, "__index__"):
        seed = operator.index(seed)
    if not chance.is_seed(seed):
        raise ValueError(f"the seed must be an integer from {chance.SEED_MIN} to {chance.SEED_MAX}, not {seed!r}")
    if isinstance(options, str):
        options = [options]  # one option, not a list of letters
    if isinstance(options, (bytes, dict, set, frozenset)):
        # (a dict's keys, a set's unordered names or a byte string's numbers would be taken
        # for names: `{"beginner_wonders": False}` would switch the option on)
        raise ValueError(f"options must be a list of names, not {options!r}")
    names = _iterable(options, "options")
    # A name that is not a string is refused by check_options as an unknown option (UnknownName).
    if script is None:
        return seed, names, {}
    if not isinstance(script, dict) or not all(
            type(k) is str and isinstance(v, (list, tuple)) and all(type(n) is str for n in v) for k, v in script.items()):
        raise ValueError("a script maps zone names to lists of item names")
    return seed, names, {k: list(v) for k, v in script.items()}


def _iterable(value: object, what: str) -> list:
    try:
        return list(value)  # type: ignore[call-overload]
    except TypeError:
        raise ValueError(f"{what} must be a list, not {value!r}") from None


def initial_state(g: Game, seed: int, options: list[str], script: dict[str, list[str]]) -> State:
    """The state before set-up: each item in its deck (in content order), nothing else dealt;
    `g` has its slot tables (`core.lay_out_slots`)."""
    content = g.content
    start = content._start_state
    if start is None:
        start = content._start_state = _start_state(g)
    # (A copy of the content's, the rest set: making the state and its every list costs twice
    # as much.  Nothing of the copy is the content's: a game plays on all of it.)
    state = copy_state(start)   # type: ignore[arg-type]
    state.options = options
    state.seed = seed
    state.rng = chance.seed_state(seed)
    state.script = {k: list(v) for k, v in script.items()} if script else {}
    state.setup_script = {k: list(v) for k, v in script.items()} if script else {}
    return state


def _start_state(g: Game) -> State:
    """`initial_state` of seed 0, no option and no script."""
    content = g.content
    players = content.players
    places, slots = g._start_places
    state = State(layers=list(content.layers), options=[], seed=0, players=players, loc=list(places),
                  zones=[list(items) for items in slots], coins=[0] * players, fingerprint=content.fingerprint())
    for z in content.zones:
        if z.counters:
            state.cubes[z.name] = [[0] * z.spaces for _ in range(players)]
            state.supply[z.name] = [z.counters] * players
            state.control[z.name] = [-1] * z.spaces
    state.counters = {name: [0] * players for name in content.counters}
    return state
