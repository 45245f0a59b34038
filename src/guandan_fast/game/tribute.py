"""Tribute and return tribute (RULES.md section 7): the rules, and advice.

Seats are 0..3; seat ``s + 1 (mod 4)`` plays after seat ``s``, so the
*upper hand* of seat ``s`` (the player who plays just before it) is seat
``s - 1 (mod 4)``, always an opponent.

The rules part:

>>> rules = Rules(level=2)
>>> tribute_candidates("SA HA D9 H2 SB", rules)      # SB is the highest card
[Card('SB')]
>>> tribute_candidates("SA HA D9 H2", rules)         # H2 is wild: skipped
[Card('SA'), Card('HA')]
>>> return_candidates("S3 S3 D7 C2 SJ", rules)       # 2 is the level rank
[Card('S3'), Card('D7')]
>>> plan = tribute_plan([0, 1, 2, 3], ["SA", "SK", "SQ", "SJ"], rules)
>>> plan.kind, plan.payments, plan.leader
('single_down', [(3, 0)], 3)

Decisions where RULES 7 leaves a choice open are stated in the docstrings of
``return_candidates``, ``tribute_plan`` and ``exchange_advice``. Hands may be
partial (fewer than 27 cards) for what-if questions; a receiver holds 28
cards between the tribute and the return.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np

from .._core import Card
from ..model.cards import FACE_2_TO_10, MAX_COPIES, MAX_HAND, SEQUENCE
from ..errors import HandError, RecordError
from ..game.state import partner
from ..model.counts import HandLike, from_counts, to_counts
from ..model.rules import Rules, _rules

__all__ = ["tribute_candidates", "return_candidates", "anti_tribute",
           "suggest_tribute", "suggest_return", "TributeAdvice",
           "held_bombs", "exchange_advice",
           "tribute_plan", "TributePlan", "BIG_JOKER", "upper_hand", "partner",
           "check_tribute_card", "check_return_card", "tribute_leaders",
           "check_finishing_order"]

BIG_JOKER = Card("HR")
_FACE_2_TO_10 = FACE_2_TO_10


def _hand(hand: HandLike, max_cards: int = MAX_HAND + 1) -> list[Card]:
    """The cards of a hand, sorted. A receiver holds 28 cards between the
    tribute and the return, hence the default limit."""
    return from_counts(to_counts(hand, max_cards=max_cards))


def upper_hand(seat: int) -> int:
    """The opponent who plays just before ``seat`` (RULES 6-7)."""
    return (seat - 1) % 4


def _highest_order(cards: Iterable[Card], rules: Rules) -> Optional[int]:
    orders = [rules.order(c.rank) for c in cards]
    return max(orders) if orders else None


def tribute_candidates(hand: HandLike, rules: Rules | None = None) -> list[Card]:
    """The cards a payer may give as tribute (RULES 7): the highest card in
    single-card order (RULES 2), never a wild; one entry per distinct card,
    so a payer holding the highest rank in several suits gets each suit once
    (the payer chooses). Sorted by suit (S H C D).

    A hand that holds nothing but wilds has no legal tribute: ``[]``.

    >>> r = Rules(level=7)
    >>> tribute_candidates("SA S7 C7 H7 H7 D7", r)   # H7 wild, level 7 > A
    [Card('S7'), Card('C7'), Card('D7')]
    >>> tribute_candidates("H7 H7", r)
    []
    """
    return _tribute_cands(_hand(hand), _rules(rules))


def _tribute_cands(cards: list, r: Rules) -> list[Card]:
    """tribute_candidates of cards already read, at these Rules (the inner
    layer: no second reading of the hand or the rules)."""
    wild = r.wild
    cards = [c for c in cards if c != wild]
    top = _highest_order(cards, r)
    if top is None:
        return []
    return sorted({c for c in cards if r.order(c.rank) == top})


def return_candidates(hand: HandLike, rules: Rules | None = None) -> list[Card]:
    """The cards a receiver may give back (RULES 7): any card of face value
    2..10 that is not of the level rank, one entry per distinct card, in
    single-card order (then suit).

    When the hand holds no such card, the receiver returns their lowest card
    in single-card order. Decisions (RULES says only "their lowest card"):

    - ties: every suit of the lowest rank is listed; the receiver chooses,
      as the payer does for the tribute;
    - a wild (heart of the level rank) is never returned while the hand holds
      any other card: RULES keeps the wilds out of the exchange for the
      tribute, and "lowest" is read as the lowest card the rules let one give.
      A hand of nothing but wilds returns a wild.

    >>> r = Rules(level=5)
    >>> return_candidates("DA SK SJ CJ S5 SB", r)    # lowest: J, in two suits
    [Card('SJ'), Card('CJ')]
    >>> return_candidates("S5 H5 SB", r)             # H5 wild: not returned
    [Card('S5')]
    """
    return _return_cands(_hand(hand), _rules(rules))


def _return_cands(cards: list, r: Rules) -> list[Card]:
    """return_candidates of cards already read, at these Rules."""
    level = r.level
    face = sorted({c for c in cards if c.rank in _FACE_2_TO_10 and c.rank != level},
                  key=lambda c: (r.order(c.rank), c))
    if face:
        return face
    wild = r.wild
    pool = [c for c in cards if c != wild] or cards
    if not pool:
        return []
    low = min(r.order(c.rank) for c in pool)
    return sorted({c for c in pool if r.order(c.rank) == low})


def check_tribute_card(hand: HandLike, card: Card, rules: Rules) -> Optional[str]:
    """None when ``card`` is a legal tribute from ``hand``, else why not."""
    rules = _rules(rules)
    if card == rules.wild:
        return f"{card} is a wild and can never be given as tribute"
    allowed = _tribute_cands(_hand(hand), rules)
    if card not in allowed:
        return (f"{card} is not the highest card; the tribute must be "
                + " or ".join(map(str, allowed)))
    return None


def check_return_card(hand: HandLike, card: Card, rules: Rules) -> Optional[str]:
    """None when ``card`` is a legal return from ``hand``, else why not."""
    rules = _rules(rules)
    allowed = _return_cands(_hand(hand), rules)
    if card not in allowed:
        if allowed and allowed[0].rank_index <= 8 and allowed[0].rank_index != rules.level_index:
            return f"{card} cannot be returned: the return must be 2..10 and not the level rank"
        return f"{card} cannot be returned: with no 2..10 the lowest card is returned"
    return None


def _payer_hands(payer_hands) -> list[list[Card]]:
    if isinstance(payer_hands, (str, np.ndarray)):
        return [_hand(payer_hands)]
    items = list(payer_hands)
    if items and all(isinstance(x, Card) for x in items):
        return [_hand(items)]
    return [_hand(h) for h in items]


def anti_tribute(payer_hands, rules: Rules | None = None) -> bool:
    """True when the paying side holds both big jokers (RULES 7, 抗贡): no
    tribute is paid. ``payer_hands`` is the one payer's hand (single down) or
    the two payers' hands (double down), counted together.

    >>> anti_tribute(["HR HR S3"])          # one payer, both big jokers
    True
    >>> anti_tribute(["HR S3", "HR D4"])    # split between the two payers
    True
    >>> anti_tribute(["HR SB SB", "S3"])
    False
    """
    _rules(rules)
    hands = _payer_hands(payer_hands)
    if not 1 <= len(hands) <= 2:
        raise HandError(f"anti_tribute takes one or two payer hands, not {len(hands)}")
    return sum(h.count(BIG_JOKER) for h in hands) >= 2


@dataclass
class TributePlan:
    """Who pays whom before a deal (RULES 7). JSON-friendly via ``to_dict``.

    - ``kind``: ``"single_down"`` or ``"double_down"``;
    - ``payments``: ``(payer, receiver)`` seat pairs, the payer of the
      higher tribute first (empty under anti-tribute); the receiver of each
      tribute returns a card to its payer;
    - ``tribute_ranks``: the rank each payer must pay, aligned with
      ``payments`` (the payer chooses the suit, see ``tribute_candidates``);
    - ``equal_tributes``: double down with tributes of the same rank;
    - ``anti_tribute``: the paying side holds both big jokers, nothing is paid;
    - ``leader``: the seat that leads the deal.
    """

    finishing_order: list
    kind: str
    payers: list
    payments: list = field(default_factory=list)
    tribute_ranks: list = field(default_factory=list)
    equal_tributes: bool = False
    anti_tribute: bool = False
    leader: int = 0

    def to_dict(self) -> dict:
        return {
            "finishing_order": list(self.finishing_order),
            "kind": self.kind,
            "payers": list(self.payers),
            "payments": [{"payer": p, "receiver": q} for p, q in self.payments],
            "tribute_ranks": list(self.tribute_ranks),
            "equal_tributes": self.equal_tributes,
            "anti_tribute": self.anti_tribute,
            "leader": self.leader,
        }


def check_finishing_order(order) -> list[int]:
    """A finishing order as a list of four seats, first to last; anything
    else is a RecordError. Accepts ``"2 0 3 1"`` too."""
    if isinstance(order, str):
        parts = order.replace(",", " ").split()
        try:
            order = [int(x) for x in parts]
        except ValueError:
            raise RecordError(f"finishing order {' '.join(parts)!r}: seats are 0..3") from None
    if isinstance(order, (bytes, dict)) or not hasattr(order, "__iter__"):
        raise RecordError(f"finishing order {order!r}: a list of the seats 0..3")
    seats = list(order)
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in seats) \
            or sorted(seats) != [0, 1, 2, 3]:
        raise RecordError(f"finishing order {seats!r} must list the seats 0, 1, 2, 3 "
                          "once each, first finisher first")
    return [int(s) for s in seats]


def check_deal_hands(hands: Sequence[HandLike]) -> list[list[Card]]:
    """Four hands, each at most 27 cards, no card more than twice across
    them; errors name the seat."""
    hands = list(hands)
    if len(hands) != 4:
        raise HandError(f"a deal has four hands, not {len(hands)}")
    out = []
    seen: dict = {}
    for seat, h in enumerate(hands):
        try:
            cards = _hand(h, max_cards=MAX_HAND)
        except HandError as e:
            raise HandError(f"seat {seat}: {e}") from None
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
            if seen[c] > MAX_COPIES:
                raise HandError(f"seat {seat}: a third copy of {c} in the deal")
        out.append(cards)
    return out


def tribute_plan(finishing_order, hands: Sequence[HandLike],
                 rules: Rules | None = None) -> TributePlan:
    """The whole exchange before a deal (RULES 7).

    ``finishing_order`` is the previous deal's order of seats, first finisher
    to last (``[2, 0, 3, 1]`` or ``"2 0 3 1"``); ``hands`` the four hands as
    dealt for this deal, before tribute, by seat.

    - Double down (the first and second finishers are partners): both losers
      pay; the higher tribute (single-card order of the rank they must pay)
      goes to the first finisher, the lower to the second, and the payer of
      the higher tribute leads.
    - Equal tributes (double down, same rank): with
      ``rules.equal_tribute_to_upper_hand`` (default) each payer gives to
      their upper hand (the opponent who plays just before them), and the one
      who paid the first finisher leads. With the flag off (decision; RULES
      names no alternative): the finishing order decides, the last finisher
      paying the first and the third the second, and the last finisher leads.
    - Single down (every other order): the last finisher pays the first
      finisher and leads, also when the last finisher is the first
      finisher's partner (a +1 deal), as RULES 7 says. With
      ``rules.no_tribute_when_partner_last`` (the Huai'an reading) that case
      has no tribute at all: ``kind`` is ``"none"``, nothing is paid and
      (decision: RULES names no leader there) the first finisher leads, as
      after an anti-tribute.
    - Anti-tribute: the paying side (the one payer, or the two payers
      together) holds both big jokers; nothing is paid and the previous first
      finisher leads.

    A payer who holds nothing but wilds has no legal tribute: HandError.

    >>> hands = ["SK S3", "HR D4", "SA S5", "HR D6"]
    >>> p = tribute_plan("0 2 1 3", hands, Rules(level=2))   # seats 1, 3 hold the HRs
    >>> p.kind, p.anti_tribute, p.payments, p.leader
    ('double_down', True, [], 0)
    """
    r = _rules(rules)
    order = check_finishing_order(finishing_order)
    cards = check_deal_hands(hands)
    first, second, third, last = order
    double = partner(first) == second
    if not double and last == partner(first) and r.no_tribute_when_partner_last:
        return TributePlan(finishing_order=order, kind="none", payers=[], leader=first)
    payers = [third, last] if double else [last]
    plan = TributePlan(finishing_order=order, kind="double_down" if double else "single_down",
                       payers=payers)
    if sum(cards[p].count(BIG_JOKER) for p in payers) >= 2:     # anti-tribute
        plan.anti_tribute = True
        plan.leader = first
        return plan

    def rank_to_pay(seat):
        cands = _tribute_cands(cards[seat], r)
        if not cands:
            raise HandError(f"seat {seat} holds no card that may be paid as tribute "
                            "(only wilds)")
        return cands[0].rank

    if not double:
        plan.payments = [(last, first)]
        plan.tribute_ranks = [rank_to_pay(last)]
        plan.leader = tribute_leaders(plan.payments, plan.tribute_ranks, r, first)[0]
        return plan

    rank3, rank4 = rank_to_pay(third), rank_to_pay(last)
    o3, o4 = r.order(rank3), r.order(rank4)
    if o3 != o4:
        hi, lo = (third, last) if o3 > o4 else (last, third)
        hi_rank, lo_rank = (rank3, rank4) if o3 > o4 else (rank4, rank3)
        plan.payments = [(hi, first), (lo, second)]
        plan.tribute_ranks = [hi_rank, lo_rank]
    else:
        plan.equal_tributes = True
        if r.equal_tribute_to_upper_hand:
            pays = [(p, upper_hand(p)) for p in (third, last)]
        else:
            pays = [(last, first), (third, second)]
        # the payment to the first finisher first
        pays.sort(key=lambda pq: pq[1] != first)
        plan.payments = pays
        plan.tribute_ranks = [rank3, rank3]
    plan.leader = tribute_leaders(plan.payments, plan.tribute_ranks, r, first)[0]
    return plan


def tribute_leaders(payments, ranks, rules: Rules, first: Optional[int] = None) -> list:
    """Who leads after the tribute (RULES 7): the payer, or with two
    tributes the payer of the higher one; with equal tributes the one who
    paid the first finisher (``first``; unknown: either payer, both listed).
    ``payments``: (payer, receiver) pairs; ``ranks``: the rank each paid.

    >>> tribute_leaders([(3, 0), (1, 2)], ["K", "A"], Rules(level=2))
    [1]
    """
    if len(payments) != len(ranks) or not 1 <= len(payments) <= 2:
        raise RecordError(f"one or two tributes, each with its rank, not {len(payments)}")
    if len(payments) == 1:
        return [payments[0][0]]
    (a, ra), (b, rb) = zip(payments, ranks)
    oa, ob = rules.order(ra), rules.order(rb)
    if oa != ob:
        return [a[0] if oa > ob else b[0]]
    to_first = [p for p, q in payments if q == first]
    return to_first if to_first else [p for p, _ in payments]


# ---------------------------------------------------------------------------
# advice
# ---------------------------------------------------------------------------

_SEQ = SEQUENCE


def held_bombs(hand: HandLike, rules: Rules | None = None) -> dict:
    """The bombs a hand holds outright, as ``{key: size}``: n-of-a-kind bombs
    ``("bomb", rank, None)`` with their size (4..8), straight flushes
    ``("straight_flush", top, suit)`` (size 5) and the joker bomb
    ``("joker_bomb", "R", None)``. A wild counts here as what it is (a heart
    of the level rank); bombs that need a wild as a substitute are not
    "held" (the wilds can go anywhere, and ``decompose`` counts them).

    >>> sorted(held_bombs("S8 H8 C8 D8 ST SJ SQ SK SA SB SB HR HR", Rules(level=2)).items())
    [(('bomb', '8', None), 4), (('joker_bomb', 'R', None), 4), (('straight_flush', 'A', 'S'), 5)]
    """
    _rules(rules)
    return _held(_hand(hand, max_cards=108))


def _held(cards: list) -> dict:
    """held_bombs of cards already read (the inner layer)."""
    out: dict = {}
    by_rank: dict = {}
    suits: dict = {}
    for c in cards:
        if c.is_joker:
            continue
        by_rank[c.rank] = by_rank.get(c.rank, 0) + 1
        suits.setdefault(c.suit, set()).add(c.rank)
    for rank, n in by_rank.items():
        if n >= 4:
            out[("bomb", rank, None)] = n
    if cards.count(Card("SB")) == 2 and cards.count(BIG_JOKER) == 2:
        out[("joker_bomb", "R", None)] = 4
    for suit, ranks in suits.items():
        for start in range(10):
            window = _SEQ[start:start + 5]
            if all(x in ranks for x in window):
                out[("straight_flush", window[-1], suit)] = 5
    return out


def _bomb_dict(key, size) -> dict:
    typ, rank, suit = key
    return {"type": typ, "rank": rank, "suit": suit, "size": size}


def _profile(cards: list[Card], rules: Rules) -> tuple[int, int, int]:
    """(minimum plays, bomb plays and straight flushes in the decomposition).
    Hands of up to 28 cards: a receiver holds 28 until they return one."""
    if not cards:
        return 0, 0, 0
    from ..engine.decomposition import decompose
    plays = decompose(cards, rules)       # a minimal partition: len() is min_plays
    return (len(plays), sum(1 for p in plays if p.is_bomb),
            sum(1 for p in plays if p.type == "straight_flush"))


def _remove(cards: list[Card], card: Card) -> list[Card]:
    out = list(cards)
    out.remove(card)
    return out


@dataclass
class TributeAdvice:
    """One legal tribute or return card and what giving it does.

    ``min_plays_before``/``after``: the giver's minimum plays (RULES 8) with
    and without the card; ``bombs_before``/``after`` and
    ``straight_flushes_before``/``after``: bomb plays (straight flushes
    included) and straight flushes in ``decompose()`` of the giver's hand;
    ``broken``/``weakened``: bombs the giver holds outright (``held_bombs``)
    that giving the card destroys or shrinks (a 5-bomb to a 4-bomb).

    With the receiver's hand known: ``receiver_min_plays_without``/``with``,
    ``receiver_bombs_without``/``with`` (the same measures on the receiver's
    hand without and with the card), ``completes`` (bombs the receiver holds
    outright only with the card), ``strengthens`` (held bombs the card makes
    bigger), and ``mistake``: the card completes a bomb or straight flush the
    receiver then holds outright, while another legal card would not (a
    forced completion, e.g. every suit of the tribute rank, is listed in
    ``completes`` but not flagged).

    ``reason_parts``: why, as data: a list of (reason key, parameters) pairs
    (a ``bomb`` parameter is a bomb dict: type, rank, suit, size). The text,
    in each language, is made in the report layer
    (``guandan_fast.report.i18n.advice_reason``).
    """

    card: Card
    min_plays_before: int
    min_plays_after: int
    bombs_before: int
    bombs_after: int
    straight_flushes_before: int
    straight_flushes_after: int
    broken: list = field(default_factory=list)
    weakened: list = field(default_factory=list)
    receiver_min_plays_without: Optional[int] = None
    receiver_min_plays_with: Optional[int] = None
    receiver_bombs_without: Optional[int] = None
    receiver_bombs_with: Optional[int] = None
    completes: list = field(default_factory=list)
    strengthens: list = field(default_factory=list)
    mistake: bool = False
    reason_parts: list = field(default_factory=list)

    @property
    def breaks_bomb(self) -> bool:
        """Giving the card breaks a bomb or straight flush the giver holds
        (``broken`` is not empty)."""
        return bool(self.broken)

    @property
    def net_plays(self) -> int:
        """The giver's change in minimum plays, plus the plays the card saves
        the receiver (when known): lower is better for the giver's side."""
        n = self.min_plays_after - self.min_plays_before
        without, with_ = self.receiver_min_plays_without, self.receiver_min_plays_with
        if without is not None and with_ is not None:
            n += without - with_
        return n

    def to_dict(self) -> dict:
        """JSON-ready data; ``reasons``: the reason parts as
        ``{"key": ..., "params": {...}}`` (translated by the report layer)."""
        d = {
            "card": str(self.card),
            "min_plays_before": self.min_plays_before,
            "min_plays_after": self.min_plays_after,
            "bombs_before": self.bombs_before,
            "bombs_after": self.bombs_after,
            "straight_flushes_before": self.straight_flushes_before,
            "straight_flushes_after": self.straight_flushes_after,
            "breaks_bomb": self.breaks_bomb,
            "broken": self.broken,
            "weakened": self.weakened,
        }
        if self.receiver_min_plays_with is not None:
            d.update({
                "receiver_min_plays_without": self.receiver_min_plays_without,
                "receiver_min_plays_with": self.receiver_min_plays_with,
                "receiver_bombs_without": self.receiver_bombs_without,
                "receiver_bombs_with": self.receiver_bombs_with,
                "completes": self.completes,
                "strengthens": self.strengthens,
                "mistake": self.mistake,
            })
        d["reasons"] = [{"key": k, "params": dict(p)} for k, p in self.reason_parts]
        return d


def _reason_parts(a: TributeAdvice) -> list:
    parts: list = [("plays", {"before": a.min_plays_before, "after": a.min_plays_after})]
    for b in a.broken:
        parts.append(("breaks", {"bomb": b}))
    for b in a.weakened:
        parts.append(("weakens", {"bomb": b}))
    if not a.broken and not a.weakened:
        if a.bombs_after < a.bombs_before:
            parts.append(("fewer_bombs", {"before": a.bombs_before, "after": a.bombs_after}))
        elif a.bombs_before:
            parts.append(("keeps_bombs", {}))
    if a.receiver_min_plays_with is not None:
        parts.append(("receiver_plays", {"before": a.receiver_min_plays_without,
                                         "after": a.receiver_min_plays_with}))
        for b in a.completes:
            parts.append(("completes", {"bomb": b}))
        rb_without, rb_with = a.receiver_bombs_without or 0, a.receiver_bombs_with or 0
        if not a.completes and rb_with > rb_without:
            parts.append(("more_bombs", {"before": rb_without, "after": rb_with}))
        for b in a.strengthens:
            parts.append(("strengthens", {"bomb": b}))
        if a.mistake:
            parts.append(("mistake", {}))
        elif a.completes:
            parts.append(("unavoidable", {}))
    return parts


def _advise(giver: list[Card], choices: list[Card], rules: Rules,
            receiver) -> list[TributeAdvice]:
    before = _profile(giver, rules)
    held_before = _held(giver)
    recv = None
    if receiver is not None:
        recv = list(receiver)
        together: dict = {}
        for c in giver + recv:
            together[c] = together.get(c, 0) + 1
            if together[c] > MAX_COPIES:
                raise HandError(f"receiver: the giver and the receiver hold {c} "
                                f"{together[c]} times together; a deal has it twice")
        recv_before = _profile(recv, rules)
        recv_held = _held(recv)
    out = []
    for card in choices:
        rest = _remove(giver, card)
        after = _profile(rest, rules)
        held_after = _held(rest)
        a = TributeAdvice(
            card=card, min_plays_before=before[0], min_plays_after=after[0],
            bombs_before=before[1], bombs_after=after[1],
            straight_flushes_before=before[2], straight_flushes_after=after[2],
            broken=[_bomb_dict(k, n) for k, n in held_before.items() if k not in held_after],
            weakened=[_bomb_dict(k, held_after[k]) for k, n in held_before.items()
                      if k in held_after and held_after[k] < n],
        )
        if recv is not None:
            with_card = sorted(recv + [card])
            got = _profile(with_card, rules)
            held_with = _held(with_card)
            a.receiver_min_plays_without, a.receiver_bombs_without = recv_before[0], recv_before[1]
            a.receiver_min_plays_with, a.receiver_bombs_with = got[0], got[1]
            a.completes = [_bomb_dict(k, n) for k, n in held_with.items() if k not in recv_held]
            a.strengthens = [_bomb_dict(k, n) for k, n in held_with.items()
                             if k in recv_held and n > recv_held[k]]
        out.append(a)
    # a completion is a mistake only when some legal card avoids it
    avoidable = any(not a.completes for a in out)
    for a in out:
        a.mistake = bool(a.completes) and avoidable
        a.reason_parts = _reason_parts(a)
    out.sort(key=lambda a: _rank_key(a, rules))
    return out


def _rank_key(a: TributeAdvice, rules: Rules):
    receiver_gain = max(0, (a.receiver_bombs_with or 0) - (a.receiver_bombs_without or 0))
    return (a.mistake, a.net_plays, len(a.broken), a.bombs_after < a.bombs_before,
            receiver_gain + len(a.strengthens), len(a.weakened), -a.bombs_after,
            rules.order(a.card.rank), a.card)


def suggest_tribute(hand: HandLike, rules: Rules | None = None,
                    receiver: HandLike | None = None) -> list[TributeAdvice]:
    """Every legal tribute card (``tribute_candidates``), ranked best first
    for the payer. They all share one rank; the suit matters through
    straight flushes and through what the card does for the receiver.

    Ranking, first difference decides:

    1. not a mistake before a mistake (with ``receiver``: the card completes
       a bomb or straight flush the receiver then holds, and another legal
       card would not);
    2. ``net_plays``: the giver's minimum plays after minus before, plus
       (with ``receiver``) the plays the card saves the receiver: lower first;
    3. fewer held bombs or straight flushes broken (``broken``): so with
       equal minimum plays a choice that breaks a straight flush or a bomb
       ranks below one that does not;
    4. no bomb lost from the giver's decomposition before one lost (the
       bomb is still held but no longer fits a minimal partition);
    5. (with ``receiver``) less help to the receiver's bombs: bombs gained
       in their decomposition plus held bombs made bigger;
    6. fewer of the giver's held bombs weakened (made smaller);
    7. more bombs left in the giver's decomposition;
    8. the lower card (single-card order), then suit, for a stable order.
    """
    r = _rules(rules)
    giver = _hand(hand)
    return _advise(giver, _tribute_cands(giver, r), r,
                   None if receiver is None else _hand(receiver))


def suggest_return(hand: HandLike, rules: Rules | None = None,
                   receiver: HandLike | None = None) -> list[TributeAdvice]:
    """Every legal return card (``return_candidates``), ranked best first for
    the receiver of the tribute, who gives the card back. ``hand`` is their
    hand as it stands when returning (the tribute received included, if
    known). ``receiver`` is the hand of the player who gets the card back
    (the payer, after paying), for post-game review: then a card that
    completes their bomb or straight flush is flagged ``mistake`` ("classic
    mistake") and ranked last, when another legal card would not do it.

    The ranking is the one of ``suggest_tribute``: no mistake first, then
    ``net_plays`` (own change in minimum plays, plus the plays the card saves
    the receiver), then fewer own bombs and straight flushes broken (so with
    equal minimum plays a breaking choice ranks below a keeping one), less
    help to the receiver's bombs, fewer own bombs weakened, more own bombs
    left, and finally the lower card first (keep the high cards).
    """
    r = _rules(rules)
    giver = _hand(hand)
    return _advise(giver, _return_cands(giver, r), r,
                   None if receiver is None else _hand(receiver))


def exchange_advice(finishing_order, hands: Sequence[HandLike],
                    rules: Rules | None = None) -> dict:
    """The whole exchange of a deal with advice for each player, JSON-ready:
    the plan (``tribute_plan``), then for each payment the payer's ranked
    tribute choices (the receiver's hand known), and the receiver's ranked
    return choices, assuming the payer paid the best-ranked tribute card:
    the receiver chooses from their hand plus that card, and the card
    returned goes to the payer's hand minus it. Decision: the tribute card
    itself may be returned when it qualifies (face value 2..10, not the level
    rank); RULES 7 does not forbid it, and in a real deal the highest card of
    27 is practically never that low.
    """
    r = _rules(rules)
    cards = check_deal_hands(hands)
    plan = tribute_plan(finishing_order, cards, r)
    exchanges: list = []
    out = {"level": r.level, "plan": plan.to_dict(), "exchanges": exchanges}
    for payer, receiver in plan.payments:
        tribute = _advise(cards[payer], _tribute_cands(cards[payer], r), r, cards[receiver])
        paid = tribute[0].card
        receiver_hand = sorted(cards[receiver] + [paid])
        payer_after = _remove(cards[payer], paid)
        ret = _advise(receiver_hand, _return_cands(receiver_hand, r), r, payer_after)
        exchanges.append({
            "payer": payer, "receiver": receiver,
            "tribute": [a.to_dict() for a in tribute],
            "tribute_card": str(paid),
            "return": [a.to_dict() for a in ret],
            "return_card": str(ret[0].card) if ret else None,
        })
    return out
