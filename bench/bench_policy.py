"""The house policy: one decision through the Python API on 27-card hands,
and whole-deal rollouts with the policy in every seat.

Run: ``python -m pytest bench/bench_policy.py -c bench/pytest.ini``. Views:
the opening lead of 300 seeded deals (``deal_for(61, i)``: 27-card hands,
108 cards in play) and the first follow of each (the next seat, 27 cards,
the policy's own lead on the table). The decision is timed per call
(``PolicyBot.choose(view)``, the view built beforehand; on a thread of
its own, so the policy's caches have not seen the hand), with greedy's
``choose`` on the same views as the baseline in the same run. Rollouts: 40
seeded opening views, 50 deals sampled from each (``sample_deals``), played
to the end with the policy in every seat; rollouts a second of CPU time
(``time.process_time``, one thread: the GIL is released but one call uses
one core) and of wall time. Rollouts on threads: the same work through
``rollout_moves`` (the policy's move made first) with the deals shared out
between 1 and 2 threads, alternated over 7 rounds in the same run; wall
rollouts a second of each (the median of the rounds) and their ratio.
The distilled policy (``DistilledBot.choose``: the policy, the first
candidates, their features and the forest) on the same views, the policy in
the same run as its baseline. The search's rollouts: how many
``evaluate_moves`` makes in 0.2 s on 20 of the opening leads. A match's
own cost around the policy: ``View.from_state`` mid-deal (40 seeded deals
after 60 moves of the policy, the history given) and a duplicate match of
the policy against greedy (20 pairs, one process), each the median of its
rounds.
"""

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from conftest import describe, median_ci, per_call_times

from guandan_fast import GreedyBot, Rules, View, sample_deals
from guandan_fast.bots.distilled import DistilledBot
from guandan_fast.bots.match import deal_for, match
from guandan_fast.bots.policy import PolicyBot, _core_ctx, rollout_moves, rollouts
from guandan_fast.bots.search import evaluate_moves
from guandan_fast.game.state import GameState


def _views(n=300, seed=61):
    bot = PolicyBot()
    out = []
    for i in range(n):
        hands, level, leader = deal_for(seed, i)
        state = GameState.start(hands, Rules(level=level), leader)
        lead = View.from_state(state)
        out.append(lead)
        play = bot.choose(lead)
        state = state.apply(play)
        out.append(View.from_state(state, history=[(lead.seat, play)]))
    return out


VIEWS = _views()


def _cold_times(fn, items):
    """per_call_times on a thread of its own: a policy context (its caches,
    one a thread) that has seen none of the views, as a seat's first look
    at a hand (the views were built on this thread, deciding the leads)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(per_call_times, fn, items).result()


def _decision(benchmark, bot, base, base_name, ratio_name, ratio):
    """One decision of ``bot`` per view, timed per call, with ``base`` on
    the same views in the same run; ``ratio(bot_median, base_median)``."""
    t = _cold_times(bot.choose, VIEWS)
    b = _cold_times(base.choose, VIEWS)
    med, lo, hi = median_ci(t)
    bmed, blo, bhi = median_ci(b)
    benchmark.extra_info.update(describe(t))
    benchmark.extra_info.update({
        "median_ci_us": [lo * 1e6, hi * 1e6],
        "lead_median_us": float(np.median(t[0::2]) * 1e6),
        "follow_median_us": float(np.median(t[1::2]) * 1e6),
        f"{base_name}_median_us": bmed * 1e6, f"{base_name}_median_ci_us": [blo * 1e6, bhi * 1e6],
        ratio_name: ratio(med, bmed)})
    benchmark(lambda: [bot.choose(v) for v in VIEWS[:100]])


def bench_policy_decision(benchmark):
    _decision(benchmark, PolicyBot(), GreedyBot(), "greedy", "greedy_over_policy",
              lambda med, base: base / med)


def bench_distilled_decision(benchmark):
    _decision(benchmark, DistilledBot(), PolicyBot(), "policy", "distilled_over_policy",
              lambda med, base: med / base)


def _rollout_work() -> list:
    """The rollout benches' work: 40 of the opening views, 50 seeded deals each."""
    return [(v, np.array(sample_deals(v, 50, seed=7), dtype=np.uint8)) for v in VIEWS[0:80:2]]


