"""Marks checked before they are shown (analysis.judge.confirm,
analysis.engines.check_task): a candidate found at the screening budget is
re-valued at CHECK_FACTOR times it, paired (the best move and the move
played on the same sampled deals, with the same seed), on fresh samples;
tiers by the loss; 'unclear' when the interval says nothing."""

import re
import zlib
from pathlib import Path

import pytest
from fake_engines import FakeEstimate, FakeMove

from guandan_fast.analysis import engines as E
from guandan_fast.analysis.judge import (TIERS, UNCLEAR_WIDTH, Valuation, confirm, judge,
                                         tier_of)
from guandan_fast.analysis.review import analyse
from guandan_fast.engine.value import MoveValue
from guandan_fast.errors import ReviewError
from guandan_fast.formats.record import load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"


def _candidate() -> Valuation:
    v = judge("double", [MoveValue("a", 1.0, 0.6, 1.4), MoveValue("b", 0.0, -0.4, 0.4)], "b",
              seat=0)
    assert v.mistake == "likely" and v.tier == "mistake"
    return v


@pytest.mark.parametrize("loss, low, high, mark, tier, unclear", [
    (1.0, 0.4, 1.6, "likely", "mistake", False),
    (2.0, 0.5, 3.4, "likely", "blunder", False),
    (0.4, 0.1, 0.7, "likely", "inaccuracy", False),
    (0.2, 0.05, 0.35, None, None, False),            # below the least tier
    (0.8, -0.2, 1.8, None, None, False),             # the interval holds 0
    (2.0, 0.1, 4.0, None, None, True),               # too wide to say anything
    (-0.1, -2.0, 1.6, None, None, True),
])
def test_confirm_keeps_a_mark_only_when_the_recheck_shows_it(loss, low, high, mark, tier,
                                                             unclear):
    v = confirm(_candidate(), {"loss": loss, "low": low, "high": high, "samples": 16,
                               "paired": True}, 10.0)
    assert (v.mistake, v.tier, v.unclear) == (mark, tier, unclear)
    assert v.check["screened"]["loss"] == 1.0 and v.check["confirmed"] == (mark is not None)
    assert v.loss_low <= v.loss <= v.loss_high
    if mark is None:
        return
    assert v.loss == pytest.approx(loss) and v.loss_high - v.loss_low <= UNCLEAR_WIDTH


def test_a_failed_check_shows_no_mark():
    v = confirm(_candidate(), {"error": "no deal"}, 10.0)
    assert v.mistake is None and v.check["error"] == "no deal"


def test_tiers_are_ordered_and_named():
    assert [least for _, least in TIERS] == sorted((least for _, least in TIERS), reverse=True)
    for name, least in TIERS:
        assert tier_of(least) == name
    assert tier_of(TIERS[-1][1] - 0.01) is None


def test_a_proven_mark_has_the_tier_of_its_proven_part():
    v = judge("double", [MoveValue.proven("a", 2), MoveValue.proven("b", 1)], "b", seat=0)
    assert (v.mistake, v.tier) == ("proven", "mistake")
    v = judge("double", [MoveValue.proven("a", 3), MoveValue.proven("b", 1)], "b", seat=0)
    assert (v.mistake, v.tier) == ("proven", "blunder")


def _others(state, seat) -> str:
    return "|".join(" ".join(map(str, state.cards(s))) for s in range(4) if s != seat)


