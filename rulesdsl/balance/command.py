"""`rulesdsl balance`: the balance lab on the command line (docs/cli.md, docs/balance.md)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import click

from ..cli_support import OutputFile, game_base, game_options, load_rules, worker_jobs, worker_lost, writable
from ..limits import DEFAULT_MAX_STEPS
from ..names import agent_list
from ..workers import WorkerLost


def _fail(message: str, status: int = 1) -> None:
    from ..safe_text import printable
    click.echo(printable(f"error: {message}"), err=True)
    sys.exit(status)


def _side(text: str, base: str, flag: str) -> tuple[str, str | None]:
    """(base, extra layer) of a content set named on the command line: a bundled game, a folder
    holding a `game` (the base itself), or a folder without one: a variant layered on `base`
    (e.g. one file with `replace card "Name" { ... }`)."""
    from ..files import is_dir, resolved, unreachable
    from ..loader import FolderProblem, bundled_sets, load_paths
    bundled = bundled_sets("game")
    if text in bundled:
        return text, None
    path = Path(text)
    if not is_dir(path):
        why = unreachable(path)
        _fail(f"{flag} {text}: neither a bundled game ({', '.join(bundled)}) nor a folder"
              + (f" ({why})" if why else ""), 2)
    try:
        defines_game = bool(load_paths([path]).by_kind("game"))
    except FolderProblem as exc:
        _fail(f"{flag} {text}: {exc}", 2)
    return (str(resolved(path)), None) if defines_game else (base, str(resolved(path)))


@click.command()
@game_options
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@click.option("--agents", default=None, metavar="A,B,...",
              help="The line-up, one agent per seat: random, greedy, mcts, module:Class or an installed "
                   "rulesdsl.agents entry point. Default: greedy at every seat.")
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1),
              help="Games to play (rounded up to whole rotations of the line-up).")
@click.option("--seed", "-s", default=0, show_default=True, type=int,
              help="Seed of the run: each deal's seed is a hash of it and the deal's index.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: all cores).")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="A game option for every game, of both sides of --compare (e.g. beginner_wonders; repeatable).")
@click.option("--compare", nargs=2, default=None, metavar="A B",
              help="A/B: play both content sets on the same seeds and agents: each a bundled game, a folder "
                   "holding a `game`, or a variant folder layered on --game (e.g. `replace card ...`).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--html", "html_file", type=OutputFile(), default=None,
              help="Also write a self-contained HTML report with plots here.")
@click.option("--iterations", default=200, show_default=True, type=click.IntRange(min=1),
              help="mcts: playouts per decision.")
@click.option("--rollout", type=click.Choice(["random", "greedy"]), default="random", show_default=True,
              help="mcts: who plays the playouts.")
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="mcts: stop a playout after this many actions and score the position (default: play to the end).")
@click.option("--early", default=5, show_default=True, type=click.IntRange(min=0),
              help="A definition built by this game turn counts as built early.")
@click.option("--traces", type=click.Path(file_okay=False), default=None,
              help="Write every game's trace into this folder (game-INDEX.json; `rulesdsl replay` plays one back).")
@click.option("--checkpoint", type=OutputFile(), default=None, metavar="FILE",
              help="Keep the games played in FILE as they come, and go on from the games it holds: run the same "
                   "command again after an interruption, or with a larger -n to grow the study.")
@click.option("--top", default=15, show_default=True, type=click.IntRange(min=1),
              help="Rows per definition table on the terminal.")
@click.option("--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, type=click.IntRange(min=1),
              help="Steps one action's effects may take; beyond: an error naming what ran.")
def balance(game: str | None, players: int | None, expansions: tuple[str, ...], agents: str | None, games: int,
            seed: int, jobs: int | None, options: tuple[str, ...], compare: tuple[str, str] | None, as_json: bool, html_file: Path | None,
            iterations: int, rollout: str, depth: int | None, early: int, traces: str | Path | None,
            checkpoint: Path | None, top: int, max_steps: int) -> None:
    """Play many games with seats rotated and report what unbalances the game: win rates by
    seat, agent and definition (cards, wonders, tokens, ...) with 95% intervals, outliers after
    Holm's correction; with --compare A B, the differences between two content sets."""
    missing = _missing_lab(drawing=html_file is not None)
    if missing:
        _fail(f"rulesdsl balance needs the lab extra ({missing} is missing): pip install 'rulesdsl[lab]'")
    from .lab import Plan, SearchOptions, ab, balance as run_balance
    from .report_json import report_json
    from ..agents import AgentError, check_all
    from .checkpoint import CheckpointProblem
    from .runner import NOT_STARTED
    writable(html_file)
    writable(checkpoint)
    if html_file is not None and checkpoint is not None and html_file.resolve() == checkpoint.resolve():
        _fail(f"--html and --checkpoint name the same file, {html_file}: the page would replace the games kept", 2)
    if traces is not None:
        # (as every output path: its folder must be there; `--traces ''` wrote into the current
        # folder, `--traces /nonexist/x` made `/nonexist` too)
        if not traces.strip():
            _fail("--traces: an empty path is not a folder", 2)
        traces = Path(traces)
        if not traces.parent.is_dir():
            _fail(f"cannot create {traces}: no folder {traces.parent}")
        try:
            traces.mkdir(exist_ok=True)
        except OSError as exc:
            _fail(f"cannot create {traces}: {exc.strerror or exc}")
    base = game_base(game, expansions)
    # (a variant folder without --game: on the game its own `base` names, if the expansions name none)
    sides = [_side(c, base if game is not None else game_base(None, (*expansions, c)), "--compare")
             for c in compare] if compare else [(base, None)]
    layers = [(b, tuple(expansions) + ((extra,) if extra else ())) for b, extra in sides]
    contents = [load_rules(e, b, players).content for b, e in layers]
    seats = [c.players for c in contents]
    if len(set(seats)) > 1:
        _fail(f"--compare: {_seat_mismatch(compare, contents)}", 2)
    from ..cli_support import checked
    from ..interpreter.creation import checked_options
    for content in contents:   # (both sides play them: each must read them)
        options = tuple(dict.fromkeys(checked("--option", checked_options, content, options)))
    try:
        line_up = agent_list(agents) if agents else ["greedy"] * seats[0]
    except ValueError as exc:
        _fail(f"--agents: {exc}", 2)
    if len(line_up) != seats[0]:
        _fail(f"--agents gives {len(line_up)} agent{'' if len(line_up) == 1 else 's'}, the game has {seats[0]} seats: "
              "one per seat, comma-separated", 2)
    search = SearchOptions(iterations, rollout, depth)
    try:
        check_all(line_up, search)
    except AgentError as exc:
        _fail(f"--agents: {exc}", 2 if str(exc).startswith("unknown agent") else 1)
    plans = [Plan(b, e, players, tuple(line_up), games, seed, search, max_steps,
                  str(traces / (f"{'ab'[i]}" if compare else "")) if traces else None, options)
             for i, (b, e) in enumerate(layers)]
    for p in plans:
        if p.traces:
            try:
                Path(p.traces).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _fail(f"cannot create {p.traces}: {exc.strerror or exc}")
    jobs = worker_jobs(jobs)
    # (reports without their game rows: the terminal and the HTML page show none, and the JSON
    # writes them from the outcomes a batch at a time, not a dict per game of a long run at once)
    try:
        with _terminate_as_ctrl_c(), _progress() as progress:
            if compare:
                result, (first, second) = ab(plans[0], plans[1], compare[0], compare[1], jobs, early, progress,
                                             rows=False, checkpoint=checkpoint, note=_note)
                games = [(result["a"], first), (result["b"], second)]
            else:
                result, outcomes = run_balance(plans[0], game or plans[0].base, jobs, early, progress, rows=False,
                                               checkpoint=checkpoint, note=_note)
                games = [(result, outcomes)]
    except CheckpointProblem as exc:
        _fail(str(exc))
    except WorkerLost as exc:
        worker_lost(exc)
    if html_file is not None:
        from ..files import FileProblem, write_atomic
        from .html import render_html
        try:
            write_atomic(html_file, render_html(result))
        except FileProblem as exc:
            _fail(str(exc))
    if as_json:
        for piece in report_json(result, games):
            click.echo(piece, nl=False)
        click.echo()
    else:
        from rich.console import Console
        from .report import render, render_compare
        console = Console(highlight=False, width=None if sys.stdout.isatty() else 150)
        if compare:
            render_compare(result, console, top)
        else:
            render(result, console, top)
        if html_file is not None:
            click.echo(f"HTML report written to {html_file}")
    reports = [result["a"], result["b"]] if compare else [result]
    errors = [r["meta"]["error"] for r in reports if r["meta"]["error"]]
    played = [r["meta"]["games_played"] for r in reports]
    if errors:
        kept = (f"; the games played are kept in {checkpoint}: run the same command to go on"
                if checkpoint is not None and errors[0].startswith("interrupted") else "")
        if not compare:
            _fail(f"{errors[0]}; the report covers the {played[0]} games before it{kept}")
        # (each side's report covers the games it played; the comparison, the first N of each)
        n = result["compare"].get("games", 0)
        compared = (f"; the comparison covers the first {n} games of each side" if n
                    else "; nothing is compared")
        if reports[1]["meta"]["error"] == NOT_STARTED:   # (A stopped, by ^C: B was not played on)
            held = f"B's the {played[1]} games {checkpoint} holds" if played[1] else "B's none"
            _fail(f"A: {errors[0]}; B was not started; A's report covers the {played[0]} games A played, "
                  f"{held}{compared}{kept}")
        if len(errors) == 2:
            _fail(f"A: {errors[0]}, B: {errors[1]}; A's report covers the {played[0]} games A played, B's the "
                  f"{played[1]} B played{compared}{kept}")
        k = 0 if reports[0]["meta"]["error"] else 1
        side, other = "AB"[k], "AB"[1 - k]
        _fail(f"{side}: {errors[0]}; {side}'s report covers the {played[k]} games before it, {other}'s the "
              f"{played[1 - k]} games {other} played{compared}{kept}")


