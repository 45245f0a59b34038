"""The evening page and text (report/evening.py) from review documents:
deals named by their round/table/deal tags (not by path), per player and
per view the accuracy and the mistakes by tier, every mistake of the
evening sorted by loss and filterable, the same numbers as the deal pages."""

import copy
import re
from pathlib import Path

import pytest
from conftest import by_run
from fake_engines import spread_estimator

from guandan_fast.analysis.review import analyse
from guandan_fast.formats.record import load
from guandan_fast.report.common import _mark, loss_text, tiers_of
from guandan_fast.report.i18n import punct
from guandan_fast.report.evening import (deal_title, evening_order, evening_report,
                                         evening_summary, render_evening_html,
                                         render_evening_text)
from guandan_fast.report.html import render_html
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LANGS = ("en", "ru", "zh")


@pytest.fixture(scope="module")
def reviews():
    out = []
    for k, name in enumerate(("record_endgame_short.txt", "record_endgame_pair.txt")):
        rec = load(EXAMPLES / name)
        rec.tags = {"event": "match", "round": str(2 - k), "table": "a"}   # as bots.match writes
        # the single-dummy view's time budget: 0.01 s a decision in the
        # default run (every assertion here is computed from the reviews)
        data = analyse(rec, views=("double", "single"), budget=by_run(0.01, 0.05),
                       estimator=spread_estimator, solve_cards=0, opening=False,
                       check_factor=None).to_dict()
        out.append({"file": f"/some/long/path/{name}", **data})
    assert sum(len(r["mistakes"]) for r in out) >= 2
    return out


def test_deals_are_named_by_their_tags_not_their_path(reviews):
    assert deal_title(reviews[0], "en") == "Round 2, Table a"
    assert deal_title(reviews[0], "ru") == "Тур 2, Стол a"
    bare = {**reviews[0], "tags": {}}
    assert deal_title(bare, "en") == "record_endgame_short.txt"
    for lang in LANGS:
        text = render_evening_text(reviews, lang)
        page = render_evening_html(reviews, lang)
        assert "/some/long/path" not in text and "/some/long/path" not in page
        assert "?" not in text.split("\n\n")[1]          # no "Deal ?" in the results
    # by round: round 1 (the second record) first
    text = render_evening_text(reviews, "en")
    assert text.index("Round 1, Table a:") < text.index("Round 2, Table a:")


def test_the_evening_report_is_the_order_the_summary_and_the_errors(reviews):
    """``evening_report`` (what ``evening --format json`` prints) holds the
    reviews in the evening's order, the summary of that order (its leaks
    point into it) and the failed records as objects."""
    for lang in LANGS:
        got = evening_report(reviews, lang, [("bad.txt", "line 3: no play")])
        ordered = evening_order(reviews)
        assert [r["file"] for r in got["records"]] == [r["file"] for r in ordered]
        assert [r["file"] for r in ordered] != [r["file"] for r in reviews]   # round 1 first
        assert got["summary"] == evening_summary(ordered, lang)
        assert got["errors"] == [{"file": "bad.txt", "error": "line 3: no play"}]
    assert evening_report(reviews)["errors"] == []


def _reference(reviews, view):
    """Accuracy and marks counted from the decisions themselves."""
    per: dict = {}
    for data in reviews:
        for d in data["decisions"]:
            v = d[view]
            if v is None or d["forced"] or not v.get("chosen"):
                continue            # not judged: forced, or the move played not valued
            name = data["players"][d["seat"]]
            row = per.setdefault(name, {"judged": 0, "unclear": 0, "accurate": 0, "marks": 0})
            row["judged"] += 1
            if v["mistake"]:
                row["marks"] += 1
            elif v["unclear"]:
                row["unclear"] += 1
            else:
                row["accurate"] += 1
    return per


def test_accuracy_and_marks_per_player_and_view_match_a_count_of_the_decisions(reviews):
    summ = evening_summary(reviews, "en")
    for view in ("double", "single"):
        ref = _reference(reviews, view)
        for p in summ["players"]:
            got, want = p[view], ref[p["name"]]
            assert (got["judged"], got["unclear"], got["accurate"], got["mistakes"]) == \
                (want["judged"], want["unclear"], want["accurate"], want["marks"])
            counted = want["judged"] - want["unclear"]
            assert got["accuracy"] == (pytest.approx(want["accurate"] / counted, abs=1e-4)
                                       if counted else None)
            assert sum(got["tiers"].values()) == got["mistakes"]
        total = summ["evening"][view]
        assert total["judged"] == sum(r["judged"] for r in ref.values())


