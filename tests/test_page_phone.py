"""The review page at a phone's width and a laptop's, in a real headless
browser (Debian's chromium with chromium-driver, through Selenium), on the
bundled records (examples/record_*.txt) reviewed on a small budget:

- at 390 px the document is no wider than the viewport, the graph shown is
  the narrow one and readable (full width, taller), no cell wraps one
  character per line, a joker's name fits its card in a font of 11 px at
  least, a mistake row stays
  compact;
- at every decision of every record the viewer lists the move played and
  flags it (its cards as a multiset, whatever order the record wrote them
  in), also where the list is cut;
- the viewer steps forward and back (buttons, a swipe) and its mistake
  buttons visit every mistake in order, and it shows the round so far.

The review's values depend on the machine (a time budget); every assertion
here is computed from the review data the page is given, so it holds for
any values. Default run: one browser session and one short page, the
bomb record in English at 390 px (starting the browser is most of its
cost); ``--slow``: the club record with its screenshots, the other
records and languages, 1280 px, the played-move check, the viewer's
stepping, the evening page: every record in every language at both
widths.
Screenshots at 390 px go to tests/artifacts/ (ignored by git)."""

from collections import Counter
from pathlib import Path

import pytest

from guandan_fast.analysis.review import analyse
from guandan_fast.formats.record import load
from guandan_fast.model.cards import parse_cards
from guandan_fast.report.html import render_html

from selenium.webdriver.common.by import By  # noqa: E402

from browser import console_errors, needs_browser, open_page, session

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
RECORDS = sorted(p.stem for p in EXAMPLES.glob("record_*.txt"))
LANGS = ("en", "ru", "zh")
PASS = {"en": "pass", "ru": "пас", "zh": "过"}
MIN_JOKER_FONT = 11         # px: the least readable label on a phone
pytestmark = needs_browser
slow = pytest.mark.slow


@pytest.fixture(scope="module")
def driver():
    yield from session(1280, 900)


_REVIEWS: dict = {}


def review(name: str) -> dict:
    """A bundled record reviewed on a small budget (once per test run)."""
    if name not in _REVIEWS:
        _REVIEWS[name] = analyse(load(EXAMPLES / f"{name}.txt"), budget=0.01, seed=0,
                                 jobs=1).to_dict()
    return _REVIEWS[name]


def _width(driver, width: int) -> None:
    """The viewport ``width`` px wide, as a phone (mobile) below 600 px."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 844 if width < 600 else 900, "deviceScaleFactor": 1,
        "mobile": width < 600})


def _open(driver, tmp_path, name: str, lang: str, width: int) -> dict:
    data = review(name)
    _width(driver, width)
    open_page(driver, tmp_path / f"{name}_{lang}_{width}.html", render_html(data, lang))
    assert console_errors(driver) == []
    return data


def _viewer(driver):
    return driver.find_element(By.CSS_SELECTOR, ".viewer")


def _pos(driver) -> int:
    """The decision the viewer shows (0-based), from the viewer's script."""
    return driver.execute_script("return window.gdViewers[0].i")


# --- layout ------------------------------------------------------------------

def _layout(driver, lang: str) -> dict:
    """What a person would check at a glance, measured in the page."""
    return driver.execute_script("""
      var vw = window.innerWidth, out = {vw: vw, doc: document.documentElement.scrollWidth};
      function shown(e){var r=e.getBoundingClientRect();return r.width>0&&r.height>0;}
      var g = [].filter.call(document.querySelectorAll('svg.graph'), shown);
      out.graphs = g.map(function(e){var r=e.getBoundingClientRect();
        return [e.getAttribute('class'), r.width, r.height];});
      // a cell or tag that wraps one character per line: narrower than two
      // characters of its font while holding two or more characters
      out.narrow = [];
      document.querySelectorAll('th, td, .tag, summary').forEach(function(e){
        if(!shown(e)) return;
        var t = e.textContent.trim(), fs = parseFloat(getComputedStyle(e).fontSize);
        if(t.length >= 2 && e.getBoundingClientRect().width < 1.8 * fs) out.narrow.push(t);
      });
      out.jokers = [];
      document.querySelectorAll('.card.joker').forEach(function(e){
        if(shown(e) && e.scrollWidth > e.clientWidth + 1) out.jokers.push(e.textContent);
      });
      // the smallest font of a joker's label (its word is the card's own text)
      out.jokerFont = null;
      document.querySelectorAll('.card.joker').forEach(function(e){
        if(!shown(e)) return;
        var fs = parseFloat(getComputedStyle(e).fontSize);
        if(out.jokerFont === null || fs < out.jokerFont) out.jokerFont = fs;
      });
      out.mistakeRows = [].map.call(document.querySelectorAll('table.play tr.mistake'),
        function(e){return e.getBoundingClientRect().height;});
      out.playRows = [].map.call(document.querySelectorAll('table.play tr[data-i]'),
        function(e){return e.getBoundingClientRect().height;});
      return out;""")


