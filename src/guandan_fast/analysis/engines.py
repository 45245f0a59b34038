"""The review's engine calls, in one place: one decision valued, per view.

``value_task(task)`` values one decision of ``analysis.review.analyse`` (run
in a worker process by ``analysis.batch``: the task and the answer are plain
data): for a play, every legal move (double-dummy: ``engine.endgame.solve``
where it proves the position within the budget, else
``engine.estimate.estimate`` held within what the solver proved;
single-dummy: the rollout search on the mover's View, and the position's
value, its choice valued on fresh deals: ``_single_dummy``); for a tribute, a
return or an opening, the position each candidate leads to
(``position_value``), and from the giver's seat ``analysis.exchange``.
Every value is an ``engine.value.MoveValue`` from team 0's side.

The engines can be injected (``solver(state, max_seconds)``,
``estimator(state, max_seconds, seed)``, ``suggester(record, move_index,
max_seconds, seed)``), or left out (None).

**The budget.** Every engine call gets a share of the decision's budget in
seconds (the whole, a forced move's ``FORCED_FRACTION``, a card's share of
an exchange, ...). In the deterministic mode (``analyse(playouts=N)``) the
same shares are playout counts instead: a call given ``s`` seconds of a
budget of ``B`` seconds runs ``round(N * s / B)`` playouts (at least one) and
no clock: the estimator with ``max_playouts`` alone, the solver with
``max_nodes`` (``NODES_PER_PLAYOUT`` a playout), the single-dummy view with
that many playouts over its sampled deals (``_single_dummy``), the exchange
valuation with its calls' shares computed, not timed. The engines are then
called with ``max_playouts=`` too (an injected one must accept it). What
reaches each call depends only on the record, the settings and the seed, so
the analysis is the same on every run and machine.
"""

from __future__ import annotations

import time
from typing import Optional

from ..engine.endgame import NODES_PER_PLAYOUT, solve
from ..engine.value import MoveValue, position_value
from ..errors import GuandanError
from ..game.record import Record
from ..game.state import GameState, team
from .judge import TIERS, same_move

__all__ = ["value_task", "check_task", "line_task", "policy_plays", "decision_seed",
           "DEFAULT_SOLVE_CARDS", "FORCED_FRACTION", "MIN_CANDIDATE_SECONDS", "MIN_PLAYED_SAMPLES",
           "NODES_PER_PLAYOUT", "LINE_PLAYS", "CHECK_FACTOR", "CHECK_DEALS", "CHECK_MOVES"]

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


def _default_solver(state: GameState, max_seconds=None, max_playouts=None):
    if max_playouts is not None:
        return solve(state.to_position(), max_nodes=NODES_PER_PLAYOUT * max_playouts, pv=False)
    return solve(state.to_position(), max_seconds=max_seconds, pv=False)


def _default_estimator(state: GameState, max_seconds=None, seed=0, max_playouts=None):
    from ..engine.estimate import estimate
    if max_playouts is not None:
        return estimate(state.to_position(), max_seconds=None, max_playouts=max_playouts,
                        seed=seed)
    return estimate(state.to_position(), max_seconds=max_seconds, seed=seed)


def _single_dummy(record: Record, move_index: int, max_seconds=None, seed=0,
                  max_playouts=None):
    """The single-dummy engine, in one place: ``(moves, position)`` of the
    mover's ``View`` (MoveValues, the mover's team's side): every legal
    move valued by the bots' rollout search (each move, then the house
    policy in every seat, on ``DEFAULT_SAMPLES`` deals drawn from the view)
    and the position's value, the search's choice valued again on fresh
    deals (``bots.search.evaluate_position``: an unbiased estimate, not the
    largest of the moves' noisy means); with ``max_playouts``, that many
    rollouts in all. The move played is always valued (``include=``: it
    is among the first candidates), whatever the budget."""
    from ..bots.search import DEFAULT_SAMPLES, evaluate_position
    from ..game.view import View
    view = View.from_record(record, move_index)
    return evaluate_position(view, max_seconds=max_seconds, samples=DEFAULT_SAMPLES,
                             seed=seed, max_playouts=max_playouts,
                             include=record.moves[move_index].play)


