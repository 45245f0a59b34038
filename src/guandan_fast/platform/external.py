"""Duplicate matches against any platform client, through our own server.

``external_match(team_a, team_b, deals=N, seed=S)`` plays a duplicate match
where a team is either one of the project's bot specs (each seat a
``gd-analyze bot URL --bot SPEC`` process) or an external command
(``exec:python3 client.py {url}``), over real websockets: the platform
server (``platform.server.run_server``) listens on 127.0.0.1 and every
seat is a process of its own, four processes a table, one table at a time.

Teams (``parse_team``):

- a bot spec (``greedy``, ``search:0.2,playouts=200``...): run as
  ``python -m guandan_fast.cli bot URL --bot SPEC``;
- ``exec:TEMPLATE`` or ``exec[cwd=DIR]:TEMPLATE``: a command line (split as
  a POSIX shell splits words, no shell is run) with the placeholders
  ``{url}`` (``ws://127.0.0.1:PORT/game/NAME``), ``{seat}`` (0..3),
  ``{name}`` (the team and its player: ``A1``, ``A2``, ``B1``, ``B2``) and
  ``{port}``;
  ``{{``/``}}`` are braces. DIR is the working directory (``~`` expanded).
  Two commands separated by ``|`` (a word of its own even without
  spaces around it; no third) are the team's first and second
  player (the one at seat 0 or 1, the one at seat 2 or 3), for clients
  shipped as two files (``client0.py | client2.py``).
  A client with a hard-coded address needs the server on its port:
  ``port=23456``.

Seats are the order of the connections (PLATFORM.md): the harness starts
the four processes in seat order and starts the next one only once the
server has seen the previous one connect (the server's ``connections``
hook, not a sleep). Team A sits at seats 0 and 2, then (duplicate) at
seats 1 and 3 with the same deals: the same hands at the same seats, the
same levels and previous order, so the luck of the cards cancels within
the pair.

Two modes. Single deals (default): deal ``i`` is dealt from ``(seed, i)``
(the hands and the level of ``bots.match.deal_for``) with a random previous
finishing order, the last winner's team playing at that level and the other
team at a random level of its own, so tribute, anti-tribute and return
happen as in a game; each deal is one platform game of one deal. Games
(``games=True``): whole games from level 2 as the competition plays them,
deal ``k`` of game ``i`` dealt from ``(seed, i, k)``.

Limits: every answer within ``answer_timeout`` seconds (the server's),
every client connected within ``connect_timeout`` seconds, every deal
within ``deal_timeout`` seconds of wall clock; a process still running
when its table ends is stopped (SIGTERM, then SIGKILL, to its whole
process group). A table that cannot go on (a client crashed, gave no
answer, sent ``max_bad_answers`` invalid answers in a row, or a deal ran
out of time) ends; the deal (in games, the game) then in progress is
*abandoned*: it is counted against the team at fault and left out of the
statistics, with its duplicate partner (a pair is scored only when both
halves finished), and the next table starts at the next unit. Invalid
answers that the server recovered from (another answer came) are counted
per team and the deal goes on.

The statistics are ``match``'s: team A's mean level gain a deal with a 95%
t-interval over the duplicate pairs, its share of deals won (the share of
deals where a player of team A finished first: the first-finisher share)
with a Wilson interval, plus per team the invalid answers, crashes,
timeouts and abandoned units, and the seconds a deal (wall clock of the
play, connections excluded). Deterministic clients (greedy, random with a
seed, search with ``playouts=``, an external client without randomness)
give the same result on every run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shlex
import signal
import string
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..bots.registry import make_bot
from ..bots.match import MAX_GAME_DEALS, MatchScores, deal_for, game_tally, unit_scores
from ..errors import BotSpecError, ExternalTeamError, MatchError
from ..formats.record import dumps
from ..game.progress import GameProgress
from ..game.state import level_gain, team as seat_team
from ..model.rules import RANKS, Rules

__all__ = ["Team", "parse_team", "is_external", "external_match", "ExternalMatchResult", "Limits",
           "single_deal_start", "scored_units", "PLACEHOLDERS"]

PLACEHOLDERS = ("url", "seat", "name", "port")
HOST = "127.0.0.1"
MAX_UNITS = 100_000
_SEAT_NAMES = ("A1", "B1", "A2", "B2")          # team A at seats 0 and 2
_SWAPPED_NAMES = ("B1", "A1", "B2", "A2")


# -- teams ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Team:
    """A team: our bot spec (``bot``) or an external command (``template``:
    one or two commands, the words with placeholders, for the team's first
    and second player; and the working directory ``cwd``)."""

    label: str
    bot: Optional[str] = None
    template: tuple = ()
    cwd: Optional[str] = None

    @property
    def external(self) -> bool:
        return self.bot is None

    def argv(self, url: str, seat: int, name: str, port: int, idle: float) -> list:
        """The command line of the client at ``seat``; ``idle``: seconds our
        bot waits for a message before it gives up."""
        if self.bot is not None:
            return [sys.executable, "-m", "guandan_fast.cli", "bot", url, "--bot", self.bot,
                    "--timeout", f"{idle:g}"]
        values = {"url": url, "seat": str(seat), "name": name, "port": str(port)}
        words = self.template[(seat // 2) % len(self.template)]
        return [w.format(**values) for w in words]


_FORMATTER = string.Formatter()


def _check_word(word: str, option: str) -> None:
    try:
        parts = list(_FORMATTER.parse(word))
    except ValueError as e:
        raise ExternalTeamError(f"{option}: {e} in {word[:60]!r}") from None
    for _, fld, spec, conv in parts:
        if fld is None:
            continue
        if fld not in PLACEHOLDERS or spec or conv:
            raise ExternalTeamError(f"{option}: unknown placeholder {{{fld}}} in {word[:60]!r} "
                                    f"(use {', '.join('{' + p + '}' for p in PLACEHOLDERS)})")


def is_external(text) -> bool:
    """Whether a team's text is an external command (``exec:``/``exec[``)."""
    return isinstance(text, str) and text.startswith(("exec:", "exec["))


