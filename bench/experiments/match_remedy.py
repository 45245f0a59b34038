"""The strategy-fusion remedy of SearchBot, measured (docs/bots.md).

SearchBot plays the best-valued move only when its interval lies above the
value of the hint order's choice. This script plays the variant that takes
the best average outright (plain perfect-information Monte Carlo) in the
same duplicate match as ``gd-analyze match`` would, so the two runs share
the seeded deals:

    python bench/experiments/match_remedy.py --seconds 0.05 --deals 400 --seed 1 --jobs 2

and prints the match result as JSON (the shipped bot's figure comes from
``gd-analyze match --team-a search:0.05 --team-b greedy`` with the same
deals and seed).
"""

import argparse
import json
import sys

from guandan_fast import match
from guandan_fast.bots.search import SearchBot, evaluate_moves


class ArgmaxSearchBot(SearchBot):
    """SearchBot without the margin: the best average is played."""

    def choose(self, view):
        self._calls += 1
        if len(view.legal_actions()) == 1:
            return view.legal_actions()[0]
        moves = evaluate_moves(view, max_seconds=self.max_seconds, samples=self.samples,
                               seed=(self._deal_seed * 131 + self._calls) & 0x7FFFFFFF,
                               max_playouts=self.max_playouts)
        return moves[0].move


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=0.05)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    bot = ArgmaxSearchBot(max_seconds=args.seconds)
    bot.spec = f"search-argmax:{args.seconds:g}"

    def progress(done, total):
        if done % 20 == 0 or done == total:
            print(f"{done}/{total}", file=sys.stderr, flush=True)
    r = match(bot, "greedy", deals=args.deals, seed=args.seed, jobs=args.jobs,
              progress=progress)
    print(json.dumps(r.to_dict()))


if __name__ == "__main__":
    main()
