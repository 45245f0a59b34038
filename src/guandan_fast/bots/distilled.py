"""The distilled policy (bot spec ``distilled``): the house policy with a
learned correction, taken from the rollout search's values.

The house policy (``bots.policy``) decides by rules. The rollout search
(``bots.search``) values each candidate move by playing sampled deals to
the end with that policy in every seat; the move it finds best differs
from the policy's often, and usually by little each time. This module
learns where: a regression forest predicts, from what the seat sees, how
much each of the first ``CANDIDATES`` candidates (``search.candidates``:
the policy's move, the pass when following, then the hint order) gains over
the policy's move in those rollouts. The bot plays the candidate with the
highest prediction when it is above ``THRESHOLD`` levels, else the policy's
move. It reads the seat's view only (the forest's inputs are below), so it
is as blind as the policy; it is not used inside rollouts (the compiled
policy is).

The forest was fitted by ``bench/train_distilled.py`` (seeded policy
self-play; each sampled decision's candidates played on the same sampled
deals to the end; scikit-learn's histogram gradient boosting) and is
shipped as ``distilled.npz`` beside this module; the compiled core sums its
trees (``_core._forest_predict``). docs/distilled.md gives its figures.

>>> from guandan_fast import Rules
>>> from guandan_fast.game.state import GameState
>>> from guandan_fast.game.view import View
>>> from guandan_fast.bots.match import deal_for
>>> hands, level, leader = deal_for(1, 0)
>>> view = View.from_state(GameState.start(hands, Rules(level=level), leader))
>>> DistilledBot().choose(view) in view.legal_actions()
True
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any, Optional, Sequence

import numpy as np

from .. import _core
from .._core import Play
from ..engine.decomposition import min_plays_batch
from ..errors import ModelError
from ..game.view import View
from .policy import PolicyBot
from .search import candidates

__all__ = ["DistilledBot", "features", "load_model", "predict", "FEATURES", "CANDIDATES",
           "THRESHOLD"]

CANDIDATES = 10      # the candidates the forest compares with the policy's move
THRESHOLD = 0.05     # levels a deal: a predicted gain below this keeps the policy's move

# the kind of a move (a feature): the pass, the plain types, then the bombs
# of 4 or 5 cards apart from the bigger ones (straight flushes, 6 cards or
# more, the jokers)
_KINDS = {"single": 1, "pair": 2, "triple": 3, "full_house": 4, "straight": 5, "tube": 6,
          "plate": 7}
_CONTEXT = ["lead", "own", "partner", "next", "previous", "owner", "total", "plays",
            "bombs", "level", "table_kind", "table_key", "table_size", "passes"]
_MOVE = ["kind", "key", "size", "wilds", "cost", "breaks_bomb", "goes_out"]
FEATURES = tuple(_CONTEXT + ["policy_" + f for f in _MOVE] + ["move_" + f for f in _MOVE]
                 + ["index"])


def _kind(play: Optional[Play]) -> int:
    if play is None:
        return 0
    if play.is_bomb:
        return 8 if play.type == "bomb" and play.size <= 5 else 9
    return _KINDS[play.type]


def bombs_held(counts: np.ndarray, level: int) -> int:
    """The bombs a hand holds without wilds: ranks with 4 natural cards or
    more (the wild hearts of the level apart), and the four jokers.
    Card ids are suit * 13 + rank (2..A), then the two jokers (52, 53)."""
    by_rank = counts[:52].reshape(4, 13).sum(axis=0).astype(int)
    by_rank[level] -= int(counts[13 + level])
    return int((by_rank >= 4).sum()) + int(counts[52] + counts[53] >= 4)


def _move(play: Optional[Play], cost: int, bombs_after: int, bombs: int, own: int) -> list:
    if play is None:
        return [0, -1, 0, 0, cost, 0, 0]
    return [_kind(play), play.strength[1], play.size, play.wilds, cost,
            int(not play.is_bomb and bombs_after < bombs), int(play.size == own)]


def features(view: View, moves: Sequence[Optional[Play]]) -> np.ndarray:
    """One row of FEATURES for each of ``moves[1:]`` against ``moves[0]``
    (the policy's move): what the seat sees (the counts, its hand's
    minimum plays and bombs, the standing play) and both moves (kind, rank
    key, size, wilds, the plays it costs the hand's plan, whether it breaks
    a bomb or empties the hand), then the candidate's index."""
    me, counts, owner = view.seat, view.counts, view.owner
    lv = view.rules.level_index
    hand = view.hand_counts
    rows = [hand]
    for m in moves:
        h = hand.copy()
        if m is not None:
            np.subtract.at(h, list(m.card_ids), 1)
        rows.append(h)
    arr = np.array(rows, dtype=np.uint8)
    plays = min_plays_batch(arr, view.rules.level, view.rules)
    bombs = [bombs_held(h, lv) for h in arr]
    table = view.table
    if owner is None or owner == me:
        lead = 0
    else:
        lead = 2 if owner == me ^ 2 else 1
    context = [lead, counts[me], counts[me ^ 2], counts[(me + 1) % 4], counts[(me + 3) % 4],
               -1 if owner is None else counts[owner], sum(counts), int(plays[0]), bombs[0], lv,
               -1 if table is None else _kind(table), -1 if table is None else table.strength[1],
               0 if table is None else table.size, view.passes]
    described = []
    for k, m in enumerate(moves):
        cost = int(plays[k + 1]) - int(plays[0]) + (m is not None)
        described.append(_move(m, cost, bombs[k + 1], bombs[0], counts[me]))
    return np.array([context + described[0] + described[j] + [j] for j in range(1, len(moves))],
                    dtype=np.float64)


