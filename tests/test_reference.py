"""Self-tests of the pure-Python reference rules (tests/reference.py).

Hand-worked examples from docs/rules.md, plus cross-checks of the
fast paths of the reference against slower, more literal formulations.
"""

import random
from collections import Counter
from functools import lru_cache

import pytest
from conftest import slow

from reference import (
    NON_JOKER_CARDS, RANKS, TOKENS, beats, classify, classify_bruteforce,
    min_plays, order, pattern, plays, random_hand, random_rich_hand,
)


def C(text):
    return text.split()


def S(type_, rank, suit=None):
    return (type_, rank, suit)


# ---------------------------------------------------------------------------
# RULES section 5 example
# ---------------------------------------------------------------------------

def test_rules_example_plate_and_two_tubes():
    cards = C("S3 D3 S4 D4 H2 H2")
    assert classify(cards, "2") == {S("plate", "4"), S("tube", "4"), S("tube", "5")}
    ps = {p for p in plays(cards, "2") if p[2] == ("3", "3", "4", "4", "W", "W")}
    assert ps == {
        ("plate", "4", ("3", "3", "4", "4", "W", "W"), None),
        ("tube", "4", ("3", "3", "4", "4", "W", "W"), None),
        ("tube", "5", ("3", "3", "4", "4", "W", "W"), None),
    }


def test_same_cards_without_wilds_at_other_level():
    # at level 9 the H2s are plain 2s: only the tube 223344
    assert classify(C("S3 D3 S4 D4 H2 H2"), "9") == {S("tube", "4")}


# ---------------------------------------------------------------------------
# sequences
# ---------------------------------------------------------------------------

def test_ace_low_and_high_straights_no_wrap():
    assert classify(C("SA D2 C3 H4 S5"), "9") == {S("straight", "5")}
    assert classify(C("ST DJ CQ HK SA"), "9") == {S("straight", "A")}
    assert classify(C("SK DA C2 H3 S4"), "9") == set()
    # a wild cannot make a wrapping run either
    assert classify(C("SK DA C2 S3 H9"), "9") == set()
    # six cards are never a straight
    assert classify(C("S2 D3 C4 H5 S6 D7"), "9") == set()


def test_level_card_counts_natural_in_sequences():
    assert classify(C("S3 D4 C5 S6 D7"), "5") == {S("straight", "7")}
    assert classify(C("SA DA CA S2 D2 C2"), "A") == {S("plate", "2")}


def test_tube_and_plate_ends():
    assert classify(C("SA DA S2 D2 S3 D3"), "9") == {S("tube", "3")}
    assert classify(C("SQ DQ SK DK SA DA"), "9") == {S("tube", "A")}
    assert classify(C("SK DK SA DA S2 D2"), "9") == set()
    assert classify(C("SA DA CA S2 D2 C2"), "9") == {S("plate", "2")}
    assert classify(C("SK DK CK SA DA CA"), "9") == {S("plate", "A")}
    # 4 consecutive pairs / 3 consecutive triples are not plays
    assert classify(C("S3 D3 S4 D4 S5 D5 S6 D6"), "9") == set()


def test_straight_flush_and_flush_flag():
    run = C("S3 S4 S5 S6 S7")
    assert classify(run, "2") == {S("straight", "7"), S("straight_flush", "7", "S")}
    assert classify(run, "2", flush_is_always_bomb=True) == {S("straight_flush", "7", "S")}
    mixed = C("S3 S4 S5 S6 D7")
    assert classify(mixed, "2") == {S("straight", "7")}
    assert classify(mixed, "2", flush_is_always_bomb=True) == {S("straight", "7")}


def test_straight_flush_with_wild_takes_needed_suit():
    cards = C("S3 S4 S5 S6 H2")           # H2 wild at level 2
    assert classify(cards, "2") == {
        S("straight", "6"), S("straight", "7"),
        S("straight_flush", "6", "S"), S("straight_flush", "7", "S"),
    }
    assert classify(cards, "2", flush_is_always_bomb=True) == {
        S("straight_flush", "6", "S"), S("straight_flush", "7", "S"),
    }
    # with a non-flush wild run the straights survive the flag
    assert classify(C("S3 S4 S5 D6 H2"), "2", flush_is_always_bomb=True) == {
        S("straight", "6"), S("straight", "7"),
    }
    # the wild as itself (H2) completes a heart straight flush 23456
    assert S("straight_flush", "6", "H") in classify(C("H3 H4 H5 H6 H2"), "2")
    assert pattern(cards, S("straight_flush", "6", "S"), "2") == (
        "straight_flush", "6", ("3", "4", "5", "6", "W"), "S")


