"""The whole-deal review: every decision of a deal record valued, two ways.

``analyse(record)`` walks the deal (``record.replay``), the tribute and the
return included, and values every decision:

- **double-dummy** (``"double"`` in ``views``), all four hands seen: the value
  of every legal move. Exact (``engine.endgame.solve``) where the solver
  proves it within the budget (at most ``solve_cards`` cards left: the old
  "exact tail"); otherwise the estimator's mean and confidence interval
  (``engine.estimate.estimate``). A tribute or return decision is valued by
  the position at the start of the play that each legal card leads to (the
  other exchanges as recorded); the card given leads to the recorded start
  of the play, whose value is the first play decision's (valued once).

A position's value is defined once (``position_value``): the best mean for
the side to move among its moves' values, with that move's own interval,
and the best proven bounds for the mover. A decision's ``value``, a forced
move's, an exchange card's, the opening values and the graph all use it.
- **single-dummy** (``"single"``), what the mover could know: for a play,
  the bot's ``suggest`` on the mover's ``View`` (``game.view.View.from_record``),
  which never sees a hidden card; for a tribute or return, every legal card
  valued from the giver's seat (``analysis.exchange``: the hidden hands drawn
  from what the giver knew, the exchange it cannot see completed by the
  tribute advice, the start position estimated on each deal, averaged with
  a 95% interval). The tribute and the return are also compared with the
  tribute advice (``exchange``): a card that differs from the advice is
  shown as such, and is a mistake only by the rule below, like any move.

A move is a **mistake** only when its loss is shown: ``"proven"`` when the
values of the move played and of the best move are both exact (proven by the
solver), ``"estimated"`` when their confidence intervals do not overlap.
``best_moves`` lists every best move (pass included): the moves of the best
exact value, or, for estimates, every move whose interval lies above the
move played and overlaps the top one.

Values are always team 0's expected level gain (+3 .. -3, RULES 8); a
``loss`` is counted for the mover's team (positive: levels given away).
Every decision gets its own seed (``decision_seed``), so what reaches the
engines does not depend on the number of processes. The seeds fix the random
draws (the hidden hands of the single-dummy view), not the values: the
budget is time (``max_seconds``), so how far the estimator and the solver get,
and with it the values, the intervals and the marks, depends on the machine's
speed and load, and two runs with the same seed can differ. (Injected engines
that do not stop on time give the same review every time.)

The engines are called here and only here; each can be injected
(``solver=``, ``estimator=``, ``suggester=``), and a missing one is a note,
not a crash. The work is spread over processes (``jobs``) or a Dask cluster
(``dask``) by ``analysis.batch``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from ..errors import GuandanError, ReviewError
from ..formats.record import Record, exchanged, replay
from ..game.state import GameState, team

__all__ = ["analyse", "Analysis", "Decision", "Valuation", "MoveValue", "ExchangeReview",
           "decision_seed", "value_task", "DEFAULT_BUDGET", "DEFAULT_SOLVE_CARDS", "VIEWS"]

VIEWS = ("double", "single")
DEFAULT_BUDGET = 1.0          # seconds per decision and per view (see docs/performance.md)
DEFAULT_SOLVE_CARDS = 34      # try the exact solver at most this many cards left
FORCED_FRACTION = 0.25        # a forced move's single-dummy value gets this share
MIN_CANDIDATE_SECONDS = 0.2   # the least time for each card of a tribute or return


def decision_seed(seed: int, index: int) -> int:
    """The seed of decision ``index`` of a review seeded ``seed``.

    >>> decision_seed(0, 5) == decision_seed(0, 5) != decision_seed(1, 5)
    True
    """
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2 ** 31 - 1)


# -- values ------------------------------------------------------------------

@dataclass
class MoveValue:
    """One candidate move and its value (team 0's level gain)."""

    move: Any                        # a Play, None for a pass, a Card for an exchange
    mean: float
    low: float
    high: float
    exact: bool = False
    samples: Optional[int] = None
    bounds: tuple = (-3.0, 3.0)      # what is proven of its value (always holds it)

    def __post_init__(self):
        if self.exact:
            self.bounds = (self.mean, self.mean)

    def for_mover(self, sign: int) -> tuple:
        """(low, mean, high) from the mover's side (sign +1: team 0)."""
        if sign > 0:
            return self.low, self.mean, self.high
        return -self.high, -self.mean, -self.low

    def bounds_for_mover(self, sign: int) -> tuple:
        lo, hi = self.bounds
        return (lo, hi) if sign > 0 else (-hi, -lo)

    def to_dict(self) -> dict:
        return {"move": _move_dict(self.move), "mean": _r(self.mean), "low": _r(self.low),
                "high": _r(self.high), "exact": self.exact, "samples": self.samples,
                "bounds": [_r(self.bounds[0]), _r(self.bounds[1])]}


@dataclass
class Valuation:
    """What one view says about one decision."""

    view: str                        # "double" or "single"
    moves: list                      # MoveValue, best first for the mover
    chosen: Optional[MoveValue]      # the move played (None: not among the moves)
    value: Optional[float] = None    # the position (the best move's mean)
    exact: bool = False              # every value here is proven
    best: list = field(default_factory=list)     # the best moves (MoveValue)
    loss: float = 0.0                # for the mover's team: the estimated mean (loss_of)
    loss_low: float = 0.0            # its interval
    loss_high: float = 0.0
    loss_proven: float = 0.0         # the part of it the proven bounds show
    mistake: Optional[str] = None    # None, "proven" or "estimated"
    method: str = ""                 # "solve", "estimate", "suggest", "forced"
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"view": self.view, "method": self.method, "value": _r(self.value),
                "exact": self.exact, "chosen": self.chosen.to_dict() if self.chosen else None,
                "best": [m.to_dict() for m in self.best], "loss": _r(self.loss),
                "loss_low": _r(self.loss_low), "loss_high": _r(self.loss_high),
                "loss_proven": _r(self.loss_proven),
                "mistake": self.mistake, "moves": [m.to_dict() for m in self.moves],
                "seconds": round(self.seconds, 3)}


