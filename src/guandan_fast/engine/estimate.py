"""Perfect-information estimates beyond the exact horizon.

:func:`estimate` values any :class:`~guandan_fast.engine.endgame.Position`
(full 27-card deals included) within a time or playout budget: team 0's
expected level gain and, for every legal move of the seat to act (the pass
included), an estimate with a confidence interval. When the budget allows a
proof it returns exactly what :func:`~guandan_fast.engine.endgame.solve`
proves (``exact`` True, every interval a single value).

The method (a team-level Monte Carlo tree search in the compiled core, with
the exact solver at the nodes it can prove, and the calibration of the
intervals) is described in docs/estimator.md.

>>> from guandan_fast import Position, Rules
>>> e = estimate(Position(["S3", "S4", "SA", "S5"], Rules(level=2), turn=0))
>>> e.exact, e.value, [(str(m.move), m.low, m.high) for m in e.moves]
(True, 2.0, [('S3', 2.0, 2.0)])
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, List, Optional

import numpy as np

from .. import _core
from .._core import Play
from ..errors import EstimateError, PositionError
from .endgame import (MAX_NODES, NODES_PER_PLAYOUT, EndgameResult, Position, _first_test,
                      _search, check_count, check_seconds, check_seed, check_threads,
                      default_tt_bits)
from .moves import hints
from .value import MoveValue

__all__ = ["estimate", "Estimate"]

# Interval rule (docs/estimator.md, "Honest intervals"): a move's interval
# is its samples' mean +- WIDTH, clipped to the move's proven bounds (which
# always hold the exact value). The mean of the results backed up through a
# move is not its minimax value, and the gap dominates the sampling error,
# so the half-width is the measured quantile of |exact value - mean| over
# the unproven moves of seeded decisive endgames (bench/calibrate_estimate.py,
# sets calib6, calib7, calib7s and calib8, disjoint from the benchmark's),
# by the move's samples (at least that many) and confidence level; a level
# between two columns takes the wider one. The first row is the fit on the
# four sets pooled at 0.1, 0.5 and 2 s (2,215 moves, with the verification
# phase); the other two rows keep the earlier fit on the first three sets,
# which is wider than the pooled one there (the pooled rows held only 88%
# of calib6's moves).
WIDTH = (
    # samples >=, {confidence: half-width}
    (0, {0.5: 1.0, 0.8: 2.2, 0.9: 3.0, 0.95: 4.0, 0.99: 5.0}),
    (100, {0.5: 0.7, 0.8: 1.5, 0.9: 1.8, 0.95: 2.3, 0.99: 4.2}),
    (1000, {0.5: 0.6, 0.8: 1.3, 0.9: 1.8, 0.95: 2.3, 0.99: 3.3}),
)


def _width(samples: int, confidence: float, table=WIDTH) -> float:
    """The half-width of `table` (WIDTH's form) for a move's samples and a
    confidence level."""
    row = table[0][1]
    for at, r in table:
        if samples >= at:
            row = r
    for c in sorted(row):
        if confidence <= c + 1e-12:
            return row[c]
    return 6.0         # above the table: the whole range


def _move_dict(m: MoveValue) -> dict:
    """A move's estimate as JSON-ready data (``Estimate.to_dict``)."""
    p = m.move
    return {"play": None if p is None else {"type": p.type, "rank": p.rank, "cards": str(p)},
            "pass": p is None, "mean": round(m.mean, 4),
            "low": round(m.low, 4), "high": round(m.high, 4),
            "samples": m.samples, "exact": m.exact,
            "bounds": [m.proven_low, m.proven_high], "score": None if m.score is None else round(m.score, 4)}


@dataclass
class Estimate:
    """The answer of :func:`estimate`.

    ``value``: team 0's expected level gain (the mean of the move ranked
    first; the proven value when ``exact``). ``exact``: the value and every
    move's value are proven (they are then what ``solve`` returns).
    ``moves``: a :class:`~guandan_fast.engine.value.MoveValue` (team 0's
    values) for every legal move of the seat to act (a Play, None for the
    pass), best first for the mover: ``mean``, the mean of the results
    behind the move, within its proven bounds; ``low``/``high``, the
    confidence interval (``low == high == mean`` when ``exact``, i.e.
    proven); ``samples``, the results behind it (0: never tried, the
    interval is then the proven bounds ``proven_low`` .. ``proven_high``,
    which always hold the exact value); ``score``, what the moves are
    ranked by, the tree's implicit minimax value of the move (the exact
    value when proven).
    ``best``: the play ranked first (None: the pass). ``seconds``: wall time;
    ``playouts``: playouts made; ``iterations``: tree iterations;
    ``nodes``: nodes of the exact searches; ``tree_nodes``: nodes of the
    tree; ``confidence``: the intervals' level; ``turn``: the seat to act.
    ``lower``/``upper``: the proven range of the value; ``value_proven``:
    it has one value (``lower == upper``, then ``value``), while some
    moves may still be estimated.
    """

    value: float
    exact: bool
    moves: List[MoveValue]
    best: Optional[Play]
    seconds: float
    playouts: int
    turn: int
    confidence: float
    iterations: int = 0
    nodes: int = 0
    tree_nodes: int = 0
    threads: int = 1
    lower: int = -3
    upper: int = 3
    extra: dict = field(default_factory=dict)

    @property
    def value_proven(self) -> bool:
        """The value is proven: exact, or its proven range one value."""
        return self.exact or self.lower == self.upper

    def to_dict(self) -> dict[str, Any]:
        return {"value": round(self.value, 4), "exact": self.exact,
                "value_proven": self.value_proven, "turn": self.turn,
                "confidence": self.confidence, "lower": self.lower, "upper": self.upper,
                "moves": [_move_dict(m) for m in self.moves],
                "seconds": round(self.seconds, 6), "playouts": self.playouts,
                "iterations": self.iterations, "nodes": self.nodes,
                "tree_nodes": self.tree_nodes, "threads": self.threads}


def _check(max_seconds, max_playouts, threads, seed, confidence):
    if max_seconds is not None:
        check_seconds(max_seconds, error=EstimateError)
    if max_playouts is not None:
        check_count(max_playouts, "max_playouts", MAX_NODES, error=EstimateError)
    if max_seconds is None and max_playouts is None:
        raise EstimateError("give max_seconds or max_playouts (or both): "
                            "the estimate needs a budget")
    check_threads(threads, error=EstimateError)
    check_seed(seed, error=EstimateError)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating)) \
            or not 0 < confidence < 1:
        raise EstimateError(f"confidence must be in (0, 1), not {confidence!r}")


