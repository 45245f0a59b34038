"""What the fuzz suite (tests/test_fuzz.py) feeds bad input to.

Two small registries; a new loader, message parser or public function joins
the fuzz suite by one entry here:

- ``LOADERS``: name -> (parse, samples). ``parse(text)`` reads one text
  (``str``; bytes are also tried, the loaders decode them), ``samples`` are
  valid texts that the mutations start from (each must load as it is).
- ``CALLS``: name -> call(draw). ``call`` builds its arguments from
  ``draw`` (hypothesis's ``data.draw``, with the strategies in this module)
  and calls the public function.

Whatever they are given, they must return or raise a ``ValueError``
subclass (``GuandanError`` for the library's own checks): any other
exception, a crash or a hang fails the suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

import guandan_fast as gd
from guandan_fast.engine import decomposition, moves
from guandan_fast.formats import analysis_json, deal, hand, position, record, record_json
from guandan_fast.platform import log as platform_log
from guandan_fast.bots import advice
from guandan_fast.game import state, tribute

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def _platform_sample() -> str:
    from test_platform import platform_log as make_log
    rec = record.loads(_example("record_tribute.txt"))
    return "\n".join(json.dumps(m) for m in make_log(rec)) + "\n"


LOADERS: dict = {}
CALLS: dict = {}


def _record_as_people_write_it(lang: str) -> str:
    """The club record with its cards as the review's text writes them in
    ``lang`` (``10♠ В♥ Т♦`` in Russian), Chinese commas between the cards
    of the hands and ``pas``/``пас``/``过`` for the passes: the parser's
    paths for people's notation."""
    from guandan_fast.report.i18n import cards_label
    rec = record.loads(_example("record_club.txt"))
    out = []
    for line in record.dumps(rec).splitlines():
        head, sep, body = line.partition(": ")
        if sep and head in ("0", "1", "2", "3") and body != "pass":
            words = body.split()
            reading = [w for w in words if not (len(w) == 2 or w in ("SB", "HR"))]
            body = cards_label(" ".join(w for w in words if w not in reading), lang)
            body = body.replace(" ", "、" if lang == "zh" else " ") + "".join(" " + w for w in reading)
        elif sep and body == "pass":
            body = {"ru": "пас", "zh": "过", "en": "pas"}[lang]
        out.append(head + sep + body)
    return "\n".join(out) + "\n"


def _partial_record() -> str:
    lines = _example("record_club.txt").splitlines()
    return "partial: yes\n" + "\n".join(lines[:30]) + "\n"


def loader(name, samples):
    def register(parse):
        LOADERS[name] = (parse, samples)
        return parse
    return register


def call(name):
    def register(fn):
        CALLS[name] = fn
        return fn
    return register


# -- loaders --------------------------------------------------------------------

loader("hand", lambda: [_example("hand1.txt"), _example("hand_ru.txt"),
                        _example("tribute_give.txt")])(hand.loads_hand)
loader("deal", lambda: [_example("deal_tribute.txt")])(deal.loads_deal)
loader("position", lambda: [_example("endgame1.txt"), _example("endgame2.txt")])(
    position.loads_position)
loader("record", lambda: [_example("record_tribute.txt"), _example("record_club.txt"),
                          _example("record_endgame_short.txt")])(record.loads)
loader("record_json", lambda: [record_json.dumps(record.loads(_example("record_tribute.txt"))),
                               record_json.dumps(record.loads(_example("record_club.txt")))])(
    record_json.loads)
loader("record_people", lambda: [_record_as_people_write_it("ru"),
                                 _record_as_people_write_it("zh"),
                                 _record_as_people_write_it("en")])(record.loads)
loader("record_partial", lambda: [_partial_record()])(record.loads)


def _analysis_sample() -> str:
    """A small review document (the short endgame, estimated by nothing,
    solved exactly)."""
    from guandan_fast.analysis.review import analyse
    rec = record.loads(_example("record_endgame_short.txt"))
    return analysis_json.dumps(analyse(rec, views=("double",), budget=0.05, estimator=None,
                                       opening=False).to_dict())


