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

__all__ = ["mean_ci", "t95"]

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
    z = 1.959963984540054
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
