"""What every file format shares: decoding, ``key: value`` lines, numbers,
JSON objects and the rules header (the one reader and the one writer).

- :func:`decode` turns the bytes of a file into text: UTF-8, with or without
  a byte-order mark (what Windows Notepad writes); UTF-32, UTF-16 and cp1251
  files are refused with an error saying which encoding was found, other
  bytes with the offset of the first byte that is not UTF-8.
- :func:`read_text` reads a path or an open file through :func:`decode`.
- :class:`KeyLines` collects ``key: value`` lines and refuses a key given
  twice (aliases count as one key), naming both lines.
- :func:`parse_int` reads a number in ASCII digits within a range.
- :func:`loads_json` parses JSON refusing duplicate keys, deep nesting and
  huge numbers, with errors that name the line.
- :func:`rules_from_headers` / :func:`rules_header_lines`: the rules of a
  file header (``level:`` and the flags), read and written.

>>> decode(b"\\xef\\xbb\\xbflevel: 7")
'level: 7'
>>> rules_header_lines(Rules(level=7, flush_is_always_bomb=True))
['level: 7', 'flush_is_always_bomb: yes']
"""

from __future__ import annotations

import json
import math
import re
from os import PathLike
from pathlib import Path
from typing import BinaryIO, Callable, Optional, TextIO, Type, Union

from ..errors import EncodingError, GuandanError, InputSizeError, RulesError, shown
from ..model.rules import FLAG_KEYS, Rules

__all__ = ["decode", "read_text", "strip_bom", "parse_header_line", "parse_bool",
           "parse_int", "KeyLines", "loads_json", "rules_from_headers",
           "rules_header_lines", "LEVEL_KEYS", "FLAG_KEYS", "MAX_JSON_DEPTH"]

LEVEL_KEYS = {"level", "уровень", "级牌", "级", "打"}
MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 18      # fits in 64 bits (a millisecond timestamp has 13 digits)
# a key is one word, or a word and a digit ("seat 0" in a record)
_HEADER = re.compile(r"^\s*([^\s:：]+(?:\s+\d)?)\s*[:：]\s*(.*?)\s*$")
_TRUE = {"1", "yes", "true", "on", "да", "是"}
_FALSE = {"0", "no", "false", "off", "нет", "否"}
_CYRILLIC_WORD = re.compile("[а-яА-ЯёЁ]+")


# -- decoding -------------------------------------------------------------------

def strip_bom(text: str) -> str:
    """The text without a leading byte-order mark."""
    return text[1:] if text.startswith("\ufeff") else text


