"""`Game.apply` takes an action the last `legal_actions` listed for the seat, in the very position
it was listed in, without asking `explain_illegal` (a bot's loop asks both at every decision;
docs/speed.md).  What it keeps must never let through an action that `explain_illegal` refuses:
each way the position changes through the game, or a state written to by hand, leaves the
action to the full check, which refuses it with its reason and changes nothing."""

from __future__ import annotations

import random

import pytest

from rulesdsl.interpreter import Action, Game, IllegalAction, core, legality
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import load_ruleset


@pytest.fixture
def asked(monkeypatch):
    """How many times `Game.apply` asked `explain_illegal`."""
    calls = []
    plain = Game.explain_illegal

    def counting(game, action, seat=None):
        calls.append(action)
        return plain(game, action, seat)
    monkeypatch.setattr(Game, "explain_illegal", counting)
    return calls


class Seat(int):
    """A seat number of a type that is not `int` (a numpy integer is one too)."""


def duel(seed: int = 3) -> Game:
    return load_ruleset((), "duel").new_game(seed=seed, options=["beginner_wonders"])


def priced_build(game: Game, seat: int) -> Action:
    """A listed build whose price is more than nothing."""
    for a in game.legal_actions(seat):
        if a.name == "build" and game.price(seat, game.content.item_index[a.args[0]])[0] > 0:
            return a
    pytest.skip("no priced build at this position")


def refused_as_explained(game: Game, action, seat, *words: str) -> None:
    before = dumps(game.state)
    reason = legality.explain_illegal(game, action, seat)
    assert reason is not None and all(w in reason for w in words), reason
    with pytest.raises(IllegalAction) as err:
        game.apply(action, seat)
    assert err.value.reason == reason
    assert dumps(game.state) == before


def test_a_listed_action_is_applied_without_a_second_check(asked):
    for name, players in (("duel", None), ("classic", 3)):
        asked.clear()
        game = load_ruleset((), name, players).new_game(seed=4)
        rng = random.Random(4)
        for _ in range(40):
            seat = game.to_move()
            legal = game.legal_actions(seat)
            game.apply(legal[rng.randrange(len(legal))], seat)
        assert asked == [], (name, asked[:3])
        # (an action not listed, or listed for another position, is still checked)
        game.apply(game.random_action(rng))
        assert len(asked) == 1


def test_a_position_changed_through_the_game_checks_again():
    game = duel()
    seat = game.to_move()
    build = priced_build(game, seat)
    item = game.content.item_index[build.args[0]]
    game.relocate(item, game.slot(game.content.zone_index["discard"], 0))
    refused_as_explained(game, build, seat, "not accessible")

    game = duel()
    build = priced_build(game, seat)
    game.state.coins[seat] = 0   # (written by hand, without `clear_caches`)
    refused_as_explained(game, build, seat, "costs")

    game = duel()
    build = priced_build(game, seat)
    other = duel()
    other.relocate(game.content.item_index[build.args[0]], other.slot(other.content.zone_index["discard"], 0))
    game.state = other.state   # (a state replaced: another position, whatever it holds)
    assert not legality.was_listed(game, build, seat)
    core.clear_caches(game)   # (as a state replaced needs)
    refused_as_explained(game, build, seat, "not accessible")


def test_what_a_caller_does_with_the_list_is_not_kept():
    game = duel()
    seat = game.to_move()
    legal = game.legal_actions(seat)
    legal.append(Action("build", ("Nowhere",)))
    refused_as_explained(game, legal[-1], seat, "no item named")
    refused_as_explained(game, tuple(legal[0]), seat, "not an Action")
    refused_as_explained(game, legal[0], Seat(seat), "not a seat")   # (equal to the seat listed for)
    refused_as_explained(game, legal[0], 1 - seat, "does not act now")


@pytest.mark.parametrize("way", ["run", "advance", "schedule", "relocate", "clear_caches", "_apply"])
def test_every_way_the_game_changes_its_position_forgets_the_listing(way):
    game = duel()
    seat = game.to_move()
    legal = game.legal_actions(seat)
    assert legality.was_listed(game, legal[0], seat)
    if way == "schedule":
        game.schedule([])
    elif way == "relocate":
        item = game.content.item_index[legal[-1].args[0]]
        game.relocate(item, game.state.loc[item])
    elif way == "clear_caches":
        core.clear_caches(game)
    elif way == "_apply":
        game._apply(legal[0], seat)
    else:
        getattr(game, way)()
    assert not legality.was_listed(game, legal[0], seat)


def test_a_round_seat_applies_only_its_own_listed_actions():
    game = load_ruleset((), "classic", 3).new_game(seed=2)
    legal = game.legal_actions(0)
    mine = next(a for a in legal if a not in game.legal_actions(1))
    game.legal_actions(0)
    refused_as_explained(game, mine, 1, "not in")
    game.apply(mine, 0)
    # (a later seat's choice, out of seat order: the choices change, not the history)
    game = load_ruleset((), "classic", 3).new_game(seed=2)
    legal = game.legal_actions(2)
    game.apply(game.legal_actions(1)[0], 1)
    game.apply(legal[0], 2)
    assert game.state.choices[1] is not None and game.state.choices[2] is not None


def test_a_decision_pending_takes_its_answers_from_its_player_only():
    rules = load_ruleset(("agora", "pantheon"), "duel")
    for seed in range(20):
        game, rng = rules.new_game(seed=seed), random.Random(seed)
        while not game.over and game.state.pending is None:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.state.pending is not None:
            break
    else:
        pytest.fail("no decision pending in 20 games")
    player = game.state.pending.player
    answers = game.legal_actions(player)
    refused_as_explained(game, answers[0], 1 - player, "must first answer")
    game.apply(answers[0], player)
