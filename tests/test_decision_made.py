"""`decisions.made` fills a `Decision` without calling the class (for speed): it must make
the very decision the class makes from the same fields, and set every field the class has."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import attrs

from rulesdsl.interpreter.decisions import made
from rulesdsl.interpreter.state import Decision


def test_made_takes_the_fields_of_a_decision_in_their_order():
    names = [a.name for a in attrs.fields(Decision)]
    assert list(inspect.signature(made).parameters) == ["g", *names]


def test_made_makes_the_decision_the_class_makes():
    # (a distinct value for each field: a field given in the wrong place, or not set, fails)
    values = {a.name: (k, [k], {"k": k}) for k, a in enumerate(attrs.fields(Decision))}
    g = SimpleNamespace(_spare_decision=None)
    d = made(g, *values.values())
    assert d == Decision(**values)
    assert attrs.asdict(d, recurse=False) == values
    assert d is not made(g, *values.values())
    # (a spare, filled again: every field of the one it was replaced)
    g._spare_decision = made(g, *[(k, "old") for k in range(len(values))])
    spare = g._spare_decision
    assert made(g, *values.values()) is spare and spare == d and g._spare_decision is None
