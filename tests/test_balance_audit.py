"""The balance lab after an audit of its statistics, one section per finding: an A/B cut short
compares the same whole rotations for any --jobs (and the error line says whose report covers
what); Student's t for the intervals of means, and no significance from a point interval;
Wilson bounds exactly 0 and 1 at the ends; no interval for a rate of no games; the page's
definitions sorted by their built rate; the A/B rates compared pair by pair (Newcombe's
interval for paired proportions)."""

from __future__ import annotations

import json
import math
from html.parser import HTMLParser
from io import StringIO

import pytest
from click.testing import CliRunner
from rich.console import Console

from rulesdsl.balance.analysis import Holdings, Tally, compare, summarise
from rulesdsl.balance.lab import ab
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.runner import Plan, deal_seed, run
from rulesdsl.balance.stats import design_effect, mean_difference, mean_interval, newcombe, wilson
from rulesdsl.cli import cli
from rulesdsl.interpreter.random_agent import RandomAgent

SEED = 4
FAILING_DEAL = 8   # (its second game, game 17, is where FailsInB raises on side B)


SAWPIT = 'card "Sawpit" {\n    age 1\n    color brown\n    produce wood\n    points 1\n}\n'


class FailsInB(RandomAgent):
    """The random agent, but for one game: in the second game of deal FAILING_DEAL (seat 1, an
    odd game), and only where the content has the card Sawpit (side B), it raises."""

    def act(self, game):
        if (game.state.seed == deal_seed(SEED, FAILING_DEAL) and game.to_move() == 1
                and any(it.name == "Sawpit" for it in game.content.items)):
            raise KeyError("wood")
        return super().act(game)


AGENTS = (f"{__name__}:FailsInB", "random")


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """B: Duel with one more card (a variant folder layered on it)."""
    folder = tmp_path_factory.mktemp("variant") / "sawpit"
    folder.mkdir()
    (folder / "x.rules").write_text(SAWPIT, encoding="utf-8")
    return str(folder)


def _plans(variant, games=60, agents=AGENTS):
    return (Plan("duel", (), None, agents, games, seed=SEED),
            Plan("duel", (variant,), None, agents, games, seed=SEED))


# -- 1. an A/B cut short: the same whole rotations for any --jobs ----------------------------------

def test_games_compared_are_whole_rotations_of_the_games_both_played():
    from rulesdsl.balance.analysis import games_compared
    assert games_compared(200, 47, 2) == 46
    assert games_compared(48, 200, 2) == 48
    assert games_compared(200, 200, 2) == 200
    assert games_compared(31, 200, 3) == 30
    assert games_compared(1, 200, 2) == 0


@pytest.fixture(scope="module")
def failing_in_b(variant):
    """The A/B of `_plans` with 1 and 2 jobs: B fails at game 17 (before, 1 job compared 14
    games and 2 jobs 15: where both sides happened to end a batch)."""
    return {jobs: ab(*_plans(variant), "A", "B", jobs, rows=False) for jobs in (1, 2)}


def test_an_ab_failing_in_b_compares_the_same_whole_rotations_for_any_jobs(failing_in_b):
    for jobs, (result, (a, b)) in failing_in_b.items():
        assert len(a) == 60 and len(b) == 17
        assert "in game 17 (seed" in result["b"]["meta"]["error"]
        assert result["compare"]["games"] == 16   # (the most whole deals both played: not 17, not 14 or 15)
    assert failing_in_b[1][0]["compare"] == failing_in_b[2][0]["compare"]


def test_the_games_compared_give_the_figures_of_a_run_of_that_many_games(failing_in_b, variant):
    # (B's 17th game played, its deal's other seating not: compared, the first 16 of each, and
    # every figure as an A/B of 16 games makes it, the definitions' counts included: A's games 14
    # and 15 (2 jobs) or 12 to 15 (1 job) played again)
    whole, _ = ab(*_plans(variant, 16), "A", "B", 1, rows=False)
    for result, _outcomes in failing_in_b.values():
        assert result["compare"]["metrics"] == whole["compare"]["metrics"]
        assert result["compare"]["definitions"] == whole["compare"]["definitions"]
        assert any(d["delta"] is not None for d in result["compare"]["definitions"])


