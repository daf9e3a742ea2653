"""The `rulesdsl` command: check, explain, simulate, play, replay, list.

Imports are local to each command so that `rulesdsl check` starts fast (no interpreter)."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
from pathlib import Path

import click

from .cli_support import (Existing, OutputFile, checked, check_players, content_layers, game_base, game_options, load_rules, no_such,
                          require_expansion_folders, require_paths, require_range, seat_agent, seat_agents, stop_on_ctrl_c, usage_error, worker_jobs,
                          worker_lost, writable)
from .limits import DEFAULT_MAX_STEPS, SEED_MAX, SEED_MIN


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """rulesdsl: 7 Wonders Duel and its expansions, and the classic 7 Wonders, written as card files."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())  # str: Path("") would already be "."
@click.option("--expansion", "-e", "expansions", multiple=True, metavar="EXPANSION",
              help="Check each PATH on top of the base game and this expansion (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["human", "json", "github", "sarif"]), default="human",
              show_default=True, help="github: workflow annotations; sarif: SARIF 2.1.0 for code scanning.")
@click.option("--max-errors", type=click.IntRange(min=0), default=200, show_default=True,
              help="Show at most N diagnostics and count the rest (0: all). json and sarif keep all.")
@game_options
def check(paths: tuple[str, ...], expansions: tuple[str, ...], fmt: str, max_errors: int, game: str | None,
          players: int | None) -> None:
    """Check card files (default: all bundled content; with --game, that game); `-` reads one
    file from stdin.

    A folder without a `game` definition is checked as an expansion on top of the base game
    (--game, default the game its `base` names, else the bundled Duel; with -e, on top of the
    base game and those expansions).
    With --players, a clean game is also compiled for that many players. Exit status: 0 clean
    (warnings allowed), 1 errors, 2 usage."""
    from .files import resolved
    from .report import check_paths, layers_for
    base = None if game is None else game_base(game)
    if any(not p.strip() for p in paths):
        raise click.UsageError("an empty path is not a card file or folder")
    paths = tuple(Path(p) for p in paths)
    if sum(1 for p in paths if str(p) == "-") > 1:
        raise click.UsageError("`-` (stdin) may be given once")
    require_paths(paths)   # (one that cannot be looked at, too: not a traceback)
    require_expansion_folders(expansions)
    from .loader import SUFFIX
    other = next((p for p in paths if str(p) != "-" and not p.is_dir() and not p.name.endswith(SUFFIX)), None)
    if other is not None:   # (as every command refuses it: `loader.check_folder`)
        raise click.UsageError(f"{other} is neither a folder nor a card file ({SUFFIX})")
    targets: list = [_stdin_file() if str(p) == "-" else p for p in paths]
    try:
        if game is not None:
            _own_game_and_game_flag(paths, game)
        report = check_paths(targets, expansions, base)
        sets = [[str(resolved(x)) for x in layers_for(t, expansions, base)]
                for t in targets if isinstance(t, Path)] if targets else [[base or "duel", *expansions]]
    except ValueError as exc:  # an unknown expansion, or a folder past the limits (FolderProblem)
        from .names import UnknownName
        if isinstance(exc, UnknownName) and exc.kind == "expansion":
            raise click.BadParameter(str(exc), param_hint="--expansion") from None
        raise click.UsageError(str(exc)) from None
    if players is not None and not report.errors:
        for layers in sets:  # each game checked, at that count (a count outside its range: exit 2)
            load_rules(tuple(layers[1:]), layers[0], players)
        for t in targets:   # (stdin's file: its check played every count of the range already)
            if not isinstance(t, Path):
                _players_in_range(layers_for(t, expansions, base), players)
    if fmt == "json":
        click.echo(report.to_json())
    elif fmt == "sarif":
        click.echo(report.sarif())
    elif fmt == "github":
        click.echo(report.github(max_errors))
    else:
        click.echo(report.human(max_errors))
    sys.exit(1 if report.errors else 0)


