"""Duplicate matches between two teams of bots.

``match(team_a, team_b, deals=N, seed=S)`` plays N seeded deals; with
``duplicate=True`` (the default) each deal is played twice, team A at seats
0 and 2 and then at seats 1 and 3 with the same four hands, the same level
and the same leader, so the luck of the cards cancels within the pair. By
default each deal is a single deal at a random level (2..A) with a random
leader and no tribute; with ``games=True`` each unit is a whole game from
level 2 (RULES §6-7, as ``game.progress.GameProgress`` carries it: the deal
is played at the level of the last winner, tribute and return from the
second deal on, the game won by the team that takes first place at its own
level A with the partner not last; at most ``MAX_GAME_DEALS`` deals, then
it is unfinished), the two games of a pair
dealt the same seeded hands deal by deal.

Everything random is seeded per deal, never per worker: the hands, the
level and the leader of deal ``i`` come from ``(seed, i)``, and every bot
is ``reset`` with a seed from ``(seed, i, arrangement, seat)`` before each
deal. A match of deterministic bots (random, greedy, search with
``playouts=``) therefore gives the same result on one process, a pool or a
Dask cluster; a bot with a time budget depends on the machine's speed.

The result: team A's mean level gain per deal with a 95% t-interval over
the units (deal pairs, or single deals when not duplicate; in games, a
unit's mean gain per deal over its deals), its deal win rate with its
interval over the same units, and the time per decision of each team.
Every deal is driven by ``game.deal.DealState`` and played is a deal record (``formats/record.py``), written to
``records_dir`` when given: ``gd-analyze game`` reviews it.

>>> r = match("greedy", "random:1", deals=2, seed=3, jobs=1)
>>> r.units, len(r.plays), r.plays[0].hands == r.plays[1].hands
(2, 4, True)
>>> r.mean > 0
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence, Union

import numpy as np

from .._core import CARDS, Card
from ..errors import MatchError
from ..formats.record import dumps
from ..game.deal import DealState
from ..game.progress import GameProgress
from ..game.view import View
from ..model.rules import RANKS, Rules
from .base import Bot
from ..pool import check_dask_address, run_tasks
from .registry import make_bot
from ..stats import mean_ci, share_ci

__all__ = ["match", "MatchResult", "DealPlay", "play_deal", "deal_for", "MAX_GAME_DEALS"]

MAX_GAME_DEALS = 100
MAX_UNITS = 1_000_000      # deals (or games) a match: what the CLI allows too
_BIG_JOKER = Card("HR")
TeamSpec = Union[str, Bot]


@dataclass
class DealPlay:
    """One deal as played: which unit and arrangement, the gain of team A."""

    unit: int            # the deal (or game) number in the match
    swapped: bool        # True: team A sat at seats 1 and 3
    deal: int            # the deal's number within its game (0 for single deals)
    level: str
    hands: list          # the four hands as dealt (text), seats 0..3
    finished: tuple      # the finishing order (seats out, in order)
    gain_a: int          # team A's level gain (+3..-3)
    decisions: tuple     # (team A's, team B's) play decisions
    seconds: tuple       # (team A's, team B's) seconds spent deciding
    max_seconds: tuple   # the longest decision of each team
    record: str          # the deal record (formats/record.py text)
    game_over: bool = False    # games: the game ended with this deal
    game_winner: Optional[str] = None   # games: "a", "b", or None (unfinished)

    @property
    def name(self) -> str:
        side = "b" if self.swapped else "a"
        if self._games:
            return f"game-{self.unit + 1:04d}-{side}-deal-{self.deal + 1:03d}"
        return f"deal-{self.unit + 1:04d}-{side}"

    _games: bool = field(default=False, repr=False)


class ScoredDeal(Protocol):
    """What the scores read of a played deal (``DealPlay``, and the platform
    match's ``ExternalDeal``)."""

    gain_a: int
    game_winner: Optional[str]


def unit_scores(units: Sequence[Sequence[ScoredDeal]]) -> tuple[float, float, float,
                                                                 float, float, float]:
    """Team A's mean level gain per deal over the units (each unit its
    deals, both arrangements when duplicate) with its 95% interval, and its
    mean share of deals won per unit with its Wilson interval."""
    gains, wins = [], []
    for u in units:
        gains.append(sum(p.gain_a for p in u) / len(u))
        wins.append(sum(p.gain_a > 0 for p in u) / len(u))
    # a deal gives at most 3 levels either way (RULES 8): so does the mean
    mean, low, high = mean_ci(gains)
    low, high = max(-3.0, low), min(3.0, high)
    wr, wlo, whi = share_ci(wins)
    return mean, low, high, wr, wlo, whi


def game_tally(finals: Sequence[ScoredDeal]) -> tuple[int, int, int]:
    """(won by A, won by B, unfinished) over the last deals of the games."""
    a = sum(p.game_winner == "a" for p in finals)
    b = sum(p.game_winner == "b" for p in finals)
    return a, b, len(finals) - a - b


@dataclass
class MatchScores:
    """What every match result holds first: the teams, the settings and
    team A's scores (``unit_scores``). Values are team A's, per deal."""

    team_a: str
    team_b: str
    units: int
    seed: int
    duplicate: bool
    games: bool
    mean: float          # team A's mean level gain per deal
    low: float           # its 95% interval over the units
    high: float
    win_rate: float      # team A's mean share of deals won per unit (Wilson interval)
    win_low: float
    win_high: float

    def scores_dict(self) -> dict:
        """The scores as JSON-ready data: None (JSON null) for a value that
        does not exist (no unit scored), never NaN."""
        return {"mean_gain": finite_or_none(self.mean),
                "ci95": [finite_or_none(self.low), finite_or_none(self.high)],
                "win_rate": finite_or_none(self.win_rate),
                "win_ci95": [finite_or_none(self.win_low), finite_or_none(self.win_high)]}


def finite_or_none(x: float) -> Optional[float]:
    """x, or None when it is NaN or infinite (not a JSON number)."""
    return x if math.isfinite(x) else None


@dataclass
class MatchResult(MatchScores):
    """The outcome of ``match``. Values are team A's, per deal."""

    decisions: tuple     # (team A's, team B's) play decisions in all
    seconds_per_decision: tuple
    max_decision_seconds: tuple
    elapsed: float
    plays: list = field(repr=False, default_factory=list)
    game_wins: Optional[tuple] = None   # games: (won by A, won by B, unfinished)

    def to_dict(self) -> dict:
        """JSON-ready data (without the records)."""
        d = {
            "team_a": self.team_a, "team_b": self.team_b, "units": self.units,
            "deals_played": len(self.plays), "seed": self.seed,
            "duplicate": self.duplicate, "games": self.games,
            **self.scores_dict(),
            "decisions": {"a": self.decisions[0], "b": self.decisions[1]},
            "seconds_per_decision": {"a": self.seconds_per_decision[0],
                                     "b": self.seconds_per_decision[1]},
            "max_decision_seconds": {"a": self.max_decision_seconds[0],
                                     "b": self.max_decision_seconds[1]},
            "elapsed_seconds": self.elapsed,
        }
        if self.game_wins is not None:
            d["games_won"] = {"a": self.game_wins[0], "b": self.game_wins[1],
                              "unfinished": self.game_wins[2]}
        return d


# -- dealing ----------------------------------------------------------------------

def _rng(seed: int, *keys) -> random.Random:
    """A generator for one purpose of one deal: the same on every machine."""
    return random.Random(":".join(["guandan-match", str(seed)] + [str(k) for k in keys]))


def deal_for(seed: int, unit: int, deal: int = 0) -> tuple[list, str, int]:
    """(four hands as card lists, level, leader) of a seeded deal: the
    shuffle of the 108 cards, a random level (2..A) and a random leader.
    In games the level and the leader are the game's, not these."""
    rng = _rng(seed, unit, deal)
    deck = [c for c in CARDS for _ in range(2)]
    rng.shuffle(deck)
    hands = [sorted(deck[27 * s:27 * (s + 1)]) for s in range(4)]
    return hands, RANKS[rng.randrange(13)], rng.randrange(4)


# -- playing ----------------------------------------------------------------------

class _Clock:
    def __init__(self):
        self.decisions = [0, 0]
        self.seconds = [0.0, 0.0]
        self.longest = [0.0, 0.0]

    def add(self, side: int, dt: float):
        self.decisions[side] += 1
        self.seconds[side] += dt
        self.longest[side] = max(self.longest[side], dt)


def play_deal(bots: Sequence[Bot], deal: DealState, clock: Optional[_Clock] = None,
              sides=(0, 1, 0, 1)) -> DealState:
    """Drive ``deal`` to its end: each bot decides from its seat's View, the
    payers their tribute, the receivers their return, then the play.
    Returns the deal, done. An illegal choice is a MatchError naming the
    bot, the seat and the card or play. Under an anti-tribute the payers'
    big jokers are known to the others until played (RULES §7)."""
    rules = deal.rules
    holders = deal.anti_holders
    big_played = [0, 0, 0, 0]
    while not deal.over:
        seat = deal.actor
        assert seat is not None
        phase = deal.phase
        if phase in ("tribute", "return"):
            cands = deal.legal_actions()
            view = View.from_exchange(deal)
            if phase == "tribute":
                card = bots[seat].tribute(view, cands)
                if card not in cands:
                    raise MatchError(f"{bots[seat]!r} at seat {seat} paid {card}, not a "
                                     "legal tribute card")
                deal.pay_tribute(seat, card)
            else:
                card = bots[seat].give_back(view, cands)
                if card not in cands:
                    raise MatchError(f"{bots[seat]!r} at seat {seat} returned {card}, not a "
                                     "legal return card")
                deal.give_back(seat, card)
            continue
        state = deal.game
        assert state is not None
        known = None
        if holders:
            known = {s: [_BIG_JOKER] * max(0, holders.get(s, 0) - big_played[s])
                     for s in range(4) if s != seat}
        view = View(seat, state.hands[seat], rules, [state.count(s) for s in range(4)],
                    history=[(m.seat, m.play) for m in deal.moves], table=state.table,
                    owner=state.owner, passes=state.passes, finished=state.finished,
                    known=known, tributes=deal.tributes, returns=deal.returns)
        t0 = time.perf_counter()
        action = bots[seat].choose(view)
        dt = time.perf_counter() - t0
        if clock is not None:
            clock.add(sides[seat], dt)
        why = state.why_illegal(action)
        if why is not None:
            raise MatchError(f"{bots[seat]!r} at seat {seat} chose an illegal action "
                             f"({'pass' if action is None else action}): {why}")
        if action is not None:
            big_played[seat] += sum(c == _BIG_JOKER for c in action.cards)
        deal.play(seat, action)
    return deal


def _name(spec: str, side: str, k: int) -> str:
    # a name of the record's players line: no commas, no comment sign
    return f"{side}{k} {spec}".replace(",", ";").replace("#", "")


def _seat_bots(team_a: TeamSpec, team_b: TeamSpec, swapped: bool) -> list:
    """Four bots, seats 0..3: team A at 0 and 2 (1 and 3 when swapped)."""
    import copy
    # four bots of their own, even where the two teams are one Bot object (a
    # deepcopy of a list would keep the two entries one object)
    a = [copy.deepcopy(make_bot(team_a)), copy.deepcopy(make_bot(team_b))]
    b = [copy.deepcopy(make_bot(team_a)), copy.deepcopy(make_bot(team_b))]
    if not swapped:
        return [a[0], a[1], b[0], b[1]]
    return [a[1], a[0], b[1], b[0]]


def _spec(t: TeamSpec) -> str:
    return t if isinstance(t, str) else getattr(t, "spec", repr(t))


def _players(team_a: TeamSpec, team_b: TeamSpec, swapped: bool) -> list:
    sa, sb = _spec(team_a), _spec(team_b)
    if not swapped:
        return [_name(sa, "A", 1), _name(sb, "B", 1), _name(sa, "A", 2), _name(sb, "B", 2)]
    return [_name(sb, "B", 1), _name(sa, "A", 1), _name(sb, "B", 2), _name(sa, "A", 2)]


def _reset(bots, seed, unit, swapped, deal):
    for s, b in enumerate(bots):
        b.reset(int(_rng(seed, unit, deal, "bot", int(swapped), s).getrandbits(31)))


def _single(args) -> list:
    """Worker task: one deal, played once or twice (duplicate)."""
    team_a, team_b, seed, unit, duplicate = args
    hands, level, leader = deal_for(seed, unit)
    rules = Rules(level=level)
    out = []
    for swapped in ((False, True) if duplicate else (False,)):
        bots = _seat_bots(team_a, team_b, swapped)
        _reset(bots, seed, unit, swapped, 0)
        clock = _Clock()
        sides = (1, 0, 1, 0) if swapped else (0, 1, 0, 1)
        deal = play_deal(bots, DealState(hands, rules, leader=leader), clock, sides)
        gain0 = deal.result()
        assert deal.game is not None and gain0 is not None
        rec = deal.record(_tags(team_a, team_b, seed, unit, swapped, 0, False),
                          _players(team_a, team_b, swapped))
        out.append(DealPlay(unit, swapped, 0, rules.level, [" ".join(map(str, h)) for h in hands],
                            tuple(deal.game.finished), -gain0 if swapped else gain0,
                            tuple(clock.decisions), tuple(clock.seconds), tuple(clock.longest),
                            dumps(rec)))
    return out


def _tags(team_a, team_b, seed, unit, swapped, deal, games) -> dict:
    tags = {"event": "gd-analyze match", "round": str(unit + 1),
            "table": "b" if swapped else "a"}
    if games:
        tags["deal"] = str(deal + 1)
    tags.update({"seed": str(seed), "team_a": _spec(team_a).replace("#", ""),
                 "team_b": _spec(team_b).replace("#", "")})
    return tags


def _game(args) -> list:
    """Worker task: one game (twice when duplicate), deal after deal."""
    team_a, team_b, seed, unit, duplicate = args
    out = []
    for swapped in ((False, True) if duplicate else (False,)):
        out.extend(_play_game(team_a, team_b, seed, unit, swapped))
    return out


def _play_game(team_a, team_b, seed, unit, swapped) -> list:
    sides = (1, 0, 1, 0) if swapped else (0, 1, 0, 1)      # seat -> 0: team A, 1: team B
    progress = GameProgress(Rules())
    plays = []
    for k in range(MAX_GAME_DEALS):
        hands, _level, first_leader = deal_for(seed, unit, k)
        previous = progress.previous
        rules = progress.deal_rules()
        bots = _seat_bots(team_a, team_b, swapped)
        _reset(bots, seed, unit, swapped, k)
        clock = _Clock()
        deal = play_deal(bots, DealState(hands, rules, previous,
                                         leader=None if previous is not None else first_leader),
                         clock, sides)
        gain0 = deal.result()
        order = deal.order
        assert order is not None and gain0 is not None and deal.game is not None
        over = progress.end_deal(order) is not None or progress.over
        rec = deal.record(_tags(team_a, team_b, seed, unit, swapped, k, True),
                          _players(team_a, team_b, swapped))
        winner = None
        if progress.winner is not None:
            winner = "a" if sides[order[0]] == 0 else "b"
        play = DealPlay(unit, swapped, k, rules.level, [" ".join(map(str, h)) for h in hands],
                        tuple(deal.game.finished), -gain0 if swapped else gain0,
                        tuple(clock.decisions), tuple(clock.seconds), tuple(clock.longest),
                        dumps(rec), over, winner, _games=True)
        plays.append(play)
        if over:
            break
    return plays


# -- the match ----------------------------------------------------------------------

def _check(team_a, team_b, deals, seed, jobs, dask, records_dir, progress=None,
           duplicate=True, games=False):
    for t in (team_a, team_b):
        make_bot(t)     # BotSpecError on a bad spec, before any work
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) \
            or not 1 <= deals <= MAX_UNITS:
        raise MatchError(f"deals must be a number 1..{MAX_UNITS}, not {deals!r}"[:120])
    for name, flag in (("duplicate", duplicate), ("games", games)):
        if not isinstance(flag, (bool, np.bool_)):
            raise MatchError(f"{name} must be True or False, not {flag!r}"[:120])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise MatchError(f"seed must be an integer, not {seed!r}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer))
                             or jobs < 1):
        raise MatchError(f"jobs must be a number of processes >= 1, not {jobs!r}")
    if isinstance(dask, str):
        check_dask_address(dask)
    if records_dir is not None:
        if not isinstance(records_dir, (str, Path)) or not str(records_dir).strip():
            raise MatchError(f"records_dir must be the path of a directory, not "
                             f"{records_dir!r}"[:120])
        p = Path(records_dir)
        if p.exists() and not p.is_dir():
            raise MatchError(f"records: {records_dir} exists and is not a directory")
        # made now, not after the deals are played (their work would be lost)
        try:
            p.mkdir(parents=True, exist_ok=True)
            probe = p / ".gd-analyze-write-test"
            probe.write_text("")
            probe.unlink()
        except (OSError, ValueError) as e:
            raise MatchError(f"records: {str(records_dir)[:100]!r} cannot be written "
                             f"({getattr(e, 'strerror', None) or e})"[:200]) from None
    if progress is not None and not callable(progress):
        raise MatchError(f"progress must be a callable progress(done, total), not {progress!r}"[:120])


