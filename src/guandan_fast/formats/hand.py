"""Text formats of hand files (``gd-analyze hand.txt``).

A hand file holds cards in any accepted notation over any number of lines,
``#`` comments, and optional ``key: value`` lines: ``level: 7`` (default 2;
also ``уровень:`` and ``级牌:``/``级:``) and the rules flags
(``joker_pair_in_full_house: yes``, ``flush_is_always_bomb: yes``).

>>> hand = loads_hand("level: 7\\nS7 H7  # two level cards, one wild\\nSB")
>>> hand.rules.level, [str(c) for c in hand.cards]
('7', ['S7', 'H7', 'SB'])
>>> dumps_hand(hand)
'level: 7\\nS7 H7 SB\\n'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, Union

from .._core import Card
from ..model.cards import MAX_HAND, format_cards, parse_cards
from ..errors import CardParseError, HandError, RulesError
from ..model.rules import Rules

__all__ = ["HandFile", "loads_hand", "load_hand", "dumps_hand", "dump_hand",
           "parse_header_line", "parse_bool", "rules_from_headers", "LEVEL_KEYS"]

LEVEL_KEYS = {"level", "уровень", "级牌", "级", "打"}
FLAG_KEYS = ("joker_pair_in_full_house", "flush_is_always_bomb",
             "equal_tribute_to_upper_hand", "drop_after_three_failures_at_a")
_HEADER = re.compile(r"^\s*([^\s:：]+)\s*[:：]\s*(.*?)\s*$")
_TRUE = {"1", "yes", "true", "on", "да", "是"}
_FALSE = {"0", "no", "false", "off", "нет", "否"}


@dataclass
class HandFile:
    """A parsed hand file: the cards and the rules they are played under."""

    cards: list[Card]
    rules: Rules = field(default_factory=Rules)


def parse_bool(value: str, key: str, lineno: int) -> bool:
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise RulesError(f"line {lineno}: {key} must be yes or no, not {value!r}")


def parse_header_line(line: str):
    """(key, value) of a ``key: value`` line, else None. Card lines never
    contain a colon."""
    m = _HEADER.match(line.split("#", 1)[0])
    if not m:
        return None
    return m.group(1).lower(), m.group(2)


def rules_from_headers(headers: dict, where: dict) -> Rules:
    """Rules from the level and flag settings among ``headers`` (key to
    value text; ``where``: key to line number). Other keys are ignored; an
    invalid value is a RulesError naming its line."""
    kwargs = {}
    for key, value in headers.items():
        if key in LEVEL_KEYS:
            kwargs["level"] = value
        elif key in FLAG_KEYS:
            kwargs[key] = parse_bool(value, key, where[key])
    try:
        return Rules(**kwargs)
    except RulesError as e:
        line = next((where[k] for k in headers if k in LEVEL_KEYS), None)
        raise RulesError(f"line {line}: {e}" if line else str(e)) from None


def loads_hand(text: str, max_cards: int = MAX_HAND) -> HandFile:
    """Parse the text of a hand file. ``max_cards`` is 28 for the receiver
    of a tribute, who holds one card more until they return one."""
    headers: dict = {}
    where: dict = {}
    card_lines = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        kv = parse_header_line(line)
        if kv is not None:
            key, value = kv
            if key not in LEVEL_KEYS and key not in FLAG_KEYS:
                raise RulesError(f"line {lineno}: unknown setting {key!r}")
            headers[key] = value
            where[key] = lineno
            card_lines.append("")
        else:
            card_lines.append(line)
    rules = rules_from_headers(headers, where)
    body = "\n".join(card_lines)
    try:
        cards = parse_cards(body + "\n", max_cards=max_cards)
    except (CardParseError, HandError) as e:
        raise type(e)(str(e)) from None
    if not cards:
        raise HandError("the hand file holds no cards")
    return HandFile(cards=cards, rules=rules)


def load_hand(source: Union[str, Path, TextIO]) -> HandFile:
    """Read a hand file from a path or an open text file."""
    if hasattr(source, "read"):
        return loads_hand(source.read())
    return loads_hand(Path(source).read_text(encoding="utf-8"))


def dumps_hand(hand: HandFile) -> str:
    """The canonical text of a hand file (round trips through loads_hand)."""
    lines = [f"level: {hand.rules.level}"]
    for key in FLAG_KEYS:
        default = Rules.__dataclass_fields__[key].default
        if getattr(hand.rules, key) != default:
            lines.append(f"{key}: {'yes' if getattr(hand.rules, key) else 'no'}")
    lines.append(format_cards(hand.cards))
    return "\n".join(lines) + "\n"


def dump_hand(hand: HandFile, fp: TextIO) -> None:
    fp.write(dumps_hand(hand))


