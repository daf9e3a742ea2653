"""Events: what each one carries (checked fields, item attributes), `discarded` for every way an
item reaches the discard pile, and zone events filtered by `zone=`.

The games here are the bundled content plus a small fan expansion written for the test, whose
rule counts the events it hears by putting coins on tally tokens lying in the box."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import attrs
import pytest

from agora_positions import add_cubes, agora_game, control, is_hidden, set_decree, set_senate
from positions import act, discard_pile, give, item, names, put_accessible, set_coins, set_turn
from rulesdsl.interpreter import Game, new_game
from rulesdsl.report import check_paths

# -- fan content ----------------------------------------------------------------------------------

WATCH = """
expansion discard_watch {
    title "Discard watch"
    zone spares
}

token "Tally" { deck box }
token "Tally by p1" { deck box }
token "Tally from p0" { deck box }
token "Tally from p1" { deck box }
token "Tally red" { deck box }
token "Tally wonder" { deck box }
token "Spare" { deck spares }

rule "Count discards" {
    when discarded {
        put_coins 1 "Tally"
        if event.by == player(1) { put_coins 1 "Tally by p1" }
        if event.owner == player(0) { put_coins 1 "Tally from p0" }
        if event.owner == player(1) { put_coins 1 "Tally from p1" }
        if event.color == red { put_coins 1 "Tally wonder" }
    }
    when discarded color=red { put_coins 1 "Tally red" }
}

# Held by a player: pays when the opponent discards.
token "Scavenger" {
    deck box
    when discarded by=opponent { gain 3 coins }
}

