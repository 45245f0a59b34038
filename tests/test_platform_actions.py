"""The platform's concrete action lists against a brute force over sub-multisets."""

import random

import numpy as np
import pytest
from conftest import by_run, core_pattern, flag_kwargs, random_case, slow_beyond

import reference_platform as refp

from guandan_fast import PlayError, Rules, beating_plays, plays
from guandan_fast._core import TOKENS
from guandan_fast.errors import ProtocolError
from guandan_fast.platform import (ACTION_ARRAY_COLUMNS, action_array, action_count,
                                   action_list, action_plays, from_action, index_of,
                                   to_action)


def entry_key(play):
    return (play.type, play.rank, play.suit, tuple(sorted(str(c) for c in play.cards)))


def check_case(hand, rules, table=None):
    ps = action_plays(hand, rules, table)
    acts = action_list(hand, rules, table)
    assert len(ps) == len(acts) == action_count(hand, rules, table)
    if table is not None:
        assert ps[0] is None and acts[0] == ["PASS", "PASS", "PASS"]
        ps, acts = ps[1:], acts[1:]
    keys = [entry_key(p) for p in ps]
    assert len(keys) == len(set(keys)), f"an entry twice in {hand}"
    tkey = None if table is None else (table.type, table.rank, table.size)
    expected = refp.concrete_entries(hand, rules.level, tkey, **flag_kwargs(rules))
    assert set(keys) == expected, (hand, rules, set(keys) ^ expected)
    # the patterns are those of the pattern enumeration
    pats = {core_pattern(p) for p in (plays(hand, rules) if table is None
                                      else beating_plays(hand, table, rules))}
    assert {core_pattern(p) for p in ps} == pats
    # the platform form: types, the lowest card of a sequence, the cards themselves
    for p, a in zip(ps, acts):
        assert sorted(a[2]) == sorted(str(c) for c in p.cards)
        if p.type == "joker_bomb":
            assert a[:2] == ["Bomb", "JOKER"]
        else:
            assert a[1] == refp.lowest_rank(p.type, p.rank)
        back = from_action(a, rules, hand=hand, table=table)
        assert entry_key(back) == entry_key(p)
    return len(keys)


@pytest.mark.parametrize("seed", slow_beyond(range(5), 0))
def test_leading_lists_match_brute_force(seed):
    rng = random.Random(7000 + seed)
    total = 0
    for _ in range(120):
        hand, rules = random_case(rng, 10)
        total += check_case(hand, rules)
    assert total > 1000


@pytest.mark.parametrize("seed", slow_beyond(range(4), 1))
def test_following_lists_match_brute_force(seed):
    rng = random.Random(7100 + seed)
    for _ in range(by_run(30, 100)):
        hand, rules = random_case(rng, 10)
        other, _ = random_case(rng, 10)
        tables = plays(other, rules)
        if tables:
            check_case(hand, rules, rng.choice(tables))


def test_array_rows_match_the_list():
    rng = random.Random(7200)
    deck = [t for t in TOKENS for _ in range(2)]
    for _ in range(20):
        hand = rng.sample(deck, 27)
        rules = Rules(level=rng.choice("23456789TJQKA"))
        table = rng.choice(plays(rng.sample(deck, 10), rules))
        for tb in (None, table):
            arr = action_array(hand, rules, tb)
            ps = action_plays(hand, rules, tb)
            assert arr.shape == (len(ps), len(ACTION_ARRAY_COLUMNS))
            for row, p in zip(arr, ps):
                if p is None:
                    assert row[0] == 10 and row[6:].sum() == 0
                    continue
                assert (row[0], row[1], row[3], row[4]) == (p.type_index, p.rank_index,
                                                            p.size, p.wilds)
                assert np.array_equal(row[6:], np.bincount(p.card_ids, minlength=54))


def test_opening_lead_of_a_full_hand_is_large():
    rng = random.Random(7300)
    deck = [t for t in TOKENS for _ in range(2)]
    sizes = [action_count(rng.sample(deck, 27), Rules(level=2)) for _ in range(30)]
    assert max(sizes) > 1000


def test_to_action_examples():
    r = Rules(level=2)
    cases = [("C2 H2 C4 D5 C6", "straight", ["Straight", "2"]),
             ("SA S2 S3 S4 D5", "straight", ["Straight", "A"]),
             ("ST SJ SQ SK DA", "straight", ["Straight", "T"]),
             ("SA DA S2 D2 S3 D3", "tube", ["ThreePair", "A"]),
             ("S4 D4 S5 D5 S6 D6", "tube", ["ThreePair", "4"]),
             ("SA DA CA S2 D2 C2", "plate", ["TwoTrips", "A"]),
             ("SB SB HR HR", "joker_bomb", ["Bomb", "JOKER"]),
             ("S2 D2 C2 S5 D5", "full_house", ["ThreeWithTwo", "2"]),
             ("SB SB", "pair", ["Pair", "B"])]
    for cards, typ, head in cases:
        [p] = [p for p in action_plays(cards, r) if p.type == typ and p.size == len(cards.split())]
        assert to_action(p)[:2] == head, cards


