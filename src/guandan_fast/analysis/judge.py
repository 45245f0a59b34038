"""The review's rule for a mistake: the move played against the best moves.

``judge(view, moves, chosen_move, seat)`` compares the value of the move
played with the values of every candidate (``engine.value.MoveValue``, team
0's side) and says what one view of the review concludes (a
:class:`Valuation`). A move is a **mistake** only when its loss is shown:
``"proven"`` when the values of the move played and of the best move are
both exact, or when proven bounds separate them; ``"estimated"`` when their
confidence intervals do not overlap. ``best`` lists every best move (pass
included): the moves of the best exact value, the moves proven better, or,
for estimates, every move whose interval lies above the move played and
overlaps the top one.

The position's value is ``engine.value.position_value`` of the moves (the
top mean), or, when the engine gives it apart (``judge(..., position=)``:
the single-dummy view's choice valued on fresh deals), that value and its
move: then the loss, the candidate mark and ``best[0]`` (the move a
re-check compares with the one played) are all against that move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..engine.value import MoveValue, _r, loss, position_value
from ..game.state import team

__all__ = ["Valuation", "judge", "same_move", "confirm", "nominated", "tier_of", "TIERS",
           "UNCLEAR_WIDTH", "NOMINATE"]

# the tiers of a mark, by its loss in levels (for the mover's team), largest first
TIERS = (("blunder", 1.5), ("mistake", 0.7), ("inaccuracy", 0.3))
UNCLEAR_WIDTH = 3.0     # a loss interval wider than this (levels) says nothing: "unclear"
NOMINATE = 0.15         # a screening's paired loss from which a move is re-checked (levels)


def tier_of(loss: float) -> Optional[str]:
    """The tier of a loss of ``loss`` levels, None below the least.

    >>> tier_of(0.2), tier_of(0.3), tier_of(1.0), tier_of(4)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for name, least in TIERS:
        if loss >= least - 1e-9:
            return name
    return None


@dataclass
class Valuation:
    """What one view says about one decision."""

    view: str                        # "double" or "single"
    moves: list                      # MoveValue, best first for the mover
    chosen: Optional[MoveValue]      # the move played (None: not among the moves)
    value: Optional[float] = None    # the position (the best move's mean; judge's position=)
    exact: bool = False              # every value here is proven
    best: list = field(default_factory=list)     # the best moves (MoveValue)
    loss: float = 0.0                # for the mover's team: the estimated mean (engine.value.loss)
    loss_low: float = 0.0            # its interval
    loss_high: float = 0.0
    loss_proven: float = 0.0         # the part of it the proven bounds show
    mistake: Optional[str] = None    # None, "proven" or "likely"
    tier: Optional[str] = None       # a mark's tier (TIERS)
    unclear: bool = False            # the loss's interval too wide to say anything
    unclear_by: Optional[dict] = None    # the interval that decided it (_unclear)
    check: Optional[dict] = None     # the re-check of a candidate mark (confirm)
    method: str = ""                 # "solve", "estimate", "suggest", "forced"
    seconds: Optional[float] = 0.0   # None in the deterministic mode
    line: Optional[dict] = None      # a mark's better line (analysis.engines.line_task)

    def to_dict(self) -> dict:
        return {"view": self.view, "method": self.method, "value": _r(self.value),
                "exact": self.exact, "chosen": self.chosen.to_dict() if self.chosen else None,
                "best": [m.to_dict() for m in self.best], "loss": _r(self.loss),
                "loss_low": _r(self.loss_low), "loss_high": _r(self.loss_high),
                "loss_proven": _r(self.loss_proven),
                "mistake": self.mistake, "tier": self.tier, "unclear": self.unclear,
                "unclear_by": self.unclear_by,
                "check": self.check, "moves": [m.to_dict() for m in self.moves],
                "seconds": None if self.seconds is None else round(self.seconds, 3),
                "line": self.line}


def same_move(a, b) -> bool:
    """One move: equal, or two plays of one pattern (the solver's moves are
    patterns, played with the cards its enumeration chose)."""
    if a is None or b is None:
        return a is None and b is None
    if hasattr(a, "pattern") and hasattr(b, "pattern"):
        return a == b or (a.pattern == b.pattern)
    return a == b


