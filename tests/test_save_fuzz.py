"""Fuzzing saved states and traces: whatever a save or trace file holds (fields flipped, deleted,
retyped, the text cut short, a save of another card set), loading it either refuses it with the
documented exception (`SaveFileError`, `TraceError`, `IllegalAction`) or gives a game that plays
on to the end without an error."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.interpreter import IllegalAction, Game, load_ruleset, new_game
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.interpreter.persistence import ADDED_IN_3, ADDED_IN_4, ADDED_IN_5, SaveFileError, dumps
from rulesdsl.pipeline import load_game
from rulesdsl.trace import TraceError, replay, trace_of
from json_paths import edit_json, json_paths

FUZZ = settings(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAX_ACTIONS = 600  # a whole game is 60 to 120 actions


def _played(expansions: tuple[str, ...], seed: int, moves: int) -> Game:
    """A game `moves` actions in, stopped at a pending decision when one comes soon after."""
    game = new_game(expansions, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(moves):
        game.apply(agent.act(game))
    for _ in range(10):
        if game.state.pending is not None or game.over:
            break
        game.apply(agent.act(game))
    return game


GAMES = {
    "duel": _played((), 11, 25),
    "pantheon": _played(("pantheon",), 5, 40),
    "agora": _played(("agora",), 8, 40),
}
SAVES = {name: dumps(g.state) for name, g in GAMES.items()}
TRACES = {name: trace_of(g) for name, g in GAMES.items()}


def _plays_to_the_end(game: Game, seed: int = 0) -> None:
    agent = RandomAgent(seed)
    for _ in range(MAX_ACTIONS):
        if game.over:
            return
        game.apply(agent.act(game))
    raise AssertionError(f"not over after {MAX_ACTIONS} actions")


def _paths(value, path=()):
    return json_paths(value, path, first=8)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**66), 2**66) | st.integers(-3, 120) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["duel", "pantheon", "agora", "Baths", "choose", "turn", "/dev/zero"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6)


_edit = edit_json


def _edits(paths):
    return st.lists(st.tuples(st.sampled_from(paths), st.sampled_from(["set", "delete", "int", "int", "swap"]),
                              _json_values, st.integers(-3, 3)), min_size=1, max_size=3)


# -- saved states ----------------------------------------------------------------------------------

_SAVE_PATHS = {name: [p for p in _paths(json.loads(text)) if p] for name, text in SAVES.items()}


def _load_and_play(text: str | bytes, seed: int) -> None:
    """The property: refused with SaveFileError, or a game that plays on to the end."""
    try:
        game = load_game(text)
    except SaveFileError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    _plays_to_the_end(game, seed)


@FUZZ
@given(name=st.sampled_from(sorted(SAVES)), data=st.data(), seed=st.integers(0, 5))
def test_a_corrupted_save_is_refused_or_plays_on(name, data, seed):
    save = json.loads(SAVES[name])
    for path, how, value, delta in data.draw(_edits(_SAVE_PATHS[name])):
        _edit(save, path, how, value, delta)
    _load_and_play(json.dumps(save), seed)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(SAVES)), cut=st.floats(0, 1), seed=st.integers(0, 5))
def test_a_truncated_save_is_refused(name, cut, seed):
    text = SAVES[name].encode()
    _load_and_play(text[:int(len(text) * cut)], seed)


@pytest.mark.parametrize("saved", sorted(SAVES))
@pytest.mark.parametrize("loaded", sorted(SAVES))
def test_a_save_of_another_card_set_is_refused(saved, loaded):
    content = load_ruleset(GAMES[loaded].content.layers[1:]).content
    if saved == loaded:
        assert dumps(load_game(SAVES[saved], content).state) == SAVES[saved]
        return
    with pytest.raises(SaveFileError, match="other content"):
        load_game(SAVES[saved], content)
    # Relabelled as the other card set (its layers, its fingerprint): the items still do not fit.
    data = json.loads(SAVES[saved])
    data["state"]["layers"] = list(content.layers)
    data["state"]["fingerprint"] = content.fingerprint()
    with pytest.raises(SaveFileError):
        load_game(json.dumps(data))


def test_a_version_2_save_loads_with_no_round_under_way():
    data = json.loads(SAVES["pantheon"])
    data["version"] = 2
    for added in {**ADDED_IN_3, **ADDED_IN_4, **ADDED_IN_5}:   # a version 2 save has none of the fields added since
        del data["state"][added]
    game = load_game(json.dumps(data))
    assert game.legal_actions() == GAMES["pantheon"].legal_actions()
    data["state"]["counters"] = {}
    with pytest.raises(SaveFileError, match="version 2 save has no simultaneous rounds"):
        load_game(json.dumps(data))


def test_a_version_3_save_loads_with_no_next_starter_named():
    data = json.loads(SAVES["pantheon"])
    data["version"] = 3
    for added in {**ADDED_IN_4, **ADDED_IN_5}:
        del data["state"][added]
    game = load_game(json.dumps(data))
    assert game.legal_actions() == GAMES["pantheon"].legal_actions() and not game.state.starter_named
    data["state"]["starter_named"] = True
    with pytest.raises(SaveFileError, match="version 3 save names no next age's starter"):
        load_game(json.dumps(data))


def test_a_version_1_save_loads_and_is_checked_against_its_content():
    data = json.loads(SAVES["pantheon"])
    data["version"] = 1
    del data["state"]["fingerprint"]
    for added in {**ADDED_IN_3, **ADDED_IN_4, **ADDED_IN_5}:   # a version 1 save has none of the fields added since
        del data["state"][added]
    game = load_game(json.dumps(data))
    assert game.legal_actions() == GAMES["pantheon"].legal_actions()
    _plays_to_the_end(game)
    data["state"]["layers"] = ["duel"]        # another card set, and no fingerprint to tell
    with pytest.raises(SaveFileError, match="saved with duel, not duel"):
        load_game(json.dumps(data), GAMES["pantheon"].content)
    with pytest.raises(SaveFileError, match="items"):
        load_game(json.dumps(data))           # loads the base game it names: the items do not fit


# -- traces ----------------------------------------------------------------------------------------

_TRACE_PATHS = {name: [p for p in _paths(t) if p and p[0] != "final_state"] for name, t in TRACES.items()}


@pytest.mark.parametrize("name", sorted(TRACES))
def test_an_intact_trace_replays_to_its_end(name):
    game, diffs = replay(json.loads(json.dumps(TRACES[name])))
    assert diffs == [] and dumps(game.state) == dumps(GAMES[name].state)


@FUZZ
@given(name=st.sampled_from(sorted(TRACES)), data=st.data())
def test_a_corrupted_trace_is_refused_or_replays(name, data):
    trace = json.loads(json.dumps(TRACES[name]))
    for path, how, value, delta in data.draw(_edits(_TRACE_PATHS[name])):
        _edit(trace, path, how, value, delta)
    try:
        game, diffs = replay(trace)
    except (TraceError, IllegalAction) as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert isinstance(diffs, list)
    if trace == TRACES[name]:
        assert diffs == []
    _plays_to_the_end(game)


# -- files and states built in Python ------------------------------------------------------------

def test_load_file_reads_only_regular_files(tmp_path):
    import os

    from rulesdsl.interpreter.persistence import load_file
    path = tmp_path / "game.save"
    path.write_text(SAVES["duel"], encoding="utf-8")
    assert dumps(load_file(path)) == SAVES["duel"]
    with pytest.raises(SaveFileError, match="not a regular file"):
        load_file(tmp_path)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        with pytest.raises(SaveFileError, match="not a regular file"):
            load_file(tmp_path / "fifo")
    with pytest.raises(SaveFileError, match="cannot read"):
        load_file(tmp_path / "missing.save")


def test_a_state_built_in_python_is_checked_too():
    from rulesdsl.interpreter.persistence import copy_state
    game = GAMES["duel"]
    for change in (lambda s: setattr(s, "coins", ["7", "7"]), lambda s: setattr(s, "frames", [1]),
                   lambda s: s.loc.append(0), lambda s: setattr(s, "fingerprint", "0" * 32)):
        state = copy_state(game.state)
        change(state)
        with pytest.raises(SaveFileError):
            Game(game.content, state)
    with pytest.raises(SaveFileError):
        Game(game.content, None)
    assert Game(game.content, copy_state(game.state)).legal_actions() == game.legal_actions()