def _own_game_and_game_flag(paths: tuple[Path, ...], game: str) -> None:
    """A PATH that defines its own game, given with a `--game` that names another, is a usage
    error (as for `verify` and `list`): which game would it be checked as?"""
    from .loader import load_paths, resolve_layers
    chosen = resolve_layers([], game_base(game))[0].resolve()
    for p in paths:
        if str(p) != "-" and p.resolve() != chosen and load_paths([p]).by_kind("game"):
            usage_error(f"{p} defines its own game: give it as PATH or as --game, not both")


def _players_in_range(layers: list, players: int) -> None:
    """A player count outside the range of the game these layers make: one `error:` line, exit
    2, as `load_rules` says it of a game given by folder or name."""
    from .compiler import player_range
    from .loader import load_paths
    merged = load_paths(layers)
    games = merged.by_kind("game")
    if games:
        require_range(games[0].name, *player_range(games[:1] + merged.by_kind("expansion")), players)


def _stdin_file():
    """The card file on stdin, as `<stdin>`, within the size limit of a card file given by name."""
    from .loader import MAX_FOLDER_BYTES, Inline
    data = sys.stdin.buffer.read(MAX_FOLDER_BYTES + 1)
    if len(data) > MAX_FOLDER_BYTES:
        click.echo(f"error: cannot read <stdin>: more than the limit of {MAX_FOLDER_BYTES} bytes", err=True)
        sys.exit(1)
    return Inline("<stdin>", data)


def max_steps_option(command):
    """`--max-steps`: the step budget of one action (docs/language.md, "The step budget")."""
    return click.option("--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, type=click.IntRange(min=1),
                        help="Steps one action's effects may take; beyond: an error naming what ran.")(command)


def effect_error(exc: Exception) -> None:
    """An effect that cannot go on (EffectFailed: a runaway, a seat the game lacks): one
    `error:` line, exit status 1."""
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


@cli.command()
@click.argument("words", nargs=-1, required=True, metavar="NAME")
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@game_options
def explain(words: tuple[str, ...], expansions: tuple[str, ...], game: str | None, players: int | None) -> None:
    """Show what the engine understood of a definition, in plain English; or, given a
    diagnostic code such as E201, what the code means and how to fix it.  The words of NAME
    may be given quoted or not (`explain action discard`, `explain layout age1`)."""
    import re
    name = " ".join(words)
    if re.fullmatch(r"[Ss]\d{3}", name):   # (what `rulesdsl test` reports: said too, not "nothing is named")
        from .testing.scenarios import S_CODES
        code = name.upper()
        if code not in S_CODES:
            click.echo(f"error: no scenario code {name}; codes: {', '.join(S_CODES)}", err=True)
            sys.exit(1)
        kind = "failure" if code == "S501" else "error"
        click.echo(f"{code} (scenario {kind}): {S_CODES[code]}\n\nReported by `rulesdsl test` of a scenario "
                   "file; docs/testing.md (\"Diagnostics\") says what each scenario code covers.")
        return
    if re.fullmatch(r"[EWew]\d{3}", name):
        from .codes import CODES, explain as explain_code
        if name.upper() not in CODES:
            click.echo(f"error: no diagnostic code {name}; codes: {', '.join(CODES)}", err=True)
            sys.exit(1)
        click.echo(explain_code(name))
        return
    from .explain import explain as render, wrapped
    from .safe_text import printable
    rules = load_rules(expansions, game_base(game, expansions), players)
    try:
        text = printable(render(name, rules.content))
        if sys.stdout.isatty():   # (a pipe or a file gets the lines whole)
            text = wrapped(text, shutil.get_terminal_size((100, 24)).columns - 1)
        click.echo(text)
    except KeyError as exc:
        click.echo(printable(f"error: {exc.args[0]}"), err=True)
        sys.exit(1)