def _lost(marked: list) -> dict:
    """The levels given away by the ``(decision, Valuation)`` pairs marked
    as mistakes: ``lost``, the sum of the estimated losses, with an
    interval, the sums of their lows and of their highs (conservative: it
    holds whenever each loss's interval holds), and ``lost_proven``, the sum
    of the proven parts; ``largest``: ``[decision index, loss]``."""
    largest = None
    if marked:
        d, v = max(marked, key=lambda dv: (dv[1].loss, -dv[0].index))
        largest = [d.index, _r(v.loss)]
    return {"lost": _r(sum(v.loss for _, v in marked)),
            "lost_low": _r(sum(v.loss_low for _, v in marked)),
            "lost_high": _r(sum(v.loss_high for _, v in marked)),
            "lost_proven": _r(sum(v.loss_proven for _, v in marked)),
            "largest": largest}


def _r(x):
    return None if x is None else round(float(x), 3)


def _move_dict(m):
    if m is None:
        return None
    if hasattr(m, "type"):
        return {"cards": str(m), "type": m.type, "rank": m.rank}
    return {"cards": str(m), "type": "card", "rank": str(m)[1:]}


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if hasattr(a, "pattern") and hasattr(b, "pattern"):
        return a == b or (a.pattern == b.pattern)
    return a == b


def position_value(moves: list, seat: int) -> Optional[MoveValue]:
    """The value of a position where ``seat`` is to move, from the values of
    its moves (the one definition of a position's value in the review: a
    decision's ``value``, a forced move's, an exchange card's, the opening
    values, the graph): the best mean for the mover (the first of equal
    means), with that move's own interval; what is proven of it: the best
    lower bound and the best upper bound for the mover (a position is worth
    its best move), the interval held within them. A new MoveValue (move
    None); None without moves."""
    if not moves:
        return None
    sign = 1 if team(seat) == 0 else -1
    top = max(moves, key=lambda m: sign * m.mean)       # the first of equal means
    pick = max if sign > 0 else min
    lo, hi = pick(m.bounds[0] for m in moves), pick(m.bounds[1] for m in moves)
    if lo == hi:
        return MoveValue(None, lo, lo, lo, exact=True)
    low, high = max(top.low, lo), min(top.high, hi)
    mean = min(max(top.mean, low), high)
    return MoveValue(None, mean, low, high, exact=False, samples=top.samples, bounds=(lo, hi))


def _mover_interval(m: MoveValue, sign: int) -> tuple:
    """(low, mean, high) of a value from the mover's side; an estimate's
    interval of no width (not a confidence interval) is its proven bounds."""
    lo, mean, hi = m.for_mover(sign)
    if not m.exact and lo == hi:
        lo, hi = m.bounds_for_mover(sign)
    return lo, mean, hi


def loss_of(position: MoveValue, chosen: MoveValue, seat: int) -> tuple:
    """The loss of the move played (``chosen``) against the position it was
    played in (``position_value``), for the mover's team: ``(mean, low,
    high, proven)``. The mean is the difference of the means; the interval
    is the conservative one of a difference (the position's low minus the
    move's high, its high minus the move's low), held within what the
    proven bounds allow and at 0 at least (no move is worth more than the
    position); ``proven`` is what the bounds prove of it, the position's
    lower bound minus the move's upper bound (0 when they do not separate;
    the whole loss when both values are exact)."""
    sign = 1 if team(seat) == 0 else -1
    p_lo, p_mean, p_hi = _mover_interval(position, sign)
    c_lo, c_mean, c_hi = _mover_interval(chosen, sign)
    pb_lo, pb_hi = position.bounds_for_mover(sign)
    cb_lo, cb_hi = chosen.bounds_for_mover(sign)
    proven = max(0.0, pb_lo - cb_hi)
    mean = max(proven, p_mean - c_mean)
    low = min(mean, max(proven, p_lo - c_hi))
    high = max(mean, min(p_hi - c_lo, pb_hi - cb_lo))
    return mean, low, high, proven