action wreck { param card from city owner=opponent; discard card }
action scrap { param card from city; discard card }
action bin { param card from structure; move card discard }
action sweep { move_all city discard owner=opponent }
action toss { deal 1 spares discard }
action flip { take_top 1 spares discard }
"""

TALLIES = ("Tally", "Tally by p1", "Tally from p0", "Tally from p1", "Tally red")


def fan(tmp_path: Path, name: str, text: str) -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "cards.rules").write_text(text, encoding="utf-8")
    return str(folder)


@pytest.fixture
def watched(tmp_path) -> Game:
    """The base game (beginner wonders, Age I, p0 to move) with the discard watch."""
    game = new_game(expansions=[fan(tmp_path, "watch", WATCH)], options=["beginner_wonders"])
    assert game.state.flow == "turn" and game.state.pending is None
    return game


def tallies(game: Game) -> dict[str, int]:
    return {t: game.state.item_coins.get(item(game, t), 0) for t in TALLIES}


def seen(total=0, by_p1=0, from_p0=0, from_p1=0, red=0) -> dict[str, int]:
    return dict(zip(TALLIES, (total, by_p1, from_p0, from_p1, red)))


# -- `discarded`: every way into the discard pile ----------------------------------------------------

def test_the_discard_action_fires_discarded_by_the_player_and_owned_by_nobody(watched):
    game = watched
    put_accessible(game, "Stable")                    # red
    game.apply(act("discard", "Stable"))
    assert names(game, "discard") == ["Stable"]
    assert tallies(game) == seen(total=1, red=1)       # by p0, from the structure (no owner)
    assert game.state.item_coins[item(game, "Tally wonder")] == 1   # event.color read at run time


def test_a_card_discarded_from_a_city_by_the_opponent(watched):
    game = watched
    give(game, 1, "Lumber Yard")
    give(game, 1, "Scavenger")                        # p1 is paid when p0 discards
    coins = game.state.coins[1]
    game.apply(act("wreck", "Lumber Yard"))
    assert names(game, "discard") == ["Lumber Yard"] and "Lumber Yard" not in names(game, "city", 1)
    assert tallies(game) == seen(total=1, from_p1=1)   # by p0, from p1's city
    assert game.state.coins[1] == coins + 3


def test_a_card_discarded_from_ones_own_city(watched):
    game = watched
    give(game, 0, "Garrison")
    give(game, 0, "Scavenger")                        # p0's own discard is not the opponent's
    coins = game.state.coins[0]
    game.apply(act("scrap", "Garrison"))
    assert tallies(game) == seen(total=1, from_p0=1, red=1)
    assert game.state.coins[0] == coins


def test_the_second_player_discarding(watched):
    game = watched
    set_turn(game, 1)
    give(game, 0, "Scavenger")
    coins = game.state.coins[0]
    put_accessible(game, "Quarry")
    game.apply(act("discard", "Quarry"))
    assert tallies(game) == seen(total=1, by_p1=1)
    assert game.state.coins[0] == coins + 3           # the opponent of p0 discarded


def test_a_wonder_of_the_base_game_destroying_the_opponents_card(watched):
    # Statue of Zeus (p0's): "choose 1 brown card of the opponent's city and discard it".
    game = watched
    give(game, 1, "Lumber Yard", "Scavenger")
    set_coins(game, 0, 50)
    coins = game.state.coins[1]
    game.apply(act("wonder", game.name(game.accessible()[0]), "Statue of Zeus"))
    assert game.state.pending is not None
    game.apply(act("choose", "Lumber Yard"))
    assert "Lumber Yard" in names(game, "discard")
    assert tallies(game) == seen(total=1, from_p1=1)
    assert game.state.coins[1] == coins + 3


def test_move_move_all_deal_and_take_top_into_the_discard_pile(watched):
    game = watched
    put_accessible(game, "Palisade")
    game.apply(act("bin", "Palisade"))               # move
    assert tallies(game) == seen(total=1, red=1)
    set_turn(game, 0)
    give(game, 1, "Lumber Yard", "Quarry")
    game.apply(act("sweep"))                          # move_all: one event per item, owner p1
    assert sorted(names(game, "discard")) == ["Lumber Yard", "Palisade", "Quarry"]
    assert tallies(game) == seen(total=3, from_p1=2, red=1)
    set_turn(game, 0)
    game.apply(act("toss"))                           # deal
    assert "Spare" in names(game, "discard")
    assert tallies(game)["Tally"] == 4


def test_take_top_into_the_discard_pile(watched):
    game = watched
    game.apply(act("flip"))
    assert names(game, "discard") == ["Spare"]
    assert tallies(game) == seen(total=1)


def test_items_lying_on_a_discarded_card_are_discarded_too(watched):
    game = watched
    put_accessible(game, "Stable")
    rider = item(game, "Spare")
    game.relocate(rider, game.structure_slot)
    game.state.attached[rider] = item(game, "Stable")
    game.apply(act("discard", "Stable"))
    assert sorted(names(game, "discard")) == ["Spare", "Stable"]
    assert tallies(game) == seen(total=2, red=1)


def test_setting_a_position_up_is_no_discard(watched):
    # Test helpers and scenarios put items straight into zones: that is nobody's doing.
    game = watched
    discard_pile(game, "Stable")
    game.advance()
    assert tallies(game) == seen()


# -- zone events: `zone=` --------------------------------------------------------------------------

COUNCIL = """
expansion council_fan {
    title "Council"
    zone council public spaces=6 counters=5 majority
}

token "Council tally" { deck box }
token "Any cube tally" { deck box }

action lobby { param card from structure; discard card; add_cube council space=1 }

rule "Council watch" {
    when cube_added zone=council { put_coins 1 "Council tally" }
    when cube_added { if event.zone == council { put_coins 1 "Any cube tally" } }
}
"""


def council_game(tmp_path) -> Game:
    return agora_game(expansions=("agora", fan(tmp_path, "council", COUNCIL)))


def coins_on(game: Game, name: str) -> int:
    return game.state.item_coins.get(item(game, name), 0)


def test_a_fan_cube_zone_does_not_set_off_the_senate_rules(tmp_path):
    game = council_game(tmp_path)
    set_decree(game, 1, "Decree: shield", face_down=True)
    set_senate(game, [1, 0, 1, 1, 1, 1], [0] * 6)     # p0 holds 5 chambers: one more would win
    pawn = game.state.pawn
    game.apply(act("lobby", game.name(game.accessible()[0])))
    council = game.state.cubes["council"]
    assert council[0][1] == 1 and game.state.control["council"][1] == 0
    # The Agora rules heard nothing: the decree stays face down, the shield decree (ruled by
    # the senate's chamber 1) did not move the pawn, and no political supremacy.
    assert is_hidden(game, "Decree: shield")
    assert game.state.pawn == pawn and not game.over
    assert coins_on(game, "Council tally") == 1 and coins_on(game, "Any cube tally") == 1
    # A cube in the senate's chamber 1 does all three (the senate is not the council).
    add_cubes(game, 1, 1)
    assert not is_hidden(game, "Decree: shield")
    assert control(game)[1] == 1 and game.state.pawn == pawn - 1
    assert coins_on(game, "Council tally") == 1 and coins_on(game, "Any cube tally") == 1


def test_zone_events_carry_their_zone_and_space(tmp_path):
    text = COUNCIL + """
