"""The drills page (report/drills.py, ``gd-analyze drills``) on reviews of
the bundled records: one drill per mark, largest loss first; each shows
the mover's hand, the level, the round so far, every seat's card count
and whose turn it is, and never another seat's hand (the page is the same
whatever the hidden hands hold); the three languages give the same
drills; a tribute or return mark asks for the card to give; bad input is
one line on stderr and exit status 2; in a browser at 390 px a pick
reveals the answer and nothing scrolls sideways.

The reviews are cheap: the short endgame and the thrown bomb by the real
engines in the deterministic mode (their proven marks, and a likely one
from the mover's seat), the tribute record with an
injected estimator whose values follow the four hands (so the cards given
at the exchange are valued apart and the return is marked)."""

import copy
import json
import random
import re
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import console_errors, needs_browser, open_page, session
from clirun import run
from conftest import by_run
from fake_engines import FakeEstimate, FakeMove

from guandan_fast.analysis.review import analyse
from guandan_fast.formats import analysis_json
from guandan_fast.formats.record import load
from guandan_fast.report.common import _mark, move_key, tiers_of
from guandan_fast.report.drills import drills, render_drills_html
from guandan_fast.report.evening import evening_order
from guandan_fast.report.html import _cards_html, _play_html
from guandan_fast.report.i18n import card_label, count_of, drill_label

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LANGS = ("en", "ru", "zh")
VIEWS = ("double", "single")


def _dealt_estimator(state, max_seconds=None, seed=0, **_):
    """A value made of the four hands (so two cards given at the exchange
    lead to positions of different values), each move a value of its own
    around it, ±0.3: far apart, so likely mistakes are marked."""
    hands = "|".join(" ".join(map(str, state.cards(s))) for s in range(4))
    v = zlib.crc32(hands.encode()) % 2001 / 1000.0 - 1.0
    moves = []
    for p in state.legal_actions():
        m = max(-2.7, min(2.7, v + (zlib.crc32(str(p).encode()) % 300) / 100.0 - 1.5))
        moves.append(FakeMove(p, m, m - 0.3, m + 0.3, 50))
    return FakeEstimate(moves[0].mean, moves)


@pytest.fixture(scope="module")
def reviews():
    short = analyse(load(EXAMPLES / "record_endgame_short.txt"), playouts=20, seed=1,
                    jobs=1).to_dict()
    assert short["decisions"][0]["double"]["mistake"] == "proven"
    # a bomb thrown away: proven double-dummy, likely single-dummy
    bomb = analyse(load(EXAMPLES / "record_bomb_thrown.txt"), playouts=60, seed=1,
                   jobs=1).to_dict()
    assert bomb["decisions"][0]["single"]["mistake"] == "likely"
    tribute = analyse(load(EXAMPLES / "record_tribute.txt"), playouts=20, seed=1, jobs=1,
                      estimator=_dealt_estimator, solve_cards=0, opening=False,
                      check_factor=None).to_dict()
    assert any(d["kind"] == "return" and d["double"]["mistake"] for d in tribute["decisions"])
    return [{"file": "short.json", **short}, {"file": "bomb.json", **bomb},
            {"file": "tribute.json", **tribute}]


def _marks(reviews) -> list:
    return [(k, d["index"], v) for k, data in enumerate(reviews) for d in data["decisions"]
            for v in VIEWS if d[v] and d[v]["mistake"]]


def _sections(page: str) -> list:
    """The drills of a page, each its HTML."""
    parts = page.split('<section class="drill"')[1:]
    return [p.split("</section>")[0] for p in parts]


def _question(section: str) -> str:
    """A drill's question: what it shows before a pick."""
    return section.split('<div class="reveal"')[0]