# ---------------------------------------------------------------------------
# wilds, level order
# ---------------------------------------------------------------------------

def test_lone_wild_and_two_wilds():
    assert classify(["H7"], "7") == {S("single", "7")}
    assert classify(["H7", "H7"], "7") == {S("pair", "7")}
    assert S("pair", "A") not in classify(["H7", "H7"], "7")
    assert classify(["H7", "SA"], "7") == {S("pair", "A")}
    assert classify(["H7", "S7"], "7") == {S("pair", "7")}
    assert classify(["H7", "H7", "SA"], "7") == {S("triple", "A")}
    # a wild is never a joker
    assert classify(["H7", "SB"], "7") == set()
    assert classify(C("SB SB H7"), "7") == set()
    # a heart 7 at another level is an ordinary card
    assert classify(["H7", "SA"], "2") == set()


def test_level_order_seven_beats_ace():
    assert order("7", "7") > order("A", "7") > order("K", "7")
    assert order("B", "7") > order("7", "7")
    assert order("R", "7") > order("B", "7")
    assert order("8", "7") == order("6", "7") + 1      # 7 left its place
    assert beats(("single", "7", 1), ("single", "A", 1), "7")
    assert not beats(("single", "A", 1), ("single", "7", 1), "7")
    assert beats(("pair", "7", 2), ("pair", "A", 2), "7")
    assert beats(("full_house", "7", 5), ("full_house", "A", 5), "7")
    # at level 2 the ace beats the 7 again
    assert beats(("single", "A", 1), ("single", "7", 1), "2")
    # sequences use natural ranks: 45678 beats 34567 at level 7, not TJQKA
    assert beats(("straight", "8", 5), ("straight", "7", 5), "7")
    assert beats(("straight", "A", 5), ("straight", "7", 5), "7")
    assert beats(("straight", "6", 5), ("straight", "5", 5), "2")   # 23456 > A2345


# ---------------------------------------------------------------------------
# bombs
# ---------------------------------------------------------------------------

EIGHT_FIVES = C("S5 S5 H5 H5 C5 C5 D5 D5")
EIGHT_TWOS = C("S2 S2 H2 H2 C2 C2 D2 D2")


def test_nine_and_ten_card_bombs_with_wilds():
    assert classify(EIGHT_FIVES, "2") == {S("bomb", "5")}
    assert classify(EIGHT_FIVES + ["H2"], "2") == {S("bomb", "5")}
    assert classify(EIGHT_FIVES + ["H2", "H2"], "2") == {S("bomb", "5")}
    assert pattern(EIGHT_FIVES + ["H2", "H2"], S("bomb", "5"), "2") == (
        "bomb", "5", ("5",) * 8 + ("W", "W"), None)
    # nothing has 11 cards
    assert classify(EIGHT_FIVES + ["H2", "H2", "S6"], "2") == set()
    # without wilds (other level) the H2s spoil it
    assert classify(EIGHT_FIVES + ["H2"], "9") == set()


def test_level_rank_bomb_at_most_eight():
    assert classify(EIGHT_TWOS, "2") == {S("bomb", "2")}
    assert classify(C("S2 S2 H2 H2"), "2") == {S("bomb", "2")}
    ps = plays(EIGHT_TWOS + ["S5"], "2")
    level_bomb_sizes = {len(p[2]) for p in ps if p[0] == "bomb" and p[1] == "2"}
    assert level_bomb_sizes == {4, 5, 6, 7, 8}
    # S5 + two wilds is only a triple of fives, never a five bomb
    assert not any(p[0] == "bomb" and p[1] == "5" for p in ps)
    assert ("triple", "5", ("5", "W", "W"), None) in ps


def test_four_card_bomb_with_wilds():
    assert classify(C("S9 D9 H2 H2"), "2") == {S("bomb", "9")}
    assert classify(C("S9 D9 C9 H2"), "2") == {S("bomb", "9")}


def test_joker_bomb_and_joker_pairs():
    assert classify(C("SB SB HR HR"), "2") == {S("joker_bomb", "R")}
    assert classify(C("SB SB"), "2") == {S("pair", "B")}
    assert classify(C("HR HR"), "2") == {S("pair", "R")}
    assert classify(C("SB HR"), "2") == set()
    assert classify(C("SB SB HR"), "2") == set()
    assert classify(["HR"], "2") == {S("single", "R")}


# ---------------------------------------------------------------------------
# full house
# ---------------------------------------------------------------------------

