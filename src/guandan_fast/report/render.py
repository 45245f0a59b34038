"""The deal review as text and as a self-contained HTML page.

Both render the JSON form of a review (``Analysis.to_dict()``): data in, text
out, no rules here. The page has its CSS, its script and its graph (inline
SVG) inside it and no external assets, so it can be projected from a laptop
with no network: the value graph, a replay viewer (buttons and the arrow
keys), luck and skill per team and player, the tribute exchange and the play
with every mistake marked. ``render_evening_html`` puts the reviews of a club
evening on one page.

Fonts: the page names a stack that covers Latin, Cyrillic and Chinese
(``FONT_STACK``); a viewer needs one of those fonts installed (any Noto Sans
CJK, Source Han Sans, PingFang, Microsoft YaHei or WenQuanYi font for the
Chinese page; DejaVu Sans or any common sans font for the others).
"""

from __future__ import annotations

import html
import json
import unicodedata
from typing import Optional

from ..model.cards import RANKS
from .i18n import (advice_reason, at_least_levels, card_label, cards_label, count_of,
                   estimate_text, game_label, joker_card_label, label, levels,
                   levels_estimate, note_text, number, rank_face, rank_label, seat_label,
                   type_name, type_name_acc)

__all__ = ["type_rank", "render_text", "render_html", "render_evening_html", "render_evening_text",
           "render_endgame_text", "evening_order", "evening_summary", "FONT_STACK",
           "decision_ref"]

FONT_STACK = ('"Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", '
              '"Microsoft YaHei", "WenQuanYi Micro Hei", "DejaVu Sans", "Liberation Sans", '
              'Arial, sans-serif')
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_ORDER = RANKS
VIEWS = ("double", "single")


# -- shared pieces ---------------------------------------------------------------

def names(data: dict, lang: str = "en") -> list:
    """The players' names, or the seats in the language where none are known."""
    players = data.get("players")
    return list(players) if players else [seat_label(s, lang) for s in range(4)]


def team_names(data: dict, team: int, lang: str = "en") -> str:
    n = names(data, lang)
    return f"{n[team]} & {n[team + 2]}"


def signed(v, lang: str = "en") -> str:
    """A value with its sign (a true minus)."""
    if v is None:
        return "?"
    text = number(abs(v), lang)
    if text == "0":                  # rounds to no sign
        return text
    if float(v) > 0:
        return "+" + text
    if float(v) < 0:
        return "−" + text
    return text


def value_text(mv: Optional[dict], lang: str = "en", interval: bool = True) -> str:
    """``=+2`` for a proven value, ``≈+0,4 [−0,2, +1]`` for an estimate."""
    if mv is None:
        return ""
    if mv.get("exact"):
        return "=" + signed(mv["mean"], lang)
    text = "≈" + signed(mv["mean"], lang)
    if interval and mv.get("low") is not None:
        text += f" [{signed(mv['low'], lang)}, {signed(mv['high'], lang)}]"
    return text


def type_rank(play_type: str, rank: str, lang: str, acc: bool = False) -> str:
    """``pair 5``, ``single small joker``; in Russian a joker rank follows a
    comma (``одиночная, малый джокер``: the type agrees with "карта", not
    with the joker's name). ``acc``: the type as the object of "beats".

    >>> type_rank("single", "B", "ru"), type_rank("pair", "5", "ru", acc=True)
    ('одиночная, малый джокер', 'пару 5')
    """
    name = type_name_acc(play_type, lang) if acc else type_name(play_type, lang)
    sep = ", " if lang == "ru" and rank in ("B", "R") else " "
    return f"{name}{sep}{rank_label(rank, lang)}"


def play_text(p, lang: str) -> str:
    """A play (``{cards, type, rank}``), a card given, or a pass."""
    if p is None or p == "pass":
        return type_name("pass", lang)
    if p.get("type") == "card":
        return cards_label(p["cards"], lang)
    return f"{cards_label(p['cards'], lang)} ({type_rank(p['type'], p['rank'], lang)})"


def decision_ref(d: dict, data: dict, lang: str = "en") -> str:
    """The short name of a decision: #12 for a move, T1/R1 for the exchange."""
    if d["kind"] == "play":
        return game_label("move_ref", lang, i=d["move_index"] + 1)
    same = [x for x in data["decisions"] if x["kind"] == d["kind"]]
    i = next(k for k, x in enumerate(same) if x["index"] == d["index"]) + 1
    return game_label("tribute_ref" if d["kind"] == "tribute" else "return_ref", lang, i=i)


def _result_text(data: dict, lang: str) -> str:
    r = data.get("result")
    if r is None:
        return game_label("unfinished", lang)
    team = 0 if r > 0 else 1
    return game_label("wins", lang, names=team_names(data, team, lang), gain=abs(r))


def _title_bits(data: dict, lang: str) -> list:
    tags = data.get("tags") or {}
    bits = [tags[k] for k in ("event", "site", "date") if tags.get(k)]
    if tags.get("table"):
        bits.append(f"{game_label('table_col', lang)} {tags['table']}")
    if tags.get("deal"):
        bits.append(f"{game_label('deal_col', lang)} {tags['deal']}")
    return bits


def _mark(val: Optional[dict], lang: str) -> str:
    """``✗ proven loss: 2 levels`` for a marked mistake of one view (the
    size: ``loss_text``)."""
    if not val or not val.get("mistake"):
        return ""
    kind = game_label("mark_proven" if val["mistake"] == "proven" else "mark_estimated", lang)
    return f"✗ {kind}: {loss_text(val, lang)}"


def loss_text(val: dict, lang: str = "en") -> str:
    """The size of a loss (a view's JSON: ``loss``, ``loss_low``,
    ``loss_high``, ``loss_proven``): ``2 levels`` when it is proven
    exactly; ``at least 2 levels (estimate ≈5.4 [2.1, 6])`` when the proven
    bounds show part of it (the proven part, then the estimate); else the
    estimate with its interval, ``≈2.8 [0.4, 5.2] levels``."""
    mean = val.get("loss") or 0.0
    low, high = val.get("loss_low", mean), val.get("loss_high", mean)
    proven = val.get("loss_proven") or 0.0
    if low == high:
        return levels(round(mean, 1), lang)
    est = levels_estimate(mean, low, high, lang)
    if proven > 0:
        return (f"{at_least_levels(round(proven, 1), lang)} "
                f"({game_label('estimate_of', lang, est=estimate_text(mean, low, high, lang))})")
    return est


def lost_text(v: dict, lang: str = "en", digits: int = 1, per: int = 1) -> str:
    """A sum of losses (``lost``, ``lost_low``, ``lost_high``), divided by
    ``per``: the number when every loss in it is proven exactly, else the
    sum of the estimates with its interval, ``≈3.2 [0.4, 5.2]``."""
    mean = (v.get("lost") or 0.0) / per
    low, high = v.get("lost_low", v.get("lost") or 0.0) / per, \
        v.get("lost_high", v.get("lost") or 0.0) / per
    if round(low, 3) == round(high, 3):
        return number(round(mean, digits), lang, digits)
    return estimate_text(mean, low, high, lang, digits)


def _better(val: dict, lang: str) -> str:
    best = val.get("best") or []
    return ", ".join(f"{play_text(b['move'], lang)} {value_text(b, lang)}" for b in best)


