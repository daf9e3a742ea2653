"""`rulesdsl balance --checkpoint FILE` (rulesdsl/balance/checkpoint.py): a run keeps its games in
a file as they come, and a run of the same study goes on from them (after an interruption, or
with a larger -n) to the report a single run makes; a file of another study, or one that does
not read, is refused and left as it was."""

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.balance.analysis import Holdings
from rulesdsl.balance.checkpoint import Checkpoint, CheckpointProblem
from rulesdsl.balance.lab import ab, balance
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.runner import Plan
from rulesdsl.cli import cli

HANDS = str(Path(__file__).parent / "data" / "hands")


def _plan(games, seed=7, base=HANDS, agents=("random", "greedy", "random")):
    return Plan(base, (), 3, agents, games, seed=seed)


def _interrupt_after(games):
    def progress(done, total):
        if done >= games:
            raise KeyboardInterrupt
    return progress


def _without_run(report):
    return {k: v for k, v in report.items() if k != "run"}


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_run_goes_on_from_its_checkpoint_to_the_report_of_one_run(tmp_path, jobs):
    kept = tmp_path / "study.jsonl"
    whole, outcomes = balance(_plan(60), jobs=jobs)
    cut, _ = balance(_plan(60), jobs=jobs, progress=_interrupt_after(20), checkpoint=kept)
    assert cut["meta"]["partial"] and "interrupted" in cut["meta"]["error"]
    stopped = cut["meta"]["games_played"]
    assert 20 <= stopped < 60
    went_on, outcomes_after = balance(_plan(60), jobs=jobs, checkpoint=kept)
    assert went_on["run"]["resumed"] == stopped
    assert _without_run(went_on) == _without_run(whole)
    assert outcomes_after == outcomes
    # and a third run plays nothing: the file holds every game
    again, _ = balance(_plan(60), jobs=jobs, checkpoint=kept)
    assert again["run"]["resumed"] == 60 and again["run"]["games_per_second"] is None
    assert _without_run(again) == _without_run(whole)


def test_a_study_grows_with_a_larger_n_and_both_sides_of_an_ab_go_on(tmp_path):
    kept = tmp_path / "ab.jsonl"
    plan_b = Plan("duel", ("agora",), None, ("random", "random"), 40, seed=3)
    plan_a = Plan("duel", (), None, ("random", "random"), 40, seed=3)
    whole, (a, b) = ab(plan_a, plan_b, "A", "B", jobs=1)
    small_a, small_b = (Plan(p.base, p.expansions, None, p.agents, 16, seed=3) for p in (plan_a, plan_b))
    ab(small_a, small_b, "A", "B", jobs=1, checkpoint=kept)
    lines = kept.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "rulesdsl balance checkpoint"
    assert [json.loads(line)["side"] for line in lines[1:]] == [0, 1]
    grown, (a2, b2) = ab(plan_a, plan_b, "A", "B", jobs=2, checkpoint=kept)
    assert grown["a"]["run"]["resumed"] == 16 and grown["b"]["run"]["resumed"] == 16
    assert (a2, b2) == (a, b)
    assert _without_run(grown["a"]) == _without_run(whole["a"]) and grown["compare"] == whole["compare"]


def test_the_command_goes_on_from_its_checkpoint_and_names_what_differs(tmp_path):
    kept = tmp_path / "study.jsonl"
    args = ["balance", "--agents", "random,random", "-j", "1", "--json", "--checkpoint", str(kept)]
    runner = CliRunner()
    first = runner.invoke(cli, [*args, "-n", "10"], catch_exceptions=False)
    assert first.exit_code == 0, first.output
    grown = runner.invoke(cli, [*args, "-n", "24"], catch_exceptions=False)
    whole = runner.invoke(cli, ["balance", "--agents", "random,random", "-j", "1", "--json", "-n", "24"])
    report, expected = json.loads(grown.stdout), json.loads(whole.stdout)
    assert report["run"]["resumed"] == 10 and len(report["games"]) == 24
    assert grown.stderr == f"note: {kept} holds 10 games of this study: going on from there\n"
    assert first.stderr == ""
    assert _without_run(report) == _without_run(expected)
    before = kept.read_bytes()
    for extra, message in [(["-n", "10"], "holds 24 games of this study, more than the 10 this run plays: give -n 24"),
                           (["-n", "24", "-s", "5"], "its seed: 0, this run's: 5"),
                           (["-n", "24", "-e", "agora"], 'its expansions: [], this run\'s: ["agora"]'),
                           (["-n", "24", "--max-steps", "500"], "its --max-steps: 100000, this run's: 500")]:
        refused = runner.invoke(cli, [*args, *extra])
        assert refused.exit_code == 1
        assert refused.stderr.count("\n") == 1 and message in refused.stderr, refused.stderr
        assert refused.stderr.startswith(f"error: {kept} holds "), refused.stderr   # (the file named once)
        assert "Traceback" not in refused.output
    greedy = runner.invoke(cli, ["balance", "--agents", "random,greedy", "-n", "24", "--checkpoint", str(kept)])
    assert greedy.exit_code == 1 and "its line-up: [\"random\", \"random\"]" in greedy.stderr
    compare = runner.invoke(cli, ["balance", "--compare", "duel", "duel", "--agents", "random,random",
                                  "-n", "24", "--checkpoint", str(kept)])
    assert compare.exit_code == 1 and "this run plays 2" in compare.stderr
    assert kept.read_bytes() == before
    # the player count given or not, the jobs, the report's options: the same study
    same = runner.invoke(cli, [*args, "-n", "24", "-p", "2", "-j", "2", "--early", "3", "--top", "2"])
    assert same.exit_code == 0 and json.loads(same.stdout)["run"]["resumed"] == 24


