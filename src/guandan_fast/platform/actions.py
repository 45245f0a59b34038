"""The platform's actions: concrete action lists and the reading of an action.

An action of the competition platform (docs/platform.md) is ``[type, rank,
cards]``: ``["Pair", "5", ["S5", "D5"]]``, ``["Straight", "A", ["HA", "S2",
"C3", "S4", "D5"]]`` (a sequence is named by its lowest card, A-low written
``A``), ``["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]``, ``["PASS", "PASS",
"PASS"]``. The ``actionList`` of an ``act`` message lists every concrete
choice of cards for every reading (suits count), the pass first when
following.

>>> from guandan_fast import Rules
>>> action_list("S5 D5 H2", Rules(level=2))
[['Single', '5', ['S5']], ['Single', '5', ['D5']], ['Single', '2', ['H2']],
 ['Pair', '5', ['S5', 'D5']], ['Pair', '5', ['S5', 'H2']], ['Pair', '5', ['D5', 'H2']],
 ['Trips', '5', ['S5', 'D5', 'H2']]]
>>> action_list("S9 D9 SB", Rules(level=2), table=from_action(["Pair", "7", ["C7", "D7"]], Rules(level=2)))
[['PASS', 'PASS', 'PASS'], ['Pair', '9', ['S9', 'D9']]]
>>> p = from_action(["Straight", "A", ["HA", "S2", "C3", "S4", "D5"]], Rules(level=7))
>>> p.type, p.rank, to_action(p)
('straight', '5', ['Straight', 'A', ['HA', 'S2', 'C3', 'S4', 'D5']])
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from ..model.cards import RANK_CHARS, SEQUENCE
from .. import _core
from .._core import Play
from ..errors import PlayError, ProtocolError
from ..model.cards import MAX_HOLDING
from ..model.counts import HandLike, to_counts
from ..model.rules import Rules, _rules, beats

__all__ = ["action_list", "action_array", "action_plays", "action_count", "to_action",
           "from_action", "parse_action", "index_of", "PASS_ACTION", "PLATFORM_TYPES",
           "ACTION_ARRAY_COLUMNS", "platform_rank", "rank_char"]

PASS_ACTION = ["PASS", "PASS", "PASS"]
ACTION_ARRAY_COLUMNS = _core.ACTION_ARRAY_COLUMNS

# platform type name -> the project's type (the joker bomb is decided by its rank)
PLATFORM_TYPES = {
    "Single": "single", "Pair": "pair", "Trips": "triple", "ThreeWithTwo": "full_house",
    "Straight": "straight", "ThreePair": "tube", "TwoTrips": "plate",
    "StraightFlush": "straight_flush", "Bomb": "bomb", "FourKings": "joker_bomb",
    # typos of the platform manual's list, accepted on input, never emitted
    "TripsPair": "tube", "Boom": "bomb",
}
_EMIT_TYPES = dict(zip(_core.TYPE_NAMES, _core.PLATFORM_TYPE_NAMES))
_SEQUENCE_SPAN = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}
_LINE = SEQUENCE
_RANKS = RANK_CHARS
_INT_RANKS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _hand_and_table(hand, rules, table):
    r = _rules(rules)
    counts = to_counts(hand, max_cards=MAX_HOLDING)
    if table is None:
        return r, counts, None
    if isinstance(table, Play):
        if table.level_index != r.level_index:
            raise PlayError("the table play was read at another level")
        return r, counts, table
    tp = from_action(table, r)
    if tp is None:
        raise PlayError("the standing play cannot be a pass")
    return r, counts, tp


def action_list(hand: HandLike, rules: Rules | None = None,
                table: object = None) -> list[list[Any]]:
    """The platform's ``actionList`` for ``hand``: every concrete choice of
    cards for every reading (a list of ``[type, rank, cards]``, JSON-ready).

    ``table`` (a ``Play`` or a platform action) is the standing play: then
    ``["PASS", "PASS", "PASS"]`` comes first, then every concrete play that
    beats it (bombs included)."""
    r, counts, tp = _hand_and_table(hand, rules, table)
    return _core._py_concrete_list(counts, r.level_index, r.flags, tp)


def action_plays(hand: HandLike, rules: Rules | None = None,
                 table: object = None) -> list[Optional[Play]]:
    """The ``Play`` of each entry of ``action_list`` (None for the pass),
    index for index."""
    r, counts, tp = _hand_and_table(hand, rules, table)
    return _core._py_concrete_plays(counts, r.level_index, r.flags, tp)


def action_array(hand: HandLike, rules: Rules | None = None, table=None) -> np.ndarray:
    """``action_list`` as an (n, 60) uint8 array, row for row, no Python object
    per entry. Columns (``ACTION_ARRAY_COLUMNS``): type index (10 for the
    pass), the project's rank index (the key: a sequence's top card), the
    platform's rank index (a sequence's lowest card, A-low 12; 15 for the
    joker bomb), size, wilds used, suit (0..3 for a straight flush, else
    255), then the count used of each of the 54 card slots."""
    r, counts, tp = _hand_and_table(hand, rules, table)
    return _core._py_concrete_array(counts, r.level_index, r.flags, tp)


def action_count(hand: HandLike, rules: Rules | None = None, table=None) -> int:
    """``len(action_list(...))`` without building the list."""
    r, counts, tp = _hand_and_table(hand, rules, table)
    return _core._py_concrete_count(counts, r.level_index, r.flags, tp) + (tp is not None)


def platform_rank(play: Play) -> str:
    """The rank the platform writes for a play: the lowest card of a sequence
    (A-low as ``A``), ``JOKER`` for the joker bomb, else the play's rank."""
    if play.type == "joker_bomb":
        return "JOKER"
    span = _SEQUENCE_SPAN.get(play.type)
    if span is None:
        return play.rank
    top = 13 if play.rank == "A" else _LINE.index(play.rank, 1)
    return _LINE[top - span]