DIFFERS = "≠"       # a card that differs from the tribute advice: not a mistake mark


def _advice_verdict(e: dict, lang: str) -> str:
    """``≠ differs from the advice: ST`` or ``as advised``: the advice is a
    heuristic, so a difference from it is shown as such, never as a mistake
    (only the decision's values mark one)."""
    if e.get("differs"):
        return f"{DIFFERS} {game_label('differs_from_advice', lang, card=card_label(e['best'], lang))}"
    return game_label("as_advised", lang)


def _exchange_by_kind(data: dict) -> dict:
    return {(e["kind"], i): e for i, e in enumerate(data.get("exchange") or [])}


# -- text -----------------------------------------------------------------------

def _view_labels(G) -> tuple:
    """(view, its short label) for the two views, double-dummy first."""
    return (("double", G("dd")), ("single", G("sd")))


def render_text(data: dict, lang: str = "en") -> str:
    """The review as plain text: header, luck and skill, the exchange, every
    decision with both views, the mistakes, the caveat and the notes."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    bits = _title_bits(data, lang)
    out = [G("title") + (" — " + ", ".join(bits) if bits else "")]
    out.append(f"{G('level')}: {rank_label(data['level'], lang)}    {G('players')}: "
               + ", ".join(f"{s} {n[s]}" for s in range(4))
               + f"  ({team_names(data, 0, lang)} / {team_names(data, 1, lang)})")
    fin = data.get("finished") or []
    out.append(f"{G('result')}: {_result_text(data, lang)}"
               + (f"    {G('finishing')}: " + ", ".join(n[s] for s in fin) if fin else ""))
    out.append(G("value_legend", names=team_names(data, 0, lang)))
    out.append(f"{G('dd')} = {G('double')} ({G('double_help')}); "
               f"{G('sd')} = {G('single')} ({G('single_help')})")
    out.append("")
    out.append(G("hands") + ":")
    width = max(_cols(x) for x in n)
    for s in range(4):
        out.append(f"  {s} {_ljust(n[s], width)}  {cards_label(data['hands'][s], lang)}")
    out += ["", f"{G('opening')}:"] + ["  " + line for line in _opening_lines(data, lang)]
    if data.get("anti_tribute"):
        out += ["", f"{G('exchange')}: {G('anti_tribute')}"]
    ex_decisions = [d for d in data["decisions"] if d["kind"] != "play"]
    if ex_decisions:
        out += ["", G("exchange") + ":"]
        if any(d.get("single") for d in ex_decisions):
            out.append(f"  ({G('exchange_sd_help')})")
        advice = data.get("exchange") or []
        for k, d in enumerate(ex_decisions):
            kind = label("tribute" if d["kind"] == "tribute" else "return", lang)
            rec = next((e for e in advice if e["kind"] == d["kind"] and e["giver"] == d["seat"]
                        and e["card"] == d["move"]["cards"]), None)
            to = n[rec["receiver"]] if rec else ""
            line = (f"  {_rjust(decision_ref(d, data, lang), 4)}  {kind}: {n[d['seat']]} → {to} "
                    f"{cards_label(d['move']['cards'], lang)}")
            for view, short in _view_labels(G):
                val = d.get(view)
                if val and val.get("chosen"):
                    line += f"   {short} {value_text(val['chosen'], lang)}"
                if val and val.get("mistake"):
                    line += f"  {_mark(val, lang)}; {G('better')}: {_better(val, lang)}"
            out.append(line)
            if rec:
                verdict = _advice_verdict(rec, lang)
                reason = advice_reason(rec, lang)
                out.append(f"        {verdict}" + (f"  ({reason})" if reason else ""))
    out += ["", G("play") + ":"] + _play_lines(data, lang)
    out += ["", G("mistakes") + ":"]
    marked = [d for d in data["decisions"] if any(
        d.get(v) and d[v].get("mistake") for v in VIEWS)]
    if not marked:
        out.append("  " + G("no_mistakes"))
    for d in marked:
        for view, short in _view_labels(G):
            val = d.get(view)
            if val and val.get("mistake"):
                out.append(f"  {decision_ref(d, data, lang)} {n[d['seat']]}: "
                           f"{play_text(d['move'], lang)}  {short} {_mark(val, lang)}; "
                           f"{G('better')}: {_better(val, lang)}")
    out += ["", G("per_player") + ":"] + ["  " + line for line in _player_lines(data, lang)]
    out += ["", G("caveat")]
    s = data.get("settings") or {}
    if s.get("budget") is not None:
        out.append(G("budget", s=number(s["budget"], lang, 2), seed=s.get("seed", 0)))
    if data.get("notes"):
        out += ["", G("notes") + ":"] + [f"  {note_text(x, lang)}" for x in data["notes"]]
    return "\n".join(out) + "\n"


def _cols(text: str) -> int:
    """The columns a text takes on a terminal (a wide East Asian character
    takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _cols(text))


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - _cols(text)) + text


