"""Confidence intervals for the bots' estimates and the match results.

>>> m, lo, hi = mean_ci([1, 2, 3, 4])
>>> m, round(lo, 3), round(hi, 3)
(2.5, 0.446, 4.554)
>>> mean_ci([2.0])
(2.0, -inf, inf)
"""

from __future__ import annotations

import math
from typing import Sequence

__all__ = ["mean_ci", "t95", "t_quantile", "deals_mean_ci", "share_ci"]

# two-sided 95% quantiles of Student's t, degrees of freedom 1..30
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of
    freedom (a table to 30; beyond, the Cornish-Fisher expansion around the
    normal quantile, within 1e-4 of it)."""
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    return t_quantile(df, 1.959963984540054)


def t_quantile(df: int, z: float) -> float:
    """The quantile of Student's t with ``df`` degrees of freedom at the
    normal quantile ``z`` (1.96 for a two-sided 95% interval, 3.29 for
    99.9%): the Cornish-Fisher expansion around ``z``, for ``df`` >= 30
    (within 2e-3 of the exact quantile there at ``z`` <= 3.3).

    >>> round(t_quantile(30, 3.290526731491926), 2), round(t_quantile(10_000, 1.96), 3)
    (3.65, 1.96)
    """
    if df < 30:
        raise ValueError(f"t_quantile: the expansion needs df >= 30, not {df}")
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95% t-interval. One value has an
    unbounded interval; no value is (nan, -inf, inf)."""
    n = len(values)
    if n == 0:
        return math.nan, -math.inf, math.inf
    mean = math.fsum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def deals_mean_ci(values: Sequence[float], halves: Sequence[float], perfect: bool = False,
                  bound: float = 3.0) -> tuple[float, float, float]:
    """(mean, low, high) of a value averaged over sampled deals, each deal's
    value an estimate with its own half-width (``halves``, aligned).

    The spread between deals (the 95% t-interval of ``mean_ci``) and each
    deal's own error (the mean half-width divided by the square root of the
    deals) are combined as independent errors; ``perfect``: only one deal is
    possible (the spread is then no error). One deal of several possible
    says nothing of the spread: the whole range. Held within +-``bound``
    (the levels a deal can give, RULES 8).

    >>> deals_mean_ci([1.0], [0.1])
    (1.0, -3.0, 3.0)
    >>> m, lo, hi = deals_mean_ci([1.0], [0.1], perfect=True)
    >>> m, round(lo, 3), round(hi, 3)
    (1.0, 0.9, 1.1)
    >>> m, lo, hi = deals_mean_ci([1.0, 1.0, 1.0, 1.0], [0.2] * 4)
    >>> m, round(lo, 3), round(hi, 3)
    (1.0, 0.9, 1.1)
    """
    k = len(values)
    if k == 0 or len(halves) != k:
        raise ValueError(f"deals_mean_ci: {k} values and {len(halves)} half-widths")
    mean, _lo, hi = mean_ci(values)
    spread = 0.0 if perfect else hi - mean
    own = sum(halves) / k / math.sqrt(k)
    half = math.sqrt(spread ** 2 + own ** 2)
    return mean, max(-bound, mean - half), min(bound, mean + half)


def share_ci(shares: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of a rate from units whose shares lie in [0, 1]
    (the deals of a duplicate pair won, say): the Wilson score 95% interval
    with the mean share as the rate and the units as the trials. A share in
    [0, 1] has a variance of at most p(1 - p), so this is never narrower
    than the binomial one, and unlike a t-interval it does not shrink to a
    point when every unit is won (20 pairs all won: 83.9% to 100%).

    >>> m, lo, hi = share_ci([1.0] * 20)
    >>> m, round(lo, 3), hi
    (1.0, 0.839, 1.0)
    """
    n = len(shares)
    if n == 0:
        return math.nan, 0.0, 1.0
    p = math.fsum(shares) / n
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)
