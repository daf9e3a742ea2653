"""The layers of the code hold: no import cycle among the project's modules, and the runtime
(`rulesdsl.interpreter`) stands on the compiled model alone, below the card language and the
pipeline that drives it (docs/api.md, "Where things live").

The graph is read from the source (every `import` statement, also those inside functions, which
run later but are dependencies all the same), not from what happens to be imported."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = "rulesdsl.interpreter"
# What the runtime may use besides itself: the compiled model and small leaf modules.
FLOOR = {"rulesdsl", "rulesdsl.model", "rulesdsl.names", "rulesdsl.files", "rulesdsl.limits",
         "rulesdsl.diagnostics", "rulesdsl.safe_text", "rulesdsl.ast"}
# Names a package keeps for compatibility, imported on first use by its module-level
# `__getattr__`: not a dependency of the package (docs/api.md says where the names live).
COMPAT_DOORS = {(RUNTIME, "rulesdsl.pipeline")}


def package_dirs() -> dict[str, Path]:
    """Each package's folder, as pyproject.toml installs them (`rulesdsl.interpreter` is interpreter/)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = config.get("package-dir", {})
    return {pkg: ROOT / mapped.get(pkg, pkg.replace(".", "/")) for pkg in config["packages"]}


def modules() -> dict[str, tuple[Path, bool]]:
    """module name -> (file, is a package)."""
    found = {}
    for pkg, folder in package_dirs().items():
        for f in folder.glob("*.py"):
            found[pkg if f.stem == "__init__" else f"{pkg}.{f.stem}"] = (f, f.stem == "__init__")
    return found


def _compat_imports(tree: ast.Module) -> set[int]:
    """ids of the import nodes inside a module-level `__getattr__` (lazy re-exports)."""
    return {id(n) for fn in tree.body if isinstance(fn, ast.FunctionDef) and fn.name == "__getattr__"
            for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))}


def _type_only_imports(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:`: read by type checkers, never run."""
    return {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
            and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
            for stmt in block.body for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))}


def import_graph() -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """(module -> the project modules it imports, the compatibility re-exports left out)."""
    mods = modules()

    def known(name: str) -> str | None:  # the module itself, or the package an attribute comes from
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    doors: set[tuple[str, str]] = set()
    for name, (path, is_pkg) in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        compat = _compat_imports(tree) if is_pkg else set()
        typing_only = _type_only_imports(tree)
        here = name if is_pkg else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                found = {known(a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                found = {known(f"{base}.{a.name}") for a in node.names}
            else:
                continue
            found.discard(None)
            if id(node) in compat:
                doors |= {(name, t) for t in found}
                continue
            targets |= found
        # Importing a.b.c runs a/__init__ and a/b/__init__ first (a package's own are already running).
        for t in list(targets):
            parent = t.rpartition(".")[0]
            while parent:
                if not (name == parent or name.startswith(parent + ".")):
                    targets.add(parent)
                parent = parent.rpartition(".")[0]
        targets.discard(name)
        graph[name] = targets
    return graph, doors


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (a list of modules, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def reach(graph: dict[str, set[str]], start: str) -> dict[str, str | None]:
    """Every module `start` depends on, each with the module that imports it on one shortest path."""
    came: dict[str, str | None] = {start: None}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, ())):
            if w not in came:
                came[w] = v
                todo.append(w)
    return came


def chain(came: dict[str, str | None], end: str) -> str:
    out = [end]
    while came[out[-1]] is not None:
        out.append(came[out[-1]])
    return " -> ".join(reversed(out))


def test_the_graph_is_read():
    graph, doors = import_graph()
    assert {"rulesdsl.checker", "rulesdsl.compiler", "rulesdsl.interpreter.game", RUNTIME} <= graph["rulesdsl.pipeline"]
    assert "rulesdsl.cli_support" in graph["rulesdsl.cli"] and "rulesdsl.cli_support" in graph["rulesdsl.testing.commands"]
    assert "rulesdsl.checker" in graph["rulesdsl.compiler"]  # `from .checker import ...`
    assert "rulesdsl.interpreter.persistence" in graph["rulesdsl.interpreter.game"]  # an import inside a method
    assert doors == COMPAT_DOORS


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle():
    graph, _ = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_runtime_imports_only_the_model_and_leaf_modules():
    graph, _ = import_graph()
    runtime = [m for m in graph if m == RUNTIME or m.startswith(RUNTIME + ".")]
    assert len(runtime) > 5
    for module in runtime:
        came = reach(graph, module)
        above = sorted(m for m in came if m not in FLOOR and not (m == RUNTIME or m.startswith(RUNTIME + ".")))
        assert not above, f"the runtime reaches above its floor: {chain(came, above[0])}"
    # and the floor stands on itself
    for module in FLOOR:
        came = reach(graph, module)
        assert set(came) <= FLOOR, f"{module} is no leaf: {chain(came, min(set(came) - FLOOR))}"


def test_importing_the_runtime_loads_no_front_end():
    code = ("import sys, rulesdsl.interpreter as rt, rulesdsl.interpreter.persistence, rulesdsl.interpreter.agents\n"
            "print(sorted(m for m in sys.modules if m.startswith('rulesdsl')))\n"
            "from rulesdsl.interpreter import Ruleset, load_ruleset, new_game\n"
            "import rulesdsl.pipeline as p\n"
            "assert (Ruleset, load_ruleset, new_game) == (p.Ruleset, p.load_ruleset, p.new_game)\n"
            "assert new_game(seed=3).state.players == 2\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout.splitlines()[0]))
    assert "rulesdsl.interpreter.game" in loaded
    assert not loaded & {"rulesdsl.loader", "rulesdsl.parser", "rulesdsl.checker", "rulesdsl.compiler",
                         "rulesdsl.pipeline", "rulesdsl.cli"}, sorted(loaded)


def test_an_expansion_given_twice_is_laid_once():
    from click.testing import CliRunner
    from rulesdsl.cli import cli
    from rulesdsl.pipeline import load_ruleset
    assert load_ruleset(["pantheon", "pantheon"]).content.layers == load_ruleset(["pantheon"]).content.layers
    result = CliRunner().invoke(cli, ["check", "-e", "pantheon", "-e", "pantheon"])
    assert result.exit_code == 0, result.output   # (laid twice, every definition was defined twice: E102)
    folder = Path(__file__).resolve().parent.parent / "cards" / "duel-pantheon"   # (the same, by its path)
    result = CliRunner().invoke(cli, ["simulate", "-e", "pantheon", "-e", str(folder), "-n", "3", "-j", "1"])
    assert result.exit_code == 0, result.output