def judge(view: str, moves: list, chosen_move, seat: int) -> Valuation:
    """Compare the move played with the best ones (the module docstring's
    rule). ``moves``: MoveValue of every candidate, any order."""
    sign = 1 if team(seat) == 0 else -1
    moves = sorted(moves, key=lambda m: -sign * m.mean)
    chosen = next((m for m in moves if _same(m.move, chosen_move)), None)
    v = Valuation(view=view, moves=moves, chosen=chosen)
    if not moves:
        return v
    top = moves[0]                    # the best mean for the mover: position_value's
    v.value = position_value(moves, seat).mean
    v.exact = all(m.exact for m in moves)
    if chosen is None:
        v.best = [top]
        return v
    t_lo, t_mean, _ = top.for_mover(sign)
    c_lo, c_mean, c_hi = chosen.for_mover(sign)
    v.loss, v.loss_low, v.loss_high, v.loss_proven = loss_of(position_value(moves, seat),
                                                              chosen, seat)
    if chosen.exact and top.exact:
        v.best = [m for m in moves if m.exact and m.mean == top.mean]
        if t_mean > c_mean:
            v.mistake = "proven"
        return v
    # the proven bounds separate: the loss is proven, its size estimated
    c_bhi = chosen.bounds_for_mover(sign)[1]
    proven_better = [m for m in moves if m.bounds_for_mover(sign)[0] > c_bhi]
    if proven_better:
        v.mistake = "proven"
        v.best = proven_better
        return v
    # an estimate with an interval of no width is not a confidence interval
    # (e.g. one sampled deal): it cannot show a loss
    degenerate = any(not m.exact and m.low == m.high for m in (top, chosen))
    if t_lo > c_hi and not degenerate:
        v.mistake = "estimated"
        v.best = [m for m in moves if m.for_mover(sign)[0] > c_hi
                  and m.for_mover(sign)[2] >= t_lo]
    else:
        v.best = [m for m in moves if m.exact and top.exact and m.mean == top.mean] or [top]
    return v


# -- the engines, in one place -------------------------------------------------

def _position(state: GameState):
    from ..engine.endgame import Position
    return Position([state.cards(s) for s in range(4)], state.rules, turn=state.turn,
                    table=state.table, owner=state.owner, passes=state.passes,
                    finished=state.finished)


def _default_solver(state: GameState, max_seconds=None):
    from ..engine.endgame import solve
    return solve(_position(state), max_seconds=max_seconds, pv=False)


def _default_estimator(state: GameState, max_seconds=None, seed=0):
    from ..engine.estimate import estimate
    return estimate(_position(state), max_seconds=max_seconds, seed=seed)


def _default_suggester(record: Record, move_index: int, max_seconds=None, seed=0):
    from ..bots import suggest
    from ..game.view import View
    return suggest(View.from_record(record, move_index), max_seconds=max_seconds, seed=seed)


def _available(name: str) -> bool:
    import importlib
    try:
        if name == "solver":
            importlib.import_module("guandan_fast.engine.endgame")
        elif name == "estimator":
            importlib.import_module("guandan_fast.engine.estimate")
        else:   # the bots' suggest runs the estimator on sampled deals
            importlib.import_module("guandan_fast.engine.estimate")
            importlib.import_module("guandan_fast.game.view")
            from ..bots import suggest  # noqa: F401
    except ImportError:
        return False
    return True


def _exact_moves(res) -> Optional[list]:
    """MoveValue per move of an exact solver result, or None if not exact."""
    if not getattr(res, "exact", False):
        return None
    moves = list(getattr(res, "moves", []) or [])
    if not moves or any(v is None for _, v in moves):
        return None
    return [MoveValue(p, float(v), float(v), float(v), exact=True) for p, v in moves]


def _estimate_moves(est) -> list:
    """MoveValue per move of an ``Estimate`` (a move's value is exact when
    the estimator proved it)."""
    all_exact = bool(getattr(est, "exact", False))
    out = []
    for m in est.moves:
        lo, hi = float(m.low), float(m.high)
        exact = bool(getattr(m, "exact", all_exact)) and lo == hi
        b = getattr(m, "bounds", None)
        out.append(MoveValue(m.play, float(m.mean), lo, hi, exact=exact,
                             samples=getattr(m, "samples", None),
                             bounds=(float(b[0]), float(b[1])) if b is not None else (-3.0, 3.0)))
    return out


def _state_value(state: GameState, engines: dict, budget: float, seed: int):
    """A MoveValue (move None) for a position: exact when solved, else the
    ``position_value`` of the estimator's values of its moves."""
    if state.over:
        v = float(state.result())
        return MoveValue(None, v, v, v, exact=True)
    if engines.get("solver") and state.cards_left() <= engines["solve_cards"]:
        res = engines["solver"](state, max_seconds=budget)
        if getattr(res, "exact", False) and res.value is not None:
            v = float(res.value)
            return MoveValue(None, v, v, v, exact=True)
    if engines.get("estimator"):
        est = engines["estimator"](state, max_seconds=budget, seed=seed)
        v = float(est.value)
        if getattr(est, "exact", False):
            return MoveValue(None, v, v, v, exact=True)
        if not est.moves:
            return MoveValue(None, v, v, v)
        return position_value(_estimate_moves(est), state.turn)
    return None


