"""The pipeline: card files -> loaded and merged -> checked -> compiled content -> games.

The one driver of the front end, used by the command line, the testing tools and the API.  It
sits above both the front end (loader, checker, compiler) and the runtime (`rulesdsl.interpreter`,
which sees only the compiled `rulesdsl.model`), so neither imports the other.  `load_ruleset`,
`new_game` and `Ruleset` are also importable from `rulesdsl.interpreter`, as before."""

from __future__ import annotations

import functools
from pathlib import Path

import attrs

from .checker import check
from .compiler import Compiler, compile_invariants
from .diagnostics import RulesError
from .interpreter.budget import EffectFailed
from .interpreter.game import Game
from .interpreter.legality import stuck
from .interpreter.persistence import SaveFileError, loads, not_text
from .interpreter.state import State
from .limits import DEFAULT_MAX_STEPS
from .loader import Merged, canonical_expansions, default_game, load_paths, resolve_layers
from .model import Content
from .names import integer, layers_given


@attrs.frozen
class Compiled:
    """One run of the pipeline: the merged definitions, the compiler (scenarios compile their
    own expressions with it, adding blocks to the content) and the content."""

    merged: Merged
    compiler: Compiler
    content: Content


def compile_layers(expansions: list[str] | tuple[str, ...] = (), base: str | Path | None = None,
                   players: int | None = None) -> Compiled:
    """Load, check and compile a base game and expansions, in the order given (afresh, no cache),
    for `players` (None: the game's fewest).  Content with errors raises RulesError with every
    diagnostic; an unknown name UnknownName, a folder past the limits FolderProblem, a base
    without a `game` or a player count outside the game's range ValueError."""
    expansions, base = layers_of(expansions, base)
    merged = load_paths(resolve_layers(expansions, base))
    diagnostics = merged.diagnostics + (check(merged) if not merged.diagnostics else [])
    if any(d.severity == "error" for d in diagnostics):
        raise RulesError(diagnostics, merged.sources)
    if not merged.by_kind("game"):  # a folder with no card file at all: nothing to play
        raise ValueError(f"{base} defines no game (no `game` definition in its card files)")
    compiler = Compiler(merged, [str(base), *expansions], players)
    content = compiler.compile()
    content.invariants = compile_invariants(compiler, merged)
    return Compiled(merged, compiler, content)


def _compiled(_ruleset, _attribute, value: object) -> None:
    if not isinstance(value, Content):   # (a game's name given here failed at the first game)
        raise TypeError(f"a Ruleset holds compiled content, not {type(value).__name__}: "
                        "load a game by name with `load_ruleset(base=...)`")


@attrs.define
class Ruleset:
    """Compiled content; create any number of games from it."""

    content: Content = attrs.field(validator=_compiled)

    @classmethod
    def load(cls, expansions: list[str] | tuple[str, ...] = (), base: str | Path | None = None,
             players: int | None = None) -> "Ruleset":
        """Load and compile for `players` (None: the game's fewest); content with errors raises
        RulesError with every diagnostic, a count outside the game's range ValueError."""
        expansions, base = layers_of(expansions, base)
        return cls(compile_layers(canonical_expansions(expansions), base, player_count(players)).content)

    def new_game(self, seed: int = 0, options: list[str] | tuple[str, ...] = (),
                 script: dict[str, list[str]] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> Game:
        """`max_steps`: the step budget of the setup and of each action (interpreter/budget.py)."""
        return Game.create(self.content, seed=seed, options=options, script=script, max_steps=max_steps)


# The per-process cache: a command, a test session or a verify worker compiles each set once.
@functools.lru_cache(maxsize=32)
def _ruleset(expansions: tuple[str, ...], base: str, players: int | None) -> Ruleset:
    return Ruleset.load(expansions, base, players)


def load_ruleset(expansions: list[str] | tuple[str, ...] = (), base: str | Path | None = None,
                 players: int | None = None) -> Ruleset:
    """The compiled rules for a base game and expansions at a player count (None: the game's
    fewest), compiled once per process."""
    # (checked before the cache: 4.0 equals 4 as a key, and what failed for it was kept for 4)
    expansions, base = layers_of(expansions, base)
    return _ruleset(tuple(canonical_expansions(expansions)), base, player_count(players))


def layers_of(expansions: object, base: object) -> tuple[list[str], str]:
    """The expansions and the base game a caller gave (`names.layers_given`); a base of None is
    the bundled game that the first expansion naming one in its `base` names, else the bundled
    one (`loader.default_game`, as the commands default `--game`)."""
    named, given = layers_given(expansions, base)
    return named, default_game(named) if given is None else given


def player_count(players: object) -> int | None:
    """`players` as an int, or None (`integer_given`)."""
    return None if players is None else integer_given(players, "players")


def integer_given(value: object, what: str) -> int:
    """An integer a caller gave (`rulesdsl.names.integer`): TypeError for a float, a string, a bool."""
    return integer(value, what)


def new_game(expansions: list[str] | tuple[str, ...] = (), seed: int = 0, options: list[str] | tuple[str, ...] = (),
             script: dict[str, list[str]] | None = None, base: str | Path | None = None,
             max_steps: int = DEFAULT_MAX_STEPS, players: int | None = None) -> Game:
    """Start a game: a bundled base game plus expansions, by name or folder path, for `players`
    (None: the game's fewest).  `max_steps` bounds the work of the setup and of each action
    (BudgetExceeded beyond it; an effect that cannot go on raises EffectFailed, its base)."""
    return load_ruleset(expansions, base, players).new_game(seed=seed, options=options, script=script,
                                                            max_steps=max_steps)


def load_game(saved: "str | bytes | State", content: "Content | Ruleset | None" = None) -> Game:
    """A game to play on from a save (text, or a State already loaded), checked against the
    content: `content` (or a Ruleset's) when given, else the card set the save names (its
    `layers`).  Raises SaveFileError for anything that cannot be played on, including another
    card set's save; TypeError for a `content` that is neither."""
    if isinstance(content, Ruleset):
        content = content.content
    elif content is not None and not isinstance(content, Content):   # (it was blamed on the save)
        raise TypeError(f"content must be compiled content or a Ruleset, not {type(content).__name__}")
    if not isinstance(saved, (State, str, bytes, bytearray)):
        raise not_text(saved, "load_game takes a save's text (str or bytes) or a State")
    validated = not isinstance(saved, State)   # (`loads` checks the state against itself)
    state = saved if isinstance(saved, State) else loads(saved)
    if content is None:
        try:
            content = load_ruleset(tuple(state.layers[1:]), state.layers[0], state.players).content
        except RulesError as exc:
            first = exc.first
            said = f"{first.span.file}:{first.span.line}:{first.span.column}: {first.message}" if first else "errors"
            raise SaveFileError(f"the content the save names does not load: {said}") from None
        except (ValueError, OSError) as exc:
            raise SaveFileError(f"the content the save names does not load: {exc}") from None
    game = Game(content, state, validated=validated)
    try:
        why = stuck(game)
    except (ValueError, KeyError, IndexError, TypeError, EffectFailed) as exc:
        why = f"its legal actions cannot be worked out ({exc})"
    if why is not None:
        raise SaveFileError(f"invalid state: {why}"[:300])
    return game


__all__ = ["Compiled", "Ruleset", "compile_layers", "load_game", "load_ruleset", "new_game"]
