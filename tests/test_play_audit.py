"""`rulesdsl play` as a person plays it: whole games on the plain screen driven through click's
CliRunner with typed input, and on the full screen through textual's pilot; what the screens
say checked against the game's own state."""

from __future__ import annotations

from click.testing import CliRunner

from rulesdsl.cli import cli


def run(args: list[str], typed: str):
    return CliRunner().invoke(cli, args, input=typed, catch_exceptions=False)


def test_a_shared_victory_names_every_winner_on_the_plain_screen_and_in_replay(tmp_path):
    # Duel, seed 119, the first action each time: the game ends level in points and coins.
    trace = tmp_path / "draw.json"
    played = run(["play", "--plain", "--seed", "119", "--save", str(trace)], "1\n" * 300)
    assert played.exit_code == 0
    assert "result: shared victory of players 0 and 1 (civilian); scores [40, 40]" in played.output
    assert "winner draw" not in played.output and "player None" not in played.output
    assert "== (game over)" in played.output
    replayed = run(["replay", str(trace)], "")
    assert replayed.exit_code == 0
    assert "actions replayed; shared victory of players 0 and 1 (civilian); scores [40, 40]" in replayed.output


def _actions(path) -> list:
    from rulesdsl.trace import load_trace
    return load_trace(path)["actions"]


def test_a_loaded_game_goes_on_with_the_agents_choosing_as_they_would_have(tmp_path):
    # The same typed moves, with and without a save and a --load after the first twelve: the
    # random agent's moves (and so the cards that come) are the same.
    whole, part, rest = tmp_path / "whole.json", tmp_path / "part.json", tmp_path / "rest.json"
    common = ["play", "--plain", "--agent", "random"]
    assert run([*common, "--seed", "11", "--save", str(whole)], "1\n" * 300).exit_code == 0
    assert run([*common, "--seed", "11", "--save", str(part)], "1\n" * 12 + "q\n").exit_code == 0
    assert 12 < len(_actions(part)) < len(_actions(whole))
    loaded = run([*common, "--load", str(part), "--save", str(rest)], "1\n" * 300)
    assert loaded.exit_code == 0
    assert _actions(rest) == _actions(whole)


def test_undo_then_the_same_move_again_brings_the_same_answers_from_the_agents():
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_session import Session
    session = Session(load_ruleset((), "classic", 3), 5, ["human", "random", "random"]).start()
    session.run_agents()
    for _ in range(3):
        session.play(session.game.legal_actions()[0])
    before = list(session.moves)
    assert session.undo(0)
    session.play(before[-3][1])
    assert session.moves == before


def test_classic_counters_show_by_their_label_on_both_screens():
    # The classic game's `victories` counter holds the points of the victory tokens (1, 3, 5
    # each): `victories 18` read as eighteen victories.
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_screen import board_text
    from rulesdsl.play_session import Session
    from rulesdsl.play_view import render_game
    session = Session(load_ruleset((), "classic", 3), 5, ["human", "greedy", "greedy"]).start()
    session.run_agents()
    while not session.game.over:
        session.play(session.game.legal_actions()[0])
    counters = session.game.state.counters
    assert max(counters["victories"]) > 6   # (more points than a seat has battles)
    plain = " ".join(render_game(session.game, 0, session.who).split())   # (lines wrap between words)
    full = board_text(session, 0).plain
    for p in range(3):
        assert f"defeats {counters['defeats'][p]}; military VP {counters['victories'][p]};" in plain
        assert f"defeats {counters['defeats'][p]}  military VP {counters['victories'][p]}" in full
    assert "victories" not in plain and "victories" not in full


def test_a_counters_label_is_checked_like_a_zones(tmp_path):
    folder = tmp_path / "fame"
    folder.mkdir()
    (folder / "fame.rules").write_text('expansion fame {\n    base classic\n    counter fame label=""\n'
                                       '    counter glory label="much  glory"\n}\n', encoding="utf-8")
    result = run(["check", str(folder), "--game", "classic"], "")
    assert result.exit_code == 1
    assert "fame.rules:3:24: error[E204]: `label=` is empty: it is how the play screens name the counter" \
        in result.output
    assert 'write it with single spaces: label="much glory"' in result.output


def test_coins_lying_on_a_card_are_shown_and_count_as_coins_one_has():
    # A Pantheon god puts coins on its card that its owner may spend: the screens showed the
    # treasury alone, and called a card those coins pay for "more than you have".
    import random
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_screen import board_text, offer_text
    from rulesdsl.play_session import Session
    from rulesdsl.play_view import render_game
    session = Session(load_ruleset(("pantheon",), "duel", None), 0, ["human", "greedy"]).start()
    session.run_agents()
    pick = random.Random(0)
    while not session.game.over:
        g = session.game
        actions = g.legal_actions()
        lying = g.available_coins(0) - g.state.coins[0]
        affordable = [g.name(i) for i in g.accessible() if not g.price(0, i)[2]
                      and g.state.coins[0] < g.price(0, i)[0] <= g.available_coins(0)] if g.state.pending is None else []
        if lying and affordable:
            break
        with_coins = [a for a in actions if "Astarte" in str(a)]   # (taken, then activated)
        session.play(with_coins[0] if with_coins else pick.choice(actions))
    assert not session.game.over
    g = session.game
    offer = offer_text(g, 0, g.legal_actions()).plain
    line = next(l for l in offer.splitlines() if l.strip().startswith(affordable[0] + " ("))
    assert "more than you have" not in line
    shown = f"{g.state.coins[0]} coin{'' if g.state.coins[0] == 1 else 's'} (+{lying} on Astarte)"
    assert f"player 0 (you): {shown}" in render_game(g, 0, session.who)
    assert f"p0 (you)  {shown}" in board_text(session, 0).plain


