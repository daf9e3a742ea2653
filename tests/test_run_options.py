"""Game options (`--option NAME`) in the runs a designer measures with: `simulate` and
`balance` create every game of a run with them, on one process or many, say them where the run
records what it played (the summary, the report's meta, a checkpoint, each trace), and refuse
an unknown one before any game, as `verify --option` does.

The facts read from the games are the rulebooks': Duel's beginner wonders ("Als je de eerste
keer speelt", as tests/test_rulebook_duel.py reads them) and classic's A8 (every board on its
Night side with the option that turns them; tests/test_classic_content.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from positions import names
from rulesdsl.balance.lab import ab, balance
from rulesdsl.balance.runner import Plan
from rulesdsl.cli import cli
from rulesdsl.names import UnknownName
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import game_seed, play_one, simulate
from rulesdsl.trace import load_trace, new_game_of, replay

BEGINNER = [sorted(["Pyramids", "Great Lighthouse", "Temple of Artemis", "Statue of Zeus"]),
            sorted(["Circus Maximus", "Piraeus", "Appian Way", "Colossus"])]


def beginner_wonders(game) -> bool:
    return [sorted(names(game, "wonders", p)) for p in range(2)] == BEGINNER


def night_boards(game) -> bool:
    boards = [b for p in range(game.content.players) for b in names(game, "board", p)]
    return len(boards) == game.content.players and all(b.endswith("(Night)") for b in boards)


def summary(result: dict) -> dict:
    """`simulate`'s summary without what depends on the run's speed."""
    return {k: v for k, v in result.items() if k not in ("seconds", "games_per_second")}


def cli_run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


# -- simulate --------------------------------------------------------------------------------------

@pytest.mark.parametrize("base, players, option, looks_right", [
    ("duel", None, "beginner_wonders", beginner_wonders),
    ("classic", 3, "night_sides", night_boards),
])
def test_simulate_plays_every_game_with_the_options_on_any_number_of_jobs(base, players, option, looks_right):
    rules = load_ruleset((), base, players)
    one, two = (summary(simulate(rules, 20, seed=4, options=[option], jobs=j)) for j in (1, 2))
    assert one == two and one["options"] == [option] and one["games"] == 20
    plain = summary(simulate(rules, 20, seed=4))
    assert plain["options"] == [] and plain != {**one, "options": []}
    # the run's games are those of its seeds created with the option: each one's set-up shows it
    wins = {str(p): 0 for p in range(rules.content.players)} | {"draw": 0}
    for i in range(20):
        assert looks_right(rules.new_game(seed=game_seed(4, i), options=[option]))
        game = play_one(rules, game_seed(4, i), ["random"] * rules.content.players, options=(option,))
        wins["draw" if game.state.winner == -1 else str(game.state.winner)] += 1
    assert one["wins"] == wins


def test_simulate_refuses_options_it_cannot_use_before_any_game():
    rules = load_ruleset()
    with pytest.raises(UnknownName, match="unknown game option `night_sides`; game options: beginner_wonders"):
        simulate(rules, 5, options=["night_sides"])
    with pytest.raises(ValueError, match="options must be a list of names"):   # (not its keys taken)
        simulate(rules, 5, options={"beginner_wonders": False})
    assert simulate(rules, 2, options="beginner_wonders")["options"] == ["beginner_wonders"]


def test_the_command_says_the_options_and_gives_the_same_summary_on_two_jobs():
    args = ["simulate", "-n", "20", "--seed", "2", "--option", "beginner_wonders", "--json"]
    one, two = (json.loads(cli_run(*args, "-j", j).stdout) for j in ("1", "2"))
    assert summary(one) == summary(two) and one["options"] == ["beginner_wonders"]
    assert summary(one) == summary(simulate(load_ruleset(), 20, seed=2, options=["beginner_wonders"]))
    text = cli_run("simulate", "-n", "3", "-j", "1", "--option", "beginner_wonders").output
    assert text.startswith("3 games, seed 0, agents random vs random, options beginner_wonders; duel, 2 players")


@pytest.mark.parametrize("command", [
    ["simulate", "-n", "3"],
    ["balance", "-n", "2", "--agents", "random,random"],
    ["balance", "-n", "2", "--agents", "random,random", "--compare", "duel", "duel"],
])
def test_an_unknown_option_is_a_usage_error_naming_the_options_before_any_game(command, tmp_path):
    done = CliRunner().invoke(cli, [*command, "-j", "1", "--option", "night_sides",
                                    *(["--checkpoint", str(tmp_path / "cp")] if command[0] == "balance" else [])])
    assert done.exit_code == 2
    assert "Invalid value for --option: unknown game option `night_sides`; game options: beginner_wonders" in done.output
    assert "games" not in done.output and not (tmp_path / "cp").exists()


# -- balance ---------------------------------------------------------------------------------------

def test_balance_plays_every_game_with_the_options_and_its_traces_replay(tmp_path):
    traces = tmp_path / "traces"
    done = cli_run("balance", "-n", "6", "-j", "2", "--agents", "random,greedy", "--option", "beginner_wonders",
                   "--traces", str(traces), "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["meta"]["options"] == ["beginner_wonders"]
    files = sorted(traces.glob("game-*.json"))
    assert len(files) == 6
    for f in files:
        data = load_trace(f)
        assert data["options"] == ["beginner_wonders"]
        assert beginner_wonders(new_game_of(data))
        _, differences = replay(data)
        assert differences == []
    again = cli_run("replay", str(files[3]))
    assert again.exit_code == 0 and "same final state" in again.output
    one = json.loads(cli_run("balance", "-n", "6", "-j", "1", "--agents", "random,greedy", "--option",
                             "beginner_wonders", "--json").stdout)
    assert {k: v for k, v in one.items() if k != "run"} == {k: v for k, v in report.items() if k != "run"}
    plain = json.loads(cli_run("balance", "-n", "6", "-j", "1", "--agents", "random,greedy", "--json").stdout)
    assert plain["meta"]["options"] == [] and plain["games"] != one["games"]


def test_classic_night_sides_in_a_balance_run(tmp_path):
    plan = Plan("classic", (), 3, ("random",) * 3, 3, traces=str(tmp_path), options=("night_sides",))
    report, _ = balance(plan, rows=False)
    assert report["meta"]["options"] == ["night_sides"] and report["meta"]["games_played"] == 3
    assert all(night_boards(new_game_of(load_trace(f))) for f in tmp_path.glob("game-*.json"))
    # a plan made as before, positionally, plays without options
    before, _ = balance(Plan("classic", (), 3, ("random",) * 3, 3), rows=False)
    assert before["meta"]["options"] == []
    with pytest.raises(UnknownName, match="unknown game option `beginner_wonders`"):
        balance(Plan("classic", (), 3, ("random",) * 3, 3, options=("beginner_wonders",)))


def test_the_text_report_the_page_and_an_ab_name_the_options(tmp_path):
    page = tmp_path / "report.html"
    done = cli_run("balance", "-n", "2", "-j", "1", "--agents", "random,random", "--option", "beginner_wonders",
                   "--html", str(page))
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[0] == "2 games of duel (2 players), seed 0, agents random#1, random#2, options " \
                                          "beginner_wonders"
    assert "agents random#1, random#2, options beginner_wonders; content" in page.read_text(encoding="utf-8")
    both = cli_run("balance", "-n", "2", "-j", "1", "--agents", "random,random", "--option", "beginner_wonders",
                   "--compare", "duel", "duel", "--json")
    result = json.loads(both.stdout)
    assert result["a"]["meta"]["options"] == result["b"]["meta"]["options"] == ["beginner_wonders"]
    shown = cli_run("balance", "-n", "2", "-j", "1", "--agents", "random,random", "--option", "beginner_wonders",
                    "--compare", "duel", "duel").output
    assert "the same seeds and agents, options beginner_wonders;" in shown
    # from Python, sides of other options: said for each
    a = Plan("duel", (), None, ("random", "random"), 2)
    result, _ = ab(a, Plan("duel", (), None, ("random", "random"), 2, options=("beginner_wonders",)), "A", "B")
    assert (result["a"]["meta"]["options"], result["b"]["meta"]["options"]) == ([], ["beginner_wonders"])


def test_a_checkpoint_goes_on_only_a_run_of_the_same_options(tmp_path):
    kept = tmp_path / "study.jsonl"
    run = ["balance", "-n", "4", "-j", "1", "--agents", "random,random", "--json", "--checkpoint", str(kept)]
    first = cli_run(*run, "--option", "beginner_wonders")
    assert first.exit_code == 0
    header = json.loads(kept.read_text(encoding="utf-8").splitlines()[0])
    assert header["sides"][0]["options"] == ["beginner_wonders"]
    held = kept.read_bytes()
    other = CliRunner().invoke(cli, run)
    assert other.exit_code == 1 and kept.read_bytes() == held
    assert ("holds the games of another study: its game options (--option): [\"beginner_wonders\"], this run's: []"
            in other.output)
    same = cli_run(*run, "--option", "beginner_wonders", "--option", "beginner_wonders")
    assert same.exit_code == 0 and json.loads(same.stdout)["run"]["resumed"] == 4
    # a study without options names none, as a file written before runs took options: it goes on
    plain = tmp_path / "plain.jsonl"
    assert cli_run(*run[:-1], str(plain)).exit_code == 0
    assert "options" not in json.loads(plain.read_text(encoding="utf-8").splitlines()[0])["sides"][0]
    assert json.loads(cli_run(*run[:-1], str(plain)).stdout)["run"]["resumed"] == 4
    refused = CliRunner().invoke(cli, [*run[:-1], str(plain), "--option", "beginner_wonders"])
    assert refused.exit_code == 1
    assert "its game options (--option): [], this run's: [\"beginner_wonders\"]" in refused.output