def _play_lines(data: dict, lang: str) -> list:
    """The play, a line per decision in aligned columns (by the columns the
    text takes, Chinese included): the move, the plays left, each view's
    value of the move played with its interval, the marks."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    rows = []
    for d in data["decisions"]:
        if d["kind"] != "play":
            continue
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        vals = []
        for view, short in _view_labels(G):
            val = d.get(view)
            c = val.get("chosen") if val else None
            vals.append(f"{short} {value_text(c, lang)}" if c else "")
        marks = []
        for view, short in _view_labels(G):
            val = d.get(view)
            if val and val.get("mistake"):
                marks.append(f"{short} {_mark(val, lang)}; {G('better')}: {_better(val, lang)}")
        tail = ""
        if marks:
            tail = "  " + " | ".join(marks)
            if d["index"] == data.get("first_mistake"):
                tail += f"  ← {G('first_mistake')}"
        cells = [decision_ref(d, data, lang), n[d["seat"]], play_text(d["move"], lang), mp] + vals
        rows.append((d["table"] is None and d["move_index"] > 0, cells, tail))
    if not rows:
        return []
    w = [max(_cols(c[k]) for _, c, _ in rows) for k in range(6)]
    out = []
    for gap, (ref, who, move, mp, dd, sd), tail in rows:
        if gap:
            out.append("")
        line = (f"  {_rjust(ref, max(5, w[0]))}  {_ljust(who, w[1])}  {_ljust(move, w[2])} "
                f"{_rjust(mp, max(6, w[3]))}"
                + "".join(f"  {_ljust(v, w[k])}" for k, v in ((4, dd), (5, sd)) if w[k]))
        out.append((line + tail).rstrip())
    return out


def _opening_lines(data: dict, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    op = data.get("opening") or {}
    rows = []
    for team in (0, 1):
        sign = 1 if team == 0 else -1
        parts = []
        for key, lab in (("deal", "opening_deal"), ("exchange", "opening_exchange"),
                         ("start", "opening_start")):
            mv = op.get(key)
            if mv is None or (key == "start" and op.get("exchange") is None):
                continue
            parts.append(f"{G(lab)} {value_text(_flip(mv, sign), lang)}")
        rows.append(f"{team_names(data, team, lang)}: " + (", ".join(parts) or G("none")))
    return rows


def _flip(mv: dict, sign: int) -> dict:
    if sign > 0:
        return mv
    return {**mv, "mean": -mv["mean"], "low": -mv["high"], "high": -mv["low"]}


def _player_lines(data: dict, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    by_index = {d["index"]: d for d in data["decisions"]}
    out = []
    for row in data.get("summary") or []:
        parts = [f"{G('judged')} {row['judged']}"]
        for view, short in _view_labels(G):
            v = row.get(view) or {}
            if not v.get("judged"):
                continue
            text = f"{short}: {count_of(v['mistakes'], 'mistakes', lang)}"
            if v["mistakes"]:
                text += f", {G('lost')} {lost_text(v, lang)}"
                if v.get("largest"):
                    d = by_index[v["largest"][0]]
                    text += (f", {G('largest')} {decision_ref(d, data, lang)} "
                             f"({loss_text(d[view], lang)})")
            parts.append(text)
        out.append(f"{n[row['seat']]}: " + "; ".join(parts))
    return out


# -- the endgame report (gd-analyze endgame) ---------------------------------------

def _position_lines(position: dict, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    turn = position["turn"]
    lines = [f"{G('level')}: {rank_label(position['level'], lang)}    "
             f"{G('to_act')}: {seat_label(turn, lang)}"
             f" ({G('team', t=turn % 2)})"]
    for s, hand in enumerate(position["hands"]):
        mark = " *" if s == turn else ""
        lines.append(f"  {s}: {cards_label(hand, lang) or '(' + G('out') + ')'}{mark}")
    if position.get("table") is not None:
        lines.append(f"{G('table')}: " + G("table_by", play=play_text(position["table"], lang),
                                           seat=seat_label(position["owner"], lang),
                                           passes=position["passes"]))
    else:
        lines.append(f"{G('table')}: {G('free_lead')}")
    if position.get("finished"):
        lines.append(f"{G('finished_seats')}: " + " ".join(map(str, position["finished"])))
    return lines


def render_endgame_text(position: dict, result: dict, lang: str = "en") -> str:
    """The double-dummy value of a position and of every move, as text:
    ``position`` holds level, turn, hands, table, owner, passes, finished;
    ``result`` is ``EndgameResult.to_dict()``."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731

    def play(p):
        return play_text(p, lang)

    def val(v):
        return "?" if v is None else f"{v:+d}"

    lines = _position_lines(position, lang)
    if result["value"] is not None:
        lines.append(f"{G('value_team0')}: {result['value']:+d}")
    else:
        lines.append(f"{G('value_team0')}: " + G("not_proven", lo=f"{result['lower']:+d}",
                                                 hi=f"{result['upper']:+d}"))
    lines.append(f"{G('moves')}:")
    for m in result["moves"]:
        v, (lo, hi) = m["value"], m["bounds"]
        vt = val(v) if v is not None else f"{lo:+d}..{hi:+d}"
        lines.append(f"  {vt:>6}{' *' if m['best'] else '  '} {play(m['play'])}")
    if result.get("pv"):
        lines.append(f"{G('best_line')}:")
        for step in result["pv"]:
            lines.append(f"  {step['seat']}: {play(step['play'])}")
    tail = ""
    if not result["exact"]:
        tail = "    (" + G("interrupted" if result.get("stopped") == "interrupted" else "stopped") + ")"
    lines.append(f"{G('nodes')}: {result['nodes']}    {G('time')}: "
                 f"{number(result['seconds'], lang, 3)} {G('sec')}{tail}")
    return "\n".join(lines)


def render_estimate_text(position: dict, est: dict, lang: str = "en") -> str:
    """An estimate of a position (``Estimate.to_dict()``) as text, marked as
    estimated unless proven."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731

    def sg(x, digits=2):
        return f"{x:+.{digits}f}".replace(".", ",") if lang == "ru" else f"{x:+.{digits}f}"

    lines = _position_lines(position, lang)
    if est["exact"]:
        lines.append(f"{G('value_team0')}: {sg(est['value'], 0)}    ({G('est_proven')})")
    else:
        lines.append(f"{G('value_team0')}: {sg(est['value'])}    " + G(
            "est_estimated", c=f"{est['confidence']:.0%}", lo=f"{est['lower']:+d}",
            hi=f"{est['upper']:+d}"))
    lines.append(G("est_moves") + ":")
    for m in est["moves"]:
        if m["exact"]:
            vt = f"{sg(m['mean'], 0)} {label('exact', lang)}"
            lines.append(f"  {vt:>22}          {play_text(m['play'], lang)}")
        else:
            vt = f"{sg(m['mean'])} [{sg(m['low'])}, {sg(m['high'])}]"
            lines.append(f"  {vt:>22} {m['samples']:>8} {play_text(m['play'], lang)}")
    lines.append(G("est_tail", playouts=est["playouts"], iterations=est["iterations"],
                   nodes=est["nodes"], t=number(est["seconds"], lang, 3))
                 + ("" if est["exact"] else f"    ({G('est_short')})"))
    return "\n".join(lines)


# -- HTML -----------------------------------------------------------------------

_CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:%FONTS%;background:#0f5132;color:#f8f9fa;font-size:17px}
header{padding:16px 26px;background:#0b3d26;border-bottom:3px solid #c9a227}
h1{margin:0 0 6px;font-size:28px}
h2{font-size:21px;margin:24px 0 10px;color:#ffe08a}
h3{font-size:18px;margin:10px 0 6px}
a{color:#ffe08a}
.sub{color:#cfe3d6}
.result{font-size:21px;font-weight:bold;margin-top:8px}
.result .win{color:#ffe08a}
main{padding:6px 26px 40px}
.legend,.help{color:#cfe3d6;font-size:14px}
.caveat{background:#0b3d26;border-left:6px solid #c9a227;padding:8px 12px;margin:14px 0;font-size:15px}
.hands{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.seat{background:#13613d;border-radius:10px;padding:8px 12px;border-left:8px solid #4dabf7;min-height:64px}
.seat.t1{border-left-color:#ff8787}
.seat.turn{outline:3px solid #ffe08a}
.seat h3 .n{font-weight:normal;color:#cfe3d6;font-size:14px}
.cards{display:inline-flex;flex-wrap:wrap;gap:3px;align-items:flex-end;vertical-align:middle}
.card{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;width:32px;height:46px;
 background:#fff;color:#111;border-radius:5px;border:1px solid #999;font-weight:bold;font-size:16px;line-height:1.05;
 box-shadow:1px 1px 2px rgba(0,0,0,.4)}
.card .s{font-size:16px}
.card.red{color:#c92a2a}
.card.wild{background:#fff3bf;border:2px solid #f08c00}
.card.joker{font-size:9px;letter-spacing:-.5px}
.card.joker.big{color:#c92a2a}
.card.zh{font-size:13px}
.cards.small .card{width:26px;height:37px;font-size:13px}
.cards.small .card .s{font-size:12px}
.cards.small .card.joker{font-size:7px}
.cards.small .card.joker.zh{font-size:11px}
.gap{width:7px}
table{border-collapse:collapse;width:100%;background:#13613d;border-radius:10px;overflow:hidden}
td,th{padding:4px 9px;text-align:left;vertical-align:middle}
th{background:#0b3d26;color:#ffe08a;font-weight:normal;font-size:14px}
tr.round td{border-top:2px solid #0b3d26}
td.num{color:#cfe3d6;width:52px;white-space:nowrap}
td.who{white-space:nowrap;width:110px}
td.who.t0{color:#a5d8ff}td.who.t1{color:#ffc9c9}
td.pass{color:#cfe3d6;font-style:italic}
td.mp,td.val{white-space:nowrap;text-align:right;color:#cfe3d6}
tr.mistake td{background:#7a1f1f}
tr.mistake td.val{color:#fff}
tr.cur td{outline:2px solid #ffe08a}
.better{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin-top:4px;font-size:15px;color:#ffe08a}
.tag{display:inline-block;background:#c92a2a;color:#fff;border-radius:4px;padding:1px 7px;font-size:13px;margin-left:6px}
.tag.est{background:#e8590c}
.tag.first{background:#f08c00}
.boxes{display:flex;flex-wrap:wrap;gap:10px}
.box{background:#13613d;border-radius:10px;padding:8px 14px}
.box.bad{background:#7a1f1f}
.ok{color:#b2f2bb}
.differs{color:#ffe08a}
.notes{color:#cfe3d6;font-size:14px}
svg.graph{background:#13613d;border-radius:10px;width:100%;height:auto;max-width:1100px}
svg.graph .pt{cursor:pointer}
.viewer{background:#0b3d26;border-radius:12px;padding:12px}
.controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.controls button{font:inherit;font-size:16px;padding:4px 14px;border-radius:6px;border:1px solid #c9a227;
 background:#13613d;color:#fff;cursor:pointer}
.controls .pos{color:#ffe08a;margin-left:8px}
.tablebox{background:#13613d;border-radius:10px;padding:8px 12px;margin:10px 0}
.cand td{font-size:15px}
.cand tr.chosen td{background:#0b3d26;font-weight:bold}
.cand tr.best td:first-child::before{content:"★ ";color:#ffe08a}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:12px}
@media (max-width:900px){.grid2,.hands{grid-template-columns:1fr}}
""".replace("%FONTS%", FONT_STACK)