@cli.command()
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1), help="Games to play.")
@click.option("--seed", "-s", default=0, show_default=True, type=int,
              help="Seed of the run; each game's seed is a hash of it and the game's index.")
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@click.option("--agents", default=None, metavar="A,B,...",
              help="One agent per seat (random, greedy, mcts, module:Class or a registered name), comma-separated. "
                   "Default: random at every seat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every CPU); the results do not depend on it.")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="A game option for every game (e.g. beginner_wonders; repeatable).")
@game_options
@max_steps_option
def simulate(games: int, seed: int, expansions: tuple[str, ...], agents: str | None, as_json: bool,
             jobs: int | None, options: tuple[str, ...], game: str | None, players: int | None,
             max_steps: int) -> None:
    """Play many games between agents and summarise them."""
    jobs = worker_jobs(jobs)
    from rulesdsl.interpreter import EffectFailed
    from rulesdsl.workers import WorkerLost
    from rulesdsl.simulate import simulate as run
    from .names import check_options
    rules = load_rules(expansions, game_base(game, expansions), players)
    options = tuple(checked("--option", check_options, rules.content.options, options))
    seats = rules.content.players
    names = seat_agents("--agents", agents, seats) if agents is not None else ["random"] * seats
    show_bar = sys.stderr.isatty()
    try:
        bar = click.progressbar(length=games, label="simulating", file=sys.stderr) if show_bar else None
        with stop_on_ctrl_c() as asked, bar if bar is not None else contextlib.nullcontext():
            def progress(i: int) -> None:
                if bar is not None:
                    bar.update(1)
                asked()
            result = run(rules, games, seed, names, progress=progress, max_steps=max_steps, jobs=jobs,
                         options=options)
    except EffectFailed as exc:
        effect_error(exc)
    except WorkerLost as exc:
        worker_lost(exc)
    if result["interrupted"]:
        click.echo(f"interrupted after {result['games']} of {games} games: the summary covers those",
                   err=True)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
        _agent_failed(result)
        sys.exit(1 if result["interrupted"] else 0)
    click.echo(f"{result['games']} games, seed {seed}, agents {' vs '.join(names)}"
               + (f", expansions {', '.join(expansions)}" if expansions else "")
               + (f", options {', '.join(options)}" if options else "")
               + f"; {rules.content.name}, {seats} players")
    w = result["wins"]
    click.echo("wins: " + ", ".join(f"player {k} {v}" for k, v in w.items() if k != "draw") + f", draws {w['draw']}")
    click.echo("victories: " + ", ".join(f"{k} {v}" for k, v in result["victories"].items()))
    click.echo("mean score:")
    cats = sorted({c for s in result["mean_score"].values() for c in s if c != "total"})
    for p, s in result["mean_score"].items():
        click.echo(f"  player {p}: total {s['total']:.1f} (" + ", ".join(f"{c} {s.get(c, 0):.1f}" for c in cats) + ")")
    click.echo(f"{result['games_per_second']} games per second")
    _agent_failed(result)
    if result["interrupted"]:
        sys.exit(1)


def _agent_failed(result: dict) -> None:
    """A run a custom agent ended (`simulate`'s `error`): one `error:` line after the summary of
    the games before it, exit 1 (as `balance` reports the games before the failure)."""
    if result["error"] is not None:
        from .safe_text import printable
        click.echo(printable(f"error: {result['error']}; the summary covers the {result['games']} games before it"),
                   err=True)
        sys.exit(1)


@cli.command()
@click.option("--agent", default=None,
              help="Who plays every other seat: greedy (the default), random, mcts (the search), human (hot seat), "
                   "or your own agent (module:Class or a registered name).")
@click.option("--agents", default=None, metavar="A,B,...",
              help="One per seat instead, comma-separated: human, greedy, random, mcts or your own agent "
                   "(your seat: human).")
@click.option("--seat", default=0, type=int, show_default=True, help="Your seat (0 starts; 0 to players - 1).")
@click.option("--seed", "-s", default=None, type=click.IntRange(SEED_MIN, SEED_MAX), help="Seed (default: random).")
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@game_options
@click.option("--save", type=OutputFile(),
              help="Write the game's trace here at the end (and, on the full screen, when `s` is pressed).")
