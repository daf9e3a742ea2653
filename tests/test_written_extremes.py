"""`max`, `min` and a table's clamped index written as conditionals where a step, a starter or
a space's cost reads them (`compiler.larger`, `compiler.smaller`), rather than the builtins
called (issue 12): the same values, the same games."""

from __future__ import annotations

import itertools

import pytest

from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl import compiler
from rulesdsl.pipeline import Ruleset
from test_written_verbs import sources


def written(rules: Ruleset) -> str:
    """The written source of every step, every action's starter and the open spaces' costs."""
    return sources(rules) + rules.new_game(seed=0)._open_spaces.source


def test_written_extremes_are_the_builtins_nested_sides_and_numbers_included():
    values = [-3, 0, 1, 5, 7]
    shapes = {
        "max(a, b)": compiler.larger("a", "b"),
        "min(a, b)": compiler.smaller("a", "b"),
        "max(0, a)": compiler.larger("0", "a"),
        "min(a, -2)": compiler.smaller("a", "-2"),
        "min(max(a, 0), 5)": compiler.smaller(compiler.larger("a", "0"), "5"),
        "max(min(a, b), max(c, a - b))": compiler.larger(compiler.smaller("a", "b"), compiler.larger("c", "a - b")),
        "max(a, min(b, max(c, a)))": compiler.larger("a", compiler.smaller("b", compiler.larger("c", "a"))),
    }
    for called, written in shapes.items():
        assert "max(" not in written and "min(" not in written
        for a, b, c in itertools.product(values, repeat=3):
            assert eval(written, {}, {"a": a, "b": b, "c": c}) == eval(called, {}, {"a": a, "b": b, "c": c}), \
                (called, written, a, b, c)


def test_a_tie_keeps_the_first_side_as_the_builtins_do():
    one, other = 1, True   # (equal, and told apart by their type)
    assert type(eval(compiler.larger("x", "y"), {}, {"x": one, "y": other})) is int
    assert type(eval(compiler.smaller("y", "x"), {}, {"x": one, "y": other})) is bool


def called(monkeypatch, name: str) -> Ruleset:
    """The set compiled with the builtins called, as before the conditionals were written."""
    with monkeypatch.context() as m:
        m.setattr(compiler, "larger", lambda a, b: f"max({a}, {b})")
        m.setattr(compiler, "smaller", lambda a, b: f"min({a}, {b})")
        return Ruleset.load(*SETS[name])


@pytest.mark.parametrize("name", ["pantheon", "agora+pantheon", "classic-3"])
def test_written_extremes_play_as_the_builtins(name, monkeypatch):
    rules, calls = Ruleset.load(*SETS[name]), called(monkeypatch, name)
    assert "_x0 := " in written(rules) and "_x0 := " not in written(calls)
    assert written(calls).count("max(") + written(calls).count("min(") > 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        assert after_each_action(game, seed, saved) == after_each_action(calls.new_game(seed=seed), seed, saved), seed