def _cards(position: Position) -> int:
    return sum(len(h) for h in position.hands)


def _tt_bits(n: int, max_seconds: Optional[float] = None) -> int:
    """The transposition table's size: as solve() sizes it for the budget
    (default_tt_bits), and 2**18 above 40 cards, where only small nodes are
    proven."""
    return 18 if n > 40 else default_tt_bits(n, max_seconds)


# The exact attempt before the tree: the share of the budget given to
# solve() (by cards in play), and, with a playout budget only, its node
# budget per playout (so that the result does not depend on timing).
_EXACT_SHARE = ((24, 0.5), (40, 0.15))

# The share of a time budget kept, after the tree, for proofs of two root
# moves (the tree's first and the hint order's first play, else the tree's
# second), on positions of at most 40 cards
# (docs/estimator.md). Measured at 0.5 s
# (docs/performance.md, "Estimator"): first move exact-best with 0 / 0.25 /
# 0.5 / 0.75 of the budget: free8 80% / 87% / 93% / -, standing7 67% / - /
# 90% / 87%, free7 88% / - / 90% / 93%; on the 394 4x8 tuning positions
# 0.25 / 0.5 / 0.75: 719 / 723 / 721-743 of 788 a run, within the run-to-run
# noise (performance.md, "The budget at which the 4x8 target is met").
VERIFY = 0.5
VERIFY_TOP = 2

# The tree's parameters (EstimatorCore): measured on seeded 4x7 endgames,
# the exploration constant (in levels) on 4x8 with the root floor below
# (docs/performance.md, "Estimator").
TREE: dict[str, Any] = dict(base_budget=1000, explore=2.0, solve_cards=16, widen=1.0, mix=1.0)