@click.option("--option", "options", multiple=True, metavar="NAME", help="A game option (e.g. beginner_wonders).")
@click.option("--plain", is_flag=True,
              help="The plain-text screen (the default when standard output is not a terminal).")
@click.option("--no-color", "no_color", is_flag=True, help="No colour on the full screen (as NO_COLOR does).")
@click.option("--load", type=Existing(dir_okay=False, path_type=Path),
              help="Go on with a saved game (a trace): its game, seed, options and moves.")
@max_steps_option
def play(agent: str | None, agents: str | None, seat: int, seed: int | None, expansions: tuple[str, ...],
         game: str | None, players: int | None, save: Path | None, options: tuple[str, ...], plain: bool,
         no_color: bool, load: Path | None, max_steps: int) -> None:
    """Play in the terminal against agents, or hot seat.

    In a terminal: a full screen (arrow keys or a number and enter to play, ? explains the
    highlighted action, u takes your last move back, s saves the trace, q quits); --plain, or
    an output that is not a terminal: the plain-text screen."""
    import random
    from rulesdsl.interpreter import EffectFailed
    from .agents import AgentError
    from .files import FileProblem
    from .names import check_options, check_seat
    from .safe_text import printable
    from .play_session import Session
    from .play_view import SAVE, UNDO, choose_action, render_game
    if agent is not None and agents is not None:
        usage_error("give --agent (every other seat) or --agents (one per seat), not both")
    if agent is not None:
        agent = seat_agent("--agent", agent, ("human",))
    loaded, chosen, script = [], [], None
    if load is not None:
        from .trace import TraceError, actions_of, load_trace, round_of
        if expansions or game is not None or players is not None or options or seed is not None:
            usage_error("--load plays on the saved game: its game, expansions, players, seed and options "
                        "come from the trace")
        try:
            data = load_trace(load)
        except TraceError as exc:
            click.echo(printable(f"error: {exc}"), err=True)
            sys.exit(1)
        rules = load_rules(tuple(data["expansions"]), data["base"], data["players"])
        seed, options, script, loaded = data["seed"], tuple(data["options"]), data["script"] or None, actions_of(data)
        chosen = round_of(data)   # (choices of a round under way the history does not hold yet)
    else:
        rules = load_rules(expansions, game_base(game, expansions), players)
    seats = rules.content.players
    checked("--seat", check_seat, seat, seats)
    if agents is not None:
        who = seat_agents("--agents", agents, seats, ("human",))
        if who[seat] != "human":
            usage_error(f"--agents: seat {seat} is yours (--seat {seat}): its entry must be human, not {who[seat]}")
    else:
        who = ["human" if p == seat else (agent or "greedy") for p in range(seats)]
    options = tuple(checked("--option", check_options, rules.content.options, options))
    writable(save)
    seed = random.randrange(1_000_000) if seed is None else seed
    if not plain and sys.stdout.isatty() and sys.stdin.isatty():
        _play_screen(rules, seed, who, options, script, loaded, save, no_color, max_steps, chosen)
        return
    session = Session(rules, seed, who, options, max_steps, script=script)
    try:
        _resumed(session.start(), loaded, chosen)
    except EffectFailed as exc:
        effect_error(exc)
    click.echo(f"seed {seed}")
    # What each person at the terminal has been told of the others' moves (a loaded game's past
    # is not told again; a round under way in it is, once it resolves), each as that seat may
    # see them: an item it never saw is named only by its kind.
    told = {p: session.logged for p in session.humans}

    def tell(p: int) -> None:
        for move in session.told_since(told[p]):
            if move.seat != p:
                click.echo(move.line(p, plain=True))
        told[p] = session.logged

    at_terminal = None   # the seat whose view was shown last
    try:
        while True:
            session.run_agents()
            p = session.human_to_move()
            if p is None:
                break
            if at_terminal is not None and at_terminal != p:
                # Hot seat: the next person sits down before their seat's view is shown.
                answer = click.prompt(f"\npass to player {p}, press Enter (q to quit)", default="",
                                      show_default=False)
                if answer.strip().lower() in ("q", "quit"):
                    click.echo("bye")
                    return
            at_terminal = p
            tell(p)
            click.echo(render_game(session.game, p, who))
            action = choose_action(session.game)
            if action is None:
                click.echo("bye")
                return
            if action == UNDO:
                click.echo(_plain_undo(session, p))
                # (the game was replayed without the move: what each seat was told stands)
                told = {q: session.logged for q in session.humans}
            elif action == SAVE:
                click.echo(_plain_save(session, save))
            else:
                session.play(action)
    except EffectFailed as exc:
        effect_error(exc)   # the game is as it was before the runaway action: its trace replays
    except AgentError as exc:   # (a custom agent: the game as it was before its answer, saved below)
        click.echo(printable(f"error: {exc}"), err=True)
        sys.exit(1)
    finally:
        if save:
            try:
                session.save(save)
            except FileProblem as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(1)
            click.echo(f"trace written to {save}")
    tell(seat)
    click.echo(render_game(session.game, seat, who))