def parse_team(text, option: str = "team") -> Team:
    """A team from its text (see the module docstring); ExternalTeamError
    (a bad template) or BotSpecError (a bad bot spec) names ``option``."""
    if not isinstance(text, str):
        raise ExternalTeamError(f"{option}: a team is text, not {type(text).__name__}")
    if not is_external(text):
        try:
            make_bot(text)
        except BotSpecError as e:           # a bad spec, named with the option
            raise BotSpecError(f"{option}: {e}", e.spec) from None
        return Team(label=text, bot=text)
    cwd = None
    if text.startswith("exec["):
        m = re.match(r"exec\[cwd=([^\]]+)\]:", text)
        if m is None:
            raise ExternalTeamError(f"{option}: {text[:60]!r}: write exec:COMMAND or "
                                    "exec[cwd=DIR]:COMMAND")
        cwd = os.path.expanduser(m.group(1))
        if not os.path.isdir(cwd):
            raise ExternalTeamError(f"{option}: cwd {cwd[:80]!r} is not a directory")
        command = text[m.end():]
    else:
        command = text[len("exec:"):]
    if any(c in command for c in "\n\r\x00"):
        raise ExternalTeamError(f"{option}: the command holds a line break or NUL")
    try:
        # a | is a word of its own even when written without spaces (a|b)
        lexer = shlex.shlex(command, posix=True, punctuation_chars="|")
        lexer.whitespace_split = True
        lexer.commenters = ""           # a # is a character of the command, as in shlex.split
        words = list(lexer)
    except ValueError as e:
        raise ExternalTeamError(f"{option}: {e} in {command[:60]!r}") from None
    players: list = [[]]
    for w in words:
        if set(w) == {"|"} and w != "|":
            raise ExternalTeamError(f"{option}: {w!r}: two commands are separated by one |")
        if w == "|":
            players.append([])
        else:
            _check_word(w, option)
            players[-1].append(w)
    if len(players) > 2:
        raise ExternalTeamError(f"{option}: at most two commands (the team's two players) "
                                "separated by |")
    if any(not p for p in players):
        raise ExternalTeamError(f"{option}: the command after exec: is empty")
    return Team(label=text, template=tuple(tuple(p) for p in players), cwd=cwd)


