"""What one player may see: the state with hidden information left out.

Hidden: face-down structure cards (only their back, i.e. their deck, shows), cards tucked
under wonders, the box and every deck, every other seat's private zones (how many items they
hold shows, not which), another player's pending options, and in a simultaneous round what the
other seats have chosen (only that they have).

A face-down item shows its back to every seat (`face down (DECK)` where it lies); a seat that
knows it (knowledge.py: it saw its face before it was turned down) finds it under `known` too,
by name, with the place it lies in.  So does a seat that saw an item go into a deck (on top, or
at the bottom): `known` names it with its deck and how many items lie above it."""

from __future__ import annotations

from typing import Callable

from rulesdsl.names import check_seat

from .actions import Action
from .game import Game
from .knowledge import known_to, knows
from .state import DRAW


def lying_on_structure(game: Game) -> dict[int, list[int]]:
    """Each card of the structure that items lie on (`deal_onto_structure`) -> those items, in
    the order they lie in.  They lie face up, for every seat to see, whether the card is face
    up or not (unless one lies face down: `face down (DECK)`, as anywhere)."""
    st = game.state
    attached = st.attached
    if not attached:
        return {}
    out: dict[int, list[int]] = {}
    for item in st.zones[game.structure_slot]:
        host = attached.get(item)
        if host is not None:
            out.setdefault(host, []).append(item)
    return out


def _seen(game: Game, item: int, player: int) -> bool:
    """Whether `player` sees where an item stands: it lies in a public zone, or in a private
    zone of its own (a space of a zone no seat sees, such as a sealed pile, shows nothing)."""
    slot = game.state.loc[item]
    if slot < 0:
        return False
    if slot == game.structure_slot:
        return True
    z = game.content.zones[game.slot_zone[slot]]
    return z.public or z.private and game.slot_owner[slot] == player


def _known(game: Game, player: int) -> list[dict]:
    """The items `player` knows where it does not see them, where each lies: its zone, the seat
    whose zone it is (None: a zone held once), its index in that zone's list (face down: the
    observation's `face down (DECK)` there; in a deck: from the bottom, 0 the bottom one), its
    space (None: none) and its name; in a deck, also `from_top` (0: it lies on top)."""
    st, zones = game.state, game.content.zones
    out = []
    for item in known_to(game, player):
        slot = st.loc[item]
        in_deck = slot in game.deck_slots
        if slot == game.structure_slot or not in_deck and not _seen(game, item, player):   # (where its back does not show either)
            continue
        z = zones[game.slot_zone[slot]]
        held = st.zones[slot]
        at = held.index(item)
        entry = {"item": game.name(item), "zone": z.name, "seat": game.slot_owner[slot] if z.per_player else None,
                 "at": at, "space": st.positions.get(item)}
        if in_deck:
            entry["from_top"] = len(held) - 1 - at
        out.append(entry)
    return out


def where_known(k: dict) -> str:
    """A `known` entry of a deck as a screen says it: `NAME: on top of DECK`, `NAME: at the
    bottom of DECK`, `NAME: 2 below the top of DECK` (a deck each seat has: `of seat 1's DECK`)."""
    depth = k["from_top"]
    where = "on top" if depth == 0 else "at the bottom" if k["at"] == 0 else f"{depth} below the top"
    zone = k["zone"] if k["seat"] is None else f"seat {k['seat']}'s {k['zone']}"
    return f"{k['item']}: {where} of {zone}"


def known_in_decks(o: dict) -> list[str]:
    """What the observation's seat knows lies in decks it does not see (`where_known` of each)."""
    return [where_known(k) for k in o.get("known") or () if "from_top" in k]


def zones_with_known(o: dict) -> dict:
    """An observation's `zones` as a screen shows them to its seat: each face-down item the seat
    knows named after its back (`face down (DECK): NAME`)."""
    known = o.get("known")
    if not known:
        return o["zones"]
    out = dict(o["zones"])
    for k in known:
        if "from_top" in k:   # (in a deck: not among the zones shown, `known_in_decks`)
            continue
        held = out[k["zone"]]
        if k["seat"] is not None:
            held = out[k["zone"]] = {**held, str(k["seat"]): list(held[str(k["seat"])])}
            row = held[str(k["seat"])]
        else:
            row = out[k["zone"]] = list(held)
        row[k["at"]] = f"{row[k['at']]}: {k['item']}"
    return out