def test_the_single_dummy_recheck_is_paired_on_the_same_deals():
    """The value of a position: a large noise made of the hidden hands
    (the same after either move on one deal) plus what the mover keeps.
    Paired, the noise cancels: the re-checked loss has a narrow interval
    around the true difference; the screening (the moves' own intervals)
    could not see it."""
    from guandan_fast.game.record import replay
    rec = load(EXAMPLES / "record_club.txt")
    steps = list(replay(rec))
    d = next(i for i, st in enumerate(steps) if st.state.table is None
             and len({len(p.cards) for p in st.state.legal_actions() if p is not None}) > 1)
    seat = rec.moves[d].seat
    calls = []

    def est(state, max_seconds=None, seed=0):
        noise = (zlib.crc32(_others(state, seat).encode()) % 300) / 100.0 - 1.5
        u = noise + 0.05 * len(state.cards(seat))          # the mover's side, within +-3
        v = u if seat % 2 == 0 else -u
        calls.append(seed)
        return FakeEstimate(v, [FakeMove(None, v, v - 0.05, v + 0.05, 50)])

    legal = [p for p in steps[d].state.legal_actions() if p is not None]
    small = min(legal, key=lambda p: len(p.cards))
    big = max(legal, key=lambda p: len(p.cards))
    task = {"key": (0, "single"), "view": "single", "kind": "play", "seat": seat,
            "budget": 0.05, "factor": 10, "seed": 5, "moves": [small, big], "record": rec,
            "move_index": d, "engines": {"solver": None, "estimator": est, "suggester": None,
                                         "solve_cards": 0}}
    out = E.check_task(task)
    true = 0.05 * (len(big.cards) - len(small.cards))
    assert out["paired"] and out["samples"] == E.CHECK_DEALS
    assert out["low"] <= true <= out["high"]
    assert out["high"] - out["low"] < 0.3            # the ±2 noise cancelled
    assert out["loss"] == pytest.approx(true, abs=0.06)
    # the two moves of a deal get the same seed (common random numbers)
    assert calls[0::2] == calls[1::2]


def test_marks_of_a_review_are_rechecked_at_ten_times_the_budget():
    seen = []

    def est(state, max_seconds=None, seed=0):
        seen.append(max_seconds)
        moves = []
        for p in state.legal_actions():
            m = (zlib.crc32(str(p).encode()) % 500) / 100.0 - 2.5 + 0.123
            moves.append(FakeMove(p, m, max(-3.0, m - 0.3), min(3.0, m + 0.3), 50))
        return FakeEstimate(moves[0].mean, moves)

    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=est, solve_cards=0,
                opening=False, min_plays=False)
    checked = [d.double for d in a.decisions if d.double is not None and d.double.check]
    assert checked, "the fake estimator gives candidates"
    # each of the two positions of a re-check gets half of 10x the budget
    assert seen.count(pytest.approx(0.05 * 10 / 2)) == 2 * len(checked)
    data = a.to_dict()
    assert data["settings"]["check_factor"] == 10
    for d in data["decisions"]:
        v = d["double"]
        if v and v["mistake"] == "likely":
            assert v["check"]["confirmed"] and v["loss_low"] > 0 and v["tier"]


@pytest.mark.parametrize("bad", [9, 0, -1, "10", True, float("nan"), 1e6])
def test_a_bad_check_factor_is_refused(bad):
    with pytest.raises(ReviewError, match="check_factor"):
        analyse(load(SHORT), check_factor=bad, estimator=None, suggester=None)


def test_unclear_is_the_width_of_a_value_not_of_the_conservative_loss():
    # two intervals 2.8 wide: the conservative loss interval is 3.8 wide, yet
    # each value says something: not unclear
    v = judge("double", [MoveValue("a", 1.0, -0.4, 2.4), MoveValue("b", 0.0, -1.4, 1.4)], "b",
              seat=0)
    assert not v.mistake and v.loss_high - v.loss_low > UNCLEAR_WIDTH and not v.unclear
    # the move played known only within 4 levels: unclear
    w = judge("single", [MoveValue("a", 0.5, 0.0, 1.0), MoveValue("b", 0.0, -3.0, 1.6)], "b",
              seat=0)
    assert not w.mistake and w.unclear
    # a proven value is never unclear
    x = judge("double", [MoveValue.proven("a", 1), MoveValue.proven("b", 1)], "b", seat=0)
    assert not x.unclear


# -- the single-dummy position: the evaluator's choice on fresh deals ---------------

def _single(position, played="b"):
    # screening means (the deals that chose): "c" on top by noise, "a" the
    # evaluator's choice; the position: "a" valued again on fresh deals
    moves = [MoveValue("c", 1.6, 1.0, 2.2, samples=8), MoveValue("a", 1.2, 0.6, 1.8, samples=8),
             MoveValue("b", 0.0, -0.4, 0.4, samples=8)]
    return judge("single", moves, played, seat=0, position=position)


