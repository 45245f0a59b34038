"""The competition platform's server (PLATFORM.md), on ``websockets``.

``serve(host, port, games=N, seed=S, records_dir=DIR)`` waits for four
clients at ``ws://HOST:PORT/game/{name}`` (seats in connection order: the
1st and 3rd are seats 0 and 2, the 2nd and 4th seats 1 and 3), plays N games
and returns a ``ServerResult``. The rules are the project's: each deal is a
``DealState`` (``game.deal``: the exchange of RULES §7, the play of RULES §6),
``GameProgress`` carries the levels from deal to deal; ``rules`` carries the
variant flags (its level is ignored: games start at 2).

Each decision is an ``act`` message to the one seat that must act; it
answers ``{"actIndex": k}``. An answer that is not JSON, not that shape or
out of range is logged and the server waits for another (at most
``max_bad_answers`` in a row, then the server stops with ServerError); every
message sent and received goes to ``messages.jsonl`` in ``records_dir`` as
``{"seat": s, "msg": ...}`` / ``{"seat": s, "answer": ...}`` lines (the
importer reads it back), and every deal is written there as a deal record
(``game001-deal001.txt``, ``formats/record.py``).

A client answers an act, once: what a seat sends while no act of its is
open (before its first act, after its answer, a second answer) is out of
turn: logged with ``"out_of_turn": true`` (and seat -1 before the games
start, when seats are not fixed yet), counted as an invalid answer and
dropped, never taken as the answer to a later act; ``max_bad_answers`` of
them in a row end that client's connection (close code 1008).

A client's name is the rest of its path, percent-decoded, without a query;
a name a deal record cannot hold (``formats.record.check_name``: empty, a
comma, ``#``, a control character, spaces around it) is refused with close
code 1008 and the reason. A client that leaves before the fourth has
connected gives its place up.

The server binds where it is told (127.0.0.1 by default), waits for each
answer at most ``answer_timeout`` seconds and for the four clients at most
``connect_timeout`` seconds, and stops by itself after the last game,
closing every connection with code 1000; when it cannot go on (a client
left, stayed silent or kept sending bad answers) it closes them with code
1011 and the reason, and raises ServerError.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..model.cards import RANKS
from .._core import TOKENS, Card
from ..errors import GuandanError
from ..formats.record import check_name, dumps
from ..game.deal import DealState
from ..game.progress import GameProgress
from ..game.record import Record
from ..game.state import GameState
from ..model.seats import team
from ..model.rules import FLAG_KEYS, Rules
from . import messages as M
from .actions import action_list, action_plays, to_action

__all__ = ["serve", "run_server", "ServerResult", "ServerError", "deal_hands"]

_EMPTY = [None, None, None]


class ServerError(GuandanError):
    """The server cannot go on: a client left, stayed silent or kept sending
    bad answers, or a bad setting."""


@dataclass
class ServerResult:
    games: int = 0
    deals: int = 0
    victories: list = field(default_factory=lambda: [0, 0, 0, 0])
    draws: list = field(default_factory=lambda: [0, 0, 0, 0])
    bad_answers: int = 0
    seconds: float = 0.0
    names: list = field(default_factory=list)
    records: list = field(default_factory=list)      # the deal records (Record)

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0


def deal_hands(rng: random.Random) -> list:
    """Four hands of 27 cards from the shuffled double deck (token lists)."""
    deck = [t for t in TOKENS for _ in range(2)]
    rng.shuffle(deck)
    return [sorted(deck[27 * s:27 * (s + 1)], key=lambda t: Card(t)) for s in range(4)]


# at most this much of a bad or out-of-turn answer goes to the log
_LOG_CHARS = 200


class _Left:
    """What a seat's reader leaves in its inbox when the connection ends."""

    def __init__(self, ws):
        code = getattr(ws, "close_code", None)
        reason = getattr(ws, "close_reason", None)
        self.why = "left" + (f" (close code {code}{': ' + reason if reason else ''})"
                             if code is not None else "")


