"""The estimator (issue 18) against the exact solver, and its speed.

Sets (bench/estimate_positions.py; exact values cached in bench/data/):
seeded decisive endgames free7 (4x7), free8 (4x8), standing7 (4x7 with a
standing play), and the held-out hold7, hold7s, hold8, hold8s, hold8b and
hold8c (checks only, never tuned on; every command takes pooled sets such
as "hold8+hold8b+hold8c", estimate_positions.positions).
For each budget (one thread) and set:
  - agree: the move ranked first is exact-best (share of positions, with a
    Wilson 95% interval);
  - loss: mean (best exact value - the chosen move's exact value), for the
    mover, with a bootstrap 95% interval;
  - coverage: share of (position, move) pairs whose exact value lies in the
    move's interval (the stated level is 90%), and the same among the moves
    the estimate did not prove;
  - the baseline in the same run: the hint order's first play (hints()).
Proofs: how long the exact solver takes to prove the exact-best move best
when it is told which move that is (a lower bound on what any verification
of the choice within a budget needs). Arbitration: how often the tree's
first move and the hint order's first play are exact-best, the ceiling of
a perfect choice between them, and the ranking's rule at other margins.
Full deals: the budget honoured (seconds / budget), every root move valued,
and agreement of the best move with a 16x longer run's best. Playouts: whole
deals (108 cards) played to the end by the playout policy, one and two
threads.

Run the tables (what docs/performance.md shows):
    python bench/bench_estimate.py agreement [--budgets 0.1,0.5,2] [--sets free7,free8,standing7] [--seeds 3]
    python bench/bench_estimate.py policy [--sets calib8,free8]
    python bench/bench_estimate.py deals [--budgets 0.1,0.5,2] [--n 12]
    python bench/bench_estimate.py playouts
    python bench/bench_estimate.py proofs [--sets free8] [--budgets 0.5] [--cap 20]
    python bench/bench_estimate.py arbitration [--sets calib8] [--budgets 0.5] [--seeds 3]
or the pytest-benchmark entries: python -m pytest bench/bench_estimate.py -c bench/pytest.ini
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from conftest import median_ci, wilson  # noqa: E402
from estimate_positions import positions as load_positions  # noqa: E402

from guandan_fast import Position, Rules, estimate, hints  # noqa: E402
from guandan_fast import _core  # noqa: E402
from guandan_fast._core import TOKENS  # noqa: E402
from guandan_fast.engine import estimate as E  # noqa: E402
from guandan_fast.engine.endgame import _search  # noqa: E402

RANKS = "23456789TJQKA"


def key(play):
    return None if play is None else tuple(play.pattern)


def boot_mean(xs, seed=0, reps=2000):
    xs = np.asarray(xs, dtype=float)
    if len(xs) == 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    m = rng.choice(xs, size=(reps, len(xs)), replace=True).mean(axis=1)
    return (float(np.percentile(m, 2.5)), float(np.percentile(m, 97.5)))


def evaluate(name, budget, seed=0, limit=None, threads=1):
    """Per position: dict(chosen exact value, best exact, hint's exact value,
    moves=[(exact value, mean, low, high, samples, proven)], seconds)."""
    out = []
    for pos, vals, value in load_positions(name)[:limit]:
        sign = 1 if pos.turn % 2 == 0 else -1
        e = estimate(pos, max_seconds=budget, seed=seed, threads=threads)
        h = hints(pos.hands[pos.turn], pos.rules, pos.table)
        hint_v = vals[key(h[0])] if h else vals[None]
        out.append({
            "best": value, "sign": sign, "chosen": vals[key(e.best)], "hint": hint_v,
            "moves": [(vals[key(m.move)], m.mean, m.low, m.high, m.samples, m.exact)
                      for m in e.moves],
            "seconds": e.seconds, "playouts": e.playouts, "exact": e.exact})
    return out


def summarize(rows):
    n = len(rows)
    agree = sum(r["chosen"] == r["best"] for r in rows)
    hagree = sum(r["hint"] == r["best"] for r in rows)
    loss = [r["sign"] * (r["best"] - r["chosen"]) for r in rows]
    hloss = [r["sign"] * (r["best"] - r["hint"]) for r in rows]
    pairs = [m for r in rows for m in r["moves"]]
    inside = sum(lo - 1e-9 <= v <= hi + 1e-9 for v, _, lo, hi, _, _ in pairs)
    un = [m for m in pairs if not m[5]]
    un_in = sum(lo - 1e-9 <= v <= hi + 1e-9 for v, _, lo, hi, _, _ in un)
    return {
        "n": n, "agree": agree / n, "agree_ci": wilson(agree, n)[1:],
        "loss": float(np.mean(loss)), "loss_ci": boot_mean(loss),
        "hint_agree": hagree / n, "hint_loss": float(np.mean(hloss)),
        "coverage": inside / len(pairs), "moves": len(pairs),
        "unproven": len(un), "unproven_coverage": (un_in / len(un)) if un else float("nan"),
        "exact": sum(r["exact"] for r in rows) / n,
        "median_s": float(np.median([r["seconds"] for r in rows])),
        "max_s": float(max(r["seconds"] for r in rows)),
    }


def summarize_seeds(runs):
    """summarize() over the runs of several seeds (runs[k][i]: seed k,
    position i): shares over every (position, seed) pair; the 95% CIs of
    the exact-best share and of the loss by a bootstrap over the positions
    (a position's runs are not independent of one another)."""
    s = summarize([r for rows in runs for r in rows])
    per_agree = [np.mean([rows[i]["chosen"] == rows[i]["best"] for rows in runs])
                 for i in range(len(runs[0]))]
    per_loss = [np.mean([rows[i]["sign"] * (rows[i]["best"] - rows[i]["chosen"])
                         for rows in runs]) for i in range(len(runs[0]))]
    s["agree_ci"] = boot_mean(per_agree)
    s["loss_ci"] = boot_mean(per_loss)
    s["n"] = f"{len(runs[0])} x {len(runs)}"
    return s


def agreement_table(sets, budgets, limit=None, seeds=1, threads=(1,), dump=None):
    """With seeds > 1, each position is estimated once with each seed 0 ..
    seeds - 1 (the tree is deterministic, but timing changes it: the same
    code and seed give a few positions' first moves differently from run to
    run), n is positions x seeds. Each thread count in `threads` in turn,
    in the same run; "moves proven": the share of the root moves whose
    value the estimate proved. `dump`: a path for every run's per-position
    rows (JSON, keyed "set budget threads")."""
    dumped = {}
    lines = ["| set | budget | threads | n | first move exact-best (95% CI) | mean loss (95% CI) | "
             "hint first: best / loss | coverage of 90% intervals (all / unproven) | "
             "proven | moves proven | median s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in sets:
        for b in budgets:
            for th in threads:
                runs = [evaluate(name, b, seed=k, limit=limit, threads=th)
                        for k in range(seeds)]
                if dump:
                    dumped[f"{name} {b:g} {th}"] = runs
                    Path(dump).write_text(json.dumps(dumped))
                s = summarize(runs[0]) if seeds == 1 else summarize_seeds(runs)
                pairs = [m for rows in runs for r in rows for m in r["moves"]]
                proven = sum(m[5] for m in pairs) / len(pairs)
                lines.append(
                    f"| {name} | {b:g} s | {th} | {s['n']} | {s['agree']:.1%} "
                    f"({s['agree_ci'][0]:.0%}-{s['agree_ci'][1]:.0%}) | {s['loss']:.3f} "
                    f"({s['loss_ci'][0]:.3f}-{s['loss_ci'][1]:.3f}) | {s['hint_agree']:.0%} / "
                    f"{s['hint_loss']:.3f} | {s['coverage']:.1%} / "
                    f"{s['unproven_coverage']:.1%} (of {s['unproven']}) | {s['exact']:.0%} | "
                    f"{proven:.0%} | {s['median_s']:.2f} |")
                print(lines[-1], flush=True)
    return "\n".join(lines)


def _one_test_range(maxi, value):
    """The (lo, hi) entry range under which drive() makes exactly one
    null-window test: does a move beat `value` for the mover? (team 0 to act:
    value >= the next outcome above; team 1: value <= the next one below;
    no outcome is 0)."""
    if maxi:
        return value, (1 if value == -1 else value + 1)
    return (-1 if value == 1 else value - 1), value


def proof_seconds(pos, vals, value, cap):
    """Seconds the exact solver (one thread, a fresh 2**20 table) takes to
    prove that the exact-best move is best, told which one it is: its exact
    value, then for every other move one null-window test that it does not
    beat it. None when that takes more than `cap` seconds."""
    s = _search(pos, 20)
    maxi = s.maximizing
    moves = s.moves()
    best = [vals[key(p)] for p in moves].index(value)
    t0 = time.perf_counter()
    order = [best] + [i for i in range(len(moves)) if i != best]
    for k, i in enumerate(order):
        left = cap - (time.perf_counter() - t0)
        if left <= 0:
            return None
        s.set_limits(None, left)
        if k == 0:
            b = s.solve_move(i, -3, 3)
            ok = b == (value, value)
        else:
            b = s.solve_move(i, *_one_test_range(maxi, value))
            ok = (b[1] <= value) if maxi else (b[0] >= value)
        if s.aborted:
            return None
        if not ok:
            raise AssertionError(f"the cached exact values disagree with the solver: {b}")
    return time.perf_counter() - t0


def policy_table(sets):
    """The playout policy as an evaluator: each root move valued by one
    playout after it (_core._move_playouts), against its exact value. Mean
    squared error over the moves (levels^2; bootstrap 95% CI), and on the
    positions: the move with the best playout result (ties: search order)
    exact-best (Wilson 95% CI), and its mean loss (bootstrap 95% CI)."""
    lines = ["| set | positions / moves | squared error per move (95% CI) | "
             "best playout exact-best (95% CI) | mean loss (95% CI) |",
             "|---|---|---|---|---|"]
    for name in sets:
        se, ok, loss = [], 0, []
        rows = load_positions(name)
        for pos, vals, value in rows:
            s = _search(pos, 12)
            sign = 1 if pos.turn % 2 == 0 else -1
            res = _core._move_playouts(s)
            ex = [vals[key(p)] for p in s.moves()]
            se += [(a - b) ** 2 for a, b in zip(res, ex)]
            b = max(range(len(res)), key=lambda i: (sign * res[i], -i))
            ok += ex[b] == value
            loss.append(sign * (value - ex[b]))
        n = len(rows)
        lo, hi = boot_mean(se)
        llo, lhi = boot_mean(loss)
        w = wilson(ok, n)
        lines.append(f"| {name} | {n} / {len(se)} | {np.mean(se):.2f} ({lo:.2f}-{hi:.2f}) | "
                     f"{100 * ok / n:.1f}% ({100 * w[1]:.0f}%-{100 * w[2]:.0f}%) | "
                     f"{np.mean(loss):.3f} ({llo:.3f}-{lhi:.3f}) |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


MARGINS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, None)


def arbitration_rows(name, budget, seed=0):
    """Per position: the exact values (for the mover) of the tree's first
    move and of the hint order's first play, and the move the ranking's
    rule (_hint_first) picks between them at each margin of MARGINS (None:
    the hint play always, unless proven worse). The tree's order is
    rebuilt from the Estimate (engine/estimate.py's _tree_ranking; an
    Estimate does not keep the search's order, so only a tie on every
    statistic could differ), and checked: the rule at HINT_MARGIN must
    pick the estimate's own move."""
    out = []
    for pos, vals, value in load_positions(name):
        sign = 1 if pos.turn % 2 == 0 else -1
        e = estimate(pos, max_seconds=budget, seed=seed)
        ranked = E._tree_ranking(e.moves, sign)
        i = E._hint_index(pos, [m.move for m in e.moves])
        h = None if i is None else e.moves[i]

        def pick(margin=None):
            r = ranked if e.exact else E._hint_first(ranked, sign, h, margin)
            return sign * vals[key(r[0].play)]
        chosen = sign * vals[key(e.best)]
        if pick() != chosen:
            raise AssertionError("the rule at HINT_MARGIN does not pick the estimate's move")
        out.append({"best": sign * value, "chosen": chosen,
                    "tree": sign * vals[key(ranked[0].play)],
                    "hint": sign * vals[None if h is None else key(h.play)],
                    "picks": {str(m): pick(float("inf") if m is None else m)
                              for m in MARGINS}})
    return out


def arbitration_table(sets, budget, seeds=1):
    """How the estimate's choice splits between its two candidates, the
    tree's first move and the hint order's first play (docs/performance.md,
    "Arbitration between the tree and the hint order"): runs where each is
    exact-best, where neither is (no rule choosing between the two can be
    right there), the ceiling of a perfect choice between the two, and what
    the ranking's rule gets at each margin, all in the same runs (the
    shipped margin is HINT_MARGIN). The 95% CIs: Wilson's with one run a
    position, else a bootstrap over the positions (as summarize_seeds)."""
    lines = []
    for name in sets:
        runs = [arbitration_rows(name, budget, seed=k) for k in range(seeds)]
        rows = [r for rs in runs for r in rs]
        n = len(rows)

        def pct(test):
            k = sum(test(r) for r in rows)
            if seeds == 1:
                lo, hi = wilson(k, n)[1:]
            else:
                lo, hi = boot_mean([np.mean([test(rs[i]) for rs in runs])
                                    for i in range(len(runs[0]))])
            return k, f"{k} ({k / n:.1%}, {lo:.1%}-{hi:.1%})"
        ok = pct(lambda r: r["chosen"] == r["best"])
        tree = pct(lambda r: r["tree"] == r["best"])
        hint = pct(lambda r: r["hint"] == r["best"])
        ceiling = pct(lambda r: r["tree"] == r["best"] or r["hint"] == r["best"])
        both = sum(r["tree"] == r["best"] and r["hint"] == r["best"] for r in rows)
        lines += [f"{name}, {budget:g} s, {seeds} run(s) a position: {n} runs",
                  f"  the estimate's first move exact-best: {ok[1]}",
                  f"  the tree's first move: {tree[1]}; the hint order's first play: {hint[1]}",
                  f"  both: {both}; only the tree's: {tree[0] - both}; only the hint play: "
                  f"{hint[0] - both}; neither: {n - ceiling[0]}",
                  f"  a perfect choice between the two: {ceiling[1]}",
                  "  the rule at each margin: " + ", ".join(
                      f"{'never' if m is None else m}: "
                      f"{sum(r['picks'][str(m)] == r['best'] for r in rows)}" for m in MARGINS)]
        print("\n".join(lines[-6:]), flush=True)
    return "\n".join(lines)


def proofs_table(sets, budgets, cap=20.0):
    """Per set: the distribution of proof_seconds (median with its 95%
    interval, shares within 0.25 / 0.5 / 2 s), and the same for the
    positions where the estimate's first move at each budget is not
    exact-best (measured in the same run)."""
    lines = ["| set | positions | proof that the best move is best: median s (95% CI) | "
             "within 0.25 / 0.5 / 2 s | estimate's misses (budget: proof s of each) |",
             "|---|---|---|---|---|"]
    for name in sets:
        rows = load_positions(name)
        secs = [proof_seconds(pos, vals, value, cap) for pos, vals, value in rows]
        inf = [cap * 10 if x is None else x for x in secs]
        med, lo, hi = median_ci(inf)
        shown = lambda x: f">{cap:g}" if x > cap else f"{x:.2f}"  # noqa: E731
        within = " / ".join(f"{sum(x <= t for x in inf) / len(inf):.0%}" for t in (0.25, 0.5, 2))
        misses = []
        for b in budgets:
            got = evaluate(name, b)
            m = [shown(inf[i]) for i, r in enumerate(got) if r["chosen"] != r["best"]]
            misses.append(f"{b:g} s: {', '.join(m) if m else 'none'}")
        lines.append(f"| {name} | {len(rows)} | {shown(med)} ({shown(lo)}-{shown(hi)}) | "
                     f"{within} | {'; '.join(misses)} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def random_deal(rng):
    deck = [t for t in TOKENS for _ in range(2)]
    rng.shuffle(deck)
    return Position([deck[i * 27:(i + 1) * 27] for i in range(4)],
                    Rules(level=rng.choice(RANKS)), turn=rng.randrange(4))


def long_run_judgement(e, ref, sign):
    """How the long run `ref` judges the short run's choice: (the same
    best move, the choice plausibly best: its interval in `ref` reaches the
    mean of `ref`'s best move, from the mover's side)."""
    top = ref.moves[0]
    mine = next(m for m in ref.moves if key(m.move) == key(e.best))
    reach = mine.high >= top.mean if sign > 0 else mine.low <= top.mean
    return key(e.best) == key(ref.best), bool(reach)


def deals_table(budgets, n=12, seed=2727, factor=16, threads=(1,)):
    """Full deals: seconds / budget, every move sampled, and the choice
    judged by a factor-times longer run (different seed, one thread): the
    same best move, or a move plausibly best by it. Each thread count in
    `threads` judged by the same long runs."""
    rng = random.Random(seed)
    deals = [random_deal(rng) for _ in range(n)]
    lines = ["| budget | threads | deals | seconds/budget median (max) | every root move sampled | "
             f"best == best of a {factor}x run (95% CI) | plausibly best by it (95% CI) | "
             "playouts per decision (median) |",
             "|---|---|---|---|---|---|---|---|"]
    for b, th in [(b, th) for b in budgets for th in threads]:
        ratios, allsampled, same, plaus, pl = [], 0, 0, 0, []
        refs = _long_runs.setdefault((seed, n, b, factor), {})
        for i, pos in enumerate(deals):
            sign = 1 if pos.turn % 2 == 0 else -1
            e = estimate(pos, max_seconds=b, seed=i, threads=th)
            if i not in refs:
                refs[i] = estimate(pos, max_seconds=b * factor, seed=1000 + i)
            ref = refs[i]
            ratios.append(e.seconds / b)
            allsampled += all(m.samples > 0 or m.exact for m in e.moves)
            s, p = long_run_judgement(e, ref, sign)
            same += s
            plaus += p
            pl.append(e.playouts)
        ci, pci = wilson(same, n)[1:], wilson(plaus, n)[1:]
        lines.append(f"| {b:g} s | {th} | {n} | {np.median(ratios):.3f} ({max(ratios):.3f}) | "
                     f"{allsampled}/{n} | {same / n:.0%} ({ci[0]:.0%}-{ci[1]:.0%}) | "
                     f"{plaus / n:.0%} ({pci[0]:.0%}-{pci[1]:.0%}) | {int(np.median(pl))} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


_long_runs: dict = {}


def playout_rate(threads=1, n=400, deals=6, seed=108, random_plies=4):
    """Whole-deal playouts a second (each thread its own deals' searches).
    Each playout first makes `random_plies` random legal moves, so that the
    playouts differ (a fixed policy from one position would repeat one
    playout, every cache hit); the rate counts the policy's playouts."""
    rng = random.Random(seed)
    poss = [random_deal(rng) for _ in range(deals)]
    searches = [[_search(p, 16) for p in poss] for _ in range(threads)]
    plies = [0] * threads

    def work(k):
        for j, s in enumerate(searches[k]):
            _, pl = _core._playouts(s, n, seed=k * 100 + j, random_plies=random_plies)
            plies[k] += pl
    t = time.perf_counter()
    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    dt = time.perf_counter() - t
    total = threads * deals * n
    return total / dt, sum(plies) / dt


def tree_rate(threads=1, seconds=1.0, seed=109, deals=4):
    rng = random.Random(seed)
    poss = [random_deal(rng) for _ in range(deals)]
    po = it = nodes = tn = 0
    t = time.perf_counter()
    for i, p in enumerate(poss):
        e = estimate(p, max_seconds=seconds, threads=threads, seed=i)
        po += e.playouts
        it += e.iterations
        tn += e.tree_nodes
        nodes += e.nodes
    dt = time.perf_counter() - t
    return po / dt, tn / dt


def playouts_table():
    lines = ["| threads | policy playouts/s (108 cards to the end) | plies/s | "
             "estimate on full deals: playouts/s | tree nodes/s |", "|---|---|---|---|---|"]
    for th in (1, 2):
        r, plies = playout_rate(th)
        er, tn = tree_rate(th)
        lines.append(f"| {th} | {r:,.0f} | {plies:,.0f} | {er:,.0f} | {tn:,.0f} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# pytest-benchmark entries (python -m pytest bench/bench_estimate.py -c bench/pytest.ini)
# ---------------------------------------------------------------------------

def bench_estimate_free8_half_second(benchmark):
    rows = evaluate("free8", 0.5, limit=int(os.environ.get("ESTIMATE_LIMIT", "36")))
    benchmark.extra_info.update(summarize(rows))
    pos = load_positions("free8")[0][0]
    benchmark.pedantic(estimate, args=(pos,), kwargs={"max_seconds": 0.5}, rounds=1,
                       iterations=1)


def bench_estimate_playouts(benchmark):
    r1, p1 = playout_rate(1)
    benchmark.extra_info.update({"playouts_per_s": r1, "plies_per_s": p1})
    rng = random.Random(108)
    s = _search(random_deal(rng), 16)
    benchmark(_core._playouts, s, 100)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["agreement", "arbitration", "deals", "playouts", "policy",
                                     "proofs"])
    ap.add_argument("--budgets", default="0.1,0.5,2")
    ap.add_argument("--sets", default="free7,free8,standing7")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2727)
    ap.add_argument("--cap", type=float, default=20.0)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--threads", default="1", help="thread counts, e.g. 1,2 (agreement, deals)")
    ap.add_argument("--dump", default=None, help="agreement: per-position rows to this JSON file")
    a = ap.parse_args()
    budgets = [float(x) for x in a.budgets.split(",")]
    threads = [int(x) for x in a.threads.split(",")]
    if a.what == "agreement":
        print(agreement_table(a.sets.split(","), budgets, a.limit, a.seeds, threads, a.dump))
    elif a.what == "arbitration":
        print(arbitration_table(a.sets.split(","), budgets[0], a.seeds))
    elif a.what == "proofs":
        print(proofs_table(a.sets.split(","), budgets, a.cap))
    elif a.what == "policy":
        print(policy_table(a.sets.split(",")))
    elif a.what == "deals":
        print(deals_table(budgets, a.n, a.seed, threads=threads))
    else:
        print(playouts_table())
