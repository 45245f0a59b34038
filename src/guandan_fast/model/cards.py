"""Cards and their notation (RULES §1).

The canonical notation is suit letter then rank (``S3 HT DA``), jokers ``SB``
(small) and ``HR`` (big): files and the platform's wire use it. Input may
also use ``10`` for ``T``, lower case, rank-first order (``Ah``, ``10h``),
Unicode suits (``♠A``, ``A♠``), Chinese (``大王``/``大鬼``, ``小王``/``小鬼``,
``黑桃A``, ``红桃10``/``红心10``, ``梅花3``/``草花3``, ``方块K``/``方片K``), Russian
ranks ``В Д К Т`` (валет, дама, король, туз: Cyrillic ``Т`` is the ace,
Latin ``T`` the ten) with a suit symbol or word (``Т♠``, ``Дчерви``,
``К-пики``) and the Russian jokers ``Дж-м``/``Дж-б``; full-width characters
(``Ａ``, ``１０``) are read as their plain forms (NFKC). Tokens are separated
by spaces, commas (``,`` ``，`` ``、``) or semicolons. Every form the
review's text writes in any language (``report.i18n.card_label``) reads
back as the same card.

A token that mixes Latin and Cyrillic letters (``SТ`` with a Cyrillic Т,
``Tпики`` with a Latin T), or writes a Cyrillic ``С``/``Н`` for the Latin
suit letter, is read as the rules say and gives a ``NotationWarning``
naming the token as typed.

>>> parse_cards("S3 h10, ♠A 红桃K Т♦ 大王")
[Card('S3'), Card('HT'), Card('SA'), Card('HK'), Card('DA'), Card('HR')]
>>> parse_cards("红心10、大鬼，Ａ♠")
[Card('HT'), Card('HR'), Card('SA')]
>>> str(parse_card("10h"))
'HT'
>>> found = []
>>> parse_cards("SТ", warnings=found), found
([Card('SA')], ["'SТ' (token 1) mixes Latin letters (S) and Cyrillic letters (Т): read as SA, the ace of spades (Cyrillic Т is туз, the ace; Latin T is the ten)"])
"""

from __future__ import annotations

import re
import unicodedata
import warnings as _warnings
from collections import Counter
from typing import Any, Iterable, NamedTuple, Optional

from .._core import CARDS, RANK_CHARS as _RANK_CHARS, TOKENS, Card
from ..errors import CardParseError, HandError, NotationWarning, shown

__all__ = ["Card", "CARDS", "parse_card", "parse_cards", "parse_card_tokens",
           "scan_cards", "Token",
           "format_cards", "card_name", "check_hand", "MAX_HAND", "MAX_HOLDING",
           "MAX_COPIES", "RANKS", "RANK_CHARS", "SEQUENCE", "FACE_2_TO_10"]

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
    # Russian: валет, дама, король, туз (Cyrillic letters); Т is the ace
    "В": 9, "Д": 10, "К": 11, "Т": 12,
    "А": 12,  # a Cyrillic A that looks like the Latin one
}
_SUITS = {
    "S": 0, "H": 1, "C": 2, "D": 3,
    "♠": 0, "♤": 0, "♥": 1, "♡": 1, "♣": 2, "♧": 2, "♦": 3, "♢": 3,
    "黑桃": 0, "红桃": 1, "紅桃": 1, "红心": 1, "紅心": 1, "梅花": 2, "草花": 2,
    "方块": 3, "方片": 3, "方塊": 3,
    "ПИКИ": 0, "ПИК": 0, "ЧЕРВИ": 1, "ЧЕРВЫ": 1, "ЧЕРВЕЙ": 1,
    "ТРЕФЫ": 2, "ТРЕФ": 2, "КРЕСТИ": 2, "БУБНЫ": 3, "БУБЕН": 3, "БУБИ": 3,
}
# jokers, compared after upper case and without hyphens
_JOKERS = {
    "SB": 52, "HR": 53, "BJ": 52, "RJ": 53,
    "小王": 52, "大王": 53, "小鬼": 52, "大鬼": 53,
    "ДЖМ": 52, "ДЖБ": 53, "ДЖОКЕРМ": 52, "ДЖОКЕРБ": 53,
}
_SUIT_WORDS = sorted(_SUITS, key=len, reverse=True)
_RANK_WORDS = sorted(_RANKS, key=len, reverse=True)
# spaces, commas (ASCII, full-width, the ideographic 、) and semicolons
_SEPARATORS = re.compile(r"[\s,;，、；]+")
# Cyrillic letters written for the Latin suit letters they look like (С
# clubs, Н hearts): read as the Latin letter, with a warning. The other
# look-alikes are Russian ranks (А К Т В) and read as such.
_CYRILLIC_SUIT_LETTER = {"С": "C", "Н": "H"}
# Latin letters that, typed for their Cyrillic look-alike, would name a card
# (a hint in the error only: an unknown token is never guessed)
_LATIN_FOR_CYRILLIC = {"B": "В"}
_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
_SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")


