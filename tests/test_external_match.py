"""The external-team match (platform/external.py, ``gd-analyze match`` with an
``exec:`` team): real client processes over real websockets on 127.0.0.1,
each match a few deals, every limit a few seconds.

The external client is tests/ext_client.py, a tiny websockets client of
our own (the first entry of ``actionList``, or a misbehaving mode)."""

import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from clirun import run
from conftest import by_run

from guandan_fast.platform.external import (ExternalDeal, Limits, external_match,
                                            is_external, parse_team, scored_units,
                                            single_deal_start)
from guandan_fast.bots.match import deal_for
from guandan_fast.errors import BotSpecError, ExternalTeamError, MatchError
from guandan_fast.formats.record import loads
from guandan_fast.game.state import level_gain, team
from guandan_fast.game.tribute import tribute_plan
from guandan_fast.model.rules import RANKS, Rules

CLIENT = Path(__file__).with_name("ext_client.py")
FAST = Limits(answer=5, connect=20, deal=30, grace=2, max_bad_answers=3)


def client(mode, *extra):
    return f"exec:{sys.executable} {CLIENT} {{url}} {mode}" + "".join(f" {e}" for e in extra)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


# -- teams ---------------------------------------------------------------------------

def test_parse_team_bot_and_exec(tmp_path):
    t = parse_team("greedy")
    assert not t.external and t.bot == "greedy"
    argv = t.argv("ws://127.0.0.1:9/game/A1", 0, "A1", 9, 5.0)
    assert argv[argv.index("bot") + 1] == "ws://127.0.0.1:9/game/A1"
    assert argv[argv.index("--bot") + 1] == "greedy"
    e = parse_team(f"exec[cwd={tmp_path}]:run 'a b' {{url}} s={{seat}} n={{name}} "
                   "p={port} {{x}}")
    assert e.external and e.cwd == str(tmp_path)
    assert e.argv("ws://h/game/B2", 3, "B2", 77, 1.0) == [
        "run", "a b", "ws://h/game/B2", "s=3", "n=B2", "p=77", "{x}"]
    two = parse_team("exec:one {seat} | two {seat}")
    assert [two.argv("u", s, "n", 1, 1.0) for s in range(4)] == [
        ["one", "0"], ["one", "1"], ["two", "2"], ["two", "3"]]
    assert is_external("exec:x") and is_external("exec[cwd=/]:x") and not is_external("greedy")


@pytest.mark.parametrize("text, words", [
    ("exec:", "empty"),
    ("exec:   ", "empty"),
    ("exec:a | ", "empty"),
    ("exec:a | b | c", "at most two"),
    ("exec:run {bogus}", "unknown placeholder {bogus}"),
    ("exec:run {url!r}", "unknown placeholder"),
    ("exec:run {url:>9}", "unknown placeholder"),
    ("exec:run {0}", "unknown placeholder"),
    ("exec:run {", "Single '{'"),
    ("exec:run }", "Single '}'"),
    ("exec:run 'open", "No closing quotation"),
    ("exec[cwd=/no/such/dir]:run", "is not a directory"),
    ("exec[dir=/]:run", "exec[cwd=DIR]"),
    ("exec[cwd=/]run", "exec[cwd=DIR]"),
    ("exec:a\nb", "line break"),
])
def test_parse_team_rejects(text, words):
    with pytest.raises(ExternalTeamError) as e:
        parse_team(text, "--team-b")
    assert str(e.value).startswith("--team-b: ") and words in str(e.value)


def test_parse_team_rejects_bad_spec_and_type():
    with pytest.raises(BotSpecError):
        parse_team("execute")
    with pytest.raises(ExternalTeamError):
        parse_team(b"exec:x")


@pytest.mark.parametrize("kw, words", [
    ({"deals": 0}, "deals"), ({"deals": True}, "deals"), ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"), ({"games": 1}, "games"), ({"duplicate": None}, "duplicate"),
    ({"port": 70000}, "port"), ({"port": "1"}, "port"), ({"limits": 3}, "limits"),
    ({"limits": Limits(answer=0)}, "answer"), ({"limits": Limits(deal=-1)}, "deal"),
    ({"limits": Limits(max_bad_answers=0)}, "max_bad_answers"),
    ({"progress": 3}, "progress"),
])
def test_external_match_rejects(kw, words):
    with pytest.raises(MatchError) as e:
        external_match("greedy", client("first"), **kw)
    assert words in str(e.value)


