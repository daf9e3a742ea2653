"""The outcomes of a balance run's games, in game order, kept in columns of numbers: what a
run holds grows by 8 bytes a number (about 0.2 KB a Duel game, its seats' points by category
most of it: a million games fit in memory), where a record as a dict weighs some 1.8 KB.
`Outcomes` is also a sequence of those records, each made when read (`runner.play_game`'s
record without the items its seats took and built)."""

from __future__ import annotations

from array import array
from typing import Any, Iterator

import attrs

# A category a seat's score did not list at all (`Game.score` lists only the categories it has
# points in, or a rule scores), told apart from one it listed with 0.
ABSENT = -(2 ** 63)


def _numbers() -> array:
    return array("q")


def _seeds() -> array:
    return array("Q")   # (`chance.derive`'s 64 bits, unsigned)


def seating(line_up: tuple[str, ...], index: int) -> list[int]:
    """The line-up position sitting in each seat in game `index`: position a sits in seat
    (a + index) % seats (the runner seats its games so, and the records follow from it)."""
    n = len(line_up)
    rotation = index % n
    return [(s - rotation) % n for s in range(n)]


@attrs.define(eq=False)
class Outcomes:
    """Games `first`, `first + 1`, ... of a run whose line-up positions are named `labels`
    (`runner.labels`): seat `s` of game `i` holds position `(s - i) % seats`, so the agents,
    the deal (`i // seats`) and the rotation (`i % seats`) of a game follow from its index.
    Per game: its seed, winner (-1: shared), victory (a number for `victory_names`), turns and
    actions; per seat of each game (game-major): its total and its points in each category
    (`ABSENT` where its score did not list the category).  A column holds 64-bit numbers and
    becomes a list where a number does not fit."""

    labels: tuple[str, ...]
    first: int = 0
    seeds: Any = attrs.Factory(_seeds)
    winners: Any = attrs.Factory(_numbers)
    victories: Any = attrs.Factory(_numbers)
    turns: Any = attrs.Factory(_numbers)
    actions: Any = attrs.Factory(_numbers)
    totals: Any = attrs.Factory(_numbers)
    scores: dict[str, Any] = attrs.Factory(dict)   # category -> its column, in the order first met
    victory_names: list[str] = attrs.Factory(list)

    @classmethod
    def of(cls, records: list[dict]) -> "Outcomes":
        """The outcomes of these records (consecutive games of one run, in order)."""
        if not records:
            return cls(())
        r = records[0]
        agents, n = r["agents"], len(r["agents"])
        out = cls(tuple(agents[(p + r["index"]) % n] for p in range(n)), r["index"])
        for record in records:
            out.add(record)
        return out

    @property
    def seats(self) -> int:
        return len(self.labels)

    @property
    def end(self) -> int:
        """The index after the last game held."""
        return self.first + len(self.winners)

    def __len__(self) -> int:
        return len(self.winners)

    def add(self, record: dict) -> None:
        """The next game's record (`runner.play_game`'s)."""
        if record["index"] != self.end:
            raise ValueError(f"game {record['index']} added after game {self.end - 1}")
        try:
            self._add(record)
        except OverflowError:   # (a number beyond 64 bits: lists, then again from the start)
            self._cut(len(self))
            self._widen()
            self._add(record)

    def _add(self, record: dict) -> None:
        n = self.seats
        before = len(self.winners) * n
        for scores in record["scores"]:
            for category in scores:
                if category not in self.scores:
                    self.scores[category] = self._column([ABSENT] * before)
        for category, column in self.scores.items():
            column.extend([scores.get(category, ABSENT) for scores in record["scores"]])
        self.totals.extend(record["totals"])
        victory = record["victory"]
        if victory not in self.victory_names:
            self.victory_names.append(victory)
        self.seeds.append(record["seed"])
        self.turns.append(record["turns"])
        self.actions.append(record["actions"])
        self.victories.append(self.victory_names.index(victory))
        self.winners.append(record["winner"])   # (last: the count of games held)

    def _column(self, values: list[int]) -> Any:
        return array("q", values) if isinstance(self.winners, array) else values

    def _widen(self) -> None:
        for field in ("seeds", "winners", "victories", "turns", "actions", "totals"):
            setattr(self, field, list(getattr(self, field)))
        self.scores = {category: list(column) for category, column in self.scores.items()}

    def _cut(self, games: int) -> None:
        """Keep the first `games` games (and the columns' lengths consistent with them)."""
        n = self.seats
        for column in (self.seeds, self.winners, self.victories, self.turns, self.actions):
            del column[games:]
        del self.totals[games * n:]
        for column in self.scores.values():
            del column[games * n:]

    def extend(self, other: "Outcomes") -> None:
        """Add the games of `other`, which come right after these."""
        if other.first != self.end or (len(other) and other.labels != self.labels):
            raise ValueError(f"games from {other.first} cannot follow games up to {self.end - 1}")
        if not len(other):
            return
        if not isinstance(other.winners, array) and isinstance(self.winners, array):
            self._widen()
        n = self.seats
        before = len(self) * n
        for category in other.scores:
            if category not in self.scores:
                self.scores[category] = self._column([ABSENT] * before)
        for category, column in self.scores.items():
            theirs = other.scores.get(category)
            column.extend(theirs if theirs is not None else [ABSENT] * (len(other) * n))
        codes = []
        for name in other.victory_names:
            if name not in self.victory_names:
                self.victory_names.append(name)
            codes.append(self.victory_names.index(name))
        self.victories.extend([codes[v] for v in other.victories])
        for field in ("seeds", "turns", "actions", "totals", "winners"):
            getattr(self, field).extend(getattr(other, field))

    # -- the records, made when read ---------------------------------------------------------------
    def record(self, k: int) -> dict:
        """The `k`-th game held, as `runner.play_game` records it (without `taken` and `built`)."""
        n = self.seats
        index = self.first + k
        rotation = index % n
        row = slice(k * n, k * n + n)
        categories = sorted(self.scores)
        columns = [self.scores[c][row] for c in categories]
        scores = [{c: column[s] for c, column in zip(categories, columns) if column[s] != ABSENT}
                  for s in range(n)]
        return {"index": index, "deal": index // n, "seed": self.seeds[k], "rotation": rotation,
                "agents": [self.labels[a] for a in seating(self.labels, index)],
                "winner": self.winners[k], "victory": self.victory_names[self.victories[k]],
                "scores": scores, "totals": list(self.totals[row]), "turns": self.turns[k],
                "actions": self.actions[k]}

    def __getitem__(self, k: int) -> dict:
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        return self.record(k % len(self))

    def __iter__(self) -> Iterator[dict]:
        return map(self.record, range(len(self)))

    def __eq__(self, other: object) -> bool:
        """The same games (the same records), however the columns are held."""
        if isinstance(other, Outcomes):
            return self.first == other.first and list(self) == list(other)
        return NotImplemented

    # -- what the report reads ---------------------------------------------------------------------
    def rows(self, start: int = 0, stop: int | None = None) -> list[dict]:
        """The report's row of each game held from the `start`-th to before the `stop`-th: its
        index, seed, rotation, agents by seat, winner, victory, totals and turns (a record's
        fields without its scores)."""
        n, labels, names = self.seats, self.labels, self.victory_names
        seated = [[labels[a] for a in seating(labels, r)] for r in range(n)]   # (by rotation)
        totals = self.totals
        start, stop, _ = slice(start, stop).indices(len(self))
        return [{"index": self.first + k, "seed": seed, "rotation": (self.first + k) % n,
                 "agents": seated[(self.first + k) % n][:], "winner": winner, "victory": names[victory],
                 "totals": list(totals[k * n:k * n + n]), "turns": turns}
                for k, seed, winner, victory, turns in zip(
                    range(start, stop), self.seeds[start:stop], self.winners[start:stop],
                    self.victories[start:stop], self.turns[start:stop])]

    def _rotations(self, position: int) -> Iterator[tuple[int, int]]:
        """(k0, seat): the games held `k0`, `k0 + seats`, ... seat line-up position `position`
        at `seat` (a game's rotation is its index modulo the seats)."""
        n = self.seats
        for k0 in range(min(n, len(self))):
            yield k0, (position + self.first + k0) % n

    def wins(self, position: int) -> int:
        """The games held that line-up position `position` won."""
        n = self.seats
        return sum(self.winners[k0::n].count(seat) for k0, seat in self._rotations(position))

    def by_position(self, column: Any, position: int) -> list[int]:
        """A per-seat column's values of one line-up position's seat-games, in game order."""
        n = self.seats
        out = [0] * len(self)
        for k0, seat in self._rotations(position):
            out[k0::n] = column[k0 * n + seat::n * n]
        return out

    def listed(self, category: str) -> bool:
        """Whether some seat's score listed the category."""
        return any(v != ABSENT for v in self.scores[category])

    def points(self, category: str) -> list[int]:
        """Each seat-game's points in a category (game-major; 0 where not listed)."""
        return [0 if v == ABSENT else v for v in self.scores[category]]
