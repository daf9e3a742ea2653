"""Each action's starter, written for the content (interpreter/starters.py), does what pushing
the action's frame and letting the frame loop run it does: the same steps, the same budget,
the same state after every turn, for every bundled content set; with a budget too small for the
action's steps it leaves the action to the frame loop, which stops it as before."""

from __future__ import annotations

import random

import pytest

from card_folders import folder
from golden_games import SETS
from played_out import after_each_action, saved
from rulesdsl.interpreter import BudgetExceeded, EffectFailed, Ruleset, machine, turns
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import load_ruleset


def through_the_loop(act):
    """The action started as a frame pushed and run by the frame loop, nothing written out."""
    def start(g, *binding):
        st = g.state
        st.turn += 1
        st.last_actor = st.current
        st.flow = "before_action" if act.before_turn else "action"
        machine.push(g, act.block, st.current, dict(zip(act.param_names, binding)))
        turns.advance(g)
    return start


def played(rules, seed: int, written: bool) -> list[str]:
    """The state after every action of a random game, as saved."""
    game = rules.new_game(seed=seed)
    if not written:
        game._starts = [through_the_loop(act) for act in rules.content.actions]
    def look(game) -> str:
        assert game.steps_left >= 0
        return saved(game)
    return after_each_action(game, seed, look)


@pytest.mark.parametrize("name", [n for n in SETS if not n.startswith("classic")])
def test_a_starter_plays_what_the_frame_loop_plays(name):
    expansions, base, players = SETS[name][:3]
    rules = load_ruleset(expansions, base, players)
    for seed in range(4):
        written = played(rules, seed, written=True)
        assert written == played(rules, seed, written=False), seed
        assert len(written) > 40


def test_a_starter_leaves_a_block_beyond_the_budget_to_the_loop():
    rules = load_ruleset()
    game = rules.new_game(seed=3, options=["beginner_wonders"])   # (no draft: a turn comes first)
    machine.set_budget(game, 1)   # (Duel's `discard` is two steps)
    action = next(a for a in game.legal_actions() if a.name == "discard")
    before = dumps(game.state)
    with pytest.raises(BudgetExceeded):
        game._apply(action)
    assert dumps(game.state) == before


def test_a_starter_holds_numbers_and_the_parameters_names_only():
    rules = load_ruleset(*SETS["agora+pantheon"][:3])
    game = rules.new_game(seed=1)
    for act, start in zip(rules.content.actions, game._starts):
        source = start.source
        assert f"f.block = {act.block}" in source or f"frame_at(g, {act.block}, 0, " in source
        assert all(repr(name) in source for name in act.param_names)
        assert not any(it.name in source for it in rules.content.items if len(it.name) > 3)


def test_a_starter_runs_its_steps_sources_with_the_parameters_it_is_given():
    # Duel's actions' steps are each one written expression: the starter runs them itself,
    # reading the items it is given, not the frame's names (what it does is held to the frame
    # loop above).
    rules = load_ruleset()
    game = rules.new_game(seed=1)
    for act, start in zip(rules.content.actions, game._starts):
        assert "steps[" not in start.source and "f.env[" not in start.source and "f.me)" not in start.source, act.name
        assert all(f"b{k})" in start.source or f"b{k}," in start.source for k in range(len(act.params)))


# An action whose own first step fails (a computed seat no game of two seats has) and one whose
# first step ends the game before its second: both run by the starter, whose frame stands on
# the stack only once a step pushes something.
FAILING_ACTION = """
action tithe {
    param card from structure
    gain 1 coins who=player(count(city) + 3 + modifier(luck))
    discard card
}
action triumph {
    param card from structure
    win civilian
    discard card
}
"""


def _to_action(game, name):
    while True:
        legal = game.legal_actions()
        found = next((a for a in legal if a.name == name), None)
        if found is not None:
            return found
        game.apply(legal[0])


def test_a_step_failing_in_a_starter_names_its_action_first_and_changes_nothing(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, FAILING_ACTION))])
    game = rules.new_game(seed=3, options=["beginner_wonders"])
    tithe = _to_action(game, "tithe")
    before, legal = dumps(game.state), game.legal_actions()
    with pytest.raises(EffectFailed) as info:
        game.apply(tithe)
    assert info.value.chain == ["action `tithe`"]
    assert "(running: action `tithe`)" in str(info.value)
    assert dumps(game.state) == before and game.legal_actions() == legal


def test_a_step_ending_the_game_in_a_starter_stops_its_block(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, FAILING_ACTION))])
    written = rules.new_game(seed=3, options=["beginner_wonders"])
    looped = rules.new_game(seed=3, options=["beginner_wonders"])
    looped._starts = [through_the_loop(act) for act in rules.content.actions]
    triumph = _to_action(written, "triumph")
    assert _to_action(looped, "triumph") == triumph
    card = written.content.item_index[triumph.args[0]]
    for game in (written, looped):
        game.apply(triumph)
        assert game.over and game.state.victory == "civilian"
        assert card in game.state.structure   # (`discard` never ran)
    assert dumps(written.state) == dumps(looped.state)


# Actions whose steps read the frame in each way a starter handles: a step that runs the one
# after it (called, handed the frame), an `if` whose body pushes a frame with the action's names,
# and a choice, handed the frame itself.
FRAME_READERS = """
action pledge {
    param card from structure
    gain 1 coins
    discard card
}
action wager {
    param card from structure
    if coins >= 6 { discard card } else { gain 1 coins }
}
action scout {
    param card from structure
    choose 1 from board_tokens { acquire chosen }
    discard card
}
"""


