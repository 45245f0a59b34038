"""How stable are the review's marks? (a measurement script, not a test)

On seeded match deals (``bots.match`` between greedy bots, whole games so
that later deals have a tribute; the records as ``formats.record`` writes
them):

1. **stability**: every deal reviewed twice at the default time budget with
   two different review seeds; the share of the marks (decision, view) of
   either run that the other run has too (marks common to both runs over
   the marks of the union, and over each run's own);
2. **confirmation**: every ``likely`` mark of the first run re-checked once
   more with ``--factor`` (30) times the budget on fresh samples
   (``analysis.engines.check_task``, as the review's own re-check, with
   another seed): the share whose re-checked interval still lies above 0
   (and, stricter, that still keeps the mark: a tier, no wider than 3
   levels);
3. **evening**: the time of an evening of those deals in three languages:
   one ``review_records`` call (the analyses, on ``--jobs`` processes) and
   three renderings (``render_evening_html`` en/ru/zh) of the same documents.

Each share is given with its 95% Wilson interval (``stats.share_ci``).

    python bench/bench_review_stability.py --deals 10 --jobs 2 --out /tmp/stab.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from guandan_fast.analysis.batch import review_records, run_tasks
from guandan_fast.analysis.engines import check_task, decision_seed
from guandan_fast.analysis.review import DEFAULT_BUDGET, VIEWS, analyse
from guandan_fast.bots.match import match
from guandan_fast.stats import share_ci
from guandan_fast.formats.record import loads
from guandan_fast.report.evening import render_evening_html


def match_records(n: int, seed: int) -> list:
    """``n`` records of seeded greedy-bot games (deal after deal, so with
    tributes), in the order played."""
    with tempfile.TemporaryDirectory() as tmp:
        match("greedy", "greedy", deals=max(1, (n + 2) // 3), seed=seed, games=True,
              duplicate=False, jobs=1, records_dir=tmp)
        files = sorted(Path(tmp).glob("*.txt"))
        recs = [(f.name, loads(f.read_text(encoding="utf-8"))) for f in files]
    return recs[:n]


def _marks(a) -> dict:
    return {(d.index, v): getattr(d, v) for d in a.decisions for v in VIEWS
            if getattr(d, v) is not None and getattr(d, v).mistake}


def _share(k: int, n: int) -> dict:
    if not n:
        return {"k": 0, "n": 0, "share": None}
    s, lo, hi = share_ci([1] * k + [0] * (n - k))
    return {"k": k, "n": n, "share": round(s, 3), "low": round(lo, 3), "high": round(hi, 3)}


def _again_task(a, d, view: str, factor: float, seed: int) -> dict:
    """The task of the review's own re-check, at ``factor`` times the budget,
    with a seed of its own."""
    from guandan_fast.analysis.exchange import exchange_seat
    from guandan_fast.analysis.review import _exchange_positions
    from guandan_fast.game.record import replay
    from guandan_fast.analysis.judge import same_move
    rec = a.record
    v = getattr(d, view)
    best = v.best[0].move           # the move the review's own re-check measured against
    t = {"key": (d.index, view), "view": view, "kind": d.kind, "seat": d.seat,
         "budget": a.settings["budget"], "factor": factor, "moves": [best, d.move],
         "engines": {"solve_cards": a.settings["solve_cards"], "solver": "default",
                     "estimator": "default", "suggester": "default"},
         "seed": decision_seed(seed, 900_000 + 2 * d.index + (view == "single"))}
    if d.kind == "play":
        state = next(s.state for s in replay(rec) if s.index == d.move_index)
        if view == "double":
            t["states"] = [state.apply(best), state.apply(d.move)]
        else:
            t["record"], t["move_index"] = rec, d.move_index
    else:
        kinds = [x for x in a.decisions if x.kind == d.kind]
        i = kinds.index(d)
        if view == "double":
            states = _exchange_positions(rec, i, d.kind)
            pick = lambda m: next(st for c, st in states if same_move(c, m))  # noqa: E731
            t["states"] = [pick(best), pick(d.move)]
        else:
            t["seat_view"] = exchange_seat(rec, d.kind, i)
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--match-seed", type=int, default=2026)
    ap.add_argument("--seeds", type=int, nargs=2, default=(1, 2))
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--factor", type=float, default=30.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-confirm", action="store_true")
    ap.add_argument("--confirm-only", type=int, default=0, metavar="K",
                    help="no stability runs: review the first K deals once (the first seed) "
                         "and re-check their likely marks at --factor")
    ap.add_argument("--evening-deals", type=int, default=0,
                    help="also time an evening of this many match deals (0: none)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    report: dict = {"args": vars(args)}
    recs = match_records(args.deals, args.match_seed)
    runs = []
    t0 = time.perf_counter()
    if args.confirm_only:
        recs = recs[:args.confirm_only]
    for seed in args.seeds[:1] if args.confirm_only else args.seeds:
        runs.append([analyse(r, budget=args.budget, seed=seed, jobs=args.jobs)
                     for _, r in recs])
        print(f"reviewed {len(recs)} deals with seed {seed}: "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    both = common = in_a = in_b = 0
    per_deal = []
    for (name, _), a, b in zip(recs, runs[0], runs[-1]) if len(runs) == 2 else ():
        ma, mb = set(_marks(a)), set(_marks(b))
        both += len(ma | mb)
        common += len(ma & mb)
        in_a += len(ma)
        in_b += len(mb)
        per_deal.append({"deal": name, "marks": [len(ma), len(mb)], "common": len(ma & mb),
                         "decisions": len(a.decisions),
                         "likely": [sum(v.mistake == "likely" for v in _marks(x).values())
                                    for x in (a, b)]})
    if len(runs) == 2:
        report["stability"] = {"union": _share(common, both), "of_run_1": _share(common, in_a),
                           "of_run_2": _share(common, in_b), "per_deal": per_deal}
        print(json.dumps(report["stability"], indent=1), file=sys.stderr, flush=True)
    if not args.skip_confirm:
        above = kept = n = 0
        rows = []
        todo = [(a, i, view, v) for a in runs[0] for (i, view), v in _marks(a).items()
                if v.mistake == "likely"]
        tasks = [_again_task(a, a.decisions[i], view, args.factor, args.seeds[0] + 17)
                 for a, i, view, v in todo]
        t1 = time.perf_counter()
        answers = run_tasks(check_task, tasks, jobs=args.jobs)
        report["confirm_seconds"] = round(time.perf_counter() - t1, 1)
        for (a, i, view, v), got in zip(todo, answers):
            n += 1
            ok = "error" not in got and got["low"] > 0
            keep = ok and got["high"] - got["low"] <= 3.0 and got["loss"] >= 0.3
            above += ok
            kept += keep
            rows.append({"deal": a.record.tags.get("round"), "index": i, "view": view,
                         "loss": round(v.loss, 3), "check": got})
            print(f"confirm {n}: {view} #{i} {round(v.loss, 2)} -> {got}", file=sys.stderr,
                  flush=True)
        report["confirmation"] = {"above_zero": _share(above, n), "kept": _share(kept, n),
                                  "rows": rows}
    if args.evening_deals:
        ev = match_records(args.evening_deals, args.match_seed + 1)
        t1 = time.perf_counter()
        answers = review_records(ev, jobs=args.jobs, budget=args.budget)
        t2 = time.perf_counter()
        docs = [x["data"] for x in answers if "data" in x]
        pages = [render_evening_html(docs, lang) for lang in ("en", "ru", "zh")]
        t3 = time.perf_counter()
        report["evening"] = {"deals": len(ev), "reviewed": len(docs),
                             "analysis_seconds": round(t2 - t1, 1),
                             "render_seconds": round(t3 - t2, 2),
                             "page_bytes": [len(p) for p in pages]}
    text = json.dumps(report, indent=1, default=str)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
