"""pytest plugin (entry point `pytest11: rulesdsl`, active wherever rulesdsl is installed).

- Collects `*.scenario` files: each `scenario "..." { }` is one test item; a failure shows the
  scenario's diagnostic (file:line:col, the line, a caret, what was expected and found).
  Turn it off with `rulesdsl_scenarios = false` in the pytest ini.
- Fixtures: `rulesdsl_new_game` (a factory: `rulesdsl_new_game(expansions=(), base="duel",
  seed=0, options=(), players=None)`), `rulesdsl_check` (`rulesdsl.testing.check_game`, raising
  InvariantViolation), `rulesdsl_run_checked` (`rulesdsl.testing.run_checked`).
- The hypothesis strategies are in `rulesdsl.testing.strategies` (and registered for
  `st.from_type(Game)` by the `hypothesis` entry point).
"""

from __future__ import annotations

from pathlib import Path

import pytest

SUFFIX = ".scenario"


def pytest_addoption(parser) -> None:
    parser.addini("rulesdsl_scenarios", type="bool", default=True,
                  help="rulesdsl: collect *.scenario files as tests (default true)")


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == SUFFIX and parent.config.getini("rulesdsl_scenarios"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    """A scenario did not pass; the text is its report."""


class ScenarioFile(pytest.File):
    def collect(self):
        from .scenarios import read_file
        try:
            shown = str(self.path.relative_to(self.config.rootpath))
        except ValueError:
            shown = str(self.path)
        f = read_file(self.path, shown)
        if f.diagnostics or not f.definitions:
            yield ScenarioItem.from_parent(self, name=self.path.name, file=f, definition=None)
            return
        seen: dict[str, int] = {}
        for d in f.definitions:
            name = d.name or d.kind
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} [{seen[name]}]"
            yield ScenarioItem.from_parent(self, name=name, file=f, definition=d)


class ScenarioItem(pytest.Item):
    def __init__(self, *, file, definition, **kwargs):
        super().__init__(**kwargs)
        self.file = file
        self.definition = definition

    def runtest(self) -> None:
        from .scenarios import run_file, run_scenario
        if self.definition is None:
            results = run_file(self.file.path, shown=self.file.shown)
            failed = [r for r in results if not r.passed]
            if failed:
                raise ScenarioFailed("\n".join(r.render() for r in failed))
            return
        result = run_scenario(self.file, self.definition)
        if not result.passed:
            raise ScenarioFailed(f"scenario `{result.name}` {result.status}:\n{result.render()}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        line = self.definition.span.line - 1 if self.definition is not None else 0
        return self.path, line, f"scenario: {self.name}"


@pytest.fixture
def rulesdsl_new_game():
    """A factory for new games: rulesdsl_new_game(expansions=(), base="duel", seed=0, options=(),
    players=None) (players None: the game's fewest)."""
    from rulesdsl.pipeline import load_ruleset

    def make(expansions=(), base="duel", seed: int = 0, options=(), script=None, players: int | None = None):
        return load_ruleset(tuple(expansions), str(base), players).new_game(seed=seed, options=list(options),
                                                                            script=script)
    return make


@pytest.fixture
def rulesdsl_check():
    """check_game(game): every invariant on this position (raises InvariantViolation)."""
    from .invariants import check_game
    return check_game


@pytest.fixture
def rulesdsl_run_checked():
    """run_checked(game, actions=None, ...): play on with every invariant checked after every action."""
    from .invariants import run_checked
    return run_checked
