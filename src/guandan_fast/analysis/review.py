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

A position's value is defined once (``engine.value.position_value``): the
best mean for the side to move among its moves' values, with that move's
own interval, and the best proven bounds for the mover. A decision's ``value``, a forced
move's, an exchange card's, the opening values and the graph all use it; but
the single-dummy value of a play decision is the rollout search's choice
valued on deals of its own (``bots.search.evaluate_position``: not the
largest of noisy means), the move a re-check compares with the one played.
- **single-dummy** (``"single"``), what the mover could know: for a play,
  the bot's ``suggest`` on the mover's ``View`` (``game.view.View.from_record``),
  which never sees a hidden card; for a tribute or return, every legal card
  valued from the giver's seat (``analysis.exchange``: the hidden hands drawn
  from what the giver knew, the exchange it cannot see completed by the
  tribute advice, the start position estimated on each deal, averaged with
  a 95% interval). The tribute and the return are also compared with the
  tribute advice (``exchange``): a card that differs from the advice is
  shown as such, and is a mistake only by the rule below, like any move.

A move is a **mistake** only when its loss is shown (``analysis.judge``):
``"proven"`` when the values of the move played and of the best move are
both exact (proven by the solver) or proven bounds separate them,
``"estimated"`` when their confidence intervals do not overlap. ``best``
lists every best move (pass included): the moves of the best exact value,
or, for estimates, every move whose interval lies above the move played and
overlaps the top one.

Values (``engine.value.MoveValue``) are always team 0's expected level gain
(+3 .. -3, RULES 8); a ``loss`` is counted for the mover's team (positive:
levels given away).
Every decision gets its own seed (``decision_seed``), so what reaches the
engines does not depend on the number of processes. The seeds fix the random
draws (the hidden hands of the single-dummy view), not the values: the
budget is time (``max_seconds``), so how far the estimator and the solver get,
and with it the values, the intervals and the marks, depends on the machine's
speed and load, and two runs with the same seed can differ. (Injected engines
that do not stop on time give the same review every time.)

The engines are called in ``analysis.engines`` and only there; each can be
injected (``solver=``, ``estimator=``, ``suggester=``), and one left out
(None) is a note, not a crash. The work is spread over processes (``jobs``) or a Dask cluster
(``dask``) by ``analysis.batch``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from ..engine.value import MoveValue, _r, difference, move_dict, position_value
from ..errors import GuandanError, ReviewError
from ..game.record import Record, exchanged, final_state, replay
from ..game.state import GameState, team
from .engines import (CHECK_FACTOR, CHECK_MOVES, DEFAULT_SOLVE_CARDS, FORCED_FRACTION,
                      MIN_CANDIDATE_SECONDS, check_task, decision_seed, line_task,
                      value_task)
from .structure import broken, structure_dict
from .judge import TIERS, UNCLEAR_WIDTH, Valuation, confirm, judge, nominated, same_move

__all__ = ["analyse", "Analysis", "Decision", "Valuation", "ExchangeReview",
           "decision_seed", "value_task", "DEFAULT_BUDGET", "DEFAULT_SOLVE_CARDS", "VIEWS",
           "FORCED_FRACTION", "MIN_CANDIDATE_SECONDS"]

VIEWS = ("double", "single")
DEFAULT_BUDGET = 0.4          # seconds per decision and per view (see docs/review.md)


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




def _valued(v: Optional[Valuation]) -> bool:
    """A view that valued the move played: only such a decision is judged
    (a move with no value is neither accurate nor a mistake: the report
    says "not valued")."""
    return v is not None and v.chosen is not None and v.chosen.valued


