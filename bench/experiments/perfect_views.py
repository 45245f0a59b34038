"""The rollout search and the policy on perfect-information views, against
the exact solver.

    python bench/experiments/perfect_views.py --seed 6 --deals 200

Seeded policy deals (``deal_for(seed, i)``, the policy in every seat, each
view with the deal's history): at every decision with a choice where only
two seats still hold cards (one of each team: every hidden card is then
known, ``View.perfect``), ``solve`` values every legal move exactly, and
the policy's move and the rollout search's choice (``evaluate_moves`` with
``--playouts`` rollouts, deterministic) are each scored by how many levels
they lose against the best move for the mover's team. Printed: the
decisions, the levels lost by each and on how many decisions, and the
solver's time. (Measured so: the exact solver in the search's place on
these views would gain at most 0.005 levels a deal; docs/performance.md.)
"""
from __future__ import annotations

import argparse
import statistics
import time

from guandan_fast import Rules
from guandan_fast.bots.match import deal_for
from guandan_fast.bots.policy import PolicyBot
from guandan_fast.bots.search import evaluate_moves
from guandan_fast.engine.endgame import solve
from guandan_fast.game.state import GameState, team
from guandan_fast.game.view import View


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--playouts", type=int, default=400)
    a = ap.parse_args(argv)
    bot = PolicyBot()
    policy_loss, search_loss, times, deals_with = [], [], [], 0
    for i in range(a.deals):
        hands, level, leader = deal_for(a.seed, i)
        s = GameState.start(hands, Rules(level=level), leader)
        history: list = []
        seen = False
        while not s.over:
            v = View.from_state(s, history=history)
            pm = bot.choose(v)
            if len(v.legal_actions()) > 1 and len(s.active()) == 2:
                assert v.perfect
                seen = True
                t = time.perf_counter()
                r = solve(s.to_position(), pv=False)
                times.append(time.perf_counter() - t)
                mover = team(s.turn)
                vals = {m.move: m.pov(mover).mean for m in r.moves}
                best = max(vals.values())
                sm = evaluate_moves(v, max_seconds=10.0, max_playouts=a.playouts)[0].move
                policy_loss.append(best - vals[pm])
                search_loss.append(best - vals[sm])
            history.append((s.turn, pm))
            s = s.apply(pm)
        deals_with += seen
    print(f"{a.deals} deals, {deals_with} with a two-seat decision, {len(policy_loss)} decisions")
    for name, loss in (("policy", policy_loss), ("search", search_loss)):
        print(f"  {name}: {sum(loss):g} levels lost on {sum(x > 0 for x in loss)} decisions")
    if times:
        print(f"  solve: median {statistics.median(times) * 1e3:.2f} ms, "
              f"max {max(times) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