def test_the_leak_table_has_every_mark_by_loss_with_the_deal_pages_numbers(reviews):
    # in the page's order (round 1 before round 2): two marks of equal loss
    # in two deals are listed by the deal's place in that order
    reviews = evening_order(reviews)
    summ = evening_summary(reviews, "en")
    marks = [(k, d["index"], v) for k, r in enumerate(reviews) for d in r["decisions"]
             for v in ("double", "single") if d[v] and d[v]["mistake"]]
    leaks = summ["leaks"]
    assert sorted((x["review"], x["index"], x["view"]) for x in leaks) == sorted(marks)
    assert [x["loss"] for x in leaks] == sorted((x["loss"] for x in leaks), reverse=True)
    for lang in LANGS:
        page = render_evening_html(reviews, lang)
        table = page[page.index('id="leaks"'):page.index("</table>", page.index('id="leaks"'))]
        rows = re.findall(r'<tr data-player="([^"]+)" data-view="(double|single)">', table)
        assert [(p, v) for p, v in rows] == [(x["player"], x["view"]) for x in leaks]
        assert 'class="leak-filter" data-key="player"' in page
        assert 'class="leak-filter" data-key="view"' in page
        deal_pages = "".join(render_html(r, lang) for r in reviews)
        deal_texts = "".join(render_text(r, lang) for r in reviews)
        for x in leaks:
            d = reviews[x["review"]]["decisions"][x["index"]]
            tiers = tiers_of(reviews[x["review"]])
            shown = loss_text(d[x["view"]], lang, tiers)
            assert shown in table
            # the deal's own page and text show the same loss, the same mark
            assert _mark(d[x["view"]], lang, tiers) in deal_texts
            assert shown.replace("&", "&amp;") in deal_pages or shown in deal_pages


def test_the_evening_summary_does_not_mix_views(reviews):
    """The largest mistake of a view is a mark of that view."""
    summ = evening_summary(reviews, "en")
    for p in summ["players"]:
        for view in ("double", "single"):
            big = p[view]["largest"]
            if big:
                k, i, loss = big
                v = reviews[k]["decisions"][i][view]
                assert v["mistake"] and v["loss"] == loss


def test_a_record_without_summary_rows_of_a_view_is_counted_as_nothing(reviews):
    one = copy.deepcopy(reviews[0])
    for row in one["summary"]:
        row["single"] = {**row["single"], "judged": 0}
    summ = evening_summary([one], "en")
    assert all(p["single"]["judged"] == 0 for p in summ["players"])


def test_a_tribute_luck_too_wide_to_say_anything_is_unclear(reviews):
    data = copy.deepcopy(reviews[0])
    data["opening"] = {"deal": {"move": None, "mean": 0.3, "low": -2.0, "high": 2.6,
                                "exact": False, "samples": 10, "bounds": [-3, 3]},
                       "start": {"move": None, "mean": 0.2, "low": -2.5, "high": 2.8,
                                 "exact": False, "samples": 10, "bounds": [-3, 3]},
                       "exchange": {"move": None, "mean": -0.1, "low": -5.4, "high": 5.3,
                                    "exact": False, "samples": None, "bounds": [-6, 6]}}
    for lang, word in (("en", "unclear"), ("ru", "неясно"), ("zh", "不明确")):
        text = render_text(data, lang)
        colon = punct("colon", lang).rstrip()
        line = next(x for x in text.splitlines() if x.startswith("  Anna & Chen" + colon))
        assert f"? {word}" in line and "5,4" not in line and "5.4" not in line, line
        assert f"? {word}" in render_html(data, lang)
    narrow = copy.deepcopy(data)
    narrow["opening"]["exchange"].update(low=-1.0, high=0.8)
    assert "≈−0.1 [−1, +0.8]" in render_text(narrow, "en")


def test_the_players_mistakes_are_counted_with_their_noun_in_agreement(reviews):
    # "1 ошибка", "2 ошибки", "5 ошибок" (written apart from i18n here)
    def ru(n):
        if n % 10 == 1 and n % 100 != 11:
            return "ошибка"
        return "ошибки" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "ошибок"
    summ = evening_summary(reviews, "ru")
    text = render_evening_text(reviews, "ru")
    en = render_evening_text(reviews, "en")
    seen = 0
    for p in summ["players"]:
        for view in ("double", "single"):
            v = p.get(view)
            if not v or not v.get("judged"):
                continue
            n = v["mistakes"]
            assert re.search(rf"\b{n} {ru(n)}\b", text), (n, p)
            assert re.search(rf"\b{n} mistake{'' if n == 1 else 's'}\b", en), (n, p)
            seen += 1
    assert seen
