"""Where a public bot's lead over the house policy comes from: the public bot
with the policy's answers at one class of decisions, against itself.

    python bench/experiments/hybrid.py match --mcc M --python P --opponent ai4 \\
        --modes lead,opp,partner,exchange,all --pairs 400 --seed 8101 --json F

plays, for each mode, a duplicate match (``platform.external.external_match``,
our server on 127.0.0.1) of H(mode) against the public bot ``--opponent``
(``bench/match_external.py``'s table, run unchanged by ``--python``). H is that
same bot, each of its two clients behind a relay (the ``proxy`` command
below) that answers the decisions of the mode with our policy's choice
instead of the bot's. The bot against itself scores 0 by symmetry, so H's
levels a deal are what the policy's answers of that class cost (or gain)
in the public bot's play. The modes:

- ``none``: the relay changes nothing (the control: about 0);
- ``all``: every answer is the policy's (about the policy's own score);
- ``lead`` (no play stands), ``opp`` (an opponent's play stands),
  ``partner`` (the partner's play stands), ``exchange`` (tribute, return);
- ``opp1``, ``oppn``: ``opp`` where the opponent's standing play is a
  single, and where it is any other play;
- at an opponent's standing play, only where the two choices differ, by
  how: ``d1`` the policy bombs and the bot does not, ``d2`` the policy
  passes and the bot plays, ``d3`` the policy plays a non-bomb and the bot
  passes, ``d4`` both play different non-bombs, ``d5`` different bombs.

Modes may be joined with ``+`` (``lead+opp``). Each match prints its row and
how many decisions of each class were met, answered by the policy and
disagreed on; ``--json`` keeps each unit's levels, so that two modes on the
same seed can be paired.

    python bench/experiments/hybrid.py proxy --url URL --ours opp -- CMD ...

is the relay (run by ``match`` as each client's command): it connects to our
server at URL, starts CMD with ``@PURL@`` replaced by its own address on
127.0.0.1, passes every message both ways, and at an act of a class in
``--ours`` sends the policy's index in place of the client's; ``--stats``
appends its counts as one JSON line. The public bots track their state from
the server's notices, which report what was played, so a replaced answer
leaves them consistent.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import signal
import sys
import time
from pathlib import Path

from guandan_fast.model.rules import BOMB_TYPES
from guandan_fast.model.seats import partner
from guandan_fast.platform.actions import PLATFORM_TYPES

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))     # match_external.py, beside bench/
CLASSES = ("lead", "opp", "partner", "exchange")
KINDS = ("d1", "d2", "d3", "d4", "d5")
TABLES = ("opp1", "oppn")


def decision_class(seat, msg) -> tuple[str, str]:
    """The class of an act message (lead, opp, partner or exchange) and,
    for opp, its table's (opp1: the opponent's standing play is a single,
    else oppn; "" for the other classes)."""
    if msg.get("stage") in ("tribute", "back"):
        return "exchange", ""
    table, owner, _ = seat.standing(msg)
    if table is None:
        return "lead", ""
    if owner == partner(seat.seat):
        return "partner", ""
    return "opp", "opp1" if table.type == "single" else "oppn"


def _kind(actions, i) -> str:
    if i >= len(actions) or actions[i][0] == "PASS":
        return "pass"
    return "bomb" if PLATFORM_TYPES.get(actions[i][0]) in BOMB_TYPES else "play"


def disagreement(actions, theirs: int, ours: int) -> str:
    """d1..d5 (see the module docstring), or "" when the two agree or the
    bot bombs where the policy plays a non-bomb."""
    if theirs == ours:
        return ""
    t, o = _kind(actions, theirs), _kind(actions, ours)
    if o == "bomb":
        return "d5" if t == "bomb" else "d1"
    if o == "pass":
        return "d2"
    return {"pass": "d3", "play": "d4"}.get(t, "")


async def relay(url: str, ours: set, cmd: list, stats_file) -> None:
    import websockets
    from guandan_fast.platform.client import BotPolicy, Seat

    up = await websockets.connect(url, max_size=2 ** 22, compression=None, ping_interval=None)
    loop = asyncio.get_running_loop()
    client: asyncio.Future = loop.create_future()
    finished = asyncio.Event()

    async def handler(ws, *_):
        if not client.done():
            client.set_result(ws)
            await finished.wait()

    server = await websockets.serve(handler, "127.0.0.1", 0, max_size=2 ** 22,
                                    compression=None, ping_interval=None)
    port = server.sockets[0].getsockname()[1]
    argv = [w.replace("@PURL@", f"ws://127.0.0.1:{port}/game/relay") for w in cmd]
    proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL,
                                                start_new_session=True)
    seat, policy = Seat(), BotPolicy("policy")
    pending: list = []
    stats = {c: [0, 0, 0] for c in CLASSES}       # met, answered by the policy, disagreed

    async def down(ws):
        async for text in up:
            msg = json.loads(text)
            seat.feed(msg)
            if msg.get("type") == "act":
                c, tc = decision_class(seat, msg)
                k = policy(seat, msg) if c in ours or c != "exchange" else None
                mine = c in ours or tc in ours
                pending.append((c, k, msg.get("actionList") or [], mine))
            await ws.send(text)
        await ws.close()

    async def back(ws):
        async for text in ws:
            msg = json.loads(text)
            if isinstance(msg, dict) and "actIndex" in msg and pending:
                c, k, actions, mine = pending.pop(0)
                theirs = int(msg["actIndex"])
                stats[c][0] += 1
                if k is not None:
                    stats[c][2] += theirs != k
                    if mine or (c == "opp" and disagreement(actions, theirs, k) in ours):
                        stats[c][1] += 1
                        text = json.dumps(dict(msg, actIndex=k))
            await up.send(text)

    tasks = []
    try:
        ws = await asyncio.wait_for(client, 60)
        tasks = [asyncio.ensure_future(down(ws)), asyncio.ensure_future(back(ws))]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        finished.set()
        await up.close()
        server.close()
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except asyncio.TimeoutError:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
        if stats_file:
            with open(stats_file, "a", encoding="utf-8") as f:
                f.write(json.dumps(stats) + "\n")


def hybrid_team(mcc: Path, python: str, name: str, mode: str, stats: Path) -> str:
    """The exec: team text of H(mode): the public bot ``name``, each client
    run by ``run_client.py`` (``match_external.client_commands``) behind the
    relay, which takes the server's address and gives the client its own."""
    from match_external import client_commands
    cwd, cmds, _ = client_commands(mcc, python, name, any_port=True)
    ours = ",".join(CLASSES) if mode == "all" else "" if mode == "none" else mode.replace("+", ",")
    proxy = (f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).resolve()))} proxy "
             f"--url {{url}} --ours {shlex.quote(ours)} --stats {shlex.quote(str(stats))} --")
    cmds = [f"{proxy} {c.replace('{url}', '@PURL@')}" for c in cmds]
    return f"exec[cwd={cwd}]:{cmds[0]} | {cmds[1]}"