def _plain_undo(session, seat: int) -> str:
    """`u` on the plain screen: seat's last move taken back (and the agents' after it), or why not."""
    if session.undo(seat):
        return "your last move is taken back"
    if any(p == seat for p, _ in session.moves):
        return "another player has moved since your last move: theirs is not yours to take back"
    return "nothing to undo"


def _plain_save(session, save: Path | None) -> str:
    """`s` on the plain screen: the trace written to --save FILE (default
    rulesdsl-play-SEED.trace.json), or why it could not be."""
    from .files import FileProblem
    from .safe_text import printable
    path = save or Path(f"rulesdsl-play-{session.seed}.trace.json")
    try:
        session.save(path)
    except FileProblem as exc:
        return printable(f"error: {exc}")
    return printable(f"trace written to {path}")


def _resumed(game, actions: list, chosen: list):
    """The game (or play_session.Session) with a loaded trace's actions applied, then the
    choices of its round under way for their seats (`chosen`); one that is not legal: `error:`,
    exit 1."""
    from .safe_text import printable

    def apply_all(acts, pairs):
        for a in acts:
            game.apply(a)
        for seat, a in pairs:
            game.apply(a, seat)
    play = game.resume if hasattr(game, "resume") else apply_all
    try:
        play(actions, chosen)
    except ValueError as exc:   # IllegalAction, or a name the content lacks
        click.echo(printable(f"error: --load: {exc}"), err=True)
        sys.exit(1)
    return game


def _play_screen(rules, seed: int, who: list[str], options: tuple[str, ...], script, loaded: list,
                 save: Path | None, no_color: bool, max_steps: int, chosen: list = ()) -> None:
    """`rulesdsl play` on the full screen (rulesdsl/play_screen.py; the `play` extra: textual)."""
    from rulesdsl.interpreter import EffectFailed
    from .agents import AgentError
    from .files import FileProblem
    from .safe_text import printable
    try:
        from .play_screen import run_screen
    except ImportError:
        click.echo("error: the full play screen needs textual: pip install 'rulesdsl[play]' (or use --plain)",
                   err=True)
        sys.exit(1)
    from .play_session import Session
    try:
        session = Session(rules, seed, who, options, max_steps, script=script).start()
        _resumed(session, loaded, chosen)
        interrupted = run_screen(session, save, no_color)
        failure = None
    except EffectFailed as exc:
        effect_error(exc)
    except AgentError as exc:   # (the screen is gone: the game, as it was before the answer, is saved below)
        interrupted, failure = False, exc
    click.echo(f"seed {seed}")
    if session.game.over:
        click.echo(session.result())
    if save:
        try:
            session.save(save)
        except FileProblem as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        click.echo(f"trace written to {save}")
    if failure is not None:
        click.echo(printable(f"error: {failure}"), err=True)
        sys.exit(1)
    if interrupted:
        raise click.Abort()   # (`Aborted!`, exit 1: as Ctrl-C on the plain screen)


