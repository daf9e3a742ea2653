"""Which agent a name means: a bundled one (random, greedy, mcts), `module:Class`, or a name
registered by an installed package in the entry-point group `rulesdsl.agents` (docs/agents.md).

An agent is made per game and seat as `factory(seed)`; it answers `act(game) -> Action` for the
seat `game.to_move()`.  A name that cannot be resolved is an AgentError naming it."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any, Callable

import attrs

GROUP = "rulesdsl.agents"


class AgentError(ValueError):
    """An agent that cannot be loaded, or that failed in a game (see runner.GameFailure)."""


@attrs.frozen
class SearchOptions:
    """The mcts agent's budget and rollout policy (`--iterations`, `--rollout`, `--depth`)."""

    iterations: int = 200
    rollout: str = "random"
    depth: int | None = None


def _bundled() -> dict[str, Any]:
    from rulesdsl.interpreter.agents import AGENTS
    return dict(AGENTS)


def _registered() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def known_names() -> list[str]:
    return [*_bundled(), *sorted(set(_registered()) - set(_bundled()))]


def resolve(spec: str, search: SearchOptions = SearchOptions()) -> Callable[[int], Any]:
    """A factory `seed -> agent` for `spec`; an AgentError for a name that does not resolve,
    a module that fails to import or an attribute that is not a class with `act`."""
    spec = spec.strip()
    bundled = _bundled()
    if spec == "mcts":
        cls = bundled["mcts"]
        return lambda seed: cls(seed, iterations=search.iterations, rollout=search.rollout, depth=search.depth)
    if spec in bundled:
        return bundled[spec]
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:   # any failure of the user's module is reported, not raised
            raise AgentError(f"agent {spec!r}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
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
    from ..diagnostics import did_you_mean
    names = known_names()
    hint = did_you_mean(spec, names)
    raise AgentError(f"unknown agent `{spec}`; " + (f"{hint} " if hint else "")
                     + f"agents: {', '.join(names)}, or module:Class (docs/agents.md)")


def _checked(spec: str, target: Any) -> Callable[[int], Any]:
    if not callable(target) or not hasattr(target, "act"):
        raise AgentError(f"agent {spec!r} is not an agent class (one made as Class(seed), with act(game))")
    return target


def check_all(specs: list[str], search: SearchOptions = SearchOptions()) -> None:
    """Resolve every spec once, before any game is played: a bad name fails the run at once."""
    for spec in specs:
        resolve(spec, search)
