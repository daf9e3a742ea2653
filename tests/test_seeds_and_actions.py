"""Seeds are mixed before use (neighbouring seeds give unrelated dice; a batch's games never
share seeds with another batch's), and malformed actions are refused like illegal ones."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys

import pytest

from rulesdsl.interpreter import Action, IllegalAction, load_ruleset, new_game
from rulesdsl.interpreter import chance
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.simulate import game_seed, simulate


def _dice(seed: int, n: int = 12) -> list[int]:
    state, out = chance.seed_state(seed), []
    for _ in range(n):
        state, x = chance.next_u64(state)
        out.append(x)
    return out


@pytest.mark.parametrize("seed", [0, 1, 41, 2**31 - 2, 2**63])
def test_neighbouring_seeds_do_not_share_a_stream(seed):
    mine, next_ones = _dice(seed), _dice(seed + 1)
    # Before mixing, seed s + 1's numbers were seed s's shifted by one draw.
    assert mine[1:] != next_ones[:-1]
    assert not set(mine) & set(next_ones)


def test_numbers_drawn_in_one_go_are_those_drawn_one_by_one():
    # `picks` (a deal of several cards) gives what `below` gives for n, n - 1, ... in turn.
    for seed, n, count in [(0, 20, 20), (3, 49, 7), (2**63, 7, 1), (11, 5, 0)]:
        state = one_by_one = chance.seed_state(seed)
        expected = []
        for m in range(n, n - count, -1):
            one_by_one, k = chance.below(one_by_one, m)
            assert 0 <= k < m
            expected.append(k)
        assert chance.picks(state, n, count) == (one_by_one, expected)
    with pytest.raises(ValueError):
        chance.picks(1, 3, 4)   # more numbers than items to draw
    with pytest.raises(ValueError):
        chance.below(1, 0)


def _state_before(x: int) -> int:
    """The dice's state whose next number is `x` (SplitMix64's mixing undone step by step)."""
    mask = (1 << 64) - 1
    z = x ^ (x >> 31) ^ (x >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    z = z ^ (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & mask


def test_a_number_above_the_rejection_limit_is_drawn_again():
    # No modulo bias: for m, a number at or above 2**64 - 2**64 % m is refused and the next one
    # drawn; one just below is taken.  (`picks` works the limit out only for numbers that high.)
    for m, x in [(3, (1 << 64) - 1), (3, (1 << 64) - 2), (10, (1 << 64) - 6), (10, (1 << 64) - 7),
                 (2**32, (1 << 64) - 1), (2**31 + 5, (1 << 64) - 2**31)]:
        state = _state_before(x)
        assert chance.next_u64(state) == (chance.next_u64(state)[0], x)
        limit = (1 << 64) - (1 << 64) % m
        after, k = chance.picks(state, m, 1)
        if x < limit:
            assert (after, k) == (chance.next_u64(state)[0], [x % m])
        else:
            again, y = chance.next_u64(chance.next_u64(state)[0])
            assert y < limit and (after, k) == (again, [y % m])
    with pytest.raises(ValueError):
        chance.picks(1, 2**32 + 1, 1)


def _below_one_by_one(state: int, n: int, count: int) -> tuple[int, list[int]]:
    out = []
    for m in range(n, n - count, -1):
        state, k = chance.below(state, m)
        out.append(k)
    return state, out


def test_numbers_worked_out_side_by_side_are_those_drawn_one_by_one():
    # Several numbers at a time are worked out side by side in one big integer (`chance._packed`):
    # the same numbers, and the same state after them, as `below` one after another; also
    # where a number at or above the rejection limit comes among them (at the first, a middle
    # or the last of the deal), refused or taken as `below` refuses or takes it.
    rng = random.Random(5)
    for _ in range(300):
        state, n = rng.getrandbits(64), rng.randint(1, 120)
        count = rng.randint(0, n)
        assert chance.picks(state, n, count) == _below_one_by_one(state, n, count)
    gamma = 0x9E3779B97F4A7C15
    for x in [(1 << 64) - 1, (1 << 64) - 2**31, 0xFFFFFFFF00000000]:
        for at in (0, 2, 6):
            start = (_state_before(x) - at * gamma) % (1 << 64)   # its `at`-th number is x
            for n in (7, 10, 2**31 + 5):
                assert chance.next_u64((start + at * gamma) % (1 << 64))[1] == x
                assert chance.picks(start, n, 7) == _below_one_by_one(start, n, 7), (x, at, n)


def _taken_one_by_one(state: int, items: list[int], count: int) -> tuple[int, list[int], list[int]]:
    rest, out = items[:], []
    state, ks = _below_one_by_one(state, len(rest), count)
    for k in ks:
        out.append(rest.pop(k))
    return state, out, rest


def test_items_taken_in_one_loop_are_those_the_numbers_pick():
    # `chance.take` (a deal's draw): the items `picks`' numbers take out of the list one by one,
    # the same state after them, what is left in its order, and each taken item's name after
    # what the record held; also where a number at or above the rejection limit comes among them.
    rng = random.Random(7)
    names = [f"n{i}" for i in range(300)]
    cases = []
    for _ in range(300):
        n = rng.randint(1, 120)
        cases.append((rng.getrandbits(64), rng.sample(range(300), n), rng.randint(0, n)))
    gamma = 0x9E3779B97F4A7C15
    for x in [(1 << 64) - 1, (1 << 64) - 2**31]:
        for at in (0, 2, 6):
            cases.append(((_state_before(x) - at * gamma) % (1 << 64), list(range(7, 17)), 7))
    for state, items, count in cases:
        after, out, left = _taken_one_by_one(state, items, count)
        rest, entry = items[:], ["zone"]
        assert chance.take(state, rest, count, names, entry) == (after, out)
        assert rest == left and entry == ["zone"] + [names[i] for i in out]
    with pytest.raises(ValueError):
        chance.take(1, [1, 2, 3], 4, names, [])


def test_the_dice_of_a_seed_are_fixed():
    # The same numbers on every machine and every hash seed (SHA-256, no `hash()`): these are
    # the values the mixing gives; a change here changes every game of every seed.
    assert chance.seed_state(0) == 0x676C2D35F1F2AF17  # SHA-256 of "str:dice\x1fint:0", first 8 bytes
    assert _dice(7, 2) == _dice(7, 2)
    code = ("from rulesdsl.interpreter import new_game; g = new_game(seed=5); "
            "print(g.items_in('draft'), g.state.rng)")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in ("0", "1", "12345")}
    assert len(runs) == 1


def _derived(*parts: object) -> int:
    # `chance.derive` as first written: SHA-256 of the parts' typed text, its first 8 bytes.
    text = "\x1f".join(f"{type(p).__name__}:{p}" for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


class _Seat(int):
    """An int of another type (numpy's are): its type's name is in the text hashed."""


def test_the_seeds_written_out_are_those_derived():
    # Game, dice and agent seeds write `derive`'s text out for integers: the same numbers, for
    # any integer; a part of another type (a bool, an int subclass) keeps its type's name.
    for seed in (0, 1, -1, 7, 2**31 - 1, 2**63, -(2**63), 2**64 - 1, 10**30):
        assert chance.seed_state(seed) == _derived("dice", seed)
        for other in (0, 1, 3, 6, 10**20):
            assert game_seed(seed, other) == _derived("game", seed, other)
            assert chance.agent_seed(seed, other) == _derived("agent", seed, other)
        assert chance.derive("x", seed, "y") == _derived("x", seed, "y")
    for odd in (True, _Seat(2)):
        assert chance.seed_state(odd) == _derived("dice", odd) != _derived("dice", int(odd))
        assert game_seed(odd, odd) == _derived("game", odd, odd) != _derived("game", int(odd), int(odd))
        assert chance.agent_seed(5, odd) == _derived("agent", 5, odd) != _derived("agent", 5, int(odd))


def test_batch_seeds_do_not_collide():
    # Folded modulo 2**31 - 1, batches 0 and 2**31 - 1 were the same games.
    assert [game_seed(0, i) for i in range(50)] != [game_seed(2**31 - 1, i) for i in range(50)]
    seeds = {game_seed(b, i) for b in (0, 1, 2, 2**31 - 1, 2**32, -1) for i in range(200)}
    assert len(seeds) == 6 * 200
    assert all(0 <= s < 2**64 for s in seeds)


def test_simulate_batches_differ_and_repeat():
    rules = load_ruleset()
    a = simulate(rules, 3, seed=0)
    b = simulate(rules, 3, seed=2**31 - 1)
    again = simulate(rules, 3, seed=0)
    strip = ("seconds", "games_per_second", "seed")
    assert {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in again.items() if k not in strip}
    assert a["mean_score"] != b["mean_score"]


def test_simulate_hands_the_collector_back_what_it_froze():
    # `simulate` freezes what exists while it plays (docs/speed.md) and unfreezes it after,
    # unless the caller had frozen objects itself: those stay frozen, as it wanted.
    import gc
    from rulesdsl.collector import interpreters_own_frozen
    rules = load_ruleset()
    assert gc.get_freeze_count() in (0, interpreters_own_frozen())   # (none but 3.12's own)
    seen = []
    simulate(rules, 2, seed=0, progress=lambda n: seen.append(gc.get_freeze_count()))
    assert seen and all(n > 0 for n in seen) and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        held = gc.get_freeze_count()
        simulate(rules, 2, seed=0)
        assert gc.get_freeze_count() >= held
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("seed", [None, "7", 7.0, True, 2**64, -(2**63) - 1])
def test_a_seed_that_is_not_a_64_bit_integer_is_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game(seed=seed)


@pytest.mark.parametrize("seed", [-(2**63), 2**64 - 1, -1])
def test_extreme_seeds_play(seed):
    assert new_game(seed=seed).legal_actions()


# A single string is one option (tests/test_names.py); bytes and unknown names are refused.
@pytest.mark.parametrize("options,script", [(b"beginner_wonders", None), ("beginers_wonders", None),
                                            ([5], None), ((), [1]),
                                            ((), {"age1": "Baths"}), ((), {"nowhere": []}),
                                            ((), {"age1": ["No Such Card"]})])
def test_bad_creation_arguments_are_a_value_error(options, script):
    with pytest.raises(ValueError):
        new_game(options=options, script=script)


# -- malformed actions ---------------------------------------------------------------------------

MALFORMED = [
    Action("build", 5),                # args not a tuple
    Action("build", ("Baths", 5)),     # an argument not a string
    Action("build", (None,)),
    Action("build", (["Baths"],)),     # unhashable
    Action(5, ()),                     # name not a string
    Action(None),
    Action("", ()),
    Action("build", ["Baths"]),        # a list, not a tuple
    Action("choose", ({"a": 1},)),
    ("build", ("Baths",)),             # a plain tuple, not an Action
    "build Baths",
    None,
]


@pytest.mark.parametrize("pending", [True, False], ids=["decision pending", "turn"])
@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_a_malformed_action_is_illegal_and_changes_nothing(action, pending):
    game = new_game(seed=3) if pending else new_game(seed=3, options=["beginner_wonders"])
    assert (game.state.pending is not None) == pending
    before = dumps(game.state)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.reason and str(info.value)
    assert game.explain_illegal(action) == info.value.reason
    assert dumps(game.state) == before


@pytest.mark.parametrize("action,reason", [
    (Action("steal", ("Baths",)), "unknown action"),
    (Action("build", ()), "argument"),
    (Action("build", ("Baths", "Tavern")), "argument"),
    (Action("build", ("No Such Card",)), "no item named"),
])
def test_unknown_names_and_wrong_arity_are_illegal(action, reason):
    game = new_game(seed=3, options=["beginner_wonders"])
    before = dumps(game.state)
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action)
    assert dumps(game.state) == before
