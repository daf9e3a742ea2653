"""Trace files: every key is checked before use, so a corrupt or foreign trace gets one `error:`
line and exit 1 from `rulesdsl replay` and `rulesdsl verify --trace` (never a traceback or a
hang); `verify --trace` also compares the recorded end."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.interpreter import new_game
from rulesdsl.interpreter.actions import IllegalAction
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.trace import TraceError, load_trace, new_game_of, replay, trace_of, validate_trace

COMMANDS = [["replay"], ["verify", "--trace"]]


@pytest.fixture(scope="module")
def trace() -> dict:
    game = new_game(seed=3)
    agent = RandomAgent(3)
    for _ in range(30):
        game.apply(agent.act(game))
    return trace_of(game)


def run(*args) -> "object":
    return CliRunner().invoke(cli, [str(a) for a in args])


def _write(tmp_path: Path, data, name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _one_error_line(result) -> str:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    return errors[0]


# The corruptions of the issue: each a (key, value) replacing a field of a good trace.
BAD_FIELDS = {
    "seed null": ("seed", None, "seed"),
    "seed a string": ("seed", "3", "seed"),
    "seed a bool": ("seed", True, "seed"),
    "seed too large": ("seed", 2**80, "seed"),
    "expansions a number": ("expansions", 5, "expansions"),
    "expansions with a number": ("expansions", ["pantheon", 5], "expansions"),
    "base a list": ("base", ["duel"], "base"),
    "base empty": ("base", "", "base"),
    "an expansion as the base": ("base", "pantheon", "does not load"),
    "base a missing folder": ("base", "/no/such/folder", "does not load"),
    "base a device": ("base", "/dev/zero", "does not load"),
    "script a list": ("script", [1, 2], "script"),
    "script names an unknown zone": ("script", {"nowhere": ["Baths"]}, "nowhere"),
    "script names an unknown item": ("script", {"age1": ["Nope"]}, "Nope"),
    "options a string": ("options", "beginner_wonders", "options"),
    "final a list": ("final", [1], "final"),
    "final with a wrong type": ("final", {"coins": "7"}, "final.coins"),
    "final with an unknown key": ("final", {"cheat": 1}, "cheat"),
    "final_state a number": ("final_state", 5, "final_state"),
    "actions a dict": ("actions", {"a": 1}, "actions"),
    "an action with a number": ("actions", [["build", 5]], "action 1"),
    "an empty action": ("actions", [[]], "action 1"),
    "version 7": ("version", 7, "version"),
    "version a string": ("version", "2", "version"),
    "version 1": ("version", 1, "version 1"),
    "an unknown key": ("cheat", 1, "cheat"),
    "verify a list": ("verify", [1], "verify"),
}


@pytest.mark.parametrize("command", COMMANDS, ids=["replay", "verify"])
@pytest.mark.parametrize("name", sorted(BAD_FIELDS))
def test_a_bad_field_is_one_error_line(trace, tmp_path, command, name):
    key, value, said = BAD_FIELDS[name]
    path = _write(tmp_path, {**trace, key: value})
    line = _one_error_line(run(*command, path))
    assert said in line


@pytest.mark.parametrize("command", COMMANDS, ids=["replay", "verify"])
@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "null", '{"format": "other"}', "{" * 100_000])
def test_not_a_trace_is_one_error_line(tmp_path, command, text):
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    _one_error_line(run(*command, path))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("command", COMMANDS, ids=["replay", "verify"])
def test_a_fifo_is_refused_without_waiting(tmp_path, command):
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    assert "not a regular file" in _one_error_line(run(*command, fifo))


@pytest.mark.parametrize("command", COMMANDS, ids=["replay", "verify"])
def test_a_device_is_refused(command):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    assert "not a regular file" in _one_error_line(run(*command, "/dev/zero"))


def test_a_trace_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    import rulesdsl.trace as trace_module
    monkeypatch.setattr(trace_module, "MAX_TRACE_BYTES", 100)
    path = _write(tmp_path, {"format": "rulesdsl-trace", "actions": [["build", "x" * 200]]})
    with pytest.raises(TraceError, match="limit"):
        load_trace(path)


def test_verify_trace_compares_the_recorded_end(trace, tmp_path):
    good = _write(tmp_path, trace, "good.json")
    result = run("verify", "--trace", good)
    assert result.exit_code == 0 and "same end as recorded" in result.output, result.output
    tampered = _write(tmp_path, {**trace, "final": {**trace["final"], "coins": [99, 1]}}, "bad.json")
    for command in COMMANDS:
        result = run(*command, tampered)
        assert result.exit_code == 1 and "mismatch: coins: recorded [99, 1]" in result.output, result.output
    other_state = _write(tmp_path, {**trace, "final_state": "{}"}, "state.json")
    result = run("verify", "--trace", other_state)
    assert result.exit_code == 1 and "mismatch: the final state differs" in result.output


def test_a_hand_written_trace_needs_only_format_and_actions(trace):
    data = validate_trace({"format": "rulesdsl-trace", "actions": trace["actions"][:3]})
    assert (data["base"], data["expansions"], data["seed"], data["options"], data["script"], data["version"]) \
        == ("duel", [], 0, [], {}, 3)
    game, diffs = replay({"format": "rulesdsl-trace", "seed": 3, "actions": trace["actions"]})
    assert diffs == [] and game.state.history == trace["actions"]


def test_a_script_that_cannot_be_followed_is_a_trace_error(trace):
    # Baths is an item of the game, but never drawn from the progress tokens.
    with pytest.raises(TraceError, match="progress_deck"):
        replay({**trace, "script": {"progress_deck": ["Baths"]}})


@pytest.mark.parametrize("command", COMMANDS, ids=["replay", "verify"])
def test_a_base_folder_without_a_game_is_one_error_line(trace, tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "cards.rules").write_text('card "Test Card" {\n    age 1\n    color brown\n}\n', encoding="utf-8")
    path = _write(tmp_path, {**trace, "base": str(empty)})
    assert "no `game` definition" in _one_error_line(run(*command, path))


def test_a_round_saved_before_the_first_seat_chose_keeps_the_later_seats_choices(tmp_path):
    """Seats of a simultaneous round may choose in any order; a trace saved while seat 0 has
    not chosen keeps seat 2's choice (under `round`: the history takes it only after seat 0's
    and seat 1's) and replays to the same state (the audit found it lost)."""
    game = new_game(base="classic", players=3, seed=0)
    for _ in range(6):   # two rounds in, then seat 2 chooses first
        game.apply(RandomAgent(seed=3).act(game))
    game.apply(game.legal_actions(2)[-1], seat=2)
    data = trace_of(game)
    assert data["round"] == [[2, *game.state.choices[2]]]
    replayed, diffs = replay(json.loads(json.dumps(data)))
    assert diffs == [] and replayed.state.choices == game.state.choices
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    # ... and it plays on as the original does: seat 0 and seat 1 choose, the round resolves.
    for g in (game, replayed):
        for seat in (0, 1):
            g.apply(g.legal_actions(seat)[0], seat=seat)
    assert trace_of(replayed)["final_state"] == trace_of(game)["final_state"]
    assert "round" not in trace_of(game)


