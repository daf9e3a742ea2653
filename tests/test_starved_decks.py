"""An effect that takes a named item (or what a `choose` picks) out of a deck that a later age
deals whole is E409 where it is written (rulesdsl/starved_decks.py).  Before, `check` found such
a game only where one of its eight trial games ran that effect first: a card of the first age
that took a second-age card out, and that a random game seldom could afford, checked clean,
and `simulate` then stopped with a deal come up short."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.compiler import Compiler
from rulesdsl.interpreter import Game
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.interpreter.budget import short_deal
from rulesdsl.interpreter.chance import agent_seed, game_seed
from rulesdsl.interpreter.playout import play_out
from rulesdsl.loader import load_paths
from rulesdsl.report import check_paths

CARDS = Path(__file__).resolve().parent.parent / "cards"
CLASSIC, DUEL = CARDS / "classic", CARDS / "duel"

# Dear enough that none of `check`'s trial games builds it; `simulate`'s game 8 does.
RARE = """card "Raid" {
    age 1
    color red
    cost 2 glass 2 papyrus
    move "Sawmill" discard
}
"""


def folder(tmp_path: Path, text: str, name: str = "extra") -> Path:
    out = tmp_path / name
    out.mkdir()
    (out / "cards.rules").write_text(text, encoding="utf-8")
    return out


def found(path: Path, expansions: tuple[str, ...] = (), base: str | None = None) -> list[tuple[str, int, int, str]]:
    report = check_paths([path], expansions, base)
    return [(d.code, d.span.line, d.span.column, d.message) for d in report.diagnostics]


def test_a_rare_card_that_starves_the_next_age_is_an_error_where_it_moves(tmp_path):
    extra = folder(tmp_path, RARE)
    ((code, line, column, message),) = found(extra)
    assert (code, line, column) == ("E409", 5, 5)
    assert message.startswith('`move "Sawmill" discard` can take an item out of zone `age2` before age 2')
    assert "takes 20 of the 20 it holds then at 2 players" in message
    report = check_paths([extra])
    assert "game.rules:" in report.diagnostics[0].help and report.human().count("^") >= 22


def test_the_content_check_refuses_does_come_up_short_in_play(tmp_path):
    """What the error says is so: `simulate`'s game 8 (seed 0), played past `check`, deals Age II
    short.  (`simulate` itself now refuses the content, with the same error.)"""
    paths = [DUEL, folder(tmp_path, RARE)]
    content = Compiler(load_paths(paths), ["duel", "extra"], 2).compile()
    seed = game_seed(0, 8)
    game = Game.create(content, seed=seed)
    play_out(game, [RandomAgent(agent_seed(seed, p)) for p in range(2)])
    assert short_deal(*game.short_draws[0]) == "a deal of age 2's set-up draws 20 from age2, which holds 19"
    result = CliRunner().invoke(cli, ["simulate", "-e", str(paths[1]), "-n", "12", "-j", "1"])
    assert result.exit_code != 0 and "can take an item out of zone `age2`" in result.output


def test_a_card_picked_by_a_choose_out_of_a_later_deck(tmp_path):
    text = 'card "Spy" {\n    age 1\n    color red\n    choose 1 from age3 { move chosen discard }\n}\n'
    ((code, line, column, message),) = found(folder(tmp_path, text))
    assert (code, line, column) == ("E409", 4, 5) and "zone `age3` before age 3" in message


def test_an_expansion_item_that_can_run_before_the_first_age(tmp_path):
    """A conspiracy can be triggered from Age I on: an Age II card it takes starves Age II."""
    text = 'conspiracy "Theft" {\n    deck conspiracy_deck\n    move "Sawmill" box\n}\n'
    ((code, line, column, message),) = found(folder(tmp_path, text), ("agora",))
    assert (code, line, column) == ("E409", 3, 5) and "zone `age2`" in message
    assert "takes 25 of the 25 it holds then" in message


@pytest.mark.parametrize("text", [
    # Its own age's card: the deal has been made before any card of the age is built.
    'card "Raid" {\n    age 2\n    color red\n    move "Sawmill" discard\n}\n',
    # An earlier age's card: out of the structure or a city, not a deck.
    'card "Raid" {\n    age 2\n    color red\n    move "Lumber Yard" discard\n}\n',
    # Back into the deck it came from.
    'card "Raid" {\n    age 1\n    color red\n    move "Sawmill" age2\n}\n',
    # From a deck no age deals whole.
    'card "Raid" {\n    age 1\n    color red\n    choose 1 from progress_deck { move chosen discard }\n}\n',
])
def test_what_cannot_starve_a_deal_is_not_reported(tmp_path, text):
    assert [f for f in found(folder(tmp_path, text)) if f[0] == "E409"] == []


def test_classic_counts_each_deck_per_player_count(tmp_path):
    """Classic's decks hold exactly 7 cards a player at each count: an Age I card taking an Age II
    card out is reported at the fewest players that use a copy of it."""
    text = 'card "Raid" {\n    age 1\n    color red\n    copies 3\n    move "Sawmill" discard\n}\n'
    (hit,) = [f for f in found(folder(tmp_path, text), base=str(CLASSIC)) if f[0] == "E409"]
    assert hit[1:3] == (5, 5) and "zone `age2`" in hit[3] and "at 3 players" in hit[3]


# -- what runs only from the first age's play cannot take a card out before that age's deal ------

WONDER_TAKES_AGE1 = 'wonder "Quarry Wonder" {\n    cost 1 coin\n    move "Lumber Yard" discard\n}\n'


@pytest.mark.parametrize("text, expansions, base", [
    # A wonder is built from Age I's play on; the draft in the set-up claims it, which runs no effect.
    (WONDER_TAKES_AGE1, (), None),
    # A progress token is acquired from Age I's play on (a pair of science symbols).
    ('token "Scout" {\n    deck progress_deck\n    choose 1 from age1 { move chosen discard }\n}\n', (), None),
    # A conspiracy is triggered, a senator built, from Age I's play on; Agora's set-up (its wonders'
    # draft effects put cubes, a decree may move the pawn) runs no such item.
    ('conspiracy "Arson" {\n    deck conspiracy_deck\n    move "Lumber Yard" box\n}\n', ("agora",), None),
    ('card "Conspirator Z" {\n    deck senators\n    color black\n    move "Lumber Yard" box\n}\n', ("agora",), None),
    # A classic stage is built from Age I's play on.
    ('extend stage "Alexandria (Day) stage 1" {\n    move "Lumber Yard" discard\n}\n', (), str(CLASSIC)),
    # A rule that hears a discard: the set-up discards nothing.
    ('rule "Tax" {\n    when discarded {\n        move "Lumber Yard" box\n    }\n}\n', (), None),
])
def test_an_item_only_play_puts_into_play_does_not_starve_the_first_age(tmp_path, text, expansions, base):
    assert [f for f in found(folder(tmp_path, text), expansions, base) if f[0] == "E409"] == []


def test_the_wonder_that_takes_an_age_i_card_plays(tmp_path):
    """What the check now accepts is so: built in Age I, the wonder takes the card from the
    structure, a city or the box, never from the deck the structure was dealt from."""
    paths = [DUEL, folder(tmp_path, WONDER_TAKES_AGE1)]
    content = Compiler(load_paths(paths), ["duel", "extra"], 2).compile()
    built_in_age_1 = 0
    for index in range(60):
        seed = game_seed(0, index)
        game = Game.create(content, seed=seed)
        ages: list[int] = []   # (the age each time the wonder stands built: the state counts from 0)

        def seen(g: Game) -> None:
            if any("Quarry Wonder" in g.items_in("built_wonders", p) for p in range(2)):
                ages.append(g.state.age)
        play_out(game, [RandomAgent(agent_seed(seed, p)) for p in range(2)], after=seen)
        assert game.short_draws == []
        built_in_age_1 += bool(ages) and min(ages) == 0
    assert built_in_age_1 > 0


@pytest.mark.parametrize("text", [
    # The set-up acquires a token: its effect runs before Age I's deal.
    'expansion gift {\n    base duel\n    setup {\n        choose 1 from progress_deck { acquire chosen }\n    }\n}\n'
    'token "Scout" {\n    deck progress_deck\n    move "Lumber Yard" box\n}\n',
    # The set-up's draft claims wonders: a wonder's `on_claim` runs there.
    'wonder "Quarry Wonder" {\n    cost 1 coin\n    on_claim { move "Lumber Yard" discard }\n}\n',
    # The set-up discards a wonder; at age 0 `age <= 1` holds.
    'expansion gift {\n    base duel\n    setup {\n        move "Pyramids" discard\n    }\n}\n'
    'rule "Tax" {\n    when discarded {\n        if age <= 1 { move "Lumber Yard" box }\n    }\n}\n',
])
def test_what_the_set_up_can_run_still_starves_the_first_age(tmp_path, text):
    assert [f[0] for f in found(folder(tmp_path, text))] == ["E409"]


@pytest.mark.parametrize("text", [
    # The `else` of `if age == 1`, on a card of Age I: only in a later age.
    'card "Ruse" {\n    age 1\n    color red\n    if age == 1 { gain 1 coin }\n    else { move "Sawmill" box }\n}\n',
    # An action that is not for Age I.
    'action raze {\n    param card from structure\n    require age != 1\n    discard card\n    move "Sawmill" box\n}\n',
])
def test_an_age_a_condition_rules_out_is_not_its_earliest(tmp_path, text):
    assert [f for f in found(folder(tmp_path, text)) if f[0] == "E409"] == []


def test_each_copy_of_the_item_whose_effect_it_is_takes_one(tmp_path):
    """Two copies at 7 players, each dealing a guild away in Age I: 10 guilds less 2 cannot give
    Age III its 9.  (One copy leaves the one spare guild: not reported.)  It was checked clean, and
    about one 7-player game in five stopped short."""
    text = 'card "Recruiter" {\n    age 1\n    color yellow\n    copies 3 7\n    deal 1 guilds discard\n}\n'
    (hit,) = found(folder(tmp_path, text), base=str(CLASSIC))
    assert hit[:3] == ("E409", 5, 5) and "at 7 players" in hit[3] and "each of the 2 copies of `Recruiter`" in hit[3]
    one = folder(tmp_path, text.replace("copies 3 7", "copies 3"), "one")
    assert found(one, base=str(CLASSIC)) == []


def test_an_effect_is_counted_only_where_its_item_is_in_the_game(tmp_path):
    """A card used from 5 players on takes a card Age II needs at every count: reported at 5."""
    text = 'card "Raid" {\n    age 1\n    color red\n    copies 5\n    move "Sawmill" discard\n}\n'
    (hit,) = [f for f in found(folder(tmp_path, text), base=str(CLASSIC)) if f[0] == "E409"]
    assert "at 5 players" in hit[3]
