"""Names and labels in English, Russian and Chinese (RULES §9)."""

from __future__ import annotations

from typing import Optional

from ..errors import LanguageError
from ..model.cards import SEQUENCE

__all__ = ["LANGS", "type_name", "label", "rank_name", "reason_text", "tribute_label",
           "game_label", "describe_bomb", "advice_reason", "type_name_acc", "rank_label",
           "joker_card_label", "number", "bound", "levels", "count_of", "seat_label", "note_text",
           "estimate_text", "interval_text", "levels_estimate", "at_least_levels", "card_label",
           "cards_label",
           "rank_face", "SUIT_SYMBOLS", "structure_text", "drill_label", "punct", "aside",
           "enclosed"]

LANGS = ("en", "ru", "zh")

_TYPES = {
    "en": {
        "single": "single", "pair": "pair", "triple": "triple",
        "full_house": "full house", "straight": "straight", "tube": "tube",
        "plate": "plate", "straight_flush": "straight flush", "bomb": "bomb",
        "joker_bomb": "joker bomb", "pass": "pass",
    },
    "ru": {
        "single": "одиночная", "pair": "пара", "triple": "тройка",
        "full_house": "тройка с парой", "straight": "стрит",
        "tube": "связка пар", "plate": "стальная плита",
        "straight_flush": "флеш-стрит", "bomb": "бомба",
        "joker_bomb": "бомба джокеров", "pass": "пас",
    },
    "zh": {
        "single": "单张", "pair": "对子", "triple": "三张", "full_house": "三带二",
        "straight": "顺子", "tube": "连对", "plate": "钢板",
        "straight_flush": "同花顺", "bomb": "炸弹", "joker_bomb": "天王炸",
        "pass": "过",
    },
}

_LABELS = {
    "en": {
        "hand": "Hand", "level": "Level", "cards": "cards", "wilds": "Wild cards",
        "bombs": "Bombs held", "bombs_with_wilds": "With the wilds", "none": "none", "min_plays": "Minimum plays",
        "decomposition": "Decomposition", "plays": "Plays", "beats": "Plays that beat",
        "hints": "Hint order", "tribute": "Tribute", "return": "Return",
        "value": "Value", "moves": "Moves", "best_line": "Best line",
        "nodes": "Nodes", "time": "Time", "exact": "exact", "bound": "not proven",
        "level_card": "level card", "first": "first", "second": "second",
        "third": "third", "last": "last", "reason": "reason", "seat": "Seat",
        "mistake": "mistake", "loss": "loss", "total": "total", "plays_left": "plays left",
    },
    "ru": {
        "hand": "Рука", "level": "Уровень", "cards": "карт",
        "wilds": "Заменители", "bombs": "Бомбы на руке", "bombs_with_wilds": "С заменителями", "none": "нет",
        "min_plays": "Минимум ходов", "decomposition": "Разбиение",
        "plays": "Ходы", "beats": "Ходы, которые бьют", "hints": "Порядок подсказок",
        "tribute": "Дань", "return": "Ответная дань", "value": "Оценка",
        "moves": "Ходы", "best_line": "Лучшая линия", "nodes": "Узлы",
        "time": "Время", "exact": "точно", "bound": "не доказано",
        "level_card": "карта уровня", "first": "первый", "second": "второй",
        "third": "третий", "last": "последний", "reason": "причина",
        "seat": "Место", "mistake": "ошибка", "loss": "потеря", "total": "всего",
        "plays_left": "осталось ходов",
    },
    "zh": {
        "hand": "手牌", "level": "级牌", "cards": "张", "wilds": "逢人配",
        "bombs": "炸弹", "bombs_with_wilds": "配成", "none": "无", "min_plays": "最少手数",
        "decomposition": "拆牌", "plays": "出牌", "beats": "能管上的牌",
        "hints": "提示顺序", "tribute": "进贡", "return": "还贡", "value": "估值",
        "moves": "着法", "best_line": "最佳路线", "nodes": "节点", "time": "时间",
        "exact": "精确", "bound": "未证明", "level_card": "级牌", "first": "上游",
        "second": "二游", "third": "三游", "last": "下游", "reason": "理由",
        "seat": "座位", "mistake": "失误", "loss": "损失", "total": "合计",
        "plays_left": "剩余手数",
    },
}


def _check(lang: str) -> str:
    if not isinstance(lang, str) or lang not in LANGS:
        raise LanguageError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}"[:100])
    return lang


# The punctuation that joins the parts of a report's text, in ONE place:
# Chinese prose takes the full-width marks (，；：（）), English and Russian
# the ASCII ones. Notation keeps its own marks in every language: numbers,
# cards, intervals ([−1, +3]), values (=+2, ≈+0.4), the → of plays left.
_PUNCT = {
    "list": (", ", "，"),       # between the items of a list
    "clause": ("; ", "；"),     # between clauses
    "colon": (": ", "："),      # after a label (at a line's end: rstrip it)
    "open": ("(", "（"),        # a parenthesis that starts a line
    "close": (")", "）"),
    "aside": (" (", "（"),      # a parenthesis after a word: the space goes with it
}


def punct(kind: str, lang: str = "en") -> str:
    """A separator of the language's prose: ``list``, ``clause``,
    ``colon``, ``open``, ``close`` or ``aside`` (an opening parenthesis
    after a word, its space included); ASCII in English and Russian,
    full-width in Chinese.

    >>> punct("list"), punct("list", "zh"), punct("clause", "ru"), punct("clause", "zh")
    (', ', '，', '; ', '；')
    >>> punct("colon", "zh"), punct("colon", "zh").rstrip(), punct("colon").rstrip()
    ('：', '：', ':')
    >>> "最大失误 第3手" + punct("aside", "zh") + "2级" + punct("close", "zh")
    '最大失误 第3手（2级）'
    >>> punct("open", "ru") + "команда 0" + punct("close", "ru")
    '(команда 0)'
    """
    return _PUNCT[kind][_check(lang) == "zh"]


def enclosed(text: str, lang: str = "en") -> str:
    """``text`` in the language's parentheses, where no word comes before.

    >>> enclosed("forced"), enclosed("唯一着法", "zh")
    ('(forced)', '（唯一着法）')
    """
    return punct("open", lang) + text + punct("close", lang)


def aside(text: str, lang: str = "en") -> str:
    """``text`` in parentheses after a word: `` (text)``; in Chinese
    ``（text）``, with no space.

    >>> "moves" + aside("12"), "着法" + aside("12", "zh")
    ('moves (12)', '着法（12）')
    """
    return punct("aside", lang) + text + punct("close", lang)


def type_name(play_type: str, lang: str = "en") -> str:
    """The name of a play type (or 'pass') in a language.

    >>> type_name("tube", "ru"), type_name("plate", "zh")
    ('связка пар', '钢板')
    """
    return _TYPES[_check(lang)][play_type]


def label(key: str, lang: str = "en") -> str:
    """A report label in a language."""
    return _LABELS[_check(lang)][key]


def rank_name(rank: str) -> str:
    """The machine form of a rank character as a card token: jokers as
    their cards (``B`` -> ``SB``), other ranks as they are (``T``)."""
    return {"B": "SB", "R": "HR"}.get(rank, rank)


