"""Scenario tests written as data: `*.scenario` files in the card language's syntax.

    scenario "Trade: the big card costs player 1 12 coins" {
        option beginner_wonders          # header: base, expansion, option, seed, script, setup_choices
        give 0 "Stone Producer"          # position: cards into a city (no effects run)
        accessible "Big Card"            # ... a card laid out and free to take
        coins 1 12
        turn 1
        expect cost(1, "Big Card") == 12 # expectations: any condition, or legal/illegal ACTION
        expect illegal build "Big Card" player=0
        do build "Big Card"              # actions, through the game's own legal_actions/apply
        expect coins(1) == 0
    }

(Names here are placeholders; examples/scenarios/ has real ones.)

The same parser reads them (grammar/rules.lark); this module has its own table of statements
(`STATEMENTS`), checks every scenario before running it, and reports problems and failures as
diagnostics: `file:line:col: error[S201]: ...`, the line, a caret, a help line.  Never a
traceback.  `rulesdsl test PATH` runs them; so does pytest (the rulesdsl plugin collects
`*.scenario` files).  Reference: docs/testing.md.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path
from typing import Any

import attrs

from rulesdsl.interpreter.actions import Action, IllegalAction
from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.state import DRAW, NOWHERE, Frame

from .. import ast
from .. import registry as R
from ..diagnostics import Diagnostic, Span, did_you_mean, render
from ..files import is_dir, is_file, resolved, unreachable
from ..limits import MAX_QUANTITY
from ..loader import bundled_folder, default_game
from ..names import UnknownName, check_options, names_given
from ..playable import statements

SUFFIX = ".scenario"

# Scenario diagnostic codes (not in rulesdsl/codes.py: `rulesdsl check` never reports them).
S_CODES: dict[str, str] = {
    "S101": "not a scenario definition",
    "S102": "scenario without a name or a body",
    "S201": "unknown scenario statement",
    "S202": "header statement after the position was set up",
    "S203": "wrong arguments",
    "S301": "unknown name in a scenario",
    "S401": "cannot load the game or an expansion",
    "S402": "cannot create the game",
    "S501": "expectation not met",
    "S502": "an action of the scenario is not legal",
    "S503": "the scenario cannot be played (engine error)",
    "S504": "a set-up statement would take an item from where it matters",
}


# -- results ---------------------------------------------------------------------------------------

@attrs.define
class ScenarioResult:
    name: str
    file: str
    span: Span
    status: str                       # "passed", "failed" (an expectation, an action), "error" (the file)
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    checks: int = 0                   # expectations met
    source: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def render(self) -> str:
        return "\n".join(render(d, self.source if d.span.file == self.file else None) for d in self.diagnostics)


@attrs.define
class ScenarioFile:
    path: Path
    shown: str
    text: str
    definitions: list[ast.Definition]
    diagnostics: list[Diagnostic]     # problems with the file as a whole (syntax)


class _Stop(Exception):
    """A failure or error that ends a scenario; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _error(code: str, message: str, span: Span, help: str | None = None) -> _Stop:
    return _Stop(Diagnostic("error", code, message, span, help))


def _failure(code: str, message: str, span: Span, help: str | None = None) -> _Stop:
    return _Stop(Diagnostic("failure", code, message, span, help))


# -- reading ---------------------------------------------------------------------------------------

def read_file(path: Path | str, shown: str | None = None) -> ScenarioFile:
    from ..files import FileProblem, read_regular
    from ..loader import MAX_FOLDER_BYTES
    from ..parser import decode, parse_file
    path = Path(path)
    shown = shown or str(path)
    try:
        # (a regular file of a bounded size, as card files: a FIFO would hang, /dev/zero fill memory)
        data = read_regular(path, MAX_FOLDER_BYTES)
    except FileProblem as exc:
        why = str(exc).split(": ", 1)[-1]   # (the file is named by the diagnostic already)
        return ScenarioFile(path, shown, "", [], [Diagnostic("error", "E009", f"cannot read file: {why}",
                                                             Span.point(shown, 1, 1))])
    text, problem = decode(shown, data)
    if problem:
        return ScenarioFile(path, shown, "", [], [problem])
    tree, diags = parse_file(shown, text)
    # The parser recovers: a file with a broken scenario still gives the scenarios that parsed.
    # Its diagnostics are kept with them, so a broken scenario is reported, never silently dropped.
    return ScenarioFile(path, shown, text, list(tree.definitions) if tree is not None else [], diags)


def find_files(paths: list[Path] | Path | str) -> list[Path]:
    """The scenario files of `paths` (folders searched); one path alone is one path, and paths
    may be strings (a string was read letter by letter, a folder named by one failed on `rglob`)."""
    out: list[Path] = []
    for p in map(Path, names_given(paths)):
        if is_dir(p):
            out += sorted(q for q in p.rglob(f"*{SUFFIX}") if is_file(q))
        else:
            out.append(p)
    return out


# -- content ---------------------------------------------------------------------------------------

@attrs.define
class Loaded:
    content: Any
    merged: Any
    compiler: Any


@functools.lru_cache(maxsize=16)
def _load(layers: tuple[str, ...], players: int | None = None) -> Loaded:
    """Load, check and compile a base game and expansions (folders or bundled names) for
    `players` (None: the game's fewest); keeps the merged definitions and the compiler, which
    scenario expressions need.  A compilation of its own, not the shared `load_ruleset` one:
    compiling scenario expressions adds to its content."""
    from ..pipeline import compile_layers
    built = compile_layers(layers[1:], layers[0], players)
    return Loaded(built.content, built.merged, built.compiler)


# -- statements ------------------------------------------------------------------------------------

HEADER = ("base", "expansion", "players", "option", "seed", "script", "setup_choices")


@attrs.frozen
class StatementDoc:
    name: str
    usage: str
    doc: str
    header: bool = False


STATEMENTS: dict[str, StatementDoc] = {s.name: s for s in [
    StatementDoc("base", "base NAME | base \"FOLDER\"", "The base game: a bundled name (default: the game the "
                 "expansions' own `base` names, else `duel`) or a folder, relative to the scenario file.", True),
    StatementDoc("expansion", "expansion NAME | expansion \"FOLDER\"", "Add an expansion (repeatable), in order.", True),
    StatementDoc("players", "players N", "How many play (default: the game's fewest, or `rulesdsl test "
                 "--players N`); the game must play with that many.", True),
    StatementDoc("option", "option NAME", "A game option, e.g. `option beginner_wonders` (repeatable).", True),
    StatementDoc("seed", "seed N", "The game's seed (default 0): it decides the random structure and draws.", True),
    StatementDoc("script", "script ZONE \"A\" \"B\" ...", "Dictate the next random draws from a zone "
                 "(e.g. which progress tokens are dealt).", True),
    StatementDoc("setup_choices", "setup_choices first|manual", "How choices asked while the game is set up (the "
                 "wonder draft) are answered: `first` option each (default), or `manual` (by `do choose`).", True),
    StatementDoc("coins", "coins P N", "Player P has N coins."),
    StatementDoc("give", "give P \"A\" \"B\" ...", "Put items into play for player P without running their "
                 "effects: cards into the city, wonders among the built ones, tokens and gods in front of them. "
                 "An item already in play, or put somewhere by an earlier line, is refused (S504): `move` it."),
    StatementDoc("city", "city P \"A\" ...", "Same as `give` (for cards)."),
    StatementDoc("move", "move \"A\" ZONE [owner=P]", "Put an item into a zone (of player P for a player zone), "
                 "wherever it is."),
    StatementDoc("clear", "clear ZONE [owner=P] [to=ZONE]", "Empty a zone (default into `box`)."),
    StatementDoc("accessible", "accessible \"A\" ...", "Make cards accessible in the structure (face up, "
                 "uncovered); the cards they replace go where they were (a deck or the box; a card a player holds "
                 "or in a public zone is refused, S504)."),
    StatementDoc("structure", "structure \"A\" \"B\" ...", "The structure holds only these cards, all accessible "
                 "(face up, on slots none of which covers another, the same whatever the seed): taking the last one "
                 "ends the age."),
    StatementDoc("pawn", "pawn P N | pawn N", "Move the conflict pawn, as shields do, to N spaces from the centre "
                 "towards the capital of player P's opponent (P's `pawn_distance` is N), or to the position N "
                 "(as `pawn` reads: > 0 towards player 1's capital); the military tokens it reaches apply."),
    StatementDoc("turn", "turn P", "It is player P's turn."),
    StatementDoc("age", "age N", "Play on to the start of age N (taking cards off the structure); coins are "
                 "restored and the cards taken are put in the box."),
    StatementDoc("do", "do ACTION ARGS... [player=P] [pay=\"PAYMENT\"]", "Apply an action through the game's own rules (e.g. `do "
                 "build \"Card\"`, `do wonder \"Card\" \"Wonder\"`, `do choose \"Token\"`, `do choose_player p1`); "
                 "`any` for an argument (or the whole action) picks one legal answer, the same one for the same "
                 "seed; `player=P`: as player P, refused unless P is to move; `pay=\"p1:2\"`: the payment to "
                 "neighbours a build names (`build Stockade pay=p1:2`)."),
    StatementDoc("expect", "expect CONDITION [player=P] | expect legal|illegal ACTION ARGS... [player=P] "
                 "[reason=\"...\"]", "Check a condition (see the expression functions), or whether an action is "
                 "legal now (for player P: illegal unless P is to move)."),
    StatementDoc("mark", "mark", "Remember the position now: `change(EXPR)` is EXPR now minus EXPR then."),
]}

