"""A PettingZoo loop with action masks: every seat plays a uniformly random legal action (no
learning; swap `pick` for a policy).  Needs the `rl` extra: pip install 'rulesdsl[rl]'.

    python3 examples/rl_loop.py [GAME] [SEED]      # GAME: duel (default), classic, or a game folder
"""

from __future__ import annotations

import sys

import numpy as np

from rulesdsl import rl


def pick(observation: dict, rng: np.random.Generator) -> int:
    """A policy would score `observation["observation"]` (a float32 vector) and choose among the
    numbers the mask allows; this one chooses at random."""
    legal = np.flatnonzero(observation["action_mask"].view(bool))
    return int(legal[rng.integers(len(legal))])


def main(game: str = "duel", seed: int = 0) -> dict[str, float]:
    env = rl.env(game, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)   # a finished agent steps with None, then leaves
            continue
        action = pick(observation, rng)
        if steps < 3:
            print(f"{agent} plays {action}: {env.action_label(action)}")
        env.step(action)
        steps += 1
    print(f"{steps} steps; returns {returns}; scores {env.scores()}")
    return returns


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "duel", int(sys.argv[2]) if len(sys.argv) > 2 else 0)
