"""Run a ws4py platform client unchanged, with its server address replaced.

    python ws4py_redirect.py URL SCRIPT [ARGS...]

runs SCRIPT as ``__main__`` (its directory first on ``sys.path``, as
``python SCRIPT`` would) after wrapping ws4py's client constructor so that
whatever address the script hard-codes, it connects to URL. For the
public 2020 rule bots whose address is a competition server
(``ws://112.124.24.226:80/game/gd/...``) rather than 127.0.0.1: their code
is read, not edited. Standalone (the standard library and ws4py): it runs
in the bots' own environment, not the project's.
"""

import runpy
import sys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: ws4py_redirect.py URL SCRIPT [ARGS...]")
    url, script = sys.argv[1], sys.argv[2]
    from ws4py.client import WebSocketBaseClient

    original = WebSocketBaseClient.__init__

    def redirected(self, _url, *args, **kwargs):
        original(self, url, *args, **kwargs)

    WebSocketBaseClient.__init__ = redirected
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    sys.argv = [script] + sys.argv[3:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