def test_a_resumed_study_says_once_which_games_its_traces_folder_lacks(tmp_path):
    # (--traces with a resumed --checkpoint wrote the games of that run only, and said nothing
    # of the earlier ones a fresh folder lacks; they are not played again for their traces)
    kept, traces = tmp_path / "study.jsonl", tmp_path / "traces"
    args = ["balance", "--agents", "random,random", "-j", "1", "--checkpoint", str(kept)]
    runner = CliRunner()
    assert runner.invoke(cli, [*args, "-n", "4"], catch_exceptions=False).stderr == ""
    lacking = (f"note: {traces} lacks the traces of games 0 to 3, played by an earlier run: {kept} keeps their "
               "outcomes, not their actions; this run writes only the traces of the games it plays\n")
    grown = runner.invoke(cli, [*args, "-n", "8", "--traces", str(traces)], catch_exceptions=False)
    assert grown.exit_code == 0
    assert grown.stderr == f"note: {kept} holds 4 games of this study: going on from there\n" + lacking
    assert sorted(p.name for p in traces.iterdir()) == [f"game-{i}.json" for i in range(4, 8)]
    (traces / "game-6.json").unlink()
    again = runner.invoke(cli, [*args, "-n", "10", "--traces", str(traces)], catch_exceptions=False)
    assert again.stderr.endswith(lacking.replace("games 0 to 3", "games 0 to 3, 6"))
    for i in (0, 1, 2, 3, 6):
        (traces / f"game-{i}.json").write_text("{}")
    whole = runner.invoke(cli, [*args, "-n", "10", "--traces", str(traces)], catch_exceptions=False)
    assert whole.stderr == f"note: {kept} holds 10 games of this study: going on from there\n"
    # an A/B's two folders, in one note
    kept_ab = tmp_path / "ab.jsonl"
    plan_a = Plan("duel", (), None, ("random", "random"), 2, seed=3)
    plan_b = Plan("duel", ("agora",), None, ("random", "random"), 2, seed=3)
    ab(plan_a, plan_b, "A", "B", checkpoint=kept_ab)
    notes = []
    grown_a, grown_b = (Plan(p.base, p.expansions, None, p.agents, 4, seed=3, traces=str(tmp_path / k))
                        for p, k in ((plan_a, "a"), (plan_b, "b")))
    ab(grown_a, grown_b, "A", "B", checkpoint=kept_ab, note=notes.append)
    assert notes[1:] == [f"{tmp_path / 'a'} lacks the traces of games 0 to 1 and {tmp_path / 'b'} those of games 0 "
                         f"to 1, played by an earlier run: {kept_ab} keeps their outcomes, not their actions; this "
                         "run writes only the traces of the games it plays"]


def test_a_refusal_writes_what_differs_on_both_sides_in_one_order(tmp_path):
    # (the search options were the file's in one key order and this run's in another: a reader
    # comparing them by eye had to sort them first)
    # (an mcts agent in the line-up: it reads them)
    kept = tmp_path / "study.jsonl"
    args = ["balance", "--agents", "mcts,random", "-j", "1", "-n", "2", "--checkpoint", str(kept)]
    runner = CliRunner()
    assert runner.invoke(cli, [*args, "--iterations", "3"], catch_exceptions=False).exit_code == 0
    refused = runner.invoke(cli, [*args, "--iterations", "5"])
    assert refused.exit_code == 1
    assert ('its search options: {"depth": null, "iterations": 3, "rollout": "random"}, '
            'this run\'s: {"depth": null, "iterations": 5, "rollout": "random"}.') in refused.stderr, refused.stderr


