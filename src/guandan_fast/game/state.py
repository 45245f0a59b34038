"""The play of a deal (RULES §6) as a state machine.

A ``GameState`` holds the four hands (54-count arrays), the seat to act, the
standing play and its owner (or a free lead), the passes since that play and
the seats already finished, in order. ``apply`` returns the next state;
``legal_actions`` lists every play (one per pattern) and, when there is a
standing play, ``None`` for a pass. The state knows the finishing order and,
once the deal is over, the level gain of team 0 (seats 0 and 2).

The fields are those of ``guandan_fast.engine.endgame.Position``;
``to_position()`` makes one (``estimate`` takes a state as it is).

>>> from guandan_fast import Rules, read_play
>>> rules = Rules(level=2)
>>> s = GameState.start(["S3", "S4 S6", "SA", "S5"], rules, leader=0)
>>> s = s.apply(s.find("S3"))          # seat 0 plays out at once
>>> s.finished, s.turn, str(s.table), s.owner
((0,), 1, 'S3', 0)
>>> s = s.apply(s.find("S4"))          # seat 1 beats it
>>> s = s.apply(s.find("SA"))          # seat 2 goes out: team 0 is done
>>> s.over, s.finished, s.result()
(True, (0, 2), 3)
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, cast

import numpy as np

from .. import _core
from .._core import Card, Play
from ..engine.endgame import Position
from ..errors import GuandanError, HandError, PlayError, PositionError
from ..model.cards import MAX_HOLDING
from ..model.counts import HandLike, from_counts, to_counts
from ..model.rules import Rules, _rules, beats, classify
from ..model.seats import check_seat, partner, passes_between, team, team_out

__all__ = ["GameState", "partner", "team", "level_gain"]


def _seat(value: object, what: str) -> int:
    return check_seat(value, what, PlayError)


def level_gain(finished: Sequence[int]) -> Optional[int]:
    """Team 0's level gain (RULES 6, 8) for a finishing order, or None while
    neither team has both players out.

    >>> level_gain([1, 3]), level_gain([0, 1, 2]), level_gain([2, 1, 3]), level_gain([0, 1])
    (-3, 2, 1, None)
    """
    if team_out(finished) is None:
        return None
    first = finished[0]
    mate = partner(first)
    place = list(finished).index(mate) if mate in finished else 3
    gain = {1: 3, 2: 2, 3: 1}[place]
    return gain if team(first) == 0 else -gain


class GameState:
    """One moment of a deal: whose turn it is and what stands on the table.

    ``hands``: four hands (any card notation, card lists or 54-count arrays);
    ``turn``: the seat to act; ``table``: the standing ``Play`` or None for a
    free lead; ``owner``: the seat that made it; ``passes``: passes in a row
    since it; ``finished``: the seats already out, in order.
    """

    __slots__ = ("hands", "rules", "turn", "table", "owner", "passes", "finished")

    def __init__(self, hands: Sequence[HandLike], rules: Rules, turn: int = 0,
                 table: Optional[Play] = None, owner: Optional[int] = None,
                 passes: int = 0, finished: Iterable[int] = ()):
        # the public boundary: everything the core will read is checked here
        # once (apply() and copy() build states that are valid by construction)
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 4:
            raise PlayError("a deal has four hands (seats 0..3)")
        counts = []
        for seat, h in enumerate(hands):
            try:
                counts.append(np.array(to_counts(h, max_cards=MAX_HOLDING), dtype=np.uint8))
            except GuandanError as e:
                raise type(e)(f"seat {seat}: {e}") from None
        total = np.sum(counts, axis=0)
        if total.max() > 2:
            slot = int(np.argmax(total))
            raise HandError(f"{_core.CARDS[slot]} appears {int(total[slot])} times across "
                            "the hands; a double deck has two copies")
        self.hands = tuple(counts)
        try:
            self.rules = _rules(rules)
        except GuandanError as e:
            raise PlayError(str(e)) from None
        self.turn = _seat(turn, "turn")
        if isinstance(finished, (str, bytes)):
            raise PlayError("finished must be a sequence of seats")
        self.finished = tuple(_seat(x, "a finished seat") for x in finished)
        if len(set(self.finished)) != len(self.finished):
            raise PlayError(f"a seat appears twice in finished {self.finished}")
        for x in self.finished:
            if counts[x].any():
                raise PlayError(f"seat {x} is in finished but holds cards")
        if table is not None and not isinstance(table, Play):
            raise PlayError(f"table must be a Play or None, not {table!r}")
        if table is not None and table.level_index != self.rules.level_index:
            raise PlayError("the table play was read at another level")
        self.table = table
        self.owner = None if owner is None else _seat(owner, "owner")
        if (table is None) != (self.owner is None):
            raise PlayError("a table play and its owner go together")
        if isinstance(passes, bool) or not isinstance(passes, (int, np.integer)) \
                or not 0 <= int(passes) <= 2:
            raise PlayError(f"passes must be 0..2, not {passes!r}")
        if table is None and passes:
            raise PlayError("passes are given but no table play (a free lead)")
        self.passes = int(passes)

    @classmethod
    def start(cls, hands: Sequence[HandLike], rules: Rules, leader: int = 0) -> "GameState":
        """The first decision of a deal: ``leader`` leads to an empty table."""
        return cls(hands, rules, turn=leader)

    def copy(self) -> "GameState":
        s = GameState.__new__(GameState)
        s.hands = tuple(h.copy() for h in self.hands)
        s.rules, s.turn, s.table, s.owner = self.rules, self.turn, self.table, self.owner
        s.passes, s.finished = self.passes, self.finished
        return s

    def to_position(self) -> Position:
        """This decision as the engine's ``Position`` (a PositionError when
        the deal is over: there is nothing left to search)."""
        if self.over:
            raise PositionError("the deal is over: there is nothing to estimate")
        return Position([self.cards(s) for s in range(4)], self.rules, turn=self.turn,
                        table=self.table, owner=self.owner, passes=self.passes,
                        finished=self.finished)

    # -- reading the state --------------------------------------------------
    def cards(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted."""
        return from_counts(self.hands[_seat(seat, "seat")])

    def count(self, seat: int) -> int:
        return int(self.hands[_seat(seat, "seat")].sum())

    def cards_left(self) -> int:
        return int(sum(int(h.sum()) for h in self.hands))

    def active(self) -> list[int]:
        """Seats still holding cards."""
        return [s for s in range(4) if s not in self.finished]

    @property
    def over(self) -> bool:
        return team_out(self.finished) is not None

    def result(self) -> Optional[int]:
        """Team 0's level gain once the deal is over, else None."""
        return level_gain(self.finished)

    def places(self) -> list[int]:
        """The finishing order: the seats out, then the others (unplaced)."""
        return list(self.finished) + [s for s in range(4) if s not in self.finished]

    # -- moves --------------------------------------------------------------
    def legal_actions(self) -> list[Optional[Play]]:
        """Every legal play of the seat to act (one per pattern), then None
        for a pass when there is a standing play."""
        if self.over:
            return []
        r = self.rules
        hand = self.hands[self.turn]
        if self.table is None:
            # a fresh list, so widening its item type to Optional is safe
            return cast("list[Optional[Play]]", _core._py_plays(hand, r.level_index, r.flags))
        return _core._py_beating_plays(hand, r.level_index, r.flags, self.table) + [None]

    def readings(self, cards: HandLike) -> list[Play]:
        """The readings of these cards, with no regard to the table."""
        return classify(cards, self.rules)

    def find(self, cards: HandLike, type: str | None = None, rank: str | None = None) -> Play:
        """The legal play of these cards (narrowed by type/rank) for the seat
        to act; PlayError says why there is none or why it is ambiguous."""
        readings = [p for p in self.readings(cards)
                    if (type is None or p.type == type) and (rank is None or p.rank == rank)]
        if not readings:
            raise PlayError("not a valid play")
        legal = [p for p in readings if self.why_illegal(p) is None]
        if not legal:
            raise PlayError(self.why_illegal(readings[0]))
        if len(legal) > 1:
            raise PlayError("ambiguous: " + ", ".join(f"{p.type} {p.rank}" for p in legal))
        return legal[0]

    def why_illegal(self, action: Optional[Play]) -> Optional[str]:
        """None when ``action`` (a Play, or None for a pass) is legal now,
        else the reason."""
        if self.over:
            return "the deal is over"
        if action is None:
            return "a pass on a free lead" if self.table is None else None
        if not isinstance(action, Play):
            return f"a play is a Play or None (a pass), not {type(action).__name__}"
        if action.level_index != self.rules.level_index:
            return "the play was read at another level"
        need = np.zeros(54, dtype=np.int64)
        for cid in action.card_ids:
            need[cid] += 1
        short = np.nonzero(need > self.hands[self.turn])[0]
        if short.size:
            missing = " ".join(str(_core.CARDS[int(i)]) for i in short)
            return f"seat {self.turn} does not hold {missing}"
        if self.table is not None and not beats(action, self.table):
            return (f"{action.type} {action.rank} does not beat the standing "
                    f"{self.table.type} {self.table.rank} ({self.table})")
        return None

    def _next_active(self, seat: int) -> int:
        for k in range(1, 5):
            s = (seat + k) % 4
            if s not in self.finished:
                return s
        return seat

    def apply(self, action: Optional[Play]) -> "GameState":
        """The state after the seat to act plays ``action`` (None = pass).
        An illegal action is a PlayError with the reason."""
        why = self.why_illegal(action)
        if why is not None:
            raise PlayError(why)
        s = self.copy()
        seat = self.turn
        if action is None:
            s.passes += 1
            owner = s.owner
            holding = [x not in s.finished for x in range(4)]
            if owner is not None and s.passes >= passes_between(owner, owner, holding):
                # the round ends: the owner leads, or the partner (接风)
                lead = owner if owner not in s.finished else partner(owner)
                s.turn, s.table, s.owner, s.passes = lead, None, None, 0
            else:
                s.turn = s._next_active(seat)
            return s
        hand = s.hands[seat]
        for cid in action.card_ids:
            hand[cid] -= 1
        s.table, s.owner, s.passes = action, seat, 0
        if hand.sum() == 0:
            s.finished = s.finished + (seat,)
        if s.over:
            s.table, s.owner = None, None
            return s
        s.turn = s._next_active(seat)
        return s

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(map(str, self.cards(i))) or "-" for i in range(4))
        return (f"<GameState turn={self.turn} table={self.table} owner={self.owner} "
                f"passes={self.passes} finished={self.finished} hands={hands}>")