# -- limits and the deals ------------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    """Seconds: each answer, each client's connection, each deal's wall
    clock; the stop of a process (SIGTERM, then SIGKILL); invalid answers
    in a row before a table ends; start_delay: the server's pause after the
    fourth connection (the ws4py handshake race, docs/platform.md)."""

    answer: float = 30.0
    connect: float = 30.0
    deal: float = 300.0
    grace: float = 3.0
    max_bad_answers: int = 5
    start_delay: float = 0.5

    def check(self) -> "Limits":
        for name in ("answer", "connect", "deal", "grace", "start_delay"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 86400 \
                    or (name not in ("grace", "start_delay") and v == 0):
                raise MatchError(f"limits: {name} must be seconds in (0, 86400], not {v!r}"[:120])
        v = self.max_bad_answers
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 1000:
            raise MatchError(f"limits: max_bad_answers must be 1..1000, not {v!r}"[:120])
        return self


def _rng(seed: int, *keys) -> random.Random:
    return random.Random(":".join(["guandan-external", str(seed)] + [str(k) for k in keys]))


def single_deal_start(seed: int, unit: int) -> tuple:
    """(hands as token lists, leader, GameProgress) of single deal ``unit``:
    the hands and the level of ``deal_for(seed, unit)``, a random previous
    finishing order (so tribute and return happen), its winner's team at
    that level, the other team at a random level. The leader is the first
    leader when there is no tribute (never: a previous order is given)."""
    hands, level, leader = deal_for(seed, unit)
    rng = _rng(seed, unit, "previous")
    previous = list(range(4))
    rng.shuffle(previous)
    owner = seat_team(previous[0])
    levels = [0, 0]
    levels[owner] = RANKS.index(level)
    levels[1 - owner] = rng.randrange(13)
    progress = GameProgress(Rules(), levels=levels, owner=owner, previous=previous)
    return [[str(c) for c in h] for h in hands], leader, progress


# -- the result ----------------------------------------------------------------------

@dataclass
class ExternalDeal:
    """One deal as played."""

    unit: int
    swapped: bool            # team A at seats 1 and 3
    deal: int                # number within its game (0 for single deals)
    level: str
    order: tuple             # the finishing order
    gain_a: int
    record: str              # the deal record's text
    game_over: bool = False
    game_winner: Optional[str] = None

    def name(self, games: bool) -> str:
        side = "b" if self.swapped else "a"
        if games:
            return f"game-{self.unit + 1:04d}-{side}-deal-{self.deal + 1:03d}"
        return f"deal-{self.unit + 1:04d}-{side}"


@dataclass
class Fault:
    """A table that ended early: the unit abandoned, the team at fault
    ("a", "b" or None when no seat is to blame), the kind (crash, timeout,
    invalid, deal-time, connect) and the server's or harness's reason."""

    unit: int
    swapped: bool
    team: Optional[str]
    kind: str
    reason: str


@dataclass
class ExternalMatchResult(MatchScores):
    pairs_scored: int
    deals_played: int
    seconds_per_deal: float
    elapsed: float
    invalid: dict            # team -> invalid answers (recovered or not)
    decisions: dict          # team -> valid answers
    faults: list = field(default_factory=list)
    plays: list = field(repr=False, default_factory=list)
    game_wins: Optional[tuple] = None

    def counts(self, side: str) -> dict:
        kinds = {"crash": 0, "timeout": 0, "invalid": 0}
        for f in self.faults:
            if f.team == side and f.kind in kinds:
                kinds[f.kind] += 1
        return {"invalid_answers": self.invalid.get(side, 0),
                "decisions": self.decisions.get(side, 0),
                "crashes": kinds["crash"], "timeouts": kinds["timeout"],
                "stopped_for_invalid": kinds["invalid"],
                "abandoned": sum(f.team == side for f in self.faults)}

    def to_dict(self) -> dict:
        d = {"team_a": self.team_a, "team_b": self.team_b, "units": self.units,
             "deals_played": self.deals_played, "pairs_scored": self.pairs_scored,
             "seed": self.seed, "duplicate": self.duplicate, "games": self.games,
             **self.scores_dict(),
             "seconds_per_deal": self.seconds_per_deal, "elapsed_seconds": self.elapsed,
             "a": self.counts("a"), "b": self.counts("b"),
             "abandoned_without_fault": sum(f.team is None for f in self.faults),
             "faults": [{"unit": f.unit + 1, "table": "b" if f.swapped else "a",
                         "team": f.team, "kind": f.kind, "reason": f.reason}
                        for f in self.faults]}
        if self.game_wins is not None:
            d["games_won"] = {"a": self.game_wins[0], "b": self.game_wins[1],
                              "unfinished": self.game_wins[2]}
        return d


# -- one table -----------------------------------------------------------------------

@dataclass
class _TableOut:
    records: list
    seconds: float
    error: Optional[str] = None
    seat: Optional[int] = None        # the seat at fault
    kind: str = ""
    invalid: list = field(default_factory=lambda: [0, 0, 0, 0])
    answers: list = field(default_factory=lambda: [0, 0, 0, 0])


_WHO = re.compile(r"seat (\d) \(")


def _kind(reason: str) -> str:
    if "gave no answer" in reason:
        return "timeout"
    if "invalid answers in a row" in reason or "out of turn" in reason:
        return "invalid"
    if " left" in reason or "closed" in reason:
        return "crash"
    return "server"


async def _stop(proc, grace: float) -> None:
    """End ``proc`` and its process group: wait ``grace`` seconds for it to
    exit by itself, then SIGTERM to the group, then SIGKILL to the group
    (what the client started goes too)."""
    if proc.returncode is None and grace > 0:
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except asyncio.TimeoutError:
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):     # the whole group is gone
            pass
        if proc.returncode is None:
            try:
                await asyncio.wait_for(proc.wait(), 2.0)
            except asyncio.TimeoutError:
                pass


def _count_log(path: Path, names: list, out: _TableOut) -> None:
    """Valid and invalid answers per seat from the server's messages.jsonl
    (an invalid answer before the start has seat -1: its name tells the
    seat when only one seat has that name)."""
    if not path.exists():
        return
    with open(path, encoding="utf-8") as f:
        for line in f:
            if '"answer"' not in line:
                continue
            item = json.loads(line)
            seat = item.get("seat", -1)
            if seat < 0 and names.count(item.get("name")) == 1:
                seat = names.index(item.get("name"))
            if not 0 <= seat < 4:
                continue
            if item.get("invalid"):
                out.invalid[seat] += 1
            elif "answer" in item:
                out.answers[seat] += 1


def _server_failed(server, out: _TableOut, server_error) -> _TableOut:
    """The outcome of a table whose server has ended: its ServerError (the
    seat the reason names is at fault); any other error is raised."""
    e = server.exception()
    if e is None:
        return out
    if not isinstance(e, server_error):
        raise e
    out.error = str(e)
    m = _WHO.match(out.error)
    out.seat = int(m.group(1)) if m else None
    out.kind = _kind(out.error)
    return out


async def _table(teams: Sequence[Team], names: Sequence[str], port: int, games: int,
                 max_deals: int, start_game, dealer, limits: Limits, work: Path,
                 seed: int, on_deal=None) -> _TableOut:
    """One table: the server on 127.0.0.1, the four clients started in seat
    order, the games played or stopped at a limit; every process ended."""
    from .server import ServerError, ServerResult, run_server

    result = ServerResult()
    loop = asyncio.get_running_loop()
    bound: asyncio.Future = loop.create_future()
    seen = {"n": 0}
    changed = asyncio.Event()

    def connections(n):
        seen["n"] = n
        changed.set()

    work.mkdir(parents=True, exist_ok=True)
    server = asyncio.ensure_future(run_server(
        HOST, port, games=games, seed=seed, records_dir=str(work),
        answer_timeout=limits.answer, connect_timeout=4 * limits.connect + 10,
        max_bad_answers=limits.max_bad_answers, max_deals=max_deals,
        start_delay=limits.start_delay, ready=lambda p: None if bound.done() else bound.set_result(p),
        connections=connections, result=result, start_game=start_game, dealer=dealer))
    procs: list = []
    logs: list = []
    out = _TableOut(records=result.records, seconds=0.0)
    started = None
    try:
        await asyncio.wait([server, bound], return_when=asyncio.FIRST_COMPLETED)
        if not bound.done():
            try:
                server.result()
            except OSError as e:        # the port is taken, say
                raise MatchError(f"port {port}: cannot listen on {HOST} "
                                 f"({e.strerror or e})") from None
        p = bound.result()
        for seat, t in enumerate(teams):
            url = f"ws://{HOST}:{p}/game/{names[seat]}"
            log = open(work / f"seat{seat}.log", "wb")
            logs.append(log)
            argv = t.argv(url, seat, names[seat], p, idle=limits.answer + limits.deal + 60)
            try:
                proc = await asyncio.create_subprocess_exec(
                    *argv, cwd=t.cwd, stdin=asyncio.subprocess.DEVNULL, stdout=log,
                    stderr=log, start_new_session=True)
            except OSError as e:
                out.error, out.seat, out.kind = (f"seat {seat}: cannot start {argv[0]!r}: "
                                                 f"{e.strerror or e}"), seat, "crash"
                return out
            procs.append(proc)
            deadline = loop.time() + limits.connect
            while seen["n"] < seat + 1:
                changed.clear()
                left = deadline - loop.time()
                exited = asyncio.ensure_future(proc.wait())
                waiter = asyncio.ensure_future(changed.wait())
                await asyncio.wait([exited, waiter, server], timeout=max(0.0, left),
                                   return_when=asyncio.FIRST_COMPLETED)
                exited.cancel()
                waiter.cancel()
                if seen["n"] >= seat + 1:
                    break
                if server.done():
                    return _server_failed(server, out, ServerError)
                if proc.returncode is not None:
                    out.error, out.seat, out.kind = (f"seat {seat} exited with status "
                                                     f"{proc.returncode} before it connected"
                                                     ), seat, "crash"
                    return out
                if loop.time() >= deadline:
                    out.error, out.seat, out.kind = (f"seat {seat} did not connect in "
                                                     f"{limits.connect:g} s"), seat, "timeout"
                    return out
        started = time.perf_counter()
        # the watchdog: each deal within limits.deal seconds of wall clock
        played, since = 0, loop.time()
        while not server.done():
            await asyncio.wait([server], timeout=0.2)
            if len(result.records) != played:
                played, since = len(result.records), loop.time()
                if on_deal is not None:
                    on_deal(played)
            elif loop.time() - since > limits.deal + limits.start_delay:
                out.error, out.kind = f"a deal ran over {limits.deal:g} s", "deal-time"
                return out
        return _server_failed(server, out, ServerError)
    finally:
        if started is not None:
            out.seconds = time.perf_counter() - started
        if not server.done():
            server.cancel()
        try:
            await server
        except BaseException:           # already reported (or cancelled by us)
            pass
        await asyncio.gather(*(_stop(pr, limits.grace if out.error is None else 0.0)
                               for pr in procs))
        for log in logs:
            log.close()
        _count_log(work / "messages.jsonl", list(result.names) or list(names), out)


# -- the match -----------------------------------------------------------------------

def _label(text: str) -> str:
    """A team's text as a record tag holds it (one line, no comment sign)."""
    return re.sub(r"[#\x00-\x1f\x7f\u2028\u2029\x85]", " ", text).strip() or "?"