token "Space tally" { deck box }
rule "Spaces" {
    when control_gained zone=council { put_coins event.space + 1 "Space tally" }
}
"""
    game = agora_game(expansions=("agora", fan(tmp_path, "council", text)))
    game.apply(act("lobby", game.name(game.accessible()[0])))
    assert coins_on(game, "Space tally") == 2          # space 1
    add_cubes(game, 0, 4)                               # the senate's chambers: not the council's
    assert coins_on(game, "Space tally") == 2


# -- the checker ------------------------------------------------------------------------------------

def diagnostics(tmp_path: Path, body: str) -> list[tuple[str, int, int, str, str | None]]:
    path = tmp_path / "card.rules"
    path.write_text('card "Test Card" {\n    age 1\n    color yellow\n' + body + '\n}\n', encoding="utf-8")
    return [(d.code, d.span.line, d.span.column, d.message, d.help) for d in check_paths([path]).diagnostics]


def test_an_unknown_event_field_with_did_you_mean(tmp_path):
    got = diagnostics(tmp_path, "    when traded { gain event.amout coins }")
    assert got == [("E307", 4, 30, "event `traded` has no field `amout`", "did you mean `amount`?")]


def test_an_event_field_is_checked_against_the_enclosing_when(tmp_path):
    # `zone` is a field of cube_added, not of built: the hint lists what `built` carries.
    got = diagnostics(tmp_path, "    when built { if event.zone == city { gain 1 coin } }")
    assert got == [("E307", 4, 27, "event `built` has no field `zone`",
                    "`built` carries: by, item, kind, color, via")]
    # (the base game has no cube zone: W509, and nothing about the field)
    got = diagnostics(tmp_path, "    when cube_added { if event.zone == city { gain 1 coin } }")
    assert [g[:4] for g in got] == [("W509", 4, 10, "no zone of this game holds cubes: `cube_added` never happens")]


def test_an_unknown_item_attribute(tmp_path):
    got = diagnostics(tmp_path, "    choose 1 from city where=it.name == 1 { discard chosen }")
    assert [g[:4] for g in got] == [("E307", 4, 33, "an item has no attribute `name`")]
    assert "color" in got[0][4]
    got = diagnostics(tmp_path, "    when built { if event.item.colr == red { gain 1 coin } }")
    assert got == [("E307", 4, 32, "an item has no attribute `colr`", "did you mean `color`?")]
    assert diagnostics(tmp_path, "    gain this.age + this.value coins") == []


def test_event_fields_and_attributes_have_types(tmp_path):
    got = diagnostics(tmp_path, "    when built { gain event.kind coins }")
    assert [g[:4] for g in got] == [("E309", 4, 23, "expected a number, found a word")]
    got = diagnostics(tmp_path, "    when pawn_moved { gain science_count(event.amount) coins }")
    assert [g[:4] for g in got] == [("E309", 4, 42, "expected a scientific symbol, found a number")]
    got = diagnostics(tmp_path, "    when built { if it.age > 0 { gain 1 coin } }")
    assert [g[0] for g in got] == ["E307"]            # `it` only in where=
    assert diagnostics(tmp_path, "    when discarded { if event.owner == opponent { gain event.item.age coins } }") == []


def test_filters_must_be_fields_of_the_event(tmp_path):
    got = diagnostics(tmp_path, "    when built zone=city { gain 1 coin }")
    assert got == [("E204", 4, 16, "event `built` has no `zone` to filter on",
                    "`built` filters on: by, color, kind, via")]
    got = diagnostics(tmp_path, "    when cube_added color=red { gain 1 coin }")
    assert [g[:4] for g in got] == [("W509", 4, 10, "no zone of this game holds cubes: `cube_added` never happens"),
                                    ("E204", 4, 21, "event `cube_added` has no `color` to filter on")]
    got = diagnostics(tmp_path, "    when cube_added zone=senat { gain 1 coin }")
    assert [g[0] for g in got] == ["E305"]            # zone= names a zone


def test_zone_filter_names_a_zone_with_cubes(tmp_path):
    got = diagnostics(tmp_path, "    when control_gained zone=city { gain 1 coin }")
    assert got == [("E204", 4, 30, "zone `city` holds no cubes: `control_gained` never happens there",
                    "cube zones are declared with `counters=N`")]
    path = tmp_path / "council.rules"
    path.write_text('expansion council {\n    zone council public spaces=3 counters=4\n}\n\n'
                    'rule "Watch" {\n    when cube_added zone=discard { gain 1 coin }\n'
                    '    when cube_added zone=council { gain event.space coins }\n}\n', encoding="utf-8")
    got = [(d.code, d.span.line, d.span.column, d.help) for d in check_paths([path]).diagnostics]
    assert got == [("E204", 6, 26, "zones with cubes: council")]


# -- the frames of rules that surely hear an event ----------------------------------------------
def test_rules_sure_to_hear_an_event_are_kept_as_a_tuple():
    # Duel's science rules hear every symbol gained by their actor: nothing to test per event.
    from rulesdsl.interpreter import events
    game = new_game(seed=1)
    content = game.content
    science = content.triggers_by_event["gained_science"]
    assert events._hearing(science, None, None).__class__ is tuple
    # An item's trigger (whose item may be out of play) or a rule of another seat's events is
    # tested event by event.
    built = content.triggers_by_event["built"]
    items_triggers = [t for t in built if t.item >= 0]
    assert items_triggers and events._hearing(items_triggers, None, None).__class__ is list
    other = [attrs.evolve(t, by="opponent") for t in science]
    assert events._hearing(other, None, None).__class__ is list


@pytest.mark.parametrize("name", ["duel", "agora+pantheon"])
def test_the_frames_of_rules_sure_to_hear_are_those_testing_makes(name, monkeypatch):
    # At every step of seeded games, every event the content hears, of each seat (of an item
    # of each kind and colour where the event has one): the frames made without a test are
    # those testing each trigger makes, block, seat and names.
    from golden_games import SETS
    from rulesdsl.interpreter import events
    from rulesdsl.pipeline import load_ruleset

    rules = load_ruleset(*SETS[name])
    tested = events._hearing
    items = {(it.kind, it.color): it.id for it in rules.content.items}

    def frames(game, plain: bool) -> list:
        game._hearing = {}   # (the content's own is shared: each way fills its own here)
        monkeypatch.setattr(events, "_hearing", tested if plain else (lambda *args: list(tested(*args))))
        out = []
        for event in sorted(game.content.triggers_by_event):
            for actor in range(game.content.players):
                for about in ([-1] if event not in ("built", "acquired", "discarded", "uncovered") else items.values()):
                    fields = {"via": "paid"} if event == "built" else {}
                    made = events.event_frames(game, event, actor, about, fields=fields)
                    out.append([(f.block, f.me, f.env) for f in made])
        return out

    for seed in range(2):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game._apply(game.random_action(rng))
            if game.state.turn % 5 == 0:
                kept = game._hearing
                assert frames(game, True) == frames(game, False), game.state.turn
                game._hearing = kept
                monkeypatch.setattr(events, "_hearing", tested)
    # (some events were heard by rules alone: the path without tests was compared)
    assert any(v.__class__ is tuple and v for v in rules.new_game(seed=0)._hearing.values())


# -- `uncovered`: what its triggers ask, before the turn ends ------------------------------------
TIP = """
expansion tip {
    title "Tip"
}