def test_the_single_dummy_position_is_the_choice_on_fresh_deals():
    v = _single(MoveValue("a", 1.0, 0.5, 1.5, samples=8))
    assert v.value == 1.0                            # not the top screening mean 1.6
    assert v.best[0].move == "a" and v.best[0].mean == 1.2
    assert v.loss == pytest.approx(1.0)              # the position minus the move played
    assert v.mistake == "likely" and v.tier == "mistake"
    # the position's interval overlaps the move played: no candidate mark,
    # whatever the top screening mean says
    v = _single(MoveValue("a", 0.5, -0.2, 1.2, samples=8))
    assert v.mistake is None and v.value == 0.5 and v.best[0].move == "a"
    # the choice played: no loss (its two estimates differ by noise only)
    v = _single(MoveValue("a", 0.9, 0.4, 1.4, samples=8), played="a")
    assert (v.loss, v.loss_low, v.loss_high, v.mistake) == (0.0, 0.0, 0.0, None)
    # team 1 to move: the values are team 0's ("a" is worth +1.2 to team 1)
    moves = [MoveValue("a", -1.2, -1.8, -0.6), MoveValue("b", 0.0, -0.4, 0.4)]
    w = judge("single", moves, "b", seat=1, position=MoveValue("a", -1.0, -1.5, -0.5))
    assert w.value == -1.0 and w.mistake == "likely" and w.loss == pytest.approx(1.0)
    # the choice ("b") valued on fresh deals below the move played: no loss
    w = judge("single", moves, "a", seat=1, position=MoveValue("b", 0.1, -0.3, 0.5))
    assert w.value == 0.1 and w.mistake is None and w.loss == 0.0 and w.best[0].move == "b"


def _short_play():
    """The first play of the short record with three legal moves or more:
    ``(record, replay steps, move index, legal moves, seat, mover's team)``."""
    from guandan_fast.game.record import replay
    rec = load(SHORT)
    steps = list(replay(rec))
    k = next(i for i, st in enumerate(steps) if len(st.state.legal_actions()) >= 3)
    seat = rec.moves[k].seat
    return rec, steps, k, steps[k].state.legal_actions(), seat, seat % 2


def test_the_recheck_revalues_the_choice_the_position_is_worth():
    """The re-check compares the move played with the move whose value is
    the position's (``best[0]``): the evaluator's choice in the single-dummy
    view, the top mean in the double-dummy view."""
    from guandan_fast.analysis.review import Decision, _check_tasks
    rec, steps, k, legal, seat, mover = _short_play()

    def mv(move, mean, low, high):          # given from the mover's side, stored as team 0's
        return MoveValue(move, mean, low, high, team=mover).pov(0)

    top, choice, played = legal[:3]
    moves = [mv(top, 1.6, 1.0, 2.2), mv(choice, 1.2, 0.6, 1.8), mv(played, 0.0, -0.4, 0.4)]
    d = Decision(index=0, kind="play", seat=seat, move=played, move_index=k)
    d.single = judge("single", moves, played, seat, position=mv(choice, 1.0, 0.5, 1.5))
    assert d.single.mistake == "likely"
    d.double = judge("double", moves, played, seat)
    assert d.double.mistake == "likely"
    tasks = _check_tasks([d], {0: steps[k].state}, rec, 0.05, 0, {}, 10.0)
    by_view = {t["view"]: t["moves"] for t in tasks}
    assert by_view["single"] == [choice, played]
    assert by_view["double"] == [top, played]


def test_the_default_single_dummy_recheck_is_the_paired_rollout_comparison():
    """With the default engine, a play's single-dummy re-check is
    ``compare_moves`` over the task's candidates and the move played, at
    ``factor`` times the budget (here a playout budget: the rate times the
    seconds), with the task's seed and the tiers' least losses as the
    edges of its stop: its loss, interval, deals and choice."""
    from guandan_fast.bots.search import compare_moves
    from guandan_fast.game.view import View
    rec = load(EXAMPLES / "record_club.txt")
    d = next(i for i, mv in enumerate(rec.moves)
             if len(View.from_record(rec, i).legal_actions()) >= 4)
    legal = View.from_record(rec, d).legal_actions()
    task = {"key": (0, "single"), "view": "single", "kind": "play", "seat": rec.moves[d].seat,
            "budget": 0.1, "factor": 10, "seed": 11, "moves": [legal[0], legal[3]],
            "candidates": legal[:3], "record": rec, "move_index": d,
            "engines": {"solver": "default", "estimator": "default", "suggester": "default",
                        "solve_cards": 0, "rate": 400.0}}
    out = E.check_task(task)
    ref = compare_moves(View.from_record(rec, d), legal[:3], legal[3], max_seconds=1.0,
                        seed=11, max_playouts=400, edges=[least for _, least in TIERS])
    assert out["paired"] and out["best"] == ref["best"] and out["best"] in legal[:3]
    assert (out["loss"], out["low"], out["high"], out["samples"]) == \
        (ref["loss"], ref["low"], ref["high"], ref["samples"])
    assert out["samples"] <= 400 // 4 // 2


