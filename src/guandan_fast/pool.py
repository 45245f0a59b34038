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
from typing import Any, Callable, Optional, Sequence, TypeVar

import numpy as np

from .errors import MatchError

__all__ = ["run_tasks", "default_jobs", "DASK_SCHEMES"]

T = TypeVar("T")
R = TypeVar("R")

DASK_SCHEMES = ("tcp://",)


def default_jobs() -> int:
    """The CPUs this process may run on."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, n or 1)


def check_dask_address(address: str) -> str:
    """A scheduler address ``tcp://HOST:PORT`` (an IPv6 host in brackets),
    else MatchError. Only TCP: the other transports of ``distributed``
    (TLS, inproc, UCX) need settings these commands do not take."""
    import urllib.parse
    shown = repr(address)[:80]
    if not isinstance(address, str) or not address.startswith(DASK_SCHEMES):
        raise MatchError(f"dask: a scheduler address such as tcp://127.0.0.1:8786, not {shown}")
    try:
        split = urllib.parse.urlsplit(address)
        port = split.port
    except ValueError as e:
        raise MatchError(f"dask: {shown} is not an address tcp://HOST:PORT ({e})") from None
    if not split.hostname or port is None or not 1 <= port <= 65535 \
            or split.path not in ("", "/") or split.query or split.fragment \
            or any(c.isspace() for c in address):
        raise MatchError(f"dask: {shown} is not an address tcp://HOST:PORT (a host and a "
                         "port 1..65535)")
    return address


def _connect(address: str, timeout: float):
    from distributed import Client
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise MatchError(f"dask: cannot reach the scheduler at {address} ({e})"[:200]) from None
    except Exception as e:     # distributed's own errors: one line, not a traceback
        raise MatchError(f"dask: cannot use the scheduler at {address} "
                         f"({type(e).__name__}: {e})"[:200]) from None


def _workers(client, timeout: float) -> None:
    """Wait (at most ``timeout`` seconds) until the cluster has a worker: a
    scheduler without workers would never run a task."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as e:
        raise MatchError(f"dask: the scheduler has no worker (waited {timeout:g} s; {e})"[:200]
                         ) from None


def run_tasks(fn: Callable[[T], R], items: Sequence[T], jobs: Optional[int] = None,
              dask: Any = None,
              progress: Optional[Callable[[int, int], None]] = None,
              timeout: float = 10.0) -> list[R]:
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
        client = _connect(check_dask_address(dask), timeout) if own else dask
        try:
            _workers(client, timeout)
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
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise MatchError(f"jobs must be a number of processes >= 1, not {jobs!r}")
    jobs = int(jobs)
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
