"""Where a match's levels go: statistics of the two teams' play from the
records of a duplicate match (docs/bots.md, "What it shows").

    python bench/match_external.py --mcc M --python P --bot policy --pairs 50 \\
        --seed 71 --opponents ai4 --any-port --records DIR
    python bench/experiments/record_stats.py DIR/ai4

Team A (the players named A1, A2: our bot in `match_external.py`) is
"ours" at both tables. For each team, counted over every record:

- first out: the deals where a player of the team went out first, and how
  often its partner was second;
- at the first out: the cards and the high cards (ace, level card, joker)
  the first-out player's partner and each of its opponents still hold;
- leads: how many of each type, and how each ended (an opponent beat it
  with a non-bomb or a bomb, the partner took it, or it won the round);
- high cards spent before the first out, by context (a lead, over an
  opponent, over the partner);
- the first-out player's last play: a lead or a follow, and whether the
  next play was made by an opponent (the partner then does not lead);
- the levels a deal of ours by the tribute exchange (none, anti-tribute,
  a single tribute, a double down), a deal pair at a time (both tables
  have the same exchange, ours paying at one and receiving at the other),
  and a table at a time by whether ours paid or received (and over all
  the directories given, when more than one);
- with ``--solve SECONDS``: the exact (double-dummy) value of the position
  at the first out for the first-out player's team (``solve``, each
  position of at most ``--max-cards`` cards left, within SECONDS), against
  the levels that team then won: whether the deal was decided at the first
  out or by the play after it.

    python bench/experiments/record_stats.py DIR/ai4 --solve 2 --max-cards 30
"""
from __future__ import annotations

import argparse
import collections
import glob
import os
import statistics

from guandan_fast.engine.endgame import solve
from guandan_fast.formats.record import load
from guandan_fast.game.record import replay
from guandan_fast.game.state import level_gain
from guandan_fast.stats import mean_ci

TYPES = ("single", "pair", "triple", "full_house", "straight", "tube", "plate", "bomb")


def high(card, rules) -> bool:
    """An ace, a level card or a joker: a single of order ace or above
    (``Rules.order``, RULES 2)."""
    return rules.order(card.rank) >= rules.order("A")


def exchange(rec, ours: set) -> str:
    """The deal's tribute exchange, from ours' side: none, anti, or single
    or double with paid or received."""
    if rec.anti_tribute:
        return "anti"
    if not rec.tributes:
        return "none"
    kind = "single" if len(rec.tributes) == 1 else "double"
    return kind + (" received" if rec.tributes[0].receiver in ours else " paid")


def deal_stats(path: str, c: collections.Counter, lists: dict, seconds: float = 0.0,
               max_cards: int = 30) -> tuple[str, int]:
    """Counts one record into c and lists; (its exchange, ours' levels)."""
    rec = load(path)
    ours = {s for s in range(4) if rec.players[s].startswith("A")}
    rules = rec.rules
    steps = list(replay(rec))

    def team(seat: int) -> str:
        return "ours" if seat in ours else "theirs"

    first = None
    exact = None            # the first-out team's exact value at the first out
    for i, st in enumerate(steps):
        s, me, p = st.state, st.move.seat, st.move.play
        if first is None and s.finished:
            first = s.finished[0]
            side, partner = team(first), first ^ 2
            if seconds > 0 and s.cards_left() <= max_cards:
                r = solve(s.to_position(), all_moves=False, pv=False, max_seconds=seconds)
                if r.value is not None:
                    exact = r.value if first % 2 == 0 else -r.value
            lists[side, "partner cards at the first out"].append(s.count(partner))
            lists[side, "partner high cards at the first out"].append(
                sum(high(x, rules) for x in s.cards(partner)))
            for o in ((first + 1) % 4, (first + 3) % 4):
                lists[side, "opponent cards at the first out"].append(s.count(o))
                lists[side, "opponent high cards at the first out"].append(
                    sum(high(x, rules) for x in s.cards(o)))
        if p is None:
            continue
        side = team(me)
        if s.owner is None:
            end = "won the round"
            for later in steps[i + 1:]:
                if later.state.owner is None:
                    break
                q = later.move.play
                if q is not None:
                    if (later.move.seat ^ me) & 1:
                        end = "bombed" if q.is_bomb else "beaten"
                    else:
                        end = "taken by the partner"
                    break
            c[side, "leads", p.type] += 1
            c[side, "leads", p.type, end] += 1
            c[side, "leads", "all"] += 1
            c[side, "leads", "all", end] += 1
        if first is None:
            where = ("a lead" if s.owner is None else
                     "over the partner" if s.owner == me ^ 2 else "over an opponent")
            c[side, "plays before the first out", where] += 1
            c[side, "high cards before the first out", where] += sum(high(x, rules) for x in p.cards)
        if s.count(me) == p.size and not s.finished:
            nxt = next((t.move.seat for t in steps[i + 1:] if t.move.play is not None), None)
            kind = "lead" if s.owner is None else "follow"
            c[side, "last play", kind] += 1
            if nxt is not None and (nxt ^ me) & 1:
                c[side, "last play", kind, "beaten"] += 1
    # the finishing order from the replay above (not a second replay)
    places = steps[-1].state.apply(steps[-1].move.play).places() if steps else []
    if places:
        c[team(places[0]), "first out"] += 1
        if len(places) > 1 and places[1] == places[0] ^ 2:
            c[team(places[0]), "partner second"] += 1
        if exact is not None:
            won = level_gain(places) * (1 if places[0] % 2 == 0 else -1)
            lists[team(places[0]), "exact"].append(exact)
            lists[team(places[0]), "won"].append(won)
    # level_gain: team 0's levels (seats 0 and 2)
    return exchange(rec, ours), (level_gain(places) if places else 0) * (1 if 0 in ours else -1)


