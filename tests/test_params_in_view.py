"""W506: `check` warns of an action parameter that names items its player cannot see, and the
warning foretells what `verify`'s `observation-hides` invariant finds when it plays the cards."""

from __future__ import annotations

import random
from pathlib import Path

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



# -- a `reveal` covers what was put face down before it, not after -------------------------------

# Age II's start turns the Pantheon up; a card of Age II still draws a god face down onto it, which
# the activating actions then name.  Before, any `reveal pantheon` silenced W506.
ORACLE = 'card "Oracle" {\n    age 2\n    color blue\n    take_top 2 greek_gods drawn_gods\n    run place_a_god\n}\n'


def test_a_god_put_face_down_after_the_only_reveal_is_W506(tmp_path):
    report = check_paths([folder(tmp_path, ORACLE)], ("pantheon",))
    found = [d for d in report.diagnostics if d.code == "W506"]
    assert {d.message.split("`")[3] for d in found} == {"activate", "activate_with_offering", "open_gate",
                                                        "open_gate_with_offering"}
    assert all("after the last `reveal pantheon`" in d.message and "expansion.rules:65)" in d.message
               for d in found), report.human()
    assert report.errors == 0


def test_verify_finds_the_god_put_face_down_after_the_reveal(tmp_path):
    """What the warning says is so: a game that builds the card reaches a position whose legal
    actions name the face-down god (`observation-hides`)."""
    rules = load_ruleset(["pantheon", str(folder(tmp_path, ORACLE))])
    broken = False
    for seed in range(12):
        run = run_checked(rules.new_game(seed=seed), rng=random.Random(seed), invariants=HIDES,
                          raise_on_failure=False)
        if not run.ok:
            assert run.violation.invariant == "observation-hides"
            broken = True
            break
    assert broken


@pytest.mark.parametrize("when", [
    "if age == 3 { reveal shrine }",     # turned up after Age II's card may have put it there
    "reveal shrine",                     # at every age's start: the files do not say which is last
])
def test_a_reveal_that_can_come_after_the_put_covers_it(tmp_path, when):
    text = (Path(__file__).parent / "broken" / "W506_put_face_down_after_its_reveal.rules").read_text(encoding="utf-8")
    text = text.replace("if age == 2 { reveal shrine }", when)
    assert [d for d in check_paths([folder(tmp_path, text)]).diagnostics if d.code == "W506"] == []


def test_the_bundled_pantheon_puts_its_gods_face_down_before_the_reveal():
    """Pantheon's mythology tokens place gods from Age I on; Age II's start turns them up: quiet."""
    report = check_paths([], ("pantheon",))
    assert [d.code for d in report.diagnostics] == []


def test_an_action_that_can_only_come_later_puts_after_the_reveal(tmp_path):
    text = (Path(__file__).parent / "broken" / "W506_put_face_down_after_its_reveal.rules").read_text(encoding="utf-8")
    text = text.replace('card "Oracle" {\n    age 2\n    color blue\n',
                        'action bury {\n    param card from structure\n    require age >= 2\n    discard card\n')
    found = [d for d in check_paths([folder(tmp_path, text)]).diagnostics if d.code == "W506"]
    assert [(d.span.line, d.span.column) for d in found] == [(18, 22)]
    assert "`place` at " in found[0].message and "after the last `reveal shrine`" in found[0].message


# -- the order within an age's start, and an action that ends before the put ---------------------

SHRINE = 'expansion shrine {\n    zone shrine public\n}\n'
CONSULT = 'action consult {\n    param token from shrine\n    acquire token\n}\n'
PUT = 'deal 1 progress_deck shrine face_down=true'


@pytest.mark.parametrize("text", [
    # The reveal comes first in the block that puts the token there: nothing turns it up.
    SHRINE + f'rule "Unveil" {{\n    when structure_dealt {{\n        if age == 2 {{\n'
             f'            reveal shrine\n            {PUT}\n        }}\n    }}\n}}\n' + CONSULT,
    # Age II's own block turns the shrine up; its structure, laid out after, has the token put there.
    SHRINE + 'extend age 2 {\n    reveal shrine\n}\n'
             f'rule "Unveil" {{\n    when structure_dealt {{\n        if age == 2 {{ {PUT} }}\n    }}\n}}\n' + CONSULT,
])
def test_a_put_after_the_reveal_at_the_same_age_start_is_W506(tmp_path, text):
    path = folder(tmp_path, text)
    (d,) = _warnings(path, "duel")
    assert "after the last `reveal shrine`" in d.message
    assert _hides_broken(path, "duel", 2)


def test_the_reveal_after_the_put_in_one_block_covers_it(tmp_path):
    text = SHRINE + (f'rule "Unveil" {{\n    when structure_dealt {{\n        if age == 2 {{\n'
                     f'            {PUT}\n            reveal shrine\n        }}\n    }}\n}}\n') + CONSULT
    path = folder(tmp_path, text)
    assert _warnings(path, "duel") == [] and not _hides_broken(path, "duel", 2)


def test_an_action_over_before_the_put_names_nothing_hidden(tmp_path):
    """The token is put face down in Age III, after the Age II reveal; the only action picking from
    the shrine is for Age II."""
    text = SHRINE + ('rule "Unveil" {\n    when structure_dealt {\n        if age == 2 { reveal shrine }\n    }\n}\n'
                     f'card "Oracle" {{\n    age 3\n    color blue\n    {PUT}\n}}\n'
                     + CONSULT.replace("    acquire", "    require age == 2\n    acquire"))
    path = folder(tmp_path, text)
    assert _warnings(path, "duel") == [] and not _hides_broken(path, "duel", 2)
