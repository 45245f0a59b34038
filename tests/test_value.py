"""engine.value: the one value type and its algebra, on seeded random values;
Position's repr evaluable; engine options by keyword only."""

import random

import pytest

from test_endgame import random_position

from guandan_fast import Position, Rules, estimate, read_play, solve  # noqa: F401 (eval)
from guandan_fast.engine.value import MoveValue, difference, loss, position_value


def _value(rng, move=None):
    """A random consistent value: proven bounds, an interval and a mean
    within them (sometimes exact)."""
    lo, hi = sorted(rng.randint(-3, 3) for _ in range(2))
    if rng.random() < 0.2:
        v = rng.randint(lo, hi)
        return MoveValue.proven(move, float(v))
    a, b = sorted(rng.uniform(lo, hi) for _ in range(2))
    return MoveValue(move, rng.uniform(a, b), a, b, lo, hi, samples=rng.randint(0, 50))


def test_pov_negates_and_swaps_and_is_an_involution():
    rng = random.Random(1)
    for _ in range(500):
        v = _value(rng)
        w = v.pov(1)
        assert (w.team, w.mean, w.low, w.high, w.proven_low, w.proven_high) == \
            (1, -v.mean, -v.high, -v.low, -v.proven_high, -v.proven_low)
        assert (w.samples, w.exact, w.move) == (v.samples, v.exact, v.move)
        assert w.pov(0) == v and v.pov(0) is v
    with pytest.raises(ValueError, match="team"):
        MoveValue(None, 0, 0, 0).pov(2)


def _brute_position(moves, mover):
    """The definition, written out for team 0's values: the first move of
    the best mean for the mover, its interval held within the best bounds
    for the mover."""
    better = (lambda a, b: a > b) if mover == 0 else (lambda a, b: a < b)
    top = moves[0]
    for m in moves[1:]:
        if better(m.mean, top.mean):
            top = m
    agg = max if mover == 0 else min
    lo, hi = agg(m.proven_low for m in moves), agg(m.proven_high for m in moves)
    if lo == hi:
        return (lo, lo, lo, lo, hi, True)
    low, high = max(top.low, lo), min(top.high, hi)
    return (min(max(top.mean, low), high), low, high, lo, hi, False)


def test_position_value_is_the_best_move_for_the_mover_within_the_best_bounds():
    rng = random.Random(2)
    for _ in range(500):
        moves = [_value(rng, k) for k in range(rng.randint(1, 6))]
        for mover in (0, 1):
            p = position_value(moves, mover)
            assert (p.mean, p.low, p.high, p.proven_low, p.proven_high, p.exact) == \
                pytest.approx(_brute_position(moves, mover)), (moves, mover)
            assert p.move is None and p.team == 0
            # the same position seen from team 1's side
            q = position_value([m.pov(1) for m in moves], mover)
            assert q.team == 1 and q.pov(0) == p
    assert position_value([], 0) is None
    with pytest.raises(ValueError, match="both teams"):
        position_value([MoveValue(None, 0, 0, 0), MoveValue(None, 0, 0, 0, team=1)], 0)


def test_a_loss_is_never_negative_and_the_same_from_either_side():
    rng = random.Random(3)
    for _ in range(500):
        moves = [_value(rng, k) for k in range(rng.randint(1, 6))]
        mover = rng.randint(0, 1)
        pos = position_value(moves, mover)
        chosen = rng.choice(moves)
        mean, low, high, proven = loss(pos, chosen, mover)
        assert 0 <= proven <= mean and low <= mean <= high
        assert loss(pos.pov(1), chosen.pov(1), mover) == pytest.approx((mean, low, high, proven))
        if pos.exact and chosen.exact:
            assert low == mean == high == proven


def test_a_difference_holds_every_difference_of_values_it_could_be():
    rng = random.Random(4)
    for _ in range(500):
        a, b = _value(rng), _value(rng)
        d = difference(a, b)
        assert d.mean == pytest.approx(a.mean - b.mean)
        assert d.proven_low == a.proven_low - b.proven_high
        assert d.proven_high == a.proven_high - b.proven_low
        assert d.exact == (a.exact and b.exact)
        assert difference(a, b.pov(1)) == d


def test_within_keeps_a_value_inside_what_is_proven():
    rng = random.Random(5)
    for _ in range(500):
        v = _value(rng)
        lo, hi = sorted(rng.randint(-3, 3) for _ in range(2))
        if max(lo, v.proven_low) > min(hi, v.proven_high):
            continue
        w = v.within(lo, hi)
        assert max(lo, v.proven_low) == w.proven_low and w.proven_high == min(hi, v.proven_high)
        assert w.proven_low <= w.low <= w.mean <= w.high <= w.proven_high
        assert w.exact == (w.proven_low == w.proven_high) or v.exact


def test_solve_gives_move_values_for_team_0():
    rng = random.Random(6)
    for _ in range(20):
        pos = random_position(rng, 3)
        res = solve(pos)
        assert all(isinstance(m, MoveValue) and m.team == 0 and m.exact and m.samples is None
                   for m in res.moves)
        assert res.value == max(m.value for m in res.moves) if pos.turn % 2 == 0 \
            else res.value == min(m.value for m in res.moves)


def test_position_repr_is_evaluable():
    rng = random.Random(7)
    for i in range(200):
        pos = random_position(rng, rng.randint(1, 6), rich=i % 2 == 0, flags=i % 3 == 0)
        assert eval(repr(pos)) == pos, repr(pos)


def test_engine_options_are_keyword_only():
    pos = Position(["S3", "S4", "SA", "S5"], Rules(level=2), turn=0)
    with pytest.raises(TypeError):
        solve(pos, 1000)
    with pytest.raises(TypeError):
        estimate(pos, 1.0)


@pytest.mark.parametrize("team", [2, -1, 5, True, "0", 1.0, None])
def test_a_move_value_of_no_team_is_refused(team):
    """A MoveValue's team is 0 (seats 0 and 2) or 1 (seats 1 and 3): any
    other is a MoveValueError (a ValueError), where it is made."""
    from guandan_fast.errors import MoveValueError
    with pytest.raises(MoveValueError, match="team is 0 or 1"):
        MoveValue(None, 1.0, 1.0, 1.0, team=team)
    assert issubclass(MoveValueError, ValueError)
    for ok in (0, 1):
        assert MoveValue(None, 1.0, 1.0, 1.0, team=ok).pov(1 - ok).team == 1 - ok
