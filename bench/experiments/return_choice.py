"""The return card chosen by rollouts (``bots.policy._choose_return``, as
PolicyBot gives it) against the advice (``suggest_return``), judged on the
true deal.

    python bench/experiments/return_choice.py --seed 3 --deals 2400 [--double]

The external matches' single deals (``single_deal_start(seed, i)``: a
random level and previous finishing order); those with one tribute (or,
with ``--double``, two: then the return of one receiver, the first or the
second as the deal's index is even or odd, is judged and the partner
returns by the advice), the tributes paid by the advice, give a
return decision. Each of the two cards is judged on the true hands: the
card moved to the payer, the leader of RULES §7 leads, then the policy in
every seat to the end (one deterministic playout, ``bots.policy.playout``);
printed: the mean of (rollout choice minus advice) for the returner's team
with its 95% t-interval, and how often the two cards are the same.
"""

from __future__ import annotations

import argparse
import copy
import zlib

from guandan_fast import GreedyBot, View
from guandan_fast.bots.policy import RETURN_PLAYOUTS, _choose_return, playout
from guandan_fast.game.deal import DealState
from guandan_fast.game.state import team
from guandan_fast.platform.external import single_deal_start
from guandan_fast.stats import mean_ci


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--deals", type=int, default=2400)
    ap.add_argument("--double", action="store_true", help="judge double-down returns")
    args = ap.parse_args()
    advice = GreedyBot()
    diffs, same = [], 0
    for i in range(args.deals):
        # the external matches' single deal i: a random previous order
        hands, _leader, progress = single_deal_start(args.seed, i)
        deal = DealState(hands, progress.deal_rules(), progress.previous)
        if len(deal.payments) != (2 if args.double else 1):
            continue
        for payer in deal.waiting():
            deal.pay_tribute(payer, advice.tribute(View.from_exchange(deal, payer),
                                                   deal.legal_actions(payer)))
        if deal.phase != "return":
            continue
        views = {s: View.from_exchange(deal, s) for s in deal.waiting()}
        seat = deal.waiting()[i % len(deal.waiting())]
        view, cands = views[seat], deal.legal_actions(seat)
        ours = _choose_return(view, cands, None, zlib.crc32(view.hand_counts.tobytes()),
                              RETURN_PLAYOUTS)
        theirs = advice.give_back(view, cands)
        partner = {s: advice.give_back(views[s], deal.legal_actions(s))
                   for s in deal.waiting() if s != seat}
        sign = 1 if team(seat) == 0 else -1
        values = []
        for card in (ours, theirs):
            d = copy.deepcopy(deal)
            d.give_back(seat, card)
            for s, c in partner.items():
                d.give_back(s, c)
            assert d.game is not None
            values.append(sign * playout(d.game))
        diffs.append(values[0] - values[1])
        same += ours == theirs
    m, lo, hi = mean_ci(diffs)
    kind = "double-down returns" if args.double else "returns"
    print(f"{len(diffs)} {kind} (seed {args.seed}); rollout choice minus advice on the true "
          f"deal {m:+.3f} [{lo:+.3f}, {hi:+.3f}] levels; the same card {same}")


if __name__ == "__main__":
    main()