def match(team_a: TeamSpec, team_b: TeamSpec, deals: int = 100, seed: int = 0,
          duplicate: bool = True, jobs: Optional[int] = None, games: bool = False,
          records_dir=None, dask=None,
          progress: Optional[Callable[[int, int], None]] = None) -> MatchResult:
    """Play a match (see the module docstring). ``team_a``/``team_b``: bot
    specs (``make_bot``) or Bot objects (copied for every deal); ``deals``:
    the number of units (deals, or games with ``games=True``); ``jobs``:
    local processes (None: one per CPU, 1: this process); ``dask``: a
    scheduler address or a ``distributed.Client`` (then ``jobs`` is
    ignored); ``records_dir``: where to write every deal's record;
    ``progress(done, total)`` after each unit."""
    _check(team_a, team_b, deals, seed, jobs, dask, records_dir, progress, duplicate, games)
    start = time.perf_counter()
    tasks = [(team_a, team_b, int(seed), i, bool(duplicate)) for i in range(int(deals))]
    units = run_tasks(_game if games else _single, tasks, jobs=jobs, dask=dask,
                      progress=progress)
    elapsed = time.perf_counter() - start
    plays = [p for u in units for p in u]
    if records_dir is not None:
        out = Path(records_dir)
        out.mkdir(parents=True, exist_ok=True)
        for p in plays:
            (out / f"{p.name}.txt").write_text(p.record, encoding="utf-8")
    mean, low, high, wr, wlo, whi = unit_scores(units)
    dec = tuple(sum(p.decisions[i] for p in plays) for i in (0, 1))
    sec = tuple(sum(p.seconds[i] for p in plays) for i in (0, 1))
    spd = tuple(sec[i] / dec[i] if dec[i] else 0.0 for i in (0, 1))
    longest = tuple(max((p.max_seconds[i] for p in plays), default=0.0) for i in (0, 1))
    game_wins = None
    if games:
        game_wins = game_tally([p for p in plays
                                if p.game_over or p.deal == MAX_GAME_DEALS - 1])
    return MatchResult(_spec(team_a), _spec(team_b), int(deals), int(seed), bool(duplicate),
                       bool(games), mean, low, high, wr, wlo, whi,
                       dec, spd, longest, elapsed, plays, game_wins)
