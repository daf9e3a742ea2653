"""Verbs the compiler writes out where they stand, in the source of a step or a starter, rather
than calling them (issue 12): a count of one colour (`Compiler.color_count`). Seeded random
games go as with the verb called, state for state, with the tallies kept alike."""

from __future__ import annotations

import pytest

from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl.compiler import ME, Compiler
from rulesdsl.pipeline import Ruleset


def sources(rules: Ruleset) -> str:
    """The written source of every step and every action's starter."""
    game = rules.new_game(seed=0)
    return "\n".join([getattr(step, "source", "") for block in rules.content.blocks for step in block.steps]
                     + [getattr(start, "source", "") for start in game._starts])


def called(monkeypatch, name: str) -> Ruleset:
    """The set compiled with the verbs called, as before they were written out."""
    with monkeypatch.context() as m:
        m.setattr(Compiler, "color_count", lambda self, zone, color: self.written(
            lambda g, f: g.count_color(zone, f.me, color), self.call_source("count_color", zone, ME, color)))
        return Ruleset.load(*SETS[name])


def played(rules: Ruleset, seed: int) -> list:
    # (the tallies too: `count_color` makes one when first asked, under the written count too)
    return after_each_action(rules.new_game(seed=seed), seed, lambda game: (saved(game), list(game._tally)))


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-3"])
def test_counts_of_one_colour_written_out_play_as_their_calls(name, monkeypatch):
    written, calls = Ruleset.load(*SETS[name]), called(monkeypatch, name)
    assert "_t.get(" in sources(written)
    assert "g.count_color(" in sources(calls) and "_t.get(" not in sources(calls)
    for seed in range(3):
        assert played(written, seed) == played(calls, seed), seed