def test_full_house_and_joker_pair_flag():
    assert classify(C("S3 D3 C3 S9 D9"), "5") == {S("full_house", "3")}
    assert classify(C("S3 D3 C3 SB SB"), "5") == set()
    assert classify(C("S3 D3 C3 SB SB"), "5", joker_pair_in_full_house=True) == {S("full_house", "3")}
    assert classify(C("S3 D3 C3 HR HR"), "5", joker_pair_in_full_house=True) == {S("full_house", "3")}
    assert classify(C("S3 D3 C3 SB HR"), "5", joker_pair_in_full_house=True) == set()
    # five of one rank is a bomb, not a full house
    assert classify(C("S3 D3 C3 H3 S3"), "5") == {S("bomb", "3")}


def test_full_house_with_wild():
    # wild as 3 or as 9
    assert classify(C("S3 D3 S9 D9 H2"), "2") == {S("full_house", "3"), S("full_house", "9")}
    # H5 is wild at level 5: as itself (triple of 5s) or as a 9
    assert classify(C("S5 D5 H5 S9 D9"), "5") == {S("full_house", "5"), S("full_house", "9")}


# ---------------------------------------------------------------------------
# beats between classes
# ---------------------------------------------------------------------------

def test_bomb_class_ordering():
    chain = [
        ("bomb", "A", 4),
        ("bomb", "3", 5),
        ("straight_flush", "5", 5),
        ("straight_flush", "A", 5),
        ("bomb", "3", 6),
        ("bomb", "3", 7),
        ("bomb", "3", 8),
        ("bomb", "3", 9),
        ("bomb", "3", 10),
        ("joker_bomb", "R", 4),
    ]
    for i, weak in enumerate(chain):
        assert not beats(weak, weak, "2")
        for strong in chain[i + 1:]:
            assert beats(strong, weak, "2"), (strong, weak)
            assert not beats(weak, strong, "2"), (weak, strong)


def test_bombs_and_non_bombs():
    assert beats(("bomb", "2", 4), ("straight", "A", 5), "9")
    assert beats(("straight_flush", "5", 5), ("single", "R", 1), "9")
    assert not beats(("single", "R", 1), ("bomb", "2", 4), "9")
    # same size bombs by single-card order: level 2 fours beat ace fours
    assert beats(("bomb", "2", 4), ("bomb", "A", 4), "2")
    assert not beats(("bomb", "2", 4), ("bomb", "A", 4), "9")
    # same top straight flushes (different suits) are equal
    assert not beats(("straight_flush", "9", 5), ("straight_flush", "9", 5), "2")
    # non-bombs of different type or size never beat
    assert not beats(("pair", "A", 2), ("single", "3", 1), "2")
    assert not beats(("tube", "A", 6), ("straight", "3", 5), "2")
    assert not beats(("full_house", "A", 5), ("straight", "6", 5), "2")
    assert beats(("tube", "4", 6), ("tube", "3", 6), "2")       # 223344 > AA2233
    assert beats(("plate", "3", 6), ("plate", "2", 6), "2")     # 222333 > AAA222


# ---------------------------------------------------------------------------
# min_plays by hand
# ---------------------------------------------------------------------------

def test_min_plays_hand_examples():
    assert min_plays([], "2") == 0
    assert min_plays(C("S3 S4 S5 S6 S7 D9"), "2") == 2
    assert min_plays(C("S3 D3 C3 S5 D5"), "2") == 1
    assert min_plays(C("SB HR"), "2") == 2
    assert min_plays(C("SB SB HR HR"), "2") == 1
    # distinct, non-consecutive ranks, no wild: nothing combines
    assert min_plays(C("S3 D5 C7 S9 DJ"), "2") == 5
    # one wild pairs with one card: 4
    assert min_plays(C("S3 D5 C7 S9 H2"), "2") == 4
    # jokers can only be a pair here (no joker bomb), the other 10 cards are
    # not one play, and straight 34567 + full house 888KK achieves 3
    assert min_plays(C("S3 S4 S5 S6 S7 D8 D8 C8 SK DK HR HR"), "2") == 3
    # the joker pair may join the full house only with the flag
    assert min_plays(C("S3 D3 C3 SB SB"), "2") == 2
    assert min_plays(C("S3 D3 C3 SB SB"), "2", joker_pair_in_full_house=True) == 1
    # eight fives and two wilds: one ten-card bomb
    assert min_plays(EIGHT_FIVES + ["H2", "H2"], "2") == 1


# ---------------------------------------------------------------------------
# cross-checks of the reference's fast paths
# ---------------------------------------------------------------------------

