"""Turning up structure cards where every rule that hears `uncovered` only takes what lies on
the card (`take_attached event.item`): when nothing lies on the cards turned up, no frames are
made for those rules (`structure.uncover`, decided per content by `events.riders_only`).  The
same state after every action as the generic path, which makes and runs the frames."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from golden_games import SETS
from played_out import after_each_action
from rulesdsl.interpreter import events, new_game
from rulesdsl.pipeline import load_ruleset


def played(rules, seed: int, cut: bool, monkeypatch) -> tuple[list[str], int]:
    """The state after every action of a random game, and how many `uncovered` events made
    frames."""
    game = rules.new_game(seed=seed)
    assert game._uncover_idle, "the content's rules on `uncovered` are not of the cut's shape"
    if not cut:
        game._uncover_idle = False
    made = 0
    generic = events.heard_frames   # (what `event_frames` calls, and `uncover` where the hearing is kept)

    def counted(g, hearing, name, *args):
        nonlocal made
        made += name == "uncovered"
        return generic(g, hearing, name, *args)

    monkeypatch.setattr(events, "heard_frames", counted)
    states = after_each_action(game, seed)
    monkeypatch.setattr(events, "heard_frames", generic)
    return states, made


@pytest.mark.parametrize("name", ["pantheon", "agora+pantheon"])
def test_a_card_turned_up_with_nothing_on_it_plays_what_its_frames_play(name, monkeypatch):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    for seed in range(4):
        cut, cut_made = played(rules, seed, True, monkeypatch)
        generic, generic_made = played(rules, seed, False, monkeypatch)
        assert cut == generic, seed
        assert len(cut) > 15
        # (both paths were taken: cards with tokens on them made frames, the others none)
        assert 0 < cut_made < generic_made, (seed, cut_made, generic_made)


class Unkept(dict):
    """A table of kept hearings that never has one: every event's frames made by
    `events.event_frames` itself, as if first heard."""

    def get(self, key, default=None):
        return default


@pytest.mark.parametrize("name", ["pantheon", "agora+pantheon"])
def test_the_frames_made_from_the_kept_hearing_are_those_event_frames_makes(name):
    # (`uncover` reads the kept hearing of `uncovered` itself, as an item's arrival does; the
    # cut off, so that every card turned up makes its frames)
    rules = load_ruleset(*SETS[name])
    for seed in range(3):
        kept, generic = rules.new_game(seed=seed), rules.new_game(seed=seed)
        kept._uncover_idle = generic._uncover_idle = False
        generic._hearing = Unkept()
        assert after_each_action(kept, seed) == after_each_action(generic, seed), seed
        assert any(key[0] == "uncovered" for key in kept._hearing), seed


def fan(tmp_path: Path, name: str, body: str) -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "cards.rules").write_text(f'expansion {name} {{\n    title "{name}"\n}}\n\n'
                                        f'rule "On turning up" {{\n    when uncovered {{ {body} }}\n}}\n',
                                        encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("body, idle", [
    ("take_attached event.item", True),
    ("take_attached event.item\n take_attached event.item", True),
    ("take_attached event.item\n gain 1 coins", False),
    ("gain 1 coins", False),
    ("if age == 1 { take_attached event.item }", False),
])
def test_the_cut_is_taken_only_where_every_step_takes_what_lies_on_the_card(tmp_path, body, idle):
    game = new_game(expansions=[fan(tmp_path, "tip", body)], options=["beginner_wonders"], seed=1)
    assert game._uncover_idle is idle
    assert new_game(seed=1)._uncover_idle is False   # (no rule hears the event)


def test_a_rule_that_does_more_than_take_still_runs_for_a_card_carrying_nothing(tmp_path):
    # The base game puts nothing on its cards: a rule that takes and pays a coin plays what a
    # rule paying the coin alone plays (its frames are made), action for action.
    def states(body: str) -> list:
        game = new_game(expansions=[fan(tmp_path, f"tip{len(body)}", body)], options=["beginner_wonders"], seed=2)
        rng = random.Random(2)
        out = []
        while not game.over:
            game._apply(game.random_action(rng))
            st = game.state
            out.append((list(st.coins), list(st.face_up), list(st.loc), list(st.history)))
        return out

    assert states("take_attached event.item\n gain 1 coins") == states("gain 1 coins")