def _single_dummy_check(record: Record, move_index: int, best: list, played,
                        max_seconds=None, seed=0, max_playouts=None) -> dict:
    """The default single-dummy engine's re-check of a candidate mark, by
    the evaluator that proposed it: ``bots.search.compare_moves`` (the
    candidates and the move played, each then the house policy in every
    seat, on the same deals drawn from the mover's view; the candidate
    chosen on half of the deals, its loss measured on the other half),
    stopping once the loss's tier is decided (the tiers' least losses as
    its ``edges``: a mark needs the loss's interval above 0 and its mean at
    a tier, so a loss whose 99.9% interval lies within one tier's band has
    its verdict)."""
    from ..bots.search import compare_moves
    from ..game.view import View
    view = View.from_record(record, move_index)
    return compare_moves(view, best, played, max_seconds=max_seconds, seed=seed,
                         max_playouts=max_playouts, edges=[least for _, least in TIERS])


def _suggested(answer) -> tuple:
    """A suggester's answer as ``(moves, position)``: the default engine's
    pair, or an injected one's list of moves (its first move is its choice,
    and its own value the position's: ``position`` the first valued move)."""
    if isinstance(answer, tuple):
        moves, position = answer
        return list(moves), position
    moves = list(answer)
    return moves, next((m for m in moves if m.valued), None)


def _engines(spec: dict) -> dict:
    """The callables from a picklable spec (names or injected functions)
    and the playout rate (``rate``: playouts per second of the budget, None
    for a time budget)."""
    out = {"solve_cards": spec.get("solve_cards", DEFAULT_SOLVE_CARDS),
           "rate": spec.get("rate")}
    for name, default in (("solver", _default_solver), ("estimator", _default_estimator),
                          ("suggester", _single_dummy)):
        v = spec.get(name)
        out[name] = default if v == "default" else v
    # the default single-dummy engine re-checks its own marks; an injected
    # one is re-checked by the estimator on deals drawn from the view
    out["checker"] = _single_dummy_check if out["suggester"] is _single_dummy else None
    return out


def _call(engines: dict, name: str, *args, seconds: float, **kw):
    """Call an engine with a share of the budget: ``seconds``, or in the
    deterministic mode the playouts it stands for (the module docstring)."""
    rate = engines.get("rate")
    if rate is not None:
        kw["max_playouts"] = max(1, int(round(rate * seconds)))
    return engines[name](*args, max_seconds=seconds, **kw)


def _solved(res) -> bool:
    """A solver's result that proves every move."""
    return res.exact and bool(res.moves) and all(m.exact for m in res.moves)


def _state_value(state: GameState, engines: dict, budget: float, seed: int):
    """A MoveValue (move None) for a position: exact when solved, else the
    ``position_value`` of the estimator's values of its moves."""
    result = state.result()
    if result is not None:          # the deal is over
        return MoveValue.proven(None, float(result))
    if engines.get("solver") and state.cards_left() <= engines["solve_cards"]:
        res = _call(engines, "solver", state, seconds=budget)
        if res.exact and res.value is not None:
            return MoveValue.proven(None, float(res.value))
    if engines.get("estimator"):
        est = _call(engines, "estimator", state, seconds=budget, seed=seed)
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
        res = _call(engines, "solver", state, seconds=budget)
        if _solved(res):
            return list(res.moves), "solve"
        proven = {None if m.move is None else m.move.pattern: m for m in res.moves}
    if engines.get("estimator"):
        est = _call(engines, "estimator", state, seconds=budget, seed=seed)
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


def _elapsed(t0: float, engines: dict) -> Optional[float]:
    """The seconds since ``t0``; None in the deterministic mode (a time is
    not part of an analysis that must be the same on every run)."""
    return None if engines.get("rate") is not None else time.perf_counter() - t0


