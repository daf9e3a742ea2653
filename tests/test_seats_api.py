"""Simulation, agents and observations at any number of seats (the API side of
tests/test_cli_seats.py): `simulate` with its default agents, the greedy agent in a game without
a conflict track, observations that keep every other seat's private zones hidden."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from ranged_game import write_ranged_game
from test_kept_caches import kept_prices_hold

from rulesdsl.interpreter import legality
from rulesdsl.interpreter.agents import GreedyAgent, make_agent
from rulesdsl.interpreter.observation import observe
from rulesdsl.names import UnknownName
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import play_one, simulate

THREE = Path(__file__).resolve().parent / "data" / "three_seats"


@pytest.fixture(scope="module")
def ranged(tmp_path_factory) -> Path:
    """three_seats for 3 to 5 players, each with a private hand of one card dealt at the start."""
    return write_ranged_game(tmp_path_factory.mktemp("ranged_api") / "ranged")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulate_with_default_agents_plays_every_seat(ranged, players):
    rules = load_ruleset((), str(ranged), players)
    result = simulate(rules, 10, seed=1)
    assert result["agents"] == ["random"] * players and result["players"] == players
    assert set(result["wins"]) == {str(p) for p in range(players)} | {"draw"}
    assert sum(result["wins"].values()) == 10
    assert set(result["mean_score"]) == {str(p) for p in range(players)}
    with pytest.raises(ValueError, match=f"the game has {players} seats"):
        simulate(rules, 1, agents=["random", "random"])


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_greedy_agent_plays_a_game_without_a_track_at_any_seat(seat):
    rules = load_ruleset((), str(THREE))
    assert rules.content.track.zone < 0  # no conflict track, no pawn
    names = ["random"] * 3
    names[seat] = "greedy"
    wins = simulate(rules, 30, seed=0, agents=names)["wins"]
    # It takes the card worth most coins to it (Seat Coins: 30 + its seat) when it can.
    assert wins[str(seat)] >= 20, wins


def test_the_greedy_agent_weighs_itself_against_the_strongest_other_seat():
    rules = load_ruleset((), str(THREE))
    game = rules.new_game(seed=2)
    agent = GreedyAgent(0)
    assert len(set(game.state.coins)) == 1  # every seat as strong: seat 0 is measured against either
    before = agent.evaluate(game, 0)
    game.state.coins[2] += 20  # seat 2 pulls ahead: seat 0's position is worse by as much
    assert agent.evaluate(game, 0) == pytest.approx(before - 20)
    game.state.coins[1] += 5   # seat 1, still behind seat 2, does not count
    assert agent.evaluate(game, 0) == pytest.approx(before - 20)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_observations_hide_every_other_seats_hand(ranged, players):
    game = load_ruleset((), str(ranged), players).new_game(seed=3)
    hands = [game.items_in("hand", p) for p in range(players)]
    assert all(len(h) == 1 for h in hands)
    rng = random.Random(players)
    for turn in range(3):  # also after a few moves: the hands stay where they are
        for me in range(players):
            o = observe(game, me)
            assert o["zones"]["hand"] == {str(p): hands[p] if p == me else 1 for p in range(players)}
            text = json.dumps(o)
            assert all(hands[p][0] not in text for p in range(players) if p != me)
        if game.over:
            break
        game.apply(game.random_action(rng))
    with pytest.raises(UnknownName):
        observe(game, players)


def test_observations_show_the_legal_actions_only_to_the_seat_to_move(ranged):
    game = load_ruleset((), str(ranged), 3).new_game(seed=3)
    mover = game.to_move()
    for me in range(3):
        o = observe(game, me)
        assert (o["legal_actions"] != []) == (me == mover)


def test_make_agent_at_any_seat_count(ranged):
    rules = load_ruleset((), str(ranged), 5)
    game = rules.new_game(seed=0)
    for name in ("random", "greedy"):
        action = make_agent(name, 1).act(game)
        assert action in game.legal_actions()


# -- simultaneous rounds (tests/data/hands: `turns simultaneous`, a private hand per seat) --------

HANDS = Path(__file__).resolve().parent / "data" / "hands"


@pytest.fixture(scope="module", params=[3, 4])
def hands_rules(request):
    return load_ruleset((), str(HANDS), request.param)


def test_simulate_and_the_greedy_agent_play_simultaneous_rounds(hands_rules):
    n = hands_rules.content.players
    result = simulate(hands_rules, 20, seed=4, agents=["greedy"] + ["random"] * (n - 1))
    assert sum(result["wins"].values()) == 20 and set(result["mean_score"]) == {str(p) for p in range(n)}


def test_the_greedy_agent_scores_its_choice_after_the_round_resolves(hands_rules):
    game = hands_rules.new_game(seed=2)
    n = game.content.players
    assert game.to_act() == list(range(n))
    rng = random.Random(0)
    game.apply(game.random_action(rng))   # seat 0 chooses; the round waits for the others
    me = game.to_move()
    assert me == 1 and game.to_act() == list(range(1, n))
    build = next(a for a in game.legal_actions() if a.name == "build")
    trial = game.clone()
    trial._apply(build)
    assert build.args[0] not in trial.items_in("city", me)   # chosen, not yet done
    GreedyAgent(0).finish_round(trial, me)
    assert me in trial.to_act() or trial.over                 # the round has resolved
    assert build.args[0] in trial.items_in("city", me)
    assert game.to_act() == list(range(1, n))                 # the game itself is as it was


def _round_decisions(players: int, seeds: int):
    """(game, me, the agent's first choices of the others) at every decision of a round of
    seeded classic games played at random."""
    rules = load_ruleset((), "classic", players)
    agent = GreedyAgent(0)
    for seed in range(seeds):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            if game.state.flow == "round":
                me = game.to_move()
                yield game, me, agent.first_choices(game, me)
            game._apply(game.random_action(rng))


def _me_first(game, me: int, action, agent: GreedyAgent, firsts) -> object:
    """A copy on which `me` chose `action` first and the others their first choices after it."""
    trial = game.clone()
    trial.state.choices = [c if p == me else None for p, c in enumerate(trial.state.choices)]
    trial._apply(action, me)
    agent.finish_round(trial, me, firsts)
    return trial


@pytest.mark.parametrize("players", [3, 5, 7])
def test_the_greedy_agents_other_seats_choose_on_every_copy_what_it_found_once(players):
    # `first_choices` works out once per decision what `finish_round` lets the other seats
    # choose on each copy: on every copy, after each action of `me`, with the others' real
    # choices forgotten, each of them has that same first legal action when its turn to choose
    # comes.
    compared = 0
    for game, me, firsts in _round_decisions(players, 3):
        # (the prices worked out for them on a copy, which the game keeps too, are its own)
        compared += kept_prices_hold(game) > 0
        for action in game.legal_actions()[:4]:
            trial = game.clone()
            trial.state.choices = [c if p == me else None for p, c in enumerate(trial.state.choices)]
            trial._apply(action, me)
            while trial.state.flow == "round" and me not in trial.to_act():
                seat = trial.to_move()
                first = trial.first_legal_action()
                action, (act, binding, pay, pools) = firsts[seat]
                assert first == action
                # (and in numbers, as the copy would decode it when the round resolves)
                assert legality.decode(trial, first, seat) == (act, binding, pay)
                assert pools == legality.pools_of(trial, act, seat)
                compared += 1
                trial._apply(first)
    assert compared > 100


@pytest.mark.parametrize("players", [3, 5, 7])
def test_the_greedy_agent_tries_each_action_after_the_others_chose_once_as_if_it_chose_first(players):
    # `others_chosen` has the other seats choose their first legal actions once per decision,
    # and each action of `me` completes the round on a copy of that (`tried_in_round`): the
    # same state, history in seat order included, as `me` choosing first on a copy and the
    # others after it.
    from state_traces import canonical
    agent = GreedyAgent(0)
    compared = 0
    for game, me, firsts in _round_decisions(players, 2):
        base, drawn = agent.others_chosen(game, me, firsts)
        for action in game.legal_actions()[:3]:
            plain = _me_first(game, me, action, agent, firsts)
            trial = agent.tried_in_round(base, drawn, action, me)
            assert canonical(trial.state) == canonical(plain.state)
            assert agent.evaluate(trial, me) == agent.evaluate(plain, me)
            compared += 1
    assert compared > 50


def test_observations_of_a_round_show_who_chose_but_only_my_own_choice(hands_rules):
    game = hands_rules.new_game(seed=5)
    n = game.content.players
    first = game.legal_actions(0)[0]
    game.apply(first, seat=0)
    for me in range(n):
        o = observe(game, me)
        assert o["to_act"] == list(range(1, n))
        assert o["round"]["acting"] == list(range(n)) and o["round"]["chosen"] == [0]
        assert o["round"]["mine"] == (str(first) if me == 0 else None)
        assert o["legal_actions"] == ([] if me == 0 else [str(a) for a in game.legal_actions(me)])
        assert o["legal_actions"] or me == 0


# -- the bundled classic game ---------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 7])
def test_classic_observations_hide_every_other_hand(players):
    game = load_ruleset((), "classic", players).new_game(seed=1)
    for me in range(players):
        o = observe(game, me)
        hands = o["zones"]["hand"]
        assert hands[str(me)] == game.items_in("hand", me) and len(hands[str(me)]) == 7
        assert all(hands[str(p)] == 7 for p in range(players) if p != me)
        assert o["legal_actions"] and o["to_act"] == list(range(players))


def test_the_greedy_agent_plays_classic():
    rules = load_ruleset((), "classic", 3)
    game = play_one(rules, 5, ["greedy", "random", "random"])
    assert game.over and len(game.state.coins) == 3
