"""The balance lab's statistics (rulesdsl/balance/stats.py) against published values."""

import pytest

from rulesdsl.balance.stats import holm, mean_difference, mean_interval, newcombe, wilson


@pytest.mark.parametrize("k, n, low, high", [
    (0, 10, 0.0, 0.2775),        # Wilson 1927 / Newcombe 1998 table I
    (5, 10, 0.2366, 0.7634),
    (81, 263, 0.2553, 0.3662),   # Newcombe 1998, example (a)
    (15, 148, 0.0624, 0.1605),   # Newcombe 1998, example (b)
    (10, 10, 0.7225, 1.0),
])
def test_wilson_known_values(k, n, low, high):
    got = wilson(k, n)
    assert got[0] == pytest.approx(low, abs=5e-5) and got[1] == pytest.approx(high, abs=5e-5)


def test_wilson_of_nothing_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_known_value():
    # Newcombe 1998 (Stat Med 17:873), method 10, example 56/70 - 48/80.
    low, high = newcombe(56, 70, 48, 80)
    assert low == pytest.approx(0.0524, abs=5e-5) and high == pytest.approx(0.3339, abs=5e-5)


def test_holm_adjusts_in_step_down_order():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([]) == []
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_mean_intervals():
    m, low, high = mean_interval([1, 2, 3, 4, 5])
    # (Student's t with 4 degrees of freedom, 2.776445: the normal 1.959964 pinned here made a
    # "95 %" interval of 5 values that covers less)
    assert m == 3 and low == pytest.approx(3 - 2.776445 * (2.5 / 5) ** 0.5) and high == pytest.approx(6 - low)
    # Paired (common random numbers): a constant shift has no width.
    assert mean_difference([3, 5, 9], [1, 3, 7]) == pytest.approx((2, 2, 2))
