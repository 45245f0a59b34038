"""Deal records: round trips on the examples, and one rejection test per error."""

import json
from pathlib import Path

import pytest

from guandan_fast import RecordError
from guandan_fast.errors import shown
from guandan_fast.game.state import GameState
from guandan_fast.formats.record import dumps, load, loads
from guandan_fast.formats.record_json import dumps as dumps_json, loads as loads_json
from guandan_fast.game.record import final_state, replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORDS = sorted(p.name for p in EXAMPLES.glob("record_*.txt"))


def test_examples_are_there():
    assert {"record_club.txt", "record_tribute.txt", "record_endgame_short.txt"} <= set(RECORDS)


@pytest.mark.parametrize("name", RECORDS)
def test_round_trip_text_and_json(name):
    rec = load(EXAMPLES / name)
    text = dumps(rec)
    again = loads(text)
    assert again == rec
    assert dumps(again) == text                     # canonical text is a fixed point
    js = dumps_json(rec)
    assert loads_json(js) == rec
    assert dumps_json(loads_json(js)) == js
    assert loads(dumps(loads_json(js))) == rec      # text and JSON carry the same content
    data = json.loads(js)
    assert len(data["plays"]) == len(rec.moves)
    assert sum(len(h.split()) for h in data["hands"]) == sum(len(h) for h in rec.hands)


def test_club_deal_contents():
    rec = load(EXAMPLES / "record_club.txt")
    assert rec.tags["event"] == "Thursday club evening"
    assert rec.players == ["Anna", "Boris", "Chen", "Dmitri"]
    assert rec.rules.level == "2"
    assert [len(h) for h in rec.hands] == [27, 27, 27, 27]
    # seat 3's hand was typed rank-first in lower case, with 小王 for the small joker
    assert "SB" in map(str, rec.hands[3])
    # the '|' line holds four actions; the full house needed its reading
    assert [m.seat for m in rec.moves[:4]] == [0, 1, 2, 3] and rec.moves[3].is_pass
    fh = rec.moves[6].play
    assert (fh.type, fh.rank) == ("full_house", "3")
    assert "\n2: C3 D3 CT DT H2 full_house 3\n" in dumps(rec)
    assert final_state(rec).finished == (0, 2) and rec.result() == 3


def test_tribute_deal_contents():
    rec = load(EXAMPLES / "record_tribute.txt")
    assert rec.players[3] == "Сергей" and rec.previous == [0, 1, 2, 3]
    assert [(t.giver, t.receiver, str(t.card)) for t in rec.tributes] == [(3, 0, "S7")]
    assert [(t.giver, t.receiver, str(t.card)) for t in rec.returns] == [(0, 3, "S2")]
    after = rec.hands_after_tribute()
    assert "S7" in map(str, after[0]) and "S2" in map(str, after[3])
    assert rec.leader == 3
    assert rec.result() == 3


def test_replay_yields_the_state_before_each_decision():
    rec = load(EXAMPLES / "record_endgame_short.txt")
    steps = list(replay(rec))
    assert len(steps) == len(rec.moves) == 26
    first = steps[0].state
    assert isinstance(first, GameState) and first.turn == 0 and first.table is None
    assert [str(c) for c in first.cards(0)] == ["S3", "C5", "SK"]
    # after C5, CQ and two passes, seat 0 decides over the standing CQ
    s4 = steps[4].state
    assert s4.turn == 0 and str(s4.table) == "CQ" and s4.owner == 1 and s4.passes == 2
    assert all(st.state.turn == st.move.seat for st in steps)
    end = final_state(rec)
    assert end.over and end.finished == (3, 2, 0) and end.result() == -1


def test_notation_aliases_give_the_same_record():
    a = loads("level: 2\npartial: yes\nhands:\n0: S3 HT\n1: SA\n2: S4 SB\n3: S5\nplay:\n0: S3\n1: SA")
    b = loads("уровень: 2\nнеполная: да\nhands:\n0: 3♠ 10h\n1: Т♠\n2: 黑桃4 小王\n3: ♠5\nplay:\n"
              "0: ♠3  # comment\n1: Тпики")
    assert a == b
    assert dumps(a) == dumps(b)


def test_canonical_text_exactly():
    text = ("event: t\nlevel: 2\nplayers: A, B, C, D\npartial: yes\n\nhands:\n0: H2 H2 S3 D3 S4 D4\n"
            "1: S5 S5 S6 S6 S7 S7\n2: SA\n3: DA\n\nplay:\n0: S3 D3 S4 D4 H2 H2 tube 5\n"
            "1: S5 S5 S6 S6 S7 S7\n")
    rec = loads(text)
    assert dumps(rec) == text
    assert (rec.moves[0].play.type, rec.moves[0].play.rank) == ("tube", "5")
    plate = loads(text.replace("tube 5\n1: S5 S5 S6 S6 S7 S7", "plate\n1: pass"))
    assert (plate.moves[0].play.type, plate.moves[0].play.rank) == ("plate", "4")
    assert "H2 plate\n" in dumps(plate)


