"""What the `rulesdsl` commands share (rulesdsl/cli.py and rulesdsl/testing/commands.py): loading
content with a clean error, checking a command-line value, checking an output path, the layers
a content folder makes.  Imports stay inside the functions: `rulesdsl check` does not pay for them."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator, NoReturn

import click


def load_rules(expansions: tuple[str, ...], base: str = "duel", players: int | None = None):
    """The compiled ruleset (rulesdsl.pipeline.load_ruleset) for `players` (None: the game's
    fewest); content with errors is printed and exits 1, an unknown expansion or a bad folder is
    a usage error, a count the game does not play with one `error:` line and exit 2."""
    from .diagnostics import RulesError
    from .pipeline import load_ruleset
    require_expansion_folders(expansions)
    try:
        return load_ruleset(expansions, base, players)
    except RulesError as exc:
        click.echo(str(exc), err=True)
        click.echo("run `rulesdsl check` for every diagnostic", err=True)
        sys.exit(1)
    except ValueError as exc:
        from .names import UnknownName
        if isinstance(exc, UnknownName) and exc.kind == "expansion":
            raise click.BadParameter(str(exc), param_hint="--expansion") from None
        if players is not None:
            check_players(expansions, base, players)
        raise click.UsageError(str(exc)) from None


def worker_jobs(jobs: int | None) -> int:
    """`--jobs` of a command that runs games in worker processes (default: every CPU).  A
    `RULESDSL_START_METHOD` this system has no such method for is one `error:` line, exit 2."""
    from .workers import StartMethodError, default_jobs, start_method
    try:
        start_method()
    except StartMethodError as exc:
        usage_error(str(exc))
    return jobs or default_jobs()


def worker_lost(exc: Exception) -> NoReturn:
    """A worker process that ended abruptly (`workers.WorkerLost`): one `error:` line, exit 1."""
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


def require_expansion_folders(expansions: Iterable[str]) -> None:
    """An `-e` folder path that is not there is a usage error (exit 2), as a missing PATH is: read,
    it was a diagnostic at `nope:1:1` and advice to run `check`.  (Missing, not unreachable: a
    folder that cannot be looked at is E009 saying why.)"""
    from .files import lookup
    missing = next((e for e in expansions if "/" in e and lookup(e) == (None, None)), None)
    if missing is not None:
        raise click.BadParameter(f"{missing}: no such folder", param_hint="--expansion")


def check_players(expansions: tuple[str, ...], base: str, players: int) -> None:
    """A player count outside the game's range: `error: classic plays with 3 to 7 players, not 9`
    (one line, exit 2).  The range is read from the game compiled for its fewest players."""
    content = load_rules(expansions, base).content
    require_range(content.name, content.min_players, content.max_players, players)


def require_range(game: str, low: int, high: int, players: int) -> None:
    """`players` outside the game's range [low, high]: one `error:` line saying the range, exit 2."""
    if not low <= players <= high:
        usage_error(f"{game} plays with {low if low == high else f'{low} to {high}'} players, not {players}")


