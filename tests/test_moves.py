"""plays / beating_plays / hints / plays_array against the reference."""

import random

import numpy as np
import pytest
from conftest import by_run, core_pattern, flag_kwargs, random_case, random_counts, slow_beyond

import reference as ref

from guandan_fast import Card, Rules, beating_plays, classify, hints, plays, plays_array
from guandan_fast.errors import PlayError
from guandan_fast.engine.moves import hints_with_counts


def ref_size(pattern):
    return len(pattern[2])


@pytest.mark.parametrize("seed", slow_beyond(range(6), 1))
def test_plays_match_reference(seed):
    rng = random.Random(1000 + seed)
    for _ in range(by_run(50, 250)):
        hand, rules = random_case(rng, 9)
        core = [core_pattern(p) for p in plays(hand, rules)]
        assert len(core) == len(set(core)), f"duplicate pattern in {hand}"
        expected = ref.plays(hand, rules.level, **flag_kwargs(rules))
        assert set(core) == expected, (hand, rules, set(core) ^ expected)


@pytest.mark.parametrize("seed", slow_beyond(range(4), 1))
def test_beating_plays_match_reference(seed):
    rng = random.Random(2000 + seed)
    for _ in range(by_run(40, 200)):
        hand, rules = random_case(rng, 9)
        other, _ = random_case(rng, 10)
        tables = plays(other, rules)
        if not tables:
            continue
        table = rng.choice(tables)
        core = {core_pattern(p) for p in beating_plays(hand, table, rules)}
        tkey = (table.type, table.rank, table.size)
        expected = {p for p in ref.plays(hand, rules.level, **flag_kwargs(rules))
                    if ref.beats((p[0], p[1], ref_size(p)), tkey, rules.level)}
        assert core == expected, (hand, str(table), rules)


def test_classify_matches_reference_on_random_sets():
    rng = random.Random(3000)
    for _ in range(by_run(500, 1500)):
        cards, rules = random_case(rng, 10)
        core = {(p.type, p.rank, p.suit) for p in classify(cards, rules)}
        assert core == ref.classify(cards, rules.level, **flag_kwargs(rules)), (cards, rules)


def test_classify_on_sets_drawn_from_plays():
    """Card sets that are plays of some hand (so mostly valid), every flag."""
    rng = random.Random(3100)
    for _ in range(by_run(100, 300)):
        hand, rules = random_case(rng, 12, rich_share=1.0)
        for p in rng.sample(plays(hand, rules), min(5, len(plays(hand, rules)))):
            cards = [str(c) for c in p.cards]
            core = {(q.type, q.rank, q.suit) for q in classify(cards, rules)}
            assert core == ref.classify(cards, rules.level, **flag_kwargs(rules)), cards


def test_properties_on_full_hands():
    rng = random.Random(4000)
    for _ in range(by_run(50, 150)):
        counts = random_counts(rng)
        rules = Rules(level=rng.choice(ref.RANKS), flush_is_always_bomb=rng.random() < 0.3)
        seen = set()
        for p in plays(counts, rules):
            used = np.zeros(54, dtype=np.int64)
            for c in p.cards:
                used[c.id] += 1
            assert (used <= counts).all(), f"{p} is not in the hand"
            readings = {(q.type, q.rank, q.suit) for q in classify(p.cards, rules)}
            assert (p.type, p.rank, p.suit) in readings, f"{p!r} is not a reading of its cards"
            assert p.pattern not in seen
            seen.add(p.pattern)


def test_plays_array_matches_objects():
    rng = random.Random(4100)
    for _ in range(100):
        counts = random_counts(rng)
        rules = Rules(level=rng.choice(ref.RANKS))
        objs = plays(counts, rules)
        arr = plays_array(counts, rules)
        assert arr.shape == (len(objs), 59)
        for row, p in zip(arr, objs):
            assert row[0] == p.type_index and row[1] == p.rank_index and row[2] == p.size
            assert row[3] == p.wilds and row[4] == (255 if p.suit is None else "SHCD".index(p.suit))
            used = np.zeros(54, dtype=np.int64)
            for c in p.cards:
                used[c.id] += 1
            assert (row[5:] == used).all()


def test_concrete_cards_keep_straight_flushes():
    rules = Rules(level=2)
    # S3..S7 is a straight flush; D5 is a spare five: a single five is D5
    singles = {p.rank: str(p) for p in plays("S3 S4 S5 S6 S7 D5", rules) if p.type == "single"}
    assert singles["5"] == "D5"
    pairs = [str(p) for p in plays("S9 ST SJ SQ SK C9 D9", rules) if p.type == "pair"]
    assert pairs == ["C9 D9"]


