"""The rules of RULES §2-5: level, variant flags, readings, order.

The enumeration and comparison kernels are compiled in ``_core``; this module
is their Python face and the one place where a ``Rules`` (level + flags) is
built and checked.

>>> rules = Rules(level=2)
>>> sorted((p.type, p.rank) for p in classify("S3 D3 S4 D4 H2 H2", rules))
[('plate', '4'), ('tube', '4'), ('tube', '5')]
>>> a, b = classify("S7", Rules(level=7))[0], classify("SA", Rules(level=7))[0]
>>> beats(a, b)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Union

import numpy as np

from .. import _core
from .._core import Card, Play
from ..errors import PlayError, RulesError
from ..model.cards import RANKS
from ..model.counts import HandLike, to_counts

__all__ = ["Rules", "Play", "classify", "read_play", "reading_label", "beats", "PLAY_TYPES",
           "BOMB_TYPES", "parse_level", "RANKS", "FLAG_KEYS"]

PLAY_TYPES = _core.TYPE_NAMES
BOMB_TYPES = ("straight_flush", "bomb", "joker_bomb")
#: the variant flags of Rules, by name: the keys that set them in every file
#: format (formats/text.py) and in the platform's messages
FLAG_KEYS = ("joker_pair_in_full_house", "flush_is_always_bomb",
             "equal_tribute_to_upper_hand", "drop_after_three_failures_at_a",
             "no_tribute_when_partner_last")
_LEVEL_ALIASES = {"10": "T", "J": "J", "В": "J", "Д": "Q", "К": "K", "Т": "A"}


def parse_level(level: object) -> int:
    """A level as 0..12 (2..A) from ``7``, ``"7"``, ``"T"``, ``10``, ``"A"``.

    >>> parse_level(10), parse_level("t"), parse_level("A"), parse_level(2)
    (8, 8, 12, 0)
    """
    if isinstance(level, bool):
        raise RulesError(f"invalid level {level!r}: use 2..10, J, Q, K, A")
    if isinstance(level, (int, np.integer)):
        level = int(level)
        if 2 <= level <= 10:
            return level - 2
        if level in (11, 12, 13, 14):   # J Q K A as numbers
            return level - 2
        raise RulesError(f"invalid level {level!r}: use 2..10, J, Q, K, A")
    if isinstance(level, str):
        s = level.strip().upper()
        s = _LEVEL_ALIASES.get(s, s)
        if len(s) == 1 and s in RANKS:
            return RANKS.index(s)
        if s in ("2", "3", "4", "5", "6", "7", "8", "9", "10"):
            return int(s) - 2
    raise RulesError(f"invalid level {level!r}: use 2..10, J, Q, K, A")


@dataclass(frozen=True)
class Rules:
    """The level being played and the variant flags (docs/rules.md).

    ``level`` accepts ``7``, ``"7"``, ``"T"``, ``10`` or ``"A"``; it is stored
    as its rank character.

    >>> Rules(level=10)
    Rules(level='T', joker_pair_in_full_house=False, flush_is_always_bomb=False, equal_tribute_to_upper_hand=True, drop_after_three_failures_at_a=False, no_tribute_when_partner_last=False)
    """

    level: str = "2"      # the rank character; the constructor also takes 7, 10, "T", ...
    joker_pair_in_full_house: bool = False
    flush_is_always_bomb: bool = False
    equal_tribute_to_upper_hand: bool = True
    drop_after_three_failures_at_a: bool = False
    no_tribute_when_partner_last: bool = False
    level_index: int = field(init=False, repr=False, compare=False)
    flags: int = field(init=False, repr=False, compare=False)

    if TYPE_CHECKING:   # the constructor's types (the dataclass makes it at run time)
        def __init__(self, level: Union[str, int] = "2", joker_pair_in_full_house: bool = False,
                     flush_is_always_bomb: bool = False, equal_tribute_to_upper_hand: bool = True,
                     drop_after_three_failures_at_a: bool = False,
                     no_tribute_when_partner_last: bool = False) -> None: ...

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.init and f.name != "level" and not isinstance(getattr(self, f.name),
                                                               (bool, np.bool_)):
                raise RulesError(f"{f.name} must be True or False, not "
                                 f"{getattr(self, f.name)!r}")
            if f.init and f.name != "level":
                object.__setattr__(self, f.name, bool(getattr(self, f.name)))
        idx = parse_level(self.level)
        object.__setattr__(self, "level", RANKS[idx])
        object.__setattr__(self, "level_index", idx)
        flags = 0
        if self.joker_pair_in_full_house:
            flags |= _core.FLAG_JOKER_PAIR_IN_FULL_HOUSE
        if self.flush_is_always_bomb:
            flags |= _core.FLAG_FLUSH_IS_ALWAYS_BOMB
        object.__setattr__(self, "flags", flags)

    @property
    def wild(self) -> Card:
        """The wild card: the heart of the level rank."""
        return _core.CARDS[13 + self.level_index]

    def order(self, rank: str) -> int:
        """Single-card order (RULES 2) of a rank character: higher beats lower.

        >>> r = Rules(level=7); r.order("7") > r.order("A") > r.order("K")
        True
        """
        idx = _core.RANK_CHARS.index(rank)
        if idx == self.level_index:
            return 13
        return idx + 1 if idx >= 13 else idx


def _rules(rules: Union[Rules, str, int, None]) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    return Rules(level=rules)


def classify(cards: HandLike, rules: Rules | None = None) -> list[Play]:
    """Every valid reading of exactly these cards (RULES 5); [] when none.

    >>> [(p.type, p.rank) for p in classify("H2 SA", Rules(level=2))]
    [('pair', 'A')]
    >>> classify("SB HR")
    []
    """
    r = _rules(rules)
    counts = to_counts(cards, max_cards=108)
    return _core._py_classify(counts, r.level_index, r.flags)


def reading_label(p: Play) -> str:
    """A reading as people write it: its type and rank, the ten as 10.

    >>> reading_label(read_play("ST DT"))
    'pair 10'
    """
    return f"{p.type} {'10' if p.rank == 'T' else p.rank}"


def read_play(cards: HandLike, rules: Rules | None = None, type: str | None = None,
              rank: str | None = None) -> Play:
    """The one reading of these cards, narrowed by ``type`` and ``rank`` when
    given. An invalid or still ambiguous set is a PlayError listing readings.

    >>> read_play("S5 D5")
    <Play pair 5: S5 D5>
    """
    readings = classify(cards, rules)
    text = cards if isinstance(cards, str) else " ".join(map(str, cards))
    if not readings:
        raise PlayError(f"{text!r} is not a valid play")
    chosen = [p for p in readings
              if (type is None or p.type == type) and (rank is None or p.rank == rank)]
    if len(chosen) == 1:
        return chosen[0]
    listed = ", ".join(map(reading_label, chosen or readings))
    if not chosen:
        asked = f"{type or ''} {'10' if rank == 'T' else rank or ''}".strip()
        raise PlayError(f"{text!r} has no reading {asked}".rstrip()
                        + f"; its readings: {listed}")
    raise PlayError(f"{text!r} is ambiguous; its readings: {listed}")


def beats(a: Play, b: Play) -> bool:
    """True when play ``a`` beats play ``b`` (RULES 4)."""
    for name, p in (("a", a), ("b", b)):
        if not isinstance(p, Play):
            raise PlayError(f"beats: {name} must be a Play (read_play), not {type(p).__name__}")
    if a.level_index != b.level_index:
        raise PlayError("the two plays were read at different levels")
    return _core._py_beats(a, b)
