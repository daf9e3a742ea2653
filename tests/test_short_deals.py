"""A deal of the set-up that comes up short (a deck too small for it) is the content's fault:
the game went on with fewer cards, so it is not a game of the rules as written.  `simulate` and
`balance` played such games and counted them, silently, and `verify` found nothing; now each
stops on it with one line naming the deal (ShortDeal), `verify` as the `deals-complete`
invariant.  (Found by a designer's audit: a card that lets a rich player keep five Age III cards
left the Age III structure short in 3 games of 100.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.interpreter import ShortDeal
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import simulate

# A rich player peeks at the top of Age III as it begins, before its structure is dealt. (A card
# of Age II taking the same cards is refused by `check` without playing, E409, and so does not
# load: the effect here runs from an age's own block, which that check takes to run after the
# age's deal, so only a game that reaches it finds it short.)
PEEK = '''procedure peek_ahead {
    if coins >= 20 { take_top 5 age3 city }
}

extend age 3 {
    run peek_ahead
}
'''


@pytest.fixture
def peek(tmp_path: Path) -> Path:
    folder = tmp_path / "peek"
    folder.mkdir()
    (folder / "peek.rules").write_text(PEEK, encoding="utf-8")
    return folder


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_simulate_stops_on_a_game_dealt_short(peek):
    with pytest.raises(ShortDeal) as caught:
        simulate(load_ruleset([str(peek)]), 100, seed=0, jobs=1)
    assert (caught.value.zone, caught.value.asked) == ("age3", 20) and caught.value.found < 20
    result = run("simulate", "-e", str(peek), "-n", "100", "--jobs", "1")
    assert result.exit_code == 1
    assert "error: game 20 (seed " in result.output and "a deal of age 3's set-up draws 20 from age3, which holds" in result.output


def test_balance_stops_on_it_and_reports_the_games_before(peek):
    result = run("balance", "-e", str(peek), "-n", "40", "--agents", "random,random", "--jobs", "1")
    assert result.exit_code == 1
    assert "draws 20 from age3, which holds" in result.output and "the report covers the" in result.output


def test_verify_finds_it_as_an_invariant(peek, tmp_path):
    out = tmp_path / "failure.json"
    result = run("verify", "-e", str(peek), "-n", "100", "--out", str(out))
    assert result.exit_code == 1
    assert "deals-complete" in result.output and "draws 20 from age3" in result.output
    assert "deals-complete" in run("verify", "--list").output


def test_the_bundled_games_are_never_dealt_short():
    for layers, players in (((), None), (("pantheon", "agora"), None)):
        simulate(load_ruleset(list(layers)), 60, seed=5, jobs=1)
    for players in (3, 7):
        simulate(load_ruleset([], "classic", players), 20, seed=5, jobs=1)