@pytest.mark.parametrize("bad", [{}, [[2]], [["2", "build", "X"]], [[-1, "build", "X"]], [[2, "build", 3]],
                                 [[1, "build", "X"], [1, "discard", "Y"]]])
def test_a_malformed_round_is_a_trace_error(bad):
    with pytest.raises(TraceError, match="round"):
        validate_trace({"format": "rulesdsl-trace", "actions": [], "round": bad})


def test_play_load_of_a_trace_saved_mid_round_keeps_the_round(tmp_path):
    """`play --load` applied a trace's actions only: a later seat's choice under `round` was lost
    (on the plain screen and the full one alike, `_resumed` and `Session.resume`)."""
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_session import Session
    from rulesdsl.trace import actions_of, round_of
    game = new_game(base="classic", players=3, seed=0)
    for _ in range(6):
        game.apply(RandomAgent(seed=3).act(game))
    game.apply(game.legal_actions(2)[-1], seat=2)
    path, again = tmp_path / "mid.json", tmp_path / "again.json"
    path.write_text(json.dumps(trace_of(game)))
    result = CliRunner().invoke(cli, ["play", "--load", str(path), "--plain", "--save", str(again)], input="q\n")
    assert result.exit_code == 0, result.output
    assert load_trace(again)["round"] == trace_of(game)["round"]
    assert load_trace(again)["final_state"] == trace_of(game)["final_state"]
    data = load_trace(path)
    session = Session(load_ruleset((), "classic", 3), 0, ["human", "greedy", "greedy"]).start()
    session.resume(actions_of(data), round_of(data))
    assert session.game.state.choices == game.state.choices


