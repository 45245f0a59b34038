"""The deal report of ``gd-analyze game``: text and a self-contained HTML page.

Both render the JSON form of an analysis (``Analysis.to_dict()``): data in,
text out, no rules here. The HTML page has its CSS inline and no external
assets (it can be projected from a laptop with no network): the four hands
drawn as cards, the tribute exchange, the play round by round, and every
move that lost value highlighted with the better move beside it.
"""

from __future__ import annotations

import html
from ..report.i18n import game_label, label, rank_name, type_name

__all__ = ["render_text", "render_html"]

_SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_ORDER = "23456789TJQKA"


def _names(data: dict) -> list:
    return list(data.get("players") or [f"seat {s}" for s in range(4)])


def _team_names(data: dict, team: int) -> str:
    n = _names(data)
    return f"{n[team]} & {n[team + 2]}"


def _value(v) -> str:
    if v is None:
        return "?"
    return f"+{v}" if v > 0 else str(v).replace("-", "−")


def _play_text(p, lang: str) -> str:
    if p is None or p == "pass":
        return type_name("pass", lang)
    return f"{p['cards']} ({type_name(p['type'], lang)} {rank_name(p['rank'])})"


def _result_text(data: dict, lang: str) -> str:
    r = data.get("result")
    if r is None:
        return game_label("unfinished", lang)
    team = 0 if r > 0 else 1
    return game_label("wins", lang, names=_team_names(data, team), gain=abs(r))


def _title_bits(data: dict) -> list:
    tags = data.get("tags") or {}
    bits = [tags[k] for k in ("event", "site", "date") if tags.get(k)]
    for k in ("table", "deal"):
        if tags.get(k):
            bits.append(f"{k} {tags[k]}")
    return bits


def _mistake_note(d: dict, lang: str) -> str:
    best = d.get("best_moves") or []
    better = ", ".join(_play_text(b, lang) for b in best[:3])
    return (f"✗ {game_label('loses', lang, n=d['loss'])}; {game_label('better', lang)}: "
            f"{better} ({_value(d.get('best_value'))})")


# -- text -----------------------------------------------------------------------

