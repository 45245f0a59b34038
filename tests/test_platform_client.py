"""The platform client against scripted servers on real loopback websockets
(127.0.0.1, an ephemeral port, bounded in time): a connection that ends
before the game result, a malformed act, junk, a bad address, a refused
handshake and a silent server are each one clean error (and exit status 2
with one line from gd-analyze bot), never a traceback or a silent success."""

import asyncio
import json

import pytest
import websockets

from clirun import run_subprocess
from conftest import slow_beyond
from guandan_fast import Rules
from guandan_fast.errors import PlatformConnectionError, ProtocolError
from guandan_fast.platform import action_list
from guandan_fast.platform import messages as M
from guandan_fast.platform.client import play_client

HAND = ["S3", "S3", "D4", "H2", "SB"]
PUBLIC = [{"rest": 5, "playArea": None}] + [{"rest": 27, "playArea": None}] * 3


def first(seat, msg):
    return 0


def act(**change):
    msg = M.act("play", HAND, PUBLIC, "2", "2", "2", -1, None, -1, None,
                action_list(HAND, Rules()))
    msg.update(change)
    return msg


async def _scripted(script, close=(1000, ""), answers=None):
    """A server that sends `script` (texts or dicts) to its one client, reads
    an answer after each act, then closes with `close` (None: drops the
    connection without a close frame). The client's result or error."""
    async def handler(ws):
        try:
            for item in script:
                await ws.send(item if isinstance(item, str) else json.dumps(item))
                if isinstance(item, dict) and item.get("type") == "act":
                    got = await asyncio.wait_for(ws.recv(), 10)
                    if answers is not None:
                        answers.append(json.loads(got))
        except websockets.ConnectionClosed:
            return                   # the client gave up (what some tests expect)
        if close is None:
            ws.transport.abort()
        else:
            await ws.close(*close)

    async with websockets.serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        return await asyncio.wait_for(
            play_client(f"ws://127.0.0.1:{port}/game/t", first, timeout=5), 20)


BEGIN = M.beginning(HAND, 0, "2", "2", "2")


def test_a_whole_exchange_ends_at_the_game_result():
    answers = []
    res = asyncio.run(_scripted([BEGIN, act(), M.game_over(1, 1),
                                 M.game_result([1, 0, 1, 0], [0] * 4)], answers=answers))
    assert res.decisions == 1 and answers == [{"actIndex": 0}]
    assert res.result["victoryNum"] == [1, 0, 1, 0]


def test_a_close_after_the_last_game_over_is_an_end():
    res = asyncio.run(_scripted([BEGIN, M.game_over(2, 2)]))
    assert res.seat.games == 1
    # but not a close that says the server failed
    with pytest.raises(PlatformConnectionError, match="code 1011"):
        asyncio.run(_scripted([BEGIN, M.game_over(2, 2)], (1011, "the server stopped")))


@pytest.mark.parametrize("script, close, needle", [
    ([BEGIN], (1000, ""), "code 1000"),
    ([BEGIN, M.game_over(1, 3)], (1011, "seat 2 (x) gave no answer"), "gave no answer"),
    ([BEGIN], None, "without a close frame"),
])
def test_a_connection_that_ends_before_the_result_is_an_error(script, close, needle):
    with pytest.raises(PlatformConnectionError, match="before the game result") as e:
        asyncio.run(_scripted(script, close))
    assert needle in str(e.value)


