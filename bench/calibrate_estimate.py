"""Measure the interval rule of the estimator (engine/estimate.py, BIAS).

On the calibration sets (bench/data/calib*.json: seeded decisive endgames,
seeds disjoint from the benchmark's), at several budgets, every move the
estimate does not prove gives an error: its exact value minus its estimated
mean. The rule's half-width is the smallest w such that at least 90% of
those errors satisfy |error| <= w once the interval is clipped to the move's
proven bounds (the clipping is part of the rule); this prints, per budget
and pooled, the error quantiles and that w.

    python bench/calibrate_estimate.py [--budgets 0.1,0.5,2] [--sets calib6,calib7,calib7s,calib8]

It ends with the table of half-widths fitted on all the errors pooled (by
the move's samples and the confidence level, each the smallest tenth of a
level that holds at least that share), in the form of WIDTH in
engine/estimate.py, and the coverage that table and the shipped one give
on each set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from estimate_positions import positions  # noqa: E402

from guandan_fast import estimate  # noqa: E402
from guandan_fast.engine import estimate as est_mod  # noqa: E402


def key(play):
    return None if play is None else tuple(play.pattern)


def errors(sets, budget, seed=0):
    """[(exact - mean, samples, exact value, mean, score, bounds, set name)]
    of the unproven moves."""
    out = []
    for name in sets:
        for pos, vals, _ in positions(name):
            e = estimate(pos, max_seconds=budget, seed=seed)
            for m in e.moves:
                if m.exact:
                    continue
                v = vals[key(m.move)]
                out.append((v - m.mean, m.samples, v, m.mean, m.score, m.bounds, name))
    return out


BINS = tuple(at for at, _ in est_mod.WIDTH)
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99)


def fitted_table(errs):
    """The half-widths by samples bin and level: smallest_w of the bin's
    errors, rounded up to a tenth of a level."""
    table = []
    for k, at in enumerate(BINS):
        top = BINS[k + 1] if k + 1 < len(BINS) else float("inf")
        sel = [e for e in errs if at <= e[1] < top]
        table.append((at, {c: float(np.ceil(smallest_w(sel, c) * 10 - 1e-6) / 10) if sel
                           else 6.0 for c in LEVELS}))
    return tuple(table)


def covered(errs, w, z_part=None):
    """Share of moves inside mean +- w (clipped to the proven bounds, which
    always hold the exact value, so clipping never loses coverage)."""
    return float(np.mean([abs(e[0]) <= w + 1e-9 for e in errs]))


def rule_coverage(errs, confidence, table=est_mod.WIDTH):
    """Share of moves inside mean +- the half-width of `table` (the shipped
    WIDTH by default)."""
    return float(np.mean([abs(e[0]) <= est_mod._width(e[1], confidence, table) + 1e-9
                          for e in errs]))


def smallest_w(errs, target=0.9):
    ws = sorted(abs(e[0]) for e in errs)
    k = int(np.ceil(target * len(ws))) - 1
    return ws[max(0, k)]


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="0.1,0.5,2")
    ap.add_argument("--sets", default="calib6,calib7,calib7s,calib8")
    a = ap.parse_args()
    pooled = []
    sets = a.sets.split(",")
    for b in [float(x) for x in a.budgets.split(",")]:
        errs = errors(sets, b)
        pooled += errs
        ab = np.abs([e[0] for e in errs])
        print(f"budget {b:g} s: {len(errs)} unproven moves; |error| quantiles "
              f"50% {np.percentile(ab, 50):.2f} 80% {np.percentile(ab, 80):.2f} "
              f"90% {np.percentile(ab, 90):.2f} 95% {np.percentile(ab, 95):.2f}; "
              f"w for 90%: {smallest_w(errs):.2f}; the rule's 90% intervals hold "
              f"{rule_coverage(errs, 0.9):.1%}", flush=True)
    print(f"pooled: {len(pooled)} moves, w for 90%: {smallest_w(pooled):.2f}")
    fit = fitted_table(pooled)
    print("fitted WIDTH (samples >=, {confidence: half-width}):")
    for at, row in fit:
        print(f"    ({at}, {{{', '.join(f'{c:g}: {w:.1f}' for c, w in row.items())}}}),")
    for name in sets:
        sub = [e for e in pooled if e[6] == name]
        if sub:
            print(f"{name}: {len(sub)} moves; 90% intervals hold {rule_coverage(sub, 0.9, fit):.1%} "
                  f"with the fitted table, {rule_coverage(sub, 0.9):.1%} with the shipped one")
    for lo_n, hi_n in ((0, 100), (100, 1000), (1000, 10 ** 9)):
        sel = [e for e in pooled if lo_n <= e[1] < hi_n]
        if sel:
            ab = np.abs([e[0] for e in sel])
            sm = np.abs([e[2] - e[4] for e in sel if e[4] is not None])
            print(f"  samples {lo_n}..{hi_n}: {len(sel)} moves, |error| 50% {np.percentile(ab, 50):.2f}"
                  f" 90% {np.percentile(ab, 90):.2f}; of the score 50% {np.percentile(sm, 50):.2f}"
                  f" 90% {np.percentile(sm, 90):.2f}")
