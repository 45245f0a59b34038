"""Import the message log of the Guandan AI competition platform.

The platform's server and its bots talk JSON over a websocket
(docs/platform.md; ``guandan_fast.platform.messages`` holds the schema). A bot's
log is the messages it received, one JSON object per line (a JSON array is
accepted too). Our server's log (``gd-analyze serve --records``) holds every
message sent to each seat as ``{"seat": s, "msg": {...}}`` lines and the
answers as ``{"seat": s, "answer": {...}}``; both are read here.

What is read:

- ``notify/beginning``: ``myPos`` and ``handCards`` (the hand as dealt, which
  is checked against the hand rebuilt from the deal), ``curRank`` when given;
- ``act`` messages: only ``curRank``, the level;
- ``notify/tribute`` and ``notify/back``: ``result`` ``[[giver, receiver, card]]``;
  ``notify/anti-tribute`` (``antiNums`` or ``antiNum``, ``antiPos``);
- ``notify/play``: ``curPos`` and ``curAction`` (a pass is ``["PASS", "PASS",
  "PASS"]``; an object ``{"type", "rank", "actions"}`` is a play, never a
  pass: ``{}`` is an error); ``greater*`` is not needed and not read (some
  servers swap it);
- ``notify/episodeOver``: ``order`` (the seats the replayed play put out must
  come first, in that order), ``curRank``, ``restCards``;
- ``notify/gameOver`` ends a game: the next deal has no previous order.

Actions are read by ``guandan_fast.platform.from_action``: the platform's
type names (and the manual's typos ``TripsPair``, ``Boom``), a sequence's
rank as its lowest card or its top card (whichever the cards allow), the
joker bomb as ``["Bomb", "JOKER", ...]``, ``["FourKings", "R", ...]`` or
``["Bomb", "R", ...]``, ranks and levels as characters or integers.

A bot sees only its own hand, so the four hands are rebuilt from the deal:
each seat's hand after the exchange is every card it played plus its
``restCards``; undoing the return and the tribute gives the hands as dealt.
Each episode becomes one ``Record``, checked like any other record; the
previous episode's ``order`` becomes its ``previous``. Imported records set
``flush_is_always_bomb`` (RULES §5: the platform's reading) unless the
``beginning`` message carries the rules flags (``"rules": {...}``, which
our server adds).

Strict by default: a log that breaks RULES is a ``RecordError``. With
``lenient=True`` the logs of servers that deviate from RULES are read (an
anti-tribute only when one payer alone holds both big jokers, a tribute
where RULES has none, a level card returned, a straight flush completed by
a wild played as a plain straight): the deal is kept, and each deviation is
listed in the record's ``notes`` tag. A deal whose exchange breaks RULES is
then recorded from the hands after the exchange, the exchange itself in the
notes. Every malformed message is a ``RecordError`` naming its line and field.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any, Union

from ..errors import GuandanError, ProtocolError, RecordError
from ..formats.record import FORMAT_NAME, FORMAT_VERSION
from ..formats.record_json import from_json
from ..formats.text import decode, loads_json, read_text
from ..game.record import Record, final_state
from ..model.rules import Rules
from . import messages as _m
from .actions import PLATFORM_TYPES, from_action, rank_char

__all__ = ["import_platform_log", "load_platform_log", "PLATFORM_TYPES"]


def _messages(text: Union[str, bytes, bytearray]) -> list[tuple[int, object]]:
    """(line, message) pairs of a log: a JSON list, or one JSON object a
    line, read by the shared JSON reader (duplicate keys, deep nesting and
    huge numbers are errors naming the line)."""
    text = decode(text).strip()
    if text.startswith("["):
        data = loads_json(text, RecordError, allow_nan=True)
        if not isinstance(data, list):
            raise RecordError("a JSON log is a list of messages")
        return [(i + 1, m) for i, m in enumerate(data)]
    out = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # NaN is read (a Python server writes it) and refused by the field checks
        out.append((lineno, loads_json(line, RecordError, line=lineno, allow_nan=True)))
    return out


def _check(fn, value, field, lineno):
    try:
        fn(value, field)
    except ProtocolError as e:
        raise RecordError(str(e), lineno) from None


def _need(msg, key, lineno, alt=None):
    if key in msg:
        return msg[key]
    if alt is not None and alt in msg:
        return msg[alt]
    raise RecordError(f"{key}: missing", lineno)


def _level(value, field, lineno) -> str:
    try:
        r = rank_char(value, field)
    except ProtocolError as e:
        raise RecordError(str(e), lineno) from None
    if r in "BR":
        raise RecordError(f"{field}: {value!r} is not a level (2..A)", lineno)
    return r


def _unwrap(items):
    """Our server's log: keep one seat's stream (the first seat seen) and the
    other seats' beginnings; drop the answers."""
    out = []
    stream = None
    for lineno, msg in items:
        if isinstance(msg, dict) and "seat" in msg and ("msg" in msg or "answer" in msg):
            if "answer" in msg:
                continue
            seat, inner = msg["seat"], msg["msg"]
            if stream is None:
                stream = seat
            if seat != stream and not (isinstance(inner, dict)
                                       and inner.get("stage") == "beginning"):
                continue
            out.append((lineno, inner))
        else:
            out.append((lineno, msg))
    return out


