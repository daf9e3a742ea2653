"""Which agent a name means, for every command that seats agents (`balance`, `simulate`, `play`):
a bundled one (random, greedy, mcts), `module:Class`, or a name registered by an installed
package in the entry-point group `rulesdsl.agents` (docs/agents.md).

An agent is made per game and seat as `factory(seed)`; it answers `act(game) -> Action` for the
seat `game.to_move()`.  A name that cannot be resolved is an AgentError naming it (an unknown
one an UnknownAgent, which is a `names.UnknownName` too).  A custom agent is taken at its word
nowhere: `answer` checks what it did and answered, and an AgentError names the agent, its seat
and the game."""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable, Iterable

import attrs

from .names import UnknownName

GROUP = "rulesdsl.agents"


class AgentError(ValueError):
    """An agent that cannot be loaded, or that failed in a game (see `answer`)."""


class UnknownAgent(UnknownName, AgentError):
    """A name that is no bundled agent, no `module:Class` and no registered entry point."""


@attrs.frozen
class SearchOptions:
    """The mcts agent's budget and rollout policy (`--iterations`, `--rollout`, `--depth`)."""

    iterations: int = 200
    rollout: str = "random"
    depth: int | None = None


def _bundled() -> dict[str, Any]:
    from .interpreter.agents import AGENTS
    return dict(AGENTS)


def _registered() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def known_names() -> list[str]:
    return [*_bundled(), *sorted(set(_registered()) - set(_bundled()))]


def is_bundled(spec: str) -> bool:
    """Whether `spec` names a bundled agent, whose answers are taken from the legal actions
    (`play_out(..., trusted=True)`, no check of what `act` did)."""
    return spec.strip() in _bundled()


# The one agent made with the search options (`resolve`): any other plays alike whatever they are.
SEARCHING = "mcts"


def reads_search(spec: Any) -> bool:
    """Whether the agent `spec` names is made with the search options (`SearchOptions`)."""
    return isinstance(spec, str) and spec.strip() == SEARCHING


def resolve(spec: str, search: SearchOptions = SearchOptions(), also: Iterable[str] = ()) -> Callable[[int], Any]:
    """A factory `seed -> agent` for `spec`; an AgentError for a name that does not resolve,
    a module that fails to import or an attribute that is not a class with `act`.  `also`:
    names the caller takes besides agents (a human seat), listed first where a name is unknown."""
    if not isinstance(spec, str):
        raise UnknownAgent("agent", spec, [*also, *known_names()])
    spec = spec.strip()
    bundled = _bundled()
    if spec == SEARCHING:
        cls = bundled[SEARCHING]
        return lambda seed: cls(seed, iterations=search.iterations, rollout=search.rollout, depth=search.depth)
    if spec in bundled:
        return bundled[spec]
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:   # any failure of the user's module is reported, not raised
            raise AgentError(f"agent {spec!r}: cannot import {module_name}: {type(exc).__name__}: {exc}"
                             + _not_on_path(module_name, exc)) from None
        target = module
        for part in attr.split("."):
            target = getattr(target, part, None)
            if target is None:
                raise AgentError(f"agent {spec!r}: module {module_name} has no {attr!r}")
        return _checked(spec, target)
    registered = _registered()
    if spec in registered:
        try:
            target = registered[spec].load()
        except Exception as exc:
            raise AgentError(f"agent {spec!r}: the entry point of {GROUP} fails to load: "
                             f"{type(exc).__name__}: {exc}") from None
        return _checked(spec, target)
    names = [*also, *known_names()]
    raise UnknownAgent("agent", spec, names,
                       listed=f"agents: {', '.join(names)}, or module:Class (docs/agents.md)")


