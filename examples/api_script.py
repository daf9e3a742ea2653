"""A game between the greedy agent and the random agent through the Python API.

Half-way through, the game is saved to JSON, thrown away and loaded again; the loaded game
plays on.  At the end the script prints each player's score by category.

    python3 examples/api_script.py [SEED]
"""

from __future__ import annotations

import sys

from rulesdsl.interpreter import DRAW, Game, load_ruleset, new_game
from rulesdsl.interpreter.agents import GreedyAgent, RandomAgent
from rulesdsl.interpreter.persistence import dumps, loads


def save(game: Game) -> str:
    return dumps(game.state)  # the whole game, dice included, as JSON


def load(text: str) -> Game:
    state = loads(text)  # raises persistence.SaveFileError for anything that is not a valid state
    rules = load_ruleset(state.layers[1:], state.layers[0])  # the same base game and expansions
    return Game(rules.content, state)


def main(seed: int = 7) -> int:
    game = new_game(seed=seed)
    agents = [GreedyAgent(seed), RandomAgent(seed)]
    names = ["greedy", "random"]
    saved_at = None
    while not game.over:
        player = game.to_move()
        game.apply(agents[player].act(game))
        if saved_at is None and game.state.age == 1:  # the first turn of Age II
            saved_at = len(game.state.history)
            text = save(game)
            del game
            game = load(text)
            print(f"saved and loaded after {saved_at} actions ({len(text)} bytes of JSON)")

    st = game.state
    winner = "nobody (a draw)" if st.winner == DRAW else f"player {st.winner} ({names[st.winner]})"
    print(f"{len(st.history)} actions; winner: {winner}, {st.victory} victory")
    categories = sorted({c for p in (0, 1) for c in game.score(p)})
    print(f"{'':>10}" + "".join(f"{c:>9}" for c in categories) + f"{'total':>9}")
    for p in (0, 1):
        score = game.score(p)
        print(f"{names[p]:>10}" + "".join(f"{score.get(c, 0):>9}" for c in categories)
              + f"{sum(score.values()):>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 7))
