"""Loading content for play: the compiled rules of a base game plus expansions."""

from __future__ import annotations

from pathlib import Path

import attrs

from rulesdsl.checker import check
from rulesdsl.compiler import compile_content
from rulesdsl.diagnostics import RulesError
from rulesdsl.loader import BASE_GAME, canonical_expansions, load_paths, resolve_layers
from rulesdsl.model import Content

from .budget import DEFAULT_MAX_STEPS
from .game import Game


@attrs.define
class Ruleset:
    """Compiled content; create any number of games from it."""

    content: Content

    @classmethod
    def load(cls, expansions: list[str] | tuple[str, ...] = (), base: str | Path = BASE_GAME) -> "Ruleset":
        """Load and compile; content with errors raises RulesError with every diagnostic."""
        expansions = canonical_expansions(list(expansions))
        paths = resolve_layers(expansions, base)
        merged = load_paths(paths)
        diagnostics = merged.diagnostics + (check(merged) if not merged.diagnostics else [])
        errors = [d for d in diagnostics if d.severity == "error"]
        if errors:
            raise RulesError(diagnostics, merged.sources)
        if not merged.by_kind("game"):  # a folder with no card file at all: nothing to play
            raise ValueError(f"{base} defines no game (no `game` definition in its card files)")
        return cls(compile_content(merged, [str(base), *expansions]))

    def new_game(self, seed: int = 0, options: list[str] | tuple[str, ...] = (),
                 script: dict[str, list[str]] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> Game:
        """`max_steps`: the step budget of the setup and of each action (interpreter/budget.py)."""
        return Game.create(self.content, seed=seed, options=options, script=script, max_steps=max_steps)
