"""The deal review as a report (report/ on Analysis.to_dict()):
every estimate shown with its interval, a loss's proven part apart from
its estimate, sums of losses with their intervals, in en/ru/zh, in the
text, the page and the JSON."""

import re
from pathlib import Path

import pytest
from fake_engines import spread_estimator

from guandan_fast.analysis.judge import judge
from guandan_fast.analysis.review import analyse
from guandan_fast.engine.value import MoveValue
from guandan_fast.formats.record import load
from guandan_fast.model.cards import parse_cards
from guandan_fast.report.common import _mark
from guandan_fast.report.evening import evening_summary, render_evening_html, render_evening_text
from guandan_fast.report.html import render_html
from guandan_fast.report.i18n import punct
from guandan_fast.report.layout import TEXT_WIDTH
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"
LANGS = ("en", "ru", "zh")


@pytest.fixture(scope="module")
def estimated():
    """A review valued by estimates only (no solver), with mistakes marked."""
    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=spread_estimator,
                solve_cards=0, min_plays=False, opening=False, check_factor=None)
    data = a.to_dict()
    assert any(d["double"] and d["double"]["mistake"] == "likely" for d in data["decisions"])
    return data


# an estimate (≈ and a number) that is not followed by its interval
_BARE = re.compile(r"≈[+−]?\d[\d.,]*(?![\d.,]| \[)")


def test_every_estimate_in_the_report_has_its_interval(estimated):
    for lang in LANGS:
        for width in (TEXT_WIDTH, 40):        # wrapped, an estimate keeps its interval
            text = render_text(estimated, lang, width)
            assert not _BARE.findall(text), (lang, width, _BARE.findall(text)[:3])
        text = render_text(estimated, lang, width=0)          # a line a decision
        assert not _BARE.findall(text), (lang, _BARE.findall(text)[:3])
        play = [x for x in text.splitlines() if re.match(r"\s+(#|№|第)\d+", x)]
        assert play and all(" [" in x for x in play if "≈" in x), lang
        assert sum("≈" in x for x in play) > len(play) / 2, lang
        marks = [x for x in text.splitlines() if "✗" in x]
        assert marks and all(re.search(r"✗ [^:：]+(: |：)≈[\d.,]+ \[[\d.,]+[,;] [\d.,]+\]", x)
                             for x in marks), lang
        html = render_html(estimated, lang)
        assert not _BARE.findall(html), (lang, _BARE.findall(html)[:3])
    text = render_text(estimated, "en", width=0)
    assert re.search(r"levels given away ≈[\d.]+ \[[\d.]+, [\d.]+\], largest mistake #\d+ "
                     r"\(≈[\d.]+ \[[\d.]+, [\d.]+\] levels\)", text)


def test_losses_and_their_sums_carry_intervals_in_the_json(estimated):
    marked = [d["double"] for d in estimated["decisions"] if d["double"]
              and d["double"]["mistake"]]
    for v in marked:
        assert 0 < v["loss_low"] <= v["loss"] <= v["loss_high"]
        assert v["loss_proven"] == 0          # estimated: nothing proven
    for row in estimated["summary"]:
        dd = row["double"]
        assert dd["lost_low"] <= dd["lost"] <= dd["lost_high"]
        if dd["largest"]:
            i, loss = dd["largest"]
            assert loss == round(loss, 3) and loss == estimated["decisions"][i]["double"]["loss"]
    total = sum(v["loss_low"] for v in marked)
    assert sum(r["double"]["lost_low"] for r in estimated["summary"]) == pytest.approx(total)


def test_the_evening_shows_the_levels_lost_per_deal_with_an_interval(estimated):
    reviews = [{**estimated, "file": "a.txt"}, {**estimated, "file": "b.txt"}]
    summ = evening_summary(reviews)["players"]
    anna = next(p for p in summ if p["name"] == "Anna")["double"]
    assert anna["lost_per_deal_low"] <= anna["lost_per_deal"] <= anna["lost_per_deal_high"]
    for lang in LANGS:
        for width in (0, TEXT_WIDTH):
            text = render_evening_text(reviews, lang, width=width)
            assert not _BARE.findall(text), lang
        html = render_evening_html(reviews, lang)
        assert not _BARE.findall(html), lang
    line = next(x for x in render_evening_text(reviews, "en", width=0).splitlines()
                if x.startswith("    DD:"))       # Anna's double-dummy line, the first
    assert re.search(r"levels lost per deal ≈[\d.]+ \[[\d.]+, [\d.]+\]", line), line
    # one decimal, as every other value of the report
    per = re.search(r"levels lost per deal (≈[\d.]+ \[[\d.]+, [\d.]+\])", line).group(1)
    assert not re.search(r"\d\.\d\d", per), per