def _analysis_lines_sample() -> str:
    """A review document with the house policy's better lines at its marks
    (the fake estimator marks likely mistakes) and the structures moves
    break (version 2's ``line`` and ``breaks``)."""
    from fake_engines import spread_estimator

    from guandan_fast.analysis.review import analyse
    rec = record.loads(_example("record_endgame_short.txt"))
    data = analyse(rec, views=("double",), budget=0.05, estimator=spread_estimator,
                   solve_cards=0, opening=False, check_factor=None).to_dict()
    assert any(d["double"] and d["double"]["line"] for d in data["decisions"])
    assert any(d["breaks"] for d in data["decisions"])
    return analysis_json.dumps(data)


def _evening_sample() -> str:
    doc = analysis_json.loads(_analysis_sample())
    return analysis_json.dumps(analysis_json.evening_document([{"file": "a.txt", **doc}],
                                                              [("b.txt", "bad")]))


loader("analysis_json", lambda: [_analysis_sample(), _analysis_lines_sample()])(
    analysis_json.loads)
loader("evening_json", lambda: [_evening_sample()])(
    lambda text: analysis_json.loads(text, evening=True))


@loader("drills", lambda: [_analysis_lines_sample(), _evening_sample()])
def _drills(text):
    """``gd-analyze drills``: a review or an evening document read as the
    command reads it, then its drills page in each language (whatever
    document the reader accepts, the page renders)."""
    from guandan_fast.report.drills import render_drills_html
    data = analysis_json.loads(text, evening=True)
    reviews = data["records"] if data["schema"] == analysis_json.EVENING_SCHEMA else [data]
    for lang in ("en", "ru", "zh"):
        render_drills_html(reviews, lang)


@loader("review_text", lambda: [_analysis_lines_sample(), _evening_sample()])
def _review_text(text):
    """``gd-analyze render``: a review or an evening document read as the
    command reads it, then its text in each language at the widths a user
    may give (whatever document the reader accepts, the text lays out)."""
    from guandan_fast.report.evening import render_evening_text
    from guandan_fast.report.text import render_text
    data = analysis_json.loads(text, evening=True)
    for lang in ("en", "ru", "zh"):
        for width in (0, 20):
            if data["schema"] == analysis_json.EVENING_SCHEMA:
                render_evening_text(data["records"], lang, width=width)
            else:
                render_text(data, lang, width)


@loader("renderers_raw_json", lambda: [_analysis_lines_sample(), _evening_sample()])
def _renderers_raw(text):
    """The renderers handed a document parsed without the reader (plain
    ``json.loads``, NaN and all): they check it themselves, so whatever it
    holds, the answer is a page or a ValueError naming the field."""
    import json

    from guandan_fast.report.drills import render_drills_html
    from guandan_fast.report.evening import (deal_title, evening_report, render_evening_html,
                                             render_evening_text)
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    data = json.loads(text)
    if isinstance(data, dict) and data.get("schema") == analysis_json.EVENING_SCHEMA:
        errors = data.get("errors")
        if isinstance(errors, list):
            errors = [(e.get("file"), e.get("error")) if isinstance(e, dict) else e
                      for e in errors]
        render_evening_text(data.get("records"), "zh", errors, width=20)
        render_evening_html(data.get("records"), "ru", errors)
        evening_report(data.get("records"), "en", errors)
        render_drills_html(data.get("records"), "en")
    else:
        render_text(data, "ru", 0)
        render_html(data, "en")
        deal_title(data, "zh")


loader("platform_log", lambda: [_platform_sample()])(platform_log.import_platform_log)
loader("platform_log_lenient", lambda: [_platform_sample()])(
    lambda text: platform_log.import_platform_log(text, lenient=True))


@loader("match_team", lambda: ["exec:python3 client.py {url} | python3 client2.py {seat}",
                               "exec[cwd=/]:run --port={port} '{name}' {{x}}", "greedy",
                               "search:0.5,playouts=20", "search:0.2,threads=2"])
def _match_team(text):
    """A team of ``gd-analyze match`` (an exec: command template or a bot
    spec), then its command line for each seat."""
    from guandan_fast.platform.external import parse_team
    t = parse_team(text, "--team-b")
    for seat in range(4):
        t.argv("ws://127.0.0.1:1/game/A1", seat, "A1", 1, 1.0)


# -- strategies for the public functions -----------------------------------------

TOKENS = list(gd._core.TOKENS) + ["10h", "♠A", "大王", "Т♦", "X", "S1", "", "H", "SS",
                                   "红心10", "大鬼", "小鬼", "Ａ♠", "１０♥", "Дж-м", "SТ", "С3",
                                   "Tпики", "B♠", "Н10", "10♠", "В♥", "К-пики", "-S3", "S-3", "H-R"]
