"""Benchmark: PettingZoo environment steps per second (random masked actions, the observation
vector and the mask read at every step, as a learning loop reads them) beside raw random games
(`game.random_action` + `game._apply`, which draws an action without listing them all) and raw
games that list the legal actions (`game.legal_actions`, as a mask needs), and the ratios: what
the wrapper costs per action.
Not a test: timings vary by machine; the ratio is measured in one process, one after the other,
several times over (the best of each kept).

    python benchmarks/rl_steps.py [--games N] [--rounds R] [--game NAME_OR_FOLDER] [--expansion NAME ...] [--players N]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from rulesdsl import rl
from rulesdsl.pipeline import load_ruleset
from random_play import play_random


def raw_actions_per_second(rules, games: int, seed: int) -> float:
    actions, seconds = play_random(rules, games, seed)
    return actions / seconds


def listed_actions_per_second(rules, games: int, seed: int) -> float:
    """Raw games that list every legal action and pick one, as any masked loop must."""
    actions, seconds = play_random(rules, games, seed, listing=True)
    return actions / seconds


def env_steps_per_second(env: rl.RulesEnv, games: int, seed: int) -> float:
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        env.reset(seed=seed + i)
        rng = random.Random(seed + i)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(bool))   # (int8 nonzero is slow)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", default="duel")
    parser.add_argument("--expansion", action="append", default=[])
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    rules = load_ruleset(tuple(args.expansion), args.game, args.players)
    env = rl.env(args.game, tuple(args.expansion), args.players)
    raw_actions_per_second(rules, 3, 999)   # warm-up: first-call costs
    env_steps_per_second(env, 3, 999)
    raw = listed = steps = 0.0
    for _ in range(args.rounds):
        raw = max(raw, raw_actions_per_second(rules, args.games, args.seed))
        listed = max(listed, listed_actions_per_second(rules, args.games, args.seed))
        steps = max(steps, env_steps_per_second(env, args.games, args.seed))
    label = "+".join([str(args.game), *args.expansion]) + (f" {args.players}p" if args.players else "")
    print(f"{label} (action space {env.space.n}, observation {env.encoder.size}):\n"
          f"  raw random games          {raw:9,.0f} actions/s\n"
          f"  raw, listing legal moves  {listed:9,.0f} actions/s\n"
          f"  environment               {steps:9,.0f} steps/s\n"
          f"  the environment costs {raw / steps:.2f}x a raw action, {listed / steps:.2f}x a listed one")


if __name__ == "__main__":
    main()
