"""W512: a cost no seat can ever pay, found without playing (rulesdsl/unpayable.py).

The content is the small game of hands (tests/data/hands: seats buy from their neighbours,
3 to 4 players) with its cards written here: at 4 players its four copies of "Ore Vein" make
4 ore in all, so 5 ore are never had by any seat."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.report import check_paths

ROOT = Path(__file__).resolve().parent.parent
HANDS = Path(__file__).resolve().parent / "data" / "hands" / "game.rules"

CARDS = """\
card "Wood Pile" {{ age 1; color brown; copies 3 3 3 4; produce wood }}
card "Ore Vein" {{ age 1; color brown; copies 3 3 3 4; produce ore }}
card "Post" {{ age 1; color red; copies 3 3 3 4; cost wood; modify shields 1{post} }}
card "Fort" {{ age 2; color red; copies 3 3 3 4; cost wood ore; modify shields 2 }}
card "Shrine" {{
    age 2
    color blue
    copies 3 3 3 4
    cost 1 coin wood {shrine}
    points 3
}}
card "Lab" {{ age 2; color blue; copies 3 3 3 4; cost wood; science compass{lab} }}
"""


def checked(tmp_path: Path, shrine: str, post: str = "", lab: str = "", game=lambda text: text):
    folder = tmp_path / "hands"
    folder.mkdir()
    (folder / "game.rules").write_text(game(HANDS.read_text(encoding="utf-8")), encoding="utf-8")
    (folder / "cards.rules").write_text(CARDS.format(shrine=shrine, post=post, lab=lab), encoding="utf-8")
    return folder, check_paths([folder])


def w512(report):
    return [d for d in report.diagnostics if d.code == "W512"]


def test_a_cost_beyond_all_the_items_make_is_warned_at_its_place(tmp_path):
    folder, report = checked(tmp_path, "5 ore")
    assert not report.errors
    [d] = report.diagnostics
    assert d.code == "W512" and d.severity == "warning"
    assert (d.span.file, d.span.line, d.span.column) == (str(folder / "cards.rules"), 9, 22)
    assert (d.span.end_line, d.span.end_column) == (9, 27)   # under `5 ore`
    assert "`Shrine`" in d.message and "5 ore" in d.message and "more than 4" in d.message
    assert "at most 4 ore" in d.help
    assert "cards.rules:9:22: warning[W512]" in report.human()


def test_the_units_of_a_resource_named_twice_add_up(tmp_path):
    _, report = checked(tmp_path, "3 ore 2 ore")
    assert [d.message.split(",")[0] for d in w512(report)] == ["card `Shrine` costs 5 ore"]


def test_a_cost_every_copy_of_the_producers_can_meet_is_not_warned(tmp_path):
    # Four copies of the ore producer at 4 players: 4 ore can be had (own and bought).
    _, report = checked(tmp_path, "4 ore")
    assert not report.diagnostics, report.human()


def test_one_of_producers_count_toward_what_is_made(tmp_path):
    # Four more copies, each one unit of wood or ore: 8 ore at most.
    _, report = checked(tmp_path, "8 ore", lab="; produce wood|ore")
    assert not report.diagnostics, report.human()
    (tmp_path / "more").mkdir()
    _, report = checked(tmp_path / "more", "9 ore", lab="; produce wood|ore")
    assert [d.code for d in report.diagnostics] == ["W512"] and "more than 8" in report.diagnostics[0].message


def test_a_chain_some_item_gives_spares_the_cost(tmp_path):
    def with_chain(text: str) -> str:
        return text.replace("    item_kinds card\n", "    item_kinds card\n    chains torch\n", 1)
    _, report = checked(tmp_path, "5 ore\n    chain_from torch", post="; chain_gives torch", game=with_chain)
    assert not report.diagnostics, report.human()


def test_a_discount_that_may_apply_spares_the_cost(tmp_path):
    _, report = checked(tmp_path, "5 ore", post="; discount 1 color=blue")
    assert not report.diagnostics, report.human()


def test_a_discount_for_other_cards_does_not(tmp_path):
    _, report = checked(tmp_path, "5 ore", post="; discount 1 color=red")
    assert [d.code for d in report.diagnostics] == ["W512"]


def test_a_game_that_buys_from_the_bank_can_pay_any_cost(tmp_path):
    # Without `trade neighbours` a missing unit costs 2 coins from the bank, as many as needed.
    def bank(text: str) -> str:
        assert "    trade neighbours 2 where=it.color == brown\n" in text
        return text.replace("    trade neighbours 2 where=it.color == brown\n", "", 1)
    _, report = checked(tmp_path, "5 ore", game=bank)
    assert not report.diagnostics, report.human()


def test_bundled_content_and_examples_check_clean_of_it():
    report = check_paths([])
    assert not w512(report), report.human()
    examples = check_paths([ROOT / "examples" / "fan_expansion", ROOT / "examples" / "new_card"])
    assert not w512(examples), examples.human()