rule "Tip on turning up" {
    when uncovered { choose_player { gain 1 coins who=chosen } }
}
"""


def test_a_decision_asked_as_a_card_is_turned_up_comes_before_the_end_of_the_turn(tmp_path):
    # A card turned up at the end of a turn sets the rule off; its decision is asked before the
    # turn ends, and the turn ends (the other seat to move) once it is answered.
    game = new_game(expansions=[fan(tmp_path, "tip", TIP)], options=["beginner_wonders"], seed=3)
    origins = game.content.block_origins
    rng = random.Random(3)
    asked = 0
    while not game.over and asked < 5:
        before = game.state.current
        game._apply(game.random_action(rng))
        d = game.state.pending
        if d is None or "Tip on turning up" not in origins[d.body]:
            continue
        asked += 1
        st = game.state
        assert st.flow == "action" and d.player == before
        again = st.play_again
        coins = list(st.coins)
        game.apply(next(a for a in game.legal_actions() if a.args == ("p1",)))
        while game.state.pending is not None and "Tip on turning up" in origins[game.state.pending.body]:
            game.apply(next(a for a in game.legal_actions() if a.args == ("p1",)))   # (two cards turned up)
        assert game.state.coins[1] > coins[1]
        if game.state.flow == "turn" and not again:
            assert game.state.current == 1 - before
    assert asked == 5


def test_an_event_field_written_in_reads_what_event_field_reads():
    """The compiler writes `event.FIELD` as a read of the event's dict, with no call, for every
    field but those read from the event's item (`EVENT_ITEM_FIELDS`): the same value as
    `events.event_field`, None for a field the event does not say."""
    from rulesdsl import ast
    from rulesdsl.compiler import EVENT_ITEM_FIELDS
    from rulesdsl.diagnostics import Span
    from rulesdsl.interpreter.events import event_field
    from rulesdsl.interpreter.state import Frame
    from rulesdsl.pipeline import compile_layers

    compiled = compile_layers((), "duel", None)
    game = new_game(seed=1)
    at = Span.point("test", 1, 1)
    card = game.content.item_index["Lumber Yard"]
    events = [{"name": "built", "by": 1, "item": card, "owner": 0, "via": "build"},
              {"name": "built", "by": 0, "item": -1}, {"name": "age_ended", "by": 1}]
    for name in ("item", "by", "owner", "via", "zone", *EVENT_ITEM_FIELDS):
        read = compiled.compiler.expr(ast.Attribute(ast.Name("event", at), name, at))
        assert (".get(" in read.source) == (name not in EVENT_ITEM_FIELDS), read.source
        for event in events:
            frame = Frame(0, 0, 0, 0, {"event": event})
            assert read(game, frame) == event_field(game, event, name), (name, event)
            assert compiled.compiler.fused(read.source)(game, frame) == event_field(game, event, name), (name, event)


class _NothingKept(dict):
    """A game's `_hearing` that never answers: every event goes through `events.event_frames`."""
    def get(self, key, default=None):
        return None


