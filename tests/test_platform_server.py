"""The platform server over real loopback websockets (127.0.0.1, an ephemeral
port, bounded in time): four clients play, every message sent is valid, the
records written load and replay, the message log imports to the same records."""

import asyncio
import json
import random
from dataclasses import replace

import pytest
import websockets

from conftest import slow_beyond

from guandan_fast import Rules
from guandan_fast.platform.log import load_platform_log
from guandan_fast.formats.record import load, loads
from guandan_fast.game.record import final_state
from guandan_fast.game.progress import GameProgress
from guandan_fast.platform import messages as M
from guandan_fast.platform.client import play_client
from guandan_fast.platform.server import ServerError, run_server


def random_policy(seed):
    rng = random.Random(seed)
    return lambda seat, msg: rng.randrange(len(msg["actionList"]))


async def _serve_and_play(tmp, games=1, seed=3, policies=None, rules=None, raw_first=None,
                          names=None, before=None):
    """A server and four clients (named ``names``, else bot0..bot3); ``before``:
    an async callable given the port, awaited before the clients connect."""
    port = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(
        "127.0.0.1", 0, games=games, seed=seed, records_dir=str(tmp), rules=rules,
        ready=port.set_result, answer_timeout=20, connect_timeout=20))
    p = await asyncio.wait_for(port, 20)
    if before is not None:
        await before(p)
    clients = []
    for i in range(4):
        url = f"ws://127.0.0.1:{p}/game/{names[i] if names else f'bot{i}'}"
        if i == 0 and raw_first is not None:
            clients.append(asyncio.create_task(raw_first(url)))
        else:
            pol = (policies or {}).get(i, random_policy(i))
            clients.append(asyncio.create_task(play_client(url, pol, None, timeout=20)))
        await asyncio.sleep(0.05)          # connection order decides the seats
    result = await asyncio.wait_for(server, 120)
    outs = await asyncio.wait_for(asyncio.gather(*clients), 20)
    return result, outs


def check_outputs(tmp, result):
    sent = 0
    for line in (tmp / "messages.jsonl").read_text().splitlines():
        item = json.loads(line)
        if "msg" in item:
            M.validate(item["msg"])
            sent += 1
    files = sorted(tmp.glob("game*-deal*.txt"))
    assert len(files) == result.deals
    recs = [load(f) for f in files]
    for rec, mem in zip(recs, result.records):
        assert rec == mem or (rec.moves == mem.moves and rec.hands == mem.hands)
        assert final_state(rec).over
        assert loads(open(files[0]).read()) == recs[0]
    imported = load_platform_log(tmp / "messages.jsonl")
    assert len(imported) == len(recs)
    for a, b in zip(recs, imported):
        assert (a.hands, a.moves, a.tributes, a.returns, a.anti_tribute, a.previous, a.rules) == \
               (b.hands, b.moves, b.tributes, b.returns, b.anti_tribute, b.previous, b.rules)
        assert a.result() == b.result()
    return sent, recs


@pytest.mark.slow
def test_one_game_of_random_clients(tmp_path):
    result, outs = asyncio.run(_serve_and_play(tmp_path))
    assert result.games == 1 and result.deals >= 1 and result.bad_answers == 0
    assert (sum(result.victories), sum(result.draws)) in ((2, 0), (0, 4))
    assert result.names == ["bot0", "bot1", "bot2", "bot3"]
    sent, recs = check_outputs(tmp_path, result)
    assert sent > 100
    # the game's levels: replaying the finishing orders ends the game exactly at the last deal
    g = GameProgress(Rules())
    for i, rec in enumerate(recs):
        assert rec.rules.level == g.level
        assert (g.end_deal([int(s) for s in rec.tags["order"].split()]) is not None) == \
               (i == len(recs) - 1)
    assert all(o.seat.games == 1 and o.result["victoryNum"] == result.victories for o in outs)


@pytest.mark.slow
def test_invalid_answers_are_logged_and_asked_again(tmp_path):
    async def stubborn(url):
        async with websockets.connect(url) as ws:
            bad = 0
            async for text in ws:
                msg = json.loads(text)
                if msg.get("type") == "act":
                    if bad < 6:
                        for junk in ('{"actIndex": 99999}', "not json", '{"index": 0}',
                                     '{"actIndex": NaN}', '{"actIndex": 1e400}',
                                     b'{"actIndex": 99999}'):
                            await ws.send(junk)
                            bad += 1
                    await ws.send(json.dumps({"actIndex": 0}))
                if msg.get("stage") == "gameResult":
                    return bad
    result, outs = asyncio.run(_serve_and_play(tmp_path, raw_first=stubborn))
    assert outs[0] == 6 and result.bad_answers == 6

    def strict(name):          # the log is strict JSON: no NaN or Infinity
        raise ValueError(name)
    log = [json.loads(x, parse_constant=strict)
           for x in (tmp_path / "messages.jsonl").read_text().splitlines()]
    junk = [x["answer"] for x in log if x.get("invalid")]
    assert len(junk) == 6 and '{"actIndex": NaN}' in junk and '{"actIndex": 1e400}' in junk
    assert {"actIndex": 99999} in junk and junk.count({"actIndex": 99999}) == 2
    check_outputs(tmp_path, result)


