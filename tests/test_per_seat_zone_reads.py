"""`first_empty(ZONE)` and `shuffle ZONE` of a zone each seat has read the zone of the seat running
them, as `first_in`, `take_top` and the zone verbs do.  Both read seat 0's, whoever ran them (a
long fuzz campaign of face-down places found the first: seat 1's second item went onto a space
already taken, its space 0 left empty; seat 1's `shuffle` shuffled seat 0's pile)."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.interpreter import Ruleset
from rulesdsl.report import check_layers

DUEL = Path(__file__).resolve().parent.parent / "cards" / "duel"
EXPANSION = """expansion spares {
    title "Spares"
    base duel
    zone spare player public spaces=4
}

extend age 1 {
    each_player { shuffle wonders }
    each_player { place first_in(wonders) spare space=first_empty(spare) }
    each_player { place first_in(wonders) spare space=first_empty(spare) face_down=true }
}
"""


def started(tmp_path: Path):
    folder = tmp_path / "spares"
    folder.mkdir()
    (folder / "expansion.rules").write_text(EXPANSION, encoding="utf-8")
    assert not check_layers([DUEL, folder]).errors
    rules = Ruleset.load([str(folder)], base=DUEL)
    return rules.new_game(seed=4, options=["beginner_wonders"])


def test_first_empty_reads_the_zone_of_the_seat_running_it(tmp_path):
    game = started(tmp_path)
    spare = game.content.zone_index["spare"]
    for seat in range(game.content.players):
        items = game.state.zones[game.slot(spare, seat)]
        assert sorted(game.state.positions[i] for i in items) == [0, 1], seat


def test_shuffle_shuffles_the_zone_of_the_seat_running_it(tmp_path):
    game = started(tmp_path)
    wonders = game.content.zone_index["wonders"]
    names = game.item_names
    dealt = [{names[i] for i in game.state.zones[game.slot(wonders, seat)]} for seat in range(game.content.players)]
    spare = game.content.zone_index["spare"]
    for seat in range(game.content.players):   # (the two items each seat placed were its own)
        dealt[seat] |= {names[i] for i in game.state.zones[game.slot(spare, seat)]}
    shuffles = [set(entry[1:]) for entry in game.state.chance if entry[0] == "wonders"]
    assert shuffles == dealt
