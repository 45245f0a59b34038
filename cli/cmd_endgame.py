"""gd-analyze endgame: the double-dummy value of a position and of every move."""

from __future__ import annotations

import sys
import time

import click

from .main import (EXIT_INTERRUPTED, NODES, SECONDS, THREADS, available_cpus, emit_json,
                   format_option, main, read_source)


def _play_text(play) -> str:
    return "pass" if play is None else f"{play} ({play.type} {play.rank})"


def _value_text(v) -> str:
    return "?" if v is None else f"{v:+d}"


def endgame_text_header(position) -> list:
    lines = []
    lines.append(f"Level: {position.rules.level}    to act: seat {position.turn}"
                 f" (team {position.turn % 2})")
    for s, hand in enumerate(position.hands):
        mark = " *" if s == position.turn else ""
        lines.append(f"  {s}: {' '.join(map(str, hand)) or '(out)'}{mark}")
    if position.table is not None:
        lines.append(f"Table: {position.table} ({position.table.type} "
                     f"{position.table.rank}) by seat {position.owner}, "
                     f"{position.passes} pass(es)")
    else:
        lines.append("Table: free lead")
    if position.finished:
        lines.append("Finished: " + " ".join(map(str, position.finished)))
    return lines


def endgame_text(position, result) -> str:
    lines = endgame_text_header(position)
    if result.value is not None:
        lines.append(f"Value (team 0): {result.value:+d}")
    else:
        lines.append(f"Value (team 0): not proven, between {result.lower:+d} "
                     f"and {result.upper:+d}")
    lines.append("Moves:")
    best = {id(p) for p in result.best if p is not None}
    pass_best = any(p is None for p in result.best)
    for (play, v), (lo, hi) in zip(result.moves, result.bounds):
        is_best = (pass_best if play is None else id(play) in best)
        vt = _value_text(v) if v is not None else f"{lo:+d}..{hi:+d}"
        lines.append(f"  {vt:>6}{' *' if is_best else '  '} {_play_text(play)}")
    if result.pv:
        lines.append("Best line:")
        for seat, play in result.pv:
            lines.append(f"  {seat}: {_play_text(play)}")
    lines.append(f"Nodes: {result.nodes}    time: {result.seconds:.3f} s"
                 + ("" if result.exact else "    (interrupted: not exact)"
                    if result.stopped == "interrupted" else "    (stopped by a limit: not exact)"))
    return "\n".join(lines)


def estimate_text(position, est) -> str:
    """The text of an estimate (marked as estimated unless proven)."""
    lines = endgame_text_header(position)
    if est.exact:
        lines.append(f"Value (team 0): {est.value:+.0f}    (proven by the estimator's solver)")
    else:
        lines.append(f"Value (team 0): {est.value:+.2f}    ESTIMATED (not proven; "
                     f"{est.confidence:.0%} intervals; proven range {est.lower:+d}..{est.upper:+d})")
    lines.append("Moves (mean [low, high], samples):")
    for m in est.moves:
        if m.exact:
            vt = f"{m.mean:+.0f} exact"
            lines.append(f"  {vt:>22}          {_play_text(m.play)}")
        else:
            vt = f"{m.mean:+.2f} [{m.low:+.2f}, {m.high:+.2f}]"
            lines.append(f"  {vt:>22} {m.samples:>8} {_play_text(m.play)}")
    lines.append(f"Playouts: {est.playouts}    iterations: {est.iterations}    "
                 f"solver nodes: {est.nodes}    time: {est.seconds:.3f} s"
                 + ("" if est.exact else "    (estimated)"))
    return "\n".join(lines)


@main.command("endgame")
@click.argument("deal_file")
@format_option
@click.option("--max-nodes", type=NODES, default=None,
              help="Stop after this many search nodes (the answer is then partial).")
@click.option("--max-seconds", type=SECONDS, default=None,
              help="Stop after this many seconds (the answer is then partial).")
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
@click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1), default=0,
              help="Seed of the estimate.")
def endgame_cmd(deal_file, fmt, max_nodes, max_seconds, quiet, value_only, threads,
                force_estimate, exact_only, seed):
    """Double-dummy value of an endgame position and of every legal move.

    DEAL_FILE holds 'level: 7', the hands as '0: S3 S4' .. '3: ...' (empty
    when out), 'turn: 1', optionally 'table: S5 D5', 'owner: 0',
    'passes: 1' and 'finished: 2'; '-' reads standard input. Ctrl-C
    prints what is proven so far and exits with status 130.
    """
    from guandan_fast.engine.endgame import SolveInterrupted, solve
    from guandan_fast.formats.position import loads_position

    position = loads_position(read_source(deal_file))
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

    if threads is None:
        threads = available_cpus()
    if force_estimate and exact_only:
        raise click.UsageError("--estimate and --exact-only exclude each other")
    if force_estimate:
        _show_estimate(position, max_seconds, threads, seed, fmt)
        return
    status = None
    try:
        result = solve(position, max_nodes=max_nodes, max_seconds=max_seconds,
                       all_moves=not value_only, progress=progress, threads=threads)
    except SolveInterrupted as e:
        result, status = e.result, EXIT_INTERRUPTED
    if shown[0]:
        sys.stderr.write("\n")
    if not result.exact and status is None and not exact_only and not value_only:
        _show_estimate(position, max_seconds, threads, seed, fmt)
        return
    if fmt == "json":
        data = result.to_dict()
        data["level"] = position.rules.level
        emit_json(data)
    else:
        click.echo(endgame_text(position, result))
    if status is not None:
        sys.stderr.write("gd-analyze: interrupted: the values above are what was proven "
                         "before Ctrl-C\n")
    return status


def _show_estimate(position, max_seconds, threads, seed, fmt):
    from guandan_fast.engine.estimate import estimate

    est = estimate(position, max_seconds=1.0 if max_seconds is None else max_seconds,
                   threads=min(threads, 2), seed=seed)
    if fmt == "json":
        data = est.to_dict()
        data["estimated"] = not est.exact
        data["level"] = position.rules.level
        emit_json(data)
    else:
        click.echo(estimate_text(position, est))
