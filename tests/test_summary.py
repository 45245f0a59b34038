"""The hand summary of gd-analyze: its bombs agree with tribute.held_bombs
(one definition of a bomb held outright) on random rich hands."""

import random

import reference as ref

from guandan_fast import Rules
from guandan_fast.model.cards import parse_cards
from guandan_fast.analysis.summary import hand_summary
from guandan_fast.bots.advice import held_bombs


def _key(b):
    return (b["type"], b["rank"], b["suit"] if b["type"] == "straight_flush" else None)


def _rich_hand(rng, level):
    """27 cards biased towards bombs: runs of one suit, many copies of a few
    ranks, the wilds of the level and the jokers at times."""
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    hand = []
    suit = rng.choice("SHCD")
    start = rng.randrange(9)
    run = [suit + r for r in "23456789TJQKA"[start:start + rng.randint(4, 6)]]
    for r in rng.sample("23456789TJQKA", 3):
        hand += [s + r for s in "SHCD"][:rng.randint(2, 4)] * rng.choice((1, 2))
    hand += run + ["H" + level] * rng.randint(0, 2) + ["SB", "HR"] * rng.randint(0, 2)
    for t in deck:
        if len(hand) >= 27:
            break
        if hand.count(t) < 2:
            hand.append(t)
    fixed = []
    for t in hand:
        if fixed.count(t) < 2:
            fixed.append(t)
    return fixed[:27]


def test_summary_bombs_are_the_held_bombs():
    rng = random.Random(77)
    checked = with_wild_as_itself = 0
    for _ in range(300):
        level = rng.choice(ref.RANKS)
        rules = Rules(level=level)
        cards = parse_cards(" ".join(_rich_hand(rng, level)))
        s = hand_summary(cards, rules)
        natural = held_bombs(cards, rules)
        listed = {_key(b): b for b in s["bombs"]}
        assert set(listed) == set(natural), (cards, level)
        for key, b in listed.items():
            assert b["size"] == natural[key], (cards, level, key)
            with_wild_as_itself += b["wilds"] > 0
        for b in s["bombs_with_wilds"]:
            # only listed when the wilds make it larger than the natural one
            assert b["wilds"] > 0 and b["size"] > natural.get(_key(b), 0)
        checked += len(listed)
    assert checked > 200 and with_wild_as_itself > 0
