"""Arguments the RL environment and the agents refuse clearly, and the masks of an episode that
has ended (docs/rl.md "Bad input", "Action space"; docs/agents.md)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rulesdsl import rl
from rulesdsl.interpreter import new_game
from rulesdsl.interpreter.agents import make_agent
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter.search import MCTSAgent
from rulesdsl.names import UnknownName


# -- the environment's constructor -----------------------------------------------------------------

@pytest.mark.parametrize("seed", [1.5, "abc", True, "1"])
def test_the_constructor_refuses_a_seed_that_is_not_an_integer(seed):
    """As `reset(seed=1.5)` does: the constructor took 1.5, "abc" and True silently."""
    with pytest.raises(TypeError, match=r"^the seed must be an integer, not "):
        rl.env("duel", seed=seed)
    with pytest.raises(TypeError, match="the seed must be an integer"):
        rl.parallel_env("duel", seed=seed)


def test_the_constructor_refuses_a_game_that_is_not_a_name_or_a_folder():
    """A loaded ruleset passed as the game was read as a file name, and the error was its whole
    text; an expansion given as a number failed inside the loader."""
    rules = new_game(seed=1)
    with pytest.raises(TypeError, match=r"^the base game is a name or a folder \(a string or a path\), not Game$"):
        rl.env(rules)
    with pytest.raises(TypeError, match=r"^an expansion is a name or a folder \(a string or a path\), not int$"):
        rl.parallel_env("duel", [3])


def test_the_constructor_takes_numpy_integers_as_their_value():
    games = []
    for seed in (np.int64(7), 7):
        env = rl.env("duel", seed=seed)
        env.reset()   # (the game the environment's generator names)
        games.append(dumps(env.game.state))
    assert games[0] == games[1]


@pytest.mark.parametrize("option, value", [
    ("pay_slots", "4"), ("pay_slots", 2.5), ("pay_slots", 0), ("pay_slots", True), ("pay_slots", None),
    ("option_slots", True), ("option_slots", "8"), ("option_slots", -1),
])
def test_slot_counts_must_be_integers_of_at_least_1(option, value):
    """pay_slots="4" gave "'<' not supported between instances of 'str' and 'int'"."""
    with pytest.raises(ValueError, match=rf"^{option} must be an integer of at least 1, not {value!r}$"):
        rl.env("classic", players=3, **{option: value})


def test_slot_counts_take_numpy_integers():
    assert rl.env("classic", players=3, pay_slots=np.int64(2)).space.pay_slots == 2


# -- action numbers ----------------------------------------------------------------------------------

def test_action_label_refuses_numbers_outside_the_space():
    """action_label(-1) gave the last number's label."""
    env = rl.env("duel")
    n = env.space.n
    for bad in (-1, -n, n, n + 5):
        with pytest.raises(ValueError, match=rf"^{bad} is not an action number \(0 to {n - 1}\)$"):
            env.action_label(bad)
    for bad in (1.5, "3", True, None):
        with pytest.raises(TypeError, match="the action number must be an integer"):
            env.action_label(bad)
    assert env.action_label(np.int64(n - 1)) == env.action_label(n - 1) == env.space.labels[-1]
    assert env.action_label(0) == env.space.labels[0]


# -- a finished agent's mask -------------------------------------------------------------------------

def _masks_after_end(env: rl.RulesEnv) -> list[int]:
    """Each remaining agent's mask total and legal numbers, through the dead steps to the end."""
    seen = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert term or trunc
        seen.append(int(obs["action_mask"].sum()) + len(env.legal_actions(agent)))
        for other in env.agents:
            seen.append(int(env.observe(other)["action_mask"].sum()) + len(env.legal_actions(other)))
        env.step(None)
    return seen


@pytest.mark.parametrize("obs_type", ["vector", "dict"])
def test_a_truncated_agent_has_an_empty_mask(obs_type):
    """After `max_cycles`, `last()` still marked legal numbers for the truncated agent."""
    env = rl.env("duel", max_cycles=2, obs_type=obs_type)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(env.truncations.values()) and not env.game.over
    assert set(_masks_after_end(env)) == {0}


def test_an_illegal_termination_leaves_every_mask_empty():
    env = rl.env("duel", illegal="terminate")
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and not env.game.over
    assert set(_masks_after_end(env)) == {0}
    env.reset(seed=1)   # (a new episode has masks again)
    assert env.last()[0]["action_mask"].sum() > 0 and env.legal_actions()


