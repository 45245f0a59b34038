"""Stand-ins for the estimator's answer, for tests that inject engines
into the review (``analyse(..., estimator=...)``): an ``Estimate``'s fields
the review reads, over real ``MoveValue`` entries (team 0's values)."""

import zlib
from dataclasses import dataclass

from guandan_fast.engine.value import MoveValue


def FakeMove(play, mean, low, high, samples=1, exact=False):
    """A move's estimate as the estimator gives it (nothing proven unless
    ``exact``)."""
    return MoveValue(play, mean, low, high, samples=samples, exact=exact)


@dataclass
class FakeEstimate:
    value: float
    moves: list
    exact: bool = False


def spread_estimator(state, max_seconds=None, seed=0, **_):
    """Every move a value of its own (made of its cards), ±0.3: moves far
    apart have intervals apart, so estimated mistakes are marked."""
    moves = []
    for p in state.legal_actions():
        m = (zlib.crc32(str(p).encode()) % 500) / 100.0 - 2.5 + 0.123
        moves.append(FakeMove(p, m, max(-3.0, m - 0.3), min(3.0, m + 0.3), 50))
    return FakeEstimate(moves[0].mean, moves)