def test_a_check_that_chose_another_best_move_puts_it_first():
    moves = [MoveValue("a", 1.0, 0.6, 1.4), MoveValue("c", 0.9, 0.5, 1.3),
             MoveValue("b", 0.0, -0.4, 0.4)]
    v = judge("single", moves, "b", seat=0, position=MoveValue("a", 1.0, 0.6, 1.4))
    assert v.mistake == "likely" and v.best[0].move == "a"
    v = confirm(v, {"loss": 0.8, "low": 0.6, "high": 1.0, "samples": 900, "paired": True,
                    "best": "c"}, 10.0)
    assert v.mistake == "likely" and v.best[0].move == "c" and v.loss == pytest.approx(0.8)


def test_a_move_the_screening_found_worse_on_the_same_deals_is_nominated():
    """``nominated``: a candidate mark, or (the single-dummy view, the
    position given apart) the choice's screening mean at least
    ``NOMINATE`` above the move played's on the same deals (equal samples),
    from the mover's side; never a move valued on other deals, an exact
    value, the choice itself, or a double-dummy view without a mark."""
    from guandan_fast.analysis.judge import NOMINATE, nominated

    def single(top_mean, played_mean, seat=0, samples=(80, 80), exact=False):
        sign = 1 if seat % 2 == 0 else -1
        top = MoveValue("a", sign * top_mean, sign * top_mean - 0.9, sign * top_mean + 0.9,
                        samples=samples[0])
        played = MoveValue("b", sign * played_mean, sign * played_mean - 0.9,
                           sign * played_mean + 0.9, samples=samples[1])
        if exact:
            played = MoveValue.proven("b", sign * played_mean)
        pos = MoveValue("a", sign * top_mean, sign * top_mean - 0.9, sign * top_mean + 0.9)
        return judge("single", [top, played], "b", seat=seat, position=pos)

    for seat in (0, 1):
        v = single(0.5, 0.5 - NOMINATE, seat)
        assert v.mistake is None and nominated(v, seat)
        v = single(0.5, 0.5 - NOMINATE + 0.01, seat)
        assert v.mistake is None and not nominated(v, seat)
        assert not nominated(single(0.5, 0.0, seat, samples=(80, 40)), seat)
        assert not nominated(single(0.5, 0.0, seat, exact=True), seat)
        assert nominated(single(3.0, -1.0, seat), seat)         # a candidate mark
        assert single(3.0, -1.0, seat).mistake == "likely"
    # the choice played: nothing to re-check
    top = MoveValue("a", 0.5, -0.4, 1.4, samples=80)
    v = judge("single", [top, MoveValue("b", 0.0, -0.9, 0.9, samples=80)], "a", seat=0,
              position=MoveValue("a", 0.5, -0.4, 1.4))
    assert not nominated(v, 0)
    # the double-dummy view: only its candidate marks
    moves = [MoveValue("a", 0.5, -0.4, 1.4, samples=80),
             MoveValue("b", 0.0, -0.9, 0.9, samples=80)]
    v = judge("double", moves, "b", seat=0)
    assert v.mistake is None and not nominated(v, 0)