# Expression names and functions of scenarios (on top of the card language's).
SCENARIO_NAMES = {
    "pawn": "the conflict pawn's position (> 0: towards player 1's capital)",
    "winner": "the winning player, `draw`, or `none` while the game goes on",
    "victory": "the kind of victory (`civilian`, `military`, `science`, ...), or `none`",
    "over": "whether the game is over",
    "to_move": "the player who must act now",
    "turn": "how many actions (turns) have been taken",
    "options": "the names offered by the pending choice (compared as a set with a list)",
    "draw": "a shared victory (for `winner == draw`)",
    "none": "no value (for `winner == none`)",
}
SCENARIO_FUNCTIONS = {
    "coins": ("coins(P)", "player P's coins"),
    "cost": ("cost(P, \"A\")", "the coins player P pays to build A now (trading included; 0 for a chain)"),
    "trade": ("trade(P, RESOURCE)", "what one unit of a resource costs player P at the bank"),
    "vp": ("vp(P) | vp(P, CATEGORY)", "player P's victory points, in all or of one category (blue, military, ...)"),
    "zone": ("zone(\"A\")", "the zone A is in (`city`, `structure`, `nowhere`, ...)"),
    "owner": ("owner(\"A\")", "the player whose zone holds A, or -1"),
    "accessible": ("accessible(\"A\")", "whether A can be taken from the structure"),
    "face_up": ("face_up(\"A\") | face_up(ZONE)", "whether A lies face up (in the structure, or in a public zone); "
                "for a zone, how many of its items do (`structure`: every card laid out)"),
    "face_down": ("face_down(\"A\") | face_down(ZONE)", "whether A lies face down (in the structure, placed face "
                  "down, in a private zone or tucked away); for a zone, how many of its items do"),
    "change": ("change(EXPR)", "EXPR now minus EXPR at the last `mark` (e.g. change(coins(1)) == -2)"),
}


@attrs.define
class Run:
    """One scenario being played."""

    file: ScenarioFile
    d: ast.Definition
    base: str = ""   # "": the game the expansions' `base` names, else the bundled one
    base_span: Span | None = None
    expansions: list[tuple[str, Span]] = attrs.Factory(list)
    players: int | None = None        # None: the game's fewest
    players_span: Span | None = None
    options: list[str] = attrs.Factory(list)
    seed: int = 0
    script: dict[str, list[str]] = attrs.Factory(dict)
    setup_choices: str = "first"
    script_spans: dict[str, Span] = attrs.Factory(dict)
    loaded: Loaded | None = None
    game: Game | None = None
    checks: int = 0
    placed: dict[int, tuple[int, int]] = attrs.Factory(dict)   # item -> (line, slot) a set-up line put it in
    marked: Game | None = None        # the position at the last `mark`
    mark_seen: bool = False           # (while checking) a `mark` came before

    @property
    def content(self):
        return self.loaded.content


def run_scenario(file: ScenarioFile, d: ast.Definition, base: str | None = None,
                 players: int | None = None) -> ScenarioResult:
    """Run one scenario; `base` and `players` are the defaults for a scenario without a `base`
    or `players` line (`rulesdsl test --game/--players`)."""
    result = ScenarioResult(d.name or "(unnamed)", file.shown, d.span, "passed", source=file.text)
    run = Run(file, d, base=base or "", players=players)   # ("": the game the expansions' `base` names)
    try:
        if d.kind != "scenario" or d.modifier:
            raise _error("S101", f"`{' '.join(filter(None, [d.modifier, d.kind]))}` is not a scenario",
                         d.kind_span, 'a scenario file holds definitions `scenario "Name" { ... }`'
                         + (f"; {did_you_mean(d.kind, ['scenario'])}" if did_you_mean(d.kind, ['scenario']) else ""))
        if not d.name:
            raise _error("S102", "this scenario has no name", d.kind_span, 'write scenario "What it shows" { ... }')
        if d.block is None:
            raise _error("S102", f"scenario `{d.name}` has no body", d.name_span, "add `{ ... }` after the name")
        statements = list(d.block.statements)
        body = _header(run, statements)
        _open(run)
        problems = _check(run, body)
        if problems:
            result.status = "error"
            result.diagnostics = problems
            return result
        for s in body:
            _execute(run, s)
    except _Stop as stop:
        result.status = "failed" if stop.diagnostic.severity == "failure" else "error"
        result.diagnostics = [stop.diagnostic]
    except RecursionError:
        result.status = "error"
        result.diagnostics = [Diagnostic("error", "S503", "the scenario nests too deeply to be played", d.span)]
    except Exception as exc:  # noqa: BLE001 - whatever happens, a diagnostic, never a traceback
        result.status = "error"
        result.diagnostics = [Diagnostic("error", "S503", f"the scenario cannot be run: {type(exc).__name__}: {exc}",
                                         d.kind_span, "this is a bug in rulesdsl; please report it with the file")]
    result.checks = run.checks
    return result


# Header statements that set one thing: given twice, the last one won without a word.
ONCE = ("base", "players", "seed", "setup_choices")


def _header(run: Run, statements: list[ast.Statement]) -> list[ast.Statement]:
    body = []
    given: dict[str, ast.Statement] = {}
    for s in statements:
        if s.verb not in HEADER:
            body.append(s)
            continue
        if body:
            raise _error("S202", f"`{s.verb}` must come before the position is set up", s.verb_span,
                         f"move it to the top of the scenario, before `{body[0].verb}`")
        if s.verb in ONCE:
            first = given.setdefault(s.verb, s)
            if first is not s:
                raise _error("S203", f"`{s.verb}` is given twice (first at line {first.span.line})", s.verb_span,
                             "keep one")
        _arity(s, 1, 1 if s.verb != "script" else None)
        a = s.args[0]
        if s.verb in ("base", "expansion"):
            if isinstance(a, ast.Str):
                folder = resolved(run.file.path.parent / a.value)
                if not is_dir(folder):
                    why = unreachable(folder)
                    raise _error("S401", f"no folder `{a.value}` (next to {run.file.shown})"
                                 + (f": {why}" if why else ""), a.span, "folders are relative to the scenario file")
                value = str(folder)
            elif isinstance(a, ast.Name):
                # A bare name is the bundled set of that name (a folder is quoted, and relative to
                # the scenario file): a folder of that name where `rulesdsl test` runs must not
                # stand in for it, or the scenario's game would depend on the working folder.
                bundled = bundled_folder(a.name, "game" if s.verb == "base" else "expansion")
                value = str(bundled) if bundled is not None and is_dir(a.name) else a.name
            else:
                raise _error("S203", f"`{s.verb}` takes a name or a quoted folder", a.span, f"e.g. {s.verb} NAME, or {s.verb} \"my_cards\"")
            if s.verb == "base":
                run.base, run.base_span = value, s.span
            else:
                run.expansions.append((value, s.span))
        elif s.verb == "players":
            if not isinstance(a, ast.Int) or a.value < 1:
                raise _error("S203", "`players` takes a number, 1 or more", a.span, "e.g. players 3")
            run.players, run.players_span = a.value, s.span
        elif s.verb == "option":
            run.options.append(_word(s, a))
        elif s.verb == "seed":
            if not isinstance(a, ast.Int) or a.value < 0:
                raise _error("S203", "`seed` takes a number, 0 or more", a.span, "e.g. seed 3")
            run.seed = a.value
        elif s.verb == "script":
            zone = _word(s, a)
            names = []
            for x in s.args[1:]:
                if not isinstance(x, ast.Str):
                    raise _error("S203", "`script` lists quoted item names after the zone", x.span,
                                 'e.g. script board_tokens "Law" "Strategy"')
                names.append(x.value)
            run.script.setdefault(zone, []).extend(names)
            run.script_spans.setdefault(zone, s.span)
        elif s.verb == "setup_choices":
            word = _word(s, a)
            if word not in ("first", "manual"):
                raise _error("S203", f"`setup_choices` is `first` or `manual`, not `{word}`", a.span)
            run.setup_choices = word
    return body


def _open(run: Run) -> None:
    from ..diagnostics import RulesError
    expansions = [e for e, _ in run.expansions]
    layers = (run.base or default_game(expansions), *expansions)
    try:
        run.loaded = _load(layers, run.players)
    except RulesError as exc:
        where = run.base_span or (run.expansions[-1][1] if run.expansions else run.d.name_span)
        first = exc.first
        detail = f"{first.span.file}:{first.span.line}:{first.span.column}: {first.message}" if first else "errors"
        raise _error("S401", f"the cards do not load: {detail}", where,
                     f"run `rulesdsl check` on {' '.join(layers)} for every diagnostic")
    except ValueError as exc:
        spans = [run.base_span] + [sp for _, sp in run.expansions]
        bad = next((sp for (name, sp) in zip(layers, spans) if sp is not None and name in str(exc)), None)
        if bad is None and run.players_span is not None and f"players, not {run.players}" in str(exc):
            bad = run.players_span  # a count the game does not play with
        raise _error("S401", str(exc), bad or run.d.name_span)
    try:
        check_options(run.content.options, run.options)
    except UnknownName as exc:
        s = next(st for st in run.d.block.statements if st.verb == "option" and _word(st, st.args[0]) == exc.name)
        raise _error("S301", f"the game has no option `{exc.name}`", s.args[0].span,
                     exc.help or "options are read with option(NAME) in the cards")
    try:
        run.game = Game.create(run.content, seed=run.seed, options=run.options, script=run.script or None)
        if run.setup_choices == "first":
            # (the set-up's choices, a wonder draft, come before the Age I structure is dealt:
            # a script that cannot be followed fails here as well)
            _answer_pending(run, run.d.name_span)
    except _Stop:
        raise
    except Exception as exc:  # noqa: BLE001
        where = next((sp for zone, sp in run.script_spans.items() if f"draw from {zone}:" in str(exc)), run.d.name_span)
        raise _error("S402", f"the game cannot be created: {type(exc).__name__}: {exc}", where,
                     "check `script` lines: each name must be in that zone when it is drawn")