def decode(data: Union[bytes, bytearray, str]) -> str:
    """The text of a file's bytes: UTF-8 (a byte-order mark is dropped).

    Other encodings are refused with an EncodingError saying what was found:
    UTF-32 or UTF-16 (by their byte-order marks, the UTF-32 ones first, or
    by their zero bytes), cp1251 when the bytes read as Cyrillic words in it
    (:func:`_looks_cp1251`), else the first byte that is not UTF-8, with its
    offset (from 0) and line.

    >>> decode("ур".encode("cp1251"))
    Traceback (most recent call last):
    ...
    guandan_fast.errors.EncodingError: found cp1251 (Windows Cyrillic) text, UTF-8 expected: save the file as UTF-8
    >>> decode(b"S3\\n# caf\\xe9\\n")
    Traceback (most recent call last):
    ...
    guandan_fast.errors.EncodingError: the input is not UTF-8 text (line 2, byte 8: 0xE9, invalid continuation byte), UTF-8 expected: save the file as UTF-8
    """
    if isinstance(data, str):
        return strip_bom(data)
    if not isinstance(data, (bytes, bytearray)):
        raise GuandanError(f"expected text or bytes, not {type(data).__name__}")
    data = bytes(data)
    wide = _wide_encoding(data)
    if wide:
        raise EncodingError(f"found {wide} text, UTF-8 expected: save the file as UTF-8")
    try:
        return strip_bom(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        start, reason = e.start, e.reason
    if _looks_cp1251(data):
        raise EncodingError("found cp1251 (Windows Cyrillic) text, UTF-8 expected: "
                            "save the file as UTF-8")
    line = data.count(b"\n", 0, start) + 1
    raise EncodingError(f"the input is not UTF-8 text (line {line}, byte {start}: "
                        f"0x{data[start]:02X}, {reason}), UTF-8 expected: save the file as UTF-8")


def _wide_encoding(data: bytes) -> Optional[str]:
    """The name, UTF-32 or UTF-16, of the encoding of bytes in one: a byte-order mark
    (UTF-32's first: its little-endian mark starts with UTF-16's), or zero
    bytes, which UTF-8 text does not hold: three in four bytes of ASCII text
    in UTF-32, one in two in UTF-16 (a third or more: UTF-16, seven in ten:
    UTF-32)."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    zeros = data.count(b"\x00")
    if len(data) >= 4 and zeros * 3 >= len(data):
        return "UTF-32" if zeros * 10 >= len(data) * 7 else "UTF-16"
    return None


_LETTERS = re.compile(r"[^\W\d_]+")


def _looks_cp1251(data: bytes) -> bool:
    """Whether bytes that are not UTF-8 read as Cyrillic text in cp1251: they
    decode in cp1251, at least 80 % of their non-ASCII characters are letters
    of words written in Cyrillic letters only (а-я, А-Я, ё, Ё; no Latin
    letter in the same word), and one such word has two letters or more.
    ``caf\\xe9`` (Latin-1 "café", "cafй" in cp1251) and a UTF-8 sequence cut
    short are not; a cp1251 file in Russian is.

    >>> _looks_cp1251("уровень: 7 # рука".encode("cp1251")), _looks_cp1251(b"# caf\\xe9")
    (True, False)
    """
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:          # 0x98 is not a cp1251 character
        return False
    high = sum(ord(c) > 127 for c in text)
    if not high:
        return False
    words = [w for w in _LETTERS.findall(text) if _CYRILLIC_WORD.fullmatch(w)]
    in_words = sum(len(w) for w in words)
    return in_words * 10 >= high * 8 and any(len(w) >= 2 for w in words)


# The most a loader reads of one input: a deal record is a few KB, a
# platform server's log about 1 MB a deal; more is not an input (reading
# /dev/zero would take the machine's memory).
MAX_INPUT_BYTES = 512 * 2 ** 20


def read_text(source: Union[str, Path, TextIO, BinaryIO]) -> str:
    """The text of a path or of an open file (text or binary), decoded by
    :func:`decode`; at most MAX_INPUT_BYTES, else InputSizeError."""
    if hasattr(source, "read"):
        return decode(_read_at_most(source, getattr(source, "name", "the input")))
    if not isinstance(source, (str, PathLike)):
        raise GuandanError(f"expected a path or an open file, not {type(source).__name__}")
    with open(source, "rb") as fp:
        return decode(_read_at_most(fp, str(source)))


def _read_at_most(fp, name) -> Union[bytes, str]:
    data = fp.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputSizeError(f"{str(name)[-200:]}: more than {MAX_INPUT_BYTES / 2 ** 20:g} MiB, "
                             "which no input of gd-analyze needs")
    return data


# -- key: value lines -------------------------------------------------------------

def parse_header_line(line: str) -> Optional[tuple[str, str]]:
    """(key in lower case, value) of a ``key: value`` line, else None. Card
    lines never contain a colon."""
    m = _HEADER.match(line.split("#", 1)[0])
    if not m:
        return None
    return m.group(1).lower(), m.group(2)


def parse_bool(value: str, key: str, lineno) -> bool:
    v = str(value).strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise RulesError(f"{_where(lineno)}: {key} must be yes or no, not {value!r}")


def _where(where) -> str:
    return f"line {where}" if isinstance(where, int) else str(where)


def parse_int(value, key: str, where, lo: Optional[int] = None, hi: Optional[int] = None,
              error: Type[GuandanError] = GuandanError) -> int:
    """An integer written in ASCII digits (``-`` allowed when lo < 0), within
    lo..hi; anything else is ``error`` naming ``key`` and where it is
    (``where``: a line number or a JSON path)."""
    text = str(value).strip()
    if not re.fullmatch(r"-?[0-9]{1,%d}" % MAX_INT_DIGITS, text):
        raise error(f"{_where(where)}: {key} must be a number, not {shown(text, 20)!r}")
    n = int(text)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        span = f"{lo}..{hi}" if lo is not None and hi is not None else (
            f"at least {lo}" if lo is not None else f"at most {hi}")
        raise error(f"{_where(where)}: {key} must be {span}, not {n}")
    return n


class KeyLines:
    """The ``key: value`` settings of a file, each given once.

    ``canonical`` maps an alias to its key (``уровень`` -> ``level``), so
    that two spellings of one setting are a duplicate too.

    >>> k = KeyLines()
    >>> k.add("level", "7", 1); k.add("уровень", "8", 3)
    Traceback (most recent call last):
    ...
    guandan_fast.errors.GuandanError: line 3: 'level' given twice (first on line 1)
    """

    def __init__(self, error: Type[GuandanError] = GuandanError,
                 canonical: Optional[Callable[[str], str]] = None):
        self.values: dict = {}
        self.where: dict = {}
        self.error = error
        self.canonical = canonical or canonical_key

    def add(self, key: str, value, where) -> str:
        key = self.canonical(key)
        if key in self.values:
            err = self.error(f"{_where(where)}: {key!r} given twice "
                             f"(first on {_where(self.where[key])})")
            if isinstance(where, int):    # a loader listing several errors sorts them by line
                setattr(err, "line", where)
            raise err
        self.values[key] = value
        self.where[key] = where
        return key

    def __contains__(self, key):
        return key in self.values

    def get(self, key, default=None):
        return self.values.get(key, default)


def canonical_key(key: str) -> str:
    return "level" if key in LEVEL_KEYS else key


# -- JSON -------------------------------------------------------------------------

def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings."""
    depth = deepest = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads_json(text: str, error: Type[GuandanError] = GuandanError, line: Optional[int] = None,
               allow_nan: bool = False):
    """Parse JSON text: a duplicate key in an object, nesting deeper than
    MAX_JSON_DEPTH, a number of more than MAX_INT_DIGITS digits, a number
    out of a float's range (``1e999``), NaN or Infinity (unless
    ``allow_nan``: then the fields that hold them must be checked by the
    caller; a number out of range is refused all the same) are errors
    (``error``, naming the line: the line of the text, or ``line`` for
    one-line texts such as a message of a log).

    >>> loads_json('[1e999]')
    Traceback (most recent call last):
    ...
    guandan_fast.errors.GuandanError: the JSON number 1e999 is out of range
    """
    text = strip_bom(text)

    def at(lineno):
        return line if line is not None else lineno

    def fail(message, lineno=None):
        where = at(lineno)
        err = error(f"line {where}: {message}" if where is not None else message)
        err.line = where
        return err

    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(text) > MAX_JSON_DEPTH:
        raise fail(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")

    def pairs(items):
        out = {}
        for k, v in items:
            if k in out:
                raise fail(f"JSON key {k!r} given twice in one object")
            out[k] = v
        return out

    def big_int(s):
        if len(s.lstrip("-")) > MAX_INT_DIGITS:
            raise fail(f"a JSON number of {len(s)} digits")
        return int(s)

    def bad_constant(s):
        if allow_nan:
            return float(s)
        raise fail(f"{s} is not a JSON number")

    def bad_float(s):
        if len(s) > 40:
            raise fail(f"a JSON number of {len(s)} characters")
        value = float(s)
        if not math.isfinite(value):      # 1e999: Infinity written as a number
            raise fail(f"the JSON number {s} is out of range")
        return value

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_int=big_int,
                          parse_constant=bad_constant, parse_float=bad_float)
    except json.JSONDecodeError as e:
        raise fail(f"not valid JSON: {e.msg}", e.lineno) from None
    except RecursionError:     # pragma: no cover - the depth check comes first
        raise fail("JSON nested too deeply") from None


# -- the rules header ----------------------------------------------------------

def rules_from_headers(headers: dict, where: dict) -> Rules:
    """Rules from the level and flag settings among ``headers`` (key to
    value text; ``where``: key to line number or JSON path). Other keys are
    ignored; an invalid value is a RulesError naming where it is."""
    kwargs = {}
    for key, value in headers.items():
        if key in LEVEL_KEYS:
            kwargs["level"] = value
        elif key in FLAG_KEYS:
            kwargs[key] = value if isinstance(value, bool) else parse_bool(value, key, where[key])
    try:
        return Rules(**kwargs)
    except RulesError as e:
        at = next((where[k] for k in headers if k in LEVEL_KEYS), None)
        raise RulesError(f"{_where(at)}: {e}" if at is not None else str(e)) from None


def rules_header_lines(rules: Rules) -> list[str]:
    """The header lines of a file at these rules: ``level:``, then each flag
    that differs from its default (the one writer every format uses)."""
    lines = [f"level: {rules.level}"]
    for key, value in rules_flags(rules).items():
        lines.append(f"{key}: {'yes' if value else 'no'}")
    return lines


def rules_flags(rules: Rules) -> dict[str, bool]:
    """The flags of ``rules`` that differ from their defaults, by name."""
    out = {}
    for key in FLAG_KEYS:
        default = Rules.__dataclass_fields__[key].default
        if getattr(rules, key) != default:
            out[key] = getattr(rules, key)
    return out