@pytest.mark.parametrize("name", ["duel", "agora+pantheon"])
def test_an_event_read_by_name_where_it_is_raised_plays_what_event_frames_plays(name, monkeypatch):
    # A trade paid to the bank (`economy.build`), the pawn moved (`track.shields`) and a science
    # symbol gained (a written arrival) read what hears them from `g._hearing` and make the
    # frames by `events.heard_frames` themselves, and a trade and a built item's arrival call it
    # only where some trigger's item is in play or ruled (`arrivals.OUT_OF_PLAY`): the same
    # states after every action of seeded games as with every event asked of `event_frames`,
    # where each of them set something off.
    from golden_games import SETS
    from played_out import after_each_action
    from rulesdsl.interpreter import events
    from rulesdsl.pipeline import load_ruleset

    rules = load_ruleset(*SETS[name])
    heard = events.heard_frames
    made: set[str] = set()

    def noting(g, hearing, event, *rest):
        out = heard(g, hearing, event, *rest)
        if out and sys._getframe(1).f_code.co_name != "event_frames":
            made.add(event)
        return out

    monkeypatch.setattr(events, "heard_frames", noting)
    for seed in range(20):
        written = after_each_action(rules.new_game(seed=seed), seed)
        game = rules.new_game(seed=seed)
        game._hearing = _NothingKept()
        assert written == after_each_action(game, seed), seed
        if seed >= 3 and {"traded", "pawn_moved", "gained_science"} <= made:
            break
    assert {"traded", "pawn_moved", "gained_science"} <= made, made
