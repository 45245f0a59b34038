"""Batch analysis: many positions or many records, over processes or a
Dask cluster.

``run_tasks(fn, tasks, jobs=1, dask=None, progress=None, cost=None)``
applies a module-level function to plain-data tasks and returns the answers
in the order of the tasks: in this process (``jobs=1``), in ``jobs`` worker
processes, or on the workers of a Dask scheduler (``dask``: its address,
e.g. ``tcp://127.0.0.1:8786``), through the one pool of the project
(``guandan_fast.pool``); the costliest tasks first when ``cost`` is given.
``progress(done, total)`` is called in this process as answers come back.

``review_records(items, ...)`` reviews many records (a club evening) with
``analysis.review.analyse``, one record per task: the JSON form of each, or
the error that stopped it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from ..errors import GuandanError
from ..pool import run_tasks as pool_run
from .review import analyse

__all__ = ["run_tasks", "review_records", "review_one"]


def run_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], *, jobs: int = 1,
              dask: Optional[str] = None,
              progress: Optional[Callable[[int, int], None]] = None,
              cost: Optional[Callable[[Any], float]] = None) -> list[Any]:
    """``[fn(t) for t in tasks]``, spread out by the bots' pool
    (``guandan_fast.pool.run_tasks``: processes or Dask), the costliest tasks handed
    out first when ``cost`` is given; the answers in the order of ``tasks``."""
    order = list(range(len(tasks)))
    if cost is not None:
        order.sort(key=lambda i: -cost(tasks[i]))
    answers = pool_run(fn, [tasks[i] for i in order], jobs=jobs, dask=dask, progress=progress)
    out: list = [None] * len(tasks)
    for i, answer in zip(order, answers):
        out[i] = answer
    return out


def review_one(item: tuple[str, Any, dict[str, Any]]) -> dict[str, Any]:
    """Review one record (a worker's task): ``{"name", "data"}`` with the
    analysis as JSON data, or ``{"name", "error"}``."""
    name, record, options = item
    try:
        data = analyse(record, **options).to_dict()
    except GuandanError as e:
        return {"name": name, "error": str(e)}
    return {"name": name, "data": {"file": name, **data}}


def review_records(items: Sequence, *, jobs: int = 1, dask: Optional[str] = None,
                   progress: Optional[Callable[[int, int], None]] = None,
                   cache: Optional[str] = None, **options: Any) -> list[dict[str, Any]]:
    """Review many ``(name, record)`` pairs, one task per record (each
    record's own decisions in one process): a list of ``review_one``
    answers in the order given. ``options`` go to ``analyse``. ``cache``: a
    directory of reviews kept on disk (``analysis.cache``): a record already
    reviewed there with the same settings is read, not reviewed again, and
    every new review is kept."""
    from .cache import ReviewCache, cache_key
    store = ReviewCache(cache) if cache is not None else None
    out: list = [None] * len(items)
    todo = []
    for i, (name, rec) in enumerate(items):
        key = cache_key(rec, options) if store is not None else None
        data = store.get(key) if store is not None and key is not None else None
        if data is not None:
            out[i] = {"name": name, "data": {"file": name, **data}, "cached": True}
        else:
            todo.append((i, key, (name, rec, dict(options))))
    answers = run_tasks(review_one, [t for _, _, t in todo], jobs=jobs, dask=dask,
                        progress=progress, cost=lambda t: len(t[1].moves))
    for (i, key, _), ans in zip(todo, answers):
        if store is not None and key is not None and "data" in ans:
            store.put(key, ans["data"])
        out[i] = ans
    return out
