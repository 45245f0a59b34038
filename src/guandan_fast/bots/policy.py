"""The blind house policy (bot spec ``policy``) and whole-deal rollouts with it.

The policy is compiled (``_policy.pxi``): one decision reads the seat's view
only (its hand, the level, the standing play, its owner and the passes,
each seat's card count, the cards it has not seen, the cards it knows from
the tribute exchange) and runs without the GIL. Its rules, each with its
reason, are in docs/bots.md ("The house policy").

``rollouts(view, deals)`` plays every sampled deal from the view's position
to the end with the policy in every seat; ``rollout_moves(view, deals,
moves)`` first makes each candidate move of the seat to act, on the same
deals (paired). In a rollout each seat again decides from its own view: the
driver builds it from the public record (cards played, counts, table) and
that seat's hand.

>>> from guandan_fast import Rules
>>> from guandan_fast.game.state import GameState
>>> from guandan_fast.game.view import View, sample_deals
>>> from guandan_fast.bots.match import deal_for
>>> hands, level, leader = deal_for(1, 0)
>>> state = GameState.start(hands, Rules(level=level), leader)
>>> view = View.from_state(state)
>>> bot = PolicyBot()
>>> play = bot.choose(view)
>>> play in view.legal_actions()
True
>>> values = rollouts(view, sample_deals(view, 8, seed=2))
>>> len(values), set(values) <= {-3, -2, -1, 1, 2, 3}
(8, True)
"""

from __future__ import annotations

import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Optional, Sequence

import numpy as np

from .. import _core
from .._core import CARDS, Card, Play
from ..engine.decomposition import min_plays_batch
from ..engine.endgame import MAX_THREADS, check_threads
from ..errors import ViewError
from ..game.state import GameState
from ..game.tribute import _return_cands, tribute_leaders
from ..game.view import View, sample_deals
from .base import Bot, GreedyBot, checked_candidates, checked_view

__all__ = ["PolicyBot", "rollouts", "rollout_moves", "playout"]

_LOCAL = threading.local()        # one policy context (its caches) a thread
# One pool for every caller: a ThreadPoolExecutor starts a thread only when
# no idle one is there, so it holds as many as the callers have needed at
# once, never more than its bound; it is never replaced (a caller holding
# a replaced pool could not submit to it).
_POOL: Optional[ThreadPoolExecutor] = None
_POOL_LOCK = threading.Lock()


def _core_ctx():
    ctx = getattr(_LOCAL, "ctx", None)
    if ctx is None:
        ctx = _LOCAL.ctx = _core._PolicyCore()
    return ctx


