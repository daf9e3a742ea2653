"""What a seat knows of items lying face down (interpreter/knowledge.py): the seat that places a god
face down on the Pantheon ("Duel Pantheon" rulebook, shared/seeds/003: the two gods drawn are
looked at by their drawer only; one is put face down on a Pantheon space) knows which god lies
there; the other seat sees only its back until Age II turns the gods face up."""

from __future__ import annotations

import json
import random

import pytest

from rulesdsl.interpreter import new_game
from rulesdsl.interpreter.observation import observe, zones_with_known
from rulesdsl.interpreter.persistence import ADDED_IN_5, dumps, loads
from rulesdsl.interpreter.search import determinize
from rulesdsl.interpreter.undo import undo_last
from rulesdsl.play_view import render_game
from rulesdsl.rl.render import render_text
from rulesdsl.testing.invariants import _names_in_observation, visible_items

from positions import act, item

# Seed 3 of a random game: seat 1 takes a card with an Egyptian mythology token on it and draws
# Anubis and Ra (found by playing it; `placed_game` checks it).
SEED = 3


def drawn_slots(game):
    z = game.content.zone_index["drawn_gods"]
    return [game.slot(z, p) for p in range(game.content.players)]


def placed_game():
    """Seat 1 has drawn Anubis and Ra and placed Ra face down on Pantheon space 0."""
    game = new_game(expansions=["pantheon"], seed=SEED)
    rng = random.Random(SEED)
    drawn = drawn_slots(game)
    while not any(game.state.zones[s] for s in drawn):
        game.apply(rng.choice(game.legal_actions()))
    assert game.state.pending.player == 1
    assert sorted(map(str, game.legal_actions())) == ["choose Anubis", "choose Ra"]
    game.apply(act("choose", "Ra"))
    game.apply(act("choose_space", "0"))
    ra = item(game, "Ra")
    assert ra in game.state.hidden and game.state.positions[ra] == 0
    return game


def names_shown(obs) -> set[str]:
    return {name for _, name in _names_in_observation(obs)}


def test_the_placer_sees_its_god_the_other_seat_only_its_back():
    game = placed_game()
    mine, theirs = observe(game, 1), observe(game, 0)
    # Both see the back where it lies (the zone lists are as they were: consumers unchanged).
    assert mine["zones"]["pantheon"] == theirs["zones"]["pantheon"] == ["face down (egyptian_gods)"]
    # (and Anubis, the other god of its draw, returned on top of its deck: tests/test_deck_knowledge.py)
    assert mine["known"] == [{"item": "Anubis", "zone": "egyptian_gods", "seat": None, "at": 1, "space": None,
                              "from_top": 0},
                             {"item": "Ra", "zone": "pantheon", "seat": None, "at": 0, "space": 0}]
    assert mine["positions"]["Ra"] == 0
    assert theirs["known"] == [] and "Ra" not in theirs["positions"]
    assert "Ra" in names_shown(mine) and "Ra" not in names_shown(theirs)
    assert "Ra" not in json.dumps(theirs)
    # The screens read it: the placer's names it after its back, the other's shows the back only.
    assert zones_with_known(mine)["pantheon"] == ["face down (egyptian_gods): Ra"]
    assert zones_with_known(theirs)["pantheon"] == ["face down (egyptian_gods)"]
    assert "pantheon: face down (egyptian_gods): Ra" in render_text(game, 1, game.content)
    assert "pantheon: face down (egyptian_gods)\n" in render_text(game, 0, game.content) + "\n"
    assert "face down (egyptian_gods): Ra on 0" in render_game(game, 1)
    assert "Ra" not in render_game(game, 0).replace("Ravine", "")
    # The invariant checker counts it as seen by the placer only.
    assert item(game, "Ra") in visible_items(game, 1) and item(game, "Ra") not in visible_items(game, 0)


def test_the_god_turned_face_up_is_seen_by_both_and_known_to_none_alone():
    game = placed_game()
    ra = item(game, "Ra")
    rng = random.Random(1)
    while game.state.age < 1 and not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.state.age == 1 and game.state.loc[ra] == game.slot(game.content.zone_index["pantheon"], 0)
    # (what is left known lies in decks: the gods returned on top of them)
    assert ra not in game.state.hidden and all(game.state.loc[i] in game.deck_slots for i in game.state.known)
    for seat in (0, 1):
        obs = observe(game, seat)
        assert "Ra" in obs["zones"]["pantheon"] and obs["positions"]["Ra"] == 0
        assert all("from_top" in k for k in obs["known"])


def test_determinize_keeps_the_known_god_for_the_placer_only():
    game = placed_game()
    ra = item(game, "Ra")
    slot = game.state.loc[ra]
    for_placer = {determinize(game, 1, random.Random(k)).state.zones[slot][0] for k in range(30)}
    assert for_placer == {ra}
    for_other = {game.name(determinize(game, 0, random.Random(k)).state.zones[slot][0]) for k in range(30)}
    # The other seat sees the back: any Egyptian god may lie there (Anubis is in seat 1's deck
    # pile, on top, but seat 0 does not know it), and the copy's placer knows whichever it is
    # (and whichever lies on top of that deck, where it returned Anubis).
    assert "Ra" in for_other and len(for_other) > 1 and for_other <= {"Anubis", "Isis", "Ra"}
    copy = determinize(game, 0, random.Random(5))
    there = copy.state.zones[slot][0]
    top = copy.state.zones[game.slot(game.content.zone_index["egyptian_gods"], 0)][-1]
    assert copy.state.known == {there: [1], top: [1]} and there in copy.state.hidden