def _proven_bounds(res) -> dict:
    """What an unfinished solve proved: ``{pattern or None: (low, high)}``
    per move (team 0's values), from ``EndgameResult.bounds``."""
    out: dict = {}
    for (p, _), b in zip(getattr(res, "moves", []) or [], getattr(res, "bounds", []) or []):
        out[None if p is None else p.pattern] = (float(b[0]), float(b[1]))
    return out


def _clip(moves: list, bounds: dict) -> list:
    """Estimates held within the bounds the solver proved (sound: a proven
    bound is never wrong, an interval may be); a move pinned to one value
    by them is exact."""
    for m in moves:
        b = bounds.get(None if m.move is None else m.move.pattern)
        if b is None:
            continue
        lo, hi = b
        m.bounds = (max(m.bounds[0], lo), min(m.bounds[1], hi))
        m.low, m.high = max(m.low, lo), min(m.high, hi)
        if m.low > m.high:             # the interval missed the proof: keep the proof
            m.low, m.high = lo, hi
        m.mean = min(max(m.mean, m.low), m.high)
        if m.bounds[0] == m.bounds[1]:
            m.mean = m.low = m.high = m.bounds[0]
            m.exact = True
    return moves


def _double_moves(state: GameState, engines: dict, budget: float, seed: int):
    """(MoveValue list, method) of every legal move of a play decision."""
    bounds: dict = {}
    if engines.get("solver") and state.cards_left() <= engines["solve_cards"]:
        res = engines["solver"](state, max_seconds=budget)
        exact = _exact_moves(res)
        if exact is not None:
            return exact, "solve"
        bounds = _proven_bounds(res)
    if engines.get("estimator"):
        est = engines["estimator"](state, max_seconds=budget, seed=seed)
        moves = _clip(_estimate_moves(est), bounds)
        if getattr(est, "exact", False) or all(m.exact for m in moves):
            return moves, "solve"
        return moves, "estimate"
    return None, ""


MIN_PLAYED_SAMPLES = 10      # fewer estimator samples on the move played: value it again


def _revalue_played(moves: list, played, state: GameState, engines: dict, budget: float,
                    seed: int) -> None:
    """The estimator's tree spends few playouts on a move it finds bad, and
    the move played is the one the review judges: when it has fewer than
    ``MIN_PLAYED_SAMPLES``, the position after it is estimated on its own
    (half the budget again) and that value, held within the move's proven
    bounds, replaces the tree's."""
    m = next((x for x in moves if _same(x.move, played)), None)
    if m is None or m.exact or m.samples is None or m.samples >= MIN_PLAYED_SAMPLES:
        return
    child = state.apply(played)
    mv = _state_value(child, engines, budget / 2, decision_seed(seed, 1))
    if mv is None:
        return
    lo, hi = max(m.bounds[0], mv.bounds[0]), min(m.bounds[1], mv.bounds[1])
    if lo > hi:
        return
    m.bounds = (lo, hi)
    m.mean = min(max(mv.mean, lo), hi)
    m.low, m.high = max(mv.low, lo), min(mv.high, hi)
    if m.low > m.high:
        m.low, m.high = lo, hi
    m.samples = mv.samples
    if mv.exact or lo == hi:
        m.mean = m.low = m.high = (lo if lo == hi else mv.mean)
        m.exact = True


def value_task(task: dict) -> dict:
    """Value one decision (run in a worker process): the task is plain data
    (``analyse`` builds it), the answer too (MoveValue lists per view)."""
    engines = _engines(task["engines"])
    out: dict = {"key": task["key"], "double": None, "single": None, "notes": []}
    t0 = time.perf_counter()
    budget, seed = task["budget"], task["seed"]
    try:
        if task["kind"] == "play":
            state = task["state"]
            if "double" in task["views"] and not task["forced"]:
                moves, method = _double_moves(state, engines, budget, seed)
                if moves is not None:
                    played = task["record"].moves[task["move_index"]].play
                    _revalue_played(moves, played, state, engines, budget, seed)
                    out["double"] = (moves, method, time.perf_counter() - t0)
            if "single" in task["views"] and engines.get("suggester"):
                t1 = time.perf_counter()
                share = budget * (FORCED_FRACTION if task["forced"] else 1.0)
                sugg = engines["suggester"](task["record"], task["move_index"],
                                            max_seconds=share, seed=seed)
                vals = [_suggestion_value(s, state.turn) for s in sugg]
                out["single"] = ([v for v in vals if v is not None], "suggest",
                                 time.perf_counter() - t1)
        else:   # an exchange decision, or an opening value: positions, one per candidate
            vals: Optional[list] = []
            n = max(1, len(task["states"]))
            share = max(budget / n, min(budget, MIN_CANDIDATE_SECONDS))
            for i, (move, state) in enumerate(task["states"]):
                mv = _state_value(state, engines, share, decision_seed(seed, i))
                if mv is None:
                    vals = None
                    break
                mv.move = move
                vals.append(mv)
            if vals:
                out["double"] = (vals, "estimate" if not all(v.exact for v in vals) else "solve",
                                 time.perf_counter() - t0)
            seat = task.get("seat")
            if seat is not None and "single" in task["views"] and engines.get("estimator"):
                out["single"] = _single_exchange(seat, engines, budget, seed)
    except GuandanError as e:
        out["notes"].append(("refused", {"what": task["label"], "error": str(e)}))
    return out


