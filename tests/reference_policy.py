"""Pure-Python reference of the house policy's play decision (docs/bots.md,
"The house policy", the paragraph "The rules, exactly").

Written from that text alone, as a test oracle for ``bots.policy.PolicyBot``
(the compiled ``_policy.pxi``, which was not read). It uses only the public
API: ``plays``, ``beating_plays`` and ``min_plays`` for the plays and the
plan, the View's fields for the rest; the rank keys, bomb classes, the
opponents' possible cards, beatable / sure / big / low are computed here,
by brute force where that is simplest.

Readings chosen where the text leaves room (each checked against the
compiled policy by tests/test_policy_reference.py):

* "X, if any. Else Y" (the partner lead, the sure follow of the partner):
  when no play qualifies for X, the decision falls through to Y (the rule
  does not end in a pass).
* "first on ties" everywhere: the order of ``plays`` / ``beating_plays``;
  ``min``/``sorted`` of Python keep it (stable).
* The follow of the partner: the "sure non-bomb of least key" and the shed
  are taken among ``beating_plays(hand, table)`` (the plays of a follow).
* "Every opponent still in": the opponents holding cards (count > 0).
* "The partner holds pc cards": ``view.counts[partner]``.
* Five / three / two consecutive ranks for the beatable test: straights
  A-2-3-4-5 (top 5) .. 10-J-Q-K-A (top A), tubes A-2-3 .. Q-K-A, plates
  A-2 .. K-A (the low ace windows can never beat a real play: their tops
  are the lowest of the type).
* The wild is the heart of the level rank; "nat" of the level rank is its
  seven other-suit and second-copy cards, i.e. its count less the wilds.
* The opponents' strongest bomb when they can form none: -1 (every bomb of
  ours is then sure).
* A bomb on the table is neither big nor low (the lists name non-bomb types
  only); it is "sure" by the bomb rule.
* The hand's "two bombs or more" (the opponent follow): ranks 2..A whose
  natural cards (the wild not counted) number 4 or more, plus 1 for the four
  jokers; straight flushes are not counted.
* The sure lead with two plays or fewer left gets "its key less 2^16": read
  as its *order key* (the lowness key of the sentence before) less 2^16, so
  that the sure plays come first in the usual order (the prose of rule 2:
  "a sure play first", an exception to the order). Read as the rank key
  (``params={"sure_key": "rank"}``) the compiled policy differs on about 1
  view in 2,500 (a triple led instead of the full house of the same rank,
  a wild-filled full house instead of the big joker).

* "Breaks a bomb" (``breaks_bomb``) looks at the play's card ids: the
  wild's id never breaks a bomb (whatever it stands for), any other card of
  a rank 2..A breaks one when the hand holds 4 or more of that rank without
  the wild (even when enough would be left for a bomb), a joker when the
  hand holds all four. It is asked of the three places the text names
  only: the lead's order key, the shed over the partner and the candidates
  of the opponent follow (not the partner-short lead, the sure follow of
  the partner or the bombs).
* The lead's "either way, 2^20 more when the play breaks a bomb" is added
  to every order key, the plays an opponent may go out over included
  (adding it only to the keys of the "otherwise" clause gave the same
  decisions on about 19,500 views). ``params={"break_bomb": False}`` drops
  the rule, a mutation the differential test must catch.

A pair of jokers is beatable by a pair of jokers of a higher single order
only ("a joker of single order > k with nat >= 2");
``params={"joker_pair_above": False}`` drops that order (the text's first
wording, wrong: two small jokers cannot beat two big ones), a mutation the
differential test must catch.

The text notes itself that a lead always has a non-bomb (every hand holds a
single).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from guandan_fast import beating_plays, min_plays, plays
from guandan_fast._core import CARDS, Play

STRAIGHTISH = ("straight", "tube", "plate", "straight_flush")
LONG = ("straight", "tube", "plate", "full_house")   # "as if 6 ranks lower" on a lead
SMALL_JOKER = 52   # card ids (CARDS order): the jokers
BIG_JOKER = 53


def single_order(rank_index: int, lv: int) -> int:
    """The single-card order of a rank index (0..12 = 2..A, 13 small joker,
    14 big joker): 2..A = 0..12 except the level rank 13, jokers 14 and 15."""
    if rank_index == 13:
        return 14
    if rank_index == 14:
        return 15
    if rank_index == lv:
        return 13
    return rank_index


def rank_key(p: Play) -> int:
    """The rank key (docs: straights, tubes, plates and straight flushes the
    natural index of the top; other types the single order of the rank)."""
    if p.type in STRAIGHTISH:
        return p.rank_index
    return single_order(p.rank_index, p.level_index)


def bomb_class(p: Play) -> int:
    if p.type == "joker_bomb":
        return 9
    if p.type == "straight_flush":
        return 3
    assert p.type == "bomb", p
    return {4: 1, 5: 2}.get(p.size, p.size - 2)


def strength(p: Play) -> int:
    return bomb_class(p) * 32 + rank_key(p)


def minus(hand: np.ndarray, p: Play) -> np.ndarray:
    out = hand.astype(np.int64).copy()
    for cid in p.card_ids:
        out[cid] -= 1
    assert (out >= 0).all()
    return out.astype(np.uint8)


class Opponents:
    """What the opponents may hold: ``u`` (54 counts), ``w``, ``nat``."""

    def __init__(self, view, partner_known_out: bool = True, joker_pair_above: bool = True):
        self.joker_pair_above = joker_pair_above
        me = view.seat
        lv = view.rules.level_index
        u = view.pool.astype(np.int64).copy()
        for c in view.known[(me + 2) % 4] if partner_known_out else ():
            u[c.id] -= 1
        assert (u >= 0).all()
        self.u = u
        self.lv = lv
        wild = view.rules.wild.id
        self.wild = wild
        self.w = int(u[wild])
        nat = [0] * 15            # 0..12 ranks 2..A, 13 small joker, 14 big joker
        for cid in range(54):
            if cid == wild:
                continue
            nat[CARDS[cid].rank_index] += int(u[cid])
        self.nat = nat
        self.best_bomb = self._best_bomb()

    def _best_bomb(self) -> int:
        best = -1
        w, nat, lv = self.w, self.nat, self.lv
        for r in range(13):
            m = nat[r] + w
            if m >= 4:
                cls = m - 3 if m <= 5 else m - 2
                best = max(best, cls * 32 + single_order(r, lv))
        if nat[13] == 2 and nat[14] == 2:
            best = max(best, 9 * 32 + 15)
        if best < 4 * 32:
            for suit_card0 in range(4):        # card ids suit*13 + rank
                for top in range(3, 13):       # A-2-3-4-5 (top 5 = 3) .. 10-J-Q-K-A (top A = 12)
                    ranks = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
                    miss = 0
                    for r in ranks:
                        cid = suit_card0 * 13 + r
                        assert CARDS[cid].rank_index == r
                        if cid == self.wild or self.u[cid] == 0:
                            miss += 1
                    if miss <= w and miss < 5:
                        best = max(best, 3 * 32 + top)
        return best

    def beatable(self, p: Play) -> bool:
        """A non-bomb p could be beaten without a bomb."""
        assert not p.is_bomb
        k = rank_key(p)
        w, nat, lv = self.w, self.nat, self.lv
        t = p.type
        if t == "single":
            for r in range(15):
                if nat[r] > 0 and single_order(r, lv) > k:
                    return True
            return w > 0 and 13 > k
        if t in ("pair", "triple", "full_house"):
            need = 2 if t == "pair" else 3
            for r in range(13):
                if single_order(r, lv) > k and nat[r] + w >= need:
                    return True
            if t == "pair":
                # the text: "or (a pair only) a joker with nat >= 2", no order
                # asked of the joker; erratum "joker_pair_above": above k
                return any(nat[j] >= 2 and (not self.joker_pair_above or single_order(j, lv) > k)
                           for j in (13, 14))
            return False
        if t == "straight":
            for top in range(3, 13):
                if top <= k:
                    continue
                ranks = [12, 0, 1, 2, 3] if top == 3 else range(top - 4, top + 1)
                if sum(1 for r in ranks if nat[r] == 0) <= w:
                    return True
            return False
        if t in ("tube", "plate"):
            n, per = (3, 2) if t == "tube" else (2, 3)
            for top in range(n - 2, 13):
                if top <= k:
                    continue
                ranks = [(top - i) % 13 for i in range(n)]   # top-n+1 .. top, A below 2
                if sum(max(0, per - nat[r]) for r in ranks) <= w:
                    return True
            return False
        raise AssertionError(f"not a non-bomb type: {t}")

    def sure(self, p: Play) -> bool:
        if p.is_bomb:
            return self.best_bomb < strength(p)
        return not self.beatable(p)


def is_big(p: Play) -> bool:
    k, t = rank_key(p), p.type
    if t == "straight":
        return True
    if t == "single":
        return k >= 13
    if t == "pair":
        return k >= 12
    if t in ("triple", "full_house"):
        return k >= 10
    if t in ("tube", "plate"):
        return k >= 8
    return False


def is_low(p: Play) -> bool:
    k, t = rank_key(p), p.type
    if t == "single":
        return k < 12
    if t in ("pair", "triple", "full_house"):
        return k < 11
    if t in ("tube", "plate"):
        return k < 8
    if t == "straight":
        return k < 9
    return False


def hand_bombs(hand: np.ndarray, lv: int, wild: int) -> int:
    """Ranks with 4 natural cards or more (the wild not counted), plus the
    four jokers."""
    nat = [0] * 13
    for cid in range(52):
        if cid != wild:
            nat[CARDS[cid].rank_index] += int(hand[cid])
    return sum(1 for n in nat if n >= 4) + (1 if hand[SMALL_JOKER] == 2 and hand[BIG_JOKER] == 2
                                            else 0)


def breaks_bomb(p: Play, hand: np.ndarray, wild: int) -> bool:
    """A non-bomb p breaks a bomb of the hand: one of its cards is a natural
    card (not the wild) of a rank 2..A whose natural cards in the hand (the
    wild not counted) number 4 or more, or a joker while the hand holds all
    four jokers."""
    assert not p.is_bomb
    nat = [0] * 13
    for cid in range(52):
        if cid != wild:
            nat[CARDS[cid].rank_index] += int(hand[cid])
    four_jokers = hand[SMALL_JOKER] == 2 and hand[BIG_JOKER] == 2
    for cid in p.card_ids:
        if cid == wild:
            continue
        if cid in (SMALL_JOKER, BIG_JOKER):
            if four_jokers:
                return True
        elif nat[CARDS[cid].rank_index] >= 4:
            return True
    return False


def reference_choose(view, *, params: Optional[dict] = None,
                     trace: Optional[list] = None) -> Optional[Play]:
    """The house policy's decision at ``view`` (the play phase, the seat to
    act), from the text. ``params`` overrides thresholds (for the mutation
    check of the differential test); ``trace``, a list, receives the name
    of the rule that decided."""
    def done(rule: str, play: Optional[Play]) -> Optional[Play]:
        if trace is not None:
            trace.append(rule)
        return play

    P = {"lead_window": 16, "threat": 4, "wild_follow": 6, "bomb_out": 5, "two_bombs": 20,
         "big_sure": 15, "wild_bomb": 10, "slack_owner": 15,
         "shed_partner": 4, "sure_key": "order",
         "fall_through": True, "partner_known_out": True, "joker_pair_above": True,
         "break_bomb": True}
    if params:
        P.update(params)
    rules = view.rules
    lv = rules.level_index
    me = view.seat
    o1, pa, o3 = (me + 1) % 4, (me + 2) % 4, (me + 3) % 4
    counts = view.counts
    hand = view.hand_counts
    n_hand = int(hand.sum())
    table = view.table
    L = plays(hand, rules) if table is None else beating_plays(hand, table, rules)
    if not L:
        return done("no play", None)
    for p in L:
        if p.size == n_hand:
            return done("out", p)
    opp = Opponents(view, P["partner_known_out"], P["joker_pair_above"])
    mp_cache: dict = {}

    def mp_after(p: Play) -> int:
        key = p.card_ids
        if key not in mp_cache:
            mp_cache[key] = min_plays(minus(hand, p), rules)
        return mp_cache[key]

    mp0 = min_plays(hand, rules)

    def keeps(p: Play) -> bool:
        return mp_after(p) <= mp0 - 1

    def may_go_out_over(seat: int, p: Play) -> bool:
        return counts[seat] == p.size and not p.is_bomb and opp.beatable(p)

    non_bombs = [p for p in L if not p.is_bomb]
    bombs = [p for p in L if p.is_bomb]

    def breaks(p: Play) -> bool:
        return P["break_bomb"] and breaks_bomb(p, hand, rules.wild.id)

    if table is None:                                   # -- lead
        pc = counts[pa]
        if pc in (1, 2) and all(counts[o] > pc for o in (o1, o3) if counts[o] > 0):
            small = [p for p in non_bombs if p.wilds == 0 and p.size == pc]
            if small:
                return done("lead: partner short", min(small, key=rank_key))
        if not non_bombs:
            return done("lead: bombs only", min(L, key=strength))

        def lead_kind(p: Play) -> str:
            if may_go_out_over(o1, p) or may_go_out_over(o3, p):
                return "lead: go-out size"
            if mp0 <= 2 and opp.sure(p):
                return "lead: sure first"
            return "lead: plan"

        def order_key(p: Play) -> int:
            k = rank_key(p)
            kind = lead_kind(p)
            if kind == "lead: go-out size":
                key = 2 ** 24 + (p.wilds * 32 + 31 - k) * 16
            else:
                key = (p.wilds * 32 + 16 + k - (6 if p.type in LONG else 0)) * 16 + (15 - p.size)
                if kind == "lead: sure first":
                    # "its key less 2^16": read as its order key (see the module doc)
                    key = (key if P["sure_key"] == "order" else k) - 2 ** 16
            # "either way, 2^20 more when the play breaks a bomb"
            return key + (2 ** 20 if breaks(p) else 0)

        looked = sorted(non_bombs, key=order_key)[:P["lead_window"]]
        for p in looked:
            if keeps(p):
                return done(lead_kind(p), p)
        return done("lead: fewest plays left", min(looked, key=mp_after))

    owner = view.owner
    if owner == pa:                                     # -- follow the partner
        if may_go_out_over(o1, table):
            sure = [p for p in non_bombs if opp.sure(p)]
            if sure:
                return done("partner: sure against o1", min(sure, key=rank_key))
            if not P["fall_through"]:
                return done("partner: pass", None)
        if counts[pa] > P["shed_partner"] and is_low(table) and not opp.sure(table):
            shed = [p for p in non_bombs
                    if p.wilds == 0 and rank_key(p) < 12 and not breaks(p) and keeps(p)]
            if shed:
                return done("partner: shed", min(shed, key=rank_key))
        return done("partner: pass", None)

    oc = counts[owner]                                  # -- follow an opponent
    threat = oc <= P["threat"]
    partner_after = counts[pa] > 0 and owner != o1
    slack = 100 if threat else int(oc <= P["slack_owner"]) + int(not partner_after)
    cands = sorted((p for p in non_bombs
                    if not breaks(p) and (p.wilds == 0 or oc <= P["wild_follow"])),
                   key=lambda p: p.wilds * 64 + rank_key(p))
    if cands:
        best = next((p for p in cands if keeps(p)), None)
        if best is None:
            best = min(cands, key=mp_after)
        if mp_after(best) <= mp0 - 1 + slack:
            return done("opponent: keeps the plan" if keeps(best) else "opponent: slack", best)
    if not bombs:
        return done("opponent: pass, no bomb", None)
    b = min(bombs, key=lambda p: strength(p) * 4 + p.wilds)
    why = [("bomb: owner about out", oc <= P["bomb_out"]),
           ("bomb: two bombs", oc <= P["two_bombs"] and hand_bombs(hand, lv, rules.wild.id) >= 2),
           ("bomb: big or sure table", oc <= P["big_sure"] and (is_big(table) or opp.sure(table))),
           ("bomb: keeps the plan", (b.wilds == 0 or oc <= P["wild_bomb"]) and keeps(b)),
           ("bomb: runs out after", n_hand - b.size <= 10 and mp_after(b) <= 1)]
    for rule, ok in why:
        if ok:
            return done(rule, b)
    return done("opponent: pass, bomb kept", None)
