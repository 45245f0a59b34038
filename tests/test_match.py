"""Duplicate matches: the same hands for both teams, identical results on one
process, a local pool and a real Dask LocalCluster, records, the CLI."""

import json
import subprocess
import sys

import pytest

from guandan_fast import MatchError, match
from guandan_fast.bots.match import deal_for
from guandan_fast.stats import mean_ci, t95, t_quantile
from guandan_fast.formats.record import load, loads


def _key(result):
    """Everything of a result that must not depend on who ran it."""
    return [(p.unit, p.swapped, p.deal, p.level, p.hands, p.finished, p.gain_a, p.decisions,
             p.record) for p in result.plays]


def test_duplicate_gives_both_teams_the_same_hands():
    r = match("greedy", "random:4", deals=5, seed=12, jobs=1)
    assert r.units == 5 and len(r.plays) == 10
    for a, b in zip(r.plays[::2], r.plays[1::2]):
        assert a.unit == b.unit and not a.swapped and b.swapped
        assert a.hands == b.hands and a.level == b.level
        ra, rb = loads(a.record), loads(b.record)
        assert ra.hands == rb.hands and ra.leader == rb.leader
        # team A's seats: 0 and 2 first, then 1 and 3 with the same hands
        assert ra.players[0].startswith("A1") and rb.players[1].startswith("A1")
        assert ra.result() == a.gain_a and rb.result() == -b.gain_a
    # the seeded deal is what both played
    hands, level, leader = deal_for(12, 0)
    assert r.plays[0].hands == [" ".join(map(str, h)) for h in hands]
    assert r.plays[0].level == level


def test_single_play_and_statistics():
    r = match("greedy", "random:4", deals=6, seed=12, jobs=1, duplicate=False)
    assert len(r.plays) == 6 and all(not p.swapped for p in r.plays)
    gains = [p.gain_a for p in r.plays]
    mean, lo, hi = mean_ci(gains)
    # the t-interval, within the levels a deal can give
    assert (r.mean, r.low, r.high) == (mean, max(-3.0, lo), min(3.0, hi))
    assert r.win_rate == sum(g > 0 for g in gains) / 6
    # the win rate's Wilson interval, recomputed here
    p, n, z = r.win_rate, 6, 1.959963984540054
    c, h = (p + z * z / 12) / (1 + z * z / 6), \
        z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / 6)
    assert abs(r.win_low - max(0.0, c - h)) < 1e-12 and abs(r.win_high - min(1.0, c + h)) < 1e-12
    assert r.decisions[0] > 0 and r.decisions[1] > 0
    assert r.seconds_per_decision[0] >= 0 and r.elapsed > 0


def test_mean_ci_matches_student_t():
    from scipy import stats
    for df in (1, 2, 5, 10, 29, 30):          # the table, to three decimals
        assert t95(df) == pytest.approx(stats.t.ppf(0.975, df), abs=6e-4)
    for df in (31, 50, 100, 399, 1000):       # the expansion
        assert t95(df) == pytest.approx(stats.t.ppf(0.975, df), abs=1e-4)
    for df in (30, 31, 63, 200, 5000):        # the 99.9% quantile of compare_moves's stop
        assert t_quantile(df, stats.norm.ppf(0.9995)) == \
            pytest.approx(stats.t.ppf(0.9995, df), abs=2e-3)
    with pytest.raises(ValueError, match="df >= 30"):
        t_quantile(29, 3.29)
    vals = [3, -1, 2, 2, -3, 1, 0, 1]
    m, lo, hi = mean_ci(vals)
    ref = stats.t.interval(0.95, len(vals) - 1, loc=m, scale=stats.sem(vals))
    assert lo == pytest.approx(ref[0], abs=1e-3) and hi == pytest.approx(ref[1], abs=1e-3)


def test_process_pool_gives_the_same_result():
    one = match("random:1", "greedy", deals=4, seed=3, jobs=1)
    two = match("random:1", "greedy", deals=4, seed=3, jobs=2)
    assert _key(one) == _key(two)
    assert (one.mean, one.low, one.high) == (two.mean, two.low, two.high)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_result():
    import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp://", host="127.0.0.1", dashboard_address=None,
                                  silence_logs=50) as cluster:
        seen = []
        remote = match("random:1", "greedy", deals=4, seed=3, dask=cluster.scheduler_address,
                       progress=lambda d, t: seen.append((d, t)))
        with distributed.Client(cluster, set_as_default=False) as client:
            via_client = match("random:1", "greedy", deals=2, seed=3, games=True, dask=client)
    local = match("random:1", "greedy", deals=4, seed=3, jobs=2)
    assert _key(remote) == _key(local)
    assert seen[-1] == (4, 4) and len(seen) == 4
    assert _key(via_client) == _key(match("random:1", "greedy", deals=2, seed=3, games=True,
                                          jobs=1))


