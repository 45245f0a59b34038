"""The platform log importer on real-log variants, the lenient mode, and
rejection/fuzz tests (every malformed message is a RecordError naming the line)."""

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guandan_fast import RecordError
from guandan_fast.platform.log import import_platform_log
from guandan_fast.formats.record import load, loads
from guandan_fast.platform.actions import to_action
from conftest import slow_beyond
from platform_logs import log_of as _log_of, text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def log_of(rec, my_pos=0):
    """The messages of a deal, actions by the protocol module's own writer."""
    return _log_of(rec, my_pos, action=to_action, with_rules=True)


SEQ = loads("""level: 2
partial: yes
hands:
0: C2 H2 C4 D5 C6 SB SB HR HR
1: S3 S4 S5 S6 S7 D9
2: D3 D3 D4 D4 C5 C5
3: SA S2 S3 S4 H5
play:
0: C2 H2 C4 D5 C6
1: S3 S4 S5 S6 S7 straight
2: pass
3: pass
0: pass
1: D9
2: pass
3: pass
0: SB SB HR HR
""")


def test_sequence_ranks_are_the_lowest_card():
    msgs = log_of(SEQ)
    assert msgs[2]["curAction"][:2] == ["Straight", "2"]
    [rec] = import_platform_log(text(msgs))
    assert rec.moves == SEQ.moves and rec.result() == SEQ.result()


def test_top_card_ranks_are_accepted_too():
    msgs = log_of(SEQ)
    msgs[2]["curAction"][1] = "6"          # one newer engine writes the top card
    msgs[3]["curAction"][1] = 7            # and a rank as an integer
    [rec] = import_platform_log(text(msgs))
    assert rec.moves == SEQ.moves


@pytest.mark.parametrize("form", [["Bomb", "JOKER"], ["FourKings", "R"], ["Bomb", "R"]])
def test_joker_bomb_forms(form):
    msgs = log_of(SEQ)
    last = [m for m in msgs if m.get("stage") == "play"][-1]
    last["curAction"][:2] = form
    [rec] = import_platform_log(text(msgs))
    assert rec.moves[-1].play.type == "joker_bomb"


def test_integer_levels_antinum_swapped_greater_and_typos():
    rec = loads("""level: 5
partial: yes
hands:
0: S3 D3 S4 D4 S5 D5
1: S6
2: S7
3: S8
play:
0: S3 D3 S4 D4 S5 D5
""")
    msgs = log_of(rec)
    msgs[0]["curRank"] = 5
    msgs[1]["curRank"] = 5
    msgs[1]["greaterAction"], msgs[1]["greaterPos"] = -1, [None, None, None]
    msgs[2]["curAction"][0] = "TripsPair"
    [got] = import_platform_log(text(msgs))
    assert got.rules.level == "5" and got.moves == rec.moves


# a deal whose play finishes seats 0, 1, 2 in this order (episodeOver says 0 1 2 3)
ORDER_0123 = loads("level: 2\nhands:\n0: S3\n1: S4\n2: S5\n3: S6\nplay:\n0: S3 | 1: S4 | 2: S5")


def test_tribute_deal_with_previous_and_partner_pays():
    """RULES 7: the last finisher pays even when the first finisher's partner."""
    b = load(EXAMPLES / "record_tribute.txt")
    first = log_of(ORDER_0123)
    assert first[-1]["order"] == [0, 1, 2, 3]
    recs = import_platform_log(text(first + log_of(b)))
    assert recs[1].previous == [0, 1, 2, 3] and recs[1].tributes == b.tributes