def test_verify_trace_of_a_trace_saved_mid_round_checks_the_round_and_the_same_end(tmp_path):
    game = new_game(base="classic", players=3, seed=0)
    for _ in range(6):
        game.apply(RandomAgent(seed=3).act(game))
    game.apply(game.legal_actions(2)[-1], seat=2)
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(trace_of(game)))
    result = CliRunner().invoke(cli, ["verify", "--trace", str(path)])
    assert result.exit_code == 0 and "same end as recorded" in result.output, result.output


# -- version 2 traces: written before a face-down option was named by its place ---------------------
# tests/data/traces_v2: two random games saved by rulesdsl at commit e53a959 (trace version 2),
# whose answers named a face-down decree (Agora's Insider Influence) and a face-down card of the
# structure (Pantheon's Zeus) by what they are; and the failure trace that commit's `rulesdsl
# verify -e pantheon --max-steps 5 --games 1` writes (a set-up that does not end in 5 steps).
V2 = Path(__file__).resolve().parent / "data" / "traces_v2"


def test_a_version_2_trace_is_read_with_its_face_down_answers_named_by_their_places():
    raw = json.loads((V2 / "agora_face_down_decree.json").read_text(encoding="utf-8"))
    assert raw["version"] == 2 and ["choose", "Decree: green discount"] in raw["actions"]
    data = validate_trace(raw)
    assert data["version"] == 3
    k = raw["actions"].index(["choose", "Decree: green discount"])
    assert data["actions"][k] == ["choose", "decrees 3 (face down)"]
    assert [a for i, a in enumerate(data["actions"]) if i != k] == [a for i, a in enumerate(raw["actions"]) if i != k]
    # The recorded end's history is named as version 3 names it, too.
    from rulesdsl.interpreter.persistence import loads
    assert loads(data["final_state"]).history == data["actions"]
    game, diffs = replay(raw)
    assert diffs == [] and game.over
    # Read as version 3 (the names kept), the answer is refused: it names what the chooser cannot see.
    with pytest.raises(IllegalAction, match="not one of the options"):
        replay({**raw, "version": 3})
    result = CliRunner().invoke(cli, ["replay", str(V2 / "agora_face_down_decree.json")])
    # (Duel's card files have changed since the trace was recorded: its end is compared by result)
    assert result.exit_code == 0 and "same end" in result.output


def test_a_trace_recorded_with_other_card_files_is_compared_by_its_result():
    # The card files changed since (Duel's, under Agora): the saved end state is laid out for the
    # old files, so the replay compares the winner, coins, pawn and scores.
    result = CliRunner().invoke(cli, ["replay", str(V2 / "agora_face_down_decree.json")])
    assert result.exit_code == 0, result.output
    assert "recorded with other card files" in result.output and "same end" in result.output
    raw = json.loads((V2 / "agora_face_down_decree.json").read_text(encoding="utf-8"))
    raw["final"]["scores"][0]["blue"] = 99
    game, diffs = replay(raw)
    assert diffs and diffs[0].startswith("scores: recorded")


