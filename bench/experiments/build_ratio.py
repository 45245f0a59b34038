"""Two builds of the core compared on the same work, alternated in one session.

Each round runs, in a fresh process for each build (``PYTHONPATH=SRC``, its
compiled ``_core`` built in place), the work of two shipped benchmarks:
the whole-deal policy rollouts of ``bench/bench_policy.py``
(``_rollout_work``: 40 opening views, 50 deals each) and ``plays`` on the
2,000 seeded 27-card hands of ``bench/bench_moves.py``
(``random_hands(11, 2000)``), and reads the CPU time of each. The builds alternate round by round, so a drift of the machine falls
on both. Printed: each build's medians and the ratio B/A of each figure
(the geometric mean over the rounds, with the 95% t-interval of the mean
log ratio).

    python bench/experiments/build_ratio.py --a /path/old/src --b src --rounds 8
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time


def _child() -> None:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
    from bench_policy import _rollout_work
    from conftest import random_hands

    from guandan_fast.bots.policy import rollouts
    from guandan_fast.engine.moves import plays

    work = _rollout_work()
    hands = random_hands(11, 2000)
    t0 = time.process_time()
    for v, d in work:
        rollouts(v, d)
    t1 = time.process_time()
    for counts, rules in hands:
        plays(counts, rules)
    t2 = time.process_time()
    n = sum(len(d) for _, d in work)
    print(f"{n / (t1 - t0):.3f} {(t2 - t1) / len(hands) * 1e6:.4f}")


def _run(src: str) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def _ratio(a: list[float], b: list[float]) -> str:
    logs = [math.log(y / x) for x, y in zip(a, b)]
    mean = statistics.mean(logs)
    half = 0.0
    if len(logs) > 1:
        from scipy import stats
        half = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return f"{math.exp(mean):.3f} [{math.exp(mean - half):.3f}, {math.exp(mean + half):.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="the source tree of build A (the baseline)")
    ap.add_argument("--b", required=True, help="the source tree of build B")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds: at least 1")
    runs: dict[str, list[tuple[float, float]]] = {"a": [], "b": []}
    for _ in range(args.rounds):
        for name in ("a", "b"):
            runs[name].append(_run(getattr(args, name)))
    for k, what in ((0, "rollouts a CPU second"), (1, "plays, us a hand")):
        a = [r[k] for r in runs["a"]]
        b = [r[k] for r in runs["b"]]
        print(f"{what}: A median {statistics.median(a):.2f}, B median "
              f"{statistics.median(b):.2f}, B/A {_ratio(a, b)}")


if __name__ == "__main__":
    if "--child" in sys.argv[1:]:
        _child()
    else:
        main()
