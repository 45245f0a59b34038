"""analyse(): the whole-deal review. Records whose mistakes are known by
construction, the double-dummy values against the solver and a brute-force
minimax (tests/minimax.py), the marking rule, the graph, the exchange
decisions, and the single-dummy view's blindness to hidden cards."""

import random
import sys
from pathlib import Path

import pytest
from fake_engines import FakeEstimate, FakeMove

from guandan_fast.analysis.judge import judge
from guandan_fast.analysis.review import analyse, decision_seed
from guandan_fast.engine.value import MoveValue, position_value
from guandan_fast.engine.endgame import Position, solve
from guandan_fast.formats.record import load
from guandan_fast.game.record import Record, replay

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minimax  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"
BOMB = EXAMPLES / "record_bomb_thrown.txt"




def _minimax_solver(state, max_seconds=None):
    return minimax.solve(state)


# -- the marking rule --------------------------------------------------------------

def test_a_proven_loss_is_marked_proven_and_lists_every_best_move_pass_included():
    moves = [MoveValue("a", 1, 1, 1, exact=True), MoveValue(None, 1, 1, 1, exact=True),
             MoveValue("c", -1, -1, -1, exact=True)]
    v = judge("double", moves, "c", seat=0)
    assert v.mistake == "proven" and v.loss == 2
    assert [m.move for m in v.best] == ["a", None]
    # the same moves for a team 1 player: now "c" is the best
    w = judge("double", moves, "c", seat=1)
    assert w.mistake is None and w.loss == 0 and [m.move for m in w.best] == ["c"]


def test_estimates_are_marked_only_when_the_intervals_separate():
    apart = [MoveValue("a", 1.0, 0.6, 1.4), MoveValue("b", 0.0, -0.4, 0.4)]
    v = judge("double", apart, "b", seat=0)
    assert v.mistake == "likely" and v.loss == pytest.approx(1.0)
    assert [m.move for m in v.best] == ["a"]
    overlap = [MoveValue("a", 1.0, 0.3, 1.7), MoveValue("b", 0.0, -0.5, 0.5)]
    w = judge("double", overlap, "b", seat=0)
    assert w.mistake is None and w.loss == pytest.approx(1.0)      # a loss, not shown
    # an estimate with no width (one sampled deal) shows nothing
    flat = [MoveValue("a", 1.0, 0.6, 1.4), MoveValue("b", 0.0, 0.0, 0.0)]
    assert judge("single", flat, "b", seat=0).mistake is None
    # for team 1 the intervals are read from its side
    t1 = judge("double", [MoveValue("a", -1.0, -1.3, -0.7), MoveValue("b", 0.5, 0.2, 0.8)],
               "b", seat=3)
    assert t1.mistake == "likely" and [m.move for m in t1.best] == ["a"]


def test_separate_proven_bounds_prove_a_loss_whatever_the_estimates():
    moves = [MoveValue("a", 0.5, -1.0, 2.0, proven_low=1.0, proven_high=3.0),
             MoveValue("b", 0.8, -0.5, 2.0, proven_low=-3.0, proven_high=-1.0)]
    v = judge("double", moves, "b", seat=0)
    assert v.mistake == "proven" and [m.move for m in v.best] == ["a"]
    assert v.loss >= 2.0                       # at least the gap the bounds prove
    # for team 1 the same bounds make "b" the better move
    assert judge("double", moves, "b", seat=1).mistake is None


def test_estimates_are_held_within_what_the_solver_proved():
    from guandan_fast.analysis.engines import _clip

    class P:                        # a move's pattern is what the bounds are keyed by
        def __init__(self, k):
            self.pattern = k
    moves = [MoveValue(P("a"), 0.5, -0.5, 1.5), MoveValue(P("b"), 2.0, 1.0, 3.0),
             MoveValue(None, 0.0, -1.0, 1.0)]
    a, b, p = _clip(moves, {"a": MoveValue.bounded(None, -3.0, -1.0),
                            "b": MoveValue.bounded(None, 1.0, 1.0)})
    assert (a.low, a.mean, a.high) == (-3.0, -1.0, -1.0)   # the interval missed the proof
    assert b.exact and b.mean == b.low == b.high == 1.0
    assert (p.low, p.mean, p.high, p.exact) == (-1.0, 0.0, 1.0, False)