def _answer_pending(run: Run, span: Span) -> None:
    game = run.game
    guard = 0
    while game.state.pending is not None and not game.over:
        guard += 1
        if guard > 1000:
            raise _error("S503", "the game keeps asking for choices", span)
        game.apply(game.legal_actions()[0])


# -- checking ------------------------------------------------------------------------------------

def _arity(s: ast.Statement, low: int, high: int | None) -> None:
    n = len(s.args)
    if n < low or (high is not None and n > high):
        want = f"{low}" if low == high else (f"at least {low}" if high is None else f"{low} to {high}")
        doc = STATEMENTS.get(s.verb)
        span = s.args[high].span if high is not None and n > high else s.span
        raise _error("S203", f"`{s.verb}` takes {want} argument{'s' if (high or 2) != 1 else ''}, not {n}", span,
                     f"usage: {doc.usage}" if doc else None)


def _word(s: ast.Statement, a: ast.Expr) -> str:
    if not isinstance(a, ast.Name):
        raise _error("S203", f"`{s.verb}` expects a plain word here", a.span, f"usage: {STATEMENTS[s.verb].usage}")
    return a.name


def _kwargs(s: ast.Statement, allowed: tuple[str, ...]) -> dict[str, ast.Expr]:
    out = {}
    for k in s.kwargs:
        if k.name not in allowed:
            raise _error("S203", f"`{s.verb}` has no option `{k.name}`", k.span,
                         did_you_mean(k.name, allowed) or (f"options: {', '.join(allowed)}" if allowed
                                                           else f"`{s.verb}` takes no options"))
        if k.name in out:   # (which of the two would count? the card language refuses it too: E206)
            raise _error("S203", f"`{k.name}=` is given twice", k.span, "keep one")
        out[k.name] = k.value
    return out


def _check(run: Run, body: list[ast.Statement]) -> list[Diagnostic]:
    """Every problem the scenario has before it is played (several at once)."""
    problems = []
    for s in body:
        try:
            _check_statement(run, s)
        except _Stop as stop:
            problems.append(stop.diagnostic)
    return problems


def _check_statement(run: Run, s: ast.Statement) -> None:
    if s.verb in HEADER:
        raise _error("S202", f"`{s.verb}` must come before the position is set up", s.verb_span)
    if s.verb not in STATEMENTS:
        raise _error("S201", f"unknown scenario statement `{s.verb}`", s.verb_span,
                     did_you_mean(s.verb, STATEMENTS) or f"statements: {', '.join(STATEMENTS)}")
    if s.block is not None:
        raise _error("S203", f"`{s.verb}` takes no block", s.block.span, "remove the `{ ... }`")
    v = s.verb
    if v == "coins":
        _arity(s, 2, 2)
        _kwargs(s, ())
        _player_arg(run, s.args[0])
        coins = _int_arg(s, s.args[1])
        if coins < 0:
            raise _error("S203", "coins cannot be negative", s.args[1].span, "e.g. coins 0 3")
        if coins >= MAX_QUANTITY:   # (more than a game keeps: the position could not be saved)
            raise _error("S203", f"coins go up to {MAX_QUANTITY - 1:,}", s.args[1].span, "e.g. coins 0 3")
    elif v in ("give", "city"):
        _arity(s, 2, None)
        _kwargs(s, ())
        _player_arg(run, s.args[0])
        for a in s.args[1:]:
            i = _item_arg(run, a)
            kind = run.content.items[i].kind
            if kind not in run.content.build_zone:
                raise _error("S203", f"a {kind} cannot be given: nothing says where it goes in play", a.span,
                             "use `move \"NAME\" ZONE` instead")
    elif v == "move":
        _arity(s, 2, 2)
        kw = _kwargs(s, ("owner",))
        _item_arg(run, s.args[0])
        _zone_arg(run, s.args[1])
        if "owner" in kw:
            _player_arg(run, kw["owner"])
    elif v == "clear":
        _arity(s, 1, 1)
        kw = _kwargs(s, ("owner", "to"))
        _zone_arg(run, s.args[0])
        if "owner" in kw:
            _player_arg(run, kw["owner"])
        if "to" in kw:
            _zone_arg(run, kw["to"])
        elif "box" not in run.content.zone_index:
            raise _error("S203", "this game has no `box` zone: say where the items go", s.span, "add to=ZONE")
    elif v in ("accessible", "structure"):
        _arity(s, 1, None)
        _kwargs(s, ())
        for a in s.args:
            i = _item_arg(run, a)
            if run.content.items[i].kind != "card":
                raise _error("S203", f"only cards lie in the structure; {run.content.items[i].name} is a "
                                     f"{run.content.items[i].kind}", a.span)
    elif v == "pawn":
        _arity(s, 1, 2)
        _kwargs(s, ())
        _has_track(run, s.span)
        cap = run.content.track.capital
        if len(s.args) == 1:
            n = _int_arg(s, s.args[0])
            if not -cap <= n <= cap:
                raise _error("S203", f"the pawn stands between -{cap} and {cap}", s.args[0].span,
                             "> 0: towards player 1's capital; < 0: towards player 0's")
            return
        _player_arg(run, s.args[0])
        n = _int_arg(s, s.args[1])
        if not 0 <= n <= cap:
            raise _error("S203", f"the pawn stands 0 to {cap} spaces from the centre", s.args[1].span,
                         f"`pawn P N` counts towards P's opponent; `pawn N` takes a signed position (-{cap} to {cap})")
    elif v == "turn":
        _arity(s, 1, 1)
        _kwargs(s, ())
        _player_arg(run, s.args[0])
    elif v == "age":
        _arity(s, 1, 1)
        _kwargs(s, ())
        n = _int_arg(s, s.args[0])
        if not 1 <= n <= len(run.content.ages):
            raise _error("S203", f"there are {len(run.content.ages)} ages", s.args[0].span)
    elif v == "do":
        _arity(s, 1, None)
        kw = _kwargs(s, ("player", "pay"))
        if "player" in kw:
            _player_arg(run, kw["player"])
        _action_of(run, s, s.args)
    elif v == "mark":
        _arity(s, 0, 0)
        _kwargs(s, ())
        run.mark_seen = True
    elif v == "expect":
        _arity(s, 1, None)
        first = s.args[0]
        if isinstance(first, ast.Name) and first.name in ("legal", "illegal"):
            kw = _kwargs(s, ("player", "reason", "pay") if first.name == "illegal" else ("player", "pay"))
            if "player" in kw:
                _player_arg(run, kw["player"])
            if len(s.args) < 2:
                raise _error("S203", f"`expect {first.name}` needs an action", s.span,
                             f'e.g. expect {first.name} build "My Card"')
            _action_of(run, s, s.args[1:])
            reason = dict((k.name, k.value) for k in s.kwargs).get("reason")
            if reason is not None and not isinstance(reason, ast.Str):
                raise _error("S203", "`reason=` takes quoted text", reason.span, 'e.g. reason="coins"')
            return
        kw = _kwargs(s, ("player",))
        if "player" in kw:
            _player_arg(run, kw["player"])
        if len(s.args) > 1:
            raise _error("S203", "`expect` takes one condition", s.args[1].span,
                         "write it as one expression, e.g. expect cost(0, \"My Card\") == 2; or expect legal ACTION")
        Expr(run).condition(first)


def _int_arg(s: ast.Statement, a: ast.Expr) -> int:
    if isinstance(a, ast.Int):
        return a.value
    raise _error("S203", "expected a number here", a.span, f"usage: {STATEMENTS[s.verb].usage}")


def _player_arg(run: Run, a: ast.Expr) -> int:
    n = run.content.players
    if isinstance(a, ast.Int) and 0 <= a.value < n:
        return a.value
    raise _error("S203", f"expected a player: a number from 0 to {n - 1}", a.span, _players_help(n))


def _players_help(n: int) -> str:
    """Who the players are in a game of `n` (it said "0 and 1" in a game of 3 to 7 as well)."""
    seats = " and ".join(map(str, range(n))) if n <= 2 else f"0 to {n - 1}"
    return f"players are {seats}; 0 starts (`players N` in the header sets how many play)"


def _item_arg(run: Run, a: ast.Expr) -> int:
    index = run.content.item_index
    if isinstance(a, ast.Str):
        if a.value in index:
            return index[a.value]
        raise _error("S301", f"no item is named \"{a.value}\"", a.span, did_you_mean(a.value, index))
    raise _error("S203", "expected a quoted item name here", a.span, 'e.g. "My Card"')


def _zone_arg(run: Run, a: ast.Expr) -> int:
    zones = run.content.zone_index
    if isinstance(a, ast.Name):
        if a.name in zones:
            return zones[a.name]
        raise _error("S301", f"unknown zone `{a.name}`", a.span, did_you_mean(a.name, zones)
                     or f"zones: {', '.join(zones)}")
    raise _error("S203", "expected a zone name here", a.span, "e.g. city, discard, box")


