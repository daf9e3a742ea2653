"""The open actions of a decision, worked out by the function written for each content set
(interpreter/spaces.py), are those of the definition written plainly here: the actions in
order whose `before_turn` allows them and whose guards hold, each with its parameters'
candidates and the number of bindings they make, those making none left out.  And the action
the random draws written for the content pick from given numbers, on a seat's turn and in a
simultaneous round (among the open actions the round keeps), is the one the generic loop
(`legality.draw_among`) picks among the plain open actions from the same numbers.  Checked at every
decision of seeded random games of every bundled content set, and of a fan expansion whose
actions take the shapes the bundled ones do not (no parameter, guards in front of shared
lists, a guarded first action, other seats' zones, every structure card, `where=`)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from golden_games import SETS
from rulesdsl.interpreter import Game, legality, new_game, selection
from rulesdsl.interpreter.state import Frame
from rulesdsl.pipeline import load_ruleset


def plain_open_spaces(g: Game, me: int) -> tuple[list, int]:
    st = g.state
    out, total = [], 0
    for act in g.content.actions:
        if act.before_turn and st.before_used:
            continue
        frame = Frame(0, 0, 0, me, {})
        if not all(guard(g, frame) for guard in act.guards):
            continue
        pools = [selection.candidates(g, p.selector, me) for p in act.params]
        size = 1
        for pool in pools:
            size *= len(pool)
        if size:
            out.append((act.name, [list(p) for p in pools], size))
            total += size
    return out, total


def written_open_spaces(g: Game, me: int) -> tuple[list, int]:
    spaces, total = g._open_spaces(g, me)
    return [(act.name, [list(p) for p in pools], size) for act, pools, size in spaces], total


def check_every_decision(game: Game, rng: random.Random, limit: int = 400) -> int:
    """Play `game` out at random, comparing both at every turn decision (and, on a seat's turn
    or in a round, the action each draws from the same numbers); how many were compared."""
    compared = 0
    for _ in range(limit):
        if game.over:
            break
        st = game.state
        if st.pending is None:
            for me in game.to_act():
                assert written_open_spaces(game, me) == plain_open_spaces(game, me), (st.turn, me)
                compared += 1
        if st.pending is None and st.flow != "round":
            twin = random.Random()
            twin.setstate(rng.getstate())
            action = game.random_action(rng)
            # The draw among the plain open actions, by the loop a round's seats draw with.
            plain = [(game.action_by_name[name], pools, size) for name, pools, size in
                     plain_open_spaces(game, st.current)[0]]
            drawn = legality.draw_among(game, st.current, twin.randrange, plain, sum(n for *_, n in plain))
            assert action == drawn and rng.getstate() == twin.getstate(), st.turn
        elif st.pending is None:   # a round: the written draw among the actions it keeps for the seat
            assert game._draw_in_round is not None
            me = legality.acting_seat(game, None)
            # (and what the round keeps says whether an action that needs no check is open)
            free = any(not game.action_by_name[name].checked for name, _, _ in plain_open_spaces(game, me)[0])
            assert game._round_record(game, me)[-1] is free, (st.turn, me)
            # (which a new round asks of the actions that need no check alone)
            assert game._round_free is None or game._round_free(game, me) is free, (st.turn, me)
            twin = random.Random()
            twin.setstate(rng.getstate())
            action = game.random_action(rng)
            plain = [(game.action_by_name[name], pools, size) for name, pools, size in
                     plain_open_spaces(game, me)[0]]
            drawn = legality.draw_among(game, me, twin.randrange, plain, sum(n for *_, n in plain))
            assert action == drawn and rng.getstate() == twin.getstate(), (st.turn, me)
        else:
            action = game.random_action(rng)
        game._apply(action)
    return compared


@pytest.mark.parametrize("name", list(SETS))
def test_every_decision_of_seeded_games_of_every_set(name):
    expansions, base, players = SETS[name][:3]
    rules = load_ruleset(expansions, base, players)
    compared = 0
    for seed in range(3):
        compared += check_every_decision(rules.new_game(seed=seed), random.Random(seed))
    assert compared > 60


SHAPES = """
expansion shapes {
    title "Action shapes"
    zone spares
}

