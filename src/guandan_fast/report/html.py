"""The deal review as a self-contained HTML page.

It renders the JSON form of a review (``Analysis.to_dict()``): data in, page
out, no rules here (the order hands are shown in is ``Rules.order``'s, here
and in the viewer's script, which gets it as data). The page has its CSS (``static/viewer.css``), its script
(``static/viewer.js``, the replay viewer) and its graph (inline SVG) inside
it and no external assets, so it can be projected from a laptop with no
network: the value graph, a replay viewer (buttons and the arrow keys), luck
and skill per team and player, the tribute exchange and the play with every
mistake marked. ``report.evening`` puts the reviews of a club evening on one
page with the same pieces.

Fonts: the page names a stack that covers Latin, Cyrillic and Chinese
(``FONT_STACK``); a viewer needs one of those fonts installed (any Noto Sans
CJK, Source Han Sans, PingFang, Microsoft YaHei or WenQuanYi font for the
Chinese page; DejaVu Sans or any common sans font for the others).
"""

from __future__ import annotations

import html
import json
from typing import Any
from functools import lru_cache
from importlib.resources import files

from ..formats.analysis_json import validate
from ..model.cards import RANK_CHARS, RANKS
from ..model.rules import Rules
from .common import (DIFFERS, VIEWS, _flip, _mark, _result_text, _title_bits, _view_labels,
                     breaks_text, decision_ref, line_end_text, line_hands, line_moves, line_text,
                     loss_text, lost_text, move_key, names, opening_value_text,
                     play_text, rounds, signed, team_names, type_rank, value_text, chosen_text, budget_text, paired_marks,
                     tiers_of, unclear_mark)
from .i18n import (advice_reason, aside, card_label, cards_label, enclosed, game_label,
                   joker_card_label, label, note_text, punct, rank_face, rank_label,
                   type_name)

__all__ = ["render_html", "FONT_STACK"]

FONT_STACK = ('"Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", '
              '"Microsoft YaHei", "WenQuanYi Micro Hei", "DejaVu Sans", "Liberation Sans", '
              'Arial, sans-serif')
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def _static(name: str) -> str:
    """A file of the page (the viewer's CSS or script), shipped as package data."""
    return files(__package__).joinpath("static").joinpath(name).read_text(encoding="utf-8")


_CSS = _static("viewer.css").replace("%FONTS%", FONT_STACK)


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


@lru_cache(maxsize=None)
def _card_order(level: str) -> dict:
    """Each rank character's single-card order at this level, by the rules'
    one ordering function (``Rules.order``, RULES §2): the page sorts and
    groups hands by it, here and in the viewer's script (which gets it as
    data, ``order``)."""
    rules = Rules(level=level)
    return {r: rules.order(r) for r in RANK_CHARS}


def _order_key(tok: str, level: str) -> tuple:
    return (_card_order(level)[tok[1:]], "SHCD".index(tok[0]))


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


# The graph's two shapes: wide for a laptop or a projector, narrow and
# taller for a phone (the page's CSS shows one of them by the screen's width).
_GRAPH_SHAPES = {"wide": (1000, 280, 46, 14, 14, 12), "narrow": (400, 300, 34, 8, 10, 10)}


