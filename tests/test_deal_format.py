"""The deal file format (guandan_fast.formats.deal): round trip and errors."""

import random

import pytest

from guandan_fast import CARDS, Rules
from guandan_fast.formats.deal import DealFile, dumps_deal, load_deal, loads_deal
from guandan_fast.errors import CardParseError, HandError, RecordError, RulesError


def random_deal(seed):
    rng = random.Random(seed)
    deck = [c for c in CARDS for _ in range(2)]
    rng.shuffle(deck)
    return [sorted(deck[i * 27:(i + 1) * 27]) for i in range(4)]


@pytest.mark.parametrize("seed", range(5))
def test_round_trip(seed):
    order = random.Random(seed).sample(range(4), 4)
    rules = Rules(level="23456789TJQKA"[seed * 3 % 13],
                  equal_tribute_to_upper_hand=bool(seed % 2))
    deal = DealFile(hands=random_deal(seed), rules=rules, order=order)
    text = dumps_deal(deal)
    back = loads_deal(text)
    assert back.hands == deal.hands and back.order == order and back.rules == rules
    assert dumps_deal(back) == text


def test_aliases_comments_and_continuation_lines():
    text = ("# a deal\nуровень: 10\nпорядок: 3, 1, 0, 2\n"
            "0: ♠3 10h  # spade three, heart ten\n   大王\n1: S4\n2: Т♦\n3: sb\n")
    deal = loads_deal(text)
    assert deal.rules.level == "T" and deal.order == [3, 1, 0, 2]
    assert [" ".join(map(str, h)) for h in deal.hands] == ["S3 HT HR", "S4", "DA", "SB"]


def test_order_is_optional():
    assert loads_deal("0: S3\n1: S4\n2: S5\n3: S6").order is None


def test_example_file():
    from pathlib import Path
    deal = load_deal(Path(__file__).resolve().parent.parent / "examples" / "deal_tribute.txt")
    assert deal.rules.level == "5" and deal.order == [0, 2, 1, 3]
    assert [len(h) for h in deal.hands] == [27, 27, 27, 27]


@pytest.mark.parametrize("text,error,needle", [
    ("0: S3\n1: S4\n2: S5", RecordError, "no hand for seat 3"),
    ("0: S3\n0: S4\n1: S5\n2: S6\n3: S7", RecordError, "line 2: seat 0 given twice"),
    ("S3\n0: S4\n1: S5\n2: S6\n3: S7", RecordError, "line 1: cards before any seat"),
    ("order: 0 1 2\n0: S3\n1: S4\n2: S5\n3: S6", RecordError, "line 1: order"),
    ("order: 0 1 1 2\n0: S3\n1: S4\n2: S5\n3: S6", RecordError, "line 1"),
    ("colour: red\n0: S3\n1: S4\n2: S5\n3: S6", RecordError, "line 1: unknown setting 'colour'"),
    ("level: 1\n0: S3\n1: S4\n2: S5\n3: S6", RulesError, "line 1"),
    ("0: S3\n1: S4 X9\n2: S5\n3: S6", CardParseError, "line 2, seat 1"),
    ("0: S3 S3\n1: S4\n2: S3\n3: S6", HandError, "line 3, seat 2: a third copy of S3"),
    ("0: " + " ".join(["S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA SB HR"] * 2) + "\n1: D4\n2: D5\n3: D6",
     HandError, "seat 0: more than 27"),
])
def test_errors_name_the_line(text, error, needle):
    with pytest.raises(error, match=needle):
        loads_deal(text)