# -- the deals -----------------------------------------------------------------------

def test_single_deal_start_is_a_game_position():
    """Each single deal: deal_for's hands and level, a previous order that is
    a permutation, the level its winner's team plays; over many deals every
    kind of exchange occurs (two tributes, one, anti-tribute): 300 deals, the
    first 50 in the default run (where all of them have by the 14th)."""
    kinds = Counter()
    firsts = Counter()
    for i in range(by_run(50, 300)):
        hands, leader, prog = single_deal_start(11, i)
        cards, level, _ = deal_for(11, i)
        assert hands == [[str(c) for c in h] for h in cards]
        assert sorted(prog.previous) == [0, 1, 2, 3]
        assert prog.owner == team(prog.previous[0])
        assert prog.level == level and RANKS[prog.levels[prog.owner]] == level
        assert single_deal_start(11, i)[2] == prog          # from (seed, i) alone
        plan = tribute_plan(prog.previous, [list(map(str, h)) for h in cards],
                            Rules(level=level))
        kinds["anti" if plan.anti_tribute else len(plan.payments)] += 1
        firsts[prog.previous[0]] += 1
    assert kinds[1] > 0 and kinds[2] > 0 and kinds["anti"] > 0
    assert len(firsts) == 4


# -- matches over real websockets -------------------------------------------------

def _pair_means(result):
    """Team A's mean gain a scored pair, recomputed from the records."""
    by = {}
    for p in result.plays:
        rec = loads(p.record)
        order = [int(s) for s in rec.tags["order"].split()]
        g0 = level_gain(order)
        by.setdefault(int(rec.tags["round"]), []).append(-g0 if rec.tags["table"] == "b" else g0)
    return [sum(v) / len(v) for k, v in sorted(by.items()) if len(v) == 2]


@pytest.mark.slow
def test_first_entry_client_duplicate_deals(tmp_path):
    t0 = time.monotonic()
    calls = []
    r = external_match("greedy", client("first"), deals=2, seed=5, records_dir=tmp_path,
                       limits=FAST, progress=lambda done, total: calls.append((done, total)))
    assert time.monotonic() - t0 < 60
    assert calls[-1] == (4, 4) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    d = r.to_dict()
    assert d["deals_played"] == 4 and d["pairs_scored"] == 2 and not d["faults"]
    assert d["a"]["invalid_answers"] == 0 and d["b"]["invalid_answers"] == 0
    assert d["a"]["decisions"] > 0 and d["b"]["decisions"] > 0
    means = _pair_means(r)
    assert len(means) == 2 and r.mean == pytest.approx(sum(means) / 2)
    files = sorted(p.name for p in tmp_path.glob("deal-*.txt"))
    assert files == ["deal-0001-a.txt", "deal-0001-b.txt", "deal-0002-a.txt", "deal-0002-b.txt"]
    for i in (1, 2):
        a = loads((tmp_path / f"deal-{i:04d}-a.txt").read_text())
        b = loads((tmp_path / f"deal-{i:04d}-b.txt").read_text())
        # the same deal, the seats swapped between the teams
        assert a.hands == b.hands and a.previous == b.previous and a.rules.level == b.rules.level
        hands, _, prog = single_deal_start(5, i - 1)
        assert [[str(c) for c in h] for h in a.hands] == hands and a.previous == prog.previous
        assert a.tributes or a.anti_tribute       # a previous order: the exchange happened
        assert a.players == ["A1", "B1", "A2", "B2"] and b.players == ["B1", "A1", "B2", "A2"]
    # the server's log of each table is kept with the seats' output
    assert len(list(tmp_path.glob("tables/table-*/messages.jsonl"))) == 2