def _arrangement(team_a: Team, team_b: Team, swapped: bool) -> list:
    return [team_b, team_a, team_b, team_a] if swapped else [team_a, team_b, team_a, team_b]


def _side(seat: int, swapped: bool) -> str:
    return "b" if (seat % 2 == 0) == swapped else "a"


def _check(deals, seed, games, duplicate, port, records_dir, limits, progress):
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_UNITS:
        raise MatchError(f"deals must be a number 1..{MAX_UNITS}, not {deals!r}"[:120])
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise MatchError(f"seed must be an integer 0..2**63-1, not {seed!r}"[:120])
    for name, flag in (("games", games), ("duplicate", duplicate)):
        if not isinstance(flag, bool):
            raise MatchError(f"{name} must be True or False, not {flag!r}"[:120])
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise MatchError(f"port must be 0..65535 (0: any free port), not {port!r}"[:120])
    if not isinstance(limits, Limits):
        raise MatchError(f"limits must be a Limits, not {limits!r}"[:120])
    limits.check()
    if progress is not None and not callable(progress):
        raise MatchError(f"progress must be a callable progress(done, total), "
                         f"not {progress!r}"[:120])
    if records_dir is not None:
        p = Path(records_dir)
        if p.exists() and not p.is_dir():
            raise MatchError(f"records: {records_dir} exists and is not a directory")
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise MatchError(f"records: {str(records_dir)[:100]!r} cannot be made "
                             f"({e.strerror or e})") from None