def test_reading_only_where_needed_in_context():
    # a same-suit run over a standing pair can only be the straight flush
    rec = loads("level: 3\npartial: yes\nhands:\n0: S4 S4\n1: S9 ST SJ SQ SK\n2: SA\n3: DA\n"
                "play:\n0: S4 S4\n1: S9 ST SJ SQ SK")
    assert rec.moves[1].play.type == "straight_flush"
    assert "1: S9 ST SJ SQ SK\n" in dumps(rec)


BASE = """level: 2
partial: yes
hands:
0: S3 S4 S4
1: S5 S6
2: S7 D7 S8
3: S9 ST
play:
0: S3
1: S5
"""


@pytest.mark.parametrize("text,line,needle", [
    (BASE.replace("0: S3 S4 S4", "0: S3 S4 X9"), 4, "unknown card token 'X9'"),
    (BASE.replace("1: S5\n", "1: S9\n"), 10, "seat 1 does not hold S9"),
    (BASE + "2: S7 D7\n", 11, "seat 2: S7 D7: pair 7 does not beat the standing single 5 (S5)"),
    (BASE + "3: S9\n", 11, "turn out of order: seat 2 is to act, not seat 3"),
    (BASE.replace("0: S3\n1: S5\n", "0: pass\n"), 9, "seat 0: a pass on a free lead"),
    (BASE.replace("0: S3\n", "0: S3 S4\n"), 9, "seat 0: S3 S4 is not a valid play"),
    (BASE.replace("1: S5\n", "1: S5 bomb\n"), 10, "S5 cannot be read as bomb; its readings: single 5"),
    (BASE.replace("2: S7 D7 S8", "2: S3 S3 S8"), 6, "the three of spades (S3) appears 3 times across the hands, typed 'S3' (line 4, seat 0)"),
    (BASE.replace("3: S9 ST\n", ""), None, "no hand for seat 3"),
    (BASE.replace("0: S3 S4 S4", "0: S3 S4 S4\n0: S5"), 5, "a second hand for seat 0"),
    (BASE.replace("1: S5\n", "7: S5\n"), 10, "unknown seat '7'"),
    (BASE.replace("level: 2", "level: 1"), 1, "invalid level"),
    (BASE.replace("level: 2", "level 2"), 1, "expected a 'key: value' tag"),
    (BASE.replace("0: S3 S4 S4", "0: " + "S3 " * 2 + "D3 " * 2 + " ".join(
        f"{s}{r}" for s in "SHCD" for r in "56789T")), 4, "more than 27 cards"),
])
def test_rejections_name_the_line_and_reason(text, line, needle):
    with pytest.raises(RecordError) as e:
        loads(text)
    assert needle in str(e.value)
    assert e.value.line == line
    if line is not None:
        assert str(e.value).startswith(f"line {line}: ")
    assert isinstance(e.value, ValueError)


def test_a_full_deal_with_a_card_missing():
    text = (EXAMPLES / "record_club.txt").read_text(encoding="utf-8")
    text = text.replace("1: D2 D3 S4", "1: D3 S4", 1)
    with pytest.raises(RecordError) as e:
        loads(text)
    assert e.value.line == 12
    assert "seat 1 holds 26 cards: in a full deal (another hand has 27) every hand has 27" in str(e.value)


def test_ambiguous_play_needs_a_reading():
    text = "level: 2\nhands:\n0: S3 D3 S4 D4 H2 H2\n1: SA\n2: SK\n3: DA\nplay:\n0: S3 D3 S4 D4 H2 H2\n"
    with pytest.raises(RecordError) as e:
        loads(text)
    assert str(e.value) == ("line 8: seat 0: S3 D3 S4 D4 H2 H2 is ambiguous: write the reading, "
                            "one of tube 4, tube 5, plate 4")
    assert e.value.line == 8
    assert "plate 4" in str(e.value) and "tube 5" in str(e.value)


def test_action_after_the_deal_ended():
    text = ("level: 2\nhands:\n0: S3\n1: S9 S4\n2: SA\n3: S5\nplay:\n"
            "0: S3\n1: S9\n2: SA\n3: S5\n")
    with pytest.raises(RecordError) as e:
        loads(text)
    assert e.value.line == 11
    assert "an action after the deal ended (finishing order 0 2)" in str(e.value)


TRIB = """level: 2
partial: yes
previous: 0 1 2 3
hands:
0: S3 S4 S4
1: S5 S6
2: S7 D7 S8
3: S9 ST SA H2
tribute:
3 -> 0: SA
return:
0 -> 3: S4
play:
3: S9
"""


def test_tribute_record_is_accepted():
    rec = loads(TRIB)
    assert [str(t.card) for t in rec.tributes] == ["SA"]
    assert [str(c) for c in rec.hands_after_tribute()[3]] == ["H2", "S4", "S9", "ST"]