ANY = "any"  # an action, or an action's argument, that any legal one matches


def _action_of(run: Run, s: ast.Statement, args) -> Action:
    head = args[0]
    if not isinstance(head, ast.Name):
        raise _error("S203", "an action starts with its name", head.span, 'e.g. do build "My Card"')
    if head.name == ANY:
        if len(args) > 1:
            raise _error("S203", "`any` stands for a whole action: it takes no arguments", args[1].span,
                         "e.g. do any, or do build any")
        return Action(ANY)
    content = run.content
    actions = {a.name: a for a in content.actions}
    known = set(actions) | set(ANSWERS)
    if head.name not in known:
        raise _error("S301", f"unknown action `{head.name}`", head.span,
                     did_you_mean(head.name, known) or f"actions: {', '.join(sorted(known))}")
    # What each argument must be, so that a misspelt name is an error, not an action that is
    # merely illegal (`expect illegal build Lumber_Yard` held whatever the cards said).
    if head.name in actions:
        params = [p.name for p in actions[head.name].params]
        usage = f"{head.name} " + " ".join(f'"{p.upper()}"' for p in params)
        kinds = ["item"] * len(params)
    else:
        usage, kinds = ANSWERS[head.name]
    if len(args) - 1 != len(kinds):
        span = args[len(kinds) + 1].span if len(args) - 1 > len(kinds) else head.span
        raise _error("S203", f"`{head.name}` takes {len(kinds)} argument{'s' if len(kinds) != 1 else ''}, "
                             f"not {len(args) - 1}", span, f"e.g. {usage}".rstrip())
    out = [_action_arg(run, head.name, kind, a) for kind, a in zip(kinds, args[1:])]
    pay = next((k.value for k in s.kwargs if k.name == "pay"), None)
    if pay is not None:   # (a payment to neighbours: `pay="p1:2"`, as the action names it `pay=p1:2`)
        if not isinstance(pay, ast.Str):
            raise _error("S203", "`pay=` takes the payment in quotes", pay.span, 'e.g. pay="p1:2,p3:1"')
        if not content.trade_base:
            raise _error("S203", "this game trades with the bank only: its actions take no payment", pay.span,
                         "remove `pay=`")
        out.append(f"pay={pay.value}")
    return Action(head.name, tuple(out))


# The answers to a pending choice: how each is written and what its one argument is.
ANSWERS = {"choose": ('choose "ITEM"', ["item or place"]), "choose_player": ("choose_player p1", ["player"]),
           "choose_space": ("choose_space 3", ["space"]), "choose_option": ("choose_option NAME", ["option"]),
           "pass": ("pass", [])}
PLACE = re.compile(r".+ \(face down\)")   # how a choice names what its chooser cannot see: `slot 7 (face down)`


def _action_arg(run: Run, action: str, kind: str, a: ast.Expr) -> str:
    """One argument of an action a scenario names, checked against what the action takes."""
    content = run.content
    if isinstance(a, ast.Name) and a.name == ANY:
        return ANY
    if kind in ("item", "item or place"):
        if isinstance(a, ast.Str):
            if a.value in content.item_index or kind == "item or place" and PLACE.fullmatch(a.value):
                return a.value
            raise _error("S301", f"no item is named \"{a.value}\"", a.span, did_you_mean(a.value, content.item_index))
        if isinstance(a, ast.Name):
            spelt = a.name.replace("_", " ")
            raise _error("S301", f"`{a.name}` is not an item: item names are written in quotes", a.span,
                         did_you_mean(spelt, content.item_index) or f'e.g. {action} "My Card"')
        raise _error("S203", f"`{action}` takes an item name in quotes here", a.span, f'e.g. {action} "My Card"')
    if kind == "player":
        players = [f"p{i}" for i in range(content.players)]
        if isinstance(a, ast.Name) and a.name in players:
            return a.name
        raise _error("S203", f"`{action}` takes a player: {', '.join(players)}", a.span, "e.g. choose_player p1")
    if kind == "space":
        if isinstance(a, ast.Int):
            return str(a.value)
        raise _error("S203", f"`{action}` takes a space's number", a.span, "e.g. choose_space 3")
    labels = _option_labels(run)
    name = a.name if isinstance(a, ast.Name) else a.value if isinstance(a, ast.Str) else None
    if name in labels:
        return name
    raise _error("S301", f"no `choose_one` of the cards has an option `{name}`" if name is not None
                 else "`choose_option` takes an option's name", a.span,
                 did_you_mean(name or "", labels) or f"options: {', '.join(sorted(labels))}")


def _option_labels(run: Run) -> set[str]:
    """The names of the options of every `choose_one` of the content."""
    return {s.args[0].name for d in run.loaded.merged.definitions for s in statements(d.block)
            if s.verb == "option" and s.args and isinstance(s.args[0], ast.Name)}


# -- expressions -----------------------------------------------------------------------------------

