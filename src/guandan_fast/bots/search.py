"""SearchBot: decisions from one seat's view by sampling the hidden hands.

The method (perfect-information Monte Carlo): draw deals consistent with
the view (``sample_deals``: exact-uniform), evaluate every legal move on
each deal with the perfect-information estimator
(``guandan_fast.engine.estimate.estimate``, which runs the exact solver
where it reaches), average each move's value over the deals and play the
best average. ``evaluate_moves`` is that computation, shared with
``suggest``.
"""

from __future__ import annotations

import time
from typing import Optional, Sequence

from .._core import Card, Play
from ..engine.endgame import Position, check_count, check_seconds, check_seed
from ..engine.moves import hints
from ..engine.value import MoveValue
from ..model.counts import from_counts
from ..game.state import team
from ..game.view import View, sample_deals
from .advice import suggest_return, suggest_tribute
from .base import Bot, GreedyBot, _advised
from ..stats import deals_mean_ci

__all__ = ["SearchBot", "evaluate_moves", "check_search", "DEFAULT_SAMPLES",
           "SAMPLE_SECONDS", "FINISH_SECONDS", "FINISH_SECONDS_PER_MOVE", "MAX_SAMPLES",
           "MAX_PLAYOUTS"]

DEFAULT_SAMPLES = 8
SAMPLE_SECONDS = 0.05    # the least budget worth one deal (the estimator's setup)
SETUP_CARDS = 28         # above this many cards in play (docs/performance.md, 'Bots and matches')
_MIN_CALL = 0.002        # seconds: a budget below this is not worth a call
# What follows the last estimator call: its teardown (the solver's buffers
# freed, up to ~1 ms after an exact phase) and the answer's building (the
# last deal's values added, each move's interval, the ranking), about
# FINISH_SECONDS + FINISH_SECONDS_PER_MOVE a legal move; the calls stop that
# much before the deadline (docs/performance.md, "suggest's budget")
FINISH_SECONDS = 7e-4
FINISH_SECONDS_PER_MOVE = 4e-6


MAX_SAMPLES = 100_000
MAX_PLAYOUTS = 10 ** 9


def check_search(max_seconds, samples, seed, max_playouts):
    """The arguments of a search decision checked (LimitError naming the
    argument): seconds as estimate takes them, ``samples`` 1..MAX_SAMPLES,
    ``seed`` 0..2**63-1, ``max_playouts`` None or 1..MAX_PLAYOUTS."""
    max_seconds = check_seconds(max_seconds)
    samples = check_count(samples, "samples", MAX_SAMPLES)
    seed = check_seed(seed, bits=63)
    if max_playouts is not None:
        max_playouts = check_count(max_playouts, "max_playouts", MAX_PLAYOUTS)
    return max_seconds, samples, seed, max_playouts


def _position(view: View, deal) -> Position:
    """The perfect-information Position of the view's decision on a deal."""
    return Position([from_counts(h) for h in deal], view.rules, turn=view.turn,
                    table=view.table, owner=view.owner, passes=view.passes,
                    finished=view.finished)


def _estimate():
    from ..engine.estimate import estimate
    return estimate


