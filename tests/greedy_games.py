"""Greedy games: seeded games with the greedy agent at every seat, summarised as short hashes
(every action, the chance record, the dice, the winner, coins and scores), so that work on the
agent's speed can show that every game stays the same, action for action and draw for draw.
The golden games and state traces hold one greedy seat among random ones; these hold games of
greedy seats only, up to seven of them, where every seat's look-ahead redraws the others' hands.

    python tests/greedy_games.py > tests/data/golden/greedy_games.json   # only after a deliberate change

(First recorded with commit 1e90b9e, before the agent's speed work of 1 December 2026.)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import game_seed, play_one

SETS = {  # name: (expansions, base, players, games)
    "duel": ((), "duel", None, 6), "agora+pantheon": (("agora", "pantheon"), "duel", None, 3),
    "classic-3": ((), "classic", 3, 3), "classic-5": ((), "classic", 5, 2), "classic-7": ((), "classic", 7, 2),
}


def summaries() -> dict[str, list[str]]:
    out = {}
    for name, (expansions, base, players, games) in SETS.items():
        rules = load_ruleset(expansions, base, players)
        seats = rules.content.players
        rows = []
        for i in range(games):
            g = play_one(rules, game_seed(11, i), ["greedy"] * seats)
            st = g.state
            summary = {"history": st.history, "chance": st.chance, "rng": st.rng, "winner": st.winner,
                       "victory": st.victory, "coins": st.coins, "scores": [g.score(p) for p in range(st.players)]}
            rows.append(hashlib.sha256(json.dumps(summary, sort_keys=True).encode()).hexdigest()[:16])
        out[name] = rows
    return out


if __name__ == "__main__":
    print(json.dumps(summaries(), indent=1))