def exchange_split(by_pair: dict, by_table: dict) -> None:
    """Prints ours' levels by the exchange, a pair's and a table's."""
    for what, groups in (("pair", by_pair), ("table", by_table)):
        for kind in sorted(groups):
            v = groups[kind]
            m, lo, hi = mean_ci(v) if len(v) > 1 else (v[0], v[0], v[0])
            print(f"  ours' levels a {what}, {kind}: {len(v)}, {m:+.2f} [{lo:+.2f}, {hi:+.2f}]")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="directories of match records (deal-*.txt)")
    ap.add_argument("--solve", type=float, default=0.0, metavar="SECONDS",
                    help="the exact value at the first out, each within SECONDS (0: not)")
    ap.add_argument("--max-cards", type=int, default=30,
                    help="solve only positions of at most this many cards left")
    a = ap.parse_args(argv)
    if a.solve < 0 or a.max_cards < 1:
        ap.error("--solve must be 0 or more and --max-cards 1 or more")
    all_pairs: dict = collections.defaultdict(list)
    all_tables: dict = collections.defaultdict(list)
    for d in a.dirs:
        c: collections.Counter = collections.Counter()
        lists: dict = collections.defaultdict(list)
        files = sorted(glob.glob(os.path.join(d, "deal-*.txt")))
        pairs: dict = collections.defaultdict(list)     # deal-NNNN -> [(exchange, levels)]
        for f in files:
            pairs[os.path.basename(f)[:9]].append(deal_stats(f, c, lists, a.solve, a.max_cards))
        print(f"{d}: {len(files)} records")
        by_pair, by_table = collections.defaultdict(list), collections.defaultdict(list)
        for tables in pairs.values():
            for kind, levels in tables:
                by_table[kind].append(levels)
            if len(tables) == 2:
                by_pair[tables[0][0].split()[0]].append((tables[0][1] + tables[1][1]) / 2)
        exchange_split(by_pair, by_table)
        for k, v in by_pair.items():
            all_pairs[k] += v
        for k, v in by_table.items():
            all_tables[k] += v
        for side in ("ours", "theirs"):
            n = c[side, "first out"]
            print(f"  {side}: first out in {n} deals, the partner second in "
                  f"{c[side, 'partner second']} ({c[side, 'partner second'] / max(n, 1):.0%})")
            for k in ("partner cards", "partner high cards", "opponent cards",
                      "opponent high cards"):
                v = lists[side, k + " at the first out"]
                if v:
                    print(f"    {k} at the first out: {statistics.mean(v):.2f}")
            ex, won = lists[side, "exact"], lists[side, "won"]
            if ex:
                m, lo, hi = mean_ci([w - e for w, e in zip(won, ex)])
                print(f"    solved at the first out: {len(ex)} deals, exact value "
                      f"{statistics.mean(ex):+.2f} (partner second {sum(e == 3 for e in ex) / len(ex):.0%}), "
                      f"won {statistics.mean(won):+.2f} ({sum(w == 3 for w in won) / len(won):.0%}), "
                      f"won minus exact {m:+.2f} [{lo:+.2f}, {hi:+.2f}]")
            for t in ("all",) + TYPES:
                m = c[side, "leads", t]
                if m:
                    ends = ", ".join(f"{e} {c[side, 'leads', t, e] / m:.0%}" for e in
                                     ("won the round", "beaten", "bombed", "taken by the partner"))
                    print(f"    leads {t}: {m} ({ends})")
            for w in ("a lead", "over an opponent", "over the partner"):
                m = c[side, "plays before the first out", w]
                print(f"    before the first out, plays {w}: {m}, high cards in them "
                      f"{c[side, 'high cards before the first out', w]}")
            for kind in ("lead", "follow"):
                m = c[side, "last play", kind]
                print(f"    last play a {kind}: {m}, the next play an opponent's "
                      f"{c[side, 'last play', kind, 'beaten']}")

    if len(a.dirs) > 1:
        print(f"all {len(a.dirs)} directories:")
        exchange_split(all_pairs, all_tables)


if __name__ == "__main__":
    main()
