"""Drills ("learn from your mistakes", ``gd-analyze drills``): every mark
of one or more reviews as a puzzle, on one self-contained page.

A drill is one mark (a decision and a view whose move played is marked a
mistake, ``common._mark``), shown as the mover saw the position: their own
hand, the level, the round so far (the plays since the last lead; none at
the tribute and the return), how many cards each seat holds and whose turn
it is, never another seat's hand. It asks what the mover would play (or
which card to give) among the candidate moves, the moves the view valued
for that decision (pass included), the best moves and the move played,
written as the page writes cards in that language (``html._play_html``),
in an order that does not depend on their values. A pick reveals whether
the move is among the view's best moves, every candidate's value from the
mover's side, the move played with its mark (tier, proven or likely, the
loss with its interval) and the better line.

Drills are ordered by loss, largest first (``evening.evening_summary``'s
``leaks``, the same order as the evening's table of mistakes), and the page
filters them by player and view with a few lines of plain script
(``static/drills.js``). Data in (review documents, as ``render`` reads
them), page out; no rules here.
"""

from __future__ import annotations

from typing import Optional

from .common import _flip, _mark, decision_ref, line_text, move_key, names, rounds, team_names, \
    tiers_of, value_text
from ..formats.analysis_json import validate_reviews
from .evening import _order, _summary, _title
from .html import _card_order, _cards_html, _e, _page, _play_html, _static
from .i18n import count_of, drill_label, game_label, punct, rank_label

__all__ = ["drills", "render_drills_html"]

_CSS = _static("drills.css")
_SCRIPT = _static("drills.js")

# the candidates' order on the page: by kind of play, then rank, then cards
# (never by value: the order must not give the answer away)
_TYPES = ("card", "single", "pair", "triple", "full_house", "straight", "tube", "plate",
          "bomb", "straight_flush", "joker_bomb")


def _exchange_receiver(d: dict, data: dict) -> Optional[int]:
    """The seat that receives the card of a tribute or return decision."""
    for e in data.get("exchange") or []:
        if e["kind"] == d["kind"] and e["giver"] == d["seat"]:
            return e["receiver"]
    return None


def _candidates(d: dict, val: dict, level: str) -> list:
    """The candidate moves of one view's decision: the moves it valued, its
    best moves and the move played (each once, by ``move_key``), each with
    its value from the mover's side (or None), whether it is among the
    best, whether it was played; in a value-blind order."""
    sign = 1 if d["seat"] % 2 == 0 else -1
    best = {move_key(b["move"]) for b in val.get("best") or []}
    played = move_key(d["move"])
    out: dict = {}
    for mv in list(val.get("moves") or []) + list(val.get("best") or []):
        k = move_key(mv["move"])
        if k not in out:
            out[k] = {"move": mv["move"], "value": _flip(mv, sign)}
    if played not in out:
        chosen = val.get("chosen")
        out[played] = {"move": d["move"], "value": _flip(chosen, sign) if chosen else None}
    order = _card_order(level)

    def key(item):
        k, c = item
        m = c["move"]
        if m is None:
            return (0, 0, 0, k)
        return (1, _TYPES.index(m["type"]) if m["type"] in _TYPES else len(_TYPES),
                order.get(m["rank"], 0), k)

    return [{**c, "best": k in best, "played": k == played}
            for k, c in sorted(out.items(), key=key)]


def drills(reviews: list, lang: str = "en") -> list:
    """The drills of these reviews, largest loss first: per mark, the
    review (its place in ``evening_order(reviews)``), the decision's
    ``index``, the ``view``, the ``player`` (as the language names an
    unnamed seat), ``seat``, ``kind``, ``loss``, what the mover saw
    (``hand``, ``counts`` of the four seats, the ``round`` so far as
    ``[(seat, move)]``, the ``owner`` of the play on the table, the
    ``receiver`` of a tribute or return card) and the ``candidates``
    (``move``, ``value`` from the mover's side, ``best``, ``played``).
    ``reviews`` are checked first (``analysis_json.validate_reviews``:
    ``AnalysisFormatError`` names a bad field)."""
    return _drills(validate_reviews(reviews)[0], lang)


def _drills(reviews: list, lang: str) -> list:
    """``drills`` of checked documents."""
    reviews = _order(reviews)
    before = [rounds(data) for data in reviews]
    out = []
    for leak in _summary(reviews, lang)["leaks"]:
        data = reviews[leak["review"]]
        d = data["decisions"][leak["index"]]
        val = d[leak["view"]]
        plays, owner = before[leak["review"]][d["index"]]
        out.append({
            "review": leak["review"], "index": d["index"], "view": leak["view"],
            "player": leak["player"], "seat": d["seat"], "kind": d["kind"],
            "loss": leak["loss"], "hand": d["hands"][d["seat"]],
            "counts": [len(h.split()) for h in d["hands"]],
            "round": plays, "owner": owner,
            "receiver": _exchange_receiver(d, data) if d["kind"] != "play" else None,
            "candidates": _candidates(d, val, data["level"]),
        })
    return out


