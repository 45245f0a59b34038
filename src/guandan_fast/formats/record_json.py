"""Deal records, the JSON form: the content of the text form
(``formats.record``), every play with its reading.

::

    {"format": "guandan-deal-record", "version": 1,
     "tags": {"event": "Autumn league", ...}, "level": "7", "rules": {},
     "players": ["Anna", "Boris", "Chen", "Dmitri"], "previous": [0, 2, 1, 3],
     "hands": ["S3 S3 H4 ...", "...", "...", "..."],
     "tribute": [{"from": 3, "to": 1, "card": "HR"}, ...],   (or "anti")
     "return": [{"from": 1, "to": 3, "card": "S4"}, ...],
     "plays": [{"seat": 3, "cards": "S5 S5", "type": "pair", "rank": "5"},
               {"seat": 0, "pass": true}, ...]}

The loader knows every key: an unknown one (``"play"`` for ``"plays"``) is an
error naming it, as is an unsupported ``version``, a ``pass`` that is not
``true`` or that comes with cards, a ``type``/``rank`` that is not a reading
of the play's cards. A record read here is checked as the text form's is
(the same builder): ``RecordError`` names the key.

>>> from guandan_fast.formats import record
>>> rec = record.loads("level: 2\\nhands:\\n0: S3\\n1: S9 S4\\n2: SA\\n3: S5\\nplay:\\n0: S3 | 1: S9 | 2: SA")
>>> loads(dumps(rec)) == rec
True
>>> loads('{"hands": ["S3", "S4", "S5", "S6"], "play": []}')
Traceback (most recent call last):
...
guandan_fast.errors.RecordError: play: unknown key: a record has the keys format, version, tags, level, rules, players, previous, hands, tribute, return, plays, partial
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, TextIO, Union

from ..errors import RecordError, shown
from ..game.record import Record
from ..model.cards import format_cards
from .record import (_SECTIONS, FORMAT_NAME, FORMAT_VERSION, _cards, _fail, _finish,
                     _is_setting, _Raw, _reading, _seat, check_name, check_writable)
from .text import FLAG_KEYS, decode, loads_json as _loads_json, parse_header_line, read_text, \
    rules_flags

__all__ = ["loads", "load", "dumps", "dump", "to_json", "from_json"]


def to_json(record: Record) -> dict:
    """The JSON form of a record as a dict; a record that does not replay
    (cards beyond two decks, an illegal move) is refused, as ``record.dumps``
    refuses it: the writer never writes what its loader would refuse."""
    check_writable(record)
    flags = rules_flags(record.rules)
    plays = []
    for m in record.moves:
        if m.play is None:
            plays.append({"seat": m.seat, "pass": True})
        else:
            plays.append({"seat": m.seat, "cards": str(m.play),
                          "type": m.play.type, "rank": m.play.rank})
    return {
        "format": FORMAT_NAME, "version": FORMAT_VERSION,
        "tags": dict(record.tags), "level": record.rules.level, "rules": flags,
        "players": record.players, "previous": record.previous,
        "hands": [format_cards(h) for h in record.hands],
        "tribute": "anti" if record.anti_tribute else [
            {"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in record.tributes],
        "return": [{"from": t.giver, "to": t.receiver, "card": str(t.card)} for t in record.returns],
        "plays": plays,
        **({"partial": True} if record.moves and record.result() is None else {}),
    }


def dumps(record: Record, indent: Optional[int] = 1) -> str:
    """The canonical JSON text of a record: one line per key, hand and
    action (``indent=None``: all on one line)."""
    data = to_json(record)
    if indent is None:
        return json.dumps(data, ensure_ascii=False) + "\n"
    pad = " " * indent
    out = []
    for key, value in data.items():
        if isinstance(value, list) and value and key in ("hands", "plays", "tribute", "return"):
            items = (",\n" + pad * 2).join(json.dumps(v, ensure_ascii=False) for v in value)
            text = f"[\n{pad * 2}{items}\n{pad}]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        out.append(f"{pad}{json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(out) + "\n}\n"


def dump(record: Record, fp: Union[str, Path, TextIO]) -> None:
    """Write the JSON text of a record to a path or an open text file."""
    if hasattr(fp, "write"):
        fp.write(dumps(record))
    else:
        Path(fp).write_text(dumps(record), encoding="utf-8")


def _card_list(value, where) -> list:
    if isinstance(value, str):
        return _cards(value, where)
    if not isinstance(value, list):
        _fail(where, f"cards are a list or a string, not {type(value).__name__}")
    return _cards(" ".join(map(str, value)), where)


# the keys of the JSON form: any other key is an error (a misspelling, a key
# of another format), never skipped
_JSON_KEYS = ("format", "version", "tags", "level", "rules", "players", "previous",
              "hands", "tribute", "return", "plays", "partial")
_PLAY_KEYS = ("seat", "cards", "pass", "type", "rank")
_TRANSFER_KEYS = ("from", "to", "card")


def _check_keys(obj: dict, known, where: str, what: str) -> None:
    """RecordError naming the first key of ``obj`` (``what``, at ``where``)
    not among ``known``."""
    for key in obj:
        if key not in known:
            name = shown(key)
            _fail(f"{where}.{name}" if where else name,
                  f"unknown key: {what} has the keys {', '.join(known)}")


def _json_text(value, where, what: str) -> str:
    """A JSON string (or, for a tag or a rank, an integer) as text; RecordError otherwise."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    _fail(where, f"{what} is text, not {shown(json.dumps(value))}")