# On positions of at most ROOT_FLOOR_CARDS cards, a root move with fewer
# than ROOT_FLOOR * sqrt(root visits) samples is tried before UCB1
# chooses: UCB1 on the implicit minimax value starves a move whose first
# few results were bad, and the root's choice needs every move's value.
# Measured at 4x8 (docs/estimator_tuning.md, "A floor on the root moves'
# samples"); not above 40 cards, where a full deal's hundred root moves
# would take every sample and its choice got no better.
ROOT_FLOOR = 1.0
ROOT_FLOOR_CARDS = 40

# The ranking's prior (docs/estimator.md, "Ranking"): the hint order's
# first play (hints()) stays first unless the tree's first move has a mean
# at least HINT_MARGIN levels better for the mover, or the proven bounds
# show that move no worse and possibly better (and the hint play goes first
# whatever the means when its bounds show it so). Chosen on the calibration
# sets (0.5: the middle of the margins 0.25-1 that did best there) and
# checked on the benchmark's (docs/performance.md, "Estimator").
HINT_MARGIN = 0.5

# Building the result after the tree (the root statistics, a MoveValue a
# move, the ranking) takes about this long per root move; the tree stops
# that much before the deadline (docs/performance.md, "suggest's budget").
RESULT_SECONDS_PER_MOVE = 4e-6
# With threads, the tree also stops this much earlier: the joins of the
# threads (measured overshoot at 0.05 s with 2-4 threads: up to 6-19 ms on a
# loaded machine, mostly scheduling; the margin takes the usual part).
THREAD_JOIN_SECONDS = 1e-3


def _as_position(position: object) -> Position:
    """A Position, or a state of a higher layer that makes one with its
    ``to_position()`` (game/state.py's GameState: the engine does not import
    the game layer)."""
    if isinstance(position, Position):
        return position
    to_position = getattr(position, "to_position", None)
    if callable(to_position):
        made = to_position()
        if isinstance(made, Position):
            return made
    raise PositionError(f"estimate() takes a Position or a GameState, not "
                        f"{type(position).__name__}")


def estimate(position: Position, *, max_seconds: Optional[float] = 1.0,
             max_playouts: Optional[int] = None, threads: int = 1, seed: int = 0,
             confidence: float = 0.9, proven=None) -> Estimate:
    """Estimate a position: its value and every legal move's, with intervals.

    The budget: ``max_seconds`` of wall time (default 1 s; None for none)
    and/or ``max_playouts`` tree iterations (each a playout or a proof;
    with it alone, and one thread, the result depends only on ``seed``).
    First the exact solver gets a share of the budget on positions with at
    most 40 cards (half the time up to 24 cards, 15% up to 40); if it
    proves every move, that is the answer (``exact``). Else a Monte Carlo
    tree search (docs/estimator.md) spends the rest. With ``threads``: on
    at most 40 cards with a time budget, one tree while the other threads
    prove root moves beside it; else ``threads`` trees over one
    transposition table, each sampling its share of the root moves.
    ``confidence``: the level of the intervals (0.9 by default).
    ``proven``: what is already proven of the root moves, e.g. the
    :class:`~guandan_fast.engine.endgame.EndgameResult` of a ``solve`` of
    this position that stopped at a limit, or one ``(move, lo, hi)`` (or a
    MoveValue with its proven bounds) for every legal move (a Play, None
    for the pass; team 0's values, bounds that hold the exact values): a
    move proven to one value is exact in the answer and never searched
    again, the exact attempt and the tree spend the budget on the others
    within their bounds (and the root's, when it is proven to one value, is
    not searched again either). EstimateError when it is not one of these,
    or not this position's moves, or its bounds are not bounds.
    """
    position = _as_position(position)
    _check(max_seconds, max_playouts, threads, seed, confidence)
    seed, threads = int(seed), int(threads)
    max_seconds = None if max_seconds is None else float(max_seconds)
    t0 = time.perf_counter()
    deadline = None if max_seconds is None else t0 + float(max_seconds)
    n = _cards(position)
    tt_bits = _tt_bits(n, max_seconds)
    first = _search(position, tt_bits)
    bounds = known = None
    root = (-3, 3)
    if proven is not None:
        known, root = _proven_bounds(proven, position, first.moves())
        bounds = known
        if all(lo == hi for lo, hi in known):
            return _from_bounds(position, first, known, t0, confidence)
    share = next((s for limit, s in _EXACT_SHARE if n <= limit), 0.0)
    if share:
        ms = None if max_seconds is None else share * float(max_seconds)
        mn = None if max_playouts is None else max(1000, NODES_PER_PLAYOUT * int(max_playouts))
        if max_playouts is not None:
            ms = None       # node-bounded only: the answer must not depend on timing
        bounds, root = _exact_phase(first, mn, ms, known, root)
        if len(bounds) == len(first.moves()) and all(lo == hi for lo, hi in bounds):
            return _from_bounds(position, first, bounds, t0, confidence)
    est = _tree(position, first, bounds, t0, deadline, max_playouts, threads, seed,
                confidence)
    return est if proven is None else _within_root(est, root)


