"""A client of the competition platform: one of the project's bots on any
platform-compatible server (``gd-analyze bot ws://HOST:PORT/game/NAME``).

``Seat`` follows one seat's messages (docs/platform.md) and knows what that seat
knows: its hand, the level, the cards each seat holds, the play so far as
``(seat, Play or None)``, the standing play and its owner, the seats out,
the exchange before the play. ``Seat.view()`` turns that into the
``guandan_fast.game.view.View`` a bot decides on; ``answer(msg)`` gives the
``actIndex`` for an ``act`` message: the bot's Play (or card) mapped to the
index of a matching entry of the message's ``actionList``.

The client reads the standing play from the server (``greaterPos``,
``greaterAction``) rather than working the rounds out itself: the server
owns the rules of the play. Actions are read with the project's rules at
the message's ``curRank``; the flags are those a ``beginning`` message
names (our server's ``"rules"`` key), else ``rules``' flags (the 2020
platform reads a one-suit run as a straight flush only: when an action does
not read under the flags given, the other reading of the flush flag is
tried).

The client checks every ``act`` and ``beginning`` (``messages.validate``,
without requiring the act fields it does not read: ``CLIENT_OPTIONAL``)
before it reads it; an ``act`` it cannot answer is a ProtocolError naming
the field.
The games end with ``gameResult`` (or once the connection closes after the
last ``gameOver``); a connection that ends before that, a bad address, a
refused handshake or a server silent for ``timeout`` seconds is a
PlatformConnectionError saying which (with the close code and reason).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from typing import Callable, Optional

from .._core import Card, Play
from ..errors import GuandanError, PlatformConnectionError, ProtocolError
from ..model.rules import Rules
from .actions import from_action, index_of, parse_action, rank_char
from .messages import CLIENT_OPTIONAL, SCHEMA, _flags, unswapped, validate

__all__ = ["Seat", "BotPolicy", "play_client", "run_client", "ClientResult"]


class Seat:
    """What one seat knows, from the messages it received."""

    def __init__(self, rules: Optional[Rules] = None):
        self.base = rules or Rules()
        self.rules = self.base
        self.seat: Optional[int] = None
        self.hand: list = []
        self.history: list = []          # (seat, Play or None)
        self.finished: list = []
        self.tributes: list = []         # (giver, receiver, Card)
        self.returns: list = []
        self.counts = [27, 27, 27, 27]
        self.deals = 0
        self.games = 0
        self.result: Optional[dict] = None
        # a 2020 ``beginning`` names no level: the plays seen before the
        # level is known (the seat's first act names it) are read then
        self.level_known = True
        self.pending: list = []          # (index in history, the action as sent)

    def _level(self, value):
        r = rank_char(value, "curRank")
        if r not in "BR" and r != self.rules.level:
            self.rules = replace(self.base, level=r)

    def read_action(self, action, field="curAction") -> Optional[Play]:
        try:
            return from_action(action, self.rules, field=field)
        except GuandanError:
            other = replace(self.rules, flush_is_always_bomb=not self.rules.flush_is_always_bomb)
            return from_action(action, other, field=field)

    def feed(self, msg: dict) -> None:
        """Take in one message from the server (notify or act); a message it
        cannot read is a ProtocolError naming its stage."""
        if not isinstance(msg, dict):
            raise ProtocolError("a message is a JSON object")
        try:
            self._feed(msg)
        except GuandanError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise ProtocolError(f"a {str(msg.get('type'))[:20]}/{str(msg.get('stage'))[:20]} "
                                f"message the client cannot read ({type(e).__name__}: {e})"[:200]
                                ) from None

    def _feed(self, msg: dict) -> None:
        kind, stage = msg.get("type"), msg.get("stage")
        if msg.get("curRank") is not None:
            self._level(msg["curRank"])
            self._read_pending()
        if kind == "act":
            self.hand = [Card(str(c)) for c in msg.get("handCards") or []]
            return
        if stage == "beginning":
            if isinstance(msg.get("rules"), dict):      # our server names its flags
                _flags(msg["rules"], "rules")
                self.base = replace(self.base, **msg["rules"])
                self.rules = replace(self.base, level=self.rules.level)
            self.seat = int(msg["myPos"])
            self.hand = [Card(str(c)) for c in msg["handCards"]]
            self.history, self.finished = [], []
            self.tributes, self.returns = [], []
            self.counts = [27, 27, 27, 27]
            self.deals += 1
            self.level_known = msg.get("curRank") is not None
            self.pending = []
        elif stage in ("tribute", "back"):
            target = self.tributes if stage == "tribute" else self.returns
            for g, r, c in msg.get("result") or []:
                card = Card(str(c))
                target.append((int(g), int(r), card))
                self.counts[int(g)] -= 1
                self.counts[int(r)] += 1
                if int(g) == self.seat and card in self.hand:
                    self.hand.remove(card)
                if int(r) == self.seat:
                    self.hand.append(card)
        elif stage == "play":
            seat = int(msg["curPos"])
            action = msg["curAction"]
            parts = parse_action(action, "curAction")
            if parts is not None and not self.level_known:
                self.pending.append((len(self.history), action))
                self.history.append((seat, None))       # read once the level is known
            else:
                self.history.append((seat, None if parts is None else self.read_action(action)))
            if parts is not None:
                cards = [Card(str(c)) for c in parts[2]]
                self.counts[seat] -= len(cards)
                if seat == self.seat:
                    for c in cards:
                        if c in self.hand:
                            self.hand.remove(c)
                if self.counts[seat] == 0 and seat not in self.finished:
                    self.finished.append(seat)
        elif stage == "gameOver":
            self.games += 1
        elif stage == "gameResult":
            self.result = msg

    def _read_pending(self) -> None:
        """The plays announced before the level was known, read at it."""
        self.level_known = True
        for i, action in self.pending:
            self.history[i] = (self.history[i][0], self.read_action(action))
        self.pending = []

    def standing(self, msg: dict):
        """(table Play or None, owner or None, passes) from an act message."""
        msg = unswapped(msg)          # one manual example swaps the two fields
        pos = msg.get("greaterPos")
        action = msg.get("greaterAction")
        if pos is None or pos == -1 or parse_action(action, "greaterAction") is None:
            return None, None, 0
        table = self.read_action(action, "greaterAction")
        passes = 0
        for s, p in reversed(self.history):
            if p is not None:
                break
            passes += 1
        return table, int(pos), min(passes, 3)

    def view(self, msg: dict, phase: str = "play"):
        """The View of this seat at an act message."""
        from ..game.view import View
        seat = self.seat
        if seat is None:
            raise ProtocolError("an act before the beginning message gave this seat", "myPos")
        counts = list(self.counts)
        public = msg.get("publicInfo")
        if isinstance(public, list) and len(public) == 4:
            counts = [int(p.get("rest", counts[i])) if isinstance(p, dict) else counts[i]
                      for i, p in enumerate(public)]
        counts[seat] = len(self.hand)
        if phase != "play":
            return View(seat, self.hand, self.rules, counts, tributes=self.tributes,
                        phase=phase)
        table, owner, passes = self.standing(msg)
        return View(seat, self.hand, self.rules, counts, history=self.history,
                    table=table, owner=owner, passes=passes, finished=self.finished,
                    tributes=self.tributes, returns=self.returns)


class BotPolicy:
    """Answers act messages with one of the project's bots (``make_bot`` spec
    or a Bot)."""

    def __init__(self, bot, warn: Callable[[str], None] | None = None):
        from ..bots import make_bot
        self.bot = make_bot(bot)
        self.warn = warn or (lambda text: print(text, file=sys.stderr))

    def __call__(self, seat: Seat, msg: dict) -> int:
        try:
            return self._answer(seat, msg)
        except GuandanError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise ProtocolError(f"an act/{str(msg.get('stage'))[:20]} message the client cannot "
                                f"answer ({type(e).__name__}: {e})"[:200]) from None

    def _answer(self, seat: Seat, msg: dict) -> int:
        stage = msg.get("stage")
        actions = msg.get("actionList") or []
        if stage in ("tribute", "back"):
            cands = [Card(str(a[2][0])) for a in actions]
            view = seat.view(msg, "tribute" if stage == "tribute" else "return")
            card = (self.bot.tribute if stage == "tribute" else self.bot.give_back)(view, cands)
            return cands.index(card) if card in cands else 0
        play = self.bot.choose(seat.view(msg))
        try:
            return index_of(play, actions)
        except ProtocolError as e:
            self.warn(f"the bot's choice is not in the server's list ({e}); playing entry 0")
            return 0


# the notices the client reads (checked like the acts, so that a bad field
# is named where it arrives), and their fields it does not read
_NOTICES_READ = ("play", "tribute", "back", "gameOver")
_UNREAD = frozenset({"greaterPos", "greaterAction"})


class ClientResult:
    def __init__(self, seat: Seat, decisions: int):
        self.seat = seat
        self.decisions = decisions
        self.result = seat.result


def _closed(e) -> str:
    """How a connection ended, from websockets' ConnectionClosed."""
    frame = getattr(e, "rcvd", None) or getattr(e, "sent", None)
    code = getattr(frame, "code", None)
    reason = getattr(frame, "reason", "")
    if code is None:
        return "without a close frame"
    return f"with code {code}" + (f" ({reason[:120]})" if reason else "")


