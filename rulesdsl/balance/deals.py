"""Per definition, what its seat-games add up to deal by deal: the sums of squares a win rate
when built, and one when not built, need for their variance between deals
(`stats.ratio_design_effect`).  A deal's seatings share their cards, so whether its seats built a
definition, and won with it, goes together: counted as independent seat-games, an A/B's
definitions' rows called some 4 % of unchanged definitions significant at 5 % (docs/balance.md).

Each deal's counts are kept only until the deal's last game is added (its games may come in
batches that cut it: a run stopped and resumed mid-deal), then folded into sums of squares a
name, so what is kept does not grow with the games."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import attrs


@attrs.define
class DealSums:
    """Over the deals whose every game was added: per name, the sums of b^2, b * w, w^2, b * W
    and w * W, b a deal's seat-games that built it, w those of them that won, W the deal's
    games won (not shared); the number of those deals and the sums of W and W^2 (a seat-game
    that did not build a name is one of the deal's others: what its "not built" side needs).
    And the deals not whole yet, deal -> [games added, games won, name -> seat-games that built
    it, name -> those that won].  Added together (`merge`) in any order: the sums are the same."""

    seats: int = attrs.field(default=0, eq=False)   # (a deal's games: known from the first added)
    bb: Counter = attrs.Factory(Counter)
    bw: Counter = attrs.Factory(Counter)
    ww: Counter = attrs.Factory(Counter)
    bv: Counter = attrs.Factory(Counter)   # (b * W)
    wv: Counter = attrs.Factory(Counter)   # (w * W)
    whole: int = 0
    wins: int = 0
    wins2: int = 0
    open: dict = attrs.Factory(dict)

    def add(self, deal: int, seats: int, built: Iterable[str], won: Iterable[str], decided: bool = True) -> None:
        """One game of `deal` (of `seats` games): `built`, each name a seat-game built (a name
        once a seat), `won` those of the seat that won; `decided`: a seat won it (not shared)."""
        self.seats = seats
        entry = self.open.get(deal)
        if entry is None:
            entry = self.open[deal] = [0, 0, Counter(), Counter()]
        entry[1] += decided
        entry[2].update(built)
        entry[3].update(won)
        self._grown(deal, entry, entry[0] + 1)

    def merge(self, other: "DealSums") -> None:
        self.seats = self.seats or other.seats
        for mine, theirs in ((self.bb, other.bb), (self.bw, other.bw), (self.ww, other.ww), (self.bv, other.bv),
                             (self.wv, other.wv)):
            mine.update(theirs)
        self.whole += other.whole
        self.wins += other.wins
        self.wins2 += other.wins2
        for deal, (games, won_games, built, won) in other.open.items():
            mine_entry = self.open.setdefault(deal, [0, 0, Counter(), Counter()])
            mine_entry[1] += won_games
            mine_entry[2].update(built)
            mine_entry[3].update(won)
            self._grown(deal, mine_entry, mine_entry[0] + games)

    def copy(self) -> "DealSums":
        return DealSums(self.seats, Counter(self.bb), Counter(self.bw), Counter(self.ww), Counter(self.bv),
                        Counter(self.wv), self.whole, self.wins, self.wins2,
                        {d: [g, v, Counter(b), Counter(w)] for d, (g, v, b, w) in self.open.items()})

    def _grown(self, deal: int, entry: list, games: int) -> None:
        if games < self.seats:
            entry[0] = games
            return
        del self.open[deal]
        _games, won_games, built, won = entry
        bb, bw, ww, bv, wv = self.bb, self.bw, self.ww, self.bv, self.wv
        for name, b in built.items():
            bb[name] += b * b
            if won_games:
                bv[name] += b * won_games
        for name, w in won.items():
            bw[name] += built[name] * w
            ww[name] += w * w
            wv[name] += w * won_games
        self.whole += 1
        self.wins += won_games
        self.wins2 += won_games * won_games

    def squares(self, name: str) -> tuple[int, int, int]:
        """(sum of b^2, of b * w, of w^2) of `name` over the whole deals."""
        return self.bb[name], self.bw[name], self.ww[name]

    def sides(self, name: str, built: int, won: int) -> tuple[tuple[int, int, int], tuple[int, int, int],
                                                               tuple[int, int, int, int], int]:
        """Over every deal added, those not whole as they stand (a deal's games so far are a deal of
        fewer games: a run stopped mid-deal): the sums of squares (`squares`) of the seat-games
        that built `name` and of those that did not, their cross sums (of b * b', b * w', w * b'
        and w * w', b' and w' a deal's seat-games that did not build it and those of them that
        won), and the number of deals.  `built`, `won`: its seat-games that built it and won, over
        every game added (`Holdings`)."""
        size = self.seats * self.seats   # (a whole deal's seat-games)
        bb, bw, ww = self.squares(name)
        bv, wv = self.bv[name], self.wv[name]
        # (a whole deal's others: size - b seat-games, W - w of them won)
        whole_b, whole_w = built, won
        for _games, _won_games, b_of, w_of in self.open.values():
            whole_b -= b_of[name]
            whole_w -= w_of[name]
        nbb = self.whole * size * size - 2 * size * whole_b + bb
        nbw = size * self.wins - size * whole_w - bv + bw
        nww = self.wins2 - 2 * wv + ww
        cross = [size * whole_b - bb, bv - bw, size * whole_w - bw, wv - ww]
        for games, won_games, b_of, w_of in self.open.values():
            b, w = b_of[name], w_of[name]
            nb, nw = games * self.seats - b, won_games - w
            bb, bw, ww = bb + b * b, bw + b * w, ww + w * w
            nbb, nbw, nww = nbb + nb * nb, nbw + nb * nw, nww + nw * nw
            for j, v in enumerate((b * nb, b * nw, w * nb, w * nw)):
                cross[j] += v
        return (bb, bw, ww), (nbb, nbw, nww), (cross[0], cross[1], cross[2], cross[3]), self.whole + len(self.open)
