"""gd-analyze endgame: the double-dummy value of a position and of every move."""

from __future__ import annotations

import sys
import time

import click

from guandan_fast.report.endgame import render_endgame_text, render_estimate_text

from .options import (EXIT_INTERRUPTED, IntIn, NODES, SECONDS, THREADS, available_cpus, command,
                      emit_json, format_option, lang_option, read_source)


@command("endgame")
@click.argument("position_file")
@format_option
@lang_option
@click.option("--max-nodes", type=NODES, default=None,
              help="Stop after this many search nodes (the answer is then partial; the "
                   "estimate follows only with --max-seconds, its budget).")
@click.option("--max-seconds", type=SECONDS, default=None,
              help="Stop after this many seconds in all: the solver gets half of them "
                   "and, if it does not prove every move, the estimate values the others "
                   "with the rest (with --exact-only or --value-only the solver gets "
                   "them all).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
@click.option("--value-only", is_flag=True,
              help="Only the value and one best move (much faster on large endgames).")
@click.option("--threads", "-t", type=THREADS, default=None,
              help="Threads valuing the moves (default: the CPUs available, at most 8; "
                   "1 with --max-nodes or --value-only).")
@click.option("--estimate", "force_estimate", is_flag=True,
              help="Estimate instead of solving (Monte Carlo tree search with the solver "
                   "where it proves; budget --max-seconds, default 1).")
@click.option("--exact-only", is_flag=True,
              help="Never fall back to the estimate when the solver stops at a limit.")
@click.option("--seed", type=IntIn(0, 2 ** 64 - 1), default=0,
              help="Seed of the estimate.")
def endgame_cmd(position_file, fmt, lang, max_nodes, max_seconds, quiet, value_only, threads,
                force_estimate, exact_only, seed):
    """Double-dummy value of an endgame position and of every legal move.

    POSITION_FILE holds 'level: 7', the hands as '0: S3 S4' .. '3: ...' (empty
    when out), 'turn: 1', optionally 'table: S5 D5', 'owner: 0',
    'passes: 1' and 'finished: 2'; '-' reads standard input. Ctrl-C
    prints what is proven so far and exits with status 130.
    """
    from guandan_fast.engine.endgame import SolveInterrupted, solve
    from guandan_fast.formats.position import loads_position

    position = loads_position(read_source(position_file))
    t0 = time.monotonic()
    shown = [False]
    last = [0.0]

    def progress(done, total, nodes):
        # only for searches longer than a second, at most twice a second
        now = time.monotonic()
        if quiet or now - t0 < 1.0 or (now - last[0] < 0.5 and done < total):
            return
        shown[0] = True
        last[0] = now
        sys.stderr.write(f"\rgd-analyze endgame: {done}/{total} moves solved, "
                         f"{nodes} nodes, {time.monotonic() - t0:.1f} s")
        sys.stderr.flush()

    if threads is None:      # as the help says: one thread under a node limit or value only
        threads = 1 if max_nodes is not None or value_only else available_cpus()
    if force_estimate and exact_only:
        raise click.UsageError("--estimate and --exact-only exclude each other")
    if force_estimate:
        for name, given, why in (
                ("--value-only", value_only, "the estimate values every move"),
                ("--max-nodes", max_nodes, "the estimate's budget is --max-seconds")):
            if given:
                raise click.UsageError(f"{name} and --estimate exclude each other ({why})")
        _show_estimate(position, max_seconds, threads, seed, fmt, lang)
        return
    status = None
    # a node limit alone asks for the partial answer (no estimate after it:
    # the estimate's budget is --max-seconds)
    fallback = not exact_only and not value_only and \
        (max_nodes is None or max_seconds is not None)
    try:
        result = solve(position, max_nodes=max_nodes,
                       max_seconds=max_seconds / 2 if fallback and max_seconds else max_seconds,
                       all_moves=not value_only, progress=progress, threads=threads)
    except SolveInterrupted as e:
        result, status = e.result, EXIT_INTERRUPTED
    if shown[0]:
        sys.stderr.write("\n")
    if not result.exact and status is None and fallback:
        left = None if max_seconds is None else \
            max(max_seconds - (time.monotonic() - t0), max_seconds / 20)
        # what the solver proved stays proven: the estimate values the rest
        _show_estimate(position, left, threads, seed, fmt, lang, proven=result)
        return
    if fmt == "json":
        data = result.to_dict()
        data["level"] = position.rules.level
        emit_json(data)
    else:
        click.echo(render_endgame_text(_position_dict(position), result.to_dict(), lang))
    if status is not None:
        sys.stderr.write("gd-analyze: interrupted: the values above are what was proven "
                         "before Ctrl-C\n")
    return status


def _show_estimate(position, max_seconds, threads, seed, fmt, lang, proven=None):
    from guandan_fast.engine.estimate import estimate

    est = estimate(position, max_seconds=1.0 if max_seconds is None else max_seconds,
                   threads=min(threads, 2), seed=seed, proven=proven)
    if fmt == "json":
        data = est.to_dict()
        data["estimated"] = not est.value_proven
        data["level"] = position.rules.level
        emit_json(data)
    else:
        click.echo(render_estimate_text(_position_dict(position), est.to_dict(), lang))


def _position_dict(position) -> dict:
    """What the endgame report shows of a position, as data."""
    t = position.table
    return {"level": position.rules.level, "turn": position.turn,
            "hands": [" ".join(map(str, h)) for h in position.hands],
            "table": None if t is None else {"cards": str(t), "type": t.type, "rank": t.rank},
            "owner": position.owner, "passes": position.passes,
            "finished": list(position.finished)}