def usage_error(message: str) -> NoReturn:
    """A usage error as one line: `error: MESSAGE`, exit status 2."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def game_options(command):
    """`--game NAME|FOLDER` and `--players N`: which game a command loads, and for how many."""
    command = click.option("--players", "-p", "players", type=int, default=None, metavar="N",
                           help="The number of players (default: the game's fewest).")(command)
    return click.option("--game", "-g", "game", default=None, metavar="NAME|FOLDER",
                        help="The base game: a bundled one (duel or classic) or a folder holding a "
                             "`game`. Default: the game the expansions' `base` names, else duel.")(command)


def game_base(game: str | None, expansions: Iterable[str | Path] = ()) -> str:
    """The base game `--game` names: a bundled game's name, or a folder holding a `game`
    definition (its absolute path); anything else is one `error:` line naming the bundled games
    (exit 2).  None: the bundled game the expansions' `base` names, else the bundled default
    (`loader.default_game`)."""
    from .loader import bundled_sets, default_game
    if game is None:
        return default_game(expansions)
    from .files import is_dir, unreachable
    bundled = bundled_sets("game")
    if game in bundled:
        return game
    looks_like_folder = "/" in game or is_dir(game)
    if looks_like_folder:
        from .loader import FolderProblem, load_paths
        path = Path(game)
        if not is_dir(path):
            why = unreachable(path)
            usage_error(f"--game {game}: no such folder ({f'{why}; ' if why else ''}"
                        f"the bundled games: {', '.join(bundled)})")
        try:
            defines_game = bool(load_paths([path]).by_kind("game"))
        except FolderProblem as exc:
            usage_error(f"--game {game}: {exc}")
        if not defines_game:
            usage_error(f"--game {game}: the folder defines no `game` (an expansion? use --expansion)")
        return str(path.resolve())
    from .names import UnknownName
    usage_error(f"{UnknownName('game', game, bundled)} (or a folder holding a `game`)")


def no_such(path: Path | str) -> str | None:
    """The one line for a path named on the command line that is not there: `no such file or
    folder: PATH`, with the system's reason when it is there but cannot be looked at (`(Permission
    denied)`: a folder on the way the user may not enter; `(File name too long)`); None when the
    path is there.  (Path.exists() raises on those: a traceback.)"""
    from .files import lookup
    info, why = lookup(path)
    if info is not None:
        return None
    return f"no such file or folder: {path}" + (f" ({why})" if why else "")


def require_paths(paths) -> None:
    """Each path named (but `-`, standard input) must be there: else a usage error (exit 2),
    `no such file or folder: PATH`, as `no_such` says it."""
    for p in paths:
        problem = None if str(p) == "-" else no_such(p)
        if problem is not None:
            raise click.UsageError(problem)


def checked(flag: str, check, *args):
    """A rulesdsl.names check of a command-line value: an unknown name is a usage error naming the flag."""
    try:
        return check(*args)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=flag) from None


def seat_agents(flag: str, text: str, seats: int, also: tuple[str, ...] = ()) -> list[str]:
    """A comma-separated list of agents, one per seat, each a name `rulesdsl.agents` resolves (a
    bundled agent, `module:Class`, a registered name) or one of `also` (`human`): an unknown
    name is a usage error naming the flag; a module that fails to import, or that lacks the
    class, one `error:` line (exit 1, as `balance`); a list of the wrong length one `error:`
    line saying how many seats (exit 2)."""
    from .agents import known_names
    from .names import agent_list
    try:
        given = agent_list(text)
    except ValueError as exc:
        usage_error(f"{flag}: {exc}")
    names = [seat_agent(flag, a, also) for a in given]
    if len(names) != seats:
        usage_error(f"{flag} gives {len(names)} agent{'' if len(names) == 1 else 's'}, the game has {seats} seats: "
                    f"one per seat, comma-separated, each one of: {', '.join([*also, *known_names()])}, "
                    "or module:Class")
    return names


def seat_agent(flag: str, name: str, also: tuple[str, ...] = ()) -> str:
    """One agent name of the command line (`seat_agents`), checked as `rulesdsl.agents` resolves
    it: the same names `balance` takes, for every command that seats agents."""
    from .agents import AgentError, UnknownAgent, resolve
    from .safe_text import printable
    if name in also:
        return name
    try:
        resolve(name, also=also)
    except UnknownAgent as exc:
        raise click.BadParameter(str(exc), param_hint=flag) from None
    except AgentError as exc:
        click.echo(printable(f"error: {flag}: {exc}"), err=True)
        sys.exit(1)
    return name.strip()


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


def content_layers(path: Path | None, expansions: tuple[str, ...],
                   game: str | None = None) -> tuple[str, tuple[str, ...]]:
    """(base, expansions): a folder that defines a `game` is the base; any other folder is an
    expansion layered last, on the base game (`--game`, default the one the expansions' `base`
    names, else the bundled one) and the named expansions.  A PATH with its own `game` and a
    `--game` too, or a folder past the limits of a content folder (loader.FolderProblem), is a
    usage error."""
    if path is None:
        return game_base(game, expansions), tuple(expansions)
    from .loader import FolderProblem, load_paths
    folder = str(path.resolve())
    try:
        defines_game = bool(load_paths([path]).by_kind("game"))
    except FolderProblem as exc:   # past the limits of a content folder (`/`, a home folder)
        raise click.UsageError(str(exc)) from None
    if defines_game:
        if game is not None:
            usage_error(f"{path} defines its own game: give it as PATH or as --game, not both")
        return folder, tuple(expansions)
    return game_base(game, (*expansions, folder)), (*expansions, folder)


SAME_CTRL_C = 0.5   # seconds: what a person pressing Ctrl-C twice takes more than


@contextlib.contextmanager
def stop_on_ctrl_c() -> Iterator[Callable[[], None]]:
    """Ctrl-C asks a long run to stop where its results are whole: yields `asked()`, which
    raises `rulesdsl.simulate.Stop` once Ctrl-C was pressed (the run calls it after each game);
    a second Ctrl-C stops at once, as Ctrl-C does elsewhere.  (Where Ctrl-C is ignored, as in a
    job a shell started in the background, or off the main thread, nothing changes.)  Signals
    within `SAME_CTRL_C` seconds of the first count as that one: `timeout -s INT` sends one to
    the command, then one to its process group, which holds the command again."""
    from .simulate import Stop
    pressed: list[float] = []

    def asked() -> None:
        if pressed:
            raise Stop

    def on_ctrl_c(signum: int, frame: object) -> None:
        now = time.monotonic()
        if pressed and now - pressed[0] > SAME_CTRL_C:
            raise KeyboardInterrupt
        if not pressed:
            pressed.append(now)

    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield asked
        return
    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)


class Existing(click.Path):
    """`click.Path(exists=True)` that says why a path is not there as every command says it
    (`no_such`: `(Too many levels of symbolic links)`, `(Permission denied)`), where click said
    only "does not exist"."""

    def __init__(self, **kwargs):
        super().__init__(exists=True, **kwargs)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():   # (no_such named no path: "no such file: ")
            self.fail("an empty path names no file or folder", param, ctx)
        problem = None if value == "-" and self.allow_dash else no_such(value)
        if problem is not None:
            self.fail(problem, param, ctx)
        return super().convert(value, param, ctx)


class OutputFile(click.Path):
    """A file a command writes (`--save`, `--out`, `--html`, `--checkpoint`): a folder is a usage
    error, and so is an empty path, which `Path` reads as `.` (it was `cannot write .: not a
    regular file`, naming a folder no one typed)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path is not a file", param, ctx)
        return super().convert(value, param, ctx)