def test_one_drill_per_mark_largest_loss_first(reviews):
    items = drills(reviews, "en")
    got = Counter((x["index"], x["view"], x["seat"], x["kind"]) for x in items)
    want = Counter((d["index"], v, d["seat"], d["kind"]) for data in reviews
                   for d in data["decisions"] for v in VIEWS if d[v] and d[v]["mistake"])
    assert got == want and len(items) == len(_marks(reviews)) > 10
    losses = [x["loss"] for x in items]
    assert losses == sorted(losses, reverse=True)
    assert {x["view"] for x in items} == {"double", "single"}
    page = render_drills_html(reviews, "en")
    sections = _sections(page)
    assert len(sections) == len(items)
    assert count_of(len(items), "drills", "en") in page
    for k, (x, s) in enumerate(zip(items, sections)):
        assert s.startswith(f' id="drill{k + 1}" data-player="{x["player"]}" '
                            f'data-view="{x["view"]}"')
        assert drill_label("head", "en", i=k + 1, n=len(items)) in s


def test_a_drill_shows_what_the_mover_saw(reviews):
    items = drills(reviews, "en")
    page = render_drills_html(reviews, "en")
    ordered = evening_order(reviews)
    seen_round = 0
    for x, s in zip(items, _sections(page)):
        data = ordered[x["review"]]
        d = data["decisions"][x["index"]]
        level = data["level"]
        q = _question(s)
        # the mover's hand, grouped as the review page shows hands
        assert x["hand"] == d["hands"][d["seat"]]
        assert _cards_html(x["hand"], level, "en", group=True) in q
        assert Counter(card_label(t, "en") for t in x["hand"].split()) in _groups(q)
        # every seat's count, the mover's turn
        assert x["counts"] == [len(h.split()) for h in d["hands"]]
        for c in x["counts"]:
            assert f"<b>{c}</b>" in q
        assert drill_label("to_play" if d["kind"] == "play" else
                           "to_give" if d["kind"] == "tribute" else "to_return", "en",
                           who=data["players"][d["seat"]],
                           to=data["players"][x["receiver"]] if x["receiver"] is not None
                           else "?") in q
        # the round so far: since the lead, ending with the play on the table
        if d["kind"] != "play" or d["table"] is None:
            assert x["round"] == []
        else:
            played = [(seat, m) for seat, m in x["round"] if m is not None]
            assert move_key(played[-1][1]) == move_key(d["table"]) and played[-1][0] == x["owner"]
            for _, m in played:
                assert _play_html(m, level, "en") in q
            seen_round += 1
        # the candidates: the view's moves and best moves and the move played, once each
        val = d[x["view"]]
        keys = [move_key(c["move"]) for c in x["candidates"]]
        assert len(keys) == len(set(keys))
        assert set(keys) == ({move_key(m["move"]) for m in val["moves"]}
                             | {move_key(b["move"]) for b in val["best"]} | {move_key(d["move"])})
        assert [c["played"] for c in x["candidates"]].count(True) == 1
        assert {move_key(c["move"]) for c in x["candidates"] if c["best"]} == \
            {move_key(b["move"]) for b in val["best"]}
        assert q.count('<button type="button" class="choice') == len(keys)
        # the answer: the move played, its mark (tier, proven or likely, the loss)
        reveal = s[len(q):]
        mark = _mark(val, "en", tiers_of(data))
        assert mark and mark in reveal and _play_html(d["move"], level, "en") in reveal
        assert ("proven loss" if val["mistake"] == "proven" else "likely loss") in reveal
        assert reveal.count('class="verdict') == len(keys)
    assert seen_round > 3


