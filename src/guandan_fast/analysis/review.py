"""Post-game analysis of a deal record: where was the deal lost?

``analyse(record)`` replays the deal (``record.replay``) and, for each
decision, records the mover's minimum plays before and after the move
(``min_plays``, exact); once the cards left are within the solver's reach
(``solve_cards`` cards in all four hands, and a node/time budget per
position) the double-dummy value (RULES 8) of every legal move, from
``endgame.solve``. A move *lost value* when the best move's value, for the
mover's team, is higher than the chosen one's; the first such move of each
player is their *first mistake*. The tribute and the return cards are
reviewed with the tribute advice (``suggest_tribute``/``suggest_return``,
the other hand known).

This module is the one place that calls the decomposition, endgame and
tribute engines. When one is missing (not built, not merged), its part is
skipped and ``Analysis.notes`` says so; a solver can also be injected
(``solver=``: a callable ``(state, max_nodes, max_seconds) -> result`` with
``.value``, ``.exact`` and ``.moves``, as ``tests/minimax.py`` does).

Values are always team 0's level gain (+3..-3); ``loss`` is counted for
the mover's team (positive = the move gave away that many levels).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import GuandanError
from ..game.state import GameState, team
from ..formats.record import Record, replay

__all__ = ["analyse", "Analysis", "Decision", "ExchangeReview", "default_solver",
           "DEFAULT_SOLVE_CARDS", "DEFAULT_MAX_SECONDS"]

DEFAULT_SOLVE_CARDS = 24
DEFAULT_MAX_SECONDS = 2.0


def _play_dict(play) -> Optional[dict]:
    if play is None:
        return None
    return {"cards": str(play), "type": play.type, "rank": play.rank}


def _fmt_value(v) -> Optional[int]:
    return None if v is None else int(v)


@dataclass
class Decision:
    """One decision of the deal and what the engines say about it."""

    index: int
    seat: int
    play: Optional[object]               # the Play made, None for a pass
    table: Optional[object]              # the standing play, None on a lead
    cards_left: int                      # in all four hands, before the move
    hand: list                           # the mover's cards before the move
    min_plays_before: Optional[int] = None
    min_plays_after: Optional[int] = None
    solved: bool = False
    exact: bool = False
    value: Optional[int] = None          # of the position (perfect play from here)
    chosen_value: Optional[int] = None
    best_value: Optional[int] = None
    best_moves: list = field(default_factory=list)
    moves: list = field(default_factory=list)    # (play or None, value) per legal move
    loss: int = 0
    first_mistake: bool = False
    nodes: Optional[int] = None
    seconds: Optional[float] = None

    @property
    def mistake(self) -> bool:
        return self.loss > 0

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "index": self.index, "seat": self.seat, "play": _play_dict(self.play),
            "table": _play_dict(self.table), "cards_left": self.cards_left,
            "hand": " ".join(map(str, self.hand)),
            "min_plays_before": self.min_plays_before, "min_plays_after": self.min_plays_after,
            "solved": self.solved,
        }
        if self.solved:
            d.update({
                "exact": self.exact, "value": _fmt_value(self.value),
                "chosen_value": _fmt_value(self.chosen_value),
                "best_value": _fmt_value(self.best_value),
                "best_moves": [_play_dict(p) or "pass" for p in self.best_moves],
                "moves": [{"play": _play_dict(p) or "pass", "value": _fmt_value(v)}
                          for p, v in self.moves],
                "loss": self.loss, "mistake": self.mistake, "first_mistake": self.first_mistake,
                "nodes": self.nodes, "seconds": None if self.seconds is None else round(self.seconds, 4),
            })
        return d


@dataclass
class ExchangeReview:
    """A tribute or return card checked against the advice."""

    kind: str                      # "tribute" or "return"
    giver: int
    receiver: int
    card: object
    choices: list                  # the advice, best first (TributeAdvice)
    chosen_index: int              # where the card played stands in the advice
    mistake: bool                  # a strictly better card was available
    reason: str = ""

    @property
    def best(self):
        return self.choices[0] if self.choices else None

    def to_dict(self, lang: str = "en") -> dict:
        reason = self.reason
        if self.chosen_index >= 0 and lang != "en":
            try:
                from ..game.tribute import advice_reason
                reason = advice_reason(self.choices[self.chosen_index], lang)
            except ImportError:  # pragma: no cover
                pass
        return {
            "kind": self.kind, "giver": self.giver, "receiver": self.receiver,
            "card": str(self.card), "best": str(self.best.card) if self.best else None,
            "chosen_index": self.chosen_index, "mistake": self.mistake, "reason": reason,
            "choices": [c.to_dict(lang) for c in self.choices],
        }


@dataclass
class Analysis:
    record: Record
    decisions: list
    exchange: list                  # ExchangeReview
    result: Optional[int]
    finished: tuple
    first_mistakes: dict            # seat -> decision index
    notes: list
    settings: dict

    def mistakes(self) -> list:
        return [d for d in self.decisions if d.mistake]

    def to_dict(self, lang: str = "en") -> dict:
        rec = self.record
        return {
            "tags": dict(rec.tags), "level": rec.rules.level,
            "players": rec.players or [f"seat {s}" for s in range(4)],
            "hands": [" ".join(map(str, h)) for h in rec.hands],
            "hands_after_tribute": [" ".join(map(str, h)) for h in rec.hands_after_tribute()],
            "anti_tribute": rec.anti_tribute,
            "result": self.result, "finished": list(self.finished),
            "decisions": [d.to_dict() for d in self.decisions],
            "exchange": [e.to_dict(lang) for e in self.exchange],
            "first_mistakes": {str(k): v for k, v in sorted(self.first_mistakes.items())},
            "mistakes": [d.index for d in self.mistakes()],
            "notes": list(self.notes), "settings": dict(self.settings),
        }


# -- the engines, in one place ---------------------------------------------------

def _min_plays_fn():
    try:
        from ..engine.decomposition import min_plays
    except ImportError:
        return None
    return min_plays


def default_solver(threads: int = 1) -> Optional[Callable]:
    """``endgame.solve`` as a callable on a GameState (with ``threads``
    threads), or None when the endgame solver is not available."""
    try:
        from ..engine.endgame import Position, solve
    except ImportError:
        return None

    def run(state: GameState, max_nodes=None, max_seconds=None):
        pos = Position([state.cards(s) for s in range(4)], state.rules, turn=state.turn,
                       table=state.table, owner=state.owner, passes=state.passes,
                       finished=state.finished)
        return solve(pos, max_nodes=max_nodes, max_seconds=max_seconds, threads=threads)
    return run


def _tribute_fns():
    try:
        from ..game.tribute import suggest_return, suggest_tribute
    except ImportError:
        return None
    return suggest_tribute, suggest_return


def _advice_key(a) -> tuple:
    """What makes one advice strictly better than another (the tribute
    module's own order, without its final tie-breaks on the card)."""
    broke = len(getattr(a, "broken", [])) + (a.bombs_after < a.bombs_before)
    return (bool(getattr(a, "mistake", False)), a.net_plays, broke)


# -- analysis -------------------------------------------------------------------

def analyse(record: Record, *, solve_cards: int = DEFAULT_SOLVE_CARDS,
            max_seconds: Optional[float] = DEFAULT_MAX_SECONDS,
            max_nodes: Optional[int] = None, solver: Optional[Callable] = None,
            use_solver: bool = True, min_plays: bool = True, tribute: bool = True,
            lang: str = "en", threads: int = 1) -> Analysis:
    """Analyse a deal record (see the module docstring).

    ``solve_cards``: solve positions with at most this many cards left in
    the four hands; ``max_seconds``/``max_nodes``: the budget of each
    position (past it the solver's unproven answer is not used to mark
    mistakes); ``solver``: inject a solver; ``use_solver=False``,
    ``min_plays=False``, ``tribute=False`` turn parts off; ``threads``: the
    threads of each solve (``endgame.solve``), more positions proven within
    the budget.
    """
    notes: list = []
    if record.tags.get("notes"):       # e.g. a lenient platform import's deviations
        notes.extend(n for n in str(record.tags["notes"]).split("; ") if n)
    mp = _min_plays_fn() if min_plays else None
    if min_plays and mp is None:
        notes.append("minimum plays skipped: the decomposition engine is not available")
    if use_solver and solver is None:
        solver = default_solver(threads)
        if solver is None:
            notes.append("double-dummy values skipped: the endgame solver is not available")
    if not use_solver:
        solver = None
    rules = record.rules
    decisions = []
    unproven = 0
    for step in replay(record):
        st, move = step.state, step.move
        hand = st.cards(move.seat)
        d = Decision(index=step.index, seat=move.seat, play=move.play, table=st.table,
                     cards_left=st.cards_left(), hand=hand)
        if mp is not None:
            d.min_plays_before = mp(hand, rules)
            if move.play is None:
                d.min_plays_after = d.min_plays_before
            else:
                rest = list(hand)
                for c in move.play.cards:
                    rest.remove(c)
                d.min_plays_after = mp(rest, rules) if rest else 0
        if solver is not None and d.cards_left <= solve_cards:
            try:
                if _solve_decision(d, st, solver, max_nodes, max_seconds) is False:
                    unproven += 1
            except GuandanError as e:   # the solver refused the position: say so
                d.solved = False
                notes.append(f"move {step.index + 1}: the solver refused the position: {e}")
        decisions.append(d)
    first: dict = {}
    for d in decisions:
        if d.mistake and d.seat not in first:
            first[d.seat] = d.index
            d.first_mistake = True
    if unproven:
        notes.append(f"{unproven} position(s) not proven within the budget: not marked")
    if solver is not None and not any(d.solved for d in decisions):
        notes.append(f"no position had {solve_cards} cards or fewer left: no double-dummy values")
    exchange = _review_exchange(record, notes, lang) if tribute else []
    end = GameState.start(record.hands_after_tribute(), rules,
                          record.leader if record.leader is not None else 0)
    for m in record.moves:
        end = end.apply(m.play)
    return Analysis(record=record, decisions=decisions, exchange=exchange,
                    result=end.result(), finished=end.finished, first_mistakes=first,
                    notes=notes, settings={"solve_cards": solve_cards, "max_seconds": max_seconds,
                                           "max_nodes": max_nodes})


def _solve_decision(d: Decision, st: GameState, solver, max_nodes, max_seconds):
    t0 = time.perf_counter()
    res = solver(st, max_nodes=max_nodes, max_seconds=max_seconds)
    d.seconds = time.perf_counter() - t0
    d.nodes = getattr(res, "nodes", None)
    d.exact = bool(getattr(res, "exact", False))
    d.value = getattr(res, "value", None)
    moves = list(getattr(res, "moves", []) or [])
    d.moves = moves
    d.solved = True
    known = [(p, v) for p, v in moves if v is not None]
    chosen = [v for p, v in moves if _same(p, d.play)]
    if d.exact and known and (not chosen or chosen[0] is None):
        # the solver merged the move played into an equivalent one, or left
        # it unproven: value the position after it
        chosen = [_child_value(st, d.play, solver, max_nodes, max_seconds)]
    if not d.exact or not known or not chosen or chosen[0] is None:
        return False
    sign = 1 if team(d.seat) == 0 else -1
    best = max(sign * v for _, v in known)
    d.best_value = sign * best
    d.chosen_value = chosen[0]
    d.best_moves = [p for p, v in known if sign * v == best]
    d.loss = int(best - sign * d.chosen_value)
    return True


def _child_value(st: GameState, play, solver, max_nodes, max_seconds) -> Optional[int]:
    child = st.apply(play)
    if child.over:
        return child.result()
    res = solver(child, max_nodes=max_nodes, max_seconds=max_seconds)
    return res.value if getattr(res, "exact", False) else None


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a == b


def _review_exchange(record: Record, notes: list, lang: str) -> list:
    if not record.tributes:
        return []
    fns = _tribute_fns()
    if fns is None:
        notes.append("tribute review skipped: the tribute advice is not available")
        return []
    suggest_tribute, suggest_return = fns
    rules = record.rules
    hands = [list(h) for h in record.hands]
    out = []
    for t in record.tributes:
        advice = suggest_tribute(hands[t.giver], rules, receiver=hands[t.receiver])
        out.append(_review("tribute", t, advice, lang))
    for t in record.tributes:
        hands[t.giver].remove(t.card)
        hands[t.receiver].append(t.card)
    for r in record.returns:
        advice = suggest_return(sorted(hands[r.giver]), rules, receiver=sorted(hands[r.receiver]))
        out.append(_review("return", r, advice, lang))
    return out


def _review(kind: str, transfer, advice: list, lang: str = "en") -> ExchangeReview:
    idx = next((i for i, a in enumerate(advice) if a.card == transfer.card), -1)
    mistake = False
    reason = ""
    if advice and idx >= 0:
        chosen, best = advice[idx], advice[0]
        mistake = _advice_key(best) < _advice_key(chosen)
        reason = getattr(chosen, "reason", "")
    return ExchangeReview(kind=kind, giver=transfer.giver, receiver=transfer.receiver,
                          card=transfer.card, choices=advice, chosen_index=idx,
                          mistake=mistake, reason=reason)