def run_match(a) -> int:
    from match_external import team, unit_gains
    from guandan_fast.platform.external import Limits, external_match

    opponent, _ = team(a.mcc, a.python, a.opponent, True)
    out: dict = {}
    work = Path(a.json).resolve().parent if a.json else Path.cwd()
    for mode in a.modes.split(","):
        stats = work / f".hybrid-{os.getpid()}-{mode}.stats"
        stats.unlink(missing_ok=True)
        t0 = time.perf_counter()
        r = external_match(hybrid_team(a.mcc, a.python, a.opponent, mode, stats), opponent,
                           deals=a.pairs, seed=a.seed, port=0, limits=Limits())
        d = r.to_dict()
        counts = {c: [0, 0, 0] for c in CLASSES}
        if stats.exists():
            for line in stats.read_text(encoding="utf-8").splitlines():
                for c, v in json.loads(line).items():
                    counts[c] = [x + y for x, y in zip(counts[c], v)]
            stats.unlink()
        lo, hi = d["ci95"]
        out[mode] = {"mean": d["mean_gain"], "ci95": [lo, hi], "deals": d["deals_played"],
                     "first_out": d["win_rate"], "units": unit_gains(r), "classes": counts,
                     "faults": d["faults"], "seconds": time.perf_counter() - t0}
        print(f"{a.opponent} {mode:<10} {d['deals_played']:>4} deals {d['mean_gain']:+.3f} "
              f"[{lo:+.3f}, {hi:+.3f}] first out {100 * d['win_rate']:.1f}% "
              f"abandoned {len(d['faults'])}  met/policy/differ {counts}", flush=True)
        if a.json:
            Path(a.json).write_text(json.dumps(out), encoding="utf-8")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match")
    m.add_argument("--mcc", type=Path, required=True)
    m.add_argument("--python", required=True)
    m.add_argument("--opponent", required=True)
    m.add_argument("--modes", required=True)
    m.add_argument("--pairs", type=int, required=True)
    m.add_argument("--seed", type=int, required=True)
    m.add_argument("--json")
    p = sub.add_parser("proxy")
    p.add_argument("--url", required=True)
    p.add_argument("--ours", default="")
    p.add_argument("--stats")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.command == "match":
        from match_external import OPPONENTS
        if a.opponent not in OPPONENTS:
            ap.error(f"--opponent {a.opponent!r}: one of {', '.join(OPPONENTS)}")
        for mode in a.modes.split(","):
            parts = mode.split("+")
            if mode not in ("none", "all") and not all(x in CLASSES + TABLES + KINDS for x in parts):
                ap.error(f"--modes: {mode!r} is not a mode "
                         f"(none, all, {', '.join(CLASSES + TABLES + KINDS)})")
        return run_match(a)
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("proxy: the client's command follows --")
    asyncio.run(relay(a.url, set(x for x in a.ours.split(",") if x), cmd, a.stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