def _bound(value, what: str) -> int:
    """A proven bound: an integer -3..3 (an integral float too), else
    EstimateError naming ``what``."""
    if isinstance(value, (bool, np.bool_)) or \
            not isinstance(value, (int, float, np.integer, np.floating)) or \
            not (value == value and float(value).is_integer() and -3 <= value <= 3):
        raise EstimateError(f"{what} must be an integer -3..3, not {value!r}"[:120])
    return int(value)


def _proven_bounds(proven, position: Position, moves: list):
    """``estimate``'s ``proven`` checked: (the (lo, hi) of every root move in
    `moves`' order, the proven (lower, upper) of the position's value)."""
    root = (-3, 3)
    if isinstance(proven, EndgameResult):
        if proven.turn != position.turn:
            raise EstimateError(f"proven: a result for seat {proven.turn} to act, "
                                f"the position has seat {position.turn}")
        root = (_bound(proven.lower, "proven: the result's lower"),
                _bound(proven.upper, "proven: the result's upper"))
        try:
            items: list = [(m.move, m.proven_low, m.proven_high) for m in proven.moves]
        except (TypeError, AttributeError):
            raise EstimateError("proven: an EndgameResult whose moves are not MoveValues") \
                from None
    elif isinstance(proven, (str, bytes, dict)) or not hasattr(proven, "__len__") \
            or not hasattr(proven, "__iter__"):
        raise EstimateError("proven must be an EndgameResult or a sequence of (move, lo, hi), "
                            f"not {type(proven).__name__}")
    else:
        items = []
        for item in proven:
            if isinstance(item, MoveValue):
                if item.team != 0:
                    item = item.pov(0)
                items.append((item.move, item.proven_low, item.proven_high))
            elif isinstance(item, tuple) and len(item) == 3:
                items.append(item)
            else:
                raise EstimateError("proven: each item must be a (move, lo, hi) or a "
                                    f"MoveValue, not {item!r}"[:120])
    if len(items) != len(moves):
        raise EstimateError(f"proven has {len(items)} moves, the position has "
                            f"{len(moves)} legal moves")
    index = {m: i for i, m in enumerate(moves)}
    bounds: List[Optional[tuple]] = [None] * len(moves)
    for move, lo, hi in items:
        name = "the pass" if move is None else str(move)
        if move is not None and not isinstance(move, Play):
            raise EstimateError(f"proven: a move must be a Play or None (the pass), "
                                f"not {move!r}"[:120])
        i = index.get(move)
        if i is None:
            raise EstimateError(f"proven: {name} is not a legal move of seat {position.turn}")
        if bounds[i] is not None:
            raise EstimateError(f"proven: {name} appears twice")
        lo, hi = _bound(lo, f"proven: {name}'s lo"), _bound(hi, f"proven: {name}'s hi")
        if lo > hi:
            raise EstimateError(f"proven: {name}'s bounds are empty: lo {lo} > hi {hi}")
        if lo == hi == 0:
            raise EstimateError(f"proven: {name}'s value is 0: a value is -3..-1 or 1..3")
        bounds[i] = (lo, hi)
    # the value is the best move's for the mover, each move no better than it
    maxi = position.turn % 2 == 0
    pick = max if maxi else min
    done = [b for b in bounds if b is not None]
    root = (max(root[0], pick(lo for lo, _ in done)), min(root[1], pick(hi for _, hi in done)))
    if root[0] > root[1] or root[0] == root[1] == 0:
        raise EstimateError(f"proven: the bounds disagree: the value would be "
                            f"{root[0]}..{root[1]}")
    cut = [(lo, min(hi, root[1])) if maxi else (max(lo, root[0]), hi) for lo, hi in done]
    if any(lo > hi for lo, hi in cut):
        raise EstimateError(f"proven: the bounds disagree: a move is proven better for the "
                            f"mover than the value's bounds {root[0]}..{root[1]}")
    return cut, root


