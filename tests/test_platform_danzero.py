"""DanZero's encodings against their definition in docs/platform.md, written
out card by card here (no code shared with platform/danzero.py)."""

import random

import numpy as np
import pytest

from guandan_fast import Rules, to_counts
from guandan_fast._core import TOKENS
from guandan_fast.errors import HandError
from guandan_fast.game.state import GameState
from guandan_fast.platform import action_array, action_plays
from guandan_fast.platform.danzero import (action_to_danzero, actions_to_danzero,
                                           card_from_danzero_id, danzero_card_id, features,
                                           from_danzero, to_danzero)

RANKS = "23456789TJQKA"
DZ_SUITS = "HSCD"


def dz_id(token):
    if token == "SB":
        return 52
    if token == "HR":
        return 53
    return DZ_SUITS.index(token[0]) * 13 + RANKS.index(token[1])


def dz_slot(token):
    if token in ("SB", "HR"):
        return dz_id(token)
    return RANKS.index(token[1]) * 4 + DZ_SUITS.index(token[0])


def test_card_ids_and_slots_follow_the_definition():
    for t in TOKENS:
        assert danzero_card_id(t) == dz_id(t)
        assert str(card_from_danzero_id(dz_id(t))) == t
        one = to_danzero(t)
        assert one[dz_slot(t)] == 1 and one.sum() == 1


def test_round_trip_on_random_hands():
    rng = random.Random(5)
    deck = [t for t in TOKENS for _ in range(2)]
    for _ in range(50):
        hand = rng.sample(deck, rng.randint(0, 27))
        z = to_danzero(" ".join(hand))
        want = np.zeros(54, dtype=np.int64)
        for t in hand:
            want[dz_slot(t)] += 1
        assert np.array_equal(z, want)
        assert np.array_equal(from_danzero(z), to_counts(" ".join(hand)))
    assert np.array_equal(to_danzero("", finished=True), -np.ones(54))
    assert from_danzero(-np.ones(54)).sum() == 0


@pytest.mark.parametrize("bad", [np.zeros(53), np.full(54, 3), np.full(54, 0.5), -np.eye(54)[0]])
def test_bad_arrays(bad):
    with pytest.raises(HandError):
        from_danzero(bad)
    with pytest.raises(HandError):
        card_from_danzero_id(54)


def test_actions_match_the_action_list():
    rng = random.Random(6)
    deck = [t for t in TOKENS for _ in range(2)]
    hand = rng.sample(deck, 27)
    rules = Rules(level="5")
    mat = actions_to_danzero(action_array(hand, rules))
    for row, play in zip(mat, action_plays(hand, rules)):
        want = np.zeros(54, dtype=np.int64)
        for c in play.cards:
            want[dz_slot(str(c))] += 1
        assert np.array_equal(row, want) and np.array_equal(action_to_danzero(play), want)
    assert action_to_danzero(None).sum() == 0


def test_features_of_a_state():
    s = GameState.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], Rules(), leader=0)
    hist = []
    for cards in ("S3", "S5", None):
        play = None if cards is None else s.find(cards)
        hist.append((s.turn, play))
        s = s.apply(play)
    f = features(s, 3, hist)
    assert f["hand"][dz_slot("S9")] == 1 and f["hand"].sum() == 2
    assert f["others"].sum() == 4 and f["others"][dz_slot("S3")] == 0
    assert f["last_action"][dz_slot("S5")] == 1
    assert f["played_down"][dz_slot("S3")] == 1 and f["played_up"].sum() == 0
    assert f["left_partner"][1] == 1 and f["left_down"][1] == 1 and f["left_up"][2] == 1
    assert f["partner_last"][dz_slot("S5")] == 1 and f["partner_last"].sum() == 1
    assert (features(s, 0, [])["last_action"] == -1).all()


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.lists(st.one_of(st.integers(-3, 4), st.floats(allow_nan=True)), min_size=50,
                max_size=58))
def test_fuzz_from_danzero(values):
    try:
        counts = from_danzero(np.array(values))
    except HandError as e:
        assert str(e)
    else:
        assert counts.shape == (54,) and np.array_equal(to_danzero(counts), np.array(values)) or \
            np.all(np.array(values) == -1)
