"""The estimator: exact where a proof fits the budget (against the
compiled solver and the plain-minimax reference), honest intervals on a
seeded set, every legal move present, the budget honoured, validation."""

import math
import random

import pytest

import reference as ref
from conftest import by_run, core_pattern, play_values, slow
from test_endgame import flags_matter, random_flags, random_position, reference_solve

from guandan_fast import (Estimate, EstimateError, Position, PositionError, Rules,
                          beating_plays, estimate, hints, plays, solve)
from guandan_fast._core import TOKENS
from guandan_fast.engine import estimate as est_mod
from guandan_fast.engine.value import MoveValue

R2 = Rules(level=2)


def deal_position(rng, k, level=None, flags=False):
    """Four random hands of k cards; flags: random rules flags
    (test_endgame.random_flags; without, the same draws as before)."""
    deck = [t for t in TOKENS for _ in range(2)]
    rng.shuffle(deck)
    level = level or rng.choice(ref.RANKS)
    rules = Rules(level=level, **random_flags(rng)) if flags else Rules(level=level)
    return Position([deck[i * k:(i + 1) * k] for i in range(4)], rules,
                    turn=rng.randrange(4))


def legal_patterns(pos):
    hand = pos.hands[pos.turn]
    if pos.table is None:
        return {core_pattern(p) for p in plays(hand, pos.rules)}
    return {core_pattern(p) for p in beating_plays(hand, pos.table, pos.rules)} | {None}


def patterns(e):
    return [None if m.move is None else core_pattern(m.move) for m in e.moves]


def root_search(pos):
    """The exact search over pos that estimate() builds first (its table
    sized by the cards in play)."""
    return est_mod._search(pos, est_mod._tt_bits(sum(len(h) for h in pos.hands)))


def exact_values(pos):
    """{move pattern (None: the pass): exact value}, by solve()."""
    return {None if p is None else core_pattern(p): v for p, v in play_values(solve(pos))}


def tree(pos, iterations, seed=0, threads=1):
    """The tree search alone (no exact attempt first), a playout budget."""
    import time
    first = root_search(pos)
    return est_mod._tree(pos, first, None, time.perf_counter(), None, iterations, threads,
                         seed, 0.9)


# ---------------------------------------------------------------------------
# Exact when the budget allows a proof
# ---------------------------------------------------------------------------

def test_doc_example_is_exact():
    e = estimate(Position(["S3", "S4", "SA", "S5"], R2, turn=0))
    assert isinstance(e, Estimate)
    assert e.exact and e.value == 2.0 and str(e.best) == "S3"
    assert [(m.low, m.mean, m.high) for m in e.moves] == [(2.0, 2.0, 2.0)]


@pytest.mark.parametrize("k,count,flags", [(2, 60, False), (3, 60, False), (4, 15, False),
                                           (5, 80, True), (6, 40, True)])
