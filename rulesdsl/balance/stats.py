"""The statistics of the balance lab: Wilson score intervals for rates, Newcombe's intervals for
the difference of two rates (independent samples, and paired: the same games played twice),
Student's t intervals for means, both taken deal by deal where a deal's games go together
(`clustered`, `design_effect`, `ratio_design_effect`, `ratio_difference_design_effect`), the
two-proportion z test, the paired
sign-flip and t tests, the p-value an interval family inverts (`inverted_p`: an A/B's rows), and
Holm's step-down correction for many tests.  Plain functions on counts; no dependency (Student's t quantile is computed here,
from the regularized incomplete beta function)."""

from __future__ import annotations

import functools
import itertools
import math
import operator
from typing import Callable, Sequence

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


# -- games dealt alike: a deal's games are a cluster ---------------------------------------------
#
# The lab plays each deal once at every rotation of the seats, and a deal's games share their
# cards: their results go together, and a figure taken game by game counts more independent games
# than it has (its "95 %" interval covered some 88-93 %: docs/balance.md).  The deal is the unit:
# a mean's variance is the between-deal (cluster-robust) one (Cochran 1977, *Sampling Techniques*,
# 3rd ed., ch. 9A: a mean over clusters of unequal sizes as a ratio estimator), and a rate's
# interval is taken at Kish's effective sample size, its games over the design effect (Kish 1965,
# *Survey Sampling*; the Wilson interval so is one of the methods Dean & Pagano 2015 compare for
# clustered surveys, J Surv Stat Methodol 3:484).

def _unit_sums(values: Sequence[float], size: int, offset: int) -> tuple[list[float], list[int]]:
    """(sums, counts) of the units of `values`: value i is in unit (offset + i) // size (the units
    consecutive runs of `size`, the first and last cut short where the values do not fill them)."""
    n = len(values)
    head = min(n, (-offset) % size)
    whole = (n - head) // size
    body = values[head:head + whole * size]
    # (the whole units summed a column at a time: a million games' column, several times a report)
    sums = list(map(sum, zip(*(body[i::size] for i in range(size))))) if whole else []
    counts = [size] * whole
    tail = n - head - whole * size
    if head:
        sums.insert(0, sum(values[:head]))
        counts.insert(0, head)
    if tail:
        sums.append(sum(values[n - tail:]))
        counts.append(tail)
    return sums, counts


