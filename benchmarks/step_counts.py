"""The most steps one action (or a setup) uses in random games: the figure the default step
budget (interpreter/budget.py, DEFAULT_MAX_STEPS) must stay far above.

    python benchmarks/step_counts.py [--games N]
"""

from __future__ import annotations

import argparse
import random

from rulesdsl.interpreter import load_ruleset
from rulesdsl.simulate import game_seed

SETS = [(), ("pantheon",), ("agora",), ("pantheon", "agora")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per content set")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for expansions in SETS:
        rules = load_ruleset(expansions)
        most, where, setup, actions = 0, "", 0, 0
        for i in range(args.games):
            seed = game_seed(args.seed, i)
            game = rules.new_game(seed=seed)
            setup = max(setup, game.max_steps - game.steps_left)
            rng = random.Random(seed)
            while not game.over:
                action = game.random_action(rng)
                game._apply(action)
                actions += 1
                used = game.max_steps - game.steps_left
                if used > most:
                    most, where = used, f"game {i}, {action}"
        label = "+".join(["duel", *expansions])
        print(f"{label}: {args.games} games, {actions} actions; most steps in one action {most} ({where}); "
              f"in a setup {setup}")


if __name__ == "__main__":
    main()