def test_equals_solve_when_provable(k, count, flags):
    # flags: random rules flags (they change plays of five cards: 5-6-card
    # hands)
    rng = random.Random(1800 + k + 100 * flags)
    mattered = 0
    for _ in range(count):
        pos = random_position(rng, k, rich=rng.random() < 0.5 or flags, flags=flags)
        mattered += flags_matter(pos)
        res = solve(pos)
        e = estimate(pos, max_seconds=None, max_playouts=200, seed=rng.randrange(1000))
        assert e.exact, pos
        assert e.value == res.value
        assert [(core_pattern(p) if p else None, v) for p, v in play_values(res)] == \
            [(core_pattern(m.move) if m.move else None, m.mean) for m in e.moves]
        assert all(m.low == m.mean == m.high for m in e.moves)
    assert mattered >= (count // 10 if flags else 0), mattered


@pytest.mark.parametrize("k,count,flags", [(2, 80, False), (3, 40, False), slow(5, 80, True),
                                           slow(6, 30, True), slow(5, 300, True),
                                           slow(6, 100, True)])
def test_tree_proofs_match_the_reference(k, count, flags):
    # the tree alone (no exact attempt first): whatever it proves (a move
    # with low == high) is the plain minimax's value, and its bounds always
    # hold it (the proven range of an unproven move is never wrong).
    # flags: random rules flags on both sides, rich 5-6-card hands (where
    # the flags change plays)
    rng = random.Random(2800 + k + 100 * flags)
    proven = mattered = 0
    for _ in range(count):
        pos = random_position(rng, k, rich=flags, flags=flags)
        mattered += flags_matter(pos)
        value, ref_moves = reference_solve(pos)
        e = tree(pos, 300, seed=rng.randrange(100))
        assert set(patterns(e)) == set(ref_moves)
        for m in e.moves:
            v = ref_moves[None if m.move is None else core_pattern(m.move)]
            if m.exact:
                proven += 1
                assert m.mean == v, pos
            assert e.lower <= value <= e.upper
        if e.exact:
            assert e.value == value
    assert proven > count          # the test tests something
    assert mattered >= (count // 10 if flags else 0), mattered


# ---------------------------------------------------------------------------
# Honest intervals (the stated rate, on a seeded set)
# ---------------------------------------------------------------------------

def coverage(positions, iterations):
    """(share of moves whose exact value is inside the 90% interval, moves,
    unproven moves)."""
    inside = total = unproven = 0
    for pos in positions:
        vals = exact_values(pos)
        e = tree(pos, iterations, seed=7)
        for m in e.moves:
            v = vals[None if m.move is None else core_pattern(m.move)]
            total += 1
            unproven += not m.exact
            inside += m.low - 1e-9 <= v <= m.high + 1e-9
            # the proven bounds always hold the exact value
            assert m.bounds[0] <= v <= m.bounds[1]
    return inside / total, total, unproven


def test_intervals_hold_the_exact_values_at_the_stated_rate():
    # the target: >= 85% inside the 90% intervals (seeded set)
    rng = random.Random(4242)
    positions = [deal_position(rng, 6) for _ in range(12)]
    rate, total, unproven = coverage(positions, 60)
    assert total >= 60 and unproven >= 30
    assert rate >= 0.85, rate


@pytest.mark.slow
def test_intervals_hold_the_exact_values_on_larger_endgames():
    rng = random.Random(4343)
    positions = [deal_position(rng, 7) for _ in range(10)]
    rate, total, unproven = coverage(positions, 300)
    assert unproven >= 20
    assert rate >= 0.85, rate


# ---------------------------------------------------------------------------
# Moves, budget, threads, determinism
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k,standing,flags", [(27, False, False), (10, False, False),
                                              (10, True, False), (27, False, True),
                                              (10, True, True)])
def test_every_legal_move_once(k, standing, flags):
    # flags: random rules flags (the legal plays are the core's under them)
    rng = random.Random(99 + k + standing + 1000 * flags)
    for _ in range(by_run(1, 3)):
        pos = deal_position(rng, k, flags=flags)
        if standing:
            owner = (pos.turn - 1) % 4
            hands = [list(map(str, h)) for h in pos.hands]
            p = rng.choice([q for q in plays(hands[owner], pos.rules) if not q.is_bomb])
            for c in p.cards:
                hands[owner].remove(str(c))
            pos = Position(hands, pos.rules, turn=pos.turn, table=p, owner=owner, passes=0)
        e = estimate(pos, max_seconds=None, max_playouts=60)
        got = patterns(e)
        assert len(got) == len(set(got))
        assert set(got) == legal_patterns(pos)
        assert e.iterations <= 60
        for m in e.moves:
            assert -3 <= m.low <= m.mean <= m.high <= 3
            assert m.bounds[0] <= m.low and m.high <= m.bounds[1]
            assert m.bounds[0] <= m.score <= m.bounds[1]
            assert m.samples >= 0
        # best first for the mover: by score (the tree's minimax value),
        # but for the hint order's first play, which the prior may put first
        sign = 1 if pos.turn % 2 == 0 else -1
        sampled = [m.score * sign for m in e.moves[1:] if m.samples or m.exact]
        assert sampled == sorted(sampled, reverse=True)
        first = e.moves[0]
        top = max((m for m in e.moves if m.samples or m.exact), key=lambda m: sign * m.score)
        if sign * first.score < sign * top.score:
            h = hints(pos.hands[pos.turn], pos.rules, pos.table)[0]
            assert tuple(first.move.pattern) == tuple(h.pattern)
            assert sign * top.mean < sign * first.mean + est_mod.HINT_MARGIN
        assert e.best is e.moves[0].move


