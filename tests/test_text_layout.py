"""The text reports laid out to a width (report/layout.py and its use by
report/text.py and report/evening.py): every line fits, nothing is lost or
reordered, an estimate keeps its interval, the columns line up; --width on
the command line, and its rejections.

The wrapping is checked against what a reader sees, not against the
wrapper's pieces: the words of a line come back in order, a line wider
than the width is a single word wider than it, an interval is never cut.
"""

import random
import re
import unicodedata
from pathlib import Path

import pytest
from clirun import run
from conftest import by_run
from fake_engines import spread_estimator

from guandan_fast.analysis.review import analyse
from guandan_fast.errors import LayoutError
from guandan_fast.formats.record import load
from guandan_fast.report.evening import render_evening_text
from guandan_fast.report.i18n import LANGS, punct
from guandan_fast.report.layout import TEXT_WIDTH, wrap
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _cols(text):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _flat(text):
    """The text without its layout: no spaces, no line breaks, no ``|``
    between marks (the one-line form's separator)."""
    return re.sub(r"[\s|]+", "", text)


# -- wrap on random lines ---------------------------------------------------------

_WORDS = ["the", "value", "pass", "S3", "HR", "C10", "≈+0.4", "=−2", "·", "|", "levels;",
          "mistake,", "←", "Ирина", "уровня;", "грубая", "(full", "house", "7)", "(pair", "K)",
          "[−0.4, +3]", "[0,3; 2,2]", "≈1.6 [0.9, 2.2]", "(≈0.8 [0.2, 1.4] levels)",
          "局面估值", "宽于3级", "（求解器的主线：已证明）", "明", "第12手", "x" * 30,
          "abcdefghijklmnopqrstuvwxyz" * 2]


def _line(rng):
    words = [rng.choice(_WORDS) for _ in range(rng.randint(1, 30))]
    text = words[0]
    for w in words[1:]:
        text += " " * rng.choice((1, 1, 1, 2, 4)) + w
    return " " * rng.choice((0, 2, 4, 9)) + text


def test_wrap_keeps_every_word_in_order_and_fits_the_width():
    rng = random.Random(20261207)
    for _ in range(by_run(600, 6000)):
        line, width = _line(rng), rng.randint(20, 100)
        out = wrap(line, width)
        assert _flat("".join(out)) == _flat(line)                     # nothing lost, in order
        if line.isascii():
            assert " ".join(out).split() == line.split()              # words whole
        assert wrap(line, 0) == [line]
        indent = len(line) - len(line.lstrip(" "))
        for k, part in enumerate(out):
            if _cols(part) > width:         # only a word wider than the width itself
                word = re.sub(r"(\s+[·|])+$", "", part.strip())        # (with its joiners)
                assert word in _WORDS and _cols(word) > width // 2, (line, out)
            if k:
                assert 0 <= len(part) - len(part.lstrip(" ")) <= indent + 4, (line, out)
                assert not part.lstrip().startswith(("·", "|", "，", "：", "）")), (line, out)
        if columns_fit := _cols(line) <= width:
            assert out == [line] and columns_fit
        for interval in re.findall(r"\[[^\]]*\]", line):
            if _cols(interval) <= width // 2:
                assert any(interval in part for part in out), (interval, out)
        for est in re.findall(r"\(?[≈=][+−]?[\d.]+ \[[^\]]*\]", line):
            if _cols(est) <= width - indent - 4:                      # a value with its interval
                assert any(est in part for part in out), (est, out)


def test_wrap_breaks_chinese_between_characters_and_keeps_the_first_line_as_written():
    line = "  估值：从此处起  Ирина & Ольга 预期的升级数（+3 … −3）；= 求解器证明"
    for width in range(20, 60):
        out = wrap(line, width)
        assert all(_cols(x) <= width for x in out), (width, out)
        assert line.startswith(out[0]), (width, out)                # spacing as written
        assert _flat("".join(out)) == _flat(line)


# -- the reports ------------------------------------------------------------------