def value_task(task: dict) -> dict:
    """Value one decision (run in a worker process): the task is plain data
    (``analyse`` builds it), the answer too (MoveValue lists per view)."""
    engines = _engines(task["engines"])
    out: dict = {"key": task["key"], "double": None, "single": None, "position": None,
                 "notes": []}
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
                    out["double"] = (moves, method, _elapsed(t0, engines))
            if "single" in task["views"] and engines.get("suggester"):
                t1 = time.perf_counter()
                share = budget * (FORCED_FRACTION if task["forced"] else 1.0)
                sugg, position = _suggested(_call(engines, "suggester", task["record"],
                                                  task["move_index"], seconds=share,
                                                  seed=seed))
                out["single"] = ([s.pov(0) for s in sugg if s.valued], "suggest",
                                 _elapsed(t1, engines))
                out["position"] = None if position is None else position.pov(0)
        else:   # an exchange decision, or an opening value: positions, one per candidate
            vals: list[MoveValue] = []
            n = max(1, len(task["states"]))
            share = max(budget / n, min(budget, MIN_CANDIDATE_SECONDS))
            for i, (move, state) in enumerate(task["states"]):
                mv = _state_value(state, engines, share, decision_seed(seed, i))
                if mv is None:      # a candidate not valued: the decision is not valued
                    vals = []
                    break
                vals.append(mv.with_move(move))
            if vals:
                out["double"] = (vals, "estimate" if not all(v.exact for v in vals) else "solve",
                                 _elapsed(t0, engines))
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
                          min_seconds=MIN_CANDIDATE_SECONDS,
                          timed=engines.get("rate") is None)
    if not got:
        return None
    return (got, "sample", _elapsed(t0, engines))


# -- the re-check of a mark -------------------------------------------------------

CHECK_FACTOR = 10       # a candidate mark is re-valued with this many times the budget
CHECK_DEALS = 16        # the sampled deals of a single-dummy re-check (paired)
CHECK_MOVES = 3         # the screening's best moves re-checked against the move played


def _half(m: MoveValue) -> float:
    return 0.0 if m.exact else (float(m.high) - float(m.low)) / 2


def _paired_loss(rows: list, mover: int, perfect: bool) -> tuple:
    """(mean, low, high) of the loss (best minus played, for ``mover``)
    over deals: per deal the difference of the two values, the deals'
    spread and each deal's own error combined (``stats.deals_mean_ci``,
    within -6..6)."""
    from ..stats import deals_mean_ci
    diffs, halves = [], []
    for best, played in rows:
        b, p = best.pov(mover), played.pov(mover)
        diffs.append(float(b.mean) - float(p.mean))
        halves.append((_half(b) ** 2 + _half(p) ** 2) ** 0.5)
    return deals_mean_ci(diffs, halves, perfect=perfect, bound=6.0)


