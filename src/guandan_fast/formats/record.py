"""Deal records: the whole of one deal, typed from a club scoresheet.

A record is plain text. ``#`` starts a comment anywhere; blank lines are
ignored; cards may be written in any notation ``parse_cards`` accepts
(``S3``, ``10h``, ``♠A``, ``红桃10``, ``大王``, ``Т♠``...). Example::

    # Moscow club, Thursday evening
    event: Autumn league
    date: 2026-11-26
    table: 3
    deal: 5
    level: 7                      # the level played (level cards 7, wilds H7)
    players: Anna, Boris, Chen, Dmitri    # seats 0 1 2 3; 0+2 and 1+3 are partners
    previous: 0 2 1 3             # last deal's finishing order (optional)

    hands:                        # the four hands as dealt, before tribute
    0: S3 S3 H4 ...               # a long hand may go on over several lines
    1: ...
    2: ...
    3: ...

    tribute:                      # payer -> receiver: card   (or "tribute: anti")
    3 -> 1: HR
    1 -> 2: SB
    return:                       # receiver -> payer: card
    1 -> 3: S4
    2 -> 1: D2

    play:                         # one action per line: seat, then cards or pass
    3: S5 S5
    0: pass                       # also pas, p, -, пас, 过, 不出
    1: D9 D9
    2: S3 D3 S4 D4 H7 H7 tube 5   # a reading only where the cards are ambiguous
    Anna: SJ | Boris: pass        # players' names work too; | separates actions

Header tags are free (``event``, ``site``, ``date``, ``round``, ``table``,
``deal``, anything else); ``level`` and the rules flags of ``Rules`` are
read as rules, ``players`` as the four names (or ``seat0: Anna`` ...).
``hands:``, ``tribute:``, ``return:`` and ``play:`` open the sections.

A reading (``plate``, ``tube 5``, ``straight_flush``, ``sf``, ``bomb``...) is
needed only when the cards have several readings that are legal at that
moment (a same-suit run is both a straight and a straight flush; with wilds
``S3 D3 S4 D4 H2 H2`` is a plate or two tubes). Hands may hold fewer than 27
cards (an endgame typed from a diagram), but when one hand has 27 they all
must; the first action line names the leader; a play that stops before the
end of the deal needs ``partial: yes`` in the header (else it is an error
naming its last line).

Every record is checked on loading: ``RecordError`` (a ``ValueError``)
names the line, the player of the line's seat and the reason: an unknown
card (as typed), a card not in that hand, a play that does not beat the
table, a turn out of order, an ambiguous play with no reading, a written
reading that makes the next action illegal (on the reading's line), a pass
on a free lead, an action after the deal ended, an illegal tribute or
return card, a play cut short, a hand line before ``hands:``, a misspelled
section header. The loader goes on past an error and lists every one it
finds (``RecordError.errors``, up to MAX_RECORD_ERRORS), except past a
misspelled section header (the lines after it would be misread); the
tokens that mix Latin and Cyrillic look-alikes are read as RULES §1 says and
noted in ``Record.warnings``.

``dumps`` writes the canonical text (sorted hands, canonical card tokens,
readings only where needed) and ``loads(dumps(r)) == r``. The record itself
(``Record``, ``Move``, ``Transfer``, ``replay``) is ``game.record``; the JSON
form is ``formats.record_json`` (``load`` here reads either).

>>> rec = loads('''level: 2
... hands:
... 0: S3
... 1: S9 S4
... 2: SA
... 3: S5
... play:
... 0: S3 | 1: S9 | 2: SA''')
>>> rec.result(), [str(m) for m in rec.moves]
(3, ['0: S3', '1: S9', '2: SA'])
>>> loads(dumps(rec)) == rec
True
>>> loads("level: 2\\nhands:\\n0: S3\\n1: S4\\n2: S5\\n3: S6\\nplay:\\n0: S3\\n2: S5")
Traceback (most recent call last):
...
guandan_fast.errors.RecordError: line 9: turn out of order: seat 1 is to act, not seat 2
"""

from __future__ import annotations

import difflib
import re
import unicodedata
import warnings as _warnings
from collections import Counter
from pathlib import Path
from typing import NoReturn, Optional, TextIO, Union

from .._core import Card
from ..model.cards import MAX_HAND, card_name, format_cards, parse_card_tokens, scan_cards
from ..errors import (MAX_RECORD_ERRORS, GuandanError, NotationWarning, PlayError, RecordError,
                      RulesError, shown)
from ..game.record import Record, Transfer, replay
from ..game.state import GameState
from ..game.tribute import (check_return_card, check_tribute_card, tribute_leaders,
                            tribute_plan)
from ..model.rules import RANKS, Rules, classify, reading_label
from ..model.seats import team
from .text import (FLAG_KEYS, LEVEL_KEYS, KeyLines, decode, parse_bool, parse_header_line,
                   read_text, rules_header_lines)

__all__ = ["loads", "load", "dumps", "dump", "check_name", "check_writable", "reading_words",
           "PASS_WORDS", "TYPE_WORDS", "FORMAT_NAME", "FORMAT_VERSION"]

FORMAT_NAME = "guandan-deal-record"
FORMAT_VERSION = 1

