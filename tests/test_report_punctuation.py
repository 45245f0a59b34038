"""The punctuation of the reports (report.i18n.punct): Chinese prose takes
the full-width marks ，；：（）, never an ASCII , ; : ( ) next to a Chinese
character; notation keeps its own marks (the interval [−1, +3], =+2,
≈+0.4, cards, the → of plays left). English and Russian keep the ASCII
marks, and no full-width one.

The reviews are built in the deterministic mode (playouts, a seed, one
job), as tests/test_drills.py builds them: the short endgame (proven and
likely marks, better lines) and the tribute record (the exchange, the
advice's reasons), the latter also with Chinese players' names, so that
lists of names are joined as Chinese prose."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from guandan_fast.analysis.review import analyse
from guandan_fast.engine.endgame import solve
from guandan_fast.engine.estimate import estimate
from guandan_fast.formats.position import loads_position
from guandan_fast.formats.record import load
from guandan_fast.report.drills import render_drills_html
from guandan_fast.report.endgame import render_endgame_text, render_estimate_text
from guandan_fast.report.evening import render_evening_html, render_evening_text
from guandan_fast.report.html import render_html
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# a Chinese character, or a full-width mark (，：（ are Chinese prose too)
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
# an ASCII , ; : ( ) next to one (a space between them allowed)
_ASCII_BY_CJK = re.compile(rf"[{_CJK}] ?[,;:()]|[,;:()] ?[{_CJK}]")
_INTERVAL = re.compile(r"\[[^\]\n]*\]")          # [−1, +3], [下限, 上限]: notation
_FULL_WIDTH = re.compile("[，；：（）]")


def ascii_by_cjk(text: str) -> list:
    """The places where an ASCII , ; : ( ) touches Chinese, outside intervals."""
    text = _INTERVAL.sub("[]", text)
    return [text[max(0, m.start() - 12):m.end() + 12] for m in _ASCII_BY_CJK.finditer(text)]


class _Words(HTMLParser):
    """What a page shows: its text, the attributes a reader sees (title,
    aria-label, the labels of stacked cells, the filter's template) and
    the strings of the viewer's data (without their markup); not the CSS
    nor the scripts' code."""

    def __init__(self):
        super().__init__()
        self.out: list = []
        self.mode = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.mode = "data" if a.get("class") == "gd-data" else \
            "skip" if tag in ("script", "style") else ""
        self.out += [a[k] for k in ("title", "aria-label", "data-l", "data-tpl") if a.get(k)]

    def handle_endtag(self, tag):
        self.mode = ""

    def handle_data(self, data):
        if self.mode == "data":
            self._walk(json.loads(data.replace("<\\/", "</")))
        elif self.mode != "skip":
            self.out.append(data)

    def _walk(self, x):
        if isinstance(x, str):
            self.out.append(re.sub(r"<[^>]*>", " ", x))
        elif isinstance(x, dict):
            for v in x.values():
                self._walk(v)
        elif isinstance(x, list):
            for v in x:
                self._walk(v)


def page_words(page: str) -> str:
    p = _Words()
    p.feed(page)
    return "\n".join(p.out)


@pytest.fixture(scope="module")
def reviews(tribute_review):
    short = analyse(load(EXAMPLES / "record_endgame_short.txt"), playouts=20, seed=1,
                    jobs=1).to_dict()
    tribute = tribute_review
    assert any(d["double"] and d["double"]["mistake"] == "proven" for d in short["decisions"])
    assert any((d[v] or {}).get("mistake") == "likely" for d in tribute["decisions"]
               for v in ("double", "single"))
    assert tribute["exchange"] and any(e["reasons"] for e in tribute["exchange"])
    named = {**tribute, "players": ["东风", "南风", "西风", "北风"], "file": "named.json"}
    return [{"file": "short.json", **short}, {"file": "tribute.json", **tribute}, named]


def _position(name: str):
    pos = loads_position((EXAMPLES / name).read_text(encoding="utf-8"))
    t = pos.table
    shown = {"level": pos.rules.level, "turn": pos.turn,
             "hands": [" ".join(map(str, h)) for h in pos.hands],
             "table": None if t is None else {"cards": str(t), "type": t.type, "rank": t.rank},
             "owner": pos.owner, "passes": pos.passes, "finished": list(pos.finished)}
    return pos, shown


@pytest.fixture(scope="module")
def endgames():
    """Per endgame position: its report's dict, the solver's result, an
    estimate as proven, and the same estimate as not proven."""
    out = []
    for name in ("endgame1.txt", "endgame2.txt"):
        pos, shown = _position(name)
        est = estimate(pos, max_seconds=None, max_playouts=100, seed=1, threads=1).to_dict()
        loose = {**est, "exact": False, "value_proven": False,
                 "lower": est["lower"] - 1, "upper": est["upper"] + 1}
        out.append((shown, solve(pos, all_moves=True, threads=1).to_dict(), est, loose))
    return out


def _reports(reviews, endgames, lang):
    """Every report in a language but the deal's text (report.text), by name."""
    out = {}
    for data in reviews:
        out["page " + data["file"]] = page_words(render_html(data, lang))
    out["drills"] = page_words(render_drills_html(reviews, lang))
    out["evening page"] = page_words(render_evening_html(reviews, lang))
    # the evening and the deals' texts (report.text) it appends
    out["evening text"] = render_evening_text(reviews, lang)   # the deals too
    for k, (shown, result, est, loose) in enumerate(endgames):
        out[f"endgame {k}"] = render_endgame_text(shown, result, lang)
        out[f"estimate {k}"] = render_estimate_text(shown, est, lang)
        out[f"loose estimate {k}"] = render_estimate_text(shown, loose, lang)
    return out


def test_the_chinese_reports_use_chinese_punctuation(reviews, endgames):
    reports = _reports(reviews, endgames, "zh")
    for name, text in reports.items():
        assert not ascii_by_cjk(text), (name, ascii_by_cjk(text)[:5])
    joined = "\n".join(reports.values())
    for mark in "，；：（）":          # and they are there
        assert mark in joined, mark
    # notation keeps its marks: intervals, values, cards
    assert re.search(r"≈[+−]?\d[\d.]* \[[+−]?[\d.]+, [+−]?[\d.]+\]", joined)
    assert "东风，" in joined or "，东风" in joined           # names listed as Chinese prose


def test_the_chinese_deal_text_uses_chinese_punctuation(reviews):
    for data in reviews:
        for width in (0, 40, 80):
            text = render_text(data, "zh", width)
            assert not ascii_by_cjk(text), (data["file"], width, ascii_by_cjk(text)[:5])


def test_the_separators_of_each_language():
    from guandan_fast.report.i18n import punct
    kinds = ("list", "clause", "colon", "open", "close", "aside")
    for lang in ("en", "ru"):
        assert [punct(k, lang) for k in kinds] == [", ", "; ", ": ", "(", ")", " ("]
    assert [punct(k, "zh") for k in kinds] == ["，", "；", "：", "（", "）", "（"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_english_and_russian_keep_the_ascii_punctuation(reviews, endgames, lang):
    reports = _reports(reviews, endgames, lang)
    reports.update({"text " + d["file"]: render_text(d, lang) for d in reviews})
    for name, text in reports.items():
        assert not _FULL_WIDTH.search(text), (name, _FULL_WIDTH.findall(text)[:5])
    joined = "\n".join(reports.values())
    words = {"en": ("✗ blunder, proven loss: ", " (single ", "better: ", "Finishing order: "),
             "ru": ("✗ грубая ошибка, доказанная потеря: ", " (одиночная ", "лучше: ",
                    "Порядок выхода: ")}[lang]
    for w in words:
        assert w in joined, (lang, w)
    assert re.search(r"\), \S", joined) and re.search(r"\S; \S", joined)        # lists, clauses


def test_the_chinese_hand_plays_and_tribute_outputs_use_chinese_punctuation():
    """The command line's own texts (gd-analyze hand, plays, tribute) in
    Chinese take the full-width marks too; in English the ASCII ones."""
    from clirun import run
    commands = [("hand", "hand1.txt"), ("plays", "hand1.txt", "--hint"),
                ("plays", "hand1.txt", "--beat", "S5"), ("tribute", "tribute_give.txt", "--give"),
                ("tribute", "tribute_return.txt", "--return"), ("tribute", "deal_tribute.txt")]
    for cmd, name, *rest in commands:
        zh = run(cmd, EXAMPLES / name, *rest, "--lang", "zh")
        assert zh.returncode == 0, zh.stderr
        assert not ascii_by_cjk(zh.stdout), (cmd, name, ascii_by_cjk(zh.stdout)[:5])
        assert "：" in zh.stdout
        en = run(cmd, EXAMPLES / name, *rest).stdout
        assert not _FULL_WIDTH.search(en) and ": " in en, (cmd, name)
