"""A simultaneous round resolved by the actions' written runners (interpreter/starters.py,
`turns.resolve_round`) has the outcome of the frame loop running every seat's action as a frame
(`Game._round_starts` None): where a seat's action sets off a block, asks a decision in the
middle of the round, or runs away.  The small game is tests/data/hands, with rules added here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl.interpreter import Action, BudgetExceeded
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import load_ruleset

HANDS = Path(__file__).parent / "data" / "hands"

# Each seat's build sets off a block (the frame loop's).
HEARD = """
rule "Toll" {
    when built by=me { gain 1 coins }
}
"""
# A decision asked in the middle of a round, by what one seat's build sets off.
ASKED = """
rule "Pick" {
    when built by=me { choose 1 from hand { gain 2 coins } }
}
"""
# What one build sets off builds again and again: the triggers waiting double (tests/test_budget.py).
FAN_OUT = """
rule "Echo" {
    when built by=me { if coins < 1000000 { build event.item free } }
}
rule "Other echo" {
    when built by=me { if coins < 1000000 { build event.item free } }
}
"""


def rules_with(tmp_path: Path, text: str):
    folder = tmp_path / "hands"
    folder.mkdir()
    for f in HANDS.iterdir():
        (folder / f.name).write_text(f.read_text())
    with open(folder / "game.rules", "a") as out:
        out.write(text)
    return load_ruleset((), str(folder), 4)


def pair(rules, seed: int | None = None):
    """Two games of one seed: the first resolves rounds by the runners, the second by frames.
    Without a seed, the first where every seat can build in the first round."""
    if seed is None:
        seed = next(s for s in range(100) if all(a.name == "build" for a in builds_first(rules.new_game(seed=s)).values()))
    fast, slow = rules.new_game(seed=seed), rules.new_game(seed=seed)
    slow._round_starts = None
    return fast, slow


def builds_first(g) -> dict[int, Action]:
    """A round in which every seat builds where it can (seat 0 first), else sells."""
    chosen = {}
    for seat in g.to_act():
        actions = g.legal_actions(seat)
        chosen[seat] = next((a for a in actions if a.name == "build"), actions[0])
    return chosen


def test_random_games_are_the_frame_loops(tmp_path):
    rules = rules_with(tmp_path, HEARD)
    for seed in range(4):
        fast, slow = pair(rules, seed)
        rng = random.Random(seed)
        while not fast.over:
            seat = fast.to_act()[0]
            action = rng.choice(fast.legal_actions(seat))
            fast.apply(action, seat=seat)
            slow.apply(action, seat=seat)
            assert dumps(fast.state) == dumps(slow.state)


def test_a_decision_asked_mid_round_stops_it_with_the_seats_after_still_to_act(tmp_path):
    fast, slow = pair(rules_with(tmp_path, ASKED))
    chosen = builds_first(fast)
    for seat, action in chosen.items():
        fast.apply(action, seat=seat)
        slow.apply(action, seat=seat)
    # Seat 0's pick is asked; the seats after it have not built yet.
    assert fast.state.pending is not None and fast.to_act() == [0]
    assert [len(fast.items_in("city", p)) for p in range(4)] == [1, 0, 0, 0]
    assert dumps(fast.state) == dumps(slow.state)
    for seat in range(4):
        answer = fast.legal_actions()[0]
        assert fast.to_act() == [seat]
        fast.apply(answer)
        slow.apply(answer)
        assert dumps(fast.state) == dumps(slow.state)
    assert fast.state.coins == [3 + 2] * 4


@pytest.mark.parametrize("max_steps", range(20, 80))
def test_a_runaway_round_stops_as_the_frame_loop_stops_it(tmp_path, max_steps):
    # What waits to run counts the seats after the one whose action ran away, as the frame
    # loop's stack holds them: the same error at the same step.
    fast, slow = pair(rules_with(tmp_path, FAN_OUT))
    for g in (fast, slow):
        g.max_steps = max_steps
    chosen = builds_first(fast)
    errors = []
    for g in (fast, slow):
        for seat, action in list(chosen.items())[:-1]:
            g.apply(action, seat=seat)
        before = dumps(g.state)
        with pytest.raises(BudgetExceeded) as info:
            g.apply(chosen[3], seat=3)
        assert dumps(g.state) == before
        errors.append((str(info.value), info.value.chain))
    assert errors[0] == errors[1]


# A seat's payment to a neighbour sets off a block before its action (what `heard` holds).
TIP = 'rule "Tip" { when traded by=any { gain 1 coin who=event.seller } }\n'


@pytest.mark.parametrize("text", ["", TIP], ids=["plain", "traded"])
@pytest.mark.parametrize("max_steps", range(1, 13))
def test_a_budget_smaller_than_a_round_stops_it_as_the_frame_loop_stops_it(tmp_path, text, max_steps):
    # Budgets of a few steps: the frame loop refuses a round with more frames waiting at once than
    # the budget before any runs, and a seat's runner must not start where the budget cannot hold
    # its action's steps.  Random games, each until the first action the budget refuses.
    rules = rules_with(tmp_path, text)
    refused = []
    for seed in range(6):
        fast, slow = pair(rules, seed)
        for g in (fast, slow):
            g.max_steps = max_steps
        rng = random.Random(seed)
        while not fast.over:
            seat = fast.to_act()[0]
            action = rng.choice(fast.legal_actions(seat))
            outcomes = []
            for g in (fast, slow):
                before = dumps(g.state)
                try:
                    g.apply(action, seat=seat)
                except BudgetExceeded as exc:
                    assert dumps(g.state) == before
                    outcomes.append((str(exc), exc.chain))
                else:
                    outcomes.append(dumps(g.state))
            assert outcomes[0] == outcomes[1]
            if isinstance(outcomes[0], tuple):
                refused.append(outcomes[0][0])
                break
    # Every game meets the budget (an age's end takes more steps than these): below four steps,
    # the first round's four actions, waiting at once, are refused before any runs.
    assert len(refused) == 6
    assert all(("effects are waiting" in e) == (max_steps < 4) for e in refused)
