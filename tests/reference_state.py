"""Pure-Python reference of the play of a deal (RULES §6) and of
its result (sections 6 and 8).

Written from docs/rules.md only, as a test oracle for
``guandan_fast.game.state.GameState``; it imports nothing from
``guandan_fast``. Which cards form which plays and what beats what come from
tests/reference.py (RULES 1-5, 8), itself independent of the package.

Representation (plain data)
---------------------------
* card: a canonical token ('S3', 'HT', 'SB', 'HR'), as in reference.py.
* hands: four lists of tokens; seats 0..3, seat s+1 (mod 4) plays after s.
* a play is declared as (cards, type, rank); its *key* is (type, rank, size),
  the triple reference.beats compares; its *pattern* is reference.pattern's
  (type, rank, ranks-with-'W', suit).
* Deal: ``hands, level, turn, table`` (the standing key or None for a free
  lead), ``table_cards``, ``owner``, ``passes`` (passes in a row since the
  standing play), ``finished`` (seats out, in order), ``over``.

The rules as coded (RULES 6)
----------------------------
* The leader must play (RULES: "the leader plays any combination"); a pass is
  legal only when there is a standing play.
* A follower plays any play that beats the standing one (reference.beats) or
  passes. Seats without cards are skipped.
* After a play, the round ends when every *other* seat still holding cards has
  passed in a row. Nobody goes out by passing, so that set does not change
  during the passes. The owner of the standing play then leads; if the owner
  has no cards left, the owner's partner leads (接风) -- the partner, not the
  next seat in turn.
* A seat that plays its last card is finished (appended to ``finished``); the
  deal ends at once when both seats of one team are finished (hence after two
  or three seats are out), and no action is legal afterwards.
* Result (RULES 6 and 8): the team of the first finisher wins and goes up 3
  levels if the partner finished second, 2 if third, 1 if last (not out when
  the deal ended); the other team does not move. ``result()`` is team 0's
  signed gain (RULES 8, "+3..-3"), ``gains()`` the two teams' level rises.

Where docs/rules.md is silent, and limits (choices made here)
-------------------------------------------------------
* Nothing in section 6 lets the leader pass; a pass on a free lead is
  illegal here.
* 接风 when the partner is also out cannot arise: the deal is over then.
* The order among the seats still holding cards when the deal ends is not
  defined (only ``finished`` is); the result needs only the first finisher
  and whether the partner is second, third or not out ("last").
* "Levels stop at A" and the match win at A are match rules, outside a deal:
  ``next_levels`` applies the gain capped at A for completeness, but a deal's
  result here is the gain itself.
* Flag ``flush_is_always_bomb`` is handled only by the exhaustive move list
  (reference.plays); the fast per-rank list used for 27-card hands supports
  ``joker_pair_in_full_house`` only.
"""

from __future__ import annotations

import random
from collections import Counter

import reference as ref

__all__ = ["Deal", "partner", "team", "deal_result", "deal_gains",
           "next_levels", "fast_keys", "realize_key", "realize_pattern",
           "key_of_pattern", "random_deal", "exchange_plan", "tribute_choices",
           "return_choices"]

SEATS = (0, 1, 2, 3)


def partner(seat):
    return (seat + 2) % 4


def team(seat):
    return seat % 2


def deal_over(finished):
    """Both seats of one team are out."""
    out = set(finished)
    return {0, 2} <= out or {1, 3} <= out


def deal_gains(finished):
    """(team 0's rise, team 1's rise) for a finishing order of a finished
    deal (RULES 6), or None while the deal goes on."""
    if not deal_over(finished):
        return None
    first = finished[0]
    mate = partner(first)
    if mate in finished:
        place = finished.index(mate)          # 1 = second, 2 = third
        rise = {1: 3, 2: 2}[place]
    else:
        rise = 1                              # the partner is last
    return (rise, 0) if team(first) == 0 else (0, rise)


def deal_result(finished):
    """Team 0's signed level gain (RULES 8): +3..+1 or -1..-3, None while
    the deal goes on."""
    g = deal_gains(finished)
    if g is None:
        return None
    return g[0] - g[1]


