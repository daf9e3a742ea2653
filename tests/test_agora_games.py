"""Agora as pure data: whole random games (alone and with Pantheon), the expansion order does not
matter, and no Agora word anywhere in the engine's Python (interpreter/, rulesdsl/)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from agora_positions import SENATORS
from rulesdsl.interpreter import DRAW, Game, load_ruleset
from rulesdsl.interpreter.persistence import SaveFileError, dumps, loads
from rulesdsl.loader import CARDS_ROOT
from rulesdsl.report import check_paths

ROOT = Path(__file__).resolve().parent.parent
GAMES = 500
VICTORIES = {"civilian", "military", "science", "political"}

# Agora's own words, matched case-insensitively anywhere (so `senators`, `Conspiracy`, `political`
# are hits too).
PATTERN = re.compile(r"agora|senate|senator|decree|conspir|politic", re.IGNORECASE)


def check_senate(game, seed):
    st = game.state
    grid, supply, ctrl = st.cubes["senate"], st.supply["senate"], st.control["senate"]
    for p in (0, 1):
        assert sum(grid[p]) + supply[p] == 12 and supply[p] >= 0 and min(grid[p]) >= 0, seed
    for s in range(6):
        a, b = grid[0][s], grid[1][s]
        assert ctrl[s] == (0 if a > b else 1 if b > a else -1), (seed, s)
    assert len(game.items_in("decrees")) == 6, seed


def play_random_games(expansions):
    rules = load_ruleset(expansions)
    victories: Counter = Counter()
    used: Counter = Counter()
    for seed in range(GAMES):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.over:
            action = game.random_action(rng)
            used[action.name] += 1
            if action.name == "build" and action.args[0] in SENATORS:
                used["recruit"] += 1
            game.apply(action) if steps % 50 == 0 else game._apply(action)
            steps += 1
            assert steps < 3000, f"seed {seed}: the game does not end"
        st = game.state
        assert st.winner in (0, 1, DRAW), f"seed {seed}: no result"
        assert st.victory in VICTORIES, f"seed {seed}: {st.victory}"
        if st.victory == "civilian":
            totals = [sum(game.score(p).values()) for p in (0, 1)]
            if st.winner != DRAW:
                assert totals[st.winner] >= totals[1 - st.winner], seed
            else:
                assert totals[0] == totals[1], seed
        if st.victory == "political":
            assert all(c == st.winner for c in st.control["senate"]), seed
        check_senate(game, seed)
        victories[st.victory] += 1
    # The Agora parts were really played.
    assert used["prepare"] > 0 and used["conspire"] > 0 and used["recruit"] > 0
    assert victories["civilian"] > 0
    return victories, used


def test_500_random_agora_games_finish_with_a_result():
    play_random_games(["agora"])


def test_500_random_pantheon_and_agora_games_finish_with_a_result():
    _, used = play_random_games(["pantheon", "agora"])
    assert used["activate"] + used["open_gate"] + used["activate_with_offering"] + used["open_gate_with_offering"] > 0


def test_a_save_whose_senate_control_does_not_follow_its_cubes_is_refused():
    # Control is the strict majority of each chamber's cubes; a move recomputes only the
    # chambers it touches, so a save that disagrees would stay wrong: it is reported instead.
    rules = load_ruleset(["agora"])
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while not game.over and sum(map(sum, game.state.cubes["senate"])) < 3:
        game.apply(game.random_action(rng))
    assert not game.over
    text = dumps(game.state)
    assert Game(rules.content, loads(text)).state.control == game.state.control   # (as written, it loads)
    data = json.loads(text)
    control = data["state"]["control"]["senate"]
    space = next(s for s in range(6) if control[s] >= 0)
    control[space] = 1 - control[space]   # (the other seat: not the one with the most cubes)
    with pytest.raises(SaveFileError, match="control of senate"):
        Game(rules.content, loads(json.dumps(data)))


@pytest.mark.parametrize("expansions", [["agora"], ["pantheon", "agora"]])
def test_an_agora_game_saved_mid_way_continues_identically(expansions):
    rules = load_ruleset(expansions)
    for seed in range(8):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over and (game.state.age < 1 or sum(map(sum, game.state.cubes["senate"])) == 0):
            game.apply(game.random_action(rng))
        if game.over:
            continue
        copy = Game(rules.content, loads(dumps(game.state)))
        assert copy.state.cubes == game.state.cubes and copy.state.hidden == game.state.hidden
        assert copy.legal_actions() == game.legal_actions()
        twin = random.Random()
        twin.setstate(rng.getstate())
        while not game.over:
            game.apply(game.random_action(rng))
            copy.apply(copy.random_action(twin))
        assert copy.over and dumps(copy.state) == dumps(game.state)


def test_the_agora_content_checks_clean():
    for layers in ([CARDS_ROOT / "duel-agora"], [CARDS_ROOT / "duel-pantheon", CARDS_ROOT / "duel-agora"]):
        report = check_paths(layers)
        assert report.errors == 0 and report.warnings == 0, report.human()


def game_state(game) -> str:
    """The saved state without `layers` (the list of expansions as they were asked for)."""
    state = game.state
    layers = state.layers
    state.layers = []
    try:
        return dumps(state)
    finally:
        state.layers = layers


@pytest.mark.parametrize("options", [(), ("beginner_wonders",)])
def test_the_expansion_order_given_does_not_matter(options):
    a_rules = load_ruleset(["agora", "pantheon"])
    b_rules = load_ruleset(["pantheon", "agora"])
    assert [it.name for it in a_rules.content.items] == [it.name for it in b_rules.content.items]
    assert [x.name for x in a_rules.content.actions] == [x.name for x in b_rules.content.actions]
    for seed in range(12):
        a = a_rules.new_game(seed=seed, options=list(options))
        b = b_rules.new_game(seed=seed, options=list(options))
        rng = random.Random(1000 + seed)
        assert game_state(a) == game_state(b), seed
        steps = 0
        while not a.over:
            if steps % 7 == 0:
                assert a.legal_actions() == b.legal_actions(), (seed, steps)
            action = a.random_action(rng)
            a.apply(action)
            b.apply(action)
            steps += 1
            if steps % 25 == 0:
                assert game_state(a) == game_state(b), (seed, steps)
        assert b.over and game_state(a) == game_state(b), seed


def test_the_saved_state_is_identical_whatever_the_expansion_order():
    # Two identical games must save identically, `layers` included (it lists the content the
    # state was made with: the applied order, not the order a caller happened to type).
    a = load_ruleset(["agora", "pantheon"]).new_game(seed=4)
    b = load_ruleset(["pantheon", "agora"]).new_game(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        action = a.random_action(rng)
        a.apply(action)
        b.apply(action)
    assert a.state.layers == b.state.layers
    assert dumps(a.state) == dumps(b.state)


def test_no_agora_word_in_the_engine_code():
    hits = []
    for folder in ("interpreter", "rulesdsl"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if PATTERN.search(str(rel)):
                hits.append(f"{rel}: file name")
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                for m in PATTERN.finditer(line):
                    hits.append(f"{rel}:{n}: {m.group(0)!r} in {line.strip()[:100]}")
    assert hits == [], "\n".join(hits)