def import_platform_log(messages: Union[str, bytes, Iterable[Any]],
                        lenient: bool = False) -> list[Record]:
    """Records (one per finished episode) from a platform message log: the
    text of a JSON-lines log or an iterable of message dicts. ``lenient``:
    read deviations from RULES into the notes instead of refusing."""
    if isinstance(messages, (str, bytes, bytearray)):
        items = _messages(messages)
    elif isinstance(messages, Iterable) and not isinstance(messages, Mapping):
        items = list(enumerate(messages, start=1))
    else:
        raise RecordError("a platform log is its text (str or bytes) or an iterable of "
                          f"messages (dicts), not {type(messages).__name__}")
    items = _unwrap(items)
    records = []
    ep = None
    previous = None
    for lineno, msg in items:
        if not isinstance(msg, dict):
            raise RecordError("a message is a JSON object", lineno)
        stage, kind = msg.get("stage"), msg.get("type")
        if kind not in ("notify", "act"):
            raise RecordError(f"type: 'notify' or 'act', not {kind!r}"[:80], lineno)
        if stage == "beginning":
            seat = _need(msg, "myPos", lineno)
            _check(_m._seat, seat, "myPos", lineno)
            hand = _need(msg, "handCards", lineno, alt="handCard")
            _check(_m._cards, hand, "handCards", lineno)
            if ep is None or ep["plays"] or ep["tribute"] or ep["anti"]:
                ep = {"own": {}, "level": None, "tribute": [], "back": [], "anti": None,
                      "plays": [], "line": lineno, "flags": {"flush_is_always_bomb": True}}
            ep["own"][seat] = (list(hand), lineno)
            if "rules" in msg:
                _check(_m._flags, msg["rules"], "rules", lineno)
                ep["flags"] = dict(msg["rules"])
            if msg.get("curRank") is not None:
                ep["level"] = _level(msg["curRank"], "curRank", lineno)
            continue
        if stage in ("gameOver", "gameResult"):
            if ep is not None and ep["plays"]:
                raise RecordError(f"a {stage!r} message before the episode's 'episodeOver'", lineno)
            previous = None
            ep = None
            continue
        if ep is None:
            raise RecordError(f"a {stage!r} message before the episode's 'beginning'"[:90], lineno)
        if kind == "act":
            if msg.get("curRank") is not None:
                ep["level"] = _level(msg["curRank"], "curRank", lineno)
            continue
        if stage in ("tribute", "back"):
            result = _need(msg, "result", lineno)
            _check(_m._transfers, result, "result", lineno)
            ep[stage] += [(int(g), int(r), str(c), lineno) for g, r, c in result]
        elif stage == "anti-tribute":
            seats = msg.get("antiPos", [])
            _check(_m._seats, seats, "antiPos", lineno)
            n = msg.get("antiNums", msg.get("antiNum", len(seats)))
            _check(_m._count, n, "antiNums", lineno)
            ep["anti"] = (list(seats), lineno)
        elif stage == "play":
            seat = _need(msg, "curPos", lineno)
            _check(_m._seat, seat, "curPos", lineno)
            action = _need(msg, "curAction", lineno)
            if action is None or (isinstance(action, list) and action == [None, None, None]):
                raise RecordError("curAction: a play message names the action made", lineno)
            _check(_m._action, action, "curAction", lineno)
            ep["plays"].append((seat, action, lineno))
        elif stage == "episodeOver":
            rec = _episode(ep, msg, previous, lineno, lenient)
            _check_order(rec, lineno)
            records.append(rec)
            previous = [int(s) for s in rec.tags["order"].split()]
            ep = None
        else:
            if stage is None:
                raise RecordError("stage: a notify message without 'stage'", lineno)
            raise RecordError(f"stage: unknown stage {stage!r} of a notify message"[:90], lineno)
    return records