async def _connect(url: str, timeout: float):
    import websockets
    from urllib.parse import urlsplit
    try:
        port = urlsplit(url).port if isinstance(url, str) else None
    except ValueError:
        port = None                        # websockets names a bad address below
    if port == 0:                          # websockets would take it as the default, 80
        raise PlatformConnectionError(f"{url[:100]!r} is not a websocket address "
                                      "ws://HOST:PORT/game/NAME (port 0 is no server's)")
    try:
        return await websockets.connect(url, max_size=2 ** 22, open_timeout=timeout,
                                        compression=None, ping_interval=None)
    except (websockets.InvalidURI, ValueError) as e:
        raise PlatformConnectionError(f"{url[:100]!r} is not a websocket address "
                                      f"ws://HOST:PORT/game/NAME ({e})"[:200]) from None
    except websockets.InvalidHandshake as e:
        raise PlatformConnectionError(f"{url[:100]}: the server refused the websocket "
                                      f"handshake ({e})"[:200]) from None
    except (TimeoutError, asyncio.TimeoutError):
        raise PlatformConnectionError(f"{url[:100]}: no answer to the handshake in "
                                      f"{timeout} s") from None
    except OSError as e:
        raise PlatformConnectionError(f"{url[:100]}: cannot connect "
                                      f"({e.strerror or type(e).__name__})") from None


