"""The lists the written draw filters itself (interpreter/spaces.py): a list filtered by printed
attributes alone is its loop written in, lists filtered from the same pool in one block share
one loop (`_fused`: Pantheon's gods and gate, from the board), and a seat's own list filtered by
`where=` alone is read in the game's binding frame (Agora's conspiracies).  The same open
actions at every decision, and the same state after every action, as functions written with
`selection`'s calls (`make_functions(..., filters=False)`), both through the draw and through
the written turn a simulation plays."""

from __future__ import annotations

import random

import pytest

from golden_games import SETS
from rulesdsl.interpreter import agents, core, spaces
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter.playout import play_out
from rulesdsl.pipeline import load_ruleset


def generic(game) -> None:
    """`game` with functions written with the calls: the path the cut replaces."""
    content = game.content
    tables = content._slot_tables or core.slot_tables(content)
    (game._open_spaces, game._draw, game._draw_in_round, game._round_record, game._turn,
     game._round_free) = spaces.make_functions(content, tables["zone_base"], game._starts, filters=False)


def drawn(rules, seed: int, cut: bool) -> tuple[list[str], list]:
    """The state after every action of a random game drawn by `random_action`, and the open
    actions of every turn decision."""
    game = rules.new_game(seed=seed)
    if not cut:
        generic(game)
    rng = random.Random(seed)
    states, opened = [], []
    while not game.over:
        if game.state.pending is None:
            spaces_, total = game._open_spaces(game, game.state.current)
            opened.append(([(act.name, [list(p) for p in pools], size) for act, pools, size in spaces_], total))
        game._apply(game.random_action(rng))
        states.append(dumps(game.state))
    return states, opened


def played_out(rules, seed: int, cut: bool) -> list[str]:
    """The state after every action of a game `rulesdsl simulate` plays (the written turn)."""
    game = rules.new_game(seed=seed)
    if not cut:
        generic(game)
    states: list[str] = []
    seats = [agents.RandomAgent(seed * 10 + k) for k in range(rules.content.players)]
    play_out(game, seats, after=lambda g: states.append(dumps(g.state)))
    return states


@pytest.mark.parametrize("name", ["pantheon", "agora", "agora+pantheon"])
def test_lists_the_draw_filters_itself_play_what_selections_calls_play(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    game = rules.new_game(seed=0)
    source = game._open_spaces.source
    assert "kept_in(" not in source and "own_candidates(" not in source
    plain = game.content
    tables = plain._slot_tables or core.slot_tables(plain)
    calls = spaces.make_functions(plain, tables["zone_base"], game._starts, filters=False)[0].source
    assert "kept_in(" in calls or "own_candidates(" in calls   # (the generic path is another path)
    for seed in range(4):
        cut, cut_open = drawn(rules, seed, True)
        plain_states, plain_open = drawn(rules, seed, False)
        assert cut_open == plain_open, seed
        assert cut == plain_states, seed
        assert len(cut) > 40
        assert played_out(rules, seed, True) == played_out(rules, seed, False), seed


def test_two_lists_of_one_pool_share_a_loop_and_each_keeps_its_own_items():
    rules = load_ruleset(*SETS["pantheon"])
    source = rules.new_game(seed=0)._open_spaces.source
    turn = source[source.index("def turn("):]
    # (gods and the gate, both from the board: one loop, two tests, two lists)
    board = [line.strip() for line in turn.splitlines() if line.strip().startswith("for x_ in ")]
    assert len(board) == len(set(board)), board


def test_the_filters_are_taken_nowhere_else():
    for name in ("duel", "classic-3"):
        rules = load_ruleset(*SETS[name])
        game = rules.new_game(seed=0)
        tables = game.content._slot_tables or core.slot_tables(game.content)
        calls = spaces.make_functions(game.content, tables["zone_base"], game._starts, filters=False)[0].source
        assert game._open_spaces.source == calls, name


# A seat's own list filtered by `where=`: one condition reads the seat (its coins, in the frame
# the draw fills), the other only the item (no frame filled: `spaces._where_lines`).
STASHES = """
expansion stashes {
    title "Stashes"
    zone spares
    zone stash player
}

token "Spare" { deck spares; value 1 }
token "Dear spare" { deck spares; value 6 }
token "Odd spare" { deck spares; value 3 }

action stash { param spare from spares; move spare stash }
action spend_cheap { param held from stash where=it.value <= coins; move held spares; gain 1 coins }
action spend_one { param held from stash where=it.value <= 1; move held spares }
"""


def test_a_where_that_reads_only_the_item_fills_no_frame_and_plays_as_the_call(tmp_path):
    folder = tmp_path / "stashes"
    folder.mkdir()
    (folder / "cards.rules").write_text(STASHES, encoding="utf-8")
    rules = load_ruleset([str(folder)], "duel", None)
    turn = rules.new_game(seed=0)._open_spaces.source.split("def turn(")[1]
    loops = turn.split("wkept = []")[1:]
    assert len(loops) == 2   # (a loop each: the seat's coins read in the frame, the value alone not)
    assert sum("wenv['it'] = x_" in loop.split("wkept.append")[0] for loop in loops) == 1
    stashed = 0
    for seed in range(4):
        cut, cut_open = drawn(rules, seed, True)
        plain_states, plain_open = drawn(rules, seed, False)
        assert cut_open == plain_open, seed
        assert cut == plain_states, seed
        stashed += sum(name.startswith("spend") for spaces_, _ in cut_open for name, _, _ in spaces_)
        assert played_out(rules, seed, True) == played_out(rules, seed, False), seed
    assert stashed > 10   # (both filtered lists were offered, and compared)
