"""The numeric encodings DanZero-style agents use (docs/platform.md), from our state.

DanZero numbers cards suit-major with suits H S C D: H2..HA are 0..12,
S2..SA 13..25, C2..CA 26..38, D2..DA 39..51, the small joker 52, the big
joker 53. Its 54-slot count arrays put the counts in a 4 x 13 (suit, rank)
matrix flattened column by column: slot ``rank * 4 + suit`` (ranks 2..A as
0..12, suits H S C D), then the two jokers at 52 and 53; a finished player
is ``-1`` in every slot. The project's 54-count order is ``suit * 13 +
rank`` with suits S H C D (``model.counts``): each conversion is a fixed
permutation.

>>> from guandan_fast import to_counts
>>> z = to_danzero(to_counts("H2 S2 SA HR"))
>>> [int(i) for i in z.nonzero()[0]], [int(v) for v in z[z != 0]]
([0, 1, 49, 53], [1, 1, 1, 1])
>>> [str(c) for c in from_danzero(z, as_cards=True)]
['S2', 'H2', 'SA', 'HR']
>>> danzero_card_id("H2"), danzero_card_id("S2"), danzero_card_id("HR"), str(card_from_danzero_id(39))
(0, 13, 53, 'D2')
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from .._core import CARDS, Card, Play
from ..errors import HandError
from ..game.state import GameState
from ..model.counts import from_counts, to_counts

__all__ = ["to_danzero", "from_danzero", "DANZERO_SLOT", "PROJECT_SLOT", "danzero_card_id",
           "card_from_danzero_id", "action_to_danzero", "actions_to_danzero", "features"]

_DZ_SUIT = {0: 1, 1: 0, 2: 2, 3: 3}        # project suit (S H C D) -> DanZero suit (H S C D)


def _build():
    slot = np.zeros(54, dtype=np.int64)    # project slot -> DanZero count slot
    cid = np.zeros(54, dtype=np.int64)     # project slot -> DanZero card id
    for s in range(4):
        for r in range(13):
            slot[s * 13 + r] = r * 4 + _DZ_SUIT[s]
            cid[s * 13 + r] = _DZ_SUIT[s] * 13 + r
    slot[52], slot[53] = 52, 53
    cid[52], cid[53] = 52, 53
    return slot, cid


DANZERO_SLOT, _DZ_ID = _build()
PROJECT_SLOT = np.argsort(DANZERO_SLOT)    # DanZero count slot -> project slot
_FROM_DZ_ID = np.argsort(_DZ_ID)


def to_danzero(counts, finished: bool = False) -> np.ndarray:
    """A hand (54 counts in the project's order, or any notation) as DanZero's
    54-slot int8 count array; ``finished``: the -1 array of a player out."""
    if finished:
        return -np.ones(54, dtype=np.int8)
    c = to_counts(counts, max_cards=108)
    out = np.zeros(54, dtype=np.int8)
    out[DANZERO_SLOT] = c
    return out


def from_danzero(array, as_cards: bool = False):
    """DanZero's 54-slot count array back to the project's 54 counts (or the
    cards); the all -1 array of a finished player is the empty hand."""
    a = np.asarray(array)
    if a.shape != (54,):
        raise HandError(f"a DanZero count array has 54 slots, not shape {a.shape}")
    if np.all(a == -1):
        a = np.zeros(54, dtype=np.int64)
    if not np.all((a >= 0) & (a <= 2)) or not np.all(a == np.round(a)):
        i = int(np.nonzero((a < 0) | (a > 2) | (a != np.round(a)))[0][0])
        raise HandError(f"DanZero slot {i} holds {a[i]!r}; counts are 0..2 (or all -1)")
    counts = np.zeros(54, dtype=np.uint8)
    counts[PROJECT_SLOT] = a.astype(np.uint8)
    return from_counts(counts) if as_cards else counts


def danzero_card_id(card) -> int:
    """DanZero's number 0..53 of a card."""
    return int(_DZ_ID[Card(card).id if not isinstance(card, Card) else card.id])


def card_from_danzero_id(i: int) -> Card:
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < 54:
        raise HandError(f"a DanZero card number is 0..53, not {i!r}")
    return CARDS[int(_FROM_DZ_ID[int(i)])]


def action_to_danzero(play: Optional[Play]) -> np.ndarray:
    """The 54 counts (DanZero order) of the cards an action uses; a pass is
    all zeros."""
    if play is None:
        return np.zeros(54, dtype=np.int8)
    return to_danzero(np.bincount(np.asarray(play.card_ids, dtype=np.int64),
                                  minlength=54).astype(np.uint8))


def actions_to_danzero(action_array: np.ndarray) -> np.ndarray:
    """The card columns of ``platform.action_array`` (one row per entry of
    the actionList) as an (n, 54) int8 matrix in DanZero's order."""
    counts = np.asarray(action_array)[:, 6:60]
    out = np.zeros((counts.shape[0], 54), dtype=np.int8)
    out[:, DANZERO_SLOT] = counts
    return out


def features(state: GameState, seat: int,
             history: Sequence[tuple[int, Optional[Play]]] = ()) -> dict[str, np.ndarray]:
    """The count-array parts of a DanZero-style observation of ``seat`` in a
    ``GameState`` (seats relative to ``seat``: down = next to play, up =
    previous), each in DanZero's order: ``hand``; ``others`` (the cards the
    other three hold together); ``last_action`` and ``partner_last`` (the
    last play made, -1 when none); ``played_down``/``played_partner``/
    ``played_up`` (every card each has played, from ``history``, a sequence
    of (seat, Play or None)); ``left_down``/``left_partner``/``left_up`` (the
    number of cards held, one-hot 0..27). The levels and DanZero's own
    12 wild-card flags are not made here (their definition is DanZero's)."""
    down, mate, up = (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4
    others = sum(state.hands[s].astype(np.int64) for s in range(4) if s != seat)
    played = {s: np.zeros(54, dtype=np.int64) for s in range(4)}
    last = None
    last_by = {}
    for s, p in history:
        if p is not None:
            for cid in p.card_ids:
                played[s][cid] += 1
            last = p
            last_by[s] = p

    def one_hot(n):
        v = np.zeros(28, dtype=np.int8)
        v[n] = 1
        return v

    return {
        "hand": to_danzero(state.hands[seat]),
        "others": _wide(others),
        "last_action": action_to_danzero(last) if last is not None else -np.ones(54, np.int8),
        "partner_last": (action_to_danzero(last_by[mate]) if mate in last_by
                         and mate not in state.finished else -np.ones(54, np.int8)),
        "played_down": _wide(played[down]), "played_partner": _wide(played[mate]),
        "played_up": _wide(played[up]),
        "left_down": one_hot(state.count(down)), "left_partner": one_hot(state.count(mate)),
        "left_up": one_hot(state.count(up)),
    }


def _wide(counts) -> np.ndarray:
    out = np.zeros(54, dtype=np.int8)
    out[DANZERO_SLOT] = np.asarray(counts, dtype=np.int64)
    return out