def _graph_svg(data: dict, lang: str, uid: str, shape: str = "wide") -> str:
    """Team 0's expected level gain after every decision, both views (one
    point per decision), the proven stretch shaded, mistakes as dots (the
    legend is ``_graph_legend``)."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    decs = data["decisions"]
    n = len(decs)
    W, H, L, R, T, B = _GRAPH_SHAPES[shape]
    pw, ph = W - L - R, H - T - B
    gid = f"{uid}-graph" if shape == "wide" else f"{uid}-graph-{shape}"

    def x(i):
        return L + (pw * (i + 0.5) / max(n, 1))

    def y(v):
        return T + ph * (3 - v) / 6

    parts = [f'<svg class="graph {shape}" id="{gid}" viewBox="0 0 {W} {H}" '
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
            title = (f"{decision_ref(d, data, lang)} {names(data, lang)[d['seat']]}"
                     f"{punct('colon', lang)}{play_text(d['move'], lang)} {G('dd' if view == 'double' else 'sd')} "
                     f"{value_text(p, lang)}")
            if val.get("mistake"):
                title += " " + _mark(val, lang, tiers_of(data))
                r, fill = 7.0, ("#ff6b6b" if view == "double" else "#ffd43b")
            else:
                r, fill = 2.5, colours[view]
            parts.append(f'<circle class="pt{" mistake" if val.get("mistake") else ""}" '
                         f'data-i="{i}" data-view="{view}" cx="{x(i):.1f}" cy="{y(p["mean"]):.1f}" '
                         f'r="{r}" fill="{fill}" stroke="#111" stroke-width="{1 if r > 3 else 0}">'
                         f'<title>{_e(title)}</title></circle>')
    parts.append(f'<line class="cursor" x1="0" x2="0" y1="{T}" y2="{T + ph}" stroke="#ffe08a" '
                 f'stroke-width="2" opacity="0"/>')
    parts.append('</svg>')
    return "".join(parts)


def _graph_legend(lang: str) -> str:
    """What the graph's lines, band, shading, dots and ticks mean (HTML, so
    that it wraps on a narrow screen)."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    C = punct("colon", lang)

    def item(swatch: str, text: str) -> str:
        return (f'<span class="li"><svg width="26" height="14" aria-hidden="true">{swatch}</svg>'
                f'{_e(text)}</span>')

    return '<div class="glegend">' + "".join([
        item('<line x1="1" x2="25" y1="7" y2="7" stroke="#74c0fc" stroke-width="3"/>', G("double")),
        item('<line x1="1" x2="25" y1="7" y2="7" stroke="#ffa94d" stroke-width="3" '
             'stroke-dasharray="6 4"/>', G("single")),
        item('<rect x="1" y="1" width="24" height="12" fill="#4dabf7" opacity="0.35"/>',
             f'{G("dd")}{C}{G("legend_band")}'),
        item('<rect x="1" y="1" width="24" height="12" fill="#2b8a3e" opacity="0.8"/>', G("proven")),
        item('<circle cx="13" cy="7" r="6" fill="#ff6b6b" stroke="#111"/>',
             f'{G("dd")}{C}{G("legend_mistake")}'),
        item('<circle cx="13" cy="7" r="6" fill="#ffd43b" stroke="#111"/>',
             f'{G("sd")}{C}{G("legend_mistake")}'),
        item('<line x1="13" x2="13" y1="2" y2="12" stroke="#cfe3d6" stroke-width="2"/>',
             G("legend_round")),
        item('<line x1="13" x2="13" y1="0" y2="14" stroke="#ffe08a" stroke-width="2"/>',
             G("legend_cursor")),
    ]) + '</div>'