@pytest.mark.slow
def test_rules_flags_reach_the_records(tmp_path):
    rules = Rules(flush_is_always_bomb=True, joker_pair_in_full_house=True,
                  no_tribute_when_partner_last=True, drop_after_three_failures_at_a=True)
    result, outs = asyncio.run(_serve_and_play(tmp_path, seed=11, rules=rules,
                                                policies=None))
    _, recs = check_outputs(tmp_path, result)
    assert all(o.seat.rules == replace(rules, level=o.seat.rules.level) for o in outs)
    assert all(r.rules.flush_is_always_bomb and r.rules.joker_pair_in_full_house for r in recs)


def test_too_few_clients_is_a_server_error():
    async def go():
        return await run_server("127.0.0.1", 0, games=1, connect_timeout=0.3)
    with pytest.raises(ServerError, match="fewer than four clients"):
        asyncio.run(go())


def test_bad_game_count():
    with pytest.raises(ServerError):
        asyncio.run(run_server("127.0.0.1", 0, games=0))


@pytest.mark.slow
def test_every_exchange_kind_and_partner_lead_occur(tmp_path):
    """Four seeded games of random clients: the anti-tribute, the double and
    single downs (the partner-pays case of RULES §7 included) and 接风 all
    happen, and every deal still checks and imports to the same record."""
    result, _ = asyncio.run(_serve_and_play(tmp_path, games=4, seed=5))
    _, recs = check_outputs(tmp_path, result)
    kinds = set()
    for rec in recs:
        if rec.anti_tribute:
            kinds.add("anti")
        elif len(rec.tributes) == 2:
            kinds.add("double")
        elif len(rec.tributes) == 1:
            t = rec.tributes[0]
            kinds.add("partner pays" if (t.giver - t.receiver) % 2 == 0 else "single")
        state = rec.start_state()
        last = None
        for m in rec.moves:
            if state.table is None and last is not None and last in state.finished \
                    and state.turn == (last + 2) % 4:
                kinds.add("jiefeng")
            if m.play is not None:
                last = m.seat
            state = state.apply(m.play)
    assert kinds >= {"anti", "double", "single", "partner pays", "jiefeng"}, kinds


def test_a_client_that_leaves_stops_the_server(tmp_path):
    async def leaver(url):
        async with websockets.connect(url) as ws:
            async for text in ws:
                if json.loads(text).get("type") == "act":
                    return "left"          # closes the connection without answering

    with pytest.raises(ServerError, match="left"):
        asyncio.run(_serve_and_play(tmp_path, raw_first=leaver))


@pytest.mark.slow
def test_out_of_turn_messages_are_dropped_not_taken_as_answers(tmp_path):
    """A seat that sends an answer before the game starts, and two answers
    to every act: each extra message is logged as out of turn and dropped;
    the seat's moves are exactly its answers to the acts it was sent. (A
    message still on its way when the seat's next act is sent cannot be
    told from an answer to it: the protocol numbers nothing.)"""
    chosen = []

    async def eager(url):
        async with websockets.connect(url) as ws:
            await ws.send('{"actIndex": 0}')                  # before any act
            async for text in ws:
                msg = json.loads(text)
                if msg.get("type") == "act":
                    k = len(msg["actionList"]) - 1             # the last entry
                    chosen.append(msg["actionList"][k])
                    await ws.send(json.dumps({"actIndex": k}))
                    await ws.send('{"actIndex": 0}')          # a second answer
                if msg.get("stage") == "gameResult":
                    return len(chosen)
    result, outs = asyncio.run(_serve_and_play(tmp_path, raw_first=eager))
    n = outs[0]
    assert n > 0 and result.bad_answers == n + 1
    log = [json.loads(x) for x in (tmp_path / "messages.jsonl").read_text().splitlines()]
    assert sum(1 for x in log if x.get("out_of_turn")) == n + 1
    # every act of seat 0 was answered with its last entry, and that is what was played
    taken = [x["answer"]["actIndex"] for x in log
             if x.get("seat") == 0 and "answer" in x and not x.get("invalid")]
    acts = [x["msg"] for x in log if x.get("seat") == 0 and "msg" in x
            and x["msg"].get("type") == "act"]
    assert taken == [a["indexRange"] for a in acts] and len(acts) == n
    check_outputs(tmp_path, result)