def to_action(play: Optional[Play]) -> list[Any]:
    """The platform action of a Play (None: the pass), in the 2020 form."""
    if play is None:
        return list(PASS_ACTION)
    if not isinstance(play, Play):
        raise PlayError(f"to_action takes a Play or None (the pass), not {type(play).__name__}")
    return [_EMIT_TYPES[play.type], platform_rank(play), [str(c) for c in play.cards]]


def rank_char(value, field: str = "rank") -> str:
    """A rank as one of ``23456789TJQKABR`` from a character, ``"10"`` or an
    integer (2..14, 1 for A); ProtocolError otherwise."""
    if isinstance(value, bool):
        raise ProtocolError(f"a rank, not {value!r}", field)
    if isinstance(value, int):
        if value in _INT_RANKS:
            return _INT_RANKS[value]
        raise ProtocolError(f"rank {value!r} is not 1..14", field)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and int(value) in _INT_RANKS:
            return _INT_RANKS[int(value)]
        raise ProtocolError(f"rank {value!r} is not a rank", field)
    if isinstance(value, str):
        s = value.strip().upper()
        if s == "10":
            return "T"
        if len(s) == 1 and s in _RANKS:
            return s
        if s.isdigit() and int(s) in _INT_RANKS:
            return _INT_RANKS[int(s)]
    raise ProtocolError(f"rank {value!r} is not a rank (2..9, T, J, Q, K, A, B, R)", field)


def parse_action(value, field: str = "action"):
    """The parts of a platform action, checked for shape only: ``None`` for a
    pass (and for ``[null, null, null]``, the empty action of a free lead),
    else ``(type, rank, cards)`` with the project's type name, the rank as a
    character (``"JOKER"`` kept) or None, and the card tokens.
    Accepts ``{"type", "rank", "actions"}`` objects of a play too (``cards``
    for ``actions``); an object is never a pass: ``{}`` or an object without
    a play type is an error."""
    if isinstance(value, dict):
        unknown = [k for k in value if k not in ("type", "rank", "actions", "cards")]
        if unknown:
            raise ProtocolError(f"unknown key {_short(unknown[0])} of an action object",
                                field)
        if value.get("type") in (None, "PASS"):
            raise ProtocolError(f"an action object is a play with its type, not "
                                f"{_short(value)} (a pass is [\"PASS\", \"PASS\", \"PASS\"])",
                                field)
        value = [value.get("type"), value.get("rank"), value.get("actions", value.get("cards"))]
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise ProtocolError(f"an action is [type, rank, cards], not {_short(value)}", field)
    typ, rank, cards = value
    if typ is None and rank is None and cards is None:
        return None
    if typ == "PASS":
        return None
    if not isinstance(typ, str) or typ not in PLATFORM_TYPES:
        raise ProtocolError(f"unknown play type {_short(typ)}", f"{field}[0]")
    if not isinstance(cards, list) or not cards or len(cards) > 10:
        raise ProtocolError(f"the cards of an action are a list of 1..10 cards, not {_short(cards)}",
                            f"{field}[2]")
    for i, c in enumerate(cards):
        if not isinstance(c, str):
            raise ProtocolError(f"a card is a string, not {_short(c)}", f"{field}[2][{i}]")
    ptype = PLATFORM_TYPES[typ]
    if rank is None:
        rk = None
    elif isinstance(rank, str) and rank.strip().upper() in ("JOKER", "JOKERS"):
        rk = "JOKER"
    else:
        rk = rank_char(rank, f"{field}[1]")
    if ptype == "bomb" and rk in ("JOKER", "R") and len(cards) == 4:
        ptype = "joker_bomb"
    return ptype, rk, list(cards)


_TOKEN_SLOT = {t: i for i, t in enumerate(_core.TOKENS)}


