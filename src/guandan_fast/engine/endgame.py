"""Double-dummy endgames (RULES §6 and 8): a position, and its exact value.

A :class:`Position` is the four hands (seats 0..3; seat ``s+1`` acts after
seat ``s``; partners 0 & 2 and 1 & 3), the rules, the seat to act, the
standing play with its owner and the passes since it was played (or a free
lead), and the seats already out in finishing order. :func:`solve` returns
the value of the position for team 0 (seats 0 and 2) under perfect play with
all hands visible: +3, +2, +1 when team 0 wins the deal, -1, -2, -3 when
team 1 does; and the value of every legal move of the seat to act.

Moves are patterns (RULES §8): plays that differ only in the suits of their
non-wild cards (outside straight flushes) are one move, played with the cards
the enumeration chooses (it keeps the cards of completable straight flushes).

>>> pos = Position(["S3", "S4", "SA", "S5"], Rules(level=2), turn=0)
>>> result = solve(pos)
>>> result.value, result.exact
(2, True)
>>> [(seat, str(play)) for seat, play in result.pv]
[(0, 'S3'), (1, 'S4'), (2, 'SA')]

Seat 0 goes out first with S3; seat 1 must play out S4 at once (if it
passed, seat 2 would go out second for +3); seat 2 then goes out third: +2.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from .._core import Card, Play
from ..model.cards import MAX_HAND, format_cards, parse_cards
from ..errors import GuandanError, LimitError, PositionError
from ..model.rules import Rules, read_play
from ..model.seats import SEATS, check_seat, passes_between, team_out
from .value import MoveValue

__all__ = ["Position", "EndgameResult", "SolveInterrupted", "solve", "VALUES",
           "check_limits", "check_count", "check_threads", "MAX_NODES", "MAX_SECONDS",
           "MAX_THREADS", "NODES_PER_PLAYOUT"]

VALUES = (3, 2, 1, -1, -2, -3)
NODES_PER_PLAYOUT = 2000   # the solver's nodes worth one rollout of a playout budget (a
#                            budget given as playouts is then the same on every machine)


@dataclass(frozen=True)
class Schedule:
    """How solve() schedules the searches of the root moves (the values
    never depend on it, only the work).

    ``first_at_root``: each move's first null-window test asks whether it
    reaches the root value (cheap to prove for the good moves, and many
    moves are as good as the best). ``pass_weight``: the move order's malus
    of a pass when an opponent owns the table, for a thread's own moves;
    ``helper_pass_weight``: the same for a thread helping another with the
    same move (a pass before the plays that leave the hand no shorter) --
    another order makes the two searches drift apart, so each finds table
    entries the other has written (measured: a little faster than the
    history heuristic as the other order, on 20 4x8 endgames with two
    threads). ``helpers``: a thread left without a move helps another.
    """

    first_at_root: bool = True
    pass_weight: int = 5000
    helper_pass_weight: int = -8000
    helpers: bool = True


SCHEDULE = Schedule()


MAX_NODES = 10 ** 15          # about a year of search at 30 M nodes a second
MAX_SECONDS = 10.0 ** 7       # about 116 days
MAX_THREADS = 256


def check_count(value, what: str, most: int, least: int = 1, error=LimitError) -> int:
    """An integer in least..most, else ``error`` naming ``what`` (a bool,
    a float or a text is not a count)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise error(f"{what} must be an integer {least}..{most}, not {value!r}")
    if not least <= value <= most:
        shown = value if abs(int(value)) < 10 ** 30 else f"a {len(str(value))}-digit number"
        raise error(f"{what} must be {least}..{most}, not {shown}")
    return int(value)


def check_threads(threads, error=LimitError) -> int:
    """A thread count 1..MAX_THREADS, else ``error`` naming ``threads``."""
    return check_count(threads, "threads", MAX_THREADS, error=error)


