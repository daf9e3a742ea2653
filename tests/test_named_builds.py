"""`build "NAME"` in an action (an item named in quotes, not a parameter) must be paid for, as a
parameter's item is: the action is legal only while its player can pay (docs/language.md,
`cost`: "inside an action the cost makes the action legal or not")."""

from __future__ import annotations

import pytest

from card_folders import first_turn, folder
from rulesdsl.interpreter.actions import Action, IllegalAction
from rulesdsl.pipeline import load_ruleset

CARDS = """
card "Pricey" {
    deck discard
    color blue
    cost 9 coins
}
action buy_pricey {
    build "Pricey"
}
action take_pricey {
    build "Pricey" free
}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_ruleset([str(folder(tmp_path_factory.mktemp("named"), CARDS))])


def test_a_named_build_the_player_cannot_pay_is_not_legal(rules):
    # It was legal: it took the 7 coins and built the card.
    game, me = first_turn(rules, 7)
    assert Action("buy_pricey", ()) not in game.legal_actions()
    assert game.explain_illegal(Action("buy_pricey", ())) == f"it costs 9 coins and player {me} has 7"
    before = game.state.coins[:]
    with pytest.raises(IllegalAction):
        game.apply(Action("buy_pricey", ()))
    assert game.state.coins == before
    assert Action("take_pricey", ()) in game.legal_actions()     # free: no price to meet


def test_a_named_build_the_player_can_pay_is_legal_and_paid(rules):
    game, me = first_turn(rules, 12)
    assert Action("buy_pricey", ()) in game.legal_actions()
    game.apply(Action("buy_pricey", ()))
    assert game.state.coins[me] == 3
    assert "Pricey" in game.items_in("city", me)
