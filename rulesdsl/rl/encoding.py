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
  items in each private per-seat zone (players x (2 + counters + private zones));
- `hidden`: the number of items in each zone nobody sees (decks, box), per zone;
- `majority`: per zone with cubes: cubes per seat and space, then the controller of each space
  one-hot over seats;
- `structure`: per structure slot (the largest layout): [holds a card, face up, accessible];
- `items`: per item (content order): one-hot of where the seat sees it (each visible zone, per
  owner for per-seat zones, then `structure`), then [it stands on a space, that space (a zone's
  space number, or the track's from -capital to capital)], then the coins lying on it.  An item the seat cannot see is all zeros."""

from __future__ import annotations

import numpy as np

from rulesdsl.interpreter.game import Game
from rulesdsl.model import Content

PENDING_KINDS = ("item", "space", "option", "player")


class Encoder:
    """Builds the flat observation vector of a seat for games of one content set."""

    def __init__(self, content: Content, game: Game):
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
                 ("structure", 3 * self.slots), ("items", len(content.items) * self.width)]
        self.sections: dict[str, tuple[int, int]] = {}
        offset = 0
        for name, size in sizes:
            self.sections[name] = (offset, size)
            offset += size
        self.size = offset
        self.capital = content.track.capital if content.track.points else 0

    def encode(self, game: Game, me: int) -> np.ndarray:
        st = game.state
        v = np.zeros(self.size, dtype=np.float32)
        sec = self.sections
        n = self.players
        v[sec["seat"][0] + me] = 1.0
        v[sec["status"][0]] = me in game.to_act()
        v[sec["status"][0] + 1] = st.flow == "over"
        if 0 <= st.age < sec["age"][1]:
            v[sec["age"][0] + st.age] = 1.0
        pending = st.pending
        v[sec["pending"][0] + (0 if pending is None else 1 + PENDING_KINDS.index(pending.kind))] = 1.0
        if self.capital:
            v[sec["track"][0]] = st.pawn / self.capital
        at = sec["seats"][0]
        base = game.zone_base
        for p in range(n):
            v[at] = st.coins[p]
            v[at + 1] = sum(game.score(p).values())
            at += 2
            for name in self.counters:
                v[at] = st.counters[name][p] if name in st.counters else 0
                at += 1
            for z in self.private:
                v[at] = len(st.zones[base[z] + p])
                at += 1
        at = sec["hidden"][0]
        for k, z in enumerate(self.hidden_zones):
            per = n if game.content.zones[z].per_player else 1
            v[at + k] = sum(len(st.zones[base[z] + p]) for p in range(per))
        at = sec["majority"][0]
        for z in self.majority:
            grid = st.cubes.get(z.name)
            control = st.control.get(z.name)
            for p in range(n):
                for s in range(z.spaces):
                    v[at] = grid[p][s] if grid else 0
                    at += 1
            for s in range(z.spaces):
                if control and 0 <= control[s] < n:
                    v[at + control[s]] = 1.0
                at += n
        at = sec["structure"][0]
        items_at, width = sec["items"][0], self.width
        if st.structure:
            accessible = set(game.accessible())
            hidden = set(st.hidden)
            place = self.structure_place
            for slot, item in enumerate(st.structure[:self.slots]):
                if item < 0:
                    continue
                up = st.face_up[slot]
                k = at + 3 * slot
                v[k] = 1.0
                v[k + 1] = up
                v[k + 2] = item in accessible
                if up and item not in hidden:
                    v[items_at + item * width + place] = 1.0
        hidden = st.hidden
        places = self.place_of_slot[me]
        zones = st.zones
        for slot, place in enumerate(places):
            if place < 0:
                continue
            for item in zones[slot]:
                v[items_at + item * width + place] = 1.0
        if hidden:  # items lying face down in a visible zone show nothing of themselves
            for item in hidden:
                v[items_at + item * width:items_at + (item + 1) * width] = 0.0
        seen = None
        for item, space in st.positions.items():
            if seen is None:
                seen = v[items_at:].reshape(-1, width)[:, :self.structure_place + 1].any(axis=1)
            if seen[item]:
                v[items_at + item * width + width - 3] = 1.0
                v[items_at + item * width + width - 2] = space
        for item, coins in st.item_coins.items():
            if seen is None:
                seen = v[items_at:].reshape(-1, width)[:, :self.structure_place + 1].any(axis=1)
            if seen[item]:
                v[items_at + item * width + width - 1] = coins
        return v