PASS_WORDS = {"pass", "pas", "p", "-", "пас", "пасс", "过", "不要", "不出", "x"}
TYPE_WORDS = {
    "single": "single", "pair": "pair", "triple": "triple", "trips": "triple",
    "full_house": "full_house", "fullhouse": "full_house", "full-house": "full_house",
    "fh": "full_house", "straight": "straight", "tube": "tube", "plate": "plate",
    "straight_flush": "straight_flush", "straightflush": "straight_flush",
    "straight-flush": "straight_flush", "sf": "straight_flush", "flush": "straight_flush",
    "bomb": "bomb", "joker_bomb": "joker_bomb", "jokerbomb": "joker_bomb",
    # Chinese and Russian names (RULES 9)
    "单张": "single", "对子": "pair", "三张": "triple", "三带二": "full_house",
    "顺子": "straight", "连对": "tube", "木板": "tube", "钢板": "plate",
    "同花顺": "straight_flush", "炸弹": "bomb", "天王炸": "joker_bomb",
    "одиночная": "single", "пара": "pair", "тройка": "triple", "стрит": "straight",
    "связка": "tube", "плита": "plate", "флеш-стрит": "straight_flush",
    "бомба": "bomb",
}
_RANK_WORDS = {**{r: r for r in RANKS + "BR"}, "10": "T"}
_SECTIONS = {
    "hands": "hands", "руки": "hands", "手牌": "hands",
    "tribute": "tribute", "дань": "tribute", "进贡": "tribute",
    "return": "return", "ответ": "return", "还贡": "return",
    "play": "play", "plays": "play", "игра": "play", "ходы": "play", "出牌": "play",
}
# the section headers an error lists (_SECTIONS also reads their Russian and Chinese names)
_SECTION_HEADERS = ("hands:", "tribute:", "return:", "play:")
_ANTI_WORDS = {"anti", "anti-tribute", "anti_tribute", "antitribute", "抗贡", "отказ"}
_TRANSFER = re.compile(r"^\s*(\S+)\s*(?:->|→|>)\s*([^\s:：]+)\s*[:：]?\s*(.*?)\s*$")
_KNOWN_TAG_ORDER = ("event", "site", "date", "round", "table", "deal")


# -- reading raw text ---------------------------------------------------------

class _Raw:
    def __init__(self):
        self.tags: dict = {}
        self.rules_kw: dict = {}
        self.rules_line: Union[int, str, None] = None   # a line, or a JSON key
        self.players = None
        self.players_where = None
        self.previous = None
        self.previous_where = None
        self.hands = {}          # seat -> [text, where]
        self.anti = False
        self.tributes = []       # (giver, receiver, card text, where)
        self.returns = []
        self.moves = []          # (seat, cards (a list) or None, reading, where)
        self.typed = {}          # move index -> (cards, reading) as typed
        self.partial = False
        self.settings = KeyLines(RecordError, canonical=_canonical)
        self.errors: list = []   # every RecordError found (up to MAX_RECORD_ERRORS)
        self.more = False        # errors were left out
        self.warnings: list = []  # (line, seat, text) of look-alike tokens
        self.bad: set = set()    # the sections with an error on a line of theirs
        self.first_bad_move: Optional[int] = None  # the first action lost to an error
        self.line_seat: dict = {}  # line -> the seat it belongs to (a hand, a giver)
        self.stopped = False     # reading stopped at a bad section header

    def error(self, e: RecordError, section: Optional[str], seat: Optional[int]) -> None:
        """Keep an error of a line (its section and seat) and go on."""
        if e.seat is None and seat is not None:
            e.seat = seat
        if section:
            self.bad.add(section)
        if section == "play" and self.first_bad_move is None:
            self.first_bad_move = len(self.moves)
        if len(self.errors) < MAX_RECORD_ERRORS:
            self.errors.append(e)
        else:
            self.more = True


_PLAYER_KEYS = ("players", "игроки", "玩家")
_PREVIOUS_KEYS = ("previous", "предыдущая", "上局")
# a record that stops before the end of the deal on purpose
_PARTIAL_KEYS = ("partial", "неполная", "未完")


def _canonical(key: str) -> str:
    """One name per setting of the header, so that a setting given twice
    under two spellings is caught."""
    if key in LEVEL_KEYS:
        return "level"
    if key in _PLAYER_KEYS:
        return "players"
    if key in _PREVIOUS_KEYS:
        return "previous"
    if key in _PARTIAL_KEYS:
        return "partial"
    m = re.fullmatch(r"seat\s*([0-3])", key)
    return f"seat{m.group(1)}" if m else key


def _where(where) -> str:
    return f"line {where}" if isinstance(where, int) else str(where)


def _first_line(where) -> int:
    """The line a text at ``where`` starts on: ``where`` itself in the text
    form (a line), 1 in JSON (a key: its text is numbered from 1)."""
    return where if isinstance(where, int) else 1


def _place(where, line: Optional[int]):
    """Where a token on ``line`` of a text at ``where`` is: its line in the
    text form, the text's key in JSON (or when the line is unknown)."""
    return line if isinstance(where, int) and line is not None else where


def _fail(where, message: str, seat: Optional[int] = None) -> NoReturn:
    if isinstance(where, int):
        raise RecordError(message, where, seat=seat)
    raise RecordError(f"{where}: {message}" if where else message, seat=seat)


