"""The command line at any number of seats: `--game` and `--players` on every command that loads
a game, `simulate --agents` one per seat, `play` with N cities, traces that remember the count.

The games: the bundled Duel (the default), the three-seat test game tests/data/three_seats
(`players 3`), and a copy of it playing 3 to 5 with a private hand per seat (`ranged`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ranged_game import write_ranged_game
from click.testing import CliRunner

from rulesdsl.cli import cli

THREE = Path(__file__).resolve().parent / "data" / "three_seats"


def run(*args, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def one_error_line(result, code: int = 2) -> str:
    """A usage error printed as one `error:` line and nothing else."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


@pytest.fixture(scope="module")
def ranged(tmp_path_factory) -> Path:
    """three_seats for 3 to 5 players, each with a private hand of one card dealt at the start."""
    return write_ranged_game(tmp_path_factory.mktemp("ranged") / "ranged")


# -- --game and --players -------------------------------------------------------------------------

def test_a_count_outside_the_range_is_one_line_and_exit_2(ranged):
    assert one_error_line(run("simulate", "--game", ranged, "--players", "9", "-n", "1")) == \
        "error: three_seats plays with 3 to 5 players, not 9"
    assert one_error_line(run("simulate", "--game", THREE, "--players", "4")) == \
        "error: three_seats plays with 3 players, not 4"
    assert one_error_line(run("simulate", "--players", "3")) == "error: duel plays with 2 players, not 3"
    for command in (["explain", "Left Coin"], ["play", "--seed", "1"], ["verify", "-n", "1"], ["list", "cards"],
                    ["check"]):
        result = run(*command, "--game", ranged, "--players", "2", input="q\n")
        assert one_error_line(result) == "error: three_seats plays with 3 to 5 players, not 2", command


def test_an_unknown_game_is_one_line_naming_the_bundled_games(tmp_path):
    line = one_error_line(run("simulate", "--game", "dule"))
    assert "unknown game `dule`" in line and "did you mean `duel`?" in line and "duel" in line.split("games:")[1]
    line = one_error_line(run("play", "--game", tmp_path / "nowhere"))
    assert "no such folder" in line and "duel" in line
    line = one_error_line(run("verify", "--game", "duel-agora", "-n", "1"))  # an expansion, not a game
    assert "unknown game" in line or "defines no `game`" in line
    line = one_error_line(run("check", "--game", Path(__file__).resolve().parents[1] / "cards" / "duel-agora"))
    assert "defines no `game`" in line


def test_check_with_a_game_checks_that_game(ranged):
    result = run("check", "--game", THREE)
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("ok: 2 files,")  # the game's two files only
    assert run("check", "--game", ranged, "--players", "5").exit_code == 0
    everything = run("check")
    assert everything.exit_code == 0 and "ok: 2 files," not in everything.output


def test_check_layers_an_expansion_folder_on_the_chosen_game(tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "more.rules").write_text('card "Extra Coins" {\n    age 1\n    color yellow\n    gain 3 coins\n}\n',
                                      encoding="utf-8")
    assert run("check", "--game", THREE, extra).exit_code == 0
    # On Duel the same card is fine too; a card using a colour three_seats lacks is not.
    (extra / "more.rules").write_text('card "Blue One" {\n    age 1\n    color blue\n    points 1\n}\n',
                                      encoding="utf-8")
    assert run("check", extra).exit_code == 0
    result = run("check", "--game", THREE, extra)
    assert result.exit_code == 1 and "blue" in result.output


def test_explain_and_list_read_the_chosen_game(ranged):
    result = run("explain", "--game", THREE, "Left Coin")
    assert result.exit_code == 0 and "Left Coin" in result.output
    assert run("explain", "Left Coin").exit_code == 1  # not a Duel card
    result = run("list", "cards", "--game", ranged, "--players", "4")
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()][:1] == ["Seat"]
    assert "Left Coin" in result.output and "Lumber Yard" not in result.output
    assert "Lumber Yard" in run("list", "cards").output


def test_a_path_with_its_own_game_and_game_too_is_a_usage_error():
    line = one_error_line(run("verify", THREE, "--game", "duel", "-n", "1"))
    assert "not both" in line


# -- simulate -------------------------------------------------------------------------------------