LEVELS = st.one_of(st.sampled_from(list("23456789TJQKA") + ["10", 10, 14, 2]),
                   st.integers(-5, 20), st.text(max_size=3))

DTYPES = [np.uint8, np.int8, np.int64, np.uint64, np.float64, np.int32, np.bool_]


@st.composite
def count_arrays(draw, rows=None):
    """Arrays that look like (or are) 54-count hands: mostly 54 slots of
    small counts, sometimes other lengths, dtypes, shapes or values."""
    n = draw(st.sampled_from([54, 54, 54, 7, 52, 0, 55, 108]))
    shape = (n,) if rows is None else (rows, n)
    dtype = draw(st.sampled_from(DTYPES))
    hi = draw(st.sampled_from([1, 2, 2, 3, 9, 255]))
    size = int(np.prod(shape))
    values = draw(st.lists(st.integers(0, hi), min_size=size, max_size=size))
    arr = np.array(values, dtype=np.int64).reshape(shape)
    if dtype == np.float64 and draw(st.booleans()):
        return arr.astype(np.float64) + draw(st.sampled_from([0.0, 0.5, np.nan, np.inf]))
    if dtype == np.int8 and draw(st.booleans()):
        return -arr.astype(np.int8)
    return arr.astype(dtype)


def hands(rows=None):
    """A hand in any form the API takes: text, token lists, count arrays."""
    text = st.lists(st.sampled_from(TOKENS), max_size=30).map(" ".join)
    tokens = st.lists(st.sampled_from(TOKENS), max_size=30)
    return st.one_of(text, tokens, count_arrays(), st.text(max_size=40))


def rules():
    return st.one_of(st.none(), LEVELS, st.builds(
        gd.Rules, level=st.sampled_from(list("23456789TJQKA")),
        joker_pair_in_full_house=st.booleans(), flush_is_always_bomb=st.booleans()))


def tables():
    return st.one_of(st.none(), st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join))


SEATS = st.one_of(st.integers(-2, 5), st.sampled_from([None, True, 1.0, "1", 2 ** 70]))


# -- public functions that reach the core -------------------------------------------

@call("plays")
def _plays(draw):
    return moves.plays(draw(hands()), draw(rules()))


@call("beating_plays")
def _beating(draw):
    return moves.beating_plays(draw(hands()), draw(tables()), draw(rules()))


@call("hints")
def _hints(draw):
    return moves.hints(draw(hands()), draw(rules()), draw(tables()))


@call("plays_array")
def _plays_array(draw):
    return moves.plays_array(draw(count_arrays()), draw(rules()))


@call("classify")
def _classify(draw):
    return gd.classify(draw(hands()), draw(rules()))


@call("read_play")
def _read_play(draw):
    return gd.read_play(draw(hands()), draw(rules()),
                        type=draw(st.sampled_from([None, "pair", "tube", "x"])),
                        rank=draw(st.sampled_from([None, "5", "A", "Z"])))


@call("min_plays")
def _min_plays(draw):
    return decomposition.min_plays(draw(hands()), draw(rules()))


@call("decompose")
def _decompose(draw):
    return decomposition.decompose(draw(hands()), draw(rules()))


@call("min_plays_batch")
def _min_plays_batch(draw):
    rows = draw(st.integers(0, 3))
    arr = draw(count_arrays(rows=rows))
    levels = draw(st.one_of(LEVELS, st.lists(st.integers(-2, 16), min_size=rows,
                                             max_size=rows).map(np.array),
                            st.lists(LEVELS, min_size=rows, max_size=rows),
                            st.just(np.zeros(rows, dtype=np.float64))))
    return decomposition.min_plays_batch(arr, levels, draw(st.one_of(st.none(), rules())))


@call("to_counts")
def _to_counts(draw):
    return gd.to_counts(draw(hands()))


@call("game_state")
def _game_state(draw):
    four = draw(st.lists(hands(), min_size=3, max_size=5))
    s = state.GameState(four, draw(rules()), turn=draw(SEATS),
                        table=draw(st.one_of(st.none(), st.just("S3"))),
                        owner=draw(st.one_of(st.none(), SEATS)),
                        passes=draw(st.integers(-1, 4)),
                        finished=draw(st.lists(SEATS, max_size=4)))
    acts = s.legal_actions()
    if acts and acts[0] is not None:
        s.apply(acts[0])
    return acts