def evaluate_moves(view: View, *, max_seconds: float, samples: int = DEFAULT_SAMPLES,
                   seed: int = 0, max_playouts: Optional[int] = None) -> list[MoveValue]:
    """Every legal move of ``view`` (the pass included when following),
    best first for the mover, valued over ``samples`` deals drawn from the
    view within ``max_seconds`` in all (more when time is left, see below),
    each a :class:`~guandan_fast.engine.value.MoveValue` for the mover's
    team (``team``): the mean over the deals that valued the move
    (``samples`` of them) and a 95% interval. On each deal the value is
    the estimator's ranking score of the move (its implicit minimax value;
    the exact value when proven); the interval combines the spread between
    deals (Student's t) with each deal's own 95% half-width divided by the
    square root of the deals; from a single deal of several possible it is
    the whole range -3..3 (the spread is unknown). Moves never valued (no
    time) follow in the hint order with no samples (``valued`` False: the
    whole range, mean 0); ties keep the hint order. A perfect-information view is one deal, given
    the whole budget. With more than ``SETUP_CARDS`` cards in play each
    deal needs at least ``SAMPLE_SECONDS`` (the estimator's setup): fewer
    deals are planned, and a smaller budget values nothing (the hint
    order).

    The budget: each deal gets an even share of what is left (the last the
    true remaining time), less what follows the last call (its teardown and
    the answer's building: ``FINISH_SECONDS`` and ``FINISH_SECONDS_PER_MOVE``
    a legal move). When the planned deals are done early (some proven),
    more are drawn one at a time, each given all that is left: up to
    ``samples``, and beyond while some deal is not proven. So the answer
    comes before the deadline only when it is complete: every one of at
    least ``samples`` deals proven (or a forced move, or a proven
    perfect-information view).
    With ``max_playouts`` each of the planned deals gets exactly that many
    playouts, whatever the clock says (``max_seconds`` then only plans the
    deals, as above), and none is added: the result does not depend on the
    machine's speed or load, and the time taken is not bounded by
    ``max_seconds``.
    """
    max_seconds, samples, seed, max_playouts = check_search(max_seconds, samples, seed,
                                                            max_playouts)
    start = time.perf_counter()
    deadline = start + max_seconds
    actions = view.legal_actions()
    order = hints(view.hand_counts, view.rules, view.table)
    rank: dict[Optional[Play], int] = {p: i for i, p in enumerate(order)}
    last = len(order)         # the pass after every play
    actions.sort(key=lambda p: rank.get(p, last))
    sign = 1.0 if team(view.seat) == 0 else -1.0
    mover = team(view.seat)
    if len(actions) == 1:
        return [MoveValue.bounded(actions[0], -3.0, 3.0, team=mover)]
    estimate = _estimate()
    # each estimate() of a large position costs a fixed setup (its tables):
    # at most one deal per SAMPLE_SECONDS of the budget, none below it
    large = sum(view.counts) > SETUP_CARDS
    if large and max_seconds < SAMPLE_SECONDS:
        return [MoveValue.bounded(p, -3.0, 3.0, team=mover) for p in actions]
    cap = 1 if view.perfect else samples
    n = min(cap, int(max_seconds / SAMPLE_SECONDS)) if large else cap
    if max_playouts is None:
        # no more deals than calls the budget can hold (each needs _MIN_CALL):
        # the deals are drawn before the first call
        n = max(1, min(n, int(max_seconds / _MIN_CALL)))
    m = len(actions)
    end = deadline - FINISH_SECONDS - FINISH_SECONDS_PER_MOVE * m
    index = {p: i for i, p in enumerate(actions)}
    values: list[list[float]] = [[] for _ in range(m)]
    halves: list[list[float]] = [[] for _ in range(m)]
    means = [0.0] * m         # tie-breaks, as estimate ranks
    tried = [0] * m
    deals = sample_deals(view, n, seed=seed)
    k = proven = 0
    while True:
        if k == len(deals):
            # the planned deals are done before the deadline (some proven
            # early): one more deal at a time, given all that is left, up to
            # ``samples`` and beyond while a deal is not proven (when every
            # deal is, the answer is complete)
            if view.perfect or max_playouts is not None or (k >= cap and proven == k) \
                    or end - time.perf_counter() < _MIN_CALL:
                break
            deals += sample_deals(view, 1, seed=(seed * 7919 + k) & 0x7FFFFFFF)
        if max_playouts is None:
            budget = (end - time.perf_counter()) / (len(deals) - k)
            if budget < _MIN_CALL:
                break
        else:
            budget = None         # the playouts alone bound each deal: no clock
        est = estimate(_position(view, deals[k]), max_seconds=budget,
                       max_playouts=max_playouts, threads=1,
                       seed=(seed * 1009 + k) & 0x7FFFFFFF, confidence=0.95)
        k += 1
        proven += est.exact
        for e in est.moves:
            # a move the tree never tried says nothing on this deal
            if e.samples > 0 or e.exact:
                i = index.get(e.move)
                if i is not None:
                    values[i].append(sign * e.score)
                    halves[i].append((e.high - e.low) / 2)
                    means[i] += sign * e.mean
                    tried[i] += e.samples
    out = []
    keys = []
    for i, p in enumerate(actions):
        vals = values[i]
        if not vals:
            out.append(MoveValue.bounded(p, -3.0, 3.0, team=mover))
            keys.append((True, 0.0, 0.0, 0, i))
            continue
        # the spread between deals and each deal's own error (the estimator's
        # 95% half-width), combined (stats.deals_mean_ci)
        mean, lo, hi = deals_mean_ci(vals, halves[i], perfect=view.perfect)
        out.append(MoveValue(p, mean, lo, hi, samples=len(vals), team=mover))
        keys.append((False, -mean, -means[i], -tried[i], i))
    # best first: by value, then (as estimate ranks) by the results' mean
    # and the playouts behind the move, then the hint order (the actions'
    # order)
    return [out[i] for i in sorted(range(m), key=keys.__getitem__)]


