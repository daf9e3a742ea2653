"""The balance report on the terminal: rich tables of the report dict (analysis.summarise) and
of an A/B comparison (analysis.compare)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .analysis import deals_said, options_said


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(low: float | None, high: float | None) -> str:
    """A rate's interval in percent; "-" where there is none (no games: no rate)."""
    return "-" if low is None or high is None else f"[{100 * low:.1f}, {100 * high:.1f}]"


def _meta_line(meta: dict) -> str:
    line = (f"{meta['games_played']} games of {meta['game']} ({meta['players']} players), seed {meta['seed']}, "
            f"agents {', '.join(meta['agents'])}")
    if meta.get("expansions"):
        line += f", expansions {', '.join(meta['expansions'])}"
    return line + options_said(meta)


def _ab_options(result: dict) -> str:
    """The game options of an A/B's sides: said once where both played the same."""
    a, b = result["a"]["meta"], result["b"]["meta"]
    if a.get("options", []) == b.get("options", []):
        return options_said(a)
    return f"; A's options: {', '.join(a.get('options', [])) or 'none'}, B's: {', '.join(b.get('options', [])) or 'none'}"


def render(report: dict, console: Console, top: int = 15) -> None:
    meta = report["meta"]
    console.print(Text(_meta_line(meta), style="bold"))
    console.print(Text(f"content {meta['content_hash']}; every agent sat in every seat on the same deals; "
                       f"intervals: 95%, Wilson for rates, Student's t for means" + deals_said(meta)))
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
                  + (", ".join(f"{v['victory']} {v['wins']} ({_pct(v['rate'])})" for v in report["victories"])
                     or "none")
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


def compared_line(result: dict) -> str:
    """How many games the comparison covers: the first N of each side, the same deals, whole
    rotations (each deal at every seat: `analysis.games_compared`)."""
    n = result["compare"].get("games", 0)
    played = result["a"]["meta"]["games_played"], result["b"]["meta"]["games_played"]
    line = f"compared on the {n} games both sides played (the same deals)"
    if played != (n, n):
        line += (f"; A played {played[0]}, B {played[1]}: the games after the first {n} are left out of the "
                 "comparison")
        if n < min(played):
            line += " (it compares whole deals, each played at every seat on both sides)"
    return line


def nothing_compared(result: dict) -> str | None:
    """Why an A/B compares nothing (None: it compares some games)."""
    played = result["a"]["meta"]["games_played"], result["b"]["meta"]["games_played"]
    if not all(played):
        return f"nothing to compare: {'A' if not played[0] else 'B'} played no game"
    if not result["compare"].get("games"):
        return (f"nothing to compare: A played {played[0]} games, B {played[1]}, and no deal was played at every "
                "seat on both sides")
    return None


def definition_cells(d: dict) -> tuple[list[str], str]:
    """A row of the A/B definitions table (the terminal's and the page's): built and win rate
    when built on each side ("-" where a side has no such definition, or never built it), B - A
    with its interval and Holm's p where both sides built it, else why not; and whether it is
    significant."""
    def side(x: str) -> list[str]:
        return ["-" if d[f"{x}_built"] is None else str(d[f"{x}_built"]), _pct(d[f"{x}_rate"])]
    (built_a, win_a), (built_b, win_b) = side("a"), side("b")
    if d["delta"] is not None:
        # (a star as well as bold: bold is lost where the report is piped or saved)
        rest = [f"{100 * d['delta']:+.1f}", _interval(d["low"], d["high"]),
                f"{d['p_holm']:.4f}" + (" *" if d["significant"] else "")]
    else:
        why = (f"only in {d['only_in'].upper()}" if d["only_in"] else
               "built in neither" if not d["a_built"] and not d["b_built"] else
               f"never built in {'A' if not d['a_built'] else 'B'}")
        rest = ["-", why, "-"]
    return [d["kind"], d["name"], built_a, built_b, win_a, win_b, *rest], "sig" if d["significant"] else ""


DEFINITION_COLUMNS = ("kind", "name", "built A", "built B", "win A", "win B", "B - A", "95% interval", "Holm p")