def _level_card_returned_log():
    """Deal 2 of a hand-made game: seat 3 pays SK to seat 0, which returns S2,
    a level card (RULES 7 wants 2..10 not of the level rank: S5 or D9)."""
    first = log_of(ORDER_0123)
    P = lambda seat, a: {"type": "notify", "stage": "play", "curPos": seat, "curAction": a,
                         "greaterPos": seat, "greaterAction": a}
    second = [
        {"type": "notify", "stage": "beginning", "myPos": 0, "handCards": ["S5", "S2", "D9"],
         "curRank": "2"},
        {"type": "notify", "stage": "tribute", "result": [[3, 0, "SK"]]},
        {"type": "notify", "stage": "back", "result": [[0, 3, "S2"]]},
        P(3, ["Single", "3", ["S3"]]), P(0, ["Single", "5", ["S5"]]),
        P(1, ["Single", "6", ["S6"]]), P(2, ["Single", "7", ["S7"]]),
        P(3, ["Single", "2", ["S2"]]),
        {"type": "notify", "stage": "episodeOver", "order": [1, 2, 3, 0], "curRank": "2",
         "restCards": [[0, ["D9", "SK"]]]},
    ]
    return first + second


def test_lenient_reads_a_level_card_returned():
    msgs = _level_card_returned_log()
    with pytest.raises(RecordError, match="the return must be 2..10 and not the level rank"):
        import_platform_log(text(msgs))
    recs = import_platform_log(text(msgs), lenient=True)
    notes = recs[1].tags["notes"]
    assert "the exchange breaks RULES §7" in notes and "return 0 -> 3: S2" in notes
    assert "tribute 3 -> 0: SK" in notes
    assert recs[1].tributes == [] and recs[1].previous is None
    assert recs[1].result() == -2
    assert [str(c) for c in recs[1].hands[3]] == ["S2", "S3"]


def test_lenient_reads_a_missing_tribute():
    a = load(EXAMPLES / "record_club.txt")
    first = log_of(ORDER_0123)
    second = log_of(a)                     # a deal with no exchange
    with pytest.raises(RecordError, match="tribute is paid by seat 3"):
        import_platform_log(text(first + second))
    recs = import_platform_log(text(first + second), lenient=True)
    assert "the exchange breaks RULES §7" in recs[1].tags["notes"]


def test_an_order_the_play_did_not_produce_is_refused():
    """The order of episodeOver becomes the next deal's previous order (and
    drives its tribute check): one that disagrees with the play is refused."""
    a = load(EXAMPLES / "record_club.txt")
    msgs = log_of(a)
    real = msgs[-1]["order"]
    for wrong in ([0, 1, 2, 3], real[1:] + real[:1], [real[1], real[0]]):
        msgs[-1]["order"] = wrong
        with pytest.raises(RecordError) as e:
            import_platform_log(text(msgs), lenient=True)
        assert e.value.line == len(msgs)
        assert f"order: episodeOver says {' '.join(map(str, wrong))}" in str(e.value)
        assert "put seats out in the order " + " ".join(map(str, real[:2])) in str(e.value)
    msgs[-1]["order"] = real[:2]                       # the seats out, the rest implied
    assert import_platform_log(text(msgs))[0].tags["order"] == " ".join(map(str, real))


@pytest.mark.parametrize("action", [{}, {"type": None, "rank": None, "actions": None},
                                    {"type": "PASS"}, {"rank": "3"}, {"cards": ["S9"]}])
def test_an_object_is_never_a_pass(action):
    msgs = log_of(SEQ)
    i = next(k for k, m in enumerate(msgs) if m.get("curAction") == ["PASS", "PASS", "PASS"])
    msgs[i]["curAction"] = action
    with pytest.raises(RecordError) as e:
        import_platform_log(text(msgs), lenient=True)
    assert e.value.line == i + 1 and str(e.value).startswith(f"line {i + 1}: curAction: ")
    msgs[i]["curAction"] = ["PASS", "PASS", "PASS"]
    assert import_platform_log(text(msgs))[0].moves == SEQ.moves


def test_the_object_form_of_a_play_is_read():
    msgs = log_of(SEQ)
    i = _play_line(msgs)
    typ, rank, cards = msgs[i]["curAction"]
    msgs[i]["curAction"] = {"type": typ, "rank": rank, "actions": cards}
    assert import_platform_log(text(msgs))[0].moves == SEQ.moves
    msgs[i]["curAction"] = {"type": typ, "rank": rank, "actions": cards, "greater": 1}
    with pytest.raises(RecordError, match="curAction: unknown key 'greater'"):
        import_platform_log(text(msgs))


