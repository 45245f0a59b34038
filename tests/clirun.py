"""Running gd-analyze in the test process (click's CliRunner): the same
arguments, standard input, output streams and exit status as the installed
command, without the cost of a new interpreter per call. A few smoke tests
(tests/test_cli.py) still start the real command as a subprocess."""

import subprocess
import sys
from dataclasses import dataclass

from click.testing import CliRunner

from guandan_fast.cli.main import main


@dataclass
class Completed:
    """What subprocess.run would report: the exit status and the outputs."""
    returncode: int
    stdout: str
    stderr: str


def _runner():
    try:
        return CliRunner(mix_stderr=False)     # click < 8.2
    except TypeError:
        return CliRunner()                     # click >= 8.2: stderr apart always


def run(*args, stdin=None):
    """gd-analyze ARGS in process."""
    r = _runner().invoke(main, [str(a) for a in args], input=stdin, prog_name="gd-analyze")
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception          # a crash is a test failure, with its traceback
    return Completed(r.exit_code, r.stdout, r.stderr)


def run_subprocess(*args, stdin=None, timeout=120):
    """gd-analyze ARGS as a real process (``python -m guandan_fast.cli``)."""
    return subprocess.run([sys.executable, "-m", "guandan_fast.cli", *map(str, args)],
                          input=stdin, capture_output=True, text=True, timeout=timeout)