class Expr:
    """Scenario expressions: the card language (delegated to its checker and compiler, with `me`
    the `player=` of the expect) plus the scenario names and functions above."""

    def __init__(self, run: Run):
        self.run = run
        c = run.content
        self.words = set(c.resources) | set(c.colors) | set(c.science) | set(c.chains) | set(c.zone_index) \
            | set(c.item_kinds) | {name for name, _ in c.scores} | _victories(run.loaded.merged) | {"civilian"} \
            | {"structure", "nowhere"} | {f"p{i}" for i in range(c.players)}
        # The names of the content's `choose_one` options: what `options` holds while one is asked.
        self.option_labels = _option_labels(run)

    # which parts are plain card language
    def _scenario_part(self, e: ast.Expr) -> bool:
        if isinstance(e, ast.Name):
            return e.name in SCENARIO_NAMES
        if isinstance(e, ast.Call):
            return e.func in SCENARIO_FUNCTIONS or any(self._scenario_part(a) for a in e.args)
        if isinstance(e, ast.BinOp):
            return self._scenario_part(e.left) or self._scenario_part(e.right)
        if isinstance(e, ast.Not):
            return self._scenario_part(e.operand)
        return isinstance(e, ast.ListExpr)

    def _word(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.Name) and e.name not in R.NAMES and e.name in self.words

    def condition(self, e: ast.Expr) -> None:
        """Check `e` as what an `expect` takes: a condition (a number, a player or `winner` on its
        own is true or false by accident: `expect not winner` held when player 0 had won)."""
        self._want(e, self.check(e), CONDITION, "compare it, e.g. `expect cost(0, \"My Card\") == 2`, "
                                                "`expect winner == 0`, `expect winner == none`")

    def _want(self, e: ast.Expr, kinds: set[str] | None, want: str, hint: str) -> None:
        if kinds is not None and want not in kinds:
            raise _error("E309", f"expected {KIND_WORDS[want]}, found {self._kinds_text(kinds)}", e.span, hint)

    @staticmethod
    def _kinds_text(kinds: set[str]) -> str:
        words = [KIND_WORDS[k] for k in (NUMBER, CONDITION, WORD, LIST, NONE) if k in kinds]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

    def check(self, e: ast.Expr) -> set[str] | None:
        """Check `e`; the kinds of value it may have (None: not known here)."""
        if isinstance(e, ast.Name) and e.name in SCENARIO_NAMES:
            if e.name == "pawn":
                _has_track(self.run, e.span)
            return NAME_KINDS[e.name]
        if isinstance(e, ast.Name) and self._word(e):
            return {WORD}
        if isinstance(e, ast.Str):
            if e.value not in self.option_labels:   # (`options == ["coins", "tribute"]`: option names)
                _item_arg(self.run, e)
            return {WORD}
        if not self._scenario_part(e):
            from ..checker import Checker, Scope
            checker = Checker(self.run.loaded.merged)
            got = checker.expr(e, Scope(dict(R.NAMES), "scenario"))
            errors = [d for d in checker.diags if d.severity == "error"]
            if errors:
                first = errors[0]
                if first.code == "E307" and first.message.startswith("unknown name"):
                    name = first.message.split("`")[1]
                    known = set(SCENARIO_NAMES) | set(R.NAMES) | self.words
                    first = attrs.evolve(first, help=did_you_mean(name, known) or "scenario names: "
                                         + ", ".join(SCENARIO_NAMES) + "; card-language names: " + ", ".join(R.NAMES))
                raise _Stop(first)
            return {R.INT: {NUMBER}, R.PLAYER: {NUMBER}, R.BOOL: {CONDITION}, "word": {WORD},
                    "list": {LIST}}.get(got)
        if isinstance(e, ast.BinOp):
            left, right = self.check(e.left), self.check(e.right)
            if e.op in ("and", "or"):
                self._want(e.left, left, CONDITION, f"`{e.op}` joins conditions: compare the number, e.g. `x > 0`")
                self._want(e.right, right, CONDITION, f"`{e.op}` joins conditions: compare the number, e.g. `x > 0`")
                return {CONDITION}
            if e.op in ("==", "!="):
                seat_word = next((side for side in (e.left, e.right)
                                  if isinstance(side, ast.Name) and re.fullmatch(r"p\d+", side.name)), None)
                if seat_word is not None:   # (a word, never equal to a player's number: `winner != p0` held always)
                    raise _error("E309", f"`{seat_word.name}` is a word, and players are numbers here: "
                                         "they are never equal", seat_word.span,
                                 f"write {seat_word.name[1:]} for {seat_word.name}")
                if left is not None and right is not None and not left & right:
                    raise _error("E309", f"`{e.op}` compares {self._kinds_text(left)} with {self._kinds_text(right)}: "
                                         f"they are never equal", e.span,
                                 "compare a number with a number, a word with a word (zone(\"A\") == city, "
                                 "victory == military)")
                return {CONDITION}
            for side, kinds in ((e.left, left), (e.right, right)):
                self._want(side, kinds, NUMBER, f"`{e.op}` takes numbers")
            return {CONDITION} if e.op in ("<", "<=", ">", ">=") else {NUMBER}
        if isinstance(e, ast.Not):
            self._want(e.operand, self.check(e.operand), CONDITION,
                       "`not` takes a condition: compare it, e.g. `not winner == 0`, `winner == none`")
            return {CONDITION}
        if isinstance(e, ast.ListExpr):
            for i in e.items:
                self.check(i)
            return {LIST}
        if isinstance(e, ast.Call):
            if e.func not in SCENARIO_FUNCTIONS:
                raise _error("S301", f"`{e.func}(...)` cannot take scenario names as arguments", e.span,
                             "scenario names (pawn, winner, ...) and functions (cost, vp, ...) stand on their own")
            self._check_call(e)
            if e.func in ("face_up", "face_down"):   # of an item: whether; of a zone: how many
                return {CONDITION} if isinstance(e.args[0], ast.Str) else {NUMBER}
            return CALL_KINDS[e.func]
        return None

    def _one_copy(self, e: ast.Call, a: ast.Str) -> None:
        """Where a name stands for several copies (a card with `copies`, in a game of enough seats), `zone`,
        `owner` and `face_up`/`face_down` of it would read one copy, the first: refused.  `cost`
        is the same for every copy, and `accessible` asks whether any copy can be taken."""
        if e.func in ("cost", "accessible"):
            return
        n = len(_copies(self.run, a.value))
        if n > 1:
            raise _error("S203", f"\"{a.value}\" has {n} copies in this game: `{e.func}` would read one of them",
                         a.span, f'count them where they are: count(city, named="{a.value}", owner=player(1)) == 1')

    def _check_call(self, e: ast.Call) -> None:
        usage = SCENARIO_FUNCTIONS[e.func][0]
        shape = {"coins": ("player",), "cost": ("player", "item"), "trade": ("player", "resource"),
                 "vp": ("player", "category?"), "zone": ("item",), "owner": ("item",), "accessible": ("item",),
                 "face_up": ("item_or_zone",), "face_down": ("item_or_zone",), "change": ("number",)}[e.func]
        low = sum(1 for t in shape if not t.endswith("?"))
        if not low <= len(e.args) <= len(shape) or e.kwargs:
            raise _error("S203", f"`{e.func}` is used as {usage}", e.span)
        for t, a in zip(shape, e.args):
            t = t.rstrip("?")
            if t == "player":
                if isinstance(a, ast.Int):
                    _player_arg(self.run, a)
                elif not (isinstance(a, ast.Name) and a.name in ("me", "opponent", "to_move", "winner")):
                    self.check(a)
            elif t == "item":
                _item_arg(self.run, a)
                self._one_copy(e, a)
            elif t == "item_or_zone":
                if isinstance(a, ast.Name) and a.name in LAID_OUT:
                    continue
                if isinstance(a, ast.Name) and a.name not in self.run.content.zone_index:
                    known = [*self.run.content.zone_index, *LAID_OUT]
                    raise _error("S301", f"unknown zone `{a.name}`", a.span,
                                 did_you_mean(a.name, known) or f"zones: {', '.join(known)}")
                if not isinstance(a, ast.Name):
                    _item_arg(self.run, a)
                    self._one_copy(e, a)
            elif t == "number":
                if not self.run.mark_seen:
                    raise _error("S203", "`change(...)` compares with the position at a `mark`, and none came "
                                         "before", e.span, "add a line `mark` where the change starts")
                self.check(a)
            elif t == "resource":
                if not (isinstance(a, ast.Name) and a.name in self.run.content.resources):
                    raise _error("S301", "expected a resource", a.span,
                                 did_you_mean(getattr(a, "name", ""), self.run.content.resources)
                                 or f"resources: {', '.join(self.run.content.resources)}")
            elif t == "category":
                cats = set(self.run.content.colors) | set(self.run.content.item_kinds) | {n for n, _ in self.run.content.scores}
                if not (isinstance(a, ast.Name) and a.name in cats):
                    raise _error("S301", "expected a score category", a.span,
                                 did_you_mean(getattr(a, "name", ""), cats) or f"categories: {', '.join(sorted(cats))}")

    # evaluation
    def value(self, e: ast.Expr, me: int) -> Any:
        game = self.run.game
        if isinstance(e, ast.Str):
            return e.value
        if self._word(e):
            return e.name
        if not self._scenario_part(e):
            fn = self.run.loaded.compiler.expr(e)
            return fn(game, Frame(0, 0, 0, me, {}))
        st = game.state
        if isinstance(e, ast.Name):
            n = e.name
            if n == "pawn":
                return st.pawn
            if n == "winner":
                return None if st.winner is None else ("draw" if st.winner == DRAW else st.winner)
            if n == "victory":
                return st.victory
            if n == "over":
                return game.over
            if n == "to_move":
                return game.to_move()
            if n == "turn":
                return st.turn
            if n == "draw":
                return "draw"
            if n == "none":
                return None
            if n == "options":
                return [a.args[0] for a in game.legal_actions() if a.args] if st.pending is not None else []
            return n  # a word
        if isinstance(e, ast.ListExpr):
            return [self.value(i, me) for i in e.items]
        if isinstance(e, ast.Not):
            return not self.value(e.operand, me)
        if isinstance(e, ast.BinOp):
            if e.op == "and":
                return self.value(e.left, me) and self.value(e.right, me)
            if e.op == "or":
                return self.value(e.left, me) or self.value(e.right, me)
            left, right = self.value(e.left, me), self.value(e.right, me)
            return _compare(e.op, left, right)
        if isinstance(e, ast.Call):
            return self._call(e, me)
        raise _error("S203", "this expression cannot be evaluated in a scenario", e.span)

    def _change(self, a: ast.Expr, me: int) -> int:
        run = self.run
        now = self.value(a, me)
        now_game, run.game = run.game, run.marked
        try:
            then = self.value(a, me)
        finally:
            run.game = now_game
        for v in (now, then):
            if not isinstance(v, int) or isinstance(v, bool):
                raise _failure("S503", f"`{_text(run, a)}` is {_show(v)}, not a number: change(...) takes a number",
                               a.span)
        return now - then

    def _player(self, a: ast.Expr, me: int) -> int:
        p = self.value(a, me)
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < self.run.content.players:
            raise _failure("S503", f"`{_text(self.run, a)}` is {p!r}, not a player", a.span)
        return p

    def _call(self, e: ast.Call, me: int) -> Any:
        game = self.run.game
        c = self.run.content
        f = e.func
        if f == "coins":
            return game.state.coins[self._player(e.args[0], me)]
        if f == "cost":
            p = self._player(e.args[0], me)
            return game.price(p, c.item_index[e.args[1].value])[0]
        if f == "trade":
            p = self._player(e.args[0], me)
            return game.trade_prices(p)[c.resources.index(e.args[1].name)]
        if f == "vp":
            p = self._player(e.args[0], me)
            score = game.score(p)
            return score.get(e.args[1].name, 0) if len(e.args) > 1 else sum(score.values())
        if f == "change":
            return self._change(e.args[0], me)
        if f in ("face_up", "face_down"):
            want = "up" if f == "face_up" else "down"
            a = e.args[0]
            if isinstance(a, ast.Name):
                return sum(1 for i in _zone_items(game, a.name) if _face(game, i) == want)
            return _face(game, c.item_index[a.value]) == want
        item = c.item_index[e.args[0].value]
        if f == "zone":
            return _zone_name(game, item)
        if f == "owner":
            return game.owner_of(item)
        if f == "accessible":
            return any(i in game.accessible() for i in _copies(self.run, e.args[0].value))
        raise _error("S301", f"unknown function `{f}`", e.span)


def _compare(op: str, left, right):
    import operator
    if isinstance(left, list) and isinstance(right, list) and op in ("==", "!="):
        same = sorted(map(str, left)) == sorted(map(str, right))
        return same if op == "==" else not same
    ops = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
           "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}
    if op in ("//", "%") and right == 0:
        return 0
    try:
        return ops[op](left, right)
    except TypeError:
        raise ValueError(f"cannot compute {left!r} {op} {right!r}") from None


def _victories(merged) -> set[str]:
    out = set()

    def block(b):
        for s in b.statements if b else ():
            if s.verb == "win" and s.args and isinstance(s.args[0], ast.Name):
                out.add(s.args[0].name)
            block(s.block)
    for d in merged.definitions:
        block(d.block)
    return out


LAID_OUT = ("structure", "structure_all")  # for face_up/face_down: every card laid out, covered or not

# What each scenario name and function gives, as the kinds it may be (`Expr.kind`): a condition
# must be a condition, `and`/`or`/`not` join conditions, `==` compares what can be equal.
NUMBER, CONDITION, WORD, LIST, NONE = "number", "condition", "word", "list", "none"
NAME_KINDS = {"pawn": {NUMBER}, "turn": {NUMBER}, "to_move": {NUMBER}, "over": {CONDITION},
              "winner": {NUMBER, WORD, NONE}, "victory": {WORD, NONE}, "options": {LIST},
              "draw": {WORD}, "none": {NONE}}
