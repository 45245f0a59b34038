"""The 54-count encoding of a hand: the bridge between cards and the core.

Slot ``suit * 13 + rank`` holds the count (0..2) of a suited card, with suits
S H C D as 0..3 and ranks 2..A as 0..12; slot 52 is the small joker, slot 53
the big joker. This is the one-slot-per-distinct-card encoding used by
Guandan reinforcement-learning agents, as a numpy ``uint8`` array.

>>> counts = to_counts("S3 S3 HR")
>>> int(counts[1]), int(counts[53]), int(counts.sum())
(2, 1, 3)
>>> [str(c) for c in from_counts(counts)]
['S3', 'S3', 'HR']
"""

from __future__ import annotations

from typing import Iterable, Union

import numpy as np

from .. import _core
from .._core import CARDS, Card
from ..model.cards import MAX_COPIES, MAX_HAND, parse_cards
from ..errors import HandError

__all__ = ["HandLike", "to_counts", "to_count_rows", "from_counts", "card_index", "N_SLOTS"]

N_SLOTS = 54
HandLike = Union[str, Iterable[Card], Iterable[str], np.ndarray]


def card_index(card: Card) -> int:
    """The slot of a card in the 54-count encoding."""
    return card.id


def _check_count_dtype(arr: np.ndarray) -> None:
    """A count array holds integers, or floats that are whole numbers."""
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise HandError("a count array holds whole numbers of copies 0..2")
    elif arr.dtype.kind not in "biu":
        raise HandError(f"a count array holds integers, not {arr.dtype}")


def to_counts(hand: HandLike, max_cards: int = MAX_HAND) -> np.ndarray:
    """A hand as a contiguous uint8 array of 54 counts.

    Accepts text in any notation, an iterable of cards or tokens, or an
    existing count array (validated: 54 slots, each 0..2). A valid contiguous
    uint8 array is returned as it is, not copied.
    """
    if (isinstance(hand, np.ndarray) and hand.dtype == np.uint8 and hand.ndim == 1
            and hand.shape[0] == N_SLOTS and hand.flags.c_contiguous):
        if _core._py_check_counts(hand, max_cards) == -1:
            return hand
    if isinstance(hand, np.ndarray):
        if hand.ndim != 1:
            raise HandError(f"a count array is one row of 54 slots, not shape {hand.shape}")
        _check_count_dtype(hand)
        arr = np.clip(hand, -1, 3).astype(np.int64) if hand.dtype.kind == "f" else \
            np.ascontiguousarray(hand).astype(np.int64)
        if arr.shape[0] != N_SLOTS:
            raise HandError(f"a count array has 54 slots, not {arr.shape[0]}")
        bad = np.nonzero((arr < 0) | (arr > MAX_COPIES))[0]
        if bad.size:
            i = int(bad[0])
            raise HandError(f"slot {i} ({CARDS[i]}) holds {hand[i]} copies; 0..2 allowed")
        if arr.sum() > max_cards:
            raise HandError(f"{int(arr.sum())} cards: a hand holds at most {max_cards}")
        return arr.astype(np.uint8)
    cards = parse_cards(hand, max_cards=max_cards)
    return np.bincount(np.fromiter((c.id for c in cards), dtype=np.intp, count=len(cards)),
                       minlength=N_SLOTS).astype(np.uint8)


def to_count_rows(counts: object, max_cards: int = MAX_HAND) -> np.ndarray:
    """An (N, 54) array of hands as a contiguous uint8 array, validated:
    integer (or whole-number) counts 0..2, at most ``max_cards`` a row."""
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != N_SLOTS:
        raise HandError(f"counts must have shape (N, 54), not {arr.shape}")
    _check_count_dtype(arr)
    if arr.size:
        bad = np.argwhere((arr < 0) | (arr > MAX_COPIES))
        if bad.size:
            row, col = (int(x) for x in bad[0])
            raise HandError(f"row {row}, slot {col} ({CARDS[col]}): {arr[row, col]} copies; "
                            "0..2 allowed")
        sums = arr.astype(np.int64).sum(axis=1)
        if sums.max() > max_cards:
            row = int(np.argmax(sums))
            raise HandError(f"row {row}: {int(sums[row])} cards; a hand holds at most {max_cards}")
    return np.ascontiguousarray(arr, dtype=np.uint8)


# the slots in the cards' order (natural rank, then suit; the jokers last)
_ORDER = tuple(sorted(range(N_SLOTS), key=lambda i: CARDS[i]))


def from_counts(counts: np.ndarray) -> list[Card]:
    """The cards of a count array, sorted (natural rank, then suit; the
    jokers last). The array is checked as ``to_counts`` checks one (54 slots of 0..2 copies,
    at most the two decks' 108 cards): anything else is a HandError."""
    if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__"):
        raise HandError(f"a count array of 54 slots, not {type(counts).__name__}")
    try:
        arr = np.asarray(counts)
    except ValueError:
        raise HandError("a count array of 54 slots, not a ragged sequence") from None
    n = to_counts(arr, max_cards=MAX_COPIES * N_SLOTS).tolist()
    return [CARDS[i] for i in _ORDER for _ in range(n[i])]
