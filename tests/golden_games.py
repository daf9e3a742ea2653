"""Golden games: seeded games summarised as short hashes (every action, the winner, coins and
scores), so that work on the engine's speed can show it changes nothing but speed.

    python tests/golden_games.py > tests/data/golden/games.json     # only after a deliberate change
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import game_seed, play_one

SETS = {  # name: (expansions, base, players)
    "duel": ((), "duel", None), "pantheon": (("pantheon",), "duel", None), "agora": (("agora",), "duel", None),
    "agora+pantheon": (("agora", "pantheon"), "duel", None),
    "classic-3": ((), "classic", 3), "classic-5": ((), "classic", 5), "classic-7": ((), "classic", 7),
}
GAMES = 30          # random games per set; every tenth also with a greedy first seat


def summaries() -> dict[str, list[str]]:
    out = {}
    for name, (expansions, base, players) in SETS.items():
        rules = load_ruleset(expansions, base, players)
        seats = rules.content.players
        rows = []
        for i in range(GAMES):
            for agents in (["random"] * seats, ["greedy"] + ["random"] * (seats - 1)):
                if agents[0] == "greedy" and i % 10:
                    continue
                g = play_one(rules, game_seed(7, i), agents)
                st = g.state
                summary = {"history": st.history, "winner": st.winner, "victory": st.victory, "coins": st.coins,
                           "scores": [g.score(p) for p in range(st.players)]}
                rows.append(hashlib.sha256(json.dumps(summary, sort_keys=True).encode()).hexdigest()[:16])
        out[name] = rows
    return out


def assert_recorded(golden: Path, now: dict[str, list[str]]) -> None:
    """`now` holds the same sets and, set by set, the same hashes as the recorded file."""
    recorded = json.loads(golden.read_text(encoding="utf-8"))
    assert set(now) == set(recorded)
    for name in recorded:
        changed = [i for i, (a, b) in enumerate(zip(recorded[name], now[name])) if a != b]
        assert not changed and len(now[name]) == len(recorded[name]), f"{name}: games {changed} differ"


if __name__ == "__main__":
    print(json.dumps(summaries(), indent=1))