def test_a_proven_loss_shows_the_proven_part_and_the_estimate_apart():
    """The proven bounds separate the two moves by 2 levels (1 against −1):
    that much is proven; the means differ by 5.4, an estimate, shown as one
    with its interval (the difference's, within the proven range)."""
    moves = [MoveValue("A", 2.5, 0.7, 3.0, proven_low=1.0, proven_high=3.0),
             MoveValue("B", -2.9, -3.0, -1.1, proven_low=-3.0, proven_high=-1.0)]
    v = judge("double", moves, "B", 0)
    assert v.mistake == "proven"
    assert v.loss_proven == 2.0 and v.loss == pytest.approx(5.4)
    assert (v.loss_low, v.loss_high) == (pytest.approx(2.1), 6.0)
    d = v.to_dict()
    assert (d["loss"], d["loss_low"], d["loss_high"], d["loss_proven"]) == (5.4, 2.1, 6.0, 2.0)
    assert _mark(d, "en") == ("✗ blunder, proven loss: at least 2 levels "
                              "(estimate ≈5.4 [2.1, 6])")     # the tier of the proven part
    assert _mark(d, "ru") == "✗ грубая ошибка, доказанная потеря: не менее 2 уровней (оценка ≈5,4 [2,1; 6])"
    assert _mark(d, "zh") == "✗ 严重错误，已证明的损失：至少2级（估计 ≈5.4 [2.1, 6]）"
    # both values exact: the whole loss is proven, one number
    e = judge("double", [MoveValue("a", 1, 1, 1, exact=True), MoveValue("c", -1, -1, -1, exact=True)], "c", 0)
    assert (e.loss, e.loss_low, e.loss_high, e.loss_proven) == (2, 2, 2, 2)
    assert _mark(e.to_dict(), "en") == "✗ blunder, proven loss: 2 levels"
    # for team 1 the same values: "B" is the best, "A" a proven loss of 2 at least
    w = judge("double", moves, "A", 1)
    assert w.mistake == "proven" and w.loss_proven == 2.0


def test_the_evening_names_unnamed_seats_in_the_language(estimated):
    """Records without players: the evening's players are the seats, by
    their label in the language (as in each deal's review), never "#0"."""
    unnamed = {**estimated, "players": None, "file": "a.txt"}
    for lang, seat0 in (("en", "seat 0"), ("ru", "место 0"), ("zh", "0号位")):
        got = [p["name"] for p in evening_summary([unnamed], lang)["players"]]
        assert seat0 in got and not any(x.startswith("#") for x in got), (lang, got)
        text = render_evening_text([unnamed], lang)
        assert f"  {seat0}{punct('colon', lang)}" in text and "#0" not in text, lang
        html = render_evening_html([unnamed], lang)
        assert f"<tr><td>{seat0}</td>" in html, lang