def accuracy(judged: list) -> dict:
    """The accuracy of one player's judged decisions in one view (the
    Valuations of the decisions that were not forced): ``unclear``, those
    whose loss interval says nothing (not counted); ``accurate``, the others
    without a mark, i.e. not shown to lose 0.3 levels or more (the least
    tier); ``accuracy``, accurate over judged-and-not-unclear (None when
    there is none); ``tiers``, the marks by tier."""
    unclear = sum(1 for v in judged if v.unclear and not v.mistake)
    accurate = sum(1 for v in judged if not v.mistake and not v.unclear)
    counted = len(judged) - unclear
    tiers = {name: sum(1 for v in judged if v.mistake and v.tier == name) for name, _ in TIERS}
    return {"unclear": unclear, "accurate": accurate,
            "accuracy": round(accurate / counted, 4) if counted else None, "tiers": tiers}


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
    breaks: Optional[dict] = None    # the structure the move breaks (analysis.structure)
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
            "move": move_dict(self.move), "move_index": self.move_index,
            "table": move_dict(self.table), "cards_left": self.cards_left,
            "hands": [" ".join(map(str, h)) for h in self.hands], "legal": self.legal,
            "forced": self.forced,
            "min_plays_before": self.min_plays_before, "min_plays_after": self.min_plays_after,
            "breaks": self.breaks,
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
                                       and (_valued(d.double) or _valued(d.single)))}
            for view in VIEWS:
                marked = [(d, getattr(d, view)) for d in mine
                          if getattr(d, view) is not None and getattr(d, view).mistake]
                judged = [getattr(d, view) for d in mine
                          if _valued(getattr(d, view)) and not d.forced]
                row[view] = {
                    "judged": len(judged),
                    "mistakes": len(marked),
                    "proven": sum(1 for _, v in marked if v.mistake == "proven"),
                    **_lost(marked),
                    **accuracy(judged),
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
        """The review as one JSON document (``formats.analysis_json``: the
        schema and its version first), which every renderer reads."""
        from ..formats.analysis_json import SCHEMA, VERSION
        rec = self.record
        mistakes = self.mistakes()
        return {
            "schema": SCHEMA, "version": VERSION,
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
MAX_PLAYOUTS = 10 ** 8        # per decision and view (days of work)


def check_playouts(playouts) -> Optional[int]:
    """The deterministic budget checked: None, or an integer 1..MAX_PLAYOUTS."""
    if playouts is None:
        return None
    if isinstance(playouts, bool) or not isinstance(playouts, int) \
            or not 1 <= playouts <= MAX_PLAYOUTS:
        raise ReviewError(f"playouts must be an integer 1..{MAX_PLAYOUTS}, not {playouts!r}")
    return playouts


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
            min_plays: bool = True, tribute: bool = True, opening: bool = True,
            playouts: Optional[int] = None,
            check_factor: Optional[float] = CHECK_FACTOR) -> Analysis:
    """Review a deal record (see the module docstring).

    ``views``: ``"double"`` and/or ``"single"``; ``budget``: seconds per
    decision and per view (more: tighter intervals, more positions proven);
    ``seed``: the review's seed (it fixes the random draws; with a time budget
    the values still depend on the machine's speed and load); ``solve_cards``: try the exact solver at
    most this many cards left; ``jobs``: worker processes, or ``dask``: the
    address of a Dask scheduler; ``progress(done, total)``: called as
    decisions are valued. ``solver``/``estimator``/``suggester``: inject an
    engine (``solver(state, max_seconds)`` answering as ``solve``,
    ``estimator(state, max_seconds, seed)`` as ``estimate``,
    ``suggester(record, move_index, max_seconds, seed)`` as ``suggest``: a
    list of ``engine.value.MoveValue``, its choice first, whose value is then
    the position's; or ``(moves, position)`` as
    ``bots.search.evaluate_position``), or None to leave it out (the single-dummy view of a tribute or return runs the
    ``estimator`` on the deals drawn from the giver's seat). ``min_plays``, ``tribute`` (the advice review) and
    ``opening`` (the opening values) can be turned off.
    ``playouts``: the deterministic mode: each decision and view gets this
    many playouts instead of the clock (the shares of ``budget``, which then
    only plans them, become playout counts: ``analysis.engines``); the
    analysis is then the same on every run, machine and number of jobs.
    ``check_factor``: a candidate mark found at the budget is re-valued
    with this many times it before it is shown (``analysis.judge.confirm``,
    at least 10); None shows the screening's marks unchecked (for injected
    engines whose values are already what the test means).
    """
    from ..pool import run_tasks
    views = _check_options(views, budget, seed)
    _check_record(record)
    if isinstance(solve_cards, bool) or not isinstance(solve_cards, int) \
            or not 0 <= solve_cards <= 108:
        raise ReviewError(f"solve_cards must be a number of cards 0..108, not {solve_cards!r}"[:100])
    for name, flag in (("min_plays", min_plays), ("tribute", tribute), ("opening", opening)):
        if not isinstance(flag, bool):
            raise ReviewError(f"{name} must be True or False, not {flag!r}"[:100])
    check_playouts(playouts)
    check_factor = _check_factor(check_factor)
    notes = _import_notes(record)
    spec: dict = {"solve_cards": solve_cards, "solver": solver, "estimator": estimator,
                  "suggester": suggester,
                  "rate": None if playouts is None else playouts / float(budget)}
    if "double" in views and spec["estimator"] is None:
        notes.append(("no_estimator", {}))
    if "single" in views and spec["suggester"] is None:
        notes.append(("no_suggest", {}))
    decisions: list = []
    tasks: list = []
    places: dict = {}
    at_start = _exchange_decisions(record, views, spec, decisions, tasks, places)
    _play_decisions(record, min_plays, decisions, tasks)
    has_exchange = bool(record.tributes or record.returns)
    if opening and "double" in views and record.moves and has_exchange:
        tasks.append(_opening_task(record))
    _complete_tasks(tasks, views, budget, seed, spec)
    t0 = time.perf_counter()
    answers = run_tasks(value_task, tasks, jobs=jobs, dask=dask, progress=progress)
    seconds = time.perf_counter() - t0
    by_key = {a["key"]: a for a in answers}
    for a in answers:
        notes.extend(a["notes"])
    _play_valuations(decisions, by_key)
    end = final_state(record)        # the deal's one replay to its end (DealState)
    _fill_forced(decisions, views, end)
    start = _start_value(decisions)
    _exchange_valuations(decisions, by_key, at_start, start)
    for t in tasks:
        if t["kind"] == "play":
            places[t["key"]] = t["state"]
    if check_factor is not None:
        checks = _check_tasks(decisions, places, record, budget, seed, spec, check_factor)
        answers = run_tasks(check_task, checks, jobs=jobs, dask=dask, progress=progress)
        for t, a in zip(checks, answers):
            confirm(getattr(decisions[t["key"][0]], t["view"]), a, check_factor)
    lines = _line_tasks(decisions, places, record, budget, spec)
    if lines:
        answers = run_tasks(line_task, lines, jobs=jobs, dask=dask, progress=progress)
        for t, a in zip(lines, answers):
            getattr(decisions[t["key"][0]], t["view"]).line = a["line"]
    op = _opening_values(start, by_key, has_exchange) if opening \
        else {"deal": None, "start": None, "exchange": None}
    if playouts is not None:            # the deterministic mode carries no times at all
        for d in decisions:
            for val in (d.double, d.single):
                if val is not None:
                    val.seconds = None
    if "double" in views:
        unproven = sum(1 for d in decisions if d.double is not None and not d.double.exact)
        if unproven:
            notes.append(("estimated", {"n": unproven}))
    exchange = _review_exchange(record) if tribute else []
    return Analysis(record=record, decisions=decisions, exchange=exchange,
                    result=end.result(), finished=end.finished, opening=op, notes=notes,
                    settings={"views": list(views), "budget": budget, "playouts": playouts,
                              "seed": seed, "solve_cards": solve_cards,
                              "check_factor": check_factor,
                              "tiers": {name: least for name, least in TIERS},
                              "unclear_width": UNCLEAR_WIDTH,
                              "seconds": None if playouts is not None else round(seconds, 2)})


def _check_factor(factor) -> Optional[float]:
    if factor is None:
        return None
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) \
            or not 10 <= factor <= 1000:
        raise ReviewError(f"check_factor must be a number 10..1000 (or None), not {factor!r}")
    return float(factor)


