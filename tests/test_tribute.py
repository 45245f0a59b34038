"""Tribute and return tribute: every clause of RULES.md section 7, the
advice ranking, and the ``gd-analyze tribute`` command."""

import pytest

from guandan_fast import Card, Rules
from guandan_fast.errors import GuandanError, HandError, RecordError
from guandan_fast.tribute import (anti_tribute, return_candidates, tribute_candidates,
                                  tribute_plan, upper_hand)


def cards(text):
    return [Card(t) for t in text.split()]


# ---------------------------------------------------------------------------
# tribute candidates: the highest card in single-card order, never a wild
# ---------------------------------------------------------------------------

def test_highest_card_is_the_tribute():
    assert tribute_candidates("S3 D9 CK SA", Rules(level=2)) == cards("SA")


def test_highest_rank_in_several_suits_one_entry_per_distinct_card():
    got = tribute_candidates("DA SA SA CA S3 DK", Rules(level=2))
    assert got == cards("SA CA DA")


def test_big_joker_over_small_joker_over_level_card():
    r = Rules(level=9)
    assert tribute_candidates("SB HR S9 SA", r) == cards("HR")
    assert tribute_candidates("SB S9 SA", r) == cards("SB")


def test_wild_as_highest_card_is_skipped():
    # level 9: H9 is wild and would be the highest card; it is never paid
    r = Rules(level=9)
    assert tribute_candidates("H9 SA DK", r) == cards("SA")
    # two wilds and a level card: the non-wild level card is paid
    assert tribute_candidates("H9 H9 C9 SA", r) == cards("C9")


def test_level_card_is_the_highest_non_wild():
    # level 5: the 5s sit above the ace
    r = Rules(level=5)
    assert tribute_candidates("SA DA S5 D5 H5 CK", r) == cards("S5 D5")
    assert tribute_candidates("SA DA CK S2", r) == cards("SA DA")


def test_only_wilds_have_no_tribute():
    assert tribute_candidates("H3 H3", Rules(level=3)) == []


# ---------------------------------------------------------------------------
# return candidates: face value 2..10, not the level rank; else the lowest
# ---------------------------------------------------------------------------

def test_return_face_value_2_to_10_not_level_rank():
    r = Rules(level=7)
    got = return_candidates("S2 ST DT S7 C7 H7 SJ SA SB", r)
    assert got == cards("S2 ST DT")


def test_return_ten_allowed_jack_not():
    assert return_candidates("CT SJ", Rules(level=2)) == cards("CT")


def test_no_card_of_2_to_10_returns_the_lowest_card():
    r = Rules(level=2)
    assert return_candidates("SA SK DQ CJ HR", r) == cards("CJ")
    # the lowest rank held in several suits: each suit listed
    assert return_candidates("SA SQ DQ HQ SB", r) == cards("SQ HQ DQ")


def test_lowest_card_with_only_level_cards_and_jokers():
    # level 4, no J..A either: the level card is the lowest; the wild is not
    # returned while another card is held
    r = Rules(level=4)
    assert return_candidates("S4 H4 SB HR", r) == cards("S4")
    assert return_candidates("H4 SB", r) == cards("SB")
    assert return_candidates("H4 H4", r) == cards("H4")


def test_level_rank_below_ten_excluded_from_face_values():
    r = Rules(level=9)
    assert return_candidates("S9 D9 SA", r) == cards("SA")


# ---------------------------------------------------------------------------
# anti-tribute
# ---------------------------------------------------------------------------

def test_anti_tribute_one_payer_holds_both_big_jokers():
    assert anti_tribute(["HR HR S3 D4"]) is True
    assert anti_tribute("HR HR S3") is True
    assert anti_tribute(["HR SB SB S3"]) is False


def test_anti_tribute_big_jokers_split_between_the_two_payers():
    assert anti_tribute(["HR S3", "HR D4"]) is True
    assert anti_tribute(["HR S3", "SB SB D4"]) is False


# ---------------------------------------------------------------------------
# the plan: who pays whom, and who leads
# ---------------------------------------------------------------------------

def test_upper_hand_is_the_opponent_playing_just_before():
    assert [upper_hand(s) for s in range(4)] == [3, 0, 1, 2]


def test_single_down_last_pays_first_and_leads():
    # order 2 1 0 3... first 2, second 1 (not partner): single down; last 3
    p = tribute_plan([2, 1, 0, 3], ["S3", "S4", "S5", "SA SK"], Rules(level=2))
    assert p.kind == "single_down"
    assert p.payments == [(3, 2)]
    assert p.tribute_ranks == ["A"]
    assert p.anti_tribute is False
    assert p.leader == 3
    # first and third partners, the last an opponent
    p = tribute_plan("1 0 3 2", ["S3", "S4", "DQ", "S6"], Rules(level=2))
    assert p.kind == "single_down" and p.payments == [(2, 1)] and p.leader == 2


