"""What a balance run keeps of each game (`rulesdsl.balance.outcomes.Outcomes`: columns of
numbers, the records made when read), and the report made from it: the same records and the
same figures as the games' records (dicts) give."""

from array import array
from statistics import mean

import pytest

from rulesdsl.balance.analysis import Holdings, definitions_of, summarise
from rulesdsl.balance.lab import balance
from rulesdsl.balance.outcomes import ABSENT, Outcomes
from rulesdsl.balance.runner import Plan, _factories, labels, load, play_game, run

SETS = [("duel", (), None, ("random", "greedy")),
        ("duel", ("pantheon", "agora"), None, ("random", "random")),
        ("classic", (), 5, ("random", "greedy", "random", "random", "random"))]


def _records(base, expansions, players, agents, games, seed=3):
    plan = Plan(base, expansions, players, agents, games, seed=seed)
    rules = load(plan)
    factories, bundled = _factories(plan)
    played = [play_game(rules, plan, i, factories, bundled) for i in range(games)]
    for r in played:
        del r["taken"], r["built"]
    return plan, rules, played


@pytest.mark.parametrize("base, expansions, players, agents", SETS)
def test_the_records_read_back_are_the_records_kept(base, expansions, players, agents):
    plan, _, played = _records(base, expansions, players, agents, 12)
    kept = Outcomes.of(played)
    assert list(kept) == played and len(kept) == 12
    assert kept[0] == played[0] and kept[-1] == played[-1] and kept[5] == played[5]
    assert kept.labels == tuple(labels(plan.agents))
    # Kept in pieces and joined: the same games, whichever categories each piece met first.
    whole = Outcomes(kept.labels)
    for start in range(0, 12, 5):
        whole.extend(Outcomes.of(played[start:start + 5]))
    assert whole == kept and list(whole) == played
    # A category some seat lists with 0 stays listed; one no seat lists is left out.
    listed = {c for r in played for scores in r["scores"] for c in scores}
    assert {c for c in kept.scores if kept.listed(c)} == listed
    # Each line-up position's games, from any first game: its seat turns with the game's index.
    later = Outcomes.of(played[5:])
    for a, name in enumerate(later.labels):
        mine = [(r, r["agents"].index(name)) for r in played[5:]]
        assert later.wins(a) == sum(r["winner"] == s for r, s in mine)
        assert later.by_position(later.totals, a) == [r["totals"][s] for r, s in mine]
    # Numbers, not objects: every column is an array of 64-bit numbers.
    assert all(isinstance(col, array) for col in [kept.seeds, kept.winners, kept.totals, *kept.scores.values()])


def test_a_category_first_met_late_is_absent_from_the_games_before_it():
    _, _, played = _records("classic", (), 5, ("random",) * 5, 10)
    late = dict(played[-1], index=10, deal=2, rotation=0, agents=played[0]["agents"])   # (game 10 of 5 seats)
    late["scores"] = [dict(s, novel=0) if p == 2 else s for p, s in enumerate(late["scores"])]
    kept = Outcomes.of(played)
    kept.add(late)
    assert list(kept) == played + [late]
    assert all("novel" not in s for k in range(10) for s in kept[k]["scores"])
    assert kept.points("novel") == [0] * 55 and kept.scores["novel"][52] == 0 and kept.scores["novel"][0] == ABSENT


def test_a_number_beyond_64_bits_is_kept_too():
    _, _, played = _records("duel", (), None, ("random", "random"), 4)
    huge = dict(played[2], scores=[dict(played[2]["scores"][0], wonder=2 ** 70), played[2]["scores"][1]],
                totals=[played[2]["totals"][0] + 2 ** 70, played[2]["totals"][1]])
    records = played[:2] + [huge] + played[3:]
    kept = Outcomes.of(records)
    assert list(kept) == records and isinstance(kept.totals, list)   # (its columns became lists)
    small = Outcomes.of(played[:2])
    small.extend(Outcomes.of(records[2:]))
    assert list(small) == records and isinstance(small.scores["wonder"], list)


def test_games_are_kept_in_order_only():
    _, _, played = _records("duel", (), None, ("random", "random"), 3)
    kept = Outcomes.of(played[:1])
    with pytest.raises(ValueError, match="game 2 added after game 0"):
        kept.add(played[2])
    with pytest.raises(ValueError):
        kept.extend(Outcomes.of(played[2:]))
    assert list(kept) == played[:1]


