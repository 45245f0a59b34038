"""solve() stopped by a node or time limit, or by Ctrl-C, at any point: the
result never raises and only states what is proven.

Every limited result is checked against the exact values of the same
position, computed once without a limit: the value is None or exact, the
bounds hold the value, each move's bounds hold that move's exact value, a
best move is a move of the exact value, and the line starts with one.
"""

import random

import pytest

import reference as ref
from conftest import play_values

from guandan_fast import Position, Rules, solve
from guandan_fast.engine.endgame import SolveInterrupted


def key(play):
    return "pass" if play is None else str(play)


def exact_values(pos, max_nodes=None):
    """(value, {move: value}, nodes), or None past max_nodes."""
    res = solve(pos, max_nodes=max_nodes)
    if not res.exact:
        assert max_nodes is not None
        return None
    return res.value, {key(p): v for p, v in play_values(res)}, res.nodes


def check_sound(res, value, moves, all_moves):
    """res (from a limited solve) claims nothing that is not proven."""
    assert -3 <= res.lower <= value <= res.upper <= 3
    assert res.value is None or res.value == value
    assert (res.value is not None) == (res.lower == res.upper)
    assert len(res.moves) == len(moves)
    for p, v, lo, hi in [(m.move, m.value, *m.bounds) for m in res.moves]:
        assert lo <= moves[key(p)] <= hi, (p, lo, hi, moves[key(p)])
        assert v is None or v == moves[key(p)]
        assert (v is None) == (lo != hi)
    for p in res.best:
        assert moves[key(p)] == value
    if res.best:
        assert res.value == value
    if res.pv:
        seat, first = res.pv[0]
        assert seat == res.turn and key(first) in {key(p) for p in res.best}
    if res.exact:
        assert res.value == value
        if all_moves:
            assert all(v is not None for _, v in play_values(res))
    if res.stopped is None:
        assert res.value == value


def deal_position(rng, k):
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    return Position([deck[i * k:(i + 1) * k] for i in range(4)],
                    Rules(level=rng.choice(ref.RANKS)), turn=rng.randrange(4))


def draw(rng, k, cap, least=20_000):
    """A seeded position of k cards a hand whose exact solve takes between
    `least` and `cap` nodes (the rule fixed before any run: it bounds the
    suite's time and makes every grid hold at least two limits), with its
    exact values."""
    while True:
        pos = deal_position(rng, k)
        exact = exact_values(pos, cap)
        if exact is not None and exact[2] >= least:
            return pos, exact


def node_grid(total, factor):
    n, grid = 1000, []
    while n < total:
        grid.append(int(n))
        n *= factor
    return grid + [total]


def sweep(pos, exact, factor):
    """Node limits on a geometric grid from 1,000 to the solve's own count,
    all_moves on and off. With max_nodes, threads=2 runs the one-thread
    search (node counts would depend on timing): checked to be the same."""
    value, moves, total = exact
    grid = node_grid(total, factor)
    for limit in grid:
        for all_moves in (True, False):
            res = solve(pos, max_nodes=limit, all_moves=all_moves)
            check_sound(res, value, moves, all_moves)
            assert res.nodes <= limit + 5
            two = solve(pos, max_nodes=limit, all_moves=all_moves, threads=2)
            assert (two.lower, two.upper, two.moves, two.nodes) == \
                (res.lower, res.upper, res.moves, res.nodes)
    return len(grid)


REPRO = (['CQ H8 S6 D2 HR S5 H7 C4', 'D5 HQ H2 S5 HR DJ S2 S4',
          'S9 CK H3 S6 SQ CQ D3 H5', 'D2 HA CT H6 HT C2 DK S3'], '6', 3)


@pytest.mark.slow
def test_issue_22_value_only_under_a_node_limit():
    hands, level, turn = REPRO
    pos = Position(hands, Rules(level=level), turn=turn)
    full = solve(pos, all_moves=False)
    assert full.exact and full.value == -1 and full.best
    for limit in (100_000, 300_000, 1_000_000, 2_000_000):
        res = solve(pos, max_nodes=limit, all_moves=False)
        assert res.value in (None, full.value)
        assert res.lower <= full.value <= res.upper
        if res.best:
            assert res.pv[0][1] in res.best
    # the case the issue reported: the root value proven, no move yet
    res = solve(pos, max_nodes=300_000, all_moves=False)
    assert res.value == -1 and res.stopped == "limit"


@pytest.mark.slow
def test_limited_results_are_sound_small():
    rng = random.Random(2201)
    for k in (6, 7):
        pos, exact = draw(rng, k, cap=400_000)
        assert sweep(pos, exact, factor=8) >= 2


def test_time_limits_with_two_threads_are_sound():
    rng = random.Random(2202)
    pos, (value, moves, _) = draw(rng, 6, cap=400_000)
    for seconds in (0.002, 0.02):
        for all_moves in (True, False):
            res = solve(pos, max_seconds=seconds, all_moves=all_moves, threads=2)
            check_sound(res, value, moves, all_moves)


def test_interrupt_keeps_what_is_proven():
    rng = random.Random(2203)
    pos, (value, moves, _) = draw(rng, 6, cap=2_000_000, least=300_000)
    for threads in (1, 2):
        calls = [0]

        def progress(done, total, nodes):
            calls[0] += 1
            if done >= 1:
                raise KeyboardInterrupt

        with pytest.raises(SolveInterrupted) as info:
            solve(pos, progress=progress, threads=threads)
        res = info.value.result
        assert res.stopped == "interrupted"
        # one thread stops after its first move; with two, the other thread
        # may prove every move before the interrupt reaches it (a complete
        # result, which check_sound then holds to the exact values)
        assert threads > 1 or not res.exact
        check_sound(res, value, moves, True)
        assert any(v is not None for _, v in play_values(res))


@pytest.mark.slow
@pytest.mark.parametrize("k", [6, 7, 8])
def test_limited_results_are_sound_sweep(k):
    rng = random.Random(2210 + k)
    for _ in range(3):
        pos, exact = draw(rng, k, cap=4_000_000)
        sweep(pos, exact, factor=3)


@pytest.mark.slow
def test_time_limits_sweep_two_threads():
    rng = random.Random(2220)
    for k in (6, 7, 8):
        pos, (value, moves, _) = draw(rng, k, cap=4_000_000, least=500_000)
        for seconds in (0.01, 0.03, 0.1, 0.3):
            for all_moves in (True, False):
                for threads in (1, 2):
                    res = solve(pos, max_seconds=seconds, all_moves=all_moves,
                                threads=threads)
                    check_sound(res, value, moves, all_moves)
