"""``gd-analyze game`` and ``gd-analyze evening``: the deal review.

- ``gd-analyze game record.txt``: every decision of the deal valued, with
  all hands seen (double-dummy) and from the mover's seat (single-dummy);
  ``--format json``, ``--lang en|ru|zh``, ``--html page.html``, ``--budget``
  (seconds per decision and view), ``--views``, ``--jobs`` / ``--dask``.
- ``gd-analyze game a.txt b.json dir/``: many records, one JSON line each.
- ``gd-analyze game record.txt --json-out review.json``: the review as one
  JSON document (``formats.analysis_json``), which ``gd-analyze render
  review.json [--html F] [--lang ru]`` renders again without reviewing.
- ``gd-analyze evening DIR --html evening.html``: a club evening on one page
  (the reviews cached, ``analysis.cache``; ``--json-out`` writes the
  evening's document, which ``render`` renders in any language).
- ``gd-analyze drills review.json [more.json ...] --html drills.html``: every
  mark of the reviews (or evenings) as a puzzle on one page
  (``report.drills``).
- ``--platform``: the inputs are message logs of the AI competition platform.

No rules here: the library reviews, this module parses and prints. A
progress bar goes to stderr.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import click

from guandan_fast.analysis.batch import review_records
from guandan_fast.analysis.review import (DEFAULT_BUDGET, DEFAULT_SOLVE_CARDS, VIEWS, analyse,
                                          check_budget, check_playouts)
from guandan_fast.analysis.cache import default_cache_dir
from guandan_fast.errors import AnalysisFormatError, GuandanError, RecordError
from guandan_fast.formats import analysis_json
from guandan_fast.platform.log import import_platform_log
from guandan_fast.formats.record import loads
from guandan_fast.formats.record_json import loads as loads_json
from guandan_fast.game.record import Record
from guandan_fast.report.drills import drills, render_drills_html
from guandan_fast.report.evening import (evening_order, evening_report, render_evening_html,
                                          render_evening_text)
from guandan_fast.report.html import render_html
from guandan_fast.report.i18n import count_of
from guandan_fast.report.text import render_text

from .options import (EXIT_BAD_INPUT, JOBS, IntIn, Checked, _int, ascii_float, available_cpus, command,
                      emit_json, error_lines, format_option, lang_option, read_source,
                      width_option, write_output)


def _load_records(path: str, platform: bool, lenient: bool = False) -> list[tuple[str, Record]]:
    """(name, record) pairs of one input."""
    text = read_source(path)
    if platform:
        recs = import_platform_log(text, lenient=lenient)
        if not recs:
            raise RecordError(f"{path}: no finished episode in the log")
        return [(f"{path}#{i + 1}", r) for i, r in enumerate(recs)]
    rec = loads_json(text) if path.endswith(".json") or text.lstrip().startswith("{") else loads(text)
    for w in rec.warnings:
        click.echo(f"gd-analyze: warning: {path}: {w}", err=True)
    return [(path, rec)]


def _expand(paths: Sequence[str]) -> list[str]:
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


class Progress:
    """A progress bar on stderr (a line per tenth when not a terminal)."""

    def __init__(self, what: str, quiet: bool = False, width: int = 30):
        self.what, self.width, self.quiet = what, width, quiet
        self.tty = sys.stderr.isatty()
        self.t0 = time.monotonic()
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        if self.quiet:
            return
        filled = int(self.width * done / max(total, 1))
        bar = "#" * filled + "-" * (self.width - filled)
        text = (f"gd-analyze: [{bar}] {done}/{total} {self.what} "
                f"{time.monotonic() - self.t0:.1f} s")
        if self.tty:
            sys.stderr.write("\r" + text)
            if done == total:
                sys.stderr.write("\n")
        else:
            tenth = (10 * done) // max(total, 1)
            if tenth == self.last and done != total:
                return
            self.last = tenth
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _players(text):
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise click.BadParameter(f"{text!r}: four names separated by commas, seats 0 to 3",
                                 param_hint="--players")
    return names


def _named(items: list[tuple[str, Record]], names: Optional[Sequence[str]]
           ) -> list[tuple[str, Record]]:
    """Give the seats these names where a record has none."""
    if names:
        for _, rec in items:
            if not rec.players:
                rec.players = list(names)
    return items


BUDGET = Checked("seconds", ascii_float, check_budget)
PLAYOUTS = Checked("playouts", _int, check_playouts)


def _budget(budget, playouts) -> dict:
    """The review's budget options: a time (--budget) or, deterministic, a
    playout count (--playouts; the budget then stays the default, which
    plans the shares); not both."""
    ctx = click.get_current_context()
    if playouts is not None and \
            ctx.get_parameter_source("budget") == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--budget and --playouts: give one (a time, or a playout "
                               "count for the same analysis on every run)")
    return {"budget": budget, "playouts": playouts}


def _views(text: str) -> tuple[str, ...]:
    views = tuple(v.strip() for v in text.split(","))
    bad = [v for v in views if v not in VIEWS]
    if bad:
        raise click.BadParameter(f"{text!r}: use double, single or double,single",
                                 param_hint="--views")
    return views


def _settings(views: str, players, budget, playouts, seed: int, solve_cards: int,
              platform: bool = False, lenient: bool = False):
    """The seats' names and the review's options, as the review commands
    read them (``--views``, ``--players``, ``--budget``/``--playouts``...)."""
    if lenient and not platform:
        raise click.UsageError("--lenient reads platform logs: give it with --platform")
    views_read = _views(views)
    names = _players(players)
    return names, {"views": views_read, **_budget(budget, playouts), "seed": seed,
                   "solve_cards": solve_cards}


def review_options(f):
    """The options the review commands share."""
    for opt in reversed([
        click.option("--budget", type=BUDGET,
                     default=DEFAULT_BUDGET, show_default=True,
                     help="Seconds per decision and per view: more is slower and more precise."),
        click.option("--playouts", type=PLAYOUTS, default=None, metavar="N",
                     help="Deterministic: N playouts per decision and view instead of the "
                          "clock (the same analysis on every run and machine)."),
        click.option("--views", "views", default="double,single", show_default=True,
                     help="double (all hands seen), single (the mover's seat), or both: "
                          "double,single."),
        click.option("--seed", type=IntIn(0, 2 ** 31 - 1), default=0, show_default=True,
                     help="Seed of the review (every decision gets its own from it); it "
                          "fixes the random draws; with --budget (time) the values depend "
                          "on the machine's speed and load too, with --playouts not."),
        click.option("--solve-cards", type=IntIn(0, 108), default=DEFAULT_SOLVE_CARDS,
                     show_default=True, help="Try the exact solver at most this many cards left."),
        click.option("--jobs", "-j", type=JOBS, default=None,
                     help="Worker processes (default: the CPUs available, at most 8)."),
        click.option("--dask", "dask", default=None, metavar="ADDRESS",
                     help="Run on a Dask scheduler, e.g. tcp://127.0.0.1:8786."),
        click.option("--platform", is_flag=True,
                     help="The inputs are AI competition platform message logs."),
        click.option("--lenient", is_flag=True,
                     help="With --platform: read logs of servers that deviate from the rules, "
                          "listing each deviation in the notes."),
        click.option("--players", "players", default=None, metavar="A,B,C,D",
                     help="Names of seats 0..3 for records without names (platform logs)."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr."),
    ]):
        f = opt(f)
    return f


def _html_path(ctx, param, value):
    """A file to write (--html, --json-out), checked before the review runs:
    a name, in a directory that exists and may be written, not itself a
    directory."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("an empty file name", ctx, param)
    path = Path(value)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise click.BadParameter(f"{value!r} is a directory", ctx, param)
    if not parent.is_dir():
        raise click.BadParameter(f"no directory {str(parent)!r} to write {path.name!r} in",
                                 ctx, param)
    if not os.access(parent, os.W_OK):
        raise click.BadParameter(f"the directory {str(parent)!r} cannot be written", ctx, param)
    return value