def judge(view: str, moves: list, chosen_move, seat: int,
          position: Optional[MoveValue] = None) -> Valuation:
    """Compare the move played with the best ones (the module docstring's
    rule). ``moves``: MoveValue of every candidate (team 0's side), any
    order.

    ``position``: the position's value when the engine gives it apart from
    the moves' (the single-dummy view: the evaluator's choice, ``move`` set
    to it, valued on deals of its own: ``bots.search.evaluate_position``).
    The position is then worth that, the choice is the first best move (the
    one a re-check re-values), and the loss of a move is the position's
    value minus the move's (0 for the choice itself). Without it (the
    double-dummy view) the position is ``position_value`` of the moves."""
    mover = team(seat)
    sign = 1 if mover == 0 else -1
    moves = sorted(moves, key=lambda m: -sign * m.mean)
    chosen = next((m for m in moves if same_move(m.move, chosen_move)), None)
    v = Valuation(view=view, moves=moves, chosen=chosen)
    if not moves:
        return v
    if position is not None:
        return _judge_at(v, position, mover)
    top = moves[0]                    # the best mean for the mover: position_value's
    pos = position_value(moves, mover)
    assert pos is not None  # moves is not empty
    v.value = pos.mean
    v.exact = all(m.exact for m in moves)
    if chosen is None:
        v.best = [top]
        return v
    t, c = top.pov(mover), chosen.pov(mover)
    v.loss, v.loss_low, v.loss_high, v.loss_proven = loss(pos, chosen, mover)
    if chosen.exact and top.exact:
        v.best = [m for m in moves if m.exact and m.mean == top.mean]
        if t.mean > c.mean:
            v.mistake = "proven"
            v.tier = tier_of(v.loss_proven) or TIERS[-1][0]
        return v
    # the proven bounds separate: the loss is proven, its size estimated
    proven_better = [m for m in moves if m.pov(mover).proven_low > c.proven_high]
    if proven_better:
        v.mistake = "proven"
        v.tier = tier_of(v.loss_proven) or TIERS[-1][0]
        v.best = proven_better
        return v
    # an estimate with an interval of no width is not a confidence interval
    # (e.g. one sampled deal): it cannot show a loss
    degenerate = any(not m.exact and m.low == m.high for m in (top, chosen))
    if t.low > c.high and not degenerate:
        v.mistake = "likely"          # a candidate, until confirm() re-checks it
        v.tier = tier_of(v.loss) or TIERS[-1][0]     # every mark has a tier, as a proven one
        v.best = [m for m in moves if m.pov(mover).low > c.high
                  and m.pov(mover).high >= t.low]
    else:
        v.best = [m for m in moves if m.exact and top.exact and m.mean == top.mean] or [top]
        _unclear(v, top, chosen)
    return v


def _judge_at(v: Valuation, position: MoveValue, mover: int) -> Valuation:
    """``judge`` with the position's value given (``judge``'s docstring):
    the value is the position's, the choice (its MoveValue among the
    moves, the screening's) is ``best[0]``; a candidate mark when the
    position's interval lies above the move played (two independent
    estimates: the fresh deals and the screening's)."""
    moves, chosen = v.moves, v.chosen
    choice = next((m for m in moves if same_move(m.move, position.move)), None)
    top = choice if choice is not None else position
    v.value = position.pov(0).mean
    v.exact = position.exact and all(m.exact for m in moves)
    if chosen is None:
        v.best = [top]
        return v
    if same_move(chosen.move, position.move):
        v.best = [top]                    # the choice played: no loss
        _unclear(v, position, chosen)
        return v
    p, c = position.pov(mover), chosen.pov(mover)
    v.loss, v.loss_low, v.loss_high, v.loss_proven = loss(position, chosen, mover)
    if p.exact and chosen.exact:
        v.best = [top] + [m for m in moves if m.exact and m is not top and m.mean == top.mean]
        if p.mean > c.mean:
            v.mistake = "proven"
            v.tier = tier_of(v.loss_proven) or TIERS[-1][0]
        return v
    if p.proven_low > c.proven_high:
        v.mistake = "proven"
        v.tier = tier_of(v.loss_proven) or TIERS[-1][0]
        v.best = [top]
        return v
    degenerate = any(not m.exact and m.low == m.high for m in (p, c))
    if p.low > c.high and not degenerate:
        v.mistake = "likely"          # a candidate, until confirm() re-checks it
        v.tier = tier_of(v.loss) or TIERS[-1][0]
        v.best = [top] + [m for m in moves if m is not top and m.pov(mover).low > c.high
                          and m.pov(mover).high >= p.low]
    else:
        v.best = [top]
        _unclear(v, position, chosen)
    return v