def _with_search_named(kept, search):
    """The file as a run before December 2026 wrote it: the search options named in its study
    whatever the line-up (`identity` names them only where an agent reads them)."""
    lines = kept.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert all("search" not in side for side in header["sides"])
    for side in header["sides"]:
        side["search"] = search
    kept.write_bytes(json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + b"".join(lines[1:]))


def test_the_search_options_part_a_study_only_where_an_agent_of_its_line_up_reads_them(tmp_path):
    # (a changed --iterations was refused on resume of a study no mcts agent plays, whose games
    # it does not change)
    kept = tmp_path / "study.jsonl"
    args = ["balance", "--agents", "random,greedy", "-j", "1", "--json", "--checkpoint", str(kept)]
    runner = CliRunner()
    assert runner.invoke(cli, [*args, "-n", "4"], catch_exceptions=False).exit_code == 0
    other = ["--iterations", "5", "--rollout", "greedy", "--depth", "3"]
    went_on = runner.invoke(cli, [*args, "-n", "8", *other], catch_exceptions=False)
    assert went_on.exit_code == 0, went_on.stderr
    assert json.loads(went_on.stdout)["run"]["resumed"] == 4
    # a file written the old way (the options named) goes on with the same command, and another's
    _with_search_named(kept, {"depth": None, "iterations": 200, "rollout": "random"})
    for options in ([], other):
        same = runner.invoke(cli, [*args, "-n", "10", *options], catch_exceptions=False)
        assert same.exit_code == 0, same.stderr
        assert json.loads(same.stdout)["run"]["resumed"] >= 8
    # an A/B's too, each side named in the file
    kept_ab = tmp_path / "ab.jsonl"
    compare = ["balance", "--compare", "duel", "duel", "--agents", "random,random", "-j", "1", "--json",
               "--checkpoint", str(kept_ab)]
    assert runner.invoke(cli, [*compare, "-n", "2"], catch_exceptions=False).exit_code == 0
    _with_search_named(kept_ab, {"depth": None, "iterations": 200, "rollout": "random"})
    grown = runner.invoke(cli, [*compare, "-n", "4", "--iterations", "7"], catch_exceptions=False)
    assert grown.exit_code == 0, grown.stderr
    assert json.loads(grown.stdout)["b"]["run"]["resumed"] == 2
    # an mcts agent's study written the old way: the same command goes on, other options are refused
    searched = tmp_path / "mcts.jsonl"
    mcts = ["balance", "--agents", "random,mcts", "-j", "1", "--json", "--iterations", "3",
            "--checkpoint", str(searched)]
    assert runner.invoke(cli, [*mcts, "-n", "2"], catch_exceptions=False).exit_code == 0
    header = json.loads(searched.read_text().splitlines()[0])
    assert header["sides"][0]["search"] == {"depth": None, "iterations": 3, "rollout": "random"}
    again = runner.invoke(cli, [*mcts, "-n", "4"], catch_exceptions=False)
    assert again.exit_code == 0 and json.loads(again.stdout)["run"]["resumed"] == 2
    before = searched.read_bytes()
    refused = runner.invoke(cli, [*mcts, "-n", "6", "--depth", "2"])
    assert refused.exit_code == 1 and "its search options: " in refused.stderr, refused.stderr
    assert searched.read_bytes() == before
    # a line-up with an mcts agent does not go on a study without one (its line-up is named)
    mixed = runner.invoke(cli, [*args[:2], "random,mcts", *args[3:], "-n", "10"])
    assert mixed.exit_code == 1 and "its line-up: " in mixed.stderr, mixed.stderr


def test_a_checkpoint_of_changed_cards_is_refused(tmp_path):
    folder = tmp_path / "hands"
    shutil.copytree(HANDS, folder)
    kept = tmp_path / "study.jsonl"
    balance(_plan(6, base=str(folder)), checkpoint=kept)
    card = sorted(folder.rglob("*.rules"))[-1]
    card.write_text(card.read_text() + "\n# a comment: the bytes changed\n")
    with pytest.raises(CheckpointProblem, match=r"its content \(the card files' hash\)"):
        balance(_plan(12, base=str(folder)), checkpoint=kept)


def _as_format_2(line: str) -> str:
    """A batch's line as format 2 wrote it: its sums over the deals of the seat-games that built
    each name only."""
    batch = json.loads(line)
    deals = batch["holdings"]["deals"]
    del deals["whole"]
    deals["squares"] = [entry[:4] for entry in deals["squares"]]
    deals["open"] = [[deal, games, entries] for deal, games, _won, entries in deals["open"]]
    return json.dumps(batch) + "\n"