@pytest.mark.parametrize("old,new,line,needle", [
    ("3 -> 0: SA", "3 -> 0: ST", 10, "ST is not the highest card; the tribute must be SA"),
    ("3 -> 0: SA", "3 -> 0: H2", 10, "H2 is a wild and can never be given as tribute"),
    ("0 -> 3: S4", "0 -> 3: SA", 12, "the return must be 2..10 and not the level rank"),
    ("3 -> 0: SA", "3 -> 2: SA", 12, "seat 0 received no tribute from seat 3"),
    ("3 -> 0: SA\nreturn:\n0 -> 3: S4", "2 -> 0: S8\nreturn:\n0 -> 2: S3", 3,
     "with finishing order 0 1 2 3 the tribute is paid by seat 3"),
    ("3 -> 0: SA", "3 -> 0: DA", 10, "seat 3 does not hold DA"),
    ("3: S9\n", "0: S3\n", 14, "after the tribute seat 3 leads (RULES 7), not seat 0"),
    ("return:\n0 -> 3: S4\n", "", 10, "the tribute has no return"),
    ("previous: 0 1 2 3", "previous: 2 1 0 3", 3, "with finishing order 2 1 0 3: seat 3 pays seat 2"),
    ("previous: 0 1 2 3", "previous: 0 2 1 3", 3, "the tribute is paid by seats 1 and 3"),
    ("3 -> 0: SA\nreturn:\n0 -> 3: S4\n", "\n", 3, "the tribute is paid by seat 3"),
    ("tribute:\n3 -> 0: SA\nreturn:\n0 -> 3: S4\n", "tribute: anti\n", 3,
     "anti-tribute needs both big jokers"),
    ("tribute:", "tribute: maybe", 9, "after 'tribute:' only 'anti' may follow"),
    ("3 -> 0: SA", "3 0 SA", 10, "a tribute line is 'giver -> receiver: card'"),
])
def test_tribute_rejections(old, new, line, needle):
    text = TRIB.replace(old, new)
    assert text != TRIB
    with pytest.raises(RecordError) as e:
        loads(text)
    assert needle in str(e.value)
    assert e.value.line == line


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["plays"].__setitem__(1, {"seat": 1, "cards": ["S9"]}), "plays[1]: seat 1 does not hold S9"),
    (lambda d: d.__setitem__("hands", d["hands"][:3]), "hands: a list of four hands"),
    (lambda d: d["plays"].append({"seat": 3}), "plays[2]: no cards and no pass"),
    (lambda d: d.__setitem__("rules", {"colour": True}), "rules.colour"),
])
def test_json_rejections(mutate, needle):
    data = json.loads(dumps_json(loads(BASE)))
    mutate(data)
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps(data))
    assert needle in str(e.value)


# the reviewer's reproducers: a key, a value or a reading the loader used to skip or guess
TINY = {"level": "2", "hands": ["S3", "S4 S9", "SA", "S5"]}


@pytest.mark.parametrize("extra,field,needle", [
    ({"play": [{"seat": 0, "cards": "S3"}]}, "play", "unknown key"),        # "plays" misspelt
    ({"bogus": 1}, "bogus", "unknown key"),
    ({"version": 99}, "version", "version 99 is not supported"),
    ({"version": "1"}, "version", "not supported"),
    ({"version": True}, "version", "not supported"),
    ({"version": 1.5}, "version", "not supported"),
    ({"plays": [{"seat": 0, "cards": "S3"}, {"seat": 1, "pass": "no"}]}, "plays[1].pass",
     'a pass is "pass": true, not "no"'),
    ({"plays": [{"seat": 0, "cards": "S3"}, {"seat": 1, "pass": False, "cards": "S9"}]},
     "plays[1].pass", "not false"),
    ({"plays": [{"seat": 0, "cards": "S3"}, {"seat": 1, "pass": 1}]}, "plays[1].pass", "not 1"),
    ({"plays": [{"seat": 0, "cards": "S3"}, {"seat": 1, "pass": True, "cards": "S9"}]},
     "plays[1]", "a pass has no cards"),
    ({"plays": [{"seat": 0, "cards": "S3"}, {"seat": 1, "pass": True, "type": "single"}]},
     "plays[1]", "a pass has no type"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": "single", "rank": "Z"}]}, "plays[0].rank",
     "unknown play rank 'Z'"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": "single", "rank": None}]}, "plays[0].rank",
     "a rank is text, not null"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": "singel"}]}, "plays[0].type",
     "unknown play type 'singel'"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": ""}]}, "plays[0].type", "unknown play type"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": None}]}, "plays[0].type", "not null"),
    ({"plays": [{"seat": 0, "cards": "S3", "rank": "3"}]}, "plays[0].rank", "with its type"),
    # a reading that does not agree with the cards: the text form's check (_choose)
    ({"plays": [{"seat": 0, "cards": "S3", "type": "pair"}]}, "plays[0]",
     "S3 cannot be read as pair; its readings: single 3"),
    ({"plays": [{"seat": 0, "cards": "S3", "type": "single", "rank": "4"}]}, "plays[0]",
     "S3 cannot be read as single 4"),
    ({"plays": [{"seat": 0, "cards": "S3", "typ": "single"}]}, "plays[0].typ", "unknown key"),
    ({"previous": [0, 1, 2, 3], "tribute": [{"from": 3, "to": 0, "card": "S5", "x": 1}]},
     "tribute[0].x", "unknown key: a tribute has the keys from, to, card"),
    ({"return": [{"from": 3, "to": 0, "card": "S5", "note": ""}]}, "return[0].note",
     "unknown key"),
    ({"tribute": "ANTI"}, "tribute", "a list of tributes"),
    ({"tribute": False}, "tribute", "a list of tributes"),
    ({"plays": 0}, "plays", "a list of actions"),
    ({"tags": []}, "tags", "an object"),
    ({"tags": {"event": ["x"]}}, "tags.event", 'a tag\'s value is text, not ["x"]'),
    ({"tags": {"event": True}}, "tags.event", "not true"),
    ({"tags": {"event": "a # b"}}, "tags.event", "without '#'"),
    ({"tags": {"event": "a\nb"}}, "tags.event", "one line"),
    ({"tags": {"level": "9"}}, "tags.level", "names a setting"),
    ({"tags": {"Event": "a", "event": "b"}}, "tags.event", "given twice"),
    ({"rules": 0}, "rules", "an object"),
    ({"level": None}, "level", "the level is text, not null"),
    ({"format": "guandan-deal"}, "format", "not a deal record"),
])
def test_json_unknown_keys_and_bad_values(extra, field, needle):
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps({**TINY, **extra}))
    assert str(e.value).startswith(field + ": ") and needle in str(e.value), str(e.value)


