"""A move and what it is worth: the one value type of every engine.

:class:`MoveValue` is what ``solve``, ``estimate``, ``suggest`` /
``evaluate_moves`` and the exchange valuation (``analysis.exchange``) return
for each move, and what the review judges: the move (a Play, None for a
pass, or a Card for a tribute or return), its mean with an interval, what
is proven of it, how many results are behind it, and the team whose
expected level gain (RULES 8, +3 .. -3) these numbers are. ``pov(team)``
views the same value from the other team's side (every number negated, the
interval's ends swapped).

>>> v = MoveValue(None, 1.5, 0.5, 2.5, proven_low=-1, proven_high=3, samples=40)
>>> w = v.pov(1)
>>> w.team, w.mean, w.low, w.high, w.proven_low, w.proven_high, w.samples
(1, -1.5, -2.5, -0.5, -3, 1, 40)
>>> v.pov(1).pov(0) == v
True

The algebra the review needs lives here too: a position's value from its
moves' (``position_value``), the loss of a move against its position
(``loss``), the difference of two values (``difference``), and a value held
within proven bounds (``MoveValue.within``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional, Sequence, Tuple

from ..errors import MoveValueError

__all__ = ["MoveValue", "position_value", "loss", "difference", "move_dict", "LOWEST",
           "HIGHEST"]

LOWEST, HIGHEST = -3, 3        # the range of a deal's value (RULES 8)


@dataclass(frozen=True)
class MoveValue:
    """One move and its value for ``team`` (0: seats 0 & 2, 1: seats 1 & 3).

    ``move``: a Play, None for a pass, a Card for a tribute or return (None
    too for a position's own value). ``mean``: the expected level gain after
    the move; ``low``/``high``: its interval (a confidence interval, or the
    proven bounds when nothing else is known); ``proven_low`` /
    ``proven_high``: what is proven of the exact value (always holds it).
    ``samples``: the results behind the mean (playouts, or sampled deals);
    0 when nothing but the proven bounds is known (the mean is then their
    middle); None for a solver's proof. ``exact``: the value is proven
    (mean, low, high and the proven bounds are then one number). ``score``:
    the estimator's ranking score (the tree's minimax value of the move),
    None elsewhere.
    """

    move: Any
    mean: float
    low: float
    high: float
    proven_low: float = LOWEST
    proven_high: float = HIGHEST
    samples: Optional[int] = None
    exact: bool = False
    team: int = 0
    score: Optional[float] = None

    def __post_init__(self):
        if isinstance(self.team, bool) or not hasattr(self.team, "__index__") \
                or self.team not in (0, 1):
            raise MoveValueError(f"a MoveValue's team is 0 or 1, not {self.team!r}"[:100])
        if self.exact and not self.proven_low == self.proven_high == self.mean:
            object.__setattr__(self, "proven_low", self.mean)
            object.__setattr__(self, "proven_high", self.mean)

    @classmethod
    def proven(cls, move, value, team: int = 0) -> "MoveValue":
        """A proven value.

        >>> MoveValue.proven(None, 2).value
        2
        """
        return cls(move, value, value, value, samples=None, exact=True, team=team)

    @classmethod
    def bounded(cls, move, low, high, team: int = 0) -> "MoveValue":
        """Nothing known but the proven bounds ``low`` .. ``high`` (the mean is
        their middle, no samples; exact when they meet)."""
        if low == high:
            return cls.proven(move, low, team)
        return cls(move, (low + high) / 2, low, high, low, high, samples=0, team=team)

    @property
    def value(self):
        """The proven value, None when the value is not proven."""
        return self.mean if self.exact else None

    @property
    def valued(self) -> bool:
        """Proven, or backed by at least one result (not the bounds alone)."""
        return self.exact or self.samples != 0

    @property
    def interval(self) -> Tuple[float, float]:
        return self.low, self.high

    @property
    def bounds(self) -> Tuple[float, float]:
        """(proven_low, proven_high)."""
        return self.proven_low, self.proven_high

    def pov(self, team: int) -> "MoveValue":
        """The same value from ``team``'s side (itself when it is already)."""
        if team not in (0, 1):
            raise ValueError(f"team must be 0 or 1, not {team!r}")
        if team == self.team:
            return self
        return replace(self, mean=-self.mean, low=-self.high, high=-self.low,
                       proven_low=-self.proven_high, proven_high=-self.proven_low,
                       team=team, score=None if self.score is None else -self.score)

    def with_move(self, move) -> "MoveValue":
        return replace(self, move=move)

    def within(self, low, high) -> "MoveValue":
        """The value held within newly proven bounds ``low`` .. ``high``
        (sound: a proven bound is never wrong, an interval may be): the
        proven bounds intersected, the interval and the mean cut to them (an
        interval that misses them entirely becomes them); exact when the
        bounds meet. (Bounds disjoint from the value's own are a
        contradiction: ValueError.)"""
        lo, hi = max(self.proven_low, low), min(self.proven_high, high)
        if lo > hi:
            raise ValueError(f"proven bounds {low}..{high} contradict "
                             f"{self.proven_low}..{self.proven_high}")
        i_lo, i_hi = max(self.low, lo), min(self.high, hi)
        if i_lo > i_hi:
            i_lo, i_hi = lo, hi
        mean = min(max(self.mean, i_lo), i_hi)
        if lo == hi:
            return replace(self, mean=lo, low=lo, high=lo, proven_low=lo, proven_high=hi,
                           exact=True)
        return replace(self, mean=mean, low=i_lo, high=i_hi, proven_low=lo, proven_high=hi)

    def to_dict(self) -> dict:
        """JSON-ready data (the review's form; team 0's values are what it
        stores)."""
        return {"move": move_dict(self.move), "mean": _r(self.mean), "low": _r(self.low),
                "high": _r(self.high), "exact": self.exact, "samples": self.samples,
                "bounds": [_r(self.proven_low), _r(self.proven_high)]}


