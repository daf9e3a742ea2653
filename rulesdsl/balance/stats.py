"""The statistics of the balance lab: Wilson score intervals for rates, Newcombe's interval for
the difference of two rates, normal intervals for means, the two-proportion z test and Holm's
step-down correction for many tests.  Plain functions on counts; no dependency."""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054   # the two-sided 95% quantile of the normal distribution


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of k successes in n trials (n = 0: the whole [0, 1])."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (method 10) for p1 - p2, from the two Wilson intervals."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """The two-sided p-value of the pooled z test of p1 == p2 (1.0 when either side is empty
    or nothing varies)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given): the family-wise error rate stays
    at most alpha when the adjusted values are compared with alpha."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the normal-approximation interval of a mean (one value: no width)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def mean_difference(a: Sequence[float], b: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean(a) - mean(b), low, high).  Equal lengths are taken as paired (the same seeds played
    twice: common random numbers), which removes the variation the two runs share."""
    if a and len(a) == len(b):
        return mean_interval([x - y for x, y in zip(a, b)], z)
    ma, la, ha = mean_interval(a, z)
    mb, lb, hb = mean_interval(b, z)
    d = ma - mb
    half = math.sqrt(((ha - la) / 2) ** 2 + ((hb - lb) / 2) ** 2)
    return d, d - half, d + half
