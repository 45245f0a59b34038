"""Tribute and return tribute (RULES §7, docs/rules.md): the rules.

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
``return_candidates`` and ``tribute_plan`` (and, for the advice, which card to
give among the legal ones, ``guandan_fast.bots.advice``). Hands may be
partial (fewer than 27 cards) for what-if questions; a receiver holds 28
cards between the tribute and the return.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Union, cast

import numpy as np

from .._core import Card
from ..model.cards import FACE_2_TO_10, MAX_COPIES, MAX_HAND
from ..errors import HandError, RecordError
from ..game.state import partner
from ..model.counts import HandLike, from_counts, to_counts
from ..model.rules import Rules, _rules

__all__ = ["tribute_candidates", "return_candidates", "anti_tribute",
           "tribute_plan", "TributePlan", "BIG_JOKER", "upper_hand", "partner",
           "check_tribute_card", "check_return_card", "tribute_leaders",
           "check_finishing_order"]

BIG_JOKER = Card("HR")


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


def _tribute_cands(cards: list[Card], r: Rules) -> list[Card]:
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


def _return_cands(cards: list[Card], r: Rules) -> list[Card]:
    """return_candidates of cards already read, at these Rules."""
    level = r.level
    face = sorted({c for c in cards if c.rank in FACE_2_TO_10 and c.rank != level},
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


def _payer_hands(payer_hands: Union[HandLike, Sequence[HandLike]]) -> list[list[Card]]:
    if isinstance(payer_hands, (str, np.ndarray)):
        return [_hand(payer_hands)]
    if isinstance(payer_hands, (bytes, dict)) or not hasattr(payer_hands, "__iter__"):
        raise HandError(f"payer_hands: a hand or a list of one or two hands, not "
                        f"{type(payer_hands).__name__}")
    items = list(payer_hands)
    if items and all(isinstance(x, Card) for x in items):
        return [_hand(cast("list[Card]", items))]
    return [_hand(h) for h in items]


def anti_tribute(payer_hands: Union[HandLike, Sequence[HandLike]], rules: Rules | None = None) -> bool:
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
    together = Counter(c for h in hands for c in h)      # the two hands share two decks
    over = sorted(str(c) for c, n in together.items() if n > 2)
    if over:
        raise HandError(f"the payer hands hold {over[0]} {together[Card(over[0])]} times: "
                        "a double deck has two copies")
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

    finishing_order: list[int]
    kind: str
    payers: list[int]
    payments: list[tuple[int, int]] = field(default_factory=list)
    tribute_ranks: list[str] = field(default_factory=list)
    equal_tributes: bool = False
    anti_tribute: bool = False
    leader: int = 0

    def to_dict(self) -> dict[str, Any]:
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


def check_finishing_order(order: object) -> list[int]:
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
    if isinstance(hands, (str, bytes, dict)) or not hasattr(hands, "__iter__"):
        raise HandError(f"hands: a list of the four hands, not {type(hands).__name__}")
    hands = list(hands)
    if len(hands) != 4:
        raise HandError(f"a deal has four hands, not {len(hands)}")
    out = []
    seen: dict[Card, int] = {}
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


def tribute_plan(finishing_order: object, hands: Sequence[HandLike],
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

    def rank_to_pay(seat: int) -> str:
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


def tribute_leaders(payments: Sequence[tuple[int, int]], ranks: Sequence[str], rules: Rules,
                    first: Optional[int] = None) -> list[int]:
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