def next_levels(levels, finished):
    """Team levels (rank chars) after a deal: the winner goes up by its
    rise, stopping at A (RULES 6)."""
    g = deal_gains(finished)
    return tuple(ref.RANKS[min(ref.RANKS.index(lv) + d, len(ref.RANKS) - 1)]
                 for lv, d in zip(levels, g))


# ---------------------------------------------------------------------------
# Moves of a hand
# ---------------------------------------------------------------------------

def key_of_pattern(p):
    t, r, ranks, _suit = p
    return (t, r, len(ranks))


def _split(hand, level):
    """(wild tokens, {rank: natural tokens}) of a hand; the jokers are under
    'B' and 'R'."""
    wild = "H" + level
    wilds = [c for c in hand if c == wild]
    nat = {}
    for c in hand:
        if c != wild:
            nat.setdefault(c[1], []).append(c)
    return wilds, nat


def fast_keys(hand, level, joker_pair_in_full_house=False):
    """Every (type, rank, size) the hand can play, counted per rank (for
    27-card hands, where reference.plays is too slow). The test checks it
    against reference.plays on small hands. A wild stands for any non-joker
    card, but a play of wilds only is a level single or pair (RULES 2)."""
    wilds, nat_cards = _split(hand, level)
    w = len(wilds)
    nat = Counter({r: len(v) for r, v in nat_cards.items()})
    keys = set()
    for r in ref.RANKS:
        # a wild alone, or two wilds alone, are level cards only
        some = nat[r] >= 1 or r == level
        if some and nat[r] + w >= 1:
            keys.add(("single", r, 1))
        if some and nat[r] + w >= 2:
            keys.add(("pair", r, 2))
        if nat[r] >= 1 and nat[r] + w >= 3:
            keys.add(("triple", r, 3))
        for n in range(4, 11):
            if nat[r] >= 1 and nat[r] + w >= n:
                keys.add(("bomb", r, n))
    for j in "BR":
        if nat[j] >= 1:
            keys.add(("single", j, 1))
        if nat[j] >= 2:
            keys.add(("pair", j, 2))
    if nat["B"] == 2 and nat["R"] == 2:
        keys.add(("joker_bomb", "R", 4))
    # full house: triple t (no jokers) + pair p of another rank
    pair_ranks = list(ref.RANKS) + (list("BR") if joker_pair_in_full_house else [])
    for t in ref.RANKS:
        a = max(0, 3 - nat[t])
        for p in pair_ranks:
            if p == t:
                continue
            b = max(0, 2 - nat[p]) if p in ref.RANKS else (0 if nat[p] >= 2 else 99)
            if a + b <= w:
                keys.add(("full_house", t, 5))
    # sequences: every window of 'A23456789TJQKA'
    for typ, width, length in (("straight", 1, 5), ("tube", 2, 3), ("plate", 3, 2)):
        for i in range(len(ref.SEQ) - length + 1):
            win = ref.SEQ[i:i + length]
            if sum(max(0, width - nat[r]) for r in win) <= w:
                keys.add((typ, win[-1], width * length))
    for s in ref.SUITS:
        for i in range(len(ref.SEQ) - 4):
            win = ref.SEQ[i:i + 5]
            missing = sum(1 for r in win if (s + r) not in nat_cards.get(r, ()))
            if missing <= w:
                keys.add(("straight_flush", win[-1], 5))
    return keys


def _take(rng, cards, k):
    return rng.sample(cards, k)


