"""What a seat knows of an item it saw go into a deck no seat sees (interpreter/knowledge.py): it
lies there, at the place the seat can count (on top, under what went on it since, or at the
bottom), until it moves or the deck is shuffled.

A made-up game (written below) has a pile no seat sees: `peek` draws its top two into the
seat's private `look`, keeps one and puts the other back on top (or at the bottom); `bury`
puts an age card nobody saw on the pile, `stack` a card of the structure every seat saw;
`draw` takes its top into the city; `mix` shuffles it.  Then the rulebooks' case: a Pantheon mythology token's drawer puts the god it did not
place back on top of its deck ("Plaats tenslotte de overgebleven god-kaart gesloten terug
bovenop de overeenkomende mythologie stapel", Duel Pantheon rulebook, shared/seeds/003; the
rule as cards/duel-pantheon/expansion.rules, `procedure place_a_god`, writes it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulesdsl.interpreter import Game, Ruleset
from rulesdsl.interpreter.observation import observe
from rulesdsl.interpreter.persistence import SaveFileError, check_state, dumps, loads
from rulesdsl.interpreter.search import determinize
from rulesdsl.interpreter.undo import undo_last
from rulesdsl.play_view import render_game
from rulesdsl.rl.render import render_text
from rulesdsl.testing.invariants import run_checked

from positions import act, item

GAME = """# A made-up game of peeking at a pile no seat sees.
game peeking {
    title "Peeking"
    players 2 3
    resources wood
    colors yellow
    item_kinds card

    zone city player active public
    zone look player private
    zone discard public
    zone pile
    zone age1

    build_zone card city
    discard_pile discard

    score coins coins

    setup {
        shuffle pile
    }
}

layout row1 {
    row up 1 3 5 7 9 11
}

age 1 {
    deal_structure age1 layout=row1
}

action peek {
    param card from structure
    discard card
    take_top 2 pile look
    choose 1 from look { move chosen city }
    choose_one {
        option top { move_all look pile }
        option bottom { move_all look pile at=bottom }
    }
}

action bury {
    param card from structure
    discard card
    take_top 1 age1 pile
}

action stack {
    param card from structure
    move card pile
}

action draw {
    param card from structure
    discard card
    take_top 1 pile city
}

