"""pytest plugin (entry point `pytest11: rulesdsl`, active wherever rulesdsl is installed).

- Collects `*.scenario` files: each `scenario "..." { }` is one test item, and each syntax error
  a failing one (the scenarios that parse still run); a failure shows the scenario's diagnostic
  (file:line:col, the line, a caret, what was expected and found).
  Turn it off with `rulesdsl_scenarios = false` in the pytest ini.
- Fixtures: `rulesdsl_new_game` (a factory: `rulesdsl_new_game(expansions=(), base=None,
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
        from .scenarios import file_problems, read_file
        try:
            shown = str(self.path.relative_to(self.config.rootpath))
        except ValueError:
            shown = str(self.path)
        f = read_file(self.path, shown)
        # One item per scenario that parsed and one failing item per problem of the file (a
        # syntax error, no scenario), in the order of the file: a broken scenario beside good
        # ones fails the run instead of vanishing from it.
        entries = [(r.span.line, r.name, None, r) for r in file_problems(f)]
        entries += [(d.span.line, d.name or d.kind, d, None) for d in f.definitions]
        seen: dict[str, int] = {}
        for _line, name, definition, problem in sorted(entries, key=lambda e: e[0]):
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} [{seen[name]}]"
            yield ScenarioItem.from_parent(self, name=name, file=f, definition=definition, problem=problem)


class ScenarioItem(pytest.Item):
    """A scenario to run (`definition`), or a problem of the file found while reading it
    (`problem`, a result that did not pass)."""

    def __init__(self, *, file, definition, problem=None, **kwargs):
        super().__init__(**kwargs)
        self.file = file
        self.definition = definition
        self.problem = problem

    def runtest(self) -> None:
        from .scenarios import run_scenario
        if self.problem is not None:
            raise ScenarioFailed(self.problem.render())
        result = run_scenario(self.file, self.definition)
        if not result.passed:
            raise ScenarioFailed(f"scenario `{result.name}` {result.status}:\n{result.render()}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        span = self.definition.span if self.definition is not None else self.problem.span
        line = span.line - 1
        return self.path, line, f"scenario: {self.name}"


@pytest.fixture
def rulesdsl_new_game():
    """A factory for new games: rulesdsl_new_game(expansions=(), base=None, seed=0, options=(),
    players=None) (players None: the game's fewest)."""
    from rulesdsl.pipeline import load_ruleset

    def make(expansions=(), base=None, seed: int = 0, options=(), script=None, players: int | None = None):
        # (`base`: a name, a folder as a string or a path, or None: `load_ruleset` takes each)
        return load_ruleset(tuple(expansions), base, players).new_game(seed=seed, options=list(options),
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