def _check_tasks(decisions: list, places: dict, record: Record, budget: float, seed: int,
                 spec: dict, factor: float) -> list:
    """The re-check of every candidate mark (``judge.nominated``: a
    ``"likely"`` mark at the screening budget, or a single-dummy move the
    screening's paired values found ``NOMINATE`` levels worse): the best
    move (``best[0]``, the move the position is worth: the top mean for the
    mover, or the single-dummy view's choice) and the move played, the
    positions after them (double-dummy) or what the mover knew
    (single-dummy), a fresh seed per decision and view."""
    out = []
    for d in decisions:
        for view in VIEWS:
            v = getattr(d, view)
            if v is None or v.chosen is None or not nominated(v, d.seat):
                continue
            best = v.best[0].move       # the position's move (judge): the top mean,
            #                             or the single-dummy view's choice
            t = {"key": (d.index, view), "view": view, "kind": d.kind, "seat": d.seat,
                 "budget": budget, "factor": factor, "engines": spec, "moves": [best, d.move],
                 "seed": decision_seed(seed, 200_000 + 2 * d.index + (view == "single"))}
            if view == "double":
                place = places[d.index]     # every decision valued in double has its place
                if d.kind == "play":
                    t["states"] = [place.apply(best), place.apply(d.move)]
                else:
                    pick = lambda m: next(st for c, st in place["states"]  # noqa: E731
                                          if same_move(c, m))
                    t["states"] = [pick(best), pick(d.move)]
            elif d.kind == "play":
                t["record"], t["move_index"] = record, d.move_index
                # the choice and the screening's next best moves (the move
                # played apart): the check chooses among them again
                t["candidates"] = [best] + [
                    m.move for m in v.moves
                    if not same_move(m.move, best) and not same_move(m.move, d.move)
                ][:CHECK_MOVES - 1]
            else:
                t["seat_view"] = places[d.index]["seat"]
            out.append(t)
    return out


