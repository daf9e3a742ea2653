"""A decision among items names them, and copies share a name: the answer takes a copy that was
offered.  In classic, a Halikarnassos build from the discard pile named `Press` took the
content's first Press, which lay in another seat's city: that seat lost its card and the
discarded one stayed in the pile."""

from __future__ import annotations

import random

from rulesdsl.interpreter.playout import play_out
from rulesdsl.interpreter.random_agent import RandomAgent
from rulesdsl.pipeline import load_ruleset


def positions(rules, seed: int):
    """Each position of a seeded game, with the generator its moves are drawn from: the caller
    applies one action before asking for the next."""
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    while not game.over:
        yield game, rng


def test_an_answer_takes_an_offered_copy_not_one_from_a_city():
    rules = load_ruleset((), "classic", 7)
    found = 0
    for seed in range(200):
        for game, rng in positions(rules, seed):
            d = game.state.pending
            action = game.random_action(rng)
            if d is not None and d.kind == "item" and action.name == "choose":
                first = game.content.item_index[action.args[0]]
                if first not in d.options:   # the first copy lies elsewhere
                    where = game.state.loc[first]
                    offered = [o for o in d.options if game.name(o) == action.args[0]]
                    game.apply(action)
                    assert game.state.loc[first] == where       # not taken from where it lay
                    assert game.state.loc[offered[0]] != game.slot(game.content.zone_index["discard"], 0)
                    found += 1
                    continue
            game.apply(action)
        if found >= 3:
            break
    assert found >= 3


def test_play_out_takes_the_same_copy_as_apply():
    rules = load_ruleset((), "classic", 7)
    for seed in range(40):
        a, b = rules.new_game(seed=seed), rules.new_game(seed=seed)
        play_out(a, [RandomAgent(rng=random.Random(seed))] * 7)
        rng = random.Random(seed)
        while not b.over:
            b._apply(b.random_action(rng))
        assert a.state == b.state, seed


def test_a_decision_among_copies_lists_each_answer_once_and_draws_by_copy():
    """Two Presses in the discard pile are one answer of `legal_actions` (as two in a hand are
    one build); `random_action` still draws among the options, each copy a chance."""
    from collections import Counter
    rules = load_ruleset((), "classic", 3)
    found = 0
    for seed in range(60):
        for game, rng in positions(rules, seed):
            d = game.state.pending
            if d is not None and d.kind == "item":
                names = Counter(game.name(o) for o in d.options)
                legal = game.legal_actions()
                assert len(set(legal)) == len(legal)
                assert len([a for a in legal if a.args and a.args[0] in names]) == len(names)
                if max(names.values()) > 1:
                    found += 1
                    draws = Counter(game.random_action(random.Random(k)).args[:1] for k in range(400))
                    twice = next(n for n, c in names.items() if c > 1)
                    once = [n for n, c in names.items() if c == 1]
                    if once:   # a name with two copies is drawn about twice as often as one with one
                        assert draws[(twice,)] > 1.4 * max(draws[(n,)] for n in once)
            game.apply(game.random_action(rng))
        if found >= 2:
            break
    assert found >= 2


def test_an_item_named_like_a_face_down_place_is_still_chosen_by_its_name(tmp_path):
    """A choice names an item its chooser cannot see by its place (`slot 7 (face down)`); an
    item whose own name ends the same way, offered face up, is still chosen by its name (the
    answer looked for a place of that name and stopped with StopIteration)."""
    import shutil
    from pathlib import Path
    game_dir = tmp_path / "fd"
    shutil.copytree(Path(__file__).parent / "data" / "hands", game_dir)
    cards = game_dir / "cards.rules"
    text = cards.read_text(encoding="utf-8")
    text = text.replace('card "Wood Pile"', 'card "Wood Pile (face down)"')
    text = text.replace("cost wood; modify shields 1 }", "cost wood; modify shields 1; choose 1 from city owner=all { discard chosen } }")
    cards.write_text(text, encoding="utf-8")
    rules = load_ruleset((), str(game_dir), 3)
    chosen = 0
    for seed in range(10):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            action = game.random_action(rng)
            named = action.name == "choose" and action.args[0] == "Wood Pile (face down)"
            before = game.state.zones[game.slot(game.content.zone_index["discard"], 0)][:]
            game.apply(action)    # (through the legality check and the answer's decoding)
            if named:
                after = game.state.zones[game.slot(game.content.zone_index["discard"], 0)]
                # (the round may go on and discard more: the choice's card is among them)
                assert "Wood Pile (face down)" in [game.name(i) for i in after if i not in before]
                chosen += 1
    assert chosen > 0


def test_a_name_takes_the_face_up_copy_never_one_lying_face_down(tmp_path):
    """Where a choice offers one copy of a card face up and another face down, `choose NAME`
    takes the face-up one (the face-down one is offered by its place): it took the content's
    first copy, which could be the face-down one, and the discard pile then showed it."""
    import re
    import shutil
    from pathlib import Path
    from rulesdsl.interpreter.actions import Action
    root = Path(__file__).resolve().parent.parent / "cards" / "duel"
    folder = tmp_path / "duel_copies"
    shutil.copytree(root, folder)
    age1 = folder / "age1.rules"
    age1.write_text(re.sub(r"(card \"[^\"]+\" \{\n)", r"\1    copies 2 2\n", age1.read_text(encoding="utf-8")),
                    encoding="utf-8")
    wonders = folder / "wonders.rules"
    wonders.write_text(wonders.read_text(encoding="utf-8").replace(
        "    cost 3 stone papyrus\n", "    cost 1 coin\n    choose 1 from structure_all { discard chosen }\n", 1),
        encoding="utf-8")
    rules = load_ruleset((), str(folder), 2)
    found = 0
    for seed in range(60):
        for game, rng in positions(rules, seed):
            st, d = game.state, game.state.pending
            if d is not None and d.kind == "item" and st.structure and found < 5:
                at = {i: k for k, i in enumerate(st.structure) if i >= 0}
                for name in {game.name(o) for o in d.options if o in at}:
                    copies = [o for o in d.options if o in at and game.name(o) == name]
                    up = [at[o] for o in copies if st.face_up[at[o]]]
                    if up and any(not st.face_up[at[o]] for o in copies):
                        trial = game.clone()
                        trial.apply(Action("choose", (name,)))
                        gone = [k for k in at.values() if trial.state.structure[k] < 0]
                        assert gone == up[:1], f"seed {seed}: `choose {name}` took slot {gone}, face up: {up}"
                        found += 1
            game.apply(game.random_action(rng))
        if found >= 5:
            break
    assert found
