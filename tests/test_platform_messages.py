"""The message schema of docs/platform.md: the builders' output is valid, each
field's breakage is named, and parsers never crash on junk (fuzz)."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_fast import Rules
from guandan_fast.errors import PlayError, ProtocolError
from guandan_fast.platform import action_list, from_action, parse_action
from guandan_fast.platform import messages as M

HAND = ["S3", "S3", "D4", "H2", "SB"]


def good_messages():
    acts = action_list(HAND, Rules())
    public = [{"rest": 5, "playArea": None}, {"rest": 27, "playArea": ["Single", "3", ["C3"]]},
              {"rest": 0, "playArea": None}, {"rest": 9, "playArea": ["PASS", "PASS", "PASS"]}]
    return [
        M.beginning(HAND, 1, "2", "2", "3", {"flush_is_always_bomb": False}),
        M.play_notice(1, ["Pair", "3", ["S3", "S3"]], 1, ["Pair", "3", ["S3", "S3"]]),
        M.play_notice(2, ["PASS", "PASS", "PASS"], 1, ["Pair", "3", ["S3", "S3"]]),
        M.tribute_notice([[3, 0, "SB"], [1, 2, "HA"]]),
        M.anti_tribute_notice([1, 3]),
        M.back_notice([[0, 3, "S3"]]),
        M.episode_over([0, 2, 1, 3], "T", [[1, ["S3"]], [3, ["HR"]]]),
        M.game_over(1, 3),
        M.game_result([1, 0, 1, 0], [0, 0, 0, 0]),
        M.act("play", HAND, public, "2", "3", "2", -1, None, -1, None, acts),
        M.act("play", HAND, public, "2", "3", "2", 3, ["PASS", "PASS", "PASS"], 1,
              ["Single", "3", ["C3"]], [["PASS", "PASS", "PASS"]] + acts[:3]),
        M.act("tribute", HAND, public, "2", "3", "2", -1, None, -1, None,
              [["tribute", "tribute", ["SB"]]]),
        M.act("back", HAND, public, "2", "3", "2", -1, None, -1, None,
              [["back", "back", ["S3"]], ["back", "back", ["D4"]]]),
        # variants seen across servers
        {"type": "notify", "stage": "anti-tribute", "antiNum": 1, "antiPos": [2]},
        {"type": "notify", "stage": "beginning", "handCards": HAND, "myPos": 0, "curRank": 2},
        {"type": "notify", "stage": "gameResult", "victory": 1, "victoryRank": "A"},
        M.play_notice(0, ["FourKings", "R", ["SB", "SB", "HR", "HR"]], 0,
                      ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]),
        # the manual's example: greaterAction and greaterPos swapped
        dict(M.act("play", HAND, public, "2", "3", "2", -1, None, -1, None, acts),
             greaterPos=[None, None, None], greaterAction=-1),
        dict(M.play_notice(2, ["PASS", "PASS", "PASS"], 1, ["Pair", "3", ["S3", "S3"]]),
             greaterPos=["Pair", "3", ["S3", "S3"]], greaterAction=1),
    ]


@pytest.mark.parametrize("msg", good_messages())
def test_good_messages_pass(msg):
    M.validate(msg)


BREAKS = [
    (0, lambda m: m.pop("myPos"), "myPos: missing"),
    (0, lambda m: m.__setitem__("handCards", ["S3"] * 3), "handCards[2]: a third copy"),
    (0, lambda m: m.__setitem__("rules", {"colour": True}), "rules.colour"),
    (1, lambda m: m.__setitem__("curPos", -1), "curPos"),
    (1, lambda m: m.__setitem__("curAction", [None, None, None]), "curAction"),
    (1, lambda m: m.__setitem__("greaterAction", ["Pair", "3", ["S3", "ZZ"]]),
     "greaterAction[2][1]"),
    (3, lambda m: m.__setitem__("result", [[3, 0]]), "result[0]"),
    (4, lambda m: m.__setitem__("antiPos", [1, 1, 1, 1, 1]), "antiPos"),
    (6, lambda m: m.__setitem__("order", [0, 0]), "order"),
    (6, lambda m: m.__setitem__("restCards", [[1, "S3"]]), "restCards[0][1]"),
    (6, lambda m: m.__setitem__("curRank", "X"), "curRank"),
    (7, lambda m: m.__setitem__("curTimes", -1), "curTimes"),
    (8, lambda m: m.__setitem__("victoryNum", [1, 0]), "victoryNum"),
    (9, lambda m: m.__setitem__("indexRange", 0), "indexRange"),
    (9, lambda m: m.__setitem__("actionList", []), "actionList"),
    (9, lambda m: m["publicInfo"].pop(), "publicInfo"),
    (9, lambda m: m["publicInfo"][0].__setitem__("rest", 99), "publicInfo[0].rest"),
    (9, lambda m: m["actionList"].__setitem__(1, ["Single", "3"]), "actionList[1]"),
    (11, lambda m: m["actionList"].__setitem__(0, ["tribute", "back", ["SB"]]), "actionList[0]"),
    (0, lambda m: m.__setitem__("stage", "start"), "stage"),
    (0, lambda m: m.__setitem__("type", "note"), "type"),
]


@pytest.mark.parametrize("index,mutate,needle", BREAKS)
def test_each_broken_field_is_named(index, mutate, needle):
    msg = copy.deepcopy(good_messages()[index])
    mutate(msg)
    with pytest.raises(ProtocolError) as e:
        M.validate(msg)
    assert needle in str(e.value)


def test_answers():
    assert M.validate_answer({"actIndex": 0}, 0) == 0
    for bad in ({"actIndex": 1}, {"actIndex": -1}, {"actIndex": True}, {"actIndex": "0"},
                {"index": 0}, [0], None, {"actIndex": 0.0}):
        assert M.validate_answer(bad, 0) is None


_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.floats()
    | st.sampled_from(["S3", "HR", "SB", "PASS", "Single", "Pair", "Bomb", "FourKings", "JOKER",
                       "R", "A", "10", "tribute", "back", "notify", "act", "play"]),
    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.sampled_from(
        ["type", "stage", "handCards", "myPos", "curPos", "curAction", "greaterPos",
         "greaterAction", "actionList", "indexRange", "publicInfo", "rest", "playArea",
         "result", "order", "restCards", "curRank"]), c, max_size=6),
    max_leaves=15)


@given(_junk)
def test_fuzz_validate_raises_only_protocol_errors(value):
    try:
        M.validate(value)
    except ProtocolError as e:
        assert str(e)


@given(_junk)
def test_fuzz_actions_raise_only_clean_errors(value):
    try:
        parse_action(value)
        from_action(value, Rules(level=2), hand=HAND)
    except (ProtocolError, PlayError) as e:
        assert str(e)


@given(st.lists(st.sampled_from(["S3", "D3", "H2", "S4", "S5", "S6", "S7", "SB", "HR", "XX", 3]),
                max_size=11),
       st.sampled_from(["Single", "Pair", "Straight", "Bomb", "ThreePair", "TwoTrips",
                        "ThreeWithTwo", "StraightFlush", "Trips"]),
       st.one_of(st.sampled_from(list("23456789TJQKABR") + ["JOKER", "10"]),
                 st.integers(-2, 20)))
def test_fuzz_actions_of_plausible_shape(cards, typ, rank):
    try:
        p = from_action([typ, rank, cards], Rules(level=2))
    except (ProtocolError, PlayError) as e:
        assert str(e)
    else:
        assert sorted(str(c) for c in p.cards) == sorted(cards)


@given(st.lists(_junk, max_size=4))
def test_fuzz_client_reads_junk_with_clean_errors(values):
    from guandan_fast.errors import GuandanError
    from guandan_fast.platform.client import Seat
    seat = Seat()
    seat.feed(M.beginning(HAND, 1, "2", "2", "2"))
    for v in values:
        try:
            seat.feed(v)
        except GuandanError as e:
            assert str(e)
