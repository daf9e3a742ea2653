"""Hypothesis strategies for any content set: set-ups, action sequences drawn from the legal
actions, and the games they reach.  Shrinking makes a failing example a short action sequence
of simple choices (the first legal action wherever possible).

    from hypothesis import given
    from rulesdsl.testing import strategies as rs, check_game

    @given(rs.action_sequences(expansions=["my_cards"]))
    def test_my_rule(play):
        game = play.game          # the position reached; play.actions says how
        check_game(game)          # every invariant of rulesdsl.testing.invariants
        assert game.state.coins[0] < 99

Content: `base` is a bundled game (`duel`, `classic`) or a folder (None, the default: the game
the expansions' `base` names, else `duel`); `expansions` bundled names or folders, as for
`rulesdsl.interpreter.load_ruleset`; `players` the player count (None: the
game's fewest), e.g. `rs.action_sequences(base="classic", players=5)`.

With the `hypothesis` entry point (pyproject.toml) `st.from_type(Game)`, `st.from_type(Playthrough)`
and `st.from_type(Setup)` work in any test: they draw from the bundled base game.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterable

import attrs
from hypothesis import reject
from hypothesis import strategies as st

from rulesdsl.testing.untraced import untraced

if TYPE_CHECKING:
    from rulesdsl.interpreter.actions import Action
    from rulesdsl.interpreter.game import Game

DEFAULT_MAX_ACTIONS = 200   # more than any game of the bundled sets needs to end


def _key(expansions: Iterable[str], base) -> tuple[str, tuple[str, ...]]:
    """The base game and the expansions, each a name or a folder, as `load_ruleset` takes them
    (one name alone is one expansion, not its letters)."""
    from rulesdsl.pipeline import layers_of
    named, b = layers_of(expansions, base)
    return b, tuple(named)


# Content that did not load, by (base, expansions, players): the error it raised.
_FAILED_LOADS: dict[tuple, Exception] = {}


def ruleset(expansions: Iterable[str] = (), base=None, players: int | None = None):
    """The compiled content (cached per process; so is the error of content that does not load)."""
    from rulesdsl.diagnostics import RulesError
    from rulesdsl.files import FileProblem
    from rulesdsl.pipeline import load_ruleset
    b, e = _key(expansions, base)
    key = (b, e, players)
    failed = _FAILED_LOADS.get(key)
    if failed is None:
        try:
            return load_ruleset(e, b, players)
        except (RulesError, FileProblem, ValueError) as exc:
            # Every example draws the content again, and hypothesis draws some hundred failing
            # ones (its explain phase traces each): loaded afresh each time, cards with a typo
            # took 30 s to report.  (Errors whose message says all: an engine bug keeps its frames.)
            failed = _FAILED_LOADS[key] = exc
    # Raised from this line every time: hypothesis, seeing one error raised from two places,
    # called the test flaky.
    raise _afresh(failed)


def _afresh(error: Exception) -> Exception:
    """A load error raised once more, without the notes and frames the last raise gave it."""
    if hasattr(error, "__notes__"):
        del error.__notes__
    return error.with_traceback(None)


def _names(value) -> tuple[str, ...]:
    """Names as a tuple: one name alone is one name, not its letters (`names_given`)."""
    from rulesdsl.names import names_given
    return tuple(names_given(value))


def _script(value) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A script as `Setup` keeps it, pairs of (zone, names), from a dict (as its repr writes it,
    so that a falsifying example pasted back into a test plays) or pairs."""
    pairs = value.items() if isinstance(value, dict) else value
    return tuple((zone, tuple(names)) for zone, names in pairs)


@attrs.frozen
class Setup:
    """How a game is created: content, seed, options, and the chance outcomes dictated."""

    base: str = "duel"
    expansions: tuple[str, ...] = attrs.field(default=(), converter=_names)
    seed: int = 0
    options: tuple[str, ...] = attrs.field(default=(), converter=_names)
    script: tuple[tuple[str, tuple[str, ...]], ...] = attrs.field(default=(), converter=_script)
    players: int | None = None

    def new_game(self) -> Game:
        rules = ruleset(self.expansions, self.base, self.players)
        return rules.new_game(seed=self.seed, options=list(self.options),
                              script={k: list(v) for k, v in self.script} or None)

    def __repr__(self) -> str:
        parts = [f"base={self.base!r}"] + ([f"expansions={self.expansions!r}"] if self.expansions else [])
        if self.players is not None:
            parts.append(f"players={self.players}")
        parts.append(f"seed={self.seed}")
        if self.options:
            parts.append(f"options={self.options!r}")
        if self.script:
            parts.append("script={" + ", ".join(f"{k!r}: {list(v)!r}" for k, v in self.script) + "}")
        return f"Setup({', '.join(parts)})"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        # Hypothesis's printer (the falsifying example) prefers this to the call that built the
        # Setup, which it printed as `Setup('duel', (), 1, (), (), None)`: its repr, by keyword.
        printer.text(repr(self))