def render_text(data: dict, lang: str = "en") -> str:
    """The move-by-move report as plain text."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    names = _names(data)
    out = [G("title") + (" — " + ", ".join(_title_bits(data)) if _title_bits(data) else "")]
    out.append(f"{G('level')}: {data['level']}    {G('players')}: "
               + ", ".join(f"{s} {names[s]}" for s in range(4))
               + f"  ({_team_names(data, 0)} / {_team_names(data, 1)})")
    fin = data.get("finished") or []
    out.append(f"{G('result')}: {_result_text(data, lang)}"
               + (f"    {G('finishing')}: " + ", ".join(names[s] for s in fin) if fin else ""))
    out.append(G("value_legend", names=_team_names(data, 0)))
    out.append("")
    out.append(G("hands") + ":")
    width = max(len(n) for n in names)
    for s in range(4):
        out.append(f"  {s} {names[s]:<{width}}  {data['hands'][s]}")
    if data.get("anti_tribute"):
        out += ["", f"{G('exchange')}: {G('anti_tribute')}"]
    elif data.get("exchange"):
        out += ["", G("exchange") + ":"]
        for e in data["exchange"]:
            kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
            verdict = (f"✗ {G('advice', card=e['best'])}" if e["mistake"] else G("as_advised"))
            out.append(f"  {kind}: {names[e['giver']]} → {names[e['receiver']]} {e['card']}   "
                       f"{verdict}")
            if e.get("reason"):
                out.append(f"      {e['reason']}")
    out += ["", G("play") + ":"]
    for d in data["decisions"]:
        if d["table"] is None and d["index"] > 0:
            out.append("")
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        val = ""
        if d.get("solved"):
            val = _value(d.get("chosen_value")) if d.get("chosen_value") is not None else G("not_solved")
        line = f"  {d['index'] + 1:>3}  {names[d['seat']]:<{width}}  {_play_text(d['play'], lang):<34} {mp:>6} {val:>4}"
        if d.get("mistake"):
            line += "  " + _mistake_note(d, lang)
            if d.get("first_mistake"):
                line += f"  ← {G('first_mistake')}"
        out.append(line.rstrip())
    out += ["", G("mistakes") + ":"]
    mistakes = [d for d in data["decisions"] if d.get("mistake")]
    bad_exchange = [e for e in data.get("exchange") or [] if e.get("mistake")]
    if not mistakes and not bad_exchange:
        out.append("  " + G("no_mistakes"))
    for e in bad_exchange:
        kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
        out.append(f"  {names[e['giver']]}: {kind} {e['card']}  ✗ {G('advice', card=e['best'])}")
    for d in mistakes:
        out.append(f"  #{d['index'] + 1} {names[d['seat']]}: {_play_text(d['play'], lang)}  "
                   + _mistake_note(d, lang))
    if data.get("notes"):
        out += ["", G("notes") + ":"] + [f"  {n}" for n in data["notes"]]
    return "\n".join(out) + "\n"


# -- HTML -----------------------------------------------------------------------

_CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:"DejaVu Sans","Noto Sans",Arial,sans-serif;background:#0f5132;color:#f8f9fa;font-size:18px}
header{padding:18px 28px;background:#0b3d26;border-bottom:3px solid #c9a227}
h1{margin:0 0 6px;font-size:30px}
h2{font-size:22px;margin:26px 0 10px;color:#ffe08a}
.sub{color:#cfe3d6}
.result{font-size:22px;font-weight:bold;margin-top:8px}
.result .win{color:#ffe08a}
main{padding:6px 28px 40px}
.legend{color:#cfe3d6;font-size:15px}
.hands{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.seat{background:#13613d;border-radius:10px;padding:10px 12px;border-left:8px solid #4dabf7}
.seat.t1{border-left-color:#ff8787}
.seat h3{margin:0 0 6px;font-size:19px}
.seat h3 .n{font-weight:normal;color:#cfe3d6;font-size:15px}
.cards{display:inline-flex;flex-wrap:wrap;gap:3px;align-items:flex-end;vertical-align:middle}
.card{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;width:34px;height:48px;
 background:#fff;color:#111;border-radius:5px;border:1px solid #999;font-weight:bold;font-size:17px;line-height:1.05;
 box-shadow:1px 1px 2px rgba(0,0,0,.4)}
.card .s{font-size:17px}
.card.red{color:#c92a2a}
.card.wild{background:#fff3bf;border:2px solid #f08c00}
.card.joker{font-size:10px;letter-spacing:-.5px}
.card.joker.big{color:#c92a2a}
.cards.small .card{width:27px;height:38px;font-size:14px}
.cards.small .card .s{font-size:13px}
.cards.small .card.joker{font-size:8px}
.gap{width:8px}
table{border-collapse:collapse;width:100%;background:#13613d;border-radius:10px;overflow:hidden}
td,th{padding:4px 10px;text-align:left;vertical-align:middle}
th{background:#0b3d26;color:#ffe08a;font-weight:normal;font-size:15px}
tr.round td{border-top:2px solid #0b3d26}
td.num{color:#cfe3d6;width:42px}
td.who{white-space:nowrap;width:120px}
td.who.t0{color:#a5d8ff}td.who.t1{color:#ffc9c9}
td.pass{color:#cfe3d6;font-style:italic}
td.mp,td.val{white-space:nowrap;width:70px;text-align:right;color:#cfe3d6}
tr.mistake td{background:#7a1f1f}
tr.mistake td.val{color:#fff;font-weight:bold}
.better{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin-top:4px;font-size:16px;color:#ffe08a}
.tag{display:inline-block;background:#c92a2a;color:#fff;border-radius:4px;padding:1px 7px;font-size:14px;margin-left:6px}
.tag.first{background:#f08c00}
.summary{display:flex;flex-wrap:wrap;gap:10px}
.summary .box{background:#13613d;border-radius:10px;padding:8px 14px}
.summary .box.bad{background:#7a1f1f}
.exchange td{padding:6px 10px}
.ok{color:#b2f2bb}
.notes{color:#cfe3d6;font-size:15px}
"""


