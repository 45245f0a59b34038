"""Run a 2020 ws4py platform client unchanged, with its environment fixed.

    python run_client.py [--url URL] [--alias NAME=MODULE] [--absent MODULE:NAME]
                         SCRIPT [ARGS...]

runs SCRIPT as ``__main__`` (its directory first on ``sys.path``, as
``python SCRIPT`` would), after:

- ``--url URL``: wrapping ws4py's client constructor so that whatever
  address the script hard-codes, it connects to URL (the bots whose address
  is a competition server, ``ws://112.124.24.226:80/game/gd/...``);
- ``--alias NAME=MODULE``: importing MODULE also as NAME (``ai5`` imports
  ``utils.utils``, a layout its directory does not have: its own
  ``utils.py`` holds those functions);
- ``--absent MODULE:NAME``: a module MODULE whose attribute NAME is None
  (``ai7`` imports ``tsolve`` from a ``test`` module the repository does
  not hold, and never uses it).

The bots' code is read, not edited. Standalone (the standard library and
ws4py): it runs in the bots' own environment, not the project's.
"""

import argparse
import importlib
import os
import runpy
import sys
import types


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url")
    ap.add_argument("--alias", action="append", default=[])
    ap.add_argument("--absent", action="append", default=[])
    ap.add_argument("script")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.script)))
    if a.url:
        from ws4py.client import WebSocketBaseClient
        original = WebSocketBaseClient.__init__

        def redirected(self, _url, *args, **kwargs):
            original(self, a.url, *args, **kwargs)
        WebSocketBaseClient.__init__ = redirected
    for item in a.absent:
        name, _, attr = item.partition(":")
        mod = types.ModuleType(name)
        setattr(mod, attr, None)
        sys.modules[name] = mod
    for item in a.alias:
        name, _, target = item.partition("=")
        mod = importlib.import_module(target)
        parent, _, child = name.rpartition(".")
        if parent:
            pmod = sys.modules.get(parent) or importlib.import_module(parent)
            if not hasattr(pmod, "__path__"):
                pmod.__path__ = []          # let it hold a submodule
            setattr(pmod, child, mod)
        sys.modules[name] = mod
    sys.argv = [a.script] + a.args
    runpy.run_path(a.script, run_name="__main__")


if __name__ == "__main__":
    main()