def realize_key(rng, hand, level, key, joker_pair_in_full_house=False):
    """Random concrete cards from `hand` for the play `key` (None if the hand
    cannot make it). Each choice among the possible cards is random, wilds
    used in place of naturals included."""
    t, r, n = key
    wilds, nat = _split(hand, level)
    w = len(wilds)
    have = lambda q: nat.get(q, [])

    def group(q, size, allow_all_wild):
        if q in "BR":
            return _take(rng, have(q), size) if len(have(q)) >= size else None
        lo = max(size - w, 0 if allow_all_wild else 1)
        hi = min(size, len(have(q)))
        if lo > hi:
            return None
        k = rng.randint(lo, hi)
        return _take(rng, have(q), k) + wilds[:size - k]

    if t in ("single", "pair", "triple", "bomb"):
        return group(r, n, r == level and n <= 2)
    if t == "joker_bomb":
        return ["SB", "SB", "HR", "HR"] if len(have("B")) == 2 and len(have("R")) == 2 else None
    if t == "full_house":
        options = []
        pair_ranks = list(ref.RANKS) + (list("BR") if joker_pair_in_full_house else [])
        for p in pair_ranks:
            if p == r:
                continue
            for a in range(0, min(3, w) + 1):
                for b in range(0, (min(2, w - a) if p in ref.RANKS else 0) + 1):
                    if 3 - a <= len(have(r)) and 2 - b <= len(have(p)):
                        options.append((p, a, b))
        if not options:
            return None
        p, a, b = rng.choice(options)
        return (_take(rng, have(r), 3 - a) + _take(rng, have(p), 2 - b) + wilds[:a + b])
    if t in ("straight", "tube", "plate", "straight_flush"):
        width = {"straight": 1, "straight_flush": 1, "tube": 2, "plate": 3}[t]
        length = n // width
        # the window whose top is r ('5' -> A2345, 'A' -> TJQKA)
        wins = [ref.SEQ[j:j + length] for j in range(len(ref.SEQ) - length + 1)
                if ref.SEQ[j + length - 1] == r]
        if not wins:
            return None
        win = wins[0]
        suits = list(ref.SUITS) if t == "straight_flush" else [None]
        rng.shuffle(suits)
        for s in suits:
            pool = {q: [c for c in have(q) if s is None or c[0] == s] for q in win}
            # every way of spending wilds on the ranks of the window
            plans = [[]]
            for q in win:
                plans = [pl + [u] for pl in plans for u in range(width + 1)
                         if width - u <= len(pool[q]) and sum(pl) + u <= w]
            if plans:
                plan = rng.choice(plans)
                out = []
                for q, u in zip(win, plan):
                    out += _take(rng, pool[q], width - u)
                return out + wilds[:sum(plan)]
        return None
    raise ValueError(f"unknown type {t!r}")


def realize_pattern(rng, hand, level, pat):
    """Random concrete cards from `hand` with the pattern `pat`: 'W' is a
    wild; other ranks any card of that rank (of the flush's suit for a
    straight flush), never a wild."""
    t, r, ranks, suit = pat
    wild = "H" + level
    pool = [c for c in hand]
    out = []
    for q in ranks:
        if q == "W":
            cands = [c for c in pool if c == wild]
        else:
            cands = [c for c in pool if c != wild and c[1] == q and (suit is None or c[0] == suit)]
        c = rng.choice(cands)
        pool.remove(c)
        out.append(c)
    return out


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------