def test_the_plain_screen_explains_undoes_and_saves_as_the_full_screen_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    typed = "?\n? 2\n? 99\ne Lumber\ne Piraeus\ne \"Lumber Yard\"\nu\ns\n1\nu\nu\n1\nq\n"
    result = run(["play", "--plain", "--seed", "3"], typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "type one of the numbers above (1 to 4); ? N explains action N" in out
    assert out.count("Piraeus (wonder, cards/duel/wonders.rules") == 2   # `? 2` and `e Piraeus`
    assert "nothing is named `Lumber`; did you mean `Lumber Yard`?" in out
    assert "Lumber Yard (card, cards/duel/age1.rules" in out   # (typed in quotes, as actions show names)
    first_undo = out.index("nothing to undo")          # (at the very start)
    assert "your last move is taken back" in out[first_undo:]
    assert out.count("nothing to undo") == 2           # (`u` twice in a row: the second finds none)
    assert "trace written to rulesdsl-play-3.trace.json" in out
    saved = run(["replay", str(tmp_path / "rulesdsl-play-3.trace.json")], "")
    assert saved.exit_code == 0 and "0 actions replayed" in saved.output
    # (a game left before its end: said so, where it read `winner None (None)`)
    assert "0 actions replayed; game not over; scores" in saved.output and "None" not in saved.output
    # The first choice was taken back and made again: the trace holds the game once.
    again = run(["play", "--plain", "--seed", "3", "--save", str(tmp_path / "g.json")], "1\nu\n1\nq\n")
    once = run(["play", "--plain", "--seed", "3", "--save", str(tmp_path / "h.json")], "1\nq\n")
    assert _actions(tmp_path / "g.json") == _actions(tmp_path / "h.json") and _actions(tmp_path / "g.json")
    assert "your last move is taken back" in again.output and once.exit_code == 0


def test_a_build_that_pays_neighbours_and_the_bank_shows_what_it_costs_on_the_plain_screen(tmp_path):
    # A card costing a coin and a resource bought from a neighbour: the plain screen showed no
    # price at all (the `pay=` part names only what goes to the neighbour).
    import shutil
    from pathlib import Path
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_session import Session
    from rulesdsl.play_view import plain_price, round_open
    folder = tmp_path / "hands"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "hands", folder)
    cards = folder / "cards.rules"
    cards.write_text(cards.read_text(encoding="utf-8").replace('"Post" { age 1; color red; copies 3 3 3 4; cost wood;',
                                                               '"Post" { age 1; color red; copies 3 3 3 4; cost 1 coin wood;'),
                     encoding="utf-8")
    session = Session(load_ruleset((), str(folder), 3), 4, ["human", "random", "random"]).start()
    session.run_agents()
    while True:
        g = session.game
        paying = [a for a in g.legal_actions() if a.args[0] == "Post" and a.args[-1].startswith("pay=")]
        if paying:
            break
        session.play(g.legal_actions()[-1])
    action = paying[0]
    assert plain_price(g, 0, action) == "(3 coins)"   # 1 to the bank, 2 to the neighbour
    trial = g.clone()
    before = trial.state.coins[0]
    trial.apply(action, 0)
    while round_open(trial):
        trial.apply(trial.legal_actions()[0], trial.to_move())
    assert before - trial.state.coins[0] == 3


def test_the_full_screens_save_goes_on_after_load_with_the_same_moves_coming(tmp_path):
    import asyncio
    import pytest
    pytest.importorskip("textual")
    from rulesdsl.cli import _resumed
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_screen import PlayApp
    from rulesdsl.play_session import Session
    from rulesdsl.trace import actions_of, load_trace, round_of
    rules = load_ruleset((), "classic", 3)
    session = Session(rules, 6, ["human", "random", "random"]).start()
    app = PlayApp(session, tmp_path / "saved.json")

    async def keys():
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            for key in ["enter", "enter", "s", "enter", "enter", "enter"]:
                await pilot.press(key)
                await pilot.pause()
            return app.status
    asyncio.run(keys())
    data = load_trace(tmp_path / "saved.json")
    loaded = Session(rules, data["seed"], ["human", "random", "random"]).start()
    _resumed(loaded, actions_of(data), round_of(data))
    loaded.run_agents()
    for _ in range(3):   # the three moves typed after the save, each the first on offer
        loaded.play(loaded.game.legal_actions(0)[0])
    assert loaded.moves == session.moves


def test_ctrl_c_stops_the_full_screen_as_it_stops_the_plain_one():
    """Textual 1.0 on leaves Ctrl-C to copying: the full screen went on, where every other
    command (and the plain screen) stops on it. It stops the game, whatever panel is up."""
    import asyncio
    import pytest
    pytest.importorskip("textual")
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.play_screen import INTERRUPTED, PlayApp
    from rulesdsl.play_session import Session

    def stopped_after(keys: list[str]) -> tuple[bool, int | None]:
        session = Session(load_ruleset((), "duel", None), 3, ["human", "random"]).start()
        app = PlayApp(session)

        async def press():
            async with app.run_test(size=(100, 40)) as pilot:
                await pilot.pause()
                for key in keys:
                    await pilot.press(key)
                    await pilot.pause()
                return app.is_running
        asyncio.run(press())
        return app.return_code == INTERRUPTED, len(session.moves)

    assert stopped_after(["ctrl+c"]) == (True, 0)
    assert stopped_after(["question_mark", "ctrl+c"])[0]     # with an explanation up
    assert stopped_after(["e", "ctrl+c"])[0]                 # while a name is typed
    assert stopped_after(["q"])[0] is False                  # `q` quits as before: no Ctrl-C