@pytest.fixture(scope="module")
def reviews(tribute_review):
    """Two reviews: the short endgame estimated (marks, intervals, a better
    line) and the tribute deal (the exchange, Cyrillic names)."""
    short = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("double",), playouts=2,
                    estimator=spread_estimator, solve_cards=0, min_plays=False, opening=False,
                    check_factor=None).to_dict()
    tribute = tribute_review
    assert any(d["double"] and d["double"]["mistake"] for d in short["decisions"])
    assert any(d["kind"] != "play" for d in tribute["decisions"])
    return [{**short, "file": "a.txt"}, {**tribute, "file": "b.txt"}]


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_of_the_review_fits_and_says_what_the_unwrapped_one_says(reviews, lang):
    for data in reviews:
        whole = render_text(data, lang, width=0)
        assert max(_cols(x) for x in whole.splitlines()) > TEXT_WIDTH    # there is wrapping to do
        for width in by_run((20, 57, TEXT_WIDTH), (20, 33, 40, 57, TEXT_WIDTH, 120)):
            text = render_text(data, lang, width)
            assert max(_cols(x) for x in text.splitlines()) <= width, (lang, width)
            assert _flat(text) == _flat(whole), (lang, width)
        assert render_text(data, lang) == render_text(data, lang, TEXT_WIDTH)


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_of_the_evening_fits_and_says_what_the_unwrapped_one_says(reviews, lang):
    def flat(text):                          # the rule between deals is as wide as it may be
        return _flat(re.sub(r"^=+$", "", text, flags=re.M))
    whole = render_evening_text(reviews, lang, width=0)
    for width in by_run((20, TEXT_WIDTH), (20, 40, TEXT_WIDTH)):
        text = render_evening_text(reviews, lang, width=width)
        assert max(_cols(x) for x in text.splitlines()) <= width, (lang, width)
        assert flat(text) == flat(whole), (lang, width)


def test_a_decision_is_a_block_a_mark_a_line():
    """Wrapped, a decision's row keeps the move and its columns; each mark
    starts a line of its own under the player's name, and the first
    mistake's arrow follows the last mark."""
    data = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("double",), budget=0.05,
                   estimator=None, opening=False).to_dict()
    lines = render_text(data, "en").splitlines()
    k = lines.index("     #1  Anna    C5 (single 5)    3→2  DD =−1")
    assert lines[k + 1] == ("         DD ✗ blunder, proven loss: 2 levels; better: S3 (single 3) "
                            "=+1")
    assert lines[k + 2] == "         ← first mistake"
    assert lines[k + 3].startswith("     #2  Boris")
    one = render_text(data, "en", width=0).splitlines()
    assert next(x for x in one if x.startswith("     #1 ")) == ("     #1  Anna    C5 (single 5)    3→2  DD =−1  DD ✗ blunder, proven loss: "
                      "2 levels; better: S3 (single 3) =+1  ← first mistake")


@pytest.mark.parametrize("width", [5, 19, -1, 10 ** 7, "80", 80.0, True, None])
def test_a_width_that_cannot_be_laid_out_is_refused(reviews, width):
    with pytest.raises(LayoutError, match="width"):
        render_text(reviews[0], "en", width)
    with pytest.raises(LayoutError, match="width"):
        render_evening_text(reviews, "en", width=width)