CALL_KINDS = {"coins": {NUMBER}, "cost": {NUMBER}, "trade": {NUMBER}, "vp": {NUMBER}, "change": {NUMBER},
              "zone": {WORD}, "owner": {NUMBER}, "accessible": {CONDITION}}
KIND_WORDS = {NUMBER: "a number", CONDITION: "a condition", WORD: "a word", LIST: "a list", NONE: "`none`"}


def _zone_items(game: Game, zone: str) -> list[int]:
    """Every item of a zone, all players' together; every card laid out for the structure."""
    if zone in LAID_OUT:
        return [i for i in game.state.structure if i >= 0]
    z = game.content.zones[game.content.zone_index[zone]]
    return [i for p in range(game.content.players if z.per_player else 1) for i in game.state.zones[game.slot(z.id, p)]]


def _face(game: Game, item: int) -> str | None:
    """"up", "down", or None for an item that is not laid out (in a deck, the box, out of the game)."""
    st = game.state
    slot = st.loc[item]
    if slot == NOWHERE:
        return None
    if slot == game.structure_slot:
        return "up" if st.face_up[st.structure.index(item)] else "down"
    if st.hidden and item in st.hidden:
        return "down"
    zone = game.content.zones[game.slot_zone[slot]]
    if zone.public:
        return "up"
    # A player's private zone (or one of theirs nobody sees, like cards tucked under a wonder) lies
    # face down on the table; a shared zone nobody sees is a deck or the box.
    return "down" if zone.per_player else None


def _zone_name(game: Game, item: int) -> str:
    slot = game.state.loc[item]
    if slot == NOWHERE:
        return "nowhere"
    if slot == game.structure_slot:
        return "structure"
    return game.content.zones[game.slot_zone[slot]].name


def _text(run: Run, e) -> str:
    """The source text of a node (one line)."""
    sp = e.span
    lines = run.file.text.split("\n")
    if sp.line == sp.end_line and 1 <= sp.line <= len(lines):
        return lines[sp.line - 1][sp.column - 1:sp.end_column - 1]
    from ..explain_text import unparse
    return unparse(e)


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return repr(v)


# -- running ---------------------------------------------------------------------------------------

def _execute(run: Run, s: ast.Statement) -> None:
    game = run.game
    v = s.verb
    try:
        if v == "do":
            action = _action_of(run, s, s.args)
            player = _player_kw(s)
            picked, reason = _pick(run, s, action, player)
            if reason is not None:
                raise _failure("S502", f"`{_text(run, s)[3:].strip() or action}` is not legal: {reason}", s.span,
                               _legal_hint(game))
            game.apply(picked, seat=player)
        elif v == "mark":
            run.marked = game.clone()
        elif v == "expect":
            _expect(run, s)
        else:
            if game.over:   # (the winner is decided: a position set up now could not play on)
                raise _failure("S503", f"the game is over: `{v}` sets up a game under way", s.span,
                               _context(run))
            _setup(run, s)
    except _Stop:
        raise
    except IllegalAction as exc:
        raise _failure("S502", str(exc), s.span, _legal_hint(game)) from None
    except Exception as exc:  # noqa: BLE001 - an engine error ends the scenario, as a diagnostic
        raise _failure("S503", f"{type(exc).__name__}: {exc}", s.span,
                       "the engine failed while playing this line; this is a bug in the engine or the cards") from None


def _player_kw(s: ast.Statement) -> int | None:
    return next((k.value.value for k in s.kwargs if k.name == "player"), None)


def _seat_reason(game: Game, player: int | None) -> str | None:
    """Why player P may not act now (it is another player's turn or choice, or P has chosen in
    this round already), or None.  In a simultaneous round every seat still to choose may act."""
    if player is None or game.over:
        return None
    acting = game.to_act()
    if player in acting:
        return None
    if game.state.pending is None and game.state.flow == "round":
        return (f"player {player} has chosen in this round already" if player in game.state.acting
                else f"player {player} does not act in this round")
    what = "choice" if game.state.pending is not None else "turn"
    return f"it is player {acting[0]}'s {what}, not player {player}'s"


def _pick(run: Run, s: ast.Statement, action: Action, player: int | None) -> tuple[Action, str | None]:
    """The action to play for this line and why it is not legal (None: it is).  An action with
    `any` becomes one of the legal actions it matches, drawn with a generator seeded by the
    scenario's seed and how far the game is (not the line number: a comment added above must not
    change the game), so a file always plays the same game."""
    game = run.game
    reason = _seat_reason(game, player)
    if reason is not None:
        return action, reason
    if action.name != ANY and ANY not in action.args:
        return action, game.explain_illegal(action, player)
    matches = [a for a in game.legal_actions(player) if _matches(action, a)]
    if not matches:
        if game.over:
            return action, "the game is over"
        return action, f"no legal action matches `{action}`"
    st = game.state
    rng = random.Random(f"{run.seed}/{st.turn}/{len(st.history)}")  # a str seed: the same on every machine
    return matches[rng.randrange(len(matches))], None


def _matches(pattern: Action, action: Action) -> bool:
    if pattern.name == ANY:
        return True
    return (pattern.name == action.name and len(pattern.args) == len(action.args)
            and all(p == ANY or p == a for p, a in zip(pattern.args, action.args)))


def _legal_hint(game: Game) -> str:
    if game.over:
        return "the game is over"
    legal = game.legal_actions()
    shown = ", ".join(str(a) for a in legal[:6]) + (f", ... ({len(legal)} in all)" if len(legal) > 6 else "")
    who = game.to_move()
    return f"player {who} to move; legal now: {shown or 'nothing'}"


def _expect(run: Run, s: ast.Statement) -> None:
    game = run.game
    first = s.args[0]
    if isinstance(first, ast.Name) and first.name in ("legal", "illegal"):
        action = _action_of(run, s, s.args[1:])
        player = _player_kw(s)
        picked, reason = _pick(run, s, action, player)
        offered = reason is None and picked in game.legal_actions(player)
        if first.name == "legal":
            if reason is not None or not offered:
                raise _failure("S501", f"`{action}` is not legal: {reason or 'it is not among the legal actions'}",
                               s.span, _legal_hint(game))
        else:
            if reason is None or offered:
                raise _failure("S501", f"`{action}` is legal" + (f" (e.g. `{picked}`)" if picked != action else ""),
                               s.span, f"player {game.to_move() if player is None else player} may play it now")
            want = next((k.value.value for k in s.kwargs if k.name == "reason"), None)
            if want is not None and want.lower() not in reason.lower():
                raise _failure("S501", f"`{action}` is illegal, but because {reason}", s.span,
                               f"expected the reason to mention \"{want}\"")
        run.checks += 1
        return
    me = next((k.value.value for k in s.kwargs if k.name == "player"), 0)
    ex = Expr(run)
    try:
        ok = ex.value(first, me)
    except _Stop:
        raise
    except Exception as exc:  # noqa: BLE001
        raise _failure("S503", f"cannot evaluate `{_text(run, first)}`: {type(exc).__name__}: {exc}", first.span) from None
    if ok is True or (ok and not isinstance(ok, bool) and isinstance(ok, int)):
        run.checks += 1
        return
    raise _failure("S501", f"expected {_text(run, first)}{_actual(run, ex, first, me)}", s.span, _context(run))


def _actual(run: Run, ex: Expr, e: ast.Expr, me: int) -> str:
    """`, but cost(1, "Big Card") is 8`: what the parts of a failed condition are."""
    if isinstance(e, ast.BinOp) and e.op in ("==", "!=", "<", "<=", ">", ">="):
        parts = []
        for side in (e.left, e.right):
            if _literal(ex, side):
                continue
            try:
                parts.append(f"{_text(run, side)} is {_show(ex.value(side, me))}")
            except Exception:  # noqa: BLE001
                continue
        if parts:
            return ", but " + " and ".join(parts)
    if isinstance(e, ast.BinOp) and e.op == "and":
        for side in (e.left, e.right):
            try:
                if not ex.value(side, me):
                    inner = _actual(run, ex, side, me)
                    return f", but {_text(run, side)} does not hold" + (inner.replace(", but", ":", 1)
                                                                         if inner.startswith(", but ") and "does not hold" not in inner else "")
            except Exception:  # noqa: BLE001
                return ""
    return ", but it does not hold"


def _literal(ex: Expr, e: ast.Expr) -> bool:
    if isinstance(e, (ast.Int, ast.Str)) or ex._word(e):
        return True
    if isinstance(e, ast.ListExpr):
        return all(_literal(ex, i) for i in e.items)
    return False


def _context(run: Run) -> str:
    g = run.game
    st = g.state
    return (f"now: age {st.age + 1}" + ("" if g.over else f", player {g.to_move()} to move") + f", coins {st.coins}"
            + (f", pawn {st.pawn}" if g.track_slot >= 0 else "")
            + (f", game over (winner {st.winner})" if g.over else ""))


def _has_track(run: Run, span) -> None:
    """The conflict pawn is read or moved only in a game with a conflict track (a `track`)."""
    if run.game.track_slot < 0:
        raise _error("S203", f"{run.content.title or run.content.name} has no conflict track, so no pawn", span,
                     "`pawn` reads and moves the pawn of a game's `track`")


