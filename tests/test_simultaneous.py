"""Simultaneous rounds, hands passed around the table, trade with neighbours, counters and the age
hooks, on the small game tests/data/hands (3-4 seats; docs/language.md, "How a game runs").
The classic game's own rulebook scenarios are in tests/test_classic_*.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl.interpreter import Action, IllegalAction
from rulesdsl.interpreter.persistence import dumps, loads
from rulesdsl.interpreter.scoring import _best_science
from rulesdsl.pipeline import load_game, load_ruleset

HANDS = str(Path(__file__).parent / "data" / "hands")


def game(players: int = 3, seed: int = 0):
    return load_ruleset((), HANDS, players).new_game(seed=seed)


def hand(g, p: int) -> list[str]:
    return g.items_in("hand", p)


def put(g, p: int, zone: str, *names: str) -> None:
    """Move items (by name: a copy from a deck or the discard pile) into a seat's zone; no effect runs."""
    content = g.content
    shared = {g.slot(content.zone_index[z], 0) for z in ("age1", "age2", "discard")}
    for name in names:
        item = next(i for i, it in enumerate(content.items) if it.name == name and g.state.loc[i] in shared)
        g.relocate(item, g.slot(content.zone_index[zone], p))


def clear_hands(g) -> None:
    """Every hand emptied onto the discard pile (so `put` can take those cards)."""
    pile = g.slot(g.content.zone_index["discard"], 0)
    for p in range(g.content.players):
        for item in list(g.state.zones[g.slot(g.content.zone_index["hand"], p)]):
            g.relocate(item, pile)


def play_round(g, actions: dict[int, Action]) -> None:
    for seat, action in actions.items():
        g.apply(action, seat=seat)


def test_every_seat_acts_in_a_round_and_hands_pass_left():
    g = game()
    assert g.to_act() == [0, 1, 2] and g.to_move() == 0
    hands = [hand(g, p) for p in range(3)]
    assert all(len(h) == 3 for h in hands)
    play_round(g, {p: Action("sell", (hands[p][0],)) for p in (2, 0, 1)})   # any order
    assert [h[0] for h in g.state.history] == ["sell"] * 3
    assert [h[1] for h in g.state.history] == [hands[0][0], hands[1][0], hands[2][0]]  # seat order
    # Age I passes left: seat p now holds what seat p - 1 kept.
    for p in range(3):
        assert sorted(hand(g, p)) == sorted(hands[(p - 1) % 3][1:])
    assert g.state.coins == [6, 6, 6]


def test_a_seat_that_has_chosen_waits_and_a_refusal_changes_nothing():
    g = game()
    card = hand(g, 1)[0]
    g.apply(Action("sell", (card,)), seat=1)
    assert g.to_act() == [0, 2] and g.to_move() == 0
    before = dumps(g.state)
    with pytest.raises(IllegalAction, match="seat 1 has already chosen"):
        g.apply(Action("sell", (hand(g, 1)[1],)), seat=1)
    with pytest.raises(IllegalAction, match="there is no seat 5"):
        g.apply(Action("sell", (hand(g, 0)[0],)), seat=5)
    with pytest.raises(IllegalAction, match="not in hand"):
        g.apply(Action("sell", (hand(g, 1)[1],)), seat=0)       # another seat's card
    assert dumps(g.state) == before
    assert g.legal_actions(1) == [] and g.legal_actions(0)


def test_a_save_in_the_middle_of_a_round_keeps_the_choices_and_a_replay_is_exact():
    g = game(4, seed=5)
    g.apply(Action("sell", (hand(g, 3)[0],)), seat=3)
    again = load_game(dumps(g.state), g.content)
    assert again.to_act() == [0, 1, 2]
    rng = random.Random(1)
    while not again.over:
        again.apply(again.random_action(rng))
    replayed = load_ruleset((), HANDS, 4).new_game(seed=5)
    for h in again.state.history:
        replayed.apply(Action(h[0], tuple(h[1:])))
    assert dumps(replayed.state) == dumps(again.state)