action mix {
    param card from structure
    discard card
    shuffle pile
}
"""
CARDS = "".join(f'card "Tick {i}" {{ age 1; color yellow }}\n' for i in range(1, 11)) \
    + "".join(f'card "Scout {n}" {{ deck pile; color yellow }}\n' for n in "ABCDEF")


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> Ruleset:
    folder = tmp_path_factory.mktemp("peeking")
    (folder / "game.rules").write_text(GAME, encoding="utf-8")
    (folder / "cards.rules").write_text(CARDS, encoding="utf-8")
    return Ruleset.load([], base=folder)


def pile(game: Game) -> list[int]:
    return game.state.zones[game.slot(game.content.zone_index["pile"], 0)]


def turn(game: Game, verb: str) -> None:
    """The seat to move takes the first card of the structure it may, for `verb`."""
    game.apply(next(a for a in game.legal_actions() if a.name == verb))


def peeked(rules: Ruleset, end: str = "top", seed: int = 1) -> tuple[Game, int]:
    """Seat 0 peeks, keeps the first of its two and puts the other back at `end`: (game, that item)."""
    game = rules.new_game(seed=seed)
    top_two = pile(game)[-2:]
    turn(game, "peek")
    game.apply(game.legal_actions()[0])
    back = next(i for i in top_two if game.state.loc[i] != game.slot(game.content.zone_index["city"], 0))
    game.apply(act("choose_option", end))
    assert game.to_move() == 1
    return game, back


def test_the_seat_that_put_it_back_knows_it_lies_on_top_the_other_does_not(rules):
    game, back = peeked(rules)
    name = game.name(back)
    assert pile(game)[-1] == back and game.state.known == {back: [0]}
    mine, theirs = observe(game, 0), observe(game, 1)
    assert mine["known"] == [{"item": name, "zone": "pile", "seat": None, "at": 4, "space": None, "from_top": 0}]
    assert theirs["known"] == [] and name not in json.dumps(theirs)
    assert mine["hidden_counts"]["pile"] == theirs["hidden_counts"]["pile"] == 5
    # The screens say it to the seat that knows it, to it alone.
    said = f"you know: {name}: on top of pile"
    assert said in render_game(game, 0) and said in render_text(game, 0, game.content)
    assert "you know" not in render_game(game, 1) and name not in render_text(game, 1, game.content)
    from rulesdsl.play_screen import board_text
    from rulesdsl.play_session import Session
    session = Session(rules, 1, ["human", "human"])
    session.game = game
    assert said in board_text(session, 0).plain and "you know" not in board_text(session, 1).plain


def test_put_at_the_bottom_it_is_known_to_lie_there(rules):
    game, back = peeked(rules, "bottom")
    assert pile(game)[0] == back
    k = observe(game, 0)["known"]
    assert k == [{"item": game.name(back), "zone": "pile", "seat": None, "at": 0, "space": None, "from_top": 4}]
    assert f"you know: {game.name(back)}: at the bottom of pile" in render_game(game, 0)


def test_what_goes_on_it_and_comes_off_it_is_counted_and_a_draw_or_a_shuffle_ends_it(rules):
    game, back = peeked(rules)
    turn(game, "bury")   # seat 1 puts an age card nobody saw on the pile: known to none
    assert game.state.known == {back: [0]}
    assert [(k["at"], k["from_top"]) for k in observe(game, 0)["known"]] == [(4, 1)]
    assert f"you know: {game.name(back)}: 1 below the top of pile" in render_game(game, 0)
    turn(game, "draw")   # seat 0 draws the buried card: its own is on top again
    assert [(k["at"], k["from_top"]) for k in observe(game, 0)["known"]] == [(4, 0)]
    turn(game, "draw")   # seat 1 draws it: face up in a city, seen by all, known to none alone
    assert game.state.known == {} and observe(game, 0)["known"] == []
    assert game.name(back) in observe(game, 1)["zones"]["city"]["1"]

    game, back = peeked(rules)
    turn(game, "mix")
    assert back in pile(game) and game.state.known == {} and observe(game, 0)["known"] == []


def test_a_card_every_seat_saw_go_on_top_is_known_to_all_and_counts(rules):
    game, back = peeked(rules)
    card = next(a for a in game.legal_actions() if a.name == "stack").args[0]
    turn(game, "stack")
    stacked = item(game, card)
    assert pile(game)[-2:] == [back, stacked] and game.state.known == {back: [0], stacked: [0, 1]}
    assert [(k["item"], k["from_top"]) for k in observe(game, 0)["known"]] == \
        sorted([(game.name(back), 1), (card, 0)], key=lambda k: item(game, k[0]))
    assert [(k["item"], k["from_top"]) for k in observe(game, 1)["known"]] == [(card, 0)]


def test_the_other_seat_takes_it_and_puts_back_its_own(rules):
    """Seat 1 peeks in turn, draws seat 0's item among its two and keeps it: seat 0's knowledge
    goes with it (it left the pile), and seat 1 knows the one it put back."""
    game, back = peeked(rules)
    two = pile(game)[-2:]
    turn(game, "peek")
    game.apply(act("choose", game.name(back)))
    game.apply(act("choose_option", "top"))
    other = next(i for i in two if i != back)
    assert pile(game)[-1] == other and game.state.known == {other: [1]}
    assert observe(game, 0)["known"] == [] and game.name(back) in observe(game, 0)["zones"]["city"]["1"]


def test_determinize_keeps_it_for_the_seat_that_knows_and_draws_it_again_for_the_other(rules):
    game, back = peeked(rules)
    turn(game, "bury")
    at = pile(game).index(back)
    for_knower = {determinize(game, 0, random.Random(k)).state.zones[game.state.loc[back]][at] for k in range(40)}
    assert for_knower == {back}
    for_other = [determinize(game, 1, random.Random(k)) for k in range(40)]
    assert len({copy.state.zones[game.state.loc[back]][at] for copy in for_other}) > 1
    # (in the other seat's copy, the knower knows whatever lies at that place)
    assert all(copy.state.known == {copy.state.zones[game.state.loc[back]][at]: [0]} for copy in for_other)


def test_saves_clones_and_undo_keep_it_and_a_bad_one_is_refused(rules):
    game, back = peeked(rules)
    assert loads(dumps(game.state)).known == {back: [0]}
    assert game.clone().state.known == {back: [0]}
    turn(game, "mix")
    undo_last(game)
    assert game.state.known == {back: [0]} and observe(game, 0)["known"][0]["from_top"] == 0
    # Known where it lies in a city: not face down, in no deck.
    data = json.loads(dumps(game.state))
    kept = next(i for i in range(len(data["state"]["loc"])) if data["state"]["loc"][i] == game.slot(
        game.content.zone_index["city"], 0))
    data["state"]["known"] = {str(kept): [0]}
    with pytest.raises(SaveFileError, match="does not lie face down or in a deck no seat sees"):
        check_state(loads(json.dumps(data)), game.content, validated=True)


def test_the_made_up_game_keeps_the_engines_invariants(rules):
    for seed in range(3):
        run = run_checked(rules.new_game(seed=seed), rng=seed, raise_on_failure=False)
        assert run.ok, run.violation


# -- Pantheon: the god a mythology token's drawer returns on top of its deck -------------------

def test_the_god_returned_on_top_of_its_deck_is_known_to_its_drawer_while_it_lies_there():
    from test_face_down_knowledge import placed_game
    game = placed_game()   # seat 1 drew Anubis and Ra, placed Ra face down, returned Anubis
    anubis = item(game, "Anubis")
    deck = game.slot(game.content.zone_index["egyptian_gods"], 0)
    assert game.state.zones[deck][-1] == anubis
    entry = {"item": "Anubis", "zone": "egyptian_gods", "seat": None, "at": len(game.state.zones[deck]) - 1,
             "space": None, "from_top": 0}
    assert entry in observe(game, 1)["known"]
    assert all(k["item"] != "Anubis" for k in observe(game, 0)["known"])
    assert "you know: Anubis: on top of egyptian_gods" in render_game(game, 1)
    assert "Anubis" not in render_game(game, 0)
    # Its search keeps Anubis on top; the other seat's draws that deck again.
    assert {determinize(game, 1, random.Random(k)).state.zones[deck][-1] for k in range(30)} == {anubis}
    assert len({determinize(game, 0, random.Random(k)).state.zones[deck][-1] for k in range(30)}) > 1
    # Later: while Anubis lies there, seat 1's observations say so, counting what went on it;
    # drawn by seat 0 (with Isis, in this game), it is not known to seat 1, and whatever entry
    # names it after that says where it really lies.
    rng = random.Random(7)
    said, stayed, left_at = 0, True, None
    while not game.over:
        stayed = stayed and game.state.loc[anubis] == deck
        entries = [k for k in observe(game, 1)["known"] if k["item"] == "Anubis"]
        held = game.state.zones[game.state.loc[anubis]]
        if stayed:
            assert entries == [{**entry, "at": held.index(anubis), "from_top": len(held) - 1 - held.index(anubis)}]
            said += 1
        elif left_at is None:
            left_at = len(game.state.history)
            assert entries == [] and game.state.loc[anubis] == game.slot(game.content.zone_index["drawn_gods"], 0)
        else:
            assert all(k["at"] == held.index(anubis) for k in entries)
        game.apply(rng.choice(game.legal_actions()))
    assert said > 1 and left_at is not None


# -- Agora: the conspiracy put back on top or at the bottom of its deck ------------------------

@pytest.mark.parametrize("where_to", ["top", "bottom"])
def test_the_conspiracy_put_back_is_known_to_its_drawer_on_top_or_at_the_bottom(where_to):
    """Conspiring: "trek 2 samenzweringskaarten. Bekijk deze kaarten, kies er 1, leg deze gesloten
    voor je neer en leg de andere kaart bovenop of onderop de stapel (jouw keuze)" (Agora
    rulebook, shared/seeds/004): the drawer knows where the other one went."""
    from agora_positions import agora_game, answer, recruit, set_conspiracy_deck
    game = agora_game()
    set_conspiracy_deck(game, "Coup", "Treason", "Espionage", "Blackmail")    # Blackmail on top
    recruit(game, "Conspirator C")
    answer(game, "conspire")
    answer(game, "Espionage")
    answer(game, where_to)
    at, from_top = (2, 0) if where_to == "top" else (0, 2)
    assert observe(game, 0)["known"] == [{"item": "Blackmail", "zone": "conspiracy_deck", "seat": None, "at": at,
                                          "space": None, "from_top": from_top}]
    assert observe(game, 1)["known"] == [] and "Blackmail" not in json.dumps(observe(game, 1))
    said = "on top" if where_to == "top" else "at the bottom"
    assert f"you know: Blackmail: {said} of conspiracy_deck" in render_game(game, 0)