def test_scored_units_leave_out_a_half_played_pair():
    def deal(unit, swapped, gain):
        return ExternalDeal(unit, swapped, 0, "2", (0, 1, 2, 3), gain, "")
    plays = [deal(0, False, 2), deal(0, True, -1), deal(1, False, 3), deal(2, True, 1),
             deal(3, False, 1), deal(3, True, 1), deal(3, True, -3)]
    got = scored_units(plays, 4, duplicate=True)
    assert sorted(got) == [0, 3]
    assert [p.gain_a for p in got[3]] == [1, 1, -3]
    # the result's mean is over these units, each its mean per deal
    assert sorted(scored_units(plays, 4, duplicate=False)) == [0, 1, 3]
    assert scored_units(plays, 1, duplicate=True) == {0: plays[:2]}


@pytest.mark.slow
def test_reproducible_under_a_playout_budget():
    """Two runs of a search bot with a playout budget (not a time budget)
    against the first-entry client: the same deals, moves and figures."""
    runs = [external_match("search:5,samples=1,playouts=8", client("first"), deals=1,
                           seed=2, duplicate=False, limits=FAST) for _ in range(2)]
    a, b = runs
    assert [p.record for p in a.plays] == [p.record for p in b.plays]
    da, db = a.to_dict(), b.to_dict()
    for d in (da, db):
        d.pop("elapsed_seconds")
        d.pop("seconds_per_deal")
    assert da == db and da["deals_played"] == 1 and not da["faults"]


def _check_game(plays):
    assert [p.deal for p in plays] == list(range(len(plays)))
    assert plays[0].level == "2" and loads(plays[0].record).previous is None
    for x, y in zip(plays, plays[1:]):
        assert loads(y.record).previous == list(x.order)
    assert [p.game_over for p in plays] == [False] * (len(plays) - 1) + [True]


@pytest.mark.slow
def test_whole_game():
    r = external_match("greedy", client("first"), deals=1, seed=4, games=True,
                       duplicate=False, limits=FAST)
    d = r.to_dict()
    assert not d["faults"] and d["pairs_scored"] == 1 and sum(d["games_won"].values()) == 1
    _check_game(r.plays)
    assert r.plays[-1].game_winner == "a" == ("a" if d["games_won"]["a"] else "b")


@pytest.mark.slow
def test_whole_games_duplicate():
    r = external_match(client("first"), client("first"), deals=1, seed=4, games=True,
                       limits=FAST)
    d = r.to_dict()
    assert not d["faults"] and d["pairs_scored"] == 1 and sum(d["games_won"].values()) == 2
    a = [p for p in r.plays if not p.swapped]
    b = [p for p in r.plays if p.swapped]
    _check_game(a)
    _check_game(b)
    # the same hands deal by deal in the two arrangements
    for x, y in zip(a, b):
        assert loads(x.record).hands == loads(y.record).hands


@pytest.mark.slow
def test_crashing_client_is_counted_not_hung():
    t0 = time.monotonic()
    r = external_match(client("crash"), client("first"), deals=2, seed=1, duplicate=False,
                       limits=FAST)
    assert time.monotonic() - t0 < 60
    d = r.to_dict()
    assert d["a"]["crashes"] == 2 and d["b"]["crashes"] == 0
    assert all(f.team == "a" and f.kind == "crash" for f in r.faults)
    # every unit was tried (a new table after each crash); none finished
    assert [f.unit for f in r.faults] == [0, 1] and d["pairs_scored"] == 0


def test_invalid_answers_are_counted_and_the_deal_goes_on():
    # the default run's match over real websockets (one duplicate pair of
    # client processes); the longer matches are behind --slow
    r = external_match(client("first"), client("invalid"), deals=1, seed=3, limits=FAST)
    d = r.to_dict()
    assert d["deals_played"] == 2 and not d["faults"]
    assert d["a"]["invalid_answers"] == 0
    assert d["b"]["invalid_answers"] == d["b"]["decisions"] > 0


@pytest.mark.slow
def test_garbage_answers_stop_the_table():
    r = external_match(client("garbage"), client("first"), deals=1, seed=3, limits=FAST)
    d = r.to_dict()
    assert d["a"]["stopped_for_invalid"] == 2 and d["a"]["abandoned"] == 2
    assert d["a"]["invalid_answers"] >= 2 * FAST.max_bad_answers
    assert d["deals_played"] == 0