def _e(s) -> str:
    return html.escape(str(s))


def _card_html(tok: str, level: str) -> str:
    if tok in ("SB", "HR"):
        big = tok == "HR"
        word = "JOKER"
        return (f'<span class="card joker{" big" if big else ""}" title="{_e(tok)}">'
                f'{word}<span class="s">{"★" if big else "☆"}</span></span>')
    suit, rank = tok[0], tok[1:]
    cls = ["card"]
    if suit in "HD":
        cls.append("red")
    if suit == "H" and rank == level:
        cls.append("wild")
    shown = "10" if rank == "T" else rank
    return (f'<span class="{" ".join(cls)}" title="{_e(tok)}">{_e(shown)}'
            f'<span class="s">{_SUIT_SYMBOL.get(suit, "?")}</span></span>')


def _order_key(tok: str, level: str) -> tuple:
    if tok == "SB":
        return (15, 0)
    if tok == "HR":
        return (16, 0)
    r = tok[1:]
    o = 14 if r == level else _ORDER.index(r) + 1
    return (o, "SHCD".index(tok[0]))


def _cards_html(cards: str, level: str, small: bool = False, group: bool = False) -> str:
    toks = cards.split()
    if group:
        toks.sort(key=lambda t: _order_key(t, level), reverse=True)
    parts = []
    prev = None
    for t in toks:
        k = _order_key(t, level)[0]
        if group and prev is not None and k != prev:
            parts.append('<span class="gap"></span>')
        parts.append(_card_html(t, level))
        prev = k
    return f'<span class="cards{" small" if small else ""}">{"".join(parts)}</span>'


def _play_html(p, level: str, lang: str) -> str:
    if p is None or p == "pass":
        return _e(type_name("pass", lang))
    return (_cards_html(p["cards"], level, small=True)
            + f' <span class="legend">{_e(type_name(p["type"], lang))} {_e(rank_name(p["rank"]))}</span>')


