"""`check` over generated content: its work grows with the number of cards, not with its
square.  Designers generate card files (a spreadsheet exported to thousands of cards); a check
that scans every definition for each statement needing a fact of the whole game (the player
counts, the invariants' `holds`, the zones holding cubes) took minutes on a few megabytes.

Counted, not timed: how many times the checker walks the definitions is the same for 30 cards
as for 300."""

from __future__ import annotations

from pathlib import Path

from rulesdsl import checker
from rulesdsl.loader import CARDS_ROOT, load_paths


class CountedList(list):
    """The definitions, counting each walk over them."""

    walks = 0

    def __iter__(self):
        CountedList.walks += 1
        return super().__iter__()


# Statements that each ask a fact of the whole game: a count that may fall below 0 (the player
# counts), a comparison its ranges may settle (the invariants' `holds`, the named ranges, the
# player counts), a trigger on a built item (the kinds that come into play).
CARD = """card "Generated {n}" {{
    age 1
    color blue
    cost {cost} stone
    gain count(city, color=grey) - 1 coins
    if age > 1 {{ gain 1 coins }}
    when built kind=card {{ gain 1 coins }}
    points 2
}}
"""


def walks_checking(folder: Path, cards: int) -> int:
    (folder / "generated.rules").write_text("\n".join(CARD.format(n=n, cost=1 + n % 3) for n in range(cards)),
                                            encoding="utf-8")
    merged = load_paths([CARDS_ROOT / "duel", folder])
    merged.definitions = CountedList(merged.definitions)
    CountedList.walks = 0
    diagnostics = checker.check(merged)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert not errors, errors[:3]
    # (the statements meant to ask for the facts were read: each warns of its count)
    assert sum(d.code == "W508" for d in diagnostics) == cards
    return CountedList.walks


def test_the_checker_walks_the_definitions_as_often_for_ten_times_the_cards(tmp_path: Path) -> None:
    few, many = tmp_path / "few", tmp_path / "many"
    few.mkdir()
    many.mkdir()
    assert walks_checking(many, 300) == walks_checking(few, 30)
