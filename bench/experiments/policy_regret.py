"""Where the policy's choices lose in its own rollouts: each decision of
team A (our bot) in the records of a duplicate match, the policy's move
against the best of the search's first candidates, by kind of decision.

    python bench/match_external.py --mcc M --python P --bot policy --pairs 150 \\
        --seed 6101 --opponents ai1 --any-port --records DIR
    python bench/experiments/policy_regret.py DIR/ai1 --every 2 --deals 200

For every ``--every``-th decision of team A's seats in each record, with
two legal moves or more: the first ``--candidates`` moves in the search's order
(``bots.search.candidates``: the policy's own move first) are played on
``--deals`` deals drawn from the seat's view (the same deals for each, seeded
by the record's place and the view's), then the policy in every seat
(``rollout_moves``). The regret is the best candidate's mean minus the
policy's move's, with the standard error of their paired difference. A
regret is counted as large when it is above ``--large`` by two standard
errors; the best of many noisy means is biased upward, so the large ones
are a list of places to look, not a measure of loss.

Printed: the views and the mean regret by kind (a lead, a follow of the
partner, a follow of an opponent); the large regrets grouped by (kind, the
policy's move's type, the best move's type), their number and sum; the
largest ``--show`` with the counts of the four hands and the table.

The values are those of the policy world (everyone plays the house policy
after the move), not of the public bots. On the policy's records of seed
6101 against ai1 and ai4 the best move of a large regret was a bomb in
360 of 1,181 (a straight flush in 218): the policy passing where a bomb of
its plan, not its weakest, took the lead. A rule playing it gained
nothing, against the public bots on fresh deals or against the policy
itself (docs/performance.md, "Measured and rejected"): the large regrets
are single deviations, the best of many noisy means, and show where the
search departs from the policy rather than a rule the policy lacks.
"""

from __future__ import annotations

import argparse
import collections
import glob
import os

import numpy as np

from guandan_fast.bots.policy import rollout_moves
from guandan_fast.bots.search import candidates
from guandan_fast.formats.record import load
from guandan_fast.game.view import View, sample_deals
from guandan_fast.model.seats import partner


def kind(view: View) -> str:
    if view.table is None:
        return "lead"
    return "follow partner" if view.owner == partner(view.seat) else "follow opponent"


def move_type(move) -> str:
    if move is None:
        return "pass"
    return ("bomb " if move.is_bomb else "") + str(move.type)


def _shown(move) -> str:
    return "pass" if move is None else str(move)


def regrets(path: str, every: int, deals: int, width: int, seed: int = 0):
    """(view, policy's move, best move, regret, its standard error) for
    every ``every``-th decision of team A in the record, the k-th drawing
    its deals with ``seed + k``."""
    rec = load(path)
    ours = {s for s in range(4) if rec.players[s].startswith("A")}
    k = 0
    for i, move in enumerate(rec.moves):
        if move.seat not in ours:
            continue
        k += 1
        if k % every:
            continue
        view = View.from_record(rec, i)
        cands = candidates(view)[:width]
        if len(cands) < 2:
            continue
        res = rollout_moves(view, sample_deals(view, deals, seed=seed + k), cands)[1].astype(float)
        means = res.mean(axis=1)
        b = int(np.argmax(means))
        diff = res[b] - res[0]
        se = float(diff.std(ddof=1) / np.sqrt(len(diff))) if b else 0.0
        yield view, cands[0], cands[b], float(means[b] - means[0]), se


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="directories of deal records (team A: ours)")
    ap.add_argument("--every", type=int, default=2, help="every n-th decision of ours (2)")
    ap.add_argument("--deals", type=int, default=200, help="deals a view (200)")
    ap.add_argument("--candidates", type=int, default=16, help="the first n candidates (16)")
    ap.add_argument("--large", type=float, default=0.3, help="a large regret (0.3 levels)")
    ap.add_argument("--show", type=int, default=20, help="the largest n shown (20)")
    args = ap.parse_args(argv)
    by_kind: dict = collections.defaultdict(list)
    groups: dict = collections.defaultdict(list)
    large = []
    paths = [p for d in args.dirs for p in sorted(glob.glob(os.path.join(d, "*.txt")))]
    for f, path in enumerate(paths):
        for view, pol, best, reg, se in regrets(path, args.every, args.deals, args.candidates,
                                                seed=10_000 * f):
            what = kind(view)
            by_kind[what].append(reg)
            if reg - 2 * se > args.large:
                groups[what, move_type(pol), move_type(best)].append(reg)
                large.append((reg, se, os.path.basename(path), view, pol, best))
    n = sum(len(v) for v in by_kind.values())
    print(f"{n} views, {len(large)} large regrets (above {args.large} by 2 standard errors)")
    for k, v in sorted(by_kind.items()):
        print(f"  {k:<16} {len(v):>6} views, mean regret {np.mean(v):.3f}, sum {sum(v):.1f}")
    print("large regrets: count, sum, (kind, the policy's move, the best)")
    for key, v in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {len(v):>5} {sum(v):>7.1f}  {key}")
    print(f"the largest {args.show}:")
    for reg, se, name, view, pol, best in sorted(large, key=lambda t: -t[0])[:args.show]:
        print(f"  {reg:+.2f} ±{2 * se:.2f} {name} seat {view.seat} counts {list(view.counts)} "
              f"table {view.table} | policy {_shown(pol)} | best {_shown(best)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