def check_name(name, where="players") -> str:
    """A player's name as a record holds it, or RecordError naming `where`:
    a non-empty string without a comma (the names are comma-separated),
    ``#`` (a comment starts there), a control character or anything else
    that breaks a line (U+2028, U+0085...: the reader splits lines as
    ``str.splitlines`` does), the replacement character U+FFFD (bytes that
    were not text) or spaces around it (the reader strips them), and not a
    seat number (0..3: an action's label names a seat by either)."""
    if not isinstance(name, str):
        _fail(where, f"a name is text, not {type(name).__name__}")
    bad = next((c for c in name if c in ",#\ufffd" or unicodedata.category(c) in _NAME_BAD
                or len(("a" + c + "a").splitlines()) > 1), None)
    what = ("is empty" if not name else
            f"holds {bad!r}" if bad is not None else
            "is empty" if not name.strip() else
            "has spaces around it" if name != name.strip() else
            "is a seat number" if name in ("0", "1", "2", "3") else None)
    if what:
        _fail(where, f"the name {name[:40]!r} {what}: a record's names are text without "
                     "commas, '#' or control characters, and not 0..3")
    return name


# the Unicode categories a name may not hold: controls, surrogates, line and
# paragraph separators
_NAME_BAD = frozenset(("Cc", "Cs", "Zl", "Zp"))


def _check_players(names, where) -> None:
    for n in names:
        check_name(n, where)


def _reading(type_word: str, rank_word: Optional[str] = None):
    """(type, rank or None) of a reading's words (``tube 5``, ``sf``,
    ``炸弹``...), or None when they are not a reading: the one reader of
    readings, of the text form and of the JSON form's ``type``/``rank``."""
    typ = TYPE_WORDS.get(unicodedata.normalize("NFKC", type_word).lower())
    if typ is None:
        return None
    if rank_word is None:
        return typ, None
    rank = _RANK_WORDS.get(unicodedata.normalize("NFKC", rank_word).upper())
    return None if rank is None else (typ, rank)


def reading_words(type_word: Optional[str], rank_word: Optional[str]) -> tuple:
    """(type or None, rank or None) named by a reading's words as a record
    takes them (``pair 10``, ``пара``, ``flush``, a rank in either case):
    for a reading given apart from its cards (``plays --type/--rank``, an
    endgame's ``table_type``/``table_rank``). An unknown word is a PlayError
    naming it.

    >>> reading_words("pair", "10"), reading_words(None, "t"), reading_words("тройка", None)
    (('pair', 'T'), (None, 'T'), ('triple', None))
    """
    typ = rank = None
    if type_word is not None:
        got = _reading(type_word)
        if got is None:
            raise PlayError(f"unknown play type {shown(type_word)!r}: one of "
                            + ", ".join(sorted(set(TYPE_WORDS.values()))))
        typ = got[0]
    if rank_word is not None:
        rank = _RANK_WORDS.get(unicodedata.normalize("NFKC", rank_word).strip().upper())
        if rank is None:
            raise PlayError(f"unknown rank {shown(rank_word)!r}: 2..10, J, Q, K, A, "
                            "B (small joker) or R (big joker)")
    return typ, rank


def _split_reading(text: str, where):
    """(cards text, (type, rank) or None, the reading as typed) of an
    action's text; the words are read after NFKC (full-width forms), the
    texts returned are as typed."""
    toks = unicodedata.normalize("NFKC", text).replace("(", " ").replace(")", " ").split()
    typed = text.replace("(", " ").replace(")", " ").split()
    if len(typed) != len(toks):       # a full-width space: the words as read
        typed = toks
    reading: Optional[tuple[str, Optional[str]]] = None
    n = len(toks)
    if n >= 2 and _reading(toks[-2], toks[-1]):
        reading, n = _reading(toks[-2], toks[-1]), n - 2
    elif toks and _reading(toks[-1]):
        reading, n = _reading(toks[-1]), n - 1
    words = " ".join(typed[n:])
    if n and toks[n - 1].lower() == "as":
        n -= 1
    return " ".join(typed[:n]), reading, words


def _parse_text(text: str) -> _Raw:
    """The raw record of a text: every line read, the errors of each line
    kept (``_Raw.errors``) and the reading gone on past them."""
    raw = _Raw()
    state = {"section": None, "last_seat": None}
    for lineno, full in enumerate(decode(text).splitlines(), start=1):
        line = full.split("#", 1)[0].strip()
        if not line:
            continue
        seat: list = [None]          # the seat the line belongs to, once known
        try:
            _parse_line(raw, state, line, lineno, seat)
        except RecordError as e:
            raw.error(e, state["section"] or "header", seat[0])
        if seat[0] is not None:
            raw.line_seat.setdefault(lineno, seat[0])
        if raw.stopped:          # the lines after a bad header would be misread
            break
    return raw


def _is_seat_label(raw: _Raw, label: str) -> bool:
    """Whether a line's label names a seat (0..3, or a player's name)."""
    return bool(label.strip()) and bool(_named_seats(raw, label))


def _bad_section(raw: _Raw, key: str, lineno: int) -> NoReturn:
    """Stop reading at ``key:``, a line alone that is no known section:
    the lines after it would be read in the wrong section."""
    raw.stopped = True
    near = difflib.get_close_matches(key, list(_SECTIONS), n=1, cutoff=0.6)
    hint = f" (did you mean {_SECTIONS[near[0]]}:?)" if near else ""
    _fail(lineno, f"{shown(key + ':')!r} is not a known section: the sections are "
                  f"{', '.join(_SECTION_HEADERS)}{hint}; the record is read no further")


