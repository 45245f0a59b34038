"""Card notation (RULES 1): aliases, round trips, errors."""

import pytest

from conftest import by_run
from guandan_fast import CARDS, Card, CardParseError, HandError, format_cards, parse_card, parse_cards
from guandan_fast.model.cards import check_hand


def test_every_canonical_token_round_trips():
    for card in CARDS:
        assert parse_card(str(card)) == card
        assert Card(str(card)) == card
        assert Card(card.id) is not None and Card(card.id) == card
    assert len({str(c) for c in CARDS}) == 54


@pytest.mark.parametrize("token,canonical", [
    ("S3", "S3"), ("s3", "S3"), ("HT", "HT"), ("H10", "HT"), ("h10", "HT"),
    ("10h", "HT"), ("Ah", "HA"), ("ad", "DA"), ("Td", "DT"),
    ("♠A", "SA"), ("A♠", "SA"), ("♥10", "HT"), ("10♥", "HT"), ("♣2", "C2"), ("♦K", "DK"),
    ("♤9", "S9"), ("♡Q", "HQ"),
    ("大王", "HR"), ("小王", "SB"), ("黑桃A", "SA"), ("红桃10", "HT"), ("梅花3", "C3"),
    ("方块K", "DK"), ("方片K", "DK"),
    ("Т♠", "SA"), ("♦Д", "DQ"), ("В♣", "CJ"), ("К♥", "HK"), ("Тпики", "SA"),
    ("Дчерви", "HQ"), ("К-треф", "CK"), ("10бубны", "DT"), ("вбубен", "DJ"),
    ("SB", "SB"), ("hr", "HR"),
])
def test_aliases(token, canonical):
    assert str(parse_card(token)) == canonical


def test_mixed_text_with_separators_and_comments():
    text = "S3, h10 ♠A\n# a comment line\n红桃K Т♦ # trailing comment\n大王"
    assert format_cards(parse_cards(text)) == "S3 HT SA HK DA HR"


def test_cyrillic_t_is_ace_latin_t_is_ten():
    assert parse_card("Т♠").rank == "A"
    assert parse_card("T♠").rank == "T"


@pytest.mark.parametrize("text,token,position", [
    ("S3 X9 S4", "X9", 2), ("S1", "S1", 1), ("S3 S4 S11", "S11", 3), ("KA", "KA", 1),
    ("S3 BB", "BB", 2),
])
def test_unknown_token_names_token_and_position(text, token, position):
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    assert err.value.token == token
    assert err.value.position == position
    assert repr(token) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_huge_unknown_token_is_cut_in_the_message():
    token = "Q" * by_run(200_000, 2_000_000)
    for parse in (parse_cards, parse_card, lambda t: parse_cards([t])):
        with pytest.raises(CardParseError) as err:
            parse("S3 " + token if parse is parse_cards else token)
        assert err.value.token == token                 # the whole token is kept
        assert len(str(err.value)) < 100
        assert repr("Q" * 30 + "...") in str(err.value)
    # a card token made huge by hyphens (refused: no alias has them there) is cut too
    with pytest.raises(CardParseError) as err:
        parse_cards("S3 S3 S" + "-" * 100_000 + "3")
    assert len(str(err.value)) < 120 and repr("S" + "-" * 29 + "...") in str(err.value)


def test_line_is_reported_for_multi_line_text():
    with pytest.raises(CardParseError) as err:
        parse_cards("S3 S4\nS5 ZZ\n")
    assert err.value.line == 2
    assert "line 2" in str(err.value)


def test_third_copy_is_an_error():
    with pytest.raises(HandError, match="third copy of S3"):
        parse_cards("S3 s3 ♠3")
    with pytest.raises(HandError):
        check_hand([Card("HR")] * 3)


def test_more_than_27_cards_in_a_hand():
    text = " ".join(str(c) for c in CARDS[:28])
    assert len(parse_cards(text)) == 28
    with pytest.raises(HandError, match="more than 27"):
        parse_cards(text, max_cards=27)


def test_card_order_and_hash():
    cards = parse_cards("HR SB SA D3 S3 C2")
    assert [str(c) for c in sorted(cards)] == ["C2", "S3", "D3", "SA", "SB", "HR"]
    assert len({Card("S3"), parse_card("♠3"), Card("D3")}) == 2
    assert Card("SB").is_joker and Card("SB").suit is None and Card("SB").rank == "B"
    with pytest.raises(ValueError):
        Card("S1")
    with pytest.raises(ValueError):
        Card(54)


def test_parse_card_of_a_non_text_is_a_card_parse_error():
    from guandan_fast.errors import CardParseError
    for token in (None, 5, 3.0, b"S3"):
        with pytest.raises(CardParseError, match="a card token is text"):
            parse_card(token)


@pytest.mark.parametrize("token", ["-S3", "S--3", "S3-", "3-S", "H-R", "Дж--м", "К-♠", "S-3",
                                   "пики-К", "-Дж-м"])
def test_a_hyphen_outside_the_russian_forms_is_refused(token):
    with pytest.raises(CardParseError, match="a hyphen only as in") as err:
        parse_cards("S4 " + token)
    assert err.value.token == token and err.value.position == 2


@pytest.mark.parametrize("token, card", [("Дж-м", "SB"), ("Дж-б", "HR"), ("джокер-б", "HR"),
                                         ("К-пики", "SK"), ("Т-треф", "CA"), ("10-бубны", "DT")])
def test_the_hyphenated_russian_forms_still_read(token, card):
    assert str(parse_card(token)) == card


@pytest.mark.parametrize("token", [2 ** 70, 54, -1, "ZZ", None, b"S3", True, 3.0, "S3 S4"])
def test_the_card_constructor_refuses_with_a_card_parse_error(token):
    with pytest.raises(CardParseError):
        Card(token)


def test_the_card_constructor_takes_slots_tokens_and_cards():
    assert [Card(i) for i in range(54)] == list(CARDS)
    assert all(Card(str(c).lower()) == c == Card(c) for c in CARDS)


@pytest.mark.parametrize("kw", [dict(max_cards="x"), dict(max_cards=-1), dict(max_cards=1.5),
                                dict(max_cards=True), dict(first_line="a"), dict(first_line=0)])
def test_the_count_arguments_of_parse_cards_are_checked(kw):
    with pytest.raises(HandError, match=next(iter(kw))):
        parse_cards("S3 S4", **kw)
