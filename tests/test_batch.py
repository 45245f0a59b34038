"""analysis.batch: the review's work spread over processes and a real Dask
LocalCluster (on 127.0.0.1) gives the same answers as in one process."""

from pathlib import Path

import pytest

from guandan_fast.analysis.batch import review_records, run_tasks
from guandan_fast.analysis.review import analyse
from guandan_fast.formats.record import load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _square(x):
    return x * x


def _values(a):
    return [(d.double.value, d.double.chosen.mean, d.double.mistake) for d in a.decisions]


def test_run_tasks_keeps_the_order_of_the_tasks_and_reports_progress():
    seen = []
    out = run_tasks(_square, list(range(12)), jobs=2, progress=lambda d, t: seen.append((d, t)),
                    cost=lambda x: x % 5)
    assert out == [x * x for x in range(12)]
    assert seen[-1] == (12, 12) and [d for d, _ in seen] == list(range(1, 13))
    with pytest.raises(ValueError, match="jobs"):
        run_tasks(_square, [1], jobs=0)


def test_the_review_in_two_processes_equals_the_one_in_this_process():
    rec = load(EXAMPLES / "record_endgame_short.txt")
    kw = dict(views=("double",), estimator=None, opening=False)
    assert _values(analyse(rec, jobs=2, **kw)) == _values(analyse(rec, jobs=1, **kw))


def test_review_records_reports_each_record():
    items = [("a", load(EXAMPLES / "record_endgame_short.txt")),
             ("b", load(EXAMPLES / "record_bomb_thrown.txt"))]
    out = review_records(items, jobs=2, views=("double",), estimator=None, opening=False)
    assert [x["name"] for x in out] == ["a", "b"]
    assert [x["data"]["result"] for x in out] == [-1, -3]


@pytest.mark.slow
def test_on_a_dask_local_cluster():
    import distributed
    rec = load(EXAMPLES / "record_endgame_short.txt")
    kw = dict(views=("double",), estimator=None, opening=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        got = analyse(rec, dask=cluster.scheduler_address, **kw)
        items = [("a", rec)]
        recs = review_records(items, dask=cluster.scheduler_address, **kw)
    assert _values(got) == _values(analyse(rec, **kw))
    assert recs[0]["data"]["first_mistake"] == 0
