"""`rulesdsl verify` and `rulesdsl test` (added to the `rulesdsl` command in rulesdsl/cli.py).

Heavy imports stay inside the functions: `rulesdsl check` does not pay for them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..safe_text import printable  # card files, traces and scenarios are printed escaped
from ..cli_support import (Existing, OutputFile, checked, check_players, content_layers, game_base, game_options, load_rules,
                           worker_jobs, worker_lost, writable)
from ..limits import DEFAULT_MAX_STEPS


@click.command()
@click.argument("path", required=False, type=Existing(path_type=Path))
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1), help="Random games to play.")
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@click.option("--seed", "-s", default=0, show_default=True, type=int, help="Seed of the first game; game i uses a seed derived from it.")
@click.option("--option", "options", multiple=True, help="A game option for every game (e.g. beginner_wonders).")
@click.option("--max-actions", default=1000, show_default=True, type=click.IntRange(min=1),
              help="A game not over after this many actions breaks `game-ends`.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Worker processes (default: every CPU).")
@click.option("--out", "-o", default=Path("verify-failure.trace.json"), show_default=True,
              type=OutputFile(), help="Where to write the trace of a failure.")
@click.option("--no-shrink", is_flag=True, help="Report the failing game as found, without shrinking it.")
@click.option("--trace", "trace_file", type=Existing(dir_okay=False, path_type=Path),
              help="Instead: replay this trace with every invariant checked after every action.")
@click.option("--skip", "skip", multiple=True, metavar="NAME", help="Do not check this invariant (repeatable; see --list).")
@click.option("--list", "list_only", is_flag=True, help="List the invariants and exit.")
@click.option("--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, type=click.IntRange(min=1),
              help="Steps one action's effects may take; beyond, the action breaks `effects-end`.")
@game_options
def verify(path: Path | None, games: int, expansions: tuple[str, ...], seed: int, options: tuple[str, ...],
           max_actions: int, jobs: int | None, out: Path, no_shrink: bool, trace_file: Path | None,
           skip: tuple[str, ...], list_only: bool, max_steps: int, game: str | None, players: int | None) -> None:
    """Play N random games checking every rule invariant after every action.

    PATH is a content folder: one with a `game` is the base game, any other is layered on the
    base game (--game, default the game the expansions' `base` names, else the bundled Duel;
    after the --expansion ones). --players: how many
    play (default: the game's fewest). On a failure: the invariant, the shrunk
    action sequence, and a trace that `rulesdsl replay` re-runs. Exit status 0: every
    invariant held; 1: one broke (or the cards do not load); 2: usage."""
    if trace_file is not None:
        _verify_trace(trace_file)
        return
    from ..files import FileProblem
    from ..names import check_options
    from .invariants import DRIVER_INVARIANTS, all_invariants
    from .verify import verify as run, write_trace
    from ..loader import FolderProblem
    from ..workers import WorkerLost
    try:
        base, layers = content_layers(path, expansions, game)
    except FolderProblem as exc:
        raise click.UsageError(str(exc)) from None
    rules = load_rules(layers, base, players)
    content = rules.content
    options = tuple(checked("--option", check_options, content.options, options))
    known = {i.name for i in all_invariants(content)}
    unknown = [n for n in skip if n not in known]
    if unknown:
        name = unknown[0]
        if name in {i.name for i in DRIVER_INVARIANTS}:
            raise click.UsageError(f"invariant `{name}` is checked by the driver while it plays and cannot be "
                                   "skipped; --skip takes the invariants of a position (see rulesdsl verify --list)")
        raise click.UsageError(f"unknown invariant `{name}` for --skip; see rulesdsl verify --list")
    invariants = [i for i in all_invariants(content) if i.name not in skip]
    if list_only:
        for inv in invariants + DRIVER_INVARIANTS:
            click.echo(printable(f"{inv.name:32} {inv.message}"))
        return
    writable(out)  # before the games: a failure found must not be lost for want of a place to write it
    jobs = worker_jobs(jobs)
    label = " + ".join(Path(x).name if "/" in x else x for x in [base, *layers])
    designer = sum(1 for i in invariants if i.name.startswith("designer: "))
    click.echo(f"verify: {label}; {games} random games from seed {seed} ({content.players} players); "
               f"{len(invariants) - designer} invariants"
               + (f" + {designer} of the designer's" if designer else "") + f"; {jobs} job{'s' if jobs > 1 else ''}")
    try:
        if sys.stderr.isatty():
            with click.progressbar(length=games, label="playing", file=sys.stderr) as bar:
                report = run(content, games, seed, options, max_actions, jobs, progress=bar.update,
                             shrink_failure=not no_shrink, base=base, expansions=layers, skip=skip,
                             max_steps=max_steps)
        else:
            report = run(content, games, seed, options, max_actions, jobs, shrink_failure=not no_shrink,
                         base=base, expansions=layers, skip=skip, max_steps=max_steps)
    except WorkerLost as exc:
        worker_lost(exc)
    if report.ok:
        click.echo(f"ok: {report.games} games, {report.actions} actions, every invariant held after every action "
                   f"({report.seconds:.1f} s)")
        return
    f = report.failure
    click.echo(printable("FAILED: " + f.describe()))
    try:
        write_trace(content, f, out)
    except FileProblem as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"trace written to {out}")
    click.echo(f"  replay it:            rulesdsl replay {out}")
    click.echo(f"  check it again:       rulesdsl verify --trace {out}")
    sys.exit(1)


def _verify_trace(path: Path) -> None:
    from rulesdsl.interpreter.budget import EffectFailed
    from rulesdsl.trace import OTHER_CARDS_END, TraceError, compare_end, load_trace, other_cards
    from .verify import check_trace
    try:
        data = load_trace(path)
        game, violation = check_trace(data)
    except (TraceError, ValueError, EffectFailed) as exc:
        click.echo(printable(f"error: {exc}"), err=True)
        sys.exit(1)
    n = len(game.state.history)
    if violation is not None:
        click.echo(printable("FAILED: " + violation.describe()))
        sys.exit(1)
    # The invariants held all the way; the game must also end where the trace says it did.
    if other_cards(game.state.fingerprint, data):
        click.echo(OTHER_CARDS_END)
    diffs = compare_end(game, data)
    for d in diffs:
        click.echo(printable(f"mismatch: {d}"), err=True)
    if diffs:
        click.echo(f"FAILED: {n} actions replayed, every invariant held, but the end differs from the recorded one")
        sys.exit(1)
    click.echo(f"ok: {n} actions replayed, every invariant held after every action, same end as recorded")


@click.command("test")
@click.argument("paths", nargs=-1, type=Existing(path_type=Path))
@click.option("-k", "keyword", default=None, help="Only scenarios whose name contains this text.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True,
              help="human: a line per scenario and a summary; json: one JSON object.")
@game_options
def test(paths: tuple[Path, ...], keyword: str | None, fmt: str, game: str | None, players: int | None) -> None:
    """Run scenario files (`*.scenario`; folders are searched).

    Each scenario sets up a position, applies actions and checks what happens. --game and
    --players are the defaults of scenarios without a `base` or `players` line. Exit status 0:
    every scenario passed; 1: a failure or an error in a scenario file; 2: usage (no
    scenario found)."""
    from .scenarios import find_files, run_paths
    paths = paths or (Path("."),)
    base = None if game is None else game_base(game)
    if base is not None and players is not None:  # else each scenario's own game decides (S401)
        check_players((), base, players)
    if not find_files(list(paths)):
        raise click.UsageError(f"no scenario files (*.scenario) in {', '.join(map(str, paths))}")
    report = run_paths(list(paths), keyword, base, players)
    if not report.results:
        raise click.UsageError(f"no scenario matches -k {keyword!r}")
    click.echo(json.dumps(report.as_json(), indent=2) if fmt == "json" else printable(report.human()))
    sys.exit(0 if report.ok else 1)