def clustered(values: Sequence[float], size: int, offset: int = 0) -> tuple[float, float, float, int]:
    """(mean, its variance between units, its variance were the values independent (s^2 / n),
    units) of `values` in units of `size` consecutive values (`_unit_sums`).  The variance between
    units is the cluster-robust J / (J - 1) * sum of (S_j - n_j * mean)^2 / n^2 over the J units
    (S_j, n_j a unit's sum and count); with units of one size it is the variance of their means
    over J.  Fewer than 2 units: it is the independent one (nothing measures a unit's spread)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0, 0
    mul = operator.mul
    total = sum(values)
    # (n times each deviation, n * v - total, exact for whole numbers: what the lab's columns hold)
    squares = sum(map(mul, values, values))
    independent = max(0, n * squares - total * total) / n / (n - 1) / n if n > 1 else 0.0
    sums, counts = _unit_sums(values, max(1, size), offset)
    j = len(sums)
    if j < 2:
        return total / n, independent, independent, j
    scaled = list(map(operator.sub, map(mul, sums, itertools.repeat(n)), map(mul, counts, itertools.repeat(total))))
    between = j / (j - 1) * sum(map(mul, scaled, scaled)) / (n * n) / (n * n)
    return total / n, between, independent, j


def design_effect(values: Sequence[float], size: int, offset: int = 0) -> float:
    """Kish's design effect of the mean of `values` taken in units (deals) of `size` consecutive
    values: its variance between units over its variance were the values independent
    (`clustered`).  At least 1: an estimate below 1 counts as 1 (Korn & Graubard 1998, Survey
    Methodology 24:193, truncate it so), as where nothing varies or there are fewer than 2 units."""
    _mean, between, independent, _units = clustered(values, size, offset)
    return max(1.0, between / independent) if independent > 0 else 1.0


def ratio_design_effect(k: int, n: int, bb: float, bw: float, ww: float, units: int) -> float:
    """Kish's design effect of a rate k / n whose n trials fall in `units` clusters (deals) of
    unequal sizes: b_j trials and w_j successes in unit j, given by the sums bb, bw, ww of b_j^2,
    b_j w_j and w_j^2 over the units.  The rate is a ratio of two cluster totals, its variance
    between units J / (J - 1) * sum of (w_j - r b_j)^2 / n^2 (Cochran 1977, ch. 6: the ratio
    estimator; the cluster-robust variance `clustered` takes), over the binomial r (1 - r) / n.
    At least 1 (Korn & Graubard 1998, as `design_effect`), and 1 where nothing varies or there
    are fewer than 2 units."""
    if n <= 0 or units < 2 or k <= 0 or k >= n:
        return 1.0
    r = k / n
    spread = max(0.0, ww - 2 * r * bw + r * r * bb)
    between = units / (units - 1) * spread / (n * n)
    return max(1.0, between / (r * (1 - r) / n))


def ratio_difference_design_effect(k1: int, n1: int, squares1: tuple[float, float, float], k2: int, n2: int,
                                   squares2: tuple[float, float, float], cross: tuple[float, float, float, float],
                                   units: int) -> float:
    """Kish's design effect of the difference of two rates k1 / n1 - k2 / n2 taken on the same
    `units` clusters (deals), each a ratio of two unit totals (`ratio_design_effect`): b_j, w_j
    the first's trials and successes in unit j, b'_j, w'_j the second's; `squares1`, `squares2`
    each rate's sums of b^2, b w, w^2 over the units, `cross` the sums of b b', b w', w b' and
    w w'.  Its variance between units, J / (J - 1) * sum of ((w_j - r1 b_j) / n1 - (w'_j - r2
    b'_j) / n2)^2 (the two ratios' linearized, cluster-robust variances and their covariance:
    where one sample's success is the other's failure in the same unit, as a definition built
    and not built in one game, they vary against each other and the difference varies more than
    either), over the binomial r1 (1 - r1) / n1 + r2 (1 - r2) / n2 of independent samples.  At
    least 1 (as `design_effect`), and 1 where either rate has no spread or there are fewer than
    2 units."""
    if units < 2 or not 0 < k1 < n1 or not 0 < k2 < n2:
        return 1.0
    r1, r2 = k1 / n1, k2 / n2
    bb1, bw1, ww1 = squares1
    bb2, bw2, ww2 = squares2
    bb12, bw12, wb12, ww12 = cross
    first = (ww1 - 2 * r1 * bw1 + r1 * r1 * bb1) / (n1 * n1)
    second = (ww2 - 2 * r2 * bw2 + r2 * r2 * bb2) / (n2 * n2)
    both = (ww12 - r2 * wb12 - r1 * bw12 + r1 * r2 * bb12) / (n1 * n2)
    between = units / (units - 1) * max(0.0, first + second - 2 * both)
    return max(1.0, between / (r1 * (1 - r1) / n1 + r2 * (1 - r2) / n2))


def wilson_clustered(k: int, n: int, deff: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of k successes in n trials taken in clusters of design effect `deff`:
    at the effective sample size, k / deff of n / deff (1: the plain `wilson`)."""
    if deff == 1.0:
        return wilson(k, n, z)
    return wilson(k / deff, n / deff, z)   # (`wilson` takes counts that are not whole)


def newcombe_paired_clustered(both: int, first_only: int, second_only: int, neither: int, deff: float,
                              z: float = Z95) -> tuple[float, float]:
    """`newcombe_paired` of pairs taken in clusters of design effect `deff` (that of the pairs'
    differences): at the effective sample size, every count over deff (1: the plain interval)."""
    if deff == 1.0:
        return newcombe_paired(both, first_only, second_only, neither, z)
    return newcombe_paired(both / deff, first_only / deff, second_only / deff, neither / deff, z)


