"""The runtime's interface for content: the closed table of what compiled closures may call on a
game (`VERBS`), and the data they may read directly (`READS`).

The compiler (rulesdsl/compiler.py) turns card files into closures `step(g, f)` / `expr(g, f)`
over the game `g` and the running frame `f`; those closures use `g.<name>` for exactly the names
below, nothing else (tests/test_verbs.py holds this table equal to what the compiler uses).  A new
verb of the card language that needs the runtime adds its function here, in the module of its
concern, and binds it on `Game`; the closures never reach into any other method.
"""

from __future__ import annotations

from typing import Callable

from . import dealing, decisions, economy, events, machine, majority, scoring, seats, selection, structure, track, turns, zones
from .core import owner_of, rider_count

VERBS: dict[str, Callable] = {
    # the frame machine: run a block, repeat one
    "push": machine.push,
    "run_procedure": machine.run_procedure,
    "run_branch": machine.run_branch,
    "each_seat": machine.each_seat,
    "repeat": machine.repeat,
    # players
    "seat": seats.seat,
    "seats_of": seats.seats_of,
    # turn flow
    "grant_play_again": turns.grant_play_again,
    "set_next_starter": turns.set_next_starter,
    "win": turns.win,
    # selection and reading values
    "count": selection.count,
    "count_named": selection.count_named,
    "count_name": selection.count_name,
    "count_colors": selection.count_colors,
    "count_color": selection.count_color,
    "count_owned": selection.count_owned,
    "item_attr": selection.item_attr,
    "has_option": selection.has_option,
    "owner_of": owner_of,
    "rider_count": rider_count,
    "event_field": events.event_field,
    "trigger": events.trigger,
    # the economy: coins, production, building
    "gain_coins": economy.gain_coins,
    "lose_coins": economy.lose_coins,
    "spend": economy.spend,
    "put_coins": economy.put_coins,
    "production": economy.production,
    "modifier": economy.modifier,
    "kept_value": economy.kept_value,
    "build": economy.build,
    "price_of": economy.price,   # (what an action's build of an item named in quotes asks the seat to pay)
    "acquire": economy.acquire,
    # scoring
    "science_count": scoring.science_count,
    "distinct_science": scoring.distinct_science,
    # moving items
    "move": zones.move,
    "move_unseen": zones.move_unseen,   # (into a zone no seat sees: what a seat saw go in, knowledge.py)
    "move_all": zones.move_all,
    "move_all_unseen": zones.move_all_unseen,
    "discard": zones.discard,
    "discard_taken": zones.discard_taken,
    "take_top": zones.take_top,
    "take_top_unseen": zones.take_top_unseen,
    "return_to_deck": zones.return_to_deck,
    "take_attached": zones.take_attached,
    "place": zones.place,
    "place_face_down": zones.place_face_down,
    "claim": zones.claim,
    "reveal": zones.reveal,
    "first_empty": zones.first_empty,
    # chance
    "deal": dealing.deal,
    "deal_unseen": dealing.deal_unseen,
    "shuffle": dealing.shuffle,
    # decisions
    "choose": decisions.choose,
    "choose_space": decisions.choose_space,
    "choose_option": decisions.choose_option,
    "choose_player": decisions.choose_player,
    # the card structure (Duel)
    "deal_structure": structure.deal_structure,
    "deal_onto_structure": structure.deal_onto_structure,
    "marked_slots": structure.marked_slots,
    "structure_row": structure.structure_row,
    # the conflict track (Duel)
    "shields": track.shields,
    "pawn_distance": track.pawn_distance,
    "track_points": track.track_points,
    # cubes on spaces and who controls them (an expansion's board)
    "cubes": majority.cubes,
    "cube_supply": majority.cube_supply,
    "control": majority.control,
    "controlled_sum": majority.controlled_sum,
    "controller": majority.controller,
    "add_cube": majority.add_cube,
    "remove_cube": majority.remove_cube,
    "move_cube": majority.move_cube,
    # seats, rounds and what each seat tallies (games of any number of seats)
    "rotate": zones.rotate,
    "first_in": zones.first_in,
    "counter": scoring.counter,
    "add_counter": scoring.add_counter,
    "science_score": scoring.science_score,
    "after_turn": turns.after_turn,
}

# Data closures read directly rather than through a verb, because they are read on hot paths
# (a price expression reads coins): the game's attribute, then the fields of it they read.
READS: dict[str, frozenset[str]] = {
    "state": frozenset({"coins", "age", "positions", "attached", "item_coins", "zones"}),
    "content": frozenset({"players"}),
    "zone_base": frozenset(),   # the first slot of each zone: `count(hand)` is the length of one slot
    "next_seat": frozenset(),   # the seat after each (`seats.left_of`): `opponent` in a game of two
    "prev_seat": frozenset(),   # the seat before each (`seats.right_of`)
    "_tally": frozenset(),   # each slot's colour tally, once made: a count of one colour (`selection.count_color`)
}