def test_simulate_plays_every_seat_with_random_agents_by_default(ranged):
    result = run("simulate", "--game", ranged, "--players", "5", "-n", "12", "-s", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["agents"] == ["random"] * 5 and data["players"] == 5 and data["game"] == "three_seats"
    assert set(data["wins"]) == {"0", "1", "2", "3", "4", "draw"} and sum(data["wins"].values()) == 12
    assert set(data["mean_score"]) == {"0", "1", "2", "3", "4"}
    assert data["games_per_second"] > 0
    again = json.loads(run("simulate", "--game", ranged, "--players", "5", "-n", "12", "-s", "2", "--json").output)
    for key in ("seconds", "games_per_second"):
        del data[key], again[key]
    assert data == again


def test_simulate_takes_one_agent_per_seat():
    result = run("simulate", "--game", THREE, "-n", "20", "--agents", "greedy,random,random")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("20 games, seed 0, agents greedy vs random vs random; three_seats, 3 players")
    wins = dict(re.findall(r"player (\d) (\d+)", result.output.splitlines()[1]))
    assert set(wins) == {"0", "1", "2"}
    assert int(wins["0"]) > int(wins["1"]) + int(wins["2"])  # the greedy seat takes the big coin card
    assert re.search(r"player 2: total \d", result.output)


@pytest.mark.parametrize("agents, given", [("random", "1 agent,"), ("random,random", "2 agents,"),
                                           ("random,random,random,random", "4 agents,")])
def test_simulate_agents_of_the_wrong_length_say_how_many_seats(agents, given):
    line = one_error_line(run("simulate", "--game", THREE, "--agents", agents))
    assert given in line and "the game has 3 seats" in line and "random, greedy" in line


@pytest.mark.parametrize("command", [("simulate", "-n", "1"), ("balance", "-n", "2"), ("play",)])
@pytest.mark.parametrize("agents, at", [("random,random,random,", "agent 4"), ("random,,random,random", "agent 2"),
                                        (",random,random", "agent 1")])
def test_an_empty_agent_name_is_refused_not_dropped(command, agents, at):
    # (dropped, `random,,greedy,random` seated greedy second, and a trailing comma passed a
    # line-up with one seat too many written)
    if command[0] == "play":
        agents = agents.replace("random", "human", 1)
    line = one_error_line(run(*command, "--game", THREE, "--agents", agents))
    assert "empty agent name" in line and at in line and "--agents" in line


def test_simulate_default_stays_two_random_duel_players():
    data = json.loads(run("simulate", "-n", "2", "--json").output)
    assert data["agents"] == ["random", "random"] and data["players"] == 2 and data["game"] == "duel"


# -- play -----------------------------------------------------------------------------------------

def test_play_at_three_seats_shows_every_city_within_100_columns(tmp_path):
    save = tmp_path / "three.json"
    result = run("play", "--game", THREE, "--seat", "2", "--agent", "random", "--seed", "4", "--save", save,
                 input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert "player 0 (random): " in result.output and "player 2 (you): " in result.output
    assert "result: winner" in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 100
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["players"] == 3 and data["base"] == str(THREE)
    replayed = run("replay", save)
    assert replayed.exit_code == 0 and "same final state" in replayed.output
    assert re.search(r"scores \[\d+, \d+, \d+\]", replayed.output)


def test_play_checks_the_seat_against_the_number_of_players(ranged):
    assert run("play", "--game", THREE, "--seat", "3", "--seed", "1").exit_code == 2
    assert run("play", "--game", ranged, "--players", "4", "--seat", "3", "--seed", "1", "--agent", "random",
               input="1\n" * 20).exit_code == 0
    assert run("play", "--seat", "2", "--seed", "1").exit_code == 2  # Duel: seats 0 and 1


def test_play_with_agents_per_seat(tmp_path):
    result = run("play", "--game", THREE, "--seat", "1", "--agents", "greedy,human,random", "--seed", "3",
                 input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert re.search(r"^player 0 \(greedy\): build", result.output, re.M)
    assert "player 1 (you)" in result.output and "player 2 (random)" in result.output
    line = one_error_line(run("play", "--game", THREE, "--seat", "1", "--agents", "greedy,random,random"))
    assert "seat 1 is yours" in line
    line = one_error_line(run("play", "--game", THREE, "--agents", "human,random"))
    assert "2 agents" in line and "3 seats" in line
    assert one_error_line(run("play", "--agent", "random", "--agents", "human,random")).endswith("not both")


def test_play_shows_my_hand_and_only_the_size_of_the_others(ranged):
    """Hot seat at four: each screen shows its own seat's hand by name, the others' as a count."""
    result = run("play", "--game", ranged, "--players", "4", "--agents", "human,human,human,human", "--seed", "6",
                 input="q\n")
    assert result.exit_code == 0
    from rulesdsl.pipeline import load_ruleset
    game = load_ruleset((), str(ranged), 4).new_game(seed=6)
    hands = [game.items_in("hand", p) for p in range(4)]
    assert all(len(h) == 1 for h in hands)
    screen = result.output.split("your move")[0]  # seat 0's screen
    assert f"   hand: {hands[0][0]}" in screen
    for p in (1, 2, 3):
        assert hands[p][0] not in screen
    assert screen.count("   hand: 1 hidden") == 3


# -- verify and test ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", ["3", "5"])
def test_verify_at_other_counts(ranged, players):
    result = run("verify", "--game", ranged, "--players", players, "-n", "25", "-j", "2")
    assert result.exit_code == 0, result.output
    assert f"({players} players)" in result.output and "ok: 25 games" in result.output


def test_verify_a_failure_at_four_players_writes_a_trace_that_replays_at_four(ranged, tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    for f in ranged.iterdir():
        (folder / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    with (folder / "game.rules").open("a", encoding="utf-8") as out:
        out.write('\ninvariant "few coins" {\n    holds coins < 40\n}\n')
    out = tmp_path / "fail.json"
    result = run("verify", "--game", folder, "--players", "4", "-n", "30", "-j", "1", "-o", out)
    assert result.exit_code == 1 and "few coins" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["players"] == 4
    assert run("verify", "--trace", out).exit_code == 1
    assert run("replay", out).exit_code == 0


def test_scenarios_take_the_game_and_count_from_the_command_or_their_header(ranged, tmp_path):
    scenario = tmp_path / "seats.scenario"
    scenario.write_text('scenario "every seat starts with 10 coins" {\n'
                        '    expect coins(0) == 10\n'
                        '    expect players == 3\n'
                        '}\n', encoding="utf-8")
    assert run("test", scenario).exit_code == 1  # on Duel: 7 coins, two players
    result = run("test", scenario, "--game", ranged)
    assert result.exit_code == 0, result.output
    result = run("test", scenario, "--game", ranged, "--players", "4")
    assert result.exit_code == 1 and "players == 3" in result.output
    four = tmp_path / "four.scenario"
    four.write_text(f'scenario "four seats" {{\n    base "{ranged}"\n    players 4\n    expect players == 4\n}}\n',
                    encoding="utf-8")
    result = run("test", four)
    assert result.exit_code == 0, result.output
    four.write_text(f'scenario "nine seats" {{\n    base "{ranged}"\n    players 9\n    expect players == 9\n}}\n',
                    encoding="utf-8")
    result = run("test", four)
    assert result.exit_code == 1
    assert "S401" in result.output and "plays with 3 to 5 players, not 9" in result.output and ":3:5" in result.output
    assert one_error_line(run("test", scenario, "--game", ranged, "--players", "6")) == \
        "error: three_seats plays with 3 to 5 players, not 6"


# -- traces ---------------------------------------------------------------------------------------

def test_a_trace_replays_at_its_own_count_and_a_bad_count_is_one_error(ranged, tmp_path):
    save = tmp_path / "four.json"
    result = run("play", "--game", ranged, "--players", "4", "--agent", "random", "--seed", "2", "--save", save,
                 input="1\n" * 20)
    assert result.exit_code == 0, result.output
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["players"] == 4 and len(data["final"]["coins"]) == 4
    replayed = run("replay", save)
    assert replayed.exit_code == 0 and "same final state" in replayed.output
    for bad, message in ((9, "plays with 3 to 5 players, not 9"), ("4", "`players` must be"),
                         (0, "`players` must be")):
        data["players"] = bad
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = run("replay", path)
        assert result.exit_code == 1 and message in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    del data["players"]  # an older trace: the game's fewest, so this one no longer ends the same
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("replay", path).exit_code == 1


# -- simultaneous rounds (tests/data/hands) -------------------------------------------------------

HANDS = Path(__file__).resolve().parent / "data" / "hands"


def test_play_keeps_the_agents_choices_of_a_round_hidden_until_it_resolves(tmp_path):
    save = tmp_path / "hands.json"
    result = run("play", "--game", HANDS, "--players", "4", "--seat", "2", "--seed", "1", "--save", save,
                 input="1\n" * 30)
    assert result.exit_code == 0, result.output
    out = result.output
    first_screen = out.index("your move")
    # Seats 0 and 1 chose before seat 2 (lowest seat first), but what they chose is not shown yet.
    assert "this round, chosen: player 0, player 1" in out[:first_screen]
    assert not re.search(r"^player [013] \(greedy\): (build|sell)", out[:first_screen], re.M)
    after = out[first_screen:].split("== Age", 1)[0]
    assert re.search(r"^player 0 \(greedy\): (build|sell)", after, re.M)
    assert re.search(r"^player 3 \(greedy\): (build|sell)", after, re.M)
    assert "hand: 3 hidden" in out[:first_screen] and "result: winner" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert json.loads(save.read_text(encoding="utf-8"))["players"] == 4
    replayed = run("replay", save)
    assert replayed.exit_code == 0 and "same final state" in replayed.output


@pytest.mark.parametrize("players", ["3", "4"])
def test_simulate_and_verify_simultaneous_rounds(players):
    data = json.loads(run("simulate", "--game", HANDS, "--players", players, "-n", "10", "--json").output)
    assert data["players"] == int(players) and len(data["agents"]) == int(players)
    result = run("verify", "--game", HANDS, "--players", players, "-n", "30", "-j", "1")
    assert result.exit_code == 0, result.output


def test_play_offers_and_plays_builds_that_pay_neighbours():
    result = run("play", "--game", HANDS, "--players", "3", "--seat", "1", "--seed", "3", "--agent", "random",
                 input="1\n" * 30)
    assert result.exit_code == 0, result.output
    offered = re.findall(r"^ +1\. (build \S+ pay=p\d:\d+)$", result.output, re.M)
    assert offered  # chosen as the first action: the game went on
    assert "result: winner" in result.output


def test_check_players_with_a_relative_card_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("extra.rules").write_text('card "Extra" {\n    age 1\n    color brown\n    produce wood\n}\n', encoding="utf-8")
    assert run("check", "extra.rules", "--players", "2").exit_code == 0   # on Duel
    assert one_error_line(run("check", "extra.rules", "--players", "3")) == "error: duel plays with 2 players, not 3"
    assert run("check", "extra.rules", "--game", HANDS, "--players", "4").exit_code == 0
    assert one_error_line(run("check", "extra.rules", "--game", HANDS, "--players", "5")) == \
        "error: hands plays with 3 to 4 players, not 5"


# -- the bundled classic game -----------------------------------------------------------------------

def test_classic_is_a_bundled_game():
    result = run("check", "--game", "classic")
    assert result.exit_code == 0, result.output
    assert one_error_line(run("simulate", "--game", "classic", "--players", "9")) == \
        "error: classic plays with 3 to 7 players, not 9"
    assert one_error_line(run("play", "--game", "classic", "--players", "2")) == \
        "error: classic plays with 3 to 7 players, not 2"
    line = one_error_line(run("simulate", "--game", "clasic"))
    assert "did you mean `classic`?" in line and "classic" in line and "duel" in line


@pytest.mark.parametrize("players", [3, 7])
def test_simulate_classic_at_the_ends_of_its_range(players):
    result = run("simulate", "--game", "classic", "--players", str(players), "-n", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "classic" and data["players"] == players and data["agents"] == ["random"] * players
    assert set(data["wins"]) == {str(p) for p in range(players)} | {"draw"} and sum(data["wins"].values()) == 3


def test_simulate_classic_with_a_greedy_seat():
    result = run("simulate", "--game", "classic", "--players", "4", "-n", "2", "--agents", "random,greedy,random,random")
    assert result.exit_code == 0, result.output
    assert "agents random vs greedy vs random vs random; classic, 4 players" in result.output
    assert re.search(r"player 3: total \d", result.output)


def test_play_classic_at_seven(tmp_path):
    save = tmp_path / "seven.json"
    result = run("play", "--game", "classic", "--players", "7", "--seat", "3", "--agent", "random", "--seed", "2",
                 "--save", save, input="1\n" * 60)
    assert result.exit_code == 0, result.output
    out = result.output
    first = out[:out.index("your move")]
    assert all(f"player {p} (random): " in first for p in (0, 1, 2, 4, 5, 6)) and "player 3 (you): " in first
    assert first.count("   hand: 7 hidden") == 6
    (mine,) = re.findall(r"^   hand: (?!\d+ hidden)(.+)$", first, re.M)  # my own hand only
    assert len(mine.split(", ")) == 7
    assert "result: winner" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["base"] == "classic" and data["players"] == 7
    replayed = run("replay", save)
    assert replayed.exit_code == 0 and "same final state" in replayed.output


def test_verify_classic_at_five():
    result = run("verify", "--game", "classic", "--players", "5", "-n", "4", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "(5 players)" in result.output
