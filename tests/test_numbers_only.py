"""Frames the compiler can see are not needed (issue 12).  Blocks whose statements only change
numbers (coins, counters, who plays again or starts next: `NUMBERS_ONLY` in rulesdsl/compiler.py)
run inside the `if` or `each_player` that would have pushed a frame for them, a statement of
numbers runs the step after it at once (`compiler.then_next`), and a procedure of one step runs
without a frame of its own where nothing could see it (`machine.run_procedure`).
Seeded games go exactly as when every block has its own frame, state for state, and the verbs
so marked never touch what a frame could see."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl.compiler
from card_folders import folder
from rulesdsl.compiler import NUMBERS_ONLY
from rulesdsl.interpreter import Game, Ruleset, machine
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter.verbs import VERBS

# Every build moves coins between each seat and the first one, seat after seat (so the order of
# the seats shows), with an `else`; a rich builder plays again.
TOWARDS_FIVE = """
rule "Level with the first seat" {
    when built by=me kind=card {
        each_player {
            if coins(player(0)) > coins { gain 1 coins }
            else { lose 1 coins who=player(0) }
        }
        if coins >= 12 { gain 1 coins; play_again }
    }
}
rule "Tip, then a choice" {
    when built by=me color=blue {
        gain 1 coins
        choose_player { gain 1 coins who=chosen }
        gain 1 coins
    }
}
"""


def _rules(tmp_path: Path, name: str) -> Ruleset:
    if name == "duel+towards":
        path = tmp_path / "towards"
        return Ruleset.load([str(path if path.exists() else folder(tmp_path, TOWARDS_FIVE, "towards"))])
    return Ruleset.load([], "classic", int(name.split("-")[1]))


def _inlined(rules: Ruleset) -> int:
    """How many compiled steps run a block of numbers in place, or the step after theirs."""
    return sum(getattr(step, "numbers_only", False) and step.source.startswith("((")
               or "g.each_seat(" in getattr(step, "source", "")
               or getattr(step, "__qualname__", "").startswith("then_next")
               for block in rules.content.blocks for step in block.steps)


def test_a_statement_of_numbers_runs_the_next_step_in_its_place(tmp_path):
    """The step after a statement of numbers keeps its place: a decision it asks is asked at the
    step (and with the frame) it would have been, and it can still be run from there."""
    rules = _rules(tmp_path, "duel+towards")
    fused = [(block, k) for block in rules.content.blocks for k, step in enumerate(block.steps)
             if getattr(step, "__qualname__", "").startswith("then_next")]
    assert fused
    block, k = fused[0]
    assert not getattr(block.steps[k + 1], "__qualname__", "").startswith("then_next")


def _states(rules: Ruleset, seed: int) -> list[bytes]:
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    states = [dumps(game.state)]
    while not game.over:
        game._apply(game.random_action(rng))
        states.append(dumps(game.state))
    states.append(repr([game.score(p) for p in range(game.state.players)]).encode())
    return states


@pytest.mark.parametrize("name", ["duel+towards", "classic-3", "classic-7"])
def test_games_go_as_with_a_frame_for_every_block(tmp_path, monkeypatch, name):
    inlined = _rules(tmp_path, name)
    monkeypatch.setattr(rulesdsl.compiler, "NUMBERS_ONLY", frozenset())
    framed = _rules(tmp_path, name)
    assert _inlined(inlined) >= 2 and _inlined(framed) == 0
    for seed in range(6):
        assert _states(inlined, seed) == _states(framed, seed), f"{name}, seed {seed}"


# A call of each verb on a game in play, with arguments it takes.
SAMPLES = {
    "gain_coins": (0, 3),
    "lose_coins": (1, 2),
    "put_coins": (2, 0),
    "add_counter": ("victories", 0, 1),
    "grant_play_again": (0,),
    "set_next_starter": (1,),
}


def test_the_verbs_that_only_change_numbers_leave_frames_items_and_turns_alone():
    assert set(SAMPLES) == NUMBERS_ONLY
    game = Ruleset.load([], "classic", 3).new_game(seed=2)
    rng = random.Random(2)
    for _ in range(5):
        game._apply(game.random_action(rng))
    st = game.state
    for verb, args in SAMPLES.items():
        before = (list(st.frames), st.pending, list(st.loc), [list(z) for z in st.zones], st.flow, st.current)
        VERBS[verb](game, *args)
        assert (list(st.frames), st.pending, list(st.loc), [list(z) for z in st.zones], st.flow, st.current) == before, verb
    assert st.coins[0] >= 3 and st.item_coins == {0: 2} and st.counters["victories"][0] == 1
    assert st.again == [0] and st.next_starter == 1


# Procedures of one step: numbers only, an `if` whose body asks a decision, an `if` with an else.
PROCEDURES = """
procedure bonus { gain 1 coins }
procedure tithe {
    if coins >= 6 { choose_player { gain 1 coins who=chosen } }
    else { gain 1 coins }
}
procedure refund { if coins < 2 { gain 2 coins; play_again } }
rule "Tithe" {
    when built by=me kind=card {
        run bonus
        run tithe
        run refund
    }
}
"""


def _framed_run(g, block, f):
    """`run PROCEDURE` as it was: the procedure's frame pushed, whatever its block."""
    machine.push(g, block, f.me, f.env)


@pytest.mark.parametrize("name", ["duel+procedures", "classic-3", "classic-7"])
def test_procedures_of_one_step_go_as_with_their_frame(tmp_path, monkeypatch, name):
    if name == "duel+procedures":
        rules = Ruleset.load([str(folder(tmp_path, PROCEDURES, "procedures"))])
    else:
        rules = _rules(tmp_path, name)
    shapes = machine.procedure_shapes(rules.content)
    assert any(type(s) is tuple for s in shapes) and (name != "duel+procedures" or any(callable(s) for s in shapes))
    # (`run` of such a procedure is written out where it stands: the compiler reads the `if`)
    written = [step.source for block in rules.content.blocks for step in block.steps
               if "g.run_branch(" in getattr(step, "source", "")]
    assert written and "g.run_procedure(" not in "".join(written)
    ran = {seed: _states(rules, seed) for seed in range(6)}
    # Against `run` as it was: compiled as a call, pushing the procedure's frame.
    monkeypatch.setattr(rulesdsl.compiler.Compiler, "inline_run", lambda self, block: None)
    monkeypatch.setattr(Game, "run_procedure", _framed_run)
    framed = Ruleset.load([str(tmp_path / "procedures")]) if name == "duel+procedures" else _rules(tmp_path, name)
    assert not any("g.run_branch(" in getattr(step, "source", "") for block in framed.content.blocks for step in block.steps)
    for seed, states in ran.items():
        assert _states(framed, seed) == states, f"{name}, seed {seed}"