class _Link:
    """The clients' connections, from the moment each connects. Its handler
    reads what the client sends (``read``): into the seat's inbox while an
    act of the seat is open (``ask``), else it is out of turn (see the
    module docstring). The end of a connection leaves a _Left in its inbox.
    Seats are the order of the connections still open when the fourth
    comes."""

    def __init__(self, log, result, max_stray: int):
        self.ws: list = []
        self.names: list = []
        self.log = log
        self.result = result
        self.open: set = set()           # the connections with an act open
        self.inbox: dict = {}            # connection -> asyncio.Queue
        self.started = False             # seats are fixed once the games start
        self.stray: dict = {}            # connection -> out-of-turn messages in a row
        self.max_stray = max_stray

    def join(self, ws, name: str) -> None:
        self.ws.append(ws)
        self.names.append(name)
        self.inbox[ws] = asyncio.Queue()
        self.stray[ws] = 0

    def leave(self, ws) -> None:
        i = self.ws.index(ws)
        del self.ws[i]
        del self.names[i]
        del self.inbox[ws]
        del self.stray[ws]

    async def read(self, ws) -> None:
        """What the client `ws` sends, until its connection ends."""
        try:
            async for text in ws:
                if ws in self.open:
                    self.inbox[ws].put_nowait(text)
                else:
                    self.out_of_turn(ws, text)
        except Exception:      # the connection ended with an error: _Left says how
            pass
        if ws in self.inbox:
            self.inbox[ws].put_nowait(_Left(ws))

    def out_of_turn(self, ws, text) -> None:
        """Log and drop a message sent while no act of its seat was open
        (before the games start, its seat is -1: seats are not fixed yet).
        ``max_stray`` of them in a row (no valid answer between) end the
        connection with close code 1008: a client cannot fill the log."""
        self.result.bad_answers += 1
        i = self.ws.index(ws) if ws in self.ws else -1
        self.write({"seat": i if self.started else -1,
                    "name": self.names[i] if i >= 0 else None,
                    "answer": _shown(text), "invalid": True, "out_of_turn": True})
        self.stray[ws] += 1
        if self.stray[ws] == self.max_stray:
            asyncio.ensure_future(_close([ws], 1008, f"{self.max_stray} messages out of turn"))

    def answered(self, ws) -> None:
        self.stray[ws] = 0

    def write(self, item) -> None:
        if self.log is not None:
            self.log.write(json.dumps(item) + "\n")

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat]})"

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await _close(list(self.ws), code, reason)


async def _close(sockets, code: int, reason: str = ""):
    """Close every connection with `code` and `reason` (cut to the 123 bytes
    a close frame holds)."""
    reason = reason.encode("utf-8")[:120].decode("utf-8", "ignore")
    for ws in sockets:
        try:
            await ws.close(code, reason)
        except Exception:      # already closed
            pass


def _shown(text) -> object:
    """An answer as the log shows it: the JSON value when its text is short,
    else the start of the text."""
    if isinstance(text, (bytes, bytearray)):          # a binary frame: its text
        text = bytes(text).decode("utf-8", "replace")
    text = text if isinstance(text, str) else repr(text)
    if len(text) <= _LOG_CHARS:
        try:
            value = json.loads(text)
            json.dumps(value, allow_nan=False)       # NaN, 1e400: kept as the text
            return value
        except (ValueError, RecursionError):
            pass
    return text[:_LOG_CHARS]