def _check_order(rec: Record, lineno) -> None:
    """The ``order`` of ``episodeOver`` (the record's ``order`` tag, which
    becomes the next deal's ``previous``) agrees with the play: the seats the
    replayed play put out come first, in the same order. (A log whose play
    stops before the end is read, as a record may stop early.)"""
    order = [int(s) for s in rec.tags["order"].split()]
    out = list(final_state(rec).finished)
    if order[:len(out)] != out:
        raise RecordError(f"order: episodeOver says {' '.join(map(str, order))}, but the play "
                          f"put seats out in the order {' '.join(map(str, out))}", lineno)


def _order(over: dict[str, Any], lineno: int) -> list[int]:
    order = _need(over, "order", lineno)
    _check(_m._order, order, "order", lineno)
    rest = [s for s in range(4) if s not in order]
    return [int(s) for s in order] + rest


def _episode(ep: dict, over: dict, previous, lineno, lenient) -> Record:
    if over.get("curRank") is not None:
        ep["level"] = _level(over["curRank"], "curRank", lineno)
    if ep["level"] is None:
        raise RecordError("the episode never says its level (curRank)", lineno)
    order = _order(over, lineno)
    level = ep["level"]
    flags = ep["flags"]
    rules = Rules(level=level, **flags)
    hands: list[list[str]] = [[] for _ in range(4)]
    plays = []
    for seat, action, where in ep["plays"]:
        try:
            play = from_action(action, rules, field="curAction")
        except GuandanError as e:
            try:
                play = from_action(action, Rules(level=level, **dict(
                    flags, flush_is_always_bomb=False)), field="curAction")
            except GuandanError as e2:
                raise RecordError(str(e2 if lenient else e), where) from None
            if not lenient:
                raise RecordError(f"{e} (read with flush_is_always_bomb off, as a 2020 server "
                                  "plays it: the lenient import reads it and notes it)",
                                  where) from None
        if play is None:
            plays.append({"seat": seat, "pass": True})
            continue
        cards = [str(c) for c in play.cards]
        hands[seat].extend(cards)
        plays.append({"seat": seat, "cards": cards, "type": play.type, "rank": play.rank})
    rest = _need(over, "restCards", lineno)
    _check(_m._rest, rest, "restCards", lineno)
    for seat, cards in rest:
        hands[seat].extend(cards)
    after = [list(h) for h in hands]
    # undo the return, then the tribute: the hands as dealt
    for giver, receiver, card, where in reversed(ep["back"]):
        _move(hands, receiver, giver, card, where)
    for giver, receiver, card, where in reversed(ep["tribute"]):
        _move(hands, receiver, giver, card, where)
    for seat, (own, where) in ep["own"].items():
        if sorted(own) != sorted(hands[seat]):
            raise RecordError(f"seat {seat}'s dealt hand does not match the cards it "
                              "played and held at the end", where)
    data = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION,
        "tags": {"source": "Guandan AI competition platform log", "order": " ".join(map(str, order))},
        "level": level, "rules": {k: v for k, v in flags.items()
                                  if v != Rules.__dataclass_fields__[k].default},
        "previous": previous,
        "hands": hands,
        "tribute": "anti" if ep["anti"] is not None else [
            {"from": g, "to": r, "card": c} for g, r, c, _ in ep["tribute"]],
        "return": [{"from": g, "to": r, "card": c} for g, r, c, _ in ep["back"]],
        "plays": plays,
    }
    try:
        return _build(data, ep)
    except RecordError as first:
        if not lenient:
            raise
        notes = []
        flat = dict(data["rules"], flush_is_always_bomb=False)
        if data["rules"].get("flush_is_always_bomb"):
            try:
                data2 = dict(data, rules=flat)
                rec = _build(data2, ep)
                notes.append("a straight of one suit played as a plain straight: read with "
                             "flush_is_always_bomb off")
                return _noted(rec, notes)
            except RecordError:
                pass
        # the exchange breaks RULES: record the hands after it, the exchange in the notes
        data3 = dict(data, rules=flat, previous=None, hands=after, tribute=[], **{"return": []})
        try:
            rec = _build(data3, ep)
        except RecordError:
            raise first from None
        notes.append(f"the exchange breaks RULES §7 ({_strip_line(first)}); recorded from the "
                     "hands after it")
        if ep["anti"] is not None:
            notes.append("anti-tribute by seats " + " ".join(map(str, ep["anti"][0])))
        for name, items in (("tribute", ep["tribute"]), ("return", ep["back"])):
            for g, r, c, _ in items:
                notes.append(f"{name} {g} -> {r}: {c}")
        if data["rules"].get("flush_is_always_bomb") and rec.rules != _rules_of(data):
            rec = _noted(rec, ["read with flush_is_always_bomb off"])
        return _noted(rec, notes)