@call("solve")
def _solve(draw):
    four = draw(st.lists(st.lists(st.sampled_from(gd._core.TOKENS), max_size=5),
                         min_size=4, max_size=4))
    pos = gd.Position(four, draw(rules()), turn=draw(SEATS),
                      finished=draw(st.lists(SEATS, max_size=3)))
    limit = draw(st.one_of(st.integers(-1, 5000), st.sampled_from([None, 2 ** 70, 1.5, True])))
    seconds = draw(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)))
    if seconds is not None and not (0 < seconds < 5):
        return gd.solve(pos, max_nodes=limit or 1000, max_seconds=seconds)
    return gd.solve(pos, max_nodes=limit if limit is not None else 5000,
                    max_seconds=seconds, all_moves=draw(st.booleans()),
                    threads=draw(st.sampled_from([1, 2, 0, -1])))


@call("position")
def _position(draw):
    four = draw(st.lists(hands(), min_size=3, max_size=5))
    return gd.Position(four, draw(rules()), turn=draw(SEATS), table=draw(tables()),
                       owner=draw(st.one_of(st.none(), SEATS)), passes=draw(st.integers(-1, 4)),
                       finished=draw(st.lists(SEATS, max_size=4)))


@call("tribute_plan")
def _tribute_plan(draw):
    order = draw(st.one_of(st.permutations([0, 1, 2, 3]), st.lists(SEATS, max_size=5),
                           st.text(max_size=10)))
    return tribute.tribute_plan(order, draw(st.lists(hands(), min_size=3, max_size=5)),
                                draw(rules()))


@call("suggest_tribute")
def _suggest(draw):
    fn = draw(st.sampled_from([advice.suggest_tribute, advice.suggest_return]))
    return fn(draw(hands()), draw(rules()), receiver=draw(st.one_of(st.none(), hands())))


@call("candidates")
def _candidates(draw):
    fn = draw(st.sampled_from([tribute.tribute_candidates, tribute.return_candidates,
                               advice.held_bombs]))
    return fn(draw(hands()), draw(rules()))


@call("hand_summary")
def _hand_summary(draw):
    from guandan_fast.analysis.summary import hand_summary
    cards = gd.parse_cards(draw(st.lists(st.sampled_from(TOKENS), max_size=30)), max_cards=27)
    return hand_summary(cards, gd.Rules(level=draw(st.sampled_from(list("23456789TJQKA")))))


@call("rules")
def _rules(draw):
    return gd.Rules(level=draw(LEVELS), flush_is_always_bomb=draw(
        st.sampled_from([True, False, "no", 1, None])))


@call("review")
def _review(draw):
    from guandan_fast.analysis.review import analyse
    rec = record.loads(_example("record_endgame_short.txt"))
    views = draw(st.one_of(st.sampled_from([("double",), ("single",), ("double", "single"),
                                            (), ("triple",), "double"]),
                           st.lists(st.text(max_size=8), max_size=3)))
    budget = draw(st.sampled_from([0.01, 0.02, 0, -1, float("nan"), float("inf"), "1", True,
                                   None, 1e9]))
    seed = draw(st.one_of(st.integers(-3, 2 ** 32), st.sampled_from([None, 1.5, "0", True])))
    jobs = draw(st.sampled_from([1, 0, -1, True, "2", 1.5]))
    return analyse(rec, views=views, budget=budget, seed=seed, jobs=jobs, estimator=None,
                   suggester=None, solve_cards=draw(st.integers(-1, 20)))


# the characters of people's card notation: letters of both alphabets that
# look alike, full-width forms, Chinese suits and separators
NOTATION_CHARS = list("SHCDTJQKAB0123456789") + list("ТВДКАСНЕ") + list("пикчербу") + [
    "♠", "♥", "♣", "♦", "红心", "黑桃", "梅花", "方块", "大鬼", "小王", "Ａ", "１０", "，", "、",
    "；", " ", "\n", "-", "#", "Дж", "\u3000", "\ufeff", "\u0301"]


@call("parse_cards_people")
def _parse_cards_people(draw):
    text = "".join(draw(st.lists(st.sampled_from(NOTATION_CHARS), max_size=40)))
    found: list = []
    cards = gd.parse_cards(text, warnings=found, first_line=draw(st.integers(1, 1000)))
    assert all(isinstance(w, str) for w in found)
    return cards


