"""Designer content that `check` accepted and the engine then played wrong or crashed on (an
audit wrote new content with features the bundled cards do not use): computed owners reading
the frame's names, neighbour trade in a game of turns, a card naming who starts the next age,
items dealt onto face-up structure cards, positions in a zone nobody sees, cubes on a zone
without `majority`, and simultaneous rounds: seats choosing one item, structure cards to turn
up, an extra round nobody can use."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.interpreter import Action
from rulesdsl.interpreter.observation import observe
from rulesdsl.pipeline import load_ruleset, new_game
from rulesdsl.testing import run_checked
from rulesdsl.testing import scenarios as S


def folder(tmp_path: Path, name: str, text: str) -> Path:
    d = tmp_path / name
    d.mkdir()
    (d / "e.rules").write_text(text, encoding="utf-8")
    return d


def scenario(tmp_path: Path, text: str) -> list[S.ScenarioResult]:
    path = tmp_path / "t.scenario"
    path.write_text(text, encoding="utf-8")
    return S.run_file(path)


def all_pass(results: list[S.ScenarioResult]) -> None:
    assert results and all(r.passed for r in results), "\n".join(r.render() for r in results if not r.passed)


# -- a computed owner= reads `chosen`, an alias, `event` (it raised KeyError: a traceback) --------

OWNERS = """\
expansion owners { }
card "Fortune Teller" {
    age 1
    color yellow
    choose_player {
        choose 1 from city owner=chosen { discard chosen }
    }
}
card "Census" {
    age 1
    color yellow
    choose_player { gain count(city, owner=chosen) coins }
}
card "Mirror" {
    age 1
    color yellow
    choose 1 from city owner=opponent as=x { gain count(city, owner=owner(x)) coins }
}
rule "A brown card pays its builder's city size" {
    when built by=any color=brown { gain count(city, owner=event.by) coins who=event.by }
}
"""


def test_a_computed_owner_reads_the_names_of_its_frame(tmp_path):
    folder(tmp_path, "owners", OWNERS)
    all_pass(scenario(tmp_path, """\
scenario "owner=chosen picks from the chosen seat's city" {
    expansion "owners"
    option beginner_wonders
    give 1 "Baths"
    accessible "Fortune Teller"
    do build "Fortune Teller"
    do choose_player p1
    expect options == ["Baths"]
    do choose "Baths"
    expect zone("Baths") == discard
}
scenario "count(owner=chosen)" {
    expansion "owners"
    option beginner_wonders
    give 1 "Baths" "Altar"
    accessible "Census"
    coins 0 0
    do build "Census"
    do choose_player p1
    expect coins(0) == 2
}
scenario "count(owner=owner(alias))" {
    expansion "owners"
    option beginner_wonders
    give 1 "Baths" "Altar" "Theater"
    accessible "Mirror"
    coins 0 0
    do build "Mirror"
    do choose "Altar"
    expect coins(0) == 3
}
scenario "count(owner=event.by)" {
    expansion "owners"
    option beginner_wonders
    give 0 "Baths"
    accessible "Lumber Yard"
    coins 0 0
    do build "Lumber Yard"
    expect coins(0) == 2
}
"""))


def test_content_with_computed_owners_plays_to_the_end(tmp_path):
    rules = load_ruleset((str(folder(tmp_path, "owners", OWNERS)),), "duel")
    for seed in range(15):
        run = run_checked(rules.new_game(seed=seed), rng=seed)
        assert run.game.over


# -- neighbour trade in a game of turns: the neighbour is paid ------------------------------------

TURNS_TRADE = """\
game mini_trade {
    players 3
    resources wood
    colors brown blue yellow
    item_kinds card
    zone city player active public
    zone discard public
    zone deck1
    zone deck2
    zone box
    build_zone card city
    discard_pile discard
    trade neighbours 1 where=it.color == brown
    score coins coins
}
layout row3 { row up 1 3 5 }
age 1 { deal_structure deck1 layout=row3 }
age 2 { deal_structure deck2 layout=row3 }
action take {
    param card from structure
    build card
}
action sell {
    param card from structure
    discard card
    gain 1 coin
}
card "Woods" { deck deck1; color brown; produce wood }
card "Hut" { deck deck1; color blue; cost wood }
card "Kingmaker" { deck deck1; color yellow; choose_player { starts_next_age chosen } }
card "Patron" { deck deck1; color yellow; choose 1 from structure { build chosen } }
card "A" { deck deck2; color blue }
card "B" { deck deck2; color blue }
card "C" { deck deck2; color blue }
"""


def test_a_neighbour_sells_in_a_game_of_turns_too(tmp_path):
    # Before, the buyer's coins went to the bank: `build` paid the whole price there.
    folder(tmp_path, "turns_trade", TURNS_TRADE)
    all_pass(scenario(tmp_path, """\
