"""Exact hand decomposition: the minimum number of plays (RULES §8).

>>> from guandan_fast import Rules
>>> min_plays("S3 S4 S5 S6 S7 D9 C9 H9 SB", Rules(level=2))
3
>>> [str(p) for p in decompose("S3 S4 S5 S6 S7 D9 C9 H9 SB", Rules(level=2))]
['S3 S4 S5 S6 S7', 'H9 C9 D9', 'SB']
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._core import Play
from ..errors import HandError, RulesError
from ..model.cards import MAX_HOLDING
from ..model.counts import HandLike, to_count_rows, to_counts
from ..model.rules import Rules, _rules, parse_level

__all__ = ["min_plays", "decompose", "min_plays_batch", "display_key"]


def min_plays(hand: HandLike, rules: Rules | None = None) -> int:
    """The least number of plays into which the whole hand can be split
    (any types, bombs included, each counting 1); exact, wilds included.
    Hands of up to 28 cards (a tribute receiver before the return)."""
    r = _rules(rules)
    return _core._py_min_plays(to_counts(hand, max_cards=MAX_HOLDING), r.level_index, r.flags)


def min_plays_batch(counts: np.ndarray, levels, rules: Rules | None = None) -> np.ndarray:
    """``min_plays`` of every row of an (N, 54) uint8 count array.

    ``levels`` is one level in any form ``Rules`` accepts (``2``, ``"10"``,
    ``"A"``, ``14``), or a sequence of N of them, one a row, in the same
    forms: an integer is a level's number (2..14 for 2..A) either way, never
    an index. The flags come from ``rules`` (its level is not used). The
    kernel runs without the GIL.

    >>> import numpy as np
    >>> from guandan_fast import to_counts
    >>> c = np.stack([to_counts("H2 SA"), to_counts("H2 SA")])
    >>> min_plays_batch(c, 2).tolist(), min_plays_batch(c, [2, "A"]).tolist()
    ([1, 1], [1, 2])
    """
    r = _rules(rules)
    arr = to_count_rows(counts, max_cards=MAX_HOLDING)
    if np.isscalar(levels) or isinstance(levels, str):
        # parse_level is what Rules(level=...) runs: the same index, the same RulesError
        lv = np.full(arr.shape[0], parse_level(levels), dtype=np.int64)
    else:
        raw = np.asarray(levels, dtype=object if isinstance(levels, (list, tuple)) else None)
        if raw.ndim != 1:
            raise RulesError(f"levels: one level a row, not an array of shape {raw.shape}")
        if raw.shape[0] != arr.shape[0]:
            raise HandError(f"{raw.shape[0]} levels for {arr.shape[0]} hands")
        if raw.dtype.kind in "iu":            # numbers 2..14, checked as parse_level does
            if raw.size and (raw.min() < 2 or raw.max() > 14):
                bad = raw[(raw < 2) | (raw > 14)][0]
                raise RulesError(f"invalid level {int(bad)!r}: use 2..10, J, Q, K, A")
            lv = np.ascontiguousarray(raw - 2, dtype=np.int64)
        elif raw.dtype.kind in "OU":
            lv = np.array([parse_level(x.item() if isinstance(x, np.generic) else x)
                           for x in raw], dtype=np.int64)
        else:
            raise RulesError(f"levels: levels as numbers or names, not an array of {raw.dtype}")
    return _core._py_min_plays_batch(arr, lv, r.flags)


def _lowest_rank(counts: np.ndarray, rules: Rules) -> int:
    """Rank index (0..14) of the lowest natural card in single-card order, or
    -1 when only wilds are left."""
    wild = rules.wild.id
    ranks = {_core.CARDS[slot].rank_index for slot in np.nonzero(counts)[0].tolist()
             if slot != wild}
    if not ranks:
        return -1
    return min(ranks, key=lambda r: rules.order(_core.RANK_CHARS[r]))


def decompose(hand: HandLike, rules: Rules | None = None) -> list[Play]:
    """One partition of the hand into ``min_plays`` plays, in ``display_key`` order.

    Tie-break among the minimal partitions, as built: first the bombs, the
    strongest first (joker bomb, then larger bombs, straight flushes by
    RULES §4), each kept while the rest can still be finished in the minimum;
    then, lowest card first, the largest play (then the highest) that holds
    the lowest remaining card and keeps the partition minimal. So bombs and
    straight flushes are kept where a minimal partition allows, and low cards
    are absorbed into combinations rather than left as singles.
    """
    r = _rules(rules)
    counts = to_counts(hand, max_cards=MAX_HOLDING).copy()
    lv, fl = r.level_index, r.flags
    left = _core._py_min_plays(counts, lv, fl)
    chosen: list[Play] = []

    def fits(p: Play) -> bool:
        nonlocal left
        for c in p.card_ids:
            counts[c] -= 1
        after = _core._py_min_plays(counts, lv, fl)
        if after == left - 1:
            left = after
            chosen.append(p)
            return True
        for c in p.card_ids:
            counts[c] += 1
        return False

    # bombs, strongest first
    progress = True
    while progress and left:
        progress = False
        bombs = [p for p in _core._py_plays(counts, lv, fl) if p.is_bomb]
        bombs.sort(key=lambda p: (p.strength, -p.wilds), reverse=True)
        for p in bombs:
            if fits(p):
                progress = True
                break
    # the rest, lowest card first, largest play first
    while left:
        low = _lowest_rank(counts, r)
        cands = []
        for p in _core._py_plays(counts, lv, fl):
            if p.is_bomb:
                continue
            ranks = [c.rank_index for c in p.cards if c.id != r.wild.id]
            if (low in ranks) if low >= 0 else not ranks:
                cands.append(p)
        cands.sort(key=lambda p: (-p.size, -p.strength[1], p.wilds))
        if not any(fits(p) for p in cands):  # pragma: no cover - exactness guard
            raise RuntimeError("decomposition could not be completed")
    return sorted(chosen, key=display_key)


_DISPLAY_TYPE_ORDER = {t: i for i, t in enumerate(
    ("plate", "tube", "straight", "full_house", "triple", "pair", "single"))}


def display_key(play: Play):
    """Human order: bombs first, strongest first; then plates, tubes,
    straights, full houses, triples, pairs, singles, highest first."""
    bomb_class, key = play.strength
    if bomb_class:
        return (0, -bomb_class, -key)
    return (1, _DISPLAY_TYPE_ORDER[play.type], -key)
