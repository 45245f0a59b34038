"""The seeded views the search's benches and experiments share
(``bench/bench_rollout_search.policy_views``): views alone by default, each
with the four true hands on request."""

import sys
from pathlib import Path

import numpy as np

from guandan_fast.game.view import View

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_rollout_search import policy_views  # noqa: E402


def test_views_alone_by_default():
    views = policy_views(5, 4, 7)
    assert len(views) == 4
    assert all(isinstance(v, View) and len(v.legal_actions()) > 1 for v in views)


def test_with_hands_each_view_comes_with_the_true_hands():
    plain = policy_views(5, 4, 7)
    pairs = policy_views(5, 4, 7, hands=True)
    assert len(pairs) == len(plain)
    assert all(a.seat == b.seat and np.array_equal(a.hand_counts, b.hand_counts)
               for (a, _), b in zip(pairs, plain))
    for v, true in pairs:
        assert len(true) == 4
        assert np.array_equal(true[v.seat], v.hand_counts)
        assert [int(h.sum()) for h in true] == list(v.counts)