def _viewer_data(data: dict, lang: str) -> dict:
    """What the replay script needs: per decision, the hands, the table, the
    move and the candidates with their values, all as display strings."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    frames = []
    before = rounds(data)
    for d in data["decisions"]:
        plays, owner = before[d["index"]]
        # the plays of the round so far: [seat, the play's HTML]
        trick = [[s, _play_html(m, data["level"], lang)] for s, m in plays]
        if d["kind"] == "play":
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
                what = G("beats", move=n[d["seat"]] + punct("colon", lang)
                         + type_rank(mv["type"], mv["rank"], lang),
                         table=type_rank(d["table"]["type"], d["table"]["rank"], lang, acc=True))
        else:
            table = label("tribute" if d["kind"] == "tribute" else "return", lang)
            what = (n[d["seat"]] + punct("colon", lang)
                    + f"{label('tribute' if d['kind'] == 'tribute' else 'return', lang)} "
                    f"{cards_label(d['move']['cards'], lang)}")
        cands: dict[str, dict[str, Any]] = {}
        for view in VIEWS:
            val = d.get(view)
            if not val:
                continue
            for m in val.get("moves") or []:
                c = cands.setdefault(move_key(m["move"]), {
                    "move": _play_html(m["move"], data["level"], lang),
                    "text": play_text(m["move"], lang)})
                c[view] = value_text(m, lang)
                c[view + "_mean"] = m["mean"]
        chosen_key = _played_key(d, cands)
        best = set()
        dd = d.get("double") or d.get("single") or {}
        for b in dd.get("best") or []:
            best.add(move_key(b["move"]))
        sign = 1 if d["seat"] % 2 == 0 else -1
        ordered = sorted(cands.items(), key=lambda kv: -sign * kv[1].get(
            "double_mean", kv[1].get("single_mean", 0)))
        rows = [{**c, "chosen": k == chosen_key, "best": k in best}
                for k, c in ordered[:MAX_ROWS]]
        if not any(r["chosen"] for r in rows):
            # the move played is always listed, valued or not
            played = cands.get(chosen_key) or {"move": _play_html(d["move"], data["level"], lang),
                                               "text": play_text(d["move"], lang)}
            rows.append({**played, "chosen": True, "best": chosen_key in best})
        listed = {k for k, _ in ordered[:MAX_ROWS]} | {chosen_key}
        marks = [(G("dd") if v == "double" else G("sd")) + " " + _mark(d.get(v), lang, tiers_of(data))
                 for v in VIEWS if d.get(v) and d[v].get("mistake")]
        frames.append({
            "lines": _line_frames(d, data, lang),
            "ref": decision_ref(d, data, lang), "seat": d["seat"], "hands": d["hands"],
            "table": table, "what": what, "cands": rows, "more": len(cands.keys() - listed),
            "marks": marks, "mistake": bool(marks), "forced": bool(d.get("forced")),
            "round": list(trick),
            "dd": chosen_text(d, "double", lang),
            "sd": chosen_text(d, "single", lang),
        })
    start = data.get("first_mistake")
    return {"frames": frames, "start": start if start is not None else 0,
            "names": n, "level": data["level"], "order": _card_order(data["level"]),
            "labels": {k: G(k) for k in ("table", "free_lead", "candidates", "played", "out",
                                         "dd", "sd", "value_after", "forced", "forced_help",
                                         "round_so_far", "not_solved", "play_line",
                                         "back_to_deal")},
            "line_step": G("line_step", i="{i}", n="{n}"),
            "more_moves": G("more_moves", n="{n}"),
            "joker": {"SB": joker_card_label("SB", lang), "HR": joker_card_label("HR", lang)},
            "faces": {r: rank_face(r, lang) for r in RANKS},
            "cards": {t: card_label(t, lang) for t in [s + r for s in "SHCD" for r in RANKS]
                      + ["SB", "HR"]},
            "decision": G("decision", i="{i}", n="{n}"), "lang": lang}


MAX_ROWS = 40          # candidate moves listed per decision (the move played always is)


def _line_frames(d: dict, data: dict, lang: str) -> list:
    """The better lines of a decision's marks, for the viewer to step
    through: per marked view, its label, what the line is, how it ends, and
    one step per move of the line (the hands after it, who moved, what,
    and the seat to move next)."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    out = []
    for view, short in _view_labels(G):
        val = d.get(view) or {}
        line = val.get("line")
        if not val.get("mistake") or not line:
            continue
        moves = line_moves(line)
        hands = line_hands(line)
        steps = []
        for j, (seat, mv) in enumerate(moves):
            nxt = moves[j + 1][0] if j + 1 < len(moves) else None
            what = n[seat] + punct("colon", lang) + play_text(mv, lang)
            if not j:
                what = f"{G('line_start')} — {what}"
            steps.append({"hands": hands[j], "seat": seat, "next": nxt, "what": what,
                          "play": _play_html(mv, data["level"], lang)})
        out.append({"view": short,
                    "title": G("line_solver" if line["source"] == "solver" else "line_policy"),
                    "end": line_end_text(line, data, lang), "steps": steps})
    return out


def _played_key(d: dict, cands: dict) -> str:
    """The key of the move played among a decision's candidates: the same
    cards as a multiset (``move_key``), of the same type and rank; failing
    that, of the same cards alone (a record may name another reading of
    the same cards)."""
    key = move_key(d["move"])
    if key in cands or d["move"] is None:
        return key
    cards = key.split("|")[0]
    return next((k for k in cands if k.split("|")[0] == cards), key)


_SCRIPT = _static("viewer.js")


def _json_script(obj) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    return text.replace("</", "<\\/")


