"""``python -m guandan_fast.cli``: the same as ``gd-analyze``."""

from .main import main

main()
