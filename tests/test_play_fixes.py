"""`rulesdsl play`: what one seat is told of the others' moves (never an item it may not see),
the hand-over of the plain hot seat, the prices of actions that pay (`pay ...`), the boards of
numbered spaces on both screens, undo in hot seat, and the moves of a loaded round under way."""

from __future__ import annotations

import inspect
import random
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.interpreter.observation import observe
from rulesdsl.pipeline import load_ruleset
from rulesdsl.play_session import Session
from rulesdsl.play_view import choose_action, render_game
from rulesdsl.testing.invariants import visible_items

ROOT = Path(__file__).resolve().parent.parent


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def announced(output: str, who: str) -> list[str]:
    """The actions the plain screen says seats played by `who` made (`player 1 (greedy): ...`)."""
    return re.findall(rf"player \d+ \({who}\): ([a-z_]+(?: .*)?)$", output, re.M)


def last_moves(session: Session, viewer: int) -> list[str]:
    """The full screen's Last moves as `viewer` sees them, one line a seat."""
    pytest.importorskip("textual")
    from rulesdsl.play_screen import moves_text
    shown = moves_text(session, viewer) if len(inspect.signature(moves_text).parameters) > 1 else moves_text(session)
    return shown.plain.splitlines()[1:]


def named_items(game, line: str) -> list[str]:
    """The names of items a `p1 (greedy): ACTION` line names."""
    action = line.split("): ", 1)[1]
    return [w for w in shlex.split(action)[1:] if w in game.content.item_index]


# -- 1. another seat's move names only what the viewer may see ----------------------------------

def test_agents_sales_and_tucked_cards_are_not_named_on_the_plain_screen():
    # Classic: a card sold goes to the face-down discard, one used for a wonder stage under the
    # board; the cards come from a private hand.  Builds stay named.
    out = run("play", "--plain", "--game", "classic", "--players", "3", "--seat", "1", "--seed", "7",
              input="1\n" * 60).output
    moves = announced(out, "greedy")
    sold = [m for m in moves if m.startswith("sell ")]
    tucked = [m for m in moves if m.startswith("wonder ")]
    assert sold and tucked
    assert all(m == "sell (a card)" for m in sold), sold
    assert all(m.startswith("wonder (a card) ") and "stage" in m for m in tucked), tucked
    built = [m for m in moves if m.startswith("build ")]
    assert built and not any("(a " in m for m in built)
    assert "discard:" not in out   # (the discard itself is never shown either)


def test_an_agents_god_placed_face_down_is_not_named():
    # Pantheon: a god chosen, then put face down on a space of the pantheon.
    out = run("play", "--plain", "--seed", "5", "-e", "pantheon", input="1\n" * 120).output
    moves = announced(out, "greedy")
    placed = [moves[k] for k in range(len(moves) - 1)
              if moves[k].startswith("choose ") and moves[k + 1].startswith("choose_space ")]
    assert placed, moves
    assert all(m == "choose (a god)" for m in placed), placed
    assert re.search(r"^pantheon: .*face down \(\w+\) on \d", out, re.M)


def test_a_conspiracy_is_named_by_its_kind_to_the_opponent_and_in_full_to_its_owner():
    rules = load_ruleset(("pantheon", "agora"), "duel", None)
    session = Session(rules, 0, ["human", "human"]).start()
    pick = random.Random(0)
    kind = {it.name: it.kind for it in rules.content.items}
    prepared = {}   # the action as its seat's Last moves show it -> as the other seat's show it
    while not session.game.over:
        session.play(pick.choice(session.game.legal_actions()))
        for mover, other in ((0, 1), (1, 0)):
            mine = [l for l in last_moves(session, mover) if l.startswith(f"p{mover} (human): prepare ")]
            theirs = [l for l in last_moves(session, other) if l.startswith(f"p{mover} (human): prepare ")]
            if mine:
                prepared[mine[0]] = theirs
    assert prepared
    for mine, theirs in prepared.items():
        card, plot = shlex.split(mine.split(": ", 1)[1])[1:]
        assert kind[plot] == "conspiracy"
        assert len(theirs) == 1 and theirs[0].endswith(" (a conspiracy)") and plot not in theirs[0], theirs
        assert card in theirs[0]   # the card was taken from the structure, face up: it was seen


