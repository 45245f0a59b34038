"""Double-dummy endgame solver: seeded random endgames of 4x4, 4x6 and 4x8
cards (free lead, random level and seat to act) and of 2 hands of 10 cards
with the other two seats finished. Each position is solved in full (value,
every root move's value, principal variation); the extra info holds the
median and maximum solve time, nodes per second and how many positions hit
the per-position cap (then counted at the cap).

Run: python -m pytest bench/bench_endgame.py
(ENDGAME_CAP=seconds changes the per-position cap, default 30.) The
*_two_threads variants pass threads=2 (root moves shared out between two
threads over one table).
"""

import os
import random

import numpy as np

from guandan_fast import Position, Rules, solve
from guandan_fast._core import TOKENS

RANKS = "23456789TJQKA"
CAP = float(os.environ.get("ENDGAME_CAP", "30"))


def endgames(seed, n, cards, two_finished=False):
    """n seeded random positions: `cards` cards in each hand still in."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = [t for t in TOKENS for _ in range(2)]
        rng.shuffle(deck)
        rules = Rules(level=rng.choice(RANKS))
        if two_finished:
            a = rng.randrange(4)
            b = rng.choice([s for s in range(4) if s % 2 != a % 2])
            finished = [a, b]
            rng.shuffle(finished)
            hands = [[] if s in finished else [deck.pop() for _ in range(cards)]
                     for s in range(4)]
            turn = rng.choice([s for s in range(4) if hands[s]])
            out.append(Position(hands, rules, turn=turn, finished=finished))
        else:
            hands = [[deck.pop() for _ in range(cards)] for _ in range(4)]
            out.append(Position(hands, rules, turn=rng.randrange(4)))
    return out


def run_suite(benchmark, positions, all_moves=True, threads=1):
    times, nodes, capped = [], [], 0
    for pos in positions:
        r = solve(pos, max_seconds=CAP, all_moves=all_moves, threads=threads)
        times.append(r.seconds)
        nodes.append(r.nodes)
        capped += not r.exact
    t = np.array(times)
    benchmark.extra_info.update({
        "positions": len(positions),
        "median_ms": float(np.median(t) * 1e3),
        "max_ms": float(t.max() * 1e3),
        "nodes_per_second": float(sum(nodes) / t.sum()),
        "median_nodes": float(np.median(nodes)),
        "capped": capped,
        "threads": threads,
    })
    # the timed call: the position of median difficulty, solved once per round
    mid = positions[int(np.argsort(t)[len(t) // 2])]
    benchmark.pedantic(solve, args=(mid,), kwargs={"max_seconds": CAP, "all_moves": all_moves,
                                                    "threads": threads},
                       rounds=3, iterations=1)


def bench_endgame_4x4(benchmark):
    run_suite(benchmark, endgames(404, 40, 4))


def bench_endgame_4x6(benchmark):
    run_suite(benchmark, endgames(606, 30, 6))


def bench_endgame_4x8(benchmark):
    run_suite(benchmark, endgames(808, 10, 8))


def bench_endgame_4x6_two_threads(benchmark):
    run_suite(benchmark, endgames(606, 30, 6), threads=2)


def bench_endgame_4x8_two_threads(benchmark):
    run_suite(benchmark, endgames(808, 10, 8), threads=2)


def bench_endgame_2x10(benchmark):
    run_suite(benchmark, endgames(1010, 20, 10, two_finished=True))


def bench_endgame_4x8_value_only(benchmark):
    """The 4x8 positions, value and one best move only (all_moves=False)."""
    run_suite(benchmark, endgames(808, 10, 8), all_moves=False)


def bench_endgame_vs_reference_4x4(benchmark):
    """The same 4 x 4 positions (free lead) solved by the compiled solver and
    by the pure-Python reference (tests/reference_endgame.py), in one run."""
    import time

    import reference_endgame as ref_eg

    positions = endgames(71, 30, 4)
    core, slow = [], []
    for pos in positions:
        t = time.perf_counter()
        solve(pos)
        core.append(time.perf_counter() - t)
        hands = [[str(c) for c in h] for h in pos.hands]
        t = time.perf_counter()
        ref_eg.solve(hands, pos.rules.level, turn=pos.turn, finished=tuple(pos.finished))
        slow.append(time.perf_counter() - t)
    benchmark.extra_info.update({
        "core_median_ms": float(np.median(core) * 1e3),
        "reference_median_ms": float(np.median(slow) * 1e3),
        "ratio": float(np.median(slow) / np.median(core))})
    benchmark(lambda: [solve(p) for p in positions[:10]])