@call("cards_label_round_trip")
def _cards_label_round_trip(draw):
    from guandan_fast.report.i18n import cards_label
    cards = gd.parse_cards(draw(st.lists(st.sampled_from(list(gd._core.TOKENS)), max_size=27)),
                           max_cards=27)
    lang = draw(st.sampled_from(["en", "ru", "zh"]))
    assert gd.parse_cards(cards_label(gd.format_cards(cards), lang)) == cards
    return cards


@call("check_name")
def _check_name(draw):
    return record.check_name(draw(st.one_of(st.text(max_size=12), st.sampled_from(
        [None, 3, b"x", "a,b", " a", "2", "#", "\n"]))), "players")


@call("table_with_hand")
def _table_with_hand(draw):
    from guandan_fast.model.counts import to_counts
    r = gd.Rules()
    counts = to_counts(draw(hands()) if draw(st.booleans()) else "S3 S3 SB", max_cards=28)
    return moves.as_table_play(draw(tables()) or "S3", r, counts)


@call("distilled_load_model")
def _distilled_load_model(draw):
    """A model file of random arrays (some missing, some of the wrong
    shape or type), or random bytes: loaded, or a ModelError."""
    import io
    from guandan_fast.bots.distilled import load_model
    buf = io.BytesIO()
    if draw(st.booleans()):
        buf.write(draw(st.binary(max_size=300)))
    else:
        n = draw(st.integers(0, 6))
        ints = st.lists(st.integers(-3, 8), min_size=n, max_size=n)
        nums = st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n)
        arrays = {"feature": np.array(draw(ints), np.int32),
                  "threshold": np.array(draw(nums)),
                  "left": np.array(draw(ints), np.int32), "right": np.array(draw(ints), np.int32),
                  "value": np.array(draw(nums)),
                  "roots": np.array(draw(st.lists(st.integers(-1, 6), max_size=3)), np.int32),
                  "base": np.array(draw(st.lists(st.floats(-1, 1), max_size=2)))}
        for k in draw(st.lists(st.sampled_from(sorted(arrays)), max_size=2)):
            arrays.pop(k, None)
        if draw(st.booleans()) and "left" in arrays:
            arrays["left"] = arrays["left"].reshape(1, -1)
        np.savez(buf, **arrays)
    buf.seek(0)
    return load_model(buf)


@call("sample_deals")
def _sample_deals(draw):
    """A view (or not one) and a number of deals of any size: drawn, or a
    ViewError (never a hang on a huge n)."""
    view = draw(st.sampled_from([None, "SA", gd.View(seat=0, hand="SA", rules=gd.Rules(level=2),
                                                     counts=[1, 2, 2, 2])]))
    n = draw(st.one_of(st.integers(-2, 3), st.sampled_from([10 ** 12, 2 ** 70, 1.5, None, True])))
    return gd.sample_deals(view, n, seed=draw(st.integers(0, 5)))


@call("small_public_functions")
def _small_public_functions(draw):
    """The small functions of the façade with arguments of any kind: an
    answer or an error of guandan_fast.errors (GuandanError), never an
    AttributeError or TypeError."""
    from guandan_fast.errors import GuandanError
    from guandan_fast.platform import to_action
    junk = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=6), hands(),
                     st.lists(st.sampled_from(TOKENS), max_size=3), count_arrays())
    play = st.one_of(junk, st.just(gd.read_play("S4", gd.Rules(level=2))))
    fn = draw(st.sampled_from(["beats", "format_cards", "anti_tribute", "from_counts",
                               "to_action", "tribute_plan", "view_history"]))
    try:
        if fn == "beats":
            return gd.beats(draw(play), draw(play))
        if fn == "format_cards":
            return gd.format_cards(draw(junk))
        if fn == "anti_tribute":
            return gd.anti_tribute(draw(junk))
        if fn == "from_counts":
            return gd.from_counts(draw(junk))
        if fn == "to_action":
            return to_action(draw(play))
        if fn == "tribute_plan":
            return gd.tribute_plan("0 2 1 3", draw(junk), gd.Rules(level=2))
        return gd.View(seat=0, hand="SA", rules=gd.Rules(level=2), counts=[1, 2, 2, 2],
                       history=draw(junk))
    except GuandanError:
        return None
    except ValueError as e:          # a plain ValueError is not one of ours
        raise AssertionError(f"{fn}: {type(e).__name__}: {e}") from e