def _token_counts(cards, field) -> np.ndarray:
    """54 counts of canonical card tokens (the platform's notation)."""
    counts = np.zeros(54, dtype=np.uint8)
    for i, c in enumerate(cards):
        slot = _TOKEN_SLOT.get(c)
        if slot is None:
            raise ProtocolError(f"{_short(c)} is not a card (S3, HT, SB, HR...)", f"{field}[{i}]")
        if counts[slot] == 2:
            raise ProtocolError(f"a third copy of {c}", f"{field}[{i}]")
        counts[slot] += 1
    return counts


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _matches_rank(play: Play, rank: Optional[str]) -> int:
    """2 when ``rank`` is the platform's rank of the play, 1 when it is the
    project's (a sequence's top card), else 0."""
    if rank is None or play.type == "joker_bomb":
        return 2
    if platform_rank(play) == rank:
        return 2
    if play.rank == rank:
        return 1
    return 0


def from_action(action, rules: Rules | None = None, hand: HandLike | None = None,
                table: Optional[Play] = None, field: str = "action") -> Optional[Play]:
    """The Play of a platform action (None for a pass), validated: the cards
    are a reading of the named type and rank (a sequence's rank may be its
    lowest card, the platform's convention, or its top card, which one engine
    writes; either is accepted when the cards allow it), held in ``hand``
    when given, and beating ``table`` when given. ProtocolError or PlayError
    name what is wrong."""
    r = _rules(rules)
    parts = parse_action(action, field)
    if parts is None:
        return None
    ptype, rank, cards = parts
    readings = _core._py_classify(_token_counts(cards, f"{field}[2]"), r.level_index, r.flags)
    typed = [p for p in readings if p.type == ptype]
    if not typed:
        found = ", ".join(f"{p.type} {p.rank}" for p in readings) or "none"
        raise PlayError(f"{field}: {' '.join(cards)} cannot be read as {ptype}"
                        f"; its readings: {found}")
    scored = [(p, _matches_rank(p, rank)) for p in typed]
    best = max(s for _, s in scored)
    chosen = [p for p, s in scored if s == best]
    if best == 0:
        found = ", ".join(f"{p.type} {platform_rank(p)}" for p in typed)
        raise PlayError(f"{field}: {' '.join(cards)} cannot be read as {ptype} {rank}"
                        f"; its readings: {found}")
    if len(chosen) > 1:
        found = ", ".join(f"{p.type} {p.rank}" for p in chosen)
        raise PlayError(f"{field}: {' '.join(cards)} is ambiguous as {ptype}: {found}")
    play = chosen[0]
    if hand is not None:
        held = to_counts(hand, max_cards=MAX_HOLDING)
        need = np.bincount(np.asarray(play.card_ids, dtype=np.int64), minlength=54)
        short = np.nonzero(need > held)[0]
        if short.size:
            raise PlayError(f"{field}: the hand does not hold "
                            + " ".join(str(_core.CARDS[int(i)]) for i in short))
    if table is not None and not beats(play, table):
        raise PlayError(f"{field}: {play.type} {play.rank} does not beat the standing "
                        f"{table.type} {table.rank} ({table})")
    return play


def _card_key(cards: Iterable[object]) -> tuple[str, ...]:
    return tuple(sorted(str(c) for c in cards))


def index_of(play: Optional[Play], entries: Sequence) -> int:
    """The index in an ``actionList`` (platform actions, as received) of the
    entry that makes ``play`` (None: the pass): the same type, rank and
    cards; failing that, the same type and rank with other suits of the same
    pattern (a list from a server that chooses other concrete cards);
    failing that, an entry of the same cards under another type (the 2020
    platform lists a one-suit run only as ``StraightFlush`` and a run
    completed by the wild only as ``Straight``, PLATFORM.md: to that server
    the same cards are the same play). ProtocolError when no entry matches."""
    if play is None:
        for i, e in enumerate(entries):
            if parse_action(e, f"actionList[{i}]") is None and e is not None:
                return i
        raise ProtocolError("the action list offers no pass", "actionList")
    want_type, want_rank, want_cards = play.type, platform_rank(play), _card_key(
        str(c) for c in play.cards)
    fallback = same_cards = -1
    for i, e in enumerate(entries):
        parts = parse_action(e, f"actionList[{i}]")
        if parts is None:
            continue
        typ, rank, cards = parts
        if typ != want_type:
            if same_cards < 0 and _card_key(cards) == want_cards:
                same_cards = i
            continue
        if rank is not None and rank not in (want_rank, play.rank):
            continue
        if _card_key(cards) == want_cards:
            return i
        if fallback < 0 and len(cards) == play.size:
            try:
                other = from_action(e, Rules(level=play.level, flush_is_always_bomb=False))
            except ValueError:
                continue
            if other is not None and other.pattern == play.pattern:
                fallback = i
    if fallback >= 0:
        return fallback
    if same_cards >= 0:
        return same_cards
    raise ProtocolError(f"no entry of the action list plays {play.type} {play.rank} ({play})",
                        "actionList")