def _rules_of(data: dict) -> Rules:
    return Rules(level=data["level"], **data["rules"])


def _strip_line(e: RecordError) -> str:
    text = str(e)
    return text.split(": ", 1)[1] if text.startswith("line ") and ": " in text else text


def _noted(rec: Record, notes: list) -> Record:
    old = rec.tags.get("notes")
    rec.tags["notes"] = "; ".join(([old] if old else []) + notes)
    return rec


def _build(data: dict, ep: dict) -> Record:
    try:
        # a log's episode is imported as far as it goes (a record's
        # "partial": the review says when it stops before the end)
        return from_json({**data, "partial": True})
    except RecordError as e:
        # point at the message: plays[i] is the i-th play message of the episode
        msg = str(e.errors[0])     # the first error of the episode: a log is one line each
        if msg.startswith("plays["):
            i = int(msg[6:msg.index("]")])
            raise RecordError(msg.split(": ", 1)[1], ep["plays"][i][2]) from None
        line = ep["tribute"][0][3] if msg.startswith(("tribute", "return", "previous")) and \
            ep["tribute"] else ep["line"]
        raise RecordError(f"{msg} (episode starting here)", line) from None


def _move(hands, frm: int, to: int, card: str, lineno) -> None:
    if card not in hands[frm]:
        raise RecordError(f"seat {frm} never held {card}, which it is said to have given", lineno)
    hands[frm].remove(card)
    hands[to].append(card)


def load_platform_log(path: Union[str, Path], lenient: bool = False) -> list[Record]:
    """Records from a platform log file."""
    return import_platform_log(read_text(path), lenient=lenient)
