"""Card notation for people (RULES §1, docs/formats.md "Card notation"):
every text rendering writes 10 (never T), Russian writes В Д К Т for
J Q K A, and the parser reads every rendering back; the new input aliases;
the look-alike warnings; errors that repeat the token as typed."""

import random
import warnings

import pytest

from guandan_fast import CARDS, CardParseError, HandError, format_cards, parse_card, parse_cards
from guandan_fast.errors import NotationWarning
from guandan_fast.model.cards import parse_card_tokens
from guandan_fast.report.i18n import LANGS, card_label, cards_label, describe_bomb, rank_label

DECK = [c for c in CARDS for _ in range(2)]


def _hands(seed, n=200):
    """``n`` seeded random hands of 1..27 cards from the double deck."""
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.sample(DECK, rng.randint(1, 27))


# the reference: how each language writes a card, spelled out here without
# the library's tables (a Russian ace is Т, the ten is 10 everywhere)
_FACE = {"en": dict(zip("23456789TJQKA", ["2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "J", "Q", "K", "A"])),
         "ru": dict(zip("23456789TJQKA", ["2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "В", "Д", "К", "Т"]))}
_FACE["zh"] = _FACE["en"]
_SYM = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def _reference_label(token, lang):
    if token in ("SB", "HR"):
        return {"en": token, "ru": {"SB": "Дж-м", "HR": "Дж-б"}[token],
                "zh": {"SB": "小王", "HR": "大王"}[token]}[lang]
    face = _FACE[lang][token[1]]
    return {"en": token[0] + face, "ru": face + _SYM[token[0]], "zh": _SYM[token[0]] + face}[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_label_matches_the_reference_and_reads_back(lang):
    for card in CARDS:
        text = card_label(str(card), lang)
        assert text == _reference_label(str(card), lang)
        assert "T" not in text and "Т" not in text or (lang == "ru" and card.rank == "A")
        assert parse_card(text) == card


@pytest.mark.parametrize("lang", LANGS)
def test_rendered_hands_round_trip_in_each_language(lang):
    for seed in range(3):
        for cards in _hands(seed):
            text = cards_label(format_cards(cards), lang)
            with warnings.catch_warnings():
                warnings.simplefilter("error", NotationWarning)   # a rendering never warns
                assert parse_cards(text) == cards


def test_no_text_writes_t_for_the_ten():
    for lang in LANGS:
        assert rank_label("T", lang) == "10"
        assert "T" not in cards_label("ST HT CT DT", lang)
    assert describe_bomb({"type": "straight_flush", "rank": "A", "suit": "H", "size": 5}) == \
        "straight flush H10–HA"
    assert describe_bomb({"type": "straight_flush", "rank": "A", "suit": "H", "size": 5}, "ru") == \
        "флеш-стрит 10♥–Т♥"
    assert describe_bomb({"type": "straight_flush", "rank": "K", "suit": "D", "size": 5}, "zh") == \
        "同花顺 ♦9–♦K"


@pytest.mark.parametrize("text,cards", [
    ("红心10", "HT"), ("紅心J", "HJ"), ("草花3", "C3"), ("大鬼", "HR"), ("小鬼", "SB"),
    ("大王 小王", "HR SB"), ("Ａ♠", "SA"), ("１０♥", "HT"), ("Ｓ３", "S3"), ("ｈｒ", "HR"),
    ("S3，S4、S5；S6", "S3 S4 S5 S6"), ("S3,S4", "S3 S4"), ("Дж-м Дж-б", "SB HR"),
    ("джм", "SB"), ("10♠ В♥ Д♣ К♦ Т♠", "ST HJ CQ DK SA"), ("♠10 ♥J", "ST HJ"),
])
def test_new_aliases(text, cards):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotationWarning)
        assert format_cards(parse_cards(text)) == cards


@pytest.mark.parametrize("token,card,needle", [
    ("SТ", "SA", "'SТ' (token 1) mixes Latin letters (S) and Cyrillic letters (Т): read as SA, "
                 "the ace of spades (Cyrillic Т is туз, the ace; Latin T is the ten)"),
    ("Tпики", "ST", "'Tпики' (token 1) mixes Latin letters (T) and Cyrillic letters (пики): "
                    "read as ST, the ten of spades"),
    ("С3", "C3", "'С3' (token 1) writes Cyrillic С for Latin C: read as C3, the three of clubs"),
    ("Н10", "HT", "'Н10' (token 1) writes Cyrillic Н for Latin H: read as HT"),
    ("Кh", "HK", "'Кh' (token 1) mixes Latin letters (h) and Cyrillic letters (К)"),
])
def test_look_alike_mixes_are_read_as_the_rules_say_with_a_warning(token, card, needle):
    found = []
    assert [str(c) for c in parse_cards(token, warnings=found)] == [card]
    assert len(found) == 1 and needle in found[0], found
    with pytest.warns(NotationWarning, match="token 1"):
        parse_cards(token)
    with pytest.warns(NotationWarning):
        assert str(parse_card(token)) == card


def test_a_warning_names_the_line_of_a_text_of_several_lines():
    found = []
    parse_cards("S3 S4\nS5 SТ", warnings=found)
    assert found and found[0].startswith("'SТ' (line 2, token 2) mixes")


@pytest.mark.parametrize("seed", range(5))
def test_tokens_carry_their_own_line_index_and_warning(seed):
    # seeded texts of clean and look-alike tokens over several lines (from
    # line 7 of a file): each token's line and index counted here from the
    # text, its warning that of the token read alone
    rng = random.Random(seed)
    looks = ["SТ", "Tпики", "С3", "Н10", "Кh"]
    for _ in range(40):
        toks = [rng.choice(looks) if rng.random() < 0.3 else str(c)
                for c in rng.sample(DECK, rng.randint(1, 12))]
        lines, line = [], []
        for t in toks:
            line.append(t)
            if rng.random() < 0.3:
                lines.append(line)
                line = []
        lines.append(line)
        text = "\n".join(" ".join(ln) for ln in lines)
        try:
            found = []
            cards = parse_cards(text, warnings=found, first_line=7)
        except HandError:       # a look-alike may make a third copy
            with pytest.raises(HandError):
                parse_card_tokens(text, first_line=7)
            continue
        got = parse_card_tokens(text, first_line=7)
        assert [t.card for t in got] == cards
        expected = [(7 + k, t) for k, ln in enumerate(lines) for t in ln]
        assert [(t.line, t.text) for t in got] == expected
        assert [t.index for t in got] == list(range(1, len(toks) + 1))
        for t in got:
            alone = []
            parse_cards(t.text, warnings=alone)
            assert (t.warning is not None) == bool(alone)
        assert [t.warning for t in got if t.warning] == found


def test_a_clean_token_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotationWarning)
        parse_cards("S3 HT Т♠ Тпики 10h 红心J 大鬼 Ａ♥ Дж-б")


@pytest.mark.parametrize("text,needle", [
    ("S3 B♠", "unknown card token 'B♠' (token 2; with Cyrillic В it would be SJ)"),
    ("红心1", "unknown card token '红心1' (token 1)"),
    ("Ｘ９", "unknown card token 'Ｘ９' (token 1)"),         # as typed, not 'X9'
    ("S3\nS4 大猫", "unknown card token '大猫' (line 2, token 2)"),
    ("S3、S3、S3", "a third copy of S3 (token 3, 'S3')"),
    ("Т♠ SA Тпики", "a third copy of SA (token 3, 'Тпики')"),
])
def test_errors_repeat_the_token_as_typed(text, needle):
    with pytest.raises((CardParseError, HandError)) as e:
        parse_cards(text)
    assert needle in str(e.value)


def test_an_error_knows_its_line_from_first_line():
    with pytest.raises(CardParseError) as e:
        parse_cards("S3\nS4 X", first_line=20)
    assert e.value.line == 21 and "(line 21, token 2)" in str(e.value)


def test_a_list_of_cards_is_checked_as_it_iterates():
    """A list of Card objects is taken as it is only when it is valid; the
    count is what the list yields, not what a subclass's len says."""
    class Short(list):
        def __len__(self):
            return 0
    three = [CARDS[1]] * 3
    for hand in (three, tuple(three), Short(three)):
        with pytest.raises(HandError, match=r"a third copy of S3 \(token 3"):
            parse_cards(hand)
    with pytest.raises(HandError, match="more than 1 cards"):
        parse_cards(Short([CARDS[1], CARDS[2]]), max_cards=1)
    rng = random.Random(11)
    for _ in range(200):
        hand = rng.sample(list(CARDS) * 2, rng.randint(0, 27))
        got = parse_cards(hand, max_cards=27)
        assert got == hand and got is not hand
        assert parse_cards(" ".join(map(str, hand))) == hand
