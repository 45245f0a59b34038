"""GameState: the RULES 6 state machine on hand-made sequences."""

import pytest

from guandan_fast import PlayError, Rules
from guandan_fast.game.state import GameState, level_gain

R = Rules(level=2)


def test_partner_takes_the_lead_after_going_out():
    # seat 0 goes out with S9; 1, 2 and 3 pass: the lead passes to seat 2 (接风)
    s = GameState.start(["S9", "S3 S4", "S5 S6", "S7 S8"], R, leader=0)
    s = s.apply(s.find("S9"))
    assert s.finished == (0,) and s.turn == 1 and s.owner == 0
    s = s.apply(None).apply(None)
    assert s.turn == 3 and s.passes == 2 and s.table is not None
    s = s.apply(None)
    assert (s.turn, s.table, s.owner, s.passes) == (2, None, None, 0)


def test_finished_seats_are_skipped_and_the_round_ends_sooner():
    s = GameState(["", "S3 S4", "S5 S6", "S7 S8"], R, turn=1, finished=(0,))
    s = s.apply(s.find("S4"))
    assert s.turn == 2                       # seat 3 next, seat 0 is skipped later
    s = s.apply(None).apply(None)            # 2 and 3 pass: only two others hold cards
    assert (s.turn, s.table) == (1, None)


def test_the_deal_ends_at_once_and_nothing_more_is_legal():
    s = GameState.start(["S3", "S4 S9", "S5", "S6 S7"], R, leader=0)
    s = s.apply(s.find("S3"))                # seat 0 out
    s = s.apply(s.find("S4"))
    s = s.apply(s.find("S5"))                # seat 2 out: team 0 first and second
    assert s.over and s.result() == 3 and s.legal_actions() == []
    assert s.why_illegal(None) == "the deal is over"
    with pytest.raises(PlayError):
        s.apply(None)


def test_legal_actions_and_reasons():
    s = GameState.start(["S3 S3 S4", "S5", "S6", "S7"], R, leader=0)
    lead = s.legal_actions()
    assert None not in lead and {p.type for p in lead} == {"single", "pair"}
    assert s.why_illegal(None) == "a pass on a free lead"
    s = s.apply(s.find("S3 S3"))
    assert s.legal_actions() == [None]       # seat 1 cannot beat a pair
    assert s.why_illegal(s.readings("S9 S9")[0]) == "seat 1 does not hold S9"
    assert s.why_illegal(s.readings("S5")[0]) == "single 5 does not beat the standing pair 3 (S3 S3)"


def test_level_gain_for_every_finishing_order():
    assert level_gain([0, 2]) == 3 and level_gain([1, 3]) == -3
    assert level_gain([0, 1, 2]) == 2 and level_gain([3, 0, 1]) == -2
    assert level_gain([0, 1, 3]) == 1 and level_gain([1, 0, 2]) == -1
    assert level_gain([0]) is None and level_gain([0, 1]) is None