def _check_phone(driver, data: dict, lang: str, shot: bool) -> None:
    m = _layout(driver, lang)
    assert m["vw"] == 390
    assert m["doc"] <= m["vw"], m["doc"]                 # no sideways scroll
    assert len(m["graphs"]) == 1                          # the narrow graph alone
    cls, w, h = m["graphs"][0]
    assert "narrow" in cls and w >= 0.85 * 390 and h >= 200, m["graphs"]
    assert m["narrow"] == [], m["narrow"][:5]
    assert m["jokers"] == []
    assert m["jokerFont"] is None or m["jokerFont"] >= MIN_JOKER_FONT, m["jokerFont"]
    # a mistake row stays about as tall as a few plain rows
    plain = sorted(m["playRows"])[len(m["playRows"]) // 2]
    assert m["mistakeRows"] and max(m["mistakeRows"]) < max(400, 4 * plain), m["mistakeRows"]
    # the move lists fold
    lists = driver.find_elements(By.CSS_SELECTOR, "details.playlist, details.cands")
    assert len(lists) == 2
    summary = driver.find_element(By.CSS_SELECTOR, "details.playlist > summary")
    table = driver.find_element(By.CSS_SELECTOR, "table.play")
    driver.execute_script("arguments[0].scrollIntoView()", summary)
    summary.click()
    assert not table.is_displayed()
    summary.click()
    assert table.is_displayed()
    if shot:
        ARTIFACTS.mkdir(exist_ok=True)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(ARTIFACTS / f"phone_{lang}.png"))
        _viewer(driver).location_once_scrolled_into_view
        driver.save_screenshot(str(ARTIFACTS / f"phone_{lang}_viewer.png"))


@slow
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_fits_a_phone(driver, tmp_path, lang):
    data = _open(driver, tmp_path, "record_club", lang, 390)
    _check_phone(driver, data, lang, shot=True)


# the default run's browser test: a short record with a mistake, in English
@pytest.mark.parametrize("name", [n if n == "record_bomb_thrown" else pytest.param(n, marks=slow)
                                  for n in RECORDS])
@pytest.mark.parametrize("lang", ["en"] + [pytest.param(x, marks=slow) for x in LANGS[1:]])
def test_every_record_fits_a_phone(driver, tmp_path, name, lang):
    data = _open(driver, tmp_path, name, lang, 390)
    if any(d.get(v) and d[v].get("mistake") for d in data["decisions"] for v in ("double", "single")):
        _check_phone(driver, data, lang, shot=False)
    else:
        m = _layout(driver, lang)
        assert m["doc"] <= m["vw"] and m["narrow"] == [] and m["jokers"] == []
        assert m["jokerFont"] is None or m["jokerFont"] >= MIN_JOKER_FONT, m["jokerFont"]


