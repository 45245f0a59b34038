"""The messages of the competition platform (docs/platform.md): their schema, a
validator, and builders for the 2020 form that our server sends.

Every message is a JSON object with ``type`` (``notify`` or ``act``) and
``stage``; a client answers an ``act`` with ``{"actIndex": k}``.
``validate(msg)`` checks one message against the schema below and raises
``ProtocolError`` naming the field; it accepts the variants docs/platform.md lists
(``antiNum`` for ``antiNums``, levels as integers, ``[null, null, null]`` or
``null`` for the empty action of a free lead, a ``{victory, victoryRank}``
game result, the joker bomb as ``FourKings`` or ``Bomb R``).

>>> validate({"type": "notify", "stage": "beginning", "handCards": ["S3", "HR"], "myPos": 1})
>>> validate({"type": "notify", "stage": "play", "curPos": 4, "curAction": ["PASS", "PASS", "PASS"],
...           "greaterPos": 1, "greaterAction": ["Single", "3", ["S3"]]})
Traceback (most recent call last):
...
guandan_fast.errors.ProtocolError: curPos: a seat is 0..3, not 4
>>> validate_answer({"actIndex": 3}, 5), validate_answer({"actIndex": 6}, 5) is None
(3, True)
"""

from __future__ import annotations

import math
from typing import Any, Optional

from .._core import TOKENS
from ..model.rules import FLAG_KEYS
from ..errors import ProtocolError
from .actions import parse_action, rank_char

__all__ = ["validate", "validate_answer", "unswapped", "SCHEMA", "STAGES", "CLIENT_OPTIONAL",
           "beginning", "play_notice", "tribute_notice", "anti_tribute_notice", "back_notice",
           "episode_over", "game_over", "game_result", "act"]

_CARD_SET = frozenset(TOKENS)

# (type, stage) -> {field: kind}; kinds are checked by _CHECKS; a "?" marks
# an optional field
SCHEMA = {
    ("notify", "beginning"): {"handCards": "cards", "myPos": "seat", "curRank?": "rank",
                              "selfRank?": "rank", "oppoRank?": "rank", "rules?": "flags"},
    ("notify", "play"): {"curPos": "seat", "curAction": "action", "greaterPos": "seat_or_none",
                         "greaterAction": "action_or_none"},
    ("notify", "tribute"): {"result": "transfers"},
    ("notify", "anti-tribute"): {"antiNums": "count", "antiPos": "seats"},
    ("notify", "back"): {"result": "transfers"},
    ("notify", "episodeOver"): {"order": "order", "curRank": "rank", "restCards": "rest"},
    ("notify", "gameOver"): {"curTimes": "count", "settingTimes": "count"},
    ("notify", "gameResult"): {"victoryNum": "per_seat", "draws?": "per_seat"},
    ("act", "play"): {"handCards": "cards", "publicInfo": "public", "selfRank": "rank",
                      "oppoRank": "rank", "curRank": "rank", "curPos": "seat_or_none",
                      "curAction": "action_or_none", "greaterPos": "seat_or_none",
                      "greaterAction": "action_or_none", "actionList": "actions",
                      "indexRange": "count"},
}
SCHEMA[("act", "tribute")] = dict(SCHEMA[("act", "play")], actionList="exchanges")
SCHEMA[("act", "back")] = dict(SCHEMA[("act", "play")], actionList="exchanges")
STAGES = sorted({s for _, s in SCHEMA})


def _fail(field, message):
    raise ProtocolError(message, field)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(v, field, none_ok=False):
    if none_ok and (v is None or (_is_int(v) and v == -1)):
        return
    if not _is_int(v):
        _fail(field, f"a seat is an integer 0..3, not {v!r}"[:90])
    if not 0 <= v <= 3:
        _fail(field, f"a seat is 0..3, not {v}")


def _cards(v, field, max_cards=28):
    if not isinstance(v, list):
        _fail(field, f"a list of cards, not {type(v).__name__}")
    if len(v) > max_cards:
        _fail(field, f"{len(v)} cards: at most {max_cards}")
    seen: dict = {}
    for i, c in enumerate(v):
        if not isinstance(c, str) or c not in _CARD_SET:
            _fail(f"{field}[{i}]", f"{c!r} is not a card (S3, HT, SB, HR...)"[:90])
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > 2:
            _fail(f"{field}[{i}]", f"a third copy of {c}")


def _count(v, field):
    if not _is_int(v) or v < 0:
        _fail(field, f"a count (an integer >= 0), not {v!r}"[:90])


def _rank(v, field):
    if isinstance(v, float) and not math.isfinite(v):
        _fail(field, f"a rank, not {v!r}")
    rank_char(v, field)


