"""The flat numeric observation of one seat: a float32 vector whose layout depends only on the
content set (and its seat count), holding only what that seat may see (the same rule as
interpreter/observation.py: face-down cards, decks, the box and other seats' private zones show
at most as counts; another seat's choice in a simultaneous round never shows).

Layout, in order (`Encoder.sections` names each part with its offset and length):
- `seat`: one-hot of the observing seat (players);
- `status`: [the seat must act now, the game is over];
- `age`: one-hot of the current age (ages);
- `pending`: one-hot of the kind of decision pending for anyone: none, item, space, option, player;
- `track`: the conflict pawn position / capital (one number; 0 without a track);
- `seats`: per seat, in seat order: coins, total score, each `counter`, then the number of
  items in each private per-seat zone (players x (2 + counters + private zones)); where some
  points read a zone not every seat sees (`Content.points_public`), the other seats' totals
  are 0 until the game is over;
- `hidden`: the number of items in each zone nobody sees (decks, box), per zone;
- `majority`: per zone with cubes: cubes per seat and space, then the controller of each space
  one-hot over seats;
- `structure`: per structure slot (the largest layout): [holds a card, face up, accessible];
- `items`: per item (content order): one-hot of where the seat sees it (each visible zone, per
  owner for per-seat zones, then `structure`), then [it stands on a space, that space (a zone's
  space number, or the track's from -capital to capital; for a token lying on a card of the
  structure, `structure` and the slot of that card)], then the coins lying on it.  An item the
  seat cannot see is all zeros; an item lying face down is one it cannot see, unless it knows
  it (it saw it before it was turned down, interpreter/knowledge.py: the god it placed); an
  item in a deck is all zeros, even one the seat knows lies there (it saw it go in: the
  observation's `known` says it, this layout does not);
- `backs`: the backs of the items lying face down where the seat sees them: per zone items may
  be put in face down (`face_down`, from rulesdsl/rl/reach.py), in zone order, per owner for a
  per-seat zone, per space (one group for a zone without spaces), the number of face-down items
  there of each deck they may come from (the decks of the items that can reach the zone, in
  zone order).  Empty for content that puts nothing face down.  Added last: the sections
  before it kept their places.
Layout 2 (`LAYOUT`) added three sections after these, so that every offset above stayed:
- `structure_backs`: per structure slot, one-hot of the deck whose back a face-down card there
  shows (over the decks of the items `deal_structure` can lay out, in zone order): the deck
  the card was dealt from, or a deck of its own mixed into it (a back of its own tells where
  those cards lie);
- `acting`: per seat: [it must act now, it acts in the simultaneous round under way, it has
  chosen in that round] (who has chosen, never what);
- `end`: once the game is over, one-hot of the winner over the seats and a shared victory, then
  one-hot of the kind of victory (`civilian`, then the kinds the content's `win` statements
  name, sorted)."""

from __future__ import annotations

from array import array

import numpy as np

from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.knowledge import known_to
from rulesdsl.interpreter.observation import lying_on_structure
from rulesdsl.interpreter.state import DRAW
from rulesdsl.interpreter.turns import CIVILIAN
from rulesdsl.model import Content

PENDING_KINDS = ("item", "space", "option", "player")
# The layout's version: 1 ended with `backs`; 2 added `structure_backs`, `acting` and `end`.
LAYOUT = 2