def _move(play, mean, samples=100, bounds=(-3, 3), score=None):
    return MoveValue(play, mean, max(-3.0, mean - 1), min(3.0, mean + 1), *bounds,
                     samples=samples, exact=bounds[0] == bounds[1],
                     score=mean if score is None else score)


@pytest.mark.parametrize("team", [0, 1])
def test_the_hint_first_play_stays_first_unless_the_tree_shows_it_worse(team):
    # seat `team` leads S3 or S9: the hint order's first play is S3
    hands = [["S3", "S9"], ["H4"], ["H5"], ["H6"]]
    if team:
        hands = [["H4"], ["S3", "S9"], ["H5"], ["H6"]]
    pos = Position(hands, Rules(level=2), turn=team)
    low, high = [p for p in plays(["S3", "S9"], pos.rules)]
    assert str(hints(hands[team], pos.rules)[0]) == "S3" == str(low)
    s = 1 if team == 0 else -1

    def order(ranked):
        k = est_mod._hint_index(pos, [m.move for m in ranked])
        return [str(m.move) for m in est_mod._hint_first(ranked, s, ranked[k])]

    def bounds(a, b):
        return tuple(sorted((s * a, s * b)))
    # the tree prefers S9 (by score) but its mean is not HINT_MARGIN better: S3 first
    m = est_mod.HINT_MARGIN
    assert order([_move(high, s * (1.0 + m / 2), score=s * 2.0), _move(low, s * 1.0)]) == ["S3", "S9"]
    # HINT_MARGIN better: the tree's choice stays
    assert order([_move(high, s * (1.0 + m), score=s * 2.0), _move(low, s * 1.0)]) == ["S9", "S3"]
    # proven no worse and possibly better: stays, whatever the means
    assert order([_move(high, s * 1.0, bounds=bounds(2, 3)),
                  _move(low, s * 1.2, bounds=bounds(1, 2))]) == ["S9", "S3"]
    # no worse in every case and better in some: also when the lower bound
    # only meets a proven hint play's value
    assert order([_move(high, s * 1.0, bounds=bounds(2, 3)),
                  _move(low, s * 1.2, bounds=bounds(2, 2))]) == ["S9", "S3"]
    # the hint play proven no worse and possibly better: first, even when
    # the tree's mean is HINT_MARGIN better
    assert order([_move(high, s * (2.0 + m), score=s * 2.0, bounds=bounds(1, 2)),
                  _move(low, s * 2.0, bounds=bounds(2, 3))]) == ["S3", "S9"]
    assert order([_move(high, s * (2.0 + m), score=s * 2.0, bounds=bounds(1, 2)),
                  _move(low, s * 2.0, bounds=bounds(2, 2))]) == ["S3", "S9"]
    # both proven, the same value: the means decide as without proofs
    assert order([_move(high, s * (2.0 + m), score=s * 2.0, bounds=bounds(2, 2)),
                  _move(low, s * 2.0, bounds=bounds(2, 2))]) == ["S9", "S3"]
    # equal proven ranges say nothing: the prior decides
    assert order([_move(high, s * 1.0, bounds=bounds(1, 3)),
                  _move(low, s * 1.2, bounds=bounds(1, 3))]) == ["S3", "S9"]
    # the hint's play never sampled and unproven: the tree's ranking stays
    assert order([_move(high, s * 1.0), _move(low, 0.0, samples=0)]) == ["S9", "S3"]
    # already first: unchanged
    assert order([_move(low, s * 1.0), _move(high, s * 2.0)]) == ["S3", "S9"]


def _root_visits(pos, iterations, root_floor, seed=0):
    """The tree alone (no exact phase), `iterations` iterations: per root
    move (samples, proven), and the root's visits."""
    s = root_search(pos)
    c = est_mod._core.EstimatorCore(s, seed, root_floor=root_floor, **est_mod.TREE)
    c.run(None, iterations)
    stats = c.root_stats()
    return [(k, lo == hi) for k, _, _, lo, hi, _ in stats], sum(k for k, *_ in stats)


