"""Batch analysis: many positions or many records, over processes or a
Dask cluster.

``run_tasks(fn, tasks, jobs=1, dask=None, progress=None)`` applies a
module-level function to plain-data tasks and returns the answers in the
order of the tasks: in this process (``jobs=1``), in ``jobs`` worker
processes (each task handed out as a worker is free, the longest tasks first
when ``cost`` is given), or on the workers of a Dask scheduler (``dask``:
its address, e.g. ``tcp://127.0.0.1:8786``). ``progress(done, total)`` is
called in this process as answers come back.

``review_records(items, ...)`` reviews many records (a club evening) with
``analysis.review.analyse``, one record per task: the JSON form of each, or
the error that stopped it.
"""

from __future__ import annotations

import multiprocessing
import sys
from typing import Any, Callable, Optional, Sequence

from ..errors import GuandanError

__all__ = ["run_tasks", "review_records", "review_one"]


def _pool_context():
    return multiprocessing.get_context("spawn" if sys.platform == "darwin" else None)


def _indexed(arg):
    fn, i, task = arg
    return i, fn(task)


def run_tasks(fn: Callable, tasks: Sequence, *, jobs: int = 1, dask: Optional[str] = None,
              progress: Optional[Callable[[int, int], None]] = None,
              cost: Optional[Callable[[Any], float]] = None) -> list:
    """``[fn(t) for t in tasks]``, spread out (see the module docstring)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, not {jobs!r}")
    total = len(tasks)
    out: list = [None] * total
    order = list(range(total))
    if cost is not None:
        order.sort(key=lambda i: -cost(tasks[i]))
    done = 0
    if dask:
        from distributed import Client, as_completed
        with Client(dask, timeout="20s") as client:
            futures = {client.submit(fn, tasks[i], pure=False): i for i in order}
            for fut in as_completed(list(futures)):
                out[futures[fut]] = fut.result()
                done += 1
                if progress:
                    progress(done, total)
        return out
    if jobs == 1 or total <= 1:
        for i in order:
            out[i] = fn(tasks[i])
            done += 1
            if progress:
                progress(done, total)
        return out
    with _pool_context().Pool(min(jobs, total)) as pool:
        for i, answer in pool.imap_unordered(_indexed, [(fn, i, tasks[i]) for i in order]):
            out[i] = answer
            done += 1
            if progress:
                progress(done, total)
    return out


def review_one(item) -> dict:
    """Review one record (a worker's task): ``{"name", "data"}`` with the
    analysis as JSON data, or ``{"name", "error"}``."""
    name, record, options = item
    from .review import analyse
    try:
        data = analyse(record, **options).to_dict()
    except GuandanError as e:
        return {"name": name, "error": str(e)}
    return {"name": name, "data": {"file": name, **data}}


def review_records(items: Sequence, *, jobs: int = 1, dask: Optional[str] = None,
                   progress: Optional[Callable[[int, int], None]] = None, **options) -> list:
    """Review many ``(name, record)`` pairs, one task per record (each
    record's own decisions in one process): a list of ``review_one``
    answers in the order given. ``options`` go to ``analyse``."""
    tasks = [(name, rec, dict(options)) for name, rec in items]
    return run_tasks(review_one, tasks, jobs=jobs, dask=dask, progress=progress,
                     cost=lambda t: len(t[1].moves))