def test_single_down_when_last_is_the_winners_partner_is_literal():
    # RULES 7 literally: the last finisher pays the first finisher
    p = tribute_plan("0 1 3 2", ["S3", "S4", "SK", "S6"], Rules(level=2))
    assert p.kind == "single_down" and p.payments == [(2, 0)] and p.leader == 2


def test_double_down_higher_tribute_to_first_lower_to_second():
    # 0 and 2 finish first and second; 1 third, 3 last
    hands = ["S3", "SK D4", "S5", "SA C6"]
    p = tribute_plan("0 2 1 3", hands, Rules(level=2))
    assert p.kind == "double_down" and p.equal_tributes is False
    assert p.payments == [(3, 0), (1, 2)]       # the ace goes to the first
    assert p.tribute_ranks == ["A", "K"]
    assert p.leader == 3                        # the payer of the higher tribute
    # swap: the third finisher now pays the higher tribute
    hands = ["S3", "SA D4", "S5", "SK C6"]
    p = tribute_plan("0 2 1 3", hands, Rules(level=2))
    assert p.payments == [(1, 0), (3, 2)] and p.leader == 1


def test_double_down_compares_in_single_card_order():
    # level 8: an 8 beats an ace; a wild is skipped
    hands = ["S3", "H8 SA", "S5", "D8 C6"]
    p = tribute_plan("2 0 3 1", hands, Rules(level=8))
    # seat 1 must pay an ace (its H8 is wild), seat 3 a level card: higher
    assert p.payments == [(3, 2), (1, 0)]
    assert p.tribute_ranks == ["8", "A"]
    assert p.leader == 3


def test_equal_tributes_go_to_the_upper_hand():
    hands = ["S3", "SA D4", "S5", "DA C6"]
    # first 2, second 0; payers 3 (third) and 1 (last)
    p = tribute_plan("2 0 3 1", hands, Rules(level=2))
    assert p.equal_tributes is True
    # 3 pays its upper hand 2 (the first finisher), 1 pays its upper hand 0
    assert sorted(p.payments) == [(1, 0), (3, 2)]
    assert p.payments[0] == (3, 2)
    assert p.leader == 3                         # paid the first finisher
    # first 0, second 2: payer 1's upper hand is 0 (first): 1 leads
    p = tribute_plan("0 2 3 1", hands, Rules(level=2))
    assert p.payments == [(1, 0), (3, 2)] and p.leader == 1


def test_equal_tributes_without_the_upper_hand_flag_follow_finishing_order():
    hands = ["S3", "SA D4", "S5", "DA C6"]
    r = Rules(level=2, equal_tribute_to_upper_hand=False)
    p = tribute_plan("2 0 3 1", hands, r)
    assert p.payments == [(1, 2), (3, 0)]        # last pays first, third second
    assert p.leader == 1


def test_anti_tribute_single_down_previous_first_leads():
    p = tribute_plan("1 2 0 3", ["S3", "S4", "S5", "HR HR SA"], Rules(level=2))
    assert p.anti_tribute is True and p.payments == [] and p.leader == 1


def test_single_down_partner_jokers_do_not_count():
    # payer 3 has one big joker, its partner 1 the other: single down pays
    p = tribute_plan("0 1 2 3", ["S3", "HR S4", "S5", "HR SA"], Rules(level=2))
    assert p.anti_tribute is False and p.payments == [(3, 0)] and p.tribute_ranks == ["R"]


def test_anti_tribute_double_down_one_payer_or_split():
    one = ["S3", "HR HR S4", "S5", "SA"]
    split = ["S3", "HR S4", "S5", "HR SA"]
    for hands in (one, split):
        p = tribute_plan("2 0 1 3", hands, Rules(level=2))
        assert p.kind == "double_down"
        assert p.anti_tribute is True and p.payments == [] and p.leader == 2


def test_plan_to_dict_is_json_ready():
    import json
    p = tribute_plan("0 2 1 3", ["S3", "SK D4", "S5", "SA C6"], Rules(level=2))
    d = json.loads(json.dumps(p.to_dict()))
    assert d["payments"] == [{"payer": 3, "receiver": 0}, {"payer": 1, "receiver": 2}]
    assert d["leader"] == 3 and d["kind"] == "double_down"


@pytest.mark.parametrize("order", ["0 1 2", "0 1 2 2", "0 1 2 4", "a b c d", [0, 1, 2, 3, 0]])
def test_bad_finishing_order(order):
    with pytest.raises(RecordError):
        tribute_plan(order, ["S3", "S4", "S5", "S6"], Rules())


def test_bad_deal_hands():
    with pytest.raises(HandError, match="seat 2"):
        tribute_plan("0 1 2 3", ["S3", "S3", "S3", "S6"], Rules())
    with pytest.raises(HandError, match="four hands"):
        tribute_plan("0 1 2 3", ["S3", "S4", "S5"], Rules())
    with pytest.raises(HandError, match="seat 3"):
        tribute_plan("0 1 2 3", ["S3", "S4", "S5", "H2 H2"], Rules(level=2))
    assert issubclass(HandError, ValueError) and issubclass(RecordError, GuandanError)
