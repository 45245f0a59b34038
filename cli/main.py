"""``gd-analyze``: parse arguments, call the library, print.

``gd-analyze hand.txt`` runs the hand analysis; the subcommands, one module
each (``cmd_*.py``), are attached here, in one place.
Bad input prints one line on stderr and exits with status 2; a deal record
with several errors prints one line for each (``options.error_lines``). A card
token read with a look-alike warning (``NotationWarning``) prints
``gd-analyze: warning: ...`` on stderr and the command goes on.
"""

from __future__ import annotations

import click

from .cmd_endgame import endgame_cmd
from .cmd_game import drills_cmd, evening_cmd, game_cmd, render_cmd
from .cmd_hand import hand_cmd
from .cmd_match import match_cmd
from .cmd_plays import plays_cmd
from .cmd_serve import bot_cmd, serve_cmd
from .cmd_tribute import tribute_cmd
from .options import DefaultGroup

__all__ = ["main"]


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="guandan_fast")
def main() -> None:
    """Guandan (掼蛋) analysis: gd-analyze HAND_FILE, or a subcommand."""


for _command in (hand_cmd, plays_cmd, tribute_cmd, endgame_cmd, game_cmd, evening_cmd, render_cmd,
                 drills_cmd, serve_cmd, bot_cmd, match_cmd):
    main.add_command(_command)
