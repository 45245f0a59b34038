"""Tribute and return tribute: every clause of RULES §7, the
advice ranking, and the ``gd-analyze tribute`` command."""

import pytest

from conftest import by_run
from guandan_fast import Card, Rules
from guandan_fast.errors import GuandanError, HandError, RecordError
from guandan_fast.game.tribute import (anti_tribute, return_candidates, tribute_candidates,
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


# ---------------------------------------------------------------------------
# advice
# ---------------------------------------------------------------------------

from guandan_fast import min_plays, suggest_return, suggest_tribute  # noqa: E402
from guandan_fast.bots.advice import held_bombs  # noqa: E402

import reference  # noqa: E402  (tests/reference.py, pure Python)
from guandan_fast.report.i18n import advice_reason, describe_bomb  # noqa: E402


def _reason(advice, lang="en"):
    """The English reason text of an advice (made by the report layer)."""
    return advice_reason(advice, lang)


def ref_min_plays(text, level):
    return reference.min_plays(text.split(), level)


def test_tribute_breaking_a_straight_flush_ranks_below_keeping_it():
    hand = "ST SJ SQ SK SA HA D3"
    advice = suggest_tribute(hand, Rules(level=2))
    assert [str(a.card) for a in advice] == ["HA", "SA"]
    keep, brk = advice
    # equal minimum plays (exact, checked against the reference)
    assert keep.min_plays_after == brk.min_plays_after == ref_min_plays("ST SJ SQ SK SA D3", "2")
    assert keep.min_plays_before == ref_min_plays(hand, "2") == 3
    assert brk.breaks_bomb and not keep.breaks_bomb
    assert [b["type"] for b in brk.broken] == ["straight_flush"]
    assert brk.bombs_before == 1 and brk.bombs_after == 0 and keep.bombs_after == 1
    assert keep.straight_flushes_after == 1 and brk.straight_flushes_after == 0
    assert "breaks your straight flush S10–SA" in _reason(brk)
    assert "keeps your bombs" in _reason(keep)


def test_return_breaking_a_bomb_ranks_below_keeping_it_when_plays_equal():
    r = Rules(level=2)
    hand = "S7 H7 C7 D7 S3 D9 D9"
    advice = {str(a.card): a for a in suggest_return(hand, r)}
    assert set(advice) == {"S3", "S7", "H7", "C7", "D7", "D9"}
    ranked = [str(a.card) for a in suggest_return(hand, r)]
    assert ranked[0] == "S3"
    # giving a 7 leaves 777+99 and S3: as few plays as giving S3 (7777, 99)
    assert advice["S7"].min_plays_after == advice["S3"].min_plays_after == 2
    assert advice["S7"].min_plays_after == ref_min_plays("H7 C7 D7 S3 D9 D9", "2")
    assert advice["S7"].broken == [{"type": "bomb", "rank": "7", "suit": None, "size": 4}]
    assert not advice["S3"].breaks_bomb
    # D9 costs a play: ranked last although it breaks nothing
    assert ranked[-1] == "D9" and advice["D9"].min_plays_after == 3
    assert ranked.index("S7") < ranked.index("D9")


def test_fewer_plays_beats_keeping_a_bomb():
    # the first key is the minimum plays: 777+33 is one play, 7777 and D3 two
    r = Rules(level=2)
    advice = suggest_return("S7 H7 C7 D7 S3 D3", r)
    assert str(advice[0].card)[1] == "7" and advice[0].min_plays_after == 1
    assert advice[0].breaks_bomb


def test_return_completing_the_receivers_bomb_is_flagged_and_last():
    r = Rules(level=2)
    giver = "S7 D4 SK SK"
    receiver = "C7 D7 H7 SQ D4"
    advice = suggest_return(giver, r, receiver=receiver)
    assert [str(a.card) for a in advice] == ["D4", "S7"]
    d4, s7 = advice
    assert s7.mistake is True and d4.mistake is False
    assert s7.completes == [{"type": "bomb", "rank": "7", "suit": None, "size": 4}]
    assert s7.receiver_bombs_without == 0 and s7.receiver_bombs_with == 1
    # by plays alone S7 would be the better card: D4 saves them a play
    assert d4.receiver_min_plays_without == 3 and d4.receiver_min_plays_with == 2
    assert s7.receiver_min_plays_with == 3
    assert s7.net_plays < d4.net_plays
    assert "completes the receiver's bomb 7 (4); classic mistake" in _reason(s7)
    assert "classic mistake" not in _reason(d4)


def test_return_completing_the_receivers_straight_flush_is_flagged():
    r = Rules(level=2)
    advice = suggest_return("S5 D5 CA CA", r, receiver="S3 S4 S6 S7 DK")
    by = {str(a.card): a for a in advice}
    assert by["S5"].mistake and [b["type"] for b in by["S5"].completes] == ["straight_flush"]
    assert not by["D5"].mistake
    assert [str(a.card) for a in advice] == ["D5", "S5"]


def test_tribute_suit_that_completes_the_receivers_straight_flush():
    r = Rules(level=2)
    advice = suggest_tribute("SA DA S3", r, receiver="ST SJ SQ SK D4")
    assert [str(a.card) for a in advice] == ["DA", "SA"]
    assert advice[1].mistake and not advice[0].mistake


def test_reason_in_other_languages():
    a = suggest_return("S7 D4 SK SK", Rules(level=2), receiver="C7 D7 H7 SQ D4")[-1]
    assert "классическая ошибка" in advice_reason(a, "ru")
    assert "典型失误" in advice_reason(a, "zh") and "炸弹" in advice_reason(a, "zh")
    # the advice is data: the same text from the JSON form, no text inside it
    d = a.to_dict()
    assert advice_reason(d, "ru") == advice_reason(a, "ru")
    assert {"key": "mistake", "params": {}} in d["reasons"] and "reason" not in d


def test_advice_min_plays_match_the_reference():
    r = Rules(level=5)
    hand = "S3 S4 S6 D8 D8 C5 H5 SK SA SB"
    for a in suggest_return(hand, r):
        rest = hand.split()
        rest.remove(str(a.card))
        assert a.min_plays_after == reference.min_plays(rest, "5")
        assert a.min_plays_before == reference.min_plays(hand.split(), "5")


def test_a_28_card_hand_between_tribute_and_return():
    import random
    rng = random.Random(5)
    deck = [t for t in reference.TOKENS for _ in range(2)]
    hand = rng.sample(deck, 28)
    r = Rules(level=3)
    advice = suggest_return(" ".join(hand), r)
    assert advice and all(a.min_plays_before == min_plays(hand, r) for a in advice)
    # the 27-card after-hands go through min_plays itself
    a = advice[0]
    rest = list(hand)
    rest.remove(str(a.card))
    assert a.min_plays_after == min_plays(rest, r)


def test_held_bombs_shrink_is_weakened_not_broken():
    r = Rules(level=2)
    by = {str(a.card): a for a in suggest_return("S9 H9 C9 D9 D9 SA", r)}
    assert by["S9"].broken == [] and by["S9"].weakened[0]["size"] == 4
    assert held_bombs("S9 H9 C9 D9 D9", r) == {("bomb", "9", None): 5}


def test_a_forced_completion_is_listed_but_not_a_mistake():
    # the tribute rank is forced: both fives complete the receiver's bomb
    r = Rules(level=2)
    advice = suggest_tribute("S5 D5 S3", r, receiver="C5 C5 H5 S4")
    assert [a.mistake for a in advice] == [False, False]
    assert all([describe_bomb(b) for b in a.completes] == ["bomb 5 (4)"] for a in advice)
    assert "unavoidable" in _reason(advice[0])


def test_giver_and_receiver_cannot_hold_a_third_copy():
    with pytest.raises(HandError, match="S3 3 times"):
        suggest_return("S3 S4", Rules(level=2), receiver="S3 S3")


def test_exchange_advice_for_a_deal():
    from guandan_fast.bots.advice import exchange_advice
    hands = ["S3 S4", "SK SK D4", "S5 S6", "SA C6 D6"]
    data = exchange_advice("0 2 1 3", hands, Rules(level=2))
    assert data["plan"]["payments"] == [{"payer": 3, "receiver": 0}, {"payer": 1, "receiver": 2}]
    first, second = data["exchanges"]
    assert first["tribute_card"] == "SA" and second["tribute_card"] == "SK"
    # seat 0 holds S3 S4 SA: returns S3 or S4 to seat 3
    assert {a["card"] for a in first["return"]} == {"S3", "S4"}
    assert first["return"][0]["receiver_min_plays_without"] == 1   # C6 D6: a pair
    # seat 2 returns to seat 1, which holds SK D4 after paying
    assert {a["card"] for a in second["return"]} == {"S5", "S6"}


# ---------------------------------------------------------------------------
# gd-analyze tribute
# ---------------------------------------------------------------------------

import json  # noqa: E402
from pathlib import Path  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


from clirun import run  # noqa: E402  (gd-analyze in process)


def gd(*args, stdin=None):
    return run("tribute", *args, stdin=stdin)


def one_line_error(r):
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    return r.stderr


def test_cli_give_text_and_json():
    r = gd(EXAMPLES / "tribute_give.txt", "--give")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1] == "Tribute to pay (best first):"
    assert lines[2].split()[:2] == ["1.", "HA"]
    assert lines[3].split()[:2] == ["2.", "SA"] and "breaks your straight flush S10–SA" in lines[3]
    r = gd(EXAMPLES / "tribute_give.txt", "--give", "--format", "json")
    data = json.loads(r.stdout)
    assert data["mode"] == "give" and data["cards"] == 27 and data["level"] == "2"
    ha, sa = data["advice"]
    assert (ha["card"], sa["card"]) == ("HA", "SA")
    assert ha["min_plays_after"] == sa["min_plays_after"]
    assert sa["breaks_bomb"] is True and ha["breaks_bomb"] is False
    assert "receiver_min_plays_with" not in ha


