"""The messages a platform bot logs for a deal (tests' shared log writer).

``log_of(rec, my_pos)`` writes, from a deal record, the notify/act
messages a bot at ``my_pos`` receives, in the documented 2020 shapes
(docs/platform.md). The action of each play is written by ``action``: by
default ``independent_action`` below, written from the message tables
alone (it shares no code with the importer's or the protocol module's);
tests of the protocol module's own writer pass ``to_action``.
"""

import json

from guandan_fast.game.record import final_state

TYPES = {"single": "Single", "pair": "Pair", "triple": "Trips", "full_house": "ThreeWithTwo",
         "straight": "Straight", "tube": "ThreePair", "plate": "TwoTrips",
         "straight_flush": "StraightFlush", "bomb": "Bomb", "joker_bomb": "Bomb"}


def independent_action(play) -> list:
    """[type, rank, cards] of a play (["PASS"] * 3 for the pass)."""
    if play is None:
        return ["PASS", "PASS", "PASS"]
    return [TYPES[play.type], "JOKER" if play.type == "joker_bomb" else play.rank,
            [str(c) for c in play.cards]]


def log_of(rec, my_pos=0, action=independent_action, with_rules=False) -> list:
    """The messages of one deal for the bot at ``my_pos``; ``with_rules``:
    the beginning message carries the record's rule options (without them
    the importer takes the platform's defaults)."""
    msgs = [{"type": "notify", "stage": "beginning", "myPos": my_pos,
             "handCards": [str(c) for c in rec.hands[my_pos]]}]
    if with_rules:
        msgs[0]["rules"] = {"flush_is_always_bomb": rec.rules.flush_is_always_bomb}
    if rec.anti_tribute:
        msgs.append({"type": "notify", "stage": "anti-tribute", "antiNums": 1, "antiPos": [0]})
    if rec.tributes:
        msgs.append({"type": "notify", "stage": "tribute",
                     "result": [[t.giver, t.receiver, str(t.card)] for t in rec.tributes]})
        msgs.append({"type": "notify", "stage": "back",
                     "result": [[t.giver, t.receiver, str(t.card)] for t in rec.returns]})
    msgs.append({"type": "act", "stage": "play", "curRank": rec.rules.level, "curPos": -1,
                 "curAction": [None, None, None], "greaterPos": -1,
                 "greaterAction": [None, None, None], "actionList": [], "handCards": []})
    for m in rec.moves:
        a = action(m.play)
        msgs.append({"type": "notify", "stage": "play", "curPos": m.seat, "curAction": a,
                     "greaterPos": m.seat, "greaterAction": a})
    end = final_state(rec)
    msgs.append({"type": "notify", "stage": "episodeOver", "order": end.places(),
                 "curRank": rec.rules.level,
                 "restCards": [[s, [str(c) for c in end.cards(s)]] for s in range(4) if end.count(s)]})
    return msgs


def text(msgs) -> str:
    """Messages as a log file: one JSON object a line."""
    return "\n".join(json.dumps(m) for m in msgs) + "\n"
