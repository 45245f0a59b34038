"""Names and labels in English, Russian and Chinese (RULES.md section 9)."""

from __future__ import annotations

__all__ = ["LANGS", "type_name", "label", "rank_name", "reason_text", "tribute_label",
           "game_label"]

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
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    return lang


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
    """Display form of a rank character ('T' stays 'T'; jokers spelled out)."""
    return {"B": "SB", "R": "HR"}.get(rank, rank)


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


# Labels of ``gd-analyze game`` (the deal report, text and HTML).
_GAME_LABELS = {
    "en": {
        "title": "Deal analysis", "result": "Result", "finishing": "Finishing order",
        "wins": "{names} win, +{gain}", "unfinished": "the record stops before the end of the deal",
        "hands": "Hands as dealt", "after_tribute": "after the tribute",
        "exchange": "Tribute and return", "anti_tribute": "anti-tribute: no tribute",
        "play": "Play", "move": "Move", "mistakes": "Mistakes", "no_mistakes": "no mistakes found",
        "first_mistake": "first mistake", "better": "better", "loses": "loses {n}",
        "advice": "advice: {card}", "as_advised": "as advised", "notes": "Notes",
        "value_legend": "value = levels won by {names} with perfect play from here (+3 … −3)",
        "lead": "leads", "on": "on", "round_won": "takes the round",
        "not_solved": "not solved", "seat": "seat", "players": "Players", "level": "Level",
        "min_plays": "plays left",
    },
    "ru": {
        "title": "Разбор сдачи", "result": "Итог", "finishing": "Порядок выхода",
        "wins": "{names}: победа, +{gain}", "unfinished": "запись обрывается до конца сдачи",
        "hands": "Руки при раздаче", "after_tribute": "после дани",
        "exchange": "Дань и ответная дань", "anti_tribute": "отказ от дани: дани нет",
        "play": "Розыгрыш", "move": "Ход", "mistakes": "Ошибки", "no_mistakes": "ошибок не найдено",
        "first_mistake": "первая ошибка", "better": "лучше", "loses": "теряет {n}",
        "advice": "совет: {card}", "as_advised": "по совету", "notes": "Примечания",
        "value_legend": "оценка = уровни, которые выигрывают {names} при лучшей игре с этого места (+3 … −3)",
        "lead": "ходит", "on": "на", "round_won": "забирает круг",
        "not_solved": "не решено", "seat": "место", "players": "Игроки", "level": "Уровень",
        "min_plays": "осталось ходов",
    },
    "zh": {
        "title": "牌局复盘", "result": "结果", "finishing": "出完顺序",
        "wins": "{names} 胜，升{gain}级", "unfinished": "记录在牌局结束前中断",
        "hands": "发牌时的手牌", "after_tribute": "进贡后",
        "exchange": "进贡与还贡", "anti_tribute": "抗贡：不进贡",
        "play": "出牌过程", "move": "出牌", "mistakes": "失误", "no_mistakes": "未发现失误",
        "first_mistake": "首个失误", "better": "更好", "loses": "损失{n}级",
        "advice": "建议：{card}", "as_advised": "符合建议", "notes": "说明",
        "value_legend": "估值 = 从此处双方最优出牌时 {names} 的升级数（+3 … −3）",
        "lead": "首出", "on": "压", "round_won": "赢得本轮",
        "not_solved": "未求解", "seat": "座位", "players": "玩家", "level": "级牌",
        "min_plays": "剩余手数",
    },
}


def game_label(key: str, lang: str = "en", **params) -> str:
    """A label of the deal report in a language.

    >>> game_label("loses", "en", n=2), game_label("wins", "zh", names="A & C", gain=3)
    ('loses 2', 'A & C 胜，升3级')
    """
    return _GAME_LABELS[_check(lang)][key].format(**params)
