"""`option NAME if=CONDITION` in a `choose_one`: an option is offered only while its condition
holds, asked when the choice is made; with none offered, nothing is decided."""

from __future__ import annotations

import pytest

from card_folders import first_turn, folder
from rulesdsl.interpreter.actions import Action
from rulesdsl.pipeline import load_ruleset
from rulesdsl.report import check_paths

CARDS = """
action gamble {
    param card from structure
    discard card
    choose_one {
        option rich if=coins >= 10 { gain 3 coins }
        option plain { gain 2 coins }
        option poor if=coins < 10 and count(city) < 99 { gain 1 coin }
    }
}
action hope {
    param card from structure
    discard card
    choose_one {
        option never if=coins > 100000 { gain 50 coins }
    }
}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = folder(tmp_path_factory.mktemp("options"), CARDS)
    report = check_paths([path])
    assert report.errors == 0 and report.warnings == 0, report.human()
    return load_ruleset([str(path)])


@pytest.mark.parametrize("coins, offered", [(3, ["plain", "poor"]), (10, ["rich", "plain"]), (25, ["rich", "plain"])])
def test_only_the_options_whose_condition_holds_are_offered(rules, coins, offered):
    game, me = first_turn(rules, coins)
    card = next(a for a in game.legal_actions() if a.name == "gamble").args[0]
    game.apply(Action("gamble", (card,)))
    assert game.state.coins[me] == coins
    assert game.state.pending is not None and game.state.pending.player == me
    assert [a.args[0] for a in game.legal_actions()] == offered
    assert game.explain_illegal(Action("choose_option", ("never",))) is not None
    gain = {"rich": 3, "plain": 2, "poor": 1}
    for label in offered:
        trial = game.clone()
        trial.apply(Action("choose_option", (label,)))
        assert trial.state.coins[me] == coins + gain[label]


def test_a_choice_with_no_option_offered_decides_nothing(rules):
    game, me = first_turn(rules, 7)
    card = next(a for a in game.legal_actions() if a.name == "hope").args[0]
    game.apply(Action("hope", (card,)))
    assert game.state.pending is None and game.to_move() != me   # the turn is over
    assert game.state.coins[me] == 7                               # the option never ran


def test_a_condition_is_a_condition_not_a_flag(tmp_path):
    # `if=` is asked at play time: any condition (where `optional=` takes `true` or `false`).
    bad = folder(tmp_path, "action a {\n    param card from structure\n    discard card\n"
                           "    choose_one {\n        option x if=3 { gain 1 coin }\n    }\n}\n")
    report = check_paths([bad])
    assert [d.code for d in report.diagnostics] == ["E309"], report.human()
