"""The game's dice: a SplitMix64 generator whose whole state is one integer kept in the game
state, so a saved game carries its future chance steps and any machine or Python version
draws the same numbers from the same seed."""

from __future__ import annotations

import hashlib

MASK = (1 << 64) - 1
# The seeds a game accepts: any integer a signed or unsigned 64-bit number can hold.
SEED_MIN = -(1 << 63)
SEED_MAX = (1 << 64) - 1


def is_seed(value: object) -> bool:
    return type(value) is int and SEED_MIN <= value <= SEED_MAX  # bool is not a seed


def derive(*parts: int | str) -> int:
    """A 64-bit number that depends on every part, and looks unrelated for neighbouring parts:
    SHA-256 of their text.  The same parts give the same number on every machine and Python
    (no `hash()`, which varies with PYTHONHASHSEED)."""
    text = "\x1f".join(f"{type(p).__name__}:{p}" for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def seed_state(seed: int) -> int:
    # Mixed through a hash: with a plain affine start, seed s + 1 would give seed s's stream
    # shifted by one draw.
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
    out = []
    for m in range(n, n - count, -1):
        while True:  # next_u64, written out: every card drawn comes through here
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            x = z ^ (z >> 31)
            # Below the rejection limit, 2**64 - 2**64 % m, which lies above 2**64 - 2**32
            # for any m up to 2**32: worked out only for a number that high (next to never).
            if x < 0xFFFFFFFF00000000 or x < (1 << 64) - (1 << 64) % m:
                out.append(x % m)
                break
    return state, out
