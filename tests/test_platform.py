"""The platform log importer, on logs written in the documented message shapes."""

import json
from pathlib import Path

import pytest

from guandan_fast import RecordError
from guandan_fast.platform.log import import_platform_log
from guandan_fast.formats.record import load, loads
from platform_logs import log_of as platform_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
@pytest.mark.parametrize("name", ["record_tribute.txt", "record_club.txt"])
def test_import_rebuilds_the_deal(name):
    rec = load(EXAMPLES / name)
    text = "\n".join(json.dumps(m) for m in platform_log(rec, my_pos=2)) + "\n"
    [got] = import_platform_log(text)
    assert got.hands == rec.hands
    assert got.moves == rec.moves
    assert got.tributes == rec.tributes and got.returns == rec.returns
    assert got.rules.flush_is_always_bomb and got.rules.level == rec.rules.level
    assert got.result() == rec.result()


def test_two_episodes_and_previous_order():
    b = load(EXAMPLES / "record_tribute.txt")
    # a first deal that ends in the order deal_tribute.txt says came before it
    first = platform_log(loads("level: 2\nhands:\n0: S3\n1: S4\n2: S5\n3: S6\nplay:\n"
                               "0: S3 | 1: S4 | 2: S5"))
    assert first[-1]["order"] == [0, 1, 2, 3]
    recs = import_platform_log(first + platform_log(b))
    assert len(recs) == 2
    assert recs[0].previous is None and recs[0].tags["order"] == "0 1 2 3"
    assert recs[1].previous == [0, 1, 2, 3]
    assert recs[1].tributes == b.tributes
    # a double down would make seats 1 and 3 pay
    first = platform_log(loads("level: 2\nhands:\n0: S3\n1: S4 S9\n2: SA\n3: S5\nplay:\n"
                               "0: S3 | 1: S9 | 2: SA"))
    assert first[-1]["order"] == [0, 2, 1, 3]
    with pytest.raises(RecordError) as e:
        import_platform_log(first + platform_log(b))
    assert "the tribute is paid by seats 1 and 3" in str(e.value)


def test_a_wrong_own_hand_is_rejected():
    rec = load(EXAMPLES / "record_endgame_short.txt")
    msgs = platform_log(rec)
    msgs[0]["handCards"] = ["S3", "C5", "DK"]
    with pytest.raises(RecordError) as e:
        import_platform_log("\n".join(json.dumps(m) for m in msgs))
    assert e.value.line == 1 and "dealt hand does not match" in str(e.value)


def test_an_illegal_play_names_the_message_line():
    rec = load(EXAMPLES / "record_endgame_short.txt")
    msgs = platform_log(rec)
    msgs[3]["curPos"] = 2          # the second play message, moved to the wrong seat
    with pytest.raises(RecordError) as e:
        import_platform_log("\n".join(json.dumps(m) for m in msgs))
    assert e.value.line == 4
