"""Second design audit: `explain` saying a `move_all ... where=` moves everything, a first
tie-break calling the victory shared while a second one follows, and `rotate` on a shared zone
passing `check` (rulesdsl/explain_text.py, rulesdsl/checker.py)."""

from __future__ import annotations

from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.explain import explain
from rulesdsl.pipeline import Ruleset
from rulesdsl.report import check_paths

from card_folders import codes, folder


def card(effect: str) -> str:
    return f'card "Sweeper" {{\n    age 1\n    color yellow\n    {effect}\n}}\n'


# -- move_all ... where= -------------------------------------------------------------------------

def test_a_move_all_filtered_by_a_colour_names_the_colour(tmp_path):
    path = folder(tmp_path, 'expansion sweep {\n    title "Sweep"\n}\n'
                  + card("move_all discard box where=it.color == red"))
    out = CliRunner().invoke(cli, ["explain", "Sweeper", "-g", "classic", "-e", str(path)]).output
    assert "When built: move the red cards in the discard pile to the box." in out, out
    assert "everything" not in out


def test_a_move_all_filtered_otherwise_says_the_condition():
    game = explain("classic", Ruleset.load((), "classic", 3).content)
    assert "moves everything in the day boards" not in game and "move everything in the day boards to the box; move" in game
    # (inside `for each player: (...)` since the set-up's `chosen_boards` option)
    assert ("they move the boards in the day boards for which its value is the value of the first "
            "item in their board to the box") in game
    # (unfiltered, everything does move)
    assert "move everything in the night boards to the box" in game


# -- tiebreak_by and tiebreak ----------------------------------------------------------------------

TIE_GAME = """game tie {
    title "Tie"
    players 3 4
    turns simultaneous
    resources wood
    colors blue green
    item_kinds card
    zone hand player private
    zone city player active public
    zone discard public
    zone age1
    build_zone card city
    discard_pile discard
    age_ends when count(hand, owner=all) == 0
    score coins coins // 3
    %s
    %s
    after_round { rotate hand left }
}
age 1 { each_player { deal 2 age1 hand } }
action build {
    param card from hand
    build card
}
card "Leaf" { age 1; color green; copies 3 3 3 3 }
card "Sky" { age 1; color blue; copies 3 3 3 3; points 1 }
"""


def tie_lines(tmp_path, first: str, second: str) -> list[str]:
    path = tmp_path / "tie"
    path.mkdir(parents=True)
    (path / "game.rules").write_text(TIE_GAME % (first, second), encoding="utf-8")
    result = CliRunner().invoke(cli, ["explain", "game", "tie", "-g", str(path)])
    assert result.exit_code == 0, result.output
    return [x.strip() for x in result.output.splitlines() if "a tie" in x.lower()]


def test_both_tie_breaks_read_as_one_sequence(tmp_path):
    for first, second in (("tiebreak_by count(city, color=green)", "tiebreak blue"),
                          ("tiebreak blue", "tiebreak_by count(city, color=green)")):
        lines = tie_lines(tmp_path / first.split()[0], first, second)
        assert sorted(lines) == sorted([
            "A tie goes to the player with the highest number of green cards in their city; still tied, "
            "to the player with more VP from blue cards.",
            "If the number of green cards in their city is tied too, a tie goes to the player with more VP "
            "from blue cards; still tied, the victory is shared."]), lines


def test_one_tie_break_alone_ends_in_a_shared_victory(tmp_path):
    assert tie_lines(tmp_path, "tiebreak blue", "") == [
        "A tie goes to the player with more VP from blue cards; still tied, the victory is shared."]


# -- rotate on a zone that is not per seat --------------------------------------------------------

def test_rotate_on_a_shared_zone_is_E204_at_the_zone(tmp_path):
    file = tmp_path / "cards.rules"
    file.write_text(card("rotate discard left"), encoding="utf-8")
    human = check_paths([file]).human()
    assert f"{file}:4:12: error[E204]: zone `discard` is not a `player` zone" in human, human
    assert "4 |     rotate discard left" in human and "^^^^^^^" in human
    assert "help: `rotate` passes every seat's items of a `player` zone to a neighbour" in human


def test_rotate_on_a_shared_zone_of_a_game_fails_check(tmp_path):
    path = tmp_path / "g"
    path.mkdir()
    (path / "game.rules").write_text(
        TIE_GAME.replace('card "Sky"', 'card "Gust" { age 1; color blue; copies 3; rotate discard left }\n'
                                       'card "Sky"') % ("", ""), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "-g", str(path)])
    assert result.exit_code == 1 and "error[E204]: zone `discard` is not a `player` zone" in result.output, \
        result.output
    assert "`player` zones: city, hand" in result.output


def test_rotate_on_a_player_zone_is_legal(tmp_path):
    assert codes(tmp_path, card("rotate city left")) == []