class Deal:
    """The play of a deal by RULES 6 (see the module docstring)."""

    def __init__(self, hands, level, leader=0, joker_pair_in_full_house=False,
                 flush_is_always_bomb=False, exhaustive=True):
        assert len(hands) == 4 and all(hands), "four non-empty hands"
        assert leader in SEATS
        self.level = level
        self.flags = {"joker_pair_in_full_house": joker_pair_in_full_house,
                      "flush_is_always_bomb": flush_is_always_bomb}
        if flush_is_always_bomb and not exhaustive:
            raise ValueError("the fast move list does not handle flush_is_always_bomb")
        self.exhaustive = exhaustive
        self.hands = [list(h) for h in hands]
        self.turn = leader
        self.table = None           # the standing key (type, rank, size)
        self.table_cards = None
        self.owner = None
        self.passes = 0
        self.finished = []
        self.events = []            # what happened at the last step (for coverage)

    # --- queries ---------------------------------------------------------
    @property
    def over(self):
        return deal_over(self.finished)

    def active(self):
        return [s for s in SEATS if self.hands[s]]

    def next_active(self, seat):
        for d in (1, 2, 3, 4):
            s = (seat + d) % 4
            if self.hands[s]:
                return s
        return None

    def hand_patterns(self):
        """Every pattern the seat to act can play, table ignored
        (exhaustive mode only)."""
        return ref.plays(self.hands[self.turn], self.level, **self.flags)

    def hand_keys(self):
        if self.exhaustive:
            return {key_of_pattern(p) for p in self.hand_patterns()}
        return fast_keys(self.hands[self.turn], self.level,
                         self.flags["joker_pair_in_full_house"])

    def allowed(self, key):
        return self.table is None or ref.beats(key, self.table, self.level)

    def legal_patterns(self):
        """Legal patterns (exhaustive mode), None for a pass when following."""
        if self.over:
            return set()
        out = {p for p in self.hand_patterns() if self.allowed(key_of_pattern(p))}
        if self.table is not None:
            out.add(None)
        return out

    def legal_keys(self):
        """Legal (type, rank, size), None for a pass when following."""
        if self.over:
            return set()
        out = {k for k in self.hand_keys() if self.allowed(k)}
        if self.table is not None:
            out.add(None)
        return out

    def result(self):
        return deal_result(self.finished)

    def gains(self):
        return deal_gains(self.finished)

    # --- actions ---------------------------------------------------------
    def play(self, cards, type_, rank):
        """The seat to act plays `cards` declared as (type_, rank)."""
        assert not self.over, "the deal is over"
        cards = list(cards)
        hand = self.hands[self.turn]
        have = Counter(hand)
        assert all(have[c] >= k for c, k in Counter(cards).items()), "cards not held"
        readings = ref.classify(cards, self.level, **self.flags)
        assert any(t == type_ and r == rank for t, r, _s in readings), \
            f"{cards} is not a {type_} {rank}"
        key = (type_, rank, len(cards))
        assert self.allowed(key), f"{key} does not beat {self.table}"
        for c in cards:
            hand.remove(c)
        self.events = ["play"]
        self.table, self.table_cards = key, sorted(cards)
        self.owner, self.passes = self.turn, 0
        if not hand:
            self.finished.append(self.turn)
            self.events.append("out")
            if type_ in ref.BOMB_TYPES:
                self.events.append("out_by_bomb")
        if self.over:
            self.events.append("over")
            self.turn = None
            return
        self.turn = self.next_active(self.turn)

    def pass_(self):
        assert not self.over, "the deal is over"
        assert self.table is not None, "a pass on a free lead"
        self.events = ["pass"]
        self.passes += 1
        others = [s for s in self.active() if s != self.owner]
        if self.passes == len(others):
            # the round ends: the owner leads, or the partner (接风)
            self.events.append("round_end")
            if self.hands[self.owner]:
                self.turn = self.owner
            else:
                self.turn = partner(self.owner)
                self.events.append("jiefeng")
                if self.next_active(self.owner) != self.turn:
                    self.events.append("jiefeng_skip")   # not the next seat
            self.table = self.table_cards = self.owner = None
            self.passes = 0
        else:
            self.turn = self.next_active(self.turn)