def _r(x):
    return None if x is None else round(float(x), 3)


def move_dict(m) -> Optional[dict]:
    """A move as JSON-ready data: a play's cards, type and rank; a card's."""
    if m is None:
        return None
    if hasattr(m, "type"):
        return {"cards": str(m), "type": m.type, "rank": m.rank}
    return {"cards": str(m), "type": "card", "rank": str(m)[1:]}


def _team_of(moves: Sequence[MoveValue]) -> int:
    teams = {m.team for m in moves}
    if len(teams) != 1:
        raise ValueError("values from both teams' sides: view them from one (pov)")
    return teams.pop()


def position_value(moves: Sequence[MoveValue], mover: int) -> Optional[MoveValue]:
    """The value of a position where team ``mover`` is to move, from the
    values of its moves (all from one team's side; the answer is from that
    side too, with move None): the best mean for the mover (the first of
    equal means), with that move's own interval; what is proven of it: the
    best lower bound and the best upper bound for the mover (a position is
    worth its best move), the interval held within them. None without
    moves.

    >>> a, b = MoveValue("a", 1.0, 0.0, 2.0, 0, 3), MoveValue("b", 0.5, 0.0, 1.0, -1, 2)
    >>> p = position_value([a, b], 0)
    >>> p.move, p.mean, p.low, p.high, p.proven_low, p.proven_high
    (None, 1.0, 0.0, 2.0, 0, 3)
    >>> q = position_value([a, b], 1)          # team 1 to move: b is its best
    >>> q.mean, q.low, q.high, q.proven_low, q.proven_high
    (0.5, 0.0, 1.0, -1, 2)
    """
    if not moves:
        return None
    side = _team_of(moves)
    mine = [m.pov(mover) for m in moves]
    top = max(mine, key=lambda m: m.mean)             # the first of equal means
    lo, hi = max(m.proven_low for m in mine), max(m.proven_high for m in mine)
    if lo == hi:
        return MoveValue(None, lo, lo, lo, exact=True, team=mover).pov(side)
    low, high = max(top.low, lo), min(top.high, hi)
    mean = min(max(top.mean, low), high)
    return MoveValue(None, mean, low, high, lo, hi, samples=top.samples,
                     team=mover).pov(side)


def _mover_interval(m: MoveValue) -> Tuple[float, float, float]:
    """(low, mean, high); an estimate's interval of no width (not a
    confidence interval) is its proven bounds."""
    lo, hi = m.low, m.high
    if not m.exact and lo == hi:
        lo, hi = m.proven_low, m.proven_high
    return lo, m.mean, hi


def loss(position: MoveValue, chosen: MoveValue, mover: int) -> Tuple[float, float, float, float]:
    """The loss of the move played (``chosen``) against the position it was
    played in (``position_value``), for team ``mover``: ``(mean, low,
    high, proven)``. The mean is the difference of the means; the interval
    is the conservative one of a difference (the position's low minus the
    move's high, its high minus the move's low), held within what the
    proven bounds allow and at 0 at least (no move is worth more than the
    position); ``proven`` is what the bounds prove of it, the position's
    lower bound minus the move's upper bound (0 when they do not separate;
    the whole loss when both values are exact)."""
    p, c = position.pov(mover), chosen.pov(mover)
    p_lo, p_mean, p_hi = _mover_interval(p)
    c_lo, c_mean, c_hi = _mover_interval(c)
    proven = max(0.0, p.proven_low - c.proven_high)
    mean = max(proven, p_mean - c_mean)
    low = min(mean, max(proven, p_lo - c_hi))
    high = max(mean, min(p_hi - c_lo, p.proven_high - c.proven_low))
    return mean, low, high, proven


def difference(a: MoveValue, b: MoveValue) -> MoveValue:
    """``a - b`` of two values from one side: the mean's difference, the
    interval from the two intervals (conservatively: low minus high, high
    minus low) and what is proven from the two proven ranges (-6..6 at
    most); move None."""
    if a.team != b.team:
        b = b.pov(a.team)
    lo, hi = a.proven_low - b.proven_high, a.proven_high - b.proven_low
    return MoveValue(None, a.mean - b.mean, max(lo, a.low - b.high), min(hi, a.high - b.low),
                     lo, hi, exact=a.exact and b.exact, team=a.team)
