"""Readings (RULES 3 and 5) and order (RULES 2 and 4), case by case."""

import pytest

from guandan_fast import PlayError, Rules, RulesError, beats, classify, read_play


def readings(text, level=2, **flags):
    return sorted((p.type, p.rank) for p in classify(text, Rules(level=level, **flags)))


def play(text, level=2, type=None, rank=None, **flags):
    return read_play(text, Rules(level=level, **flags), type=type, rank=rank)


@pytest.mark.parametrize("level,index", [(7, 5), ("7", 5), ("T", 8), (10, 8), ("10", 8),
                                         ("A", 12), ("a", 12), (2, 0), ("J", 9), (14, 12)])
def test_level_forms(level, index):
    assert Rules(level=level).level_index == index


@pytest.mark.parametrize("bad", [1, 0, 15, "1", "B", "X", "", None, 2.5, True])
def test_invalid_levels(bad):
    with pytest.raises(RulesError):
        Rules(level=bad)


# --- singles, pairs, triples ------------------------------------------------

def test_groups():
    assert readings("S5") == [("single", "5")]
    assert readings("S5 D5") == [("pair", "5")]
    assert readings("S5 D5 C5") == [("triple", "5")]
    assert readings("S5 D6") == []
    assert readings("SB SB") == [("pair", "B")]
    assert readings("HR HR") == [("pair", "R")]
    assert readings("SB HR") == []
    assert readings("SB SB HR") == []


def test_lone_wild_is_level_single_and_two_wilds_a_level_pair():
    assert readings("H2", level=2) == [("single", "2")]
    assert readings("H2 H2", level=2) == [("pair", "2")]
    assert readings("H9 H9", level=9) == [("pair", "9")]


def test_wild_substitutes_but_not_for_jokers():
    assert readings("H2 SA", level=2) == [("pair", "A")]
    assert readings("H2 SB", level=2) == []
    assert readings("H2 H2 SA", level=2) == [("triple", "A")]
    assert readings("H2 HR HR", level=2) == []


def test_wild_as_itself_in_a_level_group():
    assert readings("H5 S5", level=5) == [("pair", "5")]
    assert readings("H5 S5 D5", level=5) == [("triple", "5")]


# --- full house -------------------------------------------------------------

def test_full_house():
    assert readings("S5 D5 C5 S9 D9") == [("full_house", "5")]
    assert readings("S5 D5 C5 S5 D9") == []
    # a wild completes either part: two readings
    assert readings("S5 D5 H2 S9 D9", level=2) == [("full_house", "5"), ("full_house", "9")]
    # three of a rank plus two wilds: full house (wilds as any pair) and a 5-bomb
    assert readings("S5 D5 C5 H2 H2", level=2) == [("bomb", "5"), ("full_house", "5")]


def test_joker_pair_in_full_house_flag():
    assert readings("S5 D5 C5 SB SB") == []
    assert readings("S5 D5 C5 HR HR", joker_pair_in_full_house=True) == [("full_house", "5")]
    assert readings("S5 D5 C5 SB HR", joker_pair_in_full_house=True) == []


# --- sequences ----------------------------------------------------------------

def test_straights_a_low_and_high_no_wrap():
    assert readings("SA D2 C3 S4 H5", level=9) == [("straight", "5")]
    assert readings("ST DJ CQ SK HA", level=9) == [("straight", "A")]
    assert readings("SK DA C2 S3 H4", level=9) == []
    assert readings("S3 D4 C5 S6 H7 D8", level=9) == []      # fixed length 5


def test_level_card_is_natural_in_sequences():
    # at level 7 the 7 sits between 6 and 8 in a straight
    assert readings("S5 D6 C7 S8 D9", level=7) == [("straight", "9")]
    # and is promoted outside: a 7 beats an ace as a single
    assert beats(play("S7", level=7), play("SA", level=7))
    assert not beats(play("SA", level=7), play("S7", level=7))


def test_tube_and_plate_ends():
    assert readings("SA DA S2 D2 S3 D3", level=9) == [("tube", "3")]
    assert readings("SQ DQ SK DK SA DA", level=9) == [("tube", "A")]
    assert readings("SK DK SA DA S2 D2", level=9) == []
    assert readings("SA DA CA S2 D2 C2", level=9) == [("plate", "2")]
    assert readings("SK DK CK SA DA CA", level=9) == [("plate", "A")]


def test_ambiguous_readings_rule_5():
    assert readings("S3 D3 S4 D4 H2 H2", level=2) == [("plate", "4"), ("tube", "4"), ("tube", "5")]


