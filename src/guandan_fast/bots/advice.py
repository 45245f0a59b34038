"""Tribute and return advice: which of the legal cards to give (RULES §7
says which cards are legal, ``guandan_fast.game.tribute``; this module says
which of them is best for the giver's side, by hand structure).

The advice is a heuristic: a card's effect on the giver's and (when known)
the receiver's minimum plays and bombs (``engine.decomposition``), ranked by
one order, :meth:`TributeAdvice.rank_key` (lower is better); "strictly
better advice" (:meth:`TributeAdvice.better_than`) is that order without the
final tie-breaks on the card. The bots pay and return by it, the review
(``analysis``) compares the card given with it.

>>> rules = Rules(level=2)
>>> [str(a.card) for a in suggest_return("S3 S4 S5 S6 S7 D9 SA", rules)][:2]
['D9', 'S3']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from .._core import Card
from ..engine.decomposition import decompose
from ..errors import HandError
from ..game.tribute import (BIG_JOKER, _hand, _return_cands, _tribute_cands, check_deal_hands,
                            tribute_plan)
from ..model.cards import MAX_COPIES, SEQUENCE
from ..model.counts import HandLike
from ..model.rules import Rules, _rules

__all__ = ["TributeAdvice", "suggest_tribute", "suggest_return", "exchange_advice",
           "held_bombs", "BombKey"]

#: a bomb a hand holds outright: (type, rank, suit) as ``held_bombs`` keys it
BombKey = tuple[str, str, Optional[str]]

def held_bombs(hand: HandLike, rules: Rules | None = None) -> dict[BombKey, int]:
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


def _held(cards: list[Card]) -> dict[BombKey, int]:
    """held_bombs of cards already read (the inner layer)."""
    out: dict[BombKey, int] = {}
    by_rank: dict[str, int] = {}
    suits: dict[Optional[str], set[str]] = {}
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
            window = SEQUENCE[start:start + 5]
            if all(x in ranks for x in window):
                out[("straight_flush", window[-1], suit)] = 5
    return out


def _bomb_dict(key: BombKey, size: int) -> dict[str, Any]:
    typ, rank, suit = key
    return {"type": typ, "rank": rank, "suit": suit, "size": size}


def _profile(cards: list[Card], rules: Rules) -> tuple[int, int, int]:
    """(minimum plays, bomb plays and straight flushes in the decomposition).
    Hands of up to 28 cards: a receiver holds 28 until they return one."""
    if not cards:
        return 0, 0, 0
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
    broken: list[dict[str, Any]] = field(default_factory=list)
    weakened: list[dict[str, Any]] = field(default_factory=list)
    receiver_min_plays_without: Optional[int] = None
    receiver_min_plays_with: Optional[int] = None
    receiver_bombs_without: Optional[int] = None
    receiver_bombs_with: Optional[int] = None
    completes: list[dict[str, Any]] = field(default_factory=list)
    strengthens: list[dict[str, Any]] = field(default_factory=list)
    mistake: bool = False
    reason_parts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

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

    def rank_key(self) -> tuple[bool, int, int, bool, int, int, int]:
        """The advice's order, lower is better, first difference decides (the
        ranking documented in ``suggest_tribute``, criteria 1 to 7): a
        mistake, ``net_plays``, held bombs broken, a bomb lost from the
        decomposition, help to the receiver's bombs, held bombs weakened,
        fewer bombs left. The lists sort by it, then by the card."""
        receiver_gain = max(0, (self.receiver_bombs_with or 0) - (self.receiver_bombs_without or 0))
        return (self.mistake, self.net_plays, len(self.broken),
                self.bombs_after < self.bombs_before,
                receiver_gain + len(self.strengthens), len(self.weakened), -self.bombs_after)

    def better_than(self, other: TributeAdvice) -> bool:
        """Strictly better advice than ``other``: ahead in ``rank_key`` (the
        tie-breaks on the card itself do not count)."""
        return self.rank_key() < other.rank_key()

    def to_dict(self) -> dict[str, Any]:
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


def _reason_parts(a: TributeAdvice) -> list[tuple[str, dict[str, Any]]]:
    parts: list[tuple[str, dict[str, Any]]] = [("plays", {"before": a.min_plays_before, "after": a.min_plays_after})]
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
            receiver: Optional[list[Card]]) -> list[TributeAdvice]:
    before = _profile(giver, rules)
    held_before = _held(giver)
    recv = None
    if receiver is not None:
        recv = list(receiver)
        together: dict[Card, int] = {}
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
    out.sort(key=lambda a: (a.rank_key(), rules.order(a.card.rank), a.card))
    return out


def suggest_tribute(hand: HandLike, rules: Rules | None = None,
                    receiver: HandLike | None = None) -> list[TributeAdvice]:
    """Every legal tribute card (``tribute_candidates``), ranked best first
    for the payer. They all share one rank; the suit matters through
    straight flushes and through what the card does for the receiver.

    Ranking (``TributeAdvice.rank_key``, then the card), first difference
    decides:

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


def exchange_advice(finishing_order: Sequence[int], hands: Sequence[HandLike],
                    rules: Rules | None = None) -> dict[str, Any]:
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
    exchanges: list[dict[str, Any]] = []
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
