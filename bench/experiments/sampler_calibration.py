"""How well the search's deals, drawn from a view, predict the true deal's
result: the uniform draw (``sample_deals``) against draws tempered toward
structured hands.

    python bench/experiments/sampler_calibration.py --seed 15 --views 3000 \\
        --deals 32 --variants uniform,b0,b1,b3 --steps 120
    python bench/experiments/sampler_calibration.py --gap b2 --steps 120

Views: every 5th decision with a choice of seeded policy deals
(``bench_rollout_search.policy_views``: ``deal_for(seed, i)``, the policy
in every seat), each with its true hands. At each view the first two candidates of the search
(``search.candidates``: the policy's move, then the next) are played by
the policy's rollouts on ``--deals`` deals drawn from the view, and on the
true deal (the truth: one rollout, the policy being deterministic). For
each variant, from the mover's team's side:

- bias: the mean of (the first candidate's value - its truth);
- value error: the mean squared (value - truth);
- difference error: the mean squared error of the two candidates'
  difference against the truth's (what a choice between moves depends on);
- each variant minus ``uniform`` on the same views (paired), and the
  minimum plays of the true hidden hands of 5-19 cards minus those of the
  drawn ones (every 4th view, its first 8 deals).

Under a sampler that knew the true posterior (the deal dealt uniformly,
then played by the policy), the bias would be 0 and both errors smallest.

``bBETA``: each uniform draw is moved by ``--steps`` proposals of a
Metropolis chain whose stationary law weighs a deal by
exp(-BETA * the summed minimum plays of the hidden hands): a proposal
swaps one physical card (not a known one) of a hidden hand with one of
another hidden hand, both chosen uniformly among the copies (a symmetric
proposal on card assignments), refused where a card is forbidden to its
new seat. Cards the uniform draw left out of play stay out. BETA = 0 is
the uniform draw. Not used by the package (docs/performance.md).

``--gap bBETA``: the review's single-dummy values of
``bench/bench_rollout_search.py gap`` (20 seeded deals, 200 playouts a
decision, deterministic) with every deal of the search (its module's
``sample_deals``) drawn so, the budget raised so that the slower draw
does not cut decisions short; ``--gap uniform`` is the same run with the
uniform draw. Printed: its JSON (the gap, and ``same_position_sum``: the
two teams' values of the same position summed, 0 for a consistent
evaluator).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench/

import numpy as np  # noqa: E402

import guandan_fast.bots.search as search_module  # noqa: E402
from bench_rollout_search import policy_views  # noqa: E402
from guandan_fast import _core  # noqa: E402
from guandan_fast.bots.policy import rollout_moves  # noqa: E402
from guandan_fast.bots.search import candidates  # noqa: E402
from guandan_fast.game.view import View, sample_deals  # noqa: E402
from guandan_fast.stats import mean_ci  # noqa: E402


def _copy(free: np.ndarray, rng: random.Random) -> int:
    """A card id chosen uniformly among the copies counted in ``free``."""
    k = rng.randrange(int(free.sum()))
    return int(np.searchsorted(np.cumsum(free), k, side="right"))


def tempered(view: View, deal, beta: float, steps: int, rng: random.Random,
             others: list, known: list) -> tuple:
    """``deal`` moved by ``steps`` proposals of the chain above; ``others``
    the hidden seats holding cards, ``known`` each seat's known counts."""
    d = [h.copy() for h in deal]
    if len(others) < 2:
        return tuple(d)
    lv, fl = view.rules.level_index, view.rules.flags
    mp = {s: _core._py_min_plays(d[s], lv, fl) for s in others}
    for _ in range(steps):
        a, b = rng.sample(others, 2)
        fa, fb = d[a] - known[a], d[b] - known[b]
        if not fa.any() or not fb.any():
            continue
        x, y = _copy(fa, rng), _copy(fb, rng)
        if x == y or x in view.forbidden[b] or y in view.forbidden[a]:
            continue
        d[a][x] -= 1
        d[a][y] += 1
        d[b][y] -= 1
        d[b][x] += 1
        na, nb = _core._py_min_plays(d[a], lv, fl), _core._py_min_plays(d[b], lv, fl)
        delta = na + nb - mp[a] - mp[b]
        if delta <= 0 or rng.random() < math.exp(-beta * delta):
            mp[a], mp[b] = na, nb
        else:
            d[a][x] += 1
            d[a][y] -= 1
            d[b][y] += 1
            d[b][x] -= 1
    return tuple(d)