def card_name(card: Card) -> str:
    """A card's name in the English of the error messages.

    >>> card_name(CARDS[8]), card_name(CARDS[53])
    ('the ten of spades', 'the big joker')
    """
    if card.id >= 52:
        return "the small joker" if card.id == 52 else "the big joker"
    return f"the {_NAMES[card.id % 13]} of {_SUIT_NAMES[card.id // 13]}"


def _lookup(t: str) -> Optional[Card]:
    """The card of a normalised token (upper case, no hyphens), else None."""
    if t in _JOKERS:
        return CARDS[_JOKERS[t]]
    for sw in _SUIT_WORDS:              # suit first, then rank
        if t.startswith(sw):
            rest = t[len(sw):]
            if rest in _RANKS:
                return CARDS[_SUITS[sw] * 13 + _RANKS[rest]]
    for rw in _RANK_WORDS:              # rank first, then suit
        if t.startswith(rw):
            rest = t[len(rw):]
            if rest in _SUITS:
                return CARDS[_SUITS[rest] * 13 + _RANKS[rw]]
    return None


def _is_latin(c: str) -> bool:
    return "A" <= c <= "Z" or "a" <= c <= "z"


def _is_cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff"


# the hyphenated forms of the Russian notation (docs/formats.md): a joker
# ``Дж-м``/``джокер-б`` and a rank before a Russian suit word ``К-пики``
_HYPHEN_JOKERS = ("ДЖ", "ДЖОКЕР")
_HYPHEN_JOKER_KINDS = ("М", "Б")


def _normal(tok: str) -> str:
    """A token upper case (NFKC), with the one hyphen of a Russian joker
    (``Дж-м``) or of a rank before a Russian suit word (``К-пики``)
    dropped; any other hyphen stays (the token is then no card)."""
    t = unicodedata.normalize("NFKC", tok).strip().upper()
    if "-" not in t:
        return t
    left, _, right = t.partition("-")
    if "-" not in right and (
            (left in _HYPHEN_JOKERS and right in _HYPHEN_JOKER_KINDS)
            or (left in _RANKS and right in _SUITS and all(_is_cyrillic(c) for c in right))):
        return left + right
    return t


def _read_token(tok: str, where: str = "") -> tuple[Optional[Card], Optional[str]]:
    """(card or None, warning or None) of one token as typed; ``where``
    (``token 3``) is named in the warning."""
    t = _normal(tok)
    if not t or "-" in t:
        return None, None
    card = _lookup(t)
    at = f" ({where})" if where else ""
    cyr = [c for c in t if _is_cyrillic(c)]
    if card is not None:
        if cyr and any(_is_latin(c) for c in t):
            typed = unicodedata.normalize("NFKC", tok)
            lat = "".join(c for c in typed if _is_latin(c))
            note = (" (Cyrillic Т is туз, the ace; Latin T is the ten)"
                    if "Т" in t or "T" in t else "")
            return card, (f"{shown(tok)!r}{at} mixes Latin letters ({lat}) and Cyrillic "
                          f"letters ({''.join(c for c in typed if _is_cyrillic(c))}): read as "
                          f"{card}, {card_name(card)}{note}")
        return card, None
    if cyr:
        swapped = "".join(_CYRILLIC_SUIT_LETTER.get(c, c) for c in t)
        card = _lookup(swapped) if swapped != t else None
        if card is not None:
            which = ", ".join(f"Cyrillic {c} for Latin {_CYRILLIC_SUIT_LETTER[c]}"
                              for c in dict.fromkeys(t) if c in _CYRILLIC_SUIT_LETTER)
            return card, (f"{shown(tok)!r}{at} writes {which}: read as {card}, "
                          f"{card_name(card)}")
    return None, None