def _e(s) -> str:
    return html.escape(str(s))


def _card_html(tok: str, level: str, lang: str) -> str:
    if tok in ("SB", "HR"):
        big = tok == "HR"
        word = joker_card_label(tok, lang)
        zh = " zh" if lang == "zh" else ""
        return (f'<span class="card joker{" big" if big else ""}{zh}" title="{_e(card_label(tok, lang))}">'
                f'{_e(word)}<span class="s">{"★" if big else "☆"}</span></span>')
    suit, rank = tok[0], tok[1:]
    cls = ["card"]
    if suit in "HD":
        cls.append("red")
    if suit == "H" and rank == level:
        cls.append("wild")
    shown = rank_face(rank, lang)
    return (f'<span class="{" ".join(cls)}" title="{_e(card_label(tok, lang))}">{_e(shown)}'
            f'<span class="s">{_SUIT_SYMBOL.get(suit, "?")}</span></span>')


def _order_key(tok: str, level: str) -> tuple:
    if tok == "SB":
        return (15, 0)
    if tok == "HR":
        return (16, 0)
    r = tok[1:]
    o = 14 if r == level else _ORDER.index(r) + 1
    return (o, "SHCD".index(tok[0]))


def _cards_html(cards: str, level: str, lang: str, small: bool = False,
                group: bool = False) -> str:
    toks = cards.split()
    if group:
        toks.sort(key=lambda t: _order_key(t, level), reverse=True)
    parts = []
    prev = None
    for t in toks:
        k = _order_key(t, level)[0]
        if group and prev is not None and k != prev:
            parts.append('<span class="gap"></span>')
        parts.append(_card_html(t, level, lang))
        prev = k
    return f'<span class="cards{" small" if small else ""}">{"".join(parts)}</span>'


def _play_html(p, level: str, lang: str) -> str:
    if p is None or p == "pass":
        return _e(type_name("pass", lang))
    if p.get("type") == "card":
        return _cards_html(p["cards"], level, lang, small=True)
    return (_cards_html(p["cards"], level, lang, small=True)
            + f' <span class="legend">{_e(type_rank(p["type"], p["rank"], lang))}</span>')