def bench_policy_rollouts(benchmark):
    work = _rollout_work()
    n = sum(len(d) for _, d in work)
    core = _core_ctx()
    plies0 = core.plies
    c0, w0 = time.process_time(), time.perf_counter()
    values = [rollouts(v, d) for v, d in work]
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    assert all(set(x.tolist()) <= {-3, -2, -1, 1, 2, 3} for x in values)
    benchmark.extra_info.update({
        "rollouts": n, "rollouts_per_cpu_second": n / cpu, "rollouts_per_wall_second": n / wall,
        "moves_per_rollout": (core.plies - plies0) / n})
    benchmark(lambda: [rollouts(v, d) for v, d in work[:8]])


def bench_policy_rollouts_threads(benchmark):
    bot = PolicyBot()
    work = [(v, d, [bot.choose(v)]) for v, d in _rollout_work()]
    n = sum(len(d) for _, d, _ in work)
    rates: dict = {1: [], 2: []}
    results: dict = {}
    for _ in range(7):
        for threads in (1, 2):
            w0 = time.perf_counter()
            results[threads] = [rollout_moves(v, d, m, threads=threads)[1] for v, d, m in work]
            rates[threads].append(n / (time.perf_counter() - w0))
    assert all((a == b).all() for a, b in zip(results[1], results[2]))
    one, two = float(np.median(rates[1])), float(np.median(rates[2]))
    benchmark.extra_info.update({
        "rollouts": n, "rounds": 7, "one_thread_per_wall_second": one,
        "two_threads_per_wall_second": two, "two_over_one": two / one,
        "ratio_per_round": [b / a for a, b in zip(rates[1], rates[2])]})
    benchmark(lambda: [rollout_moves(v, d, m, threads=2) for v, d, m in work[:8]])


def bench_search_rollouts(benchmark):
    """The rollouts ``evaluate_moves`` makes in 0.2 s on the opening leads
    of 20 of the views (every candidate on the same deals, so the policy's
    caches see the same hands again): their median and total."""
    views = VIEWS[0:40:2]
    counts = [sum(m.samples for m in evaluate_moves(v, max_seconds=0.2) if m.valued)
              for v in views]
    assert all(c > 0 for c in counts)
    benchmark.extra_info.update({"views": len(views), "median_rollouts": float(np.median(counts)),
                                 "total_rollouts": int(sum(counts))})
    benchmark.pedantic(lambda: evaluate_moves(views[0], max_seconds=0.2), rounds=3)


def _mid_deal(n=40, moves=60, seed=61):
    """(state, history) of n seeded deals after ``moves`` moves of the policy
    in every seat (or at the end of a shorter deal's play, one move before)."""
    bot = PolicyBot()
    out = []
    for i in range(n):
        hands, level, leader = deal_for(seed, i)
        state, history = GameState.start(hands, Rules(level=level), leader), []
        for _ in range(moves):
            move = bot.choose(View.from_state(state, history=history))
            after = state.apply(move)
            if after.over:
                break
            history.append((state.turn, move))
            state = after
        out.append((state, history))
    return out


def bench_view_mid_deal(benchmark):
    work = _mid_deal()
    assert sum(len(h) for _, h in work) > 1000
    benchmark(lambda: [View.from_state(s, history=h) for s, h in work])


def bench_match_policy_greedy(benchmark):
    r = benchmark.pedantic(lambda: match("policy", "greedy", deals=20, seed=9, jobs=1), rounds=5)
    assert len(r.plays) == 40