_GREEDY = GreedyBot()


def _pick(moves: Sequence[MoveValue], base: Optional[Play]) -> Optional[Play]:
    """The best-valued move when its interval lies above the value of
    ``base`` (the hint order's choice), else ``base``."""
    best = moves[0]
    if not best.valued or best.move == base:
        return base
    mine = next((m for m in moves if m.move == base), None)
    if mine is None or not mine.valued:
        return base
    return best.move if best.low > mine.mean else base


class SearchBot(Bot):
    """Plays from sampled deals, over the hint order's choice.

    Each decision: ``samples`` deals drawn uniformly among those consistent
    with the view (at most one per ``SAMPLE_SECONDS`` of the budget planned:
    each estimator call on a full deal has a fixed setup cost; more when
    deals are proven early), the perfect-information estimator run on each
    within an even share of what is left of ``max_seconds``, each move's
    value averaged over the deals with a 95% interval (``evaluate_moves``).
    The bot plays the best-valued move only when its interval lies wholly
    above the value of GreedyBot's choice on the same deals; otherwise it
    plays GreedyBot's choice. A forced move costs no time.

    Strategy fusion. Valuing a move on a deal where every hidden card is
    known assumes that after the move the player will know the hidden cards
    and choose differently in each deal: a move that leaves a later guess
    open is overvalued, and with few playouts per move the largest of many
    noisy values is mostly luck. The remedy kept: several deals rather than
    one, and the switch away from the information-free hint-order play only
    on a clear margin. Against taking the best average outright it was
    measured in a duplicate match (docs/bots.md, "Measured").

    Tribute and return: the advice of ``suggest_tribute`` /
    ``suggest_return`` (as GreedyBot); the estimator does not value them.
    """

    def __init__(self, max_seconds: float = 0.2, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, max_playouts: Optional[int] = None):
        self.max_seconds, self.samples, self.seed, self.max_playouts = check_search(
            max_seconds, samples, seed, max_playouts)
        self._deal_seed = self.seed
        self._calls = 0
        extra = "" if samples == DEFAULT_SAMPLES else f",samples={samples}"
        extra += "" if max_playouts is None else f",playouts={max_playouts}"
        self.spec = f"search:{self.max_seconds:g}{extra}"

    def reset(self, seed: int) -> None:
        self._deal_seed = (self.seed * 1_000_003 + seed) & 0x7FFFFFFF
        self._calls = 0

    def choose(self, view: View) -> Optional[Play]:
        self._calls += 1
        base = _GREEDY.choose(view)
        if len(view.legal_actions()) == 1:
            return base
        moves = evaluate_moves(view, max_seconds=self.max_seconds, samples=self.samples,
                               seed=(self._deal_seed * 131 + self._calls) & 0x7FFFFFFF,
                               max_playouts=self.max_playouts)
        return _pick(moves, base)

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return _advised(suggest_tribute(view.hand_counts, view.rules), candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return _advised(suggest_return(view.hand_counts, view.rules), candidates)

    def __repr__(self):
        return (f"SearchBot(max_seconds={self.max_seconds:g}, samples={self.samples}, "
                f"seed={self.seed}" + ("" if self.max_playouts is None
                                       else f", max_playouts={self.max_playouts}") + ")")