def definitions_title(result: dict, shown: int | None = None) -> str:
    cmp = result["compare"]
    every = len(cmp["definitions"])
    return ("Win rate when built, B - A in points of percent (the changed definitions, then the most "
            f"significant; bold and *: significant at {result['a']['meta']['alpha']} after Holm's correction over the "
            f"{sum(1 for d in cmp['definitions'] if d.get('p_holm') is not None)} compared and the "
            f"{len(cmp['metrics'])} metrics"
            + (f"; top {shown} of {every})" if shown is not None and shown < every else ")"))


def render_compare(result: dict, console: Console, top: int = 15) -> None:
    cmp = result["compare"]
    console.print(Text(f"A/B: {result['a']['meta']['source']} (A) against {result['b']['meta']['source']} (B), "
                       f"the same seeds and agents{_ab_options(result)}; B - A with 95% intervals", style="bold"))
    changed = cmp.get("changed", [])
    console.print("B changes: " + (", ".join(f"{c['kind']} {c['name']} ({c['change']})" for c in changed)
                                   if changed else "no definition (each says the same on both sides)"))
    nothing = nothing_compared(result)
    if nothing is not None:
        console.print(nothing)
        return
    console.print(compared_line(result))
    alpha = result["a"]["meta"]["alpha"]
    table = Table(title="Differences (B - A: rates in points of percent)",
                  caption=f"Holm p: adjusted over every row compared, these {len(cmp['metrics'])} and the definitions' "
                          f"(* significant at {alpha})")
    for col in (*METRIC_COLUMNS, f"at {alpha}"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for m in cmp["metrics"]:
        row, _ = metric_cells(m)
        table.add_row(*row, "significant" if m["significant"] else "-")
    console.print(table)
    rows = cmp["definitions"]   # (in the order of the table: `analysis.compare`)
    defs = Table(title=definitions_title(result, min(top, len(rows))))
    for col in DEFINITION_COLUMNS:
        defs.add_column(col, justify="left" if col in ("kind", "name") else "right")
    for d in rows[:top]:
        cells, sig = definition_cells(d)
        cells[6] = Text(cells[6], style="bold" if sig else "")
        defs.add_row(*cells)
    console.print(defs)
    console.print(verdict(result))


def verdict(result: dict) -> str:
    """The answer in one line: what B changes significantly (a metric, a definition's win rate
    when built), or that nothing does, at how many games."""
    cmp = result["compare"]
    alpha = result["a"]["meta"]["alpha"]
    found = [f"{m['metric']} {metric_cells(m)[0][3]}" + (" points" if is_rate(m["metric"]) else "")
             for m in cmp["metrics"] if m["significant"]]
    found += [f"{d['kind']} {d['name']}: win rate when built {100 * d['delta']:+.1f} points"
              for d in cmp["definitions"] if d["significant"] and d["delta"] is not None]
    if not found:
        return (f"No significant difference between A and B at {alpha} over {cmp.get('games', 0)} games "
                "(more games find smaller ones)")
    return f"Significant at {alpha}, B - A: " + "; ".join(found)


def is_rate(metric: str) -> bool:
    """A metric that is a share of the games (a win rate, victories, draws), shown in percent."""
    return metric.startswith("win rate") or metric.endswith("victories") or metric.startswith("draws")


METRIC_COLUMNS = ("metric", "A", "B", "B - A", "95% interval", "Holm p")


def metric_cells(m: dict) -> tuple[list[str], str]:
    """A row of the A/B metrics table: A, B, B - A and its interval (rates in percent, in
    points of percent; means to 2 decimals), each rounded once from the exact value, and its
    p-value after Holm's correction (`*`: significant, as in the definitions' table)."""
    adjusted = "-" if m.get("p_holm") is None else f"{m['p_holm']:.4f}" + (" *" if m["significant"] else "")
    # (no interval, `-`: a difference with no spread on too few deals to tell it from 0)
    if is_rate(m["metric"]):
        interval = "-" if m["low"] is None else f"[{100 * m['low']:.2f}, {100 * m['high']:.2f}]"
        return [m["metric"], _pct(m["a"]), _pct(m["b"]), f"{100 * m['delta']:+.2f}",
                interval, adjusted], "sig" if m["significant"] else ""
    interval = "-" if m["low"] is None else f"[{m['low']:.2f}, {m['high']:.2f}]"
    return [m["metric"], f"{m['a']:.2f}", f"{m['b']:.2f}", f"{m['delta']:+.2f}",
            interval, adjusted], "sig" if m["significant"] else ""
