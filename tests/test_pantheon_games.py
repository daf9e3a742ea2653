"""Pantheon as pure data: whole random games, a clean check report, unique names, and no Pantheon
word anywhere in the engine's Python (interpreter/, rulesdsl/)."""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from pathlib import Path

from rulesdsl.interpreter import DRAW, Game, load_ruleset
from rulesdsl.interpreter.persistence import dumps, loads
from pantheon_positions import GODS, PANTHEON, TEMPLES
from rulesdsl.loader import CARDS_ROOT
from rulesdsl.report import check_paths

ROOT = Path(__file__).resolve().parent.parent
GAMES = 500

# The Pantheon's own words: the expansion, its gods, the Gate, Minerva, the Snake, offerings,
# mythologies, temples.  Matched case-insensitively as whole words (letters only around them, so
# `grand_temple_points` or `"Town Gate"` are hits too).
WORDS = ["pantheon", *[g.lower() for g in GODS], "gate", "minerva", "snake", "offering", "mythology",
         "mythologies", "temple"]
PATTERN = re.compile(r"(?<![a-z])(" + "|".join(WORDS) + r")s?(?![a-z])", re.IGNORECASE)


def test_500_random_pantheon_games_finish_with_a_result():
    rules = load_ruleset(PANTHEON)
    content = rules.content
    temples = {content.item_index[t] for t in TEMPLES.values()}
    guilds = {it.id for it in content.items if it.kind == "card" and it.color == "purple" and it.id not in temples}
    victories: Counter = Counter()
    activated: Counter = Counter()
    pantheon_actions = 0
    for seed in range(GAMES):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        checked_age3 = False
        steps = 0
        while not game.over:
            action = game.random_action(rng)
            if action.name in ("activate", "activate_with_offering", "open_gate", "open_gate_with_offering"):
                pantheon_actions += 1
            game.apply(action) if steps % 50 == 0 else game._apply(action)
            steps += 1
            assert steps < 2000, f"seed {seed}: game does not end"
            st = game.state
            if not checked_age3 and st.age == 2 and st.flow == "turn":
                laid = {i for i in st.structure if i >= 0} | {i for i, h in enumerate(st.loc) if h == game.structure_slot}
                assert len(laid & temples) == 3, f"seed {seed}: Age III without 3 Grand Temples"
                assert not laid & guilds, f"seed {seed}: a guild in Age III"
                checked_age3 = True
        st = game.state
        assert st.winner in (0, 1, DRAW), f"seed {seed}: no result"
        assert st.victory in ("civilian", "military", "science"), f"seed {seed}: {st.victory}"
        if st.victory == "civilian":
            totals = [sum(game.score(p).values()) for p in (0, 1)]
            if st.winner != DRAW:
                assert totals[st.winner] >= totals[1 - st.winner]
        victories[st.victory] += 1
        for p in (0, 1):
            activated.update(game.items_in("gods", p))
    assert pantheon_actions > 0
    assert len(activated) >= 10, f"only these gods were ever activated: {sorted(activated)}"
    assert victories["civilian"] > 0


def test_a_pantheon_game_saved_mid_way_continues_identically():
    rules = load_ruleset(PANTHEON)
    for seed in range(6):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over and game.state.age < 1:
            game.apply(game.random_action(rng))
        for _ in range(6):
            if not game.over:
                game.apply(game.random_action(rng))
        if game.over:
            continue
        copy = Game(rules.content, loads(dumps(game.state)))
        state_rng = rng.getstate()
        twin = random.Random()
        twin.setstate(state_rng)
        while not game.over:
            game.apply(game.random_action(rng))
            copy.apply(copy.random_action(twin))
        assert copy.over and dumps(copy.state) == dumps(game.state)


def test_the_bundled_content_checks_clean():
    for report in (check_paths([CARDS_ROOT / "duel-pantheon"]), check_paths([])):
        assert report.errors == 0 and report.warnings == 0, report.human()


def test_item_names_are_unique_across_kinds():
    content = load_ruleset(PANTHEON).content
    names = Counter(it.name for it in content.items)
    assert [n for n, k in names.items() if k > 1] == []
    assert len(content.item_index) == len(content.items)


def _python_files():
    for folder in ("interpreter", "rulesdsl"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_pantheon_module_class_or_function_in_the_engine():
    bad = []
    for path in _python_files():
        rel = path.relative_to(ROOT)
        if PATTERN.search(path.stem):
            bad.append(f"{rel}: module name")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and PATTERN.search(node.name):
                bad.append(f"{rel}:{node.lineno}: {type(node).__name__} {node.name}")
    assert bad == []


def test_no_pantheon_word_anywhere_in_the_engine_code_comments_or_docstrings():
    # The expansion is data: the engine's Python must not name it, its gods or its pieces, not even in
    # a comment, a docstring, an example or an error message.
    hits = []
    for path in _python_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in PATTERN.finditer(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)!r} in {line.strip()[:100]}")
    assert hits == [], "\n".join(hits)
