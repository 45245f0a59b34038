"""One test per class of bad input. Each CLI case checks the exit
status (2), that stderr is one line, and that the message names the token,
line, key or option; each library case checks the error class and message.
"""

import json
import os
import signal
import subprocess
import sys
import time
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import guandan_fast as gd
from guandan_fast import _core
from guandan_fast.errors import (EncodingError, GuandanError, HandError, LimitError,
                                 PositionError, RecordError, RulesError)
from guandan_fast.formats import deal, hand, position, record, record_json
from guandan_fast.platform import log as platform_log
from guandan_fast.game.state import GameState
from guandan_fast.game.tribute import return_candidates, tribute_candidates, tribute_plan

from cli.main import main as cli_main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENDGAME = (EXAMPLES / "endgame1.txt").read_text(encoding="utf-8")
HAND = (EXAMPLES / "hand1.txt").read_text(encoding="utf-8")
RECORD = (EXAMPLES / "record_tribute.txt").read_text(encoding="utf-8")


def cli(*args, stdin=None, files=None, tmp_path=None):
    """(exit status, stdout, stderr) of gd-analyze run in this process."""
    argv = []
    for a in args:
        if files and a in files:
            p = tmp_path / a
            data = files[a]
            p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
            a = str(p)
        argv.append(a)
    r = CliRunner().invoke(cli_main, argv, input=stdin)
    return r.exit_code, r.stdout, r.stderr