def external_match(team_a, team_b, deals: int = 10, seed: int = 0, games: bool = False,
                   duplicate: bool = True, port: int = 0, records_dir=None,
                   limits: Optional[Limits] = None,
                   progress: Optional[Callable[[int, int], None]] = None
                   ) -> ExternalMatchResult:
    """Play a match of ``deals`` units (deals, or games with ``games=True``)
    between two teams (texts for ``parse_team`` or Team objects) through
    our server on 127.0.0.1 (``port``: 0 for any free port); see the module
    docstring. ``records_dir``: every deal's record (``deal-0001-a.txt`` as
    ``match`` names them) and, per table, the server's ``messages.jsonl``
    and each seat's output (``tables/``)."""
    limits = limits if limits is not None else Limits()
    ta = team_a if isinstance(team_a, Team) else parse_team(team_a, "team_a")
    tb = team_b if isinstance(team_b, Team) else parse_team(team_b, "team_b")
    _check(deals, seed, games, duplicate, port, records_dir, limits, progress)
    return asyncio.run(_match(ta, tb, deals, seed, games, duplicate, port, records_dir,
                              limits, progress))


async def _match(ta, tb, deals, seed, games, duplicate, port, records_dir, limits, progress):
    start = time.perf_counter()
    out_dir = Path(records_dir) if records_dir is not None else None
    scratch = None
    if out_dir is None:
        scratch = tempfile.TemporaryDirectory(prefix="gd-external-")
        base = Path(scratch.name)
    else:
        base = out_dir / "tables"
    plays: list = []
    faults: list = []
    invalid = {"a": 0, "b": 0}
    answers = {"a": 0, "b": 0}
    seconds = 0.0
    arrangements = (False, True) if duplicate else (False,)
    total = deals * len(arrangements)
    done = 0
    tables = 0
    try:
        for swapped in arrangements:
            unit = 0
            while unit < deals:
                first = unit
                tables += 1
                work = base / f"table-{'b' if swapped else 'a'}-{tables:04d}"
                names = _SWAPPED_NAMES if swapped else _SEAT_NAMES
                if games:
                    def dealer(g, d, first=first):
                        hands, leader = deal_for(seed, first + g - 1, d - 1)[0::2]
                        return [[str(c) for c in h] for h in hands], leader
                    t = await _table(_arrangement(ta, tb, swapped), names, port,
                                     deals - first, MAX_GAME_DEALS, None, dealer, limits, work,
                                     seed)
                else:
                    starts: dict = {}

                    def start_game(g, first=first, starts=starts):
                        hands, leader, prog = single_deal_start(seed, first + g - 1)
                        starts[g] = (hands, leader)
                        return prog

                    def dealer(g, d, starts=starts):
                        return starts[g]
                    def on_deal(n, done=done):
                        if progress is not None and n < deals - first:
                            progress(done + n, total)
                    t = await _table(_arrangement(ta, tb, swapped), names, port,
                                     deals - first, 1, start_game, dealer, limits, work, seed,
                                     on_deal)
                seconds += t.seconds
                for s in range(4):
                    invalid[_side(s, swapped)] += t.invalid[s]
                    answers[_side(s, swapped)] += t.answers[s]
                finished_units = _collect(t.records, ta, tb, seed, swapped, first, games, plays)
                unit = first + finished_units
                done += finished_units
                if t.error is not None:
                    side = _side(t.seat, swapped) if t.seat is not None else None
                    if unit < deals:
                        faults.append(Fault(unit, swapped, side, t.kind, t.error))
                        # the unit in progress is abandoned (and, in games, the
                        # deals of it already played are dropped from the scores)
                        plays[:] = [p for p in plays if not (p.unit == unit
                                                             and p.swapped == swapped)]
                        unit += 1
                        done += 1
                if progress is not None:
                    progress(done, total)
    finally:
        if scratch is not None:
            scratch.cleanup()
    elapsed = time.perf_counter() - start
    if out_dir is not None:
        for p in plays:
            (out_dir / f"{p.name(games)}.txt").write_text(p.record, encoding="utf-8")
    return _score(ta, tb, deals, seed, games, duplicate, plays, faults, invalid, answers,
                  seconds, elapsed)