def test_json_duplicates_across_hands_name_their_keys():
    # a card three times across the hands: a RecordError naming the keys
    # (found by the fuzz suite: the text form's line numbers were assumed)
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps({"level": "2", "hands": ["S3 S3", "S4", "S3", "S5"]}))
    assert str(e.value) == ("hands[2]: the three of spades (S3) appears 3 times across the "
                            "hands, typed 'S3' (hands[0], seat 0), 'S3' (hands[0], seat 0), "
                            "'S3' (hands[2], seat 2); a deal has two")


def test_json_readings_and_passes_that_are_right_load():
    plays = [{"seat": 0, "cards": "S3", "type": "single", "rank": "3"},
             {"seat": 1, "cards": ["S9"], "type": "单张"}, {"seat": 2, "pass": True},
             {"seat": 3, "pass": True},           # seat 0 is out: seat 1 leads again
             {"seat": 1, "cards": "S4", "type": "Single", "rank": 4}]
    rec = loads_json(json.dumps({**TINY, "version": 1, "tags": {"table": 3}, "plays": plays,
                                 "partial": True}))
    assert [str(m) for m in rec.moves] == ["0: S3", "1: S9", "2: pass", "3: pass", "1: S4"]
    assert rec.tags == {"table": "3"}


def test_json_round_trip_of_every_key_to_json_writes():
    rec = loads("table: 3\nlevel: 2\nflush_is_always_bomb: yes\nplayers: Ann, Bo, Cy, Di\npartial: yes\n"
                "previous: 0 1 2 3\nhands:\n0: S3 S8\n1: S4 S9\n2: S5 ST\n3: HR HR S6\n"
                "tribute: anti\nplay:\n0: S3 | Bo: S4 | 2: S5 | 3: pass | 0: pass | 1: pass\n"
                "2: ST\n")
    data = json.loads(dumps_json(rec))
    assert set(data) == {"format", "version", "tags", "level", "rules", "players", "previous",
                         "hands", "tribute", "return", "plays", "partial"}
    assert loads_json(dumps_json(rec)) == rec and loads_json(dumps_json(rec, indent=None)) == rec
    for name in RECORDS:
        rec = load(EXAMPLES / name)
        assert loads_json(dumps_json(rec)) == rec
        assert loads(dumps(loads_json(dumps_json(rec)))) == rec


def test_json_syntax_error_names_the_line():
    with pytest.raises(RecordError) as e:
        loads_json('{\n "hands": [,]\n}')
    assert e.value.line == 2 and "not valid JSON" in str(e.value)


def test_player_names_with_spaces_and_seats_without_colon():
    text = ("players: Anna K, Boris, Chen Li, Dmitri\nhands:\nAnna K: S3\nBoris: S9 S4\n"
            "chen li: SA\n3: S5\nplay:\nAnna K: S3\n1 S9\nChen Li: SA\n")
    rec = loads(text)
    assert [m.seat for m in rec.moves] == [0, 1, 2] and rec.result() == 3
    assert "players: Anna K, Boris, Chen Li, Dmitri\n" in dumps(rec)


