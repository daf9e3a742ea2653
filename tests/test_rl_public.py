"""The RL vector's layout-2 sections (`structure_backs`, `acting`, `end`) against
`interpreter.observation.observe`: each is worked out here from the seat's observation alone,
so the vector carries every one of those public facts and nothing the seat does not see."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rulesdsl import rl
from rulesdsl.interpreter.observation import observe

HANDS = str(Path(__file__).resolve().parent / "data" / "hands")
CONFIGS = {
    "duel": ("duel", (), None),
    "duel-pantheon": ("duel", ("pantheon",), None),
    "duel-agora": ("duel", ("agora",), None),
    "duel-both": ("duel", ("pantheon", "agora"), None),
    "classic-3": ("classic", (), 3),
    "classic-7": ("classic", (), 7),
    "hands-4": (HANDS, (), 4),
}


def section(env: rl.RulesEnv, vector: np.ndarray, name: str) -> list[float]:
    at, size = env.encoder.sections[name]
    return vector[at:at + size].tolist()


def expected(env: rl.RulesEnv, view: dict) -> dict[str, list[float]]:
    """The three sections as the observation `view` tells them."""
    enc, content = env.encoder, env.content
    n = len(env.possible_agents)
    decks = [content.zones[d].name for d in enc.structure_decks]
    backs = [0.0] * enc.sections["structure_backs"][1]
    for slot, entry in enumerate(view["structure"][:enc.slots]):
        if entry is not None and "back" in entry and entry["back"] in decks:
            backs[slot * len(decks) + decks.index(entry["back"])] = 1.0
    acting = [0.0] * 3 * n
    for p in view["to_act"]:
        acting[3 * p] = 1.0
    if view["round"] is not None:
        for p in view["round"]["acting"]:
            acting[3 * p + 1] = 1.0
        for p in view["round"]["chosen"]:
            acting[3 * p + 2] = 1.0
    end = [0.0] * (n + 1 + len(enc.victories))
    if view["over"]:
        end[n if view["winner"] == "draw" else view["winner"]] = 1.0
        end[n + 1 + enc.victories.index(view["victory"])] = 1.0
    return {"structure_backs": backs, "acting": acting, "end": end}


@pytest.mark.parametrize("config", CONFIGS)
def test_the_new_sections_are_the_observation_and_only_it(config):
    game, expansions, players = CONFIGS[config]
    env = rl.env(game, expansions, players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    backs_seen = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        for seat in range(len(env.possible_agents)):
            vector = env.encoder.encode(env.game, seat)
            want = expected(env, observe(env.game, seat))
            for name, numbers in want.items():
                assert section(env, vector, name) == numbers, (name, seat)
            backs_seen += sum(want["structure_backs"])
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.over
    assert (backs_seen > 0) == config.startswith("duel")   # (classic lays out no structure)


def test_layout_2_comes_after_layout_1():
    from rulesdsl.rl.encoding import LAYOUT
    env = rl.env("duel", ("pantheon", "agora"))
    names = list(env.encoder.sections)
    assert LAYOUT == 2
    assert names[names.index("backs") + 1:] == ["structure_backs", "acting", "end"]
    assert env.encoder.sections["end"][0] + env.encoder.sections["end"][1] == env.encoder.size


def test_the_structure_backs_name_each_deck_a_face_down_card_may_come_from():
    decks = {}
    for expansions in ((), ("pantheon",), ("agora",)):
        env = rl.env("duel", expansions)
        decks[expansions] = [env.content.zones[d].name for d in env.encoder.structure_decks]
        # (not the tokens dealt onto the structure's cards: those lie face up)
        assert env.encoder.sections["structure_backs"][1] == env.encoder.slots * len(decks[expansions])
    # The guilds (Pantheon: the Grand Temples; Agora: the senators too) have a back of their own.
    assert decks[()] == ["age1", "age2", "age3", "guilds"]
    assert decks[("pantheon",)] == ["age1", "age2", "age3", "temples"]
    assert decks[("agora",)] == ["age1", "age2", "age3", "guilds", "senators"]
    assert rl.env("classic", (), 3).encoder.sections["structure_backs"][1] == 0


def age_three(seed: int) -> rl.RulesEnv:
    env = rl.env("duel")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.game.state.age < 2:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    return env


def test_face_down_cards_of_one_back_swapped_show_the_same_vector():
    """Two face-down Age III cards (or two guilds) trade places: no seat's vector changes; a
    face-down guild traded with a face-down Age III card changes only `structure_backs`."""
    env = age_three(5)
    game = env.game
    st, items = game.state, game.content.items
    guilds = game.content.zone_index["guilds"]
    down = [slot for slot, item in enumerate(st.structure) if item >= 0 and not st.face_up[slot]]
    by_back: dict[bool, list[int]] = {}
    for slot in down:
        by_back.setdefault(items[st.structure[slot]].deck == guilds, []).append(slot)
    assert by_back.get(True) and len(by_back.get(False, ())) >= 2, "seed 5 lays a guild face down"
    before = [env.encoder.encode(game, p).copy() for p in range(2)]

    def swapped(a: int, b: int) -> list[np.ndarray]:
        other = game.clone()
        s = other.state
        s.structure[a], s.structure[b] = s.structure[b], s.structure[a]
        return [env.encoder.encode(other, p).copy() for p in range(2)]

    same = swapped(*by_back[False][:2])
    assert all(np.array_equal(x, y) for x, y in zip(before, same))
    mixed = swapped(by_back[True][0], by_back[False][0])
    at, size = env.encoder.sections["structure_backs"]
    for x, y in zip(before, mixed):
        assert not np.array_equal(x[at:at + size], y[at:at + size])
        assert np.array_equal(np.delete(x, range(at, at + size)), np.delete(y, range(at, at + size)))


def test_the_end_shows_the_winner_and_the_kind_of_victory():
    env = rl.env("duel")
    enc = env.encoder
    assert enc.victories == ("civilian", "military", "science")
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                end = section(env, obs["observation"], "end")
                st = env.game.state
                assert sum(end[:3]) == 1 and end[2 if st.winner == -1 else st.winner] == 1
                assert end[3 + enc.victories.index(st.victory)] == 1 and sum(end[3:]) == 1
                env.step(None)
                continue
            assert not any(section(env, obs["observation"], "end"))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("config", ["classic-3", "classic-7"])
def test_another_seats_hand_traded_with_a_deck_leaves_a_seats_vector_as_it_was(config):
    """What a seat cannot see (another seat's hand, a deck's cards) may change under it: its
    vector, every section, stays the same."""
    game_name, expansions, players = CONFIGS[config]
    env = rl.env(game_name, expansions, players)
    env.reset(seed=2)
    game = env.game
    hand = game.content.zone_index["hand"]
    deck = next(z.id for z in game.content.zones if z.name == "age3")
    before = env.encoder.encode(game, 0).copy()
    other = game.clone()
    st = other.state
    held, stacked = st.zones[other.slot(hand, 1)], st.zones[other.slot(deck, 0)]
    assert held and stacked
    a, b = held[0], stacked[0]
    held[0], stacked[0] = b, a
    st.loc[a], st.loc[b] = st.loc[b], st.loc[a]
    assert observe(other, 0) == observe(game, 0)
    assert np.array_equal(env.encoder.encode(other, 0), before)
    assert not np.array_equal(env.encoder.encode(other, 1), env.encoder.encode(game, 1))