def _collect(records, ta, tb, seed, swapped, first, games, plays) -> int:
    """Turn a table's deal records into ExternalDeals; returns the number of
    units it finished (deals, or whole games)."""
    finished = 0
    for rec in records:
        g = int(rec.tags["round"])
        d = int(rec.tags["deal"])
        unit = first + g - 1
        order = tuple(int(s) for s in rec.tags["order"].split())
        gain0 = level_gain(order)
        assert gain0 is not None  # the server writes a record once its deal is finished
        gain_a = -gain0 if swapped else gain0
        rec.tags = {"event": "gd-analyze match", "round": str(unit + 1),
                    "table": "b" if swapped else "a"}
        if games:
            rec.tags["deal"] = str(d)
        rec.tags.update({"seed": str(seed), "team_a": _label(ta.label),
                         "team_b": _label(tb.label), "order": " ".join(map(str, order))})
        plays.append(ExternalDeal(unit, swapped, d - 1, rec.rules.level, order, gain_a,
                                  dumps(rec)))
    if not games:
        return len(records)
    # whole games: a game is finished when its next game started or the
    # progress says it is over (replayed from the orders)
    by_unit: dict = {}
    for p in plays:
        if p.swapped == swapped and p.unit >= first:
            by_unit.setdefault(p.unit, []).append(p)
    for unit in sorted(by_unit):
        prog = GameProgress(Rules())
        for p in sorted(by_unit[unit], key=lambda p: p.deal):
            prog.end_deal(p.order)
            if prog.over or p.deal == MAX_GAME_DEALS - 1:
                p.game_over = True
                if prog.winner is not None:
                    a_team = 1 if swapped else 0
                    p.game_winner = "a" if prog.winner == a_team else "b"
                finished += 1
    return finished