def test_a_truncated_parallel_step_shows_empty_masks():
    par = rl.parallel_env("classic", players=3, max_cycles=1)
    observations, _ = par.reset(seed=2)
    assert all(o["action_mask"].sum() > 0 for o in observations.values())
    rng = np.random.default_rng(2)
    actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
    observations, _, _, truncations, _ = par.step(actions)
    assert all(truncations.values()) and not par.aec.game.over
    assert all(o["action_mask"].sum() == 0 for o in observations.values())


def test_a_finished_single_agent_episode_has_an_empty_mask():
    # (seat 1 in Duel's wonder draft picks twice in a row: the cycle ends on its own turn)
    single = rl.single_agent_env("duel", max_cycles=1, seat=1)
    obs, _ = single.reset(seed=3)
    assert single.action_masks().any()
    obs, _, terminated, truncated, _ = single.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and not terminated and single.aec.agent_selection == single.agent
    assert obs["action_mask"].sum() == 0 and not single.action_masks().any()


# -- agents --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, kind, message", [
    ({"depth": 0}, ValueError, "depth must be an integer of at least 1, or None"),
    ({"depth": -1}, ValueError, "depth must be an integer of at least 1, or None"),
    ({"depth": 2.5}, TypeError, "depth must be an integer of at least 1, or None"),
    ({"depth": "3"}, TypeError, "depth must be an integer"),
    ({"depth": True}, TypeError, "depth must be an integer"),
    ({"iterations": True}, TypeError, "iterations must be an integer of at least 1, not True"),
    ({"iterations": 2.5}, TypeError, "iterations must be an integer of at least 1, not 2.5"),
    ({"iterations": "5"}, TypeError, "iterations must be an integer of at least 1, not '5'"),
    ({"iterations": 0}, ValueError, "iterations must be an integer of at least 1, not 0"),
    ({"exploration": "x"}, TypeError, "exploration must be a number of at least 0"),
    ({"exploration": -1.0}, ValueError, "exploration must be a number of at least 0"),
    ({"exploration": float("nan")}, ValueError, "exploration must be a number of at least 0"),
    ({"seed": None}, TypeError, "seed must be an integer, not None"),
    ({"seed": 1.5}, TypeError, "seed must be an integer, not 1.5"),
])
def test_search_options_are_checked_when_the_agent_is_made(options, kind, message):
    """depth=0, -1 or 2.5 and iterations=True were taken; iterations=2.5 failed only in `act`
    ("'float' object cannot be interpreted as an integer")."""
    with pytest.raises(kind, match=message):
        MCTSAgent(**{"iterations": 2, **options})


def test_search_options_take_integers_numpy_ones_too():
    game = new_game(seed=1)
    plain = MCTSAgent(3, iterations=4, depth=2)
    numpy = MCTSAgent(np.int64(3), iterations=np.int64(4), depth=np.int64(2))
    assert (numpy.seed, numpy.iterations, numpy.depth) == (3, 4, 2)
    assert type(numpy.seed) is int
    assert str(plain.act(game)) == str(numpy.act(game))


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
@pytest.mark.parametrize("seed", [None, 1.5, "x", True])
def test_make_agent_needs_an_integer_seed(name, seed):
    """make_agent("random", None) made an agent seeded from the system: not reproducible."""
    with pytest.raises(TypeError, match=rf"^the seed of agent '{name}' must be an integer, not {seed!r}$"):
        make_agent(name, seed)


@pytest.mark.parametrize("seed", [1.5, "x", True])
def test_the_agents_made_directly_need_an_integer_seed_too(seed):
    """`GreedyAgent("x")` and `RandomAgent(1.5)` seeded themselves silently, and `RandomAgent(rng=5)`
    failed at its first move."""
    from rulesdsl.interpreter.agents import GreedyAgent, RandomAgent

    for make in (GreedyAgent, RandomAgent, MCTSAgent):
        with pytest.raises(TypeError, match=rf"^seed must be an integer, not {seed!r}$"):
            make(seed)
    with pytest.raises(TypeError, match=r"^rng must be a random\.Random, not int$"):
        RandomAgent(rng=5)
    game = new_game(seed=2)
    assert str(RandomAgent(np.int64(4)).act(game)) == str(RandomAgent(4).act(game))


