"""Property tests that guard a designer's tweak (my_cards/): written with the strategies of
rulesdsl.testing.  Run: python3 -m pytest examples/property_test (the scenarios of
tavern.scenario run too: the rulesdsl pytest plugin collects *.scenario files)."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from rulesdsl.interpreter import Action
from rulesdsl.testing import check_game, run_checked
from rulesdsl.testing import strategies as rs

MY_CARDS = str(Path(__file__).resolve().parent / "my_cards")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(rs.action_sequences(expansions=[MY_CARDS]))
def test_every_position_keeps_every_invariant(play):
    """Any position reached by legal actions keeps the built-in invariants and mine."""
    check_game(play.game)


@FAST
@given(rs.games(expansions=[MY_CARDS], options=["beginner_wonders"]))
def test_the_tavern_pays_3_plus_1_per_yellow_card(game):
    build = Action("build", ("Tavern",))
    if build not in game.legal_actions():
        return
    me = game.to_move()
    yellow = sum(1 for i in game.state.zones[game.slot(game.content.zone_index["city"], me)]
                 if game.content.items[i].color == "yellow")
    before = game.state.coins[me]
    price = game.price(me, game.content.item_index["Tavern"])[0]
    game.apply(build)
    assert game.state.coins[me] == before - price + 3 + yellow + 1


@settings(max_examples=5, deadline=None)
@given(rs.scripted_setups(expansions=[MY_CARDS]))
def test_whole_games_from_scripted_setups(setup):
    """Random games to the end, every invariant checked after every action."""
    run_checked(setup.new_game(), rng=setup.seed)