def test_every_unproven_root_move_gets_the_root_floor():
    # the shipped floor: an unproven root move is tried first while its
    # samples are below root_floor * sqrt(root visits); so at the end each
    # has about that many (one short at most while the others catch up).
    # Without the floor (root_floor=0) UCB1 starves some moves on the same
    # positions: the property is not a consequence of the rest of the tree.
    floor = est_mod.ROOT_FLOOR
    assert floor > 0 and est_mod.ROOT_FLOOR_CARDS >= 32
    rng = random.Random(808)
    starved = 0
    for _ in range(6):
        pos = deal_position(rng, 8)
        got, total = _root_visits(pos, 4000, floor)
        want = floor * math.sqrt(total)
        open_moves = [k for k, proven in got if not proven]
        assert all(k >= want - 2 for k in open_moves), (want, got)
        base, total0 = _root_visits(pos, 4000, 0.0)
        starved += any(k < floor * math.sqrt(total0) - 2 for k, proven in base if not proven)
    assert starved >= 1


@pytest.mark.slow
def test_full_deal_budget_and_every_move_sampled():
    rng = random.Random(27)
    pos = deal_position(rng, 27)
    e = estimate(pos, max_seconds=0.3, seed=1)
    assert e.seconds <= 0.3 * 1.5 + 0.05
    assert not e.exact and e.playouts > 0
    # every root move valued: checked under a playout budget, so that the
    # test does not depend on how many playouts a loaded machine fits in 0.3 s
    e = estimate(pos, max_seconds=None, max_playouts=600, seed=1)
    assert len(e.moves) > 100 and all(m.samples > 0 for m in e.moves)
    assert e.value == e.moves[0].mean


def test_deterministic_for_a_seed_with_one_thread():
    rng = random.Random(5)
    pos = deal_position(rng, 12)
    a = estimate(pos, max_seconds=None, max_playouts=150, seed=3)
    b = estimate(pos, max_seconds=None, max_playouts=150, seed=3)
    assert a.to_dict()["moves"] == b.to_dict()["moves"]
    assert a.playouts == b.playouts


def test_two_threads_same_statistics():
    rng = random.Random(6)
    pos = deal_position(rng, 12)
    e = estimate(pos, max_seconds=None, max_playouts=200, threads=2, seed=3)
    assert e.threads == 2
    assert set(patterns(e)) == legal_patterns(pos)
    assert 0 < e.iterations <= 200
    # proven ones the same as the solver's
    small = deal_position(rng, 3)
    res = solve(small)
    e2 = estimate(small, max_seconds=None, max_playouts=100, threads=2)
    assert e2.exact and e2.value == res.value


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,word", [
    ({"max_seconds": 0}, "max_seconds"), ({"max_seconds": -1.0}, "max_seconds"),
    ({"max_seconds": math.inf}, "max_seconds"), ({"max_seconds": math.nan}, "max_seconds"),
    ({"max_seconds": "1"}, "max_seconds"), ({"max_seconds": True}, "max_seconds"),
    ({"max_playouts": 0}, "max_playouts"), ({"max_playouts": 1.5}, "max_playouts"),
    ({"max_seconds": None}, "budget"),
    ({"threads": 0}, "threads"), ({"threads": "2"}, "threads"),
    ({"threads": 257}, "threads"), ({"threads": True}, "threads"),
    ({"max_playouts": 10 ** 40}, "max_playouts must be 1..[0-9]+, not a 41-digit number"),
    ({"seed": -1}, "seed"), ({"seed": 2 ** 64}, "seed"), ({"seed": 1.0}, "seed"),
    ({"confidence": 1.0}, "confidence"), ({"confidence": 0}, "confidence"),
])
def test_rejects_bad_options(kwargs, word):
    pos = Position(["S3", "S4", "SA", "S5"], R2, turn=0)
    with pytest.raises(EstimateError, match=word):
        estimate(pos, **kwargs)
    assert issubclass(EstimateError, ValueError)


