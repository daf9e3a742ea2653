"""`trade none` (docs/language.md, `trade`): a game where nothing is bought, from the bank or
from anyone.  A build takes what its player's own items produce (its one-of producers as it
likes), and a `discount` still makes missing units free; any unit still missing makes the build
impossible, whatever the seat's coins.  Before, a designer was told to write `trade_price 1000`,
a price no seat could reach in practice: the differential test below holds the new statement to
what that hack meant.

The content: tests/data/trade_none, two or three seats, wood and clay.  "Wood Pile" and "Clay
Pit" produce one unit, "Either Pit" wood or clay; "Hut" costs wood, "Mill" 1 coin, wood and clay,
"Kiln" 2 clay (blue), "Stall" 2 coins; "Masons" makes one unit of a blue card free."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.explain_text import english
from rulesdsl.interpreter.actions import Action, IllegalAction
from rulesdsl.interpreter import economy, pricing
from rulesdsl.interpreter.economy import IMPOSSIBLE
from rulesdsl.parser import parse_file
from rulesdsl.pipeline import new_game
from rulesdsl.report import check_paths

from card_folders import copy_with

FOLDER = Path(__file__).resolve().parent / "data" / "trade_none"


def position(city: tuple[str, ...] = (), hand: tuple[str, ...] = (), coins: int = 3, players: int = 2):
    """A new game with the seat to move holding these cards in its city and its hand (copies
    taken from wherever they lie) and these coins; (game, seat)."""
    game = new_game(base=str(FOLDER), players=players, seed=0)
    me = game.to_move()
    used: set[int] = set()
    for zone, names in (("city", city), ("hand", hand)):
        slot = game.slot(game.content.zone_index[zone], me)
        for name in names:
            i = next(i for i, it in enumerate(game.content.items) if it.name == name and i not in used)
            used.add(i)
            game.relocate(i, slot)
    game.state.coins[me] = coins
    return game, me


def price(game, me: int, name: str) -> tuple[int, int, bool]:
    return game.price(me, game.content.item_index[name])


def variant(tmp_path: Path, old: str, new: str, file: str = "game.rules") -> Path:
    """A copy of the test game with `old` replaced by `new` in one of its files."""
    return copy_with(FOLDER, tmp_path / "game", old, new, file)


def found(folder: Path) -> list[tuple[str, str, int, int]]:
    return [(d.code, Path(d.span.file).name, d.span.line, d.span.column) for d in check_paths([folder]).diagnostics]


def test_the_game_checks_clean():
    report = check_paths([FOLDER])
    assert not report.diagnostics, report.human()


def test_a_build_the_seat_produces_for_is_legal_and_costs_its_coins_only():
    game, me = position(city=("Wood Pile", "Clay Pit"), hand=("Hut", "Mill"))
    assert price(game, me, "Hut") == (0, 0, False)
    assert price(game, me, "Mill") == (1, 0, False)
    game.apply(Action("build", ("Mill",)))
    assert "Mill" in game.items_in("city", me)
    assert game.state.coins[me] == 2


def test_a_build_lacking_a_unit_is_refused_with_a_reason_and_the_state_is_unchanged():
    # 2 clay asked, 1 made: however many coins the seat has, the other unit is not for sale.
    game, me = position(city=("Clay Pit",), hand=("Kiln",), coins=500)
    assert price(game, me, "Kiln")[0] >= IMPOSSIBLE
    assert game.trade_prices(me) == [IMPOSSIBLE, IMPOSSIBLE]
    build = Action("build", ("Kiln",))
    assert build not in game.legal_actions()
    reason = game.explain_illegal(build)
    assert reason is not None and "does not produce" in reason and "`trade none`" in reason
    before = copy.deepcopy(game.state)
    with pytest.raises(IllegalAction):
        game.apply(build)
    assert game.state == before


def test_a_one_of_producer_covers_a_unit_of_its_choice():
    game, me = position(city=("Wood Pile", "Either Pit"), hand=("Mill",))
    assert price(game, me, "Mill") == (1, 0, False)           # the either pit makes the clay
    game, me = position(city=("Either Pit",), hand=("Mill",))
    assert price(game, me, "Mill")[0] >= IMPOSSIBLE           # one unit of the two, not both


def test_a_discount_still_waives_a_unit():
    game, me = position(city=("Clay Pit", "Masons"), hand=("Kiln",))
    assert price(game, me, "Kiln") == (0, 0, False)
    game.apply(Action("build", ("Kiln",)))
    assert "Kiln" in game.items_in("city", me)
    # One unit waived, not two; and not on a card of another colour.
    game, me = position(city=("Masons",), hand=("Kiln", "Hut"))
    assert price(game, me, "Kiln")[0] >= IMPOSSIBLE
    assert price(game, me, "Hut")[0] >= IMPOSSIBLE


def test_a_discount_that_may_waive_the_coins_does_so_where_no_unit_is_missing(tmp_path):
    # (`or_coins=true` is no trade: not refused beside `trade none` as beside `trade neighbours`)
    folder = variant(tmp_path, "discount 1 color=blue", "discount 1 or_coins=true", "cards.rules")
    assert not found(folder)
    game = new_game(base=str(folder), players=2, seed=0)
    me = game.to_move()
    game.relocate(game.content.item_index["Masons"], game.slot(game.content.zone_index["city"], me))
    assert price(game, me, "Stall") == (0, 0, False)         # 2 coins, no unit: the coins waived
    assert price(game, me, "Hut") == (0, 0, False)           # the wood waived
    assert price(game, me, "Mill")[0] >= IMPOSSIBLE          # wood and clay: one waived only


@pytest.mark.parametrize("players", [2, 3])
def test_random_games_play_to_the_end(players):
    result = CliRunner().invoke(cli, ["simulate", "-g", str(FOLDER), "-n", "50", "-p", str(players), "-j", "1",
                                      "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["error"] is None and summary["games"] == 50 and not summary["interrupted"]


@pytest.mark.parametrize("players", [2, 3])
def test_the_same_random_games_as_a_bank_price_no_seat_reaches(tmp_path, players):
    # The old advice, `trade_price 1000`: while no seat holds 1,000 coins, the same legal actions
    # at every step, the same prices below it, and the same games.
    dear = variant(tmp_path, "    trade none\n", "    trade_price 1000\n")
    for seed in range(12):
        game = new_game(base=str(FOLDER), players=players, seed=seed)
        old = new_game(base=str(dear), players=players, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            assert max(game.state.coins) < 1000
            legal = game.legal_actions()
            assert legal == old.legal_actions()
            for p in range(players):
                for i in range(len(game.content.items)):
                    now, then = game.price(p, i), old.price(p, i)
                    assert now == then if then[0] < 1000 else now[0] >= IMPOSSIBLE
                    # (the price written for the item, and the generic one)
                    assert now == pricing.generic(i, game.content)(game, p, economy.stats(game, p))
            action = rng.choice(legal)
            game.apply(action)
            old.apply(action)
        assert old.over
        assert [game.score(p) for p in range(players)] == [old.score(p) for p in range(players)]


@pytest.mark.parametrize("old, new, file, code, line, column", [
    # The game's bank price: never read (as beside `trade neighbours`).
    ("    trade none\n", "    trade none\n    trade_price 3\n", "game.rules", "E204", 19, 5),
    # Two `trade` statements: the second is the one said.
    ("    trade none\n", "    trade none\n    trade neighbours 2\n", "game.rules", "E206", 19, 5),
    ("    trade none\n", "    trade neighbours 2\n    trade none\n", "game.rules", "E206", 19, 5),
    # The statement's own shape.
    ("    trade none\n", "    trade none 2\n", "game.rules", "E203", 18, 16),
    ("    trade none\n", "    trade none where=it.color == brown\n", "game.rules", "E204", 18, 16),
    ("    trade none\n", "    trade neighbours\n", "game.rules", "E203", 18, 5),
    # An item's price: nothing is bought.
    ("discount 1 color=blue", "trade_price 1 wood", "cards.rules", "E204", 7, 51),
    ("discount 1 color=blue", "trade_price 1 wood from=left", "cards.rules", "E204", 7, 51),
    ("discount 1 color=blue", "trade_discount 1 wood", "cards.rules", "E204", 7, 51),
])
def test_what_cannot_stand_beside_trade_none_is_said_where_it_is(tmp_path, old, new, file, code, line, column):
    assert found(variant(tmp_path, old, new, file)) == [(code, file, line, column)]


def test_a_cost_nobody_makes_is_said_to_be_unpayable(tmp_path):
    # Every item together makes 4 wood at most (3 piles at 3 players, and the either pit): 5 wood
    # is never had (W512, as in a game of neighbour trade), where the bank would sell it.
    folder = variant(tmp_path, "cost wood; points 1", "cost 5 wood; points 1", "cards.rules")
    report = check_paths([folder])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("W512", 4, 51)]
    assert "`trade none`" in report.diagnostics[0].message
    banked = variant(tmp_path / "bank", "    trade none\n", "")
    text = (banked / "cards.rules").read_text(encoding="utf-8")
    (banked / "cards.rules").write_text(text.replace("cost wood; points 1", "cost 5 wood; points 1"), encoding="utf-8")
    assert not found(banked)


def test_explain_says_nothing_is_bought():
    path = FOLDER / "game.rules"
    game = next(d for d in parse_file(str(path), path.read_text(encoding="utf-8"))[0].definitions if d.kind == "game")
    trade = next(s for s in game.block.statements if s.verb == "trade")
    assert english(trade) == "Nothing is bought, from the bank or anyone: a build takes what its player produces"