def test_json_accepts_card_lists_and_one_line_form():
    rec = loads(BASE)
    data = json.loads(dumps_json(rec, indent=None))
    assert data["hands"][0] == "S3 S4 S4" and data["plays"][0] == {
        "seat": 0, "cards": "S3", "type": "single", "rank": "3"}
    data["hands"] = [h.split() for h in data["hands"]]
    data["plays"][1] = {"seat": 1, "cards": ["S5"]}          # no reading: not needed
    assert loads_json(json.dumps(data)) == rec


def test_partner_last_pays_the_first_finisher():
    # RULES §7: single down also when the last finisher is the first's partner
    text = TRIB.replace("previous: 0 1 2 3", "previous: 0 1 3 2").replace(
        "3 -> 0: SA\nreturn:\n0 -> 3: S4", "2 -> 0: S8\nreturn:\n0 -> 2: S4").replace(
        "play:\n3: S9", "play:\n2: S7")
    rec = loads(text)
    assert [(t.giver, t.receiver, str(t.card)) for t in rec.tributes] == [(2, 0, "S8")]
    with pytest.raises(RecordError, match="the tribute is paid by seat 3|cannot pay tribute to its partner"):
        loads(text.replace("previous: 0 1 3 2", "previous: 0 1 2 3"))


def test_an_unknown_seat_label_is_quoted_short():
    from guandan_fast.errors import RecordError
    text = "hands:\n0: S3\n1: S9 S4\n2: SA\n3: S5\nplay:\n" + "x" * 100000 + ": S3\n"
    with pytest.raises(RecordError, match="unknown seat") as e:
        loads(text)
    assert len(str(e.value)) < 200


# -- every error listed, the right line, the seat's name, cut-short records --------

NAMED = """level: 2
players: Anna, Boris, Chen, Dmitri
partial: yes
hands:
0: S3 S4 S4
1: S5 S6
2: S7 D7 S8
3: S9 ST
play:
0: S3
1: S5
"""


def test_every_error_of_a_record_is_listed_with_its_line_and_the_seats_name():
    text = NAMED.replace("0: S3 S4 S4", "0: S3 S4 X9").replace("2: S7 D7 S8", "2: S7 D7 大猫") \
        .replace("1: S5\n", "1: S5 Q\n")
    with pytest.raises(RecordError) as e:
        loads(text)
    lines = str(e.value).splitlines()
    assert lines[0] == "3 errors in the record:"
    assert lines[1] == "line 5 (Anna): unknown card token 'X9' (token 3)"
    assert lines[2] == "line 7 (Chen): unknown card token '大猫' (token 3)"
    assert lines[3] == "line 11 (Boris): unknown card token 'Q' (token 2)"
    assert [x.line for x in e.value.errors] == [5, 7, 11]
    assert [x.seat for x in e.value.errors] == [0, 2, 1]
    assert e.value.line == 5 and isinstance(e.value, ValueError)


def test_the_errors_are_capped():
    from guandan_fast.errors import MAX_RECORD_ERRORS
    text = "level: 2\npartial: yes\nhands:\n" + "".join(f"0: S{k}\n" for k in range(3, 10)) \
        + "play:\n" + "9: S3\n" * 40
    with pytest.raises(RecordError) as e:
        loads(text)
    assert len(e.value.errors) == MAX_RECORD_ERRORS and e.value.more
    assert str(e.value).startswith(f"{MAX_RECORD_ERRORS} errors in the record (the first "
                                   f"{MAX_RECORD_ERRORS}; more not listed):")


def test_a_wrong_reading_is_reported_on_its_own_line():
    # line 21 reads the full house as tens over threes: the next play (line 22) then
    # fails, but the mistake is line 21's
    text = (EXAMPLES / "record_club.txt").read_text(encoding="utf-8")
    assert text.splitlines()[20] == "2: D3 C3 DT CT H2 full_house 3"
    bad = text.replace("full_house 3", "full_house 10")
    with pytest.raises(RecordError) as e:
        loads(bad)
    assert e.value.line == 21
    assert str(e.value) == ("line 21 (Chen): seat 2: D3 C3 DT CT H2 read as 'full_house 10' makes "
                            "the action of line 22 illegal; read as full_house 3 it is legal: "
                            "check the reading")


def test_a_reading_that_the_next_play_does_not_explain_stays_on_the_next_line():
    # the next play fails whatever the reading: it is the next line's error
    text = (EXAMPLES / "record_club.txt").read_text(encoding="utf-8")
    bad = text.replace("3: D4 C4 S3 H3 H2", "3: D4 C4 S3 H3 SA")
    with pytest.raises(RecordError) as e:
        loads(bad)
    assert e.value.line == 22 and "line 22 (Dmitri):" in str(e.value)


