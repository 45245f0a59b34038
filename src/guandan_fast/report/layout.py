"""Plain text laid out in terminal columns: how many columns a text takes
(a wide East Asian character takes two), padding to a column, and wrapping
a line to a width.

A line is wrapped at its spaces, with the continuation lines indented four
columns deeper than the line. A bracketed group (an interval ``[−0.4, +3]``,
a play's name ``(full house 7)``) is kept on one line when it takes at most
half the width, and an estimate stays with its interval (``≈+0.4 [−0.2,
+1]``) wherever they fit on a continuation line. Chinese, written without
spaces, is also wrapped after its punctuation (``，``), never before a
closing mark (``，``, ``）``) nor after an opening one (``（``); a run of it
wider than a continuation line and than a word (eight characters) is cut
between two of its characters, so a name (大王, 三带二, a player's) is cut
only when it could not fit on a line of its own. A piece that would not fit
after the continuation's indent is indented less; a piece wider than the
width (a long name in Latin letters) is left whole, on a line of its own:
the only lines wider than the width.

>>> wrap("  Boris: judged 13; DD: 1 mistake, lost 1; SD: 2 mistakes", 30)
['  Boris: judged 13; DD: 1', '      mistake, lost 1; SD: 2', '      mistakes']
>>> wrap("the value ≈+0.9 [+0.2, +1.7] after the move", 24)
['the value', '    ≈+0.9 [+0.2, +1.7]', '    after the move']
>>> wrap("估值：从此处起 大王 预期的升级数", 16)
['估值：从此处起', '    大王', '    预期的升级数']
>>> wrap("估值：从此处起预期的升级数", 12)
['估值：从此处', '    起预期的', '    升级数']
>>> wrap("short", 0)
['short']
"""

from __future__ import annotations

import re
import unicodedata
from typing import Optional

from ..errors import LayoutError

__all__ = ["TEXT_WIDTH", "MIN_WIDTH", "columns", "ljust", "rjust", "wrap", "fit", "check_width"]

TEXT_WIDTH = 80          # the text reports' default: a terminal's width
MIN_WIDTH = 20           # the narrowest width laid out (0: not wrapped)
_HANG = 4                # continuation lines' extra indent
_WORD = 16               # a Chinese run this wide is a word: cut only if wider than a line
_NO_START = set("，。；：、！？）」』》〉】,.;:!?)]")   # never begins a line
_NO_END = set("（「『《〈【([")                        # never ends a line
_AFTER = set("，。；：、！？）」』》〉】")                  # a line may end here, whatever follows
_JOINERS = {"·", "|"}                                 # end a line, never begin one
_ESTIMATE = re.compile(r"[≈=][+−-]?\d[\d.,]*$")         # a piece ending in a value


def columns(text: str) -> int:
    """The columns a text takes on a terminal (a wide East Asian character
    takes two)."""
    if text.isascii():
        return len(text)
    return sum(map(_COLUMNS.__getitem__, text))


def ljust(text: str, width: int) -> str:
    """``text`` padded on the right to ``width`` columns."""
    return text + " " * max(0, width - columns(text))


def rjust(text: str, width: int) -> str:
    """``text`` padded on the left to ``width`` columns."""
    return " " * max(0, width - columns(text)) + text


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


class _Columns(dict):
    """Each character's columns (2 for a wide one), looked up once; the
    first 4,096 characters seen are kept, the others looked up each time."""

    def __missing__(self, c: str) -> int:
        n = 2 if _wide(c) else 1
        if len(self) < 4096:
            self[c] = n
        return n


_COLUMNS = _Columns()


def _pieces(text: str) -> list:
    """``text`` cut where a line may break: a list of (separator, piece),
    the separator being the spaces before the piece as written (``""``
    after Chinese punctuation, where no space is written)."""
    out: list = []
    for sep, word in zip([""] + re.findall(" +", text), re.split(" +", text)):
        if word:
            out += _cut(sep, word, lambda a, b: a in _AFTER)
    return out


def _cut(sep: str, word: str, allowed) -> list:
    """``word`` (written after ``sep``) cut between each two characters
    ``a``, ``b`` where ``allowed(a, b)`` and neither mark forbids it: a
    list of (separator, piece), ``""`` before every piece but the first."""
    out, start = [], 0
    for i in range(1, len(word)):
        a, b = word[i - 1], word[i]
        if allowed(a, b) and b not in _NO_START and a not in _NO_END:
            out.append((sep, word[start:i]))
            sep, start = "", i
    out.append((sep, word[start:]))
    return out


def _cut_wide(piece: tuple, room: int) -> list:
    """A run of Chinese wider than ``room`` columns and than a word
    (``_WORD``) cut between two of its wide characters, as marks allow; a
    word (大王, 三带二, a name), a group or a narrower run whole."""
    sep, text = piece
    if columns(text) <= max(room, _WORD) or " " in text:
        return [piece]
    return _cut(sep, text, lambda a, b: _wide(a) and _wide(b))