@pytest.mark.parametrize("version", [1, 2])
def test_a_checkpoint_of_a_format_before_is_refused_by_its_format_and_kept(tmp_path, version):
    # Format 1 kept no sums over the deals (the A/B's definition rows are clustered by them),
    # format 2 none of the seat-games that did not build a name (a single run's rows are): a
    # study written by an older rulesdsl is refused in one line naming the format, not read as
    # damaged and not half-read.
    kept = tmp_path / "study.jsonl"
    balance(_plan(6), checkpoint=kept)
    header, *rest = kept.read_text().splitlines(keepends=True)
    old = json.loads(header)
    old["version"] = version
    kept.write_text(json.dumps(old) + "\n" + "".join(_as_format_2(line) for line in rest))
    before = kept.read_bytes()
    with pytest.raises(CheckpointProblem, match=f"is a checkpoint of format {version}; this rulesdsl reads format 3$"):
        balance(_plan(12), checkpoint=kept)
    assert kept.read_bytes() == before


def test_a_file_that_is_not_a_checkpoint_is_refused_and_kept(tmp_path):
    report = tmp_path / "report.json"
    report.write_text('{"meta": {"games_played": 3}}\n')
    result = CliRunner().invoke(cli, ["balance", "--agents", "random,random", "-n", "4", "--checkpoint", str(report)])
    assert result.exit_code == 1
    assert "is not a balance checkpoint" in result.stderr and "Traceback" not in result.output
    assert report.read_text() == '{"meta": {"games_played": 3}}\n'


