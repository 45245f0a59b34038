"""Brute-force reference of the platform's concrete action lists.

Written from docs/platform.md and docs/rules.md on top of tests/reference.py (the
pure-Python rules), sharing no code with the compiled kernel: every
non-empty sub-multiset of the hand's concrete cards, each of its readings
(that beats the table, when there is one) is one entry.

An entry is (type, rank, suit, cards): the reference's reading (the rank is
the key of RULES 3: a sequence's top card) and the sorted card tokens.
"""

from collections import Counter
from itertools import product

import reference as ref

LINE = "A23456789TJQKA"
SPAN = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}


def sub_multisets(hand):
    counts = Counter(hand)
    distinct = sorted(counts)
    for mult in product(*(range(counts[t] + 1) for t in distinct)):
        if 0 < sum(mult) <= 10:
            yield tuple(t for t, m in zip(distinct, mult) for _ in range(m))


def concrete_entries(hand, level, table=None, **flags):
    """The set of concrete entries of ``hand``; ``table`` is (type, rank, size)."""
    out = set()
    for sub in sub_multisets(hand):
        for t, r, s in ref.classify(list(sub), level, **flags):
            if table is not None and not ref.beats((t, r, len(sub)), table, level):
                continue
            out.add((t, r, s, sub))
    return out


def lowest_rank(typ, top):
    """The platform's rank of a sequence: the rank of its lowest card, walking
    down the natural line from the top card (A-low as 'A')."""
    if typ not in SPAN:
        return top
    i = len(LINE) - 1 if top == "A" else LINE.index(top, 1)
    return LINE[i - SPAN[typ] + 1]