def _within_root(est: Estimate, root) -> Estimate:
    """The Estimate with its value's proven range cut to `root` (what was
    proven of the position's value beside its moves'): a single value is
    then the value, as when the moves prove it."""
    lower, upper = max(est.lower, root[0]), min(est.upper, root[1])
    if lower > upper:            # only bounds that do not hold can get here
        raise EstimateError("proven: the bounds given do not hold: what the search proves of "
                            "the position contradicts them")
    est.lower, est.upper = lower, upper
    if not est.exact and lower == upper:
        est.value = float(lower)
    return est


def _exact_phase(search, max_nodes, max_seconds, known=None, root=(-3, 3)):
    """The exact search's proof of the root and then of each root move in
    its order, within the limits, as solve() proves them: (the (lo, hi)
    proven of each move so far (the moves not reached are left out), the
    root's (lo, hi)). With `known` (a (lo, hi) for every move, proven
    before) and `root` (the root's, proven before): a move proven to one
    value is not searched again, the others within their known bounds, and
    the root is not searched when `root` is one value; every move is then
    in the answer."""
    search.set_limits(max_nodes, max_seconds)
    maxi = search.maximizing
    if root[0] == root[1]:
        root_lo, root_hi = root
    else:
        root_lo, root_hi = search.solve_root()
        root_lo, root_hi = max(root_lo, root[0]), min(root_hi, root[1])
    bounds = []
    n_moves = len(search.moves())
    for i in range(n_moves):
        if search.aborted:
            break
        lo, hi = (-3, 3) if known is None else known[i]
        if lo == hi:
            bounds.append((lo, hi))
            continue
        first = _first_test(maxi, root_lo if root_lo == root_hi else None)
        if maxi:
            b = search.solve_move(i, lo, min(hi, root_hi), first)
        else:
            b = search.solve_move(i, max(lo, root_lo), hi, first)
        bounds.append((max(lo, b[0]), min(hi, b[1])))
    if search.aborted == 3:
        raise KeyboardInterrupt("estimate interrupted")
    search.set_limits(None, None)
    if known is not None:
        bounds += known[len(bounds):]
    return bounds, (root_lo, root_hi)


def _from_bounds(position, search, bounds, t0, confidence) -> Estimate:
    """The Estimate of a proof: every move exact."""
    maxi = search.maximizing
    sign = 1 if maxi else -1
    moves = [MoveValue(p, float(lo), float(lo), float(lo), lo, lo, samples=None, exact=True,
                       score=float(lo))            # samples None: a solver's proof
             for p, (lo, _) in zip(search.moves(), bounds)]
    order = sorted(range(len(moves)), key=lambda k: (-sign * moves[k].mean, k))
    moves = [moves[k] for k in order]
    value = moves[0].mean
    return Estimate(value=value, exact=True, moves=moves, best=moves[0].move,
                    seconds=time.perf_counter() - t0, playouts=0, turn=position.turn,
                    confidence=confidence, iterations=0, nodes=search.nodes, tree_nodes=0,
                    lower=int(value), upper=int(value))