async def play_client(url: str, policy, rules: Optional[Rules] = None,
                      max_messages: int = 10 ** 7, timeout: float = 600.0) -> ClientResult:
    """Connect to ``url``, answer every act with ``policy(seat, msg)`` until
    the server sends ``gameResult``; at most ``max_messages`` messages,
    each waited for at most ``timeout`` seconds (see the module docstring
    for the errors)."""
    import websockets
    seat = Seat(rules)
    decisions = 0
    last_game = False          # the last gameOver seen (curTimes >= settingTimes)
    ws = await _connect(url, timeout)
    async with ws:
        for _ in range(max_messages):
            try:
                text = await asyncio.wait_for(ws.recv(), timeout)
            except (TimeoutError, asyncio.TimeoutError):
                raise PlatformConnectionError(f"no message from the server in {timeout} s") \
                    from None
            except websockets.ConnectionClosed as e:
                frame = e.rcvd or e.sent
                if last_game and (frame is None or frame.code in (1000, 1001)):
                    break            # the games are over: a close without an error ends them
                raise PlatformConnectionError(f"the server closed the connection {_closed(e)} "
                                              "before the game result") from None
            try:
                msg = json.loads(text)
            except (ValueError, RecursionError):
                raise ProtocolError(f"not a JSON message: {str(text)[:60]!r}") from None
            # what the client reads to answer is checked first: acts and the
            # beginning (the other messages are read by Seat.feed, whose
            # errors name the message)
            if isinstance(msg, dict) and (msg.get("type"), msg.get("stage")) in SCHEMA:
                if msg.get("type") == "act" or msg.get("stage") == "beginning":
                    validate(msg, optional=CLIENT_OPTIONAL)
                elif msg.get("stage") in _NOTICES_READ:
                    validate(msg, optional=CLIENT_OPTIONAL | _UNREAD)
            seat.feed(msg)
            if msg.get("type") == "act":
                # in a thread: the connection stays served while the bot thinks
                k = await asyncio.to_thread(policy, seat, msg)
                decisions += 1
                await ws.send(json.dumps({"actIndex": int(k)}))
            elif msg.get("stage") == "gameResult":
                break
            elif msg.get("stage") == "gameOver":
                last_game = msg.get("curTimes", 0) >= msg.get("settingTimes", 1)
    return ClientResult(seat, decisions)


def run_client(url: str, bot="greedy", rules: Optional[Rules] = None, **kw) -> ClientResult:
    """``play_client`` with a bot, in its own event loop (blocking)."""
    return asyncio.run(play_client(url, BotPolicy(bot), rules, **kw))
