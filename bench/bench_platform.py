"""The platform's concrete action lists beside the pattern enumeration:
per-hand medians on seeded 27-card hands, leading and following, with a
bootstrap 95% interval of each median.

    python -m pytest bench/bench_platform.py -c bench/pytest.ini    (pytest-benchmark)
    python bench/bench_platform.py                                  (the table only)
    python bench/bench_platform.py --server greedy 2 1              (serve rate: spec, games, seed)

The server rate: ``gd-analyze serve --port 0`` on 127.0.0.1 and four
``gd-analyze bot`` processes of one spec, started 0.3 s apart; the server's
summary line (deals, seconds, deals/s) is printed.
"""

import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import per_call_times, random_hands  # noqa: E402

from guandan_fast import beating_plays, plays, plays_array  # noqa: E402
from guandan_fast.platform import action_array, action_count, action_list  # noqa: E402

HANDS = random_hands(31, 1000)
_rng = random.Random(32)
TABLES = []
for _counts, _rules in HANDS:
    other, _ = random_hands(_rng.randrange(10**9), 1)[0]
    TABLES.append(_rng.choice([p for p in plays(other, _rules) if not p.is_bomb]))
FOLLOWS = list(zip(HANDS, TABLES))
# the opening leads of a thousand entries and more (chosen by size, before timing)
BIG = [h for h in HANDS if action_count(h[0], h[1]) >= 1000]

# the cost of the list's objects alone: the same lists built from tuples made beforehand
_PRE = {id(h[0]): [(a, b, tuple(c)) for a, b, c in action_list(h[0], h[1])] for h in BIG}


def _objects_only(h):
    return [[a, b, list(c)] for a, b, c in _PRE[id(h[0])]]


CASES = {
    "lead: action_array": (lambda h: action_array(h[0], h[1]), HANDS),
    "lead: action_list": (lambda h: action_list(h[0], h[1]), HANDS),
    "lead: plays_array (patterns)": (lambda h: plays_array(h[0], h[1]), HANDS),
    "lead: plays (patterns)": (lambda h: plays(h[0], h[1]), HANDS),
    "lead 1000+: action_array": (lambda h: action_array(h[0], h[1]), BIG),
    "lead 1000+: action_list": (lambda h: action_list(h[0], h[1]), BIG),
    "lead 1000+: the list's objects alone": (_objects_only, BIG),
    "follow: action_array": (lambda it: action_array(it[0][0], it[0][1], it[1]), FOLLOWS),
    "follow: action_list": (lambda it: action_list(it[0][0], it[0][1], it[1]), FOLLOWS),
    "follow: beating_plays (patterns)": (lambda it: beating_plays(it[0][0], it[1], it[0][1]),
                                         FOLLOWS),
}


def median_ci(times, rng=np.random.default_rng(0), n=2000):
    boots = np.median(rng.choice(times, size=(n, len(times))), axis=1)
    return float(np.median(times)), float(np.percentile(boots, 2.5)), float(np.percentile(boots, 97.5))


def table():
    sizes = [action_count(c, r) for c, r in HANDS]
    fsizes = [action_count(c, r, t) for (c, r), t in FOLLOWS]
    print(f"{len(HANDS)} seeded 27-card hands (seed 31): entries leading median {np.median(sizes):.0f}"
          f" (max {max(sizes)}), {len(BIG)} with 1000+; following median {np.median(fsizes):.0f}")
    print(f"{'case':36s} {'median us':>10s}  95% CI")
    for name, (fn, items) in CASES.items():
        for it in items[:50]:
            fn(it)                               # warm up
        t = per_call_times(fn, items) * 1e6
        m, lo, hi = median_ci(t)
        print(f"{name:36s} {m:10.1f}  [{lo:.1f}, {hi:.1f}]")


def _bench(name):
    fn, items = CASES[name]

    def run(benchmark):
        t = per_call_times(fn, items) * 1e6
        m, lo, hi = median_ci(t)
        benchmark.extra_info.update({"median_us": m, "ci95_us": [lo, hi], "hands": len(items)})
        benchmark(lambda: [fn(it) for it in items[:100]])
    return run


bench_lead_action_array = _bench("lead: action_array")
bench_lead_action_list = _bench("lead: action_list")
bench_lead_plays_array = _bench("lead: plays_array (patterns)")
bench_lead_1000_action_array = _bench("lead 1000+: action_array")
bench_follow_action_list = _bench("follow: action_list")
bench_follow_beating_plays = _bench("follow: beating_plays (patterns)")

def server_rate(spec="greedy", games=2, seed=1):
    import re
    import subprocess
    import tempfile
    import time
    cli = [sys.executable, "-m", "guandan_fast.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(cli + ["serve", "--port", "0", "--games", str(games), "--seed",
                                         str(seed), "--records", tmp, "--connect-timeout", "60"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        port = re.search(r"127\.0\.0\.1:(\d+)", server.stderr.readline()).group(1)
        bots = []
        for i in range(4):
            bots.append(subprocess.Popen(cli + ["bot", f"ws://127.0.0.1:{port}/game/{spec}{i}",
                                                "--bot", spec], stdout=subprocess.DEVNULL))
            time.sleep(0.3)
        out, _ = server.communicate(timeout=3600)
        for b in bots:
            b.wait(timeout=60)
    print(out.strip())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--server":
        server_rate(*(sys.argv[2:3] or ["greedy"]), *map(int, sys.argv[3:5]))
    else:
        table()
