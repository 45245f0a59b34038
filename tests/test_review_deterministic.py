"""The review's deterministic mode (analyse(playouts=N), --playouts N):
every engine call under a playout or node budget, no clock, so the same
record reviewed twice gives the same JSON document byte for byte, with one
process or two."""

from pathlib import Path

import pytest
from clirun import run
from fake_engines import FakeEstimate, FakeMove

from guandan_fast.analysis.review import analyse
from guandan_fast.errors import ReviewError
from guandan_fast.formats import analysis_json
from guandan_fast.formats.record import load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _twice(name: str, playouts: int, **kw) -> None:
    rec = load(EXAMPLES / name)
    first = analysis_json.dumps(analyse(rec, playouts=playouts, seed=3, jobs=1, **kw).to_dict())
    again = analysis_json.dumps(analyse(rec, playouts=playouts, seed=3, jobs=1, **kw).to_dict())
    assert again == first
    two = analysis_json.dumps(analyse(rec, playouts=playouts, seed=3, jobs=2, **kw).to_dict())
    assert two == first
    data = analysis_json.loads(first)
    assert data["settings"]["playouts"] == playouts and data["settings"]["seconds"] is None
    # no clock in the document, a forced move's value included
    assert all((d[v] or {}).get("seconds") is None for d in data["decisions"]
               for v in ("double", "single"))
    # estimates, not only proofs (the single-dummy view's sampled deals)
    assert any(d[v] and not d[v]["exact"] for d in data["decisions"] for v in ("double", "single"))
    # another seed draws other deals: the single-dummy values differ somewhere
    other = analysis_json.dumps(analyse(rec, playouts=playouts, seed=4, jobs=1, **kw).to_dict())
    assert other != first


@pytest.mark.slow
def test_two_reviews_are_byte_identical_and_jobs_do_not_matter():
    _twice("record_endgame_pair.txt", 200, solve_cards=0)


@pytest.mark.slow
def test_a_whole_deal_with_its_exchange_is_byte_identical():
    _twice("record_tribute.txt", 60)


def test_the_cli_gives_the_same_document_twice(tmp_path):
    rec = EXAMPLES / "record_endgame_short.txt"
    outs = []
    for k in range(2):
        out = tmp_path / f"r{k}.json"
        r = run("game", rec, "--playouts", "200", "-j", "1", "-q", "--json-out", out)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_every_engine_call_gets_playouts_in_proportion_to_its_share():
    """An injected estimator sees max_playouts: the whole N for a play
    decision, N * FORCED_FRACTION... i.e. round(N * seconds / budget)."""
    seen = []

    def estimator(state, max_seconds=None, seed=0, max_playouts=None):
        seen.append((max_seconds, max_playouts))
        moves = [FakeMove(p, 0.0, -0.5, 0.5, 50) for p in state.legal_actions()]
        return FakeEstimate(0.0, moves)

    rec = load(EXAMPLES / "record_endgame_short.txt")
    analyse(rec, views=("double",), playouts=500, budget=2.0, estimator=estimator,
            solve_cards=0, opening=False)
    assert seen
    for secs, n in seen:
        assert n == max(1, round(500 * secs / 2.0)), (secs, n)
    assert any(n == 500 for _, n in seen)


@pytest.mark.parametrize("bad", [0, -1, 10 ** 9, 1.5, "10", True])
def test_a_bad_playout_count_is_refused(bad):
    rec = load(EXAMPLES / "record_endgame_short.txt")
    with pytest.raises(ReviewError, match="playouts"):
        analyse(rec, playouts=bad, estimator=None, suggester=None)


@pytest.mark.parametrize("args, needle", [
    (["--playouts", "0"], "--playouts"), (["--playouts", "x"], "--playouts"),
    (["--playouts", "1e3"], "--playouts"), (["--playouts", "100", "--budget", "2"], "give one"),
    (["--playouts", "5", "--playouts", "6"], "given twice"),
])
def test_bad_playout_options_exit_2(args, needle):
    for cmd in ("game", "evening"):
        r = run(cmd, EXAMPLES / "record_endgame_short.txt", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and needle in r.stderr, \
            (cmd, r.stderr)


@pytest.mark.parametrize("n, en, ru", [(1, "1 playout ", "1 розыгрыш "),
                                       (3, "3 playouts ", "3 розыгрыша "),
                                       (50, "50 playouts ", "50 розыгрышей ")])
def test_a_playout_review_says_it_is_deterministic_not_a_time_budget(n, en, ru):
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    data = analyse(load(EXAMPLES / "record_endgame_short.txt"), views=("single",),
                   playouts=n, min_plays=False, opening=False).to_dict()
    for lang, words in (("en", ("deterministic review: " + en + "per decision", "budget")),
                        ("ru", ("детерминированный обзор: " + ru + "на решение", "бюджет")),
                        ("zh", (f"确定性复盘：每个决策每种视角 {n}次模拟", "秒"))):
        said, not_said = words
        for page in (render_text(data, lang), render_html(data, lang)):
            assert said in page and not_said not in page
    # a time budget still says so
    timed = dict(data, settings={**data["settings"], "playouts": None})
    assert "budget 0.40 s per decision and view, seed 0" in render_text(timed, "en")


def test_format_json_prints_the_document_json_out_writes(tmp_path):
    rec = EXAMPLES / "record_endgame_short.txt"
    out = tmp_path / "r.json"
    r = run("game", rec, "--playouts", "20", "-j", "1", "-q", "--format", "json",
            "--json-out", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.encode("utf-8") == out.read_bytes()
    again = run("render", out, "--format", "json")
    assert again.returncode == 0 and again.stdout.encode("utf-8") == out.read_bytes()