def test_decision_seeds_are_fixed_and_distinct():
    seeds = {decision_seed(0, i) for i in range(500)}
    assert len(seeds) == 500 and decision_seed(3, 7) == decision_seed(3, 7)


# -- double-dummy values ------------------------------------------------------------

def _solve_values(state):
    pos = Position([state.cards(s) for s in range(4)], state.rules, turn=state.turn,
                   table=state.table, owner=state.owner, passes=state.passes,
                   finished=state.finished)
    res = solve(pos)
    assert res.exact
    return {(None if m.move is None else m.move.pattern): m.value for m in res.moves}


@pytest.mark.parametrize("name", ["record_endgame_short.txt", "record_endgame_pair.txt",
                                  "record_bomb_thrown.txt"])
def test_double_dummy_values_equal_the_solvers_on_a_record_within_reach(name):
    rec = load(EXAMPLES / name)
    a = analyse(rec, views=("double",), estimator=None, solve_cards=108, opening=False)
    plays = [d for d in a.decisions if d.kind == "play"]
    assert len(plays) == len(rec.moves)
    for d, step in zip(plays, replay(rec)):
        assert d.double is not None and d.double.exact, d.index
        if d.forced:
            continue
        want = _solve_values(step.state)
        got = {(None if m.move is None else m.move.pattern): m.mean for m in d.double.moves}
        assert got == want, d.index
        assert all(m.exact and m.low == m.high == m.mean for m in d.double.moves)
    # the value after every move (forced ones included) is the next position's value
    for d, nxt in zip(plays, plays[1:]):
        assert d.double.chosen.mean == nxt.double.value


@pytest.mark.slow
def test_double_dummy_values_equal_the_brute_force_minimax():
    rec = load(SHORT)
    ours = analyse(rec, views=("double",), estimator=None, opening=False)
    ref = analyse(rec, views=("double",), estimator=None, solver=_minimax_solver, opening=False)
    assert [(d.double.value, d.double.chosen.mean, d.double.loss, d.double.mistake)
            for d in ours.decisions] == \
        [(d.double.value, d.double.chosen.mean, d.double.loss, d.double.mistake)
         for d in ref.decisions]


def test_the_thrown_bomb_is_the_first_mistake_double_dummy():
    a = analyse(load(BOMB), views=("double",), estimator=None, opening=False)
    first = a.decisions[0]
    assert first.move.type == "bomb" and first.seat == 0
    assert first.double.mistake == "proven" and first.double.loss == 4
    assert first.double.chosen.mean == -3 and first.double.value == 1
    assert sorted(str(m.move) for m in first.double.best) == ["S3", "S4"]
    assert a.first_mistake() == 0
    assert [d.index for d in a.mistakes("double")] == [0]      # perfect play afterwards


def test_the_record_club_tail_lists_a_pass_among_the_better_moves():
    # move 52 (Dmitri's C7): S2, SB, CA and the pass are all worth -3, C7 -1
    a = analyse(load(EXAMPLES / "record_club.txt"), views=("double",), estimator=None,
                opening=False, min_plays=False, solve_cards=24, budget=3.0)
    d = next(d for d in a.decisions if d.kind == "play" and d.move_index == 51)
    assert d.double.mistake == "proven" and d.double.loss == 2
    best = ["pass" if m.move is None else str(m.move) for m in d.double.best]
    assert sorted(best) == ["CA", "S2", "SB", "pass"]


def test_the_graph_has_one_point_per_decision():
    a = analyse(load(SHORT), views=("double",), estimator=None, opening=False)
    g = a.graph()
    assert len(g["double"]) == len(g["single"]) == len(a.decisions) == 26
    assert all(p is not None and p["exact"] for p in g["double"])
    assert g["double"][-1]["mean"] == a.result


