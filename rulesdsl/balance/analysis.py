"""From the games' outcomes, and what their seats took and built, to the balance report (a
JSON-ready dict): win rates and mean scores by seat and by agent, victory types, game length,
score by category, and for every definition (cards, wonders, boards, tokens, gods, ... :
whatever item kinds the content declares) the win rate of a seat that took it versus one that
did not, with Wilson 95% intervals, and the outliers that stay significant after Holm's
correction.  `compare` puts two reports played on the same seeds side by side
(docs/balance.md)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from .outcomes import Outcomes
from .stats import holm, mean_difference, mean_interval, newcombe, two_proportion_p, wilson

ALPHA = 0.05
MIN_TESTED = 5          # seat-games on each side before a definition is tested at all


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"games": n, "wins": k, "rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def _mean(values: list[float]) -> dict[str, float]:
    m, low, high = mean_interval(values)
    return {"mean": round(m, 3), "low": round(low, 3), "high": round(high, 3)}


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

    @classmethod
    def of(cls, records: list[dict]) -> "Holdings":
        held = cls()
        for r in records:
            held.add(r)
        return held

    def add(self, record: dict) -> None:
        """The seat-games of one game's record (its `taken` and `built` lists)."""
        for s in range(len(record["agents"])):
            won = record["winner"] == s
            first: dict[str, int] = {}
            for name, _kind, turn in record["built"][s]:
                first.setdefault(name, turn)
            for name, turn in first.items():
                self.built[name, turn, won] += 1
            for name in {name for name, _kind, _turn in record["taken"][s]}:
                self.taken[name, won] += 1
            self.seat_games += 1
            self.wins += won

    def merge(self, other: "Holdings") -> None:
        self.seat_games += other.seat_games
        self.wins += other.wins
        self.built.update(other.built)
        self.taken.update(other.taken)


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
    report: dict[str, Any] = {"meta": {**meta, "games_played": played, "early_turns": early,
                                       "correction": "holm", "alpha": ALPHA}}
    report["seats"] = [{"seat": s, **_rate(o.winners.count(s), played),
                        "score": _mean(o.totals[s::seats] if played else [])} for s in range(seats)]
    # (every position of the line-up plays every game, in the order of the line-up)
    names = o.labels if played else ()
    report["agents"] = []
    for a, name in enumerate(names):
        report["agents"].append({"agent": name, **_rate(o.wins(a), played), "score": _mean(o.by_position(o.totals, a))})
    won_by = Counter(o.victories)
    report["victories"] = [{"victory": v, **_rate(won_by[o.victory_names.index(v)], played)}
                           for v in sorted(v for code, v in enumerate(o.victory_names) if won_by[code])]
    report["draws"] = o.winners.count(-1)
    report["length"] = {"turns": _mean(o.turns), "actions": _mean(o.actions),
                        "min_turns": min(o.turns, default=0), "max_turns": max(o.turns, default=0)}
    # (a category at a time: a long run's columns as lists, one at once)
    report["score_categories"] = []
    report["score_by_agent"] = {name: {} for name in names}
    for c in sorted(o.scores):
        if not o.listed(c):
            continue
        points = o.points(c)
        report["score_categories"].append({"category": c, **_mean(points)})
        for a, name in enumerate(names):
            report["score_by_agent"][name][c] = round(sum(o.by_position(points, a)) / max(1, played), 3)
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
    for name, kind in definitions:
        n_built, k_built = built[name], won_built[name]
        k_not, n_not = k_all - k_built, total - n_built
        delta_low, delta_high = newcombe(k_built, n_built, k_not, n_not)
        tested = n_built >= MIN_TESTED and n_not >= MIN_TESTED
        b, nb = _rate(k_built, n_built), _rate(k_not, n_not)
        ea, tk = _rate(won_early[name], built_early[name]), _rate(won_taken[name], taken[name])
        entries.append({
            "name": name, "kind": kind, "seat_games": total,
            "built": n_built, "won_built": k_built, "won_not_built": k_not,
            "win_rate_built": b["rate"], "built_low": b["low"], "built_high": b["high"],
            "not_built": n_not, "win_rate_not_built": nb["rate"], "not_built_low": nb["low"], "not_built_high": nb["high"],
            "built_early": built_early[name], "win_rate_early": ea["rate"], "early_low": ea["low"], "early_high": ea["high"],
            "taken": taken[name], "won_taken": tk["wins"], "win_rate_taken": tk["rate"], "taken_low": tk["low"],
            "taken_high": tk["high"],
            "delta": round((b["rate"] or 0) - (nb["rate"] or 0), 4) if n_built and n_not else None,
            "delta_low": round(delta_low, 4), "delta_high": round(delta_high, 4),
            "p": two_proportion_p(k_built, n_built, k_not, n_not) if tested else None,
            "p_holm": None, "significant": False})
    tested = [e for e in entries if e["p"] is not None]
    # (Holm's order and products read the p-values as they are: rounded first, those below
    # 1e-6 tied and the adjusted values came out wrong)
    for e, adjusted in zip(tested, holm([e["p"] for e in tested])):
        e["p"] = round(e["p"], 6)
        e["p_holm"] = round(adjusted, 6)
        e["significant"] = adjusted < ALPHA
    return entries