token "Spare" { deck spares; value 1 }
token "Other spare" { deck spares; value 2 }

# No parameter: one binding, the empty one.
action shout { gain 1 coins }
# A guard in front of lists that later actions share.
action hoard { require coins >= 4; param card from structure_all; param mine from city; discard mine }
action peek { param card from structure_all; param theirs from city owner=opponent; discard theirs }
# A guard first, before a turn, with a where= list.
action prepare_first {
    before_turn
    require coins >= 2
    param spare from spares where=it.value == 1
    gain 1 coins
}
action pick { param card from structure; param spare from spares; move spare box }
# Three parameters, two from one zone: a binding naming one item twice is not legal.
action pair { param first from spares; param second from spares; param card from structure; gain 1 coins }
# Guards that earlier actions have too: worked out once, by the first action that asks.
action count_up { require coins >= 2; param spare from spares; gain 1 coins }
action hoard_more { require coins >= 4; gain 1 coins }
"""


def decisions_compared(folder: Path, text: str, seeds: int, limit: int):
    """`check_every_decision` over seeded games of an expansion of one card file `text`, written
    to `folder`: how many decisions were compared, and the last game (its written source)."""
    folder.mkdir()
    (folder / "cards.rules").write_text(text, encoding="utf-8")
    compared = 0
    for seed in range(seeds):
        game = new_game(expansions=[str(folder)], seed=seed)
        compared += check_every_decision(game, random.Random(seed), limit=limit)
    return compared, game


def test_every_decision_of_an_expansion_of_other_action_shapes(tmp_path: Path):
    compared, game = decisions_compared(tmp_path / "shapes", SHAPES, seeds=4, limit=120)
    assert compared > 100
    source = game._open_spaces.source
    assert "Spare" not in source and "hoard" not in source   # content reaches the source as values only


def test_a_guard_several_actions_share_is_asked_once(tmp_path: Path):
    folder = tmp_path / "shapes"
    folder.mkdir()
    (folder / "cards.rules").write_text(SHAPES, encoding="utf-8")
    rules = load_ruleset([str(folder)])
    asked = []
    for act in rules.content.actions:
        for k, guard in enumerate(act.guards):
            def counted(g, f, guard=guard, name=act.name):
                asked.append(name)
                return guard(g, f)
            counted.source = guard.source
            act.guards[k] = counted
    game = rules.new_game(seed=1)   # (its content's written functions call the counting guards)
    for coins, opened in ((7, {"count_up", "hoard_more"}), (3, {"count_up"}), (1, set())):
        game.state.coins[game.to_move()] = coins
        asked.clear()
        spaces, _ = game._open_spaces(game, game.to_move())
        # `coins >= 4` asked by hoard only, `coins >= 2` by prepare_first only (its first asker)
        assert sorted(asked) == ["hoard", "prepare_first"]
        assert {act.name for act, _, _ in spaces} & {"count_up", "hoard_more"} == opened


class Stuck:
    """A generator that always says the same number (the largest it may where that is
    smaller), and stops the test where a draw would never end."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.calls = 0

    def randrange(self, n: int) -> int:
        self.calls += 1
        assert self.calls < 100_000, "the draw keeps asking a generator that repeats itself"
        return min(self.number, n - 1)


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-5"])
def test_a_generator_that_always_says_the_same_number_still_draws_a_legal_action(name):
    # Its first number names a binding that is not legal at some turns (a card too dear to
    # build): the draw must go on among the other numbers rather than ask for ever.
    expansions, base, players = SETS[name][:3]
    rules = load_ruleset(expansions, base, players)
    game, rng = rules.new_game(seed=4), random.Random(4)
    refused_first = 0
    while not game.over:
        st = game.state
        if st.pending is None:
            legal = set(game.legal_actions()) if st.flow != "round" else None
            for number in (0, 10**9):
                stuck = Stuck(number)
                action = game.random_action(stuck)
                if legal is not None:
                    assert action in legal, (st.turn, number, action)
                    plain = [(game.action_by_name[n], pools, size) for n, pools, size in
                             plain_open_spaces(game, st.current)[0]]
                    again = Stuck(number)
                    assert legality.draw_among(game, st.current, again.randrange, plain,
                                               sum(n for *_, n in plain)) == action
                refused_first += stuck.calls > 1
        game._apply(game.random_action(rng))
    assert refused_first > 0


