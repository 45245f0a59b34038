"""Shared helpers for the tests: converting between the engine and the
pure-Python reference (tests/reference.py), random hands."""

import random

import numpy as np
import pytest

import reference as ref

from guandan_fast import Rules
from guandan_fast.model.counts import to_counts

LEVELS = ref.RANKS


def core_pattern(play):
    """The engine's Play as the reference's pattern tuple."""
    t, r, ranks, suit = play.pattern
    return (t, r, tuple(ranks), suit)


def flag_kwargs(rules):
    return {"joker_pair_in_full_house": rules.joker_pair_in_full_house,
            "flush_is_always_bomb": rules.flush_is_always_bomb}


def random_case(rng, max_cards, rich_share=0.5):
    """(tokens, rules) with a random level, size and flags."""
    level = rng.choice(LEVELS)
    n = rng.randint(1, max_cards)
    hand = (ref.random_rich_hand(rng, n, level) if rng.random() < rich_share
            else ref.random_hand(rng, n, level))
    rules = Rules(level=level, joker_pair_in_full_house=rng.random() < 0.25,
                  flush_is_always_bomb=rng.random() < 0.25)
    return hand, rules


def random_counts(rng, n=27):
    deck = list(range(54)) * 2
    counts = np.zeros(54, dtype=np.uint8)
    for slot in rng.sample(deck, n):
        counts[slot] += 1
    return counts


@pytest.fixture
def rng():
    return random.Random(20261129)