def _single_exchange(seat, engines: dict, budget: float, seed: int):
    """The single-dummy view of a tribute or return (``analysis.exchange``):
    each legal card valued from the giver's seat within the budget of one
    decision (``MIN_CANDIDATE_SECONDS`` at least per card; a forced card
    ``FORCED_FRACTION`` of it)."""
    from .exchange import exchange_values
    t0 = time.perf_counter()
    share = budget * (FORCED_FRACTION if len(seat.candidates) <= 1 else 1.0)
    got = exchange_values(seat, lambda st, secs, sd: _state_value(st, engines, secs, sd),
                          share, decision_seed(seed, 2), MIN_CANDIDATE_SECONDS)
    if not got:
        return None
    return ([MoveValue(v.card, v.mean, v.low, v.high, exact=v.exact, samples=v.deals)
             for v in got], "sample", time.perf_counter() - t0)


def _suggestion_value(s, seat: int) -> Optional[MoveValue]:
    """A ``Suggestion`` (values for the mover's team) as a MoveValue (team
    0's values); None for a move the bot did not value in its budget."""
    if s.value is None:
        return None
    v = float(s.value)
    lo = v if s.low is None else float(s.low)
    hi = v if s.high is None else float(s.high)
    if team(seat) == 1:
        v, lo, hi = -v, -hi, -lo
    return MoveValue(s.play, v, lo, hi)


def _engines(spec: dict) -> dict:
    """The callables from a picklable spec (names or injected functions)."""
    out = {"solve_cards": spec.get("solve_cards", DEFAULT_SOLVE_CARDS)}
    for name, default in (("solver", _default_solver), ("estimator", _default_estimator),
                          ("suggester", _default_suggester)):
        v = spec.get(name)
        out[name] = default if v == "default" else v
    return out


# -- the result ---------------------------------------------------------------

@dataclass
class Decision:
    """One decision of the deal and what the two views say about it."""

    index: int                       # in the review (exchange decisions first)
    kind: str                        # "tribute", "return" or "play"
    seat: int
    move: Any                        # the Play (None: pass) or the Card given
    move_index: Optional[int] = None  # in record.moves, for a play
    table: Any = None                # the standing play, None on a lead
    cards_left: int = 0
    hands: list = field(default_factory=list)    # the four hands before the move
    legal: int = 0                   # number of legal moves
    min_plays_before: Optional[int] = None
    min_plays_after: Optional[int] = None
    double: Optional[Valuation] = None
    single: Optional[Valuation] = None

    @property
    def forced(self) -> bool:
        return self.legal <= 1

    @property
    def mistake(self) -> bool:
        return any(v is not None and v.mistake for v in (self.double, self.single))

    def to_dict(self) -> dict:
        return {
            "index": self.index, "kind": self.kind, "seat": self.seat,
            "move": _move_dict(self.move), "move_index": self.move_index,
            "table": _move_dict(self.table), "cards_left": self.cards_left,
            "hands": [" ".join(map(str, h)) for h in self.hands], "legal": self.legal,
            "forced": self.forced,
            "min_plays_before": self.min_plays_before, "min_plays_after": self.min_plays_after,
            "double": self.double.to_dict() if self.double else None,
            "single": self.single.to_dict() if self.single else None,
        }


@dataclass
class ExchangeReview:
    """A tribute or return card checked against the tribute advice."""

    kind: str                      # "tribute" or "return"
    giver: int
    receiver: int
    card: object
    choices: list                  # the advice, best first (TributeAdvice)
    chosen_index: int              # where the card played stands in the advice
    differs: bool                  # the advice ranks another card strictly better
    # (a heuristic: never a mistake by itself; the decision's own values,
    # ``Decision.double`` / ``single``, mark one by the rule of ``judge``)

    @property
    def best(self):
        return self.choices[0] if self.choices else None

    def to_dict(self) -> dict:
        chosen = self.choices[self.chosen_index] if self.chosen_index >= 0 else None
        return {
            "kind": self.kind, "giver": self.giver, "receiver": self.receiver,
            "card": str(self.card), "best": str(self.best.card) if self.best else None,
            "chosen_index": self.chosen_index, "differs": self.differs,
            "reasons": chosen.to_dict()["reasons"] if chosen is not None else [],
            "choices": [c.to_dict() for c in self.choices],
        }