@cli.command()
@click.argument("file", type=Existing(dir_okay=False, path_type=Path))
@click.option("--max-steps", default=None, type=click.IntRange(min=1),
              help="Steps one action's effects may take; beyond: an error naming what ran.  "
                   "[default: the budget a verify trace recorded, else 100000]")
def replay(file: Path, max_steps: int | None) -> None:
    """Re-run a saved trace and check it arrives at the same final state."""
    from rulesdsl.interpreter import EffectFailed
    from rulesdsl.interpreter.actions import IllegalAction
    from rulesdsl.trace import (OTHER_CARDS, OTHER_CARDS_END, TraceError, load_trace, other_cards, recorded_max_steps,
                                replay as run)
    from .safe_text import printable  # a trace is not the user's own text: nothing in it reaches the terminal raw
    data = None
    try:
        data = load_trace(file)
        # (a verify trace keeps the budget its failure broke: replayed with another, it passed)
        game, diffs = run(data, max_steps=max_steps or recorded_max_steps(data))
    except (TraceError, IllegalAction, EffectFailed, ValueError) as exc:  # ValueError: a name in the trace the cards lack
        click.echo(printable(f"error: {exc}"), err=True)
        if data is not None and not isinstance(exc, TraceError) and _recorded_with_other_cards(data):
            click.echo(f"{OTHER_CARDS}: its moves may not fit these", err=True)
        sys.exit(1)
    from .play_view import outcome
    st = game.state
    ended = outcome(game) if game.over else "game not over"   # (it said `winner None (None)`)
    click.echo(printable(f"{len(st.history)} actions replayed; {ended}; "
               f"scores {[game.total_score(p) for p in range(st.players)]}"))
    other = other_cards(st.fingerprint, data)
    if other:
        click.echo(OTHER_CARDS_END)
    if diffs:
        for d in diffs:
            click.echo(printable(f"mismatch: {d}"), err=True)
        sys.exit(1)
    click.echo("same end" if other else "same final state")


def _recorded_with_other_cards(data: dict) -> bool:
    """Whether a trace that failed to replay was recorded with other card files."""
    from rulesdsl.trace import TraceError, other_cards, rules_of
    try:
        return other_cards(rules_of(data).content.fingerprint(), data)
    except TraceError:
        return False


@cli.command("list")
@click.argument("kind", required=False)
@click.argument("path", required=False, type=Existing(path_type=Path))
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@game_options
def list_names(kind: str | None, path: Path | None, expansions: tuple[str, ...], as_json: bool, game: str | None,
               players: int | None) -> None:
    """List the names a content set defines: KIND (card, wonder, zone, procedure, option, event,
    verb, ...; singular or plural), or without KIND (or with `all`) the kinds and how many.

    PATH is a content folder, as for `verify`: one with a `game` is the base game, any other is
    layered on the base game (--game, default the game the expansions' `base` names, else the
    bundled Duel; after the --expansion ones). A
    lone argument holding `/`, or naming a folder and no kind, is the PATH. Copies of an item share its name: the names are the
    same at every player count (--players only checks that the game plays with that many)."""
    from .diagnostics import RulesError
    from .files import is_dir
    from .listing import catalogue, nothing_of, resolve_kind
    from .loader import load_paths, resolve_layers
    from .names import shown
    from .safe_text import cells
    if path is None and kind is not None and "/" in kind:
        problem = no_such(kind)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="PATH")
        kind, path = None, Path(kind)
    require_expansion_folders(expansions)
    if path is not None:   # (a file not a card file, or a FIFO: said of PATH, not of --expansion)
        from .loader import FolderProblem, check_folder
        try:
            check_folder(path)
        except FolderProblem as exc:
            raise click.BadParameter(str(exc), param_hint="PATH") from None
    base, layers = content_layers(path, expansions, game)
    if players is not None:
        check_players(layers, base, players)
    try:
        merged = load_paths(resolve_layers(layers, base))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--expansion") from None
    errors = [d for d in merged.diagnostics if d.severity == "error"]
    if errors:  # names need the files parsed, not checked: `rulesdsl check` tells the rest
        click.echo(str(RulesError(errors, merged.sources)), err=True)
        click.echo("run `rulesdsl check` for every diagnostic", err=True)
        sys.exit(1)
    found = catalogue(merged)
    if kind is None or kind == "all":
        if as_json:
            click.echo(json.dumps({"kinds": {k: len(v) for k, v in found.items()}}))
            return
        width = max(len(k) for k in found)
        for k, entries in found.items():
            click.echo(f"{k:{width}}  {len(entries)}")
        return
    if path is None and not _a_kind(kind, found) and is_dir(kind):
        # (`list harbours`: a folder beside the user, named without `./`)
        return list_names.callback(None, Path(kind), expansions, as_json, game, players)
    kind = checked("KIND", resolve_kind, kind, found, merged)
    entries = found.get(kind, [])
    if as_json:
        click.echo(json.dumps({"kind": kind, "names": [e.as_json() for e in entries]}))
        return
    if not entries:
        click.echo(nothing_of(kind, merged), err=True)
    # (padded by terminal cells: a CJK name takes two a character, an accent written apart none)
    width = max([cells(shown(e.name)) for e in entries] + [0])
    for e in entries:
        where = f"{e.file}:{e.line}" if e.file else ""
        click.echo(f"{shown(e.name)}{' ' * (width - cells(shown(e.name)))}  {where}".rstrip())