@pytest.mark.parametrize("action", [
    ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], ["FourKings", "R", ["SB", "SB", "HR", "HR"]],
    ["Bomb", "R", ["SB", "HR", "SB", "HR"]]])
def test_joker_bomb_forms(action):
    assert from_action(action, Rules()).type == "joker_bomb"


def test_top_card_rank_accepted_and_typos():
    r = Rules(level=2)
    assert from_action(["Straight", "6", ["C2", "H2", "C4", "D5", "C6"]], r).rank == "6"
    assert from_action(["Straight", "2", ["C2", "H2", "C4", "D5", "C6"]], r).rank == "6"
    assert from_action(["TripsPair", "3", ["S3", "D3", "S4", "D4", "S5", "D5"]], r).type == "tube"
    assert from_action(["Boom", 5, ["S5", "D5", "C5", "H5"]], r).type == "bomb"
    assert from_action(["PASS", "PASS", "PASS"], r) is None
    assert from_action([None, None, None], r) is None
    assert from_action({"type": "Single", "rank": "5", "actions": ["S5"]}, r).type == "single"
    assert from_action({"type": "Pair", "cards": ["S5", "D5"]}, r).type == "pair"


@pytest.mark.parametrize("action,msg", [
    (["Straight", "9", ["C2", "H2", "C4", "D5", "C6"]], "cannot be read as straight 9"),
    (["Pair", "5", ["S5", "D6"]], "cannot be read as pair"),
    (["Single", "5", ["S5", "XX"]], "XX"),
    (["Single", "5"], "an action is"),
    ("Single", "an action is"),
    (["Flush", "5", ["S5"]], "unknown play type"),
    (["Single", "5", []], "list of 1..10"),
    (["Single", "5", [5]], "a card is a string"),
    (["Single", 99, ["S5"]], "rank 99"),
    (["Single", float("nan"), ["S5"]], "rank nan"),
    ({}, "an action object is a play with its type"),                 # was read as a pass
    ({"type": None, "rank": None, "actions": None}, "an action object is a play"),
    ({"type": "PASS", "rank": "PASS", "actions": "PASS"}, "an action object is a play"),
    ({"type": "Single", "rank": "5", "actions": ["S5"], "x": 1}, "unknown key 'x'"),
])
def test_bad_actions_are_rejected(action, msg):
    with pytest.raises((ProtocolError, PlayError), match=msg):
        from_action(action, Rules(level=2))


def test_held_and_beating_checks():
    r = Rules(level=2)
    with pytest.raises(PlayError, match="does not hold SK"):
        from_action(["Single", "K", ["SK"]], r, hand="S3 D4")
    table = from_action(["Pair", "9", ["S9", "D9"]], r)
    with pytest.raises(PlayError, match="does not beat"):
        from_action(["Pair", "5", ["S5", "D5"]], r, table=table)


def test_index_of_finds_the_entry():
    r = Rules(level=2)
    hand = "S5 D5 C5 S9 D9 H2 SB"
    acts = action_list(hand, r)
    for i, p in enumerate(action_plays(hand, r)):
        assert index_of(p, acts) == i
    table = from_action(["Single", "3", ["S3"]], r)
    acts = action_list(hand, r, table)
    assert index_of(None, acts) == 0


def test_docs_platform_md_examples():
    import doctest
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "platform.md"
    result = doctest.testfile(str(path), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_index_of_maps_a_flush_reading_to_the_same_cards():
    # the 2020 platform lists a one-suit run only as a straight flush: a bot
    # reading it as a plain straight plays the entry of the same cards
    hand = "S3 S4 S5 S6 S7 D9"
    r = Rules(level=2)
    straight = next(p for p in plays(hand, r) if p.type == "straight")
    acts = action_list(hand, Rules(level=2, flush_is_always_bomb=True))
    assert all(a[0] != "Straight" for a in acts)
    i = index_of(straight, acts)
    assert acts[i][0] == "StraightFlush" and sorted(acts[i][2]) == sorted(str(c) for c in straight.cards)
    # and a run completed by the wild, listed only as a plain straight
    hand = "S3 S4 S5 S6 H2"
    flush = next(p for p in plays(hand, Rules(level=2, flush_is_always_bomb=True))
                 if p.type == "straight_flush")
    only_straight = [["Straight", "3", ["S3", "S4", "S5", "S6", "H2"]], ["Single", "3", ["S3"]]]
    assert index_of(flush, only_straight) == 0
    with pytest.raises(ProtocolError, match="no entry of the action list plays"):
        index_of(flush, only_straight[1:])


def test_an_exec_command_keeps_a_hash_in_a_word():
    # shlex's comments are off: '#' is a character of the command
    from guandan_fast.platform.external import parse_team
    team = parse_team("exec:python c.py --name A#1 {url}")
    assert team.template == (("python", "c.py", "--name", "A#1", "{url}"),)
