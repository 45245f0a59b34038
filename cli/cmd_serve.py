"""``gd-analyze serve`` and ``gd-analyze bot``: the competition platform's
protocol, server and client (docs/platform.md).

- ``gd-analyze serve [--host 127.0.0.1] [--port 23456] [--games N] [--seed S]
  [--records DIR] [--rule flush_is_always_bomb=yes ...]``: wait for four
  clients at ``ws://HOST:PORT/game/{name}``, play N games, write each deal's
  record and the message log to DIR; a summary line on stdout at the end.
- ``gd-analyze bot ws://HOST:PORT/game/NAME --bot search:0.2``: play one of
  the project's bots on a platform-compatible server.

No rules here: the library decides, this module prints.
"""

from __future__ import annotations

import errno

import click

from guandan_fast.bots.registry import specs_help
from guandan_fast.errors import RulesError

from .options import SECONDS, IntIn, command


def _rules(items):
    from guandan_fast.formats.text import parse_bool
    from guandan_fast.model.rules import FLAG_KEYS, Rules
    kw = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in FLAG_KEYS:
            raise RulesError(f"--rule {item[:60]!r}: use NAME=yes|no with NAME one of "
                             + ", ".join(FLAG_KEYS))
        if key in kw:
            raise RulesError(f"--rule: {key} is given twice")
        kw[key] = parse_bool(value, key, "--rule")
    return Rules(**kw)


def _flag_names():
    from guandan_fast.model.rules import FLAG_KEYS
    return ", ".join(FLAG_KEYS)


rule_option = click.option("--rule", "rule_items", multiple=True, metavar="NAME=yes|no",
                           help=f"A rules flag (repeatable): {_flag_names()}.")


def _terminate_as_interrupt():
    """SIGTERM stops the server as Ctrl-C does: the clients get close code
    1011 and the reason, the command exits with status 130."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt("terminated")
    signal.signal(signal.SIGTERM, stop)


@command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=IntIn(0, 65535), default=23456, show_default=True,
              help="Port (0: any free port, printed on stderr).")
@click.option("--games", type=IntIn(1, 10 ** 6), default=1, show_default=True,
              help="Games to play (a game runs from level 2 until a team wins at A).")
@click.option("--seed", type=IntIn(0, 2 ** 63 - 1), default=0, show_default=True,
              help="Seed of the deals and the first leader.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False),
              help="Write each deal's record and messages.jsonl here.")
@click.option("--answer-timeout", type=SECONDS, default=60.0,
              show_default=True, help="Seconds to wait for each answer.")
@click.option("--connect-timeout", type=SECONDS,
              default=600.0, show_default=True, help="Seconds to wait for the four clients.")
@rule_option
def serve_cmd(host, port, games, seed, records_dir, answer_timeout, connect_timeout, rule_items):
    """Serve games to four platform clients (the competition's protocol)."""
    from guandan_fast.platform.server import serve

    rules = _rules(rule_items)
    _check_host(host)

    def ready(bound):
        click.echo(f"gd-analyze serve: listening on ws://{host}:{bound}/game/{{name}}", err=True)

    _terminate_as_interrupt()
    try:
        res = serve(host, port, games=games, seed=seed, records_dir=records_dir, rules=rules,
                    answer_timeout=answer_timeout, connect_timeout=connect_timeout, ready=ready)
    except OSError as e:
        if e.errno not in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES):
            raise
        raise click.UsageError(f"--host {host!r} --port {port}: cannot listen there "
                               f"({e.strerror or e})") from None
    click.echo(f"games {res.games}  deals {res.deals}  seconds {res.seconds:.2f}  "
               f"deals/s {res.deals_per_second:.2f}  victories {res.victories}  "
               f"draws {res.draws}  invalid answers {res.bad_answers}  "
               f"players {' '.join(res.names)}")


def _check_host(host: str) -> None:
    """--host names an address this machine can resolve (the error names it)."""
    import socket
    if host == "":              # every interface, as asyncio reads it
        return
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        reason = e.strerror if isinstance(e, socket.gaierror) else "not a host name"
        raise click.BadParameter(f"{host!r}: {reason}", param_hint="--host") from None


@command("bot")
@click.argument("url")
@click.option("--bot", "spec", default="greedy", show_default=True,
              help=f"The bot: {specs_help()}.")
@click.option("--timeout", type=SECONDS, default=600.0,
              show_default=True, help="Seconds to wait for each message.")
@rule_option
def bot_cmd(url, spec, timeout, rule_items):
    """Play a bot on a platform server: URL is ws://HOST:PORT/game/NAME."""
    from guandan_fast.bots.registry import make_bot
    from guandan_fast.platform.client import BotPolicy, play_client
    import asyncio

    if not url.startswith(("ws://", "wss://")):
        raise click.UsageError(f"URL must start with ws:// or wss://, not {url!r}")
    policy = BotPolicy(make_bot(spec))
    res = asyncio.run(play_client(url, policy, _rules(rule_items), timeout=timeout))
    won = res.result.get("victoryNum") if res.result else None
    click.echo(f"decisions {res.decisions}  deals {res.seat.deals}  games {res.seat.games}"
               + (f"  victories {won}" if won is not None else ""))