def test_a_record_cut_short_is_an_error_naming_the_last_line():
    text = (EXAMPLES / "record_club.txt").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    cut = "\n".join(lines[:30]) + "\n"
    with pytest.raises(RecordError) as e:
        loads(cut)
    assert e.value.line == 30
    assert str(e.value).startswith("line 30 (Dmitri): the record stops here, before the end of "
                                   "the deal (seats 0 1 2 3 still hold cards)")
    assert "'partial: yes'" in str(e.value)
    rec = loads(cut.replace("players:", "partial: yes\nplayers:"))
    assert rec.result() is None and len(rec.moves) == 16
    assert "partial: yes\n" in dumps(rec) and loads(dumps(rec)) == rec
    assert "partial: yes" not in dumps(loads(text))          # a finished deal: no marker
    js = dumps_json(rec)
    assert json.loads(js)["partial"] is True and loads_json(js) == rec
    data = json.loads(js)
    del data["partial"]
    with pytest.raises(RecordError, match=r'plays\[15\]: the record stops here.*"partial": true'):
        loads_json(json.dumps(data))
    with pytest.raises(RecordError, match="partial: true or false"):
        loads_json(json.dumps({**data, "partial": "yes"}))
    with pytest.raises(RecordError, match="partial must be yes or no"):
        loads(cut.replace("players:", "partial: maybe\nplayers:"))


def test_duplicates_across_hands_repeat_the_tokens_as_typed():
    text = NAMED.replace("0: S3 S4 S4", "0: Т♠ S4 S4").replace("2: S7 D7 S8", "2: S7 SA SТ")
    with pytest.raises(RecordError) as e:
        loads(text)
    assert str(e.value) == ("line 7 (Chen): the ace of spades (SA) appears 3 times across the "
                            "hands, typed 'Т♠' (line 5, seat 0), 'SA' (line 7, seat 2), 'SТ' "
                            "(line 7, seat 2); a deal has two")


@pytest.mark.parametrize("word", ["pas", "PASS", "пас", "Пас", "过", "不出", "ｐａｓｓ"])
def test_pass_words(word):
    rec = loads(NAMED + f"2: {word}\n")
    assert rec.moves[-1].play is None


def test_chinese_separators_and_full_width_in_a_record():
    text = NAMED.replace("0: S3 S4 S4", "0: ♠3，♠4、♠4").replace("1: S5\n", "1: ５♠\n")
    assert loads(text) == loads(NAMED)


def test_look_alike_warnings_are_kept_on_the_record():
    rec = loads(NAMED.replace("3: S9 ST", "3: S9 Tпики").replace("0: S3\n", "0: С3\n")
                .replace("0: S3 S4 S4", "0: S3 S4 S4 C3"))
    assert rec.warnings == [
        "line 8 (Dmitri): 'Tпики' (token 2) mixes Latin letters (T) and Cyrillic letters "
        "(пики): read as ST, the ten of spades (Cyrillic Т is туз, the ace; Latin T is the "
        "ten)",
        "line 10 (Anna): 'С3' (token 1) writes Cyrillic С for Latin C: read as C3, the three "
        "of clubs"]
    assert loads(NAMED.replace("0: S3 S4 S4", "0: S3 S4 S4 C3")).warnings == []


def test_a_reading_error_repeats_the_reading_as_typed():
    text = ("level: 2\npartial: yes\nhands:\n0: S3 D3 S4 D4 H2 H2\n1: SA\n2: SK\n3: DA\nplay:\n"
            "0: S3 D3 S4 D4 H2 H2 tube 10\n")
    with pytest.raises(RecordError, match="cannot be read as tube 10; its readings: tube 4, "
                                          "tube 5, plate 4"):
        loads(text)


def test_a_look_alike_in_the_json_form_is_warned_of():
    from guandan_fast.errors import NotationWarning
    data = json.loads(dumps_json(loads(BASE)))
    data["hands"][3] = "S9 Tпики"
    with pytest.warns(NotationWarning, match=r"hands\[3\]: 'Tпики' \(token 2\) mixes"):
        assert loads_json(json.dumps(data)) == loads(BASE)


def test_a_look_alike_on_a_later_line_of_a_json_hand_names_its_key():
    # a JSON value has no line of the file: the key is the place, as for an error there
    from guandan_fast.errors import NotationWarning
    data = json.loads(dumps_json(loads(BASE)))
    data["hands"][3] = "S9\nTпики"
    with pytest.warns(NotationWarning, match=r"^hands\[3\]: 'Tпики' \(line 2, token 1\) mixes"):
        assert loads_json(json.dumps(data)) == loads(BASE)
    data["hands"][3] = "S9\nZ9"
    with pytest.raises(RecordError, match=r"hands\[3\]"):
        loads_json(json.dumps(data))


def test_play_errors_repeat_the_cards_as_typed():
    with pytest.raises(RecordError, match=r"line 10: seat 1 does not hold S9 \(typed '9♠'\)"):
        loads(BASE.replace("1: S5\n", "1: 9♠\n"))
    with pytest.raises(RecordError, match=r"line 9: seat 0: 3♠ 4♠ \(S3 S4\) is not a valid play"):
        loads(BASE.replace("0: S3\n", "0: 3♠ 4♠\n"))


