"""What every ``gd-analyze`` command shares: the command and group classes
(an option given twice is an error; bad input prints one line on stderr and
exits with status 2), the checked option types, ``--format``/``--lang``,
reading a file argument, printing JSON.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import click

from guandan_fast.errors import GuandanError, NotationWarning, RecordError, shown
from guandan_fast.report.i18n import LANGS
from guandan_fast.report.layout import MIN_WIDTH, TEXT_WIDTH, check_width

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130     # 128 + SIGINT, what a shell reports for Ctrl-C


class OnceCommand(click.Command):
    """A command whose options are each given at most once (except those
    meant to repeat): a second one is an error naming it, never "the last
    one wins" (docs/hardening.md)."""

    def parse_args(self, ctx, args):
        given: dict = {}
        once = [p for p in self.params
                if isinstance(p, click.Option) and not p.multiple and not p.count]
        short = {o: p for p in once for o in p.opts + p.secondary_opts if len(o) == 2}
        for a in args:
            if a == "--":
                break
            for p, o in self._named(a, once, short):
                if p.name in given:
                    raise click.UsageError(f"option {given[p.name]} is given twice"
                                           + (f" (and as {o})" if o != given[p.name]
                                              else ""), ctx)
                given[p.name] = o
        return super().parse_args(ctx, args)

    @staticmethod
    def _named(a: str, once: list, short: dict) -> list:
        """The (option, spelling) pairs that argument ``a`` gives: one for
        ``--name``, ``--name=x``, ``-t`` or ``-t1``, each option of a
        cluster of short ones (``-qt1``: -q and -t)."""
        if a.startswith("--"):
            return [(p, o) for p in once for o in p.opts + p.secondary_opts
                    if o.startswith("--") and (a == o or a.startswith(o + "="))]
        out = []
        if a.startswith("-") and len(a) >= 2:
            for c in a[1:]:
                p = short.get("-" + c)
                if p is None:
                    break
                out.append((p, "-" + c))
                if not p.is_flag:          # the rest of the cluster is its value
                    break
        return out


