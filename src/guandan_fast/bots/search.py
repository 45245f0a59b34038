"""SearchBot: decisions from one seat's view by sampling the hidden hands.

The method (perfect-information Monte Carlo): draw deals consistent with
the view (``sample_deals``: exact-uniform), evaluate every legal move on
each deal with the perfect-information estimator
(``guandan_fast.engine.estimate.estimate``, which runs the exact solver
where it reaches), average each move's value over the deals and play the
best average. ``evaluate_moves`` is that computation, shared with
``suggest``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Sequence

from .._core import Card, Play
from ..engine.moves import hints
from ..game.state import team
from ..game.view import View, sample_deals
from .base import Bot, _advised
from ..game.tribute import suggest_return, suggest_tribute
from .stats import mean_ci

__all__ = ["SearchBot", "MoveValue", "evaluate_moves", "DEFAULT_SAMPLES"]

DEFAULT_SAMPLES = 8
_MIN_CALL = 0.002        # seconds: a budget below this is not worth a call


@dataclass(frozen=True)
class MoveValue:
    """One legal move with its value for the mover's team (levels), the 95%
    interval over the sampled deals (over the estimator's own interval when
    one deal was evaluated), and the number of deals that evaluated it.
    ``value`` is None when no deal was evaluated in the budget."""

    play: Optional[Play]
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    samples: int


def _estimate():
    from ..engine.estimate import estimate
    return estimate


def evaluate_moves(view: View, max_seconds: float, samples: int = DEFAULT_SAMPLES,
                   seed: int = 0, max_playouts: Optional[int] = None) -> list[MoveValue]:
    """Every legal move of ``view`` (the pass included when following),
    best first for the mover, valued over up to ``samples`` deals drawn
    from the view within ``max_seconds`` in all. Moves never valued (no
    time) follow in the hint order with value None; ties keep the hint
    order. A perfect-information view is one deal, given the whole budget.
    With ``max_playouts`` the estimator stops at that many playouts a
    deal, so the result no longer depends on the machine's speed.
    """
    start = time.perf_counter()
    deadline = start + max_seconds
    actions = view.legal_actions()
    order = hints(view.hand_counts, view.rules, view.table)
    rank = {p: i for i, p in enumerate(order)}
    rank[None] = len(order)   # the pass after every play
    actions.sort(key=lambda p: rank.get(p, len(order)))
    if len(actions) == 1:
        return [MoveValue(actions[0], None, None, None, 0)]
    estimate = _estimate()
    n = 1 if view.perfect else max(1, int(samples))
    deals = sample_deals(view, n, seed=seed)
    sign = 1.0 if team(view.seat) == 0 else -1.0
    values: dict = {p: [] for p in actions}
    single: dict = {}
    for k, deal in enumerate(deals):
        budget = (deadline - time.perf_counter()) / (n - k)
        if budget < _MIN_CALL:
            break
        est = estimate(view.state(deal), max_seconds=budget, max_playouts=max_playouts,
                       threads=1, seed=seed * 1009 + k)
        for m in est.moves:
            if m.play in values:
                values[m.play].append(sign * m.mean)
                lo, hi = sign * m.low, sign * m.high
                single[m.play] = (min(lo, hi), max(lo, hi))
    out = []
    for p in actions:
        vals = values[p]
        if not vals:
            out.append(MoveValue(p, None, None, None, 0))
        elif len(vals) == 1:
            lo, hi = single[p]
            out.append(MoveValue(p, vals[0], lo, hi, 1))
        else:
            mean, lo, hi = mean_ci(vals)
            out.append(MoveValue(p, mean, lo, hi, len(vals)))
    out.sort(key=lambda m: (m.value is None, -(m.value if m.value is not None else 0.0),
                            rank.get(m.play, len(order))))
    return out


class SearchBot(Bot):
    """Plays the move with the best average value over sampled deals.

    Each decision: ``samples`` deals drawn uniformly among those consistent
    with the view, the estimator run on each (the budget ``max_seconds``
    split evenly between them), each move's values averaged; the best
    average is played, ties and unvalued moves in the hint order. A forced
    move (one legal action) costs no time.

    Strategy fusion. Valuing a move on a deal where every hidden card is
    known assumes that after the move the player will know the hidden
    cards, and so choose differently in each deal; a move that keeps
    options open for a later guess is overvalued, a move that settles the
    question now undervalued. This bot does not model it away: it averages
    over several deals (``samples``) rather than trusting one, and breaks
    ties toward the hint order (the plain, information-free play). The
    remedy measured (docs/bots.md): choosing by the number of deals where a
    move is best instead of by its mean.

    Tribute and return: the advice of ``suggest_tribute`` /
    ``suggest_return`` (as GreedyBot); the estimator does not value them.
    """

    def __init__(self, max_seconds: float = 0.2, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, max_playouts: Optional[int] = None):
        self.max_seconds = float(max_seconds)
        self.samples = int(samples)
        self.seed = int(seed)
        self.max_playouts = max_playouts
        self._deal_seed = self.seed
        self._calls = 0
        extra = "" if samples == DEFAULT_SAMPLES else f",samples={samples}"
        extra += "" if max_playouts is None else f",playouts={max_playouts}"
        self.spec = f"search:{self.max_seconds:g}{extra}"

    def reset(self, seed: int) -> None:
        self._deal_seed = (self.seed * 1_000_003 + seed) & 0x7FFFFFFF
        self._calls = 0

    def choose(self, view: View) -> Optional[Play]:
        self._calls += 1
        moves = evaluate_moves(view, self.max_seconds, self.samples,
                               seed=(self._deal_seed * 131 + self._calls) & 0x7FFFFFFF,
                               max_playouts=self.max_playouts)
        return moves[0].play

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return _advised(suggest_tribute(view.hand_counts, view.rules), candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return _advised(suggest_return(view.hand_counts, view.rules), candidates)

    def __repr__(self):
        return (f"SearchBot(max_seconds={self.max_seconds:g}, samples={self.samples}, "
                f"seed={self.seed}" + ("" if self.max_playouts is None
                                       else f", max_playouts={self.max_playouts}") + ")")