def _workers() -> ThreadPoolExecutor:
    """The shared pool of helper threads."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix="gf-rollout")
        return _POOL


def _split(run, arr: np.ndarray, threads: int) -> np.ndarray:
    """``run(deals)`` (an (moves, N) int8 array) on ``threads`` threads:
    the deals cut in contiguous parts, one a thread, each with its own
    policy context; the calling thread takes the first part. The rollouts
    release the GIL, and each deal's result depends on the deal alone, so
    the answer is the one-thread answer, column for column."""
    parts = min(threads, arr.shape[0])
    if parts <= 1:
        return run(arr)
    cuts = np.linspace(0, arr.shape[0], parts + 1).astype(int)
    pool = _workers()
    futures = [pool.submit(run, arr[cuts[i]:cuts[i + 1]]) for i in range(1, parts)]
    first = run(arr[cuts[0]:cuts[1]])
    return np.concatenate([first] + [f.result() for f in futures], axis=1)


def _known(view: View) -> np.ndarray:
    known = np.zeros((4, 54), dtype=np.uint8)
    for s, cards in enumerate(view.known):
        for c in cards:
            known[s, c.id] += 1
    return known


def _choose(view: View, known: np.ndarray) -> Optional[Play]:
    r = view.rules
    return _core_ctx().choose(view._hand_counts, view.pool, known, view.seat, r.level_index,
                              r.flags, view.counts, view.table,
                              -1 if view.owner is None else view.owner, view.passes)


RETURN_DEALS = 8         # deals a round of the return's valuation (every card on them)
RETURN_PLAYOUTS = 640    # PolicyBot's rollouts for its return (about 0.2 s)
_ADVICE = GreedyBot()    # the advice (suggest_tribute / suggest_return)


def _return_results(view: View, cards: Sequence[Card], payer: int, deals, leader: int,
                    other: Optional[tuple[int, int]] = None) -> np.ndarray:
    """For each card the returning seat may give back, its results for the
    seat's team on each of ``deals`` (the four hands as the tributes left
    them, ``sample_deals(view, ...)``), a (len(cards), N) array: the card
    moved to ``payer``, and after a double down the other return (``other``:
    its giver, the partner, and its receiver) as ``_modelled_returns`` gives
    it; then ``leader`` leads (RULES §7) and the policy plays every seat to
    the end."""
    base = np.array(deals, dtype=np.uint8)
    if other is not None:
        _modelled_returns(base, other[0], other[1], view.rules)
    sign = _team_sign(view.seat)
    out = np.empty((len(cards), base.shape[0]), dtype=np.int64)
    for j, card in enumerate(cards):
        arr = base.copy()
        arr[:, view.seat, card.id] -= 1
        arr[:, payer, card.id] += 1
        out[j] = sign * _start_rollouts(arr, view.rules, leader)
    return out


def _modelled_returns(arr: np.ndarray, giver: int, receiver: int, rules) -> None:
    """Give, in every deal of ``arr`` (in place), the return of ``giver`` to
    ``receiver`` as modelled for a seat whose hand is sampled: of its legal
    return cards (``return_candidates``) the one that leaves it the fewest
    plays (``min_plays``), the lowest of those; the advice's first
    criterion, at a cost a sampled deal can afford (the advice itself takes
    about 6 ms a hand)."""
    cands = []
    for hand in arr[:, giver]:
        cards = [CARDS[i] for i in np.repeat(np.arange(54), hand)]
        cands.append([c.id for c in _return_cands(cards, rules)])
    rows = np.repeat(arr[:, giver], [len(c) for c in cands], axis=0)
    flat = [i for c in cands for i in c]
    rows[np.arange(len(flat)), flat] -= 1
    plays = min_plays_batch(rows, rules.level, rules)
    k = 0
    for d, ids in enumerate(cands):
        best = ids[int(np.argmin(plays[k:k + len(ids)]))]   # the first minimum: the lowest
        k += len(ids)
        arr[d, giver, best] -= 1
        arr[d, receiver, best] += 1


def _return_values(view: View, candidates: Sequence[Card], max_seconds: Optional[float],
                   seed: int, max_playouts: Optional[int] = None
                   ) -> tuple[list[Card], Optional[np.ndarray]]:
    """The distinct return cards of the seat of ``view`` (phase "return"),
    the advice's card first, and their results (``_return_results``, one
    row a card) on rounds of ``RETURN_DEALS`` fresh deals, played until
    ``max_seconds`` (the next round would pass it; the first is always
    played) or, with ``max_playouts`` (then ``max_seconds`` is not read),
    until that many rollouts. After a double down the partner's return,
    unknown when one gives, is modelled (``_modelled_returns``). No results
    (None) with one card or with no tribute to this seat in the view."""
    t0 = time.perf_counter()
    advised = _ADVICE.give_back(view, candidates)
    mine = [t for t in view.tributes if t[1] == view.seat]
    cards = list(dict.fromkeys([advised, *candidates]))     # distinct, the advice first
    if len(mine) != 1 or len(cards) < 2:
        return cards, None
    payer = mine[0][0]
    other = next(((r, g) for g, r, _c in view.tributes if r != view.seat), None)
    leader = tribute_leaders([(g, r) for g, r, _c in view.tributes],
                             [c.rank for _g, _r, c in view.tributes], view.rules)[0]
    blocks: list[np.ndarray] = []
    while True:
        t1 = time.perf_counter()        # a round: its deals drawn, then played
        deals = sample_deals(view, RETURN_DEALS,
                             seed=(seed * 7919 + len(blocks)) & 0x7FFFFFFF)
        blocks.append(_return_results(view, cards, payer, deals, leader, other))
        if max_playouts is not None:
            if len(blocks) * RETURN_DEALS * len(cards) >= max_playouts:
                break
        else:
            now = time.perf_counter()
            if max_seconds is None or now + (now - t1) > t0 + max_seconds:
                break
    return cards, np.concatenate(blocks, axis=1)


def _choose_return(view: View, candidates: Sequence[Card], max_seconds: Optional[float],
                   seed: int, max_playouts: Optional[int] = None) -> Card:
    """The return card: of ``_return_values``, the best mean, ties to the
    advice's order (judged on the true deal, this choice beat the advice by
    +0.303 [+0.180, +0.426] levels a return after a single tribute;
    docs/bots.md); the advice when there are no results."""
    cards, results = _return_values(view, candidates, max_seconds, seed, max_playouts)
    if results is None:
        return cards[0]
    return cards[int(np.argmax(results.sum(axis=1)))]


class PolicyBot(Bot):
    """The compiled blind policy; the tribute by the advice
    (``suggest_tribute``, as GreedyBot), the return by ``_choose_return``
    on ``RETURN_PLAYOUTS`` rollouts seeded by the hand (deterministic)."""

    spec = "policy"

    def choose(self, view: View) -> Optional[Play]:
        if checked_view(view).phase != "play" or view.turn != view.seat:
            view.legal_actions()    # raises the ViewError
        return _choose(view, _known(view))

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return _ADVICE.tribute(view, candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        # seeded by the hand: the same view, the same card
        cands = checked_candidates(view, candidates)
        return _choose_return(view, cands, None, zlib.crc32(view._hand_counts.tobytes()),
                              RETURN_PLAYOUTS)

    def __repr__(self):
        return "PolicyBot()"


def _deals_array(view: View, deals) -> np.ndarray:
    arr = np.ascontiguousarray(np.asarray(deals, dtype=np.uint8))
    if arr.ndim != 3 or arr.shape[1:] != (4, 54):
        raise ViewError(f"deals: an (N, 4, 54) array of hands, not shape {arr.shape}")
    if arr.shape[0] and not (arr[:, view.seat, :] == view._hand_counts).all():
        raise ViewError("deals: every deal must give the view's seat its own hand")
    counts = arr.sum(axis=2)
    if arr.shape[0] and not (counts == np.array(view.counts)).all():
        raise ViewError("deals: every hand must hold the view's count of cards")
    if (arr.sum(axis=1) > 2).any():
        raise ViewError("deals: a card appears more than twice in a deal")
    return arr


def _played(view: View) -> np.ndarray:
    """The public 54 counts of the cards out of the hands: two decks minus
    what the seat has not seen minus its own hand."""
    return (2 - view.pool.astype(np.int64) - view._hand_counts).astype(np.uint8)


def _team_sign(seat: int) -> int:
    return 1 if seat % 2 == 0 else -1


def rollouts(view: View, deals) -> np.ndarray:
    """Team results (-3..3, from the view's seat's side) of the policy in
    every seat from the view's position to the end, one per deal (each of
    ``sample_deals(view, ...)``, or an (N, 4, 54) array of such deals)."""
    if view.phase != "play":
        raise ViewError(f"rollouts start in the play phase, not {view.phase}")
    arr = _deals_array(view, deals)
    r = view.rules
    out = _core_ctx().rollouts(arr, _played(view), r.level_index, r.flags, view.turn,
                               view.table, -1 if view.owner is None else view.owner,
                               view.passes, tuple(view.finished))
    return out.astype(np.int64) * _team_sign(view.seat)


def rollout_moves(view: View, deals, moves: Optional[Sequence[Optional[Play]]] = None,
                  *, threads: int = 1) -> tuple[list, np.ndarray]:
    """For each candidate move of the seat to act (default: every legal
    action), its results on each deal (paired: the same deals for every
    move): (moves, an (len(moves), N) array from the seat's side). With
    ``threads`` > 1 the deals are shared out between that many threads
    (``_split``); the answer is the same."""
    if view.turn != view.seat:
        raise ViewError(f"seat {view.seat} is not to act (seat {view.turn} is)")
    legal = view.legal_actions()
    threads = check_threads(threads)
    if moves is None:
        moves = legal
    else:
        moves = list(moves)
        for m in moves:
            if m not in legal:
                raise ViewError(f"rollout_moves: {m} is not a legal action of seat {view.seat}")
    arr = _deals_array(view, deals)
    r = view.rules
    played = _played(view)
    owner = -1 if view.owner is None else view.owner
    finished = tuple(view.finished)
    moves = list(moves)

    def run(part: np.ndarray) -> np.ndarray:
        return _core_ctx().rollouts(part, played, r.level_index, r.flags, view.turn,
                                    view.table, owner, view.passes, finished, moves=moves)

    out = _split(run, arr, threads)
    return moves, out.astype(np.int64) * _team_sign(view.seat)


def _start_rollouts(deals: np.ndarray, rules, leader: int) -> np.ndarray:
    """Team 0's results (-3..3) of whole deals played from their first lead
    by the policy in every seat: ``deals`` an (N, 4, 54) uint8 array, every
    one of the 108 cards in a hand (checked by the caller); ``leader``
    leads to an empty table."""
    out = _core_ctx().rollouts(np.ascontiguousarray(deals, dtype=np.uint8),
                               np.zeros(54, dtype=np.uint8), rules.level_index, rules.flags,
                               leader, None, -1, 0, ())
    return out.astype(np.int64)


def playout(state: GameState) -> int:
    """Team 0's result when the policy plays every seat from ``state`` (a
    GameState of a whole deal, every card not in a hand played) to the end."""
    result = state.result()
    if result is not None:          # the deal is over
        return int(result)
    arr = np.ascontiguousarray(np.stack(state.hands).astype(np.uint8)[None])
    played = (2 - arr[0].astype(np.int64).sum(axis=0)).astype(np.uint8)
    r = state.rules
    out = _core_ctx().rollouts(arr, played, r.level_index, r.flags, state.turn, state.table,
                               -1 if state.owner is None else state.owner, state.passes,
                               tuple(state.finished))
    return int(out[0])