@pytest.mark.slow
def test_a_client_that_leaves_before_the_start_gives_its_place_up(tmp_path):
    async def ghost(port):
        async with websockets.connect(f"ws://127.0.0.1:{port}/game/ghost"):
            pass
        await asyncio.sleep(0.2)
    result, _ = asyncio.run(_serve_and_play(tmp_path, before=ghost))
    assert result.names == ["bot0", "bot1", "bot2", "bot3"] and result.games == 1


# each case waits for the server's 1 s connect timeout: the first in the
# default run, all of them with --slow
@pytest.mark.parametrize("path, reason", slow_beyond([
    ("/game/a%2Cb", "','"), ("/game/x%23y", "'#'"), ("/game/%20a", "spaces"),
    ("/game/2", "seat number"), ("/game/a%0Ab", "'\\n'"), ("/lobby/a", "/game/"),
    ("/game/", "is empty"), ("/game/a%E2%80%A8b", "u2028"), ("/game/%FF%FE", "holds"),
    ("/game/%1C", "x1c")], 1))
def test_a_name_a_record_cannot_hold_is_refused_with_the_reason(path, reason):
    async def go():
        port = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server("127.0.0.1", 0, games=1, ready=port.set_result,
                                                connect_timeout=1))
        p = await asyncio.wait_for(port, 20)
        async with websockets.connect(f"ws://127.0.0.1:{p}{path}") as ws:
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            code, why = ws.close_code, ws.close_reason
        with pytest.raises(ServerError, match=r"\(0\)"):       # the refused one took no seat
            await server
        return code, why
    code, why = asyncio.run(go())
    assert code == 1008 and reason in why


@pytest.mark.slow
def test_a_name_in_the_query_and_percent_encoding_is_read(tmp_path):
    result, _ = asyncio.run(_serve_and_play(
        tmp_path, names=["%D0%90%D0%BD%D1%8F?x=1", "b", "c", "d"]))
    assert result.names == ["Аня", "b", "c", "d"]
    check_outputs(tmp_path, result)


@pytest.mark.slow
def test_a_server_that_stops_closes_with_1011_and_the_reason(tmp_path):
    codes = []

    async def silent(url):
        async with websockets.connect(url) as ws:
            try:
                async for _ in ws:
                    pass
            finally:
                codes.append((ws.close_code, ws.close_reason))

    async def go():
        port = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(
            "127.0.0.1", 0, games=1, seed=3, ready=port.set_result, answer_timeout=0.5,
            connect_timeout=20))
        p = await asyncio.wait_for(port, 20)
        clients = []
        for i in range(4):
            clients.append(asyncio.create_task(silent(f"ws://127.0.0.1:{p}/game/s{i}")))
            await asyncio.sleep(0.05)
        with pytest.raises(ServerError, match="gave no answer"):
            await asyncio.wait_for(server, 60)
        await asyncio.wait_for(asyncio.gather(*clients, return_exceptions=True), 20)
    asyncio.run(go())
    assert len(codes) == 4
    assert all(c == 1011 and "gave no answer" in r for c, r in codes)


@pytest.mark.slow
def test_a_client_that_floods_out_of_turn_loses_its_connection():
    """max_bad_answers messages out of turn in a row (here before the
    start) end the connection with 1008; its place is free again."""
    async def go():
        port = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server("127.0.0.1", 0, games=1, ready=port.set_result,
                                                connect_timeout=3, max_bad_answers=5))
        p = await asyncio.wait_for(port, 20)
        async with websockets.connect(f"ws://127.0.0.1:{p}/game/flood") as ws:
            for _ in range(20):
                try:
                    await ws.send('{"actIndex": 0}')
                except websockets.ConnectionClosed:
                    break
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            code, why = ws.close_code, ws.close_reason
        with pytest.raises(ServerError, match=r"\(0\)"):      # its place was given up
            await server
        return code, why
    code, why = asyncio.run(go())
    assert code == 1008 and "5 messages out of turn" in why


@pytest.mark.slow
def test_sigterm_stops_the_server_like_ctrl_c(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "-m", "guandan_fast.cli", "serve", "--port", "0",
                             "--connect-timeout", "60"], stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()            # "listening on ..."
        assert "listening" in line
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err.strip().splitlines() == ["gd-analyze: interrupted"]