@pytest.mark.parametrize("base, expansions, players, agents", SETS)
def test_the_report_of_a_run_is_what_its_records_give(base, expansions, players, agents):
    # The report's figures worked out plainly from the records (dicts), as the report did before
    # it read columns: rates, means in game order, categories, the games listed.
    plan, rules, played = _records(base, expansions, players, agents, 2 * (players or 2))
    result = run(plan, jobs=1)
    assert result.records == played
    meta = {"agents": labels(plan.agents), "players": players or 2}
    report = summarise(result.outcomes, meta, definitions_of(rules.content), 5, result.holdings)
    n = len(played[0]["agents"])
    seat_games = [(r, s) for r in played for s in range(n)]
    assert [e["wins"] for e in report["seats"]] == [sum(r["winner"] == s for r in played) for s in range(n)]
    assert [e["score"]["mean"] for e in report["seats"]] == [round(mean(r["totals"][s] for r in played), 3)
                                                              for s in range(n)]
    assert [e["agent"] for e in report["agents"]] == meta["agents"]
    for e in report["agents"]:
        mine = [(r, s) for r, s in seat_games if r["agents"][s] == e["agent"]]
        assert e["games"] == len(mine) == len(played)
        assert e["wins"] == sum(r["winner"] == s for r, s in mine)
        assert e["score"]["mean"] == round(mean(r["totals"][s] for r, s in mine), 3)
        assert report["score_by_agent"][e["agent"]] == {
            c: round(sum(r["scores"][s].get(c, 0) for r, s in mine) / len(mine), 3)
            for c in sorted({c for r in played for sc in r["scores"] for c in sc})}
    assert [(e["victory"], e["wins"]) for e in report["victories"]] == sorted(
        (v, sum(r["victory"] == v for r in played)) for v in {r["victory"] for r in played})
    assert report["draws"] == sum(r["winner"] == -1 for r in played)
    assert report["length"]["max_turns"] == max(r["turns"] for r in played)
    assert report["length"]["actions"]["mean"] == round(mean(r["actions"] for r in played), 3)
    assert [e["category"] for e in report["score_categories"]] == sorted({c for r in played for sc in r["scores"] for c in sc})
    for e in report["score_categories"]:
        assert e["mean"] == round(mean(r["scores"][s].get(e["category"], 0) for r, s in seat_games), 3)
    assert report["totals"] == [r["totals"][s] for r, s in seat_games]
    assert report["games"] == [{k: r[k] for k in ("index", "seed", "rotation", "agents", "winner", "victory", "totals",
                                                  "turns")} for r in played]
    # The records themselves give the same report (their items added up here).
    full = [play_game(rules, plan, i, *_factories(plan)) for i in range(len(played))]
    assert summarise(full, meta, definitions_of(rules.content)) == report
    assert result.holdings == Holdings.of(full)


def test_a_report_without_its_game_rows_is_the_same_report_otherwise():
    plan = Plan("duel", (), None, ("random", "greedy"), 6, seed=5)
    with_rows, outcomes = balance(plan, jobs=1)
    without, _ = balance(plan, jobs=1, rows=False)
    assert "games" not in without and len(with_rows.pop("games")) == len(outcomes) == 6
    with_rows.pop("run"), without.pop("run")
    assert with_rows == without


def test_the_json_written_a_batch_of_rows_at_a_time_is_the_report_with_its_rows(monkeypatch):
    import json

    from rulesdsl.balance import report_json as writer
    monkeypatch.setattr(writer, "ROWS_AT_ONCE", 4)   # (10 games: three batches)
    plan = Plan("duel", (), None, ("random", "greedy"), 10, seed=8)
    whole, outcomes = balance(plan, jobs=1)
    bare = {k: v for k, v in whole.items() if k != "games"}
    assert "".join(writer.report_json(bare, [(bare, outcomes)])) == json.dumps(whole, sort_keys=True)
    # Reports inside an A/B result, each with its own games; what holds no report as it is.
    other = dict(bare)
    few = Outcomes.of(list(outcomes)[:3])
    ab = {"a": bare, "b": other, "compare": {"metrics": [{"metric": "x", "delta": 0.5}], "definitions": []}}
    expected = {"a": whole, "b": dict(other, games=whole["games"][:3]), "compare": ab["compare"]}
    assert ("".join(writer.report_json(ab, [(bare, outcomes), (other, few)]))
            == json.dumps(expected, sort_keys=True))
    none = {"meta": {}}
    assert "".join(writer.report_json(none, [(none, Outcomes(()))])) == json.dumps({"games": [], "meta": {}})
    assert "".join(writer.report_json({}, [])) == "{}"


def test_the_html_pages_totals_by_agent_are_those_its_game_rows_list():
    from rulesdsl.balance.html import totals_by_agent
    plan = Plan("classic", (), 3, ("random", "greedy", "random"), 9, seed=2)
    report, _ = balance(plan, jobs=1)
    by_rows: dict[str, list[int]] = {}
    for g in report["games"]:
        for agent, total in zip(g["agents"], g["totals"]):
            by_rows.setdefault(agent, []).append(total)
    assert list(totals_by_agent(report).items()) == list(by_rows.items())
    assert set(by_rows) == {"random#1", "greedy", "random#2"}
