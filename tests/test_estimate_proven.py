"""An estimate that starts from what the solver proved (``estimate``'s
``proven``, and ``gd-analyze endgame``'s fallback after a solve stopped at a
limit): the moves the solver proved are exact, with the solver's values;
every other move's interval holds the exact value (a full ``solve``).

The positions are seeded small deals where a node limit stops the solver
with some moves proven and not all; the estimate's budget is playouts, so
every answer is the same on every run."""

import dataclasses
import json
import random
from pathlib import Path

import pytest

import reference as ref
from clirun import run

from guandan_fast import EstimateError, Position, Rules, estimate, read_play, solve
from guandan_fast.formats.position import dumps_position, loads_position


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def seeded(seed, k):
    """Four hands of k cards dealt by random.Random(seed), level 9, seat
    seed % 4 to lead."""
    rng = random.Random(seed)
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    return Position([deck[i * k:(i + 1) * k] for i in range(4)], Rules(level=9),
                    turn=seed % 4)


def name(move):
    """A move as the JSON output names it: its cards, or 'pass'."""
    return "pass" if move is None else str(move)


def solver_proven(result):
    """{move: value} of the moves a solve result proves."""
    return {m.move: m.value for m in result.moves if m.exact}


# (seed, cards a hand, the solver's node limit, only: the estimate of one
# playout proves no other move)
CASES = [(3, 4, 3000, False), (4, 4, 3000, False), (0, 5, 3000, True),
         (3, 5, 300, False), (5, 5, 10_000, True), (8, 6, 300, False)]


@pytest.mark.parametrize("seed,k,max_nodes,only", CASES)
def test_the_solvers_proofs_stay_exact_and_the_intervals_hold_the_values(
        seed, k, max_nodes, only):
    pos = seeded(seed, k)
    true = {m.move: m.value for m in solve(pos).moves}
    part = solve(pos, max_nodes=max_nodes)
    proven = solver_proven(part)
    assert 0 < len(proven) < len(part.moves)       # the case is what it says
    e = estimate(pos, max_seconds=None, max_playouts=1, proven=part)
    assert sorted(map(str, (m.move for m in e.moves))) == sorted(map(str, true))
    shown = {m.move: m.mean for m in e.moves if m.exact}
    for move, value in proven.items():
        assert shown.get(move) == value, (str(move), shown.get(move), value)
    if only:
        assert set(shown) == set(proven)
    for m in e.moves:
        assert m.proven_low <= true[m.move] <= m.proven_high, str(m.move)
        assert m.low <= true[m.move] <= m.high, str(m.move)
        if m.exact:
            assert m.mean == true[m.move]
    assert e.lower <= solve(pos).value <= e.upper


def test_the_forms_of_proven_agree():
    """The result, its MoveValues and (move, lo, hi) triples, in any order,
    give the same answer (the result's range of the value aside)."""
    pos = seeded(5, 5)
    part = solve(pos, max_nodes=10_000)
    a = estimate(pos, max_seconds=None, max_playouts=20, proven=part)
    b = estimate(pos, max_seconds=None, max_playouts=20, proven=list(reversed(part.moves)))
    c = estimate(pos, max_seconds=None, max_playouts=20,
                 proven=[(m.move, m.proven_low, m.proven_high) for m in part.moves])
    d = estimate(pos, max_seconds=None, max_playouts=20,
                 proven=[m.pov(1) for m in part.moves])       # another team's view
    for other in (b, c, d):
        assert [(str(m.move), m.mean, m.low, m.high, m.exact) for m in a.moves] == \
            [(str(m.move), m.mean, m.low, m.high, m.exact) for m in other.moves]


def test_everything_proven_is_the_answer_at_once():
    pos = seeded(5, 5)
    full = solve(pos)
    e = estimate(pos, max_seconds=None, max_playouts=1, proven=full)
    assert e.exact and e.value == full.value and e.nodes == 0 and e.playouts == 0
    assert {m.move: m.mean for m in e.moves} == {m.move: m.value for m in full.moves}


def test_without_proven_the_estimate_is_unchanged():
    pos = seeded(5, 5)
    a = estimate(pos, max_seconds=None, max_playouts=30, seed=2)
    b = estimate(pos, max_seconds=None, max_playouts=30, seed=2, proven=None)
    assert a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}