def _line_tasks(decisions: list, places: dict, record: Record, budget: float,
                spec: dict) -> list:
    """The better line of every mark (``analysis.engines.line_task``): the
    first of the view's best moves, applied to the position of the
    decision (for a tribute or a return: the start of the play after the
    exchange with that card), and the line from there."""
    out = []
    for d in decisions:
        for view in VIEWS:
            v = getattr(d, view)
            if v is None or not v.mistake or not (v.best or v.moves):
                continue
            best = (v.best or v.moves)[0].move
            t = {"key": (d.index, view), "view": view, "kind": d.kind, "seat": d.seat,
                 "move": best, "budget": budget, "engines": spec,
                 "proven": view == "double" and v.mistake == "proven"}
            if d.kind == "play":
                t["after"] = places[d.index].apply(best)
                t["record"], t["move_index"] = record, d.move_index
            else:
                start = _exchange_start(record, d, best)
                if start is None:
                    continue
                t["after"], t["exchange"] = start
            out.append(t)
    return out


def _exchange_start(record: Record, d: Decision, card):
    """(the start of the play, (tributes, returns)) after the exchange of
    the record with ``card`` given at tribute or return decision ``d``;
    None when that exchange cannot be made."""
    same = [t for t in (record.tributes if d.kind == "tribute" else record.returns)]
    which = next((i for i, t in enumerate(same) if t.giver == d.seat and same_move(t.card, d.move)),
                 None)
    if which is None or record.leader is None:
        return None
    tributes, returns = list(record.tributes), list(record.returns)
    swap = tributes if d.kind == "tribute" else returns
    swap[which] = type(swap[which])(swap[which].giver, swap[which].receiver, card)
    try:
        hands = exchanged([list(h) for h in record.hands], tributes + returns)
    except ValueError:
        return None
    return (GameState.start([sorted(x) for x in hands], record.rules, record.leader),
            (tributes, returns))


