"""The single-dummy value of a tribute or return decision: from the giver's seat.

A tribute or return card is valued by the position at the start of the play
it leads to, as the giver could see it at the moment of choosing:

- **what the giver knows** (``ExchangeSeat``, built by ``exchange_seat``
  from the record and holding nothing else): its own hand, the level, the
  previous deal's finishing order (so who pays whom, RULES 7) and that no
  anti-tribute was declared (the paying side does not hold both big
  jokers). A payer knows nothing more before paying: in a double down the
  two tributes are paid at once. A returner holds the tribute it received
  and has seen every tribute (who paid what to whom), so it knows where the
  other tribute card is and that each payer held nothing above its tribute,
  wilds apart (``game.view.View``, phase ``"return"``); the two returns of a
  double down are given at once, so the other return is unknown to it.
- **the hidden hands** are drawn by ``game.view.sample_deals`` from that
  View, uniformly among the deals consistent with it; a draw in which the
  paying side holds both big jokers (which the View cannot express) is
  rejected and drawn again, which keeps the draw uniform on the rest.
- **the rest of the exchange**, the decisions the giver cannot see, follows
  one fixed policy on each drawn deal: every other tribute and every other
  return is the tribute advice's first card from that seat's own hand
  (``suggest_tribute`` / ``suggest_return`` without the receiver's hand,
  which that seat cannot see): GreedyBot's choice, and SearchBot's return
  after a double down (the policy returns by its rollouts). Who
  receives which tribute and who leads come from ``game.tribute``
  (``tribute_plan``, ``tribute_leaders``) on the drawn hands.
- **the value** of each legal card (``tribute_candidates`` /
  ``return_candidates``) on each drawn deal is the perfect-information
  value of the start position (``value(state, seconds, seed)``: the
  review's ``analysis.engines._state_value``, i.e. the
  ``engine.value.position_value`` of the estimator's values: the best mean
  for the side to move, with that move's interval); every card is valued
  on the same deals. The values are averaged over the deals with a 95%
  interval combining the spread between deals with each deal's own
  half-width (``stats.deals_mean_ci``, as
  ``bots.search.evaluate_moves`` does for the play).

A record without ``previous`` has its finishing order rebuilt from the
exchange (``finishing_order``); where the record cannot tell (which payer
finished last, in a double down with unequal recorded tributes) the payer
of the higher tribute is taken as last: this matters only to a drawn deal
with equal tributes under ``equal_tribute_to_upper_hand=False``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .._core import Card
from ..bots.search import DEFAULT_SAMPLES, SAMPLE_SECONDS
from ..stats import deals_mean_ci
from ..engine.value import MoveValue
from ..game.record import Record, exchanged
from ..game.state import GameState, partner
from ..bots.advice import suggest_return, suggest_tribute
from ..game.tribute import (anti_tribute, return_candidates, tribute_candidates, tribute_leaders,
                            tribute_plan)
from ..game.view import View, sample_deals
from ..model.counts import from_counts
from ..model.rules import Rules

__all__ = ["ExchangeSeat", "exchange_seat", "finishing_order", "start_position",
           "exchange_values", "SAMPLE_SECONDS", "MAX_DEALS"]

# the least budget worth one estimate of a full deal, and the deals a
# decision takes at most: the bots' own (bots.search)
MAX_DEALS = DEFAULT_SAMPLES
MIN_CALL_SECONDS = 0.01   # an estimate gets at least this
_MAX_DRAWS = 50           # rejection: at most this many draws per deal wanted


@dataclass(frozen=True)
class ExchangeSeat:
    """What the giver of one tribute or return knows when it chooses
    (plain data: it goes to the worker processes).

    ``kind``: ``"tribute"`` or ``"return"``; ``seat``: the giver; ``hand``:
    its cards at the decision (a returner's includes the tribute it got);
    ``counts``: the cards each seat holds then; ``order``: the previous
    deal's finishing order, first to last; ``payments``: ``(payer,
    receiver)`` pairs, public before the tribute (for a double down before
    the tribute the receivers depend on the ranks paid: ``tribute_plan``
    decides on each deal); ``tributes``: the tributes seen, ``(giver,
    receiver, card)`` (empty for a payer); ``candidates``: the legal cards.
    """

    kind: str
    seat: int
    hand: tuple
    rules: Rules
    counts: tuple
    order: tuple
    payments: tuple
    tributes: tuple
    candidates: tuple

    def view(self) -> View:
        return View(self.seat, list(self.hand), self.rules, list(self.counts),
                    tributes=self.tributes, phase=self.kind)

    @property
    def payers(self) -> tuple[int, ...]:
        return tuple(p for p, _ in self.payments)


def finishing_order(record: Record) -> list[int]:
    """The previous deal's finishing order of a record with a tribute: its
    ``previous``, or rebuilt from the exchange (the module docstring)."""
    if record.previous:
        return list(record.previous)
    trs = list(record.tributes)
    if len(trs) == 1:
        t = trs[0]
        first, last = t.receiver, t.giver
        rest = sorted((s for s in range(4) if s not in (first, last)),
                      key=lambda s: s == partner(first))     # single down: 2nd not a partner
        return [first, rest[0], rest[1], last]
    a, b = trs
    oa, ob = record.rules.order(a.card.rank), record.rules.order(b.card.rank)
    if oa != ob:
        hi = a if oa > ob else b
    else:   # the payer to the first finisher leads
        hi = next((t for t in trs if t.giver == record.leader), a)
    lo = b if hi is a else a
    return [hi.receiver, lo.receiver, lo.giver, hi.giver]


def exchange_seat(record, kind: str, which: int) -> ExchangeSeat:
    """What the giver of tribute (``kind="tribute"``) or return number
    ``which`` of ``record`` knows at its decision (the module docstring)."""
    rules = record.rules
    hands = [list(h) for h in record.hands]
    payments = tuple((t.giver, t.receiver) for t in record.tributes)
    if kind == "tribute":
        seat = record.tributes[which].giver
        tributes: tuple = ()
        cands = tribute_candidates(hands[seat], rules)
    elif kind == "return":
        seat = record.returns[which].giver
        hands = exchanged(hands, record.tributes)
        tributes = tuple((t.giver, t.receiver, t.card) for t in record.tributes)
        cands = return_candidates(hands[seat], rules)
    else:
        raise ValueError(f"kind: 'tribute' or 'return', not {kind!r}")
    return ExchangeSeat(kind=kind, seat=seat, hand=tuple(sorted(hands[seat])), rules=rules,
                        counts=tuple(len(h) for h in hands), order=tuple(finishing_order(record)),
                        payments=payments, tributes=tributes, candidates=tuple(cands))


def _policy(kind: str, hand: list, rules: Rules, cache: Optional[dict]) -> Card:
    """The policy's card from ``hand`` (the advice's first), remembered in
    ``cache`` by the hand (the advice decomposes the hand once per legal
    card: the same hand recurs for every card of the giver on one deal)."""
    key = (kind, tuple(sorted(hand)))
    if cache is not None and key in cache:
        return cache[key]
    advise = suggest_tribute if kind == "tribute" else suggest_return
    card = advise(list(key[1]), rules)[0].card
    if cache is not None:
        cache[key] = card
    return card


def _consistent(seat: ExchangeSeat, hands: list) -> bool:
    """The drawn deal agrees with what the View cannot say: no anti-tribute
    (the payers' hands before paying hold at most one big joker)."""
    before = [list(hands[p]) for p in seat.payers]
    if seat.kind == "return":
        for (g, _r, c), h in zip(seat.tributes, before):
            h.append(c)
    return not anti_tribute(before, seat.rules)


def start_position(seat: ExchangeSeat, hands: Sequence[list], card: Card,
                   cache: Optional[dict] = None) -> GameState:
    """The start of the play when the giver gives ``card`` and the deal is
    ``hands`` (before the tribute for a payer, after it for a returner),
    the rest of the exchange by the module's policy (``cache``: a dict
    kept across the cards of one deal, to advise each hand once)."""
    rules = seat.rules
    h = [list(x) for x in hands]
    if seat.kind == "tribute":
        if len(seat.payments) == 1:
            pays, leader = list(seat.payments), seat.payments[0][0]
        else:   # the ranks paid decide the receivers (RULES 7)
            plan = tribute_plan(list(seat.order), [sorted(x) for x in h], rules)
            pays, leader = plan.payments, plan.leader
        for p, q in pays:
            c = card if p == seat.seat else _policy("tribute", h[p], rules, cache)
            h[p].remove(c)
            h[q].append(c)
        backs = [(q, p, _policy("return", h[q], rules, cache)) for p, q in pays]
    else:
        pays = [(g, r) for g, r, _ in seat.tributes]
        ranks = [c.rank for _, _, c in seat.tributes]
        leader = tribute_leaders(pays, ranks, rules, seat.order[0])[0]
        backs = [(q, p, card if q == seat.seat else _policy("return", h[q], rules, cache))
                 for p, q in pays]
    for g, r, c in backs:       # the returns are given at once
        h[g].remove(c)
    for g, r, c in backs:
        h[r].append(c)
    return GameState.start([sorted(x) for x in h], rules, leader)


def _deals(seat: ExchangeSeat, view: View, n: int, seed: int) -> list[list[list[Card]]]:
    """``n`` deals (lists of four card lists) drawn from the view, those
    with an anti-tribute rejected; fewer only if the draws run out."""
    out: list[list[list[Card]]] = []
    rng = random.Random(seed)
    tries = 0
    while len(out) < n and tries < _MAX_DRAWS * n:
        batch = sample_deals(view, n - len(out), seed=rng.randrange(2 ** 31))
        tries += len(batch)
        for d in batch:
            hands = [from_counts(x) for x in d]
            if _consistent(seat, hands):
                out.append(hands)
    return out


def exchange_values(seat: ExchangeSeat, value: Callable, *, seconds: float, seed: int,
                    min_seconds: float = 0.2, timed: bool = True) -> list:
    """A :class:`~guandan_fast.engine.value.MoveValue` for every legal card
    (team 0's values: the mean over the ``samples`` drawn deals and its 95%
    interval; ``exact`` when only one deal is possible and its value is
    proven), within about
    ``seconds`` in all: at least ``min_seconds`` per card, one deal per
    ``SAMPLE_SECONDS`` of a card's share (at most ``MAX_DEALS``), the
    estimates sharing what is left of the planned time after the drawing
    and the advice. ``value(state, seconds, seed)`` gives a position's
    value as a team 0 MoveValue, or None. An empty list when no deal could be
    valued. ``timed=False``: every call gets the planned time over the
    calls, not a share of what the clock has left (the review's
    deterministic mode, where the shares stand for playouts)."""
    cands = list(seat.candidates)
    if not cands:
        return []
    per_card = max(seconds / len(cands), min(seconds, min_seconds))
    deadline = time.perf_counter() + per_card * len(cands)
    n = max(1, min(MAX_DEALS, int(per_card / SAMPLE_SECONDS)))
    view = seat.view()
    perfect = view.perfect
    if perfect:
        n = 1
    deals = _deals(seat, view, n, seed)
    if not deals:
        return []
    # the estimates share what is left of the planned time (the drawing and
    # the advice for the unseen exchange are paid from it), none below
    # MIN_CALL_SECONDS
    calls = len(deals) * len(cands)
    vals: dict = {i: [] for i in range(len(cands))}
    halves: dict = {i: [] for i in range(len(cands))}
    exact = perfect
    for k, hands in enumerate(deals):
        cache: dict = {}
        for i, card in enumerate(cands):
            state = start_position(seat, hands, card, cache)
            if timed:
                each = max(MIN_CALL_SECONDS, (deadline - time.perf_counter()) / calls)
            else:
                each = max(MIN_CALL_SECONDS, per_card / len(deals))
            calls -= 1
            mv = value(state, each,
                       (seed * 7_919 + k * 131 + i) & 0x7FFFFFFF)
            if mv is None:
                return []
            vals[i].append(float(mv.mean))
            halves[i].append(0.0 if mv.exact else (float(mv.high) - float(mv.low)) / 2)
            exact = exact and bool(mv.exact)
    out = []
    for i, card in enumerate(cands):
        mean, lo, hi = deals_mean_ci(vals[i], halves[i], perfect=perfect)
        out.append(MoveValue(card, mean, lo, hi, samples=len(vals[i]), exact=exact))
    return out


def paired_values(seat: ExchangeSeat, cards: Sequence[Card], value: Callable, *,
                  seconds: float, seed: int, deals: int) -> tuple:
    """``cards`` valued on the same ``deals`` deals drawn from the giver's
    seat (the review's re-check of a mark: a paired comparison): per deal,
    one team 0 MoveValue per card, every card of a deal valued with the
    same seed; ``seconds`` shared evenly by the calls. ``(rows, perfect)``;
    no rows when a deal could not be valued."""
    view = seat.view()
    perfect = view.perfect
    drawn = _deals(seat, view, 1 if perfect else deals, seed)
    if not drawn:
        return [], perfect
    each = max(MIN_CALL_SECONDS, seconds / (len(drawn) * len(cards)))
    rows = []
    for k, hands in enumerate(drawn):
        cache: dict = {}
        row = []
        for card in cards:
            mv = value(start_position(seat, hands, card, cache), each,
                       (seed * 7_919 + k * 131) & 0x7FFFFFFF)
            if mv is None:
                return [], perfect
            row.append(mv)
        rows.append(row)
    return rows, perfect
