"""The classic 7 Wonders rulebook read section by section by a player, for the rules the other
classic tests leave untested (tests/test_classic_content.py, tests/test_classic_rulebook_examples.py).

Each test quotes the Dutch rulebook (shared/seeds/002_fd628ce71d78e927.txt, its checkable facts
copied in tests/data/classic/rulebook-examples.md) with a translation.  Positions are built with
tests/classic_positions.py and played through legal_actions()/apply().

Seats: at 3 players seat 0's left neighbour is seat 1 and its right neighbour seat 2."""

from __future__ import annotations

from rulesdsl.pipeline import load_ruleset
from rulesdsl.testing.verify import verify
from classic_positions import (CLASSIC, act, actions_named, build_stages, classic_game, discard_pile, give, names,
                               paying, pays, play_round, play_until_age, score, set_board, set_coins, set_hand)

P0, P1, P2 = 0, 1, 2


def boards(game, sides: dict[int, str]) -> None:
    for p, side in sides.items():
        set_board(game, p, side)


def to_the_last_turn(game) -> None:
    """Every seat sells until the hands hold 2 cards (the 6th turn of the age)."""
    while len(names(game, "hand", P0)) > 2:
        play_round(game)


# =================================================================================================
# Trade (Grondstoffen kopen van een naburige stad)
# =================================================================================================

def test_the_seller_still_uses_what_it_sells_and_the_buyer_takes_either_resource():
    """"Deze speler behoudt zijn kaart en kan nog steeds gebruik maken van de grondstof die jij
    zojuist gekocht hebt" (the seller keeps the card and can still use the resource you just bought)
    and "dan mag je kiezen welke grondstof je wilt kopen, ongeacht wat jouw buurman gekozen heeft"
    (you choose which resource to buy, whatever your neighbour chose): in one round the left
    neighbour builds Baths with the stone of its Timber Yard (stone|wood) and the player buys that
    same card's wood for a Stockade."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Ephesos (Day)", P2: "Alexandria (Day)"})  # stone, papyrus, glass
    give(game, P1, "Timber Yard")
    set_hand(game, P0, "Stockade", "Altar", "Theater", "Scriptorium", "Guard Tower", "Temple", "Statue")
    set_hand(game, P1, "Baths", "Lumber Yard", "Clay Pool", "Ore Vein", "Loom", "Press", "Glassworks", keep=(P0,))
    assert pays(game, P0, "build", "Stockade") == {((P1, 2),)}          # the only wood on the table
    assert actions_named(game, P1, "build", "Baths") == [act("build", "Baths")]
    play_round(game, {P0: paying(game, P0, "build", "Stockade", pay=((P1, 2),)), P1: act("build", "Baths")})
    assert "Stockade" in names(game, "city", P0) and "Baths" in names(game, "city", P1)
    assert game.state.coins[P0] == 3 - 2 and game.state.coins[P1] == 3 + 2


# =================================================================================================
# Wonder stages (B. Een fase van jouw Wonder bouwen) and the Decorators Guild
# =================================================================================================

def test_a_first_stage_may_wait_for_age_3_and_unbuilt_stages_score_nothing():
    """"je kunt de eerste fase van jouw Wonder bouwen tijdens Tijdperk I, II of III" (you can build
    the first stage in Age I, II or III) and "Het bouwen van fases van een Wonder is niet verplicht"
    (building stages is not compulsory): no stage in Ages I and II, stage 1 in Age III; the stages
    left unbuilt score nothing."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Ephesos (Day)"})
    play_until_age(game, 3)
    assert names(game, "built_stages", P0) == []
    give(game, P0, "Lumber Yard", "Timber Yard")                          # 2 wood
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: act("wonder", card, "Gizah (Day) stage 1")})
    assert names(game, "built_stages", P0) == ["Gizah (Day) stage 1"]
    while not game.over:
        play_round(game)
    assert score(game, P0, "stage") == 3