class DefaultGroup(click.Group):
    """A group whose first argument may be a hand file: then it runs ``hand``."""

    default_command = "hand"
    command_class = OnceCommand

    def parse_args(self, ctx, args):
        if not args:
            raise click.UsageError("no command or hand file given (gd-analyze --help "
                                   "lists the commands)", ctx)
        if args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = [self.default_command] + list(args)
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("always", NotationWarning)
            warnings.showwarning = _show_warning
            return self._main(*args, **kwargs)

    def _main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("gd-analyze: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.ClickException as e:
            click.echo(f"gd-analyze: error: {e.format_message()}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except GuandanError as e:
            for line in error_lines(e):
                click.echo(line, err=True)
            sys.exit(EXIT_BAD_INPUT)
        except UnicodeDecodeError as e:
            click.echo(f"gd-analyze: error: the input is not UTF-8 text ({e.reason} at byte {e.start})", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as e:
            name = "" if e.filename is None else f": {e.filename or repr('')}"   # '' named too
            click.echo(f"gd-analyze: error: {e.strerror or e}{name}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        if isinstance(rv, int):
            sys.exit(rv)
        return rv


def command(name: str) -> Callable[[Callable[..., Any]], click.Command]:
    """``@command("x")``: a gd-analyze subcommand (an OnceCommand), attached
    to the group in cli/main.py."""
    return click.command(name, cls=OnceCommand)


def error_lines(e: Exception, prefix: str = "", lead: str = "gd-analyze: error: ") -> list[str]:
    """The lines an input error prints on stderr: one, or one per error of a
    deal record that has several (``RecordError.errors``); ``lead`` starts
    each ("" for the texts alone)."""
    if isinstance(e, RecordError) and len(e.errors) > 1:
        texts = [str(x) for x in e.errors]
        if e.more:
            texts.append("more errors not listed")
    else:
        texts = [str(e)]
    return [f"{lead}{prefix}{t}" for t in texts]


def _show_warning(message: Any, category: Any, filename: str, lineno: int,
                  file: Any = None, line: Any = None) -> None:
    """A NotationWarning as one line on stderr (others as Python shows them)."""
    if issubclass(category, NotationWarning):
        click.echo(f"gd-analyze: warning: {message}", err=True)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def read_source(path: str) -> str:
    """The text of a file argument (UTF-8, a byte-order mark allowed; see
    formats.text.decode); ``-`` reads standard input."""
    from guandan_fast.formats.text import read_text

    if path == "-":
        return read_text(sys.stdin.buffer)
    return read_text(path)


class Checked(click.ParamType):
    """An option value checked by the library's own rule (one place): the
    error names the option, on one line."""

    def __init__(self, name, convert, check):
        self.name = name
        self._convert = convert
        self._check = check

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            x = self._convert(value.strip())
        except ValueError:
            what = "an integer" if self._convert is _int else "a number"
            self.fail(f"{shown(value)!r} is not {what}", param, ctx)
        try:
            return self._check(x)
        except GuandanError as e:
            self.fail(str(e), param, ctx)


def _int(text: str) -> int:
    if not text.lstrip("-").isascii() or not text.lstrip("-").isdigit() or len(text) > 40:
        raise ValueError(text)
    return int(text)


class IntIn(click.ParamType):
    """An integer option in lo..hi, written in ASCII digits (a leading minus
    only when lo < 0; no ``_``, no other scripts' digits: ``1_0``, ``５``,
    ``١٢`` refused, unlike click's INTEGER); the error names the option."""

    name = "integer"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def get_metavar(self, param, ctx=None):   # click < 8.2 passes no ctx
        return f"{self.lo}..{self.hi}" if self.hi <= 10 ** 7 else "INTEGER"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            x = value
        else:
            text = str(value).strip()
            digits = text[1:] if text.startswith("-") and self.lo < 0 else text
            if not digits.isascii() or not digits.isdigit() or len(digits) > 40:
                self.fail(f"{shown(value)!r} is not an integer {self.lo}..{self.hi} "
                          "(ASCII digits)", param, ctx)
            x = int(text)
        if not self.lo <= x <= self.hi:
            self.fail(f"{x} is not in {self.lo}..{self.hi}", param, ctx)
        return x


def _nodes(x):
    from guandan_fast.engine.endgame import check_limits
    return check_limits(x, None)[0]


def _seconds(x):
    from guandan_fast.engine.endgame import check_limits
    return check_limits(None, x)[1]


def _counter(what, most):
    def check(x):
        from guandan_fast.engine.endgame import check_count
        return check_count(x, what, most)
    return check


def ascii_float(text: str) -> float:
    """A number written in ASCII (digits, a point, an exponent; no "_")."""
    if not text.isascii() or "_" in text or len(text) > 40:
        raise ValueError(text)
    return float(text)


NODES = Checked("nodes", _int, _nodes)
SECONDS = Checked("seconds", ascii_float, _seconds)
THREADS = Checked("threads", _int, _counter("threads", 256))
JOBS = Checked("jobs", _int, _counter("jobs", 256))


format_option = click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
    show_default=True, help="Output format.")
lang_option = click.option(
    "--lang", type=click.Choice(list(LANGS)), default="en",
    show_default=True, help="Language of names and labels.")
width_option = click.option(
    "--width", type=Checked("columns", _int, check_width), default=TEXT_WIDTH,
    show_default=True, metavar="COLUMNS",
    help=f"Width of the text in columns, longer lines wrapped (0: not wrapped, a line a "
         f"decision; else at least {MIN_WIDTH}).")


def write_output(path, text: str) -> None:
    """Write an output file (``--html``, ``--json-out``) as UTF-8; an error
    of the system names the file (a full disk gives no name of its own)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        if e.filename is None:
            e.filename = str(path)
        raise


def emit_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def available_cpus(cap: int = 8) -> int:
    """The CPUs this process may run on (at most cap): the default number
    of solver threads."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cap, n or 1))
