"""Per definition, what its seat-games add up to deal by deal: the sums of squares a win rate
when built needs for its variance between deals (`stats.ratio_design_effect`).  A deal's
seatings share their cards, so whether its seats built a definition, and won with it, goes
together: counted as independent seat-games, an A/B's definitions' rows called some 4 % of
unchanged definitions significant at 5 % (docs/balance.md).

Each deal's counts are kept only until the deal's last game is added (its games may come in
batches that cut it: a run stopped and resumed mid-deal), then folded into three sums of
squares a name, so what is kept does not grow with the games."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import attrs


@attrs.define
class DealSums:
    """Over the deals whose every game was added: per name, the sums of b^2, b * w and w^2, b
    a deal's seat-games that built it and w those of them that won; and the deals not whole yet,
    deal -> [games added, name -> seat-games that built it, name -> those that won].  Added together (`merge`) in any
    order: the sums are the same."""

    seats: int = attrs.field(default=0, eq=False)   # (a deal's games: known from the first added)
    bb: Counter = attrs.Factory(Counter)
    bw: Counter = attrs.Factory(Counter)
    ww: Counter = attrs.Factory(Counter)
    open: dict = attrs.Factory(dict)

    def add(self, deal: int, seats: int, built: Iterable[str], won: Iterable[str]) -> None:
        """One game of `deal` (of `seats` games): `built`, each name a seat-game built (a name
        once a seat), `won` those of the seat that won."""
        self.seats = seats
        entry = self.open.get(deal)
        if entry is None:
            entry = self.open[deal] = [0, Counter(), Counter()]
        entry[1].update(built)
        entry[2].update(won)
        self._grown(deal, entry, entry[0] + 1)

    def merge(self, other: "DealSums") -> None:
        self.seats = self.seats or other.seats
        self.bb.update(other.bb)
        self.bw.update(other.bw)
        self.ww.update(other.ww)
        for deal, (games, built, won) in other.open.items():
            mine = self.open.setdefault(deal, [0, Counter(), Counter()])
            mine[1].update(built)
            mine[2].update(won)
            self._grown(deal, mine, mine[0] + games)

    def copy(self) -> "DealSums":
        return DealSums(self.seats, Counter(self.bb), Counter(self.bw), Counter(self.ww),
                        {d: [g, Counter(b), Counter(w)] for d, (g, b, w) in self.open.items()})

    def _grown(self, deal: int, entry: list, games: int) -> None:
        if games < self.seats:
            entry[0] = games
            return
        del self.open[deal]
        _games, built, won = entry
        bb, bw, ww = self.bb, self.bw, self.ww
        for name, b in built.items():
            bb[name] += b * b
        for name, w in won.items():
            bw[name] += built[name] * w
            ww[name] += w * w

    def squares(self, name: str) -> tuple[int, int, int]:
        """(sum of b^2, of b * w, of w^2) of `name` over the whole deals."""
        return self.bb[name], self.bw[name], self.ww[name]