def _a_kind(word: str, found) -> bool:
    from .listing import resolve_kind
    try:
        resolve_kind(word, found)
    except ValueError:
        return False
    return True


@cli.group()
def cache() -> None:
    """The parse cache: `check` keeps each card file's parse here (see docs/cli.md)."""


@cache.command("info")
def cache_info() -> None:
    """Where the cache is, how many entries and bytes it holds, and its limits."""
    from . import parse_cache
    from .safe_text import printable
    got = parse_cache.info()
    click.echo(printable(f"folder: {got.folder if got.folder is not None else '-'}"))
    click.echo(printable(f"state: {got.state}"))
    click.echo(f"entries: {got.entries} (limit {parse_cache.MAX_ENTRIES})")
    click.echo(f"bytes: {got.bytes} (limit {parse_cache.MAX_BYTES})")


@cache.command("clear")
def cache_clear() -> None:
    """Remove every entry (the cache is rebuilt as files are checked)."""
    from . import parse_cache
    from .safe_text import printable
    try:
        before, removed = parse_cache.clear()
    except OSError as exc:
        click.echo(printable(f"error: cannot clear the cache: {exc.strerror or exc}"), err=True)
        sys.exit(1)
    if before.state != "on":
        click.echo(printable(f"nothing to clear: {before.state}"))
        return
    click.echo(printable(f"removed {removed} entries ({before.bytes} bytes) from {before.folder}"))


# `rulesdsl verify` and `rulesdsl test` live with the testing tools (rulesdsl/testing/commands.py).
from .testing.commands import test as _test_command, verify as _verify_command  # noqa: E402

cli.add_command(_verify_command)
cli.add_command(_test_command)

# The editor commands (rulesdsl/editor_commands.py): fmt, lsp, editor-grammar.
from .editor_commands import editor_grammar as _grammar_command, fmt as _fmt_command, lsp as _lsp_command  # noqa: E402

cli.add_command(_fmt_command)
cli.add_command(_lsp_command)
cli.add_command(_grammar_command)

# The balance lab (rulesdsl/balance/command.py).
from .balance.command import balance as _balance_command  # noqa: E402

cli.add_command(_balance_command)


def main() -> None:
    """The `rulesdsl` command (and `python -m rulesdsl`).  A standard stream closed, or an output
    that cannot be written, is one `error:` line and exit 1 (streams.with_standard_streams)."""
    from .streams import with_standard_streams
    with_standard_streams(lambda: cli(prog_name="rulesdsl"))


if __name__ == "__main__":
    main()
