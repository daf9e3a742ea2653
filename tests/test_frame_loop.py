"""The frame loop as `turns.advance` runs it (written in, not a call of `machine.run` a pass),
and the frames a turn's starter runs itself (interpreter/starters.py: blocks of one step of
numbers, of one `if` or of one step that only schedules, after the turn's last step that may
push something): the same steps as `machine.run` runs, within the same budget.  Held here to a
reference that runs every action's frame, and whatever is waiting whenever `advance` is
called, through `machine.run`: the same state after every action, the same runaway (error,
message, the definitions running) at every budget around the steps an action takes, the same
decisions asked mid-loop."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

from card_folders import folder
from golden_games import SETS
from played_out import after_each_action
from rulesdsl.interpreter import BudgetExceeded, EffectFailed, Ruleset, machine, starters, turns
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import load_ruleset

# Rules a build sets off whose blocks are one step of numbers or one `if` (the starter runs
# them itself), one of them two steps (the frame loop runs it); actions that build and then
# gain coins (the starter runs the rules' frames only where the budget holds the gain too), or
# move the pawn, which sets off four rules at once (a budget of a few steps stops them
# waiting, counted as before); and an action whose procedure asks a decision between two steps
# of numbers (asked mid-loop, with steps waiting after it).
RULES = """
action endow {
    param card from structure
    build card
    gain 1 coins
}
action rally {
    param card from structure
    build card
    shields 1
}
rule "Drum" {
    when pawn_moved by=me { gain 1 coins }
}
rule "Fife" {
    when pawn_moved by=me { gain 1 coins }
}
rule "Horn" {
    when pawn_moved by=me { gain 1 coins }
}
rule "Bell" {
    when pawn_moved by=me { gain 1 coins }
}
rule "Tithe" {
    when built by=me { gain 1 coins }
}
rule "Alms" {
    when built { if coins < 9 { gain 1 coins } }
}
rule "Toll" {
    when built by=opponent { if coins > 6 { lose 1 coins } else { gain 1 coins } }
}
rule "Levy" {
    when built by=me color=blue {
        gain 1 coins
        shields 1
    }
}
action survey {
    param card from structure
    run scouting
    discard card
}
procedure scouting {
    gain 1 coins
    choose 1 from board_tokens { acquire chosen }
    gain 2 coins
}
"""


@contextmanager
def reference(monkeypatch, game):
    """While it lasts, `game` runs what waits whenever `advance` is called (a turn's frames
    handed over by its starter, an answer's continuation) by `machine.run` first, and its
    starters run none of the frames their steps push (every block's shape unknown to them)."""
    real = turns.advance

    def advance(g) -> None:
        machine.run(g)
        real(g)
    with monkeypatch.context() as patched:
        patched.setattr(turns, "advance", advance)
        game._starts = starters.write(game.content)   # (calling the `advance` above)
        for start in game._starts:
            start.__globals__["shapes"] = [None] * len(game.content.blocks)
            start.__globals__["scheduling"] = [False] * len(game.content.blocks)
        yield


def look(game) -> tuple:
    return dumps(game.state), game.steps_left


def with_rules(tmp_path) -> Ruleset:
    return Ruleset.load([str(folder(tmp_path, RULES))])


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-3", "rules"])
def test_games_are_the_same_after_every_action(name, tmp_path, monkeypatch):
    if name == "rules":
        rules = with_rules(tmp_path)
    else:
        rules = load_ruleset(*SETS[name][:3])
    for seed in range(3):
        written = after_each_action(rules.new_game(seed=seed), seed, look)
        game = rules.new_game(seed=seed)
        with reference(monkeypatch, game):
            assert after_each_action(game, seed, look) == written, seed
        assert len(written) > 40


def outcome(game, action, budget: int, monkeypatch=None) -> tuple:
    """What `action` does from `game` (a copy of it) with this step budget: the state and the
    budget left, or the runaway, the definitions running and the state left (undone)."""
    g = game.clone()
    machine.set_budget(g, budget)
    if monkeypatch is not None:
        with reference(monkeypatch, g):
            return outcome_of(g, action)
    return outcome_of(g, action)


def outcome_of(g, action) -> tuple:
    try:
        g.apply(action)
    except BudgetExceeded as exc:
        return "ran away", str(exc), exc.chain, dumps(g.state)
    except EffectFailed as exc:
        return "failed", str(exc), exc.chain, dumps(g.state)
    return "done", g.steps_left, dumps(g.state)


@pytest.mark.parametrize("name", ["duel", "rules", "agora+pantheon"])
def test_a_runaway_at_every_budget_around_the_edge_is_the_same(name, tmp_path, monkeypatch):
    rules = with_rules(tmp_path) if name == "rules" else load_ruleset(*SETS[name][:3])
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    big = 1000
    edges = 0
    while not game.over:
        action = game.random_action(rng)
        before = dumps(game.state)
        done = outcome(game, action, big)
        assert done[0] == "done"
        steps = big - done[1]
        for budget in sorted(set(range(1, min(steps, 10) + 2)) | {steps - 2, steps - 1, steps, steps + 1} - {0, -1}):
            written = outcome(game, action, budget)
            assert written == outcome(game, action, budget, monkeypatch), (action, budget)
            if written[0] == "ran away":
                assert written[3] == before
                # (more frames waiting at once than the budget's steps may stop an action that
                # takes no more steps than that)
                assert f"within {budget} steps" in written[1] and budget < steps or "effects are waiting" in written[1]
                edges += budget == steps - 1
            else:
                assert budget >= steps and written == ("done", budget - steps, done[2])
        game._apply(action)
    assert edges > 40


def test_a_decision_asked_mid_loop_stops_it_where_the_run_stops(tmp_path, monkeypatch):
    rules = with_rules(tmp_path)
    asked = 0
    for seed in range(6):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_action(rng)
            if action.name == "survey":
                written = outcome(game, action, 1000)
                assert written == outcome(game, action, 1000, monkeypatch)
                after = game.clone()
                after.apply(action)
                if after.state.pending is not None and after.state.pending.prompt == "choose from board_tokens":
                    asked += 1
                    # (the steps after the choice have not run: a coin gained, not three)
                    assert after.state.coins[game.to_move()] == game.state.coins[game.to_move()] + 1
            game._apply(action)
    assert asked > 3


# A rule set off by every build whose one step of numbers fails (a seat no game of two seats
# has): run by the build's starter itself, it names the action under it, as the loop does.
FAILING = """
rule "Tithe" {
    when built by=me { gain 1 coins who=player(count(city) + 3 + modifier(luck)) }
}
"""


def test_a_settled_frame_that_fails_names_what_the_loop_names(tmp_path, monkeypatch):
    rules = Ruleset.load([str(folder(tmp_path, FAILING))])
    game = rules.new_game(seed=3, options=["beginner_wonders"])
    while True:
        build = next((a for a in game.legal_actions() if a.name == "build"), None)
        if build is not None:
            break
        game.apply(game.legal_actions()[0])
    written = outcome(game, build, 1000)
    assert written[0] == "failed" and written[3] == dumps(game.state)
    assert written[2][0] == "action `build`" and len(written[2]) == 2
    assert written == outcome(game, build, 1000, monkeypatch)


def test_a_built_card_that_only_schedules_is_run_by_its_turns_starter(monkeypatch):
    """A card whose effect is one step that only schedules frames (moving the conflict pawn)
    built on a turn: the turn's starter runs that step and the rule it sets off itself, and the
    turn ends with no call of `advance` (the frame loop); the games themselves are held to the
    loop's above."""
    rules = load_ruleset()
    scheduling = starters.scheduling_blocks(rules.content)
    by_name = {it.name: it for it in rules.content.items}
    real = turns.advance
    calls = []

    def advance(g) -> None:
        calls.append(g)
        real(g)
    settled = 0
    with monkeypatch.context() as patched:
        patched.setattr(turns, "advance", advance)
        for seed in range(3):
            game = rules.new_game(seed=seed)
            game._starts = starters.write(game.content)   # (calling the `advance` above)
            rng = random.Random(seed)
            while not game.over:
                action = game.random_action(rng)
                calls.clear()
                game._apply(action)
                it = by_name.get(action.args[0]) if action.name == "build" and action.args else None
                if it is None or it.effect < 0 or not scheduling[it.effect]:
                    continue
                if game.state.flow == "turn" and game.state.pending is None and not game.over:
                    assert calls == [], action
                    settled += 1
    assert settled > 10
