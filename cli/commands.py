"""Subcommands of gd-analyze beside the hand analysis."""
