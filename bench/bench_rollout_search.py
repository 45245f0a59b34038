"""The rollout search (``bots.search``) measured: the review's single-dummy
gap, ``suggest`` within its budget, and a duplicate match against the policy.

    python bench/bench_rollout_search.py gap --deals 20 --playouts 200
    python bench/bench_rollout_search.py budget --views 30 [--threads 2]
    python bench/bench_rollout_search.py match --pairs 40 --seed 1

gap: seeded greedy match deals reviewed with ``views=("single",)`` and a
playout budget (deterministic); for each play decision the single-dummy
value of the move played from the mover's team's side (the value after a
team's own move) and, at the next decision when its mover is of the other
team, the position's value from that mover's side (``Valuation.value``: the
value after the opponents' move: the search's choice valued on fresh deals,
``bots.search.evaluate_position``). Printed: both means with 95%
t-intervals, their difference (the gap); ``opp_best_mean`` and
``gap_best_mean``, the same with the value as it was before (the best of the
moves' means of ``evaluate_moves`` with the whole budget and the decision's
seed, recomputed in the same run); ``opp_choice_same_deals``, the choice's
mean on the deals that chose it; and per position the sum of the two values of
the same position (after move i from its mover's side, before move i+1
from the next mover's side: 0 for a consistent evaluator).

budget: elapsed / budget of ``suggest`` on seeded views (every 7th
decision of seeded policy deals), at 0.05, 0.2 and 1 s: median and range;
with ``--threads``, the rollouts on that many threads.

match: ``match("search:0.2", "policy", deals=N, seed=S, jobs=2)``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from guandan_fast import Rules
from guandan_fast.analysis.engines import decision_seed
from guandan_fast.analysis.judge import same_move
from guandan_fast.analysis.review import analyse
from guandan_fast.bots.policy import PolicyBot
from guandan_fast.bots.search import DEFAULT_SAMPLES, evaluate_moves
from guandan_fast.game.view import View
from guandan_fast.bots.match import deal_for, match
from guandan_fast.formats.record import loads
from guandan_fast.game.state import GameState, team
from guandan_fast.stats import mean_ci


def _records(n: int, seed: int) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        match("greedy", "greedy", deals=n, seed=seed, duplicate=False, jobs=1,
              records_dir=tmp)
        return [loads(p.read_text()) for p in sorted(Path(tmp).glob("deal-*.txt"))][:n]


def gap(args) -> dict:
    own, opp, sums, pol, pol_sums = [], [], [], [], []
    opp_max: list = []
    opp_choice: list = []
    bot = PolicyBot()
    t0 = time.perf_counter()
    recs = _records(args.deals, args.seed)
    done = 0
    for k, rec in enumerate(recs):
        if args.stop and time.time() > args.stop:
            break
        a = analyse(rec, views=("single",), budget=1.0, playouts=args.playouts, seed=k,
                    check_factor=None, tribute=False, opening=False)
        plays = [d for d in a.decisions if d.kind == "play" and d.single is not None]
        for d, nxt in zip(plays, plays[1:] + [None]):
            v = d.single
            if v.chosen is None or v.method == "forced":
                continue
            mine = float(v.chosen.pov(team(d.seat)).mean)
            own.append(mine)
            if nxt is None or nxt.single is None or team(nxt.seat) == team(d.seat) \
                    or nxt.single.value is None or nxt.single.method == "forced":
                continue
            # the position's value is stored from team 0's side
            theirs = float(nxt.single.value) * (1 if team(nxt.seat) == 0 else -1)
            opp.append(theirs)
            sums.append(mine + theirs)
            # "before" in the same run: the position's value as it was before
            # evaluate_position, the best of the moves' means of the review's
            # old call (evaluate_moves, the whole budget, the decision's seed:
            # the winner's curse), and the choice's own mean on the deals
            # that chose it
            old = evaluate_moves(View.from_record(rec, nxt.move_index), max_seconds=1.0,
                                 samples=DEFAULT_SAMPLES, seed=decision_seed(k, nxt.index),
                                 max_playouts=args.playouts)
            opp_max.append(max(float(x.mean) for x in old if x.valued))
            ch = nxt.single.best[0].pov(team(nxt.seat)) if nxt.single.best else None
            if ch is not None and ch.samples:
                opp_choice.append(float(ch.mean))
            # the next mover's value of the position when it plays the
            # policy's move (no maximum over noisy candidates)
            want = bot.choose(View.from_record(rec, nxt.move_index))
            pm = next((x for x in nxt.single.moves if same_move(x.move, want)), None)
            if pm is not None and pm.valued:
                p = float(pm.pov(team(nxt.seat)).mean)
                pol.append(p)
                pol_sums.append(mine + p)
        done += 1
        print(f"deal {k}: {len(own)} own, {len(opp)} opp, {time.perf_counter() - t0:.0f} s",
              file=sys.stderr, flush=True)
    m_own, m_opp = mean_ci(own), mean_ci(opp)
    out = {"deals": done, "playouts": args.playouts, "own": [len(own), *m_own],
           "opp": [len(opp), *m_opp], "gap": m_own[0] - m_opp[0],
           "gap_ci_half": ((m_own[2] - m_own[0]) ** 2 + (m_opp[2] - m_opp[0]) ** 2) ** 0.5,
           "same_position_sum": [len(sums), *mean_ci(sums)],
           "opp_best_mean": [len(opp_max), *mean_ci(opp_max)],
           "gap_best_mean": m_own[0] - mean_ci(opp_max)[0],
           "opp_choice_same_deals": [len(opp_choice), *mean_ci(opp_choice)],
           "opp_policy_move": [len(pol), *mean_ci(pol)],
           "same_position_sum_policy_move": [len(pol_sums), *mean_ci(pol_sums)],
           "seconds": time.perf_counter() - t0}
    return out


def policy_views(seed: int, n: int, every: int, hands: bool = False) -> list:
    """``n`` views with a choice: every ``every``-th decision of the seeded
    policy deals ``deal_for(seed, 0)``, ``deal_for(seed, 1)``, ... (the
    policy in every seat), in order; with ``hands``, each as (view, the
    true hands of the four seats)."""
    views: list = []
    bot = PolicyBot()
    i = 0
    while len(views) < n:
        dealt, level, leader = deal_for(seed, i)
        s = GameState.start(dealt, Rules(level=level), leader)
        j = 0
        while not s.over and len(views) < n:
            v = View.from_state(s)
            if j % every == 0 and len(v.legal_actions()) > 1:
                views.append((v, tuple(h.copy() for h in s.hands)) if hands else v)
            s = s.apply(bot.choose(v))
            j += 1
        i += 1
    return views


def budget(args) -> dict:
    from guandan_fast.bots import suggest
    views = policy_views(args.seed, args.views, 7)
    out = {}
    suggest(views[0], max_seconds=0.05, threads=args.threads)   # the first call's set-up
    for b in (0.05, 0.2, 1.0):
        ratios = []
        for k, v in enumerate(views):
            t = time.perf_counter()
            suggest(v, max_seconds=b, seed=k, threads=args.threads)
            ratios.append((time.perf_counter() - t) / b)
        out[str(b)] = {"median": statistics.median(ratios), "min": min(ratios),
                       "max": max(ratios), "views": len(ratios)}
        print(b, out[str(b)], file=sys.stderr, flush=True)
    return out


def run_match(args) -> dict:
    t = time.perf_counter()
    r = match(args.team_a, "policy", deals=args.pairs, seed=args.seed, jobs=2)
    return {"team_a": args.team_a, "pairs": args.pairs, "seed": args.seed,
            "mean": r.mean, "low": r.low, "high": r.high,
            "seconds": time.perf_counter() - t}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gap")
    g.add_argument("--deals", type=int, default=20)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--playouts", type=int, default=200)
    g.add_argument("--stop", type=float, default=0.0, help="a Unix time to stop after")
    b = sub.add_parser("budget")
    b.add_argument("--views", type=int, default=30)
    b.add_argument("--seed", type=int, default=3)
    b.add_argument("--threads", type=int, default=1)
    m = sub.add_parser("match")
    m.add_argument("--pairs", type=int, default=40)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--team-a", default="search:0.2")
    args = ap.parse_args(argv)
    fn = {"gap": gap, "budget": budget, "match": run_match}[args.what]
    print(json.dumps(fn(args), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
