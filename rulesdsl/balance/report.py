"""The balance report on the terminal: rich tables of the report dict (analysis.summarise) and
of an A/B comparison (analysis.compare)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def _meta_line(meta: dict) -> str:
    line = (f"{meta['games_played']} games of {meta['game']} ({meta['players']} players), seed {meta['seed']}, "
            f"agents {', '.join(meta['agents'])}")
    if meta.get("expansions"):
        line += f", expansions {', '.join(meta['expansions'])}"
    return line


def render(report: dict, console: Console, top: int = 15) -> None:
    meta = report["meta"]
    console.print(Text(_meta_line(meta), style="bold"))
    console.print(Text(f"content {meta['content_hash']}; every agent sat in every seat on the same deals; "
                       f"intervals: Wilson 95%"))
    rates = Table(title="Win rate by agent and by seat")
    for col in ("", "games", "wins", "win rate", "95% interval", "mean score"):
        rates.add_column(col, justify="right" if col else "left")
    for e in report["agents"]:
        rates.add_row(f"agent {e['agent']}", str(e["games"]), str(e["wins"]), _pct(e["rate"]),
                      _interval(e["low"], e["high"]), f"{e['score']['mean']:.1f}")
    for e in report["seats"]:
        rates.add_row(f"seat {e['seat']}", str(e["games"]), str(e["wins"]), _pct(e["rate"]),
                      _interval(e["low"], e["high"]), f"{e['score']['mean']:.1f}")
    console.print(rates)
    games = meta["games_played"]
    length = report["length"]
    console.print(f"draws {report['draws']}; victories: "
                  + ", ".join(f"{v['victory']} {v['wins']} ({_pct(v['rate'])})" for v in report["victories"])
                  + f"; game length {length['turns']['mean']:.1f} turns ({length['min_turns']}-{length['max_turns']}), "
                  f"{length['actions']['mean']:.1f} actions")
    cats = Table(title="Mean score by category (per seat and game)")
    cats.add_column("category")
    cats.add_column("mean", justify="right")
    cats.add_column("95% interval", justify="right")
    for agent in report["score_by_agent"]:
        cats.add_column(agent, justify="right")
    for e in report["score_categories"]:
        cats.add_row(e["category"], f"{e['mean']:.2f}", f"[{e['low']:.2f}, {e['high']:.2f}]",
                     *(f"{report['score_by_agent'][a].get(e['category'], 0):.2f}" for a in report["score_by_agent"]))
    console.print(cats)
    for kind, entries in report["definitions"].items():
        shown = [e for e in entries if e["delta"] is not None or e["taken"]]
        if not shown:
            continue
        # Held (in a public zone of the seat) differs from built (in play) for e.g. wonders drafted.
        held = any(e["taken"] != e["built"] for e in shown)
        # Most significant first: a large difference on a handful of games says little.
        shown.sort(key=lambda e: (e["p"] is None, e["p"] if e["p"] is not None else 1.0, -abs(e["delta"] or 0)))
        table = Table(title=f"{kind}: win rate when built vs not (most significant first"
                            + (f", top {top} of {len(shown)})" if len(shown) > top else ")"))
        columns = [kind, *(["held", "win held"] if held else []), "built", "win built", "95%", "not", "win not", "95%",
                   f"by turn {meta['early_turns']}", "win early", "difference"]
        for col in columns:
            table.add_column(col, justify="left" if col == kind else "right")
        for e in shown[:top]:
            table.add_row(e["name"], *([str(e["taken"]), _pct(e["win_rate_taken"])] if held else []),
                          str(e["built"]), _pct(e["win_rate_built"]), _interval(e["built_low"], e["built_high"]),
                          str(e["not_built"]), _pct(e["win_rate_not_built"]),
                          _interval(e["not_built_low"], e["not_built_high"]), str(e["built_early"]),
                          _pct(e["win_rate_early"]),
                          Text("-" if e["delta"] is None else f"{100 * e['delta']:+.1f}",
                               style="bold" if e["significant"] else ""))
        console.print(table)
    if report["outliers"]:
        console.print(Text(f"Outliers (significant at {meta['alpha']} after Holm's correction over every tested "
                           f"definition):", style="bold"))
        for o in report["outliers"]:
            console.print(f"  {o['kind']} {o['name']}: {o['direction']}, win rate {100 * o['delta']:+.1f} points "
                          f"when built than when not (adjusted p {o['p_holm']:.4f})")
    else:
        console.print(f"No outlier: no definition's effect is significant at {meta['alpha']} after Holm's correction"
                      + (f" ({games} games)" if games else ""))


def render_compare(result: dict, console: Console, top: int = 15) -> None:
    cmp = result["compare"]
    console.print(Text(f"A/B: {result['a']['meta']['source']} (A) against {result['b']['meta']['source']} (B), "
                       f"the same seeds and agents; B - A with 95% intervals", style="bold"))
    changed = cmp.get("changed", [])
    console.print("B changes: " + (", ".join(f"{c['kind']} {c['name']} ({c['change']})" for c in changed)
                                   if changed else "no definition (the same card text)"))
    played = result["a"]["meta"]["games_played"], result["b"]["meta"]["games_played"]
    if not all(played):
        console.print(f"nothing to compare: {'A' if not played[0] else 'B'} played no game")
        return
    table = Table(title="Differences")
    for col in ("metric", "A", "B", "B - A", "95% interval", ""):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for m in cmp["metrics"]:
        as_rate = m["metric"].startswith("win rate") or m["metric"].endswith("victories")
        f = _pct if as_rate else (lambda x: f"{x:.2f}")
        table.add_row(m["metric"], f(m["a"]), f(m["b"]), f"{(100 if as_rate else 1) * m['delta']:+.2f}",
                      f"[{(100 if as_rate else 1) * m['low']:.2f}, {(100 if as_rate else 1) * m['high']:.2f}]",
                      "significant" if m["significant"] else "")
    console.print(table)
    edited = {(c["kind"], c["name"]) for c in changed}
    rows = [d for d in cmp["definitions"] if d.get("only_in") or (d.get("delta") is not None)]
    # The definitions B changes first, then the most significant (a large difference on a
    # handful of games says little).
    rows.sort(key=lambda d: ((d["kind"], d["name"]) not in edited, d.get("only_in") is None,
                             d["p_holm"] if d.get("p_holm") is not None else 2, -abs(d.get("delta") or 0)))
    defs = Table(title="Win rate when built, B - A (the changed definitions, then the most significant; bold: "
                       f"significant at {result['a']['meta']['alpha']} after Holm's correction over the "
                       f"{sum(1 for d in cmp['definitions'] if d.get('p_holm') is not None)} compared)")
    for col in ("kind", "name", "built A", "built B", "win A", "win B", "B - A", "95% interval", "Holm p"):
        defs.add_column(col, justify="left" if col in ("kind", "name") else "right")
    for d in rows[:top]:
        if d.get("delta") is None:
            defs.add_row(d["kind"], d["name"], str(d["a_built"]), str(d["b_built"]), "-", "-",
                         f"only in {d['only_in']}" if d["only_in"] else "never taken", "", "")
            continue
        defs.add_row(d["kind"], d["name"], str(d["a_built"]), str(d["b_built"]), _pct(d["a_rate"]), _pct(d["b_rate"]),
                     Text(f"{100 * d['delta']:+.1f}", style="bold" if d["significant"] else ""),
                     _interval(d["low"], d["high"]), f"{d['p_holm']:.4f}")
    console.print(defs)