def _situation(x: dict, d: dict, data: dict, lang: str) -> str:
    """The table as the mover sees it: the play to beat and the round so
    far, or the exchange."""
    D = lambda k, **p: drill_label(k, lang, **p)  # noqa: E731
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    C = punct("colon", lang)
    n = names(data, lang)
    level = data["level"]
    if x["kind"] != "play":
        return f'<div class="tbl">{_e(D("tribute_round"))}</div>'
    if d["table"] is None:
        top = f'{_e(G("table"))}{C}{_e(G("free_lead"))}'
    else:
        by = f' — <span class="who t{x["owner"] % 2}">{_e(n[x["owner"]])}</span>' \
            if x["owner"] is not None else ""
        top = f'{_e(D("to_beat"))}{C}{_play_html(d["table"], level, lang)}{by}'
    h = [f'<div class="tbl">{top}</div>']
    if x["round"]:
        h.append(f'<div class="trick"><span class="legend">{_e(G("round_so_far"))}{C.rstrip()}</span> '
                 + "".join(f'<span class="play"><span class="who t{s % 2}">{_e(n[s])}</span> '
                           f'{_play_html(m, level, lang)}</span>' for s, m in x["round"])
                 + '</div>')
    return "".join(h)


def _drill_html(k: int, total: int, x: dict, reviews: list, lang: str) -> str:
    D = lambda key, **p: drill_label(key, lang, **p)  # noqa: E731
    G = lambda key, **p: game_label(key, lang, **p)  # noqa: E731
    data = reviews[x["review"]]
    d = data["decisions"][x["index"]]
    val = d[x["view"]]
    n = names(data, lang)
    level = data["level"]
    seat = x["seat"]
    C = punct("colon", lang)
    short = G("dd" if x["view"] == "double" else "sd")
    if x["kind"] == "play":
        turn, question = D("to_play", who=n[seat]), D("q_play")
    else:
        to = n[x["receiver"]] if x["receiver"] is not None else "?"
        turn = D("to_give" if x["kind"] == "tribute" else "to_return", who=n[seat], to=to)
        question = D("q_card")
    h = [f'<section class="drill" id="drill{k + 1}" data-player="{_e(x["player"])}" '
         f'data-view="{x["view"]}">',
         f'<h2>{_e(D("head", i=k + 1, n=total))} · {_e(_title(data, lang))} '
         f'{_e(decision_ref(d, data, lang))}</h2>',
         f'<p class="sub"><b>{_e(turn)}</b> · {_e(G("level"))} {_e(rank_label(level, lang))}'
         f' · {_e(D("judged", view=G(x["view"]), help=G(x["view"] + "_help")))}</p>',
         f'<div class="tablebox">{_situation(x, d, data, lang)}</div>',
         f'<div class="counts"><span class="legend">{_e(D("counts"))}{C.rstrip()}</span> '
         + "".join(f'<span class="cnt t{s % 2}{" turn" if s == seat else ""}">{_e(n[s])} '
                   f'<b>{c}</b></span>' for s, c in enumerate(x["counts"]))
         + '</div>',
         f'<div class="seat t{seat % 2} turn"><h3>{_e(D("hand_of", who=n[seat]))} '
         f'<span class="n">· {x["counts"][seat]}</span></h3>'
         f'{_cards_html(x["hand"], level, lang, group=True)}</div>',
         f'<p class="q">{_e(question)}</p>',
         f'<p class="legend">{_e(D("values_for", names=team_names(data, seat % 2, lang)))}</p>',
         '<div class="choices">']
    for c, cand in enumerate(x["candidates"]):
        tags = ""
        if cand["best"]:
            tags += f'<span class="tag best">★ {_e(D("best"))}</span>'
        if cand["played"]:
            tags += f'<span class="tag played">{_e(G("played"))}</span>'
        tags += f'<span class="tag pick">{_e(D("your_pick"))}</span>'
        shown = value_text(cand["value"], lang) if cand["value"] else G("not_solved")
        h.append(f'<button type="button" class="choice{" best" if cand["best"] else ""}'
                 f'{" played" if cand["played"] else ""}" data-c="{c}" aria-pressed="false">'
                 f'{_play_html(cand["move"], level, lang)}<span class="v">{_e(shown)}</span>'
                 f'{tags}</button>')
    h.append('</div>')
    h.append(f'<p class="legend hint">{_e(D("pick_hint"))}</p>')
    h.append(_reveal_html(x, d, val, data, lang, short))
    if k + 1 < total:
        h.append(f'<p class="nav"><a href="#drill{k + 2}">{_e(D("next"))}</a></p>')
    h.append('</section>')
    return "\n".join(h)


