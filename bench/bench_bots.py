"""The sampler, suggest's timing against its budget, and suggest's first move
against estimate on perfect-information views.

Run: ``python -m pytest bench/bench_bots.py -c bench/pytest.ini`` (add
``-k sample`` for the sampler alone, ``-k within_budget -s`` for suggest's
timing alone, which prints one line per budget). Views come from seeded
greedy deals: the opening lead (27-card hands), then decisions 8 and 40 of
each deal; the tribute views carry a seeded exchange (known and forbidden
cards). suggest's timing runs on ``BUDGET_VIEWS``: 60 views in four strata
of 15, fixed before any timing (see ``budget_views``).
"""

import gc
import importlib.util
import time

import numpy as np
import pytest
from conftest import describe, median_ci, per_call_times, wilson

from guandan_fast import GreedyBot, Rules, View, sample_deals, suggest
from guandan_fast.bots.match import deal_for
from guandan_fast.game.state import GameState
from guandan_fast.game.tribute import return_candidates, tribute_candidates, tribute_plan

HAVE_ESTIMATE = importlib.util.find_spec("guandan_fast.engine.estimate") is not None
needs_estimate = pytest.mark.skipif(not HAVE_ESTIMATE, reason="no estimator")


def _deal_start(seed, unit, exchange):
    """A seeded deal's start (hands after a seeded tribute exchange when
    ``exchange``), with its tributes and returns."""
    hands, level, leader = deal_for(seed, unit)
    rules = Rules(level=level)
    tributes, returns = [], []
    if exchange:
        plan = tribute_plan([0, 2, 1, 3] if unit % 2 else [1, 0, 2, 3], hands, rules)
        if not plan.anti_tribute:
            hands = [list(h) for h in hands]
            for payer, receiver in plan.payments:
                card = tribute_candidates(hands[payer], rules)[0]
                hands[payer].remove(card)
                hands[receiver].append(card)
                tributes.append((payer, receiver, card))
            for payer, receiver, _ in list(tributes):
                card = return_candidates(hands[receiver], rules)[0]
                hands[receiver].remove(card)
                hands[payer].append(card)
                returns.append((receiver, payer, card))
            leader = plan.leader
    return GameState.start(hands, rules, leader), tributes, returns


def budget_views(per_stratum=15):
    """suggest's timing views, four strata of ``per_stratum`` seeded greedy
    deals, each view the first decision of its deal meeting the stratum's
    rule with at least two legal moves (a forced move answers at once and is
    excluded): openings (decision 0: a 27-card hand, 108 cards in play;
    seed 51), mid-deal (from decision 16 on; the same deals), late (from the
    first decision with at most 36 cards in play, where the estimator's exact
    phase and root proofs run; the same deals) and tribute (a seeded
    exchange, known and forbidden cards; seed 52; from decision 0 in even
    deals, 12 in odd ones). Returns [(stratum, view)]."""
    def first(s, tributes, returns, rule):
        history, k = [], 0
        while not s.over:
            v = View.from_state(s, history=history, tributes=tributes, returns=returns)
            if rule(k, v) and len(v.legal_actions()) > 1:
                return v
            a = GreedyBot().choose(v)
            history.append((s.turn, a))
            s = s.apply(a)
            k += 1
        return None
    rules = {"opening": lambda k, v: k == 0, "mid": lambda k, v: k >= 16,
             "late": lambda k, v: sum(v.counts) <= 36}
    out = []
    for name, rule in rules.items():
        got, unit = 0, 0
        while got < per_stratum:
            v = first(*_deal_start(51, unit, False), rule)
            unit += 1
            if v is not None:
                out.append((name, v))
                got += 1
    got, unit = 0, 0
    while got < per_stratum:
        at = 0 if unit % 2 == 0 else 12
        v = first(*_deal_start(52, unit, True), lambda k, v: k >= at)
        unit += 1
        if v is not None:
            out.append(("tribute", v))
            got += 1
    return out


def greedy_views(seed, deals, at=(0, 8, 40), exchange=False, reveal=False):
    """Views of the seat to act at the given decisions of seeded greedy deals."""
    out = []
    for unit in range(deals):
        s, tributes, returns = _deal_start(seed, unit, exchange)
        history = []
        k = 0
        while not s.over and k <= max(at):
            v = View.from_state(s, history=history, tributes=tributes, returns=returns)
            if k in at:
                out.append(View.from_state(s, history=history, tributes=tributes,
                                           returns=returns, reveal=reveal) if reveal else v)
            a = GreedyBot().choose(v)
            history.append((s.turn, a))
            s = s.apply(a)
            k += 1
    return out


PLAIN = greedy_views(31, 20)
EXCHANGE = greedy_views(32, 20, exchange=True)


def bench_sample_deals_100(benchmark):
    t = per_call_times(lambda v: sample_deals(v, 100, seed=1), PLAIN)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [sample_deals(v, 100, seed=2) for v in PLAIN[:10]])


def bench_sample_deals_100_with_exchange(benchmark):
    t = per_call_times(lambda v: sample_deals(v, 100, seed=1), EXCHANGE)
    benchmark.extra_info.update(describe(t))
    benchmark(lambda: [sample_deals(v, 100, seed=2) for v in EXCHANGE[:10]])


