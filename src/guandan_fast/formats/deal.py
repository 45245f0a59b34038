"""Text format of a deal file: the four hands of a deal, its level, and the
previous deal's finishing order (for tribute, RULES 7).

::

    # deal 2 of the evening
    level: 7
    order: 2 0 3 1        # previous deal: seat 2 first ... seat 1 last
    0: S3 S4 S5 ...
    1: ...
    2: ...
    3: ...

- ``N: cards`` gives the hand of seat N (0..3), in any card notation
  accepted by ``parse_cards``; a line without a key continues the hand of
  the seat above it.
- ``level:`` (also ``уровень:``, ``级牌:``), default 2, and the rules flags,
  as in a hand file (``guandan_fast.formats.hand``).
- ``order:`` (also ``порядок:``, ``名次:``) the previous finishing order,
  first finisher first; optional.
- ``#`` starts a comment. Each hand holds at most 27 cards, and no card
  appears more than twice in the deal. Errors name the line.

>>> deal = loads_deal("level: 7\\norder: 2 0 3 1\\n0: S3\\n1: ♠4\\n2: SA\\n   DA\\n3: 大王")
>>> deal.rules.level, deal.order, [format_cards(h) for h in deal.hands]
('7', [2, 0, 3, 1], ['S3', 'S4', 'SA DA', 'HR'])
>>> print(dumps_deal(deal), end="")
level: 7
order: 2 0 3 1
0: S3
1: S4
2: SA DA
3: HR
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, TextIO, Union

from .._core import Card
from ..model.cards import MAX_COPIES, MAX_HAND, format_cards, parse_cards
from ..errors import CardParseError, HandError, RecordError
from ..model.rules import Rules
from .text import (FLAG_KEYS, LEVEL_KEYS, KeyLines, decode, parse_header_line, read_text,
                   rules_from_headers, rules_header_lines)

__all__ = ["DealFile", "loads_deal", "load_deal", "dumps_deal", "dump_deal", "ORDER_KEYS"]

ORDER_KEYS = {"order", "порядок", "名次", "顺序"}
_SEATS = ("0", "1", "2", "3")


@dataclass
class DealFile:
    """A parsed deal file: four hands by seat, the rules, and the previous
    finishing order (None when the file gives none)."""

    hands: list
    rules: Rules = field(default_factory=Rules)
    order: Optional[list] = None


def _parse_order(value: str, lineno: int) -> list[int]:
    parts = value.replace(",", " ").split()
    if sorted(parts) != list(_SEATS):
        raise RecordError(f"order {value!r} must list the seats 0 1 2 3 once each, "
                          "first finisher first", line=lineno)
    return [int(p) for p in parts]


def _canonical(key: str) -> str:
    return "level" if key in LEVEL_KEYS else "order" if key in ORDER_KEYS else key


def loads_deal(text: str) -> DealFile:
    """Parse the text of a deal file."""
    settings = KeyLines(RecordError, canonical=_canonical)
    order = None
    seat_text: dict = {}
    seat_lines: dict = {}
    current = None
    for lineno, line in enumerate(decode(text).splitlines(), start=1):
        kv = parse_header_line(line)
        if kv is None:
            body = line.split("#", 1)[0]
            if not body.strip():
                continue
            if current is None:
                raise RecordError("cards before any seat line (0: ... 3: ...)", line=lineno)
            seat_text[current].append((lineno, body))
            continue
        key, value = kv
        if key in _SEATS:
            if key in seat_text:
                raise RecordError(f"seat {key} given twice", line=lineno)
            current = key
            seat_text[key] = [(lineno, value)]
            seat_lines[key] = lineno
        elif key in LEVEL_KEYS or key in FLAG_KEYS:
            settings.add(key, value, lineno)
            current = None
        elif key in ORDER_KEYS:
            settings.add(key, value, lineno)
            order = _parse_order(value, lineno)
            current = None
        else:
            raise RecordError(f"unknown setting {key!r}", line=lineno)
    rules = rules_from_headers(settings.values, settings.where)
    missing = [s for s in _SEATS if s not in seat_text]
    if missing:
        raise RecordError(f"no hand for seat {', '.join(missing)} (a deal file gives "
                          "the four hands as 0: ... 3: ...)")
    hands = []
    seen: dict = {}
    for seat in _SEATS:
        cards: list[Card] = []
        for lineno, body in seat_text[seat]:
            try:
                got = parse_cards(body)
            except (CardParseError, HandError) as e:
                raise type(e)(f"line {lineno}, seat {seat}: {e}") from None
            for c in got:
                seen[c] = seen.get(c, 0) + 1
                if seen[c] > MAX_COPIES:
                    raise HandError(f"line {lineno}, seat {seat}: a third copy of {c} in the deal")
            cards.extend(got)
            if len(cards) > MAX_HAND:
                raise HandError(f"line {lineno}, seat {seat}: more than {MAX_HAND} cards")
        hands.append(cards)
    return DealFile(hands=hands, rules=rules, order=order)


def load_deal(source: Union[str, Path, TextIO]) -> DealFile:
    """Read a deal file from a path or an open text file."""
    return loads_deal(read_text(source))


def dumps_deal(deal: DealFile) -> str:
    """The canonical text of a deal file (round trips through loads_deal).
    What the loader would refuse the writer refuses, with the loader's
    error: a RecordError for what is no DealFile, a bad order or hands."""
    if not isinstance(deal, DealFile):
        raise RecordError(f"dumps_deal takes a DealFile, not {type(deal).__name__}")
    if not isinstance(deal.rules, Rules) or not isinstance(deal.hands, (list, tuple)) \
            or len(deal.hands) != 4:
        raise RecordError("a DealFile holds Rules and four hands")
    if deal.order is not None and not isinstance(deal.order, (list, tuple)):
        raise RecordError(f"a DealFile's order is a list of seats, not {deal.order!r}"[:100])
    lines = rules_header_lines(deal.rules)
    if deal.order is not None:
        lines.append("order: " + " ".join(str(s) for s in deal.order))
    for seat, hand in enumerate(deal.hands):
        lines.append(f"{seat}: {format_cards(hand)}")
    text = "\n".join(lines) + "\n"
    loads_deal(text)
    return text


def dump_deal(deal: DealFile, fp: TextIO) -> None:
    fp.write(dumps_deal(deal))
