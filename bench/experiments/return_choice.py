"""The return card chosen by rollouts (``bots.policy._choose_return``, as
PolicyBot gives it) against the advice (``suggest_return``), judged on the
true deal.

    python bench/experiments/return_choice.py --seed 3 --deals 2400

Deals ``deal_for(seed, i)`` with a previous finishing order drawn from
(seed, i); those with one tribute (paid by the advice) give a return
decision. Each of the two cards is judged on the true hands: the card
moved to the payer, who leads, then the policy in every seat to the end
(one deterministic playout, ``bots.policy.playout``); printed: the mean of
(rollout choice minus advice) for the returner's team with its 95%
t-interval, and how often the two cards are the same.
"""

from __future__ import annotations

import argparse
import copy
import random
import zlib

from guandan_fast import GreedyBot, Rules, View
from guandan_fast.bots.match import deal_for
from guandan_fast.bots.policy import RETURN_PLAYOUTS, _choose_return, playout
from guandan_fast.game.deal import DealState
from guandan_fast.game.state import team
from guandan_fast.stats import mean_ci


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--deals", type=int, default=2400)
    args = ap.parse_args()
    advice = GreedyBot()
    diffs, same = [], 0
    for i in range(args.deals):
        hands, level, _ = deal_for(args.seed, i)
        previous = list(range(4))
        random.Random(f"{args.seed}:{i}").shuffle(previous)
        rules = Rules(level=level)
        deal = DealState(hands, rules, previous)
        if len(deal.payments) != 1:
            continue
        while deal.phase == "tribute":
            seat, h = deal.actor, deal.hands()
            view = View(seat, h[seat], rules, [len(x) for x in h], phase="tribute")
            deal.pay_tribute(seat, advice.tribute(view, deal.legal_actions()))
        if deal.phase != "return":
            continue
        seat, h, cands = deal.actor, deal.hands(), deal.legal_actions()
        view = View(seat, h[seat], rules, [len(x) for x in h], tributes=list(deal.tributes),
                    phase="return")
        ours = _choose_return(view, cands, None, zlib.crc32(view.hand_counts.tobytes()),
                              RETURN_PLAYOUTS)
        theirs = advice.give_back(view, cands)
        sign = 1 if team(seat) == 0 else -1
        values = []
        for card in (ours, theirs):
            d = copy.deepcopy(deal)
            d.give_back(seat, card)
            assert d.game is not None
            values.append(sign * playout(d.game))
        diffs.append(values[0] - values[1])
        same += ours == theirs
    m, lo, hi = mean_ci(diffs)
    print(f"{len(diffs)} returns (seed {args.seed}); rollout choice minus advice on the true "
          f"deal {m:+.3f} [{lo:+.3f}, {hi:+.3f}] levels; the same card {same}")


if __name__ == "__main__":
    main()