def _tree(position, first, bounds, t0, deadline, max_playouts, threads, seed,
          confidence) -> Estimate:
    """The tree search part of estimate, over the search `first` (and, with
    threads, more searches sharing its table); `bounds`: what an exact
    search already proved of the root moves (or None).

    With one thread: the tree, then (time budget, at most 40 cards) the
    root proofs (_verify), then the tree again. With threads and the root
    proofs: one tree and, beside it, threads - 1 provers (_tree_and_proofs).
    Else (a playout budget, or more than 40 cards) `threads` trees split
    the root moves between them (tree k samples the moves j with
    j % threads == k; without the split, the trees, which draw no random
    numbers, would all be the same tree)."""
    cards = _cards(position)
    moves = first.moves()
    # the ranking's prior (its root index), found before the tree so that
    # its time is the budget's
    hint = _hint_index(position, moves)
    # the result is built after the tree: it stops that much before the
    # deadline (and, with threads, the time their joins take), so that
    # estimate answers within max_seconds
    end = None if deadline is None else deadline - RESULT_SECONDS_PER_MOVE * len(moves) \
        - (THREAD_JOIN_SECONDS if threads > 1 else 0.0)
    # (not above 40 cards, where a root move's proof does not fit a budget)
    verify = VERIFY if deadline is not None and max_playouts is None \
        and cards <= 40 else 0.0
    floor = ROOT_FLOOR if cards <= ROOT_FLOOR_CARDS else 0.0
    provers = verify and threads > 1
    if not provers:
        # (a tree with no root move of its own would idle)
        threads = min(threads, len(moves))
    trees = 1 if provers else threads
    searches = [first] + [_search(position, 10, share=first) for _ in range(threads - 1)]
    cores = [_core.EstimatorCore(s, (seed * 0x9E3779B1 + k) % 2 ** 64, root_floor=floor,
                                 root_stride=trees, root_offset=k, **TREE)
             for k, s in enumerate(searches[:trees])]
    if bounds:
        for c in cores:
            c.prove_root_moves(bounds)
    if provers:
        _tree_and_proofs(searches[1:], cores[0], bounds, end, hint)
        return _collect(position, searches, cores, moves, t0, confidence, hint)
    per_thread = None
    if max_playouts is not None:
        per_thread = -(-int(max_playouts) // threads)
    tree_end = end
    if verify and end is not None:    # (verify implies a deadline)
        tree_end = end - verify * (end - time.perf_counter())
    _run(cores, tree_end, per_thread)
    if verify and end is not None:
        _verify(first, cores, end, hint)
        # every sampled move proven before the deadline: the tree gets the
        # rest back (it stops at once if every root move is proven)
        if end - time.perf_counter() > 1e-3:
            _run(cores, end, None)
    return _collect(position, searches, cores, moves, t0, confidence, hint)


def _tree_and_proofs(provers, core, bounds, end, hint):
    """Threads with root proofs: the tree `core` runs until `end` on one
    thread while the searches `provers` (sharing its table) prove root
    moves on the others. First half: the hint order's first play (all the
    time it needs), then the root moves in the search's order; second half:
    the tree's first moves by score, the hint play among the first two,
    which share the time as in _verify. What is proven is given to the
    tree at half time and at the end."""
    n = len(core.root_stats())
    known = [(-3, 3)] * n
    for i, b in enumerate(bounds or ()):
        known[i] = b
    mid = time.perf_counter() + (end - time.perf_counter()) / 2
    first = [i for i in ([] if hint is None else [hint]) + list(range(n))
             if known[i][0] != known[i][1]]
    _race(core, provers, known, list(dict.fromkeys(first)), mid, 1)
    core.prove_root_moves(known)
    sign = 1.0 if provers[0].maximizing else -1.0
    stats = core.root_stats()
    # what the tree itself proved meanwhile
    known[:] = [(max(a, lo), min(b, hi)) for (a, b), (_, _, _, lo, hi, _) in zip(known, stats)]
    order = _proof_order(sign, [(i, mm) for i, (k, _, _, _, _, mm) in enumerate(stats)
                                if k > 0], hint)
    _race(core, provers, known, [i for i in order if known[i][0] != known[i][1]], end,
          VERIFY_TOP)
    core.prove_root_moves(known)


def _proof_order(sign, scored, hint):
    """The root moves `scored` ((index, minimax score) pairs) in the order
    their proofs are tried: best score first for the mover (sign), ties by
    index, with the hint play (root move `hint`) moved up to the first
    VERIFY_TOP if it is further down: the two moves the ranking chooses
    between (_hint_first)."""
    order = [i for _, i in sorted((-sign * mm, i) for i, mm in scored)]
    if hint in order[VERIFY_TOP:]:
        order.remove(hint)
        order.insert(VERIFY_TOP - 1, hint)
    return order


def _race(core, provers, known, queue, until, top):
    """The tree runs until `until` on one thread; each prover, on its own,
    takes the next root move of `queue` and proves it (within its bounds in
    `known`, tightened with the result) until the queue is empty or the
    time is up. The first `top` moves of the queue share the time (each
    prover's part of what is left, as _verify shares it); a later one gets
    all that is left. On an exception (an interrupt reaches the main
    thread only) every thread is stopped before it is raised."""
    failed: List[BaseException] = []
    lock = threading.Lock()
    taken = [0]
    share = len(provers)

    def prove(search):
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    i = queue.pop(0)
                    j = taken[0]
                    taken[0] += 1
                    lo, hi = known[i]
                left = until - time.perf_counter()
                if left <= 1e-3:
                    return
                if j < top:
                    left /= max(1, -(-(top - j) // share))
                search.set_limits(None, left)
                b = search.solve_move(i, lo, hi)
                if search.aborted == 3:
                    raise KeyboardInterrupt("estimate interrupted")
                with lock:
                    lo, hi = known[i]
                    known[i] = (max(lo, b[0]), min(hi, b[1]))
        except BaseException as e:       # re-raised by the caller
            failed.append(e)
        finally:
            search.set_limits(None, None)

    def grow():
        try:
            core.run(max(1e-4, until - time.perf_counter()), None)
        except BaseException as e:
            failed.append(e)
    pool = [threading.Thread(target=grow, daemon=True)] + \
        [threading.Thread(target=prove, args=(s,), daemon=True) for s in provers]
    _join(pool, [core] + list(provers))
    if failed:
        raise failed[0]


def _join(pool, workers):
    """Start and join the threads `pool`; if the wait is interrupted, stop
    the `workers` (trees and searches, each with stop()) and wait for them
    before re-raising."""
    try:
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    except BaseException:
        for w in workers:
            w.stop()
        for t in pool:
            if t.ident is not None:       # started
                t.join()
        raise


def _run(cores, until, iterations):
    """Run the trees (one thread each) until the time ``until`` (None: no
    limit) or ``iterations`` each."""
    def remaining():
        # what is left when the tree starts (a thread may start late: with
        # more threads than cores, the deadline stays the same for all)
        return None if until is None else max(1e-4, until - time.perf_counter())
    if len(cores) == 1:
        cores[0].run(remaining(), iterations)
        return
    failed: List[BaseException] = []

    def work(c):
        try:
            c.run(remaining(), iterations)
        except BaseException as e:       # re-raised by the caller
            failed.append(e)
    pool = [threading.Thread(target=work, args=(c,), daemon=True) for c in cores]
    _join(pool, cores)
    if failed:
        raise failed[0]


def _verify(search, cores, deadline, hint=None):
    """The rest of the budget on proofs of two root moves, half each: the
    move the tree ranks first and the hint order's first play (root move
    `hint`; the tree's second when the two are one), the two the ranking
    chooses between (_hint_first); time they leave goes to proofs of the
    next moves in the tree's order, each given all that is left. What is
    proven tightens their bounds in every tree."""
    maxi = search.maximizing
    sign = 1.0 if maxi else -1.0
    pooled = _pooled(cores)
    bounds = [(lo, hi) for _, _, lo, hi, _ in pooled]
    order = _proof_order(sign, [(i, mm) for i, (k, _, lo, hi, mm) in enumerate(pooled)
                                if lo != hi and k > 0], hint)
    top = min(VERIFY_TOP, len(order))
    for j, i in enumerate(order):
        left = deadline - time.perf_counter()
        if left <= 1e-3:
            break
        search.set_limits(None, left / (top - j) if j < top else left)
        lo, hi = bounds[i]
        b = search.solve_move(i, lo, hi)
        if search.aborted == 3:
            raise KeyboardInterrupt("estimate interrupted")
        bounds[i] = (max(lo, b[0]), min(hi, b[1]))
    search.set_limits(None, None)
    for c in cores:
        c.prove_root_moves(bounds)


def _pooled(cores):
    """The root statistics of every tree pooled, per root move (in the
    search's order): (samples, sum, lo, hi, minimax score), samples and sums
    added, proven bounds intersected, the score weighted by samples."""
    stats = [c.root_stats() for c in cores]
    if len(stats) == 1:
        return [(n, tot, lo, hi, mm) for n, tot, _, lo, hi, mm in stats[0]]
    out = []
    for per in zip(*stats):
        n = sum(s[0] for s in per)
        out.append((n, sum(s[1] for s in per), max(s[3] for s in per),
                    min(s[4] for s in per),
                    sum(s[5] * s[0] for s in per) / n if n else 0.0))
    return out


def _hint_index(position, moves):
    """The index in `moves` (the root moves) of the hint order's first play
    for the seat to act; None when it has no play but the pass (or, which
    does not happen, when no root move has its pattern)."""
    hs = hints(position.hands[position.turn], position.rules, position.table)
    if not hs:
        return None
    want = tuple(hs[0].pattern)
    return next((i for i, p in enumerate(moves)
                 if p is not None and tuple(p.pattern) == want), None)


def _tree_ranking(moves, sign):
    """The MoveValues `moves` best first for the mover (sign), as the
    tree ranks them: by score; sampled before unsampled, then by mean,
    then more samples; ties keep their order in `moves` (a stable sort:
    the search's order when `moves` is in it)."""
    return sorted(moves, key=lambda m: (m.samples == 0 and not m.exact, -sign * m.score,
                                        -sign * m.mean, -m.samples))


def _hint_first(ranked, sign, h, margin=None):
    """The ranking with `h` (the hint order's first play's MoveValue, or
    None) moved first, unless the move ranked first is at least `margin`
    (None: HINT_MARGIN) better by its mean, or proven no worse and possibly
    better (see HINT_MARGIN); a hint move never sampled and unproven is
    left where it is. Proofs come before means both ways: when the proven
    bounds show one of the two no worse than the other in every case and
    better in some, that one is first whatever the means (the bounds
    always hold the exact values, so this choice is never the worse one)."""
    if margin is None:
        margin = HINT_MARGIN
    if h is None or h is ranked[0] or (h.samples == 0 and not h.exact):
        return ranked
    top = ranked[0]
    tlo, thi = sorted((sign * top.proven_low, sign * top.proven_high))
    hlo, hhi = sorted((sign * h.proven_low, sign * h.proven_high))
    hint_first = [h] + [m for m in ranked if m is not h]
    if hhi <= tlo and thi > hlo:
        return ranked
    if thi <= hlo and hhi > tlo:
        return hint_first
    if sign * top.mean >= sign * h.mean + margin:
        return ranked
    return hint_first


def _collect(position, searches, cores, moves, t0, confidence, hint) -> Estimate:
    """The Estimate from the trees `cores` over the exact searches
    `searches` (one a thread, the first the root's)."""
    maxi = searches[0].maximizing
    sign = 1.0 if maxi else -1.0
    out: List[MoveValue] = []
    for play, (n, tot, lo, hi, mm) in zip(moves, _pooled(cores)):
        if lo == hi:
            out.append(MoveValue(play, float(lo), float(lo), float(lo), lo, hi, samples=n,
                                 exact=True, score=float(lo)))
            continue
        if n == 0:
            mid = (lo + hi) / 2
            out.append(MoveValue(play, float(mid), float(lo), float(hi), lo, hi, samples=0,
                                 score=float(mid)))
            continue
        mean = min(max(tot / n, lo), hi)
        score = min(max(mm, lo), hi)
        half = _width(n, confidence)
        out.append(MoveValue(play, mean, max(float(lo), mean - half),
                             min(float(hi), mean + half), lo, hi, samples=n, score=score))
    # best first for the mover (out is in the search's order)
    ranked = _tree_ranking(out, sign)
    exact = all(m.exact for m in ranked)
    if not exact:
        ranked = _hint_first(ranked, sign, None if hint is None else out[hint])
    pick = max if maxi else min
    blo = pick(m.proven_low for m in ranked)
    bhi = pick(m.proven_high for m in ranked)
    value = ranked[0].mean
    if exact:
        value = float(pick(m.mean for m in ranked))
    elif blo == bhi:           # the value proven, some moves not: the proven value
        value = float(blo)
    return Estimate(
        value=float(value), exact=exact, moves=ranked, best=ranked[0].move,
        seconds=time.perf_counter() - t0, playouts=sum(c.playouts for c in cores),
        turn=position.turn, confidence=confidence,
        iterations=sum(c.iterations for c in cores),
        # every exact search's nodes: the exact phase, the root proofs, the
        # provers and the trees' own proofs (each counted by its search)
        nodes=sum(s.nodes for s in searches),
        tree_nodes=sum(c.tree_nodes for c in cores), threads=len(searches),
        lower=blo, upper=bhi)