_ARRAYS = {"feature": np.int32, "threshold": np.float64, "left": np.int32, "right": np.int32,
           "value": np.float64, "roots": np.int32, "base": np.float64}


def load_model(path: Any) -> dict:
    """A forest from an ``.npz`` file (``bench/train_distilled.py`` writes
    it): the arrays of ``_core._forest_predict``, checked so that every walk
    ends (every index in range, each child after its parent). A ModelError
    names the file and the array at fault."""
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: np.ascontiguousarray(z[k]) for k in z.files}
    except (OSError, ValueError, EOFError) as e:
        raise ModelError(f"{path}: not a readable .npz model ({e})") from None
    out = {}
    for name, dtype in _ARRAYS.items():
        if name not in data:
            raise ModelError(f"{path}: the array {name!r} is missing")
        a = data[name]
        if a.ndim != 1 or not np.can_cast(a.dtype, dtype, casting="same_kind"):
            raise ModelError(f"{path}: the array {name!r} must be 1-D {np.dtype(dtype).name}")
        out[name] = np.ascontiguousarray(a, dtype=dtype)
    n = len(out["feature"])
    for name in ("threshold", "left", "right", "value"):
        if len(out[name]) != n:
            raise ModelError(f"{path}: the array {name!r} must have one entry a node ({n})")
    if len(out["base"]) != 1:
        raise ModelError(f"{path}: the array 'base' must hold one number")
    for name in ("threshold", "value", "base"):
        if not np.isfinite(out[name]).all():
            raise ModelError(f"{path}: the array {name!r} holds a number that is not finite")
    roots, left, right, feature = out["roots"], out["left"], out["right"], out["feature"]
    if n == 0 or len(roots) == 0 or (roots < 0).any() or (roots >= n).any():
        raise ModelError(f"{path}: the array 'roots' must name nodes (0..{n - 1})")
    inner = left >= 0
    idx = np.arange(n)
    if ((left[inner] <= idx[inner]) | (left[inner] >= n)).any():
        raise ModelError(f"{path}: the array 'left' must name a later node for each inner node")
    if ((right[inner] <= idx[inner]) | (right[inner] >= n)).any():
        raise ModelError(f"{path}: the array 'right' must name a later node for each inner node")
    if ((feature[inner] < 0) | (feature[inner] >= len(FEATURES))).any():
        raise ModelError(f"{path}: the array 'feature' must name a feature "
                         f"(0..{len(FEATURES) - 1})")
    return out


@functools.lru_cache(maxsize=1)
def _shipped() -> dict:
    with resources.files(__package__).joinpath("distilled.npz").open("rb") as f:
        return load_model(f)


def predict(model: dict, X: np.ndarray) -> np.ndarray:
    """The forest's prediction for each row of X (levels a deal gained over
    the policy's move); ``model`` from ``load_model``, X with one column a
    feature (a ModelError otherwise)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != len(FEATURES):
        raise ModelError(f"the rows must have {len(FEATURES)} features, not shape {X.shape}")
    return _core._forest_predict(model["feature"], model["threshold"], model["left"],
                                 model["right"], model["value"], model["roots"], X,
                                 float(model["base"][0]))


class DistilledBot(PolicyBot):
    """The house policy with the learned correction above; tribute and
    return as the policy's (the return by its rollouts)."""

    spec = "distilled"

    def __init__(self) -> None:
        super().__init__()
        self._model = _shipped()

    def choose(self, view: View) -> Optional[Play]:
        moves = candidates(view)[:CANDIDATES]     # the view checked there
        if len(moves) < 2:
            return moves[0]
        gain = predict(self._model, features(view, moves))
        j = int(np.argmax(gain))
        return moves[j + 1] if gain[j] > THRESHOLD else moves[0]

    def __repr__(self):
        return "DistilledBot()"