@attrs.frozen
class Playthrough:
    """A setup and the legal actions applied to it; `game` is the position reached."""

    setup: Setup
    actions: tuple[Action, ...]
    game: Game = attrs.field(eq=False, repr=False)

    @classmethod
    def of(cls, setup: Setup, actions: Iterable[Action | str]) -> Playthrough:
        """The playthrough of these actions (`Action`s, or as `str(action)` writes them) from
        `setup`: what a falsifying example prints, to paste into a test of its own."""
        from rulesdsl.interpreter.actions import Action
        if isinstance(actions, (str, Action)):
            # (read letter by letter, an action text such as 'choose X' failed as "empty action"; as run_checked says it)
            raise TypeError("actions must be a list of Actions or action texts, not "
                            + ("one Action" if isinstance(actions, Action) else "a string"))
        parsed = tuple(a if isinstance(a, Action) else Action.parse(a) for a in actions)
        with untraced():
            game = setup.new_game()
            for a in parsed:
                game.apply(a)
        return cls(setup, parsed, game)

    def replay(self) -> Game:
        """A fresh game through the same actions (an independent copy of `game`)."""
        with untraced():
            game = self.setup.new_game()
            for a in self.actions:
                game.apply(a)
        return game

    def trace(self) -> dict:
        """The game as a trace (rulesdsl.trace): save it and `rulesdsl replay` re-runs it."""
        from rulesdsl.trace import trace_of
        return trace_of(self.replay())

    def __repr__(self) -> str:
        shown = [str(a) for a in self.actions]
        return f"Playthrough({self.setup!r}, {len(shown)} actions: {shown!r})"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        # How hypothesis prints a falsifying example: Python that makes it again (`of`), one
        # action a line, where it printed the game as `<Game object at 0x...>`.
        printer.text(f"Playthrough.of({self.setup!r}, [")
        with printer.indent(4):
            for a in self.actions:
                printer.break_()
                printer.text(f"{str(a)!r},")
        if self.actions:
            printer.break_()
        printer.text("])")


# -- set-ups ---------------------------------------------------------------------------------------

def _seeds(seeds: st.SearchStrategy[int] | None) -> st.SearchStrategy[int]:
    return st.integers(0, 2**31 - 1) if seeds is None else _strategy(seeds, "seeds", "st.just(3)")


def _strategy(value: object, name: str, example: str) -> st.SearchStrategy:
    """A strategy the caller gave, checked when the strategy is made: anything else failed only
    once drawn, inside hypothesis (`setups=3`: "'int' object has no attribute 'validate'")."""
    if not isinstance(value, st.SearchStrategy):
        raise TypeError(f"{name} must be a hypothesis strategy (e.g. {name}={example}), not {type(value).__name__}")
    return value


def setups(expansions: Iterable[str] = (), base=None, *, options: Iterable[str] = (),
           seeds: st.SearchStrategy[int] | None = None, players: int | None = None) -> st.SearchStrategy[Setup]:
    """Games created from a drawn seed (the seed decides every random draw)."""
    b, e = _key(expansions, base)
    return st.builds(Setup, st.just(b), st.just(e), _seeds(seeds), st.just(_names(options)), st.just(()),
                     st.just(players))


_plain_setups = setups


