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
"""

from __future__ import annotations

from ..engine.value import MoveValue
from ..errors import ViewError
from ..game.view import View
from .search import DEFAULT_SAMPLES, check_search, evaluate_moves

__all__ = ["suggest"]


def suggest(view: View, *, max_seconds: float = 0.2, seed: int = 0,
            samples: int = DEFAULT_SAMPLES, threads: int = 1) -> list[MoveValue]:
    """Every legal move of the seat to act, best first, within
    ``max_seconds`` (the rollouts share the budget, on ``threads`` threads;
    a forced move answers at once)."""
    if not isinstance(view, View):
        raise ViewError(f"suggest needs a View, not {type(view).__name__}")
    max_seconds, samples, seed, _ = check_search(max_seconds, samples, seed, None)
    return evaluate_moves(view, max_seconds=max_seconds, samples=samples, seed=seed,
                          threads=threads)