# -- cards as people write them ---------------------------------------------------
#
# Files and the platform's wire keep the canonical notation (``S3 HT DA SB
# HR``, model.cards); every text for people writes the ten as 10 and, in
# Russian, the court cards and the ace with the Russian letters: В валет,
# Д дама, К король, Т туз. The parser (model.cards.parse_cards) reads every
# form written here back as the same card (tests/test_cards.py checks it).

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_FACES = {
    "en": {"T": "10"},
    "zh": {"T": "10"},
    "ru": {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
}
# the jokers in a list of cards: English keeps the canonical tokens, Russian
# writes джокер малый / большой, Chinese 小王 / 大王
_JOKER_TOKENS = {
    "en": {"SB": "SB", "HR": "HR"},
    "ru": {"SB": "Дж-м", "HR": "Дж-б"},
    "zh": {"SB": "小王", "HR": "大王"},
}


def rank_face(rank: str, lang: str = "en") -> str:
    """The face of a suited rank (``2``..``A``) as people of the language
    write it: ``10`` for the ten; ``В Д К Т`` for J Q K A in Russian.

    >>> rank_face("T"), rank_face("Q", "ru"), rank_face("A", "ru"), rank_face("A", "zh")
    ('10', 'Д', 'Т', 'A')
    """
    return _FACES[_check(lang)].get(rank, rank)


def card_label(token: str, lang: str = "en") -> str:
    """A card (its canonical token) as the texts of the language write it:
    English ``S10``, ``HJ``, ``SB``; Russian rank then suit symbol ``10♠``,
    ``В♥``, ``Т♦``, ``Дж-м``; Chinese suit symbol then rank ``♠10``, ``♥J``,
    ``小王``.

    >>> card_label("ST"), card_label("HA", "ru"), card_label("DT", "zh"), card_label("HR", "ru")
    ('S10', 'Т♥', '♦10', 'Дж-б')
    """
    if token in ("SB", "HR"):
        return _JOKER_TOKENS[_check(lang)][token]
    suit, face = token[0], rank_face(token[1:], lang)
    if lang == "ru":
        return face + SUIT_SYMBOLS[suit]
    if lang == "zh":
        return SUIT_SYMBOLS[suit] + face
    return suit + face


def cards_label(cards: str, lang: str = "en") -> str:
    """Cards (canonical tokens separated by spaces, as the review's JSON
    holds them) as the texts of the language write them.

    >>> cards_label("ST SJ SQ SK SA", "ru")
    '10♠ В♠ Д♠ К♠ Т♠'
    """
    return " ".join(card_label(t, lang) for t in str(cards).split())


# Reasons of the tribute advice (guandan_fast.game.tribute); {bomb} is already
# rendered in the language.
_REASONS = {
    "en": {
        "plays": "your minimum plays {before} → {after}",
        "breaks": "breaks your {bomb}",
        "weakens": "weakens your {bomb}",
        "fewer_bombs": "bombs in your best decomposition {before} → {after}",
        "keeps_bombs": "keeps your bombs",
        "receiver_plays": "receiver's minimum plays {before} → {after}",
        "completes": "completes the receiver's {bomb}",
        "more_bombs": "receiver's bombs {before} → {after}",
        "strengthens": "strengthens the receiver's {bomb}",
        "mistake": "classic mistake",
        "unavoidable": "unavoidable: every legal card does it",
    },
    "ru": {
        "plays": "ваш минимум ходов {before} → {after}",
        "breaks": "ломает вашу комбинацию: {bomb}",
        "weakens": "ослабляет вашу комбинацию: {bomb}",
        "fewer_bombs": "бомб в лучшем разбиении {before} → {after}",
        "keeps_bombs": "бомбы сохранены",
        "receiver_plays": "минимум ходов получателя {before} → {after}",
        "completes": "достраивает получателю комбинацию: {bomb}",
        "more_bombs": "бомб у получателя {before} → {after}",
        "strengthens": "усиливает комбинацию получателя: {bomb}",
        "mistake": "классическая ошибка",
        "unavoidable": "неизбежно: так делает любая допустимая карта",
    },
    "zh": {
        "plays": "自己最少手数 {before} → {after}",
        "breaks": "拆了自己的{bomb}",
        "weakens": "削弱了自己的{bomb}",
        "fewer_bombs": "拆牌中的炸弹 {before} → {after}",
        "keeps_bombs": "保留炸弹",
        "receiver_plays": "对方最少手数 {before} → {after}",
        "completes": "给对方凑成{bomb}",
        "more_bombs": "对方炸弹 {before} → {after}",
        "strengthens": "加强了对方的{bomb}",
        "mistake": "典型失误",
        "unavoidable": "无法避免：每张可选的牌都如此",
    },
}


_SEQ = SEQUENCE


def describe_bomb(bomb, lang: str = "en", acc: bool = False) -> str:
    """Short text of a bomb dict (``type``, ``rank``, ``suit``, ``size``, as
    the tribute advice gives them): ``bomb 9 (5)``, ``straight flush
    S10–SA``, ``joker bomb``; ``acc``: as the object of "beats" (Russian
    accusative, ``бомбу``).

    >>> describe_bomb({"type": "straight_flush", "rank": "A", "suit": "S", "size": 5})
    'straight flush S10–SA'
    >>> describe_bomb({"type": "straight_flush", "rank": "A", "suit": "S", "size": 5}, "ru")
    'флеш-стрит 10♠–Т♠'
    >>> describe_bomb({"type": "bomb", "rank": "Q", "suit": None, "size": 5}, "ru")
    'бомба Д (5)'
    >>> describe_bomb({"type": "bomb", "rank": "Q", "suit": None, "size": 5}, "ru", acc=True)
    'бомбу Д (5)'
    >>> describe_bomb({"type": "bomb", "rank": "Q", "suit": None, "size": 5}, "zh")
    '炸弹 Q（5）'
    """
    typ, rank, suit = bomb["type"], bomb["rank"], bomb.get("suit")
    name = type_name_acc(typ, lang) if acc else type_name(typ, lang)
    if typ == "straight_flush":
        top = _SEQ.rindex(rank)
        low, high = card_label(suit + _SEQ[top - 4], lang), card_label(suit + rank, lang)
        return f"{name} {low}–{high}"
    if typ == "bomb":
        size = bomb.get("size")
        return f"{name} {rank_label(rank, lang)}" + (aside(str(size), lang) if size else "")
    return name


def advice_reason(advice, lang: str = "en") -> str:
    """The reason of a tribute advice in a language: ``advice`` is a
    ``TributeAdvice``, its ``to_dict()``, or its list of reason parts
    ((key, params) pairs or ``{"key", "params"}`` dicts).

    >>> advice_reason([("plays", {"before": 8, "after": 7}), ("mistake", {})], "ru")
    'ваш минимум ходов 8 → 7; классическая ошибка'
    """
    if isinstance(advice, dict):
        parts = advice.get("reasons") or []
    elif isinstance(advice, (list, tuple)):
        parts = advice
    else:
        parts = advice.reason_parts
    texts = []
    for part in parts:
        key, params = (part["key"], part["params"]) if isinstance(part, dict) else part
        params = dict(params)
        if "bomb" in params:
            params["bomb"] = describe_bomb(params["bomb"], lang)
        texts.append(reason_text(key, lang, **params))
    return punct("clause", lang).join(texts)


def reason_text(key: str, lang: str = "en", **params) -> str:
    """One piece of a tribute advice reason in a language.

    >>> reason_text("plays", "en", before=8, after=7)
    'your minimum plays 8 → 7'
    >>> reason_text("mistake", "zh")
    '典型失误'
    """
    return _REASONS[_check(lang)][key].format(**params)


# Labels of ``gd-analyze tribute``.
_TRIBUTE_LABELS = {
    "en": {
        "give": "Tribute to pay", "return": "Card to return", "best_first": "best first",
        "single_down": "single down", "double_down": "double down",
        "equal_tributes": "equal tributes", "previous_order": "Previous order",
        "anti_tribute": "Anti-tribute: the paying side holds both big jokers; no tribute",
        "pays": "seat {payer} pays {rank} to seat {receiver}",
        "tribute_from": "Tribute: seat {payer} → seat {receiver}",
        "return_from": "Return: seat {receiver} → seat {payer} (holding {card})",
        "leads": "Leads", "seat": "seat", "receiver": "Receiver", "no_choice": "no legal card",
    },
    "ru": {
        "give": "Какую дань отдать", "return": "Какую карту вернуть",
        "best_first": "лучшие сверху", "single_down": "одиночный проигрыш",
        "double_down": "двойной проигрыш", "equal_tributes": "равная дань",
        "previous_order": "Порядок прошлой сдачи",
        "anti_tribute": "Отказ от дани: у платящей стороны оба больших джокера; дани нет",
        "pays": "место {payer} платит {rank} месту {receiver}",
        "tribute_from": "Дань: место {payer} → место {receiver}",
        "return_from": "Ответная дань: место {receiver} → место {payer} (получив {card})",
        "leads": "Ходит первым", "seat": "место", "receiver": "Получатель",
        "no_choice": "нет допустимой карты",
    },
    "zh": {
        "give": "进贡", "return": "还贡", "best_first": "优先顺序",
        "single_down": "单下", "double_down": "双下", "equal_tributes": "贡牌相同",
        "previous_order": "上局名次",
        "anti_tribute": "抗贡：进贡方持有两张大王，不进贡",
        "pays": "{payer}号位向{receiver}号位进贡 {rank}",
        "tribute_from": "进贡：{payer}号位 → {receiver}号位",
        "return_from": "还贡：{receiver}号位 → {payer}号位（收到 {card}）",
        "leads": "先出", "seat": "座位", "receiver": "接收方", "no_choice": "无可出的牌",
    },
}


def tribute_label(key: str, lang: str = "en", **params) -> str:
    """A label of the tribute report in a language.

    >>> tribute_label("pays", "en", payer=3, rank="A", receiver=0)
    'seat 3 pays A to seat 0'
    """
    return _TRIBUTE_LABELS[_check(lang)][key].format(**params)


# The accusative of the play types (Russian "бьёт пару"); English and Chinese
# do not decline.
_TYPES_ACC_RU = {
    "single": "одиночную", "pair": "пару", "triple": "тройку",
    "full_house": "тройку с парой", "straight": "стрит", "tube": "связку пар",
    "plate": "стальную плиту", "straight_flush": "флеш-стрит", "bomb": "бомбу",
    "joker_bomb": "бомбу джокеров",
}


def type_name_acc(play_type: str, lang: str = "en") -> str:
    """The play type as the object of "beats" (Russian accusative).

    >>> type_name_acc("pair", "ru"), type_name_acc("plate", "ru"), type_name_acc("pair", "en")
    ('пару', 'стальную плиту', 'pair')
    """
    if _check(lang) == "ru":
        return _TYPES_ACC_RU[play_type]
    return type_name(play_type, lang)


_JOKERS = {
    "en": {"B": "small joker", "R": "big joker", "card_B": "JOKER", "card_R": "JOKER"},
    "ru": {"B": "малый джокер", "R": "большой джокер", "card_B": "ДЖОКЕР", "card_R": "ДЖОКЕР"},
    "zh": {"B": "小王", "R": "大王", "card_B": "小王", "card_R": "大王"},
}


def rank_label(rank: str, lang: str = "en") -> str:
    """A rank for people: jokers by name in the language, the others by
    their face (``rank_face``: 10 for the ten, Russian letters in Russian).

    >>> rank_label("B", "en"), rank_label("R", "ru"), rank_label("R", "zh"), rank_label("T", "ru")
    ('small joker', 'большой джокер', '大王', '10')
    >>> rank_label("K", "ru"), rank_label("J", "zh")
    ('К', 'J')
    """
    if rank in ("B", "R"):
        return _JOKERS[_check(lang)][rank]
    return rank_face(rank, lang)


def joker_card_label(token: str, lang: str = "en") -> str:
    """The word on a drawn joker card (SB, HR) in a language."""
    return _JOKERS[_check(lang)]["card_" + ("B" if token == "SB" else "R")]


def _ru_plural(n, one: str, few: str, many: str) -> str:
    if n != int(n):
        return few                      # 0,5 уровня, 1,5 уровня
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def number(x, lang: str = "en", digits: int = 1) -> str:
    """A number as people of the language write it (a decimal comma in
    Russian); integers, and numbers that round to one, without decimals.

    >>> number(2.0), number(0.75, "ru"), number(-1.5, "zh"), number(4.98), number(-0.01)
    ('2', '0,8', '-1.5', '5', '0')
    """
    _check(lang)
    r = round(float(x), digits)
    if r == int(r):
        return str(int(r))
    return fixed(r, lang, digits)


def fixed(x, lang: str = "en", digits: int = 1, signed: bool = False) -> str:
    """A number with exactly ``digits`` decimals and the language's decimal
    mark (a comma in Russian), a sign always shown when ``signed``: the one
    place that writes the mark.

    >>> fixed(0.75, "ru", 2), fixed(1.0, "en", 0, signed=True), fixed(-0.004, "zh", 3)
    ('0,75', '+1', '-0.004')
    """
    text = f"{float(x):{'+' if signed else ''}.{digits}f}"
    return text.replace(".", ",") if _check(lang) == "ru" else text


def bound(x, lang: str = "en", digits: int = 1) -> str:
    """An interval's bound, as ``number`` writes it, but a bound that is not
    0 never reads 0: it gets one or two more decimals (an interval above 0,
    [0.03, 0.7], must not read [0, 0.7]).

    >>> bound(0.03), bound(-0.004), bound(0.7), bound(0.0), bound(0.03, "ru"), bound(1e-6)
    ('0.03', '-0.004', '0.7', '0', '0,03', '0.000')
    """
    text = number(x, lang, digits)
    if float(x) == 0 or text not in ("0", "-0"):
        return text
    for d in (digits + 1, digits + 2):
        text = number(x, lang, d)
        if text not in ("0", "-0"):
            return text
    return fixed(x, lang, digits + 2)


def levels(n, lang: str = "en") -> str:
    """A number of levels with its unit, in agreement with the number.

    >>> levels(1), levels(2), levels(0.5)
    ('1 level', '2 levels', '0.5 levels')
    >>> levels(1, "ru"), levels(2, "ru"), levels(5, "ru"), levels(21, "ru"), levels(1.5, "ru")
    ('1 уровень', '2 уровня', '5 уровней', '21 уровень', '1,5 уровня')
    >>> levels(3, "zh")
    '3级'
    """
    return _with_levels(number(n, lang), n, lang)


def _with_levels(text: str, n, lang: str) -> str:
    """``text`` (a number ``n`` as written) with the unit of levels."""
    if _check(lang) == "ru":
        return f"{text} {_ru_plural(float(n), 'уровень', 'уровня', 'уровней')}"
    if lang == "zh":
        return f"{text}级"
    return f"{text} level" + ("" if float(n) == 1 else "s")


def interval_text(low: str, high: str, lang: str = "en") -> str:
    """Two bounds, each already written, as an interval: ``[0.4, 5.2]``; in
    Russian a semicolon parts them, since the comma is the decimal mark
    (``[0,4; 5,2]``, not ``[0,4, 5,2]``).

    >>> interval_text("0.4", "5.2"), interval_text("0,4", "5,2", "ru"), interval_text("−1", "+2", "zh")
    ('[0.4, 5.2]', '[0,4; 5,2]', '[−1, +2]')
    """
    return f"[{low}; {high}]" if _check(lang) == "ru" else f"[{low}, {high}]"


def estimate_text(mean, low, high, lang: str = "en", digits: int = 1,
                  mean_digits: Optional[int] = None) -> str:
    """An estimated amount (not signed) with its interval: ``≈2.8 [0.4, 5.2]``
    (``mean_digits``: the mean's decimals, when not ``digits``).

    >>> estimate_text(2.8, 0.4, 5.2), estimate_text(2.75, 0.4, 5, "ru")
    ('≈2.8 [0.4, 5.2]', '≈2,8 [0,4; 5]')
    """
    md = digits if mean_digits is None else mean_digits
    return (f"≈{number(mean, lang, md)} "
            + interval_text(bound(low, lang, digits), bound(high, lang, digits), lang))


def levels_estimate(mean, low, high, lang: str = "en", mean_digits: int = 1) -> str:
    """An estimated number of levels with its interval (the unit agrees
    with the mean; ``mean_digits``: the mean's decimals, the bounds one).

    >>> levels_estimate(2.8, 0.4, 5.2), levels_estimate(2.8, 0.4, 5.2, "ru")
    ('≈2.8 [0.4, 5.2] levels', '≈2,8 [0,4; 5,2] уровня')
    >>> levels_estimate(2.8, 0.4, 5.2, "zh"), levels_estimate(0.651, 0.5, 0.8, mean_digits=2)
    ('≈2.8 [0.4, 5.2]级', '≈0.65 [0.5, 0.8] levels')
    """
    return _with_levels(estimate_text(mean, low, high, lang, 1, mean_digits),
                        round(float(mean), mean_digits), lang)


def at_least_levels(n, lang: str = "en") -> str:
    """At least ``n`` levels (what is proven of a loss).

    >>> at_least_levels(2), at_least_levels(1, "ru"), at_least_levels(2, "ru"), at_least_levels(2, "zh")
    ('at least 2 levels', 'не менее 1 уровня', 'не менее 2 уровней', '至少2级')
    """
    text = number(n, lang)
    if _check(lang) == "ru":      # the genitive: не менее 1 уровня, 2 уровней, 1,5 уровня
        whole = float(n) == int(n)
        one = whole and int(n) % 10 == 1 and int(n) % 100 != 11
        return f"не менее {text} " + ("уровня" if one or not whole else "уровней")
    if lang == "zh":
        return f"至少{text}级"
    return f"at least {levels(n, lang)}"


def percent(share, lang: str = "en") -> str:
    """A share 0..1 as a percentage (``—`` for None).

    >>> percent(0.875), percent(0.5, "ru"), percent(None)
    ('88%', '50%', '—')
    """
    if share is None:
        return "—"
    return f"{number(round(100 * float(share)), lang, 0)}%"


def count_of(n: int, key: str, lang: str = "en") -> str:
    """A count with its noun (``mistakes``, ``decisions``), in agreement.

    >>> count_of(1, "mistakes"), count_of(3, "mistakes", "ru"), count_of(5, "mistakes", "ru")
    ('1 mistake', '3 ошибки', '5 ошибок')
    >>> count_of(1, "cards"), count_of(22, "cards", "ru"), count_of(21, "cards", "ru"), count_of(18, "cards", "zh")
    ('1 card', '22 карты', '21 карта', '18张')
    """
    forms = _COUNT_NOUNS[_check(lang)][key]
    if lang == "ru":
        return f"{n} {_ru_plural(n, *forms)}"
    if lang == "zh":
        return f"{n}{forms[0]}"
    return f"{n} {forms[0] if n == 1 else forms[1]}"


_COUNT_NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"mistakes": ("mistake", "mistakes"), "decisions": ("decision", "decisions"),
           "passes": ("pass", "passes"),
           "playouts": ("playout", "playouts"),
           "deals": ("deal", "deals"), "drills": ("drill", "drills"),
           "cards": ("card", "cards")},
    "ru": {"mistakes": ("ошибка", "ошибки", "ошибок"),
           "playouts": ("розыгрыш", "розыгрыша", "розыгрышей"),
           "passes": ("пас", "паса", "пасов"),
           "decisions": ("решение", "решения", "решений"),
           "deals": ("сдача", "сдачи", "сдач"),
           "drills": ("задача", "задачи", "задач"),
           "cards": ("карта", "карты", "карт")},
    "zh": {"mistakes": ("处失误",), "decisions": ("个决策",), "deals": ("副牌",),
           "playouts": ("次模拟",), "passes": ("家过",),
           "drills": ("道练习题",), "cards": ("张",)},
}