scenario "the neighbour is paid" {
    base "turns_trade"
    give 1 "Woods"
    structure "Hut" "Kingmaker"
    coins 0 3
    coins 1 0
    do take "Hut" pay="p1:1"
    expect coins(0) == 2 and coins(1) == 1 and coins(2) == 0
    expect count(city, named="Hut") == 1
}
"""))


def test_an_effect_s_build_pays_the_neighbour_too_and_the_seller_hears_it(tmp_path):
    # A build an effect makes (no action names its payment) paid the whole price to the bank.
    folder(tmp_path, "turns_trade", TURNS_TRADE + 'rule "Tip" { when traded by=any { gain 1 coin who=event.seller } }\n')
    all_pass(scenario(tmp_path, """\
scenario "the effect's build pays the neighbour, who is tipped" {
    base "turns_trade"
    give 1 "Woods"
    structure "Hut" "Patron" "Kingmaker"
    coins 0 3
    coins 1 0
    coins 2 0
    do take "Patron"
    do choose "Hut"
    expect count(city, named="Hut") == 1
    expect coins(0) == 2 and coins(1) == 2 and coins(2) == 0
}
"""))


def test_a_seat_the_event_names_as_none_gains_nothing(tmp_path):
    # Bought from the bank, the seller is -1: `who=event.seller` gave the coin to the last seat.
    folder(tmp_path, "tip", 'rule "Tip" { when traded by=any { gain 1 coin who=event.seller } }\n')
    all_pass(scenario(tmp_path, """\
scenario "the bank is tipped by nobody" {
    expansion "tip"
    option beginner_wonders
    accessible "Baths"
    coins 0 3
    coins 1 5
    do build "Baths"
    expect count(city, named="Baths") == 1
    expect coins(0) == 1 and coins(1) == 5
}
"""))


def test_a_card_that_names_the_next_age_s_starter_decides_it(tmp_path):
    # In a game without `between_ages`, the end of the age gave the start to the player who took
    # the last card, over what the card had said.
    folder(tmp_path, "turns_trade", TURNS_TRADE)
    all_pass(scenario(tmp_path, """\
scenario "the card decides" {
    base "turns_trade"
    structure "Kingmaker"
    do take "Kingmaker"
    do choose_player p2
    expect age == 2 and to_move == 2
}
scenario "else the player who took the last card starts" {
    base "turns_trade"
    structure "Hut" "Woods"
    do take "Woods"
    do sell "Hut"
    expect age == 2 and to_move == 1
}
"""))


# -- an item dealt onto a face-up structure card goes to whoever takes the card -------------------

BOUNTY = """\
expansion bounty {
    zone bounty_pile
    zone shelf public spaces=3
}
token "Bounty" { deck bounty_pile; gain 2 coins }
rule "Bounty on a face-up card" {
    when structure_dealt {
        if age == 1 { deal_onto_structure 1 bounty_pile slots=[18] }
    }
}
action shelve {
    param card from structure
    place card shelf space=0
}
action grab {
    param card from structure
    claim card shelf
}
action stash {
    param card from structure
    move card discard
}
"""


def test_what_lies_on_a_card_built_or_put_under_a_wonder_goes_to_its_taker(tmp_path):
    # Before, the token stayed in the structure on no card (the `one-place` invariant broke);
    # placed, claimed or moved the same way, but to the discard pile, where it goes with the card.
    rules = load_ruleset((str(folder(tmp_path, "bounty", BOUNTY)),), "duel")
    for action in ("build", "wonder"):
        game = rules.new_game(seed=3, options=["beginner_wonders"])
        st, c = game.state, game.content
        bounty = c.item_index["Bounty"]
        card = st.structure[18]
        assert st.attached[bounty] == card and card in game.accessible()
        st.coins[0] = 40
        names = (game.name(card),) if action == "build" else (game.name(card), "Pyramids")
        before = st.coins[0] - game.price(0, c.item_index[names[-1]])[0]
        game.apply(Action(action, names))
        assert st.loc[bounty] == game.slot(c.zone_index["tokens"], 0) and bounty not in st.attached
        assert st.coins[0] == before + 2           # its effect ran: acquired
    for action, into in (("shelve", "tokens"), ("grab", "tokens"), ("stash", "discard"), ("discard", "discard")):
        game = rules.new_game(seed=3, options=["beginner_wonders"])
        st, c = game.state, game.content
        bounty = c.item_index["Bounty"]
        game.apply(Action(action, (game.name(st.structure[18]),)))
        assert game.slot_zone[st.loc[bounty]] == c.zone_index[into] and bounty not in st.attached, action
    for seed in range(10):
        assert run_checked(rules.new_game(seed=seed), rng=seed).game.over   # every invariant held


# -- where an item stands in a zone nobody sees is not shown -------------------------------------

def test_a_position_in_a_zone_nobody_sees_is_not_observed(tmp_path):
    rules = load_ruleset((str(folder(tmp_path, "shelf", """\