def _distinct_outputs(inputs, html_path, json_path) -> None:
    """--html and --json-out are two files, neither an input: a review must
    never overwrite the record it reads, nor one output the other."""
    def same(a, b):
        try:
            return Path(a).resolve() == Path(b).resolve()
        except OSError:
            return False
    if html_path and json_path and same(html_path, json_path):
        raise click.UsageError(f"--html and --json-out name the same file {html_path!r}")
    for opt, out in (("--html", html_path), ("--json-out", json_path)):
        if out and any(same(out, p) for p in inputs if p != "-"):
            raise click.UsageError(f"{opt} {out!r} is an input: it would be overwritten")


def _output_options(html_help: str, json_help: str):
    """``--format``, ``--lang``, ``--html`` and ``--json-out``, as the review
    commands have them."""
    def decorate(f):
        for opt in reversed([
            format_option, lang_option, width_option,
            click.option("--html", "html_path", callback=_html_path, help=html_help),
            click.option("--json-out", "json_path", callback=_html_path, help=json_help),
        ]):
            f = opt(f)
        return f
    return decorate


@command("game")
@click.argument("records", nargs=-1, required=True)
@_output_options("Also write a self-contained HTML page (one record).",
                 "Also write the review as a JSON document (one record), which "
                 "gd-analyze render renders again.")
