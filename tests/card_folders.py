"""Small card folders written by tests (a test helper): a folder of one card file, loaded as an
expansion, the first `build` a game reaches, and a first turn with a given purse."""

from __future__ import annotations

from pathlib import Path


def folder(tmp_path: Path, text: str, name: str = "cards") -> Path:
    """A folder holding one card file with `text`."""
    path = tmp_path / name
    path.mkdir()
    (path / "cards.rules").write_text(text, encoding="utf-8")
    return path


def to_first_build(game):
    """Answer the decisions until a `build` is legal; returns that build."""
    while True:
        legal = game.legal_actions()
        build = next((a for a in legal if a.name == "build"), None)
        if build is not None:
            return build
        game.apply(legal[0])


def first_turn(rules, coins: int, seed: int = 1):
    """A new game past the wonders' draft, the seat to move holding `coins`: (game, seat)."""
    from rulesdsl.interpreter import core
    game = rules.new_game(seed=seed)
    while game.state.pending is not None:
        game.apply(game.legal_actions()[0])
    me = game.to_move()
    game.state.coins[me] = coins
    core.clear_caches(game)   # (a state written to directly: docs/api.md)
    return game, me
