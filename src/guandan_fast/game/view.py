"""What one seat knows at a decision, and the hidden hands consistent with it.

A :class:`View` is the information a player has when it must act: its own
hand, the rules (level), how many cards each seat holds, every action of the
play so far, the standing play, the seats already out, and the cards of the
tribute exchange, which are shown to the whole table (RULES §7; the platform
notifies every seat of them). From the exchange it knows where some cards
are (the tribute a receiver has not yet played, the return card a payer has
not yet played: ``known``) and where some cannot be (a payer held nothing
above the card it paid, wilds apart: ``forbidden``). It never holds the
hidden hands.

:func:`sample_deals` draws hidden hands uniformly among the deals consistent
with the view: the cards nobody has seen are dealt to the other seats to
match their counts, the known cards placed, no card where it is forbidden.
"Uniformly" means every assignment of the physical unseen cards (each of the
two copies of a card counted apart) is equally likely, which is the
posterior of a shuffled deck given what the seat saw (no inference from the
opponents' choices). The draw is exact: a shuffle when nothing is
constrained; otherwise the number of cards of each constraint class that go
to each seat is drawn with exact integer weights, then each class is
shuffled, so no rejection and no bias.

>>> from guandan_fast import Rules
>>> from guandan_fast.game.state import GameState
>>> s = GameState.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], Rules(level=2), leader=0)
>>> s = s.apply(s.find("S3"))
>>> v = View.from_state(s)               # seat 1 to act, sees its hand and S3
>>> v.seat, v.counts, [str(c) for c in v.hand], str(v.table)
(1, (1, 2, 2, 2), ['S5', 'S6'], 'S3')
>>> deals = sample_deals(v, 3, seed=1, unseen="S4 S7 S8 S9 ST")
>>> all(int(d[1].sum()) == 2 and int(d[0].sum()) == 1 for d in deals)
True
"""

from __future__ import annotations

import math
import random
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from .. import _core
from .._core import CARDS, Card, Play
from ..engine.endgame import check_seed
from ..errors import GuandanError, ViewError, shown
from ..model.cards import FACE_2_TO_10, MAX_COPIES, MAX_HAND, MAX_HOLDING, parse_cards
from ..model.counts import HandLike, from_counts, to_counts
from ..model.rules import Rules
from ..model.seats import check_seat, passes_between, team_out
from .record import state_before
from .state import GameState

__all__ = ["View", "sample_deals", "PHASES", "Deal"]

PHASES = ("play", "tribute", "return")
# sample_deals draws at most this many deals in one call (a deal takes about
# 0.5 KB: a million is half a gigabyte; more is an error, not the machine's memory)
MAX_SAMPLE_DEALS = 1_000_000
Deal = tuple  # four 54-count uint8 arrays, seats 0..3

_FULL_DECK = np.full(54, MAX_COPIES, dtype=np.int64)


def _seat(value, what: str) -> int:
    return check_seat(value, what, ViewError)


