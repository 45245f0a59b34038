"""A learned value of positions, measured offline against exact values.

Not used by the estimator. The question it answers (issue 18, the 4x8
target): does a small network trained on the exact values of small
endgames value the moves of 4x8 endgames better than one playout of the
estimator's policy? (docs/performance.md, "A learned value, offline".)

    python bench/experiments/learned_value.py [--sets calib6,calib7,calib8,tune8f,tune8g] [--epochs 8] [--jobs 2]

Training data: seeded random free-lead endgames of 5, 6 and 7 cards a
hand (estimate_positions.candidate, seeds disjoint from every set in
bench/data and bench/experiments/data), solved exactly (one thread, a cap a position); every root
move is one example: the position just after the move, labelled with its
exact value for the mover's team. Cached in --cache (default
build/learned_value/), so a second run only trains and evaluates.

Features (`features`): for each seat, from the mover on, its cards
counted by rank slot (the twelve natural ranks other than the level rank
in order, the level rank's non-heart cards, the wild, the two jokers)
and its card count; the led play's type, rank, size and whether it is a
bomb. The network: two ReLU layers of 64, Adam on the squared error,
seeded. The evaluation: each root move of a set's positions valued by the
network, by one playout (_core._move_playouts) and by their average;
squared error per move (bootstrap 95% CI) and the share of positions whose
best-valued move is exact-best (Wilson 95% CI; ties: the search's order),
beside the hint order's first play.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench/

import numpy as np  # noqa: E402

from bench_estimate import boot_mean, key  # noqa: E402
from conftest import wilson  # noqa: E402
from estimate_positions import candidate, positions  # noqa: E402

from guandan_fast import _core, hints, solve  # noqa: E402
from guandan_fast.engine.estimate import _search  # noqa: E402

RANKS = "23456789TJQKA"
TYPES = ["single", "pair", "triple", "fullhouse", "straight", "tube", "plate", "bomb",
         "straightflush", "jokerbomb"]
# (cards a hand, seed, positions, cap in seconds)
TRAIN = ((5, 11, 15000, 5.0), (6, 12, 4000, 5.0), (7, 13, 600, 2.0))


def _slots(level):
    return {r: i for i, r in enumerate(r for r in RANKS if r != level)}


def _hand(tokens, level, slots):
    v = np.zeros(16)
    for t in tokens:
        if t == "SB":
            v[14] += 1
        elif t == "HR":
            v[15] += 1
        elif t[1] == level:
            v[13 if t[0] == "H" else 12] += 1
        else:
            v[slots[t[1]]] += 1
    return v


def features(hands, mover, play, level):
    """The position after seat `mover` led `play` (hands: tokens after
    it), seats from the mover on."""
    slots = _slots(level)
    f = []
    for k in range(4):
        h = hands[(mover + k) % 4]
        f.append(_hand(h, level, slots) / 2.0)
        f.append([len(h) / 10.0, 1.0 if not h else 0.0])
    t = np.zeros(len(TYPES) + 3)
    name, rank = play.pattern[0], play.pattern[1]
    if name in TYPES:
        t[TYPES.index(name)] = 1.0
    if rank == level:
        t[-3] = 13 / 15
    elif rank in slots:
        t[-3] = (slots[rank] + 1) / 15
    else:
        t[-3] = 1.0 if rank else 0.0
    t[-2] = play.size / 10.0
    t[-1] = 1.0 if play.is_bomb else 0.0
    f.append(t)
    return np.concatenate([np.ravel(np.asarray(x, dtype=float)) for x in f])


def _after(pos, play):
    hands = [[str(c) for c in h] for h in pos.hands]
    for c in play.cards:
        hands[pos.turn].remove(str(c))
    return hands


def _make(cache: Path, cards: int, seed: int, n: int, cap: float) -> None:
    path = cache / f"train_{cards}_{seed}_{n}.npz"
    if path.exists():
        return
    t = time.perf_counter()
    X, Y = [], []
    for i in range(n):
        pos = candidate(seed, i, cards, False)
        r = solve(pos, pv=False, max_seconds=cap)
        if not r.exact:
            continue
        sign = 1 if pos.turn % 2 == 0 else -1
        for play, value in [(m.move, m.value) for m in r.moves]:
            X.append(features(_after(pos, play), pos.turn, play, pos.rules.level))
            Y.append(sign * value)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, X=np.array(X), Y=np.array(Y, dtype=float))
    print(f"{path.name}: {len(Y)} moves in {time.perf_counter() - t:.0f} s", flush=True)


def training_data(cache: Path, jobs: int):
    """The training moves (made once, cached), the sets of TRAIN made on
    `jobs` processes, the largest first."""
    with ProcessPoolExecutor(jobs) as ex:
        for f in [ex.submit(_make, cache, *spec) for spec in reversed(TRAIN)]:
            f.result()
    xs, ys = [], []
    for cards, seed, n, cap in TRAIN:
        d = np.load(cache / f"train_{cards}_{seed}_{n}.npz")
        xs.append(d["X"])
        ys.append(d["Y"])
    return np.concatenate(xs), np.concatenate(ys)


class Net:
    """Two ReLU layers, a linear output; Adam on the squared error."""

    def __init__(self, d, h=64, seed=0):
        rng = np.random.default_rng(seed)
        self.p = [rng.normal(0, 1 / np.sqrt(d), (d, h)), np.zeros(h),
                  rng.normal(0, 1 / np.sqrt(h), (h, h)), np.zeros(h),
                  rng.normal(0, 1 / np.sqrt(h), (h, 1)), np.zeros(1)]
        self.m = [np.zeros_like(x) for x in self.p]
        self.v = [np.zeros_like(x) for x in self.p]
        self.t = 0

    def forward(self, x):
        w1, b1, w2, b2, w3, b3 = self.p
        a1 = np.maximum(x @ w1 + b1, 0)
        a2 = np.maximum(a1 @ w2 + b2, 0)
        return a1, a2, (a2 @ w3 + b3)[:, 0]

    def __call__(self, x):
        return self.forward(x)[2]

    def step(self, x, y, lr=1e-3):
        w1, b1, w2, b2, w3, b3 = self.p
        a1, a2, out = self.forward(x)
        g = (2 * (out - y) / len(y))[:, None]
        ga2 = (g @ w3.T) * (a2 > 0)
        ga1 = (ga2 @ w2.T) * (a1 > 0)
        grads = [x.T @ ga1, ga1.sum(0), a1.T @ ga2, ga2.sum(0), a2.T @ g, g.sum(0)]
        self.t += 1
        for i, gr in enumerate(grads):
            self.m[i] = 0.9 * self.m[i] + 0.1 * gr
            self.v[i] = 0.999 * self.v[i] + 0.001 * gr * gr
            mh = self.m[i] / (1 - 0.9 ** self.t)
            vh = self.v[i] / (1 - 0.999 ** self.t)
            self.p[i] -= lr * mh / (np.sqrt(vh) + 1e-8)


def train(X, Y, epochs, seed=0, batch=256):
    net = Net(X.shape[1], seed=seed)
    rng = np.random.default_rng(seed + 1)
    for ep in range(epochs):
        idx = rng.permutation(len(Y))
        for k in range(0, len(idx), batch):
            b = idx[k:k + batch]
            net.step(X[b], Y[b])
        print(f"epoch {ep + 1}: squared error {np.mean((net(X) - Y) ** 2):.3f} (training data)",
              flush=True)
    return net


def table(net, sets):
    lines = ["| set | positions / moves | squared error: network / playout / average (95% CI of each) | "
             "best-valued move exact-best: network / playout / average / hint order's first play |",
             "|---|---|---|---|"]
    for name in sets:
        se = {"net": [], "po": [], "avg": []}
        ok = {"net": 0, "po": 0, "avg": 0, "hint": 0}
        rows = positions(name)
        for pos, vals, value in rows:
            s = _search(pos, 12)
            sign = 1 if pos.turn % 2 == 0 else -1
            moves = s.moves()
            ex = np.array([sign * vals[key(p)] for p in moves], dtype=float)
            po = sign * np.array(_core._move_playouts(s), dtype=float)
            nv = net(np.array([features(_after(pos, p), pos.turn, p, pos.rules.level)
                               for p in moves]))
            for k, v in (("net", nv), ("po", po), ("avg", (nv + po) / 2)):
                se[k] += list((v - ex) ** 2)
                ok[k] += ex[int(np.argmax(v))] == ex.max()
            h = hints(pos.hands[pos.turn], pos.rules, pos.table)
            ok["hint"] += (sign * vals[key(h[0])] if h else None) == ex.max()
        n = len(rows)
        cis = " / ".join(f"{np.mean(se[k]):.2f} ({lo:.2f}-{hi:.2f})"
                         for k, (lo, hi) in ((k, boot_mean(se[k])) for k in ("net", "po", "avg")))
        best = " / ".join(f"{ok[k]} ({100 * wilson(ok[k], n)[1]:.0f}-{100 * wilson(ok[k], n)[2]:.0f}%)"
                          for k in ("net", "po", "avg", "hint"))
        lines.append(f"| {name} | {n} / {len(se['net'])} | {cis} | {best} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="calib6,calib7,calib8,tune8f,tune8g")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--cache", default="build/learned_value")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    X, Y = training_data(Path(a.cache), a.jobs)
    print(f"training data: {len(Y)} moves", flush=True)
    net = train(X, Y, a.epochs)
    print(table(net, a.sets.split(",")))


if __name__ == "__main__":
    main()
