"""plays / beating_plays / hints: per-hand medians on seeded 27-card hands,
the array form, and the ratio against the pure-Python reference on 9-card
hands (the reference cannot enumerate 27-card hands)."""

import random

import numpy as np
from conftest import (describe, per_call_times, random_hands, ratio_against_reference, ref,
                      small_hands)

from guandan_fast import beating_plays, hints, plays, plays_array

HANDS = random_hands(11, 2000)
SMALL = small_hands(12, 60)
_rng = random.Random(13)
TABLES = []
for counts, rules in HANDS:
    other, _ = random_hands(_rng.randrange(10**9), 1)[0]
    cands = [p for p in plays(other, rules) if not p.is_bomb]
    TABLES.append(_rng.choice(cands))


def bench_plays_api(benchmark):
    t = per_call_times(lambda h: plays(h[0], h[1]), HANDS)
    benchmark.extra_info.update(describe(t))
    benchmark.extra_info["mean_plays"] = float(np.mean([len(plays(c, r)) for c, r in HANDS[:200]]))
    benchmark(lambda: [plays(c, r) for c, r in HANDS[:200]])


def bench_plays_array(benchmark):
    t = per_call_times(lambda h: plays_array(h[0], h[1]), HANDS)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [plays_array(c, r) for c, r in HANDS[:200]])


def bench_beating_plays(benchmark):
    items = list(zip(HANDS, TABLES))
    t = per_call_times(lambda it: beating_plays(it[0][0], it[1], it[0][1]), items)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [beating_plays(h[0], tb, h[1]) for h, tb in items[:200]])


def bench_hints_lead(benchmark):
    t = per_call_times(lambda h: hints(h[0], h[1]), HANDS[:500])
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [hints(c, r) for c, r in HANDS[:50]])


def bench_plays_vs_reference_9_cards(benchmark):
    """Same 9-card hands, one run: core and reference (caches cleared)."""
    ratio_against_reference(benchmark, lambda h: plays(h[0], h[1]),
                            lambda h: ref.plays(h[0], h[1].level), SMALL)