def test_min_plays_and_json_form():
    a = analyse(load(SHORT), views=("double",), estimator=None, opening=False)
    data = a.to_dict()
    first = data["decisions"][0]
    assert first["move"] == {"cards": "C5", "type": "single", "rank": "5"}
    assert (first["min_plays_before"], first["min_plays_after"]) == (3, 2)
    assert first["double"]["mistake"] == "proven" and first["double"]["loss"] == 2
    assert {m["move"]["cards"]: m["mean"] for m in first["double"]["moves"]} == \
        {"S3": 1, "C5": -1, "SK": -3}
    assert data["first_mistake"] == 0 and data["mistakes"] == [0]
    assert data["players"][0] == "Anna"
    assert [r["double"]["mistakes"] for r in data["summary"]] == [1, 0, 0, 0]
    assert data["summary"][0]["double"]["largest"] == [0, 2.0]


@pytest.mark.parametrize("kw,needle", [
    ({"views": ("triple",)}, "view"), ({"views": ()}, "views"), ({"budget": 0}, "budget"),
    ({"budget": float("nan")}, "budget"), ({"budget": "1"}, "budget"),
    ({"budget": True}, "budget"), ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
])
def test_bad_settings_are_review_errors(kw, needle):
    from guandan_fast.errors import ReviewError
    with pytest.raises(ReviewError, match=needle):
        analyse(load(SHORT), **kw)


def test_tribute_advice_review_is_data():
    a = analyse(load(EXAMPLES / "record_tribute.txt"), views=("double",), estimator=None,
                opening=False, solve_cards=0)
    trib, ret = a.exchange
    assert (trib.kind, trib.giver, trib.receiver, str(trib.card)) == ("tribute", 3, 0, "S7")
    assert not trib.differs and trib.chosen_index == 0
    # Ирина returned S2 from her four 2s (a bomb): the advice ranks ST better
    assert (ret.kind, str(ret.card), ret.differs) == ("return", "S2", True)
    d = ret.to_dict()
    assert {"key": "breaks", "params": {"bomb": {"type": "bomb", "rank": "2", "suit": None,
                                                 "size": 4}}} in d["reasons"]
    kinds = [x.kind for x in a.decisions]
    assert kinds[:2] == ["tribute", "return"] and kinds[2:] == ["play"] * len(a.record.moves)


# -- with the estimator -----------------------------------------------------------

@pytest.mark.slow
def test_exchange_decisions_and_opening_values_are_estimated():
    a = analyse(load(EXAMPLES / "record_tribute.txt"), views=("double",), budget=0.2)
    trib, ret = a.decisions[:2]
    assert trib.double is not None and ret.double is not None
    assert trib.legal == len(trib.double.moves) >= 1
    assert {str(m.move) for m in ret.double.moves} >= {"S2"}
    assert all(m.low <= m.mean <= m.high for m in ret.double.moves)
    assert a.opening["deal"] is not None and a.opening["start"] is not None
    ex = a.opening["exchange"]
    assert ex.mean == pytest.approx(a.opening["start"].mean - a.opening["deal"].mean)


def _seed_estimator(state, max_seconds=None, seed=0):
    """Values made of the seed each decision gets: what reaches the engines
    must not depend on the number of processes. (The real estimator stops
    its exact leaf solves on time, so its own answers can vary with the
    machine's load; the seeds it is given do not.)"""
    v = (seed % 2001) / 1000.0 - 1.0
    moves = [FakeMove(p, v, v - 0.1, v + 0.1) for p in state.legal_actions()]
    return FakeEstimate(v, moves)


def test_a_move_played_with_few_samples_is_valued_again_on_its_own():
    from guandan_fast.analysis.engines import _revalue_played
    rec = load(SHORT)
    state, played = rec.start_state(), rec.moves[0].play

    def child_estimator(st, max_seconds=None, seed=0):
        assert st.turn == 1                        # the position after the move played
        return FakeEstimate(0.5, [FakeMove(p, 0.5, 0.1, 0.9, 50) for p in st.legal_actions()])
    engines = {"estimator": child_estimator, "solver": None, "solve_cards": 0}
    moves = [MoveValue(played, -3.0, -3.0, -0.6, samples=3, proven_low=-3.0, proven_high=1.0),
             MoveValue(None, 1.0, 0.5, 1.5, samples=400)]
    m = _revalue_played(moves, played, state, engines, 0.2, 7)[0]
    assert (m.mean, m.low, m.high, m.samples) == (0.5, 0.1, 0.9, 50)
    # enough samples: left alone
    again = [MoveValue(played, -3.0, -3.0, -0.6, samples=30)]
    assert _revalue_played(again, played, state, engines, 0.2, 7)[0].mean == -3.0


