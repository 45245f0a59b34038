"""The hint call for apps: every legal move, valued, best first.

``suggest(view, max_seconds=0.2)`` values the moves of the seat to act by
the rollout search within the budget (``bots.search.evaluate_moves``, the
computation SearchBot plays by: each candidate, then the house policy in
every seat, on the same deals drawn from the view) and returns every legal
move, the pass included when following, as a
:class:`~guandan_fast.engine.value.MoveValue` for the mover's team: the
expected level gain (``mean``) and its 95% interval (``low``, ``high``)
over the deals, SearchBot's choice first. ``hints`` stays the instant
fallback: moves the budget did not reach come last in the hint order, not
``valued``.

In the return phase (a View with ``phase="return"``) the moves are the
legal return cards, each valued by whole-deal rollouts after it
(``bots.policy._return_values``, the computation PolicyBot gives back by,
and SearchBot after a single tribute), the policy's choice first: the best
mean, ties to the advice. Without a tribute to the seat in the view, or
with one legal card, the cards come in the advice's order, not
``valued``. The tribute card itself is a choice among suits of one rank:
``suggest_tribute``.
"""

from __future__ import annotations

from typing import Optional

from ..engine.value import MoveValue
from ..errors import ViewError
from ..game.state import team
from ..game.tribute import return_candidates
from ..game.view import View
from ..stats import deals_mean_ci
from .policy import _return_values
from .search import DEFAULT_SAMPLES, check_search, evaluate_moves

__all__ = ["suggest"]


def suggest(view: View, *, max_seconds: float = 0.2, seed: int = 0,
            samples: int = DEFAULT_SAMPLES, threads: int = 1,
            max_playouts: Optional[int] = None) -> list[MoveValue]:
    """Every legal move of the seat to act, best first, within
    ``max_seconds`` (the rollouts share the budget, on ``threads`` threads;
    a forced move answers at once; a return is valued on one thread); with
    ``max_playouts``, that many rollouts instead of the clock: the same
    answer for the same view and seed on every machine."""
    if not isinstance(view, View):
        raise ViewError(f"suggest needs a View, not {type(view).__name__}")
    max_seconds, samples, seed, max_playouts = check_search(max_seconds, samples, seed,
                                                            max_playouts)
    if view.phase == "return":
        return _suggest_return(view, max_seconds, seed, max_playouts)
    if view.phase == "tribute":
        raise ViewError("suggest values plays and returns; the tribute card: suggest_tribute")
    return evaluate_moves(view, max_seconds=max_seconds, samples=samples, seed=seed,
                          threads=threads, max_playouts=max_playouts)


def _suggest_return(view: View, max_seconds: float, seed: int,
                    max_playouts: Optional[int] = None) -> list[MoveValue]:
    """suggest in the return phase: every legal return card, the choice
    first, then by mean (ties in the advice's order)."""
    mover = team(view.seat)
    cards, results = _return_values(view, return_candidates(view.hand, view.rules),
                                    max_seconds, seed, max_playouts)
    if results is None:
        return [MoveValue.bounded(c, -3.0, 3.0, team=mover) for c in cards]
    values = []
    for card, row in zip(cards, results):
        vals = row.astype(float).tolist()
        mean, lo, hi = deals_mean_ci(vals, [0.0] * len(vals))
        values.append(MoveValue(card, mean, lo, hi, samples=len(row), team=mover))
    # sorted is stable: equal means stay in the advice's order, as _choose_return breaks ties
    return [values[i] for i in sorted(range(len(cards)), key=lambda i: -results[i].sum())]