@pytest.mark.parametrize("exps, base, players, who, seed", [
    (("pantheon", "agora"), "duel", None, ["human", "random"], 2),
    (("pantheon",), "duel", None, ["human", "greedy"], 5),
    ((), "classic", 3, ["human", "greedy", "random"], 2),
    ((), "classic", 4, ["human", "random", "human", "random"], 1),
])
def test_the_last_moves_name_no_item_the_viewer_never_could_see(exps, base, players, who, seed):
    """Whatever the game: every item a seat's Last moves name, it could see at some moment."""
    rules = load_ruleset(exps, base, players)
    session = Session(rules, seed, who).start()
    g = session.game
    humans = [p for p, w in enumerate(who) if w == "human"]
    ever = {p: set(map(g.name, visible_items(g, p))) for p in humans}
    apply = g.apply

    def watched(action, seat=None):
        apply(action, seat)
        for p in humans:
            ever[p].update(map(g.name, visible_items(g, p)))
    g.apply = watched
    session.run_agents()
    pick = random.Random(seed)
    checked = 0
    while not g.over:
        session.play(pick.choice(g.legal_actions()))
        for p in humans:
            for line in last_moves(session, p):
                unseen = [n for n in named_items(g, line) if n not in ever[p]]
                assert not unseen, (p, line, unseen)
                checked += 1
    assert checked


# -- 2. plain hot seat: a pause before another seat's view ------------------------------------

def test_the_plain_hot_seat_asks_for_the_next_player_before_showing_their_hand():
    result = run("play", "--plain", "--game", "classic", "--players", "3", "--agents", "human,human,greedy",
                 "--seed", "4", input="1\n\n1\n\nq\n")
    out = result.output
    first_move = out.index("number (q to quit): ")
    hand_over = out.find("pass to player 1, press Enter", first_move)
    assert hand_over > 0, out[first_move:first_move + 400]
    assert "player 1 (you)" not in out[:hand_over]   # p1's hand shows only once p1 is there
    assert "player 1 (you)" in out[hand_over:]
    # p1 plays; p0 is next: the pause again, then p0 is told what p1 did (as p0 may see it).
    again = out.find("pass to player 0, press Enter", hand_over)
    assert again > 0 and "player 0 (you)" not in out[hand_over:again].split("player 1 (you)")[1]
    assert re.search(r"^.*player 1 \(human\): (build|sell|wonder) ", out[again:], re.M)
    assert result.exit_code == 0 and out.rstrip().endswith("bye")


def test_one_person_at_the_terminal_is_never_asked_to_hand_over():
    out = run("play", "--plain", "--game", "classic", "--players", "3", "--seed", "4", input="1\n1\nq\n").output
    assert "pass to player" not in out


# -- 3. the price of an action that pays (a god's activation, the Gate) -------------------------

def pantheon_with(wanted: str, seed: int = 0):
    """A Pantheon game at a turn where an action named `wanted` is legal."""
    rules = load_ruleset(("pantheon",), "duel", None)
    for s in range(seed, seed + 20):
        g = rules.new_game(seed=s)
        pick = random.Random(s)
        while not g.over:
            if g.state.pending is None and any(a.name == wanted for a in g.legal_actions()):
                return g
            g.apply(pick.choice(g.legal_actions()))
    raise AssertionError(f"no game with {wanted}")


