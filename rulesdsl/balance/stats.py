"""The statistics of the balance lab: Wilson score intervals for rates, Newcombe's intervals for
the difference of two rates (independent samples, and paired: the same games played twice),
Student's t intervals for means, the two-proportion z test and Holm's step-down correction for
many tests.  Plain functions on counts; no dependency (Student's t quantile is computed here,
from the regularized incomplete beta function)."""

from __future__ import annotations

import functools
import math
from typing import Sequence

Z95 = 1.959963984540054   # the two-sided 95% quantile of the normal distribution
LEVEL = 0.95              # the confidence of every interval


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of k successes in n trials (n = 0: the whole [0, 1]).
    No success: its low bound is exactly 0; all successes: its high bound exactly 1 (as the
    formula says; computed, they came out 5.6e-17 and 0.9999999999999999)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k <= 0 else max(0.0, centre - half)
    high = 1.0 if k >= n else min(1.0, centre + half)
    return low, high


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (method 10) for p1 - p2, from the two Wilson intervals."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def newcombe_paired(both: int, first_only: int, second_only: int, neither: int,
                    z: float = Z95) -> tuple[float, float]:
    """Newcombe's square-and-add interval for p1 - p2 from paired trials (Newcombe 1998, Stat
    Med 17:2635, method 10): n pairs, `both` a success in each, `first_only` and `second_only`
    in one, `neither`; p1 = (both + first_only) / n, p2 = (both + second_only) / n.  The two
    Wilson intervals are combined with phi, the correlation of the pairs (corrected towards 0
    as the method says, and 0 where a margin is empty): pairs that mostly agree give a narrower
    interval than two independent samples of n (`newcombe`, which phi = 0 gives)."""
    n = both + first_only + second_only + neither
    if n <= 0:
        return -1.0, 1.0
    k1, k2 = both + first_only, both + second_only
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson(k1, n, z)
    l2, u2 = wilson(k2, n, z)
    margins = k1 * (n - k1) * k2 * (n - k2)
    phi = 0.0
    if margins:
        a = both * neither - first_only * second_only
        phi = (a - n / 2) / math.sqrt(margins) if a > n / 2 else 0.0 if a >= 0 else a / math.sqrt(margins)
    d = p1 - p2
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return d - math.sqrt(max(0.0, below)), d + math.sqrt(max(0.0, above))


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


def mean_interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float, float]:
    """(mean, low, high): Student's t interval of a mean, with n - 1 degrees of freedom (the
    normal quantile, whatever n, made the "95 %" interval of 2 values cover some 70 %).  One
    value, or values that all agree, give an interval of no width: nothing measures the spread
    there (`significant` never calls such an interval significant)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + level / 2, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def mean_difference(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> tuple[float, float, float]:
    """(mean(a) - mean(b), low, high).  Equal lengths are taken as paired (the same seeds played
    twice: common random numbers), which removes the variation the two runs share: the t
    interval of the mean of the differences.  Unequal lengths: each mean's half-width (its own
    t quantile) added in quadrature."""
    if a and len(a) == len(b):
        return mean_interval([x - y for x, y in zip(a, b)], level)
    ma, la, ha = mean_interval(a, level)
    mb, lb, hb = mean_interval(b, level)
    d = ma - mb
    half = math.sqrt(((ha - la) / 2) ** 2 + ((hb - lb) / 2) ** 2)
    return d, d - half, d + half


def significant(low: float, high: float, n: int) -> bool:
    """Whether a difference's interval tells it from 0: it leaves out 0 and comes from at least 2
    values (paired games).  An interval of no width (values that all agree: no standard error
    to measure) is judged by the sign test instead: n differences all on one side of 0, where
    either side is as likely, happen with chance 2 / 2**n, under 5 % from 6 on.  (So 2 games
    that differ alike say nothing, and a thousand say it surely.)"""
    if n < 2 or not (low > 0 or high < 0):
        return False
    return high > low or 2 * 0.5 ** n < 1 - LEVEL


# -- Student's t ---------------------------------------------------------------------------------

def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz's
    method), for x < (a + 1) / (a + b + 2), where it converges fast."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))   # (P(T > |t|))
    return 1.0 - tail if t > 0 else tail


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom: exact forms for 1 and 2
    degrees, else the root of `t_cdf` (bisection on a bracket, to the last bit a float holds)."""
    if not 0 < p < 1 or df <= 0:
        raise ValueError(f"no t quantile of p = {p} with {df} degrees of freedom")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, 2 * high
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2
