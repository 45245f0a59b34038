"""Text format of endgame positions (``gd-analyze endgame deal.txt``).

One ``key: value`` per line, ``#`` comments, blank lines ignored::

    level: 7              # also уровень: / 级牌:, and the rules flags
    0: S3 S4 HT           # the hand of each seat 0..3 (empty when out)
    1: D9 DJ
    2:
    3: SB
    turn: 1               # the seat to act (required)
    table: S5 D5          # optional: the standing play ...
    owner: 0              # ... the seat that played it ...
    passes: 0             # ... and the passes since (default 0)
    finished: 2           # optional: the seats out, in finishing order

An ambiguous table play takes ``table_type:`` (and ``table_rank:``), e.g.
``table_type: tube``.

>>> pos = loads_position("level: 7\\n0: S3 S4\\n1: D9\\n2:\\n3: SB\\n"
...                      "turn: 1\\ntable: S5\\nowner: 0\\nfinished: 2")
>>> pos.turn, str(pos.table), pos.owner, pos.finished
(1, 'S5', 0, (2,))
>>> print(dumps_position(pos), end="")
level: 7
0: S3 S4
1: D9
2:
3: SB
turn: 1
table: S5
owner: 0
passes: 0
finished: 2
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TextIO, Union

from ..model.cards import format_cards, parse_cards
from ..engine.endgame import Position
from ..errors import GuandanError, PositionError
from ..model.rules import classify, read_play
from .record import reading_words
from .text import (FLAG_KEYS, LEVEL_KEYS, KeyLines, decode, parse_header_line, parse_int,
                   read_text, rules_from_headers, rules_header_lines)

__all__ = ["loads_position", "load_position", "dumps_position", "dump_position"]

_KEYS = {"0", "1", "2", "3", "turn", "table", "table_type", "table_rank", "owner",
         "passes", "finished"}


def _int(value: str, key: str, lineno: int) -> int:
    return parse_int(value, key, lineno, 0, 3 if key != "passes" else 2, error=PositionError)


def loads_position(text: str) -> Position:
    """Parse the text of a position file; errors name the line."""
    keys = KeyLines(PositionError)
    fields, where = keys.values, keys.where
    for lineno, raw in enumerate(decode(text).splitlines(), start=1):
        if not raw.split("#", 1)[0].strip():
            continue
        kv = parse_header_line(raw)
        if kv is None:
            raise PositionError(f"line {lineno}: expected 'key: value' "
                                f"(e.g. '0: S3 S4' or 'turn: 1'), got {raw.strip()!r}")
        key, value = kv
        if key not in LEVEL_KEYS and key not in _KEYS and key not in FLAG_KEYS:
            raise PositionError(f"line {lineno}: unknown key {raw.split(':', 1)[0].strip()!r}")
        keys.add(key, value, lineno)
    try:
        rules = rules_from_headers(fields, where)
    except GuandanError as e:
        raise PositionError(str(e)) from None
    hands = []
    for s in range(4):
        key = str(s)
        if key not in fields:
            raise PositionError(f"no line for seat {s} (write '{s}:' with its cards, "
                                "or nothing after the colon when it is out)")
        try:
            hands.append(parse_cards(fields[key]))
        except GuandanError as e:
            raise PositionError(f"line {where[key]}: seat {s}: {e}") from None
    if "turn" not in fields:
        raise PositionError("no 'turn:' line: say which seat acts (turn: 0..3)")
    turn = _int(fields["turn"], "turn", where["turn"])
    table = None
    if fields.get("table", "").strip():
        try:
            typ, rank = reading_words(fields.get("table_type") or None,
                                      fields.get("table_rank") or None)
            table = read_play(fields["table"], rules, type=typ, rank=rank)
        except GuandanError as e:
            raise PositionError(f"line {where['table']}: table: {e}") from None
    elif "table_type" in fields or "table_rank" in fields:
        raise PositionError("table_type / table_rank given without a table")
    owner = _int(fields["owner"], "owner", where["owner"]) if "owner" in fields else None
    passes = _int(fields["passes"], "passes", where["passes"]) if "passes" in fields else 0
    finished: tuple[int, ...] = ()
    if fields.get("finished", "").strip():
        items = re.split(r"[\s,;]+", fields["finished"].strip())
        finished = tuple(_int(x, "finished", where["finished"]) for x in items if x)
    return Position(hands, rules, turn=turn, table=table, owner=owner, passes=passes,
                    finished=finished)


def load_position(source: Union[str, Path, TextIO]) -> Position:
    """Read a position file from a path or an open text file."""
    return loads_position(read_text(source))


def dumps_position(position: Position) -> str:
    """The canonical text of a position (round trips through loads_position);
    a PositionError for what is no Position (a Position is checked when it
    is made)."""
    if not isinstance(position, Position):
        raise PositionError(f"dumps_position takes a Position, not {type(position).__name__}")
    rules = position.rules
    lines = rules_header_lines(rules)
    for s, hand in enumerate(position.hands):
        lines.append(f"{s}: {format_cards(hand)}".rstrip())
    lines.append(f"turn: {position.turn}")
    if position.table is not None:
        t = position.table
        lines.append(f"table: {t}")
        if len(classify(list(t.cards), rules)) > 1:
            lines.append(f"table_type: {t.type}")
            lines.append(f"table_rank: {t.rank}")
        lines.append(f"owner: {position.owner}")
        lines.append(f"passes: {position.passes}")
    if position.finished:
        lines.append("finished: " + " ".join(map(str, position.finished)))
    return "\n".join(lines) + "\n"


def dump_position(position: Position, fp: TextIO) -> None:
    fp.write(dumps_position(position))