def _free_copies(counts, level):
    """For each natural rank index 0..12 (2..A), the card ids of the hand
    that a single may give without spoiling a straight flush: a second copy
    of a card, or a card in no window of five consecutive ranks of its suit
    (A-2-3-4-5 .. 10-J-Q-K-A) that the hand can complete, i.e. whose naturals
    of the suit number at least one and miss at most as many as the wilds
    (the heart of the level rank, never a natural)."""
    wild = Card("H" + level).id
    wilds = int(counts[wild])
    line = [12] + list(range(13))               # line position -> rank index
    protected = set()
    for suit in range(4):
        for start in range(10):
            window = [suit * 13 + line[start + i] for i in range(5)]
            have = sum(1 for c in window if c != wild and counts[c])
            if have and 5 - have <= wilds:
                protected.update(c for c in window if c != wild and counts[c])
    free = {}
    for c in range(52):
        if c != wild and counts[c] and (counts[c] == 2 or c not in protected):
            free.setdefault(c % 13, set()).add(c)
    return free


def test_single_card_spares_straight_flushes():
    """The card a single gives: a free copy of its rank whenever the hand
    holds one (_free_copies, read from the cards alone)."""
    rng = random.Random(3117)
    checked = spared = 0
    for _ in range(by_run(400, 4000)):
        counts = random_counts(rng, rng.randint(5, 27))
        level = rng.choice(["2", "5", "9", "J", "A"])
        rules = Rules(level=level)
        free = _free_copies(counts, level)
        for p in plays(counts, rules):
            card = p.cards[0]
            if p.type != "single" or card.is_joker or card.rank == level:
                continue
            r = card.rank_index
            if free.get(r):
                checked += 1
                assert card.id in free[r], (str(p), level, counts.tolist())
                spared += sum(1 for c in range(r, 52, 13) if counts[c]) > len(free[r])
    assert checked > 1000 and spared > 20, (checked, spared)


def test_flush_flag_straight_uses_mixed_suits():
    rules = Rules(level=2, flush_is_always_bomb=True)
    straights = [p for p in plays("S3 S4 S5 S6 S7 D5", rules) if p.type == "straight"]
    assert len(straights) == 1
    assert len({c.suit for c in straights[0].cards}) == 2


def test_hints_lead_order_and_follow_order():
    rules = Rules(level=2)
    hand = "S3 D4 C5 S6 H7 SK DK CK D9 D9 SB SB HR HR"
    ranked = hints_with_counts(hand, rules)
    afters = [a for p, a in ranked if not p.is_bomb]
    assert afters == sorted(afters)
    bombs = [p for p, _ in ranked if p.is_bomb]
    assert ranked[-len(bombs):] == [(p, a) for p, a in ranked if p.is_bomb]
    assert ranked[0][0].type == "straight"          # the straight empties 5 cards
    follow = hints(hand, rules, table="S8 D8")
    assert {p.pattern[:3] for p in follow if not p.is_bomb} == {
        ("pair", "9", "99"), ("pair", "K", "KK"), ("pair", "B", "BB"), ("pair", "R", "RR")}
    assert follow[0].rank == "9"
    assert [p.type for p in follow][-1] == "joker_bomb"
    assert all(p.beats(read) for p in follow for read in [classify("S8 D8", rules)[0]])


def test_table_play_errors():
    rules = Rules(level=2)
    with pytest.raises(PlayError, match="ambiguous"):
        beating_plays("S5 S6", "S3 D3 S4 D4 H2 H2", rules)
    with pytest.raises(PlayError, match="not a valid play"):
        beating_plays("S5 S6", "S3 S4", rules)


def test_plays_left_in_hints_equal_min_plays_of_the_rest():
    """The hint kernel resumes the DP of the whole hand; it must agree with a
    fresh min_plays of each remaining hand."""
    from guandan_fast import min_plays
    rng = random.Random(4200)
    for i in range(25):
        counts = random_counts(rng, 25)
        if i % 3 == 0:      # make sure hands with both wilds are tested
            counts[13 + i % 13] = 2
        rules = Rules(level=ref.RANKS[i % 13], joker_pair_in_full_house=i % 4 == 0)
        table = None if i % 2 else rng.choice([p for p in plays(counts, rules) if not p.is_bomb])
        for p, after in hints_with_counts(counts, rules, table):
            rest = counts.copy()
            for c in p.cards:
                rest[c.id] -= 1
            assert after == min_plays(rest, rules), (p, after)
