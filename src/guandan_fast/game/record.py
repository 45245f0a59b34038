"""The deal record's domain types: one deal as it was played.

A ``Record`` holds the tags, the rules, the players, the hands as dealt,
the previous finishing order (when known), the tribute exchange
(``Transfer``) and the actions of the play (``Move``). ``DealState``
(``game.deal``) produces one (``DealState.record``) and replays one
(``Record.deal_state``, ``replay``); the text form is ``formats.record``,
the JSON form ``formats.record_json``.

>>> from guandan_fast import Rules
>>> from guandan_fast.game.deal import DealState
>>> deal = DealState(["S3", "S9 S4", "SA", "S5"], Rules(level=2), leader=0)
>>> for seat, cards in ((0, "S3"), (1, "S9"), (2, "SA")):
...     _ = deal.play(seat, deal.game.find(cards))
>>> rec = deal.record()
>>> rec.result(), [str(m) for m in rec.moves], final_state(rec).finished
(3, ['0: S3', '1: S9', '2: SA'], (0, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Optional

from .._core import Card, Play
from ..errors import DealError
from ..model.rules import Rules
from .state import GameState

if TYPE_CHECKING:
    from .deal import DealState

__all__ = ["Record", "Move", "Transfer", "Step", "exchanged", "replay", "final_state",
           "state_before"]


@dataclass(frozen=True)
class Transfer:
    """A card given from one seat to another (a tribute or a return)."""

    giver: int
    receiver: int
    card: Card

    def __str__(self):
        return f"{self.giver} -> {self.receiver}: {self.card}"


def exchanged(hands, transfers) -> list:
    """New lists of the four hands after each transfer (``giver``,
    ``receiver``, ``card``, such as a ``Transfer``) moves its card, in
    order; ValueError (from ``list.remove``) when a giver does not hold
    its card."""
    out = [list(h) for h in hands]
    for t in transfers:
        out[t.giver].remove(t.card)
        out[t.receiver].append(t.card)
    return out


@dataclass(frozen=True, eq=False)
class Move:
    """One decision of the play: ``seat`` plays ``play`` (None: a pass);
    ``line``: where a loaded record wrote it (not compared)."""

    seat: int
    play: Optional[Play]    # None: a pass
    line: Optional[int] = field(default=None, compare=False, repr=False)

    @property
    def is_pass(self) -> bool:
        return self.play is None

    def _key(self):
        return (self.seat, self.play, None if self.play is None else sorted(self.play.card_ids))

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # equal moves may differ in line

    def __str__(self):
        return f"{self.seat}: {'pass' if self.play is None else self.play}"


@dataclass
class Record:
    """One deal: tags, rules, players, the hands as dealt, the tribute
    exchange and the actions. ``DealState.record`` makes one, the loaders
    (``formats.record``, ``formats.record_json``) read one."""

    hands: list
    rules: Rules = field(default_factory=Rules)
    tags: dict = field(default_factory=dict)
    players: Optional[list] = None
    previous: Optional[list] = None
    anti_tribute: bool = False
    tributes: list = field(default_factory=list)
    returns: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    # what a loader noticed but read as the rules say (a token mixing Latin
    # and Cyrillic look-alikes), one text each naming the line: not compared
    warnings: list = field(default_factory=list, compare=False, repr=False)

    @property
    def leader(self) -> Optional[int]:
        return self.moves[0].seat if self.moves else None

    def hands_after_tribute(self) -> list:
        """The four hands once the tribute and the returns are exchanged."""
        return [sorted(h) for h in exchanged(self.hands, list(self.tributes) + list(self.returns))]

    def deal_state(self, leader: Optional[int] = None) -> "DealState":
        """A DealState at the start of this deal, before its exchange: the
        previous finishing order decides the tribute (RULES §7) when the
        record gives it; else the record's own exchange is taken as it is.
        ``leader``: who leads the play (default: the record's first mover)."""
        from .deal import DealState
        leader = self.leader if leader is None else leader
        if self.previous:
            return DealState(self.hands, self.rules, self.previous, leader=leader)
        return DealState(self.hands, self.rules, leader=leader,
                         payments=[(t.giver, t.receiver) for t in self.tributes],
                         anti_tribute=self.anti_tribute)

    def start_state(self) -> GameState:
        """The state of the play at its first action (after the exchange)."""
        return GameState.start(self.hands_after_tribute(), self.rules,
                               leader=self.leader if self.leader is not None else 0)

    def result(self) -> Optional[int]:
        """Team 0's level gain, or None when the record stops early."""
        return final_state(self).result()

    def name(self, seat: int) -> str:
        return self.players[seat] if self.players else f"seat {seat}"


@dataclass
class Step:
    """A decision in ``replay``: the state of the play before it and the
    move made."""

    index: int
    state: GameState
    move: Move


def _played(record: Record) -> "DealState":
    """The record's DealState after its exchange: the tribute and the
    returns given (the play phase, or done)."""
    deal = record.deal_state()
    for t in record.tributes:
        if deal.pay_tribute(t.giver, t.card) != t:
            raise DealError(f"the tribute {t}: seat {t.giver} pays seat "
                            f"{deal.tributes[-1].receiver} (RULES 7)")
    for t in record.returns:
        if deal.give_back(t.giver, t.card) != t:
            raise DealError(f"the return {t}: seat {t.giver} returns to seat "
                            f"{deal.returns[-1].receiver}, who paid it")
    return deal


def replay(record: Record) -> Iterator[Step]:
    """The state of the play before each decision of the record, with the
    move made (the record driven through ``DealState``)."""
    deal = _played(record)
    for i, move in enumerate(record.moves):
        assert deal.game is not None      # the exchange is over: the play phase
        yield Step(i, deal.game, move)
        deal.play(move.seat, move.play)


def final_state(record: Record) -> GameState:
    """The state of the play after the last recorded action."""
    return state_before(record, len(record.moves))


def state_before(record: Record, index: int) -> GameState:
    """The state of the play before the record's action ``index`` (after
    its first ``index`` actions): the deal led by the record's first mover
    even when ``index`` is 0 (a record cut before its first action would
    not say who leads)."""
    deal = _played(record)
    for move in record.moves[:index]:
        deal.play(move.seat, move.play)
    assert deal.game is not None
    return deal.game
