"""A club evening (``gd-analyze evening``): the reviews of its deals by
table and deal, a summary per player over the evening, each deal's review;
as text and as one page."""

from __future__ import annotations

from typing import Optional

from .common import _result_text, decision_ref, loss_text, lost_text, names, team_names
from .html import _deal_html, _e, _page
from .i18n import count_of, game_label
from .text import render_text

__all__ = ["render_evening_html", "render_evening_text", "evening_order", "evening_summary"]


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
         f'<div class="scroll"><table class="results"><tr><th>{_e(G("table_col"))}</th><th>{_e(G("deal_col"))}</th>'
         f'<th>{_e(G("players"))}</th><th>{_e(G("result"))}</th><th>{_e(G("file"))}</th></tr>']
    for k, data in enumerate(reviews):
        tags = data.get("tags") or {}
        h.append(f'<tr><td>{_e(tags.get("table", "?"))}</td><td>{_e(tags.get("deal", "?"))}</td>'
                 f'<td>{_e(team_names(data, 0, lang))} / {_e(team_names(data, 1, lang))}</td>'
                 f'<td>{_e(_result_text(data, lang))}</td>'
                 f'<td><a href="#deal{k + 1}">{_e(data.get("file", G("deal_link")))}</a></td></tr>')
    h.append('</table></div>')
    summ = evening_summary(reviews, lang)
    h.append(f'<h2>{_e(G("per_player"))}</h2><div class="scroll"><table class="players"><tr><th>{_e(G("player"))}</th>'
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
    h.append('</table></div>')
    if errors:
        h.append(f'<h2>{_e(G("errors"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(name)}: {_e(msg)}</li>" for name, msg in errors) + '</ul>')
    for k, data in enumerate(reviews):
        h.append('<hr>')
        h.append(_deal_html(data, lang, f"deal{k + 1}", heading="h2"))
    return _page(G("evening"), "\n".join(h), lang)