def random_deal(rng: random.Random, sizes, level, biased=False):
    """Four hands of the given sizes dealt from one 108-card deck (no card
    more than twice in the deal). `biased` plants, in each hand, random
    pieces (a bomb with or without a wild, a same-suit run, a tube, a pair,
    jokers) before dealing the rest with wilds and jokers weighted up, so
    that bombs, straight flushes and wild plays are common."""
    deck = Counter({t: 2 for t in ref.TOKENS})
    wild = "H" + level

    def draw(pred, k):
        pool = [t for t in sorted(deck) for _ in range(deck[t]) if pred(t)]
        got = rng.sample(pool, min(k, len(pool)))
        for t in got:
            deck[t] -= 1
        return got

    hands = []
    for n in sizes:
        hand = []
        while biased and len(hand) < n and rng.random() < 0.75:
            piece = rng.choice(("bomb", "bomb", "flush", "tube", "pair", "jokers", "wild"))
            room = n - len(hand)
            if piece == "bomb":
                r = rng.choice(ref.RANKS)
                hand += draw(lambda t: t[1] == r and t != wild, min(room, rng.randint(3, 6)))
            elif piece == "flush":
                st = rng.randrange(len(ref.SEQ) - 4)
                su = rng.choice(ref.SUITS)
                win = ref.SEQ[st:st + 5]
                for q in rng.sample(win, rng.randint(3, 5)):
                    if len(hand) < n:
                        hand += draw(lambda t: t == su + q, 1)
            elif piece == "tube":
                st = rng.randrange(len(ref.SEQ) - 2)
                for q in ref.SEQ[st:st + 3]:
                    hand += draw(lambda t: t[1] == q, min(2, n - len(hand)))
            elif piece == "pair":
                r = rng.choice(ref.RANKS)
                hand += draw(lambda t: t[1] == r, min(room, 2))
            elif piece == "jokers":
                hand += draw(lambda t: t in ("SB", "HR"), min(room, rng.randint(1, 4)))
            else:
                hand += draw(lambda t: t == wild, min(room, rng.randint(1, 2)))
        while len(hand) < n:
            pool = [t for t in sorted(deck) for _ in range(deck[t])]
            weights = [6.0 if t == wild else 2.0 if t in ("SB", "HR") else 1.0 for t in pool]
            t = rng.choices(pool, weights=weights)[0]
            deck[t] -= 1
            hand.append(t)
        rng.shuffle(hand)
        hands.append(hand[:n])
    return hands


# ---------------------------------------------------------------------------
# The exchange before a deal (RULES 7)
# ---------------------------------------------------------------------------
#
# Written from RULES 7 and the decisions the package documents where RULES
# leaves a choice (the order of the two payments: the one to the first
# finisher first; flag equal_tribute_to_upper_hand off: the finishing order
# decides, the last paying the first and the third the second, and the last
# leads; flag no_tribute_when_partner_last: nothing paid, the first finisher
# leads; a return never gives a wild while another card is left).

def _wild(level):
    return "H" + level


def tribute_choices(hand, level):
    """The cards a payer may give: the highest rank in single-card order
    among the non-wild cards, every suit of it held (sorted tokens)."""
    pool = [c for c in hand if c != _wild(level)]
    if not pool:
        return []
    top = max(ref.order(c[1], level) for c in pool)
    return sorted({c for c in pool if ref.order(c[1], level) == top})


def return_choices(hand, level):
    """The cards a receiver may give back: any card of face 2..10 not of the
    level rank; else the lowest card (a wild only when nothing else is left)."""
    face = sorted({c for c in hand if c[1] in "23456789T" and c[1] != level})
    if face:
        return face
    pool = [c for c in hand if c != _wild(level)] or list(hand)
    if not pool:
        return []
    low = min(ref.order(c[1], level) for c in pool)
    return sorted({c for c in pool if ref.order(c[1], level) == low})


def exchange_plan(previous, hands, level, equal_tribute_to_upper_hand=True,
                  no_tribute_when_partner_last=False):
    """(payments, anti, leader) for the previous finishing order: the
    (payer, receiver) pairs in the order they are paid, whether the paying
    side holds both big jokers, and who leads the play."""
    first, second, third, last = previous
    if partner(first) == second:                    # double down
        payers = [third, last]
    elif no_tribute_when_partner_last and last == partner(first):
        return [], False, first
    else:
        payers = [last]
    if sum(hands[p].count("HR") for p in payers) >= 2:
        return [], True, first                      # anti-tribute
    if len(payers) == 1:
        return [(last, first)], False, last
    o3 = ref.order(tribute_choices(hands[third], level)[0][1], level)
    o4 = ref.order(tribute_choices(hands[last], level)[0][1], level)
    if o3 > o4:
        return [(third, first), (last, second)], False, third
    if o4 > o3:
        return [(last, first), (third, second)], False, last
    if equal_tribute_to_upper_hand:
        pays = [(third, (third - 1) % 4), (last, (last - 1) % 4)]
        pays.sort(key=lambda pq: pq[1] != first)
        return pays, False, pays[0][0]
    return [(last, first), (third, second)], False, last