@dataclass
class Analysis:
    record: Record
    decisions: list                # Decision, exchange first, then the play
    exchange: list                 # ExchangeReview (the tribute advice)
    result: Optional[int]
    finished: tuple
    opening: dict                  # "deal", "exchange", "start": MoveValue or None
    notes: list                    # (key, params): what was left out, as data
    settings: dict

    def mistakes(self, view: Optional[str] = None) -> list:
        views = (view,) if view else VIEWS
        return [d for d in self.decisions
                if any(getattr(d, v) is not None and getattr(d, v).mistake for v in views)]

    def first_mistake(self) -> Optional[int]:
        m = self.mistakes()
        return m[0].index if m else None

    def players(self) -> list:
        """Per seat: decisions judged, mistakes and levels given away, per view."""
        out = []
        for s in range(4):
            mine = [d for d in self.decisions if d.seat == s]
            row: dict = {"seat": s, "decisions": len(mine),
                         "judged": sum(1 for d in mine if not d.forced
                                       and (d.double or d.single))}
            for view in VIEWS:
                marked = [(d, getattr(d, view)) for d in mine
                          if getattr(d, view) is not None and getattr(d, view).mistake]
                row[view] = {
                    "judged": sum(1 for d in mine if getattr(d, view) is not None and not d.forced),
                    "mistakes": len(marked),
                    "proven": sum(1 for _, v in marked if v.mistake == "proven"),
                    **_lost(marked),
                }
            out.append(row)
        return out

    def graph(self) -> dict:
        """Team 0's expected level gain after every decision, per view (one
        point per decision; None where a view has no value)."""
        pts: dict = {v: [] for v in VIEWS}
        for d in self.decisions:
            for view in VIEWS:
                val = getattr(d, view)
                c = val.chosen if val is not None else None
                pts[view].append(None if c is None else
                                 {"mean": _r(c.mean), "low": _r(c.low), "high": _r(c.high),
                                  "exact": c.exact})
        return pts

    def to_dict(self) -> dict:
        rec = self.record
        mistakes = self.mistakes()
        return {
            "tags": dict(rec.tags), "level": rec.rules.level,
            "players": rec.players or None,
            "hands": [" ".join(map(str, h)) for h in rec.hands],
            "hands_after_tribute": [" ".join(map(str, h)) for h in rec.hands_after_tribute()],
            "anti_tribute": rec.anti_tribute,
            "result": self.result, "finished": list(self.finished),
            "decisions": [d.to_dict() for d in self.decisions],
            "exchange": [e.to_dict() for e in self.exchange],
            "opening": {k: (v.to_dict() if v is not None else None)
                        for k, v in self.opening.items()},
            "graph": self.graph(),
            "summary": self.players(),
            "mistakes": [d.index for d in mistakes],
            "first_mistake": self.first_mistake(),
            "notes": [{"key": k, "params": dict(p)} for k, p in self.notes],
            "settings": dict(self.settings),
        }


# -- the analysis -------------------------------------------------------------

def _min_plays_fn():
    try:
        from ..engine.decomposition import min_plays
    except ImportError:
        return None
    return min_plays


def _exchange_positions(record: Record, which: int, kind: str):
    """(candidate card, play-start GameState) for each legal card of one
    exchange decision, the other exchanges as recorded."""
    from ..game.tribute import return_candidates, tribute_candidates
    rules = record.rules
    tributes, returns = list(record.tributes), list(record.returns)
    hands = [list(h) for h in record.hands]
    if kind == "tribute":
        t = tributes[which]
        choices = tribute_candidates(hands[t.giver], rules)
    else:
        t = returns[which]
        choices = return_candidates(exchanged(hands, tributes)[t.giver], rules)
    out = []
    leader = record.leader if record.leader is not None else 0
    for card in choices:
        trs = list(tributes)
        rts = list(returns)
        if kind == "tribute":
            trs[which] = type(t)(t.giver, t.receiver, card)
        else:
            rts[which] = type(t)(t.giver, t.receiver, card)
        try:
            h = exchanged(hands, trs + rts)
        except ValueError:    # the recorded return was the tribute card itself
            continue
        out.append((card, GameState.start([sorted(x) for x in h], rules, leader)))
    return out


MAX_BUDGET = 3600