def _seat_mismatch(compare: tuple[str, str], contents: list) -> str:
    """Why two content sets loaded at their fewest players cannot be compared as they are, and
    what to do: a count both play, or none (two games: `--players` cannot help)."""
    ranges = [(c.min_players, c.max_players) for c in contents]
    said = [f"{name} plays with {low if low == high else f'{low} to {high}'} players"
            for name, (low, high) in zip(compare, ranges)]
    low, high = max(r[0] for r in ranges), min(r[1] for r in ranges)
    if low > high:
        return (f"{said[0]}, {said[1]}: no count plays both; compare two content sets of one game "
                "(a variant folder is laid on --game, or on the game its `base` names)")
    both = str(low) if low == high else f"{low} to {high}"
    return f"{said[0]}, {said[1]}: give --players N (both play {both})"


def _note(text: str) -> None:
    from ..safe_text import printable
    click.echo(printable(f"note: {text}"), err=True)


def _missing_lab(drawing: bool) -> str | None:
    """The first module of the lab extra this run needs that is not installed, else None.
    matplotlib only draws the `--html` page, so a run without one does not need it (a lab with
    `rich` alone plays and reports); where the page is asked for, it is looked for before any
    game is played, not after a long study.  It is imported only then: importing it costs a
    third of a second, and it warns on every run where the home folder is not writable."""
    try:
        import rich  # noqa: F401
        if drawing:
            import matplotlib  # noqa: F401
    except ImportError as exc:
        return exc.name or str(exc)
    return None


