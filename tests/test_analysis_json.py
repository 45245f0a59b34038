"""The review as one JSON document (formats/analysis_json.py): what
analyse() writes is what the loader accepts, a bad document is refused
naming the field, every renderer reads the loaded document (the same marks
in every language), the CLI writes and renders it, the evening caches it."""

import copy
import json
import re
import shutil
from pathlib import Path

import pytest
from clirun import run
from fake_engines import spread_estimator

from guandan_fast.analysis.batch import review_records
from guandan_fast.analysis.cache import ReviewCache, cache_key
from guandan_fast.analysis.review import analyse
from guandan_fast.errors import AnalysisFormatError, GuandanError
from guandan_fast.formats import analysis_json
from guandan_fast.formats.record import load
from guandan_fast.report.drills import drills, render_drills_html
from guandan_fast.report.evening import (deal_title, evening_order, evening_report,
                                         evening_summary, render_evening_html,
                                         render_evening_text)
from guandan_fast.report.html import render_html
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"
LANGS = ("en", "ru", "zh")


@pytest.fixture(scope="module")
def doc():
    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=spread_estimator,
                solve_cards=0, opening=False, check_factor=None)
    data = a.to_dict()
    assert data["mistakes"], "the fake estimator marks mistakes"
    return data


def test_the_analysis_is_a_valid_document_and_loads_back(doc):
    text = analysis_json.dumps(doc)
    assert text.startswith('{\n "schema": "guandan-review",\n "version": 2,')
    back = analysis_json.loads(text)
    assert back == json.loads(text)
    assert analysis_json.loads(text.encode("utf-8")) == back
    assert analysis_json.dumps(back) == text


def _set(data, path, value):
    """data at a dotted path with list indices (``decisions.3.double.loss``)."""
    *head, last = path.split(".")
    x = data
    for k in head:
        x = x[int(k)] if isinstance(x, list) else x[k]
    if value is _DELETE:
        del x[int(last) if isinstance(x, list) else last]
    elif isinstance(x, list):
        x[int(last)] = value
    else:
        x[last] = value


_DELETE = object()


