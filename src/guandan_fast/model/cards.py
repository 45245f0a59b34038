"""Cards and their notation (RULES §1).

The canonical notation is suit letter then rank (``S3 HT DA``), jokers ``SB``
(small) and ``HR`` (big). Input may also use ``10`` for ``T``, lower case,
rank-first order (``Ah``, ``10h``), Unicode suits (``♠A``, ``A♠``), Chinese
(``大王``, ``小王``, ``黑桃A``, ``红桃10``, ``梅花3``, ``方块K``/``方片K``) and
Russian ranks ``В Д К Т`` (валет, дама, король, туз) with a suit symbol or
word (``Т♠``, ``Дчерви``, ``К-пики``).

>>> parse_cards("S3 h10, ♠A 红桃K Т♦ 大王")
[Card('S3'), Card('HT'), Card('SA'), Card('HK'), Card('DA'), Card('HR')]
>>> str(parse_card("10h"))
'HT'
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

from .._core import CARDS, RANK_CHARS as _RANK_CHARS, TOKENS, Card
from ..errors import CardParseError, HandError, shown

__all__ = ["Card", "CARDS", "parse_card", "parse_cards", "format_cards",
           "check_hand", "MAX_HAND", "MAX_HOLDING", "MAX_COPIES",
           "RANKS", "RANK_CHARS", "SEQUENCE", "FACE_2_TO_10"]

# the rank notation (RULES §1), defined once: the compiled core's characters
RANK_CHARS = _RANK_CHARS            # 2..A, then B (small joker) and R (big joker)
RANKS = RANK_CHARS[:13]             # the suited ranks 2..A, rank index order
SEQUENCE = "A" + RANKS              # the natural sequence, the ace low and high (RULES §3)
FACE_2_TO_10 = frozenset(RANKS[:9])  # face values 2..10 (the return tribute, RULES §7)

MAX_HAND = 27
MAX_HOLDING = 28   # a tribute receiver holds 28 cards until the return (RULES 7)
MAX_COPIES = 2

_RANKS = {
    **{r: i for i, r in enumerate(RANKS)}, "10": 8,
    # Russian: валет, дама, король, туз (Cyrillic letters)
    "В": 9, "Д": 10, "К": 11, "Т": 12,
    "А": 12,  # a Cyrillic A that looks like the Latin one
}
_SUITS = {
    "S": 0, "H": 1, "C": 2, "D": 3,
    "♠": 0, "♤": 0, "♥": 1, "♡": 1, "♣": 2, "♧": 2, "♦": 3, "♢": 3,
    "黑桃": 0, "红桃": 1, "紅桃": 1, "梅花": 2, "方块": 3, "方片": 3, "方塊": 3,
    "ПИКИ": 0, "ПИК": 0, "ЧЕРВИ": 1, "ЧЕРВЫ": 1, "ЧЕРВЕЙ": 1,
    "ТРЕФЫ": 2, "ТРЕФ": 2, "КРЕСТИ": 2, "БУБНЫ": 3, "БУБЕН": 3, "БУБИ": 3,
}
_JOKERS = {
    "SB": 52, "HR": 53, "小王": 52, "大王": 53, "BJ": 52, "RJ": 53,
    "ДЖОКЕР-М": 52, "ДЖОКЕР-Б": 53,
}
_SUIT_WORDS = sorted(_SUITS, key=len, reverse=True)
_RANK_WORDS = sorted(_RANKS, key=len, reverse=True)
_SEPARATORS = re.compile(r"[\s,;]+")


def _card_from_token(tok: str) -> Card | None:
    t = tok.strip().upper().replace("-", "")
    if not t:
        return None
    if t in _JOKERS:
        return CARDS[_JOKERS[t]]
    t = t.replace("-", "")
    # suit first, then rank
    for sw in _SUIT_WORDS:
        if t.startswith(sw):
            rest = t[len(sw):]
            if rest in _RANKS:
                return CARDS[_SUITS[sw] * 13 + _RANKS[rest]]
    # rank first, then suit
    for rw in _RANK_WORDS:
        if t.startswith(rw):
            rest = t[len(rw):]
            if rest in _SUITS:
                return CARDS[_SUITS[rest] * 13 + _RANKS[rw]]
    return None


def parse_card(token: str) -> Card:
    """One card in any accepted notation.

    >>> parse_card("♥10"), parse_card("小王"), parse_card("Кпики")
    (Card('HT'), Card('SB'), Card('SK'))
    """
    if not isinstance(token, str):
        raise CardParseError(f"a card token is text, not {type(token).__name__}",
                             token=str(token), position=1)
    card = _card_from_token(token)
    if card is None:
        raise CardParseError(f"unknown card token {shown(token)!r}", token=token, position=1)
    return card


def _tokens(text: str) -> Iterable[tuple[str, int, int]]:
    """(token, line number, token index within the text)."""
    index = 0
    for lineno, line in enumerate(text.splitlines() or [""], start=1):
        line = line.split("#", 1)[0]
        for tok in _SEPARATORS.split(line):
            if tok:
                index += 1
                yield tok, lineno, index


def parse_cards(text: str | Iterable[Any], max_cards: int | None = None) -> list[Card]:
    """Cards from text (any accepted notation, separated by spaces, commas or
    newlines, ``#`` comments) or from an iterable of cards and tokens.

    At most two copies of a card are accepted; with ``max_cards`` (27 for a
    hand) a longer list is an error. Errors name the token and where it is.

    >>> parse_cards("S3 S3 S3")
    Traceback (most recent call last):
    ...
    guandan_fast.errors.HandError: a third copy of S3 (token 3, 'S3')
    """
    cards: list[Card] = []
    seen: Counter[Card] = Counter()
    multi_line = isinstance(text, str) and "\n" in text
    items: list[Any]
    if isinstance(text, str):
        items = list(_tokens(text))
    elif isinstance(text, (bytes, bytearray, dict)) or not hasattr(text, "__iter__"):
        raise CardParseError(f"cards are text or a list of cards, not {type(text).__name__}")
    else:
        items = [(x, None, i) for i, x in enumerate(text, start=1)]
    for tok, lineno, index in items:
        card: Card | None
        if isinstance(tok, Card):
            card = tok
        else:
            card = _card_from_token(str(tok))
            if card is None:
                where = f"line {lineno}, token {index}" if multi_line else f"token {index}"
                raise CardParseError(f"unknown card token {shown(tok)!r} ({where})",
                                     token=str(tok), position=index, line=lineno)
        seen[card] += 1
        if seen[card] > MAX_COPIES:
            where = f"line {lineno}, token {index}" if multi_line else f"token {index}"
            raise HandError(f"a third copy of {card} ({where}, {shown(tok)!r})")
        cards.append(card)
        if max_cards is not None and len(cards) > max_cards:
            raise HandError(f"more than {max_cards} cards (token {index}, {shown(tok)!r})")
    return cards


def check_hand(cards: Iterable[Card], max_cards: int = MAX_HAND) -> None:
    """Raise HandError for a third copy of a card or more than ``max_cards``."""
    seen = Counter(cards)
    for card, n in seen.items():
        if n > MAX_COPIES:
            raise HandError(f"a third copy of {card}")
    total = sum(seen.values())
    if total > max_cards:
        raise HandError(f"{total} cards: a hand holds at most {max_cards}")


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of cards, in the given order."""
    return " ".join(TOKENS[c.id] for c in cards)