def test_the_play_columns_line_up_in_every_language(estimated):
    """The values of the play start in one column on every line, Chinese
    included (a wide character takes two columns)."""
    import unicodedata
    from guandan_fast.report.i18n import game_label

    def _cols(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    def section(text, lang):
        end = punct("colon", lang).rstrip()
        return text.split("\n" + game_label("play", lang) + end + "\n")[1].split(
            "\n\n" + game_label("mistakes", lang) + end)[0]
    for lang, dd in (("en", " DD "), ("ru", " ОТК "), ("zh", " 明 ")):
        play = [x for x in section(render_text(estimated, lang, width=0), lang).splitlines() if x]
        assert len(play) == sum(d["kind"] == "play" for d in estimated["decisions"])
        starts = {_cols(x[:x.index(dd)]) for x in play}
        assert len(starts) == 1, (lang, starts)
        # wrapped to 40 columns: every value line, and every mark, starts in one column
        lines = section(render_text(estimated, lang, 40), lang).splitlines()
        starts = {_cols(x) - _cols(x.lstrip()) for x in lines if x.lstrip().startswith(dd.strip())}
        assert len(starts) == 1 and sum(1 for x in lines if dd in x) >= len(play), (lang, starts)


def test_the_largest_mistake_is_rounded_like_every_number_of_the_json(estimated):
    largest = [row["double"]["largest"] for row in estimated["summary"]
               if row["double"]["largest"]]
    assert largest
    for i, loss in largest:
        assert loss == round(loss, 3) == estimated["decisions"][i]["double"]["loss"]


_VIEWER_DATA = re.compile(r'<script type="application/json" class="gd-data">(.*?)</script>', re.S)


def test_the_page_orders_cards_by_the_rules(estimated):
    """The viewer's script sorts and groups hands by the order the page
    gives it (Rules.order at the deal's level), not by one of its own; the
    final hands are in that order, highest first."""
    import json

    from guandan_fast.model.rules import Rules
    for level in ("2", "7", "A"):
        page = render_html({**estimated, "level": level}, "en")
        viewer = json.loads(_VIEWER_DATA.search(page)[1].replace("<\\/", "</"))
        rules = Rules(level=level)
        assert viewer["order"] == {r: rules.order(r) for r in "23456789TJQKABR"}
        hands = page[page.rindex('<div class="hands">'):]
        shown = re.findall(r'class="card[^"]*" title="(\w\w)"', hands)
        assert len(shown) == sum(len(h.split()) for h in estimated["hands"])
        keys = [rules.order(t[1]) for t in shown[:len(estimated["hands"][0].split())]]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) > 1
    script = page[page.rindex("<script>"):]
    assert "D.order" in script and "23456789" not in script


# --- the move played in the viewer, and the labels ------------------------------

CLUB = EXAMPLES / "record_club.txt"


@pytest.fixture(scope="module")
def every_move_valued():
    """The club deal with every legal move valued (a value made of its
    cards): many decisions list more than the viewer's 40 rows."""
    return analyse(load(CLUB), views=("double",), budget=0.05, estimator=spread_estimator,
                   solve_cards=0, min_plays=False, opening=False).to_dict()


def _reversed_cards(data: dict) -> dict:
    """The review as if the record wrote every play's cards in reverse order."""
    out = {**data, "decisions": []}
    for d in data["decisions"]:
        mv = d["move"]
        if mv is not None and d["kind"] == "play":
            mv = {**mv, "cards": " ".join(reversed(mv["cards"].split()))}
        out["decisions"].append({**d, "move": mv})
    return out


def test_the_viewer_flags_the_move_played_whatever_its_cards_order(every_move_valued):
    from guandan_fast.report.html import MAX_ROWS, _viewer_data
    for data in (every_move_valued, _reversed_cards(every_move_valued)):
        frames = _viewer_data(data, "en")["frames"]
        past_cut = 0
        for d, f in zip(data["decisions"], frames):
            moves = d["double"]["moves"]
            flagged = [c for c in f["cands"] if c["chosen"]]
            assert len(flagged) == 1, d["index"]
            shown = flagged[0]["text"].split(" (")[0]
            if d["move"] is None:
                assert shown == "pass"
            else:
                # the page writes cards in the language's notation (report.i18n.card_label)
                assert sorted(map(str, parse_cards(shown))) == \
                    sorted(d["move"]["cards"].split()), d["index"]
                assert flagged[0]["double"], d["index"]        # with its value
            rank = next(k for k, m in enumerate(moves) if m["move"] == d["double"]["chosen"]["move"])
            past_cut += rank >= MAX_ROWS
            # 40 rows, and the move played after them when it is further down
            assert len(f["cands"]) == min(len(moves), MAX_ROWS) + (rank >= MAX_ROWS), d["index"]
            assert f["more"] == len(moves) - len(f["cands"]), d["index"]
        assert past_cut > 0                    # the cut is exercised
    # the reversal did write some plays in another order than the candidates
    rev = _reversed_cards(every_move_valued)
    assert any(d["move"] and d["move"]["cards"] != o["move"]["cards"]
               for d, o in zip(rev["decisions"], every_move_valued["decisions"]))