def _graph_svg(data: dict, lang: str, uid: str) -> str:
    """Team 0's expected level gain after every decision, both views (one
    point per decision), the proven stretch shaded, mistakes as dots."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    decs = data["decisions"]
    n = len(decs)
    W, H, L, R, T, B = 1000, 300, 46, 14, 14, 30
    pw, ph = W - L - R, H - T - B

    def x(i):
        return L + (pw * (i + 0.5) / max(n, 1))

    def y(v):
        return T + ph * (3 - v) / 6

    parts = [f'<svg class="graph" id="{uid}-graph" viewBox="0 0 {W} {H}" '
             f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{_e(G("graph"))}">']
    # the proven stretch: from the first decision after which every DD value is exact
    exact = [bool(d.get("double") and d["double"].get("chosen")
                  and d["double"]["chosen"].get("exact")) for d in decs]
    start = n
    while start > 0 and exact[start - 1]:
        start -= 1
    if start < n:
        x0 = L + pw * start / max(n, 1)
        parts.append(f'<rect class="proven" x="{x0:.1f}" y="{T}" width="{L + pw - x0:.1f}" '
                     f'height="{ph}" fill="#2b8a3e" opacity="0.35"><title>{_e(G("proven"))}'
                     f'</title></rect>')
    for v in range(-3, 4):
        parts.append(f'<line x1="{L}" x2="{L + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="{"#cfe3d6" if v == 0 else "#2f7a52"}" stroke-width="1"/>')
        parts.append(f'<text x="{L - 6}" y="{y(v) + 5:.1f}" text-anchor="end" font-size="13" '
                     f'fill="#cfe3d6">{_e(signed(v, lang))}</text>')
    # round starts along the axis
    for i, d in enumerate(decs):
        if d["kind"] != "play" or d["table"] is None:
            parts.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{T + ph}" y2="{T + ph + 5}" '
                         f'stroke="#cfe3d6"/>')
    graph = data.get("graph") or {}
    band = [(i, p) for i, p in enumerate(graph.get("double") or []) if p]
    if band:
        up = " ".join(f"{x(i):.1f},{y(p['high']):.1f}" for i, p in band)
        down = " ".join(f"{x(i):.1f},{y(p['low']):.1f}" for i, p in reversed(band))
        parts.append(f'<polygon points="{up} {down}" fill="#4dabf7" opacity="0.18"/>')
    colours = {"double": "#74c0fc", "single": "#ffa94d"}
    for view in VIEWS:
        pts = graph.get(view) or []
        seg: list = []
        segs = []
        for i, p in enumerate(pts):
            if p is None:
                if seg:
                    segs.append(seg)
                seg = []
                continue
            seg.append(f"{x(i):.1f},{y(p['mean']):.1f}")
        if seg:
            segs.append(seg)
        dash = ' stroke-dasharray="6 4"' if view == "single" else ""
        for s in segs:
            parts.append(f'<polyline class="line-{view}" points="{" ".join(s)}" fill="none" '
                         f'stroke="{colours[view]}" stroke-width="2.5"{dash}/>')
        for i, p in enumerate(pts):
            if p is None:
                continue
            d = decs[i]
            val = d.get(view) or {}
            title = (f"{decision_ref(d, data, lang)} {names(data, lang)[d['seat']]}: "
                     f"{play_text(d['move'], lang)} {G('dd' if view == 'double' else 'sd')} "
                     f"{value_text(p, lang)}")
            if val.get("mistake"):
                title += " " + _mark(val, lang)
                r, fill = 7, ("#ff6b6b" if view == "double" else "#ffd43b")
            else:
                r, fill = 2.5, colours[view]
            parts.append(f'<circle class="pt{" mistake" if val.get("mistake") else ""}" '
                         f'data-i="{i}" data-view="{view}" cx="{x(i):.1f}" cy="{y(p["mean"]):.1f}" '
                         f'r="{r}" fill="{fill}" stroke="#111" stroke-width="{1 if r > 3 else 0}">'
                         f'<title>{_e(title)}</title></circle>')
    parts.append(f'<line class="cursor" x1="0" x2="0" y1="{T}" y2="{T + ph}" stroke="#ffe08a" '
                 f'stroke-width="2" opacity="0"/>')
    ly = H - 9
    parts.append(f'<line x1="{L}" x2="{L + 26}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colours["double"]}" '
                 f'stroke-width="3"/><text x="{L + 32}" y="{ly}" font-size="13" fill="#f8f9fa">'
                 f'{_e(G("double"))}</text>')
    parts.append(f'<line x1="{L + 220}" x2="{L + 246}" y1="{ly - 4}" y2="{ly - 4}" '
                 f'stroke="{colours["single"]}" stroke-width="3" stroke-dasharray="6 4"/>'
                 f'<text x="{L + 252}" y="{ly}" font-size="13" fill="#f8f9fa">{_e(G("single"))}</text>')
    parts.append('</svg>')
    return "".join(parts)


def _viewer_data(data: dict, lang: str) -> dict:
    """What the replay script needs: per decision, the hands, the table, the
    move and the candidates with their values, all as display strings."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    frames = []
    owner = None
    for d in data["decisions"]:
        if d["kind"] == "play":
            if d["table"] is None:
                owner = None
            table = ""
            if d["table"] is not None:
                table = (f"{play_text(d['table'], lang)}"
                         + (f" — {n[owner]}" if owner is not None else ""))
            mv = d["move"]
            if mv is None:
                what = G("passes", who=n[d["seat"]])
            elif d["table"] is None:
                what = G("leads_with", who=n[d["seat"]], move=play_text(mv, lang))
            else:
                what = G("beats", move=f"{n[d['seat']]}: {type_rank(mv['type'], mv['rank'], lang)}",
                         table=type_rank(d["table"]["type"], d["table"]["rank"], lang, acc=True))
            if mv is not None:
                owner = d["seat"]
        else:
            table = label("tribute" if d["kind"] == "tribute" else "return", lang)
            what = f"{n[d['seat']]}: {label('tribute' if d['kind'] == 'tribute' else 'return', lang)} " \
                   f"{cards_label(d['move']['cards'], lang)}"
        cands = {}
        for view in VIEWS:
            val = d.get(view)
            if not val:
                continue
            for m in val.get("moves") or []:
                key = "pass" if m["move"] is None else m["move"]["cards"] + "|" + m["move"]["type"] \
                    + "|" + m["move"]["rank"]
                c = cands.setdefault(key, {"move": _play_html(m["move"], data["level"], lang),
                                           "text": play_text(m["move"], lang)})
                c[view] = value_text(m, lang)
                c[view + "_mean"] = m["mean"]
        chosen_key = ("pass" if d["move"] is None else
                      d["move"]["cards"] + "|" + d["move"]["type"] + "|" + d["move"]["rank"])
        best = set()
        dd = d.get("double") or d.get("single") or {}
        for b in dd.get("best") or []:
            best.add("pass" if b["move"] is None else
                     b["move"]["cards"] + "|" + b["move"]["type"] + "|" + b["move"]["rank"])
        sign = 1 if d["seat"] % 2 == 0 else -1
        ordered = sorted(cands.items(), key=lambda kv: -sign * kv[1].get(
            "double_mean", kv[1].get("single_mean", 0)))
        rows = [{**c, "chosen": k == chosen_key, "best": k in best} for k, c in ordered[:40]]
        if chosen_key in cands and not any(r["chosen"] for r in rows):
            rows.append({**cands[chosen_key], "chosen": True, "best": chosen_key in best})
        marks = [(G("dd") if v == "double" else G("sd")) + " " + _mark(d.get(v), lang)
                 for v in VIEWS if d.get(v) and d[v].get("mistake")]
        frames.append({
            "ref": decision_ref(d, data, lang), "seat": d["seat"], "hands": d["hands"],
            "table": table, "what": what, "cands": rows, "more": max(0, len(ordered) - 40),
            "marks": marks,
            "dd": value_text((d.get("double") or {}).get("chosen"), lang),
            "sd": value_text((d.get("single") or {}).get("chosen"), lang),
        })
    start = data.get("first_mistake")
    return {"frames": frames, "start": start if start is not None else 0,
            "names": n, "level": data["level"],
            "labels": {k: G(k) for k in ("table", "free_lead", "candidates", "played", "out",
                                         "dd", "sd", "value_after")},
            "joker": {"SB": joker_card_label("SB", lang), "HR": joker_card_label("HR", lang)},
            "faces": {r: rank_face(r, lang) for r in RANKS},
            "cards": {t: card_label(t, lang) for t in [s + r for s in "SHCD" for r in RANKS]
                      + ["SB", "HR"]},
            "decision": G("decision", i="{i}", n="{n}"), "lang": lang}