def test_the_terminal_says_which_games_are_compared_and_why(failing_in_b):
    from rulesdsl.balance.report import render_compare
    shown = StringIO()
    render_compare(failing_in_b[2][0], Console(file=shown, width=300))
    assert ("compared on the 16 games both sides played (the same deals); A played 60, B 17: the games after the "
            "first 16 are left out of the comparison (it compares whole deals, each played at every seat on both "
            "sides)") in shown.getvalue()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_error_line_says_which_side_failed_and_what_each_report_covers(jobs, variant):
    result = CliRunner().invoke(cli, ["balance", "--compare", "duel", variant, "--agents", ",".join(AGENTS),
                                      "-n", "60", "-s", str(SEED), "-j", jobs, "--json"], catch_exceptions=False)
    assert result.exit_code == 1
    err = result.stderr.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"error: B: agent '{AGENTS[0]}' (seat 1) raised KeyError: 'wood' in game 17 (seed ")
    assert err[0].endswith("; B's report covers the 17 games before it, A's the 60 games A played; the comparison "
                           "covers the first 16 games of each side")
    out = json.loads(result.stdout)
    assert (out["a"]["meta"]["games_played"], out["b"]["meta"]["games_played"], out["compare"]["games"]) == (60, 17, 16)


def test_a_sides_counts_at_the_games_compared_are_its_tally_and_the_games_played_again(variant):
    from rulesdsl.balance.lab import _built_over
    plan = _plans(variant, 60)[0]
    tally = Tally()
    result = run(plan, 1, joining=lambda got, held: tally.add(got.end, held))
    assert tally.ends == list(range(0, 61, 6))   # (whole deals: 60 // 8 = 7 games a task -> 6)
    assert tally.at(16) is None
    got = _built_over(plan, tally, result.outcomes, 16, 1)   # (the tally at 12, and games 12 to 15 again)
    counts: dict = {}
    sixteen = run(_plans(variant, 16)[0], 1).holdings
    for (name, _turn, won), k in sixteen.built.items():
        built, wins = counts.get(name, (0, 0))
        counts[name] = (built + k, wins + (k if won else 0))
    # (and the sums of squares over the deals, for the definitions' design effects)
    assert {name: c[:2] for name, c in got.items()} == counts and sum(b for b, _ in counts.values()) > 100
    assert got == sixteen.counts()
    # Games that do not play again as they did (here: another seed's): no counts, and the A/B
    # falls back to where both sides ended a batch.
    other = run(Plan("duel", (), None, AGENTS, 60, seed=SEED + 1), 1).outcomes
    assert _built_over(plan, tally, other, 16, 1) is None


# -- 2. Student's t for the intervals of means -----------------------------------------------------

@pytest.mark.parametrize("df, q975, q995", [
    # (the two-sided 95 % and 99 % points of Student's t, as printed in the tables)
    (1, 12.7062, 63.6567),
    (2, 4.3027, 9.9248),
    (3, 3.1824, 5.8409),
    (5, 2.5706, 4.0321),
    (10, 2.2281, 3.1693),
    (30, 2.0423, 2.7500),
    (100, 1.9840, 2.6259),
])
def test_t_quantiles_match_the_tables(df, q975, q995):
    from rulesdsl.balance.stats import t_cdf, t_quantile
    assert t_quantile(0.975, df) == pytest.approx(q975, abs=5e-5)
    assert t_quantile(0.995, df) == pytest.approx(q995, abs=5e-5)
    assert t_quantile(0.025, df) == -t_quantile(0.975, df)
    assert t_cdf(t_quantile(0.975, df), df) == pytest.approx(0.975, abs=1e-12)


