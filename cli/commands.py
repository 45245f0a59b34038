"""Subcommands of gd-analyze beside the hand analysis."""
from . import cmd_tribute  # noqa: E402,F401  (gd-analyze tribute)
