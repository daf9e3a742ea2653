"""Player counts the classic card files cannot be played at are `check` errors, never a stuck
game (issue 10, "Bad input"): `check` plays one random game at every count a game allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.report import check_paths

from card_folders import copy_with

CLASSIC = Path(__file__).resolve().parent.parent / "cards" / "classic"


def variant(tmp_path: Path, old: str, new: str, file: str = "game.rules") -> Path:
    return copy_with(CLASSIC, tmp_path / "classic", old, new, file)


def errors(folder: Path) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line, d.message) for d in check_paths([folder]).diagnostics if d.severity == "error"]


def test_the_bundled_classic_game_checks_clean_at_every_count():
    assert errors(CLASSIC) == []


def test_eight_players_find_no_eighth_board(tmp_path):
    (found,) = errors(variant(tmp_path, "players 3 7", "players 3 8"))
    assert found[0] == "E409" and "at 8 players" in found[2] and "day_boards" in found[2]


@pytest.mark.parametrize("count", ["0", "1"])
def test_fewer_than_two_players_is_an_error(tmp_path, count):
    (found,) = errors(variant(tmp_path, "players 3 7", f"players {count} 7"))
    assert found[0] == "E404"


def test_a_deck_one_card_short_from_four_players(tmp_path):
    # Lumber Yard's second copy from 4 players on, now from 8: Age I is a card short at 4 to 7.
    found = errors(variant(tmp_path, "copies 3 4", "copies 3 8", "age1.rules"))
    assert [f[0] for f in found] == ["E409"] * 4
    assert [f[2].split(" players")[0] for f in found] == [f"at {n}" for n in (4, 5, 6, 7)]
    # (at the deal, each player's 7 counted: the deck is one short of what they draw in all)
    assert all(f[2].endswith(f"age 1's `deal 7 age1 hand`, for each of the {n} players, draws {7 * n} items "
                             f"from `age1`, which holds {7 * n - 1} then") for f, n in zip(found, (4, 5, 6, 7)))
    assert len({f[1] for f in found}) == 1 and found[0][1] > 1


def test_a_cost_of_a_billion_units_plays(tmp_path):
    """`cost 999999999 stone` (a typo) passed `check`, whose trial game then listed the purchase
    from the neighbours unit by unit: gigabytes, until memory ran out.  More than the
    neighbours make cannot be bought, and the card is never built."""
    from rulesdsl.pipeline import load_ruleset
    from rulesdsl.simulate import simulate
    folder = variant(tmp_path, '    copies 3 7\n    cost stone\n', '    copies 3 7\n    cost 999999999 stone\n',
                     file="age1.rules")
    assert errors(folder) == []
    rules = load_ruleset((), str(folder), 3)
    assert simulate(rules, 3, seed=1)["games"] == 3
    game = rules.new_game(seed=1)
    baths = next(i for i, it in enumerate(game.content.items) if it.name == "Baths")
    assert game.price(0, baths)[0] >= 10**8   # (what cannot be had at all)
    assert not any(a.args[:1] == ("Baths",) for a in game.legal_actions(0) if a.name == "build")
    # Where a neighbour makes one of several resources, every way to buy is searched unit by unit.
    from rulesdsl.interpreter.trade import _buy
    side = (1, [1, 0, 0, 0, 0, 0, 0], [[0, 1]], [2] * 7)   # (seller, fixed units, one-of, prices)
    assert _buy([10**9, 0, 0, 0, 0, 0, 0], [side], {}) == set()
    assert _buy([2, 0, 0, 0, 0, 0, 0], [side], {}) == {(4,)}
