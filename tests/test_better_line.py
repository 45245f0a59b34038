"""Each mark's better line (analysis.engines.line_task) and the structure
a move breaks (analysis.structure): the line is legal move by move from the
decision's position, the solver's proven line ends at its proven value, the
policy's line is what the house policy plays from each seat's own view; the
'breaks' phrase names a structure of a minimal partition before the move
and not after; both are in the JSON (loaded back, a malformed one refused
by name) and in the text and the page in every language."""

import copy
import dataclasses
import json
import re
from pathlib import Path

import pytest
from fake_engines import spread_estimator

from guandan_fast import Rules
from guandan_fast.analysis.engines import LINE_PLAYS, line_task
from guandan_fast.analysis.review import _line_tasks, analyse
from guandan_fast.analysis.structure import broken, structure_dict
from guandan_fast.bots.policy import PolicyBot
from guandan_fast.engine.decomposition import decompose, min_plays
from guandan_fast.engine.value import MoveValue
from guandan_fast.errors import AnalysisFormatError
from guandan_fast.formats import analysis_json
from guandan_fast.formats.record import load
from guandan_fast.game.record import Move, replay
from guandan_fast.game.view import View
from guandan_fast.model.rules import classify, read_play
from guandan_fast.report.html import render_html
from guandan_fast.report.i18n import structure_text
from guandan_fast.report.text import render_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"


def _play(m, rules):
    """A JSON move (cards, type, rank) as the Play it names (None: a pass)."""
    if m is None:
        return None
    return next(p for p in classify(m["cards"], rules)
                if p.type == m["type"] and p.rank == m["rank"])


def _position(record, move_index):
    return next(s.state for s in replay(record) if s.index == move_index)


def _replay_line(record, d, line):
    """The line played from the decision's position through GameState (an
    illegal play raises): the state at its end."""
    rules = record.rules
    state = _position(record, d["move_index"])
    assert state.turn == line["seat"] == d["seat"]
    state = state.apply(_play(line["move"], rules))
    assert [" ".join(str(c) for c in sorted(state.cards(s))) for s in range(4)] == line["hands"]
    for p in line["plays"]:
        assert state.turn == p["seat"]
        state = state.apply(_play(p["move"], rules))
    return state


@pytest.fixture(scope="module")
def proven():
    rec = load(SHORT)
    return rec, analyse(rec, views=("double",), estimator=None, opening=False,
                        playouts=50).to_dict()


@pytest.fixture(scope="module")
def likely():
    rec = load(SHORT)
    return rec, analyse(rec, views=("double",), budget=0.05, estimator=spread_estimator,
                        solve_cards=0, opening=False, check_factor=None).to_dict()


def test_the_proven_line_is_legal_and_ends_at_its_proven_value(proven):
    rec, data = proven
    marked = [d for d in data["decisions"] if d["double"] and d["double"]["mistake"] == "proven"]
    assert marked
    for d in marked:
        val, line = d["double"], d["double"]["line"]
        assert line["source"] == "solver"
        assert line["move"] == val["best"][0]["move"]
        end = _replay_line(rec, d, line)
        # the solver's line reaches the value it proved, which is the better move's value
        assert line["value"] == val["best"][0]["mean"]
        if line["over"]:
            assert end.result() == line["result"] == line["value"]
    # the puzzle: S3 first, and Anna & Chen win +1 (the record's C5 lost)
    line = data["decisions"][0]["double"]["line"]
    assert line["move"]["cards"] == "S3" and line["over"] and line["result"] == 1


def test_the_policy_line_is_the_house_policy_from_each_seat(likely):
    rec, data = likely
    marked = [d for d in data["decisions"] if d["double"] and d["double"]["mistake"] == "likely"]
    assert marked
    bot = PolicyBot()
    for d in marked:
        line = d["double"]["line"]
        assert line["source"] == "policy" and line["value"] is None
        assert 1 + len(line["plays"]) <= LINE_PLAYS
        end = _replay_line(rec, d, line)
        assert line["over"] == (end.result() is not None)
        if not line["over"]:
            assert 1 + len(line["plays"]) == LINE_PLAYS
        # each play is the policy's choice from that seat's own view of the record
        moves = list(rec.moves[:d["move_index"]]) + [Move(line["seat"], _play(line["move"],
                                                                              rec.rules))]
        for p in line["plays"]:
            r = dataclasses.replace(rec, moves=moves)
            mine = bot.choose(View.from_record(r, len(moves)))
            assert (None if mine is None else sorted(map(str, mine.cards))) == \
                (None if p["move"] is None else sorted(p["move"]["cards"].split()))
            moves.append(Move(p["seat"], _play(p["move"], rec.rules)))