def test_the_decorators_guild_wants_every_stage_even_the_fourth():
    """The Decorators Guild (reference YAML `vp_if_wonder_complete: 7`; the rulebook: "Tel de
    overwinningspunten van de paarse kaarten ... volgens de effecten beschreven op de kaarten",
    count the purple cards' points as their effects say): 7 once every stage of the own side is
    built, on Gizah Night all four; nothing with three of four."""
    game = classic_game(3)
    set_board(game, P0, "Gizah (Night)")
    give(game, P0, "Decorators Guild")
    build_stages(game, P0, 3)
    assert score(game, P0, "purple") == 0
    build_stages(game, P0, 1)
    assert score(game, P0, "purple") == 7
    assert score(game, P0, "stage") == 3 + 5 + 5 + 7


# =================================================================================================
# No two cards of one name, whatever builds the card
# =================================================================================================

def test_a_free_build_never_gives_a_second_card_of_a_name():
    """"Je kunt nooit twee dezelfde gebouwen bouwen" (you can never build two identical buildings):
    Olympia Night's free first card of the age is not offered for a card the city holds (the
    Loom of Age I and the Loom of Age II are one building)."""
    game = classic_game(3)
    boards(game, {P0: "Olympia (Night)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Loom")                                  # 3 players: a Loom of Age I and one of Age II
    set_hand(game, P0, "Loom", "Theater", "Baths", "Scriptorium", "Guard Tower", "Temple", "Statue")
    assert actions_named(game, P0, "build_free", "Loom") == []
    assert actions_named(game, P0, "build_free", "Theater")


# =================================================================================================
# The end of the game (EINDE VAN HET SPEL) and the last turn of Age III
# =================================================================================================

def test_halikarnassos_builds_from_the_discard_on_the_last_turn_of_age_3_before_the_war():
    """"Het spel eindigt aan het einde van Tijdperk III, na het oplossen van de Militaire
    Conflicten" (the game ends at the end of Age III, after the military conflicts): a stage with
    the discard-pile build, built on Age III's last turn, lets its owner build a discarded red card
    before the game ends; its shields fight in Age III (+5 against each neighbour) and the card is
    in the city at the end."""
    game = classic_game(3)
    boards(game, {P0: "Halikarnassos (Day)", P1: "Ephesos (Day)", P2: "Rhodos (Day)"})
    build_stages(game, P0, 1)
    give(game, P0, "Glassworks", "Press")                                 # glass + papyrus
    play_until_age(game, 3)
    to_the_last_turn(game)
    discard_pile(game, "Fortifications")
    card = names(game, "hand", P0)[0]
    play_round(game, {P0: act("wonder", card, "Halikarnassos (Day) stage 2")})
    assert not game.over and game.to_act() == [P0]
    game.apply(act("choose", "Fortifications"), seat=P0)
    assert game.over
    assert "Fortifications" in names(game, "city", P0)
    assert [score(game, p, "military") for p in range(3)] == [5 + 5, -1, -1]


def test_babylon_nights_extra_turn_is_a_turn_of_its_own():
    """Babylon Night stage 1 plays the 7th card in one more turn (reference YAML play_last_card); we
    read that turn as a turn of its own (docs/rules-notes.md): a card a neighbour built on the 6th
    turn sells in it ("Je kunt geen grondstoffen kopen van een gebouw dat jouw buurman in dezelfde
    beurt gebouwd heeft": only in the *same* turn it cannot), paid with coins received on the 6th
    turn ("Je mag geen munten gebruiken die je van andere spelers ontvangen hebt tijdens dezelfde
    beurt", not the *same* turn any more)."""
    game = classic_game(3)
    boards(game, {P0: "Gizah (Day)", P1: "Rhodos (Day)", P2: "Babylon (Night)"})   # stone, ore, wood
    build_stages(game, P2, 1)
    to_the_last_turn(game)
    set_hand(game, P2, "Altar", "Guard Tower")
    set_hand(game, P1, "Clay Pool", "Theater", keep=(P2,))
    set_hand(game, P0, "Stockade", "Scriptorium", keep=(P1, P2))
    set_coins(game, P2, 0)
    assert pays(game, P2, "build", "Guard Tower") == set()                # no clay on the table, no coins
    play_round(game, {P0: paying(game, P0, "build", "Stockade", pay=((P2, 2),)),     # Babylon's wood
                      P1: act("build", "Clay Pool"), P2: act("build", "Altar")})
    assert game.to_act() == [P2] and names(game, "hand", P2) == ["Guard Tower"]
    assert game.state.coins[P2] == 2
    assert pays(game, P2, "build", "Guard Tower") == {((P1, 2),)}
    play_round(game, {P2: paying(game, P2, "build", "Guard Tower", pay=((P1, 2),))})
    assert "Guard Tower" in names(game, "city", P2)
    assert game.state.age == 1


# =================================================================================================
# Set-up: boards chosen instead of dealt (Voorbereiding)
# =================================================================================================

def test_players_may_choose_their_boards():
    """"Als je wilt, kun je ook Wonder borden kiezen in plaats van willekeurig te verdelen" (if you
    like you may also choose the boards instead of dealing them at random) and "Voor alle volgende
    spellen mag je de Dag- en Nachtzijdes door elkaar gebruiken" (later games may mix Day and Night
    sides): option `chosen_boards`, each seat in turn picks a side of a wonder nobody has, before
    any hand is dealt; with `night_sides` only Night sides are offered."""
    game = classic_game(3, options=("chosen_boards",))
    assert game.to_act() == [P0] and game.state.coins == [3, 3, 3]
    assert all(names(game, "hand", p) == [] for p in range(3))
    offered = {a.args[0] for a in game.legal_actions(P0)}
    assert len(offered) == 14 and "Olympia (Night)" in offered and "Olympia (Day)" in offered
    game.apply(act("choose", "Olympia (Night)"), seat=P0)
    assert game.to_act() == [P1]
    offered = {a.args[0] for a in game.legal_actions(P1)}
    assert len(offered) == 12 and not any(o.startswith("Olympia") for o in offered)
    game.apply(act("choose", "Gizah (Day)"), seat=P1)
    game.apply(act("choose", "Rhodos (Night)"), seat=P2)
    assert [names(game, "board", p) for p in range(3)] == [["Olympia (Night)"], ["Gizah (Day)"], ["Rhodos (Night)"]]
    assert sorted(names(game, "stages", P2)) == ["Rhodos (Night) stage 1", "Rhodos (Night) stage 2"]
    assert sorted(game.to_act()) == [P0, P1, P2] and [len(names(game, "hand", p)) for p in range(3)] == [7] * 3
    assert game.state.coins == [3, 3, 3]

    game = classic_game(3, options=("chosen_boards", "night_sides"))
    assert {a.args[0] for a in game.legal_actions(P0)} == {
        f"{w} (Night)" for w in ("Alexandria", "Babylon", "Ephesos", "Gizah", "Halikarnassos", "Olympia", "Rhodos")}


def test_games_with_chosen_boards_keep_the_invariants():
    """The option's choices are decisions like any other: random games through them hold
    rulesdsl.testing's invariants (one place per item, hidden hands, determinism, ...) at 7 players."""
    rules = load_ruleset((), base=CLASSIC, players=7)
    report = verify(rules.content, 2, seed=7, options=("chosen_boards",), base=CLASSIC)
    assert report.failure is None, report.failure


# =================================================================================================
# Set-up: the guilds join Age III's shuffled deck (Voorbereiding)
# =================================================================================================

def test_the_guilds_are_shuffled_into_age_3():
    """"Voeg deze kaarten toe aan de andere kaarten van Tijdperk III ... Schud elke stapel" (add
    them to the other Age III cards ... shuffle each deck): players + 2 guilds are dealt in Age III,
    and over games every seat gets some, not always the same seats or the same guilds."""
    players = 5
    per_seat = [0] * players
    seen: set[str] = set()
    for seed in range(12):
        game = classic_game(players, seed=seed)
        play_until_age(game, 3)
        dealt = [[c for c in names(game, "hand", p) if c.endswith(" Guild")] for p in range(players)]
        assert sum(len(d) for d in dealt) == players + 2
        for p, d in enumerate(dealt):
            per_seat[p] += len(d)
            seen.update(d)
    assert all(per_seat), per_seat
    assert len(seen) == 10
