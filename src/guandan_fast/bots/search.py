"""SearchBot: the rollout search over the house policy (bot spec ``search``).

A decision values each candidate move by playing deals drawn from the
seat's view (``sample_deals``: exact-uniform among the deals consistent
with it) to the end: the candidate first, then the house policy
(``bots.policy``) in every seat, each seat deciding from its own view
(``rollout_moves``: compiled, without the GIL). A candidate's value is its
mean result over the deals for the mover's team: the value of "this move,
then everyone plays like the house player". Taking the best of these is a
policy improvement over the house policy, and no seat ever sees a hidden
card (no strategy fusion, unlike valuing moves on perfect-information
deals). Every candidate is played on the same deals (paired), so the
difference between two candidates does not carry the luck of the draw.

``evaluate_moves`` is that computation, shared with ``suggest`` and the
review's single-dummy view; ``SearchBot`` plays its first move.
"""

from __future__ import annotations

import time
from typing import Optional, Sequence

import numpy as np

from .._core import Card, Play
from ..engine.endgame import check_count, check_seconds, check_seed, check_threads
from ..engine.moves import hints
from ..engine.value import MoveValue
from ..errors import ViewError
from ..game.state import team
from ..game.view import MAX_SAMPLE_DEALS, View, sample_deals
from ..stats import deals_mean_ci, mean_ci, t_quantile
from .base import Bot, checked_candidates, checked_view
from .policy import _ADVICE, PolicyBot, _choose_return, rollout_moves

__all__ = ["SearchBot", "evaluate_moves", "evaluate_position", "compare_moves", "fresh_seed",
           "candidates",
           "check_search", "DEFAULT_SAMPLES", "SAMPLE_SECONDS", "FINISH_SECONDS",
           "FINISH_SECONDS_PER_MOVE", "MAX_SAMPLES", "MAX_PLAYOUTS", "MARGIN", "STOP_Z",
           "FIRST_BLOCK", "FIRST_LOOK", "CHOOSE_DEALS"]

DEFAULT_SAMPLES = 8      # the deals of the first round (every candidate on them)
SAMPLE_SECONDS = 0.05    # the least budget worth one perfect-information estimator call on
#                          a full deal (its setup): the exchange valuation's deals
_MIN_CALL = 0.002        # seconds: a budget below this is not worth a call
# What follows the last rollout call (the answer's building: each move's
# interval, the ranking), about FINISH_SECONDS + FINISH_SECONDS_PER_MOVE a
# legal move; the calls stop that much before the deadline
FINISH_SECONDS = 7e-4
FINISH_SECONDS_PER_MOVE = 4e-6
MARGIN = 1.0             # another move replaces the policy's by this many standard errors
_MAX_CHUNK = 16          # candidates added in one call while widening under a clock


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


_POLICY = PolicyBot()
_NONE = object()         # no move to include (None is the pass)


def candidates(view: View) -> list:
    """Every legal move of the seat to act in the policy's own order: the
    policy's move, then the pass when following, then the hint order
    (``hints``: fewest plays left, wilds kept, low ranks)."""
    checked_view(view)
    return _candidates(view, hints(view.hand_counts, view.rules, view.table))


def _legal_of(legal: list, move) -> Optional[Play]:
    """The legal move that is ``move`` (equal, or the same pattern: a record
    may write a play's cards in another order), None when none is."""
    if move is None:
        return None
    for p in legal:
        if p is not None and (p == move or p.pattern == getattr(move, "pattern", None)):
            return p
    return None


def _candidates(view: View, order: list, include=_NONE) -> list:
    """The candidates in the policy's order (``candidates``); ``include``,
    one of the legal moves (None: the pass; ``_legal_of`` finds it), comes
    right after the policy's move and the pass, so that it is among the
    first valued."""
    legal = view.legal_actions()
    allowed = set(legal)
    first = _POLICY.choose(view)
    out = [first]
    if view.table is not None and first is not None:
        out.append(None)
    if include is not _NONE and include not in out:
        out.append(include)
    seen = set(out)
    for p in order:
        if p not in seen and p in allowed:
            out.append(p)
            seen.add(p)
    out += [m for m in legal if m not in seen]      # the hint order lists every play
    return out


