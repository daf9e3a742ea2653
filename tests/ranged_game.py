"""A test helper: the three-seat test game (tests/data/three_seats) widened to 3-5 players, each
player holding a private hand of one card dealt at the start."""

from __future__ import annotations

from pathlib import Path

THREE = Path(__file__).resolve().parent / "data" / "three_seats"


def write_ranged_game(folder: Path) -> Path:
    folder.mkdir()
    text = (THREE / "game.rules").read_text(encoding="utf-8")
    text = text.replace("players 3\n", "players 3 5\n")
    text = text.replace("    zone discard public\n", "    zone discard public\n    zone hand player private\n")
    text = text.replace("each_player { gain 10 coins }", "each_player {\n            gain 10 coins\n"
                        "            deal 1 age1 hand\n        }")
    assert "players 3 5" in text and "deal 1 age1 hand" in text
    (folder / "game.rules").write_text(text, encoding="utf-8")
    # Five cards more, so that age 1 fills the hands and the six places of the structure at 5 players.
    extra = "".join(f'\ncard "Extra {c}" {{\n    age 1\n    color yellow\n    gain 1 coin\n}}\n' for c in "ABCDE")
    (folder / "cards.rules").write_text((THREE / "cards.rules").read_text(encoding="utf-8") + extra, encoding="utf-8")
    return folder