def test_a_return_line_starts_from_the_play_after_the_better_card():
    from guandan_fast.analysis.review import _exchange_positions
    rec = load(EXAMPLES / "record_tribute.txt")
    a = analyse(rec, views=("double",), budget=0.05, estimator=spread_estimator,
                solve_cards=0, opening=False, check_factor=None, min_plays=False)
    d = next(x for x in a.decisions if x.kind == "return")
    assert len(rec.returns) == 1
    other, start = next((c, st) for c, st in _exchange_positions(rec, 0, "return")
                        if c != d.move)
    d.double.mistake, d.double.best = "likely", [MoveValue(other, 0.5, 0.0, 1.0)]
    tasks = _line_tasks([d], {}, rec, 0.05, {"solver": None, "estimator": None,
                                             "suggester": None})
    assert len(tasks) == 1
    line = line_task(tasks[0])["line"]
    assert line["source"] == "policy" and line["move"] == {"cards": str(other), "type": "card",
                                                           "rank": str(other)[1:]}
    # the start of the play after the exchange with the better card
    assert line["hands"] == [" ".join(str(c) for c in sorted(start.cards(s))) for s in range(4)]
    state = start
    for p in line["plays"]:
        assert state.turn == p["seat"]
        state = state.apply(_play(p["move"], rec.rules))
    assert len(line["plays"]) == LINE_PLAYS - 1


@pytest.mark.parametrize("hand, move, kind, words", [
    ("S7 H8 C9 DT SJ D3 D3", "C9", "straight", "breaks the straight 7–J"),
    ("S9 C9 D9 D3 D3", "S9 C9", "full_house", "breaks the full house 9+3"),
    ("S9 C9 D9 DK", "S9 C9", "triple", "breaks the triple 9s"),
    ("S8 S8 C8 D8 D3", "S8", "bomb", "breaks the bomb of four 8s"),
    ("ST SJ SQ SK SA D4", "ST", "straight_flush", "breaks the straight flush 10–A"),
])
def test_the_broken_structure_is_in_a_minimal_partition_before_and_not_after(
        hand, move, kind, words):
    r = Rules(level=2)
    play = read_play(move, r)
    b = broken(hand, play, r)
    assert b is not None and b.type == kind
    before = [sorted(map(str, g.cards)) for g in decompose(hand, r)]
    rest = hand.split()
    for c in move.split():
        rest.remove(c)
    after = [sorted(map(str, g.cards)) for g in decompose(" ".join(rest), r)]
    assert sorted(map(str, b.cards)) in before and sorted(map(str, b.cards)) not in after
    assert min_plays(" ".join(rest), r) >= min_plays(hand, r)
    assert structure_text(structure_dict(b), "en") == words


def test_a_move_that_is_one_play_of_a_minimal_partition_breaks_nothing():
    r = Rules(level=2)
    assert broken("S9 C9 D9 DK", read_play("DK", r), r) is None
    assert broken("S9 C9 D9 DK", None, r) is None


def test_breaks_in_a_whole_deal_name_real_structures():
    rec = load(EXAMPLES / "record_club.txt")
    data = analyse(rec, views=("double",), estimator=None, solver=None, opening=False,
                   tribute=False).to_dict()
    seen = 0
    for d in data["decisions"]:
        if d["kind"] != "play" or d["move"] is None:
            assert d.get("breaks") is None
            continue
        if d["min_plays_after"] < d["min_plays_before"]:
            assert d["breaks"] is None
            continue
        b = d["breaks"]
        if b is None:
            continue
        seen += 1
        hand = d["hands"][d["seat"]]
        before = [sorted(map(str, g.cards)) for g in decompose(hand, rec.rules)]
        rest = hand.split()
        for c in d["move"]["cards"].split():
            rest.remove(c)
        after = [sorted(map(str, g.cards)) for g in decompose(" ".join(rest), rec.rules)] \
            if rest else []
        assert sorted(b["cards"].split()) in before and sorted(b["cards"].split()) not in after
        assert set(b["cards"].split()) & set(d["move"]["cards"].split())
    assert seen >= 1


def test_the_text_shows_the_line_under_the_mark_in_each_language(proven):
    _, data = proven
    data = analysis_json.loads(analysis_json.dumps(data))
    en = render_text(data, "en", width=0)         # not wrapped: a line a decision
    assert ("\n      DD better line (the solver's principal line: proven): Anna S3 · Boris CQ · "
            "Chen pass") in en
    assert "→ end of the deal: Anna & Chen win, +1" in en
    ru = render_text(data, "ru", width=0)
    assert "ОТК лучшая линия (главная линия решателя: доказано): Anna 3♠ · Boris Д♣ · Chen пас" in ru
    zh = render_text(data, "zh", width=0)
    assert "明 更好的路线（求解器的主线：已证明）：Anna ♠3 · Boris ♣Q · Chen 过" in zh
    # the puzzle's #7: Chen's wild H2 breaks the pair of 4s it made with C4
    assert re.search(r"#7 +Chen +H2 \(single 2\) +2→2 .*breaks the pair 4s", en)
    assert "ломает пару 4" in ru and "拆了对子4" in zh


