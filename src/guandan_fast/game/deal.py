"""One deal as a state machine: the exchange (RULES §7), the play (RULES §6)
and the finishing order, the only place that sequences a deal.

``DealState(hands, rules, previous)`` starts from the four hands as dealt.
With the previous deal's finishing order the tribute plan (``tribute_plan``)
decides the exchange: the payers pay (``pay_tribute``), the receivers give
a card back (``give_back``), the leader of the plan leads; an anti-tribute
(the paying side holds both big jokers) or a deal with no tribute goes
straight to the play. Without a previous order (the first deal of a game,
a single deal) the play starts at once with ``leader``. The play is a
``GameState`` (``game``): ``play(seat, play)``, None for a pass. Once a
team has both players out the deal is ``done``: ``order`` is the finishing
order and ``result()`` team 0's level gain.

Phases: ``"tribute"``, ``"return"``, ``"play"``, ``"done"``; ``actor`` is the
seat to act (None when done) and ``legal_actions()`` its choices: tribute
or return cards, or plays (None for a pass). Each step has three forms:
``verify_X`` raises DealError saying what is wrong, ``can_X`` answers
True/False, ``X`` does it and returns its frozen operation record (a
``Transfer`` for a tribute or a return, a ``Move`` for a play). The
tributes of a double down are paid together and the returns given
together: the hands change once each set is complete, as at the table.

>>> from guandan_fast import Rules
>>> hands = ["SA S3", "S4 S5", "SK S6", "S8 S7"]
>>> deal = DealState(hands, Rules(level=2), previous=[0, 1, 2, 3])  # single down
>>> deal.phase, deal.actor, deal.legal_actions()
('tribute', 3, [Card('S8')])
>>> deal.pay_tribute(3, Card("S8"))
Transfer(giver=3, receiver=0, card=Card('S8'))
>>> deal.phase, deal.actor, deal.legal_actions()
('return', 0, [Card('S3'), Card('S8')])
>>> deal.verify_give_back(0, Card("SA"))
Traceback (most recent call last):
...
guandan_fast.errors.DealError: return from seat 0: SA cannot be returned: the return must be 2..10 and not the level rank
>>> _ = deal.give_back(0, Card("S3"))
>>> deal.phase, deal.actor, deal.hand(3)                 # the payer leads
('play', 3, [Card('S3'), Card('S7')])
"""

from __future__ import annotations

from typing import Optional, Sequence

from .._core import Card, Play
from ..errors import DealError, GuandanError
from ..model.counts import HandLike
from ..model.rules import Rules, _rules
from ..model.seats import check_seat
from .record import Move, Record, Transfer, exchanged
from .state import GameState
from .tribute import (BIG_JOKER, TributePlan, check_deal_hands, check_return_card,
                      check_tribute_card, return_candidates, tribute_candidates,
                      tribute_leaders, tribute_plan)

__all__ = ["DealState", "PHASES"]

PHASES = ("tribute", "return", "play", "done")


def _seat(value, what: str) -> int:
    return check_seat(value, what, DealError)