def bad(needles, *args, **kw):
    """The CLI refuses the input: status 2, one line on stderr naming it."""
    code, out, err = cli(*args, **kw)
    assert code == 2, (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("gd-analyze: error: ") or err.startswith("Usage") is False
    for needle in ([needles] if isinstance(needles, str) else needles):
        assert needle in err, (needle, err)
    return err


# -- 1. what reached the core unchecked (a segfault, bogus plays) ---------------

def test_segfault_reproducer_is_an_error():
    with pytest.raises(HandError, match="seat 0: slot 0 .* 9 copies"):
        GameState([np.full(54, 9, np.uint8)] * 4, gd.Rules()).legal_actions()
    with pytest.raises(HandError, match="3 copies"):
        GameState([np.full(54, 3, np.uint8)] * 4, gd.Rules()).legal_actions()


@pytest.mark.parametrize("fn", [gd.plays, gd.min_plays, gd.decompose, gd.plays_array,
                                gd.hints, gd.to_counts])
@pytest.mark.parametrize("arr,needle", [
    (np.zeros(7, np.uint8), "54 slots, not 7"),
    (np.zeros(52, np.uint8), "54 slots, not 52"),
    (np.full(54, 3, np.uint8), "3 copies"),
    (np.full(54, -1, np.int64), "-1 copies"),
    (np.zeros(54) + 0.5, "whole numbers"),
    (np.zeros((2, 54), np.uint8), "one row"),
])
def test_bad_count_arrays(fn, arr, needle):
    with pytest.raises(HandError, match=needle):
        fn(arr)


def test_game_state_checks_its_fields():
    four = ["S3", "S4", "S5", "S6"]
    for kwargs, needle in [({"turn": 4}, "turn must be a seat"), ({"turn": True}, "turn"),
                           ({"finished": [0, 0]}, "twice"), ({"passes": 3}, "passes"),
                           ({"owner": 1}, "go together"), ({"finished": [1]}, "holds cards"),
                           ({"table": "S3"}, "table must be a Play")]:
        with pytest.raises(gd.PlayError, match=needle):
            GameState(four, gd.Rules(), **kwargs)
    with pytest.raises(HandError, match="appears 4 times"):
        GameState(["S3 S3", "S3", "S3", "S4"], gd.Rules())


def test_min_plays_batch_rows():
    with pytest.raises(HandError, match=r"shape \(N, 54\)"):
        gd.min_plays_batch(np.zeros((3, 52), np.uint8), 2)
    with pytest.raises(HandError, match="row 1, slot 5"):
        rows = np.zeros((2, 54), np.int64)
        rows[1, 5] = 300                     # would wrap to 44 as uint8
        gd.min_plays_batch(rows, 2)
    with pytest.raises(RulesError, match="invalid level 0"):
        gd.min_plays_batch(np.zeros((2, 54), np.uint8), np.array([0, 13]))
    with pytest.raises(RulesError, match="numbers or names"):
        gd.min_plays_batch(np.zeros((2, 54), np.uint8), np.array([0.5, 1.0]))


def test_compiled_entry_points_are_private_and_assert():
    assert not [n for n in dir(_core) if n.startswith("py_")]
    with pytest.raises(AssertionError):
        _core._py_plays(np.full(54, 3, np.uint8), 0, 0)
    with pytest.raises(AssertionError):
        _core._py_min_plays(np.zeros(54, np.uint8), 13, 0)
    counts = np.zeros((4, 54), np.uint8)
    counts[:, 1] = 1
    for kwargs in ({"turn": 4}, {"turn": 0, "finished": (0, 0)}, {"turn": 0, "passes": 7}):
        with pytest.raises(ValueError):
            _core.EndgameSearch(counts, 0, 0, kwargs.pop("turn"), **kwargs)
    search = _core.EndgameSearch(counts, 0, 0, 0)
    with pytest.raises(IndexError):
        search.line_after(len(search.moves()), 1)
    with pytest.raises(ValueError):
        search.line_after(0, 0)


# -- 2. tracebacks that must be one-line errors --------------------------------------

def test_unicode_digit_level(tmp_path):
    bad(["line 1", "'²'"], "hand", "h.txt", files={"h.txt": "level: ²\nS3"}, tmp_path=tmp_path)
    with pytest.raises(RulesError):
        gd.Rules(level="٣")


JSON_REC = record_json.dumps(record.loads(RECORD))


@pytest.mark.parametrize("text,needles", [
    ("[" * 5000 + "]" * 5000, ["nested deeper"]),
    ('{"hands": [' + "9" * 5000 + "]}", ["5000 digits"]),
    ("[1, 2]", ["a JSON record is an object"]),
    (JSON_REC.replace('"rules": {}', '"rules": ["x"]'), ["rules", "an object"]),
    (JSON_REC.replace('"level": "7"', '"level": "7", "level": "8"'), ["'level' given twice"]),
    (JSON_REC.replace('"version": 1', '"version": NaN'), ["NaN"]),
    (JSON_REC.replace('"version": 1', '"version": 1e999'), ["1e999 is out of range"]),
])
def test_json_records(text, needles, tmp_path):
    with pytest.raises(RecordError):
        record_json.loads(text)
    bad(needles, "game", "r.json", files={"r.json": text}, tmp_path=tmp_path)


@pytest.mark.parametrize("text", ["[1e999]", "[-1e999]", '{"a": 1E400}', "[Infinity]", "[NaN]"])
def test_json_infinity_is_refused_however_written(text):
    from guandan_fast.formats.text import loads_json
    with pytest.raises(GuandanError):
        loads_json(text)
    if "e" in text.lower() and "inf" not in text.lower():
        with pytest.raises(GuandanError, match="out of range"):
            loads_json(text, allow_nan=True)       # a server writes Infinity, never 1e999
    assert loads_json("[1e-999, 1.5]") == [0.0, 1.5]


def _log(over=()):
    msgs = [{"type": "notify", "stage": "beginning", "myPos": 0, "handCards": ["S3"]},
            {"type": "notify", "stage": "play", "curPos": 0, "curAction": ["Single", "3", ["S3"]]},
            {"type": "notify", "stage": "episodeOver", "order": [0, 1, 2, 3], "curRank": "2",
             "restCards": [[1, ["S4"]]]}]
    for (i, key), value in dict(over).items():
        msgs[i][key] = value
    return "\n".join(json.dumps(m) if not isinstance(m, str) else m for m in msgs) + "\n"


@pytest.mark.parametrize("over", [
    {(1, "curPos"): None}, {(1, "curPos"): [1]}, {(1, "curPos"): 7}, {(1, "curPos"): -1},
    {(2, "order"): "0123"}, {(2, "order"): [0, 1]}, {(2, "restCards"): [[1]]},
    {(2, "restCards"): 5}, {(0, "myPos"): "x"}, {(2, "restCards"): [[9, ["S4"]]]},
])
def test_platform_log_fields(over, tmp_path):
    text = _log(over)
    with pytest.raises(GuandanError):
        platform_log.import_platform_log(text)
    bad(["line "], "game", "log.jsonl", "--platform",
        files={"log.jsonl": text}, tmp_path=tmp_path)


def test_platform_log_nan_seat_and_short_tribute(tmp_path):
    text = _log().replace('"curPos": 0', '"curPos": NaN')
    bad(["line 2", "nan"], "game", "log.jsonl", "--platform",
        files={"log.jsonl": text}, tmp_path=tmp_path)
    extra = json.dumps({"type": "notify", "stage": "tribute", "result": [[3, 0]]})
    lines = _log().splitlines()
    text = "\n".join(lines[:1] + [extra] + lines[1:]) + "\n"
    with pytest.raises(GuandanError, match="line 2"):
        platform_log.import_platform_log(text)
    extra = json.dumps({"type": "notify", "stage": "back", "result": "S3"})
    text = "\n".join(lines[:1] + [extra] + lines[1:]) + "\n"
    with pytest.raises(GuandanError, match="line 2"):
        platform_log.import_platform_log(text)


def test_platform_message_without_stage():
    text = _log().replace('"stage": "play", ', "")
    with pytest.raises(GuandanError) as e:
        platform_log.import_platform_log(text)
    assert "None" not in str(e.value) and "stage" in str(e.value)


# -- 3. limits that do not hold ---------------------------------------------------------

@pytest.mark.parametrize("option,value,needle", [
    ("--max-nodes", "99999999999999999999999", "max_nodes must be 1.."),
    ("--max-nodes", "0", "max_nodes must be 1.."),
    ("--max-nodes", "-5", "max_nodes must be 1.."),
    ("--max-nodes", "1e9", "is not an integer"),
    ("--max-nodes", "٣", "is not an integer"),
    ("--max-seconds", "nan", "not nan"),
    ("--max-seconds", "inf", "not inf"),
    ("--max-seconds", "-1", "more than 0"),
    ("--max-seconds", "1e300", "at most"),
    ("--max-seconds", "1_0", "is not a number"),
    ("--max-seconds", "５", "is not a number"),
    ("--threads", "0", "threads must be 1.."),
    ("--threads", "100000", "threads must be 1.."),
    ("-t", "-2", "threads must be 1.."),
])
def test_endgame_limits(option, value, needle):
    err = bad([needle, option], "endgame", "-", option, value, stdin=ENDGAME)
    assert "Invalid value" in err


@pytest.mark.parametrize("option,value,needle", [
    ("--jobs", "0", "jobs must be 1.."), ("-j", "100000", "jobs must be 1.."),
    ("--budget", "nan", "not nan"), ("--budget", "-1", "more than 0"),
    ("--budget", "inf", "not inf"),
    ("--budget", "5000", "at most 3600"),
])
def test_game_limits(option, value, needle):
    bad([needle, option], "game", str(EXAMPLES / "record_tribute.txt"), option, value)


def test_library_limits():
    pos = position.loads_position(ENDGAME)
    with pytest.raises(LimitError, match="max_nodes"):
        gd.solve(pos, max_nodes=2 ** 70)
    with pytest.raises(LimitError, match="nan"):
        gd.solve(pos, max_seconds=float("nan"))


# -- 4. silent guesses ---------------------------------------------------------------------

def test_duplicate_keys(tmp_path):
    bad(["line 2", "'level' given twice", "line 1"], "hand", "h.txt",
        files={"h.txt": "level: 7\nуровень: 8\nS3 S4"}, tmp_path=tmp_path)
    deal_text = (EXAMPLES / "deal_tribute.txt").read_text(encoding="utf-8")
    with pytest.raises(RecordError, match="'order' given twice"):
        deal.loads_deal(deal_text + "order: 0 1 2 3\n")
    bad(["'order' given twice"], "tribute", "d.txt",
        files={"d.txt": deal_text + "порядок: 0 1 2 3\n"}, tmp_path=tmp_path)
    with pytest.raises(RecordError, match="line 7: 'level' given twice"):
        record.loads(RECORD.replace("level: 7\n", "level: 7\nlevel: 8\n"))
    with pytest.raises(RecordError, match="'players' given twice"):
        record.loads(RECORD.replace("players:", "players: a, b, c, d\nplayers:"))
    with pytest.raises(RecordError, match="both name the seats"):
        record.loads(RECORD.replace("players:", "seat0: Ann\nplayers:"))
    bad(["JSON key 'hands' given twice"], "game", "r.json",
        files={"r.json": JSON_REC.replace('"hands":', '"hands": [], "hands":')},
        tmp_path=tmp_path)


def test_endgame_file_needs_turn():
    text = ENDGAME.replace("turn: 0\n", "")
    with pytest.raises(PositionError, match="no 'turn:' line"):
        position.loads_position(text)
    bad("no 'turn:' line", "endgame", "-", stdin=text)


# -- 5. encodings ------------------------------------------------------------------------------

LOADS = [hand.loads_hand, deal.loads_deal, position.loads_position, record.loads]
SAMPLES = [HAND, (EXAMPLES / "deal_tribute.txt").read_text(encoding="utf-8"), ENDGAME, RECORD]


@pytest.mark.parametrize("k", range(4))
def test_byte_order_mark_is_accepted(k):
    loads, text = LOADS[k], SAMPLES[k]
    assert loads("\ufeff" + text) == loads(text)
    assert loads(("\ufeff" + text).encode("utf-8")) == loads(text)
    with pytest.raises(EncodingError, match="found UTF-16 text, UTF-8 expected"):
        loads(text.encode("utf-16"))


def test_byte_order_mark_everywhere(tmp_path):
    assert record_json.loads("\ufeff" + JSON_REC) == record_json.loads(JSON_REC)
    p = tmp_path / "r.txt"
    p.write_bytes(b"\xef\xbb\xbf" + RECORD.encode("utf-8"))
    assert record.load(p) == record.loads(RECORD)
    code, out, err = cli("hand", "h.txt", files={"h.txt": b"\xef\xbb\xbf" + HAND.encode()},
                         tmp_path=tmp_path)
    assert code == 0, err


def test_other_encodings_are_named(tmp_path):
    bad("found UTF-16 text, UTF-8 expected", "hand", "h.txt",
        files={"h.txt": HAND.encode("utf-16")}, tmp_path=tmp_path)
    ru = "уровень: 7\nS3 S4 # рука\n"
    bad("found cp1251 (Windows Cyrillic) text, UTF-8 expected", "hand", "h.txt",
        files={"h.txt": ru.encode("cp1251")}, tmp_path=tmp_path)
    bad("cp1251", "game", "r.txt",
        files={"r.txt": RECORD.encode("cp1251")}, tmp_path=tmp_path)


@pytest.mark.parametrize("data,needles", [
    (b"S3\n# caf\xe9\n", ["not UTF-8", "line 2, byte 8: 0xE9"]),          # Latin-1 "café"
    (b"S3 \xe2\x99\n", ["not UTF-8", "line 1, byte 3: 0xE2"]),             # a cut "♠"
    (b"S3 S4 \xe2\x99", ["byte 6: 0xE2, unexpected end of data"]),
    ("S3 ♠3 # рука\n".encode("utf-8")[:-5] + b"\xff\n", ["byte 14: 0xFF"]),  # UTF-8 Russian
    (b"\x98S3\n", ["byte 0: 0x98"]),                                      # not cp1251 either
    ("S3\n".encode("utf-32"), ["found UTF-32 text"]),
    ("S3\n".encode("utf-32-be"), ["found UTF-32 text"]),
    ("S3 S4\n".encode("utf-32-le"), ["found UTF-32 text"]),
    ("S3\n".encode("utf-16-le"), ["found UTF-16 text"]),
    ("# рука Т-пики\nS3\n".encode("cp1251"), ["found cp1251"]),
])
def test_bytes_that_are_not_utf8_are_named_rightly(data, needles, tmp_path):
    with pytest.raises(EncodingError) as e:
        hand.loads_hand(data)
    for needle in needles:
        assert needle in str(e.value)
    if "cp1251" not in needles[0]:
        assert "cp1251" not in str(e.value)
    bad(needles, "l.txt", files={"l.txt": data}, tmp_path=tmp_path)


@pytest.mark.parametrize("fn", [record.load, record_json.load, hand.load_hand,
                                platform_log.load_platform_log, record.loads,
                                platform_log.import_platform_log])
@pytest.mark.parametrize("value", [None, 5])
def test_loaders_given_no_text_say_what_they_take(fn, value):
    with pytest.raises(GuandanError, match="not " + type(value).__name__):
        fn(value)


# -- 6. Ctrl-C keeps the work --------------------------------------------------------------------

@pytest.mark.slow
def test_ctrl_c_prints_what_is_proven(tmp_path):
    import random
    import reference as ref
    rng = random.Random(11)
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    lines = ["level: 5"] + [f"{s}: {' '.join(deck[s * 9:(s + 1) * 9])}" for s in range(4)]
    src = tmp_path / "big.txt"
    src.write_text("\n".join(lines + ["turn: 0"]) + "\n", encoding="utf-8")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # the child gets Ctrl-C's default action even when the test runs in a
    # background job, which starts with SIGINT ignored (Python then installs
    # no KeyboardInterrupt handler, and the signal would be lost)
    proc = subprocess.Popen([sys.executable, "-m", "guandan_fast.cli", "endgame", str(src),
                             "-t", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, err
    assert "Value (team 0)" in out and "Moves:" in out and "interrupted" in out
    assert err.rstrip().splitlines()[-1].startswith("gd-analyze: interrupted")


# -- 7. options that meant two things or nothing ---------------------------------------------

def test_options(tmp_path):
    bad("No such option '-j'", "endgame", "-", "-j", "2", stdin=ENDGAME)
    code, out, err = cli("endgame", "-", "-t", "1", stdin=ENDGAME)
    assert code == 0, err
    bad(["--rank", "--beat"], "plays", "-", "--rank", "5", stdin=HAND)
    bad(["--type", "--beat"], "plays", "-", "--type", "pair", stdin=HAND)
    bad(["--give", "--return"], "tribute", "-", "--give", "--return", stdin=HAND)
    bad(["--format text", "single record"], "game", "--format", "text",
        str(EXAMPLES / "record_tribute.txt"), str(EXAMPLES / "record_club.txt"))
    # the hand and the table play together hold at most two copies of a card
    bad(["SB", "two copies"], "plays", "-", "--beat", "SB SB HR HR", stdin="HR HR SB S3\n")
    from guandan_fast.engine.moves import as_table_play
    from guandan_fast.model.counts import to_counts
    with pytest.raises(HandError, match="two copies"):
        as_table_play("D7 C7", gd.Rules(), to_counts("D7 D7 S9"))
    assert sorted(map(str, as_table_play("D7 C7", gd.Rules(), to_counts("D7 S9")).cards)) == ["C7", "D7"]
    # tribute --receiver: its errors name it, its own settings must agree
    def hand_file(text):
        f = tmp / f"h{len(list(tmp.iterdir()))}.txt"
        f.write_text(text)
        return str(f)
    tmp = tmp_path
    giver = hand_file("level: 7\nS3 S4 S5 S6 S8 S9 ST SJ SQ SK SA H2 H3 H4 H5 H6 H8 H9 HT HJ HQ HK "
                      "HA D2 D3 D4 D5\n")
    bad(["--receiver", "no cards"], "tribute", giver, "--give", "--receiver", hand_file("# none\n"))
    bad(["--receiver", "level 9", "level 7"], "tribute", giver, "--give", "--receiver",
        hand_file("level: 9\nS3 S4\n"))
    code, out, err = cli("tribute", giver, "--give", "--receiver", hand_file("level: 7\nS3 C4\n"))
    assert code == 0, err
    # --html is checked before the review runs
    rec = str(EXAMPLES / "record_tribute.txt")
    bad(["--html", "empty file name"], "game", rec, "--html", "")
    bad(["--html", "no directory"], "game", rec, "--html", "/nonexistent/x.html")
    bad(["--html", "is a directory"], "evening", str(EXAMPLES), "--html", str(EXAMPLES))
    # an option given twice is an error, never "the last one wins"
    bad(["--lang", "given twice"], "endgame", "-", "--lang", "ru", "--lang", "zh",
        stdin=ENDGAME)
    bad(["--threads", "given twice", "-t"], "endgame", "-", "--threads", "1", "-t1",
        stdin=ENDGAME)
    bad(["--format", "given twice"], "plays", "-", "--format=json", "--format", "text",
        stdin=HAND)
    # no arguments at all: one line, not the help on stderr
    bad(["no command or hand file"])
    # the platform commands: NaN timeouts and bad or repeated --rule flags
    bad(["--connect-timeout", "not nan"], "serve", "--connect-timeout", "nan")
    bad(["--answer-timeout", "more than 0"], "serve", "--answer-timeout", "0")
    bad(["--timeout", "not nan"], "bot", "ws://127.0.0.1:1/game/x", "--timeout", "nan")
    bad(["--rule:", "yes or no"], "serve", "--rule", "flush_is_always_bomb=maybe")
    bad(["--rule:", "given twice"], "serve", "--rule", "flush_is_always_bomb=yes",
        "--rule", "flush-is-always-bomb=no")


# -- 8. RULES §7 in one place -------------------------------------------------------------------

def _record_text(order, hands, rules, plan):
    lines = [f"level: {rules.level}", "previous: " + " ".join(map(str, order)), "partial: yes"]
    if rules.no_tribute_when_partner_last:
        lines.append("no_tribute_when_partner_last: yes")
    lines += ["hands:"] + [f"{s}: {gd.format_cards(h)}" for s, h in enumerate(hands)]
    now = [list(h) for h in hands]
    if plan.anti_tribute:
        lines.append("tribute: anti")
    elif plan.payments:
        paid = []
        lines.append("tribute:")
        for payer, receiver in plan.payments:
            card = tribute_candidates(now[payer], rules)[0]
            now[payer].remove(card)
            now[receiver].append(card)
            paid.append((payer, receiver))
            lines.append(f"{payer} -> {receiver}: {card}")
        lines.append("return:")
        for payer, receiver in paid:
            card = return_candidates(now[receiver], rules)[0]
            now[receiver].remove(card)
            now[payer].append(card)
            lines.append(f"{receiver} -> {payer}: {card}")
    low = min(now[plan.leader], key=lambda c: (rules.order(c.rank), c))
    lines += ["play:", f"{plan.leader}: {low}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("flag", [False, True])
def test_every_finishing_order_plan_is_a_valid_record(flag):
    import random
    import reference as ref
    rng = random.Random(7)
    rules = gd.Rules(level="5", no_tribute_when_partner_last=flag)
    kinds = set()
    for order in permutations(range(4)):
        for trial in range(3):
            deck = [t for t in ref.TOKENS for _ in range(2)]
            rng.shuffle(deck)
            if trial == 2:     # both big jokers with the payers: anti-tribute
                deck.remove("HR"); deck.remove("HR")
                deck.insert(27 * order[3], "HR"); deck.insert(27 * order[3], "HR")
            hands = [gd.parse_cards(deck[27 * s:27 * (s + 1)]) for s in range(4)]
            plan = tribute_plan(order, hands, rules)
            kinds.add((plan.kind, plan.anti_tribute))
            rec = record.loads(_record_text(order, hands, rules, plan))
            assert rec.leader == plan.leader
            assert sorted((t.giver, t.receiver) for t in rec.tributes) == sorted(plan.payments)
    assert ("single_down", False) in kinds and ("double_down", False) in kinds
    assert ("single_down", True) in kinds
    assert (("none", False) in kinds) == flag


def test_partner_last_pays_the_first():
    rules = gd.Rules(level=2)
    hands = ["SA S3", "S4", "SK S5", "S6"]
    plan = tribute_plan("0 1 3 2", hands, rules)
    assert plan.payments == [(2, 0)] and plan.leader == 2
    plan = tribute_plan("0 1 3 2", hands, gd.Rules(level=2, no_tribute_when_partner_last=True))
    assert plan.kind == "none" and plan.payments == [] and plan.leader == 0


# -- 9. output that misled ---------------------------------------------------------------------

def test_hints_order_bombs_as_documented():
    ps = gd.hints("S6 H6 C6 D6 D6 S3", gd.Rules(level=2))
    bombs = [p for p in ps if p.is_bomb]
    assert bombs and ps[-len(bombs):] == bombs            # bombs last
    strengths = [p.strength for p in bombs]
    assert strengths == sorted(strengths)                 # smallest first
    assert [p.size for p in bombs][:2] == [4, 5]
    rich = "S6 H6 C6 D6 S7 S8 S9 ST SJ D3"
    bombs = [p for p in gd.hints(rich, gd.Rules(level=2)) if p.is_bomb]
    assert [p.strength for p in bombs] == sorted(p.strength for p in bombs)
    assert bombs[0].type == "bomb" and bombs[-1].type == "straight_flush"


def test_summary_names_the_straight_flush_suit():
    from guandan_fast.analysis.summary import hand_summary
    s = hand_summary(gd.parse_cards("S9 ST SJ SQ SK H9 HT HJ HQ HK"), gd.Rules(level=2))
    texts = [f"{b['type']} {b['rank']} {b.get('suit')}" for b in s["bombs"]]
    assert len(set(texts)) == len(texts) == 2
    code, out, err = cli("hand", "-", stdin="level: 2\nS9 ST SJ SQ SK H9 HT HJ HQ HK")
    lines = [ln for ln in out.splitlines() if "K" in ln and "(5)" in ln]
    assert len(set(lines)) == len(lines), out


def test_plays_listing_in_single_card_order():
    code, out, err = cli("plays", "-", "--format", "json", stdin="level: 7\nS6 S7 S8 SA")
    singles = [p["rank"] for p in json.loads(out)["plays"] if p["type"] == "single"]
    rules = gd.Rules(level=7)
    assert [rules.order(r) for r in singles] == sorted(rules.order(r) for r in singles)
    assert singles[-1] == "7"


def test_an_input_larger_than_any_is_refused_before_it_is_read_whole(monkeypatch, tmp_path):
    """formats.text.MAX_INPUT_BYTES bounds every loader and the CLI (an
    endless /dev/zero would take the memory); the bound is lowered here."""
    from guandan_fast.errors import InputSizeError
    from guandan_fast.formats import hand, text
    monkeypatch.setattr(text, "MAX_INPUT_BYTES", 64)
    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    big.write_text("S3 " * 40)
    small.write_text("S3 S4\n")
    with pytest.raises(InputSizeError, match="big.txt: more than"):
        hand.load_hand(big)
    assert len(hand.load_hand(small).cards) == 2
    bad(["big.txt: more than", "MiB"], str(big))
    bad(["more than", "MiB"], "-", stdin="S3 " * 40)


# -- 10. the second review ---------------------------------------------------------------------

def test_a_platform_match_with_nothing_scored_is_an_error_not_nan():
    for fmt in ("text", "json"):
        bad(["no deal could be scored", "every deal abandoned", "cannot start"],
            "match", "--team-a", "exec:/nonexistent/bin", "--team-b", "greedy", "--deals", "1",
            "-q", "--format", fmt)


def test_match_scores_that_do_not_exist_are_null():
    from guandan_fast.bots.match import MatchScores
    nan = float("nan")
    d = MatchScores("a", "b", 1, 0, True, False, nan, -3.0, 3.0, nan, 0.0, 1.0).scores_dict()
    assert d["mean_gain"] is None and d["win_rate"] is None
    json.loads(json.dumps(d, allow_nan=False))


def test_an_exec_team_of_three_commands_is_refused():
    from guandan_fast.platform.external import parse_team
    assert parse_team("exec:one|two", "--team-a").template == (("one",), ("two",))
    bad(["--team-a", "at most two commands"], "match", "--team-a", "exec:true|true|true",
        "--team-b", "greedy", "--deals", "1", "-q")
    bad(["--team-b", "'||'"], "match", "--team-a", "greedy", "--team-b", "exec:a||b",
        "--deals", "1", "-q")


def test_a_platform_match_takes_one_job():
    code, out, err = cli("match", "--team-a", "greedy", "--team-b", "exec:/nonexistent/bin",
                         "--deals", "1", "-q", "-j", "1")
    assert code == 2 and "--jobs" not in err and "cannot start" in err, err


def test_sample_deals_has_an_upper_limit():
    from guandan_fast.errors import ViewError
    from guandan_fast.game.view import MAX_SAMPLE_DEALS
    view = gd.View(seat=0, hand="SA", rules=gd.Rules(level=2), counts=[1, 2, 2, 2])
    with pytest.raises(ViewError, match=f"n: at most MAX_SAMPLE_DEALS = {MAX_SAMPLE_DEALS}"):
        gd.sample_deals(view, 10 ** 12)
    with pytest.raises(ViewError, match="not 1000001"):
        gd.sample_deals(view, MAX_SAMPLE_DEALS + 1)
    assert len(gd.sample_deals(view, 3)) == 3
    with pytest.raises(ViewError, match="view: a View, not NoneType"):
        gd.sample_deals(None, 1)


@pytest.mark.parametrize("call, error, needle", [
    (lambda r: gd.beats("S3", "S4"), "PlayError", "beats: a must be a Play"),
    (lambda r: gd.beats(gd.read_play("S4", r), None), "PlayError", "beats: b must be a Play"),
    (lambda r: gd.format_cards(["XX"]), "CardParseError", "'XX'"),
    (lambda r: gd.format_cards(None), "CardParseError", "not NoneType"),
    (lambda r: gd.anti_tribute(5), "HandError", "payer_hands"),
    (lambda r: gd.tribute_plan("0 2 1 3", None, r), "HandError", "hands: a list"),
    (lambda r: gd.View(seat=0, hand="SA", rules=r, counts=[1, 2, 2, 2], history=5),
     "ViewError", "history"),
    (lambda r: __import__("guandan_fast.platform", fromlist=["x"]).to_action("S3"),
     "PlayError", "to_action takes a Play"),
    (lambda r: gd.from_counts("x"), "HandError", "count array"),
    (lambda r: gd.from_counts([3] * 54), "HandError", "3 copies"),
    (lambda r: gd.from_counts(np.full(54, -1)), "HandError", "-1 copies"),
    (lambda r: gd.from_counts([1] * 10), "HandError", "54 slots, not 10"),
])
def test_public_functions_raise_the_errors_of_guandan_fast(call, error, needle):
    import guandan_fast.errors as errors
    with pytest.raises(getattr(errors, error), match=needle.replace("(", r"\(")):
        call(gd.Rules(level=2))


def test_from_counts_still_reads_good_counts():
    assert gd.format_cards(gd.from_counts(gd.to_counts("S3 S3 HR"))) == "S3 S3 HR"
    assert len(gd.from_counts([2] * 54)) == 108


@pytest.mark.parametrize("args, option", [
    (["match", "--team-a", "random", "--team-b", "random", "--deals", "1_0"], "--deals"),
    (["match", "--team-a", "random", "--team-b", "random", "-j", "１"], "--jobs"),
    (["match", "--team-a", "random", "--team-b", "random", "--seed", "٣"], "--seed"),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--seed", "５"], "--seed"),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--solve-cards", "３"], "--solve-cards"),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--seed", "-0"], "--seed"),
    (["endgame", "-", "--estimate", "--seed", "١٢"], "--seed"),
    (["serve", "--port", "2_3456"], "--port"),
    (["serve", "--games", "²"], "--games"),
])
def test_integer_options_take_ascii_digits_only(args, option):
    bad([option, "is not an integer"], *args, stdin=ENDGAME)


def test_integer_options_still_take_integers():
    bad(["--deals", "0 is not in 1..1000000"], "match", "--team-a", "random", "--team-b",
        "random", "--deals", "0")
    code, out, err = cli("match", "--team-a", "random", "--team-b", "random", "--deals", "1",
                         "--seed", "-5", "-q", "-j", "1")
    assert code == 0, err


@pytest.mark.parametrize("args, option", [
    (["endgame", "-", "-qq"], "option -q is given twice"),
    (["endgame", "-", "-qt1", "-t2"], "option -t is given twice"),
    (["endgame", "-", "-t2", "-qt1"], "option -t is given twice"),
    (["game", str(EXAMPLES / "record_tribute.txt"), "-qj1", "-j2"], "option -j is given twice"),
])
def test_a_cluster_of_short_options_counts_each(args, option):
    bad(option, *args, stdin=ENDGAME)


def test_a_cluster_of_short_options_once_is_fine():
    code, out, err = cli("endgame", "-", "-qt1", stdin=ENDGAME)
    assert code == 0, err


def test_an_estimate_with_a_proven_range_of_one_value_says_proven():
    from guandan_fast.engine.estimate import Estimate
    from guandan_fast.report.endgame import render_estimate_text
    est = Estimate(value=2.9, exact=False, moves=[], best=None, seconds=0.1, playouts=5,
                   turn=0, confidence=0.95, lower=3, upper=3)
    d = est.to_dict()
    assert est.value_proven and d["value_proven"] is True
    pos = {"level": "5", "turn": 0, "hands": ["S3", "S4", "S5", "S6"], "table": None,
           "owner": None, "passes": 0, "finished": []}
    text = render_estimate_text(pos, d)
    assert "Value (team 0): +3    (proven" in text and "ESTIMATED" not in text, text
    d.update(lower=2, value_proven=False)
    assert "ESTIMATED" in render_estimate_text(pos, d)


@pytest.mark.parametrize("spec, needle", [
    ("search:0.2 ", "spaces around it"), (" search", "spaces around it"),
    ("search:-1", "must be > 0"), ("search:0.2,samples=-1", "samples must be >= 1"),
    ("random:99999999999999999999999", "the seed must be at most"),
])
def test_a_bad_bot_spec_names_the_spec_and_the_option(spec, needle):
    err = bad(["--team-a", needle, repr(spec)], "match", "--team-a", spec, "--team-b", "greedy",
              "--deals", "1", "-q")
    assert "players:" not in err


@pytest.mark.parametrize("args, needles", [
    (["evening", str(EXAMPLES / "record_tribute.txt"), "--cache", ""],
     ["--cache", "empty directory name"]),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--lenient"], ["--lenient", "--platform"]),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--views", "double,"], ["--views", "'double,'"]),
    (["game", str(EXAMPLES / "record_tribute.txt"), "--views", ",single"], ["--views"]),
    (["endgame", "-", "--estimate", "--value-only"], ["--value-only", "--estimate"]),
    (["endgame", "-", "--estimate", "--max-nodes", "100"], ["--max-nodes", "--estimate"]),
])
def test_options_that_would_do_nothing_are_refused(args, needles):
    bad(needles, *args, stdin=ENDGAME)