def test_payments_come_first_from_the_coins_held_at_the_start_of_the_round():
    g = game()
    st = g.state
    clear_hands(g)
    put(g, 2, "hand", "Ore Vein")
    put(g, 1, "city", "Wood Pile")                      # seat 1 makes wood
    put(g, 2, "city", "Ore Vein")                       # seat 2 makes ore
    put(g, 0, "hand", "Post")                           # seat 0 wants Post (1 wood)
    put(g, 1, "hand", "Fort", "Post")                   # seat 1 wants Fort (wood, ore)
    st.coins[:] = [2, 0, 0]
    # Seat 1 has no coins: it sells wood to seat 0 this round, but cannot spend those coins on ore now.
    buy = Action("build", ("Post", "pay=p1:2"))
    assert buy in g.legal_actions(0)
    assert not any(a.name == "build" and a.args[0] == "Fort" for a in g.legal_actions(1))
    with pytest.raises(IllegalAction, match="name a payment"):
        g.apply(Action("build", ("Post",)), seat=0)
    with pytest.raises(IllegalAction, match="costs 2 coins and player 1 has 0"):
        g.apply(Action("build", ("Fort", "pay=p2:2")), seat=1)
    play_round(g, {0: buy, 1: Action("build", ("Post",)), 2: Action("sell", (hand(g, 2)[0],))})
    assert st.coins == [0, 2, 3]
    assert "Post" in g.items_in("city", 0) and "Post" in g.items_in("city", 1)
    traded = [h for h in g.state.history]
    assert traded[0] == ["build", "Post", "pay=p1:2"]


def test_a_card_built_this_round_sells_nothing_this_round():
    g = game()
    clear_hands(g)
    put(g, 1, "hand", "Wood Pile")
    put(g, 0, "hand", "Post")
    put(g, 2, "hand", "Ore Vein")
    g.state.coins[:] = [5, 5, 5]
    # Nobody makes wood yet: Post cannot be bought even though seat 1 builds a Wood Pile this round.
    assert not any(a.args[:1] == ("Post",) and a.name == "build" for a in g.legal_actions(0))
    play_round(g, {0: Action("sell", ("Post",)), 1: Action("build", ("Wood Pile",)),
                   2: Action("sell", (hand(g, 2)[0],))})
    assert g.state.flow == "round" and g.items_in("city", 1) == ["Wood Pile"]
    put(g, 0, "hand", "Post")
    assert Action("build", ("Post", "pay=p1:2")) in g.legal_actions(0)   # the next round it can


def test_the_end_of_an_age_compares_strength_with_both_neighbours():
    g = game()
    clear_hands(g)
    put(g, 0, "city", "Post", "Post")                    # 2 shields
    put(g, 1, "city", "Post")                            # 1
    for p in range(3):
        put(g, p, "hand", "Ore Vein" if p < 2 else "Wood Pile")
    while g.state.age == 0:
        g.apply(Action("sell", (hand(g, g.to_move())[0],)))
    # Age I: victory 1 per beaten neighbour, -1 per defeat: seat 0 beats both, seat 1 beats seat 2.
    assert g.state.counters["military"] == [2, -1 + 1, -2]


def test_no_two_cards_of_one_name_in_a_city():
    g = game()
    clear_hands(g)
    put(g, 0, "city", "Wood Pile")
    put(g, 0, "hand", "Wood Pile")
    assert Action("build", ("Wood Pile",)) not in g.legal_actions(0)
    assert Action("sell", ("Wood Pile",)) in g.legal_actions(0)


@pytest.mark.parametrize("counts, wild, points", [
    ([1, 1, 1], 0, 10), ([2, 2, 2], 0, 26), ([3, 1, 0], 0, 10), ([3, 2, 1], 0, 21),   # rulebook F1, F2
    ([1, 1, 0], 1, 10), ([3, 0, 0], 1, 16), ([2, 2, 1], 1, 26), ([0, 0, 0], 2, 4), ([1, 1, 1], 1, 13),  # F4
])
def test_science_with_symbols_of_any_kind(counts, wild, points):
    assert _best_science(list(counts), wild, 7) == points


def test_random_games_end_at_every_count():
    for players in (3, 4):
        for seed in range(10):
            g = game(players, seed)
            rng = random.Random(seed)
            while not g.over:
                g.apply(g.random_action(rng))
            assert len(g.state.history) == players * 2 * 2      # 2 ages of 2 rounds
            assert sum(g.state.coins) + 0 >= 0


