"""What the `rulesdsl` commands share (rulesdsl/cli.py and rulesdsl/testing/commands.py): loading
content with a clean error, checking a command-line value, checking an output path, the layers
a content folder makes.  Imports stay inside the functions: `rulesdsl check` does not pay for them."""

from __future__ import annotations

import sys
from pathlib import Path

import click


def load_rules(expansions: tuple[str, ...], base: str = "duel"):
    """The compiled ruleset (rulesdsl.pipeline.load_ruleset); content with errors is printed
    and exits 1, an unknown expansion or a bad folder is a usage error."""
    from .diagnostics import RulesError
    from .pipeline import load_ruleset
    try:
        return load_ruleset(expansions, base)
    except RulesError as exc:
        click.echo(str(exc), err=True)
        click.echo("run `rulesdsl check` for every diagnostic", err=True)
        sys.exit(1)
    except ValueError as exc:
        from .names import UnknownName
        if isinstance(exc, UnknownName) and exc.kind == "expansion":
            raise click.BadParameter(str(exc), param_hint="--expansion") from None
        raise click.UsageError(str(exc)) from None


def checked(flag: str, check, *args):
    """A rulesdsl.names check of a command-line value: an unknown name is a usage error naming the flag."""
    try:
        return check(*args)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=flag) from None


def writable(path: Path | None) -> None:
    """An output path is checked before any work: a game is not played for nothing."""
    from .files import FileProblem, check_writable
    if path is None:
        return
    try:
        check_writable(path)
    except FileProblem as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


def content_layers(path: Path | None, expansions: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """(base, expansions): a folder that defines a `game` is the base; any other folder is an
    expansion layered last, on the bundled base game and the named expansions."""
    if path is None:
        return "duel", tuple(expansions)
    from .loader import load_paths
    folder = str(path.resolve())
    if load_paths([path]).by_kind("game"):
        return folder, tuple(expansions)
    return "duel", (*expansions, folder)