@functools.lru_cache(maxsize=32)
def _setup_draws(base: str, expansions: tuple[str, ...], options: tuple[str, ...],
                 players: int | None = None) -> tuple:
    """(zone, pool of items, how many drawn) for each chance step of the set-up (up to the
    first turn), found by creating one game; only zones whose items start there are scripted."""
    rules = ruleset(expansions, base, players)
    content = rules.content
    game = _through_setup(rules.new_game(seed=0, options=list(options)))
    counts: dict[str, int] = {}
    drawn: dict[str, set[str]] = {}
    for label, *items in game.state.chance:
        counts[label] = counts.get(label, 0) + len(items)
        drawn.setdefault(label, set()).update(items)
    out = []
    for label, n in counts.items():
        zone = content.zone_index.get(label)
        if zone is None:
            continue
        pool = tuple(it.name for it in content.items if it.deck == zone)
        if n and len(pool) >= n and drawn[label] <= set(pool):
            out.append((label, pool, n - _unseen(rules, options, label, pool[:n])))
    return tuple(out)


def _through_setup(game):
    """`game` after the set-up's decisions (the draft), each answered with its first option."""
    guard = 0
    while game.state.pending is not None and not game.over and guard < 500:
        game.apply(game.legal_actions()[0])
        guard += 1
    return game


def _unseen(rules, options: tuple[str, ...], label: str, names: tuple[str, ...]) -> int:
    """How many of a zone's draws are unseen (cards leaving the game face down, which a script
    never dictates: they take the cards it does not name): a script naming every card drawn
    left them none, and the set-up was dealt short."""
    game = _through_setup(rules.new_game(seed=0, options=list(options), script={label: list(names)}))
    return sum(asked - found for zone, asked, found, _age in game.short_draws if zone == label)


def scripted_setups(expansions: Iterable[str] = (), base=None, *, options: Iterable[str] = (),
                    seeds: st.SearchStrategy[int] | None = None, players: int | None = None
                    ) -> st.SearchStrategy[Setup]:
    """Set-ups whose random draws up to the first turn (the structure of Age I, the progress
    tokens, the wonders of the draft, the gods, ...) are drawn by hypothesis itself: they shrink
    towards the order of the card files."""
    b, e = _key(expansions, base)
    opts = _names(options)
    seeds = _seeds(seeds)

    @st.composite
    def draw_setup(draw) -> Setup:
        script = []
        for label, pool, n in _setup_draws(b, e, opts, players):
            order = draw(st.permutations(pool))
            script.append((label, tuple(order[:n])))
        seed = draw(seeds)
        setup = Setup(b, e, seed, opts, tuple(script), players)
        try:
            with untraced():
                setup.new_game()
        except ValueError:
            reject()  # a scripted draw was not possible in this content
        return setup
    return draw_setup()


# -- action sequences and games --------------------------------------------------------------------

def action_sequences(expansions: Iterable[str] = (), base=None, *, options: Iterable[str] = (),
                     max_actions: int = DEFAULT_MAX_ACTIONS, min_actions: int = 0,
                     setups: st.SearchStrategy[Setup] | None = None, scripted: bool = False,
                     players: int | None = None) -> st.SearchStrategy[Playthrough]:
    """A setup, then up to `max_actions` actions, each drawn from the legal actions of the
    position (the game stops earlier if it ends).  Shrinks to fewer actions and to the first
    legal action at each step.  In a simultaneous round each action is the choice of the seat
    to move (`Game.to_move`), so a sequence replays with `apply` alone."""
    from rulesdsl.names import integer
    # (a negative bound drew games of no action, silently, as a `min_actions` above `max_actions` did)
    max_actions = integer(max_actions, "max_actions", least=0)
    min_actions = integer(min_actions, "min_actions", least=0)
    if min_actions > max_actions:
        raise ValueError(f"min_actions ({min_actions}) must not be above max_actions ({max_actions})")
    if setups is None:
        setups = (scripted_setups if scripted else _plain_setups)(expansions, base, options=options,
                                                                  players=players)
    setups = _strategy(setups, "setups", "rs.setups(...)")
    return _playthroughs(setups, min_actions, max_actions)


@attrs.define
class _Drawing:
    """A playthrough being drawn: what an error raised on the way reports (`way_there`)."""

    setup: Setup
    actions: list[Action] = attrs.Factory(list)
    trying: Action | None = None   # the action being applied, until it is