def test_blocks_behind_the_same_test_are_run_as_one_and_names_start_as_none_only_where_asked():
    from rulesdsl.interpreter.spaces import _defaults, _merged
    lines = ["    if (c0 := guard(g)):", "        a = 1", "    if c0:", "        b = 2",
             "    x = 3", "    if c0:", "        d = 4",
             "    if c1:", "        c1 = 0", "    if c1:", "        e = 5"]
    assert _merged(lines) == ["    if (c0 := guard(g)):", "        a = 1", "        b = 2",
                              "    x = 3", "    if c0:", "        d = 4",
                              "    if c1:", "        c1 = 0", "    if c1:", "        e = 5"]
    assert _defaults(["    if p3 is None:", "    s = len(p4)", "    y = c0 if c0 is not None else 1"],
                     ["fr", "c0", "p3", "p4"]) == ["    c0 = None", "    p3 = None"]
    # The written draw of both expansions asks their shared guard (`age >= 2`) once a turn.
    rules = load_ruleset(*SETS["agora+pantheon"][:3])
    turn = rules.new_game(seed=1)._open_spaces.source.split("def turn")[1]
    assert turn.count("c0 := ") == 1 and "if c0:" not in turn and "c0 = None" not in turn


ROUND_SHAPES = """
# Actions with no check but guards, in front of a list another action shares: what a new round
# asks of every seat (`round_free`) reads them as the seat's round record does.
action rest { require coins >= 5; gain 1 coins }
action toss { require coins >= 2; param card from hand; discard card }
action swap { require coins >= 2; param card from hand; param gone from city; discard gone }
"""


def test_a_round_asks_every_seat_the_actions_that_need_no_check_as_its_record_does(tmp_path: Path):
    folder = tmp_path / "hands"
    shutil.copytree(Path(__file__).parent / "data" / "hands", folder)
    with (folder / "game.rules").open("a", encoding="utf-8") as rules_file:
        rules_file.write(ROUND_SHAPES)
    rules = load_ruleset((), str(folder), 3)
    assert rules.new_game(seed=0)._round_free is not None
    compared = 0
    for seed in range(4):
        compared += check_every_decision(rules.new_game(seed=seed), random.Random(seed))
    assert compared > 60
    # (and at each seat, its hand full or emptied, with the coins that open and close the guards:
    # with no card in hand, only `rest` can be open)
    game = rules.new_game(seed=5)
    discard = game.slot(game.content.zone_index["discard"], 0)
    answers = []
    for emptied in (False, True):
        for coins in (0, 3, 6):
            for p in range(3):
                if emptied:
                    for item in list(game.state.zones[game.slot(game.content.zone_index["hand"], p)]):
                        game.relocate(item, discard)
                game.state.coins[p] = coins
                game._round_pools.clear()
                answers.append(game._round_free(game, p))
                assert answers[-1] is game._round_record(game, p)[-1], (emptied, coins, p)
    assert answers == [True] * 9 + [False] * 6 + [True] * 3


# An action whose guards are a shared one and one more, then an action with the shared one alone:
# the second's block was run inside the first's (`_merged` read `if (c0 := ...) and ...:` as a
# test of c0 alone), so it was open only when both held (found by test_fuzz_speed_paths.py).
GUARDS_AND_MORE = """
action tithe { require coins >= 0; require coins >= 1; gain 1 coins }
action alms { require coins >= 0; gain 1 coins }
"""