class _Table:
    def __init__(self, link: _Link, rng, progress: GameProgress, args, dealer=None):
        self.link = link
        self.dealer = dealer
        self.names = link.names
        self.rng = rng
        self.progress = progress
        self.log = link.log
        self.result = link.result
        self.answer_timeout, self.max_bad = args

    # -- transport --------------------------------------------------------------
    async def send(self, seat: int, msg: dict, text: Optional[str] = None):
        if text is None:
            text = json.dumps(msg)
        if self.log is not None:
            self.log.write(f'{{"seat": {seat}, "msg": {text}}}\n')
        try:
            await self.link.ws[seat].send(text)
        except Exception:  # a closed connection: no reconnection (PLATFORM.md)
            raise ServerError(f"{self.link.who(seat)} {_Left(self.link.ws[seat]).why}") from None

    async def notify(self, msg: dict):
        text = json.dumps(msg)
        for s in range(4):
            await self.send(s, msg, text)

    async def ask(self, seat: int, msg: dict) -> int:
        """Send the act `msg` to `seat` and wait for its valid answer (the
        index); the act is open from just before it is sent until then."""
        link = self.link
        ws = link.ws[seat]
        inbox = link.inbox[ws]
        # what arrived before this act (the server may have been busy since
        # the last notify) is read as out of turn before the act opens: a
        # few turns of the event loop let the transport and the reader take it
        for _ in range(3):
            await asyncio.sleep(0)
        link.open.add(ws)
        try:
            await self.send(seat, msg)
            bad = 0
            while True:
                try:
                    text = await asyncio.wait_for(inbox.get(), self.answer_timeout)
                except asyncio.TimeoutError:
                    raise ServerError(f"{link.who(seat)} gave no answer in "
                                      f"{self.answer_timeout} s") from None
                if isinstance(text, _Left):
                    inbox.put_nowait(text)
                    raise ServerError(f"{link.who(seat)} {text.why}")
                try:
                    answer = json.loads(text)
                except (ValueError, TypeError, RecursionError):
                    answer = None
                k = M.validate_answer(answer, msg["indexRange"])
                if k is not None:
                    self._log({"seat": seat, "answer": _shown(text)})
                    link.answered(ws)
                    return k
                self._log({"seat": seat, "answer": _shown(text), "invalid": True})
                self.result.bad_answers += 1
                bad += 1
                if bad >= self.max_bad:
                    raise ServerError(f"{link.who(seat)} sent {bad} invalid answers in a row")
        finally:
            link.open.discard(ws)
            # what came after the answer (a second answer, say) is out of turn
            left = None
            while not inbox.empty():
                item = inbox.get_nowait()
                if isinstance(item, _Left):
                    left = item
                else:
                    link.out_of_turn(ws, item)
            if left is not None:
                inbox.put_nowait(left)

    def _log(self, item):
        self.link.write(item)

    # -- one deal ---------------------------------------------------------------
    def _ranks(self, seat):
        lv = self.progress.levels
        return RANKS[lv[team(seat)]], RANKS[lv[1 - team(seat)]]

    def _public(self, state: GameState, areas: dict) -> list:
        return [{"rest": state.count(s), "playArea": areas.get(s)} for s in range(4)]

    def _act(self, stage, seat, hand_tokens, public, cur, greater, actions):
        self_rank, oppo_rank = self._ranks(seat)
        return M.act(stage, hand_tokens, public, self_rank, oppo_rank, self.rules.level,
                     cur[0], cur[1], greater[0], greater[1], actions)

    async def play_deal(self, game_no: int, deal_no: int) -> Record:
        rules = self.rules = self.progress.deal_rules()
        if self.dealer is None:
            hands = deal_hands(self.rng)
            leader = self.rng.randrange(4)
        else:
            hands, leader = self.dealer(game_no, deal_no)
        for s in range(4):
            self_rank, oppo_rank = self._ranks(s)
            await self.send(s, M.beginning(list(hands[s]), s, rules.level, self_rank, oppo_rank,
                                           {k: getattr(rules, k) for k in FLAG_KEYS}))
        previous = self.progress.previous
        deal = DealState(hands, rules, previous, leader=None if previous is not None else leader)
        no_table: tuple[Optional[int], Optional[list[Any]]] = (-1, None)   # (seat, action)
        if deal.anti_tribute:
            holders = [s for s, n in (deal.anti_holders or {}).items() if n]
            await self.notify(M.anti_tribute_notice(holders))
        areas: dict = {}
        last = no_table
        while not deal.over:
            seat = deal.actor
            assert seat is not None
            phase = deal.phase
            if phase in ("tribute", "return"):
                # the tributes are paid together, then the returns given together
                counts = [len(h) for h in deal.hands()]
                public = [{"rest": counts[s], "playArea": None} for s in range(4)]
                cands = deal.legal_actions()
                stage, word = ("tribute", "tribute") if phase == "tribute" else ("back", "back")
                actions = [[word, word, [str(c)]] for c in cands]
                k = await self.ask(seat, self._act(stage, seat, [str(c) for c in deal.hand(seat)],
                                                   public, no_table, no_table, actions))
                if phase == "tribute":
                    deal.pay_tribute(seat, cands[k])
                    if deal.phase != "tribute":
                        await self.notify(M.tribute_notice(
                            [[t.giver, t.receiver, str(t.card)] for t in deal.tributes]))
                else:
                    deal.give_back(seat, cands[k])
                    if deal.phase != "return":
                        await self.notify(M.back_notice(
                            [[t.giver, t.receiver, str(t.card)] for t in deal.returns]))
                continue
            state = deal.game
            assert state is not None
            if state.table is None:
                areas = {}            # a new round: the play areas are cleared
                cur, greater = no_table, no_table
            else:
                cur = last
                greater = (state.owner, to_action(state.table))
            plays = action_plays(state.hands[seat], rules, state.table)
            actions = action_list(state.hands[seat], rules, state.table)   # same order
            hand_tokens = [str(c) for c in state.cards(seat)]
            k = await self.ask(seat, self._act("play", seat, hand_tokens,
                                               self._public(state, areas), cur, greater, actions))
            play = plays[k]
            action = actions[k]
            if play is None:
                assert state.owner is not None  # a pass answers a standing play
                g_pos, g_act = state.owner, to_action(state.table)
            else:
                g_pos, g_act = seat, action
            deal.play(seat, play)
            areas[seat] = action
            last = (seat, action)
            await self.notify(M.play_notice(seat, action, g_pos, g_act))
        state = deal.game
        assert state is not None and deal.order is not None
        order = list(deal.order)
        rest = [[s, [str(c) for c in state.cards(s)]] for s in range(4) if state.count(s)]
        await self.notify(M.episode_over(order, rules.level, rest))
        rec = deal.record({"event": "gd-analyze serve", "round": str(game_no),
                           "deal": str(deal_no), "order": " ".join(map(str, order))},
                          list(self.names))
        self.progress.end_deal(order)
        return rec