def check_task(task: dict) -> dict:
    """Re-value one candidate mark (run in a worker process): the best move
    and the move played of one decision and view, with ``factor`` times the
    decision's budget and a fresh seed (so the best move's value is a new
    estimate, not the largest of the screening's noisy means).

    - single-dummy, a play, the default engine: its own evaluator,
      paired (``_single_dummy_check``): the task's ``candidates`` (the
      screening's best moves, up to ``CHECK_MOVES``) and the move played on
      the same deals, the candidate chosen on half of them and its loss
      measured on the other half; the answer's ``best`` is that candidate;
    - single-dummy otherwise: a paired comparison: ``CHECK_DEALS`` deals drawn from
      what the mover knew (the mover's View, or the giver's seat for a
      tribute or return), both moves valued on each deal with the same
      seed; the loss is the mean of the per-deal differences with its 95%
      interval (``_paired_loss``);
    - double-dummy: no deals to sample: the positions after the two moves,
      each estimated with half the budget and the same seed (common random
      numbers); the loss is the difference of the means, its interval the
      two half-widths combined as independent errors (square root of the
      sum of squares), held within what the proven bounds allow.

    The answer: ``{"key", "loss", "low", "high", "samples", "paired"}``
    (and ``best`` when the check chose among candidates, ``exact`` when
    both values are proven: the loss then is, and ``proven``, the better
    move's proven value, team 0's side)
    (the loss for the mover's team), or ``{"key", "error"}``."""
    engines = _engines(task["engines"])
    seconds = task["budget"] * task["factor"]
    seed, mover = task["seed"], team(task["seat"])
    out: dict = {"key": task["key"]}
    try:
        if task["view"] == "double":
            b = _state_value(task["states"][0], engines, seconds / 2, seed)
            p = _state_value(task["states"][1], engines, seconds / 2, seed)
            if b is None or p is None:
                return {**out, "error": "no estimator"}
            if b.exact and p.exact:     # the loss is proven: so is the better move's value
                out["proven"] = b
            b, p = b.pov(mover), p.pov(mover)
            mean = float(b.mean) - float(p.mean)
            half = (_half(b) ** 2 + _half(p) ** 2) ** 0.5
            lo_p, hi_p = b.proven_low - p.proven_high, b.proven_high - p.proven_low
            low = max(lo_p, mean - half)
            high = min(hi_p, mean + half)
            out.update(loss=mean, low=min(low, mean), high=max(high, mean), samples=None,
                       paired=False, exact=b.exact and p.exact)
        elif task["kind"] == "play" and engines["checker"] is not None:
            got = _call(engines, "checker", task["record"], task["move_index"],
                        task.get("candidates") or task["moves"][:1], task["moves"][1],
                        seconds=seconds, seed=seed)
            out.update(loss=got["loss"], low=got["low"], high=got["high"],
                       samples=got["samples"], paired=True, best=got["best"])
        elif task["kind"] == "play":
            rows, perfect = _single_rows(task, engines, seconds, seed)
            if not rows:
                return {**out, "error": "no deal"}
            mean, low, high = _paired_loss(rows, mover, perfect)
            out.update(loss=mean, low=low, high=high, samples=len(rows), paired=True)
        else:
            from .exchange import paired_values
            rows, perfect = paired_values(
                task["seat_view"], task["moves"],
                lambda st, secs, sd: _state_value(st, engines, secs, sd),
                seconds=seconds, seed=seed, deals=CHECK_DEALS)
            if not rows:
                return {**out, "error": "no deal"}
            mean, low, high = _paired_loss(rows, mover, perfect)
            out.update(loss=mean, low=low, high=high, samples=len(rows), paired=True)
    except GuandanError as e:
        return {**out, "error": str(e)}
    return out


def _single_rows(task: dict, engines: dict, seconds: float, seed: int) -> tuple:
    """Per deal drawn from the mover's View: (best, played) team 0 values of
    the positions after the two moves, valued with the same seed."""
    from ..game.view import View, sample_deals
    view = View.from_record(task["record"], task["move_index"])
    deals = sample_deals(view, 1 if view.perfect else CHECK_DEALS, seed=seed)
    each = seconds / (2 * max(1, len(deals)))
    rows = []
    for k, deal in enumerate(deals):
        state = view.state(deal)
        sd = decision_seed(seed, k)
        pair = [_state_value(state.apply(m), engines, each, sd) for m in task["moves"]]
        if any(v is None for v in pair):
            return [], view.perfect
        rows.append(pair)
    return rows, view.perfect


# -- the better line of a mark -----------------------------------------------------

LINE_PLAYS = 12     # the evaluator's line: the better move and the plays after it, at most


def _line_solver(state: GameState, max_seconds=None, max_playouts=None):
    """The solver as the proven line asks it: the value and one best line
    only (``all_moves=False``), within the decision's budget."""
    if max_playouts is not None:
        return solve(state.to_position(), max_nodes=NODES_PER_PLAYOUT * max_playouts,
                     all_moves=False, pv=True)
    return solve(state.to_position(), max_seconds=max_seconds, all_moves=False, pv=True)