def _pick(values: np.ndarray, z: float = MARGIN) -> int:
    """The candidate (row) to play: the best mean when it beats the
    policy's move (row 0) by more than ``z`` standard errors of the paired
    difference (the rows are results on the same deals), else the policy's
    move. The rollouts are noisy and the policy's move is the prior:
    without the margin the maximum over many candidates picks noise. One
    deal tells nothing apart."""
    if values.shape[0] < 2 or values.shape[1] < 2:
        return 0
    diff = values - values[0]
    mean = diff.mean(axis=1)
    se = diff.std(axis=1, ddof=1) / np.sqrt(values.shape[1])
    best = int(np.argmax(mean - z * se))
    return best if mean[best] - z * se[best] > 0 else 0


def _plan(m: int, samples: int, playouts: int, perfect: bool,
          need: int = 1) -> tuple[int, int]:
    """(deals, width) under a playout budget of ``playouts`` rollouts: the
    first ``samples`` deals (fewer when the budget has not two candidates'
    worth, or ``need``; one deal on a perfect-information view), as many
    candidates as the budget holds on them (``width``, the policy's order,
    at least ``need`` of them, even past the budget: the move a review
    judges is among them), and when every candidate fits, the rest of the
    budget as more deals (at most ``MAX_SAMPLE_DEALS``)."""
    need = max(1, min(m, need))
    if perfect:
        return 1, min(m, max(need, playouts))
    n = max(1, min(samples, playouts // max(2, need)))
    width = min(m, max(need, playouts // n))
    return (min(MAX_SAMPLE_DEALS, max(n, playouts // m)) if width == m else n), width


def evaluate_moves(view: View, *, max_seconds: float, samples: int = DEFAULT_SAMPLES,
                   seed: int = 0, max_playouts: Optional[int] = None,
                   threads: int = 1, include=_NONE) -> list[MoveValue]:
    """Every legal move of ``view`` (the pass included when following),
    each a :class:`~guandan_fast.engine.value.MoveValue` for the mover's
    team (``team``), the search's choice first.

    Each candidate (``candidates``: the policy's order) is valued by policy
    rollouts on deals drawn from the view, every candidate on the same
    deals: its ``mean`` is the mean result over the deals (RULES 8, -3..3),
    ``low``/``high`` the 95% t-interval over them (``stats.deals_mean_ci``;
    one deal of several possible gives the whole range -3..3; a
    perfect-information view is one deal, and its value, the policy's result
    after the move, has no error), ``samples`` the deals.

    The budget. With ``max_playouts`` (deterministic: the clock is never
    read, the answer depends only on the view and the seed): that many
    rollouts in all, a rollout one candidate on one deal; ``samples`` deals
    (fewer when the budget has less than two candidates' worth), as many
    candidates on them as it holds, and when every move fits, the rest as
    more deals. With ``max_seconds`` alone: ``samples`` deals, the policy's
    move and the next candidate (and ``include``) first, then more
    candidates on the same deals while the time measured so far says the
    next call fits before the deadline, then, every move valued, more deals
    for every move (as many as fit, up to ``samples`` a round). The calls stop ``FINISH_SECONDS`` +
    ``FINISH_SECONDS_PER_MOVE`` a legal move before the deadline (the
    answer's building). A forced move answers at once (no value: the whole
    range).

    ``include``: a legal move (None: the pass) that must be valued, e.g. the
    move a review judges: it is the candidate right after the policy's
    move and the pass, and the first call (or the playout plan) values at
    least the candidates up to it, whatever the budget.

    The order: first the search's choice, the policy's move unless another
    beats it by more than ``MARGIN`` standard errors of the paired
    difference (on a perfect-information view, the best mean: the values
    are exact results), then the other valued moves by mean (ties in the
    policy's order), then the moves never valued (no samples: ``valued``
    False, the whole range, mean 0) in the hint order.
    """
    if not isinstance(view, View):
        raise ViewError(f"evaluate_moves needs a View, not {type(view).__name__}")
    max_seconds, samples, seed, max_playouts = check_search(max_seconds, samples, seed,
                                                            max_playouts)
    threads = check_threads(threads)
    start = time.perf_counter()
    mover = team(view.seat)
    legal = view.legal_actions()
    if len(legal) == 1:
        return [MoveValue.bounded(legal[0], -3.0, 3.0, team=mover)]
    order = hints(view.hand_counts, view.rules, view.table)
    if include is not _NONE:
        move = include if include is None else _legal_of(legal, include)
        if move not in legal or (move is None and include is not None):
            raise ViewError(f"include: {include} is not a legal move of seat {view.seat}")
        include = move                  # the legal move itself
    cands = _candidates(view, order, include)
    m = len(cands)
    # the candidates the first call values: two, or up to the included move
    need = 2 if include is _NONE else max(2, cands.index(include) + 1)
    perfect = view.perfect
    blocks: list[np.ndarray] = []       # (width, deals) results, one per round of deals
    width = 0
    if max_playouts is not None:
        n, width = _plan(m, samples, max_playouts, perfect, need if include is not _NONE else 1)
        deals = sample_deals(view, n, seed=seed)
        blocks.append(rollout_moves(view, deals, cands[:width], threads=threads)[1])
    else:
        end = start + max_seconds - FINISH_SECONDS - FINISH_SECONDS_PER_MOVE * m
        # never more deals than the budget has _MIN_CALL calls for: drawing
        # 20,000 deals alone took 0.7 s of a 0.01 s budget
        first = 1 if perfect else min(samples, max(1, int(max_seconds / _MIN_CALL)))
        deals = sample_deals(view, first, seed=seed)
        n = len(deals)
        rows: list[np.ndarray] = []
        spent = 0.0                     # seconds of rollouts so far
        done = 0                        # rollouts so far
        while width < m:
            left = end - time.perf_counter()
            if left < _MIN_CALL and done:
                # (the first call, the policy's move and the next candidate,
                # or up to ``include``, is made whatever the clock says)
                break
            if done:
                chunk = min(m - width, _MAX_CHUNK, int(left / (spent / done) / n))
                if chunk < 1:
                    break
            else:
                chunk = min(m, need)
            t0 = time.perf_counter()
            rows.append(rollout_moves(view, deals, cands[width:width + chunk],
                                      threads=threads)[1])
            spent += time.perf_counter() - t0
            done += chunk * n
            width += chunk
        if rows:
            blocks.append(np.concatenate(rows, axis=0))
        rnd = 1
        while width == m and not perfect:
            left = end - time.perf_counter()
            k = min(samples, int(left / (spent / done) / m)) if left >= _MIN_CALL else 0
            if k < 1:
                break
            more = sample_deals(view, k, seed=(seed * 7919 + rnd) & 0x7FFFFFFF)
            t0 = time.perf_counter()
            blocks.append(rollout_moves(view, more, cands, threads=threads)[1])
            spent += time.perf_counter() - t0
            done += k * m
            rnd += 1
    return _ranked(cands, order, np.concatenate(blocks, axis=1) if blocks else None, mover,
                   perfect)


def _ranked(cands: list, hint_order: list, values: Optional[np.ndarray], mover: int,
            perfect: bool) -> list[MoveValue]:
    """The answer from the results of the first ``len(values)`` candidates
    (rows, on the same deals): the module's order (evaluate_moves)."""
    width = 0 if values is None else values.shape[0]
    valued = []
    for i in range(width):
        assert values is not None
        vals = values[i].astype(float).tolist()
        mean, lo, hi = deals_mean_ci(vals, [0.0] * len(vals), perfect=perfect)
        valued.append(MoveValue(cands[i], mean, lo, hi, samples=len(vals), team=mover))
    out = []
    if valued:
        assert values is not None
        if perfect:
            top = int(np.argmax(values.mean(axis=1)))    # the first of equal means
        else:
            top = _pick(values)
        out.append(valued[top])
        rest = sorted((i for i in range(width) if i != top), key=lambda i: -valued[i].mean)
        out += [valued[i] for i in rest]
    order = {p: i for i, p in enumerate(hint_order)}
    last = len(order)                                     # the pass after every play
    unvalued = sorted(cands[width:], key=lambda p: order.get(p, last))
    out += [MoveValue.bounded(p, -3.0, 3.0, team=mover) for p in unvalued]
    return out


def fresh_seed(seed: int) -> int:
    """The seed of the deals that value the search's choice again
    (``evaluate_position``): not one of the seeds ``evaluate_moves`` draws
    its deals with (``seed`` and ``seed * 7919 + round``).

    >>> fresh_seed(3) != fresh_seed(4)
    True
    """
    return (seed * 104_729 + 0x5EED) & 0x7FFFFFFF


def evaluate_position(view: View, *, max_seconds: float, samples: int = DEFAULT_SAMPLES,
                      seed: int = 0, max_playouts: Optional[int] = None, include=_NONE
                      ) -> tuple[list[MoveValue], Optional[MoveValue]]:
    """The review's single-dummy values of one decision: ``(moves,
    position)``. ``moves`` is ``evaluate_moves`` (the search's choice
    first); ``position``, the value of the position, is the value of that
    choice (``move`` set to it, the mover's team's side) estimated again on
    deals drawn afresh (``fresh_seed(seed)``), the choice alone: the plain
    mean of its rollouts on those deals, with their 95% t-interval.

    Why not the top of ``moves``: each candidate's mean is a noisy mean on
    the same deals, and the largest of several noisy means is biased upward
    (the winner's curse; on seeded greedy deals it made the position worth
    about 0.3 levels more to the side to move than the move before it had
    said). The choice is made on the first deals, its value measured on
    others, so the value does not carry the noise that chose it: an
    unbiased estimate of the value of the move the search plays.
    ``include``: a move ``evaluate_moves`` must value (the move played,
    which the review judges).

    The budget: the fresh deals are one more candidate's worth (as many
    deals as ``_plan`` gives each candidate when there is one more),
    taken out of ``max_playouts`` (at least one rollout stays for the
    moves); under a clock, ``evaluate_moves`` gets ``m / (m + 1)`` of
    ``max_seconds`` (``m`` legal moves) and the choice is valued on as many
    fresh deals as it had. A forced move: no position (None). A
    perfect-information view: the choice's own value (the rollouts are
    then exact results, the best of them is no noisy maximum).
    """
    max_seconds, samples, seed, max_playouts = check_search(max_seconds, samples, seed,
                                                            max_playouts)
    legal = view.legal_actions()
    m = len(legal)
    perfect = view.perfect
    if m <= 1 or perfect:
        moves = evaluate_moves(view, max_seconds=max_seconds, samples=samples, seed=seed,
                               max_playouts=max_playouts, include=include)
        top = moves[0]
        return moves, (top if top.valued and m > 1 else None)
    if max_playouts is not None:
        k, _ = _plan(m + 1, samples, max_playouts, False)
        moves = evaluate_moves(view, max_seconds=max_seconds, samples=samples, seed=seed,
                               max_playouts=max(1, max_playouts - k), include=include)
    else:
        moves = evaluate_moves(view, max_seconds=max_seconds * m / (m + 1), samples=samples,
                               seed=seed, include=include)
        k = moves[0].samples or 0
    choice = moves[0]
    if not choice.valued or k < 1:
        return moves, None
    deals = sample_deals(view, k, seed=fresh_seed(seed))
    vals = rollout_moves(view, deals, [choice.move])[1][0].astype(float).tolist()
    mean, lo, hi = deals_mean_ci(vals, [0.0] * len(vals), perfect=False)
    return moves, MoveValue(choice.move, mean, lo, hi, samples=len(vals), team=team(view.seat))


STOP_Z = 3.290526731491926   # the normal quantile of a two-sided 99.9% interval
FIRST_BLOCK = 16             # compare_moves: the deals of its first block (then doubling)
FIRST_LOOK = 64              # compare_moves: the deals before its first look at the edges
CHOOSE_DEALS = 256           # compare_moves: the deals whose even half chooses the candidate


def _blocks(first: int = FIRST_BLOCK):
    """compare_moves's blocks of deals: ``first``, ``first``, then each as
    many as all before it (the deals so far double with every block)."""
    yield first
    total = first
    while True:
        yield total
        total *= 2


def _decided(diffs: np.ndarray, edges: Sequence[float]) -> bool:
    """True when the 99.9% t-interval of the mean of ``diffs`` (at least 31
    of them) contains none of ``edges``."""
    n = len(diffs)
    half = t_quantile(n - 1, STOP_Z) * float(np.std(diffs, ddof=1)) / np.sqrt(n)
    mean = float(np.mean(diffs))
    return all(not mean - half <= e <= mean + half for e in edges)


def compare_moves(view: View, best: Sequence[Optional[Play]], played: Optional[Play], *,
                  max_seconds: float, seed: int = 0, max_playouts: Optional[int] = None,
                  edges: Sequence[float] = ()) -> dict:
    """How much worse ``played`` is than the best of ``best`` (candidate
    moves, one or more, none of them ``played``), by the same evaluator as
    ``evaluate_moves`` (each move, then the house policy in every seat) and
    paired: every move played on the same deals drawn from the view.

    With one candidate, the loss is the mean of the per-deal differences
    (candidate minus played) over every deal. With several, every move is
    played on the first ``CHOOSE_DEALS`` deals: the even ones choose the
    candidate (the best mean), the odd ones measure its loss; the deals
    after them play the chosen candidate and the move played only, and all
    measure. So the loss never carries the noise that chose the candidate
    (the largest of several noisy means is biased upward), and a long
    comparison costs two rollouts a measured deal instead of twice the
    moves.

    The answer, for the mover's team: ``{"best": the candidate, "loss",
    "low", "high" (its 95% t-interval), "samples": the deals of the
    measure}``. A perfect-information view has one deal, and its
    differences are exact.

    The budget: blocks of deals (``_blocks``: 16, 16, then doubling), each
    drawn with a seed of its own, while the budget holds them:
    ``max_playouts`` rollouts in all (a rollout one move on one deal;
    deterministic, the clock never read), else ``max_seconds`` (the last
    block cut to what the time measured so far says fits; the first block
    always). **The stop**: ``edges`` are the losses whose side decides the
    caller's verdict (the review: its tiers' least losses). After each
    block from ``FIRST_LOOK`` deals on, the comparison stops as soon as the
    99.9% t-interval of the loss contains none of them. Why the stop keeps
    the verdict: a look stops on the wrong side of an edge only when the
    99.9% interval misses the true loss, at most 0.1% a look; the deals
    double between looks, so a budget of a million deals has at most 15
    looks, and the chance that any look stops wrongly is at most 1.5%
    (Bonferroni); a loss near an edge is never decided, and gets the whole
    budget as without ``edges``.
    """
    max_seconds, _, seed, max_playouts = check_search(max_seconds, DEFAULT_SAMPLES, seed,
                                                      max_playouts)
    best = list(best)
    if not best:
        raise ViewError("compare_moves: no candidate")
    if played in best:
        raise ViewError(f"compare_moves: the move played {played} is among the candidates")
    moves = best + [played]
    m = len(moves)
    perfect = view.perfect
    several = len(best) > 1
    if perfect:
        values = rollout_moves(view, sample_deals(view, 1, seed=seed), moves)[1].astype(float)
        j = int(np.argmax(values[:-1, 0])) if several else 0   # exact: no noise to choose on
        diff = float(values[j, 0] - values[-1, 0])
        return {"best": best[j], "loss": diff, "low": diff, "high": diff, "samples": 1}
    end = None if max_playouts is not None else time.perf_counter() + max_seconds
    limit = None if max_playouts is None else max(2 * m, max_playouts)
    first: list[np.ndarray] = []        # every move, the first CHOOSE_DEALS deals (several)
    after: list[np.ndarray] = []        # the chosen candidate and the move played
    k: Optional[int] = None if several else 0
    n = used = 0                        # deals and rollouts so far
    spent = 0.0
    for rnd, planned in enumerate(_blocks()):
        row = moves if k is None else [best[k], played]
        if limit is not None:
            size = min(planned, (limit - used) // len(row))
        elif used:
            assert end is not None
            size = min(planned, int((end - time.perf_counter()) / (spent / used) / len(row)))
        else:
            size = planned
        size = min(size, MAX_SAMPLE_DEALS)
        if size < 1:
            break
        deals = sample_deals(view, size, seed=seed if rnd == 0 else
                             (seed * 7919 + rnd) & 0x7FFFFFFF)
        t0 = time.perf_counter()
        (first if k is None else after).append(rollout_moves(view, deals, row)[1])
        spent += time.perf_counter() - t0
        used += len(deals) * len(row)
        n += len(deals)
        if k is None and n >= CHOOSE_DEALS:
            k = _choice(first)
        if edges and n >= FIRST_LOOK and _decided(
                _diffs(first, after, _choice(first) if k is None else k), edges):
            break
        if size < planned:              # the budget's last block
            break
    if k is None:
        k = _choice(first)
    diffs = _diffs(first, after, k)
    mean, low, high = mean_ci(diffs.tolist())
    return {"best": best[k], "loss": mean, "low": max(-6.0, low), "high": min(6.0, high),
            "samples": len(diffs)}


def _choice(first: list) -> int:
    """compare_moves's candidate: the best mean on the even deals of the
    deals every move was played on."""
    values = np.concatenate(first, axis=1).astype(float)
    return int(np.argmax(values[:-1, 0::2].mean(axis=1)))


def _diffs(first: list, after: list, k: int) -> np.ndarray:
    """compare_moves's measure: candidate ``k`` minus the move played, on
    the odd deals of ``first`` and every deal of ``after``."""
    parts = []
    if first:
        values = np.concatenate(first, axis=1).astype(float)
        parts.append(values[k, 1::2] - values[-1, 1::2])
    parts += [b[0].astype(float) - b[1].astype(float) for b in after]
    return np.concatenate(parts)


class SearchBot(Bot):
    """Plays the first move of ``evaluate_moves``: the policy's move unless
    another beats it by more than ``MARGIN`` standard errors of the paired
    difference of their rollouts.

    ``max_seconds`` a decision, ``samples`` deals a round, ``max_playouts``
    (rollouts a decision, deterministic for a seed; ``max_seconds`` is then
    not read), ``seed``, ``threads`` (the rollouts shared out between that
    many threads: more of them in the same time). A forced move costs no
    time. The tribute by the advice (``suggest_tribute``), as the policy;
    after a single tribute the return as the policy's (``_choose_return``),
    under the bot's clock or playout budget; after a double down the
    advice (the rollouts' return measured no gain in the search there).
    """

    def __init__(self, max_seconds: float = 0.2, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, max_playouts: Optional[int] = None, threads: int = 1):
        self.max_seconds, self.samples, self.seed, self.max_playouts = check_search(
            max_seconds, samples, seed, max_playouts)
        self.threads = check_threads(threads)
        self._deal_seed = self.seed
        self._calls = 0
        extra = "" if samples == DEFAULT_SAMPLES else f",samples={samples}"
        extra += "" if max_playouts is None else f",playouts={max_playouts}"
        extra += "" if self.threads == 1 else f",threads={self.threads}"
        self.spec = f"search:{self.max_seconds:g}{extra}"

    def reset(self, seed: int) -> None:
        seed = check_seed(seed, "reset seed", error=ViewError)
        self._deal_seed = (self.seed * 1_000_003 + seed) & 0x7FFFFFFF
        self._calls = 0

    def choose(self, view: View) -> Optional[Play]:
        self._calls += 1
        legal = checked_view(view).legal_actions()
        if len(legal) == 1:
            return legal[0]
        moves = evaluate_moves(view, max_seconds=self.max_seconds, samples=self.samples,
                               seed=(self._deal_seed * 131 + self._calls) & 0x7FFFFFFF,
                               max_playouts=self.max_playouts, threads=self.threads)
        return moves[0].move

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return _POLICY.tribute(view, candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        candidates = checked_candidates(view, candidates)
        if len(view.tributes) == 2:     # after a double down: the advice (docs/bots.md, rule 5)
            return _ADVICE.give_back(view, candidates)
        self._calls += 1
        return _choose_return(view, candidates, self.max_seconds,
                             (self._deal_seed * 131 + self._calls) & 0x7FFFFFFF,
                             self.max_playouts)

    def __repr__(self):
        return (f"SearchBot(max_seconds={self.max_seconds:g}, samples={self.samples}, "
                f"seed={self.seed}" + ("" if self.max_playouts is None
                                       else f", max_playouts={self.max_playouts}")
                + ("" if self.threads == 1 else f", threads={self.threads}") + ")")
