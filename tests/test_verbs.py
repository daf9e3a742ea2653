"""The closed table of verbs (interpreter/verbs.py) is exactly what compiled closures use of a game:
every `g.<name>` inside a closure of rulesdsl/compiler.py, and every verb it writes a call of
(`Compiler.call("name", ...)`: a step written as source), is a verb or a declared read, every verb
is used, and `Game` offers each verb as the table's own function."""

from __future__ import annotations

import ast
from pathlib import Path

import rulesdsl.compiler
from rulesdsl.compiler import BUILTINS
from rulesdsl.interpreter import Game, new_game
from rulesdsl.interpreter.verbs import READS, VERBS

COMPILER = Path(rulesdsl.compiler.__file__)


def _closure_uses(source: str) -> tuple[set[str], dict[str, set[str]]]:
    """The attributes read of `g` inside every function and lambda whose first parameter is `g`
    (a compiled closure: `step(g, f)`), and for `g.X.Y` the fields Y read of each X."""
    used: set[str] = set()
    fields: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.Lambda, ast.FunctionDef)):
            continue
        params = node.args.args
        if not params or params[0].arg != "g":
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "g":
                used.add(sub.attr)
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) \
                    and isinstance(sub.value.value, ast.Name) and sub.value.value.id == "g":
                fields.setdefault(sub.value.attr, set()).add(sub.attr)
    return used, fields


def _written_calls(source: str) -> set[str]:
    """The verbs named by the compiler's written calls: `self.call("verb", ...)`, `self.call_source(...)`."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("call", "call_source") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.add(node.args[0].value)
    return out


def test_the_scan_finds_closure_uses_only():
    source = ("def outside(g):\n    return g.state.coins, g.spend(1)\n"
              "def compile(self, games):\n    for g in games:\n        g.block\n"
              "def make():\n    return lambda g, f: g.gain_coins(f.me, 1)\n")
    used, fields = _closure_uses(source)
    assert used == {"state", "spend", "gain_coins"} and fields == {"state": {"coins"}}


def test_the_scan_finds_written_calls():
    source = ("def do_gain(self, s, kw):\n    return self.call('gain_coins', ME, 1)\n"
              "def if_step(self):\n    return self.call_source('push', 3, ME, ENV)\n"
              "def other(self):\n    return self.fused(x)\n")
    assert _written_calls(source) == {"gain_coins", "push"}


def test_verbs_are_exactly_what_the_compiler_calls():
    text = COMPILER.read_text(encoding="utf-8")
    used, fields = _closure_uses(text)
    verbs = (used | _written_calls(text)) - set(READS)
    assert verbs == set(VERBS), (f"compiled closures call verbs not in the table: {sorted(verbs - set(VERBS))}; "
                                 f"the table has verbs no closure calls: {sorted(set(VERBS) - verbs)}")
    assert set(READS) <= used
    for name, read in READS.items():
        assert fields.get(name, set()) == read, name


def test_game_offers_each_verb_as_the_tables_function():
    for name, fn in VERBS.items():
        assert getattr(Game, name) is fn, name
    game = new_game(seed=1)
    for name in VERBS:
        assert callable(getattr(game, name)), name


def test_a_verb_call_acts_on_the_game():
    game = new_game(seed=1, options=["beginner_wonders"])
    before = game.state.coins[1]
    game.gain_coins(1, 4)
    assert game.state.coins[1] == before + 4
    game.spend(1, 3)
    assert game.state.coins[1] == before + 1


def test_expressions_written_as_source_use_only_the_table():
    """Expressions of operators are compiled from Python source the compiler writes
    (`Compiler.fused`); what that source reads of a game is held to the same table."""
    from golden_games import SETS
    from rulesdsl.pipeline import compile_layers

    used: set[str] = set()
    fields: dict[str, set[str]] = {}
    written = 0
    for expansions, base, players in SETS.values():
        compiler = compile_layers(expansions, base, players).compiler
        for source in compiler.sources:
            tree = ast.parse(f"lambda g, f: {source}")
            # A card's words and names are values of the namespace (`_k3`), never source text:
            # the only names are the game, the frame, the few builtins the compiler declares
            # (`len`, `list`, `min`, `max`, `abs`), those values and the items a step holds while
            # it tells whether they are items (`_i0`, `Compiler.call`); the only literals numbers.
            # A verb written out where it stands holds what it reads in names of its own (`:=`).
            held = {node.target.id for node in ast.walk(tree) if isinstance(node, ast.NamedExpr)}
            assert not held & {"g", "f", *BUILTINS}, source
            for node in ast.walk(tree):
                if isinstance(node, ast.Name):
                    assert (node.id in ("g", "f") or node.id in BUILTINS or node.id in held
                            or node.id[:2] in ("_k", "_i") and node.id[2:].isdigit()), source
                if isinstance(node, ast.Constant):
                    assert type(node.value) is int, source
            u, f = _closure_uses(f"lambda g, f: {source}")
            used |= u
            for name, read in f.items():
                fields.setdefault(name, set()).update(read)
            written += 1
    assert written > 50
    assert used <= set(VERBS) | set(READS), sorted(used - set(VERBS) - set(READS))
    for name, read in fields.items():
        assert read <= READS.get(name, frozenset()), (name, read)
    assert "modifier" in used and "state" in used   # what the hot guards and requirements read