def nominated(v: Valuation, seat: int) -> bool:
    """Whether the re-check (``confirm``) values this decision: a candidate
    mark (``"likely"``), or, in a view that gives the position apart (the
    single-dummy view's choice), a move played that the screening valued
    on the same deals as the choice and found ``NOMINATE`` levels or more
    worse (the difference of the two means on those deals: the mean of the
    paired differences). The candidate rule alone (two independent
    intervals that do not overlap) misses a loss of half a level about as
    often as it finds it at the screening's budget; the paired difference
    has a fraction of that noise, and the re-check, not the screening,
    decides the mark (a nominated move is never marked unchecked).

    >>> top = MoveValue("a", 0.5, -0.4, 1.4, samples=80)
    >>> played = MoveValue("b", 0.2, -0.7, 1.1, samples=80)
    >>> v = judge("single", [top, played], "b", seat=0,
    ...           position=MoveValue("a", 0.45, -0.4, 1.3))
    >>> v.mistake, nominated(v, 0), nominated(v, 1)
    (None, True, False)
    """
    if v.mistake == "likely":
        return True
    if v.view != "single" or v.mistake is not None or v.chosen is None or not v.best:
        return False
    top, chosen = v.best[0], v.chosen
    if top is chosen or top.exact or chosen.exact or not top.valued or not chosen.valued \
            or top.samples != chosen.samples:
        return False
    mover = team(seat)
    return top.pov(mover).mean - chosen.pov(mover).mean >= NOMINATE - 1e-9


def _unclear(v: Valuation, position: MoveValue, chosen: MoveValue) -> None:
    """``unclear`` when the interval of the position's value (the best
    move's, or the single-dummy view's choice on fresh deals) or of the
    move played is wider than ``UNCLEAR_WIDTH`` (``_wide``); ``unclear_by``
    says which, with that interval (team 0's side, as the values): the
    report shows the interval that decides, not another."""
    wide = [(what, m) for what, m in (("position", position), ("move", chosen)) if _wide(m)]
    v.unclear = bool(wide)
    if wide:
        what, m = max(wide, key=lambda wm: wm[1].high - wm[1].low)
        v.unclear_by = {"what": what, "low": _r(m.low), "high": _r(m.high)}


def _wide(m: MoveValue) -> bool:
    """An estimate whose own interval is wider than ``UNCLEAR_WIDTH``: it
    cannot tell an accurate move from a blunder. (The loss's own interval,
    the conservative difference of two intervals, would be about twice as
    wide: it is not the test.)"""
    return not m.exact and m.high - m.low > UNCLEAR_WIDTH


def confirm(v: Valuation, check: dict, factor: float) -> Valuation:
    """A candidate mark (``judge``'s ``"likely"``) after its re-check
    (``analysis.engines.check_task``: the loss re-valued at ``factor``
    times the budget, ``loss``, ``low``, ``high``): the loss shown is the
    re-checked one; the mark stays (``"likely"``, tier by the re-checked
    mean) only when the whole interval lies above 0, is no wider than
    ``UNCLEAR_WIDTH``, has a width (an interval of no width that is not a
    proof is no confidence interval: it never counts) and the loss reaches
    a tier; else no mark (and ``unclear`` when the interval is too wide).
    A check whose two values are both proven (``exact``) proves the loss:
    a ``"proven"`` mark when it is above 0. A failed check (``error``)
    removes the mark: only a checked mark is shown. A check that chose
    among several best moves (``best``) puts its choice first in ``best``
    (the move the loss is measured against, and the better line's)."""
    screened = {"loss": _r(v.loss), "loss_low": _r(v.loss_low), "loss_high": _r(v.loss_high)}
    v.check = {"factor": factor, "screened": screened, "confirmed": False,
               "samples": check.get("samples"), "paired": bool(check.get("paired")),
               "error": check.get("error")}
    if "error" in check:
        v.mistake, v.tier = None, None
        return v
    if "best" in check:
        # the check chose among the screening's best moves: its choice first
        chosen = next((m for m in v.moves if same_move(m.move, check["best"])), None)
        if chosen is not None:
            v.best = [chosen] + [m for m in v.best if m is not chosen]
    v.loss = max(v.loss_proven, float(check["loss"]))
    v.loss_low = max(v.loss_proven, min(v.loss, float(check["low"])))
    v.loss_high = max(v.loss, float(check["high"]))
    if check.get("exact"):
        if check.get("proven") is not None and v.best:       # the better move's value, proven
            top = check["proven"].with_move(v.best[0].move)
            v.moves = [top if m is v.best[0] else m for m in v.moves]
            v.best = [top] + v.best[1:]
        v.loss_proven = v.loss_low = v.loss_high = v.loss
        v.check["confirmed"] = v.loss > 0
        v.mistake = "proven" if v.loss > 0 else None
        v.tier = (tier_of(v.loss) or TIERS[-1][0]) if v.loss > 0 else None
        return v
    tier = tier_of(v.loss)
    wide = float(check["high"]) - float(check["low"]) > UNCLEAR_WIDTH
    flat = float(check["high"]) <= float(check["low"])
    v.unclear, v.unclear_by = False, None
    if float(check["low"]) > 0 and not wide and not flat and tier is not None:
        v.mistake, v.tier = "likely", tier
        v.check["confirmed"] = True
    else:
        v.mistake, v.tier = None, None
        v.unclear = wide
        if wide:
            v.unclear_by = {"what": "loss", "low": _r(float(check["low"])),
                            "high": _r(float(check["high"]))}
    return v
