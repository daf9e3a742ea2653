"""The `rulesdsl` command: check, explain, simulate, play, replay.

Imports are local to each command so that `rulesdsl check` starts fast (no interpreter)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .limits import DEFAULT_MAX_STEPS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """rulesdsl: 7 Wonders Duel and its expansions, written as card files."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
def check(paths: tuple[Path, ...], fmt: str) -> None:
    """Check card files (default: all bundled content).

    A folder without a `game` definition is checked as an expansion on top of the bundled
    base game. Exit status: 0 clean (warnings allowed), 1 errors, 2 usage."""
    from .report import check_paths
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise click.UsageError(f"no such file or folder: {missing[0]}")
    report = check_paths(list(paths))
    click.echo(report.to_json() if fmt == "json" else report.human())
    sys.exit(1 if report.errors else 0)


def _ruleset(expansions: tuple[str, ...], base: str = "duel"):
    from rulesdsl.interpreter import load_ruleset
    from .diagnostics import RulesError
    try:
        return load_ruleset(expansions, base)
    except RulesError as exc:
        click.echo(str(exc), err=True)
        click.echo("run `rulesdsl check` for every diagnostic", err=True)
        sys.exit(1)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def max_steps_option(command):
    """`--max-steps`: the step budget of one action (docs/language.md, "The step budget")."""
    return click.option("--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, type=click.IntRange(min=1),
                        help="Steps one action's effects may take; beyond: an error naming what ran.")(command)


def budget_error(exc: Exception) -> None:
    """A runaway effect (BudgetExceeded): one `error:` line, exit status 1."""
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


@cli.command()
@click.argument("name")
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
def explain(name: str, expansions: tuple[str, ...]) -> None:
    """Show what the engine understood of a definition, in plain English."""
    from .explain import explain as render
    rules = _ruleset(expansions)
    try:
        click.echo(render(name, rules.content))
    except KeyError as exc:
        click.echo(f"error: {exc.args[0]}", err=True)
        sys.exit(1)


@cli.command()
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--expansion", "-e", "expansions", multiple=True, help="Include an expansion (repeatable).")
@click.option("--agents", default="random,random", show_default=True, help="Agents per seat: random, greedy.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@max_steps_option
def simulate(games: int, seed: int, expansions: tuple[str, ...], agents: str, as_json: bool, max_steps: int) -> None:
    """Play many games between agents and summarise them."""
    from rulesdsl.interpreter import BudgetExceeded
    from rulesdsl.interpreter.agents import AGENTS
    from rulesdsl.interpreter.simulate import simulate as run
    rules = _ruleset(expansions)
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if len(names) != rules.content.players or any(n not in AGENTS for n in names):
        raise click.UsageError(f"--agents needs {rules.content.players} of: {', '.join(AGENTS)}")
    show_bar = sys.stderr.isatty()
    try:
        if show_bar:
            with click.progressbar(length=games, label="simulating", file=sys.stderr) as bar:
                result = run(rules, games, seed, names, progress=lambda i: bar.update(1), max_steps=max_steps)
        else:
            result = run(rules, games, seed, names, max_steps=max_steps)
    except BudgetExceeded as exc:
        budget_error(exc)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
        return
    click.echo(f"{result['games']} games, seed {seed}, agents {' vs '.join(names)}"
               + (f", expansions {', '.join(expansions)}" if expansions else ""))
    w = result["wins"]
    click.echo("wins: " + ", ".join(f"player {k} {v}" for k, v in w.items() if k != "draw") + f", draws {w['draw']}")
    click.echo("victories: " + ", ".join(f"{k} {v}" for k, v in result["victories"].items()))
    click.echo("mean score:")
    cats = sorted({c for s in result["mean_score"].values() for c in s if c != "total"})
    for p, s in result["mean_score"].items():
        click.echo(f"  player {p}: total {s['total']:.1f} (" + ", ".join(f"{c} {s.get(c, 0):.1f}" for c in cats) + ")")
    click.echo(f"{result['games_per_second']} games per second")


@cli.command()
@click.option("--agent", default="greedy", show_default=True, help="Opponent: greedy, random, or human (hot seat).")
@click.option("--seat", default=0, type=click.IntRange(0, 1), show_default=True, help="Your seat (0 starts).")
@click.option("--seed", "-s", default=None, type=int, help="Seed (default: random).")
@click.option("--expansion", "-e", "expansions", multiple=True)
@click.option("--save", type=click.Path(path_type=Path), help="Write the game's trace here at the end.")
@max_steps_option
def play(agent: str, seat: int, seed: int | None, expansions: tuple[str, ...], save: Path | None,
         max_steps: int) -> None:
    """Play in the terminal against an agent, or hot seat."""
    import random
    from rulesdsl.interpreter import BudgetExceeded
    from rulesdsl.interpreter.agents import AGENTS, make_agent
    from rulesdsl.interpreter.trace import save_trace
    from .play_view import choose_action, render_game
    if agent != "human" and agent not in AGENTS:
        raise click.UsageError(f"unknown agent `{agent}`; agents: human, {', '.join(AGENTS)}")
    rules = _ruleset(expansions)
    seed = random.randrange(1_000_000) if seed is None else seed
    try:
        game = rules.new_game(seed=seed, max_steps=max_steps)
    except BudgetExceeded as exc:
        budget_error(exc)
    bot = None if agent == "human" else make_agent(agent, seed)
    click.echo(f"seed {seed}")
    try:
        while not game.over:
            p = game.to_move()
            if bot is not None and p != seat:
                action = bot.act(game)
                click.echo(f"player {p} ({agent}): {action}")
                game.apply(action)
                continue
            click.echo(render_game(game, p))
            action = choose_action(game)
            if action is None:
                click.echo("bye")
                return
            game.apply(action)
    except BudgetExceeded as exc:
        budget_error(exc)   # the game is as it was before the runaway action: its trace replays
    finally:
        if save:
            save_trace(game, save)
            click.echo(f"trace written to {save}")
    click.echo(render_game(game, seat))


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@max_steps_option
def replay(file: Path, max_steps: int) -> None:
    """Re-run a saved trace and check it arrives at the same final state."""
    from rulesdsl.interpreter import BudgetExceeded
    from rulesdsl.interpreter.actions import IllegalAction
    from rulesdsl.interpreter.trace import TraceError, load_trace, replay as run
    try:
        game, diffs = run(load_trace(file), max_steps=max_steps)
    except (TraceError, IllegalAction, BudgetExceeded) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    st = game.state
    click.echo(f"{len(st.history)} actions replayed; winner {st.winner} ({st.victory}); "
               f"scores {[sum(game.score(p).values()) for p in range(st.players)]}")
    if diffs:
        for d in diffs:
            click.echo(f"mismatch: {d}", err=True)
        sys.exit(1)
    click.echo("same final state")


# `rulesdsl verify` and `rulesdsl test` live with the testing tools (rulesdsl/testing/commands.py).
from .testing.commands import test as _test_command, verify as _verify_command  # noqa: E402

cli.add_command(_verify_command)
cli.add_command(_test_command)


def main() -> None:
    cli(prog_name="rulesdsl")


if __name__ == "__main__":
    main()