def test_a_position_value_is_the_best_mean_for_the_mover_with_its_own_interval():
    """The estimator ranks moves by its tree's score (and a hint-order
    prior), not by the mean; the review values a position one way
    everywhere (``position_value``, as ``judge`` does): the best mean for the
    mover with that move's own interval, so the mean lies inside the
    interval, and the best proven bounds for the mover."""
    from guandan_fast.analysis.engines import _state_value
    rec = load(SHORT)
    state = rec.start_state()
    plays = state.legal_actions()
    assert len(plays) >= 2 and state.turn == 0

    def est(st, max_seconds=None, seed=0):     # ranked first: not the highest mean
        return FakeEstimate(0.2, [FakeMove(plays[0], 0.2, 0.0, 0.4, 40),
                                   FakeMove(plays[1], 1.0, 0.9, 1.1, 5)])
    mv = _state_value(state, {"estimator": est, "solver": None, "solve_cards": 0}, 0.1, 0)
    assert (mv.move, mv.mean, mv.low, mv.high, mv.samples) == (None, 1.0, 0.9, 1.1, 5)
    moves = [MoveValue("a", 0.2, -0.5, 0.9, proven_low=0.0, proven_high=3.0),
             MoveValue("b", 1.0, -1.0, 2.0, proven_low=-3.0, proven_high=2.0)]
    team0, team1 = position_value(moves, 0), position_value(moves, 1)
    assert team1 == position_value([m.pov(1) for m in moves], 1).pov(0)
    assert (team0.mean, team0.low, team0.high, team0.bounds) == (1.0, 0.0, 2.0, (0.0, 3.0))
    assert (team1.mean, team1.low, team1.high, team1.bounds) == (0.2, -0.5, 0.9, (-3.0, 2.0))
    proven = position_value([MoveValue("a", 1, 1, 1, exact=True), MoveValue("b", 0.5, 0, 1,
                                                                      proven_low=0.0, proven_high=1.0)], 0)
    assert proven.exact and proven.mean == 1


def _ranked_estimator(state, max_seconds=None, seed=0):
    """Values made of the seed (two runs on one position differ), the move
    ranked first not the best mean for either side."""
    v = (seed % 1001) / 1000.0 - 0.5
    plays = state.legal_actions()
    means = [v, v + 0.5, v - 0.5]
    moves = [FakeMove(p, m, m - 0.2, m + 0.2, 50) for p, m in zip(plays, means)]
    return FakeEstimate(v, moves)


def test_one_position_has_one_value_in_a_review():
    """The card given at the tribute and at the return leads to the start of
    the play: the graph's points of the two exchange decisions, the opening
    value at the start of the play and the first play decision's value are
    one value; the tribute's opening value is the difference of two values,
    its proven range from their two ranges (-6..6 here)."""
    a = analyse(load(EXAMPLES / "record_tribute.txt"), views=("double",), budget=0.05,
                estimator=_ranked_estimator, solve_cards=0, min_plays=False, tribute=False)
    trib, ret, first = a.decisions[:3]
    assert (trib.kind, ret.kind, first.kind) == ("tribute", "return", "play")
    start = a.opening["start"]
    g = a.graph()["double"]
    assert g[0]["mean"] == g[1]["mean"] == round(start.mean, 3) == round(first.double.value, 3)
    assert (trib.double.chosen.low, ret.double.chosen.high) == (start.low, start.high)
    deal, ex = a.opening["deal"], a.opening["exchange"]
    assert ex.mean == pytest.approx(start.mean - deal.mean)
    assert ex.bounds == (-6.0, 6.0) and ex.to_dict()["bounds"] == [-6.0, 6.0]
    assert (ex.low, ex.high) == (pytest.approx(start.low - deal.high),
                                 pytest.approx(start.high - deal.low))


def test_every_decision_gets_its_seed_whatever_the_processes():
    rec = load(EXAMPLES / "record_club.txt")
    kw = dict(views=("double",), estimator=_seed_estimator, min_plays=False, tribute=False,
              opening=False, solve_cards=0)
    one = analyse(rec, jobs=1, **kw)
    two = analyse(rec, jobs=2, **kw)
    key = lambda a: [d.double.value for d in a.decisions if d.double and not d.forced]  # noqa: E731
    assert len(set(key(one))) > 40 and key(one) == key(two)
    assert key(analyse(rec, jobs=1, seed=1, **kw)) != key(one)