@pytest.mark.parametrize("wanted", ["activate", "activate_with_offering", "open_gate"])
def test_an_action_that_pays_shows_what_it_will_cost_on_both_screens(wanted, monkeypatch):
    from rulesdsl.interpreter.game import Game
    g = pantheon_with(wanted)
    seat = g.to_move()
    runner = CliRunner()
    with runner.isolation(input="q\n") as (out, *_):
        choose_action(g)
        listed = out.getvalue().decode()
    spent: list[int] = []
    spend = Game.spend

    def counted(game, p, amount):
        spent.append(amount if p == seat else 0)
        return spend(game, p, amount)
    monkeypatch.setattr(Game, "spend", counted)
    actions = [a for a in g.legal_actions() if a.name == wanted]
    for a in actions:
        spent.clear()
        g.clone().apply(a)
        cost = sum(x for x in spent if x > 0)
        price = f"{cost} coin{'' if cost == 1 else 's'}"
        assert re.search(rf"^ *\d+\. {re.escape(str(a))}  \({price}\)$", listed, re.M), (str(a), price, listed)
        pytest.importorskip("textual")
        from rulesdsl.play_screen import cost_text, offer_text
        assert cost_text(g, seat, a) == price
    offer = offer_text(g, seat, g.legal_actions()).plain
    god = shlex.split(str(actions[0]))[1]
    assert re.search(rf"^  {re.escape(god)} \(\w+\): .*\d+ coins?", offer, re.M), offer


# -- 4, 5. boards of numbered spaces: numbered as the actions name them, on both screens --------

def agora_with_cubes(seed: int = 1):
    """An Agora game, human seats, once some seat's senate decision has been answered (and so
    the senate holds a cube)."""
    rules = load_ruleset(("pantheon", "agora"), "duel", None)
    session = Session(rules, seed, ["human", "human"]).start()
    g = session.game
    pick = random.Random(seed)
    while not g.over:
        d = g.state.pending
        if d is not None and d.kind == "space" and any(sum(map(sum, grid)) for grid in g.state.cubes.values()) \
                and g.state.positions:
            return session
        g.apply(pick.choice(g.legal_actions()))
    raise AssertionError("no cube placed")


def grid_of(lines: list[str], name: str) -> dict[str, dict[int, str]]:
    """`space` and `cubes pN`/`control` rows of a board as {row: {space label: cell}}."""
    start = next((k for k, l in enumerate(lines) if l.split()[:2] == [name, "space"]), None)
    assert start is not None, f"no board {name} shown"
    labels = [int(x) for x in lines[start].split()[2:]]
    rows = {}
    for line in lines[start + 1:]:
        words = line.split()
        if words[:1] == ["cubes"]:
            rows[" ".join(words[:2])] = dict(zip(labels, words[2:]))
        elif words[:1] == ["control"]:
            rows["control"] = dict(zip(labels, words[1:]))
        else:
            break
    return {"labels": labels, **rows}


def test_the_full_screens_senate_numbers_its_spaces_as_the_actions_do():
    pytest.importorskip("textual")
    from rulesdsl.play_screen import boards_text
    session = agora_with_cubes()
    g = session.game
    o = observe(g, 0)
    name = next(iter(o["cubes"]))
    grid = grid_of(boards_text(o).plain.splitlines(), name)
    spaces = len(o["cubes"][name][0])
    assert grid["labels"] == list(range(spaces))   # as `choose_space 0` ... and `Decree ... on 0`
    for p, row in enumerate(o["cubes"][name]):
        assert {k: int(v) for k, v in grid[f"cubes p{p}"].items()} == dict(enumerate(row))
    d = g.state.pending
    if d.kind == "space" and name in (d.prompt or ""):
        assert set(d.options) <= set(grid["labels"])


def test_the_plain_screen_shows_the_cubes_and_the_spaces_items_lie_on():
    session = agora_with_cubes()
    g = session.game
    for p in (0, 1):
        text = render_game(g, p, session.who)
        o = observe(g, p)
        lines = text.splitlines()
        for name, cubes in o["cubes"].items():
            grid = grid_of(lines, name)
            assert grid["labels"] == list(range(len(cubes[0])))
            for seat, row in enumerate(cubes):
                assert {k: int(v) for k, v in grid[f"cubes p{seat}"].items()} == dict(enumerate(row))
            control = o["control"][name]
            assert grid["control"] == {k: (f"p{w}" if w >= 0 else "-") for k, w in enumerate(control)}
        # every item lying on a space of a shared zone: shown with its space (face down or not)
        for z in g.content.zones:
            if z.spaces and not z.per_player:
                ids = g.state.zones[g.slot(z.id, 0)]
                shown = o["zones"][z.name]
                for i, label in zip(ids, shown):
                    if i in g.state.positions:
                        assert f"{label} on {g.state.positions[i]}" in " ".join(text.split()), (z.name, label)


