"""`reveal ZONE` of a zone each seat has turns up the items of the seat running it (`me`), or of
`owner=`, as `move_all`, `deal` and `place` read such a zone.  It turned up seat 0's items
whoever ran it: a fan expansion of the classic game (tests/data/reveal_owner, found by a long
fuzz campaign of face-down deals) left seat 1's card face down after seat 1's own reveal, and
turned seat 0's up instead."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulesdsl.interpreter import Action, Ruleset
from rulesdsl.interpreter.observation import observe
from rulesdsl.report import check_layers

DATA = Path(__file__).parent / "data" / "reveal_owner"
CLASSIC = Path(__file__).resolve().parent.parent / "cards" / "classic"
BACK = "face down (secret_deck)"


def secrets(folder: Path, seat: int) -> dict[str, list[str]]:
    """Each seat's `secrets` after seed 0's first round, in which seat 1 alone builds a brown card
    (the hands of seed 0: seat 0 builds a yellow card, seat 1 a brown one, seat 2 a grey one)."""
    rules = Ruleset.load([str(folder)], base="classic", players=3)
    game = rules.new_game(seed=0)
    for s in range(3):   # (each seat's hidden card, dealt from a deck: nobody has seen it)
        assert observe(game, s)["zones"]["secrets"] == {"0": [BACK], "1": [BACK], "2": [BACK]}
    game.apply(Action.parse("build Marketplace"), seat=0)
    game.apply(Action.parse('build "Ore Vein"'), seat=1)
    game.apply(Action.parse("build Press"), seat=2)
    return observe(game, seat)["zones"]["secrets"]


def test_the_bundled_example_checks_clean():
    assert not check_layers([CLASSIC, DATA]).errors


def test_a_reveal_turns_up_the_zone_of_the_seat_running_it():
    for seat in range(3):
        shown = secrets(DATA, seat)
        assert shown["1"] != [BACK] and shown["1"][0].startswith("Secret ")
        assert shown["0"] == shown["2"] == [BACK]


def test_owner_names_whose_zone_a_reveal_turns_up(tmp_path):
    folder = tmp_path / "secrets"
    shutil.copytree(DATA, folder)
    rules = folder / "expansion.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("{ reveal secrets }", "{ reveal secrets owner=left }"),
                     encoding="utf-8")
    assert not check_layers([CLASSIC, folder]).errors
    shown = secrets(folder, 0)
    assert shown["2"] != [BACK]   # (seat 1's left neighbour is seat 2 in the classic game)
    assert shown["0"] == shown["1"] == [BACK]