BUDGET_VIEWS = budget_views()


def _budget_run(views, budget):
    """suggest's wall time / budget on each view (seed: the view's index),
    a check that each answer lists every legal move once, and the views
    during which the process ran a full (generation 2) garbage collection
    (a pause of the caller's heap, outside suggest's control)."""
    ratios, full_gc = [], []
    collected = []

    def seen(phase, info):
        if phase == "stop" and info["generation"] == 2:
            collected.append(1)
    gc.callbacks.append(seen)
    try:
        for i, (_, v) in enumerate(views):
            collected.clear()
            t0 = time.perf_counter()
            out = suggest(v, max_seconds=budget, seed=i)
            ratios.append((time.perf_counter() - t0) / budget)
            full_gc.append(bool(collected))
            assert len(out) == len(v.legal_actions())
    finally:
        gc.callbacks.remove(seen)
    return np.array(ratios), np.array(full_gc)


def budget_summary(ratios, strata, full_gc):
    """The figures of one budget: the median ratio with its 95% order-statistic
    interval, the range, and the share within 0.9..1.1 (Wilson 95%), in all
    and per stratum; the views outside it, and those hit by a full
    garbage collection."""
    def one(r):
        m, lo, hi = median_ci(r)
        k = int(np.sum(np.abs(r - 1) <= 0.10 + 1e-12))
        share, slo, shi = wilson(k, r.size)
        return {"views": int(r.size), "ratio_median": m, "median_ci": [lo, hi],
                "ratio_min": float(r.min()), "ratio_max": float(r.max()),
                "within": k, "within_share": share, "within_ci": [slo, shi],
                "over": int(np.sum(r > 1.1 + 1e-12)), "under": int(np.sum(r < 0.9 - 1e-12))}
    out = one(ratios)
    names = np.array(strata)
    out["strata"] = {n: one(ratios[names == n]) for n in dict.fromkeys(strata)}
    out["outside"] = [[i, strata[i], round(float(r), 3), bool(full_gc[i])]
                      for i, r in enumerate(ratios) if abs(r - 1) > 0.10 + 1e-12]
    out["full_gc_views"] = int(full_gc.sum())
    return out


@needs_estimate
@pytest.mark.parametrize("budget", [0.05, 0.2, 1.0])
def bench_suggest_within_budget(benchmark, budget):
    """suggest's wall time over its budget on the 60 ``BUDGET_VIEWS`` (27-card
    openings, mid-deal, late, tribute): the median ratio (95% CI) and the
    share within 0.9..1.1 (Wilson 95%), in all and per stratum."""
    import os
    strata = [name for name, _ in BUDGET_VIEWS]
    r, full_gc = benchmark.pedantic(_budget_run, args=(BUDGET_VIEWS, budget), rounds=1,
                                    iterations=1)
    info = budget_summary(r, strata, full_gc)
    info.update({"budget_s": budget, "load_average": list(os.getloadavg())})
    benchmark.extra_info.update(info)
    per = ", ".join(f"{n} {d['ratio_median']:.3f} ({d['within']}/{d['views']})"
                    for n, d in info["strata"].items())
    print(f"\nsuggest at {budget:g} s: median ratio {info['ratio_median']:.3f} "
          f"[{info['median_ci'][0]:.3f}, {info['median_ci'][1]:.3f}], range "
          f"{info['ratio_min']:.3f}..{info['ratio_max']:.3f}; within 0.9..1.1: "
          f"{info['within']}/{info['views']} = {100 * info['within_share']:.0f}% "
          f"[{100 * info['within_ci'][0]:.0f}, {100 * info['within_ci'][1]:.0f}] "
          f"(over {info['over']}, under {info['under']}); {per}; outside "
          f"[view, stratum, ratio, full gc]: {info['outside']}; full gc in "
          f"{info['full_gc_views']} views; load {info['load_average'][0]:.2f}")


@needs_estimate
@pytest.mark.parametrize("budget", [0.05, 0.2])
def bench_suggest_agrees_with_estimate_when_revealed(benchmark, budget):
    """Perfect-information views: suggest's first move against estimate's
    best at the same budget and seed (the rate)."""
    from guandan_fast.bots.search import _position
    from guandan_fast.engine.estimate import estimate
    views = [v for v in greedy_views(33, 20, reveal=True) if len(v.legal_actions()) > 1]

    def run():
        agree = same = 0
        for i, v in enumerate(views):
            first = suggest(v, max_seconds=budget, seed=i)[0].play
            pos = _position(v, sample_deals(v, 1)[0])
            best = estimate(pos, max_seconds=budget, seed=i, confidence=0.95).best
            again = estimate(pos, max_seconds=budget, seed=i + 7919, confidence=0.95).best
            agree += first == best
            same += again == best
        return agree, same
    agree, same = benchmark.pedantic(run, rounds=1, iterations=1)
    # the baseline: estimate against itself under another seed
    benchmark.extra_info.update({"budget_s": budget, "views": len(views), "agree": agree,
                                 "rate": agree / len(views),
                                 "rate_ci": list(wilson(agree, len(views))[1:]),
                                 "estimate_self_agree": same,
                                 "estimate_self_rate": same / len(views),
                                 "estimate_self_ci": list(wilson(same, len(views))[1:])})