def test_a_last_line_cut_short_is_left_out_and_its_games_played_again(tmp_path):
    kept = tmp_path / "study.jsonl"
    balance(_plan(12), checkpoint=kept)
    balance(_plan(24), checkpoint=kept)
    whole = kept.read_bytes()
    lines = whole.splitlines(keepends=True)
    assert len(lines) == 3
    kept.write_bytes(b"".join(lines[:2]) + lines[2][:len(lines[2]) // 2])   # a crash while it was written
    notes = []
    report, _ = balance(_plan(24), checkpoint=kept, note=notes.append)
    assert report["run"]["resumed"] == 12
    assert len(notes) == 2 and "was cut short" in notes[0] and "played again" in notes[0]
    assert notes[1] == f"{kept} holds 12 games of this study: going on from there"
    assert _without_run(report) == _without_run(balance(_plan(24))[0])
    assert kept.read_bytes() == whole   # the cut line replaced by the same games, whole


def test_a_damaged_line_is_an_error_naming_it_and_the_file_is_kept(tmp_path):
    kept = tmp_path / "study.jsonl"
    balance(_plan(12), checkpoint=kept)
    balance(_plan(24), checkpoint=kept)
    lines = kept.read_text().splitlines(keepends=True)
    batch = json.loads(lines[1])
    batch["turns"] = batch["turns"][:-1]
    damaged = lines[0] + json.dumps(batch) + "\n" + lines[2]
    kept.write_text(damaged)
    with pytest.raises(CheckpointProblem, match=r"line 2: not a batch of games .*differ in length"):
        balance(_plan(24), checkpoint=kept)
    # a batch out of order (the second first) does not follow the games before it
    kept.write_text(lines[0] + lines[2] + lines[1])
    with pytest.raises(CheckpointProblem, match=r"line 2: not a batch of games that follows"):
        balance(_plan(24), checkpoint=kept)
    assert kept.read_text() == lines[0] + lines[2] + lines[1]


def _first(column, value):
    return column.index(value)


# Damage to a batch's line that still reads as JSON, each kind: (what it does to the batch's
# dict, or the text it puts in place of the line).  The study: 3 seats of the `hands` game.
DAMAGES = {
    "scores not an object": lambda b: b.update(scores=None),
    "scores a list": lambda b: b.update(scores=[]),
    "scores emptied": lambda b: b.update(scores={}),
    "a score category the game has not": lambda b: b["scores"].update(Nope=b["scores"].pop(sorted(b["scores"])[0])),
    "a total not its score's sum": lambda b: b["totals"].__setitem__(0, b["totals"][0] + 1),
    "wins negative": lambda b: b["holdings"].update(wins=-1),
    "wins huge": lambda b: b["holdings"].update(wins=10**30),
    "seat-games negative": lambda b: b["holdings"].update(seat_games=-1),
    "seat-games huge": lambda b: b["holdings"].update(seat_games=10**12),
    "seat-games a string": lambda b: b["holdings"].update(seat_games=str(b["holdings"]["seat_games"])),
    "a winner beyond the seats": lambda b: b["winners"].__setitem__(0, 3),
    "a winner below -1": lambda b: b["winners"].__setitem__(0, -2),
    "a shared game made a win": lambda b: b["winners"].__setitem__(_first(b["winners"], -1), 0),
    "a built card renamed": lambda b: b["holdings"]["built"][0].__setitem__(0, "Nope"),
    "a taken card renamed": lambda b: b["holdings"]["taken"][0].__setitem__(0, "Nope"),
    "a built turn after the games ended": lambda b: b["holdings"]["built"][0].__setitem__(1, max(b["turns"]) + 1),
    "a built count of 0": lambda b: b["holdings"]["built"][0].__setitem__(3, 0),
    "built more often than taken": lambda b: b["holdings"]["built"][0].__setitem__(3, 10**6),
    "won as a number": lambda b: b["holdings"]["built"][0].__setitem__(2, int(b["holdings"]["built"][0][2])),
    "an entry listed twice": lambda b: b["holdings"]["taken"].append(b["holdings"]["taken"][0]),
    "a deal's sums of a card renamed": lambda b: b["holdings"]["deals"]["squares"][0].__setitem__(0, "Nope"),
    "a deal's sums no deal makes": lambda b: b["holdings"]["deals"]["squares"][0].__setitem__(2, 10**6),
    "a deal's sums listed twice": lambda b: b["holdings"]["deals"]["squares"].append(
        b["holdings"]["deals"]["squares"][0]),
    "a cut deal not its own": lambda b: b["holdings"]["deals"]["open"].append([10**6, 1, 0, []]),
    "a cut deal of all its games": lambda b: b["holdings"]["deals"]["open"].append([b["first"] // 3, 3, 0, []]),
    "the sums over the deals missing": lambda b: b["holdings"].pop("deals"),
    "more whole deals than its own": lambda b: b["holdings"]["deals"]["whole"].__setitem__(0, 10**6),
    "whole deals won more often than played": lambda b: b["holdings"]["deals"]["whole"].__setitem__(1, 10**6),
    "whole deals' sums a string": lambda b: b["holdings"]["deals"]["whole"].__setitem__(2, "1"),
    "a deal's sums with the games won no deal makes": lambda b: b["holdings"]["deals"]["squares"][0].__setitem__(
        4, 10**6),
    "a cut deal won more often than played": lambda b: b["holdings"]["deals"]["open"].append(
        [b["first"] // 3, 1, 2, []]),
    "victory names a string": lambda b: b.update(victory_names="x"),
    "a victory the game has not": lambda b: b["victory_names"].__setitem__(0, "Nope"),
    "a negative seed": lambda b: b["seeds"].__setitem__(0, -1),
    "a seed not its deal's": lambda b: b["seeds"].__setitem__(0, b["seeds"][0] ^ 1),
    "a seed past 64 bits": lambda b: b["seeds"].__setitem__(0, 2**64),
    "negative turns": lambda b: b["turns"].__setitem__(0, -1),
    "a fraction": lambda b: b["actions"].__setitem__(0, 12.5),
    "a field more": lambda b: b.update(note="hello"),
    "holdings missing": lambda b: b.pop("holdings"),
    "a side the study has not": lambda b: b.update(side=1),
    "no game": lambda b: b.update({name: [] for name in ("seeds", "winners", "victories", "turns", "actions",
                                                         "totals")}, scores={}),
    "not an object": lambda b: "[1, 2]",
    "nested too deep": lambda b: "[" * 100000 + "]" * 100000,
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_every_value_of_a_line_is_checked_against_the_study_and_damage_is_an_error_naming_the_line(tmp_path, damage):
    # (until then: a traceback (scores not an object, wins out of range), or a report that differs
    # from the one of the games played (a winner not a seat, a name the game has not, ...))
    kept = tmp_path / "study.jsonl"
    balance(_plan(12), checkpoint=kept)
    balance(_plan(24), checkpoint=kept)
    lines = kept.read_text().splitlines(keepends=True)
    assert len(lines) == 3
    batch = json.loads(lines[2])
    text = DAMAGES[damage](batch)
    damaged = "".join(lines[:2]) + (text if isinstance(text, str) else json.dumps(batch)) + "\n"
    kept.write_text(damaged)
    with pytest.raises(CheckpointProblem) as refused:
        balance(_plan(24), checkpoint=kept)
    message = str(refused.value)
    assert message.startswith(f"{kept}, line 3: not a batch of games") and "\n" not in message, message
    assert message.endswith("the file is damaged and left as it is: give another file name"), message
    assert kept.read_text() == damaged


@pytest.mark.parametrize("damage", ["b['scores'] = None", "b['holdings']['wins'] = -1", "b['winners'][0] = 2",
                                    "b['holdings']['built'][0][0] = 'Nope'", "b['holdings']['seat_games'] = -8",
                                    "b['holdings']['seat_games'] = 10**9", "b['scores'] = {}",
                                    "b['victory_names'] = 'x'", "b['seeds'][0] = -1"])
def test_the_command_refuses_a_damaged_line_in_one_line_and_keeps_the_file(tmp_path, damage):
    # The audit's damage to a 2-seat Duel study: each was a traceback or a report other than the
    # games' (seat 0 won 2 games where it won 3); now the one error line, exit 1.
    kept = tmp_path / "study.jsonl"
    args = ["balance", "--agents", "random,random", "-n", "4", "-s", "1", "-j", "1", "--json", "--checkpoint",
            str(kept)]
    runner = CliRunner()
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    header, line = kept.read_text().splitlines()
    b = json.loads(line)
    exec(damage)
    kept.write_text(header + "\n" + json.dumps(b) + "\n")
    before = kept.read_bytes()
    refused = runner.invoke(cli, args)
    assert refused.exit_code == 1, refused.output
    assert refused.stderr.startswith(f"error: {kept}, line 2: not a batch of games"), refused.stderr
    assert refused.stderr.count("\n") == 1 and "the file is damaged" in refused.stderr
    assert "Traceback" not in refused.output and refused.stdout == ""
    assert kept.read_bytes() == before
    # and the undamaged file goes on to the report of one run
    kept.write_text(header + "\n" + line + "\n")
    again = runner.invoke(cli, args)
    whole = runner.invoke(cli, [*args[:-2]])
    assert again.exit_code == 0 and json.loads(again.stdout)["run"]["resumed"] == 4
    assert _without_run(json.loads(again.stdout)) == _without_run(json.loads(whole.stdout))


def test_one_run_at_a_time_appends_to_a_checkpoint(tmp_path):
    kept = tmp_path / "study.jsonl"
    identity = [{"seed": 1, "agents": ["random", "random"]}]
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from rulesdsl.balance.checkpoint import Checkpoint\n"
         f"cp = Checkpoint.open({str(kept)!r}, {identity!r}); print('open', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        with pytest.raises(CheckpointProblem, match="in use by another run"):
            Checkpoint.open(kept, identity)
    finally:
        holder.communicate("")
    with Checkpoint.open(kept, identity) as cp:   # (once the other has ended)
        assert len(cp.saved[0].outcomes) == 0


class _Full:
    """A checkpoint's file on a disk that has just filled up: what is written is refused."""

    def __init__(self, handle, room=0):
        self.handle = handle
        self.room = room   # (bytes written before the disk is full: the line that fills it is cut there)

    def write(self, data):
        if len(data) > self.room:
            self.handle.write(data[:self.room])
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_checkpoint_that_cannot_be_written_says_its_games_are_kept_and_how_to_go_on(tmp_path, monkeypatch):
    # (a full disk hours into a study said only "cannot write FILE: No space left on device",
    # and whether those hours were lost was left to guess)
    kept = tmp_path / "study.jsonl"
    opened = Checkpoint.open.__func__

    def on_a_full_disk(cls, *args, **kwargs):
        cp = opened(cls, *args, **kwargs)
        cp._handle = _Full(cp._handle)
        return cp

    monkeypatch.setattr(Checkpoint, "open", classmethod(on_a_full_disk))
    report, _ = balance(_plan(60), jobs=1, checkpoint=kept)
    assert report["meta"]["error"] == (f"cannot write {kept}: No space left on device; the games it holds are "
                                       "kept: make room and run the same command to go on from them")


class _Filling(_Full):
    """A checkpoint's file on a disk that fills up once `lines` more lines are written: the next
    one is cut short (7 bytes of it written) and refused, as is all after it."""

    def __init__(self, handle, lines):
        super().__init__(handle, 1 << 30)
        self.lines = lines

    def write(self, data):
        if self.lines == 0:
            self.room = min(self.room, 7)
        self.lines -= 1
        return super().write(data)


def _filling_up(monkeypatch, lines):
    """Checkpoints opened from now on, a line a batch, on a disk that fills up (`_Filling`)."""
    opened = Checkpoint.open.__func__

    def on_a_disk_filling_up(cls, *args, **kwargs):
        cp = opened(cls, *args, **kwargs)
        cp.every = 0
        cp._handle = _Filling(cp._handle, lines)
        return cp

    monkeypatch.setattr(Checkpoint, "open", classmethod(on_a_disk_filling_up))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_disk_full_mid_run_reports_the_games_played_and_the_file_goes_on(tmp_path, monkeypatch, jobs):
    # (the write's error ended the command with no report at all: an empty stdout with --json)
    kept = tmp_path / "study.jsonl"
    whole, outcomes = balance(_plan(60), jobs=jobs)
    with monkeypatch.context() as patched:
        _filling_up(patched, 2)
        cut, got = balance(_plan(60), jobs=jobs, checkpoint=kept)
    assert cut["meta"]["partial"] and cut["meta"]["error"].startswith(f"cannot write {kept}: No space left")
    played = cut["meta"]["games_played"]
    assert 0 < played < 60 and list(got) == list(outcomes)[:played]
    lines = kept.read_bytes().splitlines(keepends=True)
    assert len(lines) == 4 and not lines[-1].endswith(b"\n")   # (2 whole lines, then one cut: nothing after)
    went_on, after = balance(_plan(60), jobs=jobs, checkpoint=kept)
    assert 0 < went_on["run"]["resumed"] < played
    assert _without_run(went_on) == _without_run(whole) and after == outcomes
    # the command prints the report, and the error line, exit status 1
    kept.unlink()
    with monkeypatch.context() as patched:
        _filling_up(patched, 1)
        result = CliRunner().invoke(cli, ["balance", "-g", HANDS, "-p", "3", "--agents", "random,greedy,random",
                                          "-s", "7", "-n", "60", "-j", str(jobs), "--json", "--checkpoint",
                                          str(kept)], catch_exceptions=False)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    played = report["meta"]["games_played"]
    assert 0 < played < 60 and report["meta"]["partial"]
    assert result.stderr == (f"error: cannot write {kept}: No space left on device; the games it holds are kept: "
                             "make room and run the same command to go on from them; the report covers the "
                             f"{played} games before it\n")


def test_a_disk_full_during_a_stops_an_ab_before_b_with_the_report_of_a(tmp_path, monkeypatch):
    kept = tmp_path / "ab.jsonl"
    plan_a = Plan("duel", (), None, ("random", "random"), 400, seed=3)
    plan_b = Plan("duel", ("agora",), None, ("random", "random"), 400, seed=3)
    _filling_up(monkeypatch, 1)
    cut, (a, b) = ab(plan_a, plan_b, "A", "B", jobs=1, checkpoint=kept)
    assert 0 < len(a) < 400 and len(b) == 0
    assert cut["a"]["meta"]["error"].startswith(f"cannot write {kept}: No space") and cut["a"]["meta"]["partial"]
    assert cut["b"]["meta"]["error"] == "not started"


def test_what_is_written_reads_back_the_same_numbers_too_large_for_64_bits_included(tmp_path):
    kept = tmp_path / "study.jsonl"
    identity = [{"seed": 1, "agents": ["a", "b"]}]
    records = [{"index": i, "deal": i // 2, "seed": 2**64 - 1 - i, "rotation": i % 2,
                "agents": ["a", "b"] if i % 2 == 0 else ["b", "a"], "winner": i % 2 - (i == 2),
                "victory": ["civilian", "military"][i % 2],
                "scores": [{"cards": i, "coins": 2}, {"wonders": 10**20 if i == 3 else 1}],
                "totals": [i + 2, 10**20 if i == 3 else 1], "turns": 30 + i, "actions": 40 + i} for i in range(5)]
    held = Holdings(4, 2)   # (games 0 and 1: 2 seats each, a winner each)
    held.built["Altar", 3, True] += 1
    held.taken["Altar", True] += 1
    held.taken["Altar", False] += 1
    with Checkpoint.open(kept, identity, every=0) as cp:
        cp.append(0, Outcomes.of(records[:2]), held)
        cp.append(0, Outcomes.of(records[2:]), Holdings(6, 2))   # (game 2 shared)
    assert len(kept.read_text().splitlines()) == 3   # (every=0: a line a batch)
    with Checkpoint.open(kept, identity) as cp:
        saved = cp.saved[0]
    held.merge(Holdings(6, 2))
    assert list(saved.outcomes) == records and saved.holdings == held
    assert isinstance(saved.outcomes.totals, list)   # (as `Outcomes` holds a number past 64 bits)


def test_an_interrupted_a_side_stops_an_ab_before_b_and_goes_on_from_both(tmp_path):
    kept = tmp_path / "ab.jsonl"
    plan_a = Plan("duel", (), None, ("random", "random"), 40, seed=3)
    plan_b = Plan("duel", ("agora",), None, ("random", "random"), 40, seed=3)
    whole, outcomes = ab(plan_a, plan_b, "A", "B", jobs=1)
    cut, (a, b) = ab(plan_a, plan_b, "A", "B", jobs=1, progress=_interrupt_after(10), checkpoint=kept)
    assert 10 <= len(a) < 40 and len(b) == 0   # ^C during A: B is not played at all
    # (B never started: not "interrupted after 0 games", as if it had)
    assert cut["a"]["meta"]["partial"] and cut["b"]["meta"]["error"] == "not started"
    # (B's side played no game: nothing to compare, where the table showed B at 0 % and a difference)
    assert cut["compare"]["metrics"] == [] and cut["compare"]["definitions"] == []
    from io import StringIO
    from rich.console import Console
    from rulesdsl.balance.report import render_compare
    shown = StringIO()
    render_compare(cut, Console(file=shown, width=120))
    assert "nothing to compare: B played no game" in shown.getvalue()
    went_on, after = ab(plan_a, plan_b, "A", "B", jobs=2, checkpoint=kept)
    assert after == outcomes and went_on["a"]["run"]["resumed"] == len(a)
    assert _without_run(went_on["b"]) == _without_run(whole["b"]) and went_on["compare"] == whole["compare"]


def _ctrl_c_after(games):
    """The command's progress bar, pressed ^C once `games` games are joined."""
    from contextlib import contextmanager

    @contextmanager
    def progress():
        yield _interrupt_after(games)
    return progress


def test_the_command_says_b_was_not_started_when_a_is_interrupted(tmp_path, monkeypatch):
    # (it said "B: interrupted after 0 games", of a side that never started)
    from rulesdsl.balance import command
    kept = tmp_path / "ab.jsonl"
    args = ["balance", "--compare", "duel", "duel", "--agents", "random,random", "-j", "1", "--json",
            "--checkpoint", str(kept)]
    runner = CliRunner()
    assert runner.invoke(cli, [*args, "-n", "4"], catch_exceptions=False).exit_code == 0
    monkeypatch.setattr(command, "_progress", _ctrl_c_after(10))
    cut = runner.invoke(cli, [*args, "-n", "40"], catch_exceptions=False)
    assert cut.exit_code == 1
    report = json.loads(cut.stdout)
    played = report["a"]["meta"]["games_played"]
    assert report["b"]["meta"]["error"] == "not started" and report["b"]["meta"]["games_played"] == 4
    error = cut.stderr.splitlines()[-1]
    assert error == (f"error: A: interrupted after {played} games; B was not started; A's report covers the "
                     f"{played} games A played, B's the 4 games {kept} holds; the comparison covers the first 4 "
                     f"games of each side; the games played are kept in {kept}: run the same command to go on")
    fresh = runner.invoke(cli, [*args[:-2], "-n", "40"], catch_exceptions=False)
    assert fresh.exit_code == 1
    played = json.loads(fresh.stdout)["a"]["meta"]["games_played"]
    assert fresh.stderr == (f"error: A: interrupted after {played} games; B was not started; A's report covers the "
                            f"{played} games A played, B's none; nothing is compared\n")


def test_a_header_a_crash_cut_short_starts_the_study_and_a_fifo_is_refused(tmp_path):
    kept = tmp_path / "study.jsonl"
    balance(_plan(6), checkpoint=kept)
    header = kept.read_bytes().splitlines(keepends=True)[0]
    kept.write_bytes(header[:len(header) // 2])   # (the crash came while the header was written)
    report, _ = balance(_plan(6), checkpoint=kept)
    assert report["run"]["resumed"] == 0 and kept.read_bytes().startswith(header)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b'{"format": "something else')   # (not a prefix of the header: not ours)
    with pytest.raises(CheckpointProblem, match="is not a balance checkpoint"):
        balance(_plan(6), checkpoint=other)
    assert other.read_bytes() == b'{"format": "something else'
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(CheckpointProblem, match="not a regular file"):
        balance(_plan(6), checkpoint=fifo)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stops=st.lists(st.integers(min_value=1, max_value=44), min_size=1, max_size=3), grow=st.booleans(),
       every=st.sampled_from([0.0, 10.0]))
def test_any_interruptions_and_growth_give_the_report_of_one_run(tmp_path_factory, stops, grow, every, monkeypatch):
    # A study stopped after any numbers of games, in any order, grown or not, goes on to the
    # report one run of its games makes (lines written at every batch, or all at the end).
    from rulesdsl.balance import checkpoint
    monkeypatch.setattr(checkpoint, "EVERY", every)
    kept = tmp_path_factory.mktemp("cp") / "study.jsonl"
    games = 45
    for stop in stops:
        balance(_plan(30 if grow else games, seed=5), progress=_interrupt_after(stop), checkpoint=kept)
    went_on, outcomes = balance(_plan(games, seed=5), checkpoint=kept)
    whole, expected = balance(_plan(games, seed=5))
    assert _without_run(went_on) == _without_run(whole) and outcomes == expected


def test_the_page_and_the_checkpoint_cannot_be_one_file(tmp_path):
    kept = tmp_path / "study.jsonl"
    result = CliRunner().invoke(cli, ["balance", "--agents", "random,random", "-n", "2", "--checkpoint", str(kept),
                                      "--html", str(tmp_path / "." / "study.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --html and --checkpoint name the same file")
    assert not kept.exists()