def render_html(data: dict, lang: str = "en") -> str:
    """A self-contained HTML page of the analysis."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    names = _names(data)
    level = data["level"]
    h = ['<!DOCTYPE html>', f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
         f'<title>{_e(G("title"))}{" — " + _e(", ".join(_title_bits(data))) if _title_bits(data) else ""}</title>',
         f'<style>{_CSS}</style></head><body>']
    h.append('<header>')
    h.append(f'<h1>{_e(G("title"))}</h1>')
    if _title_bits(data):
        h.append(f'<div class="sub">{_e(" · ".join(_title_bits(data)))}</div>')
    h.append(f'<div class="sub">{_e(G("level"))}: <b>{_e(level)}</b> · {_e(G("players"))}: '
             f'<span style="color:#a5d8ff">{_e(_team_names(data, 0))}</span> vs '
             f'<span style="color:#ffc9c9">{_e(_team_names(data, 1))}</span></div>')
    fin = data.get("finished") or []
    h.append(f'<div class="result">{_e(G("result"))}: <span class="win">{_e(_result_text(data, lang))}</span>'
             + (f' <span class="sub" style="font-weight:normal;font-size:17px">({_e(G("finishing"))}: '
                f'{_e(", ".join(names[s] for s in fin))})</span>' if fin else "") + '</div>')
    h.append('</header><main>')

    # summary: the first mistake of each player
    mistakes = [d for d in data["decisions"] if d.get("mistake")]
    h.append(f'<h2>{_e(G("mistakes"))}</h2><div class="summary">')
    if not mistakes and not any(e.get("mistake") for e in data.get("exchange") or []):
        h.append(f'<div class="box">{_e(G("no_mistakes"))}</div>')
    for e in data.get("exchange") or []:
        if e.get("mistake"):
            kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
            h.append(f'<div class="box bad">{_e(names[e["giver"]])}: {_e(kind)} {_card_html(e["card"], level)} '
                     f'→ {_e(G("advice", card=""))}{_card_html(e["best"], level)}</div>')
    for d in mistakes:
        first = f'<span class="tag first">{_e(G("first_mistake"))}</span>' if d.get("first_mistake") else ""
        h.append(f'<div class="box bad"><a href="#m{d["index"] + 1}" style="color:#fff">#{d["index"] + 1}</a> '
                 f'{_e(names[d["seat"]])}: {_e(G("loses", n=d["loss"]))}{first}</div>')
    h.append('</div>')

    # the hands
    h.append(f'<h2>{_e(G("hands"))}</h2><div class="hands">')
    for s in (0, 1, 2, 3):
        n = len(data["hands"][s].split())
        h.append(f'<div class="seat t{s % 2}"><h3>{_e(names[s])} <span class="n">{_e(G("seat"))} {s} · {n}</span></h3>'
                 f'{_cards_html(data["hands"][s], level, group=True)}</div>')
    h.append('</div>')

    # the exchange
    if data.get("anti_tribute"):
        h.append(f'<h2>{_e(G("exchange"))}</h2><p>{_e(G("anti_tribute"))}</p>')
    elif data.get("exchange"):
        h.append(f'<h2>{_e(G("exchange"))}</h2><table class="exchange">')
        for e in data["exchange"]:
            kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
            row_attr = ' class="mistake"' if e["mistake"] else ""
            verdict = (f'{_e(G("advice", card=""))}{_card_html(e["best"], level)}' if e["mistake"]
                       else f'<span class="ok">✓ {_e(G("as_advised"))}</span>')
            h.append(f'<tr{row_attr}><td>{_e(kind)}</td><td>{_e(names[e["giver"]])} → {_e(names[e["receiver"]])}</td>'
                     f'<td>{_card_html(e["card"], level)}</td><td>{verdict}</td>'
                     f'<td class="legend">{_e(e.get("reason") or "")}</td></tr>')
        h.append('</table>')

    # the play
    h.append(f'<h2>{_e(G("play"))}</h2>')
    h.append(f'<p class="legend">{_e(G("value_legend", names=_team_names(data, 0)))}</p>')
    h.append(f'<table class="play"><tr><th>#</th><th>{_e(label("seat", lang))}</th><th>{_e(G("move"))}</th>'
             f'<th style="text-align:right">{_e(G("min_plays"))}</th><th style="text-align:right">{_e(label("value", lang))}</th></tr>')
    for d in data["decisions"]:
        cls = []
        if d["table"] is None and d["index"] > 0:
            cls.append("round")
        if d.get("mistake"):
            cls.append("mistake")
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        val = _value(d.get("chosen_value")) if d.get("solved") and d.get("chosen_value") is not None else ""
        move = _play_html(d["play"], level, lang)
        if d.get("mistake"):
            first = f'<span class="tag first">{_e(G("first_mistake"))}</span>' if d.get("first_mistake") else ""
            better = " ".join(_play_html(b, level, lang) for b in (d.get("best_moves") or [])[:3])
            move += (f'<span class="tag">✗ {_e(G("loses", n=d["loss"]))}</span>{first}'
                     f'<div class="better">{_e(G("better"))} ({_e(_value(d.get("best_value")))}): {better}</div>')
        pass_cls = " pass" if d["play"] is None else ""
        h.append(f'<tr id="m{d["index"] + 1}" class="{" ".join(cls)}"><td class="num">{d["index"] + 1}</td>'
                 f'<td class="who t{d["seat"] % 2}">{_e(names[d["seat"]])}</td><td class="mv{pass_cls}">{move}</td>'
                 f'<td class="mp">{_e(mp)}</td><td class="val">{_e(val)}</td></tr>')
    h.append('</table>')
    if data.get("notes"):
        h.append(f'<h2>{_e(G("notes"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(n)}</li>" for n in data["notes"]) + '</ul>')
    h.append('</main></body></html>')
    return "\n".join(h) + "\n"