def _parse_line(raw: _Raw, state: dict, line: str, lineno: int, seat_of: list) -> None:
    m = parse_header_line(line)        # the one key: value reader (formats/text)
    key, text_value = m if m else (None, "")   # text_value is read only when m matched
    section = state["section"]
    if m and key not in _SECTIONS and not text_value:
        assert key is not None  # m matched: key is its first group
        # a 'word:' alone: in a section a header unless it names a seat; in
        # the header an empty tag (any name: 'player:' is a tag, and a
        # misspelled 'hnads:' there is caught by the hand lines after it)
        if section is not None and not _is_seat_label(raw, key):
            _bad_section(raw, key, lineno)
        near = difflib.get_close_matches(key, list(_SECTIONS), 1, 0.7)
        if section is None and near:
            state["near"] = (key, lineno, _SECTIONS[near[0]])    # named if hand lines follow
    if m and key in _SECTIONS and (not text_value or _SECTIONS[key] == "tribute"):
        state["section"] = _SECTIONS[key]
        state["last_seat"] = None
        value = text_value.strip().lower()
        if value:
            if value in _ANTI_WORDS:
                raw.anti = True
            else:
                _fail(lineno, f"after 'tribute:' only 'anti' may follow, not {text_value!r}")
        return
    if section is None:
        if not m:
            _fail(lineno, f"expected a 'key: value' tag or a section (hands:, play:), not {line!r}")
        assert key is not None  # m matched: key is its first group
        if _is_seat_label(raw, key):
            # a hand line before any section: read it as a hand, and say so once
            state["section"] = "hands"
            _parse_line(raw, state, line, lineno, seat_of)
            seen = state.get("near")
            hint = (f" (line {seen[1]}: {shown(seen[0] + ':')!r} is no section: did you mean "
                    f"{seen[2]}:?)" if seen else "")
            _fail(lineno, f"a hand line ({shown(line)!r}) before any section: the 'hands:' "
                          f"header is missing before line {lineno}{hint}")
        _header(raw, key, text_value, lineno)
    elif section == "hands":
        t = _TRANSFER.match(line)
        if t and _is_seat_label(raw, t.group(1)) and _is_seat_label(raw, t.group(2)):
            _fail(lineno, f"{shown(line)!r} is a tribute or return line ('giver -> receiver: "
                          f"card') among the hands: the 'tribute:' or 'return:' header is "
                          f"missing before line {lineno}")
        if m or re.search("[:：]", line):
            label_, rest_ = re.split("[:：]", line, maxsplit=1)
            seat = _seat(raw, label_, lineno)
            seat_of[0] = seat
            if seat in raw.hands and len(raw.hands) == 4:
                # the play read as hands: stop before it repeats for every action
                raw.stopped = True
                _fail(lineno, f"a second hand for seat {seat} after all four hands (lines "
                              f"{', '.join(str(raw.hands[s][1]) for s in range(4))}): if the "
                              f"play starts here, the 'play:' header is missing before line "
                              f"{lineno}; the record is read no further")
            if seat in raw.hands:
                _fail(lineno, f"a second hand for seat {seat}")
            raw.hands[seat] = [rest_.strip(), lineno]
            state["last_seat"] = seat
        elif state["last_seat"] is not None:
            seat_of[0] = state["last_seat"]
            raw.hands[state["last_seat"]][0] += "\n" + line
        else:
            _fail(lineno, f"a hand line starts with the seat, e.g. '0: S3 S4 ...', not {line!r}")
    elif section in ("tribute", "return"):
        t = _TRANSFER.match(line)
        if not t:
            _fail(lineno, f"a {section} line is 'giver -> receiver: card', not {line!r}")
        giver = _seat(raw, t.group(1), lineno)
        seat_of[0] = giver
        receiver = _seat(raw, t.group(2), lineno)
        (raw.tributes if section == "tribute" else raw.returns).append(
            (giver, receiver, t.group(3), lineno))
    else:  # play
        for part in line.split("|"):
            part = part.strip()
            if not part:
                continue
            if re.search("[:：]", part):
                label, rest = re.split("[:：]", part, maxsplit=1)
            else:
                label, _, rest = part.partition(" ")
            label, rest = label.strip(), rest.strip()
            seat = _seat(raw, label, lineno)
            seat_of[0] = seat
            if not rest:
                _fail(lineno, f"seat {seat}: no cards and no 'pass'")
            if unicodedata.normalize("NFKC", rest).lower() in PASS_WORDS:
                raw.moves.append((seat, None, None, lineno))
            else:
                cards_text, reading, words = _split_reading(rest, lineno)
                cards = _cards(cards_text, lineno, warnings=raw.warnings, seat=seat)
                raw.typed[len(raw.moves)] = (cards_text, words)
                raw.moves.append((seat, cards, reading, lineno))


def _is_setting(key: str) -> bool:
    """Whether a header key (in lower case) is a setting (the level, a rules
    flag, the players, the previous order), not a free tag."""
    return bool(key in LEVEL_KEYS or key in FLAG_KEYS or key in _PLAYER_KEYS
                or key in _PREVIOUS_KEYS or key in _PARTIAL_KEYS
                or re.fullmatch(r"seat\s*[0-3]", key))