def test_forced_moves_and_the_columns_are_labelled(every_move_valued):
    data = every_move_valued
    forced = [d for d in data["decisions"] if d["kind"] == "play" and d["forced"]]
    assert forced
    words = {"en": "forced: the only legal move", "ru": "вынужденный: единственный допустимый ход",
             "zh": "唯一着法：没有其他合法着法"}
    for lang in LANGS:
        text = render_text(data, lang, width=0)           # a line a decision
        lines = {x.split()[0]: x for x in text.splitlines() if re.match(r"\s+(#|№|第)\d+", x)}
        for d in data["decisions"]:
            if d["kind"] != "play":
                continue
            ref = {"en": f"#{d['move_index'] + 1}", "ru": f"№{d['move_index'] + 1}",
                   "zh": f"第{d['move_index'] + 1}手"}[lang]
            assert (words[lang] in lines[ref]) == d["forced"], (lang, ref)
        assert "8→7" in text                   # the plays-left column explained
        page = render_html(data, lang)
        for d in data["decisions"]:
            if d["kind"] != "play":
                continue
            row = re.search(rf'<tr id="deal1-d{d["index"]}".*?</tr>', page).group(0)
            assert ('class="tag forced"' in row) == d["forced"], (lang, d["index"])
        assert page.count('<span class="li">') == 8         # the graph's legend
        assert "8→7" in page


def test_no_advice_reasons_for_the_only_tribute_card():
    data = analyse(load(EXAMPLES / "record_tribute.txt"), views=("double",), estimator=None,
                   suggester=None, solve_cards=0, min_plays=False, opening=False).to_dict()
    only = [e for e in data["exchange"] if len(e["choices"]) == 1]
    other = [e for e in data["exchange"] if len(e["choices"]) > 1]
    assert only and other and only[0]["reasons"]          # the advice gave reasons for it
    words = {"en": "the only card allowed", "ru": "единственная допустимая карта",
             "zh": "唯一可选的牌"}
    from guandan_fast.report.i18n import advice_reason
    for lang in LANGS:
        text, page = render_text(data, lang, width=0), render_html(data, lang)
        assert text.count(words[lang]) == page.count(words[lang]) == len(only)
        for e in only:
            assert advice_reason(e, lang) not in text and advice_reason(e, lang) not in page
        for e in other:
            assert advice_reason(e, lang) in text


def test_a_bound_that_is_not_zero_never_reads_zero():
    """A loss whose interval lies above 0 (0.03 to 0.7) is marked; its text
    must not read [0, 0.7], which would contradict the mark."""
    from guandan_fast.report.common import loss_text, value_text
    val = {"loss": 0.36, "loss_low": 0.03, "loss_high": 0.7, "loss_proven": 0.0}
    assert loss_text(val, "en") == "≈0.4 [0.03, 0.7] levels"
    assert loss_text(val, "ru").startswith("≈0,4 [0,03; 0,7]")
    mv = {"mean": 0.2, "low": -0.04, "high": 0.44, "exact": False}
    assert value_text(mv, "en") == "≈+0.2 [−0.04, +0.4]"
    assert value_text({**mv, "low": 0.0}, "en") == "≈+0.2 [0, +0.4]"


@pytest.mark.parametrize("lang", ["xx", None, "EN", ["en"]])
def test_a_language_the_reports_do_not_write_is_a_language_error(lang):
    from guandan_fast.errors import GuandanError, LanguageError
    from guandan_fast.report import i18n
    for f in (lambda: i18n.number(1.5, lang), lambda: i18n.levels(2, lang),
              lambda: i18n.count_of(2, "cards", lang)):
        with pytest.raises(LanguageError, match="unknown language") as e:
            f()
        assert isinstance(e.value, GuandanError)


def test_a_loss_near_a_tier_threshold_is_shown_on_its_side():
    # an inaccuracy of 0.651 levels (mistakes start at 0.7) reads ≈0.65, never
    # ≈0.7 beside its tier's name, in every report of the review
    from guandan_fast.report.drills import render_drills_html
    data = analyse(load(SHORT), views=("double",), budget=0.05, estimator=spread_estimator,
                   solve_cards=0, opening=False, check_factor=None).to_dict()
    assert data["settings"]["tiers"]["mistake"] == 0.7
    marked = [d for d in data["decisions"] if d["double"] and d["double"]["mistake"]]
    assert marked
    d = marked[0]
    d["double"].update(loss=0.651, loss_low=0.5, loss_high=0.8, loss_proven=0.0,
                       mistake="likely", tier="inaccuracy")
    for lang, near in (("en", "≈0.65 "), ("ru", "≈0,65 "), ("zh", "≈0.65 ")):
        for text in (render_text(data, lang), render_html(data, lang),
                     render_evening_text([data], lang)):
            assert near in text, lang
            assert near.replace("65", "7") not in text, lang
    assert "0.65" in render_drills_html([data], "en")