# -- single-dummy --------------------------------------------------------------------

@pytest.mark.slow
def test_the_thrown_bomb_is_marked_single_dummy_too():
    a = analyse(load(BOMB), views=("single",), budget=1.0, opening=False)
    first = a.decisions[0]
    assert first.single is not None and first.single.mistake is not None
    assert all(str(m.move) != str(first.move) for m in first.single.best)


def _permuted(rec: Record, seat: int, rng: random.Random) -> Record:
    """The same record with the cards the other seats never played (and
    did not give or receive in the exchange) dealt again among them, each
    keeping its number: what ``seat`` saw is unchanged."""
    from guandan_fast.game.record import final_state
    end = final_state(rec)
    seen = [t.card for t in list(rec.tributes) + list(rec.returns)]
    others = [s for s in range(4) if s != seat]
    pool, counts = [], {}
    kept = {}
    for s in others:
        left = list(end.cards(s))
        for c in seen:
            if c in left:
                left.remove(c)
        kept[s] = left
        counts[s] = len(left)
        pool.extend(left)
    rng.shuffle(pool)
    hands = [list(h) for h in rec.hands]
    for s in others:
        for c in kept[s]:
            hands[s].remove(c)
    k = 0
    for s in others:
        hands[s].extend(pool[k:k + counts[s]])
        k += counts[s]
    return Record(hands=[sorted(h) for h in hands], rules=rec.rules, tags=dict(rec.tags),
                  players=rec.players, previous=rec.previous, anti_tribute=rec.anti_tribute,
                  tributes=list(rec.tributes), returns=list(rec.returns), moves=list(rec.moves))


@pytest.mark.slow
def test_the_single_dummy_view_never_uses_a_hidden_card():
    rec = load(EXAMPLES / "record_club.txt")
    seat = 0      # Boris and Dmitri hold cards at the end: theirs are dealt again
    other = _permuted(rec, seat, random.Random(5))
    assert other.hands != rec.hands
    # a playout budget (deterministic): the same view and seed must give the
    # very same values, whatever the hidden hands are (a time budget would
    # make the two runs' rollout counts, so their values, differ with load)
    kw = dict(views=("single",), playouts=100, opening=False, tribute=False, min_plays=False)
    a, b = analyse(rec, **kw), analyse(other, **kw)
    compared = 0
    for x, y in zip(a.decisions, b.decisions):
        if x.seat != seat or x.single is None or y.single is None or x.forced:
            continue
        cx, cy = x.single.chosen, y.single.chosen
        assert cx is not None and cy is not None
        assert (cx.mean, cx.low, cx.high) == (cy.mean, cy.low, cy.high), (x.index, cx, cy)
        assert x.single.value == y.single.value, x.index
        compared += 1
    assert compared >= 5
    # the control: the permutation does matter to a view that sees every hand
    dd = dict(views=("double",), estimator=None, opening=False, tribute=False, min_plays=False,
              solve_cards=24, budget=2.0)
    x, y = analyse(rec, **dd), analyse(other, **dd)
    assert any(p.double.exact and q.double.exact and p.double.value != q.double.value
               for p, q in zip(x.decisions, y.decisions) if p.double and q.double)


def test_the_docs_do_not_promise_the_same_review_from_run_to_run():
    """The budget is time: the seeds fix the random draws, not the values,
    which depend on the machine's speed and load. The docs say so and
    promise no more."""
    from guandan_fast.analysis import review
    docs = (Path(__file__).resolve().parent.parent / "docs" / "review.md").read_text(
        encoding="utf-8")
    for text in (review.__doc__, docs):
        flat = " ".join(text.split())
        assert "the same from run to run" not in flat
        assert "speed and load" in flat and ("same seed" in flat or "same `--seed`" in flat)


# -- the move played is valued --------------------------------------------------------