def observe(game: Game, player: int) -> dict:
    if not isinstance(game, Game):   # (a State, a saved text: "'State' object has no attribute 'content'")
        raise TypeError(f"observe looks at a Game, not {type(game).__name__}")
    c, st = game.content, game.state
    check_seat(player, st.players)
    hidden = set(st.hidden)
    item_names = game.item_names
    names: Callable[[int], str]
    if hidden:
        def names(i: int) -> str:
            if i in hidden:  # face down: only its back (the deck it came from) shows
                deck = c.items[i].deck
                return f"face down ({c.zones[deck].name if deck >= 0 else 'unknown'})"
            return item_names[i]
    else:   # (most positions: every item's name as it is, read without a call of ours)
        names = item_names.__getitem__

    # (lists by `map`: the observation is made for every seat after every action by `verify`,
    # and by agents and screens that read it)
    zones: dict[str, object] = {}
    slots = game.zone_slots
    for z in c.zones:
        if z.per_player and z.private:
            # The owner sees a private zone; the other players see how many items it holds.
            zones[z.name] = {str(p): (list(map(names, st.zones[slots[z.id][p]])) if p == player
                                      else len(st.zones[slots[z.id][p]])) for p in range(st.players)}
            continue
        if not z.public:
            continue
        if z.per_player:
            zones[z.name] = {str(p): list(map(names, st.zones[slots[z.id][p]])) for p in range(st.players)}
        else:
            zones[z.name] = list(map(names, st.zones[slots[z.id][0]]))
    structure = []
    accessible = set(game.accessible()) if st.structure else set()
    lying = lying_on_structure(game)
    for slot, item in enumerate(st.structure):
        if item < 0:
            structure.append(None)
            continue
        if st.face_up[slot]:
            entry = {"card": names(item), "accessible": item in accessible}
        else:
            deck = c.items[item].deck
            entry = {"back": c.zones[deck].name if deck >= 0 else "unknown", "accessible": False}
        if item in lying:   # (tokens laid on the card, face up for all: "draai daarna de fiches om")
            entry["on"] = list(map(names, lying[item]))
        structure.append(entry)
    hidden_counts: dict[str, int] = {}
    for z in c.zones:
        if not z.public and not z.private:
            held = slots[z.id] if z.per_player else slots[z.id][:1]   # (a zone held once: one slot)
            hidden_counts[z.name] = sum(map(len, map(st.zones.__getitem__, held)))
    known = _known(game, player) if st.known else []
    pending = None
    if st.pending is not None:
        d = st.pending
        pending = {"player": d.player, "prompt": d.prompt}
        if d.player == player:
            pending["options"] = [a.args[0] if a.args else a.name for a in game.legal_actions()]
    to_act = game.to_act()
    round_ = None
    if st.flow == "round":  # a simultaneous round: who has chosen, and only my own choice
        mine = st.choices[player] if player < len(st.choices) else None
        round_ = {"acting": list(st.acting), "chosen": [p for p in st.acting if st.choices[p] is not None],
                  "mine": None if mine is None else str(Action(mine[0], tuple(mine[1:])))}
    return {
        "player": player,
        "age": st.age + 1,
        "to_move": game.to_move(),
        "to_act": to_act,
        "over": game.over,
        "winner": None if st.winner is None else ("draw" if st.winner == DRAW else st.winner),
        "victory": st.victory,
        "coins": list(st.coins),
        "pawn": st.pawn,
        "track_tokens": list(map(names, st.zones[game.track_slot])) if game.track_slot >= 0 else [],
        "cubes": {name: [row[:] for row in grid] for name, grid in st.cubes.items()},
        "control": {name: list(ctrl) for name, ctrl in st.control.items()},
        "positions": {game.name(i): s for i, s in st.positions.items()
                      if (i not in hidden or knows(game, player, i)) and _seen(game, i, player)},
        "zones": zones,
        "known": known,
        "hidden_counts": hidden_counts,
        "structure": structure,
        "pending": pending,
        "round": round_,
        "legal_actions": [str(a) for a in game.legal_actions(player)] if player in to_act else [],
    }
