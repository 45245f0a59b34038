"""Fit the distilled policy's forest (``bots/distilled.npz``).

    python bench/train_distilled.py data --seed 11 --deals 600 --out /tmp/d11.npz
    python bench/train_distilled.py fit --data /tmp/d11.npz,/tmp/d12.npz \\
        --test /tmp/d14.npz --out src/guandan_fast/bots/distilled.npz

``data`` plays ``--deals`` seeded deals with the house policy in every seat
(``match.deal_for(seed, i)``). At each decision, with probability 1/2
(seeded), it takes the first ``CANDIDATES`` candidates of the seat
(``search.candidates``), plays each on the same 40 deals drawn from the
seat's view to the end with the policy in every seat (``rollout_moves``),
and keeps one row a candidate after the policy's own move: its features
(``distilled.features``, from the view only) and its mean gain over the
policy's move on those deals (levels a deal, the mover's side). The deal
goes on with the policy's move.

``fit`` fits scikit-learn's ``HistGradientBoostingRegressor`` (squared
error; 300 trees of up to 63 leaves, learning rate 0.1, at least 40 rows a
leaf, L2 1.0; no early stopping; seed 0) on the rows of ``--data`` and
writes its trees as the arrays of ``_core._forest_predict``. With
``--test``, it also prints, for held-out decisions, the gain of playing the
forest's choice (its best candidate when predicted above ``THRESHOLD``,
else the policy's move) measured on their own rollouts: the mean over
decisions with its 95% interval, and the share of decisions it deviates.
It checks that the written arrays give scikit-learn's predictions.

scikit-learn is needed for ``fit`` only (``pip install scikit-learn``);
the package reads the arrays with numpy. Not a test: ``data`` takes about
10 minutes for 600 deals on one core.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from guandan_fast.bots.distilled import (CANDIDATES, FEATURES, THRESHOLD, features, load_model,
                                         predict)
from guandan_fast.bots.match import deal_for, play_deal
from guandan_fast.bots.policy import PolicyBot, rollout_moves
from guandan_fast.bots.search import candidates
from guandan_fast.game.deal import DealState
from guandan_fast.game.view import sample_deals
from guandan_fast.model.rules import Rules

DEALS_A_DECISION = 40


def make_data(seed: int, deals: int, out: str) -> None:
    rng = random.Random(seed)
    X: list = []
    y: list = []
    group: list = []
    decisions = [0]

    class Recorder(PolicyBot):
        def choose(self, view):
            move = super().choose(view)
            if rng.random() < 0.5:
                moves = candidates(view)[:CANDIDATES]
                if len(moves) >= 2:
                    sample = sample_deals(view, DEALS_A_DECISION, seed=rng.getrandbits(40))
                    _, res = rollout_moves(view, sample, moves)
                    gain = (res[1:] - res[0]).mean(axis=1)
                    X.extend(features(view, moves))
                    y.extend(gain)
                    group.extend([decisions[0]] * len(gain))
                    decisions[0] += 1
            return move

    for i in range(deals):
        hands, level, leader = deal_for(seed, i)
        play_deal([Recorder() for _ in range(4)], DealState(hands, Rules(level=level),
                                                            leader=leader))
        if (i + 1) % 50 == 0:
            print(f"{i + 1} deals, {decisions[0]} decisions", file=sys.stderr, flush=True)
    np.savez_compressed(out, X=np.array(X), y=np.array(y), group=np.array(group))


def _load(paths: str):
    Xs, ys, gs = [], [], []
    offset = 0
    for p in paths.split(","):
        with np.load(p) as z:
            Xs.append(z["X"])
            ys.append(z["y"])
            gs.append(z["group"] + offset)
            offset = int(gs[-1].max()) + 1
    return np.concatenate(Xs), np.concatenate(ys), np.concatenate(gs)


def export(model) -> dict:
    """The fitted trees as flat arrays (leaves: left = right = -1)."""
    feature, threshold, left, right, value, roots = [], [], [], [], [], []
    for (pred,) in model._predictors:
        nodes = pred.nodes
        off = len(feature)
        roots.append(off)
        for nd in nodes:
            leaf = bool(nd["is_leaf"])
            feature.append(0 if leaf else int(nd["feature_idx"]))
            threshold.append(0.0 if leaf else float(nd["num_threshold"]))
            left.append(-1 if leaf else off + int(nd["left"]))
            right.append(-1 if leaf else off + int(nd["right"]))
            value.append(float(nd["value"]) if leaf else 0.0)
    base = float(np.ravel(model._baseline_prediction)[0])
    return dict(feature=np.array(feature, np.int32), threshold=np.array(threshold),
                left=np.array(left, np.int32), right=np.array(right, np.int32),
                value=np.array(value), roots=np.array(roots, np.int32), base=np.array([base]))


def held_out(pred: np.ndarray, y: np.ndarray, group: np.ndarray) -> None:
    gains, deviate = [], 0
    for g in np.unique(group):
        s = group == g
        j = int(np.argmax(pred[s]))
        if pred[s][j] > THRESHOLD:
            gains.append(y[s][j])
            deviate += 1
        else:
            gains.append(0.0)
    a = np.array(gains)
    half = 1.96 * a.std(ddof=1) / np.sqrt(len(a))
    print(f"held out: {len(a)} decisions, deviates {deviate / len(a):.3f}, "
          f"gain {a.mean():+.4f} [{a.mean() - half:+.4f}, {a.mean() + half:+.4f}] levels "
          "a decision (policy rollouts)")


def fit(data: str, test: str, out: str) -> None:
    from sklearn.ensemble import HistGradientBoostingRegressor
    X, y, _ = _load(data)
    assert X.shape[1] == len(FEATURES)
    model = HistGradientBoostingRegressor(learning_rate=0.1, max_iter=300, max_leaf_nodes=63,
                                          min_samples_leaf=40, l2_regularization=1.0,
                                          early_stopping=False, random_state=0)
    model.fit(X, y)
    arrays = export(model)
    np.savez_compressed(out, **arrays)
    written = load_model(out)
    check = X[:: max(1, len(X) // 5000)]
    assert np.allclose(predict(written, check), model.predict(check), atol=1e-9), \
        "exported forest differs"
    print(f"{len(X)} rows, {len(arrays['roots'])} trees, {len(arrays['feature'])} nodes -> {out}")
    if test:
        Xt, yt, gt = _load(test)
        held_out(predict(written, Xt), yt, gt)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--deals", type=int, required=True)
    d.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--data", required=True)
    f.add_argument("--test", default="")
    f.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.cmd == "data":
        make_data(a.seed, a.deals, a.out)
    else:
        fit(a.data, a.test, a.out)


if __name__ == "__main__":
    main()