def test_an_action_behind_a_shared_guard_alone_is_open_where_one_asking_more_is_not(tmp_path: Path):
    folder = tmp_path / "guards"
    folder.mkdir()
    (folder / "cards.rules").write_text(GUARDS_AND_MORE, encoding="utf-8")
    rules = load_ruleset([str(folder)])
    game = rules.new_game(seed=1, options=["beginner_wonders"])
    me = game.to_move()
    for coins, opened in ((0, {"alms"}), (3, {"alms", "tithe"})):
        game.state.coins[me] = coins
        assert {act.name for act, _, _ in game._open_spaces(game, me)[0]} & {"alms", "tithe"} == opened, coins
        assert written_open_spaces(game, me) == plain_open_spaces(game, me)
    for seed in range(3):
        assert check_every_decision(rules.new_game(seed=seed), random.Random(seed)) > 40


# Two parameters from cities of different seats, each of which may hold a copy of one card:
# an action names its items, and a name was read as the first candidate of that name not taken
# yet, which could be the only copy the later parameter may have ("'Glassworks' is not among
# the candidates", found by test_fuzz_speed_paths.py).
NEIGHBOURS_COPIES = """
expansion copies {
    title "Copies"
}

action borrow {
    param first from city owner=neighbours color=grey
    param second from city owner=left color=grey
    gain 1 coins
    run last_card
}
"""


def test_a_name_both_parameters_may_take_a_copy_of_gives_each_a_copy(tmp_path: Path):
    folder = tmp_path / "copies"
    folder.mkdir()
    (folder / "cards.rules").write_text(NEIGHBOURS_COPIES, encoding="utf-8")
    rules = load_ruleset([str(folder)], "classic", 3)
    game = rules.new_game(seed=0)
    me = game.to_move()
    left, right = game.left_of(me), game.right_of(me)
    city = game.content.zone_index["city"]
    copies = [i for i, it in enumerate(game.content.items) if it.name == "Glassworks"][:2]
    for item, seat in zip(copies, (right, left)):   # (the right neighbour's comes first in `first`'s list)
        game.relocate(item, game.slot(city, seat))
    borrow = next(a for a in game.legal_actions() if a.name == "borrow")
    assert borrow.args == ("Glassworks", "Glassworks")
    act, binding, _ = legality.decode(game, borrow, me)
    assert sorted(binding) == sorted(copies) and binding[1] in game.state.zones[game.slot(city, left)]
    game.apply(borrow)   # (it raised ValueError)
    for seed in range(3):
        assert check_every_decision(rules.new_game(seed=seed), random.Random(seed)) > 20


PAYERS = """
expansion payers {
    title "Paying shapes"
    zone spares
}

token "Spare" { deck spares; value 1 }
token "Dear spare" { deck spares; value 6 }

# Two amounts, the first of which may fall below nothing: it counts as nothing.
action tithe { param spare from spares; pay spare.value - 3 coins; pay 3 coins; gain 1 coins }
# Two amounts, the second of which may fall below nothing: it adds nothing.
action rebate { param spare from spares; pay 2 coins; pay spare.value - 4 coins; gain 1 coins }
# An item's price and an amount, both paid.
action levy { param card from structure; pay 2 coins; build card }
"""


def test_every_decision_of_an_expansion_whose_actions_pay_amounts(tmp_path: Path):
    """The draw reads an action's amounts to pay (`pay`) in its own lines, not through
    `legality.allowed` (spaces._paying): its bindings are refused where the generic check
    refuses them, with amounts below nothing, two amounts, and an item's price beside one."""
    compared, game = decisions_compared(tmp_path / "payers", PAYERS, seeds=6, limit=150)
    assert compared > 300
    source = game._open_spaces.source
    assert "allowed(" not in source and "cost += amount" in source   # (every amount written in)
