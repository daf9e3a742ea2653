"""pytest plugin (entry point `pytest11: rulesdsl`, active wherever rulesdsl is installed).

- Collects `*.scenario` files: each `scenario "..." { }` is one test item, and each syntax error
  a failing one (the scenarios that parse still run); a failure shows the scenario's diagnostic
  (file:line:col, the line, a caret, what was expected and found).
  Turn it off with `rulesdsl_scenarios = false` in the pytest ini.  `--rulesdsl-game` and
  `--rulesdsl-players` are the game and the player count of scenarios without a `base` or
  `players` line (`rulesdsl test --game/--players`).
- Fixtures: `rulesdsl_new_game` (a factory: `rulesdsl_new_game(expansions=(), base=None,
  seed=0, options=(), script=None, players=None)`; one name alone is one name), `rulesdsl_check` (`rulesdsl.testing.check_game`, raising
  InvariantViolation), `rulesdsl_run_checked` (`rulesdsl.testing.run_checked`).
- The hypothesis strategies are in `rulesdsl.testing.strategies` (and registered for
  `st.from_type(Game)` by the `hypothesis` entry point).
- A test failing with an error of the user's content or game (cards that do not load, an unknown
  name, an effect that cannot go on, a broken invariant) is reported without the engine's own
  frames (`--full-trace` keeps them), and cards that do not load with every error, not the first.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import pytest

SUFFIX = ".scenario"
MORE_DIAGNOSTICS = 20   # the errors of cards that do not load listed after the first one


def pytest_addoption(parser) -> None:
    parser.addini("rulesdsl_scenarios", type="bool", default=True,
                  help="rulesdsl: collect *.scenario files as tests (default true)")
    group = parser.getgroup("rulesdsl", "rulesdsl scenarios")
    # (as `rulesdsl test --game/--players`: without them a scenario written for another game
    # could only run under pytest with a `base` line of its own)
    group.addoption("--rulesdsl-game", metavar="NAME|FOLDER", default=None,
                    help="the base game of scenarios without a `base` line (default: duel)")
    group.addoption("--rulesdsl-players", metavar="N", type=int, default=None,
                    help="the player count of scenarios without a `players` line (default: the game's fewest)")


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
        config = self.config
        result = run_scenario(self.file, self.definition, config.getoption("rulesdsl_game"),
                              config.getoption("rulesdsl_players"))
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
    script=None, players=None) (players None: the game's fewest; one name alone, `"my_expansion"`, is one name)."""
    from rulesdsl.pipeline import load_ruleset

    def make(expansions=(), base=None, seed: int = 0, options=(), script=None, players: int | None = None):
        # Passed on as given: `load_ruleset` and `new_game` read one name alone (an expansion's,
        # an option's) as one name, where `tuple()` of it made a list of its letters.
        return load_ruleset(expansions, base, players).new_game(seed=seed, options=options, script=script)
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


# -- errors of the user's content inside a test run ------------------------------------------------

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    told = call.excinfo is not None and _told_plainly(item.config) and isinstance(call.excinfo.value, _content_errors())
    if told:
        _note_every_error(call.excinfo.value)
    outcome = yield
    report = outcome.get_result()
    if told and report.failed:
        report.longrepr = call.excinfo.getrepr(
            funcargs=True, showlocals=item.config.getoption("showlocals", False),
            style=_style(item.config), tbfilter=_users_frames)


def _told_plainly(config) -> bool:
    """Whether the report of a content error is ours to shorten: not with `--full-trace`, nor in a
    style that shows no frames (`--tb=line`, `no`) or Python's own (`native`)."""
    return not config.getoption("fulltrace", False) and config.getoption("tbstyle", "auto") in ("auto", "long", "short")


def _style(config) -> str:
    return "short" if config.getoption("tbstyle", "auto") == "short" else "long"


def _users_frames(excinfo):
    """The frames of an error the user's content or game caused that are the user's: neither
    the engine's (a page of loader or interpreter internals with their locals, where the message
    already says what is wrong and where in the cards) nor pytest's own, which run the test or
    its fixtures."""
    kept = excinfo.traceback.filter(lambda entry: not _inside_hidden(str(entry.path))).filter(excinfo)
    return kept if len(kept) else excinfo.traceback.filter(excinfo)


# The errors the user's content or game causes, each told in full by its message: (module, class).
CONTENT_ERRORS = (("rulesdsl.diagnostics", "RulesError"), ("rulesdsl.names", "UnknownName"),
                  ("rulesdsl.loader", "FolderProblem"), ("rulesdsl.files", "FileProblem"),
                  ("rulesdsl.interpreter.budget", "EffectFailed"),
                  ("rulesdsl.testing.invariants", "InvariantViolation"))


def _content_errors() -> tuple[type, ...]:
    """The classes of CONTENT_ERRORS among the modules loaded: an error of one that is not could
    not have been raised, and a failing test of another project imports nothing of rulesdsl."""
    loaded = (sys.modules.get(module) for module, _ in CONTENT_ERRORS)
    return tuple(getattr(m, name) for m, (_, name) in zip(loaded, CONTENT_ERRORS) if m is not None)


@functools.cache
def _hidden_folders() -> tuple[str, ...]:
    """The folders of rulesdsl's own code (the interpreter is installed as a package of its own
    folder in a checkout) and of pytest's."""
    folders = []
    for package in ("rulesdsl", "rulesdsl.interpreter", "_pytest", "pluggy"):
        spec = importlib.util.find_spec(package)
        folders += [str(Path(f).resolve()) for f in (spec.submodule_search_locations or [])] if spec else []
    return tuple(folders)


def _inside_hidden(path: str) -> bool:
    try:
        resolved = str(Path(path).resolve())
    except (OSError, RuntimeError):
        return False
    return any(resolved == f or resolved.startswith(f + "/") or resolved.startswith(f + "\\")
               for f in _hidden_folders())


def _note_every_error(error) -> None:
    """RulesError's message holds the first error and counts the others: a test run, where
    `rulesdsl check` is not at hand, shows them (once, however often the error is reported)."""
    if not hasattr(error, "diagnostics") or getattr(error, "_rulesdsl_noted", False):
        return
    from rulesdsl.diagnostics import render
    errors = [d for d in error.diagnostics if d.severity == "error"][1:]
    if not errors:
        return
    error._rulesdsl_noted = True
    shown = [render(d, error.sources.get(d.span.file)) for d in errors[:MORE_DIAGNOSTICS]]
    rest = len(errors) - len(shown)
    more = f"\n(and {rest} more: rulesdsl check lists every one)" if rest else ""
    error.add_note("the other errors:\n" + "\n".join(shown) + more)