def _items(value, what: str) -> list:
    """A sequence argument (``finished``, ``tributes``...) as a list, else
    a ViewError naming it."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ViewError(f"{what} must be a sequence, not {type(value).__name__}")
    return list(value)


def _cards(value, what: str, max_cards: int = 108) -> list[Card]:
    if isinstance(value, np.ndarray):
        try:
            return from_counts(to_counts(value, max_cards=max_cards))
        except GuandanError as e:
            raise ViewError(f"{what}: {e}") from None
    try:
        return sorted(parse_cards(value if value is not None else (), max_cards=max_cards))
    except GuandanError as e:
        raise ViewError(f"{what}: {e}") from None


def _transfer(t, what: str) -> tuple[int, int, Card]:
    """(giver, receiver, card) of a Transfer-like object or a 3-tuple."""
    if hasattr(t, "giver"):
        g, r, c = t.giver, t.receiver, t.card
    else:
        try:
            g, r, c = t
        except (TypeError, ValueError):
            raise ViewError(f"{what}: (giver, receiver, card), not {t!r}") from None
    g, r = _seat(g, f"{what} giver"), _seat(r, f"{what} receiver")
    if g == r:
        raise ViewError(f"{what}: seat {g} gives a card to itself")
    cards = _cards([c] if isinstance(c, Card) else c, what)
    if len(cards) != 1:
        raise ViewError(f"{what}: one card is given, not {len(cards)}")
    return g, r, cards[0]


_ORDERS: dict = {}


def _orders(rules: Rules) -> list[int]:
    """Single-card order of each of the 54 cards at these rules (cached)."""
    key = rules.level_index
    if key not in _ORDERS:
        _ORDERS[key] = [rules.order(CARDS[i].rank) for i in range(54)]
    return _ORDERS[key]


class View:
    """The information of one seat at one decision.

    ``seat``: the seat whose view this is (it acts during the play when
    ``turn == seat``); ``hand``: its cards; ``rules``; ``counts``: the number
    of cards each seat holds now; ``history``: every action of the play so
    far, ``(seat, Play)`` or ``(seat, None)`` for a pass, in order;
    ``table``/``owner``/``passes``: the standing play, its owner and the
    passes since it (None, None, 0 on a free lead); ``finished``: the seats
    out, in order; ``turn``: the seat to act (default ``seat``).
    ``tributes``/``returns``: the exchange before the play, as
    ``(giver, receiver, card)`` triples or ``Transfer`` objects.
    ``known``: cards known to be in other seats' hands now, beyond what the
    exchange tells (a mapping seat -> cards; merged copy by copy with the
    exchange's); ``phase``: ``"play"``, ``"tribute"`` (this seat pays) or
    ``"return"`` (this seat gives back). ``unseen``: the cards the other
    seats may hold, when not all the rest of the two decks (an endgame typed
    without its history): the surplus is taken to be out of play.

    Every inconsistency raises ViewError naming the field. After
    construction: ``known`` is a tuple of four sorted card tuples (the
    viewer's own entry empty), ``forbidden`` a tuple of four frozensets of
    card ids, ``pool`` the 54-count array of the cards the others may hold.
    """

    __slots__ = ("seat", "hand", "rules", "counts", "history", "table", "owner", "passes",
                 "finished", "turn", "tributes", "returns", "phase", "known", "forbidden",
                 "pool", "_hand_counts", "_sampler")

    def __init__(self, seat: int, hand, rules: Rules, counts: Sequence[int],
                 history: Iterable = (), table: Optional[Play] = None,
                 owner: Optional[int] = None, passes: int = 0, finished: Iterable[int] = (),
                 known: Optional[Mapping[int, object]] = None, tributes: Iterable = (),
                 returns: Iterable = (), phase: str = "play", turn: Optional[int] = None,
                 unseen=None):
        if not isinstance(rules, Rules):
            raise ViewError(f"rules must be a Rules, not {type(rules).__name__}")
        self.rules = rules
        self.seat = seat = _seat(seat, "seat")
        self.hand = tuple(_cards(hand, "hand", MAX_HOLDING))
        if phase not in PHASES:
            raise ViewError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
        self.phase = phase
        if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__") or len(counts) != 4:
            raise ViewError(f"counts: four numbers of cards (seats 0..3), not {counts!r}")
        cnt = []
        for s, n in enumerate(counts):
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)) \
                    or not 0 <= int(n) <= MAX_HOLDING:
                raise ViewError(f"counts[{s}] must be 0..{MAX_HOLDING}, not {n!r}")
            cnt.append(int(n))
        if cnt[seat] != len(self.hand):
            raise ViewError(f"counts[{seat}] is {cnt[seat]} but the hand holds "
                            f"{len(self.hand)} cards")
        self.counts = tuple(cnt)
        # the play so far
        hist = []
        lv = rules.level_index
        if isinstance(history, (str, bytes, dict)) or not hasattr(history, "__iter__"):
            raise ViewError(f"history: a list of (seat, Play or None), not "
                            f"{type(history).__name__}")
        for i, item in enumerate(history):
            try:
                s, p = item
            except (TypeError, ValueError):
                raise ViewError(f"history[{i}]: (seat, Play or None), not {item!r}") from None
            if type(s) is not int or not 0 <= s <= 3:
                s = _seat(s, f"history[{i}] seat")
            if p is not None and (type(p) is not Play or p.level_index != lv):
                raise ViewError(f"history[{i}]: a Play read at level {rules.level} or None")
            hist.append((s, p))
        self.history = tuple(hist)
        if table is not None and (not isinstance(table, Play)
                                  or table.level_index != rules.level_index):
            raise ViewError(f"table must be a Play read at level {rules.level} or None")
        self.table = table
        if (table is None) != (owner is None):
            raise ViewError("owner must be given exactly when there is a table play")
        self.owner = None if owner is None else _seat(owner, "owner")
        if isinstance(passes, bool) or not isinstance(passes, (int, np.integer)) \
                or not 0 <= passes <= 3 or (table is None and passes):
            raise ViewError(f"passes must be 0..3 (0 on a free lead), not {passes!r}")
        self.passes = int(passes)
        fin = tuple(_seat(s, "a finished seat") for s in _items(finished, "finished"))
        if len(set(fin)) != len(fin):
            raise ViewError(f"a seat appears twice in finished {fin}")
        for s in range(4):
            if (s in fin) != (cnt[s] == 0) and phase == "play":
                raise ViewError(f"seat {s}: {'out but holds cards' if s in fin else 'holds no cards but is not out'}")
        self.finished = fin
        self.turn = seat if turn is None else _seat(turn, "turn")
        if phase == "play":
            # RULES 1: a hand holds at most 27 cards once the returns are made;
            # RULES 6: the deal ends once both players of a team are out
            for s in range(4):
                if cnt[s] > MAX_HAND:
                    raise ViewError(f"counts[{s}] is {cnt[s]}: at most {MAX_HAND} in the play phase")
            out = team_out(fin)
            if out is not None:
                raise ViewError(f"the deal is over: seats {out} and {out + 2} are out")
            if self.turn in fin:
                raise ViewError(f"turn: seat {self.turn} is out and cannot act")
            holder = self.owner
            if table is not None and holder is not None:   # the standing play as a Position has it
                if holder == self.turn:
                    raise ViewError(f"seat {self.turn} cannot act on its own standing play")
                if cnt[holder] == 0 and (not fin or fin[-1] != holder):
                    raise ViewError(f"the owner, seat {holder}, is out: it went out with "
                                    "the table play, so it must be the last of finished")
                expected = passes_between(holder, self.turn, [c > 0 for c in cnt])
                if self.passes != expected:
                    raise ViewError(f"passes={self.passes} is inconsistent: {expected} seat(s) "
                                    f"holding cards sit between the owner {holder} and "
                                    f"the seat to act {self.turn}")
        self.tributes: tuple[tuple[int, int, Card], ...] = tuple(
            _transfer(t, f"tributes[{i}]") for i, t in enumerate(_items(tributes, "tributes")))
        self.returns: tuple[tuple[int, int, Card], ...] = tuple(
            _transfer(t, f"returns[{i}]") for i, t in enumerate(_items(returns, "returns")))

        # the hand's counts: its cards were checked above, not checked again here
        own = np.bincount([c.id for c in self.hand], minlength=54).astype(np.int64)
        self._hand_counts = own.astype(np.uint8)
        # the cards each seat played: slot seat * 54 + card
        played = np.bincount([s * 54 + cid for s, p in self.history if p is not None
                              for cid in p.card_ids], minlength=4 * 54).reshape(4, 54)
        played = played.astype(np.int64)
        # known cards: the exchange, copy by copy, less the copies played since
        held = np.zeros((4, 54), dtype=np.int64)
        for g, r, c in self.tributes + self.returns:
            if held[g, c.id] > 0:
                held[g, c.id] -= 1
            held[r, c.id] += 1
        held = np.maximum(held - played, 0)
        if known:
            if not isinstance(known, Mapping):
                raise ViewError("known: a mapping seat -> cards")
            for s, cards in known.items():
                s = _seat(s, "a known seat")
                extra = to_counts(_cards(cards, f"known[{s}]", MAX_HOLDING),
                                  max_cards=MAX_HOLDING).astype(np.int64)
                held[s] = np.maximum(held[s], extra)
        held[seat] = 0
        for s, n in enumerate(held.sum(axis=1).tolist()):
            if n > cnt[s]:
                raise ViewError(f"known: {n} cards known in seat {s}, which holds {cnt[s]}")
        self.known = tuple(tuple(CARDS[int(i)] for i in np.repeat(np.arange(54), held[s]))
                           if held[s].any() else () for s in range(4))
        # forbidden cards: a payer held nothing above its tribute (wilds
        # apart); a receiver that returned a card outside 2..10 (or of the
        # level rank) held no such card and nothing lower (wilds apart)
        forb: list[set] = [set() for _ in range(4)]
        wild = rules.wild.id
        order = _orders(rules) if self.tributes or self.returns else []
        for g, _r, c in self.tributes:
            top = rules.order(c.rank)
            forb[g].update(i for i in range(54) if i != wild and order[i] > top)
        for g, _r, c in self.returns:
            if c.rank in FACE_2_TO_10 and c.rank != rules.level:
                continue
            low = rules.order(c.rank)
            forb[g].update(i for i in range(54) if i != wild and (
                order[i] < low or (CARDS[i].rank in FACE_2_TO_10 and CARDS[i].rank != rules.level)))
        forb[seat] = set()
        self.forbidden = tuple(frozenset(f) for f in forb)
        for s in range(4):
            bad = [CARDS[i] for i in self.forbidden[s] if held[s, i]]
            if bad:
                raise ViewError(f"known: seat {s} cannot hold {bad[0]} (above its tribute "
                                "or below its return)")
        # the cards the other seats may hold
        if unseen is None:
            pool = _FULL_DECK - own - played.sum(axis=0)
            what = "the hand and the cards played"
        else:
            pool = to_counts(_cards(unseen, "unseen"), max_cards=108).astype(np.int64)
            what = "unseen"
        if (pool < 0).any():
            i = int(np.nonzero(pool < 0)[0][0])
            raise ViewError(f"{CARDS[i]} appears more than twice in {what}")
        if unseen is not None:
            over = pool + own + played.sum(axis=0) > MAX_COPIES
            if over.any():
                i = int(np.nonzero(over)[0][0])
                raise ViewError(f"unseen: {CARDS[i]} appears more than twice in the hand, "
                                "the cards played and unseen")
        free = pool - held.sum(axis=0)
        if (free < 0).any():
            i = int(np.nonzero(free < 0)[0][0])
            raise ViewError(f"known: {CARDS[i]} is known in a hand but not among the unseen cards")
        hidden = sum(cnt[s] for s in range(4) if s != seat)
        if int(pool.sum()) < hidden:
            raise ViewError(f"the other seats hold {hidden} cards but only {int(pool.sum())} "
                            "are unseen")
        self.pool = pool.astype(np.uint8)
        self._sampler: Optional[_Sampler] = None

    # -- constructors --------------------------------------------------------
    @classmethod
    def from_state(cls, state: GameState, seat: Optional[int] = None, *,
                   known: Optional[Mapping[int, object]] = None, history: Iterable = (),
                   tributes: Iterable = (), returns: Iterable = (),
                   reveal: bool = False, unseen=None) -> "View":
        """The view of ``seat`` (default: the seat to act) in a GameState.

        A GameState keeps no history: pass ``history`` (the actions so far)
        and the exchange when they matter; ``known`` then adds what else the
        seat knows. ``reveal=True`` gives a perfect-information view (every
        hidden card known), the view a double-dummy analysis takes.
        """
        seat = state.turn if seat is None else _seat(seat, "seat")
        if reveal:
            known = {s: state.hands[s] for s in range(4) if s != seat}
        return cls(seat, state.hands[seat], state.rules, [state.count(s) for s in range(4)],
                   history=history, table=state.table, owner=state.owner,
                   passes=state.passes, finished=state.finished, known=known,
                   tributes=tributes, returns=returns, turn=state.turn, unseen=unseen)

    @classmethod
    def from_exchange(cls, deal, seat: Optional[int] = None) -> "View":
        """The view of ``seat`` (default: the actor) in a DealState's
        exchange: its hand and each seat's count as they stand (as dealt
        while the tributes are paid, after them while the cards go back),
        the tributes paid once the returns are due."""
        if deal.phase not in ("tribute", "return"):
            raise ViewError(f"no exchange in the {deal.phase} phase")
        seat = deal.actor if seat is None else _seat(seat, "seat")
        hands = deal.hands()
        return cls(seat, hands[seat], deal.rules, [len(h) for h in hands],
                   tributes=list(deal.tributes) if deal.phase == "return" else (),
                   phase=deal.phase)

    @classmethod
    def from_record(cls, record, decision_index: int, seat: Optional[int] = None) -> "View":
        """The view of the seat acting at decision ``decision_index`` (0 =
        the first action of the play) of a deal record, or of ``seat`` at
        that moment. An anti-tribute shows the big jokers (RULES §7): their
        holders are known."""
        n = len(record.moves)
        if isinstance(decision_index, bool) or not isinstance(decision_index, (int, np.integer)) \
                or not 0 <= decision_index <= n:
            raise ViewError(f"decision_index must be 0..{n}, not {decision_index!r}")
        # the record's deal replayed (DealState) up to that decision
        state = state_before(record, decision_index)
        history = [(move.seat, move.play) for move in record.moves[:decision_index]]
        if state.over:
            raise ViewError(f"the deal is over after {decision_index} actions")
        seat = state.turn if seat is None else _seat(seat, "seat")
        known = None
        if record.anti_tribute:
            big = Card("HR")
            known = {s: [c for c in record.hands[s] if c == big] for s in range(4)}
            for s in range(4):
                gone = sum(c == big for m in record.moves[:decision_index]
                           if m.seat == s and m.play is not None for c in m.play.cards)
                known[s] = known[s][gone:]
        return cls(seat, state.hands[seat], state.rules, [state.count(s) for s in range(4)],
                   history=history, table=state.table, owner=state.owner,
                   passes=state.passes, finished=state.finished, known=known,
                   tributes=record.tributes, returns=record.returns, turn=state.turn)

    # -- reading the view ----------------------------------------------------
    @property
    def hand_counts(self) -> np.ndarray:
        """The seat's hand as a 54-count array (a copy)."""
        return self._hand_counts.copy()

    @property
    def perfect(self) -> bool:
        """True when exactly one deal is consistent with the view: every
        hidden card known, or all the unseen cards in one seat's hand."""
        if all(len(self.known[s]) == self.counts[s] for s in range(4) if s != self.seat):
            return True
        if self._sampler is None:
            self._sampler = _Sampler(self)
        return self._sampler.total == 1

    def legal_actions(self) -> list[Optional[Play]]:
        """The legal plays of this seat (one per pattern), then None for a
        pass when it follows a standing play. Only in the play phase, on the
        seat's own turn."""
        if self.phase != "play":
            raise ViewError(f"no plays in the {self.phase} phase")
        if self.turn != self.seat:
            raise ViewError(f"seat {self.seat} is not to act (seat {self.turn} is)")
        r, hand = self.rules, self._hand_counts
        if self.table is None:
            return list(_core._py_plays(hand, r.level_index, r.flags))
        return list(_core._py_beating_plays(hand, r.level_index, r.flags, self.table)) + [None]

    def state(self, deal: Sequence[np.ndarray]) -> GameState:
        """The GameState of this decision with the hidden hands of ``deal``
        (one of ``sample_deals``)."""
        return GameState(list(deal), self.rules, turn=self.turn, table=self.table,
                         owner=self.owner, passes=self.passes, finished=self.finished)

    def __repr__(self):
        return (f"<View seat={self.seat} phase={self.phase} turn={self.turn} "
                f"counts={self.counts} table={self.table} history={len(self.history)} "
                f"known={sum(map(len, self.known))}>")


# -- sampling -------------------------------------------------------------------

def _splits(n: int, seats: Sequence[int], rem: Sequence[int]):
    """Every way to give n items to ``seats`` (indices into rem), at most
    rem[s] to each: tuples aligned with ``seats``."""
    if not seats:
        if n == 0:
            yield ()
        return
    if len(seats) == 1:
        if n <= rem[seats[0]]:
            yield (n,)
        return
    first, rest = seats[0], seats[1:]
    cap = sum(rem[s] for s in rest)
    for k in range(max(0, n - cap), min(n, rem[first]) + 1):
        for tail in _splits(n - k, rest, rem):
            yield (k,) + tail


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = math.factorial(n)
    for k in parts:
        out //= math.factorial(k)
    return out


class _Sampler:
    """The exact draw for one view: the unseen copies grouped by the set of
    seats allowed to hold them, and the integer weight of every way to fill
    the seats' needs class by class."""

    def __init__(self, view: View):
        self.view = view
        others = [s for s in range(4) if s != view.seat and view.counts[s] > 0]
        need = [view.counts[s] - len(view.known[s]) for s in others]
        free = view.pool.astype(np.int64).copy()
        for s in range(4):
            for c in view.known[s]:
                free[c.id] -= 1
        surplus = int(free.sum()) - sum(need)
        # destination 'out of play' when the unseen cards outnumber the holes
        self.dest = others + ([-1] if surplus > 0 else [])
        self.need = need + ([surplus] if surplus > 0 else [])
        groups: dict = {}
        for cid in range(54):
            if not free[cid]:
                continue
            allowed = tuple(i for i, s in enumerate(self.dest)
                            if s == -1 or cid not in view.forbidden[s])
            if not allowed:
                raise ViewError(f"{CARDS[cid]} is unseen but no seat may hold it")
            groups.setdefault(allowed, []).extend([cid] * int(free[cid]))
        # small classes first; the largest last (its split is then forced)
        self.classes = sorted(groups.items(), key=lambda kv: len(kv[1]))
        self.memo: dict = {}
        self.total = self._ways(0, tuple(self.need))
        if self.total == 0:
            raise ViewError("no deal is consistent with the view (counts, known and "
                            "forbidden cards)")
        self.known = [np.zeros(54, dtype=np.uint8) for _ in range(4)]
        for s in range(4):
            for c in view.known[s]:
                self.known[s][c.id] += 1

    def _ways(self, k: int, rem: tuple) -> int:
        if k == len(self.classes):
            return 1 if not any(rem) else 0
        key = (k, rem)
        if key in self.memo:
            return self.memo[key]
        allowed, cards = self.classes[k]
        n = len(cards)
        total = 0
        if k == len(self.classes) - 1:
            ok = sum(rem) == n and all(rem[i] == 0 for i in range(len(rem)) if i not in allowed)
            total = _multinomial(n, rem) if ok else 0
        else:
            for split in _splits(n, allowed, rem):
                nxt = list(rem)
                for i, x in zip(allowed, split):
                    nxt[i] -= x
                w = self._ways(k + 1, tuple(nxt))
                if w:
                    total += _multinomial(n, split) * w
        self.memo[key] = total
        return total

    def draw(self, rng: random.Random) -> Deal:
        view = self.view
        rem = list(self.need)
        out = [np.zeros(54, dtype=np.uint8) for _ in range(4)]
        out[view.seat] = view.hand_counts
        for s in range(4):
            if s != view.seat:
                out[s] += self.known[s]
        for k, (allowed, cards) in enumerate(self.classes):
            n = len(cards)
            if k == len(self.classes) - 1:
                split = tuple(rem[i] for i in allowed)
            else:
                # a split with probability multinomial * ways(rest) / ways(here)
                here = self._ways(k, tuple(rem))
                pick = rng.randrange(here)
                for split in _splits(n, allowed, rem):
                    nxt = list(rem)
                    for i, x in zip(allowed, split):
                        nxt[i] -= x
                    w = _multinomial(n, split) * self._ways(k + 1, tuple(nxt))
                    if pick < w:
                        break
                    pick -= w
            deck = list(cards)
            rng.shuffle(deck)
            arr = np.array(deck, dtype=np.intp)
            at = 0
            for i, x in zip(allowed, split):
                rem[i] -= x
                seat = self.dest[i]
                if seat >= 0 and x:
                    out[seat] += np.bincount(arr[at:at + x], minlength=54).astype(np.uint8)
                at += x
        return tuple(out)


def sample_deals(view: View, n: int, seed: int = 0,
                 unseen: Optional[HandLike] = None) -> list[Deal]:
    """``n`` deals drawn uniformly among those consistent with ``view``:
    each a tuple of four 54-count uint8 arrays (seats 0..3), the seat's own
    hand in its place, finished seats empty. ``seed`` makes the draw
    reproducible; ``unseen`` restricts the cards the others may hold (see
    View). ``view.state(deal)`` is the GameState to evaluate.
    """
    if not isinstance(view, View):
        raise ViewError(f"view: a View, not {type(view).__name__}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ViewError(f"n must be a number of deals >= 0, not {shown(repr(n))}")
    if n > MAX_SAMPLE_DEALS:
        raise ViewError(f"n: at most MAX_SAMPLE_DEALS = {MAX_SAMPLE_DEALS} deals at a time, "
                        f"not {n}")
    seed = check_seed(seed, error=ViewError)       # -1 drew what 1 draws, None at random
    if unseen is not None:
        view = View(view.seat, view.hand, view.rules, view.counts, view.history, view.table,
                    view.owner, view.passes, view.finished,
                    known={s: view.known[s] for s in range(4)}, tributes=view.tributes,
                    returns=view.returns, phase=view.phase, turn=view.turn, unseen=unseen)
    if view._sampler is None:
        view._sampler = _Sampler(view)
    rng = random.Random(seed)
    return [view._sampler.draw(rng) for _ in range(int(n))]
