"""How good are the rollout search's choices, in its own evaluator's terms?

    python bench/experiments/search_regret.py --seed 9 --views 200 --ref 500 \\
        --variants cap=8,cap=16,halving=4,halving=8

Views: every 4th decision with a choice of seeded policy deals
(``deal_for(seed, i)``, the policy in every seat). At each view the shipped
search (``evaluate_moves`` at ``--seconds``, the view's own seed) and each
variant choose a move; the moves chosen are then valued on ``--ref`` fresh
deals drawn from the view (the same deals for each, paired): the policy's
rollouts after the move, the mover's team's levels. Printed per variant:
the mean over the views of (its choice's value minus the shipped choice's)
with a 95% t-interval, and the views where the two differ. The values are
those of the policy world (everyone plays the house policy after the move),
what the search maximises; they say nothing of the public bots.

Variants (none of them in the package):

- ``policy``: the policy's own move (no search);
- ``seconds=S``: the shipped search with another budget;
- ``margin=Z``: the shipped search with another margin (``_pick``'s z);
- ``threads=N``: the shipped search with its rollouts on N threads (run
  it alone on the machine: it needs the cores);
- ``cap=K``: only the first K candidates of the policy's order, the rest
  of the time as more deals for them;
- ``halving=N``: successive halving: every candidate on N deals, then
  rounds of fresh deals each as many rollouts as the first, each round
  for the policy's move and the better half (by mean) of the others of the
  round before, down to one; the choice among the last round's moves by
  the margin rule on the deals each had;
- ``race``: racing rounds: fresh deals doubling each round for
  the policy's move, the best and the candidates within 2 standard errors
  of it, at most 8 or half of the round's;
- ``distilled``: the shipped search with the distilled policy's move as
  its row 0 (the prior of the margin rule).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench/

import numpy as np  # noqa: E402

from bench_rollout_search import policy_views  # noqa: E402
from guandan_fast.bots import search as S  # noqa: E402
from guandan_fast.bots.distilled import DistilledBot  # noqa: E402
from guandan_fast.bots.policy import PolicyBot, rollout_moves  # noqa: E402
from guandan_fast.game.view import View, sample_deals  # noqa: E402
from guandan_fast.stats import mean_ci  # noqa: E402

POLICY = PolicyBot()


def _pick_ragged(per: dict, last: list) -> int:
    """The margin rule over the moves of the last round, each on its own deals."""
    base = np.concatenate(per[0]).astype(float)
    best, best_low = 0, 0.0
    for i in last:
        vi = np.concatenate(per[i]).astype(float)
        if i == 0 or len(vi) < 2:
            continue
        d = vi - base[:len(vi)]
        low = d.mean() - S.MARGIN * d.std(ddof=1) / np.sqrt(len(d))
        if low > best_low:
            best, best_low = i, low
    return best


class _Clock:
    """A decision's time: the rollouts so far and their seconds, what
    fits before ``end`` at that speed, and the rounds of fresh deals."""

    def __init__(self, view: View, cands: list, start: float, seconds: float, seed: int):
        self.view, self.cands, self.seed = view, cands, seed
        self.end = (start + seconds - S.FINISH_SECONDS
                    - S.FINISH_SECONDS_PER_MOVE * len(cands))
        self.spent, self.done, self.rnd = 0.0, 0, 0

    def fits(self, c: int, want: int) -> int:
        """Units of ``c`` rollouts that fit, at most ``want`` (all before
        the first call)."""
        left = self.end - time.perf_counter()
        if left < 0.002:
            return 0
        return min(want, int(left / (self.spent / self.done) / c)) if self.done else want

    def run(self, deals, idx: list, per: dict) -> None:
        """Candidates ``idx`` on ``deals``, their results appended to ``per``."""
        t0 = time.perf_counter()
        res = rollout_moves(self.view, deals, [self.cands[i] for i in idx])[1]
        self.spent += time.perf_counter() - t0
        self.done += len(deals) * len(idx)
        for j, i in enumerate(idx):
            per.setdefault(i, []).append(res[j])

    def first_round(self, n: int, per: dict) -> int:
        """The shipped first round: the candidates in order on ``n`` deals
        drawn with the seed, two, then up to 16 a call, while the time
        holds; the number of deals."""
        deals = sample_deals(self.view, n, seed=self.seed)
        m = len(self.cands)
        while len(per) < m:
            w = len(per)
            chunk = self.fits(len(deals), min(m - w, 16 if self.done else 2))
            if chunk < 1:
                break
            self.run(deals, list(range(w, w + chunk)), per)
        return len(deals)

    def more(self, k: int, idx: list, per: dict) -> None:
        """A round of ``k`` fresh deals for candidates ``idx``."""
        self.rnd += 1
        self.run(sample_deals(self.view, k, seed=(self.seed * 7919 + self.rnd) & 0x7FFFFFFF),
                 idx, per)


def allocate(view: View, seconds: float, seed: int, cap: int = 0, first: int = 0):
    """``cap`` (first candidates only) or ``first`` (successive halving from
    that many deals), else the shipped allocation's shape."""
    start = time.perf_counter()         # the clock starts before the candidates, as shipped
    cands = S.candidates(view)
    if cap:
        cands = cands[:cap]
    m = len(cands)
    clock = _Clock(view, cands, start, seconds, seed)
    per: dict = {}
    n = clock.first_round(first or S.DEFAULT_SAMPLES, per)
    width = len(per)
    last = list(range(width))
    round_cost = width * n
    while width == m:
        if first and len(last) > 2:
            means = {i: np.concatenate(per[i]).mean() for i in last}
            others = sorted((i for i in last if i), key=lambda i: -means[i])
            last = [0] + others[:max(1, (len(last) - 1) // 2)]
        want = max(S.DEFAULT_SAMPLES, round_cost // len(last)) if first else S.DEFAULT_SAMPLES
        k = clock.fits(len(last), want)
        if k < 1:
            break
        clock.more(k, last, per)
    return cands[0] if width < 2 else cands[_pick_ragged(per, last)]


def race(view: View, seconds: float, seed: int, z: float = 2.0, keep: int = 8):
    """Racing rounds: the shipped first round (every candidate on the first
    deals, widened while the time holds), then rounds of fresh deals, each
    as many as all before it, for the policy's move, the best mean and the
    candidates within ``z`` standard errors of it (paired), at most
    ``keep`` or half of the round's (the best means); the choice by the
    margin rule on the deals each had (``_pick_ragged``)."""
    start = time.perf_counter()
    cands = S.candidates(view)
    m = len(cands)
    clock = _Clock(view, cands, start, seconds, seed)
    per: dict = {}
    clock.first_round(S.DEFAULT_SAMPLES, per)
    live = list(range(len(per)))
    while len(per) == m:
        vals = {i: np.concatenate(per[i]).astype(float) for i in live}
        means = {i: vals[i].mean() for i in live}
        top = max(live, key=lambda i: means[i])
        close = []
        for i in live[1:]:
            d = vals[i] - vals[top]
            if i == top or d.mean() + z * d.std(ddof=1) / np.sqrt(len(d)) >= 0:
                close.append(i)
        close = close or [max(live[1:], key=lambda i: means[i])]
        cap = max(keep, (len(live) + 1) // 2)
        live = [0] + sorted(sorted(close, key=lambda i: -means[i])[:cap - 1])
        want = sum(len(x) for x in per[0])
        k = clock.fits(len(live), want)
        if k < 1:
            break
        clock.more(k, live, per)
        if k < want:
            break
    return cands[0] if len(per) < 2 else cands[_pick_ragged(per, list(per))]


def prior(view: View, seconds: float, seed: int):
    """The shipped search with the distilled policy's move (docs/distilled.md)
    as its row 0 (the prior the margin rule measures against)."""
    first = DistilledBot().choose(view)      # the shipped model, loaded once
    shipped = S._candidates

    def cands(v, order):
        out = shipped(v, order)
        return out if out[0] == first else [first] + [p for p in out if p != first]

    S._candidates = cands
    try:
        return S.evaluate_moves(view, max_seconds=seconds, seed=seed)[0].move
    finally:
        S._candidates = shipped


def choose(view: View, variant: str, seconds: float, seed: int):
    name, _, arg = variant.partition("=")
    if name == "shipped":
        return S.evaluate_moves(view, max_seconds=seconds, seed=seed)[0].move
    if name == "policy":
        return POLICY.choose(view)
    if name == "seconds":
        return S.evaluate_moves(view, max_seconds=float(arg), seed=seed)[0].move
    if name == "threads":
        return S.evaluate_moves(view, max_seconds=seconds, seed=seed, threads=int(arg))[0].move
    if name == "margin":
        pick = S._pick
        S._pick = lambda values, z=float(arg): pick(values, z)
        try:
            return S.evaluate_moves(view, max_seconds=seconds, seed=seed)[0].move
        finally:
            S._pick = pick
    if name == "cap":
        return allocate(view, seconds, seed, cap=int(arg))
    if name == "halving":
        return allocate(view, seconds, seed, first=int(arg))
    if name == "race":
        return race(view, seconds, seed)
    if name == "distilled":
        return prior(view, seconds, seed)
    raise ValueError(f"unknown variant {variant!r}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--views", type=int, default=200)
    ap.add_argument("--ref", type=int, default=500, help="fresh deals valuing the choices")
    ap.add_argument("--seconds", type=float, default=0.2)
    ap.add_argument("--variants", default="policy,cap=16,halving=8")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    for var in variants:
        name, _, arg = var.partition("=")
        try:
            ok = (name in ("policy", "race", "distilled") and not arg) or (
                name == "seconds" and float(arg) > 0) or (
                name == "margin" and float(arg) >= 0) or (
                name in ("cap", "halving", "threads") and int(arg) >= 1)
        except ValueError:
            ok = False
        if not ok:
            ap.error(f"--variants: {var!r}: use policy, seconds=S, margin=Z, "
                     "threads=N, cap=K, halving=N, race or distilled")
    diffs: dict = {v: [] for v in variants}
    for k, v in enumerate(policy_views(args.seed, args.views, 4)):
        chosen = {var: choose(v, var, args.seconds, k + 1) for var in ["shipped"] + variants}
        moves = list(dict.fromkeys(chosen.values()))
        value = {moves[0]: 0.0}
        if len(moves) > 1:
            deals = sample_deals(v, args.ref, seed=10 ** 6 + k)
            value = dict(zip(moves, rollout_moves(v, deals, moves)[1].astype(float)
                             .mean(axis=1)))
        for var in variants:
            diffs[var].append(value[chosen[var]] - value[chosen["shipped"]])
    print(f"seed {args.seed}, {args.views} views, {args.ref} deals, {args.seconds} s")
    for var, d in diffs.items():
        mean, low, high = mean_ci(d)
        print(f"{var:<14} {mean:+.4f} [{low:+.4f}, {high:+.4f}]  "
              f"differs in {sum(x != 0 for x in d)} views")
    return 0


if __name__ == "__main__":
    sys.exit(main())
