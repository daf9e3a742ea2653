"""Balance-lab runs made up for the tests: games whose results go together deal by deal."""

from __future__ import annotations

import random


def games_won_by_deal(rng: random.Random, deals: int, seats: int) -> list[dict]:
    """Games of `seats` seats in which X wins at every seating of some deals and at none of the
    others: its seat-games' results go together deal by deal."""
    out = []
    for deal in range(deals):
        good = rng.random() < 0.5
        for r in range(seats):
            i = deal * seats + r
            built = [["X"] if rng.random() < 0.5 else [] for _ in range(seats)]
            with_x = [s for s in range(seats) if built[s]]
            without = [s for s in range(seats) if not built[s]]
            winner = rng.choice(with_x if good and with_x else without or with_x)
            out.append({"index": i, "deal": deal, "seed": deal, "rotation": r,
                        "agents": [f"a{(s - r) % seats}" for s in range(seats)], "winner": winner,
                        "victory": "civilian", "scores": [{"points": 1}] * seats, "totals": [1] * seats,
                        "turns": 20, "actions": 20, "built": [[[n, "card", 2] for n in b] for b in built],
                        "taken": [[[n, "card", 2] for n in b] for b in built]})
    return out
