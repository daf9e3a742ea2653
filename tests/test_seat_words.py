"""The seat words of the card language (docs/language.md, "Seats") at three seats, on the small
game in tests/data/three_seats: left is seat + 1, right seat - 1 (wrapping), neighbours both,
others every seat but mine, all every seat; `players` the count, `seat` the seat number."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.interpreter import load_ruleset
from rulesdsl.interpreter.state import Frame
from rulesdsl.interpreter import seats
from rulesdsl.explain_text import english
from rulesdsl.parser import parse_file
from rulesdsl.report import check_paths

THREE = Path(__file__).resolve().parent / "data" / "three_seats"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(base=str(THREE))


def item(game, name: str) -> int:
    return next(i for i, it in enumerate(game.content.items) if it.name == name)


def run_effect(game, name: str, me: int) -> list[int]:
    """Coins each seat gains when `me` runs the card's effect."""
    before = list(game.state.coins)
    game.trigger(me, item(game, name))
    game.run()
    return [after - b for after, b in zip(game.state.coins, before)]


def test_the_content_checks_clean():
    report = check_paths([THREE])
    assert not report.diagnostics, report.human()


@pytest.mark.parametrize("me", [0, 1, 2])
def test_players_and_seat_are_numbers(rules, me):
    game = rules.new_game(seed=1)
    assert game.content.players == 3
    gained = run_effect(game, "Seat Coins", me)
    assert gained == [me + 30 if p == me else 0 for p in range(3)]


@pytest.mark.parametrize("me, left, right", [(0, 1, 2), (1, 2, 0), (2, 0, 1)])
def test_left_and_right_are_the_next_and_previous_seats(rules, me, left, right):
    game = rules.new_game(seed=1)
    assert run_effect(game, "Left Coin", me) == [1 if p == left else 0 for p in range(3)]
    assert run_effect(game, "Right Coins", me) == [2 if p == right else 0 for p in range(3)]


def test_owner_words_count_several_seats(rules):
    game = rules.new_game(seed=1)
    city = next(z for z, zone in enumerate(game.content.zones) if zone.name == "city")
    # Seat 0 holds 1 card, seat 1 holds 2, seat 2 holds 3 (the six cards of the game).
    names = ["Seat Coins", "Left Coin", "Right Coins", "Neighbour Count", "Others Count", "All Count"]
    for k, name in enumerate(names):
        owner = 0 if k < 1 else 1 if k < 3 else 2
        game.relocate(item(game, name), game.zone_base[city] + owner)
    held = [1, 2, 3]

    def points(name: str, me: int) -> int:
        return sum(fn(game, Frame(0, 0, 0, me, {})) for fn, _ in game.content.items[item(game, name)].points)

    for me in range(3):
        assert points("Neighbour Count", me) == sum(held) - held[me]   # both neighbours at 3 seats
        assert points("Others Count", me) == sum(held) - held[me]
        assert points("All Count", me) == sum(held)


def test_seats_of_at_two_and_three_seats(rules):
    game = rules.new_game(seed=1)
    assert seats.seats_of(game, "neighbours", 0) == [1, 2]
    assert seats.seats_of(game, "others", 1) == [2, 0]
    assert seats.seats_of(game, "all", 2) == [0, 1, 2]
    duel = load_ruleset().new_game(seed=1)
    for me in (0, 1):
        other = 1 - me
        for word in ("left", "right", "neighbours", "others", "opponent"):
            assert seats.seats_of(duel, word, me) == [other], word


def test_a_trigger_by_others_hears_every_other_seat(rules):
    game = rules.new_game(seed=1)
    assert [seats.acts_as(game, "others", actor, 1) for actor in range(3)] == [True, False, True]
    assert [seats.acts_as(game, "left", actor, 1) for actor in range(3)] == [False, False, True]
    assert [seats.acts_as(game, "neighbours", actor, 1) for actor in range(3)] == [True, False, True]
    assert [seats.acts_as(game, "me", actor, 1) for actor in range(3)] == [False, True, False]


def test_a_multi_seat_word_where_one_player_is_needed_is_an_error(tmp_path):
    path = tmp_path / "cards.rules"
    path.write_text('card "Test Card" {\n    age 1\n    color yellow\n    gain 1 coin who=others\n}\n',
                    encoding="utf-8")
    report = check_paths([path])
    got = [(d.code, d.span.line, d.span.column) for d in report.diagnostics]
    assert got == [("E309", 4, 21)], report.human()
    assert "several players" in report.diagnostics[0].message


def test_opponent_is_an_error_at_three_seats_only(tmp_path):
    text = (THREE / "game.rules").read_text(encoding="utf-8")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.rules").write_text(text, encoding="utf-8")
    (folder / "cards.rules").write_text(
        (THREE / "cards.rules").read_text(encoding="utf-8").replace("who=left", "who=opponent"), encoding="utf-8")
    report = check_paths([folder])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E408", 10, 21)], report.human()
    assert "left" in report.diagnostics[0].help
    (folder / "game.rules").write_text(text.replace("players 3", "players 2"), encoding="utf-8")
    assert not check_paths([folder]).diagnostics
    # A range that reaches 3 seats: `opponent` is no more a player at its top than at 3.
    (folder / "game.rules").write_text(text.replace("players 3", "players 2 3"), encoding="utf-8")
    assert [d.code for d in check_paths([folder]).diagnostics] == ["E408"]


def test_the_conflict_track_and_shields_are_two_seat_constructs(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    text = (THREE / "game.rules").read_text(encoding="utf-8")
    (folder / "game.rules").write_text(text + "\ntrack conflict {\n    capital 9\n    points 0 2\n}\n",
                                       encoding="utf-8")
    (folder / "cards.rules").write_text((THREE / "cards.rules").read_text(encoding="utf-8") +
                                        'card "War" {\n    age 1\n    color brown\n    shields 1\n'
                                        '    points track_points\n}\n', encoding="utf-8")
    report = check_paths([folder])
    got = sorted((d.code, d.span.file.rsplit("/", 1)[-1], d.span.line) for d in report.diagnostics)
    assert got == [("E408", "cards.rules", 41), ("E408", "cards.rules", 42), ("E408", "game.rules", 44)], \
        report.human()
    assert all("modify shields" in d.help for d in report.diagnostics)
    (folder / "game.rules").write_text(text.replace("players 3", "players 2") +
                                       "\ntrack conflict {\n    capital 9\n    points 0 2\n}\n", encoding="utf-8")
    assert not [d for d in check_paths([folder]).diagnostics if d.code == "E408"]



@pytest.mark.parametrize("source, text", [
    ("gain 1 coin who=left", "Your left neighbour gains 1 coin"),
    ("gain 2 coins who=right", "Your right neighbour gains 2 coins"),
    ("points count(city, owner=neighbours)", "Worth 1 VP for each item in your neighbours' cities"),
    ("points count(tokens, owner=others)", "Worth 1 VP for each token of the other players"),
    ("when built by=others { gain 1 coin }", "When another player builds something: gain 1 coin"),
])
def test_explain_says_the_seat_words(source, text):
    tree, diags = parse_file("snippet.rules", f'card "X" {{\n{source}\n}}\n')
    assert tree is not None, diags
    assert english(tree.definitions[0].block.statements[0]) == text