@st.composite
def _playthroughs(draw, setup_strategy, min_actions: int, max_actions: int, to_the_end: bool = False) -> Playthrough:
    drawing = _Drawing(draw(setup_strategy))
    # The engine's lines are not the test's: untraced, shrinking a whole game is 7-10x faster.
    with untraced():
        # Content that does not load says so on its own (no way there to tell): loaded first.
        ruleset(drawing.setup.expansions, drawing.setup.base, drawing.setup.players)
        try:
            game = drawing.setup.new_game()
            _play_on(draw, game, drawing, min_actions, max_actions, to_the_end)
        except Exception as exc:
            # Raised while the example is drawn, the error never reaches the test as an argument,
            # so hypothesis prints no falsifying example: the shrunk way there would be lost.
            exc.add_note(way_there(drawing))
            raise
    return Playthrough(drawing.setup, tuple(drawing.actions), game)


def _play_on(draw, game: Game, drawing: _Drawing, min_actions: int, max_actions: int, to_the_end: bool) -> None:
    """Apply drawn legal actions to `game`, each recorded in `drawing`."""
    actions = drawing.actions
    # Before each action (past min_actions) a "go on?" draw: hypothesis shrinks a sequence by
    # deleting steps and lowering choices much better this way than with a length drawn first.
    while not game.over and len(actions) < max_actions:
        if not to_the_end and len(actions) >= min_actions and draw(st.integers(0, 40)) == 0:
            break
        legal = game.legal_actions()
        if not legal:
            break
        drawing.trying = legal[draw(st.integers(0, len(legal) - 1))]
        game.apply(drawing.trying)
        actions.append(drawing.trying)
        drawing.trying = None
    if to_the_end and not game.over:
        # A game that cannot be played to its end is the finding, not an example to hand over
        # unfinished: the test fails with it, and hypothesis shrinks the way there.
        from rulesdsl.interpreter import GameStuck, GameTooLong
        if len(actions) < max_actions:
            raise GameStuck(game.to_move())
        raise GameTooLong(max_actions, actions[-1] if actions else None)


def way_there(drawing: _Drawing) -> str:
    """How to reach the position again, as Python that replays it: the note on an error raised
    while a playthrough was drawn."""
    steps = "".join(f"\n    {str(a)!r}," for a in drawing.actions)
    replay = f"Playthrough.of({drawing.setup!r}, [{steps}\n])" if steps else f"Playthrough.of({drawing.setup!r}, [])"
    then = f"\nthen the action `{drawing.trying}` raised this" if drawing.trying is not None else ""
    return f"reached by: {replay}{then}"


def games(expansions: Iterable[str] = (), base=None, *, options: Iterable[str] = (),
          max_actions: int = DEFAULT_MAX_ACTIONS, min_actions: int = 0,
          setups: st.SearchStrategy[Setup] | None = None, scripted: bool = False,
          players: int | None = None) -> st.SearchStrategy[Game]:
    """The positions reached by `action_sequences` (the game itself)."""
    return action_sequences(expansions, base, options=options, max_actions=max_actions, min_actions=min_actions,
                            setups=setups, scripted=scripted, players=players).map(lambda p: p.game)


def finished_games(expansions: Iterable[str] = (), base=None, *, options: Iterable[str] = (),
                   setups: st.SearchStrategy[Setup] | None = None,
                   players: int | None = None) -> st.SearchStrategy[Playthrough]:
    """Whole games, played to the end with drawn legal actions.  Content whose game can get stuck
    (a seat to move with no legal action) makes the test fail with GameStuck; a game that does
    not end is never handed over either (hypothesis gives up on examples that large before
    `MAX_GAME_ACTIONS`, past which it is GameTooLong)."""
    from rulesdsl.interpreter import MAX_GAME_ACTIONS
    if setups is None:
        setups = _plain_setups(expansions, base, options=options, players=players)
    setups = _strategy(setups, "setups", "rs.setups(...)")
    return _playthroughs(setups, MAX_GAME_ACTIONS, MAX_GAME_ACTIONS, to_the_end=True)


# -- registration (the `hypothesis` entry point in pyproject.toml: `hypothesis_hook.setup`) -----------

def register_types() -> None:
    """`st.from_type(Game)` etc. draw bundled games."""
    from rulesdsl.interpreter.game import Game
    st.register_type_strategy(Game, lambda _t: games())
    st.register_type_strategy(Playthrough, lambda _t: action_sequences())
    st.register_type_strategy(Setup, lambda _t: scripted_setups())


register_types()   # (where hypothesis was imported first, its hook found this module half made)


__all__ = ["DEFAULT_MAX_ACTIONS", "Playthrough", "Setup", "action_sequences", "finished_games", "games", "ruleset",
           "scripted_setups", "setups"]
