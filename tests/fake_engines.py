"""Stand-ins for the estimator's answer, for tests that inject engines
into the review (``analyse(..., estimator=...)``): the fields the review
reads of an ``Estimate`` and of its ``MoveEstimate`` entries."""

from dataclasses import dataclass


@dataclass
class FakeMove:
    play: object
    mean: float
    low: float
    high: float
    samples: int = 1
    exact: bool = False


@dataclass
class FakeEstimate:
    value: float
    moves: list
    exact: bool = False