@pytest.mark.parametrize("lang", [pytest.param(x, marks=slow) for x in ("ru", "en", "zh")])
def test_joker_labels_are_readable_on_a_phone(driver, tmp_path, lang):
    """Jokers in every size of card (the hands, the play's small cards) with
    a label of at least MIN_JOKER_FONT px, fitting their cards, and the page
    still no wider than the phone (the Russian word is the longest)."""
    data = _open(driver, tmp_path, "record_tribute", lang, 390)
    assert any("SB" in h.split() or "HR" in h.split() for h in data["hands"])
    m = _layout(driver, lang)
    assert m["jokerFont"] is not None and m["jokerFont"] >= MIN_JOKER_FONT, m["jokerFont"]
    small = driver.execute_script(
        "return document.querySelectorAll('.cards.small .card.joker').length")
    assert small > 0
    assert m["jokers"] == [] and m["doc"] <= m["vw"], (m["jokers"][:3], m["doc"])


@slow
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_at_a_laptop_width(driver, tmp_path, lang):
    _open(driver, tmp_path, "record_club", lang, 1280)
    m = _layout(driver, lang)
    assert m["doc"] <= m["vw"] == 1280
    assert len(m["graphs"]) == 1 and "wide" in m["graphs"][0][0] and m["graphs"][0][1] > 600
    assert m["narrow"] == [] and m["jokers"] == []


# --- the move played ---------------------------------------------------------

_CHOSEN = """
  var v = window.gdViewers[0], out = [];
  for (var i = 0; i < v.D.frames.length; i++) {
    v.show(i);
    var rows = v.root.querySelectorAll('table.cand tr.chosen');
    function key(r){   // the cards as a multiset, and what they are played as
      var l = r.querySelector('td:first-child .legend');
      return [].map.call(r.querySelectorAll('td:first-child .card'),
                         function(c){return c.getAttribute('title');}).sort().join(' ')
             + '|' + (l ? l.textContent : '');}
    var all = [].map.call(v.root.querySelectorAll('table.cand tr'), key);
    out.push(rows.length !== 1 ? null : {
      cards: [].map.call(rows[0].querySelectorAll('td:first-child .card'),
                         function(c){return c.getAttribute('title');}),
      text: rows[0].querySelector('td').textContent,
      values: [].map.call(rows[0].querySelectorAll('td'), function(c){return c.textContent;}).slice(1),
      all: all, key: key(rows[0]), tag: rows[0].querySelectorAll('.tag').length});
  }
  return out;"""


def _check_played(driver, data: dict, lang: str) -> None:
    """At every decision the viewer lists the move played once, flagged, with
    the cards of the move in the record (as a multiset)."""
    rows = driver.execute_script(_CHOSEN)
    assert len(rows) == len(data["decisions"])
    for d, row in zip(data["decisions"], rows):
        assert row is not None, d["index"]          # exactly one row flagged
        assert row["tag"] == 1, d["index"]          # and tagged "played"
        if d["move"] is None:
            assert row["cards"] == [] and PASS[lang] in row["text"], d["index"]
        else:
            # the titles are the cards in the language's notation (report.i18n.card_label)
            assert Counter(map(str, parse_cards(" ".join(row["cards"])))) == \
                Counter(d["move"]["cards"].split()), d["index"]
            # listed once: no second row of the same play (its cards in another order)
            assert row["all"].count(row["key"]) == 1, d["index"]
        # the row carries the values the review gives the move played
        for k, view in enumerate(("double", "single")):
            chosen = (d.get(view) or {}).get("chosen")
            assert bool(row["values"][k]) == (chosen is not None), (d["index"], view)


@slow
@pytest.mark.parametrize("name", RECORDS)
def test_the_move_played_is_flagged_at_every_decision(driver, tmp_path, name):
    data = _open(driver, tmp_path, name, "en", 390)
    _check_played(driver, data, "en")


@slow
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_move_played_is_flagged_in_every_language(driver, tmp_path, name, lang, width):
    data = _open(driver, tmp_path, name, lang, width)
    _check_played(driver, data, lang)


# --- stepping ----------------------------------------------------------------

def _mistakes(data: dict) -> list:
    return [d["index"] for d in data["decisions"]
            if any(d.get(v) and d[v].get("mistake") for v in ("double", "single"))]


def _round_so_far(data: dict, i: int) -> int:
    """The plays (passes included) since the last lead, before decision i."""
    n = 0
    for d in data["decisions"][:i + 1]:
        if d["kind"] != "play" or d["table"] is None:
            n = 0
        if d["index"] < i:
            n += d["kind"] == "play"
    return n


