"""An action is accepted only as the legal actions write it: a payment spelled otherwise
(`pay=p+3:02`, a newline after it, seats out of order) was applied and kept in the history as
typed, a string no list of legal actions holds (the RL numbering, a trace compared with them).
And a refusal is one line, whatever the action holds (a newline in a name read from a trace
started a line of its own in the message)."""

from __future__ import annotations

import random

import pytest

from rulesdsl.interpreter import Action, IllegalAction, load_ruleset


def paying_build(players: int = 3):
    """A classic game at a seat's first action that buys from a neighbour: (game, seat, action)."""
    rules = load_ruleset([], "classic", players)
    for seed in range(40):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.over:
                break
            seat = game.to_act()[0]
            paid = [a for a in game.legal_actions(seat) if a.args and a.args[-1].startswith("pay=p")
                    and a.args[-1] != "pay=" and ":0" not in a.args[-1]]
            if paid:
                return game, seat, paid[0]
            game.apply(game.random_action(rng, seat), seat=seat)
    raise AssertionError("no purchase met")


@pytest.mark.parametrize("respell", [
    lambda p: p.replace("=p", "=p+"), lambda p: p.replace(":", ":0"), lambda p: p + "\n",
    lambda p: p.replace(":", ": "), lambda p: p.replace(":", ":\u0661") if p.endswith(":1") else p + "\t",
])
def test_a_payment_spelled_otherwise_is_refused_and_changes_nothing(respell):
    game, seat, action = paying_build()
    odd = Action(action.name, (*action.args[:-1], respell(action.args[-1])))
    assert odd != action
    before = (repr(game.state), game.legal_actions(seat))
    with pytest.raises(IllegalAction) as caught:
        game.apply(odd, seat=seat)
    assert "is not a payment" in caught.value.reason and "\n" not in str(caught.value)
    assert (repr(game.state), game.legal_actions(seat)) == before
    game.apply(action, seat=seat)   # (as listed, it is taken)
    assert game.state.history[-1][-1] == action.args[-1] or game.state.choices[seat][-1] == action.args[-1]


def test_two_payments_to_seats_out_of_order_are_refused():
    game, seat, action = paying_build(5)
    with pytest.raises(IllegalAction, match="seats in order"):
        game.apply(Action(action.name, (*action.args[:-1], "pay=p4:1,p1:1")), seat=seat)


def test_a_refusal_is_one_line_whatever_the_action_holds():
    game = load_ruleset([]).new_game(seed=1)
    for action in (Action("build\nBaths", ()), Action("choose", ("Pyramids\nforged: line",))):
        with pytest.raises(IllegalAction) as caught:
            game.apply(action)
        assert "\n" not in str(caught.value) and "\\n" in str(caught.value)
    assert str(Action("build", ("Clay Pit",))) == 'build "Clay Pit"'
    assert Action.parse(str(Action("build", ("Clay Pit",)))) == Action("build", ("Clay Pit",))


@pytest.mark.parametrize("make", [
    lambda long: Action("build", (long,)),                    # no item of that name
    lambda long: Action(long, ()),                             # no action of that name
    lambda long: Action("build", long),                        # arguments not a tuple
    lambda long: Action("build", ("Lumber Yard", f"pay={long}")),   # not a payment
    lambda long: Action("discard", (long,)),
    lambda long: long,                                         # not an Action at all
])
def test_a_refusal_cuts_a_long_argument_and_still_says_why(make):
    """A 10,000-character name was printed twice in full (a 20,025-character refusal): a
    refusal names it by its first characters, as `check` cuts long tokens."""
    game = load_ruleset([]).new_game(seed=1)
    while game.state.pending is not None:   # past the wonder draft, to the first turn
        game.apply(game.legal_actions()[0])
    before = repr(game.state)
    long = "Lumber Yard" + "x" * 10_000
    with pytest.raises(IllegalAction) as caught:
        game.apply(make(long))
    message = str(caught.value)
    assert len(message) < 400, message
    assert "Lumber Yard" in message and "..." in message
    assert repr(game.state) == before


def test_an_unknown_name_a_user_typed_is_cut_too():
    from rulesdsl.names import UnknownName, check_agent
    with pytest.raises(UnknownName) as caught:
        check_agent("greedy" * 5_000, ["random", "greedy", "mcts"])
    assert len(str(caught.value)) < 200 and str(caught.value).startswith("unknown agent `greedygreedy")


def test_a_misspelt_name_is_refused_with_the_name_meant():
    # `build lumber yard` typed at the play prompt read only "there is no item named ..."
    # (names are matched exactly, letter case too).
    from rulesdsl.interpreter.persistence import dumps
    game = load_ruleset().new_game(seed=3, options=["beginner_wonders"])
    before = dumps(game.state)
    cases = {Action("build", ("lumber yard",)): "there is no item named 'lumber yard': did you mean `Lumber Yard`?",
             Action("bild", ("Lumber Yard",)): "unknown action `bild` (actions: build, discard, wonder): did you mean `build`?",
             Action("build", ("No Such Card",)): "there is no item named 'No Such Card'"}
    for action, reason in cases.items():
        assert game.explain_illegal(action) == reason
        with pytest.raises(IllegalAction, match="did you mean" if "did" in reason else "no item named"):
            game.apply(action)
    assert dumps(game.state) == before
    # the names the argument may take come first: a classic hand's card, not a like name elsewhere
    classic = load_ruleset([], "classic", 3).new_game(seed=1)
    seat = classic.to_act()[0]
    held = sorted({a.args[0] for a in classic.legal_actions(seat) if a.name == "build"})[0]
    assert classic.explain_illegal(Action("build", (held.lower(),)), seat).endswith(f"did you mean `{held}`?")
