"""From game records to the balance report (a JSON-ready dict): win rates and mean scores by
seat and by agent, victory types, game length, score by category, and for every definition
(cards, wonders, boards, tokens, gods, ... : whatever item kinds the content declares) the
win rate of a seat that took it versus one that did not, with Wilson 95% intervals, and the
outliers that stay significant after Holm's correction.  `compare` puts two reports played on
the same seeds side by side (docs/balance.md)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from .stats import holm, mean_difference, mean_interval, newcombe, two_proportion_p, wilson

ALPHA = 0.05
MIN_TESTED = 5          # seat-games on each side before a definition is tested at all


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"games": n, "wins": k, "rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def _mean(values: list[float]) -> dict[str, float]:
    m, low, high = mean_interval(values)
    return {"mean": round(m, 3), "low": round(low, 3), "high": round(high, 3)}


def seat_games(records: list[dict]):
    """(record, seat) for every seat of every game: the unit of the per-definition figures."""
    for r in records:
        for s in range(len(r["agents"])):
            yield r, s


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


def summarise(records: list[dict], meta: dict, definitions: list[tuple[str, str]], early: int = 5,
              holdings: Holdings | None = None) -> dict:
    """The report of a run.  `definitions`: (name, kind) of every item of the content (copies
    once); `early`: a definition taken by turn `early` counts as taken early.  `holdings`:
    what the records' seats took and built, where the records no longer list it (`Holdings`:
    a run adds it up as the games come, and drops those lists)."""
    seats = len(records[0]["agents"]) if records else meta.get("players", 0)
    report: dict[str, Any] = {"meta": {**meta, "games_played": len(records), "early_turns": early,
                                       "correction": "holm", "alpha": ALPHA}}
    report["seats"] = [{"seat": s, **_rate(sum(r["winner"] == s for r in records), len(records)),
                        "score": _mean([r["totals"][s] for r in records])} for s in range(seats)]
    agent_names = sorted({a for r in records for a in r["agents"]}, key=lambda a: meta.get("agents", []).index(a)
                         if a in meta.get("agents", []) else 99)
    report["agents"] = []
    for a in agent_names:
        games = [(r, s) for r, s in seat_games(records) if r["agents"][s] == a]
        report["agents"].append({"agent": a, **_rate(sum(r["winner"] == s for r, s in games), len(games)),
                                 "score": _mean([r["totals"][s] for r, s in games])})
    victories = sorted({r["victory"] for r in records})
    report["victories"] = [{"victory": v, **_rate(sum(r["victory"] == v for r in records), len(records))}
                           for v in victories]
    report["draws"] = sum(r["winner"] == -1 for r in records)
    report["length"] = {"turns": _mean([r["turns"] for r in records]), "actions": _mean([r["actions"] for r in records]),
                        "min_turns": min((r["turns"] for r in records), default=0),
                        "max_turns": max((r["turns"] for r in records), default=0)}
    categories = sorted({c for r in records for sc in r["scores"] for c in sc})
    report["score_categories"] = [{"category": c, **_mean([r["scores"][s].get(c, 0) for r, s in seat_games(records)])}
                                  for c in categories]
    report["score_by_agent"] = {a: {c: round(sum(r["scores"][s].get(c, 0) for r, s in seat_games(records)
                                                 if r["agents"][s] == a) / max(1, sum(1 for r, s in seat_games(records)
                                                                                      if r["agents"][s] == a)), 3)
                                    for c in categories} for a in agent_names}
    report["totals"] = [r["totals"][s] for r, s in seat_games(records)]
    entries = _definitions(holdings if holdings is not None else Holdings.of(records), definitions, early)
    report["definitions"] = {}
    for e in entries:
        report["definitions"].setdefault(e["kind"], []).append(e)
    report["cards"] = report["definitions"].get("card", [])
    report["outliers"] = [{"name": e["name"], "kind": e["kind"], "delta": e["delta"], "p": e["p"],
                           "p_holm": e["p_holm"], "direction": "stronger" if e["delta"] > 0 else "weaker"}
                          for e in sorted(entries, key=lambda e: e["p_holm"] if e["p_holm"] is not None else 2)
                          if e["significant"]]
    report["games"] = [{k: r[k] for k in ("index", "seed", "rotation", "agents", "winner", "victory", "totals", "turns")}
                       for r in records]
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
            "p": round(two_proportion_p(k_built, n_built, k_not, n_not), 6) if tested else None,
            "p_holm": None, "significant": False})
    tested = [e for e in entries if e["p"] is not None]
    for e, adjusted in zip(tested, holm([e["p"] for e in tested])):
        e["p_holm"] = round(adjusted, 6)
        e["significant"] = adjusted < ALPHA
    return entries


def definitions_of(content) -> list[tuple[str, str]]:
    """(name, kind) of every item of the content, copies once, in the order of the files."""
    seen: dict[str, str] = {}
    for it in content.items:
        seen.setdefault(it.name, it.kind)
    return list(seen.items())


def compare(a: dict, b: dict, records_a: list[dict], records_b: list[dict]) -> dict:
    """B against A on the same seeds and agents: each metric's difference (B - A) with its 95%
    interval; rates by Newcombe's interval, means paired game by game (common random numbers).
    `significant`: the interval leaves out 0."""
    metrics = []

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
        rate_a = next((e for e in a["victories"] if e["victory"] == v), {"wins": 0, "games": len(records_a), "rate": 0.0})
        rate_b = next((e for e in b["victories"] if e["victory"] == v), {"wins": 0, "games": len(records_b), "rate": 0.0})
        rate_metric(f"{v} victories", rate_a, rate_b)
    paired = min(len(records_a), len(records_b))
    mean_metric("game length (turns)", [r["turns"] for r in records_a[:paired]], [r["turns"] for r in records_b[:paired]])
    ta = [t for r in records_a[:paired] for t in r["totals"]]
    tb = [t for r in records_b[:paired] for t in r["totals"]]
    mean_metric("mean score", ta, tb)
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
                      "low": round(low, 4), "high": round(high, 4), "significant": low > 0 or high < 0})
    return {"metrics": metrics, "definitions": cards}
