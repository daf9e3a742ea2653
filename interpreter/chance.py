"""The game's dice: a SplitMix64 generator whose whole state is one integer kept in the game
state, so a saved game carries its future chance steps and any machine or Python version
draws the same numbers from the same seed."""

from __future__ import annotations

import functools
import hashlib
import struct

# The seeds a game accepts: any integer a signed or unsigned 64-bit number can hold (in limits:
# the commands check them without the interpreter).
from rulesdsl.limits import SEED_MAX, SEED_MIN

MASK = (1 << 64) - 1


def is_seed(value: object) -> bool:
    return type(value) is int and SEED_MIN <= value <= SEED_MAX  # bool is not a seed


def derive(*parts: int | str) -> int:
    """A 64-bit number that depends on every part, and looks unrelated for neighbouring parts:
    SHA-256 of their text.  The same parts give the same number on every machine and Python
    (no `hash()`, which varies with PYTHONHASHSEED)."""
    return _hashed("\x1f".join(f"{type(p).__name__}:{p}" for p in parts))


def _hashed(text: str) -> int:
    """The first 8 bytes of the SHA-256 of `text`, a big-endian number."""
    return _first_u64(hashlib.sha256(text.encode("utf-8")).digest())[0]


# (what `int.from_bytes(digest[:8], "big")` reads, with no slice made and no keyword parsed)
_first_u64 = struct.Struct(">Q").unpack_from


# The seeds every game makes (its own, its dice's, each agent's): `derive`'s text of integer
# parts written out, a generator and a name looked up per part fewer (about half a derivation's
# machine instructions, some 1 % of a random Duel game's); any other part goes through `derive`.
def game_seed(seed: int, index: int) -> int:
    """Game `index` of a batch of seed `seed` (`rulesdsl simulate`'s, `verify`'s, `check`'s
    trial games): a hash of both, so games of one batch and of different batches do not share
    seeds (no folding into a smaller range, where distinct batches could coincide)."""
    if type(seed) is int and type(index) is int:
        return _hashed(f"str:game\x1fint:{seed}\x1fint:{index}")
    return derive("game", seed, index)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game of seed `game_seed`."""
    if type(game_seed) is int and type(seat) is int:
        return _hashed(f"str:agent\x1fint:{game_seed}\x1fint:{seat}")
    return derive("agent", game_seed, seat)


def seed_state(seed: int) -> int:
    # Mixed through a hash: with a plain affine start, seed s + 1 would give seed s's stream
    # shifted by one draw.
    if type(seed) is int:
        return _hashed(f"str:dice\x1fint:{seed}")
    return derive("dice", seed)


def next_u64(state: int) -> tuple[int, int]:
    """(new state, a 64-bit random number)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in [0, n)), by rejection so there is no modulo bias."""
    state, (k,) = picks(state, n, 1)
    return state, k


def picks(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """(new state, `count` uniform integers, the i-th in [0, n - i)): the numbers `below` gives
    for n, n - 1, ... one after another, which drawing `count` items one by one from `n` needs."""
    if count > n:
        raise ValueError(f"cannot draw {count} numbers one by one from {n}")
    if n > 1 << 32:
        raise ValueError(f"cannot draw from {n} items: at most 2**32")
    if count < PACKED_FROM:
        return _one_by_one(state, n, count, [])
    state, out = _packed(state, n, count)
    if len(out) < count:   # (a number that may be rejected: from there on, one by one)
        return _one_by_one(state, n - len(out), count - len(out), out)
    return state, out


def _one_by_one(state: int, n: int, count: int, out: list[int]) -> tuple[int, list[int]]:
    """`picks`, number after number, appended to `out`."""
    for m in range(n, n - count, -1):
        while True:  # next_u64, written out: every card drawn comes through here
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            x = z ^ (z >> 31)
            # Below the rejection limit, 2**64 - 2**64 % m, which lies above 2**64 - 2**32
            # for any m up to 2**32: worked out only for a number that high (next to never).
            if x < SURE or x < (1 << 64) - (1 << 64) % m:
                out.append(x % m)
                break
    return state, out


# A number below this lies below the rejection limit of any m up to 2**32 (see `_one_by_one`).
SURE = 0xFFFFFFFF00000000
# From how many numbers at a time `picks` works them out side by side (fewer: one by one).
PACKED_FROM = 3
_GAMMA = 0x9E3779B97F4A7C15


def _packed(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """The first of `picks`' numbers, up to the first that may be rejected (next to never)."""
    out = []
    m = n
    for x in _raw(state, count):
        if x >= SURE:
            break
        out.append(x % m)
        m -= 1
    return (state + len(out) * _GAMMA) & MASK, out


def _raw(state: int, count: int) -> tuple[int, ...]:
    """The generator's next `count` 64-bit numbers, worked out side by side, each in 128 bits
    of one Python integer, by the same operations on the whole integer (a product of 64-bit
    numbers fits its 128 bits, and what a shift brings down from the next one is masked off);
    then read back as 64-bit numbers in one call.  The same numbers as one by one, for a few
    big operations in place of a dozen small ones per number."""
    ones, ramp, low, read = _lanes(count)
    z = (state * ones + ramp) & low   # each: state + (k + 1) * gamma, modulo 2**64
    z = (((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9) & low
    z = (((z ^ (z >> 27)) & low) * 0x94D049BB133111EB) & low
    z ^= z >> 31   # (the bits it brings into the upper half of each 128 are not read)
    return read(z.to_bytes(16 * count, "little"))


def take(state: int, rest: list, count: int, names: list[str], entry: list[str]) -> tuple[int, list]:
    """`picks` applied to a list: (new state, `count` items taken out of `rest` one by one, the
    k-th of what is left each time, for `picks`' numbers), each taken item's name
    (`names[item]`) appended to `entry`.  One loop takes the number, the item and its name,
    where a deal took the numbers, then the items, then their names, each in a loop of its own."""
    n = len(rest)
    if count > n:
        raise ValueError(f"cannot draw {count} numbers one by one from {n}")
    if n > 1 << 32:
        raise ValueError(f"cannot draw from {n} items: at most 2**32")
    out: list = []
    if count >= PACKED_FROM:
        m = n
        for x in _raw(state, count):
            if x >= SURE:   # (may be rejected: from there on, one by one, below)
                break
            item = rest.pop(x % m)
            out.append(item)
            entry.append(names[item])
            m -= 1
        state = (state + len(out) * _GAMMA) & MASK
        if len(out) == count:
            return state, out
    state, ks = _one_by_one(state, len(rest), count - len(out), [])
    for k in ks:
        item = rest.pop(k)
        out.append(item)
        entry.append(names[item])
    return state, out


@functools.cache   # (the same constants for every game: made once per count a game draws)
def _lanes(count: int) -> tuple:
    """(1 in each 128 bits, k + 1 times gamma in the k-th, 2**64 - 1 in each, their reader)."""
    ones = sum(1 << (128 * k) for k in range(count))
    ramp = sum(((k + 1) * _GAMMA) << (128 * k) for k in range(count))
    return ones, ramp, ones * MASK, struct.Struct("<" + "Q8x" * count).unpack
