"""``gd-analyze match``: a duplicate match between two bot teams.

``gd-analyze match --team-a search:0.2 --team-b greedy --deals 400 --seed 1
--jobs 2`` plays 400 seeded deals twice (hands swapped between the teams),
draws a progress bar on stderr and prints the result table (``--format
json``: the same as JSON). ``--games``: whole games from level 2 with
tribute; ``--records DIR``: every deal's record; ``--dask ADDR``: run on a
Dask cluster. The library decides; this module parses and prints.
"""

from __future__ import annotations

import sys

import click

from guandan_fast.bots.match import match
from guandan_fast.bots.registry import specs_help
from guandan_fast.errors import MatchError

from . import output
from .options import JOBS, SECONDS, IntIn, command, emit_json, format_option


class _Bar:
    """A progress bar on stderr (a line per update when not a terminal)."""

    def __init__(self, width: int = 30):
        self.width = width
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        filled = int(self.width * done / max(total, 1))
        text = f"[{'#' * filled}{'-' * (self.width - filled)}] {done}/{total}"
        if self.tty:
            sys.stderr.write("\r" + text)
            if done == total:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


@command("match")
@click.option("--team-a", required=True, help=f"Bot spec of team A: {specs_help()}.")
@click.option("--team-b", required=True, help="Bot spec of team B.")
@click.option("--deals", type=IntIn(1, 1_000_000), default=100, show_default=True,
              help="Deals (with --games: games), each played twice unless --no-duplicate.")
@click.option("--seed", type=IntIn(-2 ** 63, 2 ** 63 - 1), default=0, show_default=True, help="Match seed.")
@click.option("--jobs", "-j", type=JOBS, default=None,
              help="Local worker processes (default: one per CPU).")
@click.option("--games", is_flag=True, help="Whole games from level 2, with tribute and return.")
@click.option("--no-duplicate", is_flag=True, help="Play each deal once (no swapped replay).")
@click.option("--records", "records_dir", type=click.Path(file_okay=False),
              help="Write every deal's record into this directory.")
@click.option("--dask", "dask_address", help="Dask scheduler address (tcp://HOST:PORT).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--platform", is_flag=True, help="Play through the platform server on "
              "127.0.0.1, one client process a seat (implied by an exec: team).")
@click.option("--port", type=IntIn(0, 65535), default=None,
              help="Platform: the server's port (default 0: any free port).")
@click.option("--answer-timeout", type=SECONDS, default=None,
              help="Platform: seconds for each answer (default 30).")
@click.option("--connect-timeout", type=SECONDS, default=None,
              help="Platform: seconds for each client to connect (default 30).")
@click.option("--deal-timeout", type=SECONDS, default=None,
              help="Platform: seconds of wall clock for each deal (default 300).")
@format_option
def match_cmd(team_a, team_b, deals, seed, jobs, games, no_duplicate, records_dir,
              dask_address, quiet, platform, port, answer_timeout, connect_timeout,
              deal_timeout, fmt):
    """Play a duplicate match between two bot teams. A team is a bot spec or
    an external platform client, exec[cwd=DIR]:COMMAND with {url} {seat}
    {name} {port} (two commands split by | for the two players)."""
    from guandan_fast.platform.external import is_external, parse_team
    parse_team(team_a, "--team-a")          # a bad spec or command names its option
    parse_team(team_b, "--team-b")
    timeouts = {"--port": port, "--answer-timeout": answer_timeout,
                "--connect-timeout": connect_timeout, "--deal-timeout": deal_timeout}
    if platform or is_external(team_a) or is_external(team_b):
        for name, given in (("--jobs", None if jobs == 1 else jobs), ("--dask", dask_address)):
            if given is not None:
                raise click.UsageError(f"{name}: a platform match plays one table at a time")
        _platform(team_a, team_b, deals, seed, games, no_duplicate, records_dir, quiet,
                  timeouts, fmt)
        return
    for name, given in timeouts.items():
        if given is not None:
            raise click.UsageError(f"{name}: only for a platform match (--platform or an "
                                   "exec: team)")
    result = match(team_a, team_b, deals=deals, seed=seed, duplicate=not no_duplicate,
                   jobs=jobs, games=games, records_dir=records_dir, dask=dask_address,
                   progress=None if quiet else _Bar())
    if fmt == "json":
        emit_json(result.to_dict())
    else:
        click.echo(output.match_text(result.to_dict()))


def _platform(team_a, team_b, deals, seed, games, no_duplicate, records_dir, quiet,
              given, fmt):
    from guandan_fast.platform.external import Limits, external_match, parse_team
    team_a, team_b = parse_team(team_a, "--team-a"), parse_team(team_b, "--team-b")
    if not 0 <= seed < 2 ** 63:
        raise click.UsageError(f"--seed: a platform match takes 0..2**63-1, not {seed}")
    keys = {"--answer-timeout": "answer", "--connect-timeout": "connect",
            "--deal-timeout": "deal"}
    limits = Limits(**{keys[k]: v for k, v in given.items() if k in keys and v is not None})
    result = external_match(team_a, team_b, deals=deals, seed=seed, games=games,
                            duplicate=not no_duplicate, port=given["--port"] or 0,
                            records_dir=records_dir, limits=limits,
                            progress=None if quiet else _Bar())
    if result.pairs_scored == 0:
        raise MatchError(_nothing_scored(result.faults))
    if fmt == "json":
        emit_json(result.to_dict())
    else:
        click.echo(output.external_match_text(result.to_dict()))


def _nothing_scored(faults) -> str:
    """Why a platform match scored no deal (pair): every unit abandoned."""
    why = "no deal could be scored"
    if faults:
        f = faults[0]
        who = f"team {f.team.upper()}" if f.team else "no seat at fault"
        why += f": every deal abandoned ({len(faults)} tables; first: {who}, {f.kind}: {f.reason})"
    return why
