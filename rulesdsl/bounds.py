"""The range of values a number expression of the card language can take, as far as the
expression alone tells (None for a side it does not bound): what the checker judges a seat that
content computes by (`player(seat + 1)`)."""

from __future__ import annotations

from . import ast

Bounds = tuple[int | None, int | None]   # (lowest, highest); None: no bound known
UNKNOWN: Bounds = (None, None)

# Names and functions that are never below zero, whatever the game: amounts and counts.
NON_NEGATIVE_NAMES = frozenset({"coins", "distinct_science", "track_points", "age"})
NON_NEGATIVE_CALLS = frozenset({"count", "coins", "production", "science_count", "coins_on", "cubes", "supply",
                                "controlled", "riders", "abs", "science_score"})


def bounds(e: ast.Expr, players: int, names: dict[str, Bounds] | None = None) -> Bounds:
    """The range of `e` in a game of `players` seats; `names`: ranges the content gives names
    (`pawn_distance` between the capitals of its track)."""
    if isinstance(e, ast.Int):
        return e.value, e.value
    if isinstance(e, ast.Name):
        if names and e.name in names:
            return names[e.name]
        if e.name == "players":
            return players, players
        if e.name == "seat":
            return 0, players - 1
        return (0, None) if e.name in NON_NEGATIVE_NAMES else UNKNOWN
    if isinstance(e, ast.Call):
        if e.func in ("min", "max") and len(e.args) == 2:
            (a, b), (c, d) = bounds(e.args[0], players, names), bounds(e.args[1], players, names)
            if e.func == "min":
                return _pick(min, a, c, low=True), _pick(min, b, d, low=False)
            return _pick(max, a, c, low=True), _pick(max, b, d, low=False)
        return (0, None) if e.func in NON_NEGATIVE_CALLS else UNKNOWN
    if isinstance(e, ast.BinOp):
        return _binop(e, players, names)
    return UNKNOWN


def _pick(fn, a: int | None, b: int | None, low: bool) -> int | None:
    """min or max of two bounds, where None is minus infinity for a lowest bound and plus
    infinity for a highest one."""
    if a is None or b is None:
        if fn is min:
            return None if low else (a if b is None else b)
        return (a if b is None else b) if low else None
    return fn(a, b)


def _binop(e: ast.BinOp, players: int, names: dict[str, Bounds] | None = None) -> Bounds:
    (a, b), (c, d) = bounds(e.left, players, names), bounds(e.right, players, names)
    if e.op == "+":
        return _add(a, c), _add(b, d)
    if e.op == "-":
        return _add(a, None if d is None else -d), _add(b, None if c is None else -c)
    if e.op == "*" and a is not None and c is not None and a >= 0 and c >= 0:
        return a * c, (b * d if b is not None and d is not None else None)
    if e.op == "%" and c is not None and c > 0:
        # A remainder by a positive divisor (Python's, as compiled): from 0 to one less than
        # the largest divisor, whatever the sign of the number divided.
        return 0, (d - 1 if d is not None else None)
    if e.op == "//" and a is not None and a >= 0 and c is not None and c > 0:
        return 0, (b // c if b is not None else None)
    return UNKNOWN


def _add(x: int | None, y: int | None) -> int | None:
    return None if x is None or y is None else x + y


__all__ = ["Bounds", "below_zero", "bounds", "least_rounds", "least_steps", "never_or_always", "subtracts"]


def subtracts(e: ast.Expr) -> bool:
    """Whether the arithmetic making a number subtracts or adds a negative number (within the
    arithmetic itself: `lookup(t, i - 1)` does not)."""
    if isinstance(e, ast.Int):
        return e.value < 0
    if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*", "//", "%"):
        return e.op == "-" or subtracts(e.left) or subtracts(e.right)
    if isinstance(e, ast.Call) and e.func in ("min", "max"):
        return any(subtracts(x) for x in e.args)
    if isinstance(e, ast.Call) and e.func == "either":
        return any(subtracts(x) for x in e.args[1:])
    return False


def never_or_always(op: str, left: Bounds, right: Bounds) -> bool | None:
    """Whether `left OP right` (an ordered comparison) is false whatever the values in these
    ranges (False), true whatever they are (True), or may be either (None)."""
    (a, b), (c, d) = left, right
    if op in ("<", ">="):
        always_less = b is not None and c is not None and b < c
        never_less = a is not None and d is not None and a >= d
        less = True if always_less else False if never_less else None
        return less if op == "<" or less is None else not less
    if op in ("<=", ">"):
        always = b is not None and c is not None and b <= c
        never = a is not None and d is not None and a > d
        at_most = True if always else False if never else None
        return at_most if op == "<=" or at_most is None else not at_most
    return None


def below_zero(e: ast.Expr, player_counts) -> tuple[bool, int | None]:
    """Whether a computed count can come to less than 0 at one of `player_counts` (it subtracts,
    or holds a negative number, and its range does not rule it out), and the lowest it can come
    to where every count bounds it (else None).  What W508 warns of and explain says."""
    if isinstance(e, ast.Int) or not subtracts(e):
        return False, None
    lows = [bounds(e, n)[0] for n in player_counts]
    if all(low is not None and low >= 0 for low in lows):
        return False, None
    return True, (min(lows) if None not in lows else None)


def least_rounds(e: ast.Expr, player_counts) -> int:
    """The fewest rounds a `repeat` of count `e` runs at any of `player_counts` (0 where its
    range does not bound it from below)."""
    lows = [bounds(e, n)[0] for n in player_counts]
    return max(0, min(low if low is not None else 0 for low in lows)) if lows else 0


def least_steps(s: ast.Statement, player_counts) -> int:
    """The fewest steps of the step budget (interpreter/budget.py) the rounds of `repeat` `s` take
    once it starts: each round is a step, and pushes its block, whose first step is another
    (statements that only change numbers run inside the step before them, so a block of several
    statements may cost one); a block inside counts only where it certainly runs: a `repeat`'s
    rounds, and an `each_player` holding a `repeat` (a frame per seat, then).  A lower bound: what
    is conditional (`if`, a decision, a procedure run) counts nothing beyond its own step."""
    if s.verb != "repeat" or not s.args or s.block is None:
        return 0
    return least_rounds(s.args[0], player_counts) * (1 + _least_block(s.block, player_counts))


def _least_block(block: ast.Block, player_counts) -> int:
    total = 1 if block.statements else 0
    for s in block.statements:
        if s.verb == "repeat":
            total += least_steps(s, player_counts)
        elif s.verb == "each_player" and s.block is not None \
                and any(x.verb == "repeat" for x in s.block.statements):
            total += min(player_counts, default=1) * _least_block(s.block, player_counts)
    return total