def _small_sets(rng, count):
    """Random small card sets with many wilds / runs / pairs."""
    out = []
    for _ in range(count):
        level = rng.choice(RANKS)
        wild = "H" + level
        n = rng.randint(1, 6)
        hand = random_rich_hand(rng, 14, level)
        sub = rng.sample(hand, n)
        # force one or two wilds into most sets
        w = rng.choice((0, 1, 1, 2, 2))
        if Counter(sub)[wild] < w:
            sub = [c for c in sub if c != wild][: max(0, n - w)] + [wild] * w
        out.append((sub, level))
    return out


@pytest.mark.parametrize("n_random", [slow(40), slow(160)])
def test_classify_matches_literal_bruteforce(n_random):
    rng = random.Random(20240601)
    sets = _small_sets(rng, n_random)
    # near straight flushes: mostly one suit, with 0-2 wilds
    for _ in range(40):
        level, suit, start = rng.choice(RANKS), rng.choice("SHCD"), rng.randrange(10)
        run = [(suit if rng.random() < 0.85 else rng.choice("SHCD")) + r
               for r in "A23456789TJQKA"[start:start + 5]]
        w = rng.choice((0, 1, 2))
        cards = rng.sample(run, 5 - w) + ["H" + level] * w
        if max(Counter(cards).values()) <= 2:
            sets.append((cards, level))
    # targeted cases
    sets += [
        (C("S3 S4 S5 S6 H2"), "2"), (C("H3 H4 H5 H2 H2"), "2"),
        (C("SA S2 S3 H9 H9"), "9"), (C("SJ SQ SK H9 H9"), "9"),
        (C("S3 D3 S4 D4 H2 H2"), "2"), (C("S5 D5 H5 S9 D9"), "5"),
        (C("SB SB HT HT"), "T"), (C("S3 D3 SB SB HK"), "K"),
        (["HA"], "A"), (["HA", "HA"], "A"), (C("SA DA HA HA"), "A"),
    ]
    for cards, level in sets:
        for jp in (False, True):
            for fb in (False, True):
                assert classify(cards, level, jp, fb) == classify_bruteforce(cards, level, jp, fb), (
                    cards, level, jp, fb)


def _min_plays_by_positions(hand, level, **flags):
    """Independent minimum: DP over bitmasks of card positions."""
    n = len(hand)

    @lru_cache(maxsize=None)
    def valid(mask):
        return bool(classify([hand[i] for i in range(n) if mask >> i & 1], level, **flags))

    @lru_cache(maxsize=None)
    def best(mask):
        if mask == 0:
            return 0
        low = mask & -mask
        rest = mask ^ low
        result = n + 1
        sub = rest
        while True:
            m = sub | low
            if valid(m):
                result = min(result, 1 + best(mask ^ m))
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return result

    return best((1 << n) - 1)


def test_min_plays_matches_position_dp():
    rng = random.Random(7)
    for i in range(60):
        level = rng.choice(RANKS)
        n = rng.randint(1, 8)
        hand = random_rich_hand(rng, n, level) if i % 3 else random_hand(rng, n, level)
        flags = {"joker_pair_in_full_house": i % 2 == 0, "flush_is_always_bomb": i % 4 == 1}
        assert min_plays(hand, level, **flags) == _min_plays_by_positions(hand, level, **flags), (
            hand, level, flags)


def test_plays_consistency():
    rng = random.Random(11)
    for i in range(12):
        level = rng.choice(RANKS)
        hand = random_rich_hand(rng, 9, level)
        ps = plays(hand, level)
        hand_ranks = Counter("W" if c == "H" + level else c[1] for c in hand)
        for t, r, ranks, s in ps:
            assert not Counter(ranks) - hand_ranks         # uses cards of the hand
            assert (s is not None) == (t == "straight_flush")
        # every single card is a play
        for c in hand:
            assert pattern([c], classify([c], level).pop(), level) in ps
        # the whole hand is one play iff min_plays == 1
        assert (min_plays(hand, level) == 1) == bool(classify(hand, level))


def test_random_hands_are_legal():
    rng = random.Random(3)
    for n in (0, 1, 10, 27):
        for maker in (random_hand, random_rich_hand):
            hand = maker(rng, n, "5")
            assert len(hand) == n
            assert all(t in TOKENS for t in hand)
            assert max(Counter(hand).values(), default=0) <= 2
    assert len(NON_JOKER_CARDS) == 52 and len(TOKENS) == 54


def test_bad_input_rejected():
    with pytest.raises(ValueError):
        classify(["S1"], "2")
    with pytest.raises(ValueError):
        classify(["S3", "S3", "S3"], "2")
    with pytest.raises(ValueError):
        classify(["S3"], "B")