def test_the_page_carries_the_line_for_the_viewer(proven):
    _, data = proven
    for lang, button in (("en", "play the better line"), ("ru", "разыграть лучшую линию"),
                         ("zh", "演示更好的路线")):
        page = render_html(data, lang)
        viewer = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>',
                                      page, re.S).group(1))
        assert button in viewer["labels"]["play_line"]
        lines = viewer["frames"][0]["lines"]
        line = data["decisions"][0]["double"]["line"]
        assert len(lines) == 1 and len(lines[0]["steps"]) == 1 + len(line["plays"])
        assert lines[0]["steps"][0]["hands"] == line["hands"]
        # every step's hands lose exactly the cards of its play
        for a, b in zip(lines[0]["steps"], lines[0]["steps"][1:]):
            lost = sum(len(h.split()) for h in a["hands"]) - sum(len(h.split()) for h in b["hands"])
            p = line["plays"][lines[0]["steps"].index(b) - 1]["move"]
            assert lost == (len(p["cards"].split()) if p else 0)
        assert all(not f["lines"] for f in viewer["frames"][1:])


# -- the JSON --------------------------------------------------------------------

def test_the_lines_go_through_the_json_and_back(likely):
    _, data = likely
    text = analysis_json.dumps(data)
    back = analysis_json.loads(text)
    assert back == json.loads(text) and analysis_json.dumps(back) == text
    assert any(d["double"] and d["double"]["line"] for d in back["decisions"])


def _first_line(data):
    return next(i for i, d in enumerate(data["decisions"]) if d["double"] and d["double"]["line"])


def _refusal(doc) -> str:
    """The loader's error for a bad document (it must refuse it)."""
    with pytest.raises(AnalysisFormatError) as e:
        analysis_json.loads(json.dumps(doc))
    return str(e.value)


@pytest.mark.parametrize("field, value, named", [
    ("source", "oracle", "line.source"),
    ("seat", 7, "line.seat"),
    ("hands", ["S3"], "line.hands"),
    ("plays", {}, "line.plays"),
    ("over", "yes", "line.over"),
    ("result", 5, "line.result"),
    ("value", 1.5, "line.value"),
    ("extra", 1, "line.extra"),
    ("plays.0.seat", -1, "line.plays[0].seat"),
    ("plays.0.move", {"cards": "S3"}, "line.plays[0].move.type"),
])
def test_a_malformed_line_is_refused_by_name(likely, field, value, named):
    _, data = likely
    bad = copy.deepcopy(data)
    i = _first_line(bad)
    x = bad["decisions"][i]["double"]["line"]
    *head, last = field.split(".")
    for k in head:
        x = x[int(k)] if isinstance(x, list) else x[k]
    x[int(last) if isinstance(x, list) else last] = value
    msg = _refusal(bad)
    assert msg.startswith(f"decisions[{i}].double.{named}:"), msg


def test_a_line_whose_cards_are_not_held_or_whose_result_comes_early_is_refused(likely):
    _, data = likely
    bad = copy.deepcopy(data)
    i = _first_line(bad)
    line = bad["decisions"][i]["double"]["line"]
    k = next(k for k, p in enumerate(line["plays"]) if p["move"] is not None)
    line["plays"][k]["move"]["cards"] = "HR HR HR"
    with pytest.raises(AnalysisFormatError, match=rf"decisions\[{i}\]\.double\.line\.plays\[{k}\]"
                                                  r"\.move: seat \d does not hold 'HR'"):
        analysis_json.loads(json.dumps(bad))
    bad = copy.deepcopy(data)
    line = bad["decisions"][i]["double"]["line"]
    line["over"], line["result"] = False, 2
    with pytest.raises(AnalysisFormatError, match=rf"decisions\[{i}\]\.double\.line\.result"):
        analysis_json.loads(json.dumps(bad))


@pytest.mark.parametrize("path, value, named", [
    ("breaks", {"cards": "S3", "type": "single"}, "breaks.rank"),
    ("breaks", 3, "breaks"),
    ("breaks.low", "X", "breaks.low"),
])
def test_a_malformed_breaks_is_refused_by_name(proven, path, value, named):
    _, data = proven
    bad = copy.deepcopy(data)
    i = next(i for i, d in enumerate(bad["decisions"]) if d["breaks"])
    if path == "breaks":
        bad["decisions"][i]["breaks"] = value
    else:
        bad["decisions"][i]["breaks"]["low"] = value
    msg = _refusal(bad)
    assert msg.startswith(f"decisions[{i}].{named}:"), msg


def test_version_2_needs_the_fields_and_version_1_is_read_without_them(proven):
    _, data = proven
    bad = copy.deepcopy(data)
    del bad["decisions"][0]["double"]["line"]
    with pytest.raises(AnalysisFormatError, match=r"decisions\[0\]\.double\.line: missing"):
        analysis_json.loads(json.dumps(bad))
    bad = copy.deepcopy(data)
    del bad["decisions"][3]["breaks"]
    with pytest.raises(AnalysisFormatError, match=r"decisions\[3\]\.breaks: missing"):
        analysis_json.loads(json.dumps(bad))
    old = copy.deepcopy(data)
    old["version"] = 1
    for d in old["decisions"]:
        del d["breaks"]
        for v in ("double", "single"):
            if d[v]:
                del d[v]["line"]
    back = analysis_json.loads(json.dumps(old))
    text = render_text(back, "en")         # a version 1 document still renders
    assert "better line" not in text and "✗" in text