expansion hidden_shelf {
    zone shelf spaces=3
    setup { place "Sealed Letter" shelf space=1 }
}
token "Sealed Letter" { deck box; points 1 }
""")),), "duel")
    game = rules.new_game(seed=1, options=["beginner_wonders"])
    assert game.state.positions[game.content.item_index["Sealed Letter"]] == 1
    for p in range(2):
        assert "Sealed Letter" not in observe(game, p)["positions"]


# -- cubes on a zone without `majority`: counted, controlled by nobody ----------------------------

def council(flags: str) -> str:
    return f"""\
expansion council {{
    zone council public spaces=3 counters=3 {flags}
    counter seats_won
}}
card "Delegate" {{
    age 1
    color blue
    add_cube council space=0
}}
rule "Seat won" {{
    when control_gained zone=council {{ add 1 seats_won }}
}}
"""


def test_only_a_majority_zone_gives_control(tmp_path):
    for flags, controller, won in (("", -1, 0), ("majority", 0, 1)):
        d = tmp_path / (flags or "none")
        d.mkdir()
        folder(d, "council", council(flags))
        all_pass(scenario(d, f"""\
scenario "cubes, {flags or 'no flag'}" {{
    expansion "council"
    option beginner_wonders
    accessible "Delegate"
    do build "Delegate"
    expect cubes(council, space=0) == 1
    expect controller(council, 0) == {controller}
    expect controlled(council) == {won}
    expect counter(seats_won) == {won}
}}
"""))


# -- simultaneous rounds --------------------------------------------------------------------------

ROUNDS = Path(__file__).parent / "data" / "rounds"


def test_seats_that_choose_the_same_item_in_a_round_do_not_share_it():
    # Three seats take "Statue" from a shared market of three copies: each gets one (before, all
    # bound the same copy: it moved from city to city, and the first two paid twice for nothing).
    # One "Idol": seat order decides, and the others' actions are void (nothing paid, and its
    # `when built` does not fire for them).
    game = new_game(base=str(ROUNDS / "market2"), players=3, seed=1)
    for seat in range(3):
        game.apply(Action("take", ("Statue",)), seat=seat)
    assert [game.items_in("city", s) for s in range(3)] == [["Statue"]] * 3
    assert game.state.coins == [3, 3, 3] and game.items_in("market") == ["Idol"]
    for seat in range(3):
        game.apply(Action("take", ("Idol",)), seat=seat)
    assert [game.items_in("city", s) for s in range(3)] == [["Statue", "Idol"], ["Statue"], ["Statue"]]
    assert game.state.coins == [12, 3, 3]


def test_seats_that_choose_an_item_they_do_not_take_share_it():
    # An action that only reads its parameter (it moves nothing) is no claim on the item.
    game = new_game(base=str(ROUNDS / "market2"), players=3, seed=1)
    for seat in range(3):
        game.apply(Action("admire", ("Idol",)), seat=seat)
    assert game.state.coins == [6, 6, 6] and game.items_in("market")[-1:] == ["Idol"]


def test_a_round_turns_up_the_structure_cards_it_uncovered():
    # Before, a simultaneous game never turned a face-down card up: it could never be taken.
    game = new_game(base=str(ROUNDS / "simstruct2"), players=3, seed=1, script={"age1": ["E", "A", "B", "C", "D"]})
    for seat, card in enumerate(("A", "B", "C")):
        game.apply(Action("take", (card,)), seat=seat)
    for seat in range(3):
        game.apply(Action("take", ("D",)), seat=seat)
    st = game.state
    assert all(st.face_up) and sum(st.coins) == 5          # E turned up, and `uncovered` paid its bonus
    assert Action("take", ("E",)) in game.legal_actions(game.to_act()[0])


def test_an_extra_round_for_seats_with_nothing_to_do_is_lost_not_the_age():
    # Seat 0 plays again but can afford nothing: before, the age ended for every seat.
    game = new_game(base=str(ROUNDS / "again"), players=3, seed=1,
                    script={"age1": ["Feast"] + ["Brick"] * 8})
    for seat, card in enumerate(("Feast", "Brick", "Brick")):
        game.apply(Action("build", (card,)), seat=seat)
    assert game.state.age == 0 and game.to_act() == [1, 2]


def test_only_content_that_can_lay_items_on_structure_cards_looks_for_them(tmp_path):
    # (what leaves the structure is looked at for riders only where something may lie on it)
    assert not load_ruleset(()).content.structure_riders            # onto= a wonder: never a structure card
    assert load_ruleset(("pantheon",)).content.structure_riders      # deal_onto_structure
    onto = folder(tmp_path, "onto", 'card "Pin" { age 1; color yellow; choose 1 from structure '
                                     '{ move "Law" box onto=chosen } }\n')
    assert load_ruleset((str(onto),)).content.structure_riders