class Encoder:
    """Builds the flat observation vector of a seat for games of one content set."""

    def __init__(self, content: Content, game: Game, reach: dict[int, frozenset[int]] | None = None,
                 face_down: frozenset[int] = frozenset(), victories: tuple[str, ...] = (),
                 laid_out: frozenset[int] | None = None):
        """`reach`, `face_down`, `victories`, `laid_out`: `reach.analyse` of the content (without
        them, no `backs`: a face-down item shows nothing; the structure's backs take every deck;
        the only kind of victory shown is the civilian one)."""
        n = content.players
        self.players = n
        self.private = [z.id for z in content.zones if z.per_player and z.private]
        self.hidden_zones = [z.id for z in content.zones if not z.public and not z.private]
        self.majority = [z for z in content.zones if z.counters > 0]
        self.slots = max((len(lay.face_up) for lay in content.layouts.values()), default=0)
        self.counters = list(content.counters)
        # Where an item can be seen: a place per (visible zone, owner) slot, then the structure.
        self.place_of_slot: list[list[int]] = []   # per observing seat: place per game slot (-1: unseen)
        places = 0
        owner_place: dict[int, int] = {}
        for slot, z in enumerate(game.slot_zone[:-1]):
            zd = content.zones[z]
            if zd.public or zd.private:
                owner_place[slot] = places
                places += 1
        for me in range(n):
            row = []
            for slot, z in enumerate(game.slot_zone[:-1]):
                zd = content.zones[z]
                visible = zd.public and not zd.private or zd.private and game.slot_owner[slot] == me
                row.append(owner_place[slot] if visible else -1)
            self.place_of_slot.append(row)
        self.structure_place = places
        self.width = places + 4   # + structure, on a space, the space, coins

        sizes = [("seat", n), ("status", 2), ("age", max(1, len(content.ages))), ("pending", 1 + len(PENDING_KINDS)),
                 ("track", 1), ("seats", n * (2 + len(self.counters) + len(self.private))),
                 ("hidden", len(self.hidden_zones)),
                 ("majority", sum(n * z.spaces + z.spaces * n for z in self.majority)),
                 ("structure", 3 * self.slots), ("items", len(content.items) * self.width),
                 ("backs", self._backs_layout(content, game, reach, face_down))]
        # (layout 2: after `backs`, so that the offsets of layout 1 stay)
        there = laid_out if laid_out is not None else range(len(content.items))
        structure_decks = sorted({content.items[i].deck for i in there if content.items[i].deck >= 0})
        self.structure_decks = structure_decks
        column = {d: k for k, d in enumerate(structure_decks)}
        # (per item: its back's column in a slot's group; -1: a back no column names)
        self._back_column = [column.get(it.deck, -1) for it in content.items]
        self.victories = (CIVILIAN, *[v for v in victories if v != CIVILIAN])
        sizes += [("structure_backs", self.slots * len(structure_decks)), ("acting", 3 * n),
                  ("end", n + 1 + len(self.victories))]
        self.sections: dict[str, tuple[int, int]] = {}
        offset = 0
        for name, size in sizes:
            self.sections[name] = (offset, size)
            offset += size
        self.size = offset
        items_at = self.sections["items"][0]
        # Per observing seat: (slot, index of its place for item 0) for each slot it sees.
        self.hidden_slots = [[game.zone_base[z] + p for p in range(n if content.zones[z].per_player else 1)]
                             for z in self.hidden_zones]
        # (where each hidden zone's count goes, apart for zones of one slot and of one per seat)
        hidden_at = self.sections["hidden"][0]
        self._hidden_one = [(hidden_at + k, slots[0]) for k, slots in enumerate(self.hidden_slots) if len(slots) == 1]
        self._hidden_each = [(hidden_at + k, slots) for k, slots in enumerate(self.hidden_slots) if len(slots) > 1]
        self.seen_slots = [[(slot, items_at + place) for slot, place in enumerate(row) if place >= 0]
                           for row in self.place_of_slot]
        # The section offsets the encoding writes at, read once (a dict lookup each, at every step).
        self._items_at = items_at
        self._at = {name: at for name, (at, _) in self.sections.items()}
        self._ages = self.sections["age"][1]
        self.capital = content.track.capital if content.track.points else 0
        # (points that read a hand would tell the others what it holds: each seat its own total)
        self.totals_shown = content.points_public
        # Totals by seat, kept while the game and its history stay the same: every change of the
        # state is an action that reaches the history (a round's choices reach it together).
        self._totals_of: tuple[Game | None, int] = (None, -1)
        self._totals: list[int] = []
        self._blank = array("f", bytes(4 * self.size))   # (the observation before anything is written)
        self._blank_row = array("f", bytes(4 * self.width))   # (an item's numbers, none shown)

    def _backs_layout(self, content: Content, game: Game, reach: dict[int, frozenset[int]] | None,
                      face_down: frozenset[int]) -> int:
        """The size of `backs`, and where each face-down place's counts start: `self.back_at`,
        game slot -> (offset of its first group from the section's start, groups' width, deck ->
        index in a group)."""
        self.back_at: dict[int, tuple[int, int, dict[int, int]]] = {}
        size = 0
        items = content.items
        for z in content.zones:
            if z.id not in face_down or not (z.public or z.private):
                continue
            there = reach.get(z.id, ()) if reach is not None else range(len(items))
            decks = sorted({items[i].deck for i in there if items[i].deck >= 0})
            if not decks:
                continue
            index = {d: k for k, d in enumerate(decks)}
            for owner in range(content.players if z.per_player else 1):
                self.back_at[game.slot(z.id, owner)] = (size, len(decks), index)
                size += max(z.spaces, 1) * len(decks)
        return size

    def totals(self, game: Game) -> list[int]:
        key = (game, len(game.state.history))
        if self._totals_of[0] is not game or self._totals_of[1] != key[1]:
            self._totals = [game.total_score(p) for p in range(self.players)]
            self._totals_of = key
        return self._totals

    def encode(self, game: Game, me: int) -> np.ndarray:
        # Written into a copy of a zeroed `array` of C floats, element by element, and handed to
        # numpy as its buffer at the end: an element written to an `array` costs a list's, where
        # numpy's cost several times that, and a list turned into an array costs a pass more.
        v = self._blank[:]
        st = game.state
        n = self.players
        sec = self._at
        items_at, width = self._items_at, self.width
        v[sec["seat"] + me] = 1.0
        to_act = game.to_act()
        v[sec["status"]] = float(me in to_act)
        v[sec["status"] + 1] = float(st.flow == "over")
        at = sec["acting"]
        for p in to_act:
            v[at + 3 * p] = 1.0
        if st.flow == "round":   # (who has chosen shows, as at a table; what, never)
            choices = st.choices
            for p in st.acting:
                v[at + 3 * p + 1] = 1.0
                if choices[p] is not None:
                    v[at + 3 * p + 2] = 1.0
        elif st.flow == "over":
            at = sec["end"]
            if st.winner is not None:
                v[at + (n if st.winner == DRAW else st.winner)] = 1.0
            if st.victory in self.victories:
                v[at + n + 1 + self.victories.index(st.victory)] = 1.0
        if 0 <= st.age < self._ages:
            v[sec["age"] + st.age] = 1.0
        pending = st.pending
        v[sec["pending"] + (0 if pending is None else 1 + PENDING_KINDS.index(pending.kind))] = 1.0
        if self.capital:
            v[sec["track"]] = st.pawn / self.capital
        at = sec["seats"]
        base = game.zone_base
        zones = st.zones
        totals = self.totals(game)
        coins = st.coins
        counters = st.counters
        shown = self.totals_shown or st.flow == "over"
        for p in range(n):
            v[at] = coins[p]
            if shown or p == me:
                v[at + 1] = totals[p]
            at += 2
            for name in self.counters:
                v[at] = counters[name][p] if name in counters else 0
                at += 1
            for z in self.private:
                v[at] = len(zones[base[z] + p])
                at += 1
        for at, slot in self._hidden_one:   # (a zone nobody owns: one slot)
            v[at] = len(zones[slot])
        for at, slots in self._hidden_each:
            v[at] = sum([len(zones[s]) for s in slots])
        at = sec["majority"]
        for z in self.majority:
            grid = st.cubes.get(z.name)
            control = st.control.get(z.name)
            for p in range(n):
                if grid:
                    for k, cubes in enumerate(grid[p]):
                        v[at + k] = cubes
                at += z.spaces
            for s in range(z.spaces):
                if control and 0 <= control[s] < n:
                    v[at + control[s]] = 1.0
                at += n
        if st.structure:
            at = sec["structure"]
            accessible = set(game.accessible())
            place = items_at + self.structure_place
            face_up = st.face_up
            back_column, backs_at, backs_width = self._back_column, sec["structure_backs"], len(self.structure_decks)
            for slot, item in enumerate(st.structure[:self.slots]):
                if item < 0:
                    continue
                k = at + 3 * slot
                v[k] = 1.0
                if face_up[slot]:
                    v[k + 1] = 1.0
                    if item in accessible:
                        v[k + 2] = 1.0
                    v[place + width * item] = 1.0
                elif back_column[item] >= 0:   # (its back: the deck it came from, seen by all)
                    v[backs_at + backs_width * slot + back_column[item]] = 1.0
            if st.attached:   # tokens laid on its cards, face up: in the structure, on that card's slot
                at_slot = {item: slot for slot, item in enumerate(st.structure[:self.slots]) if item >= 0}
                for host, items in lying_on_structure(game).items():
                    slot = at_slot.get(host)
                    if slot is not None:
                        for item in items:
                            row = items_at + width * item
                            v[row + self.structure_place] = 1.0
                            v[row + width - 3] = 1.0
                            v[row + width - 2] = slot
        for slot, first in self.seen_slots[me]:
            for item in zones[slot]:
                v[first + width * item] = 1.0
        hidden = st.hidden
        if hidden:
            blank = self._blank_row
            known = st.known
            for item in hidden:   # lying face down in a visible zone: nothing of it shows, but to a seat that knows it
                if not known or me not in known.get(item, ()):
                    at = items_at + item * width
                    v[at:at + width] = blank
            if self.back_at:
                self._backs(game, me, v)
        if st.positions or st.item_coins:
            places = width - 3   # (an item's row: where it is seen, then on a space, the space, coins)
            shown = self._shown(game, me)
            for item, space in st.positions.items():
                if shown(item):
                    at = items_at + item * width + places
                    v[at] = 1.0
                    v[at + 1] = space
            for item, coins in st.item_coins.items():
                if shown(item):
                    v[items_at + item * width + places + 2] = coins
        return np.frombuffer(v, dtype=np.float32)

    def _backs(self, game: Game, me: int, v: array) -> None:
        """The `backs` section: each face-down item's deck where it lies, in a place the seat sees."""
        st = game.state
        at = self._at["backs"]
        sees, items, positions = self.place_of_slot[me], game.content.items, st.positions
        for item in st.hidden:
            slot = st.loc[item]
            place = self.back_at.get(slot)
            if place is None or sees[slot] < 0:
                continue
            first, decks, index = place
            k = index.get(items[item].deck)
            space = positions.get(item, 0)
            spaces = max(game.content.zones[game.slot_zone[slot]].spaces, 1)
            if k is not None and 0 <= space < spaces:
                v[at + first + space * decks + k] += 1.0

    def _shown(self, game: Game, me: int):
        """Whether seat `me` sees an item: in a zone it sees, or face up in the structure's
        encoded slots, and not lying face down (unless it knows it)."""
        st = game.state
        loc, sees = st.loc, self.place_of_slot[me]
        hidden = set(st.hidden).difference(known_to(game, me)) if st.known else st.hidden
        structure_slot = game.structure_slot

        def shown(item: int) -> bool:
            slot = loc[item]
            if slot < 0 or item in hidden:
                return False
            if slot == structure_slot:   # (a card of its encoded slots, face up; not an item lying on one)
                try:
                    return st.face_up[st.structure.index(item, 0, self.slots)]
                except ValueError:
                    return False
            return sees[slot] >= 0
        return shown
