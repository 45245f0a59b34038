"""Plays of a hand, plays that beat a table play, and the hint order.

>>> from guandan_fast import Rules
>>> ps = plays("S5 D5 H2", Rules(level=2))
>>> sorted(p.pattern[:3] for p in ps)[:4]
[('pair', '5', '55'), ('pair', '5', '5W'), ('single', '2', 'W'), ('single', '5', '5')]
>>> [str(p) for p in beating_plays("S5 D5 S9 D9 SB", "C7 D7", Rules(level=2))]
['S9 D9']
>>> [str(p) for p in hints("S3 S4 S5 S6 S7 D9", Rules(level=2))][:2]
['S3 S4 S5 S6 S7', 'D9']
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._core import Play
from ..errors import HandError, PlayError
from ..model.cards import MAX_HOLDING, check_hand
from ..model.counts import HandLike, from_counts, to_counts
from ..model.rules import Rules, _rules, read_play

__all__ = ["plays", "beating_plays", "hints", "hints_with_counts", "plays_with_counts",
           "plays_array", "listing_key",
           "PLAY_ARRAY_COLUMNS", "as_table_play"]

PLAY_ARRAY_COLUMNS = _core.PLAY_ARRAY_COLUMNS


def plays(hand: HandLike, rules: Rules | None = None) -> list[Play]:
    """Every play the hand can make, one per pattern (RULES §8).

    Each reading of each distinct multiset of ranks is listed once, wilds
    counted apart from natural level cards, straight flushes per suit. The
    concrete cards are chosen so that completable straight flushes keep their
    cards where another copy of the rank would do.
    """
    r = _rules(rules)
    return _core._py_plays(to_counts(hand, max_cards=MAX_HOLDING), r.level_index, r.flags)


def as_table_play(table, rules: Rules, counts: np.ndarray | None = None) -> Play:
    """A table play from a Play, or from cards whose reading is unambiguous;
    with a hand's ``counts``, the hand and the table together hold at most
    two copies of a card (a double deck), else HandError. (The listings
    themselves take any table: only its type and rank matter to them.)"""
    if isinstance(table, Play):
        if table.level_index != rules.level_index:
            raise PlayError("the table play was read at another level")
    else:
        table = read_play(table, rules)
    if counts is not None:
        both = from_counts(counts) + list(table.cards)
        try:
            check_hand(both, max_cards=len(both))
        except HandError as e:
            raise HandError(f"the hand and the table play: {e}; a double deck has two "
                            "copies") from None
    return table


def beating_plays(hand: HandLike, table, rules: Rules | None = None) -> list[Play]:
    """The plays of ``plays(hand)`` that beat ``table`` (RULES §4).

    ``table`` is a Play, or cards with a single reading (else PlayError)."""
    r = _rules(rules)
    return _core._py_beating_plays(to_counts(hand, max_cards=MAX_HOLDING), r.level_index, r.flags,
                                  as_table_play(table, r))


def plays_array(counts: np.ndarray, rules: Rules | None = None) -> np.ndarray:
    """All plays of a 54-count hand as an (n, 59) uint8 array, no Play objects.

    Columns (``PLAY_ARRAY_COLUMNS``): type index, rank index (the key: 0..12
    for 2..A, 13 small joker, 14 big joker), size, wilds used, suit (0..3 for
    a straight flush, else 255), then the count used of each of the 54 slots.
    """
    r = _rules(rules)
    return _core._py_plays_array(to_counts(counts, max_cards=MAX_HOLDING), r.level_index, r.flags)


def _hint_key(play: Play, after: int):
    """The hint order (see ``hints``): non-bombs by plays left, wilds spent,
    rank, more cards; then bombs by strength (RULES §4: 4 cards < 5 <
    straight flush < 6 ... < joker bomb, then rank), plays left, wilds."""
    bomb_class, key = play.strength
    if bomb_class:
        return (1, bomb_class, key, after, play.wilds, -play.size, play.type_index)
    return (0, after, play.wilds, key, -play.size, play.type_index)


def listing_key(play: Play):
    """The order of a listing of plays: by type, then in single-card order
    of the rank (the level rank above the ace), then size and wilds."""
    return (play.type_index, play.strength, play.size, play.wilds)


def plays_with_counts(hand: HandLike, rules: Rules | None = None,
                      table=None) -> list[tuple[Play, int]]:
    """The plays of the hand (those beating ``table`` when given), in
    enumeration order, each with the minimum plays left afterwards."""
    r = _rules(rules)
    counts = to_counts(hand, max_cards=MAX_HOLDING)
    tp = None if table is None else as_table_play(table, r)
    ps, after = _core._py_plays_after(counts, r.level_index, r.flags, tp)
    return list(zip(ps, after))


def hints_with_counts(hand: HandLike, rules: Rules | None = None,
                      table=None) -> list[tuple[Play, int]]:
    """The hint order with, for each play, the minimum plays left afterwards."""
    return sorted(plays_with_counts(hand, rules, table), key=lambda pa: _hint_key(*pa))


def hints(hand: HandLike, rules: Rules | None = None, table=None) -> list[Play]:
    """The order a hint button cycles through, leading (``table`` None) or
    following (the plays that beat ``table``).

    Non-bombs first, ordered by the exact minimum number of plays the hand
    still needs afterwards (plays that belong to a best decomposition come
    first), then fewer wilds spent, then cheapest first (lowest rank key),
    then more cards first. Bombs last, the smallest first (RULES §4: 4 cards
    < 5 < straight flush < 6 < ... < joker bomb, then by rank), then fewest
    plays left, then fewer wilds.
    """
    return [p for p, _ in hints_with_counts(hand, rules, table)]
