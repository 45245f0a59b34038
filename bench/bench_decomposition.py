"""min_plays: 10,000 seeded 27-card hands (median, p99, max per hand), hard
hands (two wilds, long runs), the batch form, decompose, and the ratio
against the brute-force reference on 9-card hands."""

import numpy as np
from conftest import (describe, hard_hands, per_call_times, random_hands, ratio_against_reference,
                      ref, small_hands)

from guandan_fast import decompose, min_plays, min_plays_batch

HANDS = random_hands(21, 10000)
HARD = hard_hands(22, 2000)
SMALL = small_hands(23, 40)


def bench_min_plays_27(benchmark):
    t = per_call_times(lambda h: min_plays(h[0], h[1]), HANDS)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [min_plays(c, r) for c, r in HANDS[:500]])


def bench_min_plays_hard_27(benchmark):
    t = per_call_times(lambda h: min_plays(h[0], h[1]), HARD)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [min_plays(c, r) for c, r in HARD[:500]])


def bench_min_plays_batch(benchmark):
    counts = np.stack([c for c, _ in HANDS])
    levels = np.array([r.level_index + 2 for _, r in HANDS])     # levels by number, 2..14
    result = benchmark(min_plays_batch, counts, levels)
    benchmark.extra_info["per_hand_us"] = benchmark.stats.stats.median / len(HANDS) * 1e6
    assert len(result) == len(HANDS)


def bench_decompose_27(benchmark):
    t = per_call_times(lambda h: decompose(h[0], h[1]), HANDS[:300])
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [decompose(c, r) for c, r in HANDS[:20]])


def bench_min_plays_vs_reference_9_cards(benchmark):
    """Same 9-card hands, one run: core and reference (caches cleared)."""
    ratio_against_reference(benchmark, lambda h: min_plays(h[0], h[1]),
                            lambda h: ref.min_plays(h[0], h[1].level), SMALL)
