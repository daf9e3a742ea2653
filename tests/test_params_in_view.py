"""W506: `check` warns of an action parameter that names items its player cannot see, and the
warning foretells what `verify`'s `observation-hides` invariant finds when it plays the cards."""

from __future__ import annotations

import random

import pytest

from card_folders import folder
from rulesdsl.pipeline import load_ruleset
from rulesdsl.report import check_paths
from rulesdsl.testing.invariants import INVARIANTS, run_checked

HIDES = [inv for inv in INVARIANTS if inv.name == "observation-hides"]

CASES = [
    # (base, players, action, warned)
    ("duel", 2, "action peek {\n    param card from structure_all\n    discard card\n}\n", True),
    ("duel", 2, "action dig {\n    param card from under\n    require count(under) >= 0\n    discard card\n}\n", True),
    ("classic", 3, "action spy {\n    param card from hand owner=left\n    discard card\n}\n", True),
    ("duel", 2, "action sweep {\n    param card from discard\n    discard card\n}\n", False),
    ("classic", 3, "action toss {\n    param card from hand owner=me\n    discard card\n}\n", False),
    ("duel", 2, "action take {\n    param card from structure\n    discard card\n}\n", False),
]


def _warnings(path, base):
    report = check_paths([path], base=base)
    assert report.errors == 0, report.human()
    return [d for d in report.diagnostics if d.code == "W506"]


def _hides_broken(path, base, players) -> bool:
    rules = load_ruleset([str(path)], base, players)
    for seed in range(6):
        run = run_checked(rules.new_game(seed=seed), rng=random.Random(seed), invariants=HIDES,
                          raise_on_failure=False)
        if not run.ok:
            assert run.violation.invariant == "observation-hides"
            return True
    return False


@pytest.mark.parametrize("base, players, text, warned", CASES, ids=[c[2].split()[1] for c in CASES])
def test_the_warning_foretells_what_verify_finds(tmp_path, base, players, text, warned):
    path = folder(tmp_path, text)
    found = _warnings(path, base)
    assert bool(found) == warned, [d.message for d in found]
    if warned:
        (d,) = found
        line = text.splitlines()[d.span.line - 1]
        assert line[d.span.column - 1:].startswith(line.split(" from ")[1].split()[0])   # the caret on the zone
        assert "cannot see" in d.message
    assert _hides_broken(path, base, players) == warned


def test_a_layout_without_face_down_rows_leaves_structure_all_quiet(tmp_path):
    text = ("replace layout age1 {\n    row up 0 2\n    row up 1\n}\n"
            "replace layout age2 {\n    row up 0 2\n    row up 1\n}\n"
            "replace layout age3 {\n    row up 0 2\n    row up 1\n}\n"
            "action peek {\n    param card from structure_all\n    discard card\n}\n")
    assert _warnings(folder(tmp_path, text), "duel") == []

