"""The sampler, suggest's timing against its budget, and suggest's first move
against estimate on perfect-information views.

Run: ``python -m pytest bench/bench_bots.py -c bench/pytest.ini`` (add
``-k sample`` for the sampler alone). Views come from seeded greedy deals:
the opening lead (27-card hands), then decisions 8 and 40 of each deal; the
tribute views carry a seeded exchange (known and forbidden cards).
"""

import importlib.util
import time

import numpy as np
import pytest
from conftest import describe, per_call_times

from guandan_fast import GreedyBot, Rules, View, sample_deals, suggest
from guandan_fast.bots.match import deal_for
from guandan_fast.game.state import GameState
from guandan_fast.game.tribute import return_candidates, tribute_candidates, tribute_plan

HAVE_ESTIMATE = importlib.util.find_spec("guandan_fast.engine.estimate") is not None
needs_estimate = pytest.mark.skipif(not HAVE_ESTIMATE, reason="no estimator")


def greedy_views(seed, deals, at=(0, 8, 40), exchange=False, reveal=False):
    """Views of the seat to act at the given decisions of seeded greedy deals."""
    out = []
    for unit in range(deals):
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
        s = GameState.start(hands, rules, leader)
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


def _budget_run(views, budget):
    ratios = []
    for i, v in enumerate(views):
        if len(v.legal_actions()) < 2:
            continue
        t0 = time.perf_counter()
        suggest(v, max_seconds=budget, seed=i)
        ratios.append((time.perf_counter() - t0) / budget)
    return np.array(ratios)


@needs_estimate
@pytest.mark.parametrize("budget", [0.05, 0.2])
def bench_suggest_within_budget(benchmark, budget):
    """suggest's wall time over its budget, seeded views (27-card openings
    included): the ratio's median, min and max."""
    views = PLAIN[:30]
    r = benchmark.pedantic(_budget_run, args=(views, budget), rounds=1, iterations=1)
    benchmark.extra_info.update({"budget_s": budget, "views": int(r.size),
                                 "ratio_median": float(np.median(r)),
                                 "ratio_min": float(r.min()), "ratio_max": float(r.max()),
                                 "within_10pct": float(np.mean(np.abs(r - 1) <= 0.10))})


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
                                 "rate": agree / len(views), "estimate_self_agree": same,
                                 "estimate_self_rate": same / len(views)})