class DealState:
    """A deal from the hands as dealt to its finishing order (see the module
    docstring).

    ``hands``: the four hands as dealt (any notation); ``rules``: the rules
    and level of the deal; ``previous``: the previous deal's finishing order
    (four seats, first to last), which decides the tribute, or None.
    ``leader``: who leads the play when no previous order decides it (None:
    seat 0, or after a given exchange the payer of the higher tribute);
    with a previous order it may be given only as the plan's leader.
    ``payments`` and ``anti_tribute``: the exchange of a deal whose previous
    order is unknown (a record typed without it): ``(payer, receiver)``
    pairs, or an anti-tribute (nothing paid); not with ``previous``.
    """

    __slots__ = ("rules", "dealt", "previous", "plan", "anti_tribute", "payments",
                 "tributes", "returns", "moves", "game", "_hands", "_leader")

    def __init__(self, hands: Sequence[HandLike], rules: Rules,
                 previous: Optional[Sequence[int]] = None, *, leader: Optional[int] = None,
                 payments: Optional[Sequence] = None, anti_tribute: bool = False):
        try:
            self.rules = _rules(rules)
            dealt = check_deal_hands(hands)
        except GuandanError as e:
            raise DealError(str(e)) from None
        self.dealt = [sorted(h) for h in dealt]
        self.plan: Optional[TributePlan] = None
        self.previous: Optional[list] = None
        if not isinstance(anti_tribute, bool):
            raise DealError(f"anti_tribute must be True or False, not {anti_tribute!r}")
        if previous is not None:
            if payments is not None or anti_tribute:
                raise DealError("with a previous finishing order the tribute plan decides "
                                "the exchange: give no payments or anti_tribute")
            try:
                plan = tribute_plan(previous, self.dealt, self.rules)
            except GuandanError as e:
                raise DealError(f"previous: {e}") from None
            self.plan, self.previous = plan, list(plan.finishing_order)
            self.payments = list(plan.payments)
            self.anti_tribute = plan.anti_tribute
            if leader is not None and _seat(leader, "leader") != plan.leader:
                raise DealError(f"after the finishing order {' '.join(map(str, self.previous))} "
                                f"seat {plan.leader} leads (RULES 7), not seat {leader}")
            self._leader: Optional[int] = plan.leader
        else:
            self.payments = self._check_payments(payments or [])
            if anti_tribute and self.payments:
                raise DealError("an anti-tribute deal has no payments")
            self.anti_tribute = anti_tribute
            self._leader = None if leader is None else _seat(leader, "leader")
        self.tributes: list = []
        self.returns: list = []
        self.moves: list = []
        self.game: Optional[GameState] = None
        self._hands = [list(h) for h in self.dealt]
        if not self.payments:
            self._start_play()

    @staticmethod
    def _check_payments(payments: object) -> list[tuple[int, int]]:
        if isinstance(payments, (str, bytes)) or not hasattr(payments, "__iter__"):
            raise DealError(f"payments: (payer, receiver) pairs, not {payments!r}")
        out: list[tuple[int, int]] = []
        for i, pair in enumerate(payments):
            try:
                p, q = pair
            except (TypeError, ValueError):
                raise DealError(f"payments[{i}]: a (payer, receiver) pair, not {pair!r}") from None
            p, q = _seat(p, f"payments[{i}] payer"), _seat(q, f"payments[{i}] receiver")
            if p == q:
                raise DealError(f"payments[{i}]: seat {p} cannot pay tribute to itself")
            if p in [a for a, _ in out] or q in [b for _, b in out]:
                raise DealError(f"payments[{i}]: a seat pays or receives twice")
            out.append((p, q))
        if len(out) > 2:
            raise DealError(f"at most two tributes, not {len(out)}")
        return out

    def _start_play(self) -> None:
        leader = self._leader
        if leader is None:
            leader = 0
            if self.tributes:
                leader = tribute_leaders([(t.giver, t.receiver) for t in self.tributes],
                                         [t.card.rank for t in self.tributes], self.rules)[0]
        self.game = GameState.start([sorted(h) for h in self._hands], self.rules, leader)

    # -- reading the deal ---------------------------------------------------
    @property
    def phase(self) -> str:
        if self.game is not None:
            return "done" if self.game.over else "play"
        return "tribute" if len(self.tributes) < len(self.payments) else "return"

    @property
    def actor(self) -> Optional[int]:
        """The seat to act now, None once the deal is done."""
        phase = self.phase
        if phase in ("tribute", "return"):
            return self.waiting()[0]
        if phase == "play":
            assert self.game is not None
            return self.game.turn
        return None

    def waiting(self) -> list:
        """The seats yet to give in the exchange, in the order they are
        asked (the payer of the higher tribute first, the returns in the
        order of the tributes). The cards of one set go together, so any of
        them may give first (a record lists them in any order)."""
        if self.phase == "tribute":
            paid = {t.giver for t in self.tributes}
            return [p for p, _ in self.payments if p not in paid]
        if self.phase == "return":
            back = {t.giver for t in self.returns}
            return [t.receiver for t in self.tributes if t.receiver not in back]
        return []

    @property
    def over(self) -> bool:
        return self.phase == "done"

    def hands(self) -> list:
        """The four hands as they stand (sorted card lists): as dealt during
        the tribute, after the tributes during the return, then the play's."""
        if self.game is not None:
            return [self.game.cards(s) for s in range(4)]
        return [sorted(h) for h in self._hands]

    def hand(self, seat: int) -> list:
        return self.hands()[_seat(seat, "seat")]

    def legal_actions(self, seat: Optional[int] = None) -> list:
        """The choices of the actor (or, in the exchange, of ``seat``, one of
        ``waiting()``): the legal tribute or return cards, or every legal
        play (then None for a pass on a standing play)."""
        phase = self.phase
        if phase in ("tribute", "return"):
            giver = self.actor if seat is None else _seat(seat, "seat")
            if giver is None or giver not in self.waiting():
                return []
            cands = tribute_candidates if phase == "tribute" else return_candidates
            return cands(self._hands[giver], self.rules)
        if phase == "play":
            assert self.game is not None
            return self.game.legal_actions()
        return []

    def receiver(self, giver: int) -> int:
        """Who gets the card ``giver`` gives in this phase: its receiver, or
        for a return the seat that paid ``giver``. DealError when ``giver``
        gives nothing now."""
        giver = _seat(giver, "giver")
        if giver not in self.waiting():
            raise DealError(f"seat {giver} gives no card now (the deal is in its "
                            f"{self.phase} phase)")
        if self.phase == "tribute":
            return dict(self.payments)[giver]
        return next(t.giver for t in self.tributes if t.receiver == giver)

    @property
    def anti_holders(self) -> Optional[dict]:
        """Under an anti-tribute: payer seat -> big jokers held as dealt (the
        other seats know them, RULES 7); else None."""
        if not self.anti_tribute:
            return None
        payers = self.plan.payers if self.plan is not None else range(4)
        return {s: self.dealt[s].count(BIG_JOKER) for s in payers}

    @property
    def order(self) -> Optional[tuple]:
        """The finishing order, all four seats, once the deal is done."""
        if not self.over:
            return None
        assert self.game is not None
        return tuple(self.game.places())

    def result(self) -> Optional[int]:
        """Team 0's level gain once the deal is done, else None."""
        return None if self.game is None else self.game.result()

    def record(self, tags: Optional[dict] = None, players: Optional[list] = None) -> Record:
        """The deal so far as a Record (the hands as dealt, the exchange, the
        moves)."""
        return Record(hands=[list(h) for h in self.dealt], rules=self.rules,
                      tags=dict(tags or {}), players=players,
                      previous=None if self.previous is None else list(self.previous),
                      anti_tribute=self.anti_tribute, tributes=list(self.tributes),
                      returns=list(self.returns), moves=list(self.moves))

    # -- the exchange ----------------------------------------------------------
    def _verify_give(self, phase: str, giver, card, check) -> Card:
        if self.phase != phase:
            raise DealError(f"no {phase} now: the deal is in its {self.phase} phase")
        giver = _seat(giver, "giver")
        waiting = self.waiting()
        if giver not in waiting:
            raise DealError(f"seat {giver} gives no {phase} card now: "
                            + " and ".join(f"seat {s}" for s in waiting) + " still to give")
        if not isinstance(card, Card):
            raise DealError(f"the {phase} card is a Card, not {card!r}")
        hand = self._hands[giver]
        if card not in hand:
            raise DealError(f"seat {giver} does not hold {card}")
        why = check(hand, card, self.rules)
        if why:
            raise DealError(f"{phase} from seat {giver}: {why}")
        return card

    def verify_pay_tribute(self, giver: int, card: Card) -> None:
        """DealError unless ``giver`` may pay ``card`` as tribute now."""
        self._verify_give("tribute", giver, card, check_tribute_card)

    def can_pay_tribute(self, giver: int, card: Card) -> bool:
        try:
            self.verify_pay_tribute(giver, card)
        except DealError:
            return False
        return True

    def pay_tribute(self, giver: int, card: Card) -> Transfer:
        """``giver`` pays ``card`` to its receiver; once every payer has paid
        the tributes reach the receivers' hands."""
        self.verify_pay_tribute(giver, card)
        t = Transfer(int(giver), self.receiver(int(giver)), card)
        self.tributes.append(t)
        if len(self.tributes) == len(self.payments):
            self._hands = exchanged(self._hands, self.tributes)
        return t

    def verify_give_back(self, giver: int, card: Card) -> None:
        """DealError unless ``giver`` (a receiver of a tribute) may return
        ``card`` to its payer now."""
        self._verify_give("return", giver, card, check_return_card)

    def can_give_back(self, giver: int, card: Card) -> bool:
        try:
            self.verify_give_back(giver, card)
        except DealError:
            return False
        return True

    def give_back(self, giver: int, card: Card) -> Transfer:
        """``giver`` returns ``card`` to the seat that paid it; once every
        receiver has returned, the play starts."""
        self.verify_give_back(giver, card)
        t = Transfer(int(giver), self.receiver(int(giver)), card)
        self.returns.append(t)
        if len(self.returns) == len(self.tributes):
            self._hands = exchanged(self._hands, self.returns)
            self._start_play()
        return t

    # -- the play ----------------------------------------------------------------
    def verify_play(self, seat: int, play: Optional[Play]) -> None:
        """DealError unless ``seat`` may make ``play`` (None: a pass) now."""
        if self.phase != "play":
            raise DealError(f"no play now: the deal is in its {self.phase} phase"
                            + (f" (finishing order {' '.join(map(str, self.order or ()))})"
                               if self.over else ""))
        seat = _seat(seat, "seat")
        game = self.game
        assert game is not None
        if seat != game.turn:
            what = "lead" if game.table is None else "act"
            raise DealError(f"turn out of order: seat {game.turn} is to {what}, not seat {seat}")
        if play is not None and not isinstance(play, Play):
            raise DealError(f"a play is a Play or None (a pass), not {play!r}")
        why = game.why_illegal(play)
        if why is not None:
            raise DealError(why if why.startswith("seat") else f"seat {seat}: {why}")

    def can_play(self, seat: int, play: Optional[Play]) -> bool:
        try:
            self.verify_play(seat, play)
        except DealError:
            return False
        return True

    def play(self, seat: int, play: Optional[Play], line: Optional[int] = None) -> Move:
        """``seat`` plays ``play`` (None: a pass); ``line``: where a record
        wrote it (kept in the Move)."""
        self.verify_play(seat, play)
        assert self.game is not None
        move = Move(int(seat), play, line)
        self.game = self.game.apply(play)
        self.moves.append(move)
        return move

    def __repr__(self):
        return (f"<DealState phase={self.phase} actor={self.actor} tributes={len(self.tributes)} "
                f"returns={len(self.returns)} moves={len(self.moves)}>")