def _check_options(views, budget, seed) -> tuple:
    """The views as a tuple, the budget and the seed checked (ReviewError)."""
    if isinstance(views, str):
        views = (views,)                  # one view by its name
    if not isinstance(views, (tuple, list, set, frozenset)):
        raise ReviewError(f"views: 'double' and/or 'single' in a tuple, not {views!r}"[:100])
    views = tuple(views)
    for v in views:
        if v not in VIEWS:
            raise ReviewError(f"views: unknown view {v!r}: use 'double' and/or 'single'"[:100])
    views = tuple(dict.fromkeys(views))      # each view once, in the order given
    if not views:
        raise ReviewError("views: give 'double' and/or 'single'")
    check_budget(budget)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
        raise ReviewError(f"seed must be an integer 0..2**31-1, not {seed!r}")
    return views


def _check_record(record) -> None:
    """A Record whose moves replay (each legal in turn): else the replay's
    own error (DealError...), or a ReviewError for what is no record."""
    if not isinstance(record, Record):
        raise ReviewError(f"record: a Record (formats.record.load), not "
                          f"{type(record).__name__}")
    try:
        final_state(record)
    except GuandanError:
        raise
    except (AttributeError, TypeError, ValueError, IndexError, KeyError) as e:
        raise ReviewError(f"record: its moves do not replay ({type(e).__name__}: {e})"[:160]) \
            from None


def _import_notes(record: Record) -> list:
    """The record's own notes (e.g. a lenient platform import's deviations)."""
    if not record.tags.get("notes"):
        return []
    return [("import", {"text": n}) for n in str(record.tags["notes"]).split("; ") if n]


def _exchange_decisions(record: Record, views: tuple, spec: dict, decisions: list,
                        tasks: list, places: dict) -> set:
    """The tribute and return decisions and their tasks, appended; returns
    the indices of those whose card given leads to the start of the play,
    which the first play decision values: it is valued there, once
    (_exchange_valuations)."""
    from .exchange import exchange_seat
    at_start: set = set()
    for kind, transfers in (("tribute", record.tributes), ("return", record.returns)):
        for i, t in enumerate(transfers):
            d = Decision(index=len(decisions), kind=kind, seat=t.giver, move=t.card,
                         cards_left=108, hands=_hands_before_exchange(record, kind, i))
            states = _exchange_positions(record, i, kind) if "double" in views else []
            seat = exchange_seat(record, kind, i)
            places[d.index] = {"states": list(states), "seat": seat}
            d.legal = len(states) if "double" in views else len(seat.candidates)
            if record.moves and any(same_move(c, t.card) for c, _ in states):
                at_start.add(d.index)
                states = [(c, st) for c, st in states if not same_move(c, t.card)]
            single = "single" in views and spec["estimator"] is not None
            decisions.append(d)
            if states or single:
                tasks.append({"key": d.index, "kind": kind, "states": states,
                              "seat": seat if single else None,
                              "label": {"kind": kind, "i": i + 1}})
    return at_start


def _play_decisions(record: Record, min_plays: bool, decisions: list, tasks: list) -> None:
    """The play decisions (with the minimum plays of the mover's hand before
    and after the move) and their tasks, appended."""
    from ..engine.decomposition import min_plays as mp
    rules = record.rules
    for step in replay(record):
        st, move = step.state, step.move
        hand = st.cards(move.seat)
        d = Decision(index=len(decisions), kind="play", seat=move.seat, move=move.play,
                     move_index=step.index, table=st.table, cards_left=st.cards_left(),
                     hands=[st.cards(s) for s in range(4)], legal=len(st.legal_actions()))
        if min_plays:
            d.min_plays_before = mp(hand, rules)
            rest = list(hand)
            if move.play is not None:
                for c in move.play.cards:
                    rest.remove(c)
            d.min_plays_after = mp(rest, rules) if rest else 0
            if d.min_plays_after >= d.min_plays_before:     # not one play of a minimal partition
                d.breaks = structure_dict(broken(hand, move.play, rules))
        decisions.append(d)
        tasks.append({"key": d.index, "kind": "play", "state": st, "record": record,
                      "move_index": step.index, "forced": d.forced,
                      "label": {"kind": "play", "i": step.index + 1}})