def definitions_of(content) -> list[tuple[str, str]]:
    """(name, kind) of every item of the content, copies once, in the order of the files."""
    seen: dict[str, str] = {}
    for it in content.items:
        seen.setdefault(it.name, it.kind)
    return list(seen.items())


def compare(a: dict, b: dict, outcomes_a: Outcomes, outcomes_b: Outcomes) -> dict:
    """B against A on the same seeds and agents: each metric's difference (B - A) with its 95%
    interval; rates by Newcombe's interval, means paired game by game (common random numbers).
    A metric is `significant` where its interval leaves out 0.  A definition's win rate when
    built is one test of many (about a hundred in Duel: with no change at all, some five would
    pass at 5 %): its `p` (the two-proportion z test) is adjusted by Holm's correction over every
    definition compared (`p_holm`), and it is `significant` only below ALPHA after it, as the
    outliers of a single run.  A side that played no game (a run interrupted before it) leaves
    nothing to compare: no metric and no definition."""
    metrics = []
    if not len(outcomes_a) or not len(outcomes_b):
        return {"metrics": metrics, "definitions": []}

    def rate_metric(metric: str, rate_a: dict, rate_b: dict) -> None:
        low, high = newcombe(rate_b["wins"], rate_b["games"], rate_a["wins"], rate_a["games"])
        metrics.append({"metric": metric, "a": rate_a["rate"], "b": rate_b["rate"],
                        "delta": round((rate_b["rate"] or 0) - (rate_a["rate"] or 0), 4),
                        "low": round(low, 4), "high": round(high, 4), "significant": low > 0 or high < 0})

    def mean_metric(metric: str, va: list[float], vb: list[float]) -> None:
        d, low, high = mean_difference(vb, va)
        ma, mb = mean_interval(va)[0], mean_interval(vb)[0]
        metrics.append({"metric": metric, "a": round(ma, 3), "b": round(mb, 3), "delta": round(d, 3),
                        "low": round(low, 3), "high": round(high, 3), "significant": low > 0 or high < 0})

    for ea, eb in zip(a["agents"], b["agents"]):
        rate_metric(f"win rate {ea['agent']}", ea, eb)
    for ea, eb in zip(a["seats"], b["seats"]):
        rate_metric(f"win rate seat {ea['seat']}", ea, eb)
    for v in sorted({e["victory"] for e in a["victories"]} | {e["victory"] for e in b["victories"]}):
        rate_a = next((e for e in a["victories"] if e["victory"] == v), {"wins": 0, "games": len(outcomes_a), "rate": 0.0})
        rate_b = next((e for e in b["victories"] if e["victory"] == v), {"wins": 0, "games": len(outcomes_b), "rate": 0.0})
        rate_metric(f"{v} victories", rate_a, rate_b)
    paired = min(len(outcomes_a), len(outcomes_b))
    mean_metric("game length (turns)", list(outcomes_a.turns[:paired]), list(outcomes_b.turns[:paired]))
    # (each game's totals seat by seat, game after game: the seats of a game are paired too)
    mean_metric("mean score", list(outcomes_a.totals[:paired * outcomes_a.seats]),
                list(outcomes_b.totals[:paired * outcomes_b.seats]))
    cards = []
    by_name_a = {(e["kind"], e["name"]): e for es in a["definitions"].values() for e in es}
    by_name_b = {(e["kind"], e["name"]): e for es in b["definitions"].values() for e in es}
    for key in sorted(set(by_name_a) | set(by_name_b), key=lambda k: (k[0], k[1])):
        ea, eb = by_name_a.get(key), by_name_b.get(key)
        if ea is None or eb is None or not ea["built"] or not eb["built"]:
            cards.append({"kind": key[0], "name": key[1], "only_in": "a" if eb is None else "b" if ea is None else None,
                          "a_built": ea["built"] if ea else 0, "b_built": eb["built"] if eb else 0})
            continue
        low, high = newcombe(eb["won_built"], eb["built"], ea["won_built"], ea["built"])
        cards.append({"kind": key[0], "name": key[1], "only_in": None, "a_built": ea["built"], "b_built": eb["built"],
                      "a_rate": ea["win_rate_built"], "b_rate": eb["win_rate_built"],
                      "delta": round((eb["win_rate_built"] or 0) - (ea["win_rate_built"] or 0), 4),
                      "low": round(low, 4), "high": round(high, 4),
                      "p": two_proportion_p(eb["won_built"], eb["built"], ea["won_built"], ea["built"]),
                      "p_holm": None, "significant": False})
    tested = [c for c in cards if c.get("p") is not None]
    for c, adjusted in zip(tested, holm([c["p"] for c in tested])):   # (exact p-values, rounded after)
        c["p"] = round(c["p"], 6)
        c["p_holm"] = round(adjusted, 6)
        c["significant"] = adjusted < ALPHA
    return {"metrics": metrics, "definitions": cards}