_SCRIPT = r"""
(function(){
var SUIT={S:"\u2660",H:"\u2665",C:"\u2663",D:"\u2666"},ORDER="23456789TJQKA";
var viewers=[],active=null;
function esc(s){return String(s).replace(/[&<>"]/g,function(c){return{"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c];});}
function okey(t,lv){if(t==="SB")return 15;if(t==="HR")return 16;var r=t.slice(1);return r===lv?14:ORDER.indexOf(r)+1;}
function card(t,D){
  if(t==="SB"||t==="HR"){var big=t==="HR";return '<span class="card joker'+(big?' big':'')+(D.lang==="zh"?' zh':'')+'" title="'+esc(D.cards[t])+'">'+esc(D.joker[t])+'<span class="s">'+(big?"\u2605":"\u2606")+'</span></span>';}
  var s=t[0],r=t.slice(1),c="card"+(s==="H"||s==="D"?" red":"")+(s==="H"&&r===D.level?" wild":"");
  return '<span class="'+c+'" title="'+esc(D.cards[t]||t)+'">'+(D.faces[r]||r)+'<span class="s">'+SUIT[s]+'</span></span>';
}
function cards(str,D){
  var toks=str?str.split(" "):[];toks.sort(function(a,b){return okey(b,D.level)-okey(a,D.level)||("SHCD".indexOf(a[0])-"SHCD".indexOf(b[0]));});
  var out=[],prev=null;toks.forEach(function(t){var k=okey(t,D.level);if(prev!==null&&k!==prev)out.push('<span class="gap"></span>');out.push(card(t,D));prev=k;});
  return '<span class="cards">'+out.join("")+'</span>';
}
function Viewer(root){
  this.root=root;this.D=JSON.parse(root.querySelector("script.gd-data").textContent);
  this.i=Math.max(0,Math.min(this.D.start,this.D.frames.length-1));var me=this;
  root.querySelectorAll("button[data-go]").forEach(function(b){b.addEventListener("click",function(){active=me;me.go(b.getAttribute("data-go"));});});
  root.addEventListener("click",function(){active=me;});
  var g=document.getElementById(root.getAttribute("data-graph"));
  if(g){g.querySelectorAll(".pt").forEach(function(p){p.addEventListener("click",function(){active=me;me.show(+p.getAttribute("data-i"));root.scrollIntoView({behavior:"smooth"});});});}
  document.querySelectorAll('tr[data-viewer="'+root.id+'"]').forEach(function(tr){tr.addEventListener("click",function(){active=me;me.show(+tr.getAttribute("data-i"));root.scrollIntoView({behavior:"smooth"});});});
  this.show(this.i);
}
Viewer.prototype.go=function(w){var n=this.D.frames.length;var i={first:0,prev:this.i-1,next:this.i+1,last:n-1}[w];this.show(Math.max(0,Math.min(n-1,i)));};
Viewer.prototype.show=function(i){
  var D=this.D,f=D.frames[i],r=this.root,L=D.labels;this.i=i;
  for(var s=0;s<4;s++){
    var el=r.querySelector('.seat[data-seat="'+s+'"]'),h=f.hands[s],n=h?h.split(" ").length:0;
    el.className="seat t"+(s%2)+(s===f.seat?" turn":"");
    el.querySelector(".n").textContent=" \u00b7 "+n;
    el.querySelector(".hc").innerHTML=n?cards(h,D):'<span class="legend">'+esc(L.out)+'</span>';
  }
  r.querySelector(".pos").textContent=D.decision.replace("{i}",i+1).replace("{n}",D.frames.length)+" \u00b7 "+f.ref;
  r.querySelector(".tbl").innerHTML=esc(L.table)+": "+(f.table?esc(f.table):esc(L.free_lead));
  r.querySelector(".what").innerHTML=esc(f.what)+(f.dd?' \u00b7 '+esc(L.dd)+" "+esc(f.dd):"")+(f.sd?' \u00b7 '+esc(L.sd)+" "+esc(f.sd):"")+f.marks.map(function(m){return ' <span class="tag">'+esc(m)+'</span>';}).join("");
  var rows=['<tr><th>'+esc(L.candidates)+'</th><th>'+esc(L.dd)+'</th><th>'+esc(L.sd)+'</th></tr>'];
  f.cands.forEach(function(c){rows.push('<tr class="'+(c.chosen?"chosen ":"")+(c.best?"best":"")+'"><td>'+c.move+(c.chosen?' <span class="tag first">'+esc(L.played)+'</span>':'')+'</td><td>'+esc(c.double||"")+'</td><td>'+esc(c.single||"")+'</td></tr>');});
  if(f.more)rows.push('<tr><td colspan="3" class="legend">+'+f.more+'</td></tr>');
  r.querySelector("table.cand").innerHTML=rows.join("");
  var g=document.getElementById(r.getAttribute("data-graph"));
  if(g){var pts=g.querySelectorAll('.pt[data-i="'+i+'"]'),cur=g.querySelector(".cursor");
    if(pts.length&&cur){var x=pts[0].getAttribute("cx");cur.setAttribute("x1",x);cur.setAttribute("x2",x);cur.setAttribute("opacity","1");}}
  document.querySelectorAll('tr[data-viewer="'+r.id+'"]').forEach(function(tr){tr.classList.toggle("cur",+tr.getAttribute("data-i")===i);});
};
document.addEventListener("keydown",function(ev){
  var v=active||viewers[0];if(!v)return;
  if(ev.key==="ArrowRight"){v.go("next");ev.preventDefault();}
  else if(ev.key==="ArrowLeft"){v.go("prev");ev.preventDefault();}
  else if(ev.key==="Home"){v.go("first");ev.preventDefault();}
  else if(ev.key==="End"){v.go("last");ev.preventDefault();}
});
document.querySelectorAll(".viewer").forEach(function(el){viewers.push(new Viewer(el));});
window.gdViewers=viewers;
})();
"""


def _json_script(obj) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    return text.replace("</", "<\\/")


