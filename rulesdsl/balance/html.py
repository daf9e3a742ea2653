"""The balance report as one self-contained HTML file: tables, and plots drawn with matplotlib
(Agg, no display) embedded as base64 PNG, so the file opens anywhere and can be mailed."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from .analysis import deals_said, options_said
from .outcomes import seating

CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}td:first-child,th:first-child{text-align:left}
.sig{font-weight:bold;color:#a00}figure{margin:1em 0}img{max-width:100%}code{background:#f4f4f4}"""


def _figure(draw, title: str, height: float = 3.5) -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, height))
    try:
        draw(ax)
        ax.set_title(title)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
    finally:
        plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'<figure class="plot"><img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(title)}</figcaption></figure>")


def _bars(ax, labels: list[str], rates: list[float], lows: list[float], highs: list[float], ref: float | None) -> None:
    ys = list(range(len(labels)))
    # (the bounds as computed: a bound a rounding error past its rate is no bar below 0)
    # (no interval, where there are no games: no bar)
    ax.barh(ys, rates, xerr=[[0.0 if lo is None else max(0.0, r - lo) for r, lo in zip(rates, lows)],
                             [0.0 if hi is None else max(0.0, hi - r) for r, hi in zip(rates, highs)]],
            color="#4a7ab8", ecolor="#333", capsize=2)
    ax.set_yticks(ys, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    if ref is not None:
        ax.axvline(ref, color="#a00", linestyle="--", linewidth=1)


def _table(headers: list[str], rows: list[list[Any]], cls: str = "") -> str:
    out = [f'<table class="{cls}"><thead><tr>' + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr></thead><tbody>"]
    for row in rows:
        cells = []
        for cell in row:
            if isinstance(cell, tuple):   # (text, css class)
                cells.append(f'<td class="{cell[1]}">{html.escape(str(cell[0]))}</td>')
            else:
                cells.append(f"<td>{html.escape(str(cell))}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "".join(out) + "</tbody></table>"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(low: float | None, high: float | None) -> str:
    """A rate's interval; "-" where there is none (no games: no rate)."""
    return "-" if low is None or high is None else f"[{_pct(low)}, {_pct(high)}]"


def _by_built_rate(entries) -> list[dict]:
    """The definitions by win rate when built, the highest first, those never built (no rate)
    last; ties in the order given.  (Sorted by `built or held or 0`, a rate of 0 built sorted
    by the held rate.)"""
    return sorted(entries, key=lambda e: (e["win_rate_built"] is None, -(e["win_rate_built"] or 0.0)))


def _section(report: dict, heading: str) -> list[str]:
    meta = report["meta"]
    parts = [f"<h2>{html.escape(heading)}</h2>",
             f"<p>{meta['games_played']} games of <b>{html.escape(meta['game'])}</b> ({meta['players']} players), "
             f"seed {meta['seed']}, agents {html.escape(', '.join(meta['agents']))}"
             f"{html.escape(options_said(meta))}; content "
             f"<code>{meta['content_hash']}</code>, rulesdsl {html.escape(meta['version'])}. Every agent sat in every "
             "seat on the same deals; 95% intervals: Wilson for rates, Student's t for means"
             f"{html.escape(deals_said(meta))}.</p>"]
    if meta.get("error"):
        parts.append(f'<p class="sig">Partial report: {html.escape(meta["error"])}</p>')
    rows = [[f"agent {e['agent']}", e["games"], e["wins"], _pct(e["rate"]), _interval(e["low"], e["high"]),
             f"{e['score']['mean']:.1f}"] for e in report["agents"]]
    rows += [[f"seat {e['seat']}", e["games"], e["wins"], _pct(e["rate"]), _interval(e["low"], e["high"]),
              f"{e['score']['mean']:.1f}"] for e in report["seats"]]
    parts.append(_table(["", "games", "wins", "win rate", "95% interval", "mean score"], rows, "rates"))
    even = 1 / max(1, meta["players"])
    seat_like = report["agents"] + report["seats"]
    parts.append(_figure(lambda ax: _bars(ax, [f"agent {e['agent']}" for e in report["agents"]]
                                          + [f"seat {e['seat']}" for e in report["seats"]],
                                          [e["rate"] or 0 for e in seat_like], [e["low"] for e in seat_like],
                                          [e["high"] for e in seat_like], even),
                         "Win rate by agent and seat (95% intervals; dashed: an even share)", 1 + 0.3 * len(seat_like)))
    if report["victories"] or report["draws"]:
        # (a shared victory is a draw, a slice of its own: not one of the type its game ended by)
        slices = [(v["victory"], v["wins"]) for v in report["victories"]]
        slices += [("shared (draw)", report["draws"])] if report["draws"] else []
        parts.append(_figure(lambda ax: ax.pie([n for _, n in slices], labels=[v for v, _ in slices],
                                               autopct="%1.0f%%"),
                             f"Victory types ({report['draws']} of the games a shared victory)", 3))
        rows = [[v["victory"], v["wins"], _pct(v["rate"]), _interval(v["low"], v["high"])]
                for v in report["victories"]]
        if report["draws"]:
            shared = report["draw_rate"]   # (deal by deal, as every rate of the report)
            rows.append(["shared (draw)", report["draws"], _pct(shared["rate"]), _interval(shared["low"], shared["high"])])
        parts.append(_table(["victory", "games", "share", "95% interval"], rows, "victories"))
    if report["totals"]:
        parts.append(_figure(lambda ax: _score_histogram(ax, report), "Score distribution by agent (every seat of every game)", 3))
    parts.append(_table(["category", "mean", "95% interval"],
                        [[e["category"], f"{e['mean']:.2f}", f"[{e['low']:.2f}, {e['high']:.2f}]"]
                         for e in report["score_categories"]], "categories"))
    for kind, entries in report["definitions"].items():
        shown = _by_built_rate(e for e in entries if e["delta"] is not None or e["taken"])
        if not shown:
            continue
        held = any(e["taken"] != e["built"] for e in shown)
        parts.append(f"<h3>{html.escape(kind)}: win rate when built</h3>")
        if held:   # e.g. wonders: drafted (held) and built are two figures
            parts.append(_figure(lambda ax, shown=shown: _bars(ax, [e["name"] for e in shown],
                                                               [e["win_rate_taken"] or 0 for e in shown],
                                                               [e["taken_low"] for e in shown],
                                                               [e["taken_high"] for e in shown], even),
                                 f"{kind}: win rate of a seat that held it (95% intervals)", 1 + 0.22 * len(shown)))
        parts.append(_figure(lambda ax, shown=shown: _bars(ax, [e["name"] for e in shown],
                                                           [e["win_rate_built"] or 0 for e in shown],
                                                           [e["built_low"] for e in shown],
                                                           [e["built_high"] for e in shown], even),
                             f"{kind}: win rate of a seat that built it (95% intervals)", 1 + 0.22 * len(shown)))
        parts.append(_table([kind, "held", "win held", "95%", "built", "win built", "95%", "not built", "win not", "95%",
                             f"by turn {meta['early_turns']}", "win early", "difference", "Holm p"],
                            [[e["name"], e["taken"], _pct(e["win_rate_taken"]),
                              _interval(e["taken_low"], e["taken_high"]), e["built"], _pct(e["win_rate_built"]),
                              _interval(e["built_low"], e["built_high"]), e["not_built"],
                              _pct(e["win_rate_not_built"]), _interval(e["not_built_low"], e["not_built_high"]),
                              e["built_early"], _pct(e["win_rate_early"]),
                              ("-" if e["delta"] is None else f"{100 * e['delta']:+.1f}", "sig" if e["significant"] else ""),
                              "-" if e["p_holm"] is None else f"{e['p_holm']:.4f}"] for e in shown], "definitions"))
    parts.append("<h3>Outliers</h3>")
    if report["outliers"]:
        parts.append("<ul>" + "".join(f"<li>{html.escape(o['kind'])} <b>{html.escape(o['name'])}</b>: {o['direction']}, "
                                      f"{100 * o['delta']:+.1f} points when built than when not (Holm-adjusted p {o['p_holm']:.4f})</li>"
                                      for o in report["outliers"]) + "</ul>")
    else:
        parts.append(f"<p>None: no definition's effect is significant at {meta['alpha']} after Holm's correction.</p>")
    return parts


def render_html(result: dict) -> str:
    """The whole page: one report, or an A/B comparison (result with `a`, `b`, `compare`)."""
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Balance report</title>",
             f"<style>{CSS}</style></head><body><h1>Balance report</h1>"]
    if "compare" in result:
        cmp = result["compare"]
        parts.append(f"<h2>A/B: {html.escape(result['b']['meta']['source'])} (B) against "
                     f"{html.escape(result['a']['meta']['source'])} (A)</h2><p>The same seeds and agents; B - A with 95% "
                     "intervals. The metrics pair each game of B with A's of the same deal and seating (rates: "
                     "Newcombe's interval for paired proportions at the deals' effective number of pairs; means: "
                     "Student's t of the deals' differences); the definitions' win rates are compared as two "
                     "samples (Newcombe), each side's seat-games deal by deal. Each row's p is the one its interval "
                     "inverts. Significant: after Holm's correction over every row, metrics and definitions.</p>")
        changed = cmp.get("changed", [])
        parts.append("<p>B changes: " + (", ".join(f"{html.escape(c['kind'])} <b>{html.escape(c['name'])}</b> "
                                                  f"({c['change']})" for c in changed)
                                        if changed else "no definition (each says the same on both sides)") + "</p>")
        from .report import (DEFINITION_COLUMNS, METRIC_COLUMNS, compared_line, definition_cells, definitions_title,
                             metric_cells, nothing_compared)
        nothing = nothing_compared(result)
        if nothing is not None:
            parts.append(f"<p>{html.escape(nothing[0].upper() + nothing[1:])}.</p>")
        else:
            parts.append(f"<p>{html.escape(compared_line(result))}.</p>")
            # (the terminal's tables: the same rows, in the same order, every one of them)
            rows = []
            for m in cmp["metrics"]:
                cells, sig = metric_cells(m)
                cells[3] = (cells[3], sig)
                rows.append(cells)
            parts.append(_table(list(METRIC_COLUMNS), rows, "compare"))
            deltas = [d for d in cmp["definitions"] if d["delta"] is not None]
            if deltas:
                parts.append(_figure(lambda ax: _delta_bars(ax, deltas),
                                     "Win rate when built: B - A (95% intervals; the definitions compared, in the "
                                     "order of the table)", 1 + 0.22 * len(deltas)))
            rows = []
            for d in cmp["definitions"]:
                cells, sig = definition_cells(d)
                cells[6] = (cells[6], sig)
                rows.append(cells)
            if rows:
                parts.append(f"<h3>{html.escape(definitions_title(result))}</h3>")
                parts.append(_table(list(DEFINITION_COLUMNS), rows, "deltas"))
        parts += _section(result["a"], f"A: {result['a']['meta']['source']}")
        parts += _section(result["b"], f"B: {result['b']['meta']['source']}")
    else:
        parts += _section(result, result["meta"]["source"])
    parts.append("</body></html>")
    return "\n".join(parts)


def _delta_bars(ax, deltas: list[dict]) -> None:
    ys = list(range(len(deltas)))
    values = [d["delta"] for d in deltas]
    ax.barh(ys, values, xerr=[[max(0.0, v - d["low"]) for v, d in zip(values, deltas)],
                              [max(0.0, d["high"] - v) for v, d in zip(values, deltas)]],
            color=["#b84a4a" if v > 0 else "#4a7ab8" for v in values], ecolor="#333", capsize=2)
    ax.set_yticks(ys, [f"{d['kind']} {d['name']}" for d in deltas], fontsize=7)
    ax.invert_yaxis()
    ax.axvline(0, color="#000", linewidth=1)


def _score_histogram(ax, report: dict) -> None:
    by_agent = totals_by_agent(report)
    bins = min(30, max(5, len(set(report["totals"]))))
    ax.hist(list(by_agent.values()), bins=bins, label=list(by_agent), histtype="stepfilled", alpha=0.5)
    ax.legend()
    ax.set_xlabel("score")


def totals_by_agent(report: dict) -> dict[str, list[int]]:
    """Each agent's totals, game after game, agents in the order they first sit down: read from
    `totals` (every seat of every game, in game order), where line-up position a sits in seat
    (a + game) % seats (`outcomes.seating`), so the report needs no row per game for them."""
    line_up = report["meta"]["agents"]
    seats = len(line_up)
    by_agent: dict[str, list[int]] = {}
    for k, total in enumerate(report["totals"]):
        game, seat = divmod(k, seats)
        by_agent.setdefault(line_up[seating(line_up, game)[seat]], []).append(total)
    return by_agent