def test_takes_a_game_state():
    from guandan_fast.game.state import GameState
    rng = random.Random(11)
    pos = deal_position(rng, 3)
    st = GameState.start([list(map(str, h)) for h in pos.hands], pos.rules, leader=pos.turn)
    e = estimate(st, max_seconds=None, max_playouts=50)
    assert e.exact and e.value == solve(pos).value


def test_rejects_a_non_position():
    # a PositionError (a ValueError), as solve() gives
    with pytest.raises(PositionError, match="not list"):
        estimate(["S3", "S4", "SA", "S5"])


# ---------------------------------------------------------------------------
# The playout policy: legal moves to the end, replayed by the game state
# machine (game/state.py, which shares no code with the compiled state update)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k,random_plies", [(27, 0), (27, 6), (8, 3), (5, 0)])
def test_playouts_are_legal_deals_played_to_the_end(k, random_plies):
    from guandan_fast import _core
    from guandan_fast.game.state import GameState
    rng = random.Random(300 + k + random_plies)
    for i in range(4):
        pos = deal_position(rng, k)
        search = est_mod._search(pos, 16)
        line, value = _core._playout_line(search, seed=i, random_plies=random_plies)
        st = GameState.start([list(map(str, h)) for h in pos.hands], pos.rules,
                             leader=pos.turn)
        for seat, play in line:
            assert st.turn == seat
            assert st.why_illegal(play) is None, (seat, play)
            st = st.apply(play)
        assert st.over and st.result() == value
        # the counted playouts give the same kind of results
        vals, plies = _core._playouts(search, 20, seed=i, random_plies=random_plies)
        assert set(vals) <= {-3, -2, -1, 1, 2, 3} and plies > 0


# The policy's rules that look at the other hands (a seat that can go out
# at once): each position below is built so that the rule decides the first
# move, and the rules before it (fewest plays left, tie order) would choose
# another. Level 2 throughout; no hand holds a wild (H2).

def _first_policy_move(hands, turn, table=None, owner=None, passes=0):
    from guandan_fast import _core
    pos = Position(hands, Rules(level="2"), turn=turn, table=table, owner=owner,
                   passes=passes)
    line, _ = _core._playout_line(est_mod._search(pos, 16), seed=0)
    seat, play = line[0]
    assert seat == turn
    return None if play is None else sorted(str(c) for c in play.cards)


def test_policy_leads_what_the_partner_goes_out_over():
    # partner (seat 2) holds SA alone: lead the single it beats, not the
    # lowest pair that fewest-plays would lead (3 3 leaves 2 plays as well)
    hands = ["H3 H3 H5 H5 S9", "C4 C6 C8 CT CQ", "SA", "D4 D6 D8 DT DQ"]
    assert _first_policy_move(hands, 0) == ["S9"]


def test_policy_does_not_lead_what_an_opponent_goes_out_over():
    # seat 1 holds the pair DK DK: the pair 3 3 (first in tie order) would let
    # it out; a single is led instead
    hands = ["H3 H3 S5 S7", "DK DK", "C4 C6 C8 CT CQ", "D4 D6 D8 DT DQ"]
    move = _first_policy_move(hands, 0)
    assert move is not None and len(move) == 1


def test_policy_stops_an_opponent_going_out_over_the_partner():
    # partner (seat 2) led S5; seat 1 (next) goes out with SK over it: seat 0
    # beats it with the one single SK does not beat
    hands = ["HA D7 D7 S9 S9", "SK", "C4 C6 C8 CT CQ", "D4 D6 D8 DT DQ S3"]
    assert _first_policy_move(hands, 0, table="S5", owner=2, passes=1) == ["HA"]


def test_policy_beats_when_the_next_opponent_would_go_out():
    # seat 3 led S5 and holds nine more cards; seat 1 goes out with SK over
    # S5; seat 0's singles break its pairs (fewest plays would pass): it
    # plays the ace, which SK does not beat
    hands = ["D7 D7 HA HA", "SK", "C4 C6 C8 CT CQ S3", "D4 D6 D8 DT DQ C3 H9 HJ S8"]
    assert _first_policy_move(hands, 0, table="S5", owner=3) == ["HA"]