def _action(v, field, none_ok=False):
    if v is None or (isinstance(v, list) and len(v) == 3 and all(x is None for x in v)):
        if none_ok:
            return
        _fail(field, "an action is needed here, not an empty one")
    parts = parse_action(v, field)
    if parts is not None:
        _cards(parts[2], f"{field}[2]", max_cards=10)


def _actions(v, field):
    if not isinstance(v, list) or not v:
        _fail(field, "a non-empty list of actions")
    for i, a in enumerate(v):
        _action(a, f"{field}[{i}]")


def _exchanges(v, field):
    if not isinstance(v, list) or not v:
        _fail(field, "a non-empty list of tribute or back actions")
    for i, a in enumerate(v):
        f = f"{field}[{i}]"
        if not (isinstance(a, list) and len(a) == 3 and a[0] in ("tribute", "back")
                and a[1] == a[0] and isinstance(a[2], list) and len(a[2]) == 1):
            _fail(f, f'an exchange action is ["tribute", "tribute", [card]] or '
                     f'["back", "back", [card]], not {a!r}'[:120])
        _cards(a[2], f"{f}[2]")


def _transfers(v, field):
    if not isinstance(v, list):
        _fail(field, "a list of [giver, receiver, card]")
    for i, t in enumerate(v):
        f = f"{field}[{i}]"
        if not isinstance(t, list) or len(t) != 3:
            _fail(f, f"a transfer is [giver, receiver, card], not {t!r}"[:90])
        _seat(t[0], f"{f}[0]")
        _seat(t[1], f"{f}[1]")
        _cards([t[2]], f"{f}[2]")


def _seats(v, field):
    if not isinstance(v, list) or len(v) > 4:
        _fail(field, "a list of at most four seats")
    for i, s in enumerate(v):
        _seat(s, f"{field}[{i}]")


def _order(v, field):
    _seats(v, field)
    if len(set(v)) != len(v) or not 2 <= len(v) <= 4:
        _fail(field, f"the finishing order lists distinct seats, not {v!r}")


def _rest(v, field):
    if not isinstance(v, list):
        _fail(field, "a list of [seat, [cards]]")
    seen = set()
    for i, item in enumerate(v):
        f = f"{field}[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            _fail(f, f"an entry is [seat, [cards]], not {item!r}"[:90])
        _seat(item[0], f"{f}[0]")
        if item[0] in seen:
            _fail(f"{f}[0]", f"seat {item[0]} is listed twice")
        seen.add(item[0])
        _cards(item[1], f"{f}[1]")


def _flags(v, field):
    if not isinstance(v, dict):
        _fail(field, "an object of rules flags")
    for k, x in v.items():
        if k not in FLAG_KEYS or not isinstance(x, bool):
            _fail(f"{field}.{k}"[:60], "an unknown flag or a value that is not true/false")


def _per_seat(v, field):
    if not isinstance(v, list) or len(v) != 4:
        _fail(field, "a list of four counts, one per seat")
    for i, n in enumerate(v):
        _count(n, f"{field}[{i}]")


def _public(v, field):
    if not isinstance(v, list) or len(v) != 4:
        _fail(field, "a list of four {rest, playArea}, one per seat")
    for i, item in enumerate(v):
        f = f"{field}[{i}]"
        if not isinstance(item, dict) or "rest" not in item:
            _fail(f, "an object with rest and playArea")
        _count(item["rest"], f"{f}.rest")
        if item["rest"] > 28:
            _fail(f"{f}.rest", f"{item['rest']} cards left: at most 28")
        _action(item.get("playArea"), f"{f}.playArea", none_ok=True)


_CHECKS = {
    "cards": _cards, "seat": _seat, "seat_or_none": lambda v, f: _seat(v, f, True),
    "rank": _rank, "action": _action, "action_or_none": lambda v, f: _action(v, f, True),
    "actions": _actions, "exchanges": _exchanges, "transfers": _transfers, "count": _count,
    "seats": _seats, "order": _order, "rest": _rest, "per_seat": _per_seat, "public": _public, "flags": _flags,
}


# the fields of an act the client does not read: it does not require them
# (a server that leaves them out is still played); present, they are checked
CLIENT_OPTIONAL = frozenset({"publicInfo", "selfRank", "oppoRank"})


