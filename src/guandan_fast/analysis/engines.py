"""The review's engine calls, in one place: one decision valued, per view.

``value_task(task)`` values one decision of ``analysis.review.analyse`` (run
in a worker process by ``analysis.batch``: the task and the answer are plain
data): for a play, every legal move (double-dummy: ``engine.endgame.solve``
where it proves the position within the budget, else
``engine.estimate.estimate`` held within what the solver proved;
single-dummy: ``bots.suggest`` on the mover's View); for a tribute, a
return or an opening, the position each candidate leads to
(``position_value``), and from the giver's seat ``analysis.exchange``.
Every value is an ``engine.value.MoveValue`` from team 0's side.

The engines can be injected (``solver(state, max_seconds)``,
``estimator(state, max_seconds, seed)``, ``suggester(record, move_index,
max_seconds, seed)``), or left out (None).
"""

from __future__ import annotations

import time
from typing import Optional

from ..engine.value import MoveValue, position_value
from ..errors import GuandanError
from ..game.record import Record
from ..game.state import GameState, team
from .judge import same_move

__all__ = ["value_task", "decision_seed", "DEFAULT_SOLVE_CARDS", "FORCED_FRACTION",
           "MIN_CANDIDATE_SECONDS", "MIN_PLAYED_SAMPLES"]

DEFAULT_SOLVE_CARDS = 34      # try the exact solver at most this many cards left
FORCED_FRACTION = 0.25        # a forced move's single-dummy value gets this share
MIN_CANDIDATE_SECONDS = 0.2   # the least time for each card of a tribute or return
MIN_PLAYED_SAMPLES = 10       # fewer estimator samples on the move played: value it again


def decision_seed(seed: int, index: int) -> int:
    """The seed of decision ``index`` of a review seeded ``seed``.

    >>> decision_seed(0, 5) == decision_seed(0, 5) != decision_seed(1, 5)
    True
    """
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2 ** 31 - 1)


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


def _engines(spec: dict) -> dict:
    """The callables from a picklable spec (names or injected functions)."""
    out = {"solve_cards": spec.get("solve_cards", DEFAULT_SOLVE_CARDS)}
    for name, default in (("solver", _default_solver), ("estimator", _default_estimator),
                          ("suggester", _default_suggester)):
        v = spec.get(name)
        out[name] = default if v == "default" else v
    return out


def _solved(res) -> bool:
    """A solver's result that proves every move."""
    return res.exact and bool(res.moves) and all(m.exact for m in res.moves)


def _state_value(state: GameState, engines: dict, budget: float, seed: int):
    """A MoveValue (move None) for a position: exact when solved, else the
    ``position_value`` of the estimator's values of its moves."""
    if state.over:
        return MoveValue.proven(None, float(state.result()))
    if engines.get("solver") and state.cards_left() <= engines["solve_cards"]:
        res = engines["solver"](state, max_seconds=budget)
        if res.exact and res.value is not None:
            return MoveValue.proven(None, float(res.value))
    if engines.get("estimator"):
        est = engines["estimator"](state, max_seconds=budget, seed=seed)
        v = float(est.value)
        if est.exact:
            return MoveValue.proven(None, v)
        if not est.moves:
            return MoveValue(None, v, v, v)
        return position_value(est.moves, team(state.turn))
    return None


def _clip(moves: list, proven: dict) -> list:
    """Estimates held within the bounds the solver proved (``{pattern or
    None: MoveValue}``; sound: a proven bound is never wrong, an interval
    may be); a move pinned to one value by them is exact."""
    out = []
    for m in moves:
        b = proven.get(None if m.move is None else m.move.pattern)
        out.append(m if b is None else m.within(b.proven_low, b.proven_high))
    return out


def _double_moves(state: GameState, engines: dict, budget: float, seed: int):
    """(MoveValue list, method) of every legal move of a play decision."""
    proven: dict = {}
    if engines.get("solver") and state.cards_left() <= engines["solve_cards"]:
        res = engines["solver"](state, max_seconds=budget)
        if _solved(res):
            return list(res.moves), "solve"
        proven = {None if m.move is None else m.move.pattern: m for m in res.moves}
    if engines.get("estimator"):
        est = engines["estimator"](state, max_seconds=budget, seed=seed)
        moves = _clip(list(est.moves), proven)
        if est.exact or all(m.exact for m in moves):
            return moves, "solve"
        return moves, "estimate"
    return None, ""


def _revalue_played(moves: list, played, state: GameState, engines: dict, budget: float,
                    seed: int) -> list:
    """The estimator's tree spends few playouts on a move it finds bad, and
    the move played is the one the review judges: when it has fewer than
    ``MIN_PLAYED_SAMPLES``, the position after it is estimated on its own
    (half the budget again) and that value, held within the move's proven
    bounds, replaces the tree's. The moves, that one replaced."""
    k = next((i for i, x in enumerate(moves) if same_move(x.move, played)), None)
    if k is None:
        return moves
    m = moves[k]
    if m.exact or m.samples is None or m.samples >= MIN_PLAYED_SAMPLES:
        return moves
    child = state.apply(played)
    mv = _state_value(child, engines, budget / 2, decision_seed(seed, 1))
    if mv is None:
        return moves
    lo, hi = max(m.proven_low, mv.proven_low), min(m.proven_high, mv.proven_high)
    if lo > hi:
        return moves
    # (an exact mv is proven within m's bounds, so lo == hi and new is exact)
    new = MoveValue(m.move, mv.mean, mv.low, mv.high, m.proven_low, m.proven_high,
                    samples=mv.samples, team=m.team, score=m.score).within(lo, hi)
    return moves[:k] + [new] + moves[k + 1:]


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
                    moves = _revalue_played(moves, played, state, engines, budget, seed)
                    out["double"] = (moves, method, time.perf_counter() - t0)
            if "single" in task["views"] and engines.get("suggester"):
                t1 = time.perf_counter()
                share = budget * (FORCED_FRACTION if task["forced"] else 1.0)
                sugg = engines["suggester"](task["record"], task["move_index"],
                                            max_seconds=share, seed=seed)
                out["single"] = ([s.pov(0) for s in sugg if s.valued], "suggest",
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
                vals.append(mv.with_move(move))
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
                          seconds=share, seed=decision_seed(seed, 2),
                          min_seconds=MIN_CANDIDATE_SECONDS)
    if not got:
        return None
    return (got, "sample", time.perf_counter() - t0)