def _unknown(tok: str, where: str = "") -> str:
    """The message of an unknown token: the token as typed, where it is,
    and a hint when a Cyrillic look-alike would have made it a card."""
    t = _normal(tok)
    hint = "; a hyphen only as in Дж-м, Дж-б, К-пики" if "-" in t else ""
    swapped = "".join(_LATIN_FOR_CYRILLIC.get(c, c) for c in t)
    if swapped != t and _lookup(swapped) is not None:
        letters = ", ".join(f"Cyrillic {_LATIN_FOR_CYRILLIC[c]}" for c in dict.fromkeys(t)
                            if c in _LATIN_FOR_CYRILLIC)
        hint = f"; with {letters} it would be {_lookup(swapped)}"
    return f"unknown card token {shown(tok)!r}" + (f" ({where}{hint})" if where else
                                                   (f" ({hint[2:]})" if hint else ""))


def parse_card(token: str) -> Card:
    """One card in any accepted notation.

    >>> parse_card("♥10"), parse_card("小王"), parse_card("Кпики")
    (Card('HT'), Card('SB'), Card('SK'))
    """
    if not isinstance(token, str):
        raise CardParseError(f"a card token is text, not {type(token).__name__}",
                             token=str(token), position=1)
    card, warning = _read_token(token)
    if card is None:
        raise CardParseError(_unknown(token), token=token, position=1)
    if warning:
        _warnings.warn(NotationWarning(warning), stacklevel=2)
    return card


class Token(NamedTuple):
    """A card as typed: the card, the text of its token, its line (from
    ``first_line``) and its index in the text (from 1), the warning of a
    look-alike mix (or None), and its index within its line (from 1)."""

    card: Card
    text: str
    line: int
    index: int  # type: ignore[assignment]  # the field shadows tuple.index (public name, kept)
    warning: Optional[str] = None
    in_line: int = 0           # its index within its line (from 1), as errors name it


def _tokens(text: str, first_line: int = 1) -> Iterable[tuple[str, int, int, int]]:
    """(token, line number, token index within the text, within its line)."""
    index = 0
    for lineno, line in enumerate(text.splitlines() or [""], start=first_line):
        line = line.split("#", 1)[0]
        in_line = 0
        for tok in _SEPARATORS.split(line):
            if tok:
                index += 1
                in_line += 1
                yield tok, lineno, index, in_line


def scan_cards(text: str, first_line: int = 1, lines: bool = True) -> list[Token]:
    """The cards of a text as typed (``Token``), in order; an unknown token
    is a CardParseError naming it as typed and where it is: with ``lines``,
    its line (counted from ``first_line``) and its index in that line, else
    its index in the text. No count check."""
    out: list[Token] = []
    for tok, lineno, index, in_line in _tokens(text, first_line):
        where = f"line {lineno}, token {in_line}" if lines else f"token {index}"
        card, warning = _read_token(tok, where)
        if card is None:
            raise CardParseError(_unknown(tok, where), token=tok, position=index, line=lineno)
        out.append(Token(card, tok, lineno, index, warning, in_line))
    return out