def validate(msg, optional=frozenset()) -> None:
    """Check one platform message against the schema; ProtocolError names the
    first field that breaks it. ``optional``: fields that may be missing
    (checked when present)."""
    if not isinstance(msg, dict):
        _fail(None, f"a message is a JSON object, not {type(msg).__name__}")
    key = (msg.get("type"), msg.get("stage"))
    if not all(isinstance(k, str) for k in key) or key not in SCHEMA:
        if msg.get("type") not in ("notify", "act"):
            _fail("type", f"'notify' or 'act', not {msg.get('type')!r}"[:90])
        if msg.get("stage") is None:
            _fail("stage", f"a {msg.get('type')} message without 'stage'")
        _fail("stage", f"unknown stage {msg.get('stage')!r} of a {msg.get('type')} message"[:90])
    fields = SCHEMA[key]
    if key == ("notify", "anti-tribute") and "antiNums" not in msg and "antiNum" in msg:
        msg = dict(msg, antiNums=msg["antiNum"])
    if key == ("notify", "gameResult") and "victoryNum" not in msg and "victory" in msg:
        return                     # one open server's {victory, victoryRank}
    msg = unswapped(msg)
    for name, kind in fields.items():
        is_optional = name.endswith("?")
        name = name.rstrip("?")
        if name not in msg:
            if is_optional or name in optional:
                continue
            _fail(name, "missing")
        _CHECKS[kind](msg[name], name)
    if key[0] == "act":
        if msg["indexRange"] != len(msg["actionList"]) - 1:
            _fail("indexRange", f"{msg['indexRange']} is not len(actionList) - 1 = "
                                f"{len(msg['actionList']) - 1}")


def unswapped(msg: dict[str, Any]) -> dict[str, Any]:
    """The manual's example swaps greaterPos and greaterAction (docs/platform.md:
    accept both): the message with them in place."""
    pos, action = msg.get("greaterPos"), msg.get("greaterAction")
    if isinstance(pos, list) and not isinstance(action, list):
        return dict(msg, greaterPos=action, greaterAction=pos)
    if _is_int(action) and (pos is None or pos == [None, None, None]):
        # its free lead: "greaterAction": -1, "greaterPos": null
        return dict(msg, greaterPos=action, greaterAction=pos)
    return msg


def validate_answer(answer, index_range: int) -> Optional[int]:
    """The index of a client's ``{"actIndex": k}`` answer, or None when it is
    not a valid answer to an act whose ``indexRange`` is ``index_range``."""
    if not isinstance(answer, dict):
        return None
    k = answer.get("actIndex")
    if not _is_int(k) or not isinstance(k, int) or not 0 <= k <= index_range:
        return None
    return k


# -- builders (the 2020 form) ---------------------------------------------------

_EMPTY = [None, None, None]


def beginning(hand: list, seat: int, cur_rank: str, self_rank: str, oppo_rank: str,
              rules: Optional[dict] = None) -> dict[str, Any]:
    """``rules``: our server adds the rules flags of the game (an extra key
    that platform clients ignore; the importer reads it)."""
    msg = {"type": "notify", "stage": "beginning", "handCards": hand, "myPos": seat,
           "curRank": cur_rank, "selfRank": self_rank, "oppoRank": oppo_rank}
    if rules is not None:
        msg["rules"] = rules
    return msg


def play_notice(seat: int, action: list, greater_pos: int, greater_action: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "play", "curPos": seat, "curAction": action,
            "greaterPos": greater_pos, "greaterAction": greater_action}


def tribute_notice(result: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "tribute", "result": result}


def anti_tribute_notice(seats: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "anti-tribute", "antiNums": len(seats), "antiPos": seats}


def back_notice(result: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "back", "result": result}


def episode_over(order: list, cur_rank: str, rest: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "episodeOver", "order": order, "curRank": cur_rank,
            "restCards": rest}


def game_over(cur_times: int, setting_times: int) -> dict[str, Any]:
    return {"type": "notify", "stage": "gameOver", "curTimes": cur_times,
            "settingTimes": setting_times}


def game_result(victories: list, draws: list) -> dict[str, Any]:
    return {"type": "notify", "stage": "gameResult", "victoryNum": victories, "draws": draws}


def act(stage: str, hand: list, public: list, self_rank: str, oppo_rank: str, cur_rank: str,
        cur_pos: int, cur_action, greater_pos: int, greater_action, actions: list) -> dict[str, Any]:
    return {"type": "act", "stage": stage, "handCards": hand, "publicInfo": public,
            "selfRank": self_rank, "oppoRank": oppo_rank, "curRank": cur_rank,
            "curPos": cur_pos, "curAction": cur_action if cur_action is not None else _EMPTY,
            "greaterPos": greater_pos,
            "greaterAction": greater_action if greater_action is not None else _EMPTY,
            "actionList": actions, "indexRange": len(actions) - 1}