@review_options
def game_cmd(records, fmt, lang, width, html_path, json_path, budget, playouts, views, seed,
             solve_cards, jobs, dask, platform, lenient, players, quiet):
    """Review deal records: every decision valued, two ways."""
    names, options = _settings(views, players, budget, playouts, seed, solve_cards, platform,
                               lenient)
    paths = _expand(records)
    _distinct_outputs(paths, html_path, json_path)
    jobs = jobs or available_cpus()
    if len(paths) == 1:
        items = _named(_load_records(paths[0], platform, lenient), names)
        if len(items) == 1:
            a = analyse(items[0][1], jobs=jobs, dask=dask,
                        progress=Progress("positions", quiet), **options)
            data = a.to_dict()
            if json_path:
                write_output(json_path, analysis_json.dumps(data))
            _emit_review(data, fmt, lang, width, html_path)
            return None
    if html_path or json_path:
        raise click.UsageError(f"{'--html' if html_path else '--json-out'} takes a single "
                               "record (use gd-analyze evening DIR)")
    ctx = click.get_current_context()
    if ctx.get_parameter_source("fmt") == click.core.ParameterSource.COMMANDLINE and fmt == "text":
        raise click.UsageError("--format text takes a single record; several records "
                               "are written as JSON lines (--format json)")
    items, unloaded = _load_all(paths, platform, lenient)
    failed = len(unloaded)
    _named(items, names)
    answers = review_records(items, jobs=jobs, dask=dask, progress=Progress("records", quiet),
                             **options)
    for ans in answers:
        if "error" in ans:
            failed += 1
            click.echo(f"gd-analyze: error: {ans['name']}: {ans['error']}", err=True)
        else:
            click.echo(json.dumps(ans["data"], ensure_ascii=False))
    return EXIT_BAD_INPUT if failed else 0


def _load_all(paths, platform: bool, lenient: bool = False):
    """The records of ``paths`` and the files that did not load, each
    ``(path, message)`` (its errors on stderr, one line each)."""
    items, failed = [], []
    for p in paths:
        try:
            items.extend(_load_records(p, platform, lenient))
        except (GuandanError, OSError) as e:
            texts = [str(e.strerror or e)] if isinstance(e, OSError) else error_lines(e, "", "")
            for text in texts:
                click.echo(f"gd-analyze: error: {p}: {text}", err=True)
            failed.append((p, "; ".join(texts)))
    return items, failed


@command("evening")
@click.argument("directory", nargs=-1, required=True)
@_output_options("Write the evening's page (every deal reviewed) to this file.",
                 "Also write the evening (every review) as one JSON document, which "
                 "gd-analyze render renders in any language.")
@click.option("--cache", "cache_dir", default=None, metavar="DIR",
              help="Keep the reviews in DIR and read them back for the same record and "
                   "settings (default: $XDG_CACHE_HOME/guandan_fast/reviews).")