def _header(raw: _Raw, key: str, value: str, where) -> None:
    if _is_setting(key):
        raw.settings.add(key, value, where)
    if key in LEVEL_KEYS:
        raw.rules_kw["level"] = value
        raw.rules_line = where
    elif key in FLAG_KEYS:
        try:
            raw.rules_kw[key] = parse_bool(value, key, where)
        except RulesError:
            _fail(where, f"{key} must be yes or no, not {value!r}")
    elif key in _PLAYER_KEYS:
        if any(f"seat{i}" in raw.settings for i in range(4)):
            _fail(where, "players: and seat0:..seat3: both name the seats; use one")
        names = [n.strip() for n in value.split(",")]
        if len(names) != 4 or not all(names):
            _fail(where, f"players: four names separated by commas, not {value!r}")
        raw.players = names
        raw.players_where = where
    elif re.fullmatch(r"seat\s*[0-3]", key):
        if "players" in raw.settings:
            _fail(where, "players: and seat0:..seat3: both name the seats; use one")
        if raw.players is None:
            raw.players = ["", "", "", ""]
        raw.players[int(key[-1])] = value.strip()
        raw.players_where = where
    elif key in _PARTIAL_KEYS:
        try:
            raw.partial = parse_bool(value, key, where)
        except RulesError:
            _fail(where, f"{key} must be yes or no, not {value!r}")
    elif key in _PREVIOUS_KEYS:
        seats = value.replace(",", " ").split()
        if sorted(seats) != ["0", "1", "2", "3"]:
            _fail(where, f"previous: the four seats 0 1 2 3 in finishing order, not {value!r}")
        raw.previous = [int(s) for s in seats]
        raw.previous_where = where
    else:
        if key in raw.tags:
            _fail(where, f"a second {key!r} tag")
        raw.tags[key] = value


def _named_seats(raw: _Raw, label) -> list[int]:
    """The seats a line's label names: 0..3 by number, else every player of
    that name (any case)."""
    lab = str(label).strip()
    if lab in ("0", "1", "2", "3"):
        return [int(lab)]
    return [s for s, p in enumerate(raw.players or ()) if p.lower() == lab.lower()]


def _seat(raw: _Raw, label: str, where) -> int:
    lab = str(label).strip()
    seats = _named_seats(raw, lab)
    if len(seats) > 1:
        _fail(where, f"{lab!r} names seats {' and '.join(map(str, seats))}: use the seat number"[:120])
    if seats:
        return seats[0]
    _fail(where, f"unknown seat {shown(lab)!r}: use 0..3"
          + (" or a player's name" if raw.players else ""))


# -- building and checking a record ---------------------------------------------

def _cards(text, where, max_cards=None, warnings: Optional[list] = None,
           seat: Optional[int] = None) -> list:
    """The cards of a text at ``where`` (its first line, or a JSON path):
    an error names the line of the bad token; a look-alike warning is kept
    in ``warnings`` as (line, seat, text)."""
    try:
        tokens = parse_card_tokens(text, max_cards=max_cards, first_line=_first_line(where))
    except GuandanError as e:
        _fail(_place(where, getattr(e, "line", None)), str(e), seat)
    for t in tokens:
        if not t.warning:
            continue
        line = _place(where, t.line)
        if warnings is not None:
            warnings.append((line, seat, t.warning))
        else:                           # no record to keep it on: never silent
            _warnings.warn(NotationWarning(f"{_where(line)}: {t.warning}"), stacklevel=3)
    return [t.card for t in tokens]


_reading_label = reading_label           # a record writes a reading as people do


def _typed_note(typed: str, cards: list) -> str:
    """`` (typed '3♠')`` when the cards were typed otherwise than their
    canonical text (``S3``), else "": an error names the card(s) canonically
    and repeats the tokens as typed (a play line, a tribute or return line)."""
    return "" if typed.split() == format_cards(cards).split() else f" (typed {typed!r})"


def _choose(state: GameState, cards: list, reading, where, seat: int, typed=None):
    """The one play these cards make now (narrowed by the reading), and the
    other readings that were legal when a reading chose among several
    (else an empty list). ``typed``: (cards, reading) as typed, repeated in
    the errors."""
    cards_typed, words = typed if typed else (format_cards(cards), "")
    text = format_cards(cards)
    shown_as = text if cards_typed.split() == text.split() else f"{cards_typed} ({text})"
    readings = classify(cards, state.rules)
    if not readings:
        _fail(where, f"seat {seat}: {shown_as} is not a valid play", seat)
    legal_all = [p for p in readings if state.why_illegal(p) is None]
    if reading is not None:
        typ, rank = reading
        narrowed = [p for p in readings if p.type == typ and (rank is None or p.rank == rank)]
        if not narrowed:
            asked = words or f"{typ}{' ' + rank if rank else ''}"
            _fail(where, f"seat {seat}: {shown_as} cannot be read as {asked}; "
                         f"its readings: {', '.join(map(_reading_label, readings))}", seat)
        readings = narrowed
    legal = [p for p in readings if state.why_illegal(p) is None]
    if not legal:
        why = state.why_illegal(readings[0])
        assert why is not None  # no reading is legal, so each has a reason
        _fail(where, why + _typed_note(cards_typed, cards) if why.startswith("seat") else
              f"seat {seat}: {shown_as}: {why}", seat)
    if len(legal) > 1:
        _fail(where, f"seat {seat}: {shown_as} is ambiguous: write the reading, one of "
                     + ", ".join(map(_reading_label, legal)), seat)
    others = [p for p in legal_all if p != legal[0]] if reading is not None else []
    return legal[0], others


