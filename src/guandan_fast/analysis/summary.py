"""Hand summary for ``gd-analyze hand.txt``: the hand grouped by rank, the
wilds held, the bombs held, the minimum plays and a best decomposition.
Pure data; the CLI prints it."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .. import _core
from .._core import Card, Play
from ..engine.decomposition import decompose, min_plays
from ..model.counts import to_counts
from ..model.rules import Rules
from ..bots.advice import held_bombs

__all__ = ["hand_summary", "play_dict"]



def _rank_sort_key(rank: str, rules: Rules) -> int:
    return rules.order(rank)


def hand_summary(cards: list[Card], rules: Rules) -> dict[str, Any]:
    """A JSON-ready summary of a hand.

    "bombs": the bombs held outright, as ``tribute.held_bombs`` counts them
    (a wild counts as what it is, a heart of the level rank), the largest per
    rank or straight-flush window; "bombs_with_wilds": larger ones that need
    a wild as a substitute.

    >>> s = hand_summary([Card("H2"), Card("S2"), Card("C2"), Card("D2"), Card("SA")], Rules(level=2))
    >>> s["wilds"], [b["cards"] for b in s["bombs"]], s["bombs_with_wilds"]
    (['H2'], ['S2 H2 C2 D2'], [])
    >>> s = hand_summary([Card("H2"), Card("S7"), Card("C7"), Card("D7"), Card("SA")], Rules(level=2))
    >>> s["bombs"], [b["cards"] for b in s["bombs_with_wilds"]]
    ([], ['H2 S7 C7 D7'])
    """
    by_rank = defaultdict(list)
    wild = rules.wild
    wilds = []
    for c in sorted(cards):
        if c == wild:
            wilds.append(str(c))
        else:
            by_rank[c.rank].append(str(c))
    groups = [
        {"rank": r, "cards": by_rank[r]}
        for r in sorted(by_rank, key=lambda r: -_rank_sort_key(r, rules))
    ]
    counts = to_counts(cards)
    bombs = _core._py_plays(counts, rules.level_index, rules.flags,
                           (1 << 7) | (1 << 8) | (1 << 9))
    # bombs held outright (held_bombs: the one definition, shared with the
    # tribute advice), and those only the wilds complete: for each rank or
    # straight-flush window the largest one, with the fewest wilds
    natural = held_bombs(cards, rules)
    held: dict = {}
    with_wilds: dict = {}
    for p in bombs:
        key = (p.type, p.rank, p.suit if p.type == "straight_flush" else None)
        table = held if p.size <= natural.get(key, 0) else with_wilds
        if key not in table or (p.size, -p.wilds) > (table[key].size, -table[key].wilds):
            table[key] = p
    for key in held:
        if key in with_wilds and with_wilds[key].size <= held[key].size:
            del with_wilds[key]

    def listed(table):
        return [
            {"type": p.type, "rank": p.rank, "size": p.size, "wilds": p.wilds,
             "suit": p.suit, "cards": " ".join(str(c) for c in sorted(p.cards))}
            for p in sorted(table.values(), key=lambda p: p.strength, reverse=True)
        ]
    return {
        "level": rules.level,
        "cards": len(cards),
        "groups": groups,
        "wilds": wilds,
        "bombs": listed(held),
        "bombs_with_wilds": listed(with_wilds),
        "min_plays": min_plays(counts, rules),
        "decomposition": [play_dict(p) for p in decompose(counts, rules)],
    }


def play_dict(p: Play) -> dict[str, Any]:
    """A Play as JSON-ready data."""
    return {"type": p.type, "rank": p.rank, "size": p.size, "wilds": p.wilds,
            "suit": p.suit, "cards": " ".join(str(c) for c in p.cards)}