def _not_on_path(module_name: str, exc: Exception) -> str:
    """A hint where the module's file lies in the working folder, which the `rulesdsl` command
    does not search (its `sys.path` starts at its own script): a bot's first run from the folder
    of its file met a bare ModuleNotFoundError."""
    top = module_name.split(".")[0]
    if not isinstance(exc, ModuleNotFoundError) or exc.name != top:
        return ""
    try:
        here = Path.cwd()
        found = (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file()
    except OSError:   # (a working folder removed since)
        return ""
    return " (it is in the current folder, which is not searched: run with PYTHONPATH=. or install it)" if found else ""


def _checked(spec: str, target: Any) -> Callable[[int], Any]:
    if not callable(target) or not hasattr(target, "act"):
        raise AgentError(f"agent {spec!r} is not an agent class (one made as Class(seed), with act(game))")
    return target


def check_all(specs: list[str], search: SearchOptions = SearchOptions()) -> None:
    """Resolve every spec once, before any game is played: a bad name fails the run at once."""
    for spec in specs:
        resolve(spec, search)


@attrs.frozen
class Lineup:
    """One agent per seat (or line-up position), resolved once for a run: its names as given,
    a factory `seed -> agent` for each, and which are bundled (`is_bundled`)."""

    names: tuple[str, ...]
    factories: tuple[Callable[[int], Any], ...]
    bundled: tuple[bool, ...]

    @property
    def trusted(self) -> bool:
        """Every agent bundled: `play_out` may take their answers unchecked."""
        return all(self.bundled)

    def made(self, k: int, seed: int, seat: int, where: str | None) -> Any:
        """Agent `k` of the line-up, playing `seat`: a bundled one as made, a custom one made
        inside a check of its answers (`Vetted`); an AgentError if it cannot be made."""
        try:
            agent = self.factories[k](seed)
        except Exception as exc:
            raise AgentError(f"agent {self.names[k]!r} (seat {seat}) could not be made in {where}: "
                             f"{type(exc).__name__}: {exc}") from None
        return agent if self.bundled[k] else Vetted(agent, self.names[k], seat, where)


def lineup(specs: Iterable[str], search: SearchOptions = SearchOptions()) -> Lineup:
    """The line-up of `specs`, each resolved (`resolve`: an AgentError for one that is not)."""
    names = tuple(s.strip() if isinstance(s, str) else s for s in specs)
    factories = tuple(resolve(s, search) for s in names)
    return Lineup(names, factories, tuple(is_bundled(s) for s in names))


def defined_interactively(specs: Iterable[object]) -> bool:
    """Whether a spec names a class of `__main__` where `__main__` is no file a new process can
    import: a notebook, a console, `python -c`, a script on stdin.  Only a forked worker has
    such a class (`workers.start_method`'s `fork_only`)."""
    import sys
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if isinstance(path, str) and os.path.isfile(path):
        return False
    return any(isinstance(s, str) and s.strip().split(":", 1)[0].strip() == "__main__" for s in specs)


def lineup_again(specs: Iterable[str], search: SearchOptions = SearchOptions()) -> Lineup:
    """`lineup` in a worker process, of names the command resolved before it started: an
    AgentError saying why one may not resolve there.  A worker of the spawn start method
    (Windows; `RULESDSL_START_METHOD`) imports the agent's module again: a class made in a
    script's `if __name__ == "__main__":` block, or by code given with `python -c` or on stdin,
    is not in it."""
    try:
        return lineup(specs, search)
    except AgentError as exc:
        raise AgentError(f"{exc}, in a worker process (one started by spawn or forkserver imports the agent's module again, "
                         "and a script's `if __name__ == \"__main__\":` block does not run there: define "
                         "the agent at the top level of a module; docs/agents.md)") from None


def answer(agent: Any, game: Any, label: str, seat: int, where: str, trusted: bool = False) -> Any:
    """What `agent` (named `label`, playing `seat`) answers in `game`; an AgentError naming it,
    its seat and `where` if it raises, or (unless `trusted`: a bundled agent) if it changed the
    game it was asked about (the seat would move twice, unseen: `game.apply` where
    `game.clone().apply` was meant) or answered something not legal."""
    from .interpreter.actions import Action
    from .interpreter.budget import EffectFailed
    from .interpreter.persistence import copy_state
    kept = None if trusted else copy_state(game.state)
    try:
        action = agent.act(game)
    except EffectFailed as exc:
        raise AgentError(f"agent {label!r} (seat {seat}): {exc.within(where)}") from None
    except Exception as exc:
        raise AgentError(f"agent {label!r} (seat {seat}) raised {type(exc).__name__}: {exc} in {where}") from None
    if kept is not None:
        if game.state != kept:
            raise AgentError(f"agent {label!r} (seat {seat}) changed the game it was asked about in {where} "
                             "(`act` must not: try actions on `game.clone()`)")
        reason = (game.explain_illegal(action) if isinstance(action, Action)
                  else f"not an Action but {type(action).__name__}")
        if reason is not None:
            raise AgentError(f"agent {label!r} (seat {seat}) answered an illegal action {action} in {where}: {reason}")
    return action


@attrs.define
class Vetted:
    """A custom agent whose every answer goes through `answer`: what `play_out` and a play
    session seat for it."""

    agent: Any
    label: str
    seat: int
    where: str

    def act(self, game: Any) -> Any:
        return answer(self.agent, game, self.label, self.seat, self.where)