@pytest.mark.slow
def test_silent_client_times_out():
    limits = Limits(answer=1, connect=20, deal=30, grace=1)
    t0 = time.monotonic()
    r = external_match(client("first"), client("silent"), deals=1, seed=3, limits=limits)
    assert time.monotonic() - t0 < 40
    d = r.to_dict()
    assert d["b"]["timeouts"] == 2 and d["a"]["timeouts"] == 0
    assert all("gave no answer in 1 s" in f.reason for f in r.faults)


@pytest.mark.slow
def test_client_that_never_connects_and_one_that_cannot_start():
    limits = Limits(answer=2, connect=5, deal=10, grace=1)
    r = external_match(client("first"), f"exec:{sys.executable} -c 'import time; time.sleep(60)'",
                       deals=1, seed=0, duplicate=False, limits=limits)
    assert [(f.team, f.kind) for f in r.faults] == [("b", "timeout")]
    r = external_match("exec:/no/such/program {url}", client("first"), deals=1, seed=0,
                       duplicate=False, limits=limits)
    assert [(f.team, f.kind) for f in r.faults] == [("a", "crash")]


@pytest.mark.slow
def test_lingering_processes_are_killed(tmp_path):
    pids = tmp_path / "pids"
    r = external_match(client("first"), client("linger", pids), deals=1, seed=6,
                       duplicate=False, limits=Limits(answer=5, connect=20, deal=30, grace=1))
    assert r.to_dict()["deals_played"] == 1
    found = [int(x) for x in pids.read_text().split()]
    assert len(found) == 2
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in found) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in found)


# -- the command line ------------------------------------------------------------------

@pytest.mark.slow
def test_cli_platform_match_json():
    import json
    res = run("match", "--team-a", client("first"), "--team-b", client("first"), "--deals",
              "1", "--seed", "2", "-q", "--format", "json", "--answer-timeout", "5",
              "--deal-timeout", "30", "--connect-timeout", "20")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["deals_played"] == 2 and d["b"]["invalid_answers"] == 0
    res = run("match", "--team-a", client("first"), "--team-b", client("first"), "--deals", "1",
              "--no-duplicate", "-q")
    assert res.returncode == 0 and "A first out" in res.stdout


@pytest.mark.parametrize("args, option", [
    (["--team-a", "greedy", "--team-b", "random", "--port", "23456"], "--port"),
    (["--team-a", "greedy", "--team-b", "random", "--answer-timeout", "3"], "--answer-timeout"),
    (["--team-a", "greedy", "--team-b", "random", "--connect-timeout", "3"],
     "--connect-timeout"),
    (["--team-a", "greedy", "--team-b", "random", "--deal-timeout", "3"], "--deal-timeout"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--jobs", "2"], "--jobs"),
    (["--team-a", "greedy", "--team-b", "random", "--platform", "--dask", "tcp://h:1"],
     "--dask"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--port", "70000"], "--port"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--port", "x"], "--port"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--answer-timeout", "0"],
     "--answer-timeout"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--connect-timeout", "-1"],
     "--connect-timeout"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--deal-timeout", "nan"], "--deal-timeout"),
    (["--team-a", "greedy", "--team-b", "exec:x", "--seed", "-1"], "--seed"),
    (["--team-a", "greedy", "--team-b", "exec:run {nope}"], "--team-b"),
    (["--team-a", "exec:run 'x", "--team-b", "greedy"], "--team-a"),
    (["--team-a", "exec[cwd=/no/such]:x", "--team-b", "greedy"], "--team-a"),
    (["--team-a", "greedy", "--team-b", "exec:a | b | c"], "--team-b"),
    (["--team-a", "greedy", "--team-b", "exec:"], "--team-b"),
])
def test_cli_rejects(args, option):
    res = run("match", *args)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0], res.stderr


def test_port_in_use_is_a_match_error():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(MatchError, match=f"port {port}: cannot listen"):
            external_match(client("first"), client("first"), deals=1, port=port, limits=FAST)
        res = run("match", "--team-a", client("first"), "--team-b", client("first"),
                  "--deals", "1", "--port", str(port), "-q")
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
        assert f"port {port}" in res.stderr