def clustered_mean_interval(values: Sequence[float], size: int, offset: int = 0,
                            level: float = LEVEL) -> tuple[float, float, float]:
    """(mean, low, high): Student's t interval of a mean of values taken in units (deals) of `size`
    consecutive values, with the variance between units and J - 1 degrees of freedom for the J
    units (with whole units: the t interval of the units' means).  One unit: the values' own t
    interval (`mean_interval`), the only spread there is to measure."""
    mean, between, _independent, units = clustered(values, size, offset)
    if units < 2:
        return mean_interval(values, level)
    half = t_quantile(0.5 + level / 2, units - 1) * math.sqrt(between)
    return mean, mean - half, mean + half


# -- a p-value that agrees with its interval ------------------------------------------------------
#
# A compare row showed an interval of one method and a p-value of another (Newcombe's interval with
# the sign-flip or the z test): an interval that left out 0 beside a p above 0.05, or the other way
# round.  Each row's p is now its interval's own: the level at which the interval's bound on 0's
# side reaches 0 (the test the interval family inverts), so the two never disagree.

Z_FAR = 40.0   # (a z at which every interval of these families holds 0: p = erfc(40 / sqrt 2), 0 as a float)


def inverted_p(interval: Callable[[float], tuple[float, float]], level: float = LEVEL) -> float:
    """The two-sided p-value of the test that an interval family inverts: erfc(z* / sqrt 2), z*
    the normal quantile at which `interval(z)` (low, high) first holds 0.  Found by bisection from
    the interval at `level`'s own quantile, so that it leaves out 0 exactly when p < 1 - level
    (the bisection's last bit aside: clamped to that side).  An interval of no width at z = 0 on 0
    (no difference): 1."""
    alpha = 1 - level
    z_level = _normal_quantile(0.5 + level / 2)

    def out(z: float) -> bool:
        low, high = interval(z)
        return low > 0 or high < 0

    if not out(0.0):
        return 1.0
    excluded = out(z_level)
    low, high = (z_level, Z_FAR) if excluded else (0.0, z_level)
    if excluded and out(Z_FAR):
        return 0.0
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if out(mid):
            low = mid
        else:
            high = mid
    p = math.erfc((low + high) / 2 / math.sqrt(2))
    return min(p, math.nextafter(alpha, 0.0)) if excluded else min(1.0, max(p, alpha))


def _normal_quantile(p: float) -> float:
    """The `p` quantile of the standard normal (p in (0.5, 1)): the root of erfc, by bisection."""
    if p == 0.975:
        return Z95
    low, high = 0.0, Z_FAR
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if math.erfc(mid / math.sqrt(2)) / 2 > 1 - p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def newcombe_p(k1: float, n1: float, k2: float, n2: float) -> float:
    """The p-value `newcombe`'s interval of p1 - p2 inverts (`inverted_p`): under 0.05 exactly when
    its 95% interval leaves out 0."""
    if not n1 or not n2:
        return 1.0
    return inverted_p(lambda z: newcombe(k1, n1, k2, n2, z))


def newcombe_paired_p(both: float, first_only: float, second_only: float, neither: float,
                      deff: float = 1.0) -> float:
    """The p-value `newcombe_paired_clustered`'s interval inverts (`inverted_p`): under 0.05
    exactly when its 95% interval, at the same design effect, leaves out 0."""
    return inverted_p(lambda z: newcombe_paired_clustered(both, first_only, second_only, neither, deff, z))


def mean_p(values: Sequence[float]) -> float:
    """The two-sided p-value of Student's t test that the values' mean is 0 (n - 1 degrees of
    freedom: the test `mean_interval`'s interval inverts).  Values with no spread: none from 0,
    1; all alike, the sign test's 2 / 2**n (`significant`)."""
    n = len(values)
    if n < 2:
        return 1.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var <= 0:
        return 1.0 if mean == 0 else min(1.0, 2 * 0.5 ** n)
    t = mean / math.sqrt(var / n)
    return min(1.0, 2 * t_cdf(-abs(t), n - 1))


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
