"""min_plays / decompose / min_plays_batch against the brute-force reference,
and invariants on full 27-card hands."""

import random
from collections import Counter

import numpy as np
import pytest
from conftest import by_run, flag_kwargs, random_case, random_counts, slow, slow_beyond

import reference as ref

from guandan_fast import (Card, HandError, Rules, RulesError, classify, decompose, min_plays,
                          min_plays_batch)


@pytest.mark.parametrize("seed", slow_beyond(range(8), 1))
def test_min_plays_matches_reference(seed):
    rng = random.Random(5000 + seed)
    for _ in range(by_run(50, 200)):
        hand, rules = random_case(rng, 10)
        assert min_plays(hand, rules) == ref.min_plays(hand, rules.level, **flag_kwargs(rules)), (hand, rules)


@pytest.mark.parametrize("count", [10, slow(60), slow(200)])
def test_min_plays_matches_reference_with_two_wilds_and_runs(count):
    rng = random.Random(5100)
    for _ in range(count):
        level = rng.choice(ref.RANKS)
        wild = ref.wild_token(level)
        n = rng.randint(5, 10)
        hand = [wild, wild] + ref.random_rich_hand(rng, n - 2, level)
        if Counter(hand)[wild] > 2:
            continue
        rules = Rules(level=level)
        assert min_plays(hand, rules) == ref.min_plays(hand, level), hand


def check_partition(hand_counts, parts, rules):
    used = np.zeros(54, dtype=np.int64)
    for p in parts:
        readings = {(q.type, q.rank, q.suit) for q in classify(p.cards, rules)}
        assert (p.type, p.rank, p.suit) in readings, p
        for c in p.cards:
            used[c.id] += 1
    assert (used == hand_counts).all()


def test_decompose_small_hands_is_a_minimal_partition():
    rng = random.Random(5200)
    for _ in range(by_run(100, 300)):
        hand, rules = random_case(rng, 12)
        parts = decompose(hand, rules)
        counts = np.zeros(54, dtype=np.int64)
        for t in hand:
            counts[Card(t).id] += 1
        check_partition(counts, parts, rules)
        assert len(parts) == min_plays(hand, rules)
        if len(hand) <= 9:
            assert len(parts) == ref.min_plays(hand, rules.level, **flag_kwargs(rules))


def test_full_hand_invariants():
    rng = random.Random(5300)
    for _ in range(120):
        counts = random_counts(rng)
        rules = Rules(level=rng.choice(ref.RANKS), joker_pair_in_full_house=rng.random() < 0.3)
        m = min_plays(counts, rules)
        parts = decompose(counts, rules)
        assert len(parts) == m
        check_partition(counts, parts, rules)
        # adding a card raises the minimum by at most one (it can be a single)
        for slot in rng.sample(list(np.nonzero(counts)[0]), 4):
            smaller = counts.copy()
            smaller[slot] -= 1
            assert m <= min_plays(smaller, rules) + 1
        # the minimum of two hands together is at most the sum of their minima
        a = random_counts(rng, 12)
        b = random_counts(rng, 12)
        if (a + b).max() <= 2:
            assert min_plays(a + b, rules) <= min_plays(a, rules) + min_plays(b, rules)
        # a lower bound: no play holds more than 10 cards
        assert m >= -(-int(counts.sum()) // 10)


def test_decompose_prefers_keeping_bombs():
    rules = Rules(level=2)
    parts = decompose("S3 S4 S5 S6 S7 D9 D9 C9 C9", rules)
    assert [p.type for p in parts] == ["straight_flush", "bomb"]
    parts = decompose("S3 S4 S5 S6 S7", Rules(level=2))
    assert [p.type for p in parts] == ["straight_flush"]


def test_batch_matches_single_calls():
    rng = random.Random(5400)
    hands = np.stack([random_counts(rng) for _ in range(300)])
    levels = np.array([rng.randrange(13) for _ in range(300)])
    want = [min_plays(h, Rules(level=ref.RANKS[lv])) for h, lv in zip(hands, levels)]
    # levels by number (2..14) or by name, one a row, as the scalar form takes them
    assert min_plays_batch(hands, levels + 2).tolist() == want
    assert min_plays_batch(hands, [ref.RANKS[lv] for lv in levels]).tolist() == want
    assert min_plays_batch(hands[:5], "A").tolist() == [min_plays(h, Rules(level="A")) for h in hands[:5]]
    for one in (2, "2", 10, "10", "T", "A", 14):     # one level, or a list of it: the same
        assert min_plays_batch(hands[:7], one).tolist() == \
            min_plays_batch(hands[:7], [one] * 7).tolist() == \
            [min_plays(h, Rules(level=one)) for h in hands[:7]]


def test_batch_rejects_bad_arrays():
    with pytest.raises(HandError):
        min_plays_batch(np.zeros((3, 53), np.uint8), 2)
    with pytest.raises(HandError):
        min_plays_batch(np.full((2, 54), 3, np.uint8), 2)
    with pytest.raises(HandError):
        min_plays_batch(np.zeros((2, 54), np.uint8), [0, 1, 2])
    for bad in ([1, 2], [2, 15], np.array([0, 12]), [2.0, 3.0], [2, "Z"], [[2], [3]]):
        with pytest.raises(RulesError):
            min_plays_batch(np.zeros((2, 54), np.uint8), bad)