def _deal_html(data: dict, lang: str, uid: str, heading: str = "h1") -> str:
    """The review of one deal (the body of a page, or a section of an evening)."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    n = names(data, lang)
    level = data["level"]
    by_index = {d["index"]: d for d in data["decisions"]}
    h = [f'<section class="deal" id="{uid}">']
    bits = _title_bits(data, lang)
    h.append(f'<{heading}>{_e(G("title"))}{(" — " + _e(" · ".join(bits))) if bits else ""}</{heading}>')
    h.append(f'<div class="sub">{_e(G("level"))}{P("colon")}<b>{_e(rank_label(level, lang))}</b> · '
             f'{_e(G("players"))}{P("colon")}'
             f'<span style="color:#a5d8ff">{_e(team_names(data, 0, lang))}</span> / '
             f'<span style="color:#ffc9c9">{_e(team_names(data, 1, lang))}</span></div>')
    fin = data.get("finished") or []
    h.append(f'<div class="result">{_e(G("result"))}{P("colon")}<span class="win">{_e(_result_text(data, lang))}'
             f'</span>' + (' <span class="sub" style="font-weight:normal;font-size:16px">'
                           + _e(enclosed(G("finishing") + P("colon")
                                         + P("list").join(n[s] for s in fin), lang)) + '</span>'
                           if fin else "") + '</div>')
    h.append(f'<div class="caveat">{_e(G("caveat"))}</div>')

    # the graph
    h.append(f'<h2>{_e(G("graph"))}</h2>')
    h.append(f'<p class="help">{_e(G("graph_help", names=team_names(data, 0, lang)))}</p>')
    h.append('<figure class="gbox">' + _graph_svg(data, lang, uid, "wide")
             + _graph_svg(data, lang, uid, "narrow") + _graph_legend(lang) + '</figure>')

    # luck and skill
    h.append(f'<h2>{_e(G("opening"))}</h2><div class="grid2"><div>')
    h.append(f'<p class="help">{_e(G("opening_help"))}</p><div class="scroll"><table class="opening"><tr><th></th>')
    op = data.get("opening") or {}
    keys = [k for k in ("deal", "exchange", "start") if op.get(k) is not None
            and not (k == "start" and op.get("exchange") is None)]
    for k in keys:
        h.append(f'<th>{_e(G("opening_" + k))}</th>')
    h.append('</tr>')
    for team in (0, 1):
        sign = 1 if team == 0 else -1
        h.append(f'<tr><td>{_e(team_names(data, team, lang))}</td>'
                 + "".join(f'<td>{_e(opening_value_text(data, k, _flip(op[k], sign), lang))}</td>'
                           for k in keys)
                 + ("" if keys else f'<td>{_e(G("none"))}</td>') + '</tr>')
    h.append('</table></div></div><div>')
    heads = [G("player"), G("judged")] + [G(v) + P("colon") + G(k) for v in ("dd", "sd")
                                          for k in ("mistakes", "lost")] + [G("largest")]
    h.append(f'<p class="help">{_e(G("skill_help"))}</p><div class="scroll"><table class="skill stack">'
             '<tr>' + "".join(f'<th>{_e(x)}</th>' for x in heads) + '</tr>')
    for row in data.get("summary") or []:
        cells = [f'<td class="who t{row["seat"] % 2}">{_e(n[row["seat"]])}</td>',
                 f'<td>{row["judged"]}</td>']
        largest = None
        for view in VIEWS:
            v = row.get(view) or {}
            cells.append(f'<td>{v.get("mistakes", 0)}'
                         + (_e(aside(G("proven") + P("colon") + str(v["proven"]), lang))
                            if v.get("proven") else "")
                         + '</td>')
            cells.append(f'<td>{_e(lost_text(v, lang))}</td>')
            if v.get("largest") and (largest is None or v["largest"][1] > largest[0][1]):
                largest = (v["largest"], view)
        if largest:
            (i, _), view = largest
            d = by_index[i]
            cells.append(f'<td><a href="#{uid}-d{d["index"]}">{_e(decision_ref(d, data, lang))}</a>'
                         f'{_e(aside(loss_text(d[view], lang, tiers_of(data)), lang))}</td>')
        else:
            cells.append(f'<td>{_e(G("none"))}</td>')
        # each cell names its column, for the phone layout that stacks a row
        cells = [c.replace("<td", f'<td data-l="{_e(x)}"', 1) if k else c
                 for k, (c, x) in enumerate(zip(cells, heads))]
        h.append('<tr>' + "".join(cells) + '</tr>')
    h.append('</table></div></div></div>')

    # the viewer
    h.append(f'<h2>{_e(G("viewer"))}</h2>')
    h.append(f'<p class="help">{_e(G("viewer_help", names=team_names(data, 0, lang)))}</p>')
    h.append(f'<div class="viewer" id="{uid}-viewer" data-graph="{uid}-graph {uid}-graph-narrow">')
    h.append(f'<script type="application/json" class="gd-data">{_json_script(_viewer_data(data, lang))}'
             f'</script>')
    h.append('<div class="controls">'
             + "".join(f'<button type="button" data-go="{k}">{_e(G(k))}</button>'
                       for k in ("first", "prev", "next", "last"))
             + "".join(f'<button type="button" class="jump" data-go="{k.replace("_", "")}">'
                       f'{_e(G(k))}</button>' for k in ("prev_mistake", "next_mistake"))
             + f'<span class="pos"></span><span class="legend keys">{_e(G("keys"))}</span>'
             f'<span class="legend swipe">{_e(G("swipe"))}</span></div>')
    h.append('<div class="linebar"></div>')
    h.append('<div class="stage"><div class="tablebox"><div class="tbl"></div><div class="trick"></div>'
             '<div class="what"></div></div><div class="hands">')
    for s in (0, 1, 2, 3):
        h.append(f'<div class="seat t{s % 2}" data-seat="{s}"><h3>{_e(n[s])} '
                 f'<span class="n"></span></h3><div class="hc"></div></div>')
    h.append('</div></div>')
    h.append(f'<details class="cands" open><summary>{_e(G("candidates"))}<span class="count"></span>'
             '</summary><div class="scroll"><table class="cand"></table></div></details></div>')

    # the exchange
    if data.get("anti_tribute"):
        h.append(f'<h2>{_e(G("exchange"))}</h2><p>{_e(G("anti_tribute"))}</p>')
    elif data.get("exchange"):
        h.append(f'<h2>{_e(G("exchange"))}</h2>')
        ex_dec = [d for d in data["decisions"] if d["kind"] != "play"]
        if any(d.get("single") for d in ex_dec):
            h.append(f'<p class="legend">{_e(G("exchange_sd_help"))}</p>')
        h.append('<div class="scroll"><table class="exchange">')
        for e in data["exchange"]:
            kind = label("tribute" if e["kind"] == "tribute" else "return", lang)
            d = next((x for x in ex_dec if x["kind"] == e["kind"] and x["seat"] == e["giver"]), None)
            vals = []
            for view, short in _view_labels(G):
                val = (d or {}).get(view)
                if not val or not chosen_text(d or {}, view, lang):
                    continue
                v = f'{_e(short)} {_e(chosen_text(d or {}, view, lang))}'
                if val.get("mistake"):
                    est = " est" if val["mistake"] != "proven" else ""
                    v += f' <span class="tag{est}">{_e(_mark(val, lang, tiers_of(data)))}</span>'
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
            if len(e.get("choices") or []) == 1:      # nothing to advise: the one card allowed
                verdict, reason = f'<span class="ok">{_e(G("only_card"))}</span>', ""
            else:
                reason = advice_reason(e, lang)
            h.append(f'<tr{anchor}{cls}><td>{_e(kind)}</td>'
                     f'<td>{_e(n[e["giver"]])} → {_e(n[e["receiver"]])}</td>'
                     f'<td>{_card_html(e["card"], level, lang)}</td><td>{dd}</td><td>{verdict}</td>'
                     f'<td class="legend">{_e(reason)}</td></tr>')
        h.append('</table></div>')

    # the play
    h.append(f'<h2>{_e(G("play"))}</h2>')
    h.append(f'<p class="legend">{_e(G("value_legend", names=team_names(data, 0, lang)))}{P("clause")}'
             f'{_e(G("dd"))} = {_e(G("double"))}{P("list")}{_e(G("sd"))} = {_e(G("single"))}</p>')
    if paired_marks(data):
        h.append(f'<p class="legend">{_e(G("paired_help"))}</p>')
    h.append(f'<p class="legend">{_e(G("min_plays_help"))}{P("clause")}'
             f'<span class="tag forced">{_e(G("forced"))}</span> {_e(G("forced_help"))}</p>')
    width = (data.get("settings") or {}).get("unclear_width")
    if any(unclear_mark(d.get(v), lang, width) for d in data["decisions"] if not d.get("forced")
           for v in VIEWS):
        h.append(f'<p class="legend"><span class="tag unclear">? {_e(G("unclear"))}</span> '
                 f'{_e(G("unclear_help"))}</p>')
    plays = sum(1 for d in data["decisions"] if d["kind"] == "play")
    h.append(f'<details class="playlist" open><summary>{_e(G("moves"))}{aside(str(plays), lang)}'
             '</summary>')
    h.append(f'<table class="play"><tr><th>#</th><th>{_e(G("player"))}</th><th>{_e(G("move"))}</th>'
             f'<th style="text-align:right" title="{_e(G("min_plays_help"))}">{_e(G("min_plays"))}</th>'
             f'<th style="text-align:right" title="{_e(G("double"))}">{_e(G("dd"))}</th>'
             f'<th style="text-align:right" title="{_e(G("single"))}">{_e(G("sd"))}</th></tr>')
    for d in data["decisions"]:
        if d["kind"] != "play":
            continue
        classes = []
        if d["table"] is None and d["move_index"] > 0:
            classes.append("round")
        marked_views = [v for v in VIEWS if d.get(v) and d[v].get("mistake")]
        if marked_views:
            classes.append("mistake")
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        vals = [chosen_text(d, v, lang) for v in VIEWS]
        broke = breaks_text(d, lang)
        broke = f'<div class="breaks legend">{_e(broke)}</div>' if broke else ""
        move = _play_html(d["move"], level, lang)
        for v in marked_views:
            val = d[v]
            est = " est" if val["mistake"] != "proven" else ""
            move += f'<span class="tag{est}">{_e(G("dd" if v == "double" else "sd"))} {_e(_mark(val, lang, tiers_of(data)))}</span>'
        if d.get("forced"):
            move += f'<span class="tag forced" title="{_e(G("forced_help"))}">{_e(G("forced"))}</span>'
        else:       # an unclear view: its short tag, the interval that decides it on hover
            for v in VIEWS:
                if (u := unclear_mark(d.get(v), lang, width)):
                    move += (f'<span class="tag unclear" title="{_e(u)}">'
                             f'{_e(G("dd" if v == "double" else "sd"))} ? {_e(G("unclear"))}</span>')
        if marked_views and d["index"] == data.get("first_mistake"):
            move += f'<span class="tag first">{_e(G("first_mistake"))}</span>'
        for v in marked_views:
            val = d[v]
            better = " ".join(f'{_play_html(b["move"], level, lang)} '
                              f'<span class="legend">{_e(value_text(b, lang))}</span>'
                              for b in val.get("best") or [])
            move += (f'<div class="better">{_e(G("dd" if v == "double" else "sd"))} '
                     f'{_e(G("better"))}{P("colon")}{better}</div>')
            if val.get("line"):
                move += (f'<div class="better line legend">{_e(G("dd" if v == "double" else "sd"))} '
                         f'{_e(line_text(val["line"], data, lang))}</div>')
        pass_cls = " pass" if d["move"] is None else ""
        h.append(f'<tr id="{uid}-d{d["index"]}" data-viewer="{uid}-viewer" data-i="{d["index"]}" '
                 f'class="{" ".join(classes)}"><td class="num">{_e(decision_ref(d, data, lang))}</td>'
                 f'<td class="who t{d["seat"] % 2}">{_e(n[d["seat"]])}</td>'
                 f'<td class="mv{pass_cls}">{move}</td>'
                 f'<td class="mp" data-l="{_e(G("min_plays"))}">{_e(mp)}{broke}</td>'
                 f'<td class="val" data-l="{_e(G("dd"))}">{_e(vals[0])}</td>'
                 f'<td class="val" data-l="{_e(G("sd"))}">{_e(vals[1])}</td></tr>')
    h.append('</table></details>')
    h.append(f'<h2>{_e(G("hands"))}</h2><div class="hands">')
    for s in (0, 1, 2, 3):
        cnt = len(data["hands"][s].split())
        h.append(f'<div class="seat t{s % 2}"><h3>{_e(n[s])} <span class="n">· {cnt}</span></h3>'
                 f'{_cards_html(data["hands"][s], level, lang, group=True)}</div>')
    h.append('</div>')
    settings = data.get("settings") or {}
    notes = [note_text(x, lang) for x in data.get("notes") or []]
    if budget_text(settings, lang):
        notes.insert(0, budget_text(settings, lang))
    if notes:
        h.append(f'<h2>{_e(G("notes"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(x)}</li>" for x in notes) + '</ul>')
    h.append('</section>')
    return "\n".join(h)


def _page(title: str, body: str, lang: str, css: str = "", script: str = _SCRIPT) -> str:
    """The page around ``body``: the viewer's CSS (and ``css`` after it) and
    ``script`` (the replay viewer's by default) inline."""
    return ("<!DOCTYPE html>\n"
            f'<html lang="{_e(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(title)}</title><style>\n{_CSS}{css}</style></head><body><main>\n'
            f"{body}\n</main><script>\n{script}</script></body></html>\n")


def render_html(data: dict, lang: str = "en") -> str:
    """A self-contained HTML page of one deal's review. ``data`` is checked
    first (``analysis_json.validate``: ``AnalysisFormatError`` names a bad
    field)."""
    data = validate(data)
    bits = _title_bits(data, lang)
    title = game_label("title", lang) + (" — " + punct("list", lang).join(bits) if bits else "")
    return _page(title, _deal_html(data, lang, "deal1"), lang)

