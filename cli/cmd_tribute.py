"""``gd-analyze tribute``: what to pay, what to return, or a whole exchange.

- ``gd-analyze tribute hand.txt --give``: the legal tribute cards of a hand,
  ranked, with reasons;
- ``gd-analyze tribute hand.txt --return``: the legal return cards;
  ``--receiver other.txt`` adds the receiver's side (post-game review);
- ``gd-analyze tribute deal.txt``: a deal file (four hands, ``level:``,
  ``order:`` the previous finishing order) prints who pays whom, the advice
  for each payer and receiver, and who leads.

No rules here: the library decides, this module prints.
"""

from __future__ import annotations

import click

from guandan_fast.model.cards import MAX_HAND
from guandan_fast.errors import GuandanError, RecordError, RulesError
from guandan_fast.report.i18n import (advice_reason, aside, card_label, count_of, label, punct,
                                      rank_label, seat_label, tribute_label)

from .options import command, emit_json, format_option, lang_option, read_source


def _advice_lines(advice: list, lang: str) -> list[str]:
    if not advice:
        return ["  " + tribute_label("no_choice", lang)]
    lines = []
    for i, a in enumerate(advice, start=1):
        mark = f"  [{label('mistake', lang)}]" if a.get("mistake") else ""
        lines.append(f"  {i:>2}. {card_label(a['card'], lang):<3} {advice_reason(a, lang)}{mark}")
    return lines


def _single_text(data: dict, lang: str) -> str:
    T = lambda k, **p: tribute_label(k, lang, **p)  # noqa: E731
    K, END = punct("colon", lang), punct("colon", lang).rstrip()
    lines = [f"{label('level', lang)}{K}{rank_label(data['level'], lang)}    "
             f"{label('hand', lang)}{K}{count_of(data['cards'], 'cards', lang)}"]
    if data.get("receiver_cards") is not None:
        lines.append(f"{T('receiver')}{K}{count_of(data['receiver_cards'], 'cards', lang)}")
    lines.append(f"{T(data['mode'])}{aside(T('best_first'), lang)}{END}")
    lines.extend(_advice_lines(data["advice"], lang))
    return "\n".join(lines)


def _deal_text(data: dict, lang: str) -> str:
    T = lambda k, **p: tribute_label(k, lang, **p)  # noqa: E731
    plan = data["plan"]
    K, END, LIST = punct("colon", lang), punct("colon", lang).rstrip(), punct("list", lang)
    kind = T(plan["kind"]) + (f"{LIST}{T('equal_tributes')}" if plan["equal_tributes"] else "")
    lines = [f"{label('level', lang)}{K}{rank_label(data['level'], lang)}    "
             f"{T('previous_order')}{K}{' '.join(map(str, plan['finishing_order']))}"
             + aside(kind, lang)]
    if plan["anti_tribute"]:
        lines.append(T("anti_tribute")
                     + aside(f"{T('seat')} {LIST.join(map(str, plan['payers']))}", lang))
    else:
        lines.append(punct("clause", lang).join(
            T("pays", payer=p["payer"], receiver=p["receiver"], rank=rank_label(rank, lang))
            for p, rank in zip(plan["payments"], plan["tribute_ranks"])))
    for ex in data["exchanges"]:
        lines.append("")
        lines.append(T("tribute_from", payer=ex["payer"], receiver=ex["receiver"]) + END)
        lines.extend(_advice_lines(ex["tribute"], lang))
        lines.append(T("return_from", payer=ex["payer"], receiver=ex["receiver"],
                       card=card_label(ex["tribute_card"], lang)) + END)
        lines.extend(_advice_lines(ex["return"], lang))
    lines.append("")
    lines.append(f"{T('leads')}{K}{seat_label(plan['leader'], lang)}")
    return "\n".join(lines)


@command("tribute")
@click.argument("file")
@click.option("--give", "give", is_flag=True,
              help="FILE is a hand: rank the legal tribute cards.")
@click.option("--return", "give_back", is_flag=True,
              help="FILE is a hand: rank the legal return cards.")
@click.option("--receiver", "receiver_file", default=None, metavar="HAND_FILE",
              help="With --give/--return: the receiver's hand (post-game review); "
                   "its cards are read at FILE's level.")
@format_option
@lang_option
def tribute_cmd(file, give, give_back, receiver_file, fmt, lang):
    """Tribute and return tribute (RULES 7): advice for a hand (--give,
    --return) or the whole exchange of a deal file."""
    if give and give_back:
        raise click.UsageError("--give and --return exclude each other: a hand either "
                               "pays a tribute or returns one")
    mode = "give" if give else "return" if give_back else None
    from guandan_fast.formats.hand import loads_hand
    from guandan_fast.bots.advice import exchange_advice, suggest_return, suggest_tribute

    if mode is None:
        if receiver_file is not None:
            raise click.UsageError("--receiver goes with --give or --return")
        from guandan_fast.formats.deal import loads_deal
        deal = loads_deal(read_source(file))
        if deal.order is None:
            raise RecordError("the deal file gives no previous finishing order "
                              "(order: first second third last)")
        data = exchange_advice(deal.order, deal.hands, deal.rules)
        if fmt == "json":
            emit_json(data)
        else:
            click.echo(_deal_text(data, lang))
        return
    hand = loads_hand(read_source(file), max_cards=MAX_HAND + (mode == "return"))
    receiver = None
    if receiver_file is not None:      # an empty name is a file not found, not no receiver
        try:
            other = loads_hand(read_source(receiver_file))
        except GuandanError as e:
            raise type(e)(f"--receiver {receiver_file}: {e}") from None
        if other.stated and other.rules != hand.rules:
            raise RulesError(f"--receiver {receiver_file}: its settings (level "
                             f"{other.rules.level}) are not FILE's (level {hand.rules.level}); "
                             "leave them out: the receiver's cards are read at FILE's")
        receiver = other.cards
    suggest = suggest_tribute if mode == "give" else suggest_return
    advice = suggest(hand.cards, hand.rules, receiver=receiver)
    data = {
        "level": hand.rules.level, "mode": mode, "cards": len(hand.cards),
        "receiver_cards": len(receiver) if receiver is not None else None,
        "advice": [a.to_dict() for a in advice],
    }
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(_single_text(data, lang))