@pytest.mark.parametrize("value", [None, 5, 2.5, {"type": "notify"}, object()])
def test_a_log_that_is_not_text_or_messages(value):
    """The loaders' convention for a wrong Python type: their ValueError
    subclass saying what is accepted (record.loads(None) is a GuandanError)."""
    with pytest.raises(RecordError, match="a platform log is its text .* not "
                       + type(value).__name__):
        import_platform_log(value)
    assert import_platform_log(text(log_of(SEQ)).encode()) == import_platform_log(log_of(SEQ))


def test_game_over_resets_the_previous_order():
    a = load(EXAMPLES / "record_club.txt")
    msgs = log_of(a) + [{"type": "notify", "stage": "gameOver", "curTimes": 1,
                         "settingTimes": 2}] + log_of(a)
    recs = import_platform_log(text(msgs))
    assert recs[1].previous is None


def _play_line(msgs):
    return next(i for i, m in enumerate(msgs) if m.get("stage") == "play" and m["type"] == "notify")


MUTATIONS = [
    (lambda m, i: m[i].__setitem__("curPos", None), "curPos"),
    (lambda m, i: m[i].__setitem__("curPos", [1]), "curPos"),
    (lambda m, i: m[i].__setitem__("curPos", math.nan), "curPos"),
    (lambda m, i: m[i].__setitem__("curPos", 7), "curPos: a seat is 0..3"),
    (lambda m, i: m[i].__setitem__("curPos", True), "curPos"),
    (lambda m, i: m[i].pop("curAction"), "curAction: missing"),
    (lambda m, i: m[i].__setitem__("curAction", ["Single"]), "curAction"),
    (lambda m, i: m[i].__setitem__("curAction", [None, None, None]), "curAction"),
    (lambda m, i: m[i].__setitem__("curAction", ["Single", "3", "S3"]), "curAction[2]"),
    (lambda m, i: m[i].__setitem__("curAction", ["Flush", "3", ["S3"]]), "unknown play type"),
    (lambda m, i: m[-1].__setitem__("order", "0 1 2 3"), "order"),
    (lambda m, i: m[-1].__setitem__("order", [0, 0, 1]), "order"),
    (lambda m, i: m[-1].__setitem__("restCards", [[1]]), "restCards[0]"),
    (lambda m, i: m[-1].__setitem__("restCards", [[1, "S3"]]), "restCards[0][1]"),
    (lambda m, i: m[-1].__setitem__("restCards", {"1": []}), "restCards"),
    (lambda m, i: m[-1].__setitem__("restCards", [[3, []], [3, []]]),
     "restCards[1][0]: seat 3 is listed twice"),
    (lambda m, i: m[-1].__setitem__("curRank", "Z"), "curRank"),
    (lambda m, i: m[-1].__setitem__("curRank", 99), "curRank"),
    (lambda m, i: m[-1].__setitem__("curRank", "B"), "curRank"),
    (lambda m, i: m[0].__setitem__("myPos", "0"), "myPos"),
    (lambda m, i: m[0].__setitem__("handCards", ["S3", "XX"]), "handCards[1]"),
    (lambda m, i: m.insert(1, {"type": "notify", "stage": "tribute", "result": [[0, 1]]}),
     "result[0]"),
    (lambda m, i: m.insert(1, {"type": "notify", "stage": "tribute", "result": [[0, 9, "S3"]]}),
     "result[0][1]"),
    (lambda m, i: m.insert(1, {"type": "notify", "stage": "back", "result": "x"}), "result"),
    (lambda m, i: m.insert(1, {"type": "notify", "stage": "anti-tribute", "antiPos": [5]}),
     "antiPos[0]"),
    (lambda m, i: m.insert(1, {"type": "notify", "stage": "what"}), "unknown stage"),
    (lambda m, i: m.insert(1, {"type": 3, "stage": "play"}), "type"),
    (lambda m, i: m.insert(1, [1, 2]), "a message is a JSON object"),
]