def test_the_nominated_moves_are_rechecked_and_only_the_check_marks_them():
    """A nominated single-dummy move gets a re-check task; ``confirm``
    then marks it by the check alone: kept when the check's interval lies
    above 0 at a tier, else no mark."""
    from guandan_fast.analysis.judge import NOMINATE
    from guandan_fast.analysis.review import Decision, _check_tasks
    rec, steps, k, legal, seat, mover = _short_play()

    def mv(move, mean):
        return MoveValue(move, mean, mean - 1.0, mean + 1.0, samples=64, team=mover).pov(0)

    choice, other, played = legal[:3]
    for gap, checked in ((NOMINATE + 0.05, True), (NOMINATE - 0.05, False)):
        d = Decision(index=0, kind="play", seat=seat, move=played, move_index=k)
        d.single = judge("single", [mv(choice, 0.4), mv(other, 0.3), mv(played, 0.4 - gap)],
                         played, seat, position=MoveValue(choice, 0.4, -0.1, 0.9,
                                                          team=mover).pov(0))
        assert d.single.mistake is None
        tasks = _check_tasks([d], {0: steps[k].state}, rec, 0.05, 0, {}, 10.0)
        assert bool(tasks) == checked
        if checked:
            assert tasks[0]["moves"] == [choice, played]
            assert tasks[0]["candidates"][0] == choice
    for loss, low, high, marked in ((0.5, 0.4, 0.6, True), (0.2, 0.1, 0.3, False),
                                    (0.5, -0.1, 1.1, False)):
        d.single.mistake = None
        v = confirm(d.single, {"loss": loss, "low": low, "high": high, "samples": 900,
                               "paired": True}, 10.0)
        assert (v.mistake == "likely") == marked and (v.tier is not None) == marked


def test_a_recheck_interval_of_no_width_that_is_no_proof_does_not_mark():
    """An estimate whose interval has no width (every playout the same) is
    not a confidence interval: a re-check that gives one confirms nothing."""
    v = confirm(_candidate(), {"loss": 1.0, "low": 1.0, "high": 1.0, "samples": None,
                               "paired": False}, 10.0)
    assert v.mistake is None and v.tier is None and not v.check["confirmed"]


def test_a_recheck_that_proves_both_values_proves_the_loss():
    proven_a = MoveValue.proven("x", 1.0)       # the engine's move object: replaced by "a"
    v = confirm(_candidate(), {"loss": 1.0, "low": 1.0, "high": 1.0, "samples": None,
                               "paired": False, "exact": True, "proven": proven_a}, 10.0)
    assert v.mistake == "proven" and v.tier == "mistake" and v.check["confirmed"]
    assert v.loss == v.loss_low == v.loss_high == v.loss_proven == 1.0
    assert v.best[0].move == "a" and v.best[0].exact and v.best[0].mean == 1.0
    assert any(m is v.best[0] for m in v.moves)


def test_an_unproven_loss_is_never_a_plain_number():
    from guandan_fast.report.common import loss_text, lost_text
    flat = {"loss": 4.0, "loss_low": 4.0, "loss_high": 4.0, "loss_proven": 0.0}
    assert loss_text(flat, "en") == "≈4 [4, 4] levels"
    assert loss_text(flat, "ru").startswith("≈4 [4; 4]")
    assert loss_text({**flat, "loss_proven": 4.0}, "en") == "4 levels"
    summed = {"lost": 4.0, "lost_low": 4.0, "lost_high": 4.0, "lost_proven": 0.0}
    assert lost_text(summed, "en").startswith("≈4")
    assert lost_text({**summed, "lost_proven": 4.0}, "en") == "4"