def _build(raw: _Raw) -> Optional[Record]:
    """The record of the raw text, checked. The errors of the settings and
    of each hand are all kept (``raw.error``); the exchange is checked when
    the hands and its lines are sound, the play when the exchange is, up to
    its first illegal action (the actions after it depend on it) or up to
    the first action lost to an error of its line. None when an error was
    found."""
    rules = Rules()
    try:
        rules = Rules(**raw.rules_kw)
    except RulesError as e:
        raw.error(_error(raw.rules_line, str(e)), "rules", None)
    try:
        if raw.players is not None and not all(raw.players):
            _fail(raw.players_where, "name all four seats (seat0: .. seat3:) or use players:")
        if raw.players is not None:
            _check_players(raw.players, raw.players_where)
    except RecordError as e:
        raw.error(e, "header", None)
    hands: list = [None] * 4
    for seat in range(4):
        try:
            if seat not in raw.hands:
                if raw.errors:        # a bad line may be the hand: no echo of it
                    continue
                _fail("hands", f"no hand for seat {seat}", seat)
            text, where = raw.hands[seat]
            cards = _cards(text, where, max_cards=MAX_HAND, warnings=raw.warnings, seat=seat)
            if not cards:
                _fail(where, f"the hand of seat {seat} is empty", seat)
            hands[seat] = sorted(cards)
        except RecordError as e:
            raw.error(e, "hands", seat)
    if any(h is None for h in hands) or raw.bad & {"rules", "hands"}:
        return None
    try:
        _check_deal(raw, hands)
    except RecordError as e:
        raw.error(e, "hands", e.seat)
        return None
    if raw.stopped:             # the rest of the record was not read
        return None
    rec = Record(hands=hands, rules=rules, tags=dict(raw.tags), players=raw.players,
                 previous=raw.previous, anti_tribute=raw.anti)
    if raw.bad & {"tribute", "return"}:
        return None
    _build_tribute(rec, raw)
    if not raw.moves:
        return rec
    # the play, through the deal's state machine (the exchange is checked
    # above, with the lines to name)
    deal = rec.deal_state(leader=raw.moves[0][0])
    for t in rec.tributes:
        deal.pay_tribute(t.giver, t.card)
    for t in rec.returns:
        deal.give_back(t.giver, t.card)
    moves = raw.moves if raw.first_bad_move is None else raw.moves[:raw.first_bad_move]
    read_at = None        # the standing play's line, when a reading chose it among several
    for i, (seat, cards, reading, where) in enumerate(moves):
        state = deal.game
        assert state is not None  # the exchange is over: the play phase or done
        if state.over:
            _fail(where, f"an action after the deal ended (finishing order "
                         f"{' '.join(map(str, state.finished))})", seat)
        if seat != state.turn:
            what = "lead" if state.table is None else "act"
            _fail(where, f"turn out of order: seat {state.turn} is to {what}, not seat {seat}",
                  seat)
        if cards is None:
            if state.table is None:
                _fail(where, f"seat {seat}: a pass on a free lead (seat {seat} must lead)", seat)
            play = None
        else:
            if not cards:
                _fail(where, f"seat {seat}: no cards", seat)
            try:
                play, several = _choose(state, cards, reading, where, seat, raw.typed.get(i))
            except RecordError:
                if read_at is not None:
                    _check_reading(raw, read_at, moves, i)
                raise
            if play is not None and several:
                read_at = (len(deal.moves), state, play, several)
            elif play is not None:
                read_at = None
        deal.play(seat, play, where if isinstance(where, int) else None)
    rec.moves = list(deal.moves)
    assert deal.game is not None  # the exchange is over: the play phase or done
    if raw.first_bad_move is None and not deal.game.over and not raw.partial:
        seat, _, _, where = raw.moves[-1]
        holding = [str(s) for s in range(4) if s not in deal.game.finished]
        _fail(where, "the record stops here, before the end of the deal (seats "
                     f"{' '.join(holding)} still hold cards): write the rest of the play, or "
                     + ("'partial: yes' in the header" if isinstance(where, int) else
                        '"partial": true') + " to review the decisions written", seat)
    return rec


def _check_deal(raw: _Raw, hands: list) -> None:
    """The four hands make (part of) one double deck: a full deal has 27
    cards in each hand, no card appears more than twice; the error names
    the tokens as typed."""
    if any(len(h) == MAX_HAND for h in hands):
        for seat, h in enumerate(hands):
            if len(h) != MAX_HAND:
                _fail(raw.hands[seat][1], f"seat {seat} holds {len(h)} cards: in a full deal "
                      f"(another hand has {MAX_HAND}) every hand has {MAX_HAND}", seat)
    total = Counter(c for h in hands for c in h)
    for card, n in total.items():
        if n > 2:
            seats = [s for s in range(4) if card in hands[s]]
            typed = []
            for s in seats:
                text, where = raw.hands[s]     # a line (the text form) or a key (JSON)
                typed += [f"{shown(t.text)!r} ({_where(_place(where, t.line))}, seat {s})"
                          for t in scan_cards(text, _first_line(where)) if t.card == card]
            _fail(raw.hands[seats[-1]][1],
                  f"{card_name(card)} ({card}) appears {n} times across the hands, typed "
                  f"{', '.join(typed)}; a deal has two", seats[-1])


