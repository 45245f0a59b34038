"""``gd-analyze game``: post-game analysis of deal records.

- ``gd-analyze game record.txt``: the move-by-move report (``--format json``,
  ``--lang en|ru|zh``); ``--html report.html`` also writes the page for the
  club's screen.
- ``gd-analyze game a.txt b.json dir/ --jobs 4``: many records (directories
  are searched for ``*.txt``/``*.json`` records) analysed by N processes,
  one JSON line per record on stdout, a progress bar on stderr.
- ``--platform``: the inputs are message logs of the AI competition platform
  (each finished episode is one record).

No rules here: the library decides, this module prints.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path

import click

from guandan_fast.analysis.review import DEFAULT_MAX_SECONDS, DEFAULT_SOLVE_CARDS, analyse
from guandan_fast.errors import GuandanError, RecordError
from guandan_fast.formats.platform_log import import_platform_log
from guandan_fast.formats.record import loads, loads_json
from guandan_fast.report.render import render_html, render_text

from .main import (EXIT_BAD_INPUT, JOBS, NODES, SECONDS, THREADS, available_cpus, emit_json,
                   format_option, lang_option, main, read_source)


def _load_records(path: str, platform: bool, lenient: bool = False) -> list:
    """(name, record) pairs of one input."""
    text = read_source(path)
    if platform:
        recs = import_platform_log(text, lenient=lenient)
        if not recs:
            raise RecordError(f"{path}: no finished episode in the log")
        return [(f"{path}#{i + 1}", r) for i, r in enumerate(recs)]
    if path.endswith(".json") or text.lstrip().startswith("{"):
        return [(path, loads_json(text))]
    return [(path, loads(text))]


def _expand(paths) -> list:
    out = []
    for p in paths:
        if p != "-" and Path(p).is_dir():
            found = sorted(str(q) for q in Path(p).iterdir()
                           if q.suffix in (".txt", ".json") and q.is_file())
            if not found:
                raise RecordError(f"{p}: no .txt or .json records in this directory")
            out.extend(found)
        else:
            out.append(p)
    return out


def _work(item):
    """Analyse one record (in a worker process): a JSON line or an error."""
    name, record, options = item
    lang = options.pop("lang")
    try:
        data = analyse(record, lang=lang, **options).to_dict(lang)
    except GuandanError as e:
        return name, None, str(e)
    data = {"file": name, **data}
    return name, json.dumps(data, ensure_ascii=False), None


class _Progress:
    """A progress bar on stderr (a line per update when not a terminal)."""

    def __init__(self, total: int, width: int = 30):
        self.total, self.width, self.done = total, width, 0
        self.tty = sys.stderr.isatty()

    def step(self, name: str) -> None:
        self.done += 1
        filled = int(self.width * self.done / max(self.total, 1))
        bar = "#" * filled + "-" * (self.width - filled)
        text = f"[{bar}] {self.done}/{self.total} {name}"
        if self.tty:
            sys.stderr.write("\r" + text[:120].ljust(120))
            if self.done == self.total:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


@main.command("game")
@click.argument("records", nargs=-1, required=True)
@format_option
@lang_option
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Also write a self-contained HTML report (one record).")
@click.option("--jobs", "-j", type=JOBS, default=None,
              help="Analyse many records with N processes; JSON lines on stdout.")
@click.option("--solve-cards", type=click.IntRange(0, 108), default=DEFAULT_SOLVE_CARDS,
              show_default=True, help="Solve positions with at most this many cards left.")
@click.option("--max-seconds", type=SECONDS,
              default=DEFAULT_MAX_SECONDS, show_default=True, help="Solver time per position.")
@click.option("--max-nodes", type=NODES, default=None,
              help="Solver node budget per position.")
@click.option("--threads", "-t", type=THREADS, default=None,
              help="Threads of each solve (default: for a single record the CPUs "
                   "available, at most 8; for many records 1 per process).")
@click.option("--no-solver", is_flag=True, help="Skip the double-dummy values.")
@click.option("--platform", is_flag=True,
              help="The inputs are AI competition platform message logs.")
@click.option("--lenient", is_flag=True,
              help="With --platform: read logs of servers that deviate from the rules, "
                   "listing each deviation in the notes.")
def game_cmd(records, fmt, lang, html_path, jobs, solve_cards, max_seconds, max_nodes,
             threads, no_solver, platform, lenient):
    """Analyse deal records: where was the deal lost?"""
    paths = _expand(records)
    options = {"solve_cards": solve_cards, "max_seconds": max_seconds,
               "max_nodes": max_nodes, "use_solver": not no_solver, "lang": lang,
               "threads": threads or 1}
    if len(paths) == 1 and jobs is None:
        items = _load_records(paths[0], platform, lenient)
        if len(items) == 1:
            options["threads"] = threads or available_cpus()
            _single(items[0][1], fmt, lang, html_path, options)
            return None
    if html_path:
        raise click.UsageError("--html takes a single record")
    ctx = click.get_current_context()
    if ctx.get_parameter_source("fmt") == click.core.ParameterSource.COMMANDLINE and fmt == "text":
        raise click.UsageError("--format text takes a single record; several records "
                               "are written as JSON lines (--format json)")
    return _batch(paths, platform, jobs or 1, options, lenient)


def _single(record, fmt, lang, html_path, options) -> None:
    opts = dict(options)
    opts.pop("lang")
    data = analyse(record, lang=lang, **opts).to_dict(lang)
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(render_text(data, lang), nl=False)
    if html_path:
        Path(html_path).write_text(render_html(data, lang), encoding="utf-8")


def _batch(paths, platform: bool, jobs: int, options, lenient: bool = False) -> int:
    items, failed = [], 0
    for p in paths:
        try:
            items.extend(_load_records(p, platform, lenient))
        except (GuandanError, OSError) as e:
            failed += 1
            msg = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            click.echo(f"gd-analyze: error: {p}: {msg}", err=True)
    work = [(name, rec, dict(options)) for name, rec in items]
    progress = _Progress(len(work))
    if jobs > 1 and len(work) > 1:
        ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else None)
        with ctx.Pool(min(jobs, len(work))) as pool:
            results = pool.imap(_work, work)
            failed += _emit(results, progress)
    else:
        failed += _emit(map(_work, work), progress)
    return EXIT_BAD_INPUT if failed else 0


def _emit(results, progress) -> int:
    failed = 0
    for name, line, error in results:
        progress.step(name)
        if error is not None:
            failed += 1
            click.echo(f"gd-analyze: error: {name}: {error}", err=True)
        else:
            click.echo(line)
    return failed
