"""The review page in a real headless browser (Debian's chromium with
chromium-driver, through Selenium): it loads with no console error, the
graph is drawn, the viewer opens on the first mistake, "next" and the arrow
keys change the hands shown. A screenshot of the page in each language is
kept as a test artifact (tests/artifacts/, ignored by git)."""

import struct
from pathlib import Path

import pytest

from guandan_fast.analysis.review import analyse
from guandan_fast.formats.record import load
from guandan_fast.report.evening import render_evening_html
from guandan_fast.report.html import render_html

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from browser import console_errors, needs_browser, open_page, session

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
pytestmark = [pytest.mark.slow, needs_browser]


@pytest.fixture(scope="module")
def driver():
    yield from session(1280, 1600)


@pytest.fixture(scope="module")
def review():
    """The deal of the thrown bomb: every decision exact, the mistake first."""
    return analyse(load(EXAMPLES / "record_bomb_thrown.txt"), views=("double",),
                   estimator=None, opening=False).to_dict()


@pytest.fixture(scope="module")
def club():
    """The example deal both ways on a small budget (estimates in the head)."""
    return analyse(load(EXAMPLES / "record_club.txt"), budget=0.05, jobs=2).to_dict()


def _open(driver, tmp_path, html, name):
    return open_page(driver, tmp_path / name, html)


def _hands(driver, viewer):
    return [el.get_attribute("title") for el in
            viewer.find_elements(By.CSS_SELECTOR, ".seat .hc .card")]


def _pos(viewer):
    return viewer.find_element(By.CSS_SELECTOR, ".pos").text


def test_the_page_loads_draws_the_graph_and_steps(driver, tmp_path, club):
    _open(driver, tmp_path, render_html(club, "en"), "club.html")
    assert console_errors(driver) == []
    graph = driver.find_element(By.CSS_SELECTOR, "svg.graph")
    points = graph.find_elements(By.CSS_SELECTOR, "circle.pt[data-view='double']")
    # one point per decision valued
    assert len(points) == sum(1 for p in club["graph"]["double"] if p) > 20
    assert graph.find_elements(By.CSS_SELECTOR, "polyline.line-double")
    assert graph.find_elements(By.CSS_SELECTOR, "rect.proven")
    assert graph.size["width"] > 600 and graph.size["height"] > 150
    marks = sum(1 for d in club["decisions"] for v in ("double", "single")
                if d.get(v) and d[v].get("mistake"))
    assert len(graph.find_elements(By.CSS_SELECTOR, "circle.mistake")) == marks
    viewer = driver.find_element(By.CSS_SELECTOR, ".viewer")
    # it opens on the first mistake
    first = club["first_mistake"]
    assert _pos(viewer).startswith(f"decision {first + 1} of {len(club['decisions'])}")
    before = _hands(driver, viewer)
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='next']").click()
    assert _pos(viewer).startswith(f"decision {first + 2} of")
    after = _hands(driver, viewer)
    assert after != before and len(after) == len(before) - len(
        (club["decisions"][first]["move"] or {"cards": ""})["cards"].split())
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    assert _pos(viewer).startswith(f"decision {first + 1} of") and _hands(driver, viewer) == before
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert _pos(viewer).startswith(f"decision {first + 3} of")
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='first']").click()
    assert _pos(viewer).startswith("decision 1 of")
    assert len(_hands(driver, viewer)) == 108
    # the candidate moves of the last decision (solved), the played one marked
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='last']").click()
    rows = viewer.find_elements(By.CSS_SELECTOR, "table.cand tr.chosen")
    assert len(rows) == 1
    assert console_errors(driver) == []


