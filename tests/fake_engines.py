"""Stand-ins for the estimator's answer, for tests that inject engines
into the review (``analyse(..., estimator=...)``): an ``Estimate``'s fields
the review reads, over real ``MoveValue`` entries (team 0's values)."""

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
