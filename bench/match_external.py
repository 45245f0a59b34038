"""One of our bots against each public 2020 rule bot, through our server.

    python bench/match_external.py --mcc /work/ext/guandan_mcc \\
        --python /work/venvs/mcc/bin/python --bot greedy --pairs 5 --seed 1

plays ``--pairs`` duplicate deal pairs (``--games``: game pairs) of ``--bot`` (a
bot spec of ours) against each client of ``AltmanD/guandan_mcc``
(``rl-frame/wintest/ai1`` .. ``ai9`` and the sample client in
``example-clients``), run unchanged from the checkout ``--mcc`` (outside this
project) by ``--python`` (an environment with ws4py 0.6.0 and numpy, checked
before the first match), with ``platform.external.external_match``; prints one
row an opponent and, with ``--json FILE``, writes the results. ``--baseline
SPEC`` plays a second bot of ours on the same deals against each opponent, right
after the first (the baseline measured in the same run), and prints the paired
difference: for each deal pair scored under both, the first bot's levels a deal
minus the baseline's, its mean and 95% t-interval an opponent and pooled over
them. Pairing takes the luck of the deal out of the difference (the interval on
a difference about a third narrower than from two unpaired means). The seeds are
fixed before the runs (``--seed``, the same for every opponent: the same deals).
The command of each opponent is in ``OPPONENTS`` (docs/bots.md has the table):
the clients that hard-code ``ws://127.0.0.1:PORT`` get the server on that port;
the ones that hard-code a competition server's address (ai3, ai7) or import what
their directory lacks (ai5, ai7) are run through ``run_client.py`` (their code
unchanged: ws4py's address replaced, a module aliased or an unused name given).
``--any-port`` runs every client that way, so that several matches can run at
once on their own ports. Not a test: it needs the checkout and takes minutes.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from guandan_fast.platform.external import (Limits, external_match, parse_team,
                                             scored_units)
from guandan_fast.stats import mean_ci

HERE = Path(__file__).resolve().parent
LAUNCH = HERE / "run_client.py"

# name: (directory in the checkout, first player's file, second player's
# file, port the files hard-code (0: they name another host, the launcher
# redirects them), run_client.py options (None: run as python FILE))
OPPONENTS = {
    "ai1": ("rl-frame/wintest/ai1", "client0.py", "client2.py", 23456, None),
    "ai2": ("rl-frame/wintest/ai2", "client0.py", "client2.py", 23456, None),
    "ai3": ("rl-frame/wintest/ai3", "对抗AI1.py", "对抗AI2.py", 0, "--url {url}"),
    "ai4": ("rl-frame/wintest/ai4", "client1.py", "client3.py", 23456, None),
    "ai5": ("rl-frame/wintest/ai5", "client1.py", "client3.py", 9618,
            "--alias utils.utils=utils"),
    "ai6": ("rl-frame/wintest/ai6", "client2.py", "client4.py", 23456, None),
    "ai7": ("rl-frame/wintest/ai7", "client1.py", "client1.py", 0,
            "--url {url} --absent test:tsolve"),
    "ai8": ("rl-frame/wintest/ai8", "client3.py", "client4.py", 23456, None),
    "ai9": ("rl-frame/wintest/ai9", "client_v5_1.py", "client_v5_2.py", 23456, None),
    "sample": ("example-clients", "client1.py", "client3.py", 23456, None),
}


def client_commands(mcc: Path, python: str, name: str,
                    any_port: bool = False) -> tuple[Path, list, int]:
    """An opponent's working directory, the command lines of its two
    clients (``{url}`` where the server's address goes) and the port it
    needs (0: any). ``any_port``: every client through ``run_client.py
    --url {url}``, so that none needs a fixed port and several matches can
    run at once."""
    where, first, second, port, launch = OPPONENTS[name]
    if any_port and port:
        port = 0
        launch = "--url {url}" + ("" if launch is None else " " + launch)
    py = shlex.quote(python)
    if launch is not None:
        cmds = [f"{py} {shlex.quote(str(LAUNCH))} {launch} {shlex.quote(f)}"
                for f in (first, second)]
    else:
        cmds = [f"{py} {shlex.quote(f)}" for f in (first, second)]
    return mcc / where, cmds, port


def team(mcc: Path, python: str, name: str, any_port: bool = False) -> tuple[str, int]:
    """The exec: team text of an opponent and the port it needs (0: any);
    ``any_port`` as in ``client_commands``."""
    cwd, cmds, port = client_commands(mcc, python, name, any_port)
    return f"exec[cwd={cwd}]:{cmds[0]} | {cmds[1]}", port


def unit_gains(r) -> dict:
    """Team A's levels a deal in each unit ``r`` (an ``external_match``
    result) scored."""
    return {u: sum(p.gain_a for p in ps) / len(ps)
            for u, ps in scored_units(r.plays, r.units, r.duplicate).items()}


def paired(first: dict, second: dict) -> dict:
    """The paired difference of two ``unit_gains``: first minus second over
    the units scored in both, its mean, 95% t-interval and the units."""
    d = [first[u] - second[u] for u in sorted(first) if u in second]
    mean, low, high = mean_ci(d)
    return {"mean": mean, "ci95": [low, high], "units": len(d), "diffs": d}


def _row(name: str, d: dict) -> str:
    """One line of the table: a match's figures, or "no deal played" (every
    deal abandoned: the faults follow it)."""
    lo, hi = d["ci95"]
    ab = d["a"]["abandoned"] + d["b"]["abandoned"] + d["abandoned_without_fault"]
    if not d["deals_played"]:
        return (f"{name:<8} {0:>5} {'no deal played':>24} {'':>6} {d['a']['invalid_answers']:>8} "
                f"{d['b']['invalid_answers']:>10} {ab:>6}")
    return (f"{name:<8} {d['deals_played']:>5} {d['mean_gain']:>+7.2f} [{lo:+.2f}, {hi:+.2f}]"
            f"  {100 * d['win_rate']:>5.1f}% {d['a']['invalid_answers']:>8} "
            f"{d['b']['invalid_answers']:>10} {ab:>6} {d['seconds_per_deal']:>7.2f}")


CLIENT_MODULES = ("ws4py", "numpy")      # what the public clients import beyond the stdlib


def _python_lacks(python: str) -> str:
    """Why ``python`` cannot run the public clients ("" when it can): it
    does not start, or it cannot import ``CLIENT_MODULES`` (without numpy,
    ai8 crashed before connecting in every deal, after the other
    opponents' matches had run)."""
    code = "import " + ", ".join(CLIENT_MODULES)
    try:
        r = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"does not run ({e})"
    if r.returncode:
        last = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[-1]
        return f"cannot import {', '.join(CLIENT_MODULES)}: {last}"
    return ""


SHOWN_FAULTS = 3


def _fault_lines(faults: list, shown: int = SHOWN_FAULTS) -> list:
    """The lines under a match's row: its first ``shown`` faults (the deal
    abandoned, the team, the kind, the reason), then how many more (every
    one is in the JSON): an opponent that cannot start abandons every
    deal, and 200 lines of the same crash hid the table."""
    out = [f"         abandoned {f['table']}{f['unit']}: {f['team']} {f['kind']}: {f['reason']}"
           for f in faults[:shown]]
    if len(faults) > shown:
        out.append(f"         ... and {len(faults) - shown} more abandoned deals "
                   f"(--json lists every fault)")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mcc", required=True, type=Path, help="checkout of AltmanD/guandan_mcc")
    ap.add_argument("--python", required=True, help="python with ws4py 0.6.0 and numpy")
    ap.add_argument("--bot", default="greedy", help="our bot spec (default greedy)")
    ap.add_argument("--baseline", help="a second bot spec of ours, on the same deals: "
                    "the paired difference --bot minus --baseline")
    ap.add_argument("--pairs", type=int, default=5, help="duplicate pairs an opponent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", action="store_true", help="whole games instead of deals")
    ap.add_argument("--opponents", default=",".join(OPPONENTS),
                    help="comma-separated subset of " + ",".join(OPPONENTS))
    ap.add_argument("--answer-timeout", type=float, default=30.0)
    ap.add_argument("--deal-timeout", type=float, default=300.0)
    ap.add_argument("--records", type=Path,
                    help="records per opponent in DIR/NAME (the baseline's in DIR/baseline/NAME)")
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("--any-port", action="store_true",
                    help="run every client through run_client.py --url (no fixed port: "
                         "several matches at once)")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.opponents.split(",") if n.strip()]
    unknown = [n for n in names if n not in OPPONENTS]
    if unknown:
        ap.error(f"--opponents: unknown {', '.join(unknown)}")
    for opt, spec in (("--bot", args.bot), ("--baseline", args.baseline)):
        if spec is not None:
            try:
                if parse_team(spec, opt).external:
                    ap.error(f"{opt}: {spec[:40]!r}: a bot spec of ours, not a command")
            except ValueError as e:
                ap.error(str(e))
    missing = _python_lacks(args.python)
    if missing:
        ap.error(f"--python {args.python}: {missing}")
    limits = Limits(answer=args.answer_timeout, deal=args.deal_timeout)
    out = {}
    print(f"{args.bot}" + (f" (and the baseline {args.baseline})" if args.baseline else "")
          + f" vs each public bot: {args.pairs} {'game' if args.games else 'deal'} "
          f"pairs, seed {args.seed}")
    print(f"{'opponent':<8} {'deals':>5} {'levels/deal [95% CI]':>24} {'first':>6} "
          f"{'inv ours':>8} {'inv theirs':>10} {'aband.':>6} {'s/deal':>7}")
    bots = [args.bot] + ([args.baseline] if args.baseline else [])
    diffs: list = []
    for name in names:
        text, port = team(args.mcc, args.python, name, args.any_port)
        gains = []
        for k, spec in enumerate(bots):
            t0 = time.perf_counter()
            rec = None
            if args.records:
                rec = args.records / name if k == 0 else args.records / "baseline" / name
            r = external_match(spec, text, deals=args.pairs, seed=args.seed, games=args.games,
                               port=port, limits=limits, records_dir=rec)
            d = r.to_dict()
            d["command"] = text
            d["port"] = port
            d["wall_seconds"] = time.perf_counter() - t0
            if args.baseline:
                out.setdefault(name, {})["bot" if k == 0 else "baseline"] = d
            else:
                out[name] = d
            gains.append(unit_gains(r))
            print(_row(name if k == 0 else "  base", d), flush=True)
            for line in _fault_lines(d["faults"]):
                print(line, flush=True)
        if args.baseline:
            pd = paired(gains[0], gains[1])
            out[name]["paired"] = pd
            diffs += pd["diffs"]
            print(f"  paired {pd['mean']:+.2f} [{pd['ci95'][0]:+.2f}, {pd['ci95'][1]:+.2f}] "
                  f"over {pd['units']} pairs", flush=True)
    if args.baseline:
        mean, low, high = mean_ci(diffs)
        out["paired_pooled"] = {"mean": mean, "ci95": [low, high], "units": len(diffs)}
        print(f"pooled paired {args.bot} minus {args.baseline}: {mean:+.3f} "
              f"[{low:+.3f}, {high:+.3f}] over {len(diffs)} pairs")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
