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

from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, Union

from .._core import Card
from ..model.cards import MAX_HAND, MAX_HOLDING, format_cards, parse_cards
from ..errors import CardParseError, HandError, RulesError
from ..model.rules import Rules
from .text import (FLAG_KEYS, LEVEL_KEYS, KeyLines, decode, parse_bool,  # noqa: F401
                   parse_header_line, read_text, rules_from_headers, rules_header_lines)

__all__ = ["HandFile", "loads_hand", "load_hand", "dumps_hand", "dump_hand",
           "parse_header_line", "parse_bool", "rules_from_headers", "LEVEL_KEYS"]


@dataclass
class HandFile:
    """A parsed hand file: the cards and the rules they are played under."""

    cards: list[Card]
    rules: Rules = field(default_factory=Rules)
    # the settings the file wrote (level, flags), by key; the others are defaults
    stated: frozenset = field(default=frozenset(), compare=False, repr=False)


def loads_hand(text: str, max_cards: int = MAX_HAND) -> HandFile:
    """Parse the text of a hand file. ``max_cards`` is 28 for the receiver
    of a tribute, who holds one card more until they return one."""
    settings = KeyLines(RulesError)
    card_lines = []
    for lineno, line in enumerate(decode(text).splitlines(), start=1):
        kv = parse_header_line(line)
        if kv is not None:
            key, value = kv
            if key not in LEVEL_KEYS and key not in FLAG_KEYS:
                raise RulesError(f"line {lineno}: unknown setting {key!r}")
            settings.add(key, value, lineno)
            card_lines.append("")
        else:
            card_lines.append(line)
    rules = rules_from_headers(settings.values, settings.where)
    body = "\n".join(card_lines)
    try:
        cards = parse_cards(body + "\n", max_cards=max_cards)
    except (CardParseError, HandError) as e:
        raise type(e)(str(e)) from None
    if not cards:
        raise HandError("the hand file holds no cards")
    return HandFile(cards=cards, rules=rules, stated=frozenset(settings.values))


def load_hand(source: Union[str, Path, TextIO]) -> HandFile:
    """Read a hand file from a path or an open text file."""
    return loads_hand(read_text(source))


def dumps_hand(hand: HandFile) -> str:
    """The canonical text of a hand file (round trips through loads_hand,
    a tribute receiver's 28 cards included). What the loader would refuse
    the writer refuses, with the loader's error: a HandError for what is no
    HandFile, a third copy of a card or more than 28 cards."""
    if not isinstance(hand, HandFile):
        raise HandError(f"dumps_hand takes a HandFile, not {type(hand).__name__}")
    if not isinstance(hand.rules, Rules):
        raise HandError(f"a HandFile's rules are Rules, not {type(hand.rules).__name__}")
    lines = rules_header_lines(hand.rules)
    lines.append(format_cards(hand.cards))
    text = "\n".join(lines) + "\n"
    loads_hand(text, max_cards=MAX_HOLDING)
    return text


def dump_hand(hand: HandFile, fp: TextIO) -> None:
    fp.write(dumps_hand(hand))