def _scramble_hidden(reviews: list, seed: int) -> list:
    """The reviews with the cards of every hand the mover of a decision
    cannot see dealt again among the other seats (each keeping its
    count), and the hands as dealt and after the tribute redealt whole."""
    rng = random.Random(seed)
    out = copy.deepcopy(reviews)

    def deal(hands: list, hidden: list) -> None:
        pool = [c for s in hidden for c in hands[s].split()]
        rng.shuffle(pool)
        for s in hidden:
            n = len(hands[s].split())
            hands[s], pool = " ".join(pool[:n]), pool[n:]

    for data in out:
        deal(data["hands"], [0, 1, 2, 3])
        deal(data["hands_after_tribute"], [0, 1, 2, 3])
        for d in data["decisions"]:
            deal(d["hands"], [s for s in range(4) if s != d["seat"]])
            for v in VIEWS:
                if d[v] and d[v].get("line"):
                    _deal_unplayed(d[v]["line"], rng)
    return out


def _deal_unplayed(line: dict, rng: random.Random) -> None:
    """A better line's hands dealt again, each seat keeping its count and
    the cards it plays in the line (so the line stays a valid one: the
    renderers refuse a line whose seat does not hold what it plays)."""
    held = [h.split() for h in line["hands"]]
    played: list = [[] for _ in held]
    for p in line["plays"]:
        if p["move"] is not None:
            for c in p["move"]["cards"].split():
                held[p["seat"]].remove(c)
                played[p["seat"]].append(c)
    pool = [c for h in held for c in h]
    rng.shuffle(pool)
    for s, h in enumerate(held):
        line["hands"][s], pool = " ".join(played[s] + pool[:len(h)]), pool[len(h):]


class _Groups(HTMLParser):
    """The groups of cards of a page (each ``<span class="cards">``) as
    multisets of the cards' labels."""

    def __init__(self):
        super().__init__()
        self.groups: list = []
        self.depth = 0           # spans open inside the current group (0: none)

    def handle_starttag(self, tag, attrs):
        if tag != "span":
            return
        a = dict(attrs)
        if self.depth:
            self.depth += 1
            if "card" in (a.get("class") or "").split():
                self.groups[-1][a["title"]] += 1
        elif "cards" in (a.get("class") or "").split():
            self.groups.append(Counter())
            self.depth = 1

    def handle_endtag(self, tag):
        if tag == "span" and self.depth:
            self.depth -= 1


def _groups(page: str) -> list:
    p = _Groups()
    p.feed(page)
    return p.groups


def test_no_other_seat_hand_is_shown(reviews):
    """Blindness: the page is the same whatever the hidden hands hold, and
    no hidden hand appears on it as a group of cards."""
    for lang in LANGS:
        page = render_drills_html(reviews, lang)
        for seed in by_run((1,), (1, 2)):
            other = _scramble_hidden(reviews, seed)
            assert other != reviews
            assert render_drills_html(other, lang) == page
    page = render_drills_html(reviews, "en")
    checked = 0
    ordered = evening_order(reviews)
    for x, s in zip(drills(reviews, "en"), _sections(page)):
        data = ordered[x["review"]]
        d = data["decisions"][x["index"]]
        groups = _groups(s)
        for seat in range(4):
            if seat == d["seat"] or len(d["hands"][seat].split()) < 2:
                continue
            hidden = d["hands"][seat]
            assert _cards_html(hidden, data["level"], "en", group=True) not in s
            assert _cards_html(hidden, data["level"], "en") not in s
            assert Counter(card_label(t, "en") for t in hidden.split()) not in groups
            checked += 1
    assert checked > 20


def test_the_three_languages_give_the_same_drills(reviews):
    pages = {lang: render_drills_html(reviews, lang) for lang in LANGS}
    shape = {}
    for lang, page in pages.items():
        sections = _sections(page)
        shape[lang] = [(re.search(r'data-view="(\w+)"', s).group(1),
                        s.count('<button type="button" class="choice'), s.count('class="verdict')) for s in sections]
        items = drills(reviews, lang)
        assert [(x["index"], x["view"], x["loss"]) for x in items] == \
            [(x["index"], x["view"], x["loss"]) for x in drills(reviews, "en")]
        assert count_of(len(items), "drills", lang) in page
        for x, s in zip(items, sections):
            # the mover's cards as the language writes them
            for t in x["hand"].split():
                assert f'title="{card_label(t, lang)}"' in s
    assert shape["en"] == shape["ru"] == shape["zh"]
    # the Russian notation: ten as 10, court cards and the ace by Russian letters
    ru = pages["ru"]
    assert 'title="10♥"' in ru and ">10<" in ru and 'title="Т♥"' in ru and ">Т<" in ru
    assert ">T<" not in ru and ">A<" not in ru