@pytest.mark.parametrize("msg, field", [
    (act(actionList=[], indexRange=-1), "actionList"),
    (act(indexRange=2), "indexRange"),
    (act(actionList=[["Foo", "3", ["S3"]]], indexRange=0), "actionList[0]"),
    (act(actionList=[5], indexRange=0), "actionList[0]"),
    (act(curPos=9), "curPos"),
    (act(handCards=None), "handCards"),
    (dict(BEGIN, myPos=1.9), "myPos"),
    (dict(BEGIN, myPos=7), "myPos"),
])
def test_a_malformed_message_names_its_field(msg, field):
    script = [BEGIN, msg] if msg.get("type") == "act" else [msg]
    with pytest.raises(ProtocolError) as e:
        asyncio.run(_scripted(script))
    assert str(e.value).startswith(field), str(e.value)


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000, "not json", "{\"type\": "])
def test_junk_is_a_protocol_error(text):
    with pytest.raises(ProtocolError, match="not a JSON message"):
        asyncio.run(_scripted([text]))


@pytest.mark.parametrize("url", ["ws://127.0.0.1:99999/game/x", "ws://[::1/game/x",
                                 "ws://127.0.0.1:abc/game/x", "ws://", "ws://127.0.0.1:0/game/x"])
def test_a_bad_address_is_named(url):
    with pytest.raises(PlatformConnectionError, match="not a websocket address"):
        asyncio.run(play_client(url, first, timeout=5))