def test_json_errors_repeat_the_cards_as_typed():
    # the JSON form's errors name the cards as the text form's do
    data = json.loads(dumps_json(loads(BASE)))
    i = next(k for k, p in enumerate(data["plays"]) if p.get("cards") == "S5")
    data["plays"][i].pop("type", None)
    data["plays"][i].pop("rank", None)
    for typed in ("9♠", ["9♠"]):
        data["plays"][i]["cards"] = typed
        with pytest.raises(RecordError) as e:
            loads_json(json.dumps(data))
        assert str(e.value) == f"plays[{i}]: seat 1 does not hold S9 (typed '9♠')"
    data["plays"][i]["cards"] = "S9"
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps(data))
    assert str(e.value) == f"plays[{i}]: seat 1 does not hold S9"
    data = json.loads(dumps_json(loads(TRIB)))
    data["tribute"][0]["card"] = "A♦"
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps(data))
    assert str(e.value) == "tribute[0]: seat 3 does not hold DA (typed 'A♦')"
    data["tribute"][0]["card"] = "10♠"
    with pytest.raises(RecordError) as e:
        loads_json(json.dumps(data))
    assert str(e.value).startswith("tribute[0]: tribute from seat 3: ST is not the highest")
    assert str(e.value).endswith(" (typed '10♠')")


def test_tribute_and_return_errors_repeat_the_card_as_typed():
    # the same note as a play line's: the card canonically, then the token as typed
    with pytest.raises(RecordError) as e:
        loads(TRIB.replace("3 -> 0: SA", "3 -> 0: A♦"))
    assert str(e.value) == "line 10: seat 3 does not hold DA (typed 'A♦')"
    with pytest.raises(RecordError) as e:
        loads(TRIB.replace("3 -> 0: SA", "3 -> 0: 10♠"))
    assert str(e.value).startswith("line 10: tribute from seat 3: ST is not the highest card")
    assert str(e.value).endswith(" (typed '10♠')")
    with pytest.raises(RecordError) as e:
        loads(TRIB.replace("0 -> 3: S4", "0 -> 3: 4♣"))
    assert str(e.value) == "line 12: seat 0 does not hold C4 (typed '4♣')"
    with pytest.raises(RecordError) as e:      # typed canonically: no note
        loads(TRIB.replace("3 -> 0: SA", "3 -> 0: DA"))
    assert str(e.value) == "line 10: seat 3 does not hold DA"


def test_the_play_is_checked_up_to_the_first_line_lost_to_an_error():
    # line 12's play is illegal, line 13 has an unknown token: both are reported;
    # an error in the header does not stop the play's checks either
    text = NAMED.replace("1: S5\n", "1: S9\n") + "2: XX\n"
    text = text.replace("partial: yes", "partial: yes\nlevel 3")
    with pytest.raises(RecordError) as e:
        loads(text)
    assert [x.line for x in e.value.errors] == [4, 12, 13]
    assert "seat 1 does not hold S9" in e.value.errors[1].reason
    assert e.value.errors[2].reason == "unknown card token 'XX' (token 1)"
    # the illegal action after the lost line is not checked (it depends on it)
    text = NAMED.replace("0: S3\n", "0: XX\n")
    with pytest.raises(RecordError) as e:
        loads(text)
    assert len(e.value.errors) == 1 and e.value.line == 10


SHORT_TEXT = (EXAMPLES / "record_endgame_short.txt").read_text(encoding="utf-8")
TRIBUTE_TEXT = (EXAMPLES / "record_tribute.txt").read_text(encoding="utf-8")


def _line_of(text, line):
    return text.splitlines().index(line) + 1


@pytest.mark.parametrize("text,header,bad,hint", [
    (SHORT_TEXT, "play:", "plya:", " (did you mean play:?)"),
    (SHORT_TEXT, "play:", "PLYA:", " (did you mean play:?)"),      # keys are read in lower case
    (TRIBUTE_TEXT, "return:", "retrun:", " (did you mean return:?)"),
    (TRIBUTE_TEXT, "play:", "moves:", ""),
])
def test_a_misspelled_section_header_is_one_error_naming_it(text, header, bad, hint):
    line = _line_of(text, header)
    with pytest.raises(RecordError) as e:
        loads(text.replace(f"\n{header}\n", f"\n{bad}\n", 1))
    assert str(e.value) == (f"line {line}: {bad.lower()!r} is not a known section: the sections "
                            f"are hands:, tribute:, return:, play:{hint}; the record is read "
                            "no further")
    assert e.value.errors == [e.value]        # no error of the lines read after it


def test_a_bad_section_header_keeps_the_independent_errors_before_it():
    text = SHORT_TEXT.replace("1: D4 CQ SK", "1: D4 CQ X9").replace("\nplay:\n", "\nplya:\n")
    with pytest.raises(RecordError) as e:
        loads(text)
    reasons = [x.reason for x in e.value.errors]
    assert len(reasons) == 2
    assert "unknown card token 'X9'" in reasons[0]
    assert reasons[1].startswith("'plya:' is not a known section")


