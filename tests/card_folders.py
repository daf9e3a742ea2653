"""Small card folders written by tests (a test helper): a folder of one card file, loaded as an
expansion, what the checker says of one card file over the base game, the first `build` a game
reaches, and a first turn with a given purse; a copy of a folder with one change."""

from __future__ import annotations

from pathlib import Path


def folder(tmp_path: Path, text: str, name: str = "cards") -> Path:
    """A folder holding one card file with `text`."""
    path = tmp_path / name
    path.mkdir()
    (path / "cards.rules").write_text(text, encoding="utf-8")
    return path


def copy_with(source: Path, to: Path, old: str, new: str, file: str = "game.rules") -> Path:
    """A copy of the folder `source` at `to`, with `old` replaced by `new` (once; it must be
    there) in its `file`."""
    import shutil
    shutil.copytree(source, to)
    text = (to / file).read_text(encoding="utf-8")
    assert old in text
    (to / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return to


def diagnostics(tmp_path: Path, text: str):
    """What the checker's static passes say of one card file over the base game."""
    from rulesdsl.checker import check
    from rulesdsl.loader import load_paths
    from rulesdsl.report import layers_for
    file = tmp_path / "cards.rules"
    file.write_text(text, encoding="utf-8")
    merged = load_paths(layers_for(file))
    return merged.diagnostics + check(merged)


def codes(tmp_path: Path, text: str) -> list[tuple[str, int, int]]:
    """(code, line, column) of each of `diagnostics`."""
    return [(d.code, d.span.line, d.span.column) for d in diagnostics(tmp_path, text)]


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
