"""Seeded workloads shared by the benchmarks."""

import os

# numpy's BLAS threads spin after a call and would take a core from the
# search (the two-thread endgame benchmarks); nothing here needs them
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import random  # noqa: E402
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import reference as ref  # noqa: E402

from guandan_fast import Rules  # noqa: E402

RANKS = "23456789TJQKA"


def random_hands(seed, n_hands, n_cards=27):
    """(counts, rules) pairs: seeded random hands at random levels."""
    rng = random.Random(seed)
    deck = list(range(54)) * 2
    out = []
    for _ in range(n_hands):
        counts = np.zeros(54, dtype=np.uint8)
        for slot in rng.sample(deck, n_cards):
            counts[slot] += 1
        out.append((counts, Rules(level=rng.choice(RANKS))))
    return out


def hard_hands(seed, n_hands):
    """27-card hands chosen to be hard: both wilds and long runs."""
    rng = random.Random(seed)
    out = []
    for _ in range(n_hands):
        level = rng.choice(RANKS)
        counts = np.zeros(54, dtype=np.uint8)
        counts[13 + RANKS.index(level)] = 2
        n = 2
        start = rng.randrange(0, 6)
        for r in range(start, start + 8):            # two copies of a long run
            for _ in range(2):
                s = rng.randrange(4)
                slot = s * 13 + (r % 13)
                if counts[slot] < 2 and slot != 13 + RANKS.index(level):
                    counts[slot] += 1
                    n += 1
        deck = [i for i in range(54) for _ in range(2)]
        rng.shuffle(deck)
        for slot in deck:
            if n == 27:
                break
            if counts[slot] < 2 and slot != 13 + RANKS.index(level):
                counts[slot] += 1
                n += 1
        out.append((counts, Rules(level=level)))
    return out


def small_hands(seed, n_hands, n_cards=9):
    """Token hands small enough for the pure-Python reference."""
    rng = random.Random(seed)
    out = []
    for _ in range(n_hands):
        level = rng.choice(RANKS)
        out.append((ref.random_hand(rng, n_cards, level), Rules(level=level)))
    return out


def per_call_times(fn, items):
    """Seconds per call, one timing per item."""
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t)
    return np.array(times)


def describe(times):
    return {"median_us": float(np.median(times) * 1e6),
            "p99_us": float(np.percentile(times, 99) * 1e6),
            "max_us": float(times.max() * 1e6)}


def median_ci(values, confidence=0.95):
    """(median, low, high): the sample median and its distribution-free
    interval from order statistics (the ranks whose binomial(n, 1/2) tails
    leave at most (1 - confidence) / 2 each side; the whole range for tiny n)."""
    from math import comb
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    alpha = (1 - confidence) / 2
    k, tail = 0, 0.5 ** n            # P(B <= k), B ~ binomial(n, 1/2)
    while k + 1 < n and tail + comb(n, k + 1) * 0.5 ** n <= alpha:
        k += 1
        tail += comb(n, k) * 0.5 ** n
    # [x_(k+1), x_(n-k)] (1-based) covers the median with probability >= 1 - 2 P(B <= k)
    if tail > alpha:
        return float(np.median(x)), float(x[0]), float(x[-1])
    return float(np.median(x)), float(x[k]), float(x[n - 1 - k])


def wilson(successes, n, z=1.959963984540054):
    """(share, low, high): a proportion and its 95% Wilson score interval."""
    if n == 0:
        return float("nan"), 0.0, 1.0
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return float(p), float(max(0.0, c - h)), float(min(1.0, c + h))


def ratio_against_reference(benchmark, core_fn, ref_fn, items):
    """Time the core and the reference on the same items in one run (the
    reference's caches cleared before each call) and record the ratio."""
    core = per_call_times(core_fn, items)

    def ref_call(item):
        ref._classify_sorted.cache_clear()
        ref_fn(item)
    slow = per_call_times(ref_call, items)
    benchmark.extra_info.update({"core_median_us": float(np.median(core) * 1e6),
                                 "reference_median_us": float(np.median(slow) * 1e6),
                                 "ratio": float(np.median(slow) / np.median(core))})
    benchmark(lambda: [core_fn(item) for item in items])
