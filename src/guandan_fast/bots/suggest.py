"""The hint call for apps: every legal move, valued, best first.

``suggest(view, max_seconds=0.2)`` samples the hidden hands from the view,
runs the perfect-information estimator on each sample within the budget
(``evaluate_moves``, the computation SearchBot plays by) and returns every
legal move, the pass included when following, as a
``Suggestion(play, value, low, high)``: the expected level gain of the
mover's team and its 95% interval. ``hints`` stays the instant fallback:
moves the budget did not reach come last in the hint order, with value None.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .._core import Play
from ..errors import ViewError
from ..game.view import View
from .search import DEFAULT_SAMPLES, check_search, evaluate_moves

__all__ = ["Suggestion", "suggest"]


class Suggestion(NamedTuple):
    """A legal move (None: pass) and its value for the mover's team in
    levels, with the 95% interval; None when not valued in the budget."""

    play: Optional[Play]
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]


def suggest(view: View, max_seconds: float = 0.2, seed: int = 0,
            samples: int = DEFAULT_SAMPLES) -> list[Suggestion]:
    """Every legal move of the seat to act, best first, within
    ``max_seconds`` (the estimator's calls share the budget; a forced move
    answers at once)."""
    if not isinstance(view, View):
        raise ViewError(f"suggest needs a View, not {type(view).__name__}")
    max_seconds, samples, seed, _ = check_search(max_seconds, samples, seed, None)
    return [Suggestion(m.play, m.value, m.low, m.high)
            for m in evaluate_moves(view, max_seconds, samples, seed=seed)]