def test_a_server_that_is_not_a_websocket_is_a_refused_handshake():
    async def go():
        async def http(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()
        server = await asyncio.start_server(http, "127.0.0.1", 0)
        async with server:
            port = server.sockets[0].getsockname()[1]
            await play_client(f"ws://127.0.0.1:{port}/game/x", first, timeout=5)
    with pytest.raises(PlatformConnectionError, match="refused the websocket handshake"):
        asyncio.run(asyncio.wait_for(go(), 20))


def test_a_silent_server_is_named_after_the_timeout():
    async def go():
        async def handler(ws):
            await ws.wait_closed()          # never a word, until the client leaves
        async with websockets.serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            await play_client(f"ws://127.0.0.1:{port}/game/x", first, timeout=0.3)
    with pytest.raises(PlatformConnectionError, match="no message from the server in 0.3 s"):
        asyncio.run(asyncio.wait_for(go(), 20))


# a new interpreter each: with --slow (tests/test_cli.py starts the real
# command in the default run; test_hardening.py checks bot's options in
# process)
@pytest.mark.parametrize("args", slow_beyond([["ws://127.0.0.1:abc/game/x"], ["ws://[::1"],
                                              ["ws://127.0.0.1:1/game/x", "--timeout", "nan"]],
                                             0))
def test_the_bot_command_fails_on_one_line(args):
    r = run_subprocess("bot", *args, timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_an_act_without_the_fields_the_client_does_not_read_is_answered():
    lean = act()
    for k in ("publicInfo", "selfRank", "oppoRank"):
        lean.pop(k)
    answers = []
    res = asyncio.run(_scripted([BEGIN, lean, M.game_result([0] * 4, [0] * 4)],
                                answers=answers))
    assert res.decisions == 1 and answers == [{"actIndex": 0}]
    # present, they are still checked
    with pytest.raises(ProtocolError, match="publicInfo"):
        asyncio.run(_scripted([BEGIN, act(publicInfo=[1, 2])]))


def test_an_act_before_the_beginning_message_is_a_protocol_error_naming_mypos():
    from guandan_fast.platform.client import Seat
    with pytest.raises(ProtocolError, match="before the beginning") as e:
        Seat().view({"type": "act", "stage": "play", "actionList": [], "curPos": 0})
    assert e.value.field == "myPos" and str(e.value).startswith("myPos: ")


def _lean_beginning(hand, seat=0):
    """A 2020 ``beginning``: the hand and the seat, no level."""
    return {"type": "notify", "stage": "beginning", "handCards": hand, "myPos": seat}


def test_plays_before_the_level_is_known_are_read_at_the_deals_level():
    # deal 2 of a 2020 server: its beginning names no level; a pair of 7 made
    # with the wild of level 5 (H5) is announced before the seat's first act,
    # which names the level: the pair is read at 5, not at the last deal's 2
    from guandan_fast import read_play
    hand5 = ["S3", "S3", "D4", "H2", "SB", "C9"]
    pair = ["Pair", "7", ["S7", "H5"]]
    act5 = M.act("play", hand5, PUBLIC, "5", "5", "5", 3, ["PASS", "PASS", "PASS"], 1, pair,
                 action_list(hand5, Rules(level="5"), table=read_play("S7 H5", Rules(level="5"))))
    res = asyncio.run(_scripted([BEGIN, act(), _lean_beginning(hand5), M.play_notice(1, pair, 1, pair),
                                 M.play_notice(2, ["PASS", "PASS", "PASS"], 1, pair),
                                 M.play_notice(3, ["PASS", "PASS", "PASS"], 1, pair), act5,
                                 M.game_result([0] * 4, [0] * 4)]))
    assert res.decisions == 2 and res.seat.rules.level == "5"
    seat, play = res.seat.history[0]
    assert seat == 1 and play == read_play("S7 H5", Rules(level="5"))
    assert res.seat.counts[1] == 25 and [p for _, p in res.seat.history[1:]] == [None, None]


def test_the_manuals_free_lead_with_swapped_fields_is_answered():
    answers = []
    res = asyncio.run(_scripted([BEGIN, act(greaterAction=-1, greaterPos=None),
                                 M.game_result([0] * 4, [0] * 4)], answers=answers))
    assert res.decisions == 1 and answers == [{"actIndex": 0}]


@pytest.mark.parametrize("msg, field", [
    (M.game_over("1", 1), "curTimes"),
    (M.game_over(1, None), "settingTimes"),
    (M.play_notice(-1, ["Single", "3", ["S3"]], 0, ["Single", "3", ["S3"]]), "curPos"),
    (M.play_notice(1, ["Single", "3", "S3"], 1, ["Single", "3", ["S3"]]), "curAction"),
    (M.tribute_notice([[-1, 0, "S3"]]), "result"),
    (M.back_notice([[0, 1, "Z9"]]), "result"),
])
def test_a_malformed_notice_names_its_field_where_it_arrives(msg, field):
    with pytest.raises(ProtocolError) as e:
        asyncio.run(_scripted([BEGIN, msg, M.game_result([0] * 4, [0] * 4)]))
    assert str(e.value).startswith(field), str(e.value)


def test_the_connection_is_served_while_the_bot_thinks():
    # a server in a thread of its own pings while the bot thinks for 0.8 s:
    # the pong comes back within 0.4 s (a client deciding in its event loop
    # would answer only when the bot is done)
    import threading
    import time
    pongs, ready, done = [], threading.Event(), threading.Event()
    port = []

    async def handler(ws):
        await ws.send(json.dumps(BEGIN))
        await ws.send(json.dumps(act()))
        await asyncio.sleep(0.2)
        t0 = time.monotonic()
        try:
            await asyncio.wait_for(await ws.ping(), 0.4)
            pongs.append(time.monotonic() - t0)
        except asyncio.TimeoutError:
            pongs.append(None)
        await asyncio.wait_for(ws.recv(), 10)
        await ws.send(json.dumps(M.game_result([0] * 4, [0] * 4)))
        await ws.close()

    async def serve():
        async with websockets.serve(handler, "127.0.0.1", 0) as server:
            port.append(server.sockets[0].getsockname()[1])
            ready.set()
            while not done.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=lambda: asyncio.run(asyncio.wait_for(serve(), 30)),
                              daemon=True)
    thread.start()
    assert ready.wait(10)

    def slow(seat, msg):
        time.sleep(0.8)
        return 0

    try:
        res = asyncio.run(asyncio.wait_for(
            play_client(f"ws://127.0.0.1:{port[0]}/game/t", slow, timeout=5), 20))
    finally:
        done.set()
        thread.join(10)
    assert res.decisions == 1 and len(pongs) == 1
    assert pongs[0] is not None and pongs[0] < 0.4, pongs