def test_policy_lets_the_partner_go_out():
    # seat 3 led S5; the partner (seat 2) goes out with SK over it and no
    # opponent goes out: seat 0 passes, where fewest plays would play S8
    hands = ["S8 C9 C9", "C4 C6 CT CQ D3 H4", "SK", "D4 D6 D8 DT DQ C3 H9 HJ S7"]
    assert _first_policy_move(hands, 0, table="S5", owner=3) is None


def test_move_playouts_are_the_playouts_after_each_move():
    # bench_estimate.py's policy table: root move i, then one playout; the
    # same as a playout from the position after move i (built by the game
    # state machine)
    from guandan_fast import _core
    from guandan_fast.game.state import GameState
    rng = random.Random(4242)
    for k in (3, 5, 7):
        pos = deal_position(rng, k)
        search = est_mod._search(pos, 16)
        vals = _core._move_playouts(search)
        assert len(vals) == len(search.moves())
        st0 = GameState.start([list(map(str, h)) for h in pos.hands], pos.rules,
                              leader=pos.turn)
        for play, v in zip(search.moves(), vals):
            st = st0.apply(play)
            if st.over:
                assert v == st.result()
                continue
            child = est_mod._search(est_mod._as_position(st), 16)
            assert v == _core._playout_line(child)[1]


@pytest.mark.parametrize("threads,seed", [(1, 5150), (2, 5151)])
def test_time_budget_proofs_are_sound(threads, seed):
    # with a time budget, one thread: the tree is followed by proofs of its
    # two first moves (VERIFY); two threads: one thread grows the tree while
    # the other proves root moves (_tree_and_proofs). Whatever is proven
    # must hold the exact value, and every move is there once (4x6, where
    # a budget of 0.15 s proves some moves, not all)
    import time
    rng = random.Random(seed)
    for _ in range(by_run(1, 4)):
        pos = deal_position(rng, 6)
        vals = exact_values(pos)
        first = root_search(pos)
        t0 = time.perf_counter()
        e = est_mod._tree(pos, first, None, t0, t0 + 0.15, None, threads, 0, 0.9)
        assert e.threads == threads
        assert sorted(map(str, patterns(e))) == sorted(map(str, legal_patterns(pos)))
        for m in e.moves:
            v = vals[None if m.move is None else core_pattern(m.move)]
            assert m.bounds[0] <= v <= m.bounds[1]
            if m.exact:
                assert m.mean == v


@pytest.mark.slow
def test_the_second_thread_proves_the_root_moves():
    # the prover's work reaches the answer: on 4x5 positions (a move's proof
    # takes milliseconds) every root move is proven, with the solver's value,
    # by a tree that cannot prove them itself in that time (the solver off
    # in the tree: alone, with the same time, it leaves some open; a loaded
    # machine only leaves it more open)
    import time
    tree = dict(est_mod.TREE, solve_cards=0)
    rng = random.Random(5252)
    tree_open = 0
    for _ in range(4):
        pos = deal_position(rng, 5)
        vals = exact_values(pos)
        first = root_search(pos)
        core = est_mod._core.EstimatorCore(first, 0, **tree)
        prover = est_mod._search(pos, 10, share=first)
        est_mod._tree_and_proofs([prover], core, None, time.perf_counter() + 0.2,
                                 est_mod._hint_index(pos, first.moves()))
        for p, (_, _, _, lo, hi, _) in zip(first.moves(), core.root_stats()):
            assert lo == hi == vals[None if p is None else core_pattern(p)]
        alone = est_mod._core.EstimatorCore(root_search(pos), 0, **tree)
        alone.run(0.2, None)
        tree_open += sum(lo != hi for _, _, _, lo, hi, _ in alone.root_stats())
    assert tree_open > 0


