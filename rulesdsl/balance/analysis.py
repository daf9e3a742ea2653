"""From the games' outcomes, and what their seats took and built, to the balance report (a
JSON-ready dict): win rates and mean scores by seat and by agent, victory types, game length,
score by category, and for every definition (cards, wonders, boards, tokens, gods, ... :
whatever item kinds the content declares) the win rate of a seat that took it versus one that
did not, with Wilson 95% intervals, and the outliers that stay significant after Holm's
correction.  `compare` puts two reports played on the same seeds side by side
(docs/balance.md)."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Any

import attrs

from .deals import DealSums
from .outcomes import Outcomes
from .stats import (clustered_mean_interval, design_effect, holm, mean_interval, mean_p, newcombe, newcombe_p,
                    newcombe_paired_clustered, newcombe_paired_p, ratio_design_effect,
                    ratio_difference_design_effect, wilson_clustered)

ALPHA = 0.05
MIN_TESTED = 5          # seat-games on each side before a definition is tested at all


# Every figure is kept as computed from the counts (full precision, in the JSON too), and
# rounded once, where the terminal or the page shows it: a rate rounded to 4 decimals, then a
# difference taken of rounded rates and shown to 1 decimal, was rounded twice.

def _rate(k: int, n: int, deff: float = 1.0) -> dict[str, Any]:
    """A rate with its Wilson interval (at the effective sample size of design effect `deff`:
    `stats.wilson_clustered`); no games: no rate and no interval (null, not [0, 1])."""
    if not n:
        return {"games": 0, "wins": k, "rate": None, "low": None, "high": None}
    low, high = wilson_clustered(k, n, deff)
    return {"games": n, "wins": k, "rate": k / n, "low": low, "high": high}


def _mean(values: list[float], size: int, offset: int) -> dict[str, float]:
    """A mean with its t interval taken deal by deal: value i is of deal (offset + i) // size."""
    m, low, high = clustered_mean_interval(values, size, offset)
    return {"mean": m, "low": low, "high": high}


@attrs.frozen
class _Deals:
    """How a run's games fall in deals (a deal: `seats` games in a row from game 0, one a rotation
    of the line-up; the games held begin at `first`): a figure's interval takes the deal as its
    unit, since a deal's games share their cards and their results go together."""

    seats: int
    first: int

    def rate(self, hits: list[bool]) -> dict[str, Any]:
        """The rate of the games that `hits` (one a game), its interval deal by deal."""
        return _rate(sum(hits), len(hits), design_effect(hits, self.seats, self.first))

    def mean(self, values: list[float]) -> dict[str, float]:
        """A mean of one value a game."""
        return _mean(values, self.seats, self.first)

    def seat_mean(self, values: list[float]) -> dict[str, float]:
        """A mean of one value a seat of each game (game-major)."""
        return _mean(values, self.seats * self.seats, self.first * self.seats)