def _bad_proven():
    pos = seeded(5, 5)
    part = solve(pos, max_nodes=10_000)
    triples = [(m.move, int(m.proven_low), int(m.proven_high)) for m in part.moves]
    move = triples[0][0]
    other = read_play("SA SA", pos.rules)          # no hand holds two SA here
    return pos, [
        (3, "proven must be an EndgameResult or a sequence"),
        ("S3 S4", "proven must be an EndgameResult or a sequence"),
        ({move: (1, 2)}, "proven must be an EndgameResult or a sequence"),
        (triples[:-1], f"proven has {len(triples) - 1} moves, the position has "
                       f"{len(triples)} legal moves"),
        (triples + [triples[0]], "proven has"),
        ([triples[0]] * len(triples), "appears twice"),
        ([(move, 2, 1)] + triples[1:], r"bounds are empty: lo 2 > hi 1"),
        ([(move, -4, 1)] + triples[1:], r"lo must be an integer -3..3, not -4"),
        ([(move, 1, 4)] + triples[1:], r"hi must be an integer -3..3, not 4"),
        ([(move, 1.5, 2)] + triples[1:], r"lo must be an integer -3..3, not 1.5"),
        ([(move, True, 2)] + triples[1:], r"lo must be an integer -3..3, not True"),
        ([(move, "1", 2)] + triples[1:], r"lo must be an integer -3..3, not '1'"),
        ([(move, 0, 0)] + triples[1:], "value is 0"),
        ([(other, 1, 2)] + triples[1:], "is not a legal move of seat"),
        ([("S3", 1, 2)] + triples[1:], "a move must be a Play or None"),
        ([(move, 1)] + triples[1:], r"each item must be a \(move, lo, hi\) or a MoveValue"),
        (solve(seeded(4, 5), max_nodes=100), "proven: a result for seat"),
        (dataclasses.replace(part, moves=None), "whose moves are not MoveValues"),
    ]


@pytest.mark.parametrize("case", range(len(_bad_proven()[1])))
def test_rejects_a_bad_proven(case):
    pos, cases = _bad_proven()
    bad, message = cases[case]
    with pytest.raises(EstimateError, match=message):
        estimate(pos, max_seconds=None, max_playouts=1, proven=bad)
    assert issubclass(EstimateError, ValueError)


def test_rejects_bounds_that_disagree():
    """Each move is worth no more to the mover than the value: a result
    whose value's range excludes a move's proven value is rejected."""
    pos = seeded(5, 5)
    part = solve(pos, max_nodes=10_000)
    worst = -3 if pos.turn % 2 == 0 else 3           # for the mover
    assert any(m.exact and m.value != worst for m in part.moves)
    part.lower = part.upper = worst
    with pytest.raises(EstimateError, match="the bounds disagree"):
        estimate(pos, max_seconds=None, max_playouts=1, proven=part)


def test_cli_fallback_keeps_the_solvers_proofs(monkeypatch):
    """gd-analyze endgame --max-nodes N --max-seconds S: the moves the
    solver proved within N nodes are shown exact (=, "exact": true) with
    its values after the estimate that follows (here of one playout, so
    that the answer does not depend on timing)."""
    import guandan_fast.engine.estimate as est_mod
    real = est_mod.estimate

    def one_playout(position, **kw):
        kw.update(max_seconds=None, max_playouts=1)
        return real(position, **kw)
    monkeypatch.setattr(est_mod, "estimate", one_playout)
    pos = seeded(5, 5)
    true = {name(m.move): m.value for m in solve(pos).moves}
    proven = {name(m): v for m, v in solver_proven(solve(pos, max_nodes=10_000)).items()}
    assert 0 < len(proven) < len(true)
    text = dumps_position(pos)
    r = run("endgame", "-", "--max-nodes", "10000", "--max-seconds", "8", "-q",
            "--format", "json", stdin=text)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    shown = {("pass" if m["pass"] else m["play"]["cards"]): m for m in data["moves"]}
    assert set(shown) == set(true)
    assert {c for c, m in shown.items() if m["exact"]} == set(proven)
    for cards, m in shown.items():
        assert m["low"] <= true[cards] <= m["high"]
        if m["exact"]:
            assert m["mean"] == proven[cards] and m["bounds"] == [proven[cards]] * 2
    # not every move proven; the value is (the solver proved it)
    assert data["exact"] is False and data["estimated"] is False
    assert data["value_proven"] and data["value"] == solve(pos).value
    r = run("endgame", "-", "--max-nodes", "10000", "--max-seconds", "8", "-q", stdin=text)
    assert r.returncode == 0, r.stderr
    exact_lines = [line for line in r.stdout.splitlines() if "exact" in line.split()]
    assert len(exact_lines) == len(proven)
    for cards, value in proven.items():
        assert any(f"{value:+d} exact" in line and cards in line for line in exact_lines)


def test_bounds_that_do_not_hold_are_named_as_such():
    """Bounds that lie in a way the search can see are an EstimateError
    saying so (bounds that lie unseen are the caller's: the docstring asks
    for bounds that hold)."""
    pos = loads_position((EXAMPLES / "endgame2.txt").read_text(encoding="utf-8"))
    full = solve(pos, all_moves=True)
    assert {m.move is None: m.value for m in full.moves} == {True: 2, False: 1}
    bomb = next(m.move for m in full.moves if m.move is not None)
    with pytest.raises(EstimateError, match="the bounds given do not hold"):
        estimate(pos, max_seconds=None, max_playouts=50, proven=[(None, -3, -1), (bomb, -3, 3)])