def _deal_html(data: dict, lang: str, uid: str, heading: str = "h1") -> str:
    """The review of one deal (the body of a page, or a section of an evening)."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    level = data["level"]
    by_index = {d["index"]: d for d in data["decisions"]}
    h = [f'<section class="deal" id="{uid}">']
    bits = _title_bits(data, lang)
    h.append(f'<{heading}>{_e(G("title"))}{(" — " + _e(" · ".join(bits))) if bits else ""}</{heading}>')
    h.append(f'<div class="sub">{_e(G("level"))}: <b>{_e(rank_label(level, lang))}</b> · {_e(G("players"))}: '
             f'<span style="color:#a5d8ff">{_e(team_names(data, 0, lang))}</span> / '
             f'<span style="color:#ffc9c9">{_e(team_names(data, 1, lang))}</span></div>')
    fin = data.get("finished") or []
    h.append(f'<div class="result">{_e(G("result"))}: <span class="win">{_e(_result_text(data, lang))}'
             f'</span>' + (f' <span class="sub" style="font-weight:normal;font-size:16px">'
                           f'({_e(G("finishing"))}: {_e(", ".join(n[s] for s in fin))})</span>'
                           if fin else "") + '</div>')
    h.append(f'<div class="caveat">{_e(G("caveat"))}</div>')

    # the graph
    h.append(f'<h2>{_e(G("graph"))}</h2>')
    h.append(f'<p class="help">{_e(G("graph_help", names=team_names(data, 0, lang)))}</p>')
    h.append(_graph_svg(data, lang, uid))

    # luck and skill
    h.append(f'<h2>{_e(G("opening"))}</h2><div class="grid2"><div>')
    h.append(f'<p class="help">{_e(G("opening_help"))}</p><table class="opening"><tr><th></th>')
    op = data.get("opening") or {}
    keys = [k for k in ("deal", "exchange", "start") if op.get(k) is not None
            and not (k == "start" and op.get("exchange") is None)]
    for k in keys:
        h.append(f'<th>{_e(G("opening_" + k))}</th>')
    h.append('</tr>')
    for team in (0, 1):
        sign = 1 if team == 0 else -1
        h.append(f'<tr><td>{_e(team_names(data, team, lang))}</td>'
                 + "".join(f'<td>{_e(value_text(_flip(op[k], sign), lang))}</td>' for k in keys)
                 + ("" if keys else f'<td>{_e(G("none"))}</td>') + '</tr>')
    h.append('</table></div><div>')
    h.append(f'<p class="help">{_e(G("skill_help"))}</p><table class="skill"><tr>'
             f'<th>{_e(G("player"))}</th><th>{_e(G("judged"))}</th>'
             f'<th>{_e(G("dd"))}: {_e(G("mistakes"))}</th><th>{_e(G("dd"))}: {_e(G("lost"))}</th>'
             f'<th>{_e(G("sd"))}: {_e(G("mistakes"))}</th><th>{_e(G("sd"))}: {_e(G("lost"))}</th>'
             f'<th>{_e(G("largest"))}</th></tr>')
    for row in data.get("summary") or []:
        cells = [f'<td class="who t{row["seat"] % 2}">{_e(n[row["seat"]])}</td>',
                 f'<td>{row["judged"]}</td>']
        largest = None
        for view in VIEWS:
            v = row.get(view) or {}
            cells.append(f'<td>{v.get("mistakes", 0)}'
                         + (f' ({_e(G("proven"))}: {v["proven"]})' if v.get("proven") else "")
                         + '</td>')
            cells.append(f'<td>{_e(lost_text(v, lang))}</td>')
            if v.get("largest") and (largest is None or v["largest"][1] > largest[0][1]):
                largest = (v["largest"], view)
        if largest:
            (i, _), view = largest
            d = by_index[i]
            cells.append(f'<td><a href="#{uid}-d{d["index"]}">{_e(decision_ref(d, data, lang))}</a> '
                         f'({_e(loss_text(d[view], lang))})</td>')
        else:
            cells.append(f'<td>{_e(G("none"))}</td>')
        h.append('<tr>' + "".join(cells) + '</tr>')
    h.append('</table></div></div>')

    # the viewer
    h.append(f'<h2>{_e(G("viewer"))}</h2>')
    h.append(f'<div class="viewer" id="{uid}-viewer" data-graph="{uid}-graph">')
    h.append(f'<script type="application/json" class="gd-data">{_json_script(_viewer_data(data, lang))}'
             f'</script>')
    h.append('<div class="controls">'
             + "".join(f'<button type="button" data-go="{k}">{_e(G(k))}</button>'
                       for k in ("first", "prev", "next", "last"))
             + f'<span class="pos"></span><span class="legend">{_e(G("keys"))}</span></div>')
    h.append('<div class="hands">')
    for s in (0, 1, 2, 3):
        h.append(f'<div class="seat t{s % 2}" data-seat="{s}"><h3>{_e(n[s])} '
                 f'<span class="n"></span></h3><div class="hc"></div></div>')
    h.append('</div><div class="tablebox"><div class="tbl"></div><div class="what"></div></div>')
    h.append('<table class="cand"></table></div>')

    # the exchange
    if data.get("anti_tribute"):
        h.append(f'<h2>{_e(G("exchange"))}</h2><p>{_e(G("anti_tribute"))}</p>')
    elif data.get("exchange"):
        h.append(f'<h2>{_e(G("exchange"))}</h2>')
        ex_dec = [d for d in data["decisions"] if d["kind"] != "play"]
        if any(d.get("single") for d in ex_dec):
            h.append(f'<p class="legend">{_e(G("exchange_sd_help"))}</p>')
        h.append('<table class="exchange">')
        for e in data["exchange"]:
            kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
            d = next((x for x in ex_dec if x["kind"] == e["kind"] and x["seat"] == e["giver"]), None)
            vals = []
            for view, short in _view_labels(G):
                val = (d or {}).get(view)
                if not val or not val.get("chosen"):
                    continue
                v = f'{_e(short)} {_e(value_text(val["chosen"], lang))}'
                if val.get("mistake"):
                    est = " est" if val["mistake"] == "estimated" else ""
                    v += f' <span class="tag{est}">{_e(_mark(val, lang))}</span>'
                vals.append(v)
            dd = "<br>".join(vals)
            if e.get("differs"):
                verdict = (f'<span class="differs">{_e(DIFFERS)} '
                           f'{_e(G("differs_from_advice", card=""))}</span>'
                           f'{_card_html(e["best"], level, lang)}')
            else:
                verdict = f'<span class="ok">✓ {_e(G("as_advised"))}</span>'
            anchor = f' id="{uid}-d{d["index"]}"' if d else ""
            # the row is a mistake only when one of the decision's views marks it
            marked = d is not None and any((d.get(v) or {}).get("mistake") for v in VIEWS)
            cls = ' class="mistake"' if marked else ""
            h.append(f'<tr{anchor}{cls}><td>{_e(kind)}</td>'
                     f'<td>{_e(n[e["giver"]])} → {_e(n[e["receiver"]])}</td>'
                     f'<td>{_card_html(e["card"], level, lang)}</td><td>{dd}</td><td>{verdict}</td>'
                     f'<td class="legend">{_e(advice_reason(e, lang))}</td></tr>')
        h.append('</table>')

    # the play
    h.append(f'<h2>{_e(G("play"))}</h2>')
    h.append(f'<p class="legend">{_e(G("value_legend", names=team_names(data, 0, lang)))}; '
             f'{_e(G("dd"))} = {_e(G("double"))}, {_e(G("sd"))} = {_e(G("single"))}</p>')
    h.append(f'<table class="play"><tr><th>#</th><th>{_e(G("player"))}</th><th>{_e(G("move"))}</th>'
             f'<th style="text-align:right">{_e(G("min_plays"))}</th>'
             f'<th style="text-align:right">{_e(G("dd"))}</th>'
             f'<th style="text-align:right">{_e(G("sd"))}</th></tr>')
    for d in data["decisions"]:
        if d["kind"] != "play":
            continue
        cls = []
        if d["table"] is None and d["move_index"] > 0:
            cls.append("round")
        marked = [v for v in VIEWS if d.get(v) and d[v].get("mistake")]
        if marked:
            cls.append("mistake")
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        vals = [value_text((d.get(v) or {}).get("chosen"), lang) for v in VIEWS]
        move = _play_html(d["move"], level, lang)
        for v in marked:
            val = d[v]
            est = " est" if val["mistake"] == "estimated" else ""
            move += f'<span class="tag{est}">{_e(G("dd" if v == "double" else "sd"))} {_e(_mark(val, lang))}</span>'
        if marked and d["index"] == data.get("first_mistake"):
            move += f'<span class="tag first">{_e(G("first_mistake"))}</span>'
        for v in marked:
            val = d[v]
            better = " ".join(f'{_play_html(b["move"], level, lang)} '
                              f'<span class="legend">{_e(value_text(b, lang))}</span>'
                              for b in val.get("best") or [])
            move += (f'<div class="better">{_e(G("dd" if v == "double" else "sd"))} '
                     f'{_e(G("better"))}: {better}</div>')
        pass_cls = " pass" if d["move"] is None else ""
        h.append(f'<tr id="{uid}-d{d["index"]}" data-viewer="{uid}-viewer" data-i="{d["index"]}" '
                 f'class="{" ".join(cls)}"><td class="num">{_e(decision_ref(d, data, lang))}</td>'
                 f'<td class="who t{d["seat"] % 2}">{_e(n[d["seat"]])}</td>'
                 f'<td class="mv{pass_cls}">{move}</td><td class="mp">{_e(mp)}</td>'
                 f'<td class="val">{_e(vals[0])}</td><td class="val">{_e(vals[1])}</td></tr>')
    h.append('</table>')
    h.append(f'<h2>{_e(G("hands"))}</h2><div class="hands">')
    for s in (0, 1, 2, 3):
        cnt = len(data["hands"][s].split())
        h.append(f'<div class="seat t{s % 2}"><h3>{_e(n[s])} <span class="n">· {cnt}</span></h3>'
                 f'{_cards_html(data["hands"][s], level, lang, group=True)}</div>')
    h.append('</div>')
    s = data.get("settings") or {}
    notes = [note_text(x, lang) for x in data.get("notes") or []]
    if s.get("budget") is not None:
        notes.insert(0, G("budget", s=number(s["budget"], lang, 2), seed=s.get("seed", 0)))
    if notes:
        h.append(f'<h2>{_e(G("notes"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(x)}</li>" for x in notes) + '</ul>')
    h.append('</section>')
    return "\n".join(h)


def _page(title: str, body: str, lang: str) -> str:
    return ("<!DOCTYPE html>\n"
            f'<html lang="{_e(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>\n'
            f"{body}\n</main><script>{_SCRIPT}</script></body></html>\n")


def render_html(data: dict, lang: str = "en") -> str:
    """A self-contained HTML page of one deal's review."""
    bits = _title_bits(data, lang)
    title = game_label("title", lang) + (" — " + ", ".join(bits) if bits else "")
    return _page(title, _deal_html(data, lang, "deal1"), lang)


