"""The ``gd-analyze`` command-line tool (installed as ``guandan_fast.cli``)."""