def parse_card_tokens(text: str | Iterable[Any], max_cards: int | None = None,
                      first_line: int = 1) -> list[Token]:
    """The cards of ``parse_cards`` as typed (``Token``: each with its
    line, its index and its look-alike warning, not yet given), checked as
    there: an unknown token, a third copy or more than ``max_cards`` cards
    is an error naming the token and where it is. A reader that places
    its warnings itself (a record's: by line or by key) takes them here.

    >>> [(t.card, t.line, t.warning is not None) for t in parse_card_tokens("S3\\nSТ")]
    [(Card('S3'), 1, False), (Card('SA'), 2, True)]
    """
    for name, value, least in (("max_cards", max_cards, 0), ("first_line", first_line, 1)):
        if value is None and name == "max_cards":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise HandError(f"{name} must be an integer {least} or more, not {value!r}"[:100])
    multi_line = isinstance(text, str) and "\n" in text
    items: list[Token]
    if isinstance(text, str):
        items = scan_cards(text, first_line, lines=multi_line)
    elif isinstance(text, (bytes, bytearray, dict)) or not hasattr(text, "__iter__"):
        raise CardParseError(f"cards are text or a list of cards, not {type(text).__name__}")
    else:
        items = []
        for i, x in enumerate(text, start=1):
            if isinstance(x, Card):
                items.append(Token(x, str(x), first_line, i, None, i))
                continue
            card, warning = _read_token(str(x), f"token {i}")
            if card is None:
                raise CardParseError(_unknown(str(x), f"token {i}"), token=str(x), position=i)
            items.append(Token(card, str(x), first_line, i, warning, i))
    seen: Counter[Card] = Counter()
    for n, tok in enumerate(items, start=1):
        where = f"line {tok.line}, token {tok.in_line}" if multi_line else f"token {tok.index}"
        seen[tok.card] += 1
        if seen[tok.card] > MAX_COPIES:
            raise HandError(f"a third copy of {tok.card} ({where}, {shown(tok.text)!r})",
                            line=tok.line)
        if max_cards is not None and n > max_cards:
            raise HandError(f"more than {max_cards} cards (card {n}: {where}, "
                            f"{shown(tok.text)!r})", line=tok.line)
    return items


def parse_cards(text: str | Iterable[Any], max_cards: int | None = None,
                warnings: Optional[list[str]] = None, first_line: int = 1) -> list[Card]:
    """Cards from text (any accepted notation, separated by spaces, commas or
    newlines, ``#`` comments) or from an iterable of cards and tokens.

    At most two copies of a card are accepted; with ``max_cards`` (27 for a
    hand) a longer list is an error. Errors name the token as typed and
    where it is (lines counted from ``first_line``: the line of the text
    in its file; the error's ``line``). A look-alike mix is read as the rules say and warned of:
    appended to ``warnings`` when it is a list, else a ``NotationWarning``.

    >>> parse_cards("S3 S3 S3")
    Traceback (most recent call last):
    ...
    guandan_fast.errors.HandError: a third copy of S3 (token 3, 'S3')
    """
    if isinstance(text, (list, tuple)):
        cards = list(text)          # counted as iterated, whatever the container says its length is
        if all(type(c) is Card for c in cards) \
                and (max_cards is None or (type(max_cards) is int and len(cards) <= max_cards)) \
                and type(first_line) is int and first_line >= 1 \
                and (len(cards) <= MAX_COPIES or max(Counter(cards).values()) <= MAX_COPIES):
            return cards            # cards already, checked as below: nothing to read or warn
    items = parse_card_tokens(text, max_cards, first_line)
    for tok in items:
        if tok.warning:
            if warnings is not None:
                warnings.append(tok.warning)
            else:
                _warnings.warn(NotationWarning(tok.warning), stacklevel=2)
    return [tok.card for tok in items]


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
    """Canonical text of cards, in the given order. Anything but an
    iterable of Card objects is a CardParseError (parse_cards reads text)."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        raise CardParseError(f"format_cards takes Card objects, not {type(cards).__name__}",
                             shown(repr(cards)))
    out = []
    for c in cards:
        if not isinstance(c, Card):
            raise CardParseError(f"format_cards takes Card objects, not {shown(repr(c))} "
                                 "(parse_cards reads tokens)", repr(c))
        out.append(TOKENS[c.id])
    return " ".join(out)