def draw(view: View, variant: str, n: int, seed: int, steps: int) -> list:
    deals = sample_deals(view, n, seed=seed)
    if variant == "uniform":
        return deals
    beta = float(variant[1:])
    rng = random.Random(seed * 31 + 7)
    others = [s for s in range(4) if s != view.seat and view.counts[s] > 0]
    known = [np.zeros(54, dtype=np.uint8) for _ in range(4)]
    for s in range(4):
        for c in view.known[s]:
            known[s][c.id] += 1
    return [tempered(view, d, beta, steps, rng, others, known) for d in deals]


def review_gap(variant: str, steps: int) -> dict:
    """``bench_rollout_search.gap`` with the search's deals drawn by ``variant``."""
    import bench_rollout_search as brs
    if variant != "uniform":
        def tempered_deals(view, n, seed=0, unseen=None):
            return draw(view, variant, n, seed, steps)
        search_module.sample_deals = tempered_deals    # type: ignore[assignment]
    real = brs.analyse

    def analyse(*a, **k):
        k["budget"] = 60.0
        return real(*a, **k)
    real_moves = brs.evaluate_moves

    def evaluate_moves(*a, **k):
        k["max_seconds"] = 60.0
        return real_moves(*a, **k)
    brs.analyse, brs.evaluate_moves = analyse, evaluate_moves
    return brs.gap(argparse.Namespace(deals=20, seed=1, playouts=200, stop=0.0))


def _valid(variant: str) -> bool:
    """'uniform' or b followed by a number >= 0."""
    if variant == "uniform":
        return True
    try:
        return variant.startswith("b") and float(variant[1:]) >= 0
    except ValueError:
        return False


def _fmt(m) -> str:
    return f"{m[0]:+.3f} [{m[1]:+.3f}, {m[2]:+.3f}]"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--views", type=int, default=3000)
    ap.add_argument("--deals", type=int, default=32)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--variants", default="uniform,b1,b3")
    ap.add_argument("--gap", help="the review's gap with this variant (uniform or bBETA)")
    a = ap.parse_args(argv)
    if a.gap is not None:
        if not _valid(a.gap):
            ap.error("--gap: 'uniform' or bBETA (for example b2)")
        print(json.dumps(review_gap(a.gap, a.steps), indent=1))
        return
    variants = a.variants.split(",")
    if variants[0] != "uniform" or not all(_valid(v) for v in variants):
        ap.error("--variants: 'uniform' first, then bBETA (for example b1)")
    t0 = time.perf_counter()
    rows = []
    short: dict = {v: [] for v in variants}      # true hidden hand's min plays - drawn (5-19 cards)
    for n, (v, true) in enumerate(policy_views(a.seed, a.views, 5, hands=True)):
        c = candidates(v)[:2]
        row = {"truth": rollout_moves(v, [true], c)[1][:, 0].astype(float)}
        lv, fl = v.rules.level_index, v.rules.flags
        for var in variants:
            deals = draw(v, var, a.deals, n + 100_000 * a.seed, a.steps)
            row[var] = rollout_moves(v, deals, c)[1].astype(float).mean(axis=1)
            if n % 4 == 0:
                for s in range(4):
                    if s != v.seat and 5 <= v.counts[s] < 20:
                        drawn = np.mean([_core._py_min_plays(d[s], lv, fl) for d in deals[:8]])
                        short[var].append(_core._py_min_plays(true[s], lv, fl) - drawn)
        rows.append(row)
    print(f"{len(rows)} views, {a.deals} deals each, seed {a.seed}, "
          f"{time.perf_counter() - t0:.0f} s")
    err = {var: [r[var][0] - r["truth"][0] for r in rows] for var in variants}
    derr = {var: [(r[var][0] - r[var][1]) - (r["truth"][0] - r["truth"][1]) for r in rows]
            for var in variants}
    for var in variants:
        print(f"{var:>8}: bias {_fmt(mean_ci(err[var]))}, "
              f"value error {_fmt(mean_ci([e * e for e in err[var]]))}, "
              f"difference error {_fmt(mean_ci([e * e for e in derr[var]]))}, "
              f"true minus drawn minimum plays (5-19 cards) {_fmt(mean_ci(short[var]))}")
    base = variants[0]
    for var in variants[1:]:
        dv = [x * x - y * y for x, y in zip(err[var], err[base])]
        dd = [x * x - y * y for x, y in zip(derr[var], derr[base])]
        print(f"{var:>8} - {base}: value error {_fmt(mean_ci(dv))}, "
              f"difference error {_fmt(mean_ci(dd))}")


if __name__ == "__main__":
    main()