def test_an_empty_tag_not_like_a_section_is_still_a_tag():
    rec = loads(SHORT_TEXT.replace("deal: puzzle 3", "place:"))
    assert rec.tags["place"] == ""


@pytest.mark.parametrize("text", [SHORT_TEXT, TRIBUTE_TEXT])
def test_hand_lines_without_the_hands_header_name_the_line(text):
    line = _line_of(text, "hands:")            # the first hand line is there once it is gone
    first = text.splitlines()[line]
    with pytest.raises(RecordError) as e:
        loads(text.replace("\nhands:\n", "\n\n", 1))
    assert e.value.errors == [e.value]
    assert e.value.line == line + 1
    assert f"a hand line ({shown(first.split('#')[0].strip())!r}) before any section" in str(e.value)
    assert f"the 'hands:' header is missing before line {line + 1}" in str(e.value)


def test_a_hand_line_named_by_its_player_without_the_hands_header():
    text = SHORT_TEXT.replace("\nhands:\n0: S3", "\nAnna: S3", 1)
    with pytest.raises(RecordError) as e:
        loads(text)
    assert e.value.line == _line_of(text, "Anna: S3 C5 SK")
    assert "the 'hands:' header is missing" in str(e.value)


def test_the_play_without_its_header_is_one_error_not_a_hand_per_action():
    line = _line_of(SHORT_TEXT, "play:")
    first = _line_of(SHORT_TEXT, "hands:") + 1
    with pytest.raises(RecordError) as e:
        loads(SHORT_TEXT.replace("\nplay:\n", "\n\n", 1))
    assert e.value.errors == [e.value]
    assert str(e.value) == (
        f"line {line + 1} (Anna): a second hand for seat 0 after all four hands (lines "
        f"{', '.join(str(first + s) for s in range(4))}): if the play starts here, the "
        f"'play:' header is missing before line {line + 1}; the record is read no further")


@pytest.mark.parametrize("tag", ["player", "hand", "returns"])
def test_an_empty_header_tag_close_to_a_section_name_is_still_a_tag(tag):
    # before the first section a 'word:' alone is an empty tag, whatever its
    # name; dumps writes such a tag and loads reads it back
    text = Path(EXAMPLES, "record_endgame_short.txt").read_text(encoding="utf-8")
    first = text.splitlines()[0]
    rec = loads(text.replace(first, first + "\n" + tag + ":", 1))
    assert rec.tags[tag] == "" and len(rec.moves) == len(loads(text).moves)
    assert loads(dumps(rec)).tags[tag] == ""


def test_a_misspelled_hands_header_is_named_by_the_hand_line_after_it():
    # in the header 'hnads:' alone is an empty tag; the hand line after it
    # says the hands: header is missing and names the near miss
    line = _line_of(SHORT_TEXT, "hands:")
    with pytest.raises(RecordError) as e:
        loads(SHORT_TEXT.replace("\nhands:\n", "\nhnads:\n", 1))
    assert str(e.value).startswith(f"line {line + 1}")
    assert (f"the 'hands:' header is missing before line {line + 1} (line {line}: 'hnads:' "
            "is no section: did you mean hands:?)") in str(e.value)


def test_a_transfer_line_without_its_header_says_the_header_is_missing():
    """A 'giver -> receiver: card' line read among the hands (the
    'tribute:' header left out) is named as such, not as an unknown seat
    '3 -> 0'."""
    line = _line_of(TRIBUTE_TEXT, "tribute:")
    first = TRIBUTE_TEXT.splitlines()[line]
    with pytest.raises(RecordError) as e:
        loads(TRIBUTE_TEXT.replace("\ntribute:\n", "\n\n", 1))
    assert e.value.line == line + 1
    assert f"{shown(first.split('#')[0].strip())!r} is a tribute or return line" in str(e.value)
    assert f"the 'tribute:' or 'return:' header is missing before line {line + 1}" \
        in str(e.value)
    assert "unknown seat" not in str(e.value)


def test_several_errors_are_listed_in_line_order_a_setting_given_twice_too():
    text = BASE.replace("level: 2\n", "level: 2\nlevel: 3\n", 1).replace("1: S5\n", "1: 9♠\n")
    with pytest.raises(RecordError) as e:
        loads(text)
    lines = [x.line for x in e.value.errors]
    assert len(lines) >= 2 and None not in lines and lines == sorted(lines), str(e.value)
    assert "'level' given twice" in str(e.value.errors[0])


def test_the_writers_refuse_what_their_loaders_would_refuse():
    from guandan_fast import Card
    from guandan_fast.errors import DealError
    from guandan_fast.game.record import Record
    bad = Record(hands=[[Card("S3")] * 3, [Card("S4")], [Card("S5")], [Card("S6")]])
    for write in (dumps, dumps_json):
        with pytest.raises(DealError, match="third copy"):
            write(bad)
        with pytest.raises(RecordError, match="a Record"):
            write(None)