def policy_plays(state: GameState, view_of, max_plays: int) -> list:
    """The house policy (``bots.policy.PolicyBot``) in every seat from
    ``state``, at most ``max_plays`` plays or to the end of the deal:
    ``[(seat, play or None)]``. ``view_of(state, plays)`` is the View of
    the seat to act after ``plays`` (what that seat knows: its own hand and
    the public record, never a hidden card); the policy reads nothing else.
    Deterministic: the policy draws nothing at random."""
    from ..bots.policy import PolicyBot
    bot = PolicyBot()
    plays: list = []
    while len(plays) < max_plays and state.result() is None:
        play = bot.choose(view_of(state, plays))
        plays.append((state.turn, play))
        state = state.apply(play)
    return plays


def _view_of(task: dict):
    """The View of the seat to act on the line (``policy_plays``): for a
    play, the record's own up to the decision (``View.from_record``: the
    exchange and what an anti-tribute showed), then the better move and the
    line's plays; for a tribute or a return, the start of the play after
    the exchange with the better card (``task["exchange"]``: the tributes
    and the returns), then the line's plays."""
    import dataclasses
    from ..game.record import Move
    from ..game.view import View
    if task["kind"] == "play":
        record, k = task["record"], task["move_index"]
        head = list(record.moves[:k]) + [Move(task["seat"], task["move"])]

        def of_play(state, plays):
            moves = head + [Move(s, p) for s, p in plays]
            return View.from_record(dataclasses.replace(record, moves=moves), len(moves))
        return of_play
    tributes, returns = task["exchange"]

    def of_exchange(state, plays):
        return View.from_state(state, history=list(plays), tributes=tributes, returns=returns)
    return of_exchange


def _hands_text(state: GameState) -> list:
    return [" ".join(str(c) for c in sorted(state.cards(s))) for s in range(4)]


def line_task(task: dict) -> dict:
    """The better line of one marked decision and view (run in a worker
    process; plain data in and out): the decision's better move, then

    - ``"solver"``: where the mark is proven (double-dummy) and the solver
      proves the position after the better move within the decision's
      budget: the solver's principal line from there (``solve``'s ``pv``,
      to where the result is decided), and its proven value;
    - ``"policy"``: otherwise: the house policy in every seat on the
      actual deal, each seat deciding from its own view, ``LINE_PLAYS``
      plays at most (the better move included), or to the end of the deal.

    The answer: ``{"key", "line"}``, the line as ``analysis.review`` stores
    it (``source``, ``move``, ``seat``, ``hands`` after the better move,
    ``plays`` after it, ``over``, ``result``, ``value``), or ``"line": None``
    with an ``error``."""
    from ..engine.value import move_dict
    engines = _engines(task["engines"])
    out: dict = {"key": task["key"], "line": None}
    first, seat = task["move"], task["seat"]
    try:
        after = task["after"]             # the GameState after the better move
        source, plays, value = "policy", None, None
        if task["proven"] and engines.get("solver") is _default_solver:
            if after.result() is not None:
                source, plays, value = "solver", [], int(after.result())
            else:
                engines = {**engines, "solver": _line_solver}
                res = _call(engines, "solver", after, seconds=task["budget"])
                if res.value is not None and res.pv:
                    source, plays, value = "solver", list(res.pv), int(res.value)
        if plays is None:
            plays = policy_plays(after, _view_of(task), LINE_PLAYS - 1)
        end = after
        for s, p in plays:               # the line replayed: every play legal in turn
            if end.turn != s:
                raise GuandanError(f"the line has seat {s} act where seat {end.turn} does")
            end = end.apply(p)
        out["line"] = {"source": source, "seat": seat, "move": move_dict(first),
                       "hands": _hands_text(after),
                       "plays": [{"seat": s, "move": move_dict(p)} for s, p in plays],
                       "over": end.result() is not None, "result": end.result(),
                       "value": value}
    except GuandanError as e:
        out["error"] = str(e)
    return out
