"""Import the message log of the Guandan AI competition platform.

The platform (the server used by the Chinese Guandan AI competitions since
2020) talks to each bot over a websocket in JSON messages; a bot's log is
those messages, one JSON object per line (a JSON array is accepted too).
What this importer relies on is the message shapes documented in the
platform's sample client (``gd_handle.py``, "State.parse"):

- ``{"type": "notify", "stage": "beginning", "handCards": [...], "myPos": 1}``
- ``{"type": "notify", "stage": "tribute", "result": [[payer, receiver, "S2"]]}``
  and ``"stage": "back"`` (the return) in the same form;
  ``{"type": "notify", "stage": "anti-tribute", "antiNum": 2, "antiPos": [0, 2]}``
- ``{"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Single", "2", ["S2"]],
  "greaterPos": 1, "greaterAction": [...]}``, a pass being ``["PASS", "PASS", "PASS"]``
  (a ``{"type", "rank", "actions"}`` object is accepted as well)
- ``{"type": "act", "stage": "play", "curRank": "2", "selfRank": ..., "handCards": ...}``
  (only ``curRank``, the level, is read from the ``act`` messages)
- ``{"type": "notify", "stage": "episodeOver", "order": [0, 1, 2, 3], "curRank": "2",
  "restCards": [[pos, [cards]], ...]}``

Cards use the platform's notation, which is this project's canonical one
(``S2 HT SB HR``). Play types: ``Single Pair Trips ThreeWithTwo Straight
ThreePair TwoTrips StraightFlush Bomb``.

A bot sees only its own hand, so the four hands are rebuilt from the deal
itself: each seat's hand after the tribute is every card it played plus its
``restCards`` at ``episodeOver``; undoing the return and the tribute gives the
hands as dealt, and the bot's own ``beginning`` hand is checked against that.
Each episode becomes one ``Record`` (checked like any other record); the
previous episode's ``order`` becomes its ``previous`` tag. The platform plays
with ``flush_is_always_bomb`` (RULES 5), so imported records set it.

Not established from public documentation, hence not relied on: the rank
the platform gives a tube (ThreePair) or a plate (TwoTrips), so only their
type is used to choose the reading; and whether seat numbers ever differ from
``myPos``/``curPos`` (they are used as seats 0..3 as they are).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Union

from ..errors import RecordError
from ..formats.record import FORMAT_NAME, FORMAT_VERSION, Record, from_json

__all__ = ["import_platform_log", "load_platform_log", "PLATFORM_TYPES"]

PLATFORM_TYPES = {
    "Single": "single", "Pair": "pair", "Trips": "triple", "ThreeWithTwo": "full_house",
    "Straight": "straight", "ThreePair": "tube", "TwoTrips": "plate",
    "StraightFlush": "straight_flush", "Bomb": "bomb",
}
_RANK_TRUSTED = {"single", "pair", "triple", "full_house", "straight", "straight_flush", "bomb"}


def _messages(text: str) -> list:
    text = text.strip()
    if text.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e.msg}", e.lineno) from None
        return [(i + 1, m) for i, m in enumerate(data)]
    out = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            out.append((lineno, json.loads(line)))
        except json.JSONDecodeError as e:
            raise RecordError(f"not a JSON message: {e.msg}", lineno) from None
    return out


def _action(value, lineno):
    """(type or None for pass, rank, cards) of a platform action."""
    if isinstance(value, dict):
        value = [value.get("type"), value.get("rank"), value.get("actions")]
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RecordError(f"an action is [type, rank, cards], not {value!r}", lineno)
    typ, rank, cards = value
    if typ == "PASS":
        return None, None, None
    if typ not in PLATFORM_TYPES:
        raise RecordError(f"unknown play type {typ!r}", lineno)
    if not isinstance(cards, list) or not cards:
        raise RecordError(f"the cards of an action are a list, not {cards!r}", lineno)
    return PLATFORM_TYPES[typ], rank, [str(c) for c in cards]


def import_platform_log(messages: Union[str, Iterable]) -> list:
    """Records (one per finished episode) from a platform message log: the
    text of a JSON-lines log or an iterable of message dicts."""
    if isinstance(messages, str):
        items = _messages(messages)
    else:
        items = list(enumerate(messages, start=1))
    records = []
    ep = None
    previous = None
    for lineno, msg in items:
        if not isinstance(msg, dict):
            raise RecordError("a message is a JSON object", lineno)
        stage, kind = msg.get("stage"), msg.get("type")
        if stage == "beginning":
            ep = {"own": (msg.get("myPos"), msg.get("handCards") or msg.get("handCard")),
                  "level": None, "tribute": [], "back": [], "anti": False, "plays": [],
                  "line": lineno}
            continue
        if ep is None:
            if stage in ("gameOver", "gameResult"):
                continue
            raise RecordError(f"a {stage!r} message before the episode's 'beginning'", lineno)
        if msg.get("curRank") not in (None, "", -1):
            ep["level"] = msg["curRank"]
        if kind != "notify":
            continue
        if stage == "tribute":
            ep["tribute"] += [tuple(r) for r in msg.get("result") or []]
        elif stage == "back":
            ep["back"] += [tuple(r) for r in msg.get("result") or []]
        elif stage == "anti-tribute":
            ep["anti"] = True
        elif stage == "play":
            typ, rank, cards = _action(msg.get("curAction"), lineno)
            ep["plays"].append((msg.get("curPos"), typ, rank, cards, lineno))
        elif stage == "episodeOver":
            records.append(_episode(ep, msg, previous, lineno))
            previous = [int(s) for s in msg.get("order") or []] or None
            ep = None
    return records


def _episode(ep: dict, over: dict, previous, lineno) -> Record:
    if ep["level"] is None:
        raise RecordError("the episode never says its level (curRank)", lineno)
    level = ep["level"]
    hands: list[list[str]] = [[] for _ in range(4)]
    for seat, typ, rank, cards, _ in ep["plays"]:
        if cards:
            hands[int(seat)].extend(cards)
    for item in over.get("restCards") or []:
        seat, cards = item
        hands[int(seat)].extend(str(c) for c in cards)
    # undo the return, then the tribute: the hands as dealt
    for giver, receiver, card in ep["back"]:
        _move(hands, int(receiver), int(giver), str(card), lineno)
    for giver, receiver, card in ep["tribute"]:
        _move(hands, int(receiver), int(giver), str(card), lineno)
    own_seat, own_cards = ep["own"]
    if own_seat is not None and own_cards:
        if sorted(map(str, own_cards)) != sorted(hands[int(own_seat)]):
            raise RecordError(f"seat {own_seat}'s dealt hand does not match the cards it "
                              "played and held at the end", ep["line"])
    plays = []
    for seat, typ, rank, cards, _ in ep["plays"]:
        if typ is None:
            plays.append({"seat": int(seat), "pass": True})
            continue
        entry = {"seat": int(seat), "cards": cards}
        if typ == "bomb" and str(rank).upper() == "JOKER":
            typ = "joker_bomb"
        entry["type"] = typ
        if typ in _RANK_TRUSTED and rank not in (None, "", "JOKER"):
            entry["rank"] = str(rank)
        plays.append(entry)
    data = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION,
        "tags": {"source": "Guandan AI competition platform log",
                 "order": " ".join(str(s) for s in over.get("order") or [])},
        "level": str(level), "rules": {"flush_is_always_bomb": True},
        "previous": previous if ep["tribute"] or ep["anti"] else None,
        "hands": hands,
        "tribute": "anti" if ep["anti"] else [
            {"from": g, "to": r, "card": c} for g, r, c in ep["tribute"]],
        "return": [{"from": g, "to": r, "card": c} for g, r, c in ep["back"]],
        "plays": plays,
    }
    try:
        return from_json(data)
    except RecordError as e:
        # point at the message: plays[i] is the i-th play message of the episode
        msg = str(e)
        if msg.startswith("plays["):
            i = int(msg[6:msg.index("]")])
            raise RecordError(msg.split(": ", 1)[1], ep["plays"][i][4]) from None
        raise RecordError(f"{msg} (episode ending here)", lineno) from None


def _move(hands, frm: int, to: int, card: str, lineno) -> None:
    if card not in hands[frm]:
        raise RecordError(f"seat {frm} never held {card}, which it is said to have given", lineno)
    hands[frm].remove(card)
    hands[to].append(card)


def load_platform_log(path: Union[str, Path]) -> list:
    """Records from a platform log file."""
    return import_platform_log(Path(path).read_text(encoding="utf-8"))
