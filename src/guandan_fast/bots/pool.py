"""Run independent tasks on a local process pool or a Dask cluster.

``run_tasks(fn, items, jobs=..., dask=...)`` returns ``[fn(x) for x in
items]`` in the order of ``items``, whichever worker ran which; ``fn`` and
the items must pickle (a module-level function, plain data). ``jobs=1``
runs in this process; ``dask`` is a scheduler address (``tcp://host:port``)
or a ``distributed.Client``.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional, Sequence

from ..errors import MatchError

__all__ = ["run_tasks", "default_jobs", "DASK_SCHEMES"]

DASK_SCHEMES = ("tcp://", "tls://", "inproc://", "ws://", "wss://", "ucx://")


def default_jobs() -> int:
    """The CPUs this process may run on."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, n or 1)


def check_dask_address(address: str) -> str:
    if not isinstance(address, str) or not address.startswith(DASK_SCHEMES) \
            or len(address.split("://", 1)[1]) == 0:
        raise MatchError(f"dask: a scheduler address such as tcp://127.0.0.1:8786, not {address!r}")
    return address


def run_tasks(fn: Callable, items: Sequence, jobs: Optional[int] = None, dask=None,
              progress: Optional[Callable[[int, int], None]] = None,
              timeout: float = 10.0) -> list:
    """``[fn(x) for x in items]``, on ``jobs`` local processes (None: one
    per CPU; 1: in this process) or on the Dask cluster ``dask``.
    ``progress(done, total)`` is called after each task."""
    items = list(items)
    total = len(items)
    results: list = [None] * total
    done = 0

    def tick():
        if progress is not None:
            progress(done, total)

    if dask is not None:
        try:
            from distributed import Client, as_completed as dask_completed
        except ImportError:   # pragma: no cover - distributed is a dependency
            raise MatchError("dask: the 'distributed' package is not installed") from None
        own = not isinstance(dask, Client)
        if own:
            address = check_dask_address(dask)
            try:
                client = Client(address, timeout=timeout, set_as_default=False)
            except OSError as e:
                raise MatchError(f"dask: cannot reach the scheduler at {address} ({e})") from None
        else:
            client = dask
        try:
            with client.as_current():
                futures = client.map(fn, items, pure=False)
                index = {f.key: i for i, f in enumerate(futures)}
                for fut in dask_completed(futures):
                    results[index[fut.key]] = fut.result()
                    done += 1
                    tick()
        finally:
            if own:
                client.close()
        return results
    if jobs is None:
        jobs = default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise MatchError(f"jobs must be a number of processes >= 1, not {jobs!r}")
    if jobs == 1 or total <= 1:
        for i, x in enumerate(items):
            results[i] = fn(x)
            done += 1
            tick()
        return results
    with ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:
        futs = {pool.submit(fn, x): i for i, x in enumerate(items)}
        for fut in as_completed(futs):
            results[futs[fut]] = fut.result()
            done += 1
            tick()
    return results