def test_unclear_says_which_interval_decides_it_and_the_report_shows_that_one():
    """The single-dummy position (the choice on fresh deals) too wide while
    the move played, the choice itself, is not: the report must show the
    position's interval, not only the narrow one beside the mark."""
    from guandan_fast.formats import analysis_json
    from guandan_fast.report.common import unclear_mark
    played = MoveValue("a", -1.8, -2.9, -0.6, samples=8)
    v = judge("single", [played, MoveValue("b", -2.0, -2.5, -1.5, samples=8)], "a", seat=1,
              position=MoveValue("a", 1.1, -0.7, 2.9, samples=8))
    assert v.unclear and v.mistake is None
    assert v.unclear_by == {"what": "position", "low": -0.7, "high": 2.9}
    d = v.to_dict()
    assert unclear_mark(d, "en", UNCLEAR_WIDTH) == (
        "? unclear: the position's value [−0.7, +2.9] is wider than 3 levels")
    assert unclear_mark(d, "ru", UNCLEAR_WIDTH) == (
        "? неясно: оценка позиции [−0,7; +2,9] шире 3 уровней")
    assert unclear_mark(d, "en", None) == "? unclear"
    # the move played too wide: that one
    w = judge("double", [MoveValue("a", 1.0, 0.5, 1.5), MoveValue("b", 0.0, -2.0, 2.0)], "b",
              seat=0)
    assert w.unclear_by == {"what": "move", "low": -2.0, "high": 2.0}
    # a re-checked loss too wide: the loss's interval; a confirmed mark is not unclear
    c = confirm(_candidate(), {"loss": 1.0, "low": -1.5, "high": 3.5, "samples": 16,
                               "paired": True}, 10.0)
    assert c.unclear and c.unclear_by == {"what": "loss", "low": -1.5, "high": 3.5}
    assert "the loss [−1.5, +3.5] is wider" in unclear_mark(c.to_dict(), "en", UNCLEAR_WIDTH)
    u = judge("single", [played, MoveValue("b", -2.0, -2.5, -1.5, samples=8)], "b", seat=1,
              position=MoveValue("a", 1.1, -0.7, 2.9, samples=8))
    u.mistake = "likely"
    k = confirm(u, {"loss": 1.0, "low": 0.6, "high": 1.4, "samples": 64, "paired": True}, 10.0)
    assert k.mistake == "likely" and not k.unclear and k.unclear_by is None
    # the document keeps it, and its loader checks it
    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=None,
                min_plays=False, opening=False).to_dict()
    a["decisions"][-1]["double"]["unclear_by"] = v.unclear_by
    analysis_json.validate(a)
    a["decisions"][-1]["double"]["unclear_by"] = {"what": "luck", "low": 0, "high": 1}
    with pytest.raises(analysis_json.AnalysisFormatError):
        analysis_json.validate(a)


def test_a_paired_mark_says_its_interval_is_paired_and_the_docs_state_the_rule_once():
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    a = analyse(load(EXAMPLES / "record_endgame_pair.txt"), views=("single",), playouts=50,
                min_plays=False, opening=False).to_dict()
    paired = [d for d in a["decisions"] if d["single"] and d["single"]["mistake"] == "likely"
              and d["single"]["check"]["paired"]]
    assert paired
    for lang, word in (("en", "(paired)"), ("ru", "(парно)"), ("zh", "配对复核")):
        assert word in render_text(a, lang) and word in render_html(a, lang)
    docs = " ".join((Path(__file__).resolve().parent.parent / "docs" / "review.md")
                    .read_text(encoding="utf-8").split())
    assert "whose interval overlaps the best one is not marked" not in docs
    assert "Two intervals that overlap do not clear the move played" in docs


def _as_plays(view: dict, plays: dict) -> dict:
    """A judged view of moves named by letters, each name replaced by a
    play of the document (the renderers take only valid documents)."""
    def fix(x):
        if isinstance(x, dict):
            if set(x) == {"cards", "type", "rank"} and x["cards"] in plays:
                return plays[x["cards"]]
            return {k: fix(v) for k, v in x.items()}
        return [fix(v) for v in x] if isinstance(x, list) else x
    return fix(view)


def test_the_text_states_the_reviews_own_unclear_width():
    """The width an ``? unclear`` names is the one the review used
    (``settings.unclear_width`` of its document), not a copy of the default."""
    from guandan_fast.report.text import render_text
    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=None,
                min_plays=False, opening=False).to_dict()
    w = judge("double", [MoveValue("a", 1.0, 0.5, 1.5), MoveValue("b", 0.0, -2.0, 2.0)], "b",
              seat=0)
    assert w.unclear and w.unclear_by == {"what": "move", "low": -2.0, "high": 2.0}
    plays = [d for d in a["decisions"] if d["kind"] == "play" and d["move"]]
    play = [d for d in plays if not d["forced"]][-1]
    play["double"] = _as_plays(w.to_dict(), {"a": plays[0]["move"], "b": play["move"]})
    for width in (2.5, 3.5):
        a["settings"]["unclear_width"] = width
        en, ru = render_text(a, "en"), render_text(a, "ru")
        assert f"the move's value [−2, +2] is wider than {width} levels" in en
        assert f"шире {str(width).replace('.', ',')} " in ru
        assert "[−2; +2]" in ru