def test_make_agent_takes_numpy_integers_as_their_value():
    game = new_game(seed=2)
    for name in ("random", "greedy"):
        assert str(make_agent(name, np.int64(9)).act(game)) == str(make_agent(name, 9).act(game))
    with pytest.raises(UnknownName, match="unknown agent"):   # (the name is still checked first)
        make_agent("nope", None)


# -- seats ---------------------------------------------------------------------------------------------

def test_a_seat_given_as_a_string_is_said_to_need_an_int():
    """It read "unknown seat `0`; did you mean `0`?"."""
    game = new_game(seed=1)
    with pytest.raises(UnknownName, match=r"^unknown seat `'0'`: a seat is an int, not str; seats: 0, 1$") as info:
        game.legal_actions("0")
    assert "did you mean" not in str(info.value)
    with pytest.raises(UnknownName, match=r"^unknown seat `True`: a seat is an int, not bool; seats: 0, 1$"):
        game.score(True)
    with pytest.raises(UnknownName, match=r"^unknown seat `1.0`: a seat is an int, not float"):
        game.total_score(1.0)
    with pytest.raises(UnknownName, match=r"^unknown seat `2`; seats: 0, 1$"):   # (an int: as before)
        game.legal_actions(2)


@pytest.mark.parametrize("seat", [True, 2, -1, "0", 0.0])
def test_the_single_agent_seat_is_an_int_of_the_game(seat):
    # (True was taken as seat 1)
    with pytest.raises(ValueError, match="seat must be an int"):
        rl.single_agent_env("duel", seat=seat)


def test_items_taken_along_with_a_structure_card_have_action_numbers():
    # Tokens dealt onto structure cards reach their kind's build zone with the card taken (and
    # may be discarded with one): an action on them had no number, and a step raised KeyError.
    from pathlib import Path

    from test_rl import play_masked
    env = rl.env(str(Path(__file__).parent / "data" / "riders"))
    assert {"cash Bounty", "cash Prize"} <= set(env.space.labels)
    cashed = 0
    for seed in range(12):
        play_masked(env, seed)
        cashed += any(entry[0] == "cash" for entry in env.game.state.history)
    assert cashed


def test_an_agent_asked_to_move_in_a_finished_game_says_it_is_over():
    """The greedy agent failed on an empty range, the random one and `random_action` said "no
    legal action" (as content that leaves a seat stuck does), and any agent given something
    other than a game failed on an attribute."""
    import random

    from rulesdsl.interpreter import GameOver
    from rulesdsl.interpreter.playout import play_out

    game = new_game(seed=4)
    play_out(game, [make_agent("random", 1), make_agent("random", 2)])
    assert game.over and game.legal_actions() == []
    message = r"^the game is over: no seat has a move to make \(`game\.over` says so\)$"
    with pytest.raises(GameOver, match=message):
        game.random_action(random.Random(1))
    for name in ("random", "greedy", "mcts"):
        with pytest.raises(GameOver, match=message):
            make_agent(name, 1).act(game)
        with pytest.raises(TypeError, match=r"^an agent acts in a Game, not str$"):
            make_agent(name, 1).act("duel")
    assert issubclass(GameOver, ValueError)


def test_a_flag_is_no_action_number_and_a_finished_env_says_it_is_over():
    """`env.step(True)` played action 1; stepping after every agent was done was a bare KeyError
    (a bot author's audit)."""
    from rulesdsl.interpreter import GameOver
    env = rl.env(seed=2)
    env.reset(seed=2)
    before = dumps(env.unwrapped.game.state)
    with pytest.raises(rl.IllegalActionError, match="the action must be an action number, not True"):
        env.step(True)
    assert dumps(env.unwrapped.game.state) == before
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(GameOver, match="every agent is done: reset\\(\\) starts another"):
        env.step(None)


def test_a_numpy_integer_is_a_seed_as_its_value():
    """`new_game(seed=np.int64(3))` said the seed must be an integer in range, which it is."""
    game = new_game(seed=np.int64(3))
    assert type(game.state.seed) is int and dumps(game.state) == dumps(new_game(seed=3).state)
    with pytest.raises(ValueError, match="the seed must be an integer"):
        new_game(seed=True)


