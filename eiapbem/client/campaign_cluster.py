"""Where a tournament's campaigns run: in this process, on a process pool here, or on a Dask cluster.

A campaign (``campaign_ladder.Job``) is a pure function of its line-up, seed and
length, so it gives the same result wherever it runs; only its CPU seconds
differ.  ``run`` plays a list of them:

- ``jobs=1``: one after the other in this process;
- otherwise a ``multiprocessing`` pool of ``jobs`` processes (spawn; default one
  per core);
- ``address``: the scheduler of a running Dask distributed cluster
  (``tcp://host:8786``), through ``distributed.Client`` (the optional extra
  ``eiapbem[cluster]``; docs/decisions.md "Campaign and benchmarks" says why
  Dask and not Ray).  Each worker of the cluster needs this eiapbem installed,
  at the same version.

The results come back in the order of the list given, whatever order they
finish in.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from eiapbem.core.errors import IllegalAction


def run(fn: Callable[[Any], Any], work: Sequence[Any], *, jobs: int | None = None, address: str | None = None,
        say: Callable[[Any], None] | None = None) -> list[Any]:
    """``[fn(w) for w in work]``, played where the arguments say; ``say`` hears each result as it comes."""
    if address:
        return _on_dask(fn, work, address, say)
    jobs = jobs or os.cpu_count() or 1
    done: dict[int, Any] = {}
    if jobs == 1 or len(work) <= 1:
        for i, w in enumerate(work):
            done[i] = fn(w)
            if say:
                say(done[i])
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(min(jobs, len(work))) as pool:
            for i, r in pool.imap_unordered(_indexed, [(fn, i, w) for i, w in enumerate(work)]):
                done[i] = r
                if say:
                    say(r)
    return [done[i] for i in range(len(work))]


def _indexed(args: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    fn, i, w = args
    return i, fn(w)


def _on_dask(fn: Callable[[Any], Any], work: Sequence[Any], address: str, say: Callable[[Any], None] | None) -> list[Any]:
    try:
        from distributed import Client, as_completed
    except ImportError as err:
        raise IllegalAction("--cluster needs Dask's distributed package, which is not installed",
                            hint="pip install 'eiapbem[cluster]' (here and on every worker of the cluster)") from err
    try:
        client = Client(address, timeout=30)
    except (OSError, TimeoutError) as err:
        raise IllegalAction(f"no Dask scheduler answers at {address}: {err}",
                            hint="start one with 'dask scheduler' and workers with 'dask worker ADDRESS'") from err
    try:
        futures = client.map(fn, list(work), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        done: dict[int, Any] = {}
        for fut in as_completed(futures):
            r = fut.result()
            done[index[fut.key]] = r
            if say:
                say(r)
        return [done[i] for i in range(len(work))]
    finally:
        client.close()


__all__ = ["run"]
