"""Subcommands of gd-analyze beside the hand analysis (imported for registration)."""

from . import cmd_plays  # noqa: F401
from . import cmd_tribute  # noqa: F401  (gd-analyze tribute)
from . import cmd_endgame  # noqa: F401  (gd-analyze endgame)
from . import cmd_game  # noqa: F401  (gd-analyze game)
from . import cmd_serve  # noqa: F401  (gd-analyze serve, gd-analyze bot)
from . import cmd_match  # noqa: F401  (gd-analyze match)