@pytest.mark.slow
def test_dask_worker_processes_give_the_same_result():
    import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  protocol="tcp://", host="127.0.0.1", dashboard_address=None,
                                  memory_limit="500MB", silence_logs=50) as cluster:
        remote = match("random:2", "greedy", deals=6, seed=8, games=True,
                       dask=cluster.scheduler_address)
    assert _key(remote) == _key(match("random:2", "greedy", deals=6, seed=8, games=True,
                                      jobs=1))


@pytest.mark.slow
def test_records_are_written_and_reviewable(tmp_path):
    out = tmp_path / "records"
    r = match("greedy", "random:2", deals=2, seed=5, jobs=1, games=True, records_dir=out)
    files = sorted(out.iterdir())
    assert len(files) == len(r.plays)
    tributes = 0
    for p, f in zip(sorted(r.plays, key=lambda p: p.name), files):
        assert f.name == p.name + ".txt"
        rec = load(f)
        assert rec.result() == (-p.gain_a if p.swapped else p.gain_a)
        tributes += bool(rec.tributes)
        assert rec.tags["event"] == "gd-analyze match"
    assert tributes > 0                       # whole games: tribute from the second deal on
    a_games = [p for p in r.plays if p.game_over]
    assert r.game_wins[0] + r.game_wins[1] + r.game_wins[2] == 4
    assert len(a_games) == r.game_wins[0] + r.game_wins[1]
    # gd-analyze game reviews a match record
    cli = subprocess.run([sys.executable, "-m", "guandan_fast.cli", "game", str(files[0]),
                          "--views", "double", "--budget", "0.01", "--solve-cards", "0",
                          "--format", "json", "-q"], capture_output=True, text=True,
                         timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["result"] == load(files[0]).result()


@pytest.mark.parametrize("kwargs,needle", [
    (dict(deals=0), "deals must be"), (dict(deals=2.5), "deals must be"),
    (dict(jobs=0), "jobs must be"), (dict(seed="x"), "seed must be"),
    (dict(dask="localhost:8786"), "dask: a scheduler address"),
])
def test_match_rejections(kwargs, needle):
    base = dict(team_a="greedy", team_b="random")
    base.update(kwargs)
    with pytest.raises(MatchError, match=needle):
        match(**base)


def test_records_dir_that_is_a_file(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(MatchError, match="is not a directory"):
        match("greedy", "random", deals=1, records_dir=f)


# -- the CLI ------------------------------------------------------------------------

def run(*args):
    return subprocess.run([sys.executable, "-m", "guandan_fast.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli_match_table_and_json(tmp_path):
    r = run("match", "--team-a", "greedy", "--team-b", "random:3", "--deals", "3",
            "--seed", "1", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert "A's gain / deal" in r.stdout and "95% CI" in r.stdout
    assert "3/3" in r.stderr                     # the progress bar
    j = run("match", "--team-a", "greedy", "--team-b", "random:3", "--deals", "3",
            "--seed", "1", "--jobs", "1", "--format", "json", "-q",
            "--records", tmp_path / "recs")
    assert j.returncode == 0, j.stderr
    data = json.loads(j.stdout)
    lib = match("greedy", "random:3", deals=3, seed=1, jobs=1)
    assert data["mean_gain"] == lib.mean and data["deals_played"] == 6
    assert len(list((tmp_path / "recs").iterdir())) == 6
    assert j.stderr == ""


@pytest.mark.parametrize("args,needle", [
    (["--team-a", "wizard", "--team-b", "greedy"], "unknown bot 'wizard'"),
    (["--team-a", "greedy", "--team-b", "search:0"], "must be > 0"),
    (["--team-a", "greedy"], "Missing option '--team-b'"),
    (["--team-a", "greedy", "--team-b", "greedy", "--deals", "0"], "--deals"),
    (["--team-a", "greedy", "--team-b", "greedy", "--jobs", "0"], "--jobs"),
    (["--team-a", "greedy", "--team-b", "greedy", "--seed", "x"], "--seed"),
    (["--team-a", "greedy", "--team-b", "greedy", "--dask", "nowhere"], "dask:"),
    (["--team-a", "greedy", "--team-b", "greedy", "--format", "xml"], "--format"),
    (["--team-a", "greedy", "--team-b", "greedy", "--bogus"], "No such option"),
])
def test_cli_match_rejections(args, needle, capsys):
    from guandan_fast.cli.main import main
    with pytest.raises(SystemExit) as e:
        main(["match", *args], prog_name="gd-analyze")
    assert e.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err
    assert lines[0].startswith("gd-analyze: error: ")


def test_a_bot_answering_something_that_is_no_play_is_a_match_error():
    from guandan_fast import GreedyBot, MatchError, match

    class Junk(GreedyBot):
        def choose(self, view):
            return "S3"
    with pytest.raises(MatchError, match="a Play or None"):
        match(Junk(), "random", deals=1, jobs=1)