def test_t_quantiles_more_digits_and_the_normal_limit():
    from rulesdsl.balance.stats import t_quantile
    assert t_quantile(0.975, 10) == pytest.approx(2.228138851986274, abs=1e-10)
    assert t_quantile(0.95, 3) == pytest.approx(2.353363434801823, abs=1e-10)
    assert t_quantile(0.9, 5) == pytest.approx(1.475884048782027, abs=1e-10)
    assert t_quantile(0.975, 10 ** 7) == pytest.approx(1.959964, abs=1e-6)
    assert t_quantile(0.5, 7) == 0.0


def test_a_mean_of_two_values_has_the_t_interval():
    # (the normal quantile gave 1.5 -+ 0.98, an interval that covers some 70 % of the time)
    m, low, high = mean_interval([1, 2])
    assert (m, low, high) == pytest.approx((1.5, 1.5 - 12.7062 * 0.5, 1.5 + 12.7062 * 0.5), abs=1e-4)
    m, low, high = mean_interval([2.0, 4.0, 9.0])
    half = 4.3027 * math.sqrt(13.0 / 3)
    assert (low, high) == pytest.approx((5 - half, 5 + half), abs=1e-3)
    d, low, high = mean_difference([3, 5, 10], [1, 3, 7])   # (paired: differences 2, 2, 3)
    assert d == pytest.approx(7 / 3) and high - low == pytest.approx(2 * 4.3027 * math.sqrt(1 / 3 / 3), abs=1e-3)


def test_significance_needs_two_values_and_a_spread_or_the_sign_test():
    from rulesdsl.balance.stats import significant
    # Every pair differs alike (a point, no standard error): the sign test, 2 / 2**n < 5 % from 6 on.
    assert not significant(2.0, 2.0, 5) and significant(2.0, 2.0, 6) and significant(-2.0, -2.0, 40)
    assert not significant(0.0, 0.0, 40)
    assert not significant(1.0, 3.0, 1)
    assert significant(0.5, 3.0, 2) and significant(-3.0, -0.5, 10)
    assert not significant(-0.5, 3.0, 10)


def _record(index, winner, turns, totals):
    return {"index": index, "deal": index // 2, "seed": 1, "rotation": index % 2,
            "agents": ["x", "y"] if index % 2 == 0 else ["y", "x"], "winner": winner, "victory": "civilian",
            "scores": [{"points": t} for t in totals], "totals": totals, "turns": turns, "actions": turns,
            "taken": [[], []], "built": [[], []]}


def test_an_ab_mean_that_shifts_alike_in_a_few_games_is_not_significant():
    # B's games each one turn longer than A's: the differences have no spread, the interval is a
    # point, and it was called significant from 4 games (the sign test needs 6).
    meta = {"players": 2, "game": "duel", "seed": 0, "agents": ["x", "y"], "content_hash": "0" * 16}
    games_a = [_record(i, i % 2, 20 + i, [30, 31]) for i in range(4)]
    games_b = [_record(i, i % 2, 21 + i, [30, 31]) for i in range(4)]
    a, b = summarise(games_a, meta, []), summarise(games_b, meta, [])
    result = compare(a, b, Outcomes.of(games_a), Outcomes.of(games_b))
    length = next(m for m in result["metrics"] if m["metric"] == "game length (turns)")
    # (the interval [1, 1] left out 0 beside a p of 0.5: the sign test's interval on 2 deals is
    # the whole line, shown as none)
    assert (length["delta"], length["low"], length["high"]) == (1.0, None, None)
    assert length["p"] == 2 / 2 ** 2 and length["significant"] is False
    assert result["games"] == 4


# -- 3. Wilson's bounds at the ends ----------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 263, 10_000])
def test_wilson_bounds_are_exactly_0_and_1_at_the_ends(n):
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    assert wilson(0, n)[1] == pytest.approx(1 - wilson(n, n)[0], abs=1e-15)
    assert 0.0 < wilson(1, n)[0] if n > 1 else True