def test_a_forced_move_is_labelled_forced_and_never_unclear():
    """A forced move is not judged: the review never calls it unclear, and
    the text labels it forced even in a document that does (one written
    before), where the unclear mark used to replace the label."""
    from guandan_fast.report.text import render_text
    a = analyse(load(EXAMPLES / "record_club.txt"), views=("double",), playouts=10,
                min_plays=False, opening=False).to_dict()
    forced = [d for d in a["decisions"] if d["kind"] == "play" and d["forced"]]
    assert forced
    for d in forced:
        assert not (d.get("double") or {}).get("unclear"), d["index"]
    wide = judge("double", [MoveValue("a", 0.0, -3.0, 2.0)], "a", seat=0).to_dict()
    assert wide["unclear"]
    for d in forced:
        d["double"] = dict(_as_plays(wide, {"a": d["move"]}), method="forced")
    for lang, label, unclear in (("en", "(forced: the only legal move)", "? unclear"),
                                 ("ru", "вынужденный", "? неясно")):
        rows = [line for line in render_text(a, lang, width=0).splitlines()
                if line.lstrip().startswith(("#", "№"))]
        refs = [f"{'#' if lang == 'en' else '№'}{d['move_index'] + 1} " for d in forced]
        hit = [line for line in rows if any(line.lstrip().startswith(r) for r in refs)]
        assert len(hit) == len(forced)
        assert all(label in line and unclear not in line for line in hit), hit


def test_a_move_of_no_sample_is_not_valued_not_an_estimate():
    """An estimate backed by no sample (its mean is only the middle of its
    bounds) reads "not valued", as the summary counts it."""
    from guandan_fast.report.common import chosen_text, value_text
    none = MoveValue("a", 0.0, -3.0, 3.0, samples=0).to_dict()
    one = MoveValue("a", 0.5, -1.0, 2.0, samples=1).to_dict()
    assert value_text(none) == "not valued" and value_text(none, "ru") == "без оценки"
    assert value_text(one).startswith("≈+0.5")
    d = {"forced": False, "double": {"chosen": none}}
    assert chosen_text(d, "double", "zh") == "未估值"
    # not valued, so not judged: never called unclear either
    from guandan_fast.report.common import unclear_mark
    wide = {"unclear": True, "mistake": None, "unclear_by": {"what": "move", "low": -3, "high": 3}}
    assert unclear_mark(dict(wide, chosen=none), "en", 3.0) == ""
    assert unclear_mark(dict(wide, chosen=None), "en", 3.0) == ""
    assert unclear_mark(dict(wide, chosen=one), "en", 3.0).startswith("? unclear: the move")


def test_the_page_shows_unclear_decisions_as_the_text_does():
    """The page tags an unclear view (`? unclear`, its interval on hover) as
    the text report marks it; a forced move gets no such tag."""
    import html as H
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    a = analyse(load(SHORT), views=("double",), budget=0.05, estimator=None,
                min_plays=False, opening=False).to_dict()
    wide = {"unclear": True, "mistake": None, "tier": None,
            "unclear_by": {"what": "move", "low": -2.0, "high": 2.0}}
    plays = [d for d in a["decisions"] if d["kind"] == "play"]
    free = [d for d in plays if not d["forced"] and d["double"] and d["double"]["chosen"]][-1]
    free["double"].update(wide)
    forced = [d for d in plays if d["forced"] and d["double"]]
    assert forced
    for d in forced:
        d["double"].update(wide)
    for lang, word in (("en", "unclear"), ("ru", "неясно"), ("zh", "不明确")):
        page = H.unescape(render_html(a, lang))
        tags = re.findall(r'class="tag unclear" title="([^"]*)"', page)
        assert len(tags) == 1 and tags[0].startswith(f"? {word}"), (lang, tags)
        text_marks = [line for line in render_text(a, lang).splitlines() if f"? {word}" in line]
        assert len(text_marks) == 1 and tags[0] in text_marks[0], (lang, text_marks)
