"""Pure-Python reference implementation of the Guandan combination rules.

Written only from docs/rules.md (sections 1-5 and 8); it is a test
oracle for the compiled engine, so it favours obvious correctness over speed.

Representation
--------------
* card: canonical token, suit letter then rank ('S3', 'HT', 'DA', 'C2');
  jokers 'SB' (small, rank 'B') and 'HR' (big, rank 'R').
* level: rank char '2'..'A'.  The wilds are the hearts of the level rank,
  i.e. the token 'H' + level (at most two copies in a hand).
* reading: (type, rank, suit); suit is the suit letter for a straight_flush,
  None otherwise.  rank is the key char of RULES section 3 (a sequence's top
  card; 'R' for the joker bomb).
* pattern: (type, rank, ranks, suit); ranks = the rank chars of the cards
  used, every wild (heart level card) written 'W', sorted by the index in
  '23456789TJQKABRW'.

Public functions
----------------
classify(cards, level, joker_pair_in_full_house=False, flush_is_always_bomb=False)
classify_bruteforce(...)   literal 52-card substitution, same signature (slow)
pattern(cards, reading, level)
plays(hand, level, **flags)
order(rank_char, level)
beats(a, b, level)          a, b = (type, rank, size)
min_plays(hand, level, **flags)
random_hand(rng, n, level)
random_rich_hand(rng, n, level)
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement, product

__all__ = [
    "RANKS", "SUITS", "TOKENS", "NON_JOKER_CARDS", "TYPES", "BOMB_TYPES",
    "classify", "classify_bruteforce", "pattern", "plays", "order", "beats",
    "min_plays", "random_hand", "random_rich_hand", "wild_token",
]

# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

RANKS = "23456789TJQKA"            # natural ranks, natural order
SUITS = "SHCD"
SMALL_JOKER = "SB"
BIG_JOKER = "HR"
JOKER_RANKS = "BR"
NON_JOKER_CARDS = tuple(s + r for s in SUITS for r in RANKS)   # 52 cards
TOKENS = NON_JOKER_CARDS + (SMALL_JOKER, BIG_JOKER)             # 54 tokens
_TOKEN_SET = frozenset(TOKENS)

TYPES = ("single", "pair", "triple", "full_house", "straight", "tube",
         "plate", "straight_flush", "bomb", "joker_bomb")
BOMB_TYPES = frozenset({"bomb", "straight_flush", "joker_bomb"})

PATTERN_ORDER = "23456789TJQKABRW"  # sort order of the ranks in a pattern
_RANK_SORT = "23456789TJQKABR"      # sort order used internally for ranks

# Sequences: A is low (A2345) or high (TJQKA), never both, never wrapping.
# Every legal run is a window of consecutive chars of this string.
SEQ = "A" + RANKS                   # 'A23456789TJQKA'
MAX_PLAY_SIZE = 10                  # the biggest combination is a 10-card bomb


def wild_token(level: str) -> str:
    """The wild card of a level: the heart of the level rank."""
    _check_level(level)
    return "H" + level


def _check_level(level):
    if not isinstance(level, str) or len(level) != 1 or level not in RANKS:
        raise ValueError(f"bad level {level!r}: expected one of {RANKS}")


def _check_cards(cards, max_copies=2):
    cards = list(cards)
    for i, c in enumerate(cards):
        if c not in _TOKEN_SET:
            raise ValueError(f"unknown card token {c!r} at position {i}")
    for tok, k in Counter(cards).items():
        if k > max_copies:
            raise ValueError(f"card {tok!r} appears {k} times (at most {max_copies})")
    return cards


def _rank_key(r):
    return _RANK_SORT.index(r)


# ---------------------------------------------------------------------------
# Natural classification (no wilds: every card is exactly what it shows)
# ---------------------------------------------------------------------------

def _runs_table(width, length):
    """{sorted rank tuple: top rank} for every run of `length` consecutive
    ranks (a window of SEQ) with each rank present `width` times."""
    table = {}
    for i in range(len(SEQ) - length + 1):
        window = SEQ[i:i + length]
        key = tuple(sorted((r for r in window for _ in range(width)), key=_RANK_SORT.index))
        table[key] = window[-1]
    return table


_RUNS = {(1, 5): _runs_table(1, 5),   # straights A2345 .. TJQKA
         (2, 3): _runs_table(2, 3),   # tubes AA2233 .. QQKKAA
         (3, 2): _runs_table(3, 2)}   # plates AAA222 .. KKKAAA


def _run_top(ranks, width, length):
    """If `ranks` (a multiset of rank chars) is `length` consecutive ranks
    each present exactly `width` times, return the top rank char of the run
    (A-low runs have a low top), else None."""
    return _RUNS[(width, length)].get(tuple(sorted(ranks, key=_RANK_SORT.index)))


@lru_cache(maxsize=None)
def _natural_rank_readings(ranks, joker_pair_in_full_house):
    """Readings (type, rank) other than straight_flush of natural cards given
    by their sorted tuple of rank chars ('B'/'R' for jokers).  Every type but
    the straight flush depends only on the ranks."""
    n = len(ranks)
    cnt = Counter(ranks)
    out = set()
    jokers = cnt["B"] + cnt["R"]
    # single
    if n == 1:
        out.add(("single", ranks[0]))
    # pair: 2 of one rank; two small or two big jokers also pair
    if n == 2 and len(cnt) == 1:
        out.add(("pair", ranks[0]))
    # triple: 3 of one rank, no jokers
    if n == 3 and len(cnt) == 1 and jokers == 0:
        out.add(("triple", ranks[0]))
    # full house: triple (no jokers) + pair of another rank; joker pair only
    # with the flag (and a pair of jokers is two small or two big)
    if n == 5 and sorted(cnt.values()) == [2, 3]:
        triple_rank = next(r for r, k in cnt.items() if k == 3)
        pair_rank = next(r for r, k in cnt.items() if k == 2)
        if triple_rank not in JOKER_RANKS:
            if pair_rank not in JOKER_RANKS or joker_pair_in_full_house:
                out.add(("full_house", triple_rank))
    # straight: exactly 5 consecutive natural ranks, no jokers
    if n == 5 and jokers == 0:
        top = _run_top(ranks, 1, 5)
        if top is not None:
            out.add(("straight", top))
    # tube: exactly 3 consecutive pairs; plate: exactly 2 consecutive triples
    if n == 6 and jokers == 0:
        top = _run_top(ranks, 2, 3)
        if top is not None:
            out.add(("tube", top))
        top = _run_top(ranks, 3, 2)
        if top is not None:
            out.add(("plate", top))
    # bomb: 4..10 cards of one rank, no jokers
    if 4 <= n <= 10 and len(cnt) == 1 and jokers == 0:
        out.add(("bomb", ranks[0]))
    # joker bomb: exactly the four jokers
    if cnt == Counter({"B": 2, "R": 2}) and n == 4:
        out.add(("joker_bomb", "R"))
    return frozenset(out)


def _natural_token_readings(tokens, joker_pair_in_full_house):
    """All readings of natural cards given as tokens (wilds already replaced)."""
    ranks = tuple(sorted((t[1] for t in tokens), key=_rank_key))
    out = {(t, r, None) for (t, r) in _natural_rank_readings(ranks, joker_pair_in_full_house)}
    # straight flush: a straight in one suit (jokers are never in a straight)
    if len(tokens) == 5 and all(t[1] not in JOKER_RANKS for t in tokens):
        suits = {t[0] for t in tokens}
        if len(suits) == 1:
            top = _run_top(ranks, 1, 5)
            if top is not None:
                out.add(("straight_flush", top, suits.pop()))
    return out


def _apply_flush_flag(readings, flush_is_always_bomb):
    """RULES section 5 flag, project interpretation: with
    flush_is_always_bomb, a straight reading with top T is dropped whenever the
    same cards also have a straight_flush reading with top T."""
    if not flush_is_always_bomb:
        return set(readings)
    sf_tops = {r for (t, r, s) in readings if t == "straight_flush"}
    return {rd for rd in readings if not (rd[0] == "straight" and rd[1] in sf_tops)}


# ---------------------------------------------------------------------------
# classify
# ---------------------------------------------------------------------------

def classify_bruteforce(cards, level, joker_pair_in_full_house=False,
                        flush_is_always_bomb=False):
    """Literal brute force: every wild is tried as every one of the 52
    non-joker cards (itself included), except when all cards are wilds, then
    they are only themselves.  Slow (52**2 substitutions for two wilds); used
    to cross-check `classify`."""
    _check_level(level)
    cards = _check_cards(cards)
    if not cards:
        return set()
    wild = "H" + level
    pos = [i for i, c in enumerate(cards) if c == wild]
    options = [wild] if len(pos) == len(cards) else list(NON_JOKER_CARDS)
    out = set()
    for subs in product(options, repeat=len(pos)):
        nat = list(cards)
        for p, s in zip(pos, subs):
            nat[p] = s
        out |= _natural_token_readings(nat, joker_pair_in_full_house)
    return _apply_flush_flag(out, flush_is_always_bomb)


@lru_cache(maxsize=None)
def _rank_readings_with_wilds(nat_ranks, w, level, joker_pair_in_full_house):
    """Non-straight-flush readings (type, rank) of natural cards with the
    sorted rank tuple `nat_ranks` plus `w` wilds: each wild is tried as each
    of the 13 natural ranks (as the level rank only, when there are no
    natural cards)."""
    rank_options = [level] if not nat_ranks else list(RANKS)
    out = set()
    for subs in combinations_with_replacement(rank_options, w):
        ranks = tuple(sorted(nat_ranks + subs, key=_rank_key))
        out |= _natural_rank_readings(ranks, joker_pair_in_full_house)
    return frozenset(out)


@lru_cache(maxsize=None)
def _classify_sorted(key, level, joker_pair_in_full_house, flush_is_always_bomb):
    """classify() on a sorted tuple of valid tokens.

    Same result as classify_bruteforce, computed with two obvious reductions:
    * every type except straight_flush depends only on ranks, so for those a
      wild is tried as each of the 13 natural ranks (the suit is irrelevant),
      and as the two wilds are interchangeable, unordered choices suffice;
    * a straight flush in suit s needs every card to be of suit s, so for it a
      wild is tried only as the 13 cards of suit s (one of which is itself
      when s is hearts)."""
    n = len(key)
    if n == 0 or n > MAX_PLAY_SIZE:
        return frozenset()
    wild = "H" + level
    naturals = [c for c in key if c != wild]
    w = n - len(naturals)
    nat_ranks = [c[1] for c in naturals]
    all_wild = not naturals
    out = {(t, r, None) for (t, r) in _rank_readings_with_wilds(
        tuple(sorted(nat_ranks, key=_rank_key)), w, level, joker_pair_in_full_house)}
    if n == 5:
        for s in SUITS:
            if not all(c[0] == s and c[1] not in JOKER_RANKS for c in naturals):
                continue
            if all_wild:   # (cannot happen with 5 cards; kept for clarity)
                sf_options = [level] if s == "H" else []
            else:
                sf_options = list(RANKS)
            for subs in combinations_with_replacement(sf_options, w):
                top = _run_top(nat_ranks + list(subs), 1, 5)
                if top is not None:
                    out.add(("straight_flush", top, s))
    return frozenset(_apply_flush_flag(out, flush_is_always_bomb))


def classify(cards, level, joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """Every valid reading (type, rank, suit) of exactly these cards."""
    _check_level(level)
    cards = _check_cards(cards)
    key = tuple(sorted(cards))
    return set(_classify_sorted(key, level, bool(joker_pair_in_full_house),
                                bool(flush_is_always_bomb)))


# ---------------------------------------------------------------------------
# patterns and plays
# ---------------------------------------------------------------------------

def pattern(cards, reading, level):
    """(type, rank, ranks, suit) of a play: ranks are the cards' rank chars,
    every heart level card written 'W', sorted by '23456789TJQKABRW'."""
    _check_level(level)
    wild = "H" + level
    ranks = tuple(sorted(("W" if c == wild else c[1] for c in cards),
                         key=PATTERN_ORDER.index))
    t, r, s = reading
    return (t, r, ranks, s)


def _sub_multisets(hand):
    """Yield every distinct non-empty sub-multiset of `hand` with at most
    MAX_PLAY_SIZE cards, as a sorted tuple of tokens."""
    counts = Counter(hand)
    distinct = sorted(counts)
    for mult in product(*(range(counts[t] + 1) for t in distinct)):
        k = sum(mult)
        if k == 0 or k > MAX_PLAY_SIZE:
            continue
        yield tuple(t for t, m in zip(distinct, mult) for _ in range(m))


def plays(hand, level, joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """All patterns of all non-empty sub-multisets of the hand that have at
    least one reading (each reading listed separately)."""
    _check_level(level)
    hand = _check_cards(hand)
    jp, fb = bool(joker_pair_in_full_house), bool(flush_is_always_bomb)
    out = set()
    for sub in _sub_multisets(hand):
        for rd in _classify_sorted(sub, level, jp, fb):
            out.add(pattern(sub, rd, level))
    return out


# ---------------------------------------------------------------------------
# order and beats
# ---------------------------------------------------------------------------

def order(rank_char, level):
    """Single-card order: 2 < 3 < ... < A < level < B < R (the level rank
    leaves its natural place).  Returns 0..14."""
    _check_level(level)
    seq = [r for r in RANKS if r != level] + [level, "B", "R"]
    if rank_char not in seq:
        raise ValueError(f"bad rank {rank_char!r}")
    return seq.index(rank_char)


def _natural_index(rank_char):
    if rank_char not in RANKS:
        raise ValueError(f"bad sequence rank {rank_char!r}")
    return RANKS.index(rank_char)


def _bomb_class(t, size):
    """Strength class among bombs: 4 < 5 < straight flush < 6 < 7 < 8 < 9 <
    10 < joker bomb."""
    if t == "joker_bomb":
        return 100
    if t == "straight_flush":
        return 5.5
    if t == "bomb":
        if not 4 <= size <= 10:
            raise ValueError(f"bad bomb size {size}")
        return size
    raise ValueError(f"not a bomb type {t!r}")


_SEQUENCE_TYPES = frozenset({"straight", "tube", "plate"})
_ORDER_TYPES = frozenset({"single", "pair", "triple", "full_house"})


def beats(a, b, level):
    """Does play a = (type, rank, size) beat play b (RULES section 4)?"""
    _check_level(level)
    ta, ra, na = a
    tb, rb, nb = b
    for t in (ta, tb):
        if t not in TYPES:
            raise ValueError(f"unknown type {t!r}")
    a_bomb, b_bomb = ta in BOMB_TYPES, tb in BOMB_TYPES
    if a_bomb and not b_bomb:
        return True
    if b_bomb and not a_bomb:
        return False
    if a_bomb and b_bomb:
        ca, cb = _bomb_class(ta, na), _bomb_class(tb, nb)
        if ca != cb:
            return ca > cb
        if ta == "joker_bomb":
            return False                      # equal plays never beat
        if ta == "straight_flush":
            return _natural_index(ra) > _natural_index(rb)
        return order(ra, level) > order(rb, level)
    # two non-bombs: same type and same size, higher rank
    if ta != tb or na != nb:
        return False
    if ta in _SEQUENCE_TYPES:
        return _natural_index(ra) > _natural_index(rb)
    return order(ra, level) > order(rb, level)


# ---------------------------------------------------------------------------
# minimum plays
# ---------------------------------------------------------------------------

def min_plays(hand, level, joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """Least number of plays (any valid readings, bombs included) into which
    the whole hand can be partitioned (RULES section 8)."""
    _check_level(level)
    hand = _check_cards(hand)
    if not hand:
        return 0
    jp, fb = bool(joker_pair_in_full_house), bool(flush_is_always_bomb)
    counts = Counter(hand)
    distinct = sorted(counts)
    full = tuple(counts[t] for t in distinct)
    d = len(distinct)

    # Every sub-multiset with at least one reading, as a count vector,
    # grouped by the index of its first card (in the fixed order `distinct`).
    valid_by_first = [[] for _ in range(d)]
    for mult in product(*(range(k + 1) for k in full)):
        k = sum(mult)
        if k == 0 or k > MAX_PLAY_SIZE:
            continue
        sub = tuple(t for t, m in zip(distinct, mult) for _ in range(m))
        if _classify_sorted(sub, level, jp, fb):
            first = next(i for i, m in enumerate(mult) if m)
            valid_by_first[first].append(mult)

    @lru_cache(maxsize=None)
    def best(rem):
        # the first remaining card must be in some play: try every valid
        # play that contains it and fits in what remains
        first = next((i for i, m in enumerate(rem) if m), None)
        if first is None:
            return 0
        result = None
        for mult in valid_by_first[first]:
            if all(m <= r for m, r in zip(mult, rem)):
                rest = tuple(r - m for r, m in zip(rem, mult))
                v = 1 + best(rest)
                if result is None or v < result:
                    result = v
        return result   # never None: the first card alone is a single

    return best(full)


# ---------------------------------------------------------------------------
# random hands
# ---------------------------------------------------------------------------

def random_hand(rng: random.Random, n: int, level: str):
    """n cards drawn from the 108-card double deck (each token twice)."""
    _check_level(level)
    deck = [t for t in TOKENS for _ in range(2)]
    return rng.sample(deck, n)


def random_rich_hand(rng: random.Random, n: int, level: str):
    """n cards (at most 2 copies of a token) biased toward hard cases:
    wilds, runs, same-suit runs, pairs/triples in sequence, near-bombs,
    jokers, and level cards."""
    _check_level(level)
    if not 0 <= n <= 108:
        raise ValueError("n out of range")
    wild = "H" + level
    counts = Counter()
    hand = []

    def add(tok):
        if len(hand) < n and counts[tok] < 2:
            counts[tok] += 1
            hand.append(tok)

    def run(length, width, same_suit):
        start = rng.randrange(len(SEQ) - length + 1)
        suit = rng.choice(SUITS)
        for r in SEQ[start:start + length]:
            for _ in range(width):
                add((suit if same_suit else rng.choice(SUITS)) + r)

    def comp_wilds():
        for _ in range(rng.choice((1, 2, 2))):
            add(wild)

    def comp_straight():
        run(rng.choice((3, 4, 5, 5)), 1, False)

    def comp_flush_run():
        run(rng.choice((4, 5, 5)), 1, True)

    def comp_tube():
        run(rng.choice((2, 3)), 2, False)

    def comp_plate():
        run(2, rng.choice((2, 3)), False)

    def comp_near_bomb():
        r = rng.choice(RANKS)
        for _ in range(rng.randint(3, 6)):
            add(rng.choice(SUITS) + r)

    def comp_jokers():
        for _ in range(rng.randint(1, 4)):
            add(rng.choice((SMALL_JOKER, BIG_JOKER)))

    def comp_level():
        for _ in range(rng.randint(1, 3)):
            add(rng.choice(SUITS) + level)

    def comp_full_house():
        r1, r2 = rng.sample(RANKS, 2)
        for _ in range(3):
            add(rng.choice(SUITS) + r1)
        for _ in range(2):
            add(rng.choice(SUITS) + r2)

    comps = [comp_wilds, comp_wilds, comp_straight, comp_flush_run, comp_flush_run,
             comp_tube, comp_plate, comp_near_bomb, comp_near_bomb, comp_jokers,
             comp_level, comp_full_house]
    tries = 0
    while len(hand) < n and tries < 200:
        rng.choice(comps)()
        tries += 1
    if len(hand) < n:   # fill from the rest of the deck
        rest = [t for t in TOKENS for _ in range(2 - counts[t])]
        rng.shuffle(rest)
        for t in rest:
            add(t)
    rng.shuffle(hand)
    return hand