def _groups(pieces: list, most: int, late: int) -> list:
    """Pieces joined where a bracket opened in one closes in a later one,
    when the group takes at most ``most`` columns: an interval or a play's
    name is not cut; and an estimate with its interval (``≈+0.4 [−0.2,
    +1]``) when they take at most ``late`` columns."""
    out: list = []
    k = 0
    while k < len(pieces):
        sep, text = pieces[k]
        depth = _depth(text)
        j = k
        joined = text
        while depth > 0 and j + 1 < len(pieces):
            j += 1
            joined += pieces[j][0] + pieces[j][1]
            depth += _depth(pieces[j][1])
        if j > k and depth <= 0 and columns(_through_close(joined)) <= most:
            text, k = joined, j + 1
        else:
            k += 1
        if out and _ESTIMATE.search(out[-1][1]) and text[:1] == "[" \
                and columns(out[-1][1] + sep + text) <= late:
            out[-1] = (out[-1][0], out[-1][1] + sep + text)   # an estimate with its interval
        else:
            out.append((sep, text))
    return out


def _through_close(text: str) -> str:
    """``text`` up to its last closing bracket: what a group's size counts
    (not a word written after it, as ``级）`` after an interval)."""
    end = max(text.rfind(c) for c in ")]）")
    return text if end < 0 else text[:end + 1]


def _joined(pieces: list) -> list:
    """A joiner (``·``, ``|``) kept with the piece before it, so that no
    line begins with one."""
    out: list = []
    for sep, text in pieces:
        if text in _JOINERS and out:
            out[-1] = (out[-1][0], out[-1][1] + sep + text)
        else:
            out.append((sep, text))
    return out


def _fit_item(item: tuple, room: int) -> list:
    """An item of a list cut at ``at``, whole, or in its own pieces where it
    is wider than a continuation line's room."""
    sep, text = item
    if columns(text) <= room:
        return [item]
    inner = _pieces(text)
    return [(sep, inner[0][1])] + inner[1:]


def _depth(text: str) -> int:
    return sum(text.count(c) for c in "([（") - sum(text.count(c) for c in ")]）")


def wrap(line: str, width: int, hang: Optional[int] = None, at: Optional[str] = None) -> list:
    """``line`` cut into lines of at most ``width`` columns (0: not cut), the
    continuation lines indented ``hang`` columns (by default, four more than
    the line); with ``at`` (a list's separator, ``", "`` or ``"，"``), cut
    only after a separator, each item kept whole where it fits.

    >>> wrap("Bombs: bomb 9 (6), straight flush D10–DA, bomb K (4)", 34, at=", ")
    ['Bombs: bomb 9 (6),', '    straight flush D10–DA,', '    bomb K (4)']
    """
    if width <= 0 or columns(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = " " * (len(line) - len(body))
    hang_text = " " * (len(indent) + _HANG if hang is None else hang)
    if at:
        items, mark = body.split(at), at.rstrip()
        gap = at[len(mark):]              # what follows the mark as written: " ", or none
        pieces = [("" if k == 0 else gap, item + (mark if k + 1 < len(items) else ""))
                  for k, item in enumerate(items)]
        pieces = [p for item in pieces for p in _fit_item(item, width - len(hang_text))]
    else:
        room = width - len(hang_text)
        pieces = _groups(_pieces(body), max(1, width // 2), room)
        pieces = _joined([p for piece in pieces for p in _cut_wide(piece, room)])
    out: list = []
    cur = ""
    for sep, text in pieces:
        if not cur:                   # a wide piece is indented less
            cur = indent[:max(0, width - columns(text))] + text
        elif columns(cur) + columns(sep) + columns(text) > width:
            out.append(cur)
            cur = hang_text[:max(0, width - columns(text))] + text
        else:
            cur += sep + text
    out.append(cur)
    return out


def fit(lines: list, width: int) -> list:
    """Every line of ``lines`` wrapped to ``width`` columns (0: as they are)."""
    return [part for line in lines for part in wrap(line, width)]


def check_width(width) -> int:
    """``width`` checked: a whole number of columns, 0 (not wrapped) or at
    least ``MIN_WIDTH``.

    >>> check_width(40)
    40
    >>> check_width(5)
    Traceback (most recent call last):
    ...
    guandan_fast.errors.LayoutError: width 5: not 0 (no wrapping) or at least 20 columns
    """
    if isinstance(width, bool) or not isinstance(width, int):
        raise LayoutError(f"width {width!r}: not a whole number of columns")
    if width != 0 and not MIN_WIDTH <= width <= 10 ** 6:
        raise LayoutError(f"width {width}: more than 1000000 columns" if width > 10 ** 6 else
                          f"width {width}: not 0 (no wrapping) or at least {MIN_WIDTH} columns")
    return width
