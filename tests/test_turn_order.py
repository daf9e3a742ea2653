"""Where seats take turns, the seat after p is the one to its left (`seats.left_of`): the end of a
turn reads it from a table made once per content (`core.slot_tables`, "next_seat"), and a seat
that plays again keeps the turn.  Checked at the end of every turn of seeded random games, at 2
and 3 seats (the three-seat test game, tests/data/three_seats)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl.interpreter import seats, starters, turns
from rulesdsl.pipeline import load_ruleset

THREE = Path(__file__).resolve().parent / "data" / "three_seats"


@pytest.mark.parametrize("folder", ["duel", str(THREE)])
def test_a_turn_passes_to_the_left_unless_the_seat_plays_again(folder, monkeypatch):
    rules = load_ruleset((), folder)
    seen = {"passed": 0, "again": 0}
    end_turn = turns.end_turn

    def checked(g) -> None:
        st = g.state
        before, again, age = st.current, st.play_again, st.age
        end_turn(g)
        if st.flow != "turn" or st.age != age:   # (the turn did not end here: effects run, or the age ended)
            return
        assert st.current == (before if again else seats.left_of(g, before)), (st.turn, before, again)
        seen["again" if again else "passed"] += 1

    monkeypatch.setattr(turns, "end_turn", checked)
    for seed in range(12):
        game = rules.new_game(seed=seed)
        # (the starters written again, calling the `end_turn` above: a turn its starter ends
        # itself, a built card's effects run there included, is checked too)
        game._starts = starters.write(game.content)
        rng = random.Random(seed)
        while not game.over:
            game._apply(game.random_action(rng))
    assert seen["passed"] > 50
    if folder == "duel":
        assert seen["again"] > 5   # (wonders that give another turn)


def test_each_seats_next_and_previous_are_the_seats_to_its_left_and_right():
    for players in (3, 5, 7):
        game = load_ruleset((), "classic", players).new_game(seed=1)
        assert list(game.next_seat) == [seats.left_of(game, p) for p in range(players)]
        assert game.next_seat[-1] == seats.left_of(game, -1) == 0   # (no seat yet: the first is next)
        assert list(game.prev_seat) == [seats.right_of(game, p) for p in range(players)]
        assert game.prev_seat[-1] == seats.right_of(game, -1) == players - 2