@pytest.mark.parametrize("path, value, named", [
    ("schema", "guandan-record", "schema"),
    ("version", 3, "version"),
    ("version", "1", "version"),
    ("decisions", {}, "decisions"),
    ("decisions.1.seat", 4, "decisions[1].seat"),
    ("decisions.1.seat", True, "decisions[1].seat"),
    ("decisions.1.kind", "bid", "decisions[1].kind"),
    ("decisions.1.index", 7, "decisions[1].index"),
    ("decisions.2.double.loss_low", "x", "decisions[2].double.loss_low"),
    ("decisions.2.double.chosen.mean", 9.5, "decisions[2].double.chosen.mean"),
    ("decisions.2.double.chosen.bounds", [0], "decisions[2].double.chosen.bounds"),
    ("decisions.2.double.mistake", "maybe", "decisions[2].double.mistake"),
    ("decisions.2.double.view", "single", "decisions[2].double.view"),
    ("decisions.2.hands", ["S3"], "decisions[2].hands"),
    ("decisions.2.hands", ["S3 X9", "", "", ""], "decisions[2].hands[0]"),
    ("decisions.2.hands", ["S3  S4", "", "", ""], "decisions[2].hands[0]"),
    ("decisions.2.move", {"cards": "S3", "type": "quad", "rank": "3"}, "decisions[2].move.type"),
    ("decisions.2.move", {"cards": "S3", "type": "single", "rank": "1"},
     "decisions[2].move.rank"),
    ("decisions.0.double.chosen.move.cards", "S#3", "decisions[0].double.chosen.move.cards"),
    ("level", "Z", "level"),
    ("level", "10", "level"),
    ("decisions.2.double.loss", _DELETE, "decisions[2].double.loss"),
    ("decisions.2.double.lost", 1, "decisions[2].double.lost"),
    ("summary.0.double.judged", -1, "summary[0].double.judged"),
    ("summary.1.seat", 0, "summary[1].seat"),
    ("summary.0.double.largest", [99, 1.0], "summary[0].double.largest"),
    ("mistakes", [999], "mistakes[0]"),
    ("first_mistake", 998, "first_mistake"),
    ("graph.double", [], "graph.double"),
    ("players", ["a", "b"], "players"),
    ("tags.deal", 3, "tags.deal"),
    ("settings.seed", -1, "settings.seed"),
    ("settings", _DELETE, "settings"),
    ("notes", [{"key": 1, "params": {}}], "notes[0].key"),
    ("notes", [{"key": "zzz", "params": {}}], "notes[0].key"),
    ("notes", [{"key": "estimated", "params": {}}], "notes[0].params.n"),
    ("notes", [{"key": "no_suggest", "params": {"n": 1}}], "notes[0].params.n"),
    ("notes", [{"key": "refused", "params": {"what": {"kind": "bid", "i": 1}, "error": "x"}}],
     "notes[0].params.what.kind"),
    ("result", -99, "result"),
    ("finished", [3, 3, 3], "finished"),
    ("decisions.1.move_index", None, "decisions[1].move_index"),
    ("decisions.1.move", {"cards": "S3", "type": "card", "rank": "3"}, "decisions[1].move.type"),
    ("decisions.1.breaks", {"cards": "C5", "type": "card", "rank": "5", "size": 1, "low": None,
                            "high": None}, "decisions[1].breaks.type"),
])
def test_a_bad_field_is_refused_by_name(doc, path, value, named):
    bad = copy.deepcopy(doc)
    _set(bad, path, value)
    with pytest.raises(AnalysisFormatError) as e:
        analysis_json.loads(json.dumps(bad))
    assert str(e.value).startswith(named + ":"), str(e.value)
    assert isinstance(e.value, GuandanError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize("text, named", [
    ("", "document: not JSON"), ("[]", "document: expected an object"),
    ('{"schema": "guandan-review", "version": 1, "x": NaN}', "document: NaN"),
    (b"\xff\xfe", "document: not UTF-8"), ("{" * 5000, "document"),
    ('{"schema": "guandan-review", "version": 1, "version": 2}',
     "document: JSON key 'version' given twice"),
    ('{"schema": "guandan-review", "result": 1' + "0" * 4400 + "}", "document: a JSON number"),
])
def test_text_that_is_not_a_document_is_refused(text, named):
    with pytest.raises(AnalysisFormatError) as e:
        analysis_json.loads(text)
    assert str(e.value).startswith(named), str(e.value)


_ONE = [lambda d: render_text(d, "ru", 40), lambda d: render_html(d, "zh"),
        lambda d: deal_title(d, "en")]
_MANY = [lambda r, e: render_evening_text(r, "en", e), lambda r, e: render_evening_html(r, "ru", e),
         lambda r, e: evening_report(r, "zh", e),
         lambda r, e: evening_summary(r), lambda r, e: evening_order(r),
         lambda r, e: drills(r, "zh"), lambda r, e: render_drills_html(r, "en")]


@pytest.mark.parametrize("path, value, named", [
    ("schema", _DELETE, "schema"), ("level", _DELETE, "level"), ("decisions", 5, "decisions"),
    ("decisions.2.double", _DELETE, "decisions[2].double"), ("summary", None, "summary"),
    ("decisions.1.move_index", None, "decisions[1].move_index")])
def test_the_renderers_refuse_a_bad_document_by_name(doc, path, value, named):
    """A document built in Python and handed to a renderer without the
    reader: the renderer checks it and names the field, as the reader does
    (a ValueError subclass, not a KeyError or TypeError from inside)."""
    bad = copy.deepcopy(doc)
    _set(bad, path, value)
    _refused_by_every_renderer(bad, named, good=doc)


def _refused_by_every_renderer(bad: dict, named: str, good=None) -> None:
    """``bad`` refused by each renderer of one review (the field ``named``)
    and of a list (``records[k].`` and the field; after ``good`` when
    given)."""
    reviews = [good, bad] if good is not None else [bad]
    for render in _ONE:
        with pytest.raises(AnalysisFormatError) as e:
            render(bad)
        assert str(e.value).startswith(named + ":"), str(e.value)
    for render in _MANY:
        with pytest.raises(AnalysisFormatError) as e:
            render(reviews, [])
        assert str(e.value).startswith(f"records[{len(reviews) - 1}].{named}:"), str(e.value)


@pytest.mark.parametrize("reviews, errors, named", [
    (None, [], "records: expected a list"), ({"schema": "guandan-review"}, [], "records"),
    ([[]], [], "records[0].document: expected an object"), ([], "x", "errors: expected a list"),
    ([], [("a.txt",)], "errors[0]"), ([], [("a.txt", "bad"), ("b.txt", 3)], "errors[1]")])
def test_the_evening_renderers_refuse_what_is_not_reviews_and_errors(doc, reviews, errors,
                                                                     named):
    for render in _MANY[:3]:        # the three that take errors
        with pytest.raises(AnalysisFormatError) as e:
            render(reviews, errors)
        assert str(e.value).startswith(named), str(e.value)
    if errors == []:
        for render in _MANY[3:]:
            with pytest.raises(AnalysisFormatError) as e:
                render(reviews, None)
            assert str(e.value).startswith(named), str(e.value)
    for render in _ONE:             # not a review document either
        with pytest.raises(AnalysisFormatError) as e:
            render(reviews)
        assert str(e.value).split(":")[0] in ("document", "version"), str(e.value)


@pytest.fixture(scope="module")
def tribute_doc():
    """A review with a tribute and a return advised (their reasons, a card
    that differs from the advice)."""
    data = analyse(load(EXAMPLES / "record_tribute.txt"), views=("double",), budget=0.05,
                   estimator=spread_estimator, solve_cards=0, opening=False,
                   check_factor=None).to_dict()
    assert any(e["differs"] for e in data["exchange"])
    assert any(r["key"] == "breaks" for e in data["exchange"] for r in e["reasons"])
    return data


_INF = float("inf")


@pytest.mark.parametrize("path, value, named", [
    ("settings.budget", _INF, "settings.budget"), ("settings.budget", 10 ** 400, "settings.budget"),
    # integers too long to write as text (their ids given: pytest would write them)
    pytest.param("settings.seed", 10 ** 5000, "settings.seed", id="huge-seed"),
    pytest.param("settings.tiers", {10 ** 5000: 1}, "settings.tiers", id="huge-tier-key"),
    pytest.param("exchange.0.reasons.0", {"key": 10 ** 5000, "params": {}},
                 "exchange[0].reasons[0].key", id="huge-reason-key"),
    pytest.param("version", 10 ** 5000, "version", id="huge-version"),
    pytest.param("schema", 10 ** 5000, "schema", id="huge-schema"),
    ("summary.0.double.lost", -_INF, "summary[0].double.lost"),
    ("summary.0.double.tiers", {"zzz": 1}, "summary[0].double.tiers.zzz"),
    ("summary.0.double.tiers", {5: 1}, "summary[0].double.tiers"),
    ("settings.tiers", {"mistake": 10 ** 400}, "settings.tiers.mistake"),
    ("settings.tiers", {"bad": 1.0}, "settings.tiers.bad"),
    ("exchange.0.reasons.0", {"key": "plays", "params": {}}, "exchange[0].reasons[0].params.before"),
    ("exchange.0.reasons.0", {"key": "zzz", "params": {}}, "exchange[0].reasons[0].key"),
    ("exchange.0.reasons.1.params.bomb", 5, "exchange[0].reasons[1].params.bomb"),
    ("exchange.0.reasons.1.params.bomb", {"type": "straight_flush", "rank": "A", "suit": None,
                                          "size": 5}, "exchange[0].reasons[1].params.bomb.suit"),
    ("exchange.0.reasons.1.params.bomb", {"type": "straight_flush", "rank": "3", "suit": "S",
                                          "size": 5}, "exchange[0].reasons[1].params.bomb.rank"),
    ("exchange.0.reasons.1.params.bomb", {"type": "bomb", "rank": "Z", "suit": None, "size": 4},
     "exchange[0].reasons[1].params.bomb.rank"),
    ("exchange.1.best", None, "exchange[1].best")])
def test_what_a_renderer_reads_is_checked(tribute_doc, path, value, named):
    """Numbers a renderer formats, the tiers it names, the advice's reasons
    it words and the card it shows against the advice: refused by the reader
    and by every renderer, naming the field (an OverflowError, KeyError or
    TypeError from inside before)."""
    bad = copy.deepcopy(tribute_doc)
    _set(bad, path, value)
    with pytest.raises(AnalysisFormatError) as e:
        analysis_json.validate(bad)
    assert str(e.value).startswith(named + ":"), str(e.value)
    _refused_by_every_renderer(bad, named)


def test_tags_of_any_digits_order_the_evening(doc):
    """Round tags of ASCII digits in numeric order at any length (no int()),
    other digits as text, after the numbers."""
    tagged = []
    for i, r in enumerate(["10", "9", "0" * 5 + "2", "9" * 5000, "²", "1"]):
        tagged.append(dict(copy.deepcopy(doc), tags={"round": r}, file=f"{i}.txt"))
    order = [d["tags"]["round"] for d in evening_order(tagged)]
    assert order == ["1", "0" * 5 + "2", "9", "10", "9" * 5000, "²"]
    assert render_evening_text(tagged, "en").count("=" * 72) == len(tagged)


def test_a_checked_document_renders_as_before(doc):
    """The check leaves a valid document as it is: the public renderer's
    text is the unchecked renderer's, the text of the document and of its
    JSON round trip are the same, and the evening of one review holds the
    review's own text."""
    from guandan_fast.report.text import _render_text
    assert render_text(doc, "en") == _render_text(doc, "en", 80)
    back = analysis_json.loads(analysis_json.dumps(doc))
    assert render_text(doc, "en") == render_text(back, "en")
    assert render_text(doc, "en").rstrip() in render_evening_text([doc], "en", [("b.txt", "x")])
    assert "b.txt: x" in render_evening_text([doc], "en", [("b.txt", "x")])
    assert evening_order([doc]) == [doc]


def _marks_of_text(text: str) -> list:
    """(decision number, loss numbers) of every ✗ line of the text's
    mistakes section, language apart (the numbers with a point)."""
    out = []
    section = text.split("\n\n")
    for line in text.splitlines():
        if "✗" in line:
            nums = re.findall(r"\d+(?:[.,]\d+)?", line)
            out.append(tuple(n.replace(",", ".") for n in nums))
    assert section
    return out


def test_every_language_renders_the_same_marks_of_one_analysis(doc):
    data = analysis_json.loads(analysis_json.dumps(doc))
    marked = sorted(d["index"] for d in data["decisions"] if d["double"]["mistake"])
    texts = {lang: render_text(data, lang, width=0) for lang in LANGS}   # a line a decision
    marks = {lang: _marks_of_text(t) for lang, t in texts.items()}
    assert marks["en"] and marks["en"] == marks["ru"] == marks["zh"]
    for lang in LANGS:
        page = render_html(data, lang)
        viewer = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>',
                                      page, re.S).group(1))
        frames = viewer["frames"]
        assert sorted(i for i, f in enumerate(frames) if f["marks"]) == marked, lang
        numbers = [tuple(n.replace(",", ".") for n in re.findall(r"\d+(?:[.,]\d+)?", m))
                   for f in frames for m in f["marks"]]
        if lang == "en":
            first = numbers
        assert numbers == first, lang
    ev = {lang: _marks_of_text(render_evening_text([data], lang, width=0)) for lang in LANGS}
    assert ev["en"] == ev["ru"] == ev["zh"]
    assert all(render_evening_html([data], lang).count('class="viewer"') == 1 for lang in LANGS)