def test_the_command_line_takes_a_width_and_refuses_a_bad_one(tmp_path):
    short = EXAMPLES / "record_endgame_short.txt"
    fast = ["--views", "double", "--budget", "0.05", "-q"]
    for width in ("0", "20", "200"):
        r = run("game", short, *fast, "--width", width)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert int(width) == 0 or max(_cols(x) for x in lines) <= int(width), width
    for bad in by_run(("5", "x", "٨٠"), ("5", "-1", "x", "80.5", "٨٠", "", "10000000")):
        r = run("game", short, *fast, "--width", bad)
        assert r.returncode == 2, bad
        err = r.stderr.strip().splitlines()
        assert len(err) == 1 and "--width" in err[0], (bad, r.stderr)
    doc = tmp_path / "review.json"
    assert run("game", short, *fast, "--json-out", doc).returncode == 0
    r = run("render", doc, "--width", "30", "--lang", "zh")
    assert r.returncode == 0 and max(_cols(x) for x in r.stdout.splitlines()) <= 30
    assert run("render", doc, "--width", "3").returncode == 2


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_analysis_fits_the_width_with_each_bomb_named_whole(lang):
    hand = EXAMPLES / "hand1.txt"
    whole = run("hand", hand, "--lang", lang, "--width", "0").stdout
    assert max(_cols(x) for x in whole.splitlines()) > TEXT_WIDTH     # there is wrapping to do
    comma, colon = punct("list", lang), punct("colon", lang)
    line = next(x for x in whole.splitlines() if x.count(comma) > 3)   # the bombs with wilds
    names = line.split(colon, 1)[1].split(comma)
    for width in (30, TEXT_WIDTH):
        out = run("hand", hand, "--lang", lang, "--width", str(width)).stdout
        assert max(_cols(x) for x in out.splitlines()) <= width, (lang, width)
        assert _flat(out) == _flat(whole)
        kept = " ".join(x.strip() for x in out.splitlines())
        assert all(name in kept for name in names), lang        # no bomb's name cut
    assert run("hand", hand, "--width", "7").returncode == 2


def test_chinese_names_of_cards_plays_and_players_are_never_cut(reviews):
    """A Chinese run is cut between characters only when it could not fit
    on a line of its own: 大王, 三带二 or a player's name never is, and an
    interval stays whole beside the Chinese word written after it."""
    named = {**reviews[1], "players": ["欧阳娜娜", "司马相如", "诸葛孔明", "上官婉儿"]}
    words = ["大王", "小王", "三带二", "单张", "对子", "欧阳娜娜", "诸葛孔明", "上官婉儿"]
    for data in (reviews[0], reviews[1], named):
        whole = render_text(data, "zh", width=0)
        intervals = set(re.findall(r"\[[^\]\n]*\]", whole))
        for width in by_run((26, 40, 84), range(20, 101, 3)):
            lines = render_text(data, "zh", width).splitlines()
            for w in words:
                assert sum(x.count(w) for x in lines) == whole.count(w), (w, width)
            if width >= 30:
                for iv in intervals:
                    assert sum(x.count(iv) for x in lines) == whole.count(iv), (iv, width)


@pytest.mark.parametrize("lang", LANGS)
def test_the_plays_left_stay_in_their_column_when_the_rows_are_narrowed(reviews, lang):
    """Where the rows do not fit, the move's column is narrowed (a longer
    move gets a line of its own, its plays left under it): every plays-left
    figure still ends in one column."""
    for data in reviews:
        if all(d.get("min_plays_before") is None for d in data["decisions"]):
            continue                            # a review without the column
        for width in by_run((45, 56, 60), range(44, 90, 4)):
            text = render_text(data, lang, width)
            ends = {_cols(x) for x in text.splitlines() if re.search(r"\d+→\d+$", x)}
            assert len(ends) == 1, (lang, width, ends)


@pytest.mark.parametrize("lang", LANGS)
def test_a_list_cut_at_its_separator_comes_back_as_written(lang):
    """wrap(..., at=the list's separator) cuts only after a separator and
    adds nothing: the lines, their indents taken away and joined by what
    follows the mark as written (a space, or none in Chinese), are the line."""
    comma = punct("list", lang)
    gap = comma[len(comma.rstrip()):]
    items = ["炸弹 9（6）" if lang == "zh" else "bomb 9 (6)"] + [
        f"{'同花顺' if lang == 'zh' else 'straight flush'} {r}–{r}A" for r in "23456789"]
    line = "X" + punct("colon", lang) + comma.join(items)
    widest = max(_cols(x + comma) for x in items)
    for width in range(widest + 4, 90, 7):       # every item fits a continuation line
        out = wrap(line, width, at=comma)
        assert gap.join(x.strip() for x in out) == line, (lang, width, out)
        assert all(x.rstrip().endswith(comma.rstrip()) for x in out[:-1]), out