def _refresh(game: Game) -> None:
    """Rebuild derived caches after the position was changed by hand (as loading a save does)."""
    game.__init__(game.content, game.state)


def _setup(run: Run, s: ast.Statement) -> None:
    game, c = run.game, run.content
    st = game.state
    v = s.verb
    kw = {k.name: k.value for k in s.kwargs}
    if v == "coins":
        st.coins[s.args[0].value] = s.args[1].value
    elif v in ("give", "city"):
        p = s.args[0].value
        for a in s.args[1:]:
            i = _copy_to_take(run, a.value, a, v)
            _place(run, i, game.slot(c.build_zone[c.items[i].kind], p))
            _placed(run, i, s)
    elif v == "move":
        i = _copy_to_move(run, s.args[0].value)
        zone = c.zone_index[s.args[1].name]
        owner = kw["owner"].value if "owner" in kw else 0
        _place(run, i, game.slot(zone, owner))
        _placed(run, i, s)
    elif v == "clear":
        zone = c.zone_index[s.args[0].name]
        owner = kw["owner"].value if "owner" in kw else 0
        to = c.zone_index[kw["to"].name] if "to" in kw else c.zone_index["box"]
        for i in list(st.zones[game.slot(zone, owner)]):
            game.relocate(i, game.slot(to, owner))
    elif v == "accessible":
        items = _copies_to_lay_out(run, s.args)
        for a, i in zip(s.args, items):
            _make_accessible(run, i, a, keep=set(items))
        for i in items:
            _placed(run, i, s)
    elif v == "structure":
        items = _copies_to_lay_out(run, s.args)
        _only(run, items, s)
        for i in items:
            _placed(run, i, s)
    elif v == "pawn":
        if len(s.args) == 1:
            target = s.args[0].value
        else:
            target = s.args[1].value if s.args[0].value == 0 else -s.args[1].value
        _move_pawn(run, target, s)
    elif v == "turn":
        if st.flow == "round" and st.pending is None:
            raise _failure("S503", "`turn` sets whose turn it is, and in this game every seat chooses each round",
                           s.span, "play a seat's choice with `do ACTION player=P`; `expect legal ACTION player=P`")
        if st.pending is not None or st.flow != "turn":
            raise _failure("S503", "`turn` needs a position between turns (no choice pending)", s.span,
                           _legal_hint(game))
        st.current = s.args[0].value
        st.play_again = False
    elif v == "age":
        _to_age(run, s.args[0].value, s)
    _refresh(game)


def _where(game: Game, item: int) -> str:
    """Where an item is, in words: `in player 0's city`, `in the structure`, `in box`."""
    slot = game.state.loc[item]
    if slot == NOWHERE:
        return "out of the game"
    if slot == game.structure_slot:
        return "in the structure"
    zone = game.content.zones[game.slot_zone[slot]].name
    owner = game.slot_owner[slot]
    return f"in player {owner}'s `{zone}`" if owner >= 0 else f"in `{zone}`"


def _reserve(game: Game, slot: int) -> bool:
    """A deck or the box: a shared zone nobody sees, where an item waits without mattering."""
    if slot < 0 or slot == game.structure_slot:
        return False
    zone = game.content.zones[game.slot_zone[slot]]
    return not zone.per_player and not zone.public


def _placed(run: Run, item: int, s: ast.Statement) -> None:
    run.placed[item] = (s.span.line, run.game.state.loc[item])


def _placed_line(run: Run, item: int) -> int | None:
    """The line that put the item where it still is, if a set-up line did."""
    placed = run.placed.get(item)
    return placed[0] if placed is not None and placed[1] == run.game.state.loc[item] else None


def _copies(run: Run, name: str) -> list[int]:
    """The items of that name, the first copy first (the one a name stands for elsewhere)."""
    first = run.content.item_index[name]
    if name not in run.content.copied_names:
        return [first]
    return [first] + [i for i, it in enumerate(run.content.items) if it.name == name and i != first]


def _copy_to_take(run: Run, name: str, a: ast.Expr, verb: str) -> int:
    """The copy `give` takes: the first that `_may_take` allows (another seat may hold the first
    copy already: `give 1 "A"` then `give 2 "A"`, where the content has two copies of A), else
    the error of the last."""
    copies = _copies(run, name)
    for i in copies[:-1]:
        try:
            _may_take(run, i, a, verb)
            return i
        except _Stop:
            continue
    _may_take(run, copies[-1], a, verb)
    return copies[-1]


def _copy_to_move(run: Run, name: str, taken: set[int] | frozenset[int] = frozenset()) -> int:
    """The copy `move` takes: the first that no seat has in play and no earlier line placed (nor
    `taken`, by the same line), else the first copy (moved from where it is, as `move` says)."""
    game = run.game
    for i in _copies(run, name):
        slot = game.state.loc[i]
        if i not in taken and _placed_line(run, i) is None and \
                not (slot >= 0 and game.slot_active[slot] and game.slot_owner[slot] >= 0):
            return i
    return run.content.item_index[name]


def _copies_to_lay_out(run: Run, args) -> list[int]:
    """The copies an `accessible` or `structure` line lays out: one per name, each a copy no seat
    has in play where there is one (a seat may hold the first copy: `give 0 "A"`)."""
    items: list[int] = []
    for a in args:
        items.append(_copy_to_move(run, a.value, set(items)))
    return items


def _may_take(run: Run, item: int, a: ast.Expr, verb: str) -> None:
    """`give` takes an item from where it does not matter yet: not from where an earlier line of the
    scenario put it, nor out of play for a player (that is `move`'s job, said explicitly)."""
    game = run.game
    name = run.content.items[item].name
    line = _placed_line(run, item)
    if line is not None and not _reserve(game, game.state.loc[item]):
        raise _error("S504", f"\"{name}\" is already {_where(game, item)}: line {line} put it there", a.span,
                     f"to move it from there, say so: move \"{name}\" ZONE [owner=P]")
    slot = game.state.loc[item]
    if slot >= 0 and game.slot_active[slot] and game.slot_owner[slot] >= 0:
        raise _error("S504", f"\"{name}\" is in play, {_where(game, item)}", a.span,
                     f"`{verb}` would take it from player {game.slot_owner[slot]}; if that is what you mean, "
                     f"say so: move \"{name}\" ZONE [owner=P]")


def _move_pawn(run: Run, target: int, s: ast.Statement) -> None:
    """Move the pawn as shields do, so the military tokens it reaches apply (and leave the track)."""
    game = run.game
    st = game.state
    if st.pending is not None:
        raise _failure("S503", "`pawn` needs a position where no choice is pending", s.span, _legal_hint(game))
    delta = target - st.pawn
    if delta:
        game.shields(0 if delta > 0 else 1, abs(delta))
        game.run()
    if st.pawn != target and not game.over:
        raise _failure("S503", f"the pawn stopped at {st.pawn}, not {target}", s.span,
                       "a piece on the track blocks it; move it away first")


def _place(run: Run, item: int, slot: int) -> None:
    """Move an item; out of the structure, a spare card of the box takes its slot."""
    game = run.game
    st = game.state
    if st.loc[item] == game.structure_slot and item in st.structure:
        position = st.structure.index(item)
        game.relocate(item, slot)
        spare = _spare(run, item)
        if spare is not None:
            game.relocate(spare, game.structure_slot)
            st.structure[position] = spare
        _refresh(game)
    else:
        game.relocate(item, slot)


def _spare(run: Run, like: int) -> int | None:
    game = run.game
    c = game.content
    box = c.zone_index.get("box")
    if box is None:
        return None
    age = c.items[like].age
    cards = [j for j in game.state.zones[game.slot(box, 0)]
             if c.items[j].kind == "card" and _placed_line(run, j) is None]
    cards.sort(key=lambda j: c.items[j].age != age)
    return cards[0] if cards else None


def _make_accessible(run: Run, item: int, a: ast.Expr, keep: set[int]) -> None:
    game = run.game
    st = game.state
    if not st.structure:
        raise _failure("S503", "there is no structure now", a.span)
    accessible = game.accessible()
    if item in accessible:
        st.face_up[st.structure.index(item)] = True
        return
    if st.loc[item] != game.structure_slot:
        _may_lay_out(run, item, a)
    # Cards an earlier line laid out stay where they are.
    slot = next((k for k, j in enumerate(st.structure)
                 if j in accessible and j not in keep and _placed_line(run, j) is None), None)
    if slot is None:
        raise _failure("S503", "no accessible card is left to make room", a.span,
                       "fewer `accessible` cards, or `structure` to choose them all")
    other = st.structure[slot]
    if st.loc[item] == game.structure_slot:
        old = st.structure.index(item)
        st.structure[slot], st.structure[old] = item, other
    else:
        back = st.loc[item]
        game.relocate(other, back)
        game.relocate(item, game.structure_slot)
        st.structure[slot] = item
    st.face_up[slot] = True
    _refresh(game)


def _may_lay_out(run: Run, item: int, a: ast.Expr) -> None:
    """A card laid out swaps places with the one it replaces: it must come from a deck or the box,
    never from a player or a public zone, where the swap would silently change the position."""
    game = run.game
    name = run.content.items[item].name
    if _reserve(game, game.state.loc[item]):
        return
    line = _placed_line(run, item)
    where = _where(game, item) + (f" (line {line} put it there)" if line is not None else "")
    raise _error("S504", f"\"{name}\" is {where}: laying it out would put a structure card there instead",
                 a.span, f"a card laid out comes from a deck or the box; to take it from where it is, move it to the "
                         f"box first: move \"{name}\" box")