def seat_label(seat: int, lang: str = "en") -> str:
    """A seat with no name known.

    >>> seat_label(2), seat_label(2, "ru"), seat_label(2, "zh")
    ('seat 2', 'место 2', '2号位')
    """
    return {"en": "seat {s}", "ru": "место {s}", "zh": "{s}号位"}[_check(lang)].format(s=seat)


# Labels of the deal review (``gd-analyze game``, ``evening``, ``endgame``:
# text and HTML).
_GAME_LABELS = {
    "en": {
        "forced": "forced", "forced_help": "forced: the only legal move",
        "line_solver": "better line (the solver's principal line: proven)",
        "line_policy": "better line (the better move, then every seat played by the house "
                       "policy on this deal, each from its own seat)",
        "line_more": "… ({n} more)", "line_end": "end of the deal: {result}",
        "play_line": "▶ play the better line", "back_to_deal": "◀ back to the deal",
        "line_step": "better line, {i} of {n}", "line_start": "the better move",
        "breaks_run": "breaks the {type} {low}–{high}", "breaks_group": "breaks the {type} {rank}",
        "breaks_bomb": "breaks the bomb of {size} {rank}", "breaks_jokers": "breaks the joker bomb",
        "only_card": "the only card allowed", "round_so_far": "this round",
        "more_moves": "{n} more moves not listed",
        "prev_mistake": "◀ mistake", "next_mistake": "mistake ▶",
        "min_plays_help": "plays left, 8→7: the fewest plays the mover needs to go out, "
                          "before → after the move",
        "viewer_help": "the values are those after each move (the levels {names} can expect); "
                       "★ marks the best move, “played” the move played; +N counts the moves "
                       "not listed",
        "legend_mistake": "mistake", "legend_band": "interval", "legend_round": "new round",
        "legend_cursor": "the decision the replay shows",
        "swipe": "swipe left / right on the table to step",
        "title": "Deal review", "result": "Result", "finishing": "Finishing order",
        "wins": "{names} win, +{gain}", "unfinished": "the record stops before the end of the deal",
        "hands": "Hands as dealt", "after_tribute": "after the tribute",
        "exchange": "Tribute and return", "anti_tribute": "anti-tribute: no tribute",
        "play": "Play", "move": "Move", "mistakes": "Mistakes", "no_mistakes": "no mistakes found",
        "first_mistake": "first mistake", "better": "better", "loses": "loses {levels}",
        "differs_from_advice": "differs from the advice: {card}", "as_advised": "as advised", "notes": "Notes",
        "exchange_sd_help": "SD of a tribute or return: the hidden hands drawn from what the "
                            "giver knew, the cards it could not see given as the tribute advice "
                            "gives them, the start of the play estimated on each deal",
        "value_legend": "values: the levels {names} can expect to win from here (+3 … −3); "
                        "= proven by the solver, ≈ estimated (mean, with the interval)",
        "not_solved": "not valued", "players": "Players", "level": "Level",
        "min_plays": "plays left", "double": "double-dummy", "single": "single-dummy",
        "dd": "DD", "sd": "SD",
        "double_help": "all four hands seen: what was possible",
        "single_help": "from the player's own seat: what the player could know",
        "proven": "proven", "estimated": "intervals apart",
        "mark_proven": "proven loss", "mark_estimated": "likely loss",
        "tier_inaccuracy": "inaccuracy", "tier_mistake": "mistake", "tier_blunder": "blunder",
        "unclear": "unclear", "accuracy": "accuracy", "round_col": "Round",
        "leaks": "Every mistake of the evening", "view": "View", "tier": "Tier",
        "loss": "Loss", "all": "all", "evening_accuracy": "The evening",
        "accuracy_help": "accuracy: the share of the judged decisions (not forced, not "
                         "unclear) with no mark, i.e. not shown to lose 0.3 levels or more",
        "unclear_help": "unclear: the interval shown is too wide to say anything",
        "unclear_by": "unclear: {what} {interval} is wider than {width} levels",
        "unclear_position": "the position's value", "unclear_move": "the move's value",
        "unclear_loss": "the loss",
        "paired_help": "likely loss: re-checked with both moves on the same deals (paired), "
                       "so its interval can lie above 0 where the two moves' own intervals, "
                       "each with the luck of its deals, overlap",
        "opening": "Luck and skill", "opening_deal": "the deal",
        "opening_exchange": "the tribute", "opening_start": "at the start of the play",
        "opening_help": "what the cards gave each team before anyone decided anything "
                        "(double-dummy values of the opening position)",
        "skill_help": "levels each player's decisions gave away: the sum of the losses "
                      "of the moves marked as mistakes, with an interval (the sums of the "
                      "losses' lower and upper ends: it holds whenever each loss's interval "
                      "holds)",
        "estimate_of": "estimate {est}",
        "player": "Player", "judged": "judged", "lost": "levels given away",
        "largest": "largest mistake", "none": "—",
        "caveat": "Double-dummy values assume that every hand is seen; the best double-dummy "
                  "move is not always one a player could find at the table. The single-dummy "
                  "values use only what the player could see.",
        "graph": "Value of the deal", "graph_help": "team {names}'s expected level gain after "
                 "every decision; the shaded stretch is proven exactly; dots are mistakes",
        "viewer": "Replay", "first": "first", "prev": "previous", "next": "next", "last": "last",
        "keys": "arrow keys: previous / next", "table": "Table", "free_lead": "free lead",
        "candidates": "Candidate moves", "played": "played", "beats": "{move} beats {table}",
        "leads_with": "{who} leads {move}", "passes": "{who} passes",
        "gives": "{who} gives {card} to {to}", "decision": "decision {i} of {n}",
        "out": "out", "tribute_ref": "T{i}", "return_ref": "R{i}", "move_ref": "#{i}",
        "per_player": "Per player", "decisions": "decisions", "value_after": "after the move",
        "evening": "Club evening", "results": "Results by table and deal",
        "table_col": "Table", "deal_col": "Deal", "file": "Record", "deal_link": "review",
        "budget": "budget {s} s per decision and view, seed {seed}",
        "budget_playouts": "deterministic review: {playouts} per decision and view, seed {seed}",
        "levels_lost_per_deal": "levels lost per deal", "errors": "Records not reviewed",
        "seat": "seat", "to_act": "to act", "value_team0": "Value (team 0)",
        "not_proven": "not proven, between {lo} and {hi}", "moves": "Moves",
        "best_line": "Best line", "nodes": "Nodes", "time": "time",
        "stopped": "stopped by a limit: not exact", "finished_seats": "Finished",
        "note_no_estimator": "the estimator is not available: double-dummy values only where "
                             "the solver proves them",
        "note_no_suggest": "the bots' suggest is not available: no single-dummy values",
        "note_estimated": "{decisions} valued by estimates (mean and interval), not proven",
        "note_refused": "{what}: an engine refused the position: {error}",
        "what_play": "move {i}", "what_tribute": "tribute {i}", "what_return": "return {i}",
        "what_opening": "opening value ({i})",
        "note_import": "record: {text}",
        "team": "team {t}", "table_by": "{play} by {seat}, {passes_n}",
        "interrupted": "interrupted: not exact", "sec": "s",
        "est_proven": "proven by the estimator's solver",
        "est_value_proven": "proven by the estimator's solver; some moves estimated",
        "est_estimated": "ESTIMATED (not proven; {c} intervals; proven range {lo}..{hi})",
        "est_moves": "Moves (mean [low, high], samples)", "est_short": "estimated",
        "est_tail": "Playouts: {playouts}    iterations: {iterations}    solver nodes: {nodes}"
                    "    time: {t} s",
    },
    "ru": {
        "forced": "вынужденный", "forced_help": "вынужденный: единственный допустимый ход",
        "line_solver": "лучшая линия (главная линия решателя: доказано)",
        "line_policy": "лучшая линия (лучший ход, затем за каждое место играет домашняя "
                       "стратегия на этой сдаче, каждое со своего места)",
        "line_more": "… (ещё {n})", "line_end": "конец сдачи: {result}",
        "play_line": "▶ разыграть лучшую линию", "back_to_deal": "◀ назад к партии",
        "line_step": "лучшая линия, {i} из {n}", "line_start": "лучший ход",
        "breaks_run": "ломает {type} {low}–{high}", "breaks_group": "ломает {type} {rank}",
        "breaks_bomb": "ломает бомбу из {size} {rank}", "breaks_jokers": "ломает бомбу джокеров",
        "only_card": "единственная допустимая карта", "round_so_far": "в этом круге",
        "more_moves": "ещё не показано ходов: {n}",
        "prev_mistake": "◀ ошибка", "next_mistake": "ошибка ▶",
        "min_plays_help": "осталось ходов, 8→7: наименьшее число ходов, за которое ходящий "
                          "может выйти, до → после хода",
        "viewer_help": "оценки — после каждого хода (сколько уровней могут ожидать {names}); "
                       "★ — лучший ход, «сыграно» — сыгранный ход; +N — сколько ходов не показано",
        "legend_mistake": "ошибка", "legend_band": "интервал", "legend_round": "новый круг",
        "legend_cursor": "решение, показанное в просмотре",
        "swipe": "проведите влево / вправо по столу, чтобы листать",
        "title": "Разбор сдачи", "result": "Итог", "finishing": "Порядок выхода",
        "wins": "{names}: победа, +{gain}", "unfinished": "запись обрывается до конца сдачи",
        "hands": "Руки при раздаче", "after_tribute": "после дани",
        "exchange": "Дань и ответная дань", "anti_tribute": "отказ от дани: дани нет",
        "play": "Розыгрыш", "move": "Ход", "mistakes": "Ошибки", "no_mistakes": "ошибок не найдено",
        "first_mistake": "первая ошибка", "better": "лучше", "loses": "теряет {levels}",
        "differs_from_advice": "отличается от совета: {card}", "as_advised": "по совету", "notes": "Примечания",
        "exchange_sd_help": "СВОЁ для дани и возврата: скрытые руки разыграны по тому, что знал "
                            "отдающий, карты, которых он не видел, отданы по совету, начало "
                            "розыгрыша оценено на каждой раздаче",
        "value_legend": "оценка: сколько уровней могут ожидать {names} с этого места (+3 … −3); "
                        "= доказано решателем, ≈ оценено (среднее, с интервалом)",
        "not_solved": "без оценки", "players": "Игроки", "level": "Уровень",
        "min_plays": "осталось ходов", "double": "в открытую", "single": "со своего места",
        "dd": "ОТК", "sd": "СВОЁ",
        "double_help": "все четыре руки видны: что было возможно",
        "single_help": "с места игрока: что игрок мог знать",
        "proven": "доказано", "estimated": "интервалы не пересекаются",
        "mark_proven": "доказанная потеря", "mark_estimated": "вероятная потеря",
        "tier_inaccuracy": "неточность", "tier_mistake": "ошибка", "tier_blunder": "грубая ошибка",
        "unclear": "неясно", "accuracy": "точность", "round_col": "Тур",
        "leaks": "Все ошибки вечера", "view": "Вид", "tier": "Степень",
        "loss": "Потеря", "all": "все", "evening_accuracy": "Весь вечер",
        "accuracy_help": "точность: доля оценённых решений (не вынужденных и не неясных) без "
                         "отметки, то есть без показанной потери от 0,3 уровня",
        "unclear_help": "неясно: показанный интервал слишком широк, чтобы что-то сказать",
        "unclear_by": "неясно: {what} {interval} шире {width} уровней",
        "unclear_position": "оценка позиции", "unclear_move": "оценка хода",
        "unclear_loss": "потеря",
        "paired_help": "вероятная потеря: перепроверена с обоими ходами на одних и тех же "
                       "раздачах (парно), поэтому её интервал может лежать выше 0, даже когда "
                       "собственные интервалы двух ходов, каждый со своим везением, пересекаются",
        "opening": "Везение и мастерство", "opening_deal": "раздача",
        "opening_exchange": "дань", "opening_start": "к началу розыгрыша",
        "opening_help": "что карты дали каждой команде до первого решения "
                        "(оценка начальной позиции в открытую)",
        "skill_help": "сколько уровней отдали решения каждого игрока: сумма потерь "
                      "ходов, отмеченных как ошибки, с интервалом (суммы нижних и верхних "
                      "границ потерь: он верен, если верен интервал каждой потери)",
        "estimate_of": "оценка {est}",
        "player": "Игрок", "judged": "оценено", "lost": "отдано уровней",
        "largest": "самая крупная ошибка", "none": "—",
        "caveat": "Оценки «в открытую» предполагают, что видны все руки; лучший ход в открытую "
                  "не всегда можно найти за столом. Оценки «со своего места» используют только "
                  "то, что видел игрок.",
        "graph": "Оценка сдачи", "graph_help": "ожидаемый выигрыш уровней команды {names} после "
                 "каждого решения; затенённый участок доказан точно; точки — ошибки",
        "viewer": "Просмотр", "first": "в начало", "prev": "назад", "next": "вперёд",
        "last": "в конец", "keys": "стрелки: назад / вперёд", "table": "Стол",
        "free_lead": "свободный ход", "candidates": "Возможные ходы", "played": "сыграно",
        "beats": "{move} бьёт {table}", "leads_with": "{who} начинает: {move}",
        "passes": "{who}: пас", "gives": "{who} отдаёт {card}: {to}",
        "decision": "решение {i} из {n}", "out": "вышел",
        "tribute_ref": "Д{i}", "return_ref": "О{i}", "move_ref": "№{i}",
        "per_player": "По игрокам", "decisions": "решений", "value_after": "после хода",
        "evening": "Клубный вечер", "results": "Итоги по столам и сдачам",
        "table_col": "Стол", "deal_col": "Сдача", "file": "Запись", "deal_link": "разбор",
        "budget": "бюджет {s} с на решение и вид, зерно {seed}",
        "budget_playouts": "детерминированный обзор: {playouts} на решение и вид, зерно {seed}",
        "levels_lost_per_deal": "уровней потеряно за сдачу", "errors": "Записи без разбора",
        "seat": "место", "to_act": "ходит", "value_team0": "Оценка (команда 0)",
        "not_proven": "не доказано, между {lo} и {hi}", "moves": "Ходы",
        "best_line": "Лучшая линия", "nodes": "Узлы", "time": "время",
        "stopped": "остановлено по лимиту: не точно", "finished_seats": "Вышли",
        "note_no_estimator": "оценщик недоступен: оценки в открытую только там, где их доказал "
                             "решатель",
        "note_no_suggest": "подсказки ботов недоступны: оценок со своего места нет",
        "note_estimated": "решений, оценённых приближённо (среднее и интервал), не доказано: {n}",
        "note_refused": "{what}: движок отказался от позиции: {error}",
        "what_play": "ход {i}", "what_tribute": "дань {i}", "what_return": "ответная дань {i}",
        "what_opening": "начальная оценка ({i})",
        "note_import": "запись: {text}",
        "team": "команда {t}", "table_by": "{play}, сыграл: {seat}, пасов подряд: {passes}",
        "interrupted": "прервано: не точно", "sec": "с",
        "est_proven": "доказано решателем оценщика",
        "est_value_proven": "доказано решателем оценщика; часть ходов оценена",
        "est_estimated": "ОЦЕНКА (не доказано; интервалы {c}; доказанный диапазон {lo}..{hi})",
        "est_moves": "Ходы (среднее [от, до], выборок)", "est_short": "оценка",
        "est_tail": "Розыгрышей: {playouts}    итераций: {iterations}    узлов решателя: {nodes}"
                    "    время: {t} с",
    },
    "zh": {
        "forced": "唯一着法", "forced_help": "唯一着法：没有其他合法着法",
        "line_solver": "更好的路线（求解器的主线：已证明）",
        "line_policy": "更好的路线（走更好的着法，之后四家都按本程序的出牌策略在这副牌上出牌，各自只看自己的牌）",
        "line_more": "…（还有{n}手）", "line_end": "牌局结束：{result}",
        "play_line": "▶ 演示更好的路线", "back_to_deal": "◀ 回到实际牌局",
        "line_step": "更好的路线，第{i}/{n}步", "line_start": "更好的着法",
        "breaks_run": "拆了{type}{low}–{high}", "breaks_group": "拆了{type}{rank}",
        "breaks_bomb": "拆了{size}张{rank}的炸弹", "breaks_jokers": "拆了天王炸",
        "only_card": "唯一可选的牌", "round_so_far": "本轮已出",
        "more_moves": "另有{n}个着法未列出",
        "prev_mistake": "◀ 失误", "next_mistake": "失误 ▶",
        "min_plays_help": "剩余手数 8→7：出牌方出完手牌最少还需的手数，出牌前 → 出牌后",
        "viewer_help": "估值为每个着法之后的值（{names} 预期的升级数）；★ 为最佳着法，"
                       "“实际出牌”为实际所出；+N 为未列出的着法数",
        "legend_mistake": "失误", "legend_band": "区间", "legend_round": "新一轮",
        "legend_cursor": "回放当前显示的决策",
        "swipe": "在桌面上左右滑动可逐步查看",
        "title": "牌局复盘", "result": "结果", "finishing": "出完顺序",
        "wins": "{names} 胜，升{gain}级", "unfinished": "记录在牌局结束前中断",
        "hands": "发牌时的手牌", "after_tribute": "进贡后",
        "exchange": "进贡与还贡", "anti_tribute": "抗贡：不进贡",
        "play": "出牌过程", "move": "出牌", "mistakes": "失误", "no_mistakes": "未发现失误",
        "first_mistake": "首个失误", "better": "更好", "loses": "损失{levels}",
        "differs_from_advice": "与建议不同：{card}", "as_advised": "符合建议", "notes": "说明",
        "exchange_sd_help": "进贡与还贡的暗牌估值：按出牌者当时所知抽取未见手牌，它看不到的贡牌与还牌按建议给出，"
                            "在每副抽样牌上估计开局局面",
        "value_legend": "估值：从此处起 {names} 预期的升级数（+3 … −3）；= 求解器证明，"
                        "≈ 估计（均值与区间）",
        "not_solved": "未估值", "players": "玩家", "level": "级牌",
        "min_plays": "剩余手数", "double": "明牌", "single": "暗牌",
        "dd": "明", "sd": "暗",
        "double_help": "四家手牌全部可见：理论上的可能",
        "single_help": "从本家座位看：玩家当时能知道的",
        "proven": "已证明", "estimated": "区间不重叠",
        "mark_proven": "已证明的损失", "mark_estimated": "很可能的损失",
        "tier_inaccuracy": "不精确", "tier_mistake": "错误", "tier_blunder": "严重错误",
        "unclear": "不明确", "accuracy": "准确率", "round_col": "轮",
        "leaks": "本场全部失误", "view": "视角", "tier": "程度",
        "loss": "损失", "all": "全部", "evening_accuracy": "整场",
        "accuracy_help": "准确率：已评判的决策（非被迫、非不明确）中未被标记（未显示损失0.3级或以上）的比例",
        "unclear_help": "不明确：所示区间太宽，无法判断",
        "unclear_by": "不明确：{what} {interval} 宽于{width}级",
        "unclear_position": "局面估值", "unclear_move": "该着法估值", "unclear_loss": "损失",
        "paired_help": "很可能的损失：两着在同一批牌局上配对复核，因此即使两着各自的区间（各含其牌局的运气）"
                       "重叠，损失的区间也可以整体高于0",
        "opening": "运气与技术", "opening_deal": "发牌", "opening_exchange": "进贡",
        "opening_start": "出牌开始时",
        "opening_help": "任何决策之前牌力给各队的价值（开局局面的明牌估值）",
        "skill_help": "每位玩家的决策损失的级数：被标为失误的着法损失之和，附区间"
                      "（各损失区间下限之和与上限之和：只要每个损失的区间成立，它就成立）",
        "estimate_of": "估计 {est}",
        "player": "玩家", "judged": "已评估", "lost": "损失级数",
        "largest": "最大失误", "none": "—",
        "caveat": "明牌估值假设四家手牌全部可见；明牌最佳着法在牌桌上未必能找到。"
                  "暗牌估值只使用玩家当时能看到的信息。",
        "graph": "牌局估值", "graph_help": "每次决策后 {names} 队的预期升级数；阴影部分为精确证明；"
                 "圆点为失误",
        "viewer": "回放", "first": "开头", "prev": "上一步", "next": "下一步", "last": "结尾",
        "keys": "方向键：上一步 / 下一步", "table": "桌面", "free_lead": "自由出牌",
        "candidates": "可选着法", "played": "实际出牌", "beats": "{move} 管上 {table}",
        "leads_with": "{who} 首出 {move}", "passes": "{who} 过", "gives": "{who} 把 {card} 给 {to}",
        "decision": "第{i}步，共{n}步", "out": "已出完",
        "tribute_ref": "贡{i}", "return_ref": "还{i}", "move_ref": "第{i}手",
        "per_player": "各玩家", "decisions": "决策", "value_after": "出牌后",
        "evening": "俱乐部牌会", "results": "各桌各副结果",
        "table_col": "桌", "deal_col": "副", "file": "记录", "deal_link": "复盘",
        "budget": "每个决策每种视角 {s} 秒，种子 {seed}",
        "budget_playouts": "确定性复盘：每个决策每种视角 {playouts}，种子 {seed}",
        "levels_lost_per_deal": "每副损失级数", "errors": "未能复盘的记录",
        "seat": "座位", "to_act": "出牌方", "value_team0": "估值（0队）",
        "not_proven": "未证明，介于 {lo} 与 {hi} 之间", "moves": "着法",
        "best_line": "最佳路线", "nodes": "节点", "time": "时间",
        "stopped": "因限制停止：不精确", "finished_seats": "已出完",
        "note_no_estimator": "估值器不可用：只有求解器证明的局面才有明牌估值",
        "note_no_suggest": "机器人提示不可用：没有暗牌估值",
        "note_estimated": "{n}个决策为估计值（均值与区间），未经证明",
        "note_refused": "{what}：引擎拒绝了该局面：{error}",
        "what_play": "第{i}手", "what_tribute": "进贡{i}", "what_return": "还贡{i}",
        "what_opening": "开局估值（{i}）",
        "note_import": "记录：{text}",
        "team": "{t}队", "table_by": "{play}，{seat}出，之后{passes}家过",
        "interrupted": "已中断：不精确", "sec": "秒",
        "est_proven": "由估值器的求解器证明",
        "est_value_proven": "由估值器的求解器证明；部分着法为估计",
        "est_estimated": "估计值（未证明；{c}区间；已证明范围 {lo}..{hi}）",
        "est_moves": "着法（均值 [下限, 上限]，样本数）", "est_short": "估计",
        "est_tail": "模拟局数：{playouts}    迭代：{iterations}    求解节点：{nodes}    时间：{t} 秒",
    },
}