@pytest.mark.parametrize("mutate,needle", MUTATIONS)
def test_malformed_messages_name_line_and_field(mutate, needle):
    msgs = log_of(SEQ)
    i = _play_line(msgs)
    mutate(msgs, i)
    with pytest.raises(RecordError) as e:
        import_platform_log(text(msgs))
    assert needle in str(e.value)
    assert e.value.line is not None


def test_bad_json_names_the_line():
    with pytest.raises(RecordError) as e:
        import_platform_log('{"type": "notify"}\n{"type": ')
    assert e.value.line == 2
    with pytest.raises(RecordError):
        import_platform_log("[" * 100000)


_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 60) | st.floats()
                     | st.sampled_from(["S3", "PASS", "Single", "Bomb", "JOKER", "A", "-1", "x"]),
                     lambda c: st.lists(c, max_size=4) | st.dictionaries(
                         st.sampled_from(["curPos", "curAction", "order", "restCards", "result",
                                          "myPos", "handCards", "curRank", "antiPos"]), c,
                         max_size=4), max_leaves=12)


@given(st.data())
def test_fuzz_mutated_logs_only_raise_record_errors(data):
    msgs = log_of(SEQ)
    i = data.draw(st.integers(0, len(msgs) - 1))
    msg = msgs[i]
    key = data.draw(st.sampled_from(sorted(msg)))
    msg[key] = data.draw(_json)
    try:
        import_platform_log(text(msgs), lenient=data.draw(st.booleans()))
    except RecordError as e:
        assert str(e)


def _cli(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "guandan_fast.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_cli_lenient_lists_the_deviations(tmp_path):
    log = tmp_path / "bot.log"
    log.write_text(text(_level_card_returned_log()))
    strict = _cli("game", log, "--platform", "--views", "double", "--budget", "0.05", "-q")
    assert strict.returncode == 2 and "level rank" in strict.stderr
    assert len(strict.stderr.strip().splitlines()) == 1
    r = _cli("game", log, "--platform", "--lenient", "--views", "double", "--budget", "0.05",
             "-q", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 2
    assert "return 0 -> 3: S2" in json.dumps(lines[1]["notes"], ensure_ascii=False)


# a new interpreter each: with --slow (test_hardening.py checks serve's
# and bot's option errors in process)
@pytest.mark.parametrize("args,needle", slow_beyond([
    (["serve", "--rule", "colour=yes"], "--rule 'colour=yes'"),
    (["serve", "--games", "0"], "--games"),
    (["serve", "--port", "70000"], "--port"),
    (["bot", "http://127.0.0.1:1/game/x"], "ws://"),
    (["bot", "ws://127.0.0.1:23456/game/x", "--bot", "nobody"], "unknown bot"),
], 0))
def test_cli_serve_and_bot_reject_bad_options(args, needle):
    r = _cli(*args)
    assert r.returncode == 2 and needle in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_wild_flush_played_as_a_straight_names_the_lenient_import():
    # a 2020 server lists a one-suit run completed by the wild only as a
    # plain straight; RULES 5 with the platform's flag reads it as a straight
    # flush only: strict says so and names the lenient import, which reads it
    msgs = json.loads(json.dumps(log_of(SEQ)).replace('"D5"', '"C3"'))
    del msgs[0]["rules"]                  # a 2020 log: no flags, the platform's reading
    assert msgs[2]["curAction"][0] == "Straight" and "C3" in msgs[2]["curAction"][2]
    with pytest.raises(RecordError, match="as a 2020 server plays it: the lenient import"):
        import_platform_log(text(msgs))
    [rec] = import_platform_log(text(msgs), lenient=True)
    assert rec.moves[0].play.type == "straight"