async def run_server(host: str = "127.0.0.1", port: int = 23456, games: int = 1,
                     seed: int = 0, records_dir: Optional[str] = None,
                     rules: Optional[Rules] = None, answer_timeout: float = 60.0,
                     connect_timeout: float = 600.0, max_bad_answers: int = 100,
                     max_deals: int = 10000, start_delay: float = 0.5,
                     ready=None, connections=None, result: Optional[ServerResult] = None,
                     start_game=None, dealer=None) -> ServerResult:
    """Serve ``games`` games to four clients (see the module docstring).
    ``ready``: an optional callable given the bound port once listening;
    ``start_delay``: seconds between the fourth connection and the first
    message (see below); ``max_deals``: a game still going after that many
    deals is scored a draw.

    For a harness that starts the clients itself (``platform.external``):
    ``connections(n)`` is called whenever a connection takes or gives up a
    place before the games start (``n`` places taken); ``result``: a
    ServerResult to fill in place (what was played before a ServerError is
    kept there); ``start_game(g)``: the GameProgress game ``g`` starts from
    (default: level 2, no previous order); ``dealer(g, d)``: the hands (four
    token lists) and the first leader of deal ``d`` of game ``g`` (default:
    drawn from ``seed``; the leader is used when there is no tribute)."""
    import websockets

    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ServerError(f"games must be a positive integer, not {games!r}")
    base = rules or Rules()
    result = result if result is not None else ServerResult()
    four = asyncio.Event()
    if records_dir is not None and (not isinstance(records_dir, (str, Path))
                                    or not str(records_dir).strip()):
        raise ServerError(f"records_dir must be the path of a directory, not "
                          f"{records_dir!r}"[:120])
    out_dir = Path(records_dir) if records_dir is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    log = open(out_dir / "messages.jsonl", "w", encoding="utf-8") if out_dir else None
    link = _Link(log, result, max_bad_answers)

    async def handler(ws):
        path = getattr(getattr(ws, "request", None), "path", None) or getattr(ws, "path", "")
        if four.is_set():
            await _close([ws], 1008, "full")
            return
        split = urllib.parse.urlsplit(path)
        if not split.path.startswith("/game/"):
            await _close([ws], 1008, "connect to /game/{name}")
            return
        name = urllib.parse.unquote(split.path[len("/game/"):], errors="replace")
        try:
            check_name(name, "name")
        except ValueError as e:
            await _close([ws], 1008, str(e))
            return
        link.join(ws, name)
        if len(link.ws) == 4:
            four.set()
        if connections is not None:
            connections(len(link.ws))
        await link.read(ws)
        if not four.is_set():
            link.leave(ws)         # before the fourth came: its place is free again
            if connections is not None:
                connections(len(link.ws))

    rng = random.Random(seed)
    try:
        # no keepalive pings: a client thinking in the thread that reads its
        # socket (the 2020 ws4py bots) cannot answer them, and the answer
        # and deal timeouts already bound every wait
        async with websockets.serve(handler, host, port, max_size=2 ** 20,
                                    compression=None, ping_interval=None) as server:
            bound = server.sockets[0].getsockname()[1] if server.sockets else port
            if ready is not None:
                ready(bound)
            try:
                try:
                    await asyncio.wait_for(four.wait(), connect_timeout)
                except asyncio.TimeoutError:
                    raise ServerError(f"fewer than four clients connected in {connect_timeout} s "
                                      f"({len(link.ws)})") from None
                result.names = list(link.names)
                link.started = True
                # The 2020 sample client (ws4py) reads the handshake answer in
                # 128-byte pieces and fails on a frame in the same piece: let the
                # fourth client finish its handshake before the first message.
                await asyncio.sleep(start_delay)
                start = time.perf_counter()
                for g in range(1, games + 1):
                    progress = GameProgress(base) if start_game is None else start_game(g)
                    table = _Table(link, rng, progress, (answer_timeout, max_bad_answers),
                                   dealer)
                    d = 0
                    while not progress.over and d < max_deals:
                        d += 1
                        rec = await table.play_deal(g, d)
                        result.deals += 1
                        result.records.append(rec)
                        if out_dir is not None:
                            (out_dir / f"game{g:03d}-deal{d:03d}.txt").write_text(
                                dumps(rec), encoding="utf-8")
                    if progress.winner is not None:
                        for s in range(4):
                            if team(s) == progress.winner:
                                result.victories[s] += 1
                    else:
                        for s in range(4):
                            result.draws[s] += 1
                    result.games = g
                    await table.notify(M.game_over(g, games))
                await table.notify(M.game_result(result.victories, result.draws))
                result.seconds = time.perf_counter() - start
                await link.close()
            except BaseException as e:
                # the clients learn that the games stopped, and why
                await link.close(1011, str(e) if isinstance(e, ServerError)
                                 else "the server stopped")
                raise
    finally:
        if log is not None:
            log.close()
    return result


def serve(host: str = "127.0.0.1", port: int = 23456, **kw) -> ServerResult:
    """``run_server`` in its own event loop (blocking)."""
    return asyncio.run(run_server(host, port, **kw))