def test_cli_return_28_cards_with_receiver_review():
    r = gd(EXAMPLES / "tribute_return.txt", "--return", "--receiver",
           EXAMPLES / "tribute_payer.txt", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["cards"] == 28 and data["receiver_cards"] == 26
    advice = data["advice"]
    cards = [a["card"] for a in advice]
    assert set(cards) == {"S2", "D2", "S3", "C4", "D5", "S6", "C8", "D8", "S9", "C9", "HT"}
    by = {a["card"]: a for a in advice}
    # the payer holds H8 S8 C8: a returned 8 completes their bomb
    assert by["C8"]["mistake"] and by["D8"]["mistake"] and not by["S9"]["mistake"]
    assert [describe_bomb(b) for b in by["C8"]["completes"]] == ["bomb 8 (4)"]
    flags = [a["mistake"] for a in advice]
    assert flags == sorted(flags)                # the mistakes come last
    r = gd(EXAMPLES / "tribute_return.txt", "--return", "--receiver", EXAMPLES / "tribute_payer.txt")
    assert "completes the receiver's bomb 8 (4); classic mistake  [mistake]" in r.stdout


def test_cli_deal_exchange():
    r = gd(EXAMPLES / "deal_tribute.txt", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    plan = data["plan"]
    assert plan["kind"] == "double_down" and plan["leader"] == 1
    assert plan["payments"] == [{"payer": 1, "receiver": 0}, {"payer": 3, "receiver": 2}]
    assert plan["tribute_ranks"] == ["R", "5"]
    assert [e["tribute_card"] for e in data["exchanges"]] == ["HR", "S5"]
    assert all(e["return"] for e in data["exchanges"])
    r = gd(EXAMPLES / "deal_tribute.txt")
    assert "seat 1 pays big joker to seat 0; seat 3 pays 5 to seat 2" in r.stdout
    assert r.stdout.rstrip().endswith("Leads: seat 1")
    ru = gd(EXAMPLES / "deal_tribute.txt", "--lang", "ru")
    zh = gd(EXAMPLES / "deal_tribute.txt", "--lang", "zh")
    assert "Ходит первым: место 1" in ru.stdout and "двойной проигрыш" in ru.stdout
    assert zh.stdout.rstrip().endswith("先出：1号位")
    assert "先出" in zh.stdout and "双下" in zh.stdout


def test_cli_deal_anti_tribute_from_stdin():
    deal = "level: 2\norder: 1 2 0 3\n0: S3\n1: S4\n2: S5\n3: HR HR SA\n"
    r = gd("-", stdin=deal)
    assert r.returncode == 0, r.stderr
    assert "Anti-tribute" in r.stdout and "Leads: seat 1" in r.stdout
    data = json.loads(gd("-", "--format", "json", stdin=deal).stdout)
    assert data["plan"]["anti_tribute"] is True and data["exchanges"] == []


@pytest.mark.parametrize("args,stdin,needle", [
    (["-"], "0: S3\n1: S4\n2: S5\n3: S6\n", "no previous finishing order"),
    (["-"], "order: 0 1 2\n0: S3\n1: S4\n2: S5\n3: S6\n", "line 1"),
    (["-"], "order: 0 1 2 3\n0: S3\n1: S4\n2: S5\n", "seat 3"),
    (["-", "--receiver", "x.txt"], "0: S3\n", "--receiver"),
    (["-", "--give"], "S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA SB HR " * 2, "more than 27"),
    (["-", "--return"], "S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA SB HR " * 2 + "D3",
     "more than 28"),
    (["-", "--give", "--receiver", EXAMPLES / "tribute_give.txt"], "SA SA", "SA 3 times"),
    (["-", "--give"], "S3 X9", "'X9'"),
])
def test_cli_bad_input_one_line_exit_2(args, stdin, needle):
    assert needle in one_line_error(gd(*args, stdin=stdin))


def test_breaking_a_held_bomb_ranks_below_a_higher_card_that_keeps_it():
    # giving C8 or a 3 both leave 3 plays, and in both cases the best
    # partition no longer plays 3333 as a bomb; but only the 3 destroys the
    # bomb held: C8 ranks above every 3 although it is the higher card
    r = Rules(level=2)
    hand = "S3 H3 C3 D3 S6 C5 D7 CT C8 H4"
    advice = suggest_return(hand, r)
    ranked = [str(a.card) for a in advice]
    assert ranked[:6] == ["CT", "C8", "S3", "H3", "C3", "D3"]
    by = {str(a.card): a for a in advice}
    assert by["C8"].min_plays_after == by["S3"].min_plays_after == 3
    assert by["C8"].bombs_after == by["S3"].bombs_after == 0
    assert not by["C8"].breaks_bomb and by["S3"].breaks_bomb
    assert "bombs in your best decomposition 1 → 0" in _reason(by["C8"])
    assert by["CT"].min_plays_after == ref_min_plays("S3 H3 C3 D3 S6 C5 D7 C8 H4", "2") == 2


def test_plan_invariants_on_random_deals():
    import itertools
    import random
    from guandan_fast import CARDS
    rng = random.Random(7)
    deck = [c for c in CARDS for _ in range(2)]
    orders = list(itertools.permutations(range(4)))
    for i in range(200):
        rng.shuffle(deck)
        hands = [deck[k * 27:(k + 1) * 27] for k in range(4)]
        order = list(orders[i % 24])
        r = Rules(level="23456789TJQKA"[i % 13], equal_tribute_to_upper_hand=bool(i % 3))
        p = tribute_plan(order, hands, r)
        first, second, third, last = order
        winners = {first, (first + 2) % 4}
        if p.anti_tribute:
            assert p.payments == [] and p.leader == first
            assert sum(str(c) == "HR" for s in p.payers for c in hands[s]) == 2
            continue
        payers = [q for q, _ in p.payments]
        receivers = [q for _, q in p.payments]
        assert payers == p.payers or sorted(payers) == sorted(p.payers)
        assert len(set(receivers)) == len(receivers)
        assert p.leader == payers[0]
        for (payer, receiver), rank in zip(p.payments, p.tribute_ranks):
            assert rank == tribute_candidates(hands[payer], r)[0].rank
            if p.kind == "double_down":
                assert receiver in winners and payer not in winners
        if p.kind == "single_down":
            assert p.payments == [(last, first)]
        else:
            assert set(receivers) == winners
            if not p.equal_tributes:
                o = [r.order(x) for x in p.tribute_ranks]
                assert o[0] > o[1] and p.payments[0][1] == first
            elif r.equal_tribute_to_upper_hand:
                assert all(q == (pp - 1) % 4 for pp, q in p.payments)
                assert p.payments[0][1] == first


def test_record_checks_use_the_same_candidates():
    """The legality checks of deal records are the candidate rules of this
    module: one rule, one place (a wild is never the 'lowest card' returned
    while another card is held)."""
    from guandan_fast.game.tribute import check_return_card, check_tribute_card
    r = Rules(level=2)
    assert check_return_card("H2 SA SK", Card("H2"), r) is not None
    assert check_return_card("H2 SA SK", Card("SK"), r) is None
    assert check_tribute_card("H2 SA", Card("H2"), r) is not None
    assert check_tribute_card("H2 SA", Card("SA"), r) is None


# ---------------------------------------------------------------------------
# "Strictly better advice": one order, TributeAdvice.rank_key, for the lists
# and for the review's "differs" (a reference of the documented ranking here,
# sharing no code with it)
# ---------------------------------------------------------------------------

def _documented_key(a):
    """suggest_tribute's docstring, criteria 1 to 7, first difference
    decides, lower is better (criterion 8, the card itself, is a tie-break,
    not a preference the review reports)."""
    gained = (a.receiver_bombs_with or 0) - (a.receiver_bombs_without or 0)
    help_ = (gained if gained > 0 else 0) + len(a.strengthens)
    receiver_saved = 0
    if a.receiver_min_plays_with is not None:
        receiver_saved = a.receiver_min_plays_without - a.receiver_min_plays_with
    net = (a.min_plays_after - a.min_plays_before) + receiver_saved
    return [1 if a.mistake else 0, net, len(a.broken),
            1 if a.bombs_after < a.bombs_before else 0, help_, len(a.weakened),
            -a.bombs_after]


def _strictly_better(a, b):
    for x, y in zip(_documented_key(a), _documented_key(b)):
        if x != y:
            return x < y
    return False


def _seeded_exchanges(n, seed):
    """(rules, hands, payer 3's tribute card) of seeded deals without an
    anti-tribute: seat 3 pays seat 0 (single down), seat 0 returns."""
    import random
    from guandan_fast._core import CARDS
    rng = random.Random(seed)
    deck = [c for c in CARDS for _ in range(2)]
    out = []
    while len(out) < n:
        rng.shuffle(deck)
        hands = [sorted(deck[27 * i:27 * i + 27]) for i in range(4)]
        if hands[3].count(Card("HR")) == 2:
            continue
        rules = Rules(level=rng.choice("23456789TJQKA"))
        out.append((rules, hands, tribute_candidates(hands[3], rules)[0]))
    return out


def test_the_advice_lists_follow_the_documented_order():
    from guandan_fast.bots.advice import suggest_return, suggest_tribute
    for rules, hands, paid in _seeded_exchanges(by_run(6, 40), 71):
        payer = list(hands[3])
        payer.remove(paid)
        for advice in (suggest_tribute(hands[3], rules, receiver=hands[0]),
                       suggest_tribute(hands[3], rules),
                       suggest_return(sorted(hands[0] + [paid]), rules, receiver=payer)):
            for a, b in zip(advice, advice[1:]):
                assert not _strictly_better(b, a), (str(a.card), str(b.card))
            for a in advice:
                for b in advice:
                    assert a.better_than(b) == _strictly_better(a, b), (str(a.card), str(b.card))


def test_the_review_says_differs_exactly_when_the_advice_ranks_another_card_strictly_better():
    """Seat 0 returns each legal card in turn on seeded deals: the review's
    ``differs`` is the documented order's "the advice's first card is
    strictly better", also where criteria 3 and 4 split (a held bomb broken
    against a bomb lost from the decomposition) or only criteria 5-7 decide;
    such cases are asserted to occur (the default run: the first deal, where
    they do)."""
    from guandan_fast.analysis.review import analyse
    from guandan_fast.bots.advice import suggest_return
    from guandan_fast.game.record import Record, Transfer
    disputed = 0      # pairs where criteria 3 and 4 split, or only 5..7 decide
    for rules, hands, paid in _seeded_exchanges(by_run(1, 6), 8):
        after = [list(h) for h in hands]
        after[3].remove(paid)
        after[0] = sorted(after[0] + [paid])
        advice = suggest_return(after[0], rules, receiver=sorted(after[3]))
        for a in advice:
            k0, k = _documented_key(advice[0]), _documented_key(a)
            if k0[:2] == k[:2] and (k0[4:] != k[4:] if k0[2:4] == k[2:4]
                                    else (k0[2] - k[2]) * (k0[3] - k[3]) < 0):
                disputed += 1
            rec = Record(hands=hands, rules=rules, previous=[0, 1, 2, 3],
                         tributes=[Transfer(3, 0, paid)], returns=[Transfer(0, 3, a.card)],
                         moves=[])
            review = analyse(rec, views=("double",), estimator=None, opening=False,
                             solve_cards=0).exchange[1]
            assert review.card == a.card
            assert review.differs == _strictly_better(advice[0], a), (str(a.card), k0, k)
    assert disputed > 0


def test_anti_tribute_refuses_payer_hands_beyond_two_decks():
    from guandan_fast import HandError, anti_tribute
    for hands in (["SB SB", "SB"], ["HR HR", "HR"]):
        with pytest.raises(HandError, match="two copies"):
            anti_tribute(hands)
    assert anti_tribute(["HR S3", "HR D4"]) and not anti_tribute(["SB SB", "S3"])