def scored_units(plays: Sequence[ExternalDeal], units: int, duplicate: bool) -> dict:
    """The units a match scores, each with its deals: every arrangement
    played (an abandoned table, or its partner's, leaves the unit out).
    Team A's levels a deal in unit u: ``mean(p.gain_a for p in result[u])``."""
    halves: dict = {}
    for p in plays:
        halves.setdefault((p.unit, p.swapped), []).append(p)
    scored = {}
    arrangements = (False, True) if duplicate else (False,)
    for unit in range(units):
        parts = [halves.get((unit, s), []) for s in arrangements]
        if all(parts):
            scored[unit] = [p for x in parts for p in x]
    return scored


def _score(ta, tb, deals, seed, games, duplicate, plays, faults, invalid, answers,
           seconds, elapsed) -> ExternalMatchResult:
    scored = list(scored_units(plays, deals, duplicate).values())
    mean, low, high, wr, wlo, whi = unit_scores(scored)
    game_wins = game_tally([p for p in plays if p.game_over]) if games else None
    n = len(plays)
    return ExternalMatchResult(ta.label, tb.label, deals, seed, duplicate, games, mean, low,
                               high, wr, wlo, whi, len(scored), n,
                               seconds / n if n else 0.0, elapsed, invalid, answers,
                               faults, plays, game_wins)
