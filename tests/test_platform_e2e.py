"""End to end over real loopback websockets: ``gd-analyze serve`` and four
``gd-analyze bot`` client processes (the project's bots) play 2 games on
127.0.0.1 (an ephemeral port; every process bounded in time). The records
written load, replay to the same results, and the server's message log read
back by the importer gives the same records."""

import json
import re
import subprocess
import sys
import time

import pytest

from guandan_fast.platform.log import load_platform_log
from guandan_fast.formats.record import load
from guandan_fast.game.record import final_state
from guandan_fast.platform import messages as M


CLI = [sys.executable, "-m", "guandan_fast.cli"]


def _serve(tmp, games, seed):
    server = subprocess.Popen(
        CLI + ["serve", "--host", "127.0.0.1", "--port", "0", "--games", str(games),
               "--seed", str(seed), "--records", str(tmp), "--answer-timeout", "60",
               "--connect-timeout", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    m = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
    assert m, line
    return server, int(m.group(1))


@pytest.mark.slow
def test_two_games_of_four_bot_processes(tmp_path):
    server, port = _serve(tmp_path, games=2, seed=21)
    bots = []
    try:
        for i, spec in enumerate(["greedy", "random:1", "greedy", "random:2"]):
            bots.append(subprocess.Popen(
                CLI + ["bot", f"ws://127.0.0.1:{port}/game/p{i}", "--bot", spec, "--timeout", "60"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            time.sleep(0.3)               # the connection order decides the seats
        out, err = server.communicate(timeout=600)
        assert server.returncode == 0, err
        for b in bots:
            bout, berr = b.communicate(timeout=60)
            assert b.returncode == 0, berr
            assert "games 2" in bout
    finally:
        for p in [server] + bots:
            if p.poll() is None:
                p.kill()
    m = re.search(r"games 2\s+deals (\d+)", out)
    assert m, out
    deals = int(m.group(1))
    assert "invalid answers 0" in out and "players p0 p1 p2 p3" in out
    files = sorted(tmp_path.glob("game*-deal*.txt"))
    assert len(files) == deals and {f.name[:7] for f in files} == {"game001", "game002"}
    recs = [load(f) for f in files]
    for rec in recs:
        end = final_state(rec)
        assert end.over and " ".join(map(str, end.places())) == rec.tags["order"]
    for line in (tmp_path / "messages.jsonl").read_text().splitlines():
        item = json.loads(line)
        if "msg" in item:
            M.validate(item["msg"])
    imported = load_platform_log(tmp_path / "messages.jsonl")
    assert len(imported) == len(recs)
    for a, b in zip(recs, imported):
        assert (a.hands, a.moves, a.tributes, a.returns, a.anti_tribute, a.previous, a.rules) == \
               (b.hands, b.moves, b.tributes, b.returns, b.anti_tribute, b.previous, b.rules)
        assert a.result() == b.result()