def test_a_return_mark_asks_for_the_card_to_give(reviews):
    items = [x for x in drills(reviews, "ru") if x["kind"] == "return"]
    assert items
    data = next(r for r in reviews if r["file"] == "tribute.json")
    d = next(d for d in data["decisions"] if d["kind"] == "return")
    page = render_drills_html(reviews, "ru")
    for x in items:
        assert x["round"] == [] and x["receiver"] == 3 and x["seat"] == 0
        assert all(c["move"]["type"] == "card" for c in x["candidates"])
        assert {c["move"]["cards"] for c in x["candidates"]} <= set(d["hands"][0].split())
    s = next(s for s in _sections(page) if drill_label("q_card", "ru") in s)
    assert drill_label("to_return", "ru", who="Ирина", to="Сергей") in s


def test_without_marks_the_page_says_so():
    bare = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("double",),
                   solver=None, estimator=None, opening=False).to_dict()
    assert not bare["mistakes"]
    for lang in LANGS:
        page = render_drills_html([bare], lang)
        assert drill_label("none", lang) in page and count_of(0, "drills", lang) in page
        assert '<section class="drill"' not in page
        assert render_drills_html([], lang).count(drill_label("none", lang)) == 1


def test_the_command_writes_the_page(tmp_path, reviews):
    paths = []
    for r in reviews:
        doc = {k: v for k, v in r.items() if k != "file"}
        p = tmp_path / r["file"]
        p.write_text(analysis_json.dumps(doc), encoding="utf-8")
        paths.append(p)
    page = tmp_path / "drills.html"
    got = run("drills", *paths, "--html", page, "--lang", "ru")
    assert got.returncode == 0, got.stderr
    named = [{**r, "file": str(p)} for r, p in zip(reviews, paths)]
    assert page.read_text(encoding="utf-8") == render_drills_html(named, "ru")
    assert got.stdout == f"{count_of(len(drills(named, 'ru')), 'drills', 'ru')}: {page}\n"
    # an evening's document: its reviews
    ev = tmp_path / "evening.json"
    ev.write_text(analysis_json.dumps(analysis_json.evening_document(reviews, [])),
                  encoding="utf-8")
    again = run("drills", ev, "--html", page)
    assert again.returncode == 0, again.stderr
    assert page.read_text(encoding="utf-8") == render_drills_html(reviews, "en")


@pytest.mark.parametrize("make, needle", [
    (lambda doc: None, "No such file or directory: "),
    (lambda doc: "level: 7\n", "bad.json: document: not JSON"),
    (lambda doc: {**doc, "version": 3}, "bad.json: version: this reader knows versions"),
    (lambda doc: {**doc, "schema": "other"}, "bad.json: schema: expected 'guandan-review'"),
    (lambda doc: {k: v for k, v in doc.items() if k != "level"}, "bad.json: level: missing"),
    (lambda doc: {**doc, "decisions": [{k: v for k, v in doc["decisions"][0].items()
                                        if k != "seat"}] + doc["decisions"][1:]},
     "bad.json: decisions[0].seat: missing"),
])
def test_bad_documents_are_one_line_naming_the_file_and_the_field(tmp_path, reviews, make,
                                                                  needle):
    good = tmp_path / "good.json"
    doc = {k: v for k, v in reviews[0].items() if k != "file"}
    good.write_text(analysis_json.dumps(doc), encoding="utf-8")
    bad = tmp_path / "bad.json"
    made = make(doc)
    if made is not None:
        bad.write_text(made if isinstance(made, str) else json.dumps(made), encoding="utf-8")
    name = bad if made is not None else tmp_path / "none.json"
    r = run("drills", good, name, "--html", tmp_path / "out.html")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr
    assert not (tmp_path / "out.html").exists() and r.stdout == ""