@click.option("--no-cache", is_flag=True, help="Review every record again, keep nothing.")
@review_options
def evening_cmd(directory, fmt, lang, width, html_path, json_path, cache_dir, no_cache, budget,
                playouts, views, seed, solve_cards, jobs, dask, platform, lenient, players,
                quiet):
    """Review a club evening: every record of DIRECTORY (and any more paths)
    on one page, results by table and deal, a summary per player."""
    names, options = _settings(views, players, budget, playouts, seed, solve_cards, platform,
                               lenient)
    if cache_dir is not None and not cache_dir.strip():
        raise click.BadParameter("an empty directory name", param_hint="--cache")
    if no_cache and cache_dir is not None:
        raise click.UsageError("--cache and --no-cache: give one")
    cache = None if no_cache else _cache_dir(cache_dir)
    paths = _expand(directory)
    _distinct_outputs(paths, html_path, json_path)
    items, failed = _load_all(paths, platform, lenient)
    _named(items, names)
    answers = review_records(items, jobs=jobs or available_cpus(), dask=dask,
                             progress=Progress("records", quiet), cache=cache, **options)
    reviews = evening_order([a["data"] for a in answers if "data" in a])
    errors = [(a["name"], a["error"]) for a in answers if "error" in a]
    for name, msg in errors:
        click.echo(f"gd-analyze: error: {name}: {msg}", err=True)
    errors = failed + errors           # the records that did not load are listed too
    if json_path:
        write_output(json_path, analysis_json.dumps(
            analysis_json.evening_document(reviews, errors)))
    _emit_evening(reviews, errors, fmt, lang, width, html_path)
    return EXIT_BAD_INPUT if errors else 0


def _cache_dir(value):
    """--cache DIR checked: not a file; created when first written."""
    path = Path(value) if value is not None else default_cache_dir()
    if path.exists() and not path.is_dir():
        raise click.BadParameter(f"{str(path)!r} is not a directory", param_hint="--cache")
    return str(path)


def _emit_review(data: dict, fmt: str, lang: str, width: int, html_path) -> None:
    """One review printed (JSON: the very text --json-out writes, or
    text), and its page written with --html."""
    if fmt == "json":
        click.echo(analysis_json.dumps(data), nl=False)
    else:
        click.echo(render_text(data, lang, width), nl=False)
    if html_path:
        write_output(html_path, render_html(data, lang))


def _emit_evening(reviews, errors, fmt, lang, width, html_path) -> None:
    if fmt == "json":
        emit_json(evening_report(reviews, lang, errors))
    else:
        click.echo(render_evening_text(reviews, lang, errors, width), nl=False)
    if html_path:
        write_output(html_path, render_evening_html(reviews, lang, errors))


@command("render")
@click.argument("analysis")
@format_option
@lang_option
@width_option
@click.option("--html", "html_path", callback=_html_path,
              help="Write the page to this file.")
def render_cmd(analysis, fmt, lang, width, html_path):
    """Render a review (gd-analyze game --json-out) or an evening (gd-analyze
    evening --json-out) again, in any language, without reviewing."""
    _distinct_outputs([analysis], html_path, None)
    data = analysis_json.loads(read_source(analysis), evening=True)
    if data["schema"] == analysis_json.EVENING_SCHEMA:
        errors = [(e["file"], e["error"]) for e in data["errors"]]
        _emit_evening(data["records"], errors, fmt, lang, width, html_path)
        return None
    _emit_review(data, fmt, lang, width, html_path)
    return None


def _reviews_of(path: str) -> list:
    """The review documents of one file (``-``: standard input): a review,
    named by the file, or an evening's reviews; a bad document's error
    names the file and the field."""
    try:
        data = analysis_json.loads(read_source(path), evening=True)
    except AnalysisFormatError as e:
        raise AnalysisFormatError(f"{path}: {e}") from None
    if data["schema"] == analysis_json.EVENING_SCHEMA:
        return list(data["records"])
    return [{"file": path, **data}]


@command("drills")
@click.argument("analyses", nargs=-1, required=True)
@lang_option
@click.option("--html", "html_path", callback=_html_path, required=True,
              help="Write the drills page to this file.")
def drills_cmd(analyses, lang, html_path):
    """Drills from reviews (gd-analyze game --json-out) or evenings
    (gd-analyze evening --json-out): every marked mistake as a puzzle, the
    position as the mover saw it, largest loss first, on one page."""
    _distinct_outputs(list(analyses), html_path, None)
    reviews = [r for path in analyses for r in _reviews_of(path)]
    write_output(html_path, render_drills_html(reviews, lang))
    click.echo(f"{count_of(len(drills(reviews, lang)), 'drills', lang)}: {html_path}")
    return None