def _reveal_html(x: dict, d: dict, val: dict, data: dict, lang: str, short: str) -> str:
    """What a pick reveals: a verdict on the move picked (one per
    candidate, the script shows the one picked), the move played with its
    mark, the best moves and the better line."""
    D = lambda key, **p: drill_label(key, lang, **p)  # noqa: E731
    G = lambda key, **p: game_label(key, lang, **p)  # noqa: E731
    level = data["level"]
    C = punct("colon", lang)
    sign = 1 if x["seat"] % 2 == 0 else -1
    best = val.get("best") or []
    best_value = value_text(_flip(best[0], sign), lang) if best else "?"
    mark = f"{short} {_mark(val, lang, tiers_of(data))}"
    h = ['<div class="reveal" hidden>']
    for c, cand in enumerate(x["candidates"]):
        value = value_text(cand["value"], lang) if cand["value"] else G("not_solved")
        move = _play_html(cand["move"], level, lang)
        if cand["best"]:
            text = D("v_best", move="\0", value=value)
            cls = "good"
        elif cand["played"]:
            text = D("v_played", move="\0", mark=mark)
            cls = "bad"
        else:
            text = D("v_other", move="\0", value=value, best=best_value)
            cls = "other"
        head, _, tail = text.partition("\0")
        h.append(f'<p class="verdict {cls}" data-c="{c}" hidden>{_e(head)}{move}{_e(tail)}</p>')
    h.append(f'<p class="played"><span class="legend">{_e(D("played_was"))}{C.rstrip()}</span> '
             f'{_play_html(d["move"], level, lang)} <span class="tag'
             f'{"" if val["mistake"] == "proven" else " est"}">{_e(mark)}</span></p>')
    h.append(f'<p class="bests"><span class="legend">{_e(D("best_moves"))}{C.rstrip()}</span> '
             + " ".join(f'<span class="bm">{_play_html(b["move"], level, lang)} '
                        f'<span class="legend">{_e(value_text(_flip(b, sign), lang))}</span></span>'
                        for b in best) + '</p>')
    if val.get("line"):
        h.append(f'<p class="line legend">{_e(short)} {_e(line_text(val["line"], data, lang))}</p>')
    h.append('</div>')
    return "".join(h)


def _filters_html(items: list, lang: str) -> str:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    who = sorted({x["player"] for x in items})
    views = [v for v in ("double", "single") if any(x["view"] == v for x in items)]
    tpl = drill_label("shown", lang, k="{k}", n="{n}")
    return ('<p class="drill-filters">'
            f'<label>{_e(G("player"))} <select class="drill-filter" data-key="player">'
            f'<option value="">{_e(G("all"))}</option>'
            + "".join(f'<option value="{_e(p)}">{_e(p)}</option>' for p in who)
            + '</select></label> '
            f'<label>{_e(G("view"))} <select class="drill-filter" data-key="view">'
            f'<option value="">{_e(G("all"))}</option>'
            + "".join(f'<option value="{v}">{_e(G("dd" if v == "double" else "sd"))}</option>'
                      for v in views)
            + f'</select></label> <span class="shown legend" data-tpl="{_e(tpl)}">'
            f'{_e(drill_label("shown", lang, k=len(items), n=len(items)))}</span></p>')


def render_drills_html(reviews: list, lang: str = "en") -> str:
    """One self-contained page of drills for these reviews (a deal's, or an
    evening's): how many, a filter by player and view, then each drill,
    largest loss first; without any mark, a sentence that says so.
    ``reviews`` are checked first (``analysis_json.validate_reviews``)."""
    D = lambda k, **p: drill_label(k, lang, **p)  # noqa: E731
    ordered = _order(validate_reviews(reviews)[0])
    items = _drills(ordered, lang)
    h = [f'<header><h1>{_e(D("title"))}</h1><p class="sub count">'
         f'{_e(count_of(len(items), "drills", lang))} · '
         f'{_e(count_of(len(ordered), "deals", lang))}</p></header>']
    if not items:
        h.append(f'<p class="none">{_e(D("none"))}</p>')
        return _page(D("title"), "\n".join(h), lang, css=_CSS, script=_SCRIPT)
    h.append(f'<p class="help">{_e(D("help"))}</p>')
    h.append(_filters_html(items, lang))
    h += [_drill_html(k, len(items), x, ordered, lang) for k, x in enumerate(items)]
    return _page(D("title"), "\n".join(h), lang, css=_CSS, script=_SCRIPT)
