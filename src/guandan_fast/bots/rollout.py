"""Rollout search over the house policy (bot spec ``rollout``).

A decision samples deals consistent with the seat's view
(``sample_deals``), plays every candidate move on each of them and then the
policy in every seat to the end of the deal (``rollout_moves``: compiled,
without the GIL), and takes the candidate with the best mean result. Every
candidate is played on the same deals (paired), so the comparison between
two candidates does not carry the luck of the draw. The candidates: the
policy's own move first, then the pass when following, then the hint order
(``hints``: fewest plays left, wilds kept, low ranks), ``width`` of them
in all. Another candidate replaces the policy's move only when its mean
beats it by more than one standard error of the paired difference.

Spec: ``rollout`` (0.2 s a decision), ``rollout:0.05``, and options
``deals=N`` (N deals a decision instead of a time budget: deterministic for
a seed), ``width=K`` (candidates, default 8), ``seed=S``. Tribute and return
by the advice, as the policy.

>>> from guandan_fast import Rules
>>> from guandan_fast.game.state import GameState
>>> from guandan_fast.game.view import View
>>> from guandan_fast.bots.match import deal_for
>>> hands, level, leader = deal_for(1, 0)
>>> view = View.from_state(GameState.start(hands, Rules(level=level), leader))
>>> bot = RolloutBot(deals=8, width=4)
>>> bot.choose(view) in view.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from typing import Optional, Sequence

import numpy as np

from .._core import Card, Play
from ..engine.moves import hints
from ..errors import ViewError
from ..game.view import View, sample_deals
from .base import Bot
from .policy import PolicyBot, rollout_moves

__all__ = ["RolloutBot"]

_BATCH = 8          # deals drawn at a time under a time budget
_Z = 1.0            # the margin over the policy's move, in standard errors


def _pick(values: np.ndarray, z: float = _Z) -> int:
    """The candidate (row) to play: the best mean when it beats the
    policy's move (row 0) by more than z standard errors of the paired
    difference, else the policy's move. The rollouts are noisy and the
    policy's move is the prior; without the margin the maximum over the
    candidates picks noise."""
    if values.shape[1] < 2:
        return 0
    diff = values - values[0]
    mean = diff.mean(axis=1)
    se = diff.std(axis=1, ddof=1) / np.sqrt(values.shape[1])
    best = int(np.argmax(mean - z * se))
    return best if mean[best] - z * se[best] > 0 else 0


class RolloutBot(Bot):
    """Policy rollouts on sampled deals, paired over the candidates."""

    def __init__(self, max_seconds: float = 0.2, deals: Optional[int] = None, width: int = 8,
                 seed: int = 0):
        if deals is not None and deals < 1:
            raise ViewError("deals must be >= 1")
        if width < 1:
            raise ViewError("width must be >= 1")
        self.max_seconds = max_seconds
        self.deals = deals
        self.width = width
        self.seed = seed
        self._policy = PolicyBot()
        self._rng = random.Random(seed)
        parts = [f"{max_seconds:g}"] if deals is None else [f"deals={deals}"]
        if width != 8:
            parts.append(f"width={width}")
        if seed:
            parts.append(f"seed={seed}")
        self.spec = "rollout:" + ",".join(parts)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"{self.seed}:{seed}")

    def candidates(self, view: View) -> list:
        """The moves compared: the policy's, the pass, then the hint order."""
        legal = view.legal_actions()
        first = self._policy.choose(view)
        out = [first]
        if view.table is not None and first is not None:
            out.append(None)
        for p in hints(view.hand_counts, view.rules, view.table):
            if len(out) >= self.width:
                break
            if p not in out:
                out.append(p)
        return [m for m in out if m in legal][:max(self.width, 1)]

    def choose(self, view: View) -> Optional[Play]:
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        rows = []
        n = 0
        deadline = time.perf_counter() + self.max_seconds
        while True:
            k = self.deals - n if self.deals is not None else _BATCH
            deals = sample_deals(view, k, seed=self._rng.getrandbits(32))
            rows.append(rollout_moves(view, deals, cands)[1])
            n += k
            if self.deals is not None or time.perf_counter() >= deadline:
                break
        return cands[_pick(np.concatenate(rows, axis=1))]

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._policy.tribute(view, candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._policy.give_back(view, candidates)

    def __repr__(self):
        return f"RolloutBot({self.spec!r})"