OPENING_KEY = "opening:deal"


def _opening_task(record: Record) -> dict:
    """The task of the opening value of the hands as dealt (no exchange, the
    same leader); the value at the start of the play is the first play
    decision's own (_start_value)."""
    assert record.leader is not None  # asked for a record with moves only
    state = GameState.start([sorted(h) for h in record.hands], record.rules, record.leader)
    return {"key": OPENING_KEY, "kind": "opening", "states": [(None, state)],
            "label": {"kind": "opening", "i": "deal"}}


def _complete_tasks(tasks: list, views: tuple, budget: float, seed: int, spec: dict) -> None:
    """What every task shares: the views, the budget, the engines, and its
    own seed (``decision_seed``)."""
    for k, t in enumerate(tasks):
        t["views"] = views
        t["budget"] = budget
        t["seed"] = decision_seed(seed, t["key"] if isinstance(t["key"], int) else 100_000 + k)
        t["engines"] = spec


def _play_valuations(decisions: list, by_key: dict) -> None:
    """Judge the play decisions, per view, from their tasks' answers."""
    for d in decisions:
        a = by_key.get(d.index)
        if a is None or d.kind != "play":
            continue
        for view in VIEWS:
            got = a.get(view)
            if got is None:
                continue
            moves, method, secs = got
            position = a.get("position") if view == "single" else None
            val = judge(view, moves, d.move, d.seat, position=position)
            val.method, val.seconds = method, secs
            setattr(d, view, val)


def _opening_values(start: Optional[MoveValue], by_key: dict, has_exchange: bool) -> dict:
    """The opening values: ``start``, the start of the play; ``deal``, the
    hands as dealt (the start itself without an exchange); ``exchange``,
    what the exchange changed (``engine.value.difference``)."""
    op: dict = {"deal": None, "start": None, "exchange": None}
    if start is None:
        return op
    op["start"] = start
    if not has_exchange:
        op["deal"] = op["start"]
    else:
        a = by_key.get(OPENING_KEY)
        if a and a.get("double"):
            op["deal"] = a["double"][0][0]
            op["exchange"] = difference(op["start"], op["deal"])
    return op


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
                moves = list(moves) + [start.with_move(d.move)]
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
    return position_value(first.double.moves, team(first.seat))


def _hands_before_exchange(record: Record, kind: str, i: int) -> list:
    done = list(record.tributes) + list(record.returns[:i]) if kind == "return" else []
    return [sorted(h) for h in exchanged(record.hands, done)]


def _fill_forced(decisions: list, views, end: GameState) -> None:
    """A forced move (the one legal move) is worth the position after it:
    the next decision's value, or the result at the end of the deal (a
    backward pass, so a run of forced moves takes the value after it)."""
    if "double" not in views:
        return
    plays = [d for d in decisions if d.kind == "play"]
    for i in range(len(plays) - 1, -1, -1):
        d = plays[i]
        if not d.forced or d.double is not None:
            continue
        if i + 1 < len(plays):
            nxt = plays[i + 1].double
            if nxt is None or not nxt.moves:
                continue
            nxt_value = position_value(nxt.moves, team(plays[i + 1].seat))
            assert nxt_value is not None  # nxt.moves is not empty
            mv = nxt_value.with_move(d.move)
        elif (result := end.result()) is not None:    # the deal is over
            mv = MoveValue.proven(d.move, float(result))
        else:
            continue
        d.double = judge("double", [mv], d.move, d.seat)
        d.double.method = "forced"
        d.double.unclear, d.double.unclear_by = False, None    # not judged, so never unclear


def _review_exchange(record: Record) -> list:
    """The tribute and the return against the tribute advice."""
    if not record.tributes:
        return []
    from ..bots.advice import suggest_return, suggest_tribute
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