def _check_reading(raw: _Raw, read_at, moves, failed: int) -> None:
    """An action that is illegal after a play read with an explicit
    reading, but legal had that play been read another way: the error is
    the reading's, on its line (the action's line names where it showed)."""
    index, state, play, others = read_at
    seat, _, _, where = moves[index]
    for alt in others:
        s = state.apply(alt)
        ok = True
        for seat_j, cards_j, reading_j, _ in moves[index + 1:failed + 1]:
            if s.over or seat_j != s.turn:
                ok = False
                break
            if cards_j is None:
                p = None
            else:
                options = [p for p in classify(cards_j, s.rules) if s.why_illegal(p) is None
                           and (reading_j is None or (p.type == reading_j[0] and (
                               reading_j[1] is None or p.rank == reading_j[1])))]
                if len(options) != 1:
                    ok = False
                    break
                p = options[0]
            if s.why_illegal(p) is not None:
                ok = False
                break
            s = s.apply(p)
        if ok:
            cards_typed, words = raw.typed.get(index, (str(play), ""))
            fail_line = moves[failed][3]
            _fail(where, f"seat {seat}: {cards_typed} read as {words or _reading_label(play)!r} "
                         f"makes the action of {_where(fail_line)} illegal; read as "
                         f"{_reading_label(alt)} it is legal: check the reading", seat)


def _build_tribute(rec: Record, raw: _Raw) -> None:
    rules = rec.rules
    hands = [list(h) for h in rec.hands]
    if raw.anti and (raw.tributes or raw.returns):
        where = (raw.tributes or raw.returns)[0][3]
        _fail(where, "an anti-tribute deal has no tribute and no return")
    payers: dict[int, Transfer] = {}
    def check_given(giver, card, text, where, check, what):
        """The card of a tribute or return line is held by the giver and legal
        for the exchange (check: check_tribute_card / check_return_card); the
        error repeats the card as typed (``text``) when it was typed otherwise."""
        note = _typed_note(shown(text), [card]) if isinstance(text, str) else ""
        if card not in hands[giver]:
            _fail(where, f"seat {giver} does not hold {card}{note}")
        why = check(hands[giver], card, rules)
        if why:
            _fail(where, f"{what} from seat {giver}: {why}{note}")

    for giver, receiver, text, where in raw.tributes:
        card = _one_card(text, where)
        if giver == receiver:
            _fail(where, f"seat {giver} cannot pay tribute to itself")
        if giver in payers:
            _fail(where, f"seat {giver} pays tribute twice")
        if receiver in [t.receiver for t in payers.values()]:
            _fail(where, f"seat {receiver} receives two tributes")
        if len(payers) == 2:
            _fail(where, "at most two tributes")
        check_given(giver, card, text, where, check_tribute_card, "tribute")
        payers[giver] = Transfer(giver, receiver, card)
    if len(payers) == 2 and any(team(t.giver) == team(t.receiver) for t in payers.values()):
        _fail(raw.tributes[1][3], "with two tributes each payer pays an opponent")
    for t in payers.values():
        hands[t.giver].remove(t.card)
        hands[t.receiver].append(t.card)
    returned = {}
    for giver, receiver, text, where in raw.returns:
        card = _one_card(text, where)
        paid = [t for t in payers.values() if t.receiver == giver and t.giver == receiver]
        if not paid:
            _fail(where, f"seat {giver} received no tribute from seat {receiver}, so returns nothing to it")
        if giver in returned:
            _fail(where, f"seat {giver} returns twice")
        check_given(giver, card, text, where, check_return_card, "return")
        returned[giver] = Transfer(giver, receiver, card)
    for t in payers.values():
        if t.receiver not in returned and raw.returns:
            _fail(raw.returns[-1][3], f"seat {t.receiver} must return a card to seat {t.giver}")
    rec.tributes = list(payers.values())
    rec.returns = list(returned.values())
    if raw.returns and not rec.tributes:
        _fail(raw.returns[0][3], "a return with no tribute")
    if rec.tributes and not rec.returns:
        _fail(raw.tributes[-1][3], "the tribute has no return: add a 'return:' section")
    leaders = _check_against_previous(rec, raw)
    if raw.moves and rec.tributes and leaders is None:
        leaders = tribute_leaders([(t.giver, t.receiver) for t in rec.tributes],
                                  [t.card.rank for t in rec.tributes], rules)
    if raw.moves and leaders is not None:
        leader, where = raw.moves[0][0], raw.moves[0][3]
        if leader not in leaders:
            _fail(where, f"after the tribute seat {leaders[0]} leads (RULES 7), not seat {leader}")


def _check_against_previous(rec: Record, raw: _Raw) -> Optional[list]:
    """The exchange against the tribute module's plan for the previous
    finishing order (RULES 7 lives there only); returns the seats that may
    lead, or None when the record gives no previous order."""
    prev = rec.previous
    if not prev:
        return None
    where = raw.previous_where
    try:
        plan = tribute_plan(prev, rec.hands, rec.rules)
    except GuandanError as e:
        _fail(where, str(e))
    payers = " and ".join(map(str, plan.payers))
    if plan.anti_tribute and not rec.anti_tribute:
        _fail(where, f"seat{'s' if len(plan.payers) > 1 else ''} {payers} hold both big "
                     "jokers: anti-tribute ('tribute: anti'), no tribute")
    if rec.anti_tribute and not plan.anti_tribute:
        _fail(where, "anti-tribute needs both big jokers on the paying side"
              + (f" (seats {payers})" if plan.payers else " (this deal has no tribute)"))
    if plan.kind == "none" and rec.tributes:
        _fail(where, f"with finishing order {' '.join(map(str, prev))} the last finisher "
                     "is the first's partner: no tribute (no_tribute_when_partner_last)")
    if not plan.anti_tribute and plan.kind != "none":
        if sorted(t.giver for t in rec.tributes) != sorted(plan.payers):
            _fail(where, f"with finishing order {' '.join(map(str, prev))} the tribute is "
                         f"paid by seat{'s' if len(plan.payers) > 1 else ''} {payers}")
        got = sorted((t.giver, t.receiver) for t in rec.tributes)
        if got != sorted(plan.payments):
            want = ", ".join(f"seat {p} pays seat {q}" for p, q in plan.payments)
            _fail(where, f"with finishing order {' '.join(map(str, prev))}: {want} (RULES 7)")
    return [plan.leader]