@attrs.define
class Holdings:
    """What the seats of some games took and built, added up per definition: all the report's
    definition figures need, in a size that does not grow with the games (a record lists every
    item each seat took, with its turn: most of what a record weighs).  Built from records
    (`add`), and added together (`merge`) in any order: the counts are the same."""

    seat_games: int = 0
    wins: int = 0
    # (name, the game turn a seat first had it in play, whether that seat won) -> seat-games
    built: Counter = attrs.Factory(Counter)
    # (name, whether the seat that held it won) -> seat-games
    taken: Counter = attrs.Factory(Counter)
    # (what the seat-games add up to deal by deal: the definitions' rows take the deal as their unit)
    deals: DealSums = attrs.Factory(DealSums)

    @classmethod
    def of(cls, records: list[dict]) -> "Holdings":
        held = cls()
        for r in records:
            held.add(r)
        return held

    def add(self, record: dict) -> None:
        """The seat-games of one game's record (its `taken` and `built` lists)."""
        seats = len(record["agents"])
        in_deal: list[str] = []
        winning: Any = ()
        for s in range(seats):
            won = record["winner"] == s
            first: dict[str, int] = {}
            for name, _kind, turn in record["built"][s]:
                first.setdefault(name, turn)
            for name, turn in first.items():
                self.built[name, turn, won] += 1
            in_deal.extend(first)
            if won:
                winning = first.keys()
            for name in {name for name, _kind, _turn in record["taken"][s]}:
                self.taken[name, won] += 1
            self.seat_games += 1
            self.wins += won
        self.deals.add(record["index"] // seats, seats, in_deal, winning, record["winner"] != -1)

    def merge(self, other: "Holdings") -> None:
        self.seat_games += other.seat_games
        self.wins += other.wins
        self.built.update(other.built)
        self.taken.update(other.taken)
        self.deals.merge(other.deals)

    def counts(self) -> dict[str, tuple[int, int, int, int, int]]:
        """name -> (seat-games that built it, those that won, and its sums of squares over the
        whole deals: `DealSums.squares`), for every name built."""
        out: dict[str, list[int]] = {}
        for (name, _turn, won), n in self.built.items():
            c = out.setdefault(name, [0, 0])
            c[0] += n
            c[1] += n if won else 0
        return {name: (b, w, *self.deals.squares(name)) for name, (b, w) in out.items()}


def summarise(outcomes: Outcomes | list[dict], meta: dict, definitions: list[tuple[str, str]], early: int = 5,
              holdings: Holdings | None = None, rows: bool = True) -> dict:
    """The report of a run.  `outcomes`: the games' (`Outcomes`, or their records in game
    order); `definitions`: (name, kind) of every item of the content (copies once); `early`: a
    definition built by turn `early` counts as built early.  `holdings`: what the games' seats
    took and built, where the records no longer list it (`Holdings`: a run adds it up as the
    games come).  `rows`: list each game in `games`, a dict each (the command makes its reports
    without them, and its JSON writes them from the outcomes: `report_json`)."""
    if not isinstance(outcomes, Outcomes):
        if holdings is None:
            holdings = Holdings.of(outcomes)
        outcomes = Outcomes.of(outcomes)
    o = outcomes
    played = len(o)
    seats = o.seats if played else meta.get("players", 0)
    # (the units the intervals are taken over: each deal played at every seat, `_Deals`)
    dealt = (o.first + played - 1) // seats - o.first // seats + 1 if played and seats else 0
    report: dict[str, Any] = {"meta": {**meta, "games_played": played, "deals": dealt, "early_turns": early,
                                       "correction": "holm", "alpha": ALPHA}}
    deals = _Deals(max(1, seats), o.first)
    report["seats"] = [{"seat": s, **deals.rate([w == s for w in o.winners]),
                        "score": deals.mean(o.totals[s::seats] if played else [])} for s in range(seats)]
    # (every position of the line-up plays every game, in the order of the line-up)
    names = o.labels if played else ()
    report["agents"] = []
    for a, name in enumerate(names):
        # (position a sits in seat (a + index) % seats: `outcomes.seating`)
        won = [w == (a + o.first + k) % seats for k, w in enumerate(o.winners)]
        report["agents"].append({"agent": name, **deals.rate(won), "score": deals.mean(o.by_position(o.totals, a))})
    # (a shared victory is a draw, counted apart: not a victory of the type its game ended by)
    won_by = Counter(v for v, w in zip(o.victories, o.winners) if w != -1)
    report["victories"] = [{"victory": v, **deals.rate([w != -1 and c == code for c, w in zip(o.victories, o.winners)])}
                           for v, code in sorted((v, code) for code, v in enumerate(o.victory_names) if won_by[code])]
    report["draws"] = o.winners.count(-1)
    report["draw_rate"] = deals.rate([w == -1 for w in o.winners])   # (the draws' share, its interval deal by deal)
    report["length"] = {"turns": deals.mean(o.turns), "actions": deals.mean(o.actions),
                        "min_turns": min(o.turns, default=0), "max_turns": max(o.turns, default=0)}
    # (a category at a time: a long run's columns as lists, one at once)
    report["score_categories"] = []
    report["score_by_agent"] = {name: {} for name in names}
    for c in sorted(o.scores):
        if not o.listed(c):
            continue
        points = o.points(c)
        report["score_categories"].append({"category": c, **deals.seat_mean(points)})
        for a, name in enumerate(names):
            report["score_by_agent"][name][c] = sum(o.by_position(points, a)) / max(1, played)
    report["totals"] = list(o.totals)
    entries = _definitions(holdings if holdings is not None else Holdings(), definitions, early)
    report["definitions"] = {}
    for e in entries:
        report["definitions"].setdefault(e["kind"], []).append(e)
    report["cards"] = report["definitions"].get("card", [])
    report["outliers"] = [{"name": e["name"], "kind": e["kind"], "delta": e["delta"], "p": e["p"],
                           "p_holm": e["p_holm"], "direction": "stronger" if e["delta"] > 0 else "weaker"}
                          for e in sorted(entries, key=lambda e: e["p_holm"] if e["p_holm"] is not None else 2)
                          if e["significant"]]
    if rows:
        report["games"] = o.rows()
    return report


def _definitions(held: Holdings, definitions: list[tuple[str, str]], early: int) -> list[dict]:
    total, k_all = held.seat_games, held.wins
    # Per name: seat-games that built it, and won; of those, built by turn `early`, and won;
    # that held it, and won.
    built: Counter = Counter()
    won_built: Counter = Counter()
    built_early: Counter = Counter()
    won_early: Counter = Counter()
    for (name, turn, won), n in held.built.items():
        built[name] += n
        if won:
            won_built[name] += n
        if turn <= early:
            built_early[name] += n
            if won:
                won_early[name] += n
    taken: Counter = Counter()
    won_taken: Counter = Counter()
    for (name, won), n in held.taken.items():
        taken[name] += n
        if won:
            won_taken[name] += n
    entries = []
    deals = held.deals
    for name, kind in definitions:
        n_built, k_built = built[name], won_built[name]
        k_not, n_not = k_all - k_built, total - n_built
        # (a deal's seat-games go together, and a seat-game that built it and won is one of the
        # deal's that did not build it lost: the difference taken deal by deal, both sides at
        # their effective number of seat-games over its design effect; each side's own rate at
        # its own)
        on, off, cross, units = deals.sides(name, n_built, k_built)
        deff = ratio_difference_design_effect(k_built, n_built, on, k_not, n_not, off, cross, units)
        effective = (k_built / deff, n_built / deff, k_not / deff, n_not / deff)
        delta_low, delta_high = newcombe(*effective)
        d_built = ratio_design_effect(k_built, n_built, *on, units)
        d_not = ratio_design_effect(k_not, n_not, *off, units)
        tested = n_built >= MIN_TESTED and n_not >= MIN_TESTED
        b, nb = _rate(k_built, n_built, d_built), _rate(k_not, n_not, d_not)
        ea, tk = _rate(won_early[name], built_early[name]), _rate(won_taken[name], taken[name])
        both = bool(n_built and n_not)
        entries.append({
            "name": name, "kind": kind, "seat_games": total,
            "built": n_built, "won_built": k_built, "won_not_built": k_not,
            "win_rate_built": b["rate"], "built_low": b["low"], "built_high": b["high"],
            "not_built": n_not, "win_rate_not_built": nb["rate"], "not_built_low": nb["low"], "not_built_high": nb["high"],
            "built_early": built_early[name], "win_rate_early": ea["rate"], "early_low": ea["low"], "early_high": ea["high"],
            "taken": taken[name], "won_taken": tk["wins"], "win_rate_taken": tk["rate"], "taken_low": tk["low"],
            "taken_high": tk["high"],
            # (from the counts, not from rates rounded first; no interval where a side is empty)
            "delta": k_built / n_built - k_not / n_not if both else None,
            "delta_low": delta_low if both else None,
            "delta_high": delta_high if both else None,
            # (the p its interval inverts: the z test's beside it disagreed with it in some rows)
            "p": newcombe_p(*effective) if tested else None,
            "p_holm": None, "significant": False,
            "deff": deff if both else None, "built_deff": d_built if n_built else None,
            "not_built_deff": d_not if n_not else None})
    tested = [e for e in entries if e["p"] is not None]
    # (Holm's order and products read the p-values as they are: rounded first, those below
    # 1e-6 tied and the adjusted values came out wrong)
    for e, adjusted in zip(tested, holm([e["p"] for e in tested])):
        e["p_holm"] = adjusted
        e["significant"] = adjusted < ALPHA
    return entries


def definitions_of(content) -> list[tuple[str, str]]:
    """(name, kind) of every item of the content, copies once, in the order of the files."""
    seen: dict[str, str] = {}
    for it in content.items:
        seen.setdefault(it.name, it.kind)
    return list(seen.items())


class Tally:
    """Per definition, the seat-games that built it, those of them that won, and their sums of
    squares over the deals (`DealSums`), at the end of each batch of games joined (in game order,
    from game 0): what an A/B cut short needs to compare both sides on the same games, where its
    holdings add up every game each side played (the games after the last end before those
    compared are played again: `lab.ab`).  A batch weighs 20 bytes a definition (about 2 KB a
    batch of Duel games)."""

    WIDTH = 5   # (per name: built, won, and the sums of b^2, b * w, w^2 over the deals made whole)

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.ends: list[int] = [0]
        self.batches: list[array] = []   # (per batch: WIDTH counts for each name, in `names` order)
        self._cut = DealSums()           # (the deals the last end cuts: their games so far)
        self.cuts: dict[int, DealSums] = {}   # (end -> the deals it cuts, where it cuts any)

    def add(self, end: int, held: Holdings) -> None:
        """The batch of games up to before game `end` (after the last batch), `held` what its
        seats took and built."""
        if end < self.ends[-1]:
            raise ValueError(f"a batch ending at game {end} after one ending at {self.ends[-1]}")
        width = self.WIDTH
        counts = array("I", bytes(4 * width * len(self.names)))
        names = self.names

        def at(name: str) -> int:
            i = names.get(name)
            if i is None:
                i = names[name] = len(names)
                counts.extend((0,) * width)
            return width * i

        for (name, _turn, won), n in held.built.items():
            i = at(name)
            counts[i] += n
            if won:
                counts[i + 1] += n
        # (the deals this batch makes whole, those an earlier end cut included)
        deals = self._cut
        deals.merge(held.deals)
        for name in deals.bb:
            i = at(name)
            for j, v in enumerate(deals.squares(name)):
                counts[i + 2 + j] += v
        self._cut = DealSums(deals.seats, open=deals.open)
        if deals.open:
            self.cuts[end] = self._cut.copy()
        self.ends.append(end)
        self.batches.append(counts)

    @property
    def end(self) -> int:
        return self.ends[-1]

    def before(self, games: int) -> int:
        """The last end of a batch at or before game `games`."""
        return self.ends[bisect_right(self.ends, games) - 1]

    def at(self, games: int) -> dict[str, tuple[int, ...]] | None:
        """name -> (seat-games that built it, those that won, and the sums of squares over the
        deals whole by then: `Holdings.counts`) over the first `games` games; None where no batch
        ends there.  A deal the end cuts is in `cut(games)`, not in the sums."""
        k = bisect_left(self.ends, games)
        if k == len(self.ends) or self.ends[k] != games:
            return None
        width = self.WIDTH
        sums = [0] * (width * len(self.names))
        for counts in self.batches[:k]:
            for i, n in enumerate(counts):
                sums[i] += n
        return {name: tuple(sums[width * i:width * i + width]) for name, i in self.names.items() if sums[width * i]}

    def cut(self, games: int) -> DealSums:
        """The deals the end at game `games` cuts (their games before it), for games after it to
        make whole (`DealSums.merge`)."""
        return self.cuts[games].copy() if games in self.cuts else DealSums()


def games_compared(played_a: int, played_b: int, seats: int) -> int:
    """The games an A/B compares: the most whole rotations (each deal at every seat) both sides
    played, the first that many games of each.  A deal one side played at only some of its
    seatings is left out: its seats' advantage would not cancel."""
    return min(played_a, played_b) // max(1, seats) * max(1, seats)


def common_end(a: Tally, b: Tally, games: int, seats: int) -> int:
    """The most games, up to `games`, both tallies end a batch at, in whole rotations (0 at
    least): where a side's games cannot be played again alike (`lab.ab`)."""
    return max(n for n in set(a.ends) & set(b.ends) if n <= games and n % max(1, seats) == 0)


@attrs.frozen
class _Played:
    """The first `n` games of a side's outcomes, as the comparison reads them, game by game (the
    two sides' games of one index are a pair: the same deal and seating)."""

    winners: list[int]      # (the seat that won each game; -1: shared)
    positions: list[int]    # (the line-up position that won each game; -1: shared)
    victories: list[str | None]   # (how each game was won; None: shared, a draw)
    turns: list[int]
    scores: list[float]     # (each game's mean score: its seats' totals over its seats)
    n: int

    @classmethod
    def of(cls, o: Outcomes, n: int) -> "_Played":
        seats = o.seats
        winners = list(o.winners[:n])
        # (line-up position p sits in seat (p + index) % seats: `outcomes.seating`)
        positions = [-1 if w == -1 else (w - o.first - k) % seats for k, w in enumerate(winners)]
        names = o.victory_names
        victories = [None if w == -1 else names[v] for v, w in zip(o.victories[:n], winners)]
        totals = o.totals[:n * seats]
        scores = [sum(game) / seats for game in zip(*(totals[s::seats] for s in range(seats)))]
        return cls(winners, positions, victories, list(o.turns[:n]), scores, n)


class _Pairs:
    """How the games of A and B fell, pair by pair, for one way of reading a game (its winning
    seat, its winning position, its victory): the counts a paired interval needs."""

    def __init__(self, a: list, b: list) -> None:
        self.a, self.b = Counter(a), Counter(b)
        self.games_a, self.games_b = a, b
        self.both = Counter(x for x, y in zip(a, b) if x == y)

    def differences(self, value: Any) -> list[int]:
        """Each pair's game of B with `value` less A's (1, 0 or -1)."""
        return [(y == value) - (x == value) for x, y in zip(self.games_a, self.games_b)]

    def by_deal(self, value: Any, seats: int) -> list[int]:
        """Each deal's games of B with `value` less A's (a deal: `seats` games in a row)."""
        hits = self.differences(value)
        return [sum(hits[d:d + seats]) for d in range(0, len(hits), seats)]

    def table(self, value: Any) -> tuple[int, int, int, int, int, int]:
        """(games of A with `value`, of B, both, B only, A only, neither)."""
        ka, kb, both = self.a[value], self.b[value], self.both[value]
        n = sum(self.a.values())
        return ka, kb, both, kb - both, ka - both, n - ka - kb + both


def _order(entry: dict, changed: set) -> tuple:
    """The definitions table's order: the definitions B changes, then those compared, the most
    significant first (a large difference on a handful of games says little), then the others."""
    compared = entry["delta"] is not None
    return ((entry["kind"], entry["name"]) not in changed, not compared,
            entry["p_holm"] if entry["p_holm"] is not None else 2, -abs(entry["delta"] or 0),
            entry["kind"], entry["name"])


def compare(a: dict, b: dict, outcomes_a: Outcomes, outcomes_b: Outcomes, changed: list[dict] | tuple = (),
            built: tuple[int, dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]] | None = None) -> dict:
    """B against A on the same seeds and agents, on the games both played (`games`: the first
    N of each, the same deals, in whole rotations: `games_compared`; a side cut short leaves the
    other's later games out): each metric's difference (B - A) with its 95% interval.  The
    games of one index on the two sides are a pair (the same deal and seating), and each metric
    is compared pair by pair: the rates (each agent's and seat's win rate, each victory type's
    share, the draws' share) by Newcombe's interval for paired proportions (method 10 of his
    paired paper) at the effective number of pairs (the pairs over the design effect of their
    deals: `stats.design_effect`), the means (game length, mean score: each game's mean of its seats' totals)
    by the t interval of the deals' differences (common random numbers; a deal's games go
    together).  Each row's p-value is the one its interval inverts, so that the interval leaves
    out 0 exactly when p < ALPHA (`stats.newcombe_paired_p` for a rate, `stats.mean_p` for a
    mean; a mean with no spread on too few deals for the sign test has no interval: the whole
    line, null), and a row is `significant` where it stays under ALPHA
    after Holm's correction over every row compared, the metrics and the definitions: one
    family, the rows the verdict reads.  A definition's win rate when built is one test of many
    (about a hundred in Duel: with no change at all, some five would pass at 5 %): its seat-
    games are not paired (a definition built in A's game need not be in B's), so it is tested
    as two samples, each side's seat-games at their effective number over the design effect of
    its deals (`stats.ratio_design_effect`; a deal's seatings go together): Newcombe's interval
    and the p it inverts (`stats.newcombe_p`), adjusted by Holm's
    correction over every row compared, the metrics' with them (`p_holm`), and `significant`
    only below ALPHA after it.  Every definition of either side is listed, the
    `changed` ones (`lab.changed_definitions`) first, then those compared (built on both sides)
    the most significant first, then the others.  `built`: (N, and each side's name -> (seat-
    games that built it, those that won, and their sums of squares over the deals:
    `Holdings.counts`) over its first N games; `lab.ab` works them out); without it, both sides
    must have played the same whole rotations, and the definitions' seat-games, read from the
    reports, are taken as independent (nothing tells their deals).  A side that played no game (a run interrupted before it) leaves nothing to
    compare: no metric and no definition."""
    played_a, played_b = len(outcomes_a), len(outcomes_b)
    seats = max(outcomes_a.seats, outcomes_b.seats, 1)
    built_a = built_b = None
    if built is not None:
        n, built_a, built_b = built
        if n % seats or n > min(played_a, played_b):
            raise ValueError(f"{n} games are not whole rotations of games both sides played")
    else:
        n = games_compared(played_a, played_b, seats)
        if played_a != played_b or n != played_a:
            raise ValueError(f"the sides played {played_a} and {played_b} games, not the same whole rotations: "
                             "give the counts over the games compared (`built`)")
    metrics: list[dict] = []
    if not n:
        return {"games": 0, "metrics": metrics, "definitions": []}
    pa, pb = _Played.of(outcomes_a, n), _Played.of(outcomes_b, n)

    # A deal's games (its seatings) share their cards, and their results go together (a game's mean
    # score with its deal's other games by a correlation of some 0.15 in Duel, 0.18 at 4 classic
    # seats: there a mean of the games' differences had 1.5 times the variance a t interval of
    # the games assumed): each metric's interval and test take the deal as their unit.
    def rate_metric(metric: str, pairs: _Pairs, value: Any) -> None:
        ka, kb, both, b_only, a_only, neither = pairs.table(value)
        # (the pairs of a deal go together: the interval is taken at the effective number of pairs)
        deff = design_effect(pairs.differences(value), seats)
        low, high = newcombe_paired_clustered(both, b_only, a_only, neither, deff)   # (B first: B - A)
        # (the p its interval inverts: the sign-flip test's beside it disagreed with it in some rows)
        metrics.append({"metric": metric, "a": ka / n, "b": kb / n, "delta": (kb - ka) / n,
                        "low": low, "high": high, "p": newcombe_paired_p(both, b_only, a_only, neither, deff),
                        "p_holm": None, "significant": False})

    def mean_metric(metric: str, va: list[float], vb: list[float]) -> None:
        by_deal = [sum(y - x for x, y in zip(va[d:d + seats], vb[d:d + seats])) / seats for d in range(0, n, seats)]
        d, low, high = mean_interval(by_deal)
        p = mean_p(by_deal)
        if low == high != 0 and p >= ALPHA:
            # (no spread to measure, on too few deals for the sign test to tell d from 0: the
            # interval the test inverts is the whole line, shown as none rather than [d, d])
            low = high = None
        metrics.append({"metric": metric, "a": sum(va) / n, "b": sum(vb) / n, "delta": d,
                        "low": low, "high": high, "p": p, "p_holm": None,
                        "significant": False})

    by_position, by_seat = _Pairs(pa.positions, pb.positions), _Pairs(pa.winners, pb.winners)
    by_victory = _Pairs(pa.victories, pb.victories)
    for p, e in enumerate(a["agents"]):
        rate_metric(f"win rate {e['agent']}", by_position, p)
    for s, e in enumerate(a["seats"]):
        rate_metric(f"win rate seat {e['seat']}", by_seat, s)
    for v in sorted((set(by_victory.a) | set(by_victory.b)) - {None}):
        rate_metric(f"{v} victories", by_victory, v)
    if by_victory.a[None] or by_victory.b[None]:
        rate_metric("draws (shared victories)", by_victory, None)
    mean_metric("game length (turns)", pa.turns, pb.turns)
    mean_metric("mean score", pa.scores, pb.scores)

    def counts(report: dict, built: dict | None) -> dict[tuple[str, str], tuple[int, ...]]:
        entries = [e for es in report["definitions"].values() for e in es]
        if built is None:   # (no sums over the deals: the seat-games taken as independent)
            return {(e["kind"], e["name"]): (e["built"], e["won_built"]) for e in entries}
        return {(e["kind"], e["name"]): built.get(e["name"], (0, 0)) for e in entries}

    def deff(c: tuple[int, ...]) -> float:
        return ratio_design_effect(c[1], c[0], *c[2:5], n // seats) if len(c) == 5 else 1.0

    ca, cb = counts(a, built_a), counts(b, built_b)
    cards = []
    for key in sorted(set(ca) | set(cb)):
        (na, ka), (nb, kb) = ca.get(key, (None, None))[:2], cb.get(key, (None, None))[:2]
        entry = {"kind": key[0], "name": key[1], "only_in": "a" if key not in cb else "b" if key not in ca else None,
                 "a_built": na, "a_won": ka, "a_rate": ka / na if na else None,
                 "b_built": nb, "b_won": kb, "b_rate": kb / nb if nb else None,
                 "delta": None, "low": None, "high": None, "p": None, "p_holm": None, "significant": False,
                 "a_deff": None, "b_deff": None}
        if na and nb:
            # (a deal's seat-games go together: each side at its effective number of seat-games,
            # the interval Newcombe's and the p the one it inverts)
            da, db = deff(ca[key]), deff(cb[key])
            effective = (kb / db, nb / db, ka / da, na / da)
            low, high = newcombe(*effective)
            entry.update(delta=kb / nb - ka / na, low=low, high=high, p=newcombe_p(*effective), a_deff=da, b_deff=db)
        cards.append(entry)
    # One family: every row the verdict reads, the metrics and the definitions compared.  The
    # metrics were each called significant at 5 %, besides the definitions' own correction: an
    # audit's A/A runs (the same rules, other deals) found something "significant" in 23 of 100.
    tested = metrics + [c for c in cards if c["p"] is not None]
    for c, adjusted in zip(tested, holm([c["p"] for c in tested])):   # (exact p-values)
        c["p_holm"] = adjusted
        c["significant"] = adjusted < ALPHA
    edited = {(c["kind"], c["name"]) for c in changed}
    cards.sort(key=lambda c: _order(c, edited))
    return {"games": n, "metrics": metrics, "definitions": cards}


# Deals below which the intervals, taken deal by deal, are too wide to read (Student's t with
# fewer than 9 degrees of freedom is over 2.3 where a normal's is 1.96): said beside them.
FEW_DEALS = 10


def deals_said(meta: dict) -> str:
    """How many deals the intervals are taken over, and a word where they are few (a run of 10
    games at 5 seats is 2 deals: a mean score's interval then ran below 0)."""
    deals = meta.get("deals")
    if deals is None:   # (a report written before the count was kept)
        return ""
    said = f", over {deals:,} deal{'s' if deals != 1 else ''}"
    if deals < FEW_DEALS:
        said += f" (few: the intervals are wide; play {FEW_DEALS * max(1, meta.get('players', 1)):,} games or more)"
    return said


def options_said(meta: dict) -> str:
    """`, options A, B` for a run's game options; nothing without any (a report written before
    runs took options has no `options`)."""
    return f", options {', '.join(meta['options'])}" if meta.get("options") else ""