def test_the_traded_event_names_the_seller_and_the_resource(tmp_path):
    folder = tmp_path / "hands"
    folder.mkdir()
    for f in Path(HANDS).iterdir():
        (folder / f.name).write_text(f.read_text())
    with open(folder / "game.rules", "a") as out:
        out.write('\nrule "Receipt" {\n    when traded by=me {\n'
                  '        if event.resource == ore { gain 10 * event.amount coins who=event.seller }\n    }\n}\n')
    g = load_ruleset((), str(folder), 3).new_game(seed=0)
    clear_hands(g)
    put(g, 2, "city", "Ore Vein")
    put(g, 1, "city", "Wood Pile")
    put(g, 0, "hand", "Fort")
    put(g, 1, "hand", "Ore Vein")
    put(g, 2, "hand", "Wood Pile")
    g.state.coins[:] = [4, 0, 0]
    options = [a for a in g.legal_actions(0) if a.name == "build"]
    assert options == [Action("build", ("Fort", "pay=p1:2,p2:2"))]
    play_round(g, {0: options[0], 1: Action("sell", ("Ore Vein",)), 2: Action("sell", ("Wood Pile",))})
    # Wood from seat 1 (2 coins), ore from seat 2 (2 coins, and 10 x 2 more by the rule).
    assert g.state.coins == [0, 2 + 3, 2 + 20 + 3]


def test_explain_says_whom_a_trading_price_is_paid_to():
    from rulesdsl.explain import explain
    content = load_ruleset((), "classic", 3).content
    assert "from your left neighbour for 1 coin each" in explain("West Trading Post", content)
    assert "from your right neighbour for 1 coin each" in explain("East Trading Post", content)
    assert "from your neighbours for 1 coin each" in explain("Marketplace", content)
    assert "from the bank for 1 coin each" in explain("Stone Reserve", load_ruleset(()).content)


def test_the_greedy_agent_does_not_see_the_choices_made_before_its_own():
    from rulesdsl.interpreter.agents import GreedyAgent
    picks = []
    for other in range(2):
        g = game(3, seed=11)
        first = g.legal_actions(0)[other]
        g.apply(first, seat=0)
        picks.append(GreedyAgent(seed=1).act(g))
    assert picks[0] == picks[1]


@pytest.mark.parametrize("players", [3, 5])
def test_the_order_in_which_seats_choose_changes_nothing(players):
    """The same choices made in seat order and in reverse give the same state after every round
    and at the end (`current` stayed on the last seat to choose: a trace of the reversed game
    did not replay, and `to_move` of two equal games differed)."""
    from rulesdsl.interpreter import new_game
    from rulesdsl.trace import replay, trace_of
    a, b = (new_game(base="classic", players=players, seed=11) for _ in range(2))
    rng = random.Random(players)
    while not a.over:
        choices = {s: rng.choice(a.legal_actions(s)) for s in a.to_act()}
        for s in choices:
            a.apply(choices[s], seat=s)
        for s in reversed(list(choices)):
            b.apply(choices[s], seat=s)
        assert dumps(b.state) == dumps(a.state)
    assert replay(trace_of(b))[1] == []


def test_an_action_that_runs_away_in_a_round_chosen_out_of_order_leaves_the_game_as_it_was():
    from rulesdsl.interpreter import new_game
    refused = 0
    for seed in range(12):
        g = new_game(base="classic", players=4, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            seat = max(g.to_act())   # the highest seat first
            refused += _runs_away_then_plays(g, seat, rng)
    assert refused > 20


def _runs_away_then_plays(g, seat: int, rng: random.Random) -> bool:
    """A random action of `seat` with a budget of 1 step: where it runs out, the game is as it
    was (asserted); then the action is played with a budget it fits.  Whether it ran out."""
    from rulesdsl.interpreter.budget import BudgetExceeded
    action = rng.choice(g.legal_actions(seat))
    before = dumps(g.state)
    g.max_steps = 1
    refused = False
    try:
        g.apply(action, seat=seat)
    except BudgetExceeded:
        refused = True
        assert dumps(g.state) == before
    g.max_steps = 100000
    if dumps(g.state) == before:
        g.apply(action, seat=seat)
    return refused


@pytest.mark.parametrize("players", [3, 5])
def test_a_runaway_action_in_a_game_loaded_in_the_middle_of_a_round_leaves_it_as_it_was(players):
    # A save made after a later seat chose before an earlier one: the earlier seat's choice logs
    # both, and undoing a later runaway action replayed the logged choice a second time (for the
    # next seat: a changed state, or a ValueError naming a card that seat does not hold).
    from rulesdsl.interpreter import Game, new_game
    content = load_ruleset((), "classic", players).content
    refused = 0
    for seed in range(6):
        g = new_game(base="classic", players=players, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            if g.state.flow == "round" and g.state.choices.count(None) == len(g.state.choices):
                seat = max(g.to_act())   # the highest seat first, then a save
                g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
                g = Game(content, loads(dumps(g.state)), max_steps=100000)
                continue
            refused += _runs_away_then_plays(g, min(g.to_act()), rng)
    assert refused > 20