def test_a_starter_whose_steps_read_the_frame_plays_what_the_frame_loop_plays(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, FRAME_READERS))])
    game = rules.new_game(seed=1)
    shapes = {act.name: start.source for act, start in zip(rules.content.actions, game._starts)}
    assert "spare.pop()" in shapes["pledge"] and "steps[0](g, f)" in shapes["pledge"]
    assert "spare.pop()" not in shapes["wager"] and "    env = {" in shapes["wager"]
    assert "spare.pop()" in shapes["scout"]
    assert "spare.pop()" not in shapes["discard"] and "    env = {" not in shapes["discard"]
    started = set()
    for seed in range(6):
        written = played(rules, seed, written=True)
        assert written == played(rules, seed, written=False), seed
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_action(rng)
            started.add(action.name)
            game._apply(action)
    assert {"pledge", "wager", "scout"} <= started


def played_rounds(rules, seed: int, written: bool) -> list[str]:
    """The state after every action of a random game of simultaneous rounds, as saved: each
    round's actions run by their runners (`written`) or all scheduled for the frame loop."""
    game = rules.new_game(seed=seed)
    if not written:
        game._round_starts = None
    return after_each_action(game, seed)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_a_rounds_actions_run_by_their_runners_play_what_the_frame_loop_plays(players):
    # Most actions run to their end without the frame loop; one that pushes a block (a card's
    # effect, the last card of an age) leaves itself and the seats after it to the loop.
    rules = load_ruleset((), "classic", players)
    handed = []
    rules.new_game(seed=0)   # (the content's runners, written by its first game)
    runs = rules.content._round_starts
    plain = list(runs)

    def counting(run):
        def counted(g, me, *binding):
            handed.append(run(g, me, *binding))
            return handed[-1]
        return counted
    runs[:] = [counting(run) for run in plain]
    try:
        for seed in range(2):
            written = played_rounds(rules, seed, written=True)
            assert written == played_rounds(rules, seed, written=False), seed
    finally:
        runs[:] = plain
    assert handed.count(False) > 50 and handed.count(True) > 3


# An action of a simultaneous round whose first step fails (a computed seat no game of three has).
FAILING_ROUND_ACTION = """
action tithe {
    param card from hand
    gain 1 coins who=player(count(city) + 3 + modifier(luck))
    discard card
}
"""


@pytest.mark.parametrize("written", [True, False])
def test_a_step_failing_in_a_rounds_runner_names_its_action_and_changes_nothing(tmp_path, written):
    rules = Ruleset.load([str(folder(tmp_path, FAILING_ROUND_ACTION))], base="classic", players=3)
    game = rules.new_game(seed=3)
    ran = []
    if written:   # (the runners, counting the actions they start)
        plain = list(game._round_starts)
        game._round_starts = [lambda g, me, *b, run=run, act=act: ran.append(act.name) or run(g, me, *b)
                              for run, act in zip(plain, rules.content.actions)]
    else:
        game._round_starts = None
    while not (game.state.flow == "round" and game.state.pending is None):
        game.apply(game.legal_actions()[0])
    for seat in range(2):   # (the first two seats choose something else; the last, the tithe)
        game.apply(next(a for a in game.legal_actions() if a.name != "tithe"))
    tithe = next(a for a in game.legal_actions() if a.name == "tithe")
    before, legal = dumps(game.state), game.legal_actions()
    with pytest.raises(EffectFailed) as info:
        game.apply(tithe)
    assert info.value.chain == ["action `tithe`"]
    assert dumps(game.state) == before and game.legal_actions() == legal
    assert ("tithe" in ran) is written


# Numbers-only steps in a row before one that is not: the compiler chains them (the first runs
# all the others, `compiler.then_next`), and a starter steps over the whole chain.  It ran the
# chain, then its later steps again (found by test_fuzz_speed_paths.py: a classic seat gained
# four coins of three).
CHAINED = """
action tithe {
    param card from structure
    gain 1 coins
    gain 1 coins
    if coins >= 0 { gain 10 coins }
    discard card
}
"""


def test_a_starter_runs_a_chain_of_steps_once(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, CHAINED))])
    for looped in (False, True):
        game = rules.new_game(seed=3, options=["beginner_wonders"])
        if looped:
            game._starts = [through_the_loop(act) for act in rules.content.actions]
        tithe = _to_action(game, "tithe")
        me, coins = game.to_move(), game.state.coins[:]
        game.apply(tithe)
        assert game.state.coins[me] == coins[me] + 12, looped
    for seed in range(4):
        assert played(rules, seed, written=True) == played(rules, seed, written=False), seed
    block = rules.content.blocks[next(a.block for a in rules.content.actions if a.name == "tithe")]
    assert block.steps[0].spans == 4   # (the gains and the `if` change numbers only: the discard ends the chain)


CHAINED_IN_A_ROUND = """
expansion tithes {
    title "Tithes"
}

action tithe {
    param card from hand
    gain 1 coins
    gain 1 coins
    if coins >= 0 { gain 10 coins }
    discard card
    run last_card
}
"""


def test_a_rounds_runner_runs_a_chain_of_steps_once(tmp_path):
    rules = Ruleset.load([str(folder(tmp_path, CHAINED_IN_A_ROUND))], base="classic", players=3)
    for seed in range(3):
        assert played_rounds(rules, seed, True) == played_rounds(rules, seed, False), seed
    game = rules.new_game(seed=0)
    tithes = [a for a in game.legal_actions() if a.name == "tithe"]
    me, coins = game.to_move(), game.state.coins[:]
    game.apply(tithes[0])
    for p in range(1, 3):   # (the others sell: the round resolves)
        game.apply(next(a for a in game.legal_actions() if a.name == "sell"))
    assert game.state.coins[me] == coins[me] + 12