def test_game_writes_the_document_and_render_renders_it(tmp_path):
    out = tmp_path / "review.json"
    r = run("game", SHORT, "--views", "double", "--budget", "0.05", "-j", "1", "-q",
            "--json-out", out)
    assert r.returncode == 0, r.stderr
    data = analysis_json.load_path(str(out))
    again = run("render", out)
    assert again.returncode == 0 and again.stdout == r.stdout
    assert again.stdout == render_text(data, "en")
    page = tmp_path / "p.html"
    ru = run("render", out, "--lang", "ru", "--html", page)
    assert ru.returncode == 0 and ru.stdout == render_text(data, "ru")
    assert page.read_text(encoding="utf-8") == render_html(data, "ru")
    j = run("render", out, "--format", "json")
    assert json.loads(j.stdout) == data


@pytest.mark.parametrize("args, needle", [
    (["render", "{missing}"], "No such file"),
    (["render", "{bad}"], "version"),
    (["render", "{record}"], "not JSON"),
    (["render", "{good}", "--lang", "fr"], "--lang"),
    (["render", "{good}", "--html", "{tmp}"], "is a directory"),
    (["game", "{record}", "{record}", "--json-out", "{tmp}/x.json"], "--json-out takes a single"),
    (["game", "{record}", "--json-out", "{tmp}/no/x.json"], "no directory"),
    (["game", "{record}", "--json-out", ""], "empty file name"),
    (["evening", "{tmp}", "--cache", "{good}"], "not a directory"),
    (["evening", "{tmp}", "--cache", "{tmp}", "--no-cache"], "--no-cache"),
    (["evening", "{tmp}", "--json-out", "{tmp}"], "is a directory"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path, doc, args, needle):
    good = tmp_path / "good.json"
    good.write_text(analysis_json.dumps(doc), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**doc, "version": 3}), encoding="utf-8")
    names = {"missing": tmp_path / "none.json", "bad": bad, "good": good, "record": SHORT,
             "tmp": tmp_path}
    r = run(*[a.format(**names) for a in args])
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_the_evening_cache_reads_a_review_back_by_content_and_settings(tmp_path):
    rec = load(SHORT)
    opts = {"views": ("double",), "budget": 0.05, "estimator": spread_estimator,
            "solve_cards": 0, "opening": False}
    cache = tmp_path / "cache"
    first = review_records([("a.txt", rec)], cache=str(cache), **opts)
    assert "data" in first[0] and not first[0].get("cached")
    files = list(cache.iterdir())
    assert len(files) == 1
    # the same content under another name: read back, with its own name
    second = review_records([("b.txt", rec)], cache=str(cache), **opts)
    assert second[0]["cached"] and second[0]["data"]["file"] == "b.txt"
    strip = lambda d: {k: v for k, v in d.items() if k != "file"}  # noqa: E731
    assert strip(second[0]["data"]) == strip(first[0]["data"])
    # other settings, or another record: another key, reviewed again
    key = cache_key(rec, opts)
    assert cache_key(rec, {**opts, "seed": 1}) != key
    assert cache_key(rec, {**opts, "jobs": 4}) == key
    other = load(EXAMPLES / "record_endgame_pair.txt")
    assert cache_key(other, opts) != key
    # a damaged file is not trusted: reviewed again and written anew
    files[0].write_text("{", encoding="utf-8")
    assert ReviewCache(cache).get(key) is None
    third = review_records([("a.txt", rec)], cache=str(cache), **opts)
    assert not third[0].get("cached") and ReviewCache(cache).get(key) is not None


def test_evening_json_out_renders_every_language(tmp_path):
    night = tmp_path / "night"
    night.mkdir()
    shutil.copy(SHORT, night / "a.txt")
    ev = tmp_path / "ev.json"
    cache = tmp_path / "c"
    r = run("evening", night, "--views", "double", "--budget", "0.05", "-j", "1", "-q",
            "--cache", cache, "--json-out", ev)
    assert r.returncode == 0, r.stderr
    assert len(list(cache.iterdir())) == 1
    for lang in LANGS:
        page = tmp_path / f"ev.{lang}.html"
        got = run("render", ev, "--lang", lang, "--html", page)
        assert got.returncode == 0, got.stderr
        data = analysis_json.load_path(str(ev), evening=True)
        assert got.stdout == render_evening_text(data["records"], lang, [])
    again = run("evening", night, "--views", "double", "--budget", "0.05", "-j", "1", "-q",
                "--cache", cache)
    assert again.stdout == r.stdout           # read from the cache: the same review