def _one_card(text, where) -> Card:
    cards = text if isinstance(text, list) else _cards(text, where)
    if len(cards) != 1:
        _fail(where, f"one card is given, not {len(cards)}")
    return cards[0]


# -- public API -----------------------------------------------------------------

def _error(where, message: str, seat: Optional[int] = None) -> RecordError:
    try:
        _fail(where, message, seat)
    except RecordError as e:
        return e


def _finish(raw: _Raw) -> Record:
    """The record of ``raw``, or one RecordError listing every error found
    (each with its line and the name of the seat's player where known);
    the look-alike warnings go to ``Record.warnings``."""
    rec = None
    try:
        rec = _build(raw)
    except RecordError as e:
        raw.error(e, None, e.seat)
    if raw.errors or rec is None:
        named = sorted((_named(raw, e) for e in raw.errors),
                       key=lambda e: (e.line is None, e.line or 0))
        raise RecordError.of(named, raw.more) from None
    rec.warnings = [_named(raw, RecordError(text, line, seat)).args[0]
                    if isinstance(line, int) else f"{line}: {text}"
                    for line, seat, text in sorted(
                        raw.warnings, key=lambda w: (not isinstance(w[0], int), str(w[0]).zfill(9)))]
    return rec


def _named(raw: _Raw, e: RecordError) -> RecordError:
    """The error with the player's name of its seat, when the record names
    the players and the error has a line."""
    players = raw.players
    seat = e.seat if e.seat is not None else raw.line_seat.get(e.line)
    if e.line is None or seat is None or not players or not all(players) or e.name is not None:
        return e
    return RecordError(e.reason, e.line, seat, players[seat])


def loads(text: str) -> Record:
    """A record from its text. RecordError names the line of each problem
    (every one found, up to MAX_RECORD_ERRORS: its ``errors``)."""
    return _finish(_parse_text(text))


def load(source: Union[str, Path, TextIO]) -> Record:
    """A record from a path or an open text file; a ``.json`` file, or text
    that starts with ``{``, is read as the JSON form (``formats.record_json``)."""
    text = read_text(source)
    name = getattr(source, "name", "") if hasattr(source, "read") else str(source)
    if str(name).endswith(".json") or text.lstrip().startswith("{"):
        from .record_json import loads as loads_json
        return loads_json(text)
    return loads(text)


def _needed_reading(state: GameState, play) -> str:
    """The shortest reading that makes ``play`` the one legal reading now."""
    legal = [p for p in classify(play.cards, state.rules) if state.why_illegal(p) is None]
    if len(legal) <= 1:
        return ""
    if sum(p.type == play.type for p in legal) == 1:
        return play.type
    return f"{play.type} {play.rank}"


def check_writable(record) -> None:
    """A writer's check (text and JSON forms): a Record that replays (cards
    within two decks, every move legal), so that a writer never writes what
    its loader would refuse; else the replay's DealError, or a RecordError."""
    if not isinstance(record, Record):
        raise RecordError(f"a Record, not {type(record).__name__}")
    record.result()                    # replays it


def dumps(record: Record) -> str:
    """The canonical text of a record (``check_writable`` first)."""
    check_writable(record)
    out = []
    tags = dict(record.tags)
    for key in _KNOWN_TAG_ORDER:
        if key in tags:
            out.append(f"{key}: {tags.pop(key)}")
    out.extend(f"{k}: {v}" for k, v in tags.items())
    out.extend(rules_header_lines(record.rules))
    if record.players:
        _check_players(record.players, "players")
        out.append("players: " + ", ".join(record.players))
    if record.previous:
        out.append("previous: " + " ".join(map(str, record.previous)))
    if record.moves and record.result() is None:
        out.append("partial: yes")
    out.append("")
    out.append("hands:")
    out.extend(f"{s}: {format_cards(h)}" for s, h in enumerate(record.hands))
    if record.anti_tribute:
        out += ["", "tribute: anti"]
    elif record.tributes:
        out += ["", "tribute:"] + [str(t) for t in record.tributes]
        out += ["return:"] + [str(t) for t in record.returns]
    if record.moves:
        out += ["", "play:"]
        for step in replay(record):
            m = step.move
            if m.play is None:
                out.append(f"{m.seat}: pass")
            else:
                reading = _needed_reading(step.state, m.play)
                out.append(f"{m.seat}: {m.play}" + (f" {reading}" if reading else ""))
    return "\n".join(out) + "\n"


def dump(record: Record, fp: Union[str, Path, TextIO]) -> None:
    if hasattr(fp, "write"):
        fp.write(dumps(record))
    else:
        Path(fp).write_text(dumps(record), encoding="utf-8")
