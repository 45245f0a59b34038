"""Seats 0..3 and their order of play (RULES §1, §6).

Seat ``s + 1 (mod 4)`` plays after seat ``s``; seats 0 and 2 are team 0,
seats 1 and 3 team 1. ``check_seat`` is the one validation of a seat
number, ``passes_between`` the one count of the passes a round holds.

>>> partner(1), team(3), next_seat(3)
(3, 1, 0)
>>> passes_between(0, 3, [True, True, False, True])     # seat 2 is out
1
>>> passes_between(0, 0, [True, True, True, True])      # a full round: three passes
3
"""

from __future__ import annotations

from typing import Optional, Sequence, Type

import numpy as np

from ..errors import GuandanError

__all__ = ["SEATS", "check_seat", "partner", "team", "next_seat", "passes_between", "team_out"]

SEATS = (0, 1, 2, 3)


def check_seat(value: object, what: str = "seat", error: Type[GuandanError] = GuandanError) -> int:
    """``value`` as a seat number 0..3, or ``error`` naming ``what``
    (booleans are not seats).

    >>> check_seat(4, "turn")
    Traceback (most recent call last):
    ...
    guandan_fast.errors.GuandanError: turn must be a seat 0..3, not 4
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= int(value) <= 3:
        raise error(f"{what} must be a seat 0..3, not {value!r}")
    return int(value)


def partner(seat: int) -> int:
    """The partner of a seat (0 and 2, 1 and 3)."""
    return (seat + 2) % 4


def team(seat: int) -> int:
    """0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def team_out(finished: Sequence[int]) -> Optional[int]:
    """The team both of whose players are out, so that the deal is over
    (RULES §6), else None (team 0 when both teams are).

    >>> team_out([1, 3]), team_out([0, 1]), team_out([0, 1, 2])
    (1, None, 0)
    """
    if 0 in finished and 2 in finished:
        return 0
    if 1 in finished and 3 in finished:
        return 1
    return None


def next_seat(seat: int) -> int:
    """The seat that plays after ``seat``."""
    return (seat + 1) % 4


def passes_between(owner: int, seat: int, holding: Sequence[bool]) -> int:
    """The passes made since ``owner``'s standing play when ``seat`` is to
    act: one for each seat still holding cards (``holding[s]``) strictly
    between them in the order of play. With ``seat == owner`` the whole
    circle: the passes that end the round (RULES §6), after which the owner
    leads, or its partner when the owner is out (接风)."""
    span = (seat - owner) % 4 or 4
    return sum(1 for k in range(1, span) if holding[(owner + k) % 4])