# -- 4. a rate of no games has no interval ---------------------------------------------------------

def test_a_report_of_no_games_has_no_rates_and_no_intervals():
    from rulesdsl.balance.report import render
    meta = {"players": 2, "game": "duel", "seed": 0, "agents": [], "content_hash": "0" * 16}
    held = Holdings(seat_games=40, wins=20)
    held.taken["Altar", True] += 3
    report = summarise([], meta, [("Altar", "card")], 5, held)
    for e in report["seats"]:
        assert e["games"] == 0 and (e["rate"], e["low"], e["high"]) == (None, None, None)
    altar = report["cards"][0]
    assert altar["built"] == 0 and (altar["win_rate_built"], altar["built_low"], altar["built_high"]) == (None,) * 3
    assert altar["early_low"] is None and altar["early_high"] is None
    assert altar["not_built_low"] == wilson(20, 40)[0] and altar["taken_high"] == 1.0
    out = StringIO()
    render(report, Console(file=out, width=250))
    text = out.getvalue()
    assert "[0.0, 100.0]" not in text
    seat = next(line for line in text.splitlines() if "seat 0" in line)
    cells = [c.strip() for c in seat.strip("│ ").split("│")]
    assert cells == ["seat 0", "0", "0", "-", "-", "0.0"]   # (games, wins, rate, interval, mean score)


# -- 5. the page's definitions by their built rate -------------------------------------------------

class _Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cls = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._cls = dict(attrs).get("class")
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag == "td":
            self.tables[-1][-1].append("")

    def handle_data(self, data):
        if self.tables and self.tables[-1] and self.tables[-1][-1]:
            self.tables[-1][-1][-1] += data


def test_the_page_sorts_definitions_by_built_rate_none_last():
    from rulesdsl.balance.html import render_html
    held = Holdings(seat_games=60, wins=30)
    for name, won, lost in (("Altar", 0, 10), ("Baths", 5, 5), ("Theatre", 3, 7)):   # (built: 0 %, 50 %, 30 %)
        held.built[name, 3, True] += won
        held.built[name, 3, False] += lost
    held.taken["Altar", True] += 9     # (held far more than built: a held rate of 90 %)
    held.taken["Altar", False] += 1
    held.taken["Garrison", True] += 4  # (held, never built: no built rate)
    held.taken["Garrison", False] += 1
    for name in ("Baths", "Theatre"):
        held.taken[name, True] += 5
        held.taken[name, False] += 5
    meta = {"players": 2, "game": "duel", "seed": 0, "agents": ["x", "y"], "content_hash": "0" * 16,
            "version": "test", "source": "duel"}
    definitions = [("Altar", "card"), ("Baths", "card"), ("Garrison", "card"), ("Theatre", "card")]
    report = summarise([], meta, definitions, 5, held)
    rows = _Rows()
    rows.feed(render_html(report))
    table = next(t for t in rows.tables if t and t[-1] and t[-1][0] in {"Altar", "Baths", "Garrison", "Theatre"})
    # (by `built or held`, Altar's 0 % built sorted by its 90 % held, first, and Garrison before Baths)
    assert [row[0] for row in table if row] == ["Baths", "Theatre", "Altar", "Garrison"]
    garrison = next(row for row in table if row and row[0] == "Garrison")
    assert garrison[5:7] == ["-", "-"]   # (win built, its interval: none)


# -- 6. the A/B rates pair by pair -----------------------------------------------------------------

def test_newcombe_paired_known_values():
    from rulesdsl.balance.stats import newcombe_paired
    # Fagerland, Lydersen & Laake (2017), "Statistical Analysis of Contingency Tables", chapter 8:
    # Cavo et al. 2012, n = [[59, 6], [16, 80]]: -0.0621 (95% CI -0.1186 to -0.0046).
    low, high = newcombe_paired(59, 6, 16, 80)
    assert (low, high) == pytest.approx((-0.1186, -0.0046), abs=5e-5)
    # Uncorrelated pairs (phi 0): the unpaired interval of two samples of n.
    assert newcombe_paired(25, 25, 25, 25) == pytest.approx(newcombe(50, 100, 50, 100))
    # Every pair alike: a difference of 0 with a narrow interval (the unpaired one is +-0.19).
    low, high = newcombe_paired(50, 0, 0, 50)
    assert low < 0 < high and high - low < 0.05