class _terminate_as_ctrl_c:
    """SIGTERM heard as Ctrl-C while the games play: `kill`, `timeout`'s default signal and a
    batch system's time limit send it, and a long study ended so keeps in its checkpoint, and
    reports, the games that came back (killed at once, it lost up to the last 10 seconds of
    games and printed no report).  A forked worker inherits the handler and leaves the signal
    to the command, as it does Ctrl-C; where Ctrl-C is ignored (a study started under `nohup`
    or in the background of a script) SIGTERM ends the command at once, as before."""

    def __enter__(self) -> None:
        self.previous = None
        if threading.current_thread() is not threading.main_thread():
            return
        owner = os.getpid()

        def heard(signum: int, frame: object) -> None:
            if os.getpid() != owner:
                return
            if not callable(signal.getsignal(signal.SIGINT)):
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                os.kill(owner, signal.SIGTERM)
                return
            signal.raise_signal(signal.SIGINT)

        self.previous = signal.signal(signal.SIGTERM, heard)

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


class _progress:
    """A progress bar with ETA on stderr when it is a terminal; otherwise nothing.  Drawn by
    the command's own thread as games come back, at most `REDRAW` times a second: rich's
    drawing thread would be alive when the run forks its workers (`rulesdsl.workers`), and a
    worker forked while that thread held standard error's lock would hang at its first write."""

    REDRAW = 10

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
        self.bar = Progress("balance", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(file=sys.stderr), transient=True, auto_refresh=False)
        self.bar.start()
        self.task = self.bar.add_task("games", total=None)
        self.drawn = 0.0
        self.bar.refresh()
        return self.update

    def update(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)
        now = time.monotonic()
        if now - self.drawn >= 1 / self.REDRAW or done >= total:
            self.drawn = now
            self.bar.refresh()

    def __exit__(self, *exc) -> None:
        if sys.stderr.isatty():
            self.bar.stop()
