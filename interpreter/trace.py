"""Traces: how a game was created and every action applied, so it can be replayed exactly."""

from __future__ import annotations

import json
from pathlib import Path

from .actions import Action
from .budget import DEFAULT_MAX_STEPS
from .game import Game
from .persistence import dumps
from .ruleset import Ruleset

FORMAT = "rulesdsl-trace"


class TraceError(ValueError):
    """A trace file that cannot be replayed."""


def trace_of(game: Game) -> dict:
    st = game.state
    return {"format": FORMAT, "version": 1, "base": st.layers[0], "expansions": st.layers[1:], "seed": st.seed,
            "options": st.options, "script": st.setup_script, "actions": [list(a) for a in st.history],
            "final": {"winner": st.winner, "victory": st.victory, "coins": st.coins, "pawn": st.pawn,
                      "scores": [game.score(p) for p in range(st.players)]},
            "final_state": dumps(_comparable(game))}


def _comparable(game: Game):
    return game.state


def save_trace(game: Game, path: Path) -> None:
    path.write_text(json.dumps(trace_of(game), indent=1) + "\n", encoding="utf-8")


def load_trace(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise TraceError(f"cannot read trace {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("actions"), list):
        raise TraceError(f"{path} is not a rulesdsl trace")
    return data


def replay(data: dict, max_steps: int = DEFAULT_MAX_STEPS) -> tuple[Game, list[str]]:
    """Re-run a trace; returns the game and the differences from the recorded end (empty: same).
    An action whose effects do not end within `max_steps` raises BudgetExceeded."""
    from . import load_ruleset
    try:
        rules: Ruleset = load_ruleset(tuple(data.get("expansions", [])), data.get("base", "duel"))
    except ValueError as exc:
        raise TraceError(str(exc)) from None
    game = rules.new_game(seed=int(data.get("seed", 0)), options=data.get("options", []),
                          script=data.get("script") or None, max_steps=max_steps)
    for i, raw in enumerate(data["actions"]):
        if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
            raise TraceError(f"action {i + 1} is malformed: {raw!r}")
        game.apply(Action(raw[0], tuple(raw[1:])))
    diffs = []
    recorded = data.get("final_state")
    if recorded is not None and dumps(_comparable(game)) != recorded:
        diffs.append("the final state differs from the recorded one")
    final = data.get("final") or {}
    now = trace_of(game)["final"]
    for key, value in final.items():
        if now.get(key) != value:
            diffs.append(f"{key}: recorded {value!r}, replayed {now.get(key)!r}")
    return game, diffs