def test_straight_flush_and_flag():
    assert readings("S9 ST SJ SQ SK") == [("straight", "K"), ("straight_flush", "K")]
    assert readings("S9 ST SJ SQ SK", flush_is_always_bomb=True) == [("straight_flush", "K")]
    # wild takes the suit it needs
    assert ("straight_flush", "K") in readings("S9 ST H2 SQ SK", level=2)
    # mixed suits are only a straight
    assert readings("S9 DT SJ SQ SK", flush_is_always_bomb=True) == [("straight", "K")]
    # the heart level card in a heart run: the wild as itself
    assert ("straight_flush", "9") in readings("H5 H6 H7 H8 H9", level=7)


# --- bombs ----------------------------------------------------------------------

def test_bombs_and_wild_limits():
    assert readings("S5 D5 C5 H5") == [("bomb", "5")]
    assert readings("S5 S5 D5 D5 C5 C5 H5 H5 H2 H2", level=2) == [("bomb", "5")]
    assert play("S5 S5 D5 D5 C5 C5 H5 H5 H2 H2", level=2).size == 10
    assert readings("S5 S5 D5 D5 C5 C5 H5 H2 H2", level=2) == [("bomb", "5")]
    # the level rank reaches at most 8 cards: all eight are level cards
    assert readings("S2 S2 D2 D2 C2 C2 H2 H2", level=2) == [("bomb", "2")]
    assert readings("SB SB HR HR") == [("joker_bomb", "R")]
    assert readings("SB SB HR HR H2", level=2) == []


def test_read_play_errors():
    with pytest.raises(PlayError, match="not a valid play"):
        play("S3 S4")
    with pytest.raises(PlayError, match="ambiguous"):
        play("S3 D3 S4 D4 H2 H2", level=2)
    assert play("S3 D3 S4 D4 H2 H2", level=2, type="plate").rank == "4"


# --- what beats what (RULES 4) --------------------------------------------------

def test_non_bombs_need_same_type_and_higher_rank():
    assert beats(play("S6"), play("S5"))
    assert not beats(play("S5"), play("D5"))
    assert not beats(play("S6 D6"), play("S5"))
    assert beats(play("S4 D5 C6 S7 H8", level=9), play("SA D2 C3 S4 H5", level=9))
    assert beats(play("ST DJ CQ SK HA", level=9), play("S9 DT CJ SQ HK", level=9))
    assert beats(play("S2 D2 C2 S9 D9", level=2), play("SA DA CA SK DK", level=2))


def test_bomb_scale():
    ladder = [
        play("S5 D5 C5 S5"),                        # 4
        play("S9 D9 C9 C9"),                        # 4, higher rank
        play("S5 D5 C5 S5 D5"),                     # 5
        play("S3 S4 S5 S6 S7", type="straight_flush"),
        play("ST SJ SQ SK SA", type="straight_flush"),
        play("S4 D4 C4 S4 D4 C4"),                  # 6
        play("S4 D4 C4 S4 D4 C4 H4"),               # 7
        play("S4 D4 C4 S4 D4 C4 H4 H4"),            # 8
        play("S4 D4 C4 S4 D4 C4 H4 H4 H2", level=2, type="bomb"),
        play("S4 D4 C4 S4 D4 C4 H4 H4 H2 H2", level=2, type="bomb"),
        play("SB SB HR HR"),
    ]
    for i, weaker in enumerate(ladder):
        for stronger in ladder[i + 1:]:
            if stronger.level_index != weaker.level_index:
                continue
            assert beats(stronger, weaker), (stronger, weaker)
            assert not beats(weaker, stronger), (weaker, stronger)
    assert beats(play("S3 D3 C3 H3"), play("ST SJ SQ SK SA", type="straight"))
    assert not beats(play("SB SB HR HR"), play("SB SB HR HR"))


def test_level_bomb_beats_ace_bomb_of_same_size():
    assert beats(play("S7 D7 C7 S7", level=7), play("SA DA CA SA", level=7))


def test_flag_keys_are_the_variant_flags_of_rules():
    """model.rules.FLAG_KEYS (read by every format and the platform's
    messages) names exactly the boolean fields of Rules, in their order."""
    import dataclasses
    from guandan_fast.model.rules import FLAG_KEYS
    flags = [f.name for f in dataclasses.fields(Rules)
             if f.init and isinstance(getattr(Rules(), f.name), bool)]
    assert list(FLAG_KEYS) == flags and len(flags) == 5
