"""Golden observations: seeded environment games with seeded masked random actions, each game
summarised as a short hash of every observation vector and mask it showed, so that work on the
environment's speed can show it changes nothing but speed.

    python tests/rl_observations.py > tests/data/golden/rl_observations.json   # only after a deliberate change
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from rulesdsl import rl

HANDS = str(Path(__file__).resolve().parent / "data" / "hands")
CONFIGS = {  # name: (game, expansions, players); `hands` by its path inside tests/data
    "duel": ("duel", (), None),
    "duel-both": ("duel", ("pantheon", "agora"), None),
    "classic-3": ("classic", (), 3),
    "hands-4": (HANDS, (), 4),
}
GAMES = 3


def summaries() -> dict[str, list[str]]:
    out = {}
    for name, (game, expansions, players) in CONFIGS.items():
        env = rl.env(game, expansions, players)
        rows = []
        for seed in range(GAMES):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            digest = hashlib.sha256()
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                digest.update(obs["observation"].tobytes())
                digest.update(obs["action_mask"].tobytes())
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            rows.append(digest.hexdigest()[:16])
        out[name] = rows
    return out


if __name__ == "__main__":
    print(json.dumps(summaries(), indent=1))