def _json_list(data: dict, key: str, what: str) -> list:
    """The list under ``key`` (missing or null: empty)."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        _fail(key, f"a list of {what}, not {type(value).__name__}")
    return value


def _json_tag(key: str, value, where: str) -> tuple:
    """(key, value) of a JSON tag, which the text form must hold as the same
    tag: a key the header reader reads as a tag (one word, not a setting
    such as ``level`` or ``players``), a value on one line without ``#``."""
    text = _json_text(value, where, "a tag's value")
    low = key.lower()
    if parse_header_line(f"{key}: {text}") != (low, text) or "#" in text:
        _fail(where, f"a tag is one word, its value one line without '#' or spaces around "
                     f"it, not {shown(key)!r}: {shown(text)!r}")
    if _is_setting(low) or low in _SECTIONS:
        _fail(where, f"{shown(key)!r} is not a tag: it names a setting or a section")
    return low, text


def from_json(data: dict) -> Record:
    """A record from its JSON form (a dict). Every key is known (an unknown
    one, a misspelling say, is an error naming it), every value checked:
    ``version`` is 1, ``pass`` is ``true`` and comes without cards, a play's
    ``type`` and ``rank`` are a reading of its cards."""
    if not isinstance(data, dict):
        _fail("record", "a JSON record is an object")
    _check_keys(data, _JSON_KEYS, "", "a record")
    if data.get("format", FORMAT_NAME) != FORMAT_NAME:
        _fail("format", f"not a deal record: {shown(json.dumps(data.get('format')))}")
    version = data.get("version", FORMAT_VERSION)
    if type(version) is not int or version != FORMAT_VERSION:
        _fail("version", f"version {shown(json.dumps(version))} is not supported "
                         f"(this reader reads version {FORMAT_VERSION})")
    raw = _Raw()
    tags = data.get("tags")
    if tags is None:
        tags = {}
    if not isinstance(tags, dict):
        _fail("tags", "an object of tag: value")
    for k, v in tags.items():
        key, text = _json_tag(k, v, f"tags.{shown(k)}")
        if key in raw.tags:
            _fail(f"tags.{shown(k)}", f"the tag {key!r} given twice")
        raw.tags[key] = text
    if "level" in data:
        raw.rules_kw["level"] = _json_text(data["level"], "level", "the level")
        raw.rules_line = "level"
    flags = data.get("rules")
    if flags is None:
        flags = {}
    if not isinstance(flags, dict):
        _fail("rules", "an object of flag: true/false")
    for k, v in flags.items():
        if k not in FLAG_KEYS or not isinstance(v, bool):
            _fail(f"rules.{shown(k)}", "an unknown flag or a value that is not true/false")
        raw.rules_kw[k] = v
    if data.get("players") is not None:
        players = data["players"]
        if not isinstance(players, list) or len(players) != 4:
            _fail("players", "a list of four names")
        raw.players = [check_name(p, f"players[{i}]") for i, p in enumerate(players)]
        raw.players_where = "players"
    if data.get("previous") is not None:
        prev = data["previous"]
        if not isinstance(prev, list) or sorted(map(str, prev)) != ["0", "1", "2", "3"]:
            _fail("previous", "the four seats 0..3 in finishing order")
        raw.previous = [int(s) for s in prev]
        raw.previous_where = "previous"
    if "partial" in data:
        if not isinstance(data["partial"], bool):
            _fail("partial", f"true or false, not {shown(json.dumps(data['partial']))}")
        raw.partial = data["partial"]
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        _fail("hands", "a list of four hands")
    for s, h in enumerate(hands):
        raw.hands[s] = [_card_list(h, f"hands[{s}]"), f"hands[{s}]"]
        raw.hands[s][0] = format_cards(raw.hands[s][0])
    if data.get("tribute") == "anti":
        raw.anti = True
        tributes = []
    else:
        tributes = _json_list(data, "tribute", 'tributes {from, to, card}, or "anti"')
    for key, target, items in (("tribute", raw.tributes, tributes),
                               ("return", raw.returns,
                                _json_list(data, "return", "returns {from, to, card}"))):
        for i, t in enumerate(items):
            where = f"{key}[{i}]"
            if not isinstance(t, dict) or not set(_TRANSFER_KEYS) <= set(t):
                _fail(where, "an object with from, to and card")
            _check_keys(t, _TRANSFER_KEYS, where, f"a {key}")
            # the card as typed, when a string, so that an error repeats it
            card = t["card"] if isinstance(t["card"], str) else _card_list([t["card"]], where)
            target.append((_seat(raw, str(t["from"]), where), _seat(raw, str(t["to"]), where),
                           card, where))
    for i, p in enumerate(_json_list(data, "plays", "actions")):
        where = f"plays[{i}]"
        if not isinstance(p, dict) or "seat" not in p:
            _fail(where, "an object with seat and cards (or pass)")
        _check_keys(p, _PLAY_KEYS, where, "a play")
        seat = _seat(raw, str(p["seat"]), where)
        if "pass" in p:
            if p["pass"] is not True:
                _fail(f"{where}.pass", f"a pass is \"pass\": true, not {shown(json.dumps(p['pass']))}")
            other = [k for k in ("cards", "type", "rank") if k in p]
            if other:
                _fail(where, f"a pass has no {other[0]} (\"pass\": true and \"{other[0]}\" "
                             "both given)")
            raw.moves.append((seat, None, None, where))
            continue
        if "cards" not in p:
            _fail(where, "no cards and no pass")
        reading = None
        if "rank" in p and "type" not in p:
            _fail(f"{where}.rank", "a rank is given with its type (\"type\": \"pair\", ...)")
        if "type" in p:
            typ = _json_text(p["type"], f"{where}.type", "a play type")
            rank = None if "rank" not in p else _json_text(p["rank"], f"{where}.rank", "a rank")
            reading = _reading(typ, rank)
            if reading is None:
                bad = "type" if _reading(typ) is None else "rank"
                _fail(f"{where}.{bad}", f"unknown play {bad} {shown(p[bad])!r}")
        cards = _card_list(p["cards"], where)
        typed = p["cards"] if isinstance(p["cards"], str) else " ".join(map(str, p["cards"]))
        raw.typed[len(raw.moves)] = (" ".join(typed.split()), "")
        raw.moves.append((seat, cards, reading, where))
    return _finish(raw)


def loads(text: str) -> Record:
    """A record from its JSON text."""
    return from_json(_loads_json(decode(text), RecordError))


def load(source: Union[str, Path, TextIO]) -> Record:
    """A record from the JSON text of a path or an open text file."""
    return loads(read_text(source))
