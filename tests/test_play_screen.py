"""The full-screen `rulesdsl play` (rulesdsl/play_screen.py), driven by keystrokes through
textual's Pilot: whole games against agents, the explanation panel, undo, saving, NO_COLOR and
a terminal too small."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.explain import explain
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.pipeline import load_ruleset
from rulesdsl.play_screen import Explanation, PlayApp, action_label, cost_text, screen_text
from rulesdsl.play_session import Session
from rulesdsl.trace import load_trace, replay

from bot_sources import MISBEHAVING

HANDS = str(Path(__file__).resolve().parent / "data" / "hands")
SIZE = (100, 40)


def hands_session(seed: int = 1, seat_agents=("human", "greedy", "random")) -> Session:
    return Session(load_ruleset((), HANDS, 3), seed, list(seat_agents)).start()


def duel_session(seed: int = 3) -> Session:
    return Session(load_ruleset((), "duel", None), seed, ["human", "greedy"], ("beginner_wonders",)).start()


def drive(app: PlayApp, keys, size=SIZE, check=None):
    """Run the app headless, press the keys, then call check(app, pilot) inside the run."""
    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            return await check(app, pilot) if check else None
    return asyncio.run(go())


def test_a_whole_hands_game_against_agents_by_keystrokes():
    session = hands_session()
    app = PlayApp(session)

    async def play_out(app, pilot):
        first = screen_text(app)
        for _ in range(40):   # 2 ages; each: 3 cards, 2 played, the last discarded
            if session.game.over:
                break
            await pilot.press("down", "enter")
            await pilot.pause()
        return first, screen_text(app)

    first, last = drive(app, [], check=play_out)
    assert session.game.over
    assert sum(1 for p, _ in session.moves if p == 0) == 4
    # The first screen: the hand on offer with prices, three cities with neighbours marked.
    assert "On offer to you" in first and "p1 (greedy, left neighbour)" in first
    assert "p2 (random, right neighbour)" in first and "hand: 3 hidden" in first
    assert "game over" in last and "scores" in last
    # The game the keys played replays from its seed.
    g = session.game
    data = {"format": "rulesdsl-trace", "base": g.state.layers[0], "players": 3, "seed": g.state.seed,
            "actions": [list(a) for a in g.state.history]}
    again, _ = replay(data)
    assert dumps(again.state) == dumps(g.state)


def test_duel_with_beginner_wonders_shows_the_structure_prices_and_plays_by_number():
    session = duel_session()
    assert session.game.state.options == ["beginner_wonders"]
    app = PlayApp(session)
    seen = {}

    async def look(app, pilot):
        seen["before"] = screen_text(app)
        actions = list(app.actions)
        await pilot.press("2", "enter")
        await pilot.pause()
        seen["chosen"] = actions[1]
        seen["after"] = screen_text(app)

    drive(app, [], check=look)
    before = seen["before"]
    assert "Conflict track" in before and re.search(r"#\d+ age1", before) and "On offer to you" in before
    assert re.search(r"\d+ coins?", before)
    assert session.moves[0] == (0, seen["chosen"])        # the key `2` played the second action
    assert f"p0 (human): {seen['chosen']}" in seen["after"]   # the last moves panel
    assert len(session.moves) == 2                          # and the agent answered


def test_question_mark_explains_the_highlighted_action():
    session = duel_session()
    app = PlayApp(session)

    async def ask(app, pilot):
        action = app.highlighted_action()
        await pilot.press("question_mark")
        await pilot.pause()
        shown = isinstance(app.screen, Explanation)
        text = screen_text(app)
        await pilot.press("u")   # the game's keys wait while the panel is up
        assert app.status == "" and isinstance(app.screen, Explanation)
        await pilot.press("escape")
        await pilot.pause()
        return action, shown, text, isinstance(app.screen, Explanation)

    action, shown, text, still = drive(app, [], check=ask)
    assert shown and not still
    first_line = explain(action.args[0], session.game.content).splitlines()[0]
    assert first_line in text
    assert session.moves == []   # explaining plays nothing


def test_undo_restores_the_state_before_the_last_own_move():
    session = hands_session(seed=2)
    before = dumps(session.game.state)
    app = PlayApp(session)

    async def undo(app, pilot):
        await pilot.press("enter")
        await pilot.pause()
        moved = dumps(session.game.state)
        await pilot.press("u")
        await pilot.pause()
        return moved, screen_text(app)

    moved, text = drive(app, [], check=undo)
    assert moved != before
    assert dumps(session.game.state) == before
    assert "taken back" in text


def test_s_saves_a_trace_that_replays(tmp_path):
    session = duel_session()
    path = tmp_path / "game.json"
    app = PlayApp(session, save_path=path)
    drive(app, ["enter", "s"])
    data = load_trace(path)
    assert data["options"] == ["beginner_wonders"] and len(data["actions"]) == 2
    game, diffs = replay(data)
    assert diffs == [] and dumps(game.state) == dumps(session.game.state)


def _colours(app) -> set[tuple[int, int, int]]:
    styled = screen_text(app, styles=True)
    return {tuple(map(int, m)) for m in re.findall(r"38;2;(\d+);(\d+);(\d+)", styled)}


def test_colour_by_default_none_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)

    async def colours(app, pilot):
        return app.no_color, _colours(app)

    no_color, seen = drive(PlayApp(duel_session()), [], check=colours)
    assert not no_color and any(len(set(c)) > 1 for c in seen)   # some colour
    monkeypatch.setenv("NO_COLOR", "1")
    no_color, seen = drive(PlayApp(duel_session()), [], check=colours)
    assert no_color and all(len(set(c)) == 1 for c in seen)     # greys only
    monkeypatch.delenv("NO_COLOR", raising=False)
    no_color, seen = drive(PlayApp(duel_session(), no_color=True), [], check=colours)   # --no-color
    assert no_color and all(len(set(c)) == 1 for c in seen)


def test_a_terminal_too_small_gets_a_message_and_plays_nothing():
    session = duel_session()
    app = PlayApp(session)

    async def small(app, pilot):
        return screen_text(app)

    text = drive(app, ["enter", "2", "enter"], size=(80, 24), check=small)
    assert "needs at least 100x40" in text and "80x24" in text
    assert "Structure" not in text
    assert session.moves == []


def test_the_cli_is_plain_when_the_output_is_not_a_terminal(tmp_path):
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "--agent", "random", "--seed", "5", "--option", "beginner_wonders",
                                      "--save", str(path)], input="1\n" * 300)
    assert result.exit_code == 0, result.output
    assert "your move:" in result.output   # the plain screen's prompt
    assert json.loads(path.read_text())["options"] == ["beginner_wonders"]


def test_an_unknown_option_is_a_usage_error():
    result = CliRunner().invoke(cli, ["play", "--option", "beginer_wonders", "--seed", "1"])
    assert result.exit_code == 2
    assert "beginner_wonders" in result.output   # the did-you-mean names it


def test_classic_shows_the_hand_with_payments_to_neighbours_and_compact_cities():
    session = Session(load_ruleset((), "classic", 5), 3, ["human", "greedy", "greedy", "greedy", "greedy"]).start()
    app = PlayApp(session)
    texts = []

    async def look(app, pilot):
        for _ in range(4):   # a few rounds: neighbours' cities fill, trades appear
            texts.append(screen_text(app))
            await pilot.press("enter")
            await pilot.pause()

    # (a terminal tall enough for five cities: on a short one the last neighbour scrolls out of
    # view as the cities fill, which depends on what the greedy seats build)
    drive(app, [], size=(SIZE[0], 60), check=look)
    assert all("p1 (greedy, left neighbour)" in t and "p4 (greedy, right neighbour)" in t for t in texts)
    assert all("hand: " in t for t in texts)          # the own hand, named
    assert len([p for p, _ in session.moves if p == 0]) == 4


def test_a_payment_to_neighbours_says_whom_it_pays():
    from rulesdsl.interpreter.agents import make_agent
    game = load_ruleset((), "classic", 3).new_game(seed=4)
    bot = make_agent("greedy", 1)
    for _ in range(60):
        paid = [a for a in game.legal_actions(game.to_move()) if a.args[-1:] and a.args[-1].startswith("pay=")]
        if paid:
            break
        game.apply(bot.act(game))
    assert paid, "no payment to a neighbour in 60 moves"
    for a in paid:
        text = cost_text(game, game.to_move(), a)
        sellers = re.findall(r"p(\d+):(\d+)", a.args[-1])
        assert all(f"{n} to p{p}" in text for p, n in sellers), (a, text)
        assert action_label(a) == " ".join([a.name, *a.args[:-1]])


def test_the_senate_of_agora_shows_cubes_and_control():
    session = Session(load_ruleset(("agora",), "duel", None), 3, ["human", "greedy"], ("beginner_wonders",)).start()
    app = PlayApp(session)

    async def look(app, pilot):
        return screen_text(app)

    text = drive(app, [], check=look)
    assert "cubes p0" in text and "cubes p1" in text and "control" in text


def test_load_goes_on_with_a_saved_game(tmp_path):
    path = tmp_path / "game.json"
    first = CliRunner().invoke(cli, ["play", "--agent", "greedy", "--seed", "5", "--option", "beginner_wonders",
                                     "--save", str(path)], input="1\n1\nq\n")
    assert first.exit_code == 0, first.output
    saved = load_trace(path)
    assert len(saved["actions"]) == 4
    again = tmp_path / "again.json"
    result = CliRunner().invoke(cli, ["play", "--load", str(path), "--save", str(again)], input="1\nq\n")
    assert result.exit_code == 0, result.output
    went_on = load_trace(again)
    assert went_on["actions"][:4] == saved["actions"] and len(went_on["actions"]) == 6
    assert went_on["options"] == ["beginner_wonders"] and went_on["seed"] == 5
    # On the full screen the loaded moves can be undone like any.
    from rulesdsl.trace import actions_of
    session = Session(load_ruleset((), "duel", None), 5, ["human", "greedy"], ("beginner_wonders",)).start()
    session.resume(actions_of(saved))
    assert [list(a) for a in session.game.state.history] == saved["actions"]
    assert session.undo() and len(session.moves) == 2


def test_load_refuses_a_bad_trace_and_mixed_flags(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rulesdsl-trace", "actions": [["build", "Nothing At All"]]}')
    result = CliRunner().invoke(cli, ["play", "--load", str(bad)], input="q\n")
    assert result.exit_code == 1 and "error: --load" in result.output
    result = CliRunner().invoke(cli, ["play", "--load", str(bad), "--seed", "3"])
    assert result.exit_code == 2 and "come from the trace" in result.output


def test_two_digits_choose_the_twelfth_action():
    session = duel_session()
    app = PlayApp(session)

    async def twelve(app, pilot):
        actions = list(app.actions)
        await pilot.press("1", "2")
        highlighted = app.query_one("#actions").highlighted
        await pilot.press("enter")
        await pilot.pause()
        return actions, highlighted

    actions, highlighted = drive(app, [], check=twelve)
    assert len(actions) >= 12 and highlighted == 11
    assert session.moves[0] == (0, actions[11])


def test_hot_seat_hides_the_board_until_the_next_player_is_ready():
    from rulesdsl.play_screen import Handover
    session = hands_session(seed=3, seat_agents=("human", "human", "greedy"))
    app = PlayApp(session)

    async def hand_over(app, pilot):
        seen = [isinstance(app.screen, Handover), app.session.viewer()]
        await pilot.press("enter")              # p0 is ready
        await pilot.pause()
        seen.append(isinstance(app.screen, Handover))
        await pilot.press("enter")              # p0 plays: p1's turn
        await pilot.pause()
        seen += [isinstance(app.screen, Handover), app.session.viewer(), screen_text(app)]
        return seen

    first, viewer0, after_ready, second, viewer1, text = drive(app, [], check=hand_over)
    assert first and viewer0 == 0 and not after_ready
    assert second and viewer1 == 1
    assert "p1 to play" in text and "On offer" not in text   # nothing of p1's hand shows yet
    assert [p for p, _ in session.moves] == [0]


def test_classic_at_seven_seats_lists_every_city_compactly():
    from rulesdsl.play_screen import board_text
    session = Session(load_ruleset((), "classic", 7), 2, ["human"] + ["random"] * 6).start()
    app = PlayApp(session)
    drive(app, ["enter", "enter"])
    assert [p for p, _ in session.moves].count(0) == 2
    board = board_text(session, 0).plain
    assert "p1 (random, left neighbour)" in board and "p6 (random, right neighbour)" in board
    assert all(f"p{p} (random)" in board for p in range(2, 6))
    # The others' cities are one line each, their cards grouped by colour (yours a line a colour).
    c = session.game.content
    cities = [session.game.items_in("city", p) for p in range(1, 7)]
    assert any(cities)
    for p, city in enumerate(cities, 1):
        if city:
            start = board.index(f"p{p} (random")
            line = next(l for l in board[start:].splitlines()[1:] if not l.startswith("  hand:"))
            for color in {c.items[c.item_index[n]].color for n in city}:
                names = ", ".join(n for n in city if c.items[c.item_index[n]].color == color)
                assert f"{color}: {names}" in line, (line, city)


def test_items_on_numbered_spaces_show_where_they_lie_face_down_or_not():
    import random
    from rulesdsl.play_screen import board_text
    session = Session(load_ruleset(("pantheon",), "duel", None), 3, ["human", "human"], ("beginner_wonders",)).start()
    g = session.game
    pick = random.Random(2)
    spaced = next(z for z in g.content.zones if z.spaces and not z.per_player)
    while not any(i in g.state.positions for i in g.state.zones[g.slot(spaced.id, 0)]):
        g.apply(pick.choice(g.legal_actions()))
    board = board_text(session, session.viewer()).plain
    for i in g.state.zones[g.slot(spaced.id, 0)]:
        if i in g.state.positions:
            shown = "face down" if i in g.state.hidden else g.name(i)
            assert re.search(rf"{re.escape(shown)}[^,\n]* on {g.state.positions[i]}", board)
        if i in g.state.hidden:
            assert g.name(i) not in board   # a face-down god's name never shows


def test_e_explains_any_name_typed_and_suggests_near_ones():
    session = duel_session()
    app = PlayApp(session)

    async def ask(app, pilot):
        texts = []
        for typed in ("Statue of Zeus", "Altr"):   # the game's keys (s, u, e) are letters of the name
            await pilot.press("e")
            await pilot.pause()
            await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in typed], "enter")
            await pilot.pause()
            texts.append(screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
        return texts

    known, typo = drive(app, [], check=ask)
    assert explain("Statue of Zeus", session.game.content).splitlines()[0] in known
    assert "nothing is named `Altr`" in typo and "Altar" in typo
    assert session.moves == [] and not app.status   # nothing undone, nothing saved


def test_the_screen_comes_back_when_the_terminal_is_enlarged():
    session = duel_session()
    app = PlayApp(session)

    async def grow(app, pilot):
        small = app.too_small
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        return small, app.too_small, screen_text(app)

    small, still_small, text = drive(app, [], size=(99, 40), check=grow)
    assert small and not still_small
    assert "Structure" in text and len(session.moves) == 2   # and it plays again


def test_without_textual_the_full_screen_is_one_error_line(monkeypatch, capsys):
    import sys
    from rulesdsl import cli as cli_module
    monkeypatch.setitem(sys.modules, "rulesdsl.play_screen", None)   # as if textual were not installed
    with pytest.raises(SystemExit) as exit_:
        cli_module._play_screen(load_ruleset((), "duel", None), 1, ["human", "greedy"], (), None, [], None, False,
                                1000)
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'rulesdsl[play]'" in err and "--plain" in err


def test_the_plain_prompt_takes_a_huge_number_or_a_superscript_as_a_wrong_answer(tmp_path):
    """`int` refuses `²` (a digit to `str.isdigit`) and numbers past 4,300 digits: both ended
    the game with a traceback at the plain prompt."""
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "--agent", "random", "--seed", "5", "--option", "beginner_wonders",
                                      "--save", str(path)], input="9" * 5000 + "\n²\n" + "1\n" * 300)
    assert result.exit_code == 0, result.output
    assert result.output.count("type one of the numbers above") >= 2
    assert "Traceback" not in result.output


def test_a_superscript_digit_key_is_not_a_number_on_the_screen():
    app = PlayApp(duel_session())
    app.actions = ["x"]

    class Key:
        character = "²"
        def stop(self):
            raise AssertionError("not handled as a digit")
    app.on_key(Key())   # (raised ValueError: int("²"))


def test_a_piece_placed_on_the_conflict_track_is_drawn_on_it():
    # Pantheon's Minerva places a pawn on a space of the track; the full screen draws the track
    # instead of listing its zone, so the piece must be drawn there (it was left out).
    from pantheon_positions import answer, pantheon_game
    from test_pantheon_gods import activate
    from rulesdsl.play_screen import track_text

    game = pantheon_game(age=2)
    assert "on the track" not in track_text(game).plain
    activate(game, "Minerva")
    answer(game, 3)
    lines = track_text(game).plain.splitlines()
    track = lines[1]
    cap = game.content.track.capital
    assert track[3 + cap + 3] == "X" and track[3 + cap] == "@"   # "p0 " then -cap..cap
    assert lines[-1].strip() == "on the track: Minerva pawn at +3"




def test_a_custom_agent_that_answers_an_illegal_action_ends_the_screen_with_an_error_line(tmp_path, monkeypatch,
                                                                                           capsys):
    from rulesdsl import cli as cli_module
    from rulesdsl.agents import AgentError
    name = f"screen_bots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(MISBEHAVING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    session = Session(load_ruleset((), "duel", None), 3, ["human", f"{name}:Illegal"], ("beginner_wonders",)).start()
    app = PlayApp(session)

    async def after(app, pilot):
        return app.failure, app.is_running

    failure, running = drive(app, ["enter"], check=after)
    assert isinstance(failure, AgentError) and not running
    assert str(failure).startswith(f"agent '{name}:Illegal' (seat 1) answered an illegal action fly away in the "
                                   "game of seed 3: ")
    assert len(session.moves) == 1   # (the human's move; the game as it was before the bot's answer)
    # What the command says once the screen is gone: one line, the game saved, exit 1.
    from rulesdsl import play_screen
    monkeypatch.setattr(play_screen, "run_screen", lambda *args: (_ for _ in ()).throw(failure))
    save = tmp_path / "kept.json"
    with pytest.raises(SystemExit) as exit_:
        cli_module._play_screen(load_ruleset((), "duel", None), 3, ["human", f"{name}:Illegal"], ("beginner_wonders",),
                                None, [], save, False, 1000)
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"error: {failure}"] and f"trace written to {save}" in out


def test_u_after_the_game_ended_takes_back_the_move_that_ended_it():
    # The screen stays up at the end (docs/cli.md): the last own move can still be taken back.
    session = hands_session()
    app = PlayApp(session)

    async def finish_then_undo(app, pilot):
        for _ in range(40):
            if session.game.over:
                break
            await pilot.press("down", "enter")
            await pilot.pause()
        assert session.game.over
        own = [i for i, (p, _) in enumerate(session.moves) if p == 0]
        ended = len(session.moves)
        await pilot.press("u")
        await pilot.pause()
        return own[-1], ended, screen_text(app)

    last_own, ended, after = drive(app, [], check=finish_then_undo)
    assert not session.game.over
    assert len(session.moves) == last_own < ended
    assert "your last move is taken back" in after
