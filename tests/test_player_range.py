"""`players LOW HIGH` and `copies`: a game compiled for one count of its range, with the copies of
each item that count uses (docs/language.md, "Seats")."""

from pathlib import Path

import pytest

from rulesdsl.pipeline import load_ruleset

THREE = Path(__file__).parent / "data" / "three_seats"


def game_folder(tmp_path: Path, players: str, copies: str) -> Path:
    folder = tmp_path / "ranged"
    folder.mkdir()
    text = (THREE / "game.rules").read_text().replace("players 3", players)
    (folder / "game.rules").write_text(text)
    cards = (THREE / "cards.rules").read_text().replace('card "Left Coin" {', f'card "Left Coin" {{\n    {copies}')
    (folder / "cards.rules").write_text(cards)
    return folder


def test_a_range_compiles_for_each_count_with_its_copies(tmp_path):
    folder = game_folder(tmp_path, "players 3 5", "copies 3 4 4 6")
    for players, copies in ((3, 1), (4, 3), (5, 3)):
        content = load_ruleset((), str(folder), players).content
        assert (content.players, content.min_players, content.max_players) == (players, 3, 5)
        named = [it for it in content.items if it.name == "Left Coin"]
        assert len(named) == copies
        assert all(it.deck == content.zone_index["age1"] for it in named)
        assert content.items[content.item_index["Left Coin"]] is named[0]


def test_the_default_count_is_the_fewest(tmp_path):
    folder = game_folder(tmp_path, "players 3 5", "")
    assert load_ruleset((), str(folder)).content.players == 3


def test_a_count_outside_the_range_is_one_clear_error(tmp_path):
    folder = game_folder(tmp_path, "players 3 5", "")
    with pytest.raises(ValueError, match="three_seats plays with 3 to 5 players, not 6"):
        load_ruleset((), str(folder), 6)


def test_an_item_no_copy_of_which_is_used_stays_out_of_play(tmp_path):
    folder = game_folder(tmp_path, "players 3 5", "copies 5")
    content = load_ruleset((), str(folder), 3).content
    (only,) = [it for it in content.items if it.name == "Left Coin"]
    assert only.deck == -1
    game = load_ruleset((), str(folder), 3).new_game(seed=1)
    assert "Left Coin" not in game.items_in("structure")