def test_a_graph_dot_moves_the_viewer(driver, tmp_path, review):
    _open(driver, tmp_path, render_html(review, "en"), "bomb.html")
    points = driver.find_elements(By.CSS_SELECTOR, "svg.graph.wide circle.pt[data-view='double']")
    assert len(points) == len(review["decisions"])            # one point per decision
    viewer = driver.find_element(By.CSS_SELECTOR, ".viewer")
    assert _pos(viewer).startswith("decision 1 of")            # the bomb is the first mistake
    assert "proven loss" in viewer.find_element(By.CSS_SELECTOR, ".what").text
    driver.execute_script(
        "document.querySelector(\"circle.pt[data-i='4']\")"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert _pos(viewer).startswith("decision 5 of")


def test_the_better_line_plays_on_the_table_and_goes_back(driver, tmp_path):
    """At the mistake, "play the better line" steps through the solver's
    line (the hands lose each play's cards), the arrow keys step it, and
    "back to the deal" shows the real position again."""
    data = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("double",),
                   estimator=None, opening=False, playouts=50).to_dict()
    line = data["decisions"][0]["double"]["line"]
    _open(driver, tmp_path, render_html(data, "en"), "line.html")
    viewer = driver.find_element(By.CSS_SELECTOR, ".viewer")
    assert _pos(viewer).startswith("decision 1 of")
    real = _hands(driver, viewer)
    button = viewer.find_element(By.CSS_SELECTOR, ".linebar button.playline")
    assert "play the better line" in button.text
    button.click()
    n = 1 + len(line["plays"])
    assert _pos(viewer).startswith(f"better line, 1 of {n}")
    assert len(_hands(driver, viewer)) == len(real) - 1          # the better move: S3
    assert "S3" not in _hands(driver, viewer) and "C5" in _hands(driver, viewer)
    assert "the better move" in viewer.find_element(By.CSS_SELECTOR, ".what").text
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert _pos(viewer).startswith(f"better line, 2 of {n}")
    assert len(_hands(driver, viewer)) == len(real) - 2          # Boris CQ
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='last']").click()   # leaves the line
    assert _pos(viewer).startswith("decision ")
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='first']").click()
    viewer.find_element(By.CSS_SELECTOR, ".linebar button.playline").click()
    for _ in range(n + 3):                                       # to its end, and no further
        viewer.find_element(By.CSS_SELECTOR, "button[data-go='next']").click()
    assert _pos(viewer).startswith(f"better line, {n} of {n}")
    assert "end of the deal: Anna & Chen win, +1" in viewer.find_element(By.CSS_SELECTOR,
                                                                         ".what").text
    viewer.find_element(By.CSS_SELECTOR, ".linebar button.back").click()
    assert _pos(viewer).startswith("decision 1 of") and _hands(driver, viewer) == real
    assert console_errors(driver) == []


def _png_size(path: Path):
    raw = path.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", raw[16:24])


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_screenshot_in_each_language(driver, tmp_path, club, lang):
    _open(driver, tmp_path, render_html(club, lang), f"club_{lang}.html")
    assert console_errors(driver) == []
    text = driver.find_element(By.TAG_NAME, "body").text
    assert {"en": "Deal review", "ru": "Разбор сдачи", "zh": "牌局复盘"}[lang] in text
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"review_{lang}.png"
    driver.save_screenshot(str(shot))
    w, h = _png_size(shot)
    assert w >= 1000 and h >= 1000
    assert shot.stat().st_size > 60_000            # cards and colours, not a blank frame


def test_the_evening_page(driver, tmp_path, review, club):
    reviews = [{**club, "file": "record_club.txt"}, {**review, "file": "record_bomb_thrown.txt"}]
    _open(driver, tmp_path, render_evening_html(reviews, "ru"), "evening.html")
    assert console_errors(driver) == []
    viewers = driver.find_elements(By.CSS_SELECTOR, ".viewer")
    assert len(viewers) == 2
    # the second deal's viewer takes the arrow keys once clicked
    second = viewers[1]
    second.find_element(By.CSS_SELECTOR, "button[data-go='first']").click()
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert _pos(second).startswith("решение 2 из")
    assert "Клубный вечер" in driver.find_element(By.TAG_NAME, "h1").text
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "evening_ru.png"))


def _flat_estimator(state, max_seconds=None, seed=0):
    """A fixed value for every move (the page, not the values, is tested)."""
    from fake_engines import FakeEstimate, FakeMove
    v = ((seed % 11) - 5) / 10.0
    moves = [FakeMove(p, v, v - 0.5, v + 0.5, samples=5) for p in state.legal_actions()[:20]]
    return FakeEstimate(value=v, moves=moves)


def test_the_exchange_shows_its_single_dummy_values(driver, tmp_path):
    data = analyse(load(EXAMPLES / "record_tribute.txt"), estimator=_flat_estimator,
                   suggester=None, solve_cards=0, opening=False, min_plays=False).to_dict()
    ret = data["decisions"][1]
    assert ret["kind"] == "return" and len(ret["single"]["moves"]) == 14
    _open(driver, tmp_path, render_html(data, "ru"), "tribute_ru.html")
    assert console_errors(driver) == []
    table = driver.find_element(By.CSS_SELECTOR, "table.exchange")
    assert table.text.count("СВОЁ") == 2 and table.text.count("ОТК") == 2
    viewer = driver.find_element(By.CSS_SELECTOR, ".viewer")
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='first']").click()
    viewer.find_element(By.CSS_SELECTOR, "button[data-go='next']").click()
    rows = viewer.find_elements(By.CSS_SELECTOR, "table.cand tr")[1:]
    assert len(rows) == 14 and all(r.find_elements(By.TAG_NAME, "td")[2].text for r in rows)
    assert console_errors(driver) == []