def _swipe(driver, el, dx: int) -> None:
    """A horizontal swipe of dx px across an element, as touch events."""
    r = driver.execute_script("var r = arguments[0].getBoundingClientRect();"
                              "return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 40)];", el)
    x, y = r
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": "touchStart", "touchPoints": [{"x": x - dx / 2, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": "touchMove", "touchPoints": [{"x": x + dx / 2, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _check_stepping(driver, data: dict) -> None:
    viewer = _viewer(driver)
    n = len(data["decisions"])
    marks = _mistakes(data)
    assert marks, "the record has a mistake to jump to"
    assert _pos(driver) == data["first_mistake"] == marks[0]        # it opens on the first

    def go(what):
        b = viewer.find_element(By.CSS_SELECTOR, f"button[data-go='{what}']")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", b)
        b.click()

    go("first")
    assert _pos(driver) == 0
    for k in range(1, 4):
        go("next")
        assert _pos(driver) == k
        assert len(viewer.find_elements(By.CSS_SELECTOR, ".trick .play")) == _round_so_far(data, k)
    go("prev")
    assert _pos(driver) == 2
    # the mistake buttons visit every mistake in order, then stay on the last
    go("first")
    ahead = [m for m in marks if m > 0]
    seen = []
    for _ in ahead:
        go("nextmistake")
        seen.append(_pos(driver))
        assert viewer.find_elements(By.CSS_SELECTOR, ".what .tag:not(.forced)")
    assert seen == ahead
    go("nextmistake")
    assert _pos(driver) == marks[-1]
    go("last")
    assert _pos(driver) == n - 1
    behind = [m for m in reversed(marks) if m < n - 1]
    back = []
    for _ in behind:
        go("prevmistake")
        back.append(_pos(driver))
    assert back == behind
    go("prevmistake")
    assert _pos(driver) == marks[0]
    # a row of the play list opens its decision
    row = driver.find_element(By.CSS_SELECTOR, f"table.play tr[data-i='{marks[-1]}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.find_element(By.CSS_SELECTOR, "td.num").click()
    assert _pos(driver) == marks[-1]


@slow
@pytest.mark.parametrize("width", [390, 1280])
def test_the_viewer_steps_and_jumps_to_each_mistake(driver, tmp_path, width):
    data = _open(driver, tmp_path, "record_club", "en", width)
    _check_stepping(driver, data)


@slow
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_viewer_steps_on_every_record(driver, tmp_path, name, lang, width):
    data = _open(driver, tmp_path, name, lang, width)
    if _mistakes(data):
        _check_stepping(driver, data)


@slow
def test_a_swipe_steps_the_viewer(driver, tmp_path):
    _open(driver, tmp_path, "record_club", "en", 390)
    stage = _viewer(driver).find_element(By.CSS_SELECTOR, ".stage")
    driver.execute_script("arguments[0].scrollIntoView()", stage)
    start = _pos(driver)
    _swipe(driver, stage, -160)                 # to the left: the next decision
    assert _pos(driver) == start + 1
    _swipe(driver, stage, 160)                  # to the right: back
    assert _pos(driver) == start
    _swipe(driver, stage, 20)                   # too short to be a swipe
    assert _pos(driver) == start


@slow
@pytest.mark.parametrize("lang", ["ru", "en", "zh"])
def test_the_evening_page_fits_a_phone(driver, tmp_path, lang):
    from guandan_fast.report.evening import render_evening_html
    reviews = [{**review(n), "file": f"{n}.txt"} for n in ("record_club", "record_bomb_thrown")]
    _width(driver, 390)
    open_page(driver, tmp_path / f"evening_{lang}.html", render_evening_html(reviews, lang))
    m = _layout(driver, lang)
    assert m["doc"] <= m["vw"] == 390 and m["narrow"] == [] and m["jokers"] == []
    assert len(m["graphs"]) == 2 and all("narrow" in g[0] for g in m["graphs"])
    assert len(driver.execute_script("return window.gdViewers")) == 2
