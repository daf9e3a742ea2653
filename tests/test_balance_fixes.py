"""The figures of `rulesdsl balance` as docs/balance.md says they are, one test per fix of an
audit's findings: a change made by `extend` is a change; the A/B definitions table lists every
definition, the same rows in the same order on the terminal and the page; an A/B cut short
compares the games both sides played; figures computed from the counts and rounded once; no
interval where a side is empty; the kinds the docs say are reported; the mean score paired game
by game; a shared victory counted as a draw, not as a victory of its type."""

from __future__ import annotations

import json
import math
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from rulesdsl.balance.lab import ab, balance
from rulesdsl.balance.runner import Plan
from rulesdsl.balance.stats import design_effect, mean_interval, newcombe, wilson, wilson_clustered
from rulesdsl.cli import cli

DOCS = Path(__file__).resolve().parent.parent / "docs"
LUMBER_YARD = 'card "Lumber Yard" {\n    age 1\n    color brown\n    produce wood\n}\n'


def _lab(*args):
    result = CliRunner().invoke(cli, ["balance", *map(str, args)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _folder(tmp_path, name, text):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "x.rules").write_text(text, encoding="utf-8")
    return folder


def _plan(base="duel", expansions=(), games=40, seed=0, agents=("random", "random")):
    return Plan(base, tuple(expansions), None, agents, games, seed=seed)


def _stop_at(games):
    def progress(done, total):
        if done >= games:
            raise KeyboardInterrupt
    return progress


def _definition_rows(result, top=1000):
    """(kind, name, cells) of the terminal's A/B definitions table."""
    from rulesdsl.balance.report import render_compare
    out = StringIO()
    render_compare(result, Console(file=out, width=400), top)
    text = out.getvalue()
    table = text[text.index("Win rate when built, B - A"):]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 9 and cells[0] not in ("kind", ""):
            rows.append((cells[0], cells[1], cells))
    return rows


class _Tables(HTMLParser):
    """Every table of a page: its class and its rows' cells."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._rows = self._cell = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._rows = self.tables.setdefault(dict(attrs).get("class") or "", [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._rows = None


# -- 1. a change made with `extend` is a change --------------------------------------------------

def test_a_card_extended_in_b_is_a_change_and_comes_first(tmp_path):
    # B's `extend` left the definition in force with the span of A's text: "no definition (the
    # same card text)", and `compare.changed` was empty.
    tweak = _folder(tmp_path, "tweak", 'extend card "Lumber Yard" {\n    points 3\n}\n')
    result = _lab("--compare", "duel", tweak, "--agents", "random,random", "-n", "10", "-j", "1", "--json")
    cmp = json.loads(result.stdout)["compare"]
    assert cmp["changed"] == [{"kind": "card", "name": "Lumber Yard", "change": "changed"}]
    assert (cmp["definitions"][0]["kind"], cmp["definitions"][0]["name"]) == ("card", "Lumber Yard")
    shown = _lab("--compare", "duel", tweak, "--agents", "random,random", "-n", "2", "-j", "1").stdout
    assert "B changes: card Lumber Yard (changed)" in shown


def test_replace_remove_and_a_new_definition_count_and_spacing_does_not(tmp_path):
    from rulesdsl.balance.lab import changed_definitions
    layers = {
        "same": _folder(tmp_path, "same", "replace " + LUMBER_YARD.replace("    age 1\n", "    age    1   # one\n")),
        "replaced": _folder(tmp_path, "replaced", "replace " + LUMBER_YARD.replace("wood", "wood\n    points 1")),
        "removed": _folder(tmp_path, "removed", 'remove card "Tavern"\ncard "Inn" {\n    age 1\n    color yellow\n}\n'),
    }

    def changes(name):
        return [(c["name"], c["change"]) for c in changed_definitions(_plan(), _plan(expansions=(str(layers[name]),)))]
    assert changes("same") == []
    assert changes("replaced") == [("Lumber Yard", "changed")]
    assert changes("removed") == [("Inn", "only in B"), ("Tavern", "only in A")]


# -- 2. the terminal's A/B table shows every definition ------------------------------------------

@pytest.fixture(scope="module")
def costly(tmp_path_factory):
    """Duel against Lumber Yard at 40 coins (never built in B), 6 random games (audit: seed 4)."""
    folder = _folder(tmp_path_factory.mktemp("costly"), "tweak",
                     'replace card "Lumber Yard" {\n    age 1\n    color brown\n    cost 40 coins\n    produce wood\n}\n')
    result, _ = ab(_plan(games=6, seed=4), _plan(games=6, seed=4, expansions=(str(folder),)), "duel", "tweak", 1,
                   rows=False)
    return result


def test_the_terminal_table_lists_every_definition_one_side_never_built_included(costly):
    cmp = costly["compare"]
    rows = _definition_rows(costly)
    assert len(rows) == len(cmp["definitions"])   # (it kept only those with a difference)
    kind, name, cells = rows[0]                   # (the changed one first)
    assert (kind, name) == ("card", "Lumber Yard")
    lumber = cmp["definitions"][0]
    assert lumber["a_built"] > 0 and lumber["b_built"] == 0 and lumber["delta"] is None
    assert cells[2:] == [str(lumber["a_built"]), "0", f"{100 * lumber['a_rate']:.1f}%", "-", "-",
                         "never built in B", "-"]
    never = [r for r in rows if r[2][6] == "-"]
    assert {r[2][7] for r in never} <= {"never built in A", "never built in B", "built in neither"}
    assert any(r[2][7] == "built in neither" for r in never)   # (e.g. a progress token no one won)


# -- 3. the page's A/B table is the terminal's ---------------------------------------------------

def test_the_pages_ab_table_has_the_terminals_rows_in_its_order(costly):
    from rulesdsl.balance.html import render_html
    tables = _Tables()
    tables.feed(render_html(costly))
    page = [(r[0], r[1], r) for r in tables.tables["deltas"][1:]]
    terminal = _definition_rows(costly)
    assert [(k, n) for k, n, _ in page] == [(k, n) for k, n, _ in terminal]   # (it kept 30, compared ones only)
    assert [cells for _, _, cells in page] == [cells for _, _, cells in terminal]
    assert len(page) > 30 and page[0][:2] == ("card", "Lumber Yard")


# -- 4. an A/B cut short compares the games both sides played ------------------------------------

def _same_figures(cut: dict, whole: dict) -> None:
    assert cut["metrics"] == whole["metrics"]
    assert cut["definitions"] == whole["definitions"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_ab_cut_short_in_b_compares_the_first_games_of_both(jobs):
    plan_a, plan_b = _plan(games=160, seed=2), _plan(expansions=("agora",), games=160, seed=2)
    cut, (a, b) = ab(plan_a, plan_b, "A", "B", jobs, progress=_stop_at(160 + 40), rows=False)
    assert len(a) == 160 and 40 <= len(b) < 160 and len(b) % 2 == 0
    n = len(b)
    whole, _ = ab(_plan(games=n, seed=2), _plan(expansions=("agora",), games=n, seed=2), "A", "B", jobs, rows=False)
    # (win rates compared all of A's 160 games with B's fewer; the means, B's first games)
    _same_figures(cut["compare"], whole["compare"])
    assert cut["compare"]["games"] == n
    shown = StringIO()
    from rulesdsl.balance.report import render_compare
    render_compare(cut, Console(file=shown, width=200))
    assert f"compared on the {n} games both sides played (the same deals); A played 160, B {n}" in shown.getvalue()


def test_an_ab_resumed_from_its_checkpoint_and_cut_again_compares_the_same_games(tmp_path):
    kept = tmp_path / "ab.jsonl"
    plan_a, plan_b = _plan(games=400, seed=6), _plan(expansions=("agora",), games=400, seed=6)
    ab(plan_a, plan_b, "A", "B", 2, progress=_stop_at(400 + 130), rows=False, checkpoint=kept)
    cut, (a, b) = ab(plan_a, plan_b, "A", "B", 1, progress=_stop_at(400 + 290), rows=False, checkpoint=kept)
    assert len(a) == 400 and len(b) < 400
    n = cut["compare"].get("games", len(b))
    whole, _ = ab(_plan(games=n, seed=6), _plan(expansions=("agora",), games=n, seed=6), "A", "B", 2, rows=False)
    _same_figures(cut["compare"], whole["compare"])
    from rulesdsl.balance.lab import mark_every   # (how far before B's last game it may stop: a 64th or so)
    assert len(b) // mark_every(400) * mark_every(400) <= n <= len(b) and n > 0


# -- 5. figures from the counts, rounded once ----------------------------------------------------

def test_rates_and_differences_are_worked_out_from_the_counts(tmp_path):
    tweak = _folder(tmp_path, "tweak", 'extend card "Lumber Yard" {\n    points 3\n}\n')
    out = json.loads(_lab("--compare", "duel", tweak, "--agents", "random,random", "-n", "60", "-s", "1", "-j", "1",
                          "--json").stdout)
    report = out["a"]
    for e in report["agents"] + report["seats"]:
        # (the Wilson interval at the effective games: its games over the design effect of its deals)
        games = [w == e["seat"] for w in (g["winner"] for g in report["games"])] if "seat" in e else [
            g["winner"] != -1 and g["agents"][g["winner"]] == e["agent"] for g in report["games"]]
        deff = design_effect(games, 2)
        assert e["rate"] == e["wins"] / e["games"] and [e["low"], e["high"]] == list(wilson_clustered(e["wins"],
                                                                                                      e["games"], deff))
    entries = [e for es in report["definitions"].values() for e in es if e["delta"] is not None]
    assert entries
    for e in entries:
        assert e["win_rate_built"] == e["won_built"] / e["built"]
        assert e["delta"] == e["won_built"] / e["built"] - e["won_not_built"] / e["not_built"]
    compared = [d for d in out["compare"]["definitions"] if d["delta"] is not None]
    for d in compared:
        assert d["delta"] == d["b_won"] / d["b_built"] - d["a_won"] / d["a_built"]
        assert [d["low"], d["high"]] == list(newcombe(d["b_won"] / d["b_deff"], d["b_built"] / d["b_deff"],
                                                      d["a_won"] / d["a_deff"], d["a_built"] / d["a_deff"]))
    n = out["compare"]["games"]
    for m in out["compare"]["metrics"]:
        if m["metric"].startswith("win rate"):
            wins_a, wins_b = round(m["a"] * n), round(m["b"] * n)
            assert wins_a / n == m["a"] and m["delta"] == (wins_b - wins_a) / n


def test_a_rate_is_rounded_once_where_it_is_shown():
    # 14 wins in 17: 82.35 %.  Rounded to 4 decimals first (0.8235), it was shown "82.3%".
    from rulesdsl.balance.analysis import Holdings, summarise
    from rulesdsl.balance.report import render
    held = Holdings(seat_games=40, wins=20)
    for won, n in ((True, 14), (False, 3)):
        held.built["Altar", 1, won] += n
        held.taken["Altar", won] += n
    meta = {"players": 2, "game": "duel", "seed": 0, "agents": [], "content_hash": "0" * 16}
    report = summarise([], meta, [("Altar", "card")], 5, held)
    altar = report["cards"][0]
    assert altar["win_rate_built"] == 14 / 17 and altar["win_rate_not_built"] == 6 / 23
    assert altar["delta"] == 14 / 17 - 6 / 23
    out = StringIO()
    render(report, Console(file=out, width=250))
    row = next(line for line in out.getvalue().splitlines() if "Altar" in line)
    assert "82.4%" in row and "82.3%" not in row
    assert f"{100 * (14 / 17 - 6 / 23):+.1f}" in row


# -- 6. no interval where a side is empty ---------------------------------------------------------

def test_a_definition_never_built_has_no_difference_and_no_interval():
    report, _ = balance(_plan(expansions=("agora",), games=6, seed=1), rows=False)
    empty = [e for es in report["definitions"].values() for e in es if not e["built"] or not e["not_built"]]
    assert any(e["kind"] == "decree" for e in empty)
    for e in empty:
        assert e["delta"] is None and e["delta_low"] is None and e["delta_high"] is None and e["p"] is None


# -- 7. the kinds the docs say are reported -------------------------------------------------------

def test_the_docs_name_the_kinds_that_get_figures_and_agoras_are_as_they_say():
    doc = (DOCS / "balance.md").read_text(encoding="utf-8")
    assert "Agora decrees and senators" not in doc and "god, decree, senator" not in doc
    assert "senators are cards" in doc and "decrees" in doc
    report, _ = balance(_plan(expansions=("pantheon", "agora"), games=10, seed=2), rows=False)
    kinds = report["definitions"]
    assert "senator" not in kinds
    assert any(e["name"].startswith(("Politician", "Conspirator")) and e["taken"] for e in kinds["card"])
    assert all(not e["taken"] and not e["built"] for e in kinds["decree"])   # (in the Senate's chambers)
    assert any(e["taken"] for e in kinds["conspiracy"]) and any(e["taken"] for e in kinds["god"])


# -- 8. the A/B mean score paired game by game ----------------------------------------------------

def test_the_ab_mean_score_is_paired_game_by_game(tmp_path):
    tweak = _folder(tmp_path, "tweak", 'extend card "Lumber Yard" {\n    points 3\n}\n')
    out = json.loads(_lab("--compare", "duel", tweak, "--agents", "random,random", "-n", "40", "-s", "5", "-j", "1",
                          "--json").stdout)
    per_game = [[sum(g["totals"]) / len(g["totals"]) for g in out[side]["games"]] for side in ("a", "b")]
    differences = [b - a for a, b in zip(*per_game)]   # (40 pairs, not 80 seat-games)
    # (and the pairs of a deal, its two seatings, go together: the t interval of the 20 deals' means)
    d, low, high = mean_interval([(x + y) / 2 for x, y in zip(differences[::2], differences[1::2])])
    score = next(m for m in out["compare"]["metrics"] if m["metric"] == "mean score")
    assert (score["delta"], score["low"], score["high"]) == pytest.approx((d, low, high), abs=1e-12)
    assert score["a"] == pytest.approx(sum(per_game[0]) / 40, abs=1e-12)


# -- 9. a shared victory is a draw, not a victory of its type -------------------------------------

@pytest.fixture(scope="module")
def with_a_draw():
    """200 random Duel games from seed 3: game 87 is shared (36 all)."""
    result = CliRunner().invoke(cli, ["balance", "--compare", "duel", "duel", "--agents", "random,random", "-n",
                                      "200", "-s", "3", "-j", "2", "--json"], catch_exceptions=False)
    return json.loads(result.stdout)


def test_a_shared_victory_is_counted_apart_from_the_victory_types(with_a_draw):
    report = with_a_draw["a"]
    shared = [g for g in report["games"] if g["winner"] == -1]
    assert report["draws"] == len(shared) >= 1
    by_type = {v["victory"]: v["wins"] for v in report["victories"]}
    assert sum(by_type.values()) + report["draws"] == len(report["games"])
    assert by_type["civilian"] == sum(g["victory"] == "civilian" and g["winner"] != -1 for g in report["games"])
    metrics = {m["metric"]: m for m in with_a_draw["compare"]["metrics"]}
    assert metrics["civilian victories"]["a"] == by_type["civilian"] / 200
    assert metrics["draws (shared victories)"]["a"] == report["draws"] / 200
    assert math.isclose(sum(m["a"] for k, m in metrics.items() if k.endswith("victories") or k.startswith("draws")), 1.0)


# -- the A/B report answers "did my change unbalance the game?" in words too -----------------------

def test_an_ab_report_says_what_is_significant_in_a_line_and_marks_it_without_bold(tmp_path):
    """A designer's audit: a 25-VP card (98 % won when built, Holm p 0.0001) looked like every
    other row once the report was piped (bold lost); the metrics' significance column had no
    header; no line said whether anything differs."""
    from rulesdsl.balance.report import render_compare
    big = _folder(tmp_path, "big", 'extend card "Lumber Yard" {\n    points 40\n}\n')
    result, _ = ab(_plan(games=200, seed=1), _plan(games=200, seed=1, expansions=(str(big),)), "duel", "big", 1,
                   rows=False)
    out = StringIO()
    render_compare(result, Console(file=out, width=300, color_system=None), 5)
    text = out.getvalue()
    assert "Differences (B - A: rates in points of percent)" in text and "at 0.05" in text
    lumber = next(cells for kind, name, cells in _definition_rows(result) if name == "Lumber Yard")
    assert lumber[8].endswith(" *")   # (significant: marked in plain text as well as in bold)
    last = text.strip().splitlines()[-1]
    assert last.startswith("Significant at 0.05, B - A: ") and "card Lumber Yard: win rate when built +" in last
    assert "mean score +" in last
    same = ab(_plan(games=20, seed=1), _plan(games=20, seed=1), "duel", "duel", 1, rows=False)[0]
    out = StringIO()
    render_compare(same, Console(file=out, width=300, color_system=None), 5)
    assert out.getvalue().strip().splitlines()[-1] == (
        "No significant difference between A and B at 0.05 over 20 games (more games find smaller ones)")