# -- the evening ------------------------------------------------------------------

_LOST = ("lost", "lost_low", "lost_high", "lost_proven")


def evening_summary(reviews: list, lang: str = "en") -> dict:
    """Per player over the evening (by name; where no names are known, by
    the seat's label in the language, as elsewhere: seat 2, место 2, 2号位):
    decisions judged, double-dummy mistakes, the levels lost (``lost``: the
    sum of the estimated losses, with the sums of their lows and highs and
    of their proven parts, as in a review's summary) and per deal, the
    largest mistake."""
    players: dict = {}
    for k, data in enumerate(reviews):
        n = names(data, lang)
        for row in data.get("summary") or []:
            p = players.setdefault(n[row["seat"]], {"name": n[row["seat"]], "deals": 0,
                                                    "judged": 0, "mistakes": 0, "proven": 0,
                                                    **{key: 0.0 for key in _LOST},
                                                    "largest": None})
            p["deals"] += 1
            p["judged"] += row["judged"]
            dd = row.get("double") or {}
            p["mistakes"] += dd.get("mistakes", 0)
            p["proven"] += dd.get("proven", 0)
            for key in _LOST:
                p[key] += dd.get(key, dd.get("lost")) or 0.0
            if dd.get("largest") and (p["largest"] is None or dd["largest"][1] > p["largest"][2]):
                p["largest"] = (k, dd["largest"][0], dd["largest"][1])
    for p in players.values():
        for key in ("lost", "lost_low", "lost_high"):
            p[key.replace("lost", "lost_per_deal")] = (round(p[key] / p["deals"], 3)
                                                       if p["deals"] else 0.0)
        for key in _LOST:
            p[key] = round(p[key], 3)
    return {"players": sorted(players.values(), key=lambda p: p["name"])}


def _per_deal(p: dict, lang: str) -> str:
    """A player's levels lost per deal over the evening, with the interval."""
    return lost_text(p, lang, 2, per=p["deals"] or 1)


def _natural(value) -> tuple:
    text = str(value if value is not None else "")
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def evening_order(reviews: list) -> list:
    """The reviews by table, then deal (numbers in numeric order), then file."""
    return sorted(reviews, key=lambda d: (_natural((d.get("tags") or {}).get("table")),
                                          _natural((d.get("tags") or {}).get("deal")),
                                          str(d.get("file", ""))))


def render_evening_text(reviews: list, lang: str = "en", errors: Optional[list] = None) -> str:
    """The evening as text: results by table and deal, the players, each review."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    reviews = evening_order(reviews)
    out = [G("evening"), "", G("results") + ":"]
    for data in reviews:
        tags = data.get("tags") or {}
        out.append(f"  {G('table_col')} {tags.get('table', '?')}  {G('deal_col')} "
                   f"{tags.get('deal', '?')}  {data.get('file', '')}: {_result_text(data, lang)}")
    out += ["", G("per_player") + ":"]
    summ = evening_summary(reviews, lang)
    for p in summ["players"]:
        line = (f"  {p['name']}: {G('judged')} {p['judged']}, "
                f"{count_of(p['mistakes'], 'mistakes', lang)}, "
                f"{G('levels_lost_per_deal')} {_per_deal(p, lang)}")
        if p["largest"]:
            k, i, _ = p["largest"]
            d = next(x for x in reviews[k]["decisions"] if x["index"] == i)
            line += (f", {G('largest')}: {reviews[k].get('file', '')} "
                     f"{decision_ref(d, reviews[k], lang)} ({loss_text(d['double'], lang)})")
        out.append(line)
    if errors:
        out += ["", G("errors") + ":"] + [f"  {name}: {msg}" for name, msg in errors]
    for data in reviews:
        out += ["", "=" * 72, render_text(data, lang).rstrip()]
    return "\n".join(out) + "\n"


def render_evening_html(reviews: list, lang: str = "en", errors: Optional[list] = None) -> str:
    """One page for a club evening: results by table and deal, a summary per
    player (with a link to each one's largest mistake), each deal's review."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    reviews = evening_order(reviews)
    h = [f'<header><h1>{_e(G("evening"))}</h1></header>', f'<h2>{_e(G("results"))}</h2>',
         f'<table class="results"><tr><th>{_e(G("table_col"))}</th><th>{_e(G("deal_col"))}</th>'
         f'<th>{_e(G("players"))}</th><th>{_e(G("result"))}</th><th>{_e(G("file"))}</th></tr>']
    for k, data in enumerate(reviews):
        tags = data.get("tags") or {}
        h.append(f'<tr><td>{_e(tags.get("table", "?"))}</td><td>{_e(tags.get("deal", "?"))}</td>'
                 f'<td>{_e(team_names(data, 0, lang))} / {_e(team_names(data, 1, lang))}</td>'
                 f'<td>{_e(_result_text(data, lang))}</td>'
                 f'<td><a href="#deal{k + 1}">{_e(data.get("file", G("deal_link")))}</a></td></tr>')
    h.append('</table>')
    summ = evening_summary(reviews, lang)
    h.append(f'<h2>{_e(G("per_player"))}</h2><table class="players"><tr><th>{_e(G("player"))}</th>'
             f'<th>{_e(G("judged"))}</th><th>{_e(G("mistakes"))}</th>'
             f'<th>{_e(G("levels_lost_per_deal"))}</th><th>{_e(G("largest"))}</th></tr>')
    for p in summ["players"]:
        cell = _e(G("none"))
        if p["largest"]:
            k, i, _ = p["largest"]
            d = next(x for x in reviews[k]["decisions"] if x["index"] == i)
            cell = (f'<a href="#deal{k + 1}-d{i}">{_e(reviews[k].get("file", ""))} '
                    f'{_e(decision_ref(d, reviews[k], lang))}</a> ({_e(loss_text(d["double"], lang))})')
        h.append(f'<tr><td>{_e(p["name"])}</td><td>{p["judged"]}</td>'
                 f'<td>{p["mistakes"]}' + (f' ({_e(G("proven"))}: {p["proven"]})' if p["proven"] else "")
                 + f'</td><td>{_e(_per_deal(p, lang))}</td><td>{cell}</td></tr>')
    h.append('</table>')
    if errors:
        h.append(f'<h2>{_e(G("errors"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(name)}: {_e(msg)}</li>" for name, msg in errors) + '</ul>')
    for k, data in enumerate(reviews):
        h.append('<hr>')
        h.append(_deal_html(data, lang, f"deal{k + 1}", heading="h2"))
    return _page(G("evening"), "\n".join(h), lang)