_SIZE_WORDS = {
    "en": {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"},
    "ru": {4: "четырёх", 5: "пяти", 6: "шести", 7: "семи", 8: "восьми", 9: "девяти",
           10: "десяти"},
    "zh": {},
}


def structure_text(b: dict, lang: str = "en") -> str:
    """The structure a move breaks (the review's ``breaks``: ``type``,
    ``rank``, ``size``, ``low``, ``high``) in words.

    >>> structure_text({"type": "straight", "rank": "J", "size": 5, "low": "7", "high": "J"})
    'breaks the straight 7–J'
    >>> structure_text({"type": "triple", "rank": "9", "size": 3, "low": None, "high": None})
    'breaks the triple 9s'
    >>> structure_text({"type": "bomb", "rank": "8", "size": 4, "low": None, "high": None}, "ru")
    'ломает бомбу из четырёх 8'
    >>> structure_text({"type": "straight", "rank": "A", "size": 5, "low": "T", "high": "A"}, "zh")
    '拆了顺子10–A'
    >>> structure_text({"type": "full_house", "rank": "J", "size": 5, "cards": "SJ HJ DJ CK DK"})
    'breaks the full house J+K'
    """
    lang = _check(lang)
    typ, rank, size = b["type"], b["rank"], int(b.get("size") or 0)
    if typ == "joker_bomb":
        return game_label("breaks_jokers", lang)
    if typ == "bomb":
        words = _SIZE_WORDS[lang].get(size, str(size))
        shown = rank_label(rank, lang) + ("s" if lang == "en" else "")
        return game_label("breaks_bomb", lang, size=words, rank=shown)
    name = type_name_acc(typ, lang)
    if b.get("low") and b.get("high"):
        return game_label("breaks_run", lang, type=name, low=rank_label(b["low"], lang),
                          high=rank_label(b["high"], lang))
    if rank in ("B", "R"):           # a pair of jokers: by name
        shown = rank_label(rank, lang)
        shown = {"en": f"of {shown}s", "ru": f"({shown})", "zh": shown}[lang]
    elif typ == "full_house" and (pair := _pair_rank(b.get("cards") or "", rank)):
        shown = f"{rank_label(rank, lang)}+{rank_label(pair, lang)}"    # J+K: triple and pair
    else:
        shown = rank_label(rank, lang) + ("s" if lang == "en" else "")
    return game_label("breaks_group", lang, type=name, rank=shown)


def _pair_rank(cards: str, triple: str) -> str:
    """The rank of a full house's pair, from its cards (``SJ HJ DJ CK DK``:
    K), when the two cards other than the triple's share one rank; else ""
    (a wild in the pair: the report names the triple alone).

    >>> _pair_rank("SJ HJ DJ CK DK", "J"), _pair_rank("SJ HJ DJ CK H2", "J")
    ('K', '')
    """
    toks = cards.split()
    others = [t[1:] for t in toks if t[1:] != triple]
    if len(toks) != 5 or len(others) != 2 or others[0] != others[1]:
        return ""
    return others[0]


def note_text(note: dict, lang: str = "en") -> str:
    """A note of the review (``{"key", "params"}``) in a language.

    >>> note_text({"key": "estimated", "params": {"n": 3}}, "ru")
    'решений, оценённых приближённо (среднее и интервал), не доказано: 3'
    >>> note_text({"key": "estimated", "params": {"n": 1}})
    '1 decision valued by estimates (mean and interval), not proven'
    """
    params = dict(note.get("params") or {})
    if isinstance(params.get("n"), int):        # a count of decisions, in agreement
        params["decisions"] = count_of(params["n"], "decisions", lang)
    what = params.get("what")
    if isinstance(what, dict):
        i = what["i"]
        if what["kind"] == "opening":
            i = game_label("opening_" + i, lang)
        params["what"] = game_label("what_" + what["kind"], lang, i=i)
    return game_label("note_" + note["key"], lang, **params)


def game_label(key: str, lang: str = "en", **params) -> str:
    """A label of the deal review in a language.

    >>> game_label("loses", "en", levels="2 levels"), game_label("wins", "zh", names="A & C", gain=3)
    ('loses 2 levels', 'A & C 胜，升3级')
    """
    return _GAME_LABELS[_check(lang)][key].format(**params)


# Labels of the drills page (``gd-analyze drills``, ``report.drills``): a
# mark's position as the mover saw it, a question, and the answer revealed.
_DRILL_LABELS = {
    "en": {
        "title": "Learn from your mistakes",
        "none": "No marked mistakes in these reviews: nothing to drill.",
        "help": "Each drill is a position where the review marked the move played as a "
                "mistake, shown as the mover saw it: their own hand, the level, the round so "
                "far and how many cards each seat holds (the other hands stay hidden). Pick "
                "the move you would play: the page then shows whether it is among the best "
                "moves, the move played, its loss and a better line. Largest loss first.",
        "shown": "{k} of {n} shown",
        "head": "Drill {i} of {n}",
        "to_play": "{who} to play",
        "to_give": "{who} gives the tribute to {to}",
        "to_return": "{who} returns a card to {to}",
        "q_play": "What would you play?",
        "q_card": "Which card would you give?",
        "hand_of": "{who}'s hand",
        "counts": "Cards in hand",
        "to_beat": "To beat",
        "judged": "judged {view}: {help}",
        "values_for": "values: the levels {names} can expect from here (+3 … −3); "
                      "= proven, ≈ estimated (mean, with the interval)",
        "pick_hint": "pick a move to see the answer",
        "v_best": "{move}: one of the best moves ({value}).",
        "v_played": "{move}: the move played, marked: {mark}.",
        "v_other": "{move}: not among the best moves found ({value}; the best {best}).",
        "played_was": "Played",
        "best_moves": "The best moves",
        "your_pick": "your pick",
        "best": "best",
        "next": "next drill ▶",
        "tribute_round": "the exchange, before the first play",
    },
    "ru": {
        "title": "Работа над ошибками",
        "none": "В этих разборах нет отмеченных ошибок: задач нет.",
        "help": "Каждая задача — позиция, где разбор отметил сыгранный ход как ошибку, "
                "показанная так, как её видел ходящий: его рука, уровень, текущий круг и "
                "сколько карт у каждого места (чужие руки скрыты). Выберите ход, который вы "
                "бы сыграли: страница покажет, входит ли он в число лучших, какой ход был "
                "сыгран, его потерю и лучшую линию. Сначала самые крупные потери.",
        "shown": "показано {k} из {n}",
        "head": "Задача {i} из {n}",
        "to_play": "ходит {who}",
        "to_give": "{who} платит дань: {to}",
        "to_return": "{who} возвращает карту: {to}",
        "q_play": "Как бы вы сыграли?",
        "q_card": "Какую карту вы бы отдали?",
        "hand_of": "Рука: {who}",
        "counts": "Карт на руках",
        "to_beat": "Побить",
        "judged": "оценка {view}: {help}",
        "values_for": "оценка: сколько уровней могут ожидать {names} с этого места "
                      "(+3 … −3); = доказано, ≈ оценено (среднее, с интервалом)",
        "pick_hint": "выберите ход, чтобы увидеть ответ",
        "v_best": "{move}: один из лучших ходов ({value}).",
        "v_played": "{move}: сыгранный ход, отмечен: {mark}.",
        "v_other": "{move}: не среди найденных лучших ходов ({value}; лучший {best}).",
        "played_was": "Сыграно",
        "best_moves": "Лучшие ходы",
        "your_pick": "ваш выбор",
        "best": "лучший",
        "next": "следующая задача ▶",
        "tribute_round": "обмен данью, до первого хода",
    },
    "zh": {
        "title": "从失误中学习",
        "none": "这些复盘中没有被标记的失误：没有练习题。",
        "help": "每道练习题都是复盘把实际出牌标为失误的局面，按出牌者当时所见展示：自己的手牌、级牌、"
                "本轮已出的牌和各家剩余张数（其他三家的手牌不显示）。选出你会出的牌，页面随后显示它是否"
                "属于最佳着法、实际出的牌、损失和更好的路线。损失最大的排在最前。",
        "shown": "显示{k}道，共{n}道",
        "head": "第{i}题，共{n}题",
        "to_play": "轮到{who}出牌",
        "to_give": "{who}向{to}进贡",
        "to_return": "{who}向{to}还贡",
        "q_play": "你会怎么出？",
        "q_card": "你会给哪张牌？",
        "hand_of": "{who}的手牌",
        "counts": "各家剩余张数",
        "to_beat": "要管的牌",
        "judged": "{view}评判：{help}",
        "values_for": "估值：从此处起 {names} 预期的升级数（+3 … −3）；= 已证明，≈ 估计（均值与区间）",
        "pick_hint": "选一个着法查看答案",
        "v_best": "{move}：最佳着法之一（{value}）。",
        "v_played": "{move}：实际所出，被标为：{mark}。",
        "v_other": "{move}：不在找到的最佳着法之中（{value}；最佳 {best}）。",
        "played_was": "实际出牌",
        "best_moves": "最佳着法",
        "your_pick": "你的选择",
        "best": "最佳",
        "next": "下一题 ▶",
        "tribute_round": "进贡阶段，出牌之前",
    },
}


def drill_label(key: str, lang: str = "en", **params) -> str:
    """A label of the drills page in a language.

    >>> drill_label("head", "ru", i=2, n=5), drill_label("to_play", "zh", who="Anna")
    ('Задача 2 из 5', '轮到Anna出牌')
    """
    return _DRILL_LABELS[_check(lang)][key].format(**params)