def test_a_trace_whose_game_the_card_files_now_play_otherwise_stops_where_it_parts():
    # Recorded before Enki turned up by the Gate showed its two progress tokens (the rulebook's
    # reading, docs/rules-notes.md): the chance draws differ from there, and a later move no
    # longer fits.  The replay says where, and that the trace is of other card files.
    result = CliRunner().invoke(cli, ["replay", str(V2 / "pantheon_zeus_face_down.json")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error: action 77 of 96: illegal action build Observatory" in result.output
    assert "recorded with other card files" in result.output


def test_a_move_that_does_not_fit_is_told_to_come_from_other_card_files(tmp_path):
    raw = json.loads((V2 / "pantheon_zeus_face_down.json").read_text(encoding="utf-8"))
    raw["actions"][20] = ["build", "Palace"]                 # not legal there
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "error: action 21 of 96: illegal action build Palace" in result.output
    assert "recorded with other card files" in result.output
    # A trace of these very cards that goes wrong says nothing of the kind.
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.simulate import play_one
    raw = trace_of(play_one(load_ruleset((), "duel", None), 3, ["random", "random"]))
    raw["actions"][20] = ["build", "Palace"]
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and "other card files" not in result.output
    # It says where the trace stops fitting (before: only the action, not which one of the trace).
    assert f"error: action 21 of {len(raw['actions'])}: illegal action build Palace" in result.output


def test_a_script_whose_draw_cannot_happen_is_a_trace_error_at_its_action(tmp_path):
    import random
    g = new_game(base="duel", seed=3)
    rng = random.Random(0)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
    raw = trace_of(g)
    raw["script"] = {"age2": ["Lumber Yard"]}   # an Age I card: no Age II draw finds it
    with pytest.raises(TraceError, match=r"^action \d+ \(.*\): the action .*: scripted draw from age2: 'Lumber Yard' is not there"):
        replay(raw)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and "other card files" not in result.output, result.output


def _face_down_duel(tmp_path) -> str:
    """Duel whose Pyramids cost 1 coin and discard any card of the structure, face down or up."""
    import shutil
    folder = tmp_path / "duel_zeus"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "duel", folder)
    wonders = folder / "wonders.rules"
    wonders.write_text(wonders.read_text(encoding="utf-8").replace(
        "    cost 3 stone papyrus\n", "    cost 1 coin\n    choose 1 from structure_all { discard chosen }\n", 1),
        encoding="utf-8")
    return str(folder)


def _as_version_2(data: dict, base: str) -> tuple[dict, int]:
    """The trace as rulesdsl wrote it before version 3: each face-down answer by its item's name
    (replayed to find which item lay there), and how many such answers there were."""
    from rulesdsl.interpreter.actions import Action
    from rulesdsl.interpreter.decisions import FACE_DOWN, unseen_place
    game = new_game_of(validate_trace(data))
    old, named = [], 0
    for raw in data["actions"]:
        d = game.state.pending
        if raw[0] == "choose" and raw[1].endswith(FACE_DOWN):
            item = next(o for o in d.options if unseen_place(game, o) == raw[1])
            old.append(["choose", game.name(item)])
            named += 1
        else:
            old.append(list(raw))
        game.apply(Action(raw[0], tuple(raw[1:])))
    return {**data, "version": 2, "actions": old}, named


def test_a_version_2_trace_is_named_as_now_its_end_kept_and_its_then_too(tmp_path):
    from rulesdsl.interpreter.persistence import dumps, loads
    from rulesdsl.simulate import play_one
    from rulesdsl.pipeline import load_ruleset
    base = _face_down_duel(tmp_path)
    rules = load_ruleset((), base, 2)
    for seed in range(40):
        game = play_one(rules, seed, ["random", "random"])
        if any(len(a) > 1 and a[1].endswith("(face down)") for a in game.state.history):
            break
    data = {**trace_of(game), "base": base}
    v2, named = _as_version_2(data, base)
    assert named and v2["actions"] != data["actions"]
    # The end saved by version 2 named the history as its actions did.
    end = loads(data["final_state"])
    end.history = [list(a) for a in v2["actions"]]
    v2["final_state"] = dumps(end)
    assert validate_trace(v2)["actions"] == data["actions"]
    assert replay(v2)[1] == []                                  # the whole end compared, and the same
    # Cut short, its end is still compared (and differs): not dropped quietly.
    cut = {**v2, "actions": v2["actions"][:40]}
    cut.pop("final")
    assert replay(cut)[1] == [f"the final state differs from the recorded one (the recorded game has "
                              f"{len(v2['actions'])} actions, the replay 40; differing: age, attached"
                              + replay(cut)[1][0].split("differing: age, attached", 1)[1]]
    # A verify trace's `then`, read in the position the actions lead to.
    k = next(i for i, a in enumerate(data["actions"]) if a[1:] and a[1].endswith("(face down)"))
    probe = {**v2, "actions": v2["actions"][:k], "verify": {"then": v2["actions"][k]}}
    probe.pop("final_state"), probe.pop("final")
    assert validate_trace(probe)["verify"]["then"] == data["actions"][k]


def test_a_version_2_trace_whose_set_up_fails_is_an_error_line_not_a_traceback():
    result = CliRunner().invoke(cli, ["replay", str(V2 / "pantheon_setup_fails.json")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "error: the game's setup: its effects did not end within 5 steps" in result.output


def test_replay_names_the_action_an_edit_changed_and_what_else_differs(trace, tmp_path):
    """An action edited into another legal one was reported as "the final state differs", with
    nothing to say where: the recorded end holds its history, so the first action where the
    two part is named, and the parts of the state that differ."""
    from rulesdsl.interpreter import Action
    actions = trace["actions"]
    for k, entry in enumerate(actions):
        if entry[0] != "build":
            continue
        game = new_game(seed=trace["seed"])
        for earlier in actions[:k]:
            game.apply(Action(earlier[0], tuple(earlier[1:])))
        if Action("discard", tuple(entry[1:])) in game.legal_actions():
            break
    else:
        raise AssertionError("no build that could have been a discard")
    edited = {**trace, "actions": [*actions[:k], ["discard", *entry[1:]], *actions[k + 1:]]}
    edited.pop("final")
    try:
        diffs = replay(edited)[1]
    except IllegalAction:   # (a later action no longer legal: cut there, still compared)
        edited["actions"] = edited["actions"][:k + 1]
        diffs = replay(edited)[1]
    assert len(diffs) == 1
    assert diffs[0].startswith(f"the final state differs from the recorded one (action {k + 1}: recorded "
                               f"`{Action(*[entry[0], tuple(entry[1:])])}`, replayed "
                               f"`{Action('discard', tuple(entry[1:]))}`; differing: ")
    assert "coins" in diffs[0] or "zones" in diffs[0]
    path = _write(tmp_path, edited, "edited.json")
    result = run("replay", path)
    assert result.exit_code == 1 and f"(action {k + 1}: recorded" in result.output, result.output
    # A recorded end that is no state at all is still said to differ, with nothing more.
    assert replay({**edited, "final_state": "[1, 2]"})[1] == ["the final state differs from the recorded one"]



@pytest.mark.parametrize("command", COMMANDS)
def test_a_relative_folder_replayed_from_another_directory_says_where_to_replay_from(tmp_path, monkeypatch, command):
    """A trace keeps an expansion folder as it was given (`-e my-cards`); replayed from another
    directory it read only as an unknown bundled expansion, with no word of the folder.  (Each
    replay in a process of its own: a process compiles a set once, by the name given.)"""
    import subprocess
    import sys
    played = tmp_path / "played"
    (played / "my-cards").mkdir(parents=True)
    (played / "my-cards" / "cards.rules").write_text('card "Scratch Stall" { age 1; color yellow; gain 1 coin }\n')
    monkeypatch.chdir(played)
    game = new_game(["my-cards"], seed=3)
    for _ in range(5):
        game.apply(RandomAgent(3).act(game))
    path = _write(tmp_path, trace_of(game))
    assert json.loads(path.read_text())["expansions"] == ["my-cards"]

    def replayed(where: Path):
        return subprocess.run([sys.executable, "-m", "rulesdsl", *command, str(path)], cwd=where,
                              capture_output=True, text=True, timeout=120)

    assert replayed(played).returncode == 0
    elsewhere = replayed(tmp_path)
    assert elsewhere.returncode == 1 and len(elsewhere.stderr.splitlines()) == 1
    assert elsewhere.stderr.startswith("error: the content the trace names does not load: unknown expansion `my-cards`")
    assert elsewhere.stderr.rstrip().endswith(
        "nor is there a folder `my-cards` here (a trace names a folder as it was given, relative to the directory "
        "the game was played in: replay it from there)")