def test_the_single_agent_reset_takes_the_seeds_the_aec_environment_takes():
    """`single_agent_env(...).reset(seed=np.int64(4))` and `reset(seed=-5)` failed in
    gymnasium's own seeding ("Seed must be a python integer"), where the AEC environment and
    the docs take both; 1.5 is refused as there."""
    single = rl.single_agent_env("duel", seat=1)
    states = []
    for seed in (np.int64(4), 4):
        single.reset(seed=seed)
        states.append(dumps(single.aec.game.state))
    assert states[0] == states[1]
    first = single.reset(seed=-5)[0]["observation"]
    assert single.aec.game.state.seed == -5
    assert (single.reset(seed=-5)[0]["observation"] == first).all()
    with pytest.raises(TypeError, match=r"^the seed must be an integer, not 1\.5$"):
        single.reset(seed=1.5)


def test_apply_with_a_seat_that_is_not_an_int_says_a_seat_is_an_int():
    """`apply(action, seat=np.int64(1))` read "there is no seat np.int64(1) (seats 0 to 2)", as
    if seat 1 did not exist; the state is left as it was."""
    from rulesdsl.interpreter import IllegalAction
    game = new_game(base="classic", players=3, seed=1)
    action = game.legal_actions(1)[0]
    before = dumps(game.state)
    for seat, kind in ((np.int64(1), "int64"), ("1", "str"), (True, "bool")):
        with pytest.raises(IllegalAction, match=rf"is not a seat: a seat is an int, not {kind} \(seats 0 to 2\)$"):
            game.apply(action, seat=seat)
        assert game.explain_illegal(action, seat).endswith(f"a seat is an int, not {kind} (seats 0 to 2)")
    assert dumps(game.state) == before
    with pytest.raises(IllegalAction, match=r"there is no seat 3 \(seats 0 to 2\)$"):
        game.apply(action, seat=3)


def test_stepping_before_the_first_reset_says_to_reset():
    """It read "'RulesEnv' object has no attribute 'agents'" (or 'terminations', or
    'agent_selection'), from the AEC, parallel and single-agent environments alike."""
    env = rl.env("duel", seed=1)
    calls = [(env.step, (0,), "step()"), (env.play, (None,), "play()"), (env.last, (), "last()"),
             (env.agent_iter, (), "agent_iter()"), (env.legal_actions, (), "legal_actions()")]
    for call, args, what in calls:
        with pytest.raises(RuntimeError, match=rf"^reset\(\) must be called before {re.escape(what)}$"):
            call(*args)
    with pytest.raises(RuntimeError, match=r"^reset\(\) must be called before step\(\)$"):
        rl.parallel_env("classic", players=3).step({})
    with pytest.raises(RuntimeError, match=r"^reset\(\) must be called before step\(\)$"):
        rl.single_agent_env("duel").step(0)
    env.reset(seed=2)
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.game.state.history


@pytest.mark.parametrize("agent", ["player_5", 0, "", None, ["player_0"]])
def test_an_agent_the_environment_does_not_have_is_named_with_the_agents_it_has(agent):
    """`observe(0)` (a seat given for the agent's name) raised a bare KeyError: 0; a list, a
    TypeError on hashing it."""
    env = rl.env("duel", seed=1)
    env.reset(seed=1)
    calls = [env.observe, env.view, env.observation_space, env.action_space]
    if agent is not None:   # (legal_actions() without an agent: the agent to act)
        calls.append(env.legal_actions)
    for call in calls:
        with pytest.raises(rl.UnknownAgent, match=r"^no agent .* in this game: its agents are player_0, player_1$"):
            call(agent)
    with pytest.raises(KeyError):   # (still a KeyError, and a ValueError as the parallel env's step)
        env.observe(agent)
    with pytest.raises(ValueError):
        env.observe(agent)
    assert env.legal_actions() and env.observe("player_1")["action_mask"].sum() == 0


def test_the_parallel_step_refuses_a_round_seat_as_the_aec_step_does():
    """The parallel step's check of a simultaneous round said only "action 0 is not legal now",
    and "action 'x' is not legal now" of what is no number: docs/rl.md promises the number's
    label and some legal numbers, as the AEC step gives them."""
    par = rl.parallel_env("classic", players=4)
    observations, _ = par.reset(seed=2)
    before = dumps(par.aec.game.state)
    masked = int(np.flatnonzero(observations["player_0"]["action_mask"] == 0)[0])
    with pytest.raises(rl.IllegalActionError,
                       match=rf"^player_0: action {masked} \(.+\) is not legal now \(masked\); legal: \d+ \("):
        par.step({a: masked for a in par.agents})
    with pytest.raises(rl.IllegalActionError, match=r"^player_0: the action must be an action number, not 'x'$"):
        par.step({a: "x" for a in par.agents})
    assert dumps(par.aec.game.state) == before