def _only(run: Run, items: list[int], s: ast.Statement) -> None:
    """`structure`: the structure holds only these cards, each face up and uncovered.  They are
    laid out on slots of which none covers another, the same slots whatever the seed.  Where a
    card lay before does not count: kept on its slot, it could lie under a card brought in."""
    game = run.game
    st = game.state
    named: dict[int, ast.Expr] = {}      # each card once, with where it is first named
    for i, a in zip(items, s.args):
        named.setdefault(i, a)
    items = list(named)
    if not st.structure:
        raise _failure("S503", "there is no structure now", s.span)
    for i, a in named.items():
        if not _laid_out(game, i):
            _may_lay_out(run, i, a)      # (before anything moves: the scenario ends there)
    slots = _uncovered_slots(run, len(items), s)
    _lay_out(run, items)
    _clear_others(run, set(items), s)
    _arrange(game, items, slots)


def _laid_out(game: Game, item: int) -> bool:
    return game.state.loc[item] == game.structure_slot and item in game.state.structure


def _uncovered_slots(run: Run, n: int, s: ast.Statement) -> list[int]:
    """`n` slots of the structure's layout none of which covers another, so that cards on them
    alone are all accessible.  The uncovered bottom row first, then every other row upwards
    (a row is covered only by the row below it: rows two apart never cover each other), then the
    rest where they fit; the same slots for the same layout and `n`."""
    st = run.game.state
    lay = run.content.layouts.get(st.layout)
    if lay is None:                      # (no layout: nothing covers anything)
        if n > len(st.structure):
            raise _too_many(n, len(st.structure), s)
        return list(range(n))
    up = list(reversed(lay.rows))        # the uncovered bottom row first
    order = [slot for row in up[0::2] + up[1::2] for slot in row]
    chosen: set[int] = set()
    picked: list[int] = []
    for slot in order:
        if len(picked) == n:
            break
        # (neither covered by a chosen slot nor covering one)
        if chosen.isdisjoint(lay.covered_by[slot]) and not any(slot in lay.covered_by[c] for c in chosen):
            chosen.add(slot)
            picked.append(slot)
    if len(picked) < n:
        raise _too_many(n, len(picked), s)
    return picked


def _too_many(n: int, room: int, s: ast.Statement) -> _Stop:
    return _failure("S503", f"the structure cannot hold {n} cards all accessible (at most {room})", s.span,
                   "fewer cards in `structure`")


def _lay_out(run: Run, items: list[int]) -> None:
    """Bring the listed cards that are not laid out into the structure: each swaps places with a
    card not listed, which goes where the listed card was (a deck or the box: a deck keeps its
    size, so a later age is still dealt in full), or fills an empty slot if none is left."""
    game = run.game
    st = game.state
    keep = set(items)
    for item in items:
        if _laid_out(game, item):
            continue
        slot = next((k for k, j in enumerate(st.structure) if j >= 0 and j not in keep), None)
        if slot is None:
            slot = st.structure.index(-1)   # (there is room: `_uncovered_slots` found a slot each)
        else:
            game.relocate(st.structure[slot], st.loc[item])
        game.relocate(item, game.structure_slot)
        st.structure[slot] = item
        _refresh(game)


def _clear_others(run: Run, keep: set[int], s: ast.Statement) -> None:
    """Every card laid out that is not listed goes to the box."""
    game = run.game
    box = run.content.zone_index.get("box")
    for i in [j for j in game.state.structure if j >= 0 and j not in keep]:
        if box is None:
            raise _failure("S503", "this game has no `box` zone to put the other cards in", s.span)
        game.relocate(i, game.slot(box, 0))
    _refresh(game)


def _arrange(game: Game, items: list[int], slots: list[int]) -> None:
    """Put the listed cards (the only ones laid out now) on their slots, face up."""
    st = game.state
    st.structure[:] = [-1] * len(st.structure)
    for item, slot in zip(items, slots):
        st.structure[slot] = item
        st.face_up[slot] = True
    _refresh(game)


def _to_age(run: Run, age: int, s: ast.Statement) -> None:
    game, c = run.game, run.content
    st = game.state
    coins = list(st.coins)
    if st.age > age - 1:
        raise _failure("S503", f"the game is already in age {st.age + 1}", s.span)
    guard = 0
    while st.age < age - 1:
        guard += 1
        if game.over or guard > 2000:
            raise _failure("S503", f"the game did not reach age {age}", s.span, _context(run))
        legal = game.legal_actions()
        if st.pending is None:   # (an action that discards what it takes: no city changes)
            discards = [a for a in legal if game.action_by_name[a.name].discards]
            legal = discards or legal
        game.apply(legal[0])
    if st.pending is not None:
        _answer_pending(run, s.span)
    st.coins[:] = coins
    if c.discard_zone >= 0 and "box" in c.zone_index:
        box = game.slot(c.zone_index["box"], 0)
        for i in list(st.zones[game.slot(c.discard_zone, 0)]):
            game.relocate(i, box)


# -- files and reports -----------------------------------------------------------------------------

def run_file(path: Path | str, keyword: str | None = None, shown: str | None = None, base: str | None = None,
             players: int | None = None) -> list[ScenarioResult]:
    """Run the scenarios of a file that `keyword` selects; the file's own problems (a syntax
    error, no scenario at all) are errors whatever it selects, in the order of the file."""
    f = read_file(path, shown)
    out = file_problems(f)
    named: dict[str, ast.Definition] = {}
    for d in f.definitions:
        if keyword and keyword.lower() not in (d.name or "").lower():
            continue
        first = named.setdefault(d.name, d) if d.name and d.kind == "scenario" else d
        if first is not d:   # (two results of one name: which one failed?)
            out.append(ScenarioResult(d.name, f.shown, d.span, "error", [Diagnostic(
                "error", "S102", f"a second scenario named `{d.name}` (first at line {first.span.line})",
                d.name_span, "give each scenario of a file its own name")], source=f.text))
            continue
        out.append(run_scenario(f, d, base, players))
    return sorted(out, key=lambda r: r.span.line)   # (stable: a scenario's order is its line's)


def file_problems(f: ScenarioFile) -> list[ScenarioResult]:
    """The file's problems as results, each an error: one per syntax error (the scenarios that
    parsed are still run: a broken one beside them must not pass unseen), or a file with no
    scenario."""
    if f.diagnostics:
        return [ScenarioResult(_broken_name(f, d), f.shown, d.span, "error", [d], source=f.text)
                for d in f.diagnostics]
    if f.definitions:
        return []
    where = Span.point(f.shown, 1, 1)
    return [ScenarioResult(f.path.name, f.shown, where, "error",
                           [Diagnostic("error", "S101", "this file holds no scenario", where,
                                       'write scenario "What it shows" { ... }')], source=f.text)]


_SCENARIO_LINE = re.compile(r'^\s*scenario\s+"([^"\n]*)"')


def _broken_name(f: ScenarioFile, d: Diagnostic) -> str:
    """The name of the scenario a syntax error broke: the nearest `scenario "NAME"` line at or
    above the error, unless that scenario parsed (an error after its end, a stray `}`); else the
    file's name.  Only a label: the diagnostic says where the error is."""
    lines = f.text.split("\n")[:d.span.line]
    parsed = {definition.span.line for definition in f.definitions}
    for number in range(len(lines), 0, -1):
        m = _SCENARIO_LINE.match(lines[number - 1])
        if m:
            return m.group(1) if number not in parsed and m.group(1) else f.path.name
    return f.path.name


@attrs.define
class TestReport:
    results: list[ScenarioResult]

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.status == "passed")

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if r.status == "failed")

    @property
    def errors(self) -> int:
        return sum(1 for r in self.results if r.status == "error")

    @property
    def ok(self) -> bool:
        return bool(self.results) and self.passed == len(self.results)

    def human(self, verbose: bool = False) -> str:
        lines = []
        current = None
        for r in self.results:
            if r.file != current:
                current = r.file
                lines.append(r.file)
            mark = {"passed": "ok   ", "failed": "FAIL ", "error": "ERROR"}[r.status]
            extra = f" ({r.checks} check{'s' if r.checks != 1 else ''})" if r.status == "passed" else ""
            lines.append(f"  {mark} {r.name}{extra}")
            if r.status != "passed":
                lines += ["      " + line for line in r.render().split("\n")]
        lines.append(f"{len(self.results)} scenario{'s' if len(self.results) != 1 else ''}: {self.passed} passed, "
                     f"{self.failed} failed, {self.errors} error{'s' if self.errors != 1 else ''}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {"scenarios": [{"file": r.file, "name": r.name, "line": r.span.line, "status": r.status,
                               "checks": r.checks, "diagnostics": [d.as_json() for d in r.diagnostics]}
                              for r in self.results],
                "summary": {"scenarios": len(self.results), "passed": self.passed, "failed": self.failed,
                            "errors": self.errors}}


def run_paths(paths: list[Path] | Path | str, keyword: str | None = None, base: str | None = None,
              players: int | None = None) -> TestReport:
    """Run the scenario files in `paths`; `base`/`players`: the defaults of scenarios that do
    not name their own."""
    results: list[ScenarioResult] = []
    for f in find_files(paths):
        results += run_file(f, keyword, base=base, players=players)
    return TestReport(results)

