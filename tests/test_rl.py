"""rulesdsl.rl: the PettingZoo AEC environment, its parallel and single-agent wrappers, the
fixed action space and the observation vector (docs/rl.md)."""

from __future__ import annotations

import types
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

from rulesdsl import rl
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.rl import IllegalActionError
from rulesdsl.rl.render import render_text

HANDS = str(Path(__file__).resolve().parent / "data" / "hands")
CONFIGS = {
    "duel": ("duel", (), None),
    "duel-both": ("duel", ("pantheon", "agora"), None),
    "hands-3": (HANDS, (), 3),
    "hands-4": (HANDS, (), 4),
    "classic-3": ("classic", (), 3),
    "classic-7": ("classic", (), 7),
}


def make(config: str, **kwargs) -> rl.RulesEnv:
    game, expansions, players = CONFIGS[config]
    return rl.env(game, expansions, players, **kwargs)


def play_masked(env: rl.RulesEnv, seed: int, check=None) -> int:
    """One whole game with uniformly random unmasked numbers; `check(env)` before each step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


# -- PettingZoo's own tests ---------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_api_test(config):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # its advice (Box spaces, names) is not a failure
        api_test(make(config, seed=0), num_cycles=200)


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_seed_test(config):
    seed_test(lambda: make(config), num_cycles=200)


# PettingZoo's max_cycles_test counts on every seat acting once per cycle.  Duel starts with a
# draft in which one seat picks twice, and its builds may grant a second turn or ask the builder a
# decision, which its assertions cannot allow for; so Duel starts with the beginner wonders (no
# draft), from a game seed whose first cycles alternate (Duel with both expansions asks many
# decisions: 377 is such a seed).  The action spaces are seeded: the run is the same every time.
MAX_CYCLES_SEEDS = {"duel": 3, "duel-both": 377, "hands-3": 0, "hands-4": 0, "classic-3": 0, "classic-7": 0}


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_max_cycles_test(config):
    # The test samples numbers without masks: illegal="random" plays a random legal action instead.
    game, expansions, players = CONFIGS[config]
    options = ("beginner_wonders",) if game == "duel" else ()
    seed = MAX_CYCLES_SEEDS[config]
    mod = types.SimpleNamespace(
        env=lambda **kw: _seeded(rl.env(game, expansions, players, seed=seed, illegal="random",
                                        options=options, **kw)),
        parallel_env=lambda **kw: _seeded(rl.parallel_env(game, expansions, players, seed=seed, illegal="random",
                                                          options=options, **kw)))
    max_cycles_test(mod)


def _seeded(env):
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(k)
    return env


@pytest.mark.parametrize("config", CONFIGS)
def test_max_cycles_truncates_after_that_many_cycles(config):
    """In any game: a cycle ends when a seat would act a second time; max_cycles of them
    truncate the game, and a parallel step is one cycle."""
    for seed in range(3):
        env = make(config, max_cycles=5)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        in_cycle: list[str] = []
        cycles, ended = 0, False
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                if not ended and trunc:   # the agent selected would start the sixth cycle
                    assert not env.game.over and agent in in_cycle and cycles + 1 == 5
                ended = True
                env.step(None)
                continue
            if agent in in_cycle:
                cycles, in_cycle = cycles + 1, []
            in_cycle.append(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        # In Duel a step's later seats chose before its earlier ones played: illegal="random".
        par = rl.parallel_env(*CONFIGS[config], max_cycles=5, illegal="random")
        observations, _ = par.reset(seed=seed)
        steps = 0
        while par.agents:
            actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) if observations[a]["action_mask"].any()
                       else 0 for a in par.agents}
            observations, _, terms, truncs, _ = par.step(actions)
            steps += 1
        assert steps == 5 or par.aec.game.over


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_parallel_api_test(config):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(rl.parallel_env(*CONFIGS[config], seed=0, illegal="random"), num_cycles=200)


# -- the action space and the masks -------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_mask_is_exactly_the_legal_actions(config):
    env = make(config)

    def check(env, agent, obs):
        seat = env.seat_of[agent]
        legal = env.game.legal_actions(seat)
        numbered = env.legal_actions(agent)
        assert set(np.flatnonzero(obs["action_mask"])) == set(numbered)
        # Nothing left out (copies answering a choice are one number, as they are one action).
        assert sorted(map(str, numbered.values())) == sorted(set(map(str, legal)))
        for k, action in numbered.items():
            label = env.action_label(k)
            assert label.split(" [pay")[0] == str(action).split(" pay=")[0] or label.startswith("choose_option")
        for other in env.possible_agents:   # a seat that does not act has an empty mask
            if env.seat_of[other] not in env.game.to_act():
                assert not env.observe(other)["action_mask"].any()

    for seed in range(3):
        assert play_masked(env, seed, check) > 0
        assert env.dropped == 0
        assert not env.agents


def test_space_size_depends_on_content_only():
    a, b = make("hands-3"), make("hands-3")
    assert a.space.labels == b.space.labels
    # One more seat: one more choose_player answer, nothing else.
    assert make("hands-4").space.n == a.space.n + 1
    duel = make("duel")
    assert "wonder Sawmill Pyramids" in duel.space.labels
    assert "choose_player p1" in duel.space.labels


def test_parameters_take_the_items_that_can_reach_their_zone():
    from rulesdsl.rl.reach import reachable
    env = make("duel-both")
    content = env.content
    wonders = {it.name for it in content.items if it.kind == "wonder"}
    assert {args[1] for (name, args) in env.space.base if name == "wonder"} == wonders
    reach = reachable(content, ("pantheon", "agora"), "duel")
    assert {content.items[i].kind for i in reach[content.zone_index["wonders"]]} == {"wonder"}
    # Every card of the ages can reach the structure; no wonder can.
    structure = {content.items[i].kind for i in reach[-2]}
    assert "card" in structure and "wonder" not in structure
    classic = make("classic-3")
    hand = reachable(classic.content, (), "classic")[classic.content.zone_index["hand"]]
    assert {classic.content.items[i].kind for i in hand} == {"card"}


def test_payments_take_slots_cheapest_first():
    env = make("hands-3", pay_slots=2)
    seen = 0
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = env.legal_actions(agent)
            for k, action in legal.items():
                if action.args and action.args[-1].startswith("pay="):
                    slot = int(env.action_label(k).split("[pay ")[1][:-1])
                    first = k - slot
                    totals = [sum(c for _, c in _pay(legal[j])) for j in range(first, first + 2) if j in legal]
                    assert totals == sorted(totals)
                    seen += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen > 0


def _pay(action):
    from rulesdsl.interpreter.trade import parse_pay
    return parse_pay(action.args[-1]) if action.args and action.args[-1].startswith("pay=") else ()


# -- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("config", ["duel", "hands-3"])
def test_masked_action_raises_and_changes_nothing(config):
    env = make(config)
    env.reset(seed=1)
    if config == "hands-3":   # mid-round: seat 0 has chosen, seat 1 has not
        env.step(next(iter(env.legal_actions())))
    obs, *_ = env.last()
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before, agent = dumps(env.game.state), env.agent_selection
    for bad in (masked, -1, env.space.n, "build", 2.5, None):
        with pytest.raises(IllegalActionError) as info:
            env.step(bad)
        assert agent in str(info.value)
        assert dumps(env.game.state) == before and env.agent_selection == agent
    with pytest.raises(IllegalActionError, match=r"is not legal now \(masked\)"):
        env.step(masked)


def test_illegal_terminate_follows_pettingzoo():
    env = make("duel", illegal="terminate")
    env.reset(seed=1)
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert env.infos[offender] == {"illegal": True}


def test_bad_arguments_are_clear():
    with pytest.raises(ValueError, match="reward must be one of"):
        rl.env("duel", reward="points")
    with pytest.raises(ValueError, match="max_cycles"):
        rl.env("duel", max_cycles=0)


def test_play_with_an_action():
    env = make("duel")
    env.reset(seed=2)
    action = next(iter(env.legal_actions().values()))
    env.play(action)
    assert env.game.state.history[-1] == [action.name, *action.args]
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.play(rl.aec.Action("build", ("Nowhere",)))


# -- what a seat sees ---------------------------------------------------------------------------

@pytest.mark.parametrize("config", ["hands-3", "hands-4"])
def test_a_choice_in_a_round_is_not_shown_to_the_others(config):
    env = make(config)
    env.reset(seed=4)
    assert env.agent_selection == "player_0"
    watchers = env.possible_agents[1:]
    before = {a: env.observe(a)["observation"].copy() for a in watchers}
    views = {a: env.view(a) for a in watchers}
    env.step(next(iter(env.legal_actions())))
    assert env.agent_selection == "player_1"
    at, size = env.encoder.sections["acting"]
    seats = len(env.possible_agents)
    # Per seat [to act, acting in the round, has chosen]: seat 0 has chosen, the others not yet.
    shown = [0.0, 1.0, 1.0] + [1.0, 1.0, 0.0] * (seats - 1)
    for a in watchers:
        now = env.observe(a)["observation"]
        assert list(now[at:at + size]) == shown
        assert np.array_equal(np.delete(now, range(at, at + size)), np.delete(before[a], range(at, at + size)))
        view = env.view(a)
        # Who has chosen shows, as at a table; what seat 0 chose does not.
        assert view["round"]["chosen"] == [0] and view["round"]["mine"] is None
        moving = ("to_move", "to_act", "legal_actions", "round")
        assert {k: v for k, v in view.items() if k not in moving} == \
            {k: v for k, v in views[a].items() if k not in moving}


def test_observation_hides_other_hands():
    env = make("hands-3")
    env.reset(seed=0)
    enc = env.encoder
    game = env.game
    hand = game.content.zone_index["hand"]
    at, _ = enc.sections["items"]
    for me in range(3):
        v = env.encoder.encode(game, me)
        for p in range(3):
            for item in game.state.zones[game.slot(hand, p)]:
                row = v[at + item * enc.width: at + (item + 1) * enc.width]
                assert row.any() == (p == me)
        seats_at, _ = enc.sections["seats"]
        width = 2 + len(enc.counters) + len(enc.private)
        assert [v[seats_at + p * width + 2 + len(enc.counters)] for p in range(3)] == [3, 3, 3]  # hand sizes


def test_duel_face_down_cards_show_no_identity():
    env = make("duel")
    env.reset(seed=0)
    env.step(next(iter(env.legal_actions())))   # the draft: play on into age 1
    for _ in range(8):
        env.step(next(iter(env.legal_actions())))
    game = env.game
    assert game.state.structure and not all(game.state.face_up)
    v = env.encoder.encode(game, 0)
    at, _ = env.encoder.sections["items"]
    for slot, item in enumerate(game.state.structure):
        if item >= 0 and not game.state.face_up[slot]:
            assert not v[at + item * env.encoder.width: at + (item + 1) * env.encoder.width].any()


def test_dict_observations():
    env = make("duel-both", obs_type="dict")
    env.reset(seed=0)
    obs, *_ = env.last()
    assert obs["observation"]["player"] == 0 and "structure" in obs["observation"]
    assert env.observation_space("player_0").contains(obs)
    assert obs["action_mask"].sum() == len(env.legal_actions())


# -- rewards, determinism, render ---------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_rewards_at_the_end(config):
    env = make(config)
    rewards = {a: 0.0 for a in env.possible_agents}

    def check(env, agent, obs):
        assert all(r == 0 for r in env.rewards.values())

    play_masked(env, 5, check)
    env.reset(seed=5)   # replay to read the final rewards before the agents leave
    rng = np.random.default_rng(5)
    while not env.game.over:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rewards = dict(env._cumulative_rewards)
    winner = env.game.state.winner
    if winner is not None and winner >= 0:
        assert rewards[f"player_{winner}"] == 1.0
        assert sorted(rewards.values()) == [-1.0] * (len(rewards) - 1) + [1.0]
    else:
        assert set(rewards.values()) <= {0.0, -1.0} and 0.0 in rewards.values()


def test_score_difference_rewards():
    env = make("hands-4", reward="score")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not env.game.over:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    totals = env.scores()
    for p, agent in enumerate(env.possible_agents):
        assert env._cumulative_rewards[agent] == totals[p] - max(t for q, t in enumerate(totals) if q != p)


def test_same_seed_same_game():
    def history(seed):
        env = make("duel-both")
        play_masked(env, seed)
        return env.game.state.history

    assert history(7) == history(7)
    assert history(7) != history(8)


def test_render_text():
    env = make("hands-3", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "seat 0 (you)" in text and "hand:" in text and "hidden" in text


# -- the parallel and single-agent wrappers -----------------------------------------------------

def test_parallel_step_is_one_round():
    par = rl.parallel_env(*CONFIGS["hands-4"])
    observations, _ = par.reset(seed=3)
    rounds = 0
    while par.agents:
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in par.agents}
        turn = par.aec.game.state.turn
        observations, rewards, terms, truncs, _ = par.step(actions)
        rounds += 1
        assert par.aec.game.over or par.aec.game.state.turn > turn or par.aec.game.state.age > 0
    assert rounds == len(par.aec.game.state.history) // 4
    assert sum(1 for r in rewards.values() if r == 1.0) <= 1


def test_parallel_needs_every_acting_seat():
    par = rl.parallel_env(*CONFIGS["hands-3"])
    observations, _ = par.reset(seed=0)
    before = dumps(par.aec.game.state)
    with pytest.raises(ValueError, match="player_1 must act"):
        par.step({"player_0": int(np.flatnonzero(observations["player_0"]["action_mask"])[0])})
    assert dumps(par.aec.game.state) == before   # seat 0's action was not played either


def test_parallel_step_after_a_decision_ends_where_the_next_round_begins():
    # Classic, seed 5: a seat answers a decision (build from the discard pile) alone; the step
    # played it, went on into the next round and raised for the seats it had not asked.
    game, expansions, players = CONFIGS["classic-3"]
    par = rl.parallel_env(game, expansions, players)
    rng = np.random.default_rng(0)
    decisions = 0
    for seed in range(8):
        observations, _ = par.reset(seed=seed)
        while par.agents:
            asked = [a for a in par.agents if observations[a]["action_mask"].any()]
            decisions += par.aec.game.state.pending is not None
            actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in asked}
            # (as a PettingZoo loop gives every live agent a number: 0 where its mask is empty)
            actions.update({a: 0 for a in par.agents if a not in asked})
            observations, *_ = par.step(actions)
    assert decisions > 0


def test_parallel_refusal_plays_no_seat_of_the_round():
    # The last seat's masked number was refused after the others' choices were stored.
    par = rl.parallel_env(*CONFIGS["hands-3"])
    observations, _ = par.reset(seed=0)
    before = dumps(par.aec.game.state)
    actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in par.agents}
    actions["player_2"] = int(np.flatnonzero(observations["player_2"]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="player_2"):
        par.step(actions)
    assert dumps(par.aec.game.state) == before
    actions["player_2"] = int(np.flatnonzero(observations["player_2"]["action_mask"])[0])
    par.step(actions)                                  # the same round, played right
    assert len(par.aec.game.state.history) == 3


def test_a_random_action_for_an_illegal_one_is_marked_on_that_step_only():
    env = make("duel", illegal="random")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    marks = []
    for n, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        marks.append(bool(info.get("illegal")))
        mask = obs["action_mask"]
        env.step(int(np.flatnonzero(mask == 0)[0]) if n == 4 else int(rng.choice(np.flatnonzero(mask))))
    assert sum(marks) == 1 and marks.index(True) > 4   # (seen at that agent's next `last()`)


@pytest.mark.parametrize("config,opponent", [("duel", "greedy"), ("hands-3", "random")])
def test_single_agent_env(config, opponent):
    game, expansions, players = CONFIGS[config]
    single = rl.single_agent_env(game, expansions, players, seat=1, opponent=opponent)
    obs, _ = single.reset(seed=4)
    total, steps, done = 0.0, 0, False
    while not done:
        assert single.aec.agent_selection == "player_1"
        mask = single.action_masks()
        assert mask.any() and np.array_equal(mask, obs["action_mask"].astype(bool))
        obs, reward, term, trunc, _ = single.step(int(np.flatnonzero(mask)[0]))
        total += reward
        steps += 1
        done = term or trunc
    assert single.aec.game.over and steps > 0
    assert total in (-1.0, 0.0, 1.0)
    winner = single.aec.game.state.winner
    assert (total == 1.0) == (winner == 1)
    with pytest.raises(RuntimeError, match="reset"):
        single.step(0)


# -- the example and the documentation ----------------------------------------------------------

def test_example_loop_runs(capsys):
    import runpy
    example = runpy.run_path(str(Path(__file__).resolve().parent.parent / "examples" / "rl_loop.py"))
    returns = example["main"](HANDS, 2)
    assert sorted(returns.values()) in ([-1.0, -1.0, 1.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    out = capsys.readouterr().out
    assert "player_0 plays" in out and "steps; returns" in out


def test_doc_code_runs(monkeypatch):
    import re
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    blocks = re.findall(r"^```python\n(.*?)^```", (root / "docs" / "rl.md").read_text(encoding="utf-8"), re.S | re.M)
    assert blocks
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, "docs/rl.md", "exec"), namespace)
        assert namespace["env"].game.over


def test_doc_sizes_are_true():
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    for config in CONFIGS:
        assert f"{make(config).space.n:,}" in text


def test_vector_holds_coins_and_points():
    env = make("duel")
    play = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(30):
        obs, *_ = env.last()
        env.step(int(play.choice(np.flatnonzero(obs["action_mask"]))))
    enc, game = env.encoder, env.game
    v = enc.encode(game, 1)
    at, size = enc.sections["seats"]
    width = size // 2
    for p in range(2):
        assert v[at + p * width] == game.state.coins[p]
        assert v[at + p * width + 1] == sum(game.score(p).values())
    assert v[enc.sections["seat"][0] + 1] == 1.0 and v[enc.sections["seat"][0]] == 0.0


@pytest.mark.parametrize("config", ["duel", "hands-4"])
def test_single_agent_env_passes_gymnasium_check(config):
    from gymnasium.utils.env_checker import check_env
    game, expansions, players = CONFIGS[config]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # its advice on unbounded Box spaces is not a failure
        # check_env samples without the mask: illegal="random" plays a legal action for those.
        check_env(rl.single_agent_env(game, expansions, players, seat=1, illegal="random"), skip_render_check=True)


def test_numbers_and_games_do_not_depend_on_the_hash_seed():
    import subprocess
    import sys
    code = ("import hashlib, numpy as np; from rulesdsl import rl\n"
            "env = rl.env('duel', ('pantheon', 'agora'))\n"
            "env.reset(seed=3); rng = np.random.default_rng(3)\n"
            "for _ in range(60):\n"
            "    obs, *_ = env.last(); env.step(int(rng.choice(np.flatnonzero(obs['action_mask']))))\n"
            "obs, *_ = env.last()\n"
            "print(hashlib.sha256(repr((env.space.labels, env.game.state.history)).encode()"
            " + obs['observation'].tobytes() + obs['action_mask'].tobytes()).hexdigest())\n")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1


def test_arguments_the_environment_refuses_clearly():
    env = rl.env("classic", players=3)
    with pytest.raises(TypeError, match="the seed must be an integer"):
        env.reset(seed=1.5)   # (it played game 1)
    with pytest.raises(TypeError, match="the seed must be an integer"):
        env.reset(seed="1")
    env.reset(seed=np.int64(3))   # (numpy's integers are integers)
    first = dumps(env.game.state)
    env.reset(seed=3)
    assert dumps(env.game.state) == first
    with pytest.raises(ValueError, match="max_cycles must be an integer"):
        rl.env("duel", max_cycles="x")
    assert rl.env("duel", expansions="pantheon").content.layers == ["duel", "pantheon"]
    assert rl.env("duel", options="beginner_wonders").game_options == ("beginner_wonders",)
    par = rl.parallel_env("classic", players=3)
    par.reset(seed=1)
    with pytest.raises(ValueError, match="step takes a dict"):
        par.step(None)
    with pytest.raises(ValueError, match="no agent 'player_9'"):
        par.step({"player_9": 0})


def test_a_face_down_choice_in_a_zone_without_spaces_has_numbers(tmp_path):
    # A choice among items lying face down where no space numbers them: each is named by its
    # place among the zone's items (`stash of p0 #1 (face down)`); those places are numbered
    # too, for zones a statement puts items in face down (the mask was empty: the env stuck).
    import random
    import shutil
    folder = tmp_path / "duel_stash"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "duel", folder)
    game_rules = folder / "game.rules"
    game_rules.write_text(game_rules.read_text(encoding="utf-8").replace(
        "    zone box\n", "    zone box\n    zone stash player public\n", 1), encoding="utf-8")
    wonders = folder / "wonders.rules"
    wonders.write_text(wonders.read_text(encoding="utf-8").replace(
        "    cost 3 stone papyrus\n", "    cost 1 coin\n    deal 2 progress_deck stash face_down=true\n"
        "    choose 1 from stash { acquire chosen }\n    move_all stash progress_deck\n", 1), encoding="utf-8")
    env = rl.env(game=str(folder))
    found = 0
    for seed in range(60):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents and not env.game.over:
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            legal = env.game.legal_actions(env.seat_of[agent])
            if any("stash" in str(a) for a in legal):
                assert int(mask.sum()) == len(legal) == 2 and env.dropped == 0
                assert all(str(a).startswith("choose \"stash of p") for a in legal)
                found += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
        if found >= 2:
            break
    assert found


def test_points_that_read_a_hand_show_each_seat_only_its_own_total(tmp_path):
    # A designer's score counting the red cards in hand: before, every seat's vector held every
    # total, and so told the others what each hand held.
    folder = tmp_path / "secret"
    folder.mkdir()
    for f in Path(HANDS).iterdir():
        text = f.read_text(encoding="utf-8")
        if f.name == "game.rules":
            text = text.replace("    score coins coins // 3\n", "    score coins coins // 3\n"
                                "    score held 10 * count(hand, color=red)\n")
        (folder / f.name).write_text(text, encoding="utf-8")
    env = rl.env(str(folder), (), 3)
    env.reset(seed=0)
    game, enc = env.game, env.encoder
    assert not game.content.points_public
    totals = [game.total_score(p) for p in range(3)]
    assert any(totals), totals   # (some seat holds a red card: the test can tell)
    seats_at, _ = enc.sections["seats"]
    width = 2 + len(enc.counters) + len(enc.private)
    for me in range(3):
        v = enc.encode(game, me)
        assert [v[seats_at + p * width + 1] for p in range(3)] == [totals[p] if p == me else 0 for p in range(3)]
        shown = [line for line in render_text(game, me, game.content).splitlines() if line.startswith("seat ")]
        assert [line.endswith(" points") for line in shown] == [p == me for p in range(3)], shown
    # Without that score, each seat's total shows to every seat.
    env = make("hands-3")
    env.reset(seed=0)
    assert env.game.content.points_public
    v = env.encoder.encode(env.game, 0)
    assert [v[seats_at + p * width + 1] for p in range(3)] == [env.game.total_score(p) for p in range(3)]