def test_serve_names_a_host_it_cannot_resolve():
    bad(["--host", "'999.1.1.1'"], "serve", "--host", "999.1.1.1", "--port", "0")


def test_the_file_writers_refuse_what_their_loaders_refuse():
    """dumps_hand, dumps_deal and dumps_position take only their own type
    (an AttributeError before), and never write what their loader would
    refuse (a third copy, a fifth hand, a bad order): a ValueError subclass
    naming what is wrong, and a good object still round-trips."""
    from guandan_fast import Card
    from guandan_fast.errors import PositionError, RecordError
    s3 = Card("S3")
    for writer, error in ((hand.dumps_hand, HandError), (deal.dumps_deal, RecordError),
                          (position.dumps_position, PositionError)):
        for wrong in (None, "S3 S4", {}, 3, [s3]):
            with pytest.raises(error, match="takes a"):
                writer(wrong)
    with pytest.raises(HandError, match="third copy"):
        hand.dumps_hand(hand.HandFile(cards=[s3] * 3))
    with pytest.raises(GuandanError):
        hand.dumps_hand(hand.HandFile(cards=["S3"]))
    thirty = [Card(f"{s}{r}") for s in "SHCD" for r in "23456789"][:30]
    with pytest.raises(HandError, match="more than 28 cards"):
        hand.dumps_hand(hand.HandFile(cards=thirty))
    with pytest.raises(RecordError, match="four hands"):
        deal.dumps_deal(deal.DealFile(hands=[[s3]] * 5))
    with pytest.raises(RecordError, match="order"):
        deal.dumps_deal(deal.DealFile(hands=[[s3]] * 4, order=[0, 0, 1, 2]))
    with pytest.raises(HandError, match="third copy"):
        deal.dumps_deal(deal.DealFile(hands=[[s3]] * 4))
    receiver = hand.HandFile(cards=gd.parse_cards(
        " ".join(f"{s}{r}" for s in "SHC" for r in "23456789") + " DA DK DQ DJ", max_cards=28))
    assert len(receiver.cards) == 28                  # a tribute receiver's hand is written
    assert hand.loads_hand(hand.dumps_hand(receiver), max_cards=28).cards == receiver.cards
    d = deal.DealFile(hands=[[s3], [Card("H3")], [Card("C3")], [Card("D3")]], order=[3, 2, 1, 0])
    assert deal.loads_deal(deal.dumps_deal(d)) == d
