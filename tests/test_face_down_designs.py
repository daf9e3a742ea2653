"""Face-down content a designer would write, beyond the bundled sets, plays: checked clean, the
engine's invariants hold in random games (observations never name an unseen item, saves load,
refused actions change nothing), and the RL environment numbers every legal action of the seat
to act (`legal_bindings` raises for one it cannot number) and encodes its view.

- an expansion of the classic game dealing each player a card face down (tests/data/reveal_owner),
  at 3 and 7 seats;
- an Age I layout whose cards are all face down but one: the one face-up card is the only one
  that can be taken first, and the uncovered face-down cards turn up at the end of that turn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rulesdsl import rl
from rulesdsl.interpreter import Ruleset
from rulesdsl.interpreter.observation import observe
from rulesdsl.report import check_layers
from rulesdsl.testing.invariants import run_checked

ROOT = Path(__file__).resolve().parent.parent
SECRETS = ROOT / "tests" / "data" / "reveal_owner"
BLIND = """expansion blind {
    title "Blind structure"
    base duel
}

replace layout age1 {
    row down 5 7
    row down 4 6 8
    row down 3 5 7 9
    row down 2 4 6 8 10
    row down 1 3 5 7 9
    row up 11
}
"""


def plays(base: Path, expansion: Path, players: int | None) -> None:
    assert not check_layers([base, expansion]).errors
    rules = Ruleset.load([str(expansion)], base=base, players=players)
    for seed in range(2):
        run = run_checked(rules.new_game(seed=seed), rng=seed, raise_on_failure=False)
        assert run.ok, run.violation
        assert run.game.over
    env = rl.env(str(base), expansions=(str(expansion),), players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert observation["observation"].shape == (env.encoder.size,)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool)))))
    assert env.game.over


@pytest.mark.parametrize("players", [3, 7])
def test_a_face_down_deal_added_to_the_classic_game_plays(players):
    plays(ROOT / "cards" / "classic", SECRETS, players)


def test_a_layout_all_face_down_but_one_plays(tmp_path):
    folder = tmp_path / "blind"
    folder.mkdir()
    (folder / "expansion.rules").write_text(BLIND, encoding="utf-8")
    plays(ROOT / "cards" / "duel", folder, None)
    game = Ruleset.load([str(folder)], base=ROOT / "cards" / "duel").new_game(seed=0, options=["beginner_wonders"])
    shown = observe(game, 0)["structure"]
    assert [s["accessible"] for s in shown] == [False] * 19 + [True]
    assert all("back" in s for s in shown[:19]) and "card" in shown[19]
    taken = shown[19]["card"]
    assert {a.args[0] for a in game.legal_actions() if a.name in ("build", "discard")} == {taken}
    game.apply(next(a for a in game.legal_actions() if a.name == "discard"))
    bottom = observe(game, 1)["structure"][14:19]   # (the row of five, uncovered from the start)
    assert all(s is not None and "card" in s and s["accessible"] for s in bottom)