# -- 6. hot-seat undo takes back only the seat's own move ---------------------------------------

def test_hot_seat_undo_never_takes_back_another_persons_move():
    rules = load_ruleset((), "classic", 3)
    session = Session(rules, 4, ["human", "human", "greedy"]).start()
    session.run_agents()
    g = session.game
    session.play(g.legal_actions()[0])          # p0 chooses; p1's turn in the same round
    assert session.viewer() == 1
    before = list(session.moves)
    session.undo()                              # p1 has made no move: nothing of p0's goes
    assert session.moves == before and session.viewer() == 1
    session.play(g.legal_actions()[0])          # p1 chooses; the agent; the round resolves
    assert session.viewer() == 0
    before = list(session.moves)
    assert not session.undo()                   # p1 moved since p0's last move: p0 cannot undo
    assert session.moves == before


def test_hot_seat_undo_takes_back_the_seats_own_moves_in_a_row():
    # The Duel wonder draft: p0 picks one, p1 two in a row.  p1's undo takes back its own pick only.
    session = Session(load_ruleset((), "duel", None), 3, ["human", "human"]).start()
    g = session.game
    session.play(g.legal_actions()[0])
    assert session.viewer() == 1
    session.play(g.legal_actions()[0])
    assert session.viewer() == 1 and [p for p, _ in session.moves] == [0, 1]
    assert session.undo()
    assert [p for p, _ in session.moves] == [0] and session.viewer() == 1


# -- 7. a loaded round under way: the others' moves in it are told once it resolves -------------

def test_a_loaded_round_under_way_tells_what_the_agents_chose_in_it(tmp_path):
    path = tmp_path / "mid.json"
    first = run("play", "--plain", "--game", "classic", "--players", "3", "--seat", "1", "--seed", "4",
                "--save", path, input="q\n")
    assert first.exit_code == 0 and "this round, chosen: player 0" in first.output
    again = run("play", "--plain", "--load", path, "--seat", "1", input="1\nq\n")
    assert again.exit_code == 0, again.output
    # (a move told, not a city shown: `player 0 (greedy): 3 coins; ...`)
    told = re.findall(r"^(?:number \(q to quit\): )?player (\d) \(greedy\): [a-z_]+ ", again.output, re.M)
    assert told[:2] == ["0", "2"], again.output   # player 0 chose before the save, player 2 after the load


# -- the docs' plain examples are what the command prints ----------------------------------------

# What is typed in each example of docs/cli.md's plain screen (its `...` leaves the first out).
TYPED = {
    "play --seed 3 --save game.json": "1\n1\n1\nq\n",
    "play --game classic --players 3 --seat 1 --seed 4": "1\n1\n1\n1\nq\n",
    "play -e agora --seed 7 --option beginner_wonders": "q\n",
}


def test_the_plain_examples_of_docs_cli_are_what_play_prints():
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = doc[doc.index("### The plain screen"):doc.index("## rulesdsl replay")]
    blocks = re.findall(r"```\n\$ rulesdsl (play [^\n]*)\n(.*?)```", section, re.S)
    assert sorted(command for command, _ in blocks) == sorted(TYPED)
    for command, shown in blocks:
        args = shlex.split(command)
        if "--save" in args:   # (not written here)
            k = args.index("--save")
            del args[k:k + 2]
        out = run(*args, "--plain", input=TYPED[command]).output
        # Each run of lines between `...` is printed as it stands (all but the trace written).
        for chunk in re.split(r"^\.\.\.\n", shown, flags=re.M):
            chunk = "".join(l for l in chunk.splitlines(True) if not l.startswith("trace written"))
            assert chunk in out, (command, chunk)