def _paired_counts(rows_a, rows_b, hit):
    both = sum(hit(x) and hit(y) for x, y in zip(rows_a, rows_b))
    ka, kb = sum(map(hit, rows_a)), sum(map(hit, rows_b))
    return both, kb - both, ka - both, len(rows_a) - ka - kb + both


def test_the_ab_rates_are_compared_pair_by_pair(tmp_path):
    from rulesdsl.balance.stats import newcombe_paired
    tweak = tmp_path / "tweak"
    tweak.mkdir()
    (tweak / "x.rules").write_text('extend card "Lumber Yard" {\n    points 3\n}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["balance", "--compare", "duel", str(tweak), "--agents", "greedy,random", "-n",
                                      "40", "-s", "1", "-j", "1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    rows_a, rows_b = out["a"]["games"], out["b"]["games"]
    n = out["compare"]["games"]
    assert n == len(rows_a) == 40
    metrics = {m["metric"]: m for m in out["compare"]["metrics"]}
    hits = {"win rate greedy": lambda g: g["winner"] != -1 and g["agents"][g["winner"]] == "greedy",
            "win rate random": lambda g: g["winner"] != -1 and g["agents"][g["winner"]] == "random",
            "win rate seat 0": lambda g: g["winner"] == 0, "win rate seat 1": lambda g: g["winner"] == 1}
    for v in {g["victory"] for g in rows_a + rows_b}:
        if f"{v} victories" in metrics:
            hits[f"{v} victories"] = lambda g, v=v: g["winner"] != -1 and g["victory"] == v
    narrower = 0
    for name, hit in hits.items():
        m = metrics[name]
        table = _paired_counts(rows_a, rows_b, hit)
        # (a deal's two games go together: the interval is taken at the effective number of pairs,
        # the pairs over the design effect of the deals' differences)
        deff = design_effect([hit(y) - hit(x) for x, y in zip(rows_a, rows_b)], 2)
        assert [m["low"], m["high"]] == list(newcombe_paired(*(c / deff for c in table)))
        assert m["delta"] == (sum(map(hit, rows_b)) - sum(map(hit, rows_a))) / n
        unpaired = newcombe(sum(map(hit, rows_b)), n, sum(map(hit, rows_a)), n)
        narrower += m["high"] - m["low"] < unpaired[1] - unpaired[0]
    assert narrower >= 4   # (most games end alike: the paired intervals are the narrower)
    # The definitions stay a two-sample test (their seat-games are not paired).
    for d in out["compare"]["definitions"]:
        if d["delta"] is not None:
            # (each side's seat-games at their effective number, over the design effect of its deals)
            assert [d["low"], d["high"]] == list(newcombe(d["b_won"] / d["b_deff"], d["b_built"] / d["b_deff"],
                                                          d["a_won"] / d["a_deff"], d["a_built"] / d["a_deff"]))


def test_batches_after_a_resume_off_a_rotation_end_on_whole_rotations():
    # A checkpoint of a run cut short at game 17 (2 seats): the batches after it ended at 17 +
    # k * size, none a whole rotation, so an A/B played more games again to compare.
    from rulesdsl.balance.runner import _chunks
    chunks = _chunks(17, 200, 1, 2)
    assert chunks[0].start == 17 and chunks[-1].stop == 200
    assert all(c.stop % 2 == 0 for c in chunks) and all(a.stop == b.start for a, b in zip(chunks, chunks[1:]))
    assert _chunks(200, 200, 1, 2) == [] and _chunks(0, 10, 2, 3)[0].start == 0