def check_limits(max_nodes, max_seconds):
    """(max_nodes, max_seconds) checked: None, or a node count 1..MAX_NODES,
    and a finite number of seconds, more than 0 and at most MAX_SECONDS (NaN
    and infinity are errors: a NaN limit would never stop the search)."""
    if max_nodes is not None:
        max_nodes = check_count(max_nodes, "max_nodes", MAX_NODES)
    if max_seconds is not None:
        max_seconds = check_seconds(max_seconds)
    return max_nodes, max_seconds


def check_seconds(value, what: str = "max_seconds", error=LimitError) -> float:
    """A number of seconds, finite, more than 0 and at most MAX_SECONDS (as
    a float), else ``error`` naming ``what`` (NaN, infinity, a bool, a text
    and an integer too large for a float are errors)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise error(f"{what} must be a number of seconds, not {value!r}"[:120])
    try:
        x = float(value)
    except OverflowError:
        x = float("inf")
    if not (0 < x <= MAX_SECONDS):       # False for NaN
        shown = repr(value) if x == x and abs(x) < 1e30 else "nan" if x != x else \
            str(x) if isinstance(value, (float, np.floating)) else "a number too large"
        raise error(f"{what} must be more than 0 and at most {MAX_SECONDS:g}, not {shown}")
    return x


def check_seed(value, what: str = "seed", bits: int = 64, error=LimitError) -> int:
    """A seed: an integer 0..2**bits-1 (NumPy integers too), as a Python
    int, else ``error`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value < 2 ** bits:
        raise error(f"{what} must be an integer in 0..2**{bits}-1, not {value!r}"[:120])
    return int(value)


def _as_rules(rules) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    try:
        return Rules(level=rules)
    except GuandanError as e:
        raise PositionError(str(e)) from None


def _seat(value, what: str) -> int:
    return check_seat(value, what, PositionError)


class Position:
    """An endgame position. Every inconsistency raises PositionError.

    ``hands``: four hands for seats 0..3 (text in any notation, or lists of
    cards or tokens; an empty hand for a seat that is out). ``rules``: a
    Rules or a level. ``table``: the standing Play (or its cards as text, read
    at these rules) or None for a free lead; ``owner``: the seat that played
    it; ``passes``: the passes in a row since it was played. ``finished``:
    the seats already out, in finishing order.

    >>> Position(["S3", "", "S4", "S5"], 2, turn=0)
    Traceback (most recent call last):
    ...
    guandan_fast.errors.PositionError: seat 1 holds no cards but is not in finished
    """

    __slots__ = ("hands", "rules", "turn", "table", "owner", "passes", "finished")
    hands: Tuple[Tuple[Card, ...], ...]
    rules: Rules
    turn: int
    table: Optional[Play]
    owner: Optional[int]
    passes: int
    finished: Tuple[int, ...]

    def __init__(self, hands: Sequence, rules=None, turn: int = 0,
                 table: Optional[Play] = None, owner: Optional[int] = None,
                 passes: int = 0, finished: Iterable[int] = ()):
        rules = _as_rules(rules)
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
            raise PositionError("hands must be a sequence of four hands (seats 0..3)")
        if len(hands) != 4:
            raise PositionError(f"a position needs four hands (seats 0..3), not {len(hands)}")
        parsed: List[Tuple[Card, ...]] = []
        for s, h in enumerate(hands):
            if h is None:
                h = ()
            try:
                cards = parse_cards(h, max_cards=MAX_HAND)
            except GuandanError as e:
                raise PositionError(f"seat {s}: {e}") from None
            parsed.append(tuple(sorted(cards)))
        # the table play
        if isinstance(table, str):
            try:
                table = read_play(table, rules)
            except GuandanError as e:
                raise PositionError(f"table: {e}") from None
        if table is not None and not isinstance(table, Play):
            raise PositionError(f"table must be a Play, card text or None, not {table!r}")
        if table is not None and table.level_index != rules.level_index:
            raise PositionError(f"the table play was read at level {table.level}, "
                                f"the position is played at level {rules.level}")
        # at most two copies of a card among the hands and the table
        seen = Counter(c for h in parsed for c in h)
        if table is not None:
            seen.update(table.cards)
        for card, n in sorted(seen.items()):
            if n > 2:
                where = " and the table" if table is not None and card in table.cards else ""
                raise PositionError(f"{card} appears {n} times across the hands{where}; "
                                    "a double deck has two copies")
        # finishing order
        if isinstance(finished, (str, bytes)) or not hasattr(finished, "__iter__"):
            raise PositionError("finished must be a sequence of seats")
        fin = tuple(_seat(s, "a finished seat") for s in finished)
        if len(set(fin)) != len(fin):
            raise PositionError(f"a seat appears twice in finished {fin}")
        for s in SEATS:
            if s in fin and parsed[s]:
                raise PositionError(f"seat {s} is in finished but holds "
                                    f"{len(parsed[s])} cards")
            if s not in fin and not parsed[s]:
                raise PositionError(f"seat {s} holds no cards but is not in finished")
        out = team_out(fin)
        if out is not None:
            raise PositionError(f"seats {out} and {out + 2} are both out: the deal is over")
        turn = _seat(turn, "turn")
        if not parsed[turn]:
            raise PositionError(f"the seat to act ({turn}) holds no cards")
        # standing play, owner, passes
        if isinstance(passes, bool) or not isinstance(passes, (int, np.integer)):
            raise PositionError(f"passes must be an integer, not {passes!r}")
        passes = int(passes)
        if table is None:
            if owner is not None:
                raise PositionError("an owner is given but no table play")
            if passes:
                raise PositionError("passes are given but no table play (a free lead)")
        else:
            if owner is None:
                raise PositionError("a table play needs its owner (the seat that played it)")
            owner = _seat(owner, "owner")
            if owner == turn:
                raise PositionError(f"seat {turn} cannot act on its own standing play")
            if not parsed[owner] and (not fin or fin[-1] != owner):
                raise PositionError(f"the owner, seat {owner}, is out: it went out with "
                                    "the table play, so it must be the last of finished")
            expected = passes_between(owner, turn, [bool(h) for h in parsed])
            if passes != expected:
                raise PositionError(
                    f"passes={passes} is inconsistent: {expected} seat(s) holding cards "
                    f"sit between the owner {owner} and the seat to act {turn}, "
                    "and each of them has passed")
        init = object.__setattr__          # checked once: a Position is never changed after
        init(self, "hands", tuple(parsed))
        init(self, "rules", rules)
        init(self, "turn", turn)
        init(self, "table", table)
        init(self, "owner", owner)
        init(self, "passes", passes)
        init(self, "finished", fin)

    def __setattr__(self, name, value):
        raise PositionError(f"a Position is checked when it is made and never changed: "
                            f"make a new one (with {name} changed)"[:120])

    def __reduce__(self):
        # pickled and copied as its arguments, so a copy is checked as it is made
        return (Position, (self.hands, self.rules, self.turn, self.table, self.owner,
                           self.passes, self.finished))

    def counts(self) -> np.ndarray:
        """The hands as a (4, 54) uint8 count array."""
        arr = np.zeros((4, 54), dtype=np.uint8)
        for s, h in enumerate(self.hands):
            for c in h:
                arr[s, c.id] += 1
        return arr

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self):
        """Evaluable (with Position, Rules and read_play in scope): the
        rules as the level when they are the default ones at it, the table
        as its cards when they have one reading at these rules.

        >>> from guandan_fast import Rules, read_play
        >>> pos = Position(["", "H9", "C3", "D4"], "2", turn=2, owner=0, passes=1,
        ...                table=read_play("S3 S4 S5 S6 S7", "2", type="straight_flush"),
        ...                finished=[0])
        >>> pos
        Position(['', 'H9', 'C3', 'D4'], '2', turn=2, table=read_play('S3 S4 S5 S6 S7', '2', type='straight_flush', rank='7'), owner=0, passes=1, finished=(0,))
        >>> eval(repr(pos)) == pos
        True
        """
        hands = ", ".join(repr(format_cards(h)) for h in self.hands)
        rules = self.rules.level if self.rules == Rules(level=self.rules.level) \
            else self.rules
        extra = ""
        if self.table is not None:
            text = format_cards(self.table.cards)
            try:
                plain = read_play(text, self.rules) == self.table
            except GuandanError:
                plain = False
            table = repr(text) if plain else \
                (f"read_play({text!r}, {rules!r}, type={self.table.type!r}, "
                 f"rank={self.table.rank!r})")
            extra = f", table={table}, owner={self.owner}, passes={self.passes}"
        if self.finished:
            extra += f", finished={self.finished}"
        return f"Position([{hands}], {rules!r}, turn={self.turn}{extra})"


@dataclass
class EndgameResult:
    """The answer of :func:`solve`.

    ``value``: team 0's level gain under perfect play (None when a limit
    stopped the search before it was proven; ``lower``/``upper`` then bound
    it). ``exact``: the value and every move's value are proven. ``moves``:
    a :class:`~guandan_fast.engine.value.MoveValue` (team 0's values) for
    every legal move of the seat to act (a Play, or None for a pass), best
    first for the mover: proven (``exact``, its ``value``) or, past a limit,
    only bounded (``proven_low`` .. ``proven_high``, no samples, ``value``
    None). ``best``: the moves that reach the value. ``pv``: a principal
    variation, a list of (seat, Play or None).
    """

    value: Optional[int]
    exact: bool
    lower: int
    upper: int
    turn: int
    moves: List[MoveValue]
    best: List[Optional[Play]]
    pv: List[Tuple[int, Optional[Play]]]
    nodes: int
    seconds: float
    stopped: Optional[str] = None   # "limit" (node/time limit), "overflow", "interrupted"

    def to_dict(self) -> dict:
        """JSON-ready data."""
        def pd(p):
            if p is None:
                return None
            return {"type": p.type, "rank": p.rank, "size": p.size,
                    "cards": " ".join(str(c) for c in p.cards)}
        best_ids = {id(p) for p in self.best}
        return {
            "value": self.value, "exact": self.exact,
            "lower": self.lower, "upper": self.upper, "turn": self.turn,
            "moves": [{"play": pd(m.move), "pass": m.move is None, "value": m.value,
                       "bounds": [m.proven_low, m.proven_high],
                       "best": id(m.move) in best_ids if m.move is not None
                       else (None in self.best)}
                      for m in self.moves],
            "pv": [{"seat": s, "play": pd(p), "pass": p is None} for s, p in self.pv],
            "nodes": self.nodes, "seconds": round(self.seconds, 6),
            "stopped": self.stopped,
        }


def _search(position: Position, tt_bits: int, share=None, schedule: Schedule = SCHEDULE):
    table = position.table
    return _core.EndgameSearch(
        position.counts(), position.rules.level_index, position.rules.flags,
        position.turn, table, -1 if position.owner is None else position.owner,
        position.passes, position.finished, tt_bits, share, schedule.pass_weight)


def _first_test(maxi: bool, value: Optional[int]) -> int:
    """The threshold of a move's first null-window test when the position
    (or the best move so far) is worth `value`: does the move reach it
    (team 0 to act), or is it worse than it (team 1 to act)?"""
    if value is None:
        return 0
    if maxi:
        return value
    return 1 if value == -1 else value + 1


def _solve_moves_parallel(position, search, tt_bits, threads, deadline, progress,
                          bounds, workers, schedule: Schedule = SCHEDULE):
    """Every root move's exact value into `bounds`, the moves shared out
    between `threads` threads (each a search of its own over one shared
    transposition table; the compiled search runs without the GIL). A thread
    left without a move helps with a move another thread is still valuing
    (schedule.helpers). The helper searches are appended to `workers`."""
    import threading

    n_moves = len(search.moves())
    remaining = None if deadline is None else max(1e-3, deadline - time.perf_counter())
    for _ in range(min(threads, n_moves) - 1):
        w = _search(position, tt_bits, share=search, schedule=schedule)
        w.set_limits(None, remaining)
        workers.append(w)
    maxi = search.maximizing
    pick = max if maxi else min
    lock = threading.Lock()
    todo = list(range(n_moves))
    best: List[Optional[int]] = [None]
    failed: List[BaseException] = []
    active: dict = {}        # move -> [first test, the workers valuing it]

    def take(w):
        """The next move for w (under the lock): a move nobody values yet,
        else (helping) the longest-running move that only one worker values:
        both search it over the shared table, the first to finish gives the
        value and cancels the other."""
        if todo:
            i = todo.pop(0)
            active[i] = [_first_test(maxi, best[0]), w]
            return i, active[i][0]
        for i, job in active.items():
            if len(job) == 2 and schedule.helpers:
                job.append(w)
                w.pass_weight = schedule.helper_pass_weight
                return i, job[0]
        return None

    def work(w):
        try:
            while True:
                with lock:
                    if failed or any(x.aborted in (1, 2, 3) for x in workers):
                        return
                    job = take(w)
                    if job is None:
                        return
                i, first = job
                b = w.solve_move(i, -3, 3, first)
                with lock:
                    if bounds[i] is None and w.aborted != 4:
                        bounds[i] = b
                        if b[0] == b[1]:
                            best[0] = b[0] if best[0] is None else pick(best[0], b[0])
                        for x in active.pop(i)[1:]:
                            if x is not w:
                                x.cancel()
                    elif i in active and w in active[i]:
                        active[i].remove(w)
                    w.resume()
                    w.pass_weight = schedule.pass_weight
                    if w.aborted:
                        return
        except BaseException as e:      # re-raised by the calling thread
            failed.append(e)

    pool = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    for t in pool:
        t.start()
    try:
        reported = -1
        while True:
            alive = [t for t in pool if t.is_alive()]
            if not alive:
                break
            alive[0].join(0.1)
            if progress is not None:
                done = sum(b is not None for b in bounds)
                progress(done, n_moves, sum(w.nodes for w in workers))
                reported = done
    except BaseException:
        for w in workers:
            w.stop()
        for t in pool:
            t.join()
        raise
    if failed:
        raise failed[0]
    if progress is not None and reported != n_moves:
        progress(sum(b is not None for b in bounds), n_moves, sum(w.nodes for w in workers))


def default_tt_bits(n: int, max_seconds: Optional[float] = None) -> int:
    """The transposition table's size (2**bits entries of 16 bytes) for a
    position of n cards: 16 up to 16 cards, 18 up to 24, 20 up to 28, else
    22 (64 MiB); never more than a time budget can use (setting up 64 MiB
    takes 10-200 ms): at most 18 with 0.3 s or less, 20 with 3 s or less."""
    bits = 16 if n <= 16 else 18 if n <= 24 else 20 if n <= 28 else 22
    if max_seconds is not None and max_seconds <= 0.3:
        return min(bits, 18)
    if max_seconds is not None and max_seconds <= 3:
        return min(bits, 20)
    return bits


def solve(position: Position, *, max_nodes: Optional[int] = None,
          max_seconds: Optional[float] = None, pv: bool = True,
          all_moves: bool = True, tt_bits: Optional[int] = None,
          progress: Optional[Callable[[int, int, int], None]] = None,
          threads: int = 1) -> EndgameResult:
    """Solve a position exactly: its value, every move's value, a best line.

    ``max_nodes`` / ``max_seconds`` bound the whole search (the best line
    included); past a limit the result holds what is proven (``exact`` is
    False, unproven values are None, ``lower``/``upper`` bound the value).
    ``progress(done, total, nodes)`` is called after each root move and
    about every 2**18 nodes (done = root moves solved so far); an exception
    in it stops the search and is raised; so does Ctrl-C (KeyboardInterrupt).
    ``all_moves=False`` computes only the value and one best move (the
    first, in search order, that reaches the value) with its line: the other
    moves' values are None and ``exact`` says whether the value is proven.
    Much faster where a few bad moves are expensive to value exactly.
    ``tt_bits``: the transposition table has 2**tt_bits entries of 16 bytes
    (default: ``default_tt_bits``, 16 up to 16 cards in play, 18 up to 24,
    20 up to 28, else 22, i.e. 64 MiB, smaller for short budgets; small
    tables are much faster to set up; the setup counts in ``max_seconds``).
    ``threads``: with more than one (and ``all_moves``, and no
    ``max_nodes``, whose count would then depend on timing), the root moves
    are shared out between that many threads, each valuing whole moves,
    over one transposition table (a thread left without a move helps with
    the longest-running one); the values are the same, the node count
    varies from run to run, and ``progress`` is called by the calling
    thread about ten times a second. (``all_moves=False`` runs in one
    thread: two threads on the one root test measured slower.)
    """
    if not isinstance(position, Position):
        raise PositionError(f"solve() takes a Position, not {type(position).__name__}")
    max_nodes, max_seconds = check_limits(max_nodes, max_seconds)
    threads = check_threads(threads)
    if tt_bits is not None:
        tt_bits = check_count(tt_bits, "tt_bits", 28, least=10)
    if progress is not None and not callable(progress):
        raise LimitError("progress must be a callable (done, total, nodes)")
    t0 = time.perf_counter()
    if tt_bits is None:
        tt_bits = default_tt_bits(sum(len(h) for h in position.hands), max_seconds)
    schedule = SCHEDULE
    search = _search(position, tt_bits, schedule=schedule)
    if max_seconds is not None:
        # the table's setup is part of the budget
        max_seconds = max(1e-4, max_seconds - (time.perf_counter() - t0))
    search.set_limits(max_nodes, max_seconds)
    maxi = search.maximizing
    moves = search.moves()
    workers = [search]
    # what is proven so far, kept up to date by the searches (read back
    # when Ctrl-C stops them): the root's range, then each move's
    root = [-3, 3]
    bounds: List[Optional[Tuple[int, int]]] = [None] * len(moves)
    try:
        if threads > 1 and all_moves and max_nodes is None and len(moves) > 1:
            deadline = None if max_seconds is None else t0 + max_seconds
            _solve_moves_parallel(position, search, tt_bits, threads, deadline,
                                  progress, bounds, workers, schedule)
        else:
            _solve_moves_serial(search, moves, maxi, all_moves, progress, root, bounds,
                                schedule)
    except KeyboardInterrupt:
        partial = _result(position, search, workers, moves, bounds, root[0], root[1],
                          maxi, all_moves, pv, t0, stopped="interrupted")
        raise SolveInterrupted(partial) from None
    return _result(position, search, workers, moves, bounds, root[0], root[1],
                   maxi, all_moves, pv, t0)


class SolveInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`solve`; ``result`` holds what was proven until
    then (an :class:`EndgameResult` with ``stopped == "interrupted"``)."""

    def __init__(self, result: EndgameResult):
        super().__init__("endgame search interrupted")
        self.result = result


def _solve_moves_serial(search, moves, maxi, all_moves, progress, root, bounds,
                        schedule: Schedule = SCHEDULE):
    """The root value into `root`, then each move's bounds into `bounds`, in
    search order (a single thread)."""
    done = [0]
    raised: List[BaseException] = []
    if progress is not None:
        def inner(nodes):
            try:
                progress(done[0], len(moves), nodes)
            except BaseException as e:      # stops the search; re-raised below
                raised.append(e)
                raise
        search.set_progress(inner)

    def interrupted():
        if search.aborted == 3:
            if raised:
                raise raised[0]
            raise KeyboardInterrupt("endgame search interrupted")

    # the root value first: then every move is known to be worth at most
    # (team 0 to act) or at least (team 1) that, which saves tests
    root[:] = search.solve_root()
    root_lo, root_hi = root
    interrupted()
    if progress is not None:
        progress(0, len(moves), search.nodes)
    for i in range(len(moves)):
        # first test: does the move reach the root value? (cheap to prove
        # for the good moves, and many moves are as good as the best)
        first = _first_test(maxi, root_lo if root_lo == root_hi and schedule.first_at_root
                                     else None)
        if maxi:
            bounds[i] = search.solve_move(i, -3, root_hi, first)
        else:
            bounds[i] = search.solve_move(i, root_lo, 3, first)
        interrupted()
        done[0] = i + 1
        if progress is not None:
            progress(i + 1, len(moves), search.nodes)
        lo_i, hi_i = bounds[i]
        if not all_moves and root_lo == root_hi and lo_i == hi_i == root_lo:
            break                     # a best move is known: enough


def _result(position, search, workers, moves, bounds, root_lo, root_hi, maxi,
            all_moves, pv, t0, stopped=None) -> EndgameResult:
    """The result from what the search proved, whatever stopped it.

    Sound by construction: ``bounds[k]`` (None: nothing proven) holds move
    k's value and [root_lo, root_hi] the position's; the position's value is
    the best move's (max for team 0, min for team 1), so it lies in
    [pick(lows), pick(highs)] and in the root's range; every move is worth
    at most (team 0 to act) or at least (team 1) the position, so a move's
    range is cut at the position's upper (lower) bound. A value is reported
    only when the two bounds meet, a move is best only when its own range
    is that single value, and the line starts with such a move (none: no
    line). Nothing here assumes that a best move was found.
    """
    pick = max if maxi else min
    full = [(-3, 3) if b is None else (int(b[0]), int(b[1])) for b in bounds]
    full += [(-3, 3)] * (len(moves) - len(full))
    lower = max(root_lo, pick(b[0] for b in full)) if full else root_lo
    upper = min(root_hi, pick(b[1] for b in full)) if full else root_hi
    if lower > upper:
        raise AssertionError(f"the search proved disjoint bounds {lower} > {upper}")
    if maxi:
        full = [(lo, min(hi, upper)) for lo, hi in full]
    else:
        full = [(max(lo, lower), hi) for lo, hi in full]
    value = lower if lower == upper else None
    values = [lo if lo == hi else None for lo, hi in full]
    best = [m for m, v in zip(moves, values) if value is not None and v == value]
    line: List[Tuple[int, Optional[Play]]] = []
    if best and pv and stopped is None:
        i = values.index(value)
        line = [(position.turn, moves[i])] + search.line_after(i, value)
    aborted = [w.aborted for w in workers]
    if stopped is None:
        stopped = "limit" if 1 in aborted else ("overflow" if 2 in aborted else None)
    exact = value is not None and (not all_moves or all(v is not None for v in values))
    # best first for the mover, unproven last, search order within a value
    sign = -1 if maxi else 1

    def order_key(k: int) -> Tuple[bool, int, int]:
        v = values[k]
        return (v is None, 0 if v is None else sign * v, k)
    order = sorted(range(len(moves)), key=order_key)
    return EndgameResult(
        value=value, exact=exact, lower=lower, upper=upper, turn=position.turn,
        moves=[MoveValue.bounded(moves[k], *full[k]) for k in order], best=best, pv=line,
        nodes=sum(w.nodes for w in workers), seconds=time.perf_counter() - t0,
        stopped=stopped)