def test_the_single_dummy_view_always_values_the_move_played():
    """At a small playout budget the rollout search values only its first
    candidates (the policy's move, the pass, ...): the move played is put
    among them, so every decision that is not forced has its value."""
    kw = dict(views=("single",), playouts=20, opening=False, tribute=False, min_plays=False)
    a = analyse(load(EXAMPLES / "record_club.txt"), **kw)
    plays = [d for d in a.decisions if d.kind == "play" and not d.forced]
    assert len(plays) >= 10
    for d in plays:
        assert d.single.chosen is not None and d.single.chosen.valued, d.index


def _blind_suggester(record, move_index, max_seconds=None, seed=0, max_playouts=None):
    """A suggester that values every legal move but the one played."""
    from guandan_fast.game.view import View
    view = View.from_record(record, move_index)
    played = record.moves[move_index].play
    legal = [m for m in view.legal_actions()
             if not (m is None and played is None)
             and not (m is not None and played is not None and m.pattern == played.pattern)]
    return [MoveValue(m, 0.5, 0.2, 0.8, samples=8) for m in legal]


def test_a_move_the_view_did_not_value_is_neither_judged_nor_accurate():
    from guandan_fast.report.text import render_text
    a = analyse(load(SHORT), views=("single",), budget=0.05, suggester=_blind_suggester,
                min_plays=False, opening=False, check_factor=None)
    unvalued = [d for d in a.decisions if d.kind == "play" and not d.forced]
    assert unvalued and all(d.single.chosen is None for d in unvalued)
    for row in a.players():
        assert row["judged"] == 0
        assert row["single"]["judged"] == 0 and row["single"]["accurate"] == 0
        assert row["single"]["accuracy"] is None
    text = render_text(a.to_dict(), "en")
    assert text.count("SD not valued") == len(unvalued)
    assert "СВОЁ без оценки" in render_text(a.to_dict(), "ru")


def _four(*cards):
    from guandan_fast import Card
    return [[Card(c)] for c in cards]


@pytest.mark.parametrize("make, error, needle", [
    (lambda: "x", "ReviewError", "a Record"),
    (lambda: None, "ReviewError", "a Record"),
    (lambda: Record(hands=_four("S3", "S4", "S5", "S6"), moves=[_move(0, "SA")]),
     "DealError", "seat 0 does not hold SA"),
    (lambda: Record(hands=_four("S3", "S4", "S5", "S6"), moves=[_move(0, "S3", raw=True)]),
     "DealError", "a Play or None"),
])
def test_a_record_that_is_none_or_does_not_replay_is_refused_by_name(make, error, needle):
    with pytest.raises(ValueError) as e:
        analyse(make(), budget=0.05)
    assert type(e.value).__name__ == error and needle in str(e.value)


@pytest.mark.parametrize("views, needle", [(None, "in a tuple"), (5, "in a tuple"),
                                           (("double", "x"), "unknown view 'x'"),
                                           ([["double"]], "unknown view")])
def test_bad_views_are_named(views, needle):
    from guandan_fast.errors import ReviewError
    with pytest.raises(ReviewError, match=needle):
        analyse(load(EXAMPLES / "record_endgame_short.txt"), views=views, budget=0.05)
    # one view by its name is that view
    a = analyse(load(EXAMPLES / "record_endgame_short.txt"), views="double", budget=0.05,
                estimator=None)
    assert a.to_dict()["settings"]["views"] == ["double"]


def _move(seat, cards, raw=False):
    from guandan_fast import Rules, read_play
    from guandan_fast.game.record import Move
    return Move(seat, cards if raw else read_play(cards, Rules(level=2)))


@pytest.mark.parametrize("kw, needle", [
    (dict(solve_cards=-1), "solve_cards"), (dict(solve_cards=3.5), "solve_cards"),
    (dict(solve_cards=1000), "solve_cards"), (dict(min_plays="no"), "min_plays"),
    (dict(opening=1), "opening")])
def test_bad_review_settings_are_named(kw, needle):
    from guandan_fast.errors import ReviewError
    with pytest.raises(ReviewError, match=needle):
        analyse(load(EXAMPLES / "record_endgame_short.txt"), budget=0.05, **kw)


def test_a_view_given_twice_is_reviewed_once():
    a = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("double", "double"),
                budget=0.05, estimator=None)
    assert a.to_dict()["settings"]["views"] == ["double"]