def test_saves_clones_and_undo_keep_what_a_seat_knows():
    game = placed_game()
    ra, anubis = item(game, "Ra"), item(game, "Anubis")
    knew = {ra: [1], anubis: [1]}   # (Ra face down, Anubis on top of its deck)
    assert game.state.known == knew
    loaded = loads(dumps(game.state))
    assert loaded.known == knew and loaded == game.state
    assert game.clone().state.known == knew
    game.apply(game.legal_actions()[0])
    undo_last(game)
    assert game.state.known == knew and [k["item"] for k in observe(game, 1)["known"]] == ["Anubis", "Ra"]


def test_a_version_4_save_loads_knowing_nothing_and_a_bad_knowledge_is_refused():
    from rulesdsl.interpreter.persistence import SaveFileError
    game = placed_game()
    data = json.loads(dumps(game.state))
    data["version"] = 4
    for added in ADDED_IN_5:
        del data["state"][added]
    assert loads(json.dumps(data)).known == {}
    data["state"]["known"] = {}
    with pytest.raises(SaveFileError, match="version 4 save records no seat's knowledge"):
        loads(json.dumps(data))
    data = json.loads(dumps(game.state))
    ra = str(item(game, "Ra"))
    for bad, said in [({ra: [2]}, "seats that know"), ({ra: []}, "seats that know"), ({ra: [1, 1]}, "seats that know"),
                      ({"0": [1]}, "does not lie face down")]:
        data["state"]["known"] = bad
        with pytest.raises(SaveFileError, match=said):
            loads(json.dumps(data))


@pytest.mark.parametrize("seed", range(6))
def test_no_observation_names_an_item_its_seat_did_not_see(seed):
    """Random Duel + Pantheon games: every face-down item an observation names (`known`, and its
    space under `positions`) is one its seat saw face up before (in its own god draw), and the
    other seat's observation names no item lying face down."""
    game = new_game(expansions=["pantheon"], seed=seed)
    rng = random.Random(seed)
    n = game.content.players
    seen: list[set[int]] = [set() for _ in range(n)]
    knew = 0
    while not game.over:
        st = game.state
        for p in range(n):
            obs = observe(game, p)
            shown = names_shown(obs)
            for k in obs["known"]:
                slot = game.slot(game.content.zone_index[k["zone"]], 0 if k["seat"] is None else k["seat"])
                it = st.zones[slot][k["at"]]
                # (face down where the seat sees its back, or in a deck it saw it go into)
                assert (it in st.hidden or st.loc[it] in game.deck_slots) and game.name(it) == k["item"] \
                    and it in seen[p], (seed, p, k)
                knew += 1
            for it in st.hidden:
                if p not in st.known.get(it, ()):
                    assert game.name(it) not in shown or any(
                        game.name(o) == game.name(it) for o in visible_items(game, p)), (seed, p, game.name(it))
            seen[p] |= visible_items(game, p) - set(st.hidden)
        game.apply(rng.choice(game.legal_actions()))
    assert knew > 0   # (every game here places gods face down)


def test_the_rl_vector_shows_the_back_to_both_seats_and_the_god_to_its_placer_only():
    from rulesdsl.rl.encoding import Encoder
    from rulesdsl.rl.reach import reach_and_face_down
    game = placed_game()
    reach, face_down = reach_and_face_down(game.content, ("pantheon",), "duel")
    enc = Encoder(game.content, game, reach, face_down)
    ra = item(game, "Ra")
    pantheon = game.slot(game.content.zone_index["pantheon"], 0)
    first, decks, index = enc.back_at[pantheon]
    backs_at, size = enc.sections["backs"]
    assert size == 6 * decks   # (the Pantheon's six spaces, each a count per deck a god may come from)
    egyptian = index[game.content.zone_index["egyptian_gods"]]
    items_at, width = enc.sections["items"][0], enc.width
    for seat in (0, 1):
        vec = enc.encode(game, seat)
        backs = vec[backs_at:backs_at + size]
        assert backs[first + 0 * decks + egyptian] == 1.0 and backs.sum() == 1.0   # space 0: an Egyptian back
        row = vec[items_at + width * ra:][:width]
        if seat == 1:   # the placer: where Ra lies, on space 0
            assert row[enc.place_of_slot[1][pantheon]] == 1.0 and row[width - 3] == 1.0 and row[width - 2] == 0
        else:
            assert not row.any()
    # Content that puts nothing face down has no `backs`: its vector is laid out as before.
    base = new_game(seed=0)
    assert Encoder(base.content, base, *reach_and_face_down(base.content, (), "duel")).sections["backs"][1] == 0


def test_the_rl_environment_encodes_the_backs():
    from rulesdsl import rl
    env = rl.env("duel", ("pantheon",))
    assert env.unwrapped.encoder.sections["backs"][1] == 36
    env.reset(seed=SEED)
    assert env.observation_space("player_0")["observation"].shape == (env.unwrapped.encoder.size,)