@pytest.mark.parametrize("args, needle", [
    (["{good}"], "--html"),
    (["{good}", "--html", "{tmp}"], "is a directory"),
    (["{good}", "--html", "{tmp}/no/x.html"], "no directory"),
    (["{good}", "--html", "{tmp}/x.html", "--lang", "fr"], "--lang"),
    ([], "ANALYSES"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path, reviews, args, needle):
    good = tmp_path / "good.json"
    good.write_text(analysis_json.dumps({k: v for k, v in reviews[0].items() if k != "file"}),
                    encoding="utf-8")
    r = run("drills", *[a.format(good=good, tmp=tmp_path) for a in args])
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


@pytest.mark.slow
@needs_browser
def test_a_pick_reveals_the_answer_on_a_phone(tmp_path, reviews):
    """At 390 px (a phone): nothing scrolls sideways; a drill shows no
    answer until a candidate is picked, then the verdict of that pick (and
    only that one), every candidate's value, the move played and its mark;
    the player filter hides the other players' drills and says how many
    are shown."""
    from selenium.webdriver.common.by import By

    items = drills(reviews, "ru")
    for driver in session(390, 844):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        open_page(driver, tmp_path / "drills.html", render_drills_html(reviews, "ru"))
        assert console_errors(driver) == []
        wide = "return [document.documentElement.scrollWidth, window.innerWidth]"
        width, view = driver.execute_script(wide)
        assert width <= view == 390
        # the drill of the return (cards to give), then a play's
        for k in (next(i for i, x in enumerate(items) if x["kind"] == "return"), 0):
            drill = driver.find_element(By.ID, f"drill{k + 1}")
            reveal = drill.find_element(By.CSS_SELECTOR, ".reveal")
            assert not reveal.is_displayed()
            assert not any(v.is_displayed() for v in drill.find_elements(By.CSS_SELECTOR, ".v"))
            choices = drill.find_elements(By.CSS_SELECTOR, "button.choice")
            pick = next(c for c, cand in enumerate(items[k]["candidates"]) if not cand["played"])
            driver.execute_script("arguments[0].scrollIntoView()", choices[pick])
            choices[pick].click()
            assert reveal.is_displayed()
            shown = [v.get_attribute("data-c") for v in
                     drill.find_elements(By.CSS_SELECTOR, ".verdict") if v.is_displayed()]
            assert shown == [str(pick)]
            assert choices[pick].get_attribute("aria-pressed") == "true"
            assert all(v.is_displayed() for v in drill.find_elements(By.CSS_SELECTOR, ".v"))
            played = drill.find_element(By.CSS_SELECTOR, "button.choice.played .tag.played")
            assert played.is_displayed()
            assert "✗" in reveal.text and drill_label("played_was", "ru") in reveal.text
            width, view = driver.execute_script(wide)
            assert width <= view
        # the filter by player
        anna = sum(x["player"] == "Anna" for x in items)
        assert 0 < anna < len(items)
        driver.execute_script(
            "var s=document.querySelector('select[data-key=player]');s.value='Anna';"
            "s.dispatchEvent(new Event('change'));")
        visible = [d for d in driver.find_elements(By.CSS_SELECTOR, ".drill") if d.is_displayed()]
        assert len(visible) == anna and all(d.get_attribute("data-player") == "Anna"
                                            for d in visible)
        assert driver.find_element(By.CSS_SELECTOR, ".drill-filters .shown").text == \
            drill_label("shown", "ru", k=anna, n=len(items))
        assert console_errors(driver) == []