@pytest.mark.slow
def test_threads_split_the_root_moves():
    # without root proofs (a playout budget, or a full deal), tree k of
    # `threads` samples only the root moves j with j % threads == k: the
    # trees, which draw no random numbers, would otherwise be the same tree
    # and their pooled samples the same samples counted twice
    rng = random.Random(77)
    pos = deal_position(rng, 10)
    for offset in (0, 1):
        first = root_search(pos)
        core = est_mod._core.EstimatorCore(first, 0, root_stride=2, root_offset=offset,
                                           **est_mod.TREE)
        core.run(None, 400)
        stats = core.root_stats()
        assert len(stats) >= 4
        for j, (k, _, _, lo, hi, _) in enumerate(stats):
            if j % 2 != offset:
                assert k == 0
            elif lo != hi:
                assert k > 0
    with pytest.raises(ValueError, match="root_offset"):
        est_mod._core.EstimatorCore(first, 0, root_stride=2, root_offset=2)
    # pooled: every unproven move sampled, once per iteration of its tree
    a = estimate(pos, max_seconds=None, max_playouts=400, threads=2, seed=5)
    assert a.threads == 2
    assert all(m.samples > 0 for m in a.moves if not m.exact)
    assert sum(m.samples for m in a.moves) <= 400 + len(a.moves)
    # more threads than root moves: a tree with no move of its own would
    # idle and waste its share of the playouts
    # (with 32 trees of ceil(100 / 32) = 4 iterations each, the samples
    # would be at most 4 a move)
    few = deal_position(random.Random(82), 5)
    e = tree(few, 100, threads=32)
    assert e.threads == len(e.moves) < 32
    assert sum(m.samples for m in e.moves) >= 100 - len(e.moves) > 4 * len(e.moves)


@pytest.mark.parametrize("cards,budget,at", [slow(8, 12.0, 2.5), slow(27, 30.0, 1.0)])
def test_an_interrupt_stops_every_thread(cards, budget, at):
    # Ctrl-C reaches only the main thread: a threaded estimate stops its
    # tree and its provers (8 cards: the interrupt comes after the exact
    # phase's 15% of the budget) or its trees (27) before it raises
    import os
    import signal
    import threading
    import time
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(at, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        pos = deal_position(random.Random(3), cards)
        before = threading.active_count()
        timer.start()
        t0 = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            estimate(pos, max_seconds=budget, threads=2)
        assert time.perf_counter() - t0 < at + 2
        timer.join()
        # (the workers were told to stop and were joined; a join that the
        # interrupt itself cut short can return while its thread is still
        # ending, so the test gives them a moment)
        t1 = time.perf_counter()
        while threading.active_count() > before and time.perf_counter() - t1 < 2:
            time.sleep(0.01)
        assert threading.active_count() == before, [t.name for t in threading.enumerate()]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)


@pytest.mark.parametrize("threads", [1, 2])
def test_nodes_count_every_exact_search(threads):
    # Estimate.nodes: the exact phase's, the root proofs', the provers' and
    # the trees' own proofs' nodes (before, only the last: often 0 on 4x8,
    # where the exact phase and the proofs had searched millions)
    # with a playout budget the exact phase gets 2000 nodes a playout
    # (at 4x8 it proves nothing with them and spends them all)
    pos = deal_position(random.Random(8), 8)
    e = estimate(pos, max_seconds=None, max_playouts=50, threads=threads)
    assert not e.exact
    assert e.nodes >= 2000 * 50


def test_numpy_seeds_huge_budgets_and_wrong_types_are_clean():
    import numpy as np
    from guandan_fast import solve
    from guandan_fast.bots.match import deal_for
    from guandan_fast.errors import EstimateError, LimitError, PositionError
    h, lv, _ = deal_for(0, 0)
    full = Position(h, Rules(level=lv))
    # the tree runs on a full deal: a NumPy seed reaches it
    e = estimate(full, max_playouts=20, max_seconds=None, seed=np.uint64(5))
    f = estimate(full, max_playouts=20, max_seconds=None, seed=5)
    assert [(m.move, m.mean) for m in e.moves] == [(m.move, m.mean) for m in f.moves]
    with pytest.raises(EstimateError, match="max_seconds"):
        estimate(full, max_seconds=10 ** 400)
    with pytest.raises(LimitError, match="max_seconds"):
        solve(full, max_seconds=10 ** 400)
    with pytest.raises(PositionError, match="Position or a GameState"):
        estimate("S3 S4")
