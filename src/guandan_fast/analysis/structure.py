"""Which structure of the mover's hand a play breaks.

The review's plays-left column (``8→7``) is the mover's fewest plays to go
out before and after the move (``engine.decomposition.min_plays``). A move
that is one play of a minimal partition lowers it by one; a move that does
not, leaves it where it was or raises it: it **breaks a structure**.
``broken(hand, move, rules)`` names that structure: the group of a minimal
partition of the hand before the move (``engine.decomposition.decompose``)
that holds a card of the move, is not itself the move played whole, and is
not a group of the minimal partition after the move (the largest such
group; None when the move lowers the count by one, or is a pass).

``structure_dict(play)`` is the structure as data for the review's JSON:
its cards, type, rank (``engine.value.move_dict``), its number of cards
and, for a run (straight, straight flush, tube, plate), its lowest and
highest rank characters (``low``, ``high``), which the report puts into
words ("breaks the straight 7–J").

>>> from guandan_fast import Rules
>>> from guandan_fast.model.rules import read_play
>>> r = Rules(level=2)
>>> hand = "S7 H8 C9 DT SJ D3 D3"
>>> str(broken(hand, read_play("C9", r), r))
'S7 H8 C9 DT SJ'
>>> broken(hand, read_play("D3 D3", r), r) is None      # played whole: 3 -> 2
True
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

from ..engine.decomposition import decompose, min_plays
from ..engine.value import move_dict
from ..model.cards import SEQUENCE, parse_cards

__all__ = ["broken", "structure_dict", "RUNS"]

RUNS = ("straight", "straight_flush", "tube", "plate")
_RUN_LENGTH = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}   # ranks in a run


def _bag(cards) -> Counter:
    return Counter(str(c) for c in cards)


def broken(hand, move, rules) -> Optional[object]:
    """The structure (a Play of a minimal partition of ``hand``) that
    ``move`` breaks, or None (the module docstring)."""
    if move is None:
        return None
    cards = parse_cards(hand) if isinstance(hand, str) else list(hand)
    before = min_plays(cards, rules)
    left = list(cards)
    for c in move.cards:
        left.remove(c)
    after = min_plays(left, rules) if left else 0
    if after < before:               # one play of a minimal partition: nothing broken
        return None
    played = _bag(move.cards)
    after_groups = [_bag(g.cards) for g in decompose(left, rules)] if left else []
    found = []
    for g in decompose(cards, rules):
        bag = _bag(g.cards)
        if bag == played or not (bag & played) or bag in after_groups:
            continue
        found.append(g)
    if not found:
        return None
    return max(found, key=lambda g: (len(g.cards), sum((_bag(g.cards) & played).values())))


def structure_dict(play) -> Optional[dict]:
    """A structure as JSON-ready data: ``cards``, ``type``, ``rank``,
    ``size`` (its number of cards) and, for a run, ``low`` and ``high``
    (rank characters, ``T`` for the ten)."""
    if play is None:
        return None
    out = dict(move_dict(play) or {})
    out["size"] = len(play.cards)
    if play.type in RUNS:
        top = SEQUENCE.rindex(play.rank)      # the run's top: its rank (A low: 5)
        out["low"], out["high"] = SEQUENCE[top - _RUN_LENGTH[play.type] + 1], play.rank
    else:
        out["low"] = out["high"] = None
    return out