def check_budget(budget) -> float:
    """The review's budget (seconds per decision and view) checked: a number
    more than 0 and at most MAX_BUDGET (NaN is an error)."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) \
            or not 0 < budget <= MAX_BUDGET:                       # False for NaN
        raise ReviewError(f"budget must be a number of seconds, more than 0 and at most "
                          f"{MAX_BUDGET}, not {budget!r}")
    return float(budget)


def analyse(record: Record, views: Sequence[str] = VIEWS, *, budget: float = DEFAULT_BUDGET,
            seed: int = 0, solve_cards: int = DEFAULT_SOLVE_CARDS, jobs: int = 1,
            dask: Optional[str] = None, progress: Optional[Callable[[int, int], None]] = None,
            solver: Any = "default", estimator: Any = "default", suggester: Any = "default",
            min_plays: bool = True, tribute: bool = True, opening: bool = True) -> Analysis:
    """Review a deal record (see the module docstring).

    ``views``: ``"double"`` and/or ``"single"``; ``budget``: seconds per
    decision and per view (more: tighter intervals, more positions proven);
    ``seed``: the review's seed (it fixes the random draws; with a time budget
    the values still depend on the machine's speed and load); ``solve_cards``: try the exact solver at
    most this many cards left; ``jobs``: worker processes, or ``dask``: the
    address of a Dask scheduler; ``progress(done, total)``: called as
    decisions are valued. ``solver``/``estimator``/``suggester``: inject an
    engine (``solver(state, max_seconds)``, ``estimator(state, max_seconds,
    seed)``, ``suggester(record, move_index, max_seconds, seed)``), or None
    to leave it out (the single-dummy view of a tribute or return runs the
    ``estimator`` on the deals drawn from the giver's seat). ``min_plays``, ``tribute`` (the advice review) and
    ``opening`` (the opening values) can be turned off.
    """
    from ..pool import run_tasks
    from .exchange import exchange_seat
    views = tuple(views)
    if not views:
        raise ReviewError("views: give 'double' and/or 'single'")
    for v in views:
        if v not in VIEWS:
            raise ReviewError(f"views: unknown view {v!r}: use 'double' and/or 'single'")
    check_budget(budget)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
        raise ReviewError(f"seed must be an integer 0..2**31-1, not {seed!r}")
    notes: list = []
    if record.tags.get("notes"):       # e.g. a lenient platform import's deviations
        notes.extend(("import", {"text": n}) for n in str(record.tags["notes"]).split("; ") if n)
    spec: dict = {"solve_cards": solve_cards}
    for name, value in (("solver", solver), ("estimator", estimator), ("suggester", suggester)):
        if value == "default" and not _available(name):
            value = None
        spec[name] = value
    if "double" in views and spec["estimator"] is None:
        notes.append(("no_estimator", {}))
    if "single" in views and spec["suggester"] is None:
        notes.append(("no_suggest", {}))
    rules = record.rules
    mp = _min_plays_fn() if min_plays else None
    decisions: list = []
    tasks: list = []
    # the card given leads to the start of the play, which the first play
    # decision values: it is valued there, once (_exchange_valuations)
    at_start: set = set()
    # the exchange decisions
    for kind, transfers in (("tribute", record.tributes), ("return", record.returns)):
        for i, t in enumerate(transfers):
            d = Decision(index=len(decisions), kind=kind, seat=t.giver, move=t.card,
                         cards_left=108, hands=_hands_before_exchange(record, kind, i))
            states = _exchange_positions(record, i, kind) if "double" in views else []
            seat = exchange_seat(record, kind, i)
            d.legal = len(states) if "double" in views else len(seat.candidates)
            if record.moves and any(_same(c, t.card) for c, _ in states):
                at_start.add(d.index)
                states = [(c, st) for c, st in states if not _same(c, t.card)]
            if "single" not in views or spec["estimator"] is None:
                seat = None
            decisions.append(d)
            if states or seat is not None:
                tasks.append({"key": d.index, "kind": kind, "states": states, "seat": seat,
                              "label": {"kind": kind, "i": i + 1}})
    # the play
    for step in replay(record):
        st, move = step.state, step.move
        hand = st.cards(move.seat)
        d = Decision(index=len(decisions), kind="play", seat=move.seat, move=move.play,
                     move_index=step.index, table=st.table, cards_left=st.cards_left(),
                     hands=[st.cards(s) for s in range(4)], legal=len(st.legal_actions()))
        if mp is not None:
            d.min_plays_before = mp(hand, rules)
            rest = list(hand)
            if move.play is not None:
                for c in move.play.cards:
                    rest.remove(c)
            d.min_plays_after = mp(rest, rules) if rest else 0
        decisions.append(d)
        tasks.append({"key": d.index, "kind": "play", "state": st, "record": record,
                      "move_index": step.index, "forced": d.forced,
                      "label": {"kind": "play", "i": step.index + 1}})
    # the opening value of the hands as dealt (no exchange, the same leader);
    # the value at the start of the play is the first play decision's own
    # (_start_value)
    open_key = "opening:deal"
    exchanged = bool(record.tributes or record.returns)
    if opening and "double" in views and record.moves and exchanged:
        state = GameState.start([sorted(h) for h in record.hands], rules, record.leader)
        tasks.append({"key": open_key, "kind": "opening", "states": [(None, state)],
                      "label": {"kind": "opening", "i": "deal"}})
    for k, t in enumerate(tasks):
        t["views"] = views
        t["budget"] = budget
        t["seed"] = decision_seed(seed, t["key"] if isinstance(t["key"], int) else 100_000 + k)
        t["engines"] = spec
    t0 = time.perf_counter()
    answers = run_tasks(value_task, tasks, jobs=jobs, dask=dask, progress=progress)
    seconds = time.perf_counter() - t0
    by_key = {a["key"]: a for a in answers}
    for a in answers:
        notes.extend(a["notes"])
    for d in decisions:
        a = by_key.get(d.index)
        if a is None or d.kind != "play":
            continue
        for view in VIEWS:
            got = a.get(view)
            if got is None:
                continue
            moves, method, secs = got
            val = judge(view, moves, d.move, d.seat)
            val.method, val.seconds = method, secs
            setattr(d, view, val)
    _fill_forced(decisions, views, record)
    start = _start_value(decisions)
    _exchange_valuations(decisions, by_key, at_start, start)
    op: dict = {"deal": None, "start": None, "exchange": None}
    if opening and start is not None:
        op["start"] = start
        if not exchanged:
            op["deal"] = op["start"]
        else:
            a = by_key.get(open_key)
            if a and a.get("double"):
                op["deal"] = a["double"][0][0]
                op["exchange"] = _difference(op["start"], op["deal"])
    if "double" in views:
        unproven = sum(1 for d in decisions if d.double is not None and not d.double.exact)
        if unproven:
            notes.append(("estimated", {"n": unproven}))
    exchange = _review_exchange(record, notes) if tribute else []
    end = record.start_state()
    for m in record.moves:
        end = end.apply(m.play)
    return Analysis(record=record, decisions=decisions, exchange=exchange,
                    result=end.result(), finished=end.finished, opening=op, notes=notes,
                    settings={"views": list(views), "budget": budget, "seed": seed,
                              "solve_cards": solve_cards, "jobs": jobs,
                              "seconds": round(seconds, 2)})


def _exchange_valuations(decisions: list, by_key: dict, at_start: set,
                         start: Optional[MoveValue]) -> None:
    """Judge the tribute and return decisions. The card given (for those in
    ``at_start``) leads to the start of the play: its double-dummy value is
    ``start``, the first play decision's, so that one position has one
    value in the report (the exchange's tasks did not value it again)."""
    for d in decisions:
        if d.kind == "play":
            continue
        a = by_key.get(d.index) or {}
        for view in VIEWS:
            got = a.get(view)
            moves, method, secs = got if got is not None else ([], "", 0.0)
            if view == "double" and d.index in at_start and start is not None:
                given = MoveValue(d.move, start.mean, start.low, start.high, exact=start.exact,
                                  samples=start.samples, bounds=start.bounds)
                moves = list(moves) + [given]
                method = "solve" if all(m.exact for m in moves) else "estimate"
            if not moves:
                continue
            val = judge(view, moves, d.move, d.seat)
            val.method, val.seconds = method, secs
            setattr(d, view, val)


def _start_value(decisions: list) -> Optional[MoveValue]:
    """The double-dummy value of the start of the play: the first play
    decision's ``position_value`` (None when it has no double-dummy values)."""
    first = next((d for d in decisions if d.kind == "play"), None)
    if first is None or first.double is None or not first.double.moves:
        return None
    return position_value(first.double.moves, first.seat)


def _difference(a: MoveValue, b: MoveValue) -> MoveValue:
    """``a - b`` of two values: the mean's difference, the interval from the
    two intervals (conservatively: low minus high, high minus low) and what
    is proven from the two proven ranges (-6..6 at most)."""
    lo, hi = a.bounds[0] - b.bounds[1], a.bounds[1] - b.bounds[0]
    exact = a.exact and b.exact
    return MoveValue(None, a.mean - b.mean, max(lo, a.low - b.high), min(hi, a.high - b.low),
                     exact=exact, bounds=(lo, hi))


def _hands_before_exchange(record: Record, kind: str, i: int) -> list:
    done = list(record.tributes) + list(record.returns[:i]) if kind == "return" else []
    return [sorted(h) for h in exchanged(record.hands, done)]


def _fill_forced(decisions: list, views, record: Record) -> None:
    """A forced move (the one legal move) is worth the position after it:
    the next decision's value, or the result at the end of the deal (a
    backward pass, so a run of forced moves takes the value after it)."""
    if "double" not in views:
        return
    plays = [d for d in decisions if d.kind == "play"]
    end = record.start_state()
    for m in record.moves:
        end = end.apply(m.play)
    for i in range(len(plays) - 1, -1, -1):
        d = plays[i]
        if not d.forced or d.double is not None:
            continue
        if i + 1 < len(plays):
            nxt = plays[i + 1].double
            if nxt is None or not nxt.moves:
                continue
            mv = position_value(nxt.moves, plays[i + 1].seat)
            mv.move = d.move
        elif end.over:
            v = float(end.result())
            mv = MoveValue(d.move, v, v, v, exact=True)
        else:
            continue
        d.double = judge("double", [mv], d.move, d.seat)
        d.double.method = "forced"


def _review_exchange(record: Record, notes: list) -> list:
    if not record.tributes:
        return []
    try:
        from ..bots.advice import suggest_return, suggest_tribute
    except ImportError:   # pragma: no cover
        notes.append(("no_advice", {}))
        return []
    rules = record.rules
    hands = [list(h) for h in record.hands]
    out = []
    for t in record.tributes:
        advice = suggest_tribute(hands[t.giver], rules, receiver=hands[t.receiver])
        out.append(_review("tribute", t, advice))
    hands = exchanged(hands, record.tributes)
    for r in record.returns:
        advice = suggest_return(sorted(hands[r.giver]), rules, receiver=sorted(hands[r.receiver]))
        out.append(_review("return", r, advice))
    return out


def _review(kind: str, transfer, advice: list) -> ExchangeReview:
    """The card given against the advice: ``differs`` when the advice ranks
    another card strictly better. The advice is a heuristic, so this is
    never a mistake by itself (the module docstring's rule marks one)."""
    idx = next((i for i, a in enumerate(advice) if a.card == transfer.card), -1)
    differs = False
    if advice and idx >= 0:
        differs = advice[0].better_than(advice[idx])
    return ExchangeReview(kind=kind, giver=transfer.giver, receiver=transfer.receiver,
                          card=transfer.card, choices=advice, chosen_index=idx, differs=differs)
