"""A club evening (``gd-analyze evening``): the reviews of its deals by
round, table and deal, a summary per player and per view over the evening
(accuracy, mistakes by tier, levels lost per deal, the largest mistake),
every mistake of the evening in one table sorted by loss (filterable by
player and view on the page), each deal's review; as text and as one page.

Everything here is read from the reviews' JSON documents
(``formats.analysis_json``), the same numbers the deal pages show: a loss is
written by ``common.loss_text`` from the decision's own view, a sum is the
sum of the deal summaries' sums.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Optional

from ..formats.analysis_json import validate, validate_reviews
from .common import VIEWS, _mark, _result_text, decision_ref, loss_text, lost_text, names, \
    play_text, team_names, tiers_of
from .html import _deal_html, _e, _page
from .i18n import aside, count_of, enclosed, game_label, percent, punct
from .layout import TEXT_WIDTH, check_width, fit
from .text import _render_text

__all__ = ["render_evening_html", "render_evening_text", "evening_order", "evening_summary",
           "evening_report", "deal_title"]


_LOST = ("lost", "lost_low", "lost_high", "lost_proven")
_COUNTS = ("judged", "accurate", "unclear", "mistakes", "proven")


def deal_title(data: dict, lang: str = "en") -> str:
    """A deal's name on the evening's page: its ``round``, ``table`` and
    ``deal`` tags (``Round 2, Table b, Deal 1``), or, without any, its
    file's name (not its path). ``data`` is checked first
    (``analysis_json.validate``)."""
    return _title(validate(data), lang)


def evening_summary(reviews: list, lang: str = "en") -> dict:
    """The evening in numbers, from the reviews (in ``evening_order``):

    - ``players``: per player (by name; without names, by the seat's label
      in the language: seat 2, место 2, 2号位) the deals, and per view
      (``double``, ``single``): the decisions judged, accurate and unclear,
      the ``accuracy`` (accurate over judged-and-not-unclear, docs/review.md),
      the mistakes (``proven`` of them, ``tiers``), the levels lost (the
      sums of the deal summaries' ``lost``, ``lost_low``, ``lost_high``,
      ``lost_proven``) and per deal, and the ``largest`` mistake
      ``[review, decision index, loss]``;
    - ``evening``: per view, the same counts and the accuracy over everyone;
    - ``leaks``: every mark of the evening, largest loss first: ``review``
      (its place in ``reviews``), ``index``, ``player``, ``seat``, ``view``,
      ``tier``, ``mistake`` (proven/likely) and the loss's four numbers.

    ``reviews`` are checked first (``analysis_json.validate_reviews``:
    ``AnalysisFormatError`` names a bad field).
    """
    return _summary(validate_reviews(reviews)[0], lang)


def evening_order(reviews: list) -> list:
    """The reviews by round, table, then deal (numbers in numeric order),
    then file. ``reviews`` are checked first
    (``analysis_json.validate_reviews``)."""
    return _order(validate_reviews(reviews)[0])


def evening_report(reviews: list, lang: str = "en", errors: Optional[list] = None) -> dict:
    """The evening as data (what ``gd-analyze evening --format json``
    prints): ``records``, the reviews in ``evening_order``; ``summary``,
    their ``evening_summary``; ``errors``, the records that failed as
    ``{"file", "error"}`` objects. ``reviews`` and ``errors`` (None or
    (file, message) pairs) are checked first, once
    (``analysis_json.validate_reviews``)."""
    reviews, errors = validate_reviews(reviews, errors)
    reviews = _order(reviews)
    return {"records": reviews, "summary": _summary(reviews, lang),
            "errors": [{"file": n, "error": m} for n, m in errors]}


def _title(data: dict, lang: str = "en") -> str:
    """``deal_title`` of a checked document."""
    tags = data.get("tags") or {}
    bits = [f"{game_label(label, lang)} {tags[key]}"
            for key, label in (("round", "round_col"), ("table", "table_col"),
                               ("deal", "deal_col")) if tags.get(key)]
    if bits:
        return punct("list", lang).join(bits)
    return PurePath(str(data.get("file") or "?")).name


def _empty_view() -> dict:
    return {**{k: 0 for k in _COUNTS}, **{k: 0.0 for k in _LOST}, "tiers": {}, "largest": None}


def _summary(reviews: list, lang: str = "en") -> dict:
    """``evening_summary`` of checked documents."""
    players: dict = {}
    total = {v: _empty_view() for v in VIEWS}
    leaks = []
    for k, data in enumerate(reviews):
        n = names(data, lang)
        for row in data.get("summary") or []:
            p = players.setdefault(n[row["seat"]], {"name": n[row["seat"]], "deals": 0,
                                                    **{v: _empty_view() for v in VIEWS}})
            p["deals"] += 1
            for view in VIEWS:
                src = row.get(view) or {}
                for acc in (p[view], total[view]):
                    for key in _COUNTS:
                        acc[key] += src.get(key, 0) or 0
                    for key in _LOST:
                        acc[key] += src.get(key, 0.0) or 0.0
                    for tier, c in (src.get("tiers") or {}).items():
                        acc["tiers"][tier] = acc["tiers"].get(tier, 0) + c
                big = src.get("largest")
                if big and (p[view]["largest"] is None or big[1] > p[view]["largest"][2]):
                    p[view]["largest"] = [k, big[0], big[1]]
        for d in data["decisions"]:
            for view in VIEWS:
                v = d.get(view)
                if v and v.get("mistake"):
                    leaks.append({"review": k, "index": d["index"], "player": n[d["seat"]],
                                  "seat": d["seat"], "view": view, "tier": v.get("tier"),
                                  "mistake": v["mistake"],
                                  **{key: v[key] for key in ("loss", "loss_low", "loss_high",
                                                             "loss_proven")}})
    leaks.sort(key=lambda x: (-x["loss"], x["review"], x["index"], x["view"]))
    for acc in [p[v] for p in players.values() for v in VIEWS] + list(total.values()):
        counted = acc["judged"] - acc["unclear"]
        acc["accuracy"] = round(acc["accurate"] / counted, 4) if counted else None
        for key in _LOST:
            acc[key] = round(acc[key], 3)
    for p in players.values():
        for view in VIEWS:
            for key in ("lost", "lost_low", "lost_high"):
                p[view][key.replace("lost", "lost_per_deal")] = (
                    round(p[view][key] / p["deals"], 3) if p["deals"] else 0.0)
    return {"players": sorted(players.values(), key=lambda p: p["name"]), "evening": total,
            "leaks": leaks}


def _per_deal(v: dict, deals: int, lang: str) -> str:
    """A player's levels lost per deal in one view, with the interval."""
    return lost_text(v, lang, per=deals or 1)


def _natural(value) -> tuple:
    """The sort key of a tag: numbers (ASCII digits) in numeric order, by
    their length without leading zeros and then their text (no ``int``: a
    tag may be any length), before other text."""
    text = str(value if value is not None else "")
    if text.isascii() and text.isdigit():
        digits = text.lstrip("0")
        return (0, len(digits), digits)
    return (1, 0, text)


def _order(reviews: list) -> list:
    """``evening_order`` of checked documents."""
    def key(d):
        tags = d.get("tags") or {}
        return (_natural(tags.get("round")), _natural(tags.get("table")),
                _natural(tags.get("deal")), str(d.get("file", "")))
    return sorted(reviews, key=key)


def _tiers_text(v: dict, lang: str, noun: bool = False) -> str:
    """``2 (blunder 1, mistake 1)``: the mistakes and their tiers (``noun``:
    the count with its noun in agreement, ``1 ошибка``, out of a table)."""
    parts = [f"{game_label('tier_' + t, lang)} {c}" for t, c in (v.get("tiers") or {}).items()
             if c]
    count = count_of(v["mistakes"], "mistakes", lang) if noun else f"{v['mistakes']}"
    return count + (aside(punct("list", lang).join(parts), lang) if parts else "")


def _view_text(v: dict, deals: int, lang: str) -> str:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    return punct("list", lang).join([
        f"{G('judged')} {v['judged']}", f"{G('accuracy')} {percent(v['accuracy'], lang)}",
        _tiers_text(v, lang, noun=True), f"{G('levels_lost_per_deal')} {_per_deal(v, deals, lang)}"])


def _leak_text(leak: dict, reviews: list, lang: str) -> str:
    data = reviews[leak["review"]]
    d = data["decisions"][leak["index"]]
    short = game_label("dd" if leak["view"] == "double" else "sd", lang)
    return (f"{_title(data, lang)} {decision_ref(d, data, lang)} {leak['player']}"
            f"{punct('colon', lang)}{play_text(d['move'], lang)}  {short} {_mark(d[leak['view']], lang, tiers_of(data))}")


def render_evening_text(reviews: list, lang: str = "en", errors: Optional[list] = None,
                        width: int = TEXT_WIDTH) -> str:
    """The evening as text: results by round, table and deal, the players
    per view, every mistake by loss, each review; its lines at most
    ``width`` columns (0: not wrapped). ``reviews`` and ``errors`` (None or
    (file, message) pairs) are checked first
    (``analysis_json.validate_reviews``: ``AnalysisFormatError`` names a bad
    field)."""
    width = check_width(width)
    reviews, errors = validate_reviews(reviews, errors)
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    C, END = P("colon"), P("colon").rstrip()       # after a label; at a line's end
    reviews = _order(reviews)
    out = [G("evening"), "", G("results") + END]
    for data in reviews:
        out.append(f"  {_title(data, lang)}{C}{_result_text(data, lang)}")
    summ = _summary(reviews, lang)
    out += ["", G("per_player") + END]
    for p in summ["players"]:
        out.append(f"  {p['name']}{aside(count_of(p['deals'], 'deals', lang), lang)}{END}")
        for view in VIEWS:
            v = p[view]
            if not v["judged"]:
                continue
            line = f"    {G('dd' if view == 'double' else 'sd')}{C}{_view_text(v, p['deals'], lang)}"
            if v["largest"]:
                k, i, _ = v["largest"]
                d = reviews[k]["decisions"][i]
                line += (f"{P('list')}{G('largest')}{C}{_title(reviews[k], lang)} "
                         f"{decision_ref(d, reviews[k], lang)}"
                         + aside(loss_text(d[view], lang, tiers_of(reviews[k])), lang))
            out.append(line)
    out.append(f"  {G('evening_accuracy')}{C}" + P("clause").join(
        f"{G('dd' if view == 'double' else 'sd')} {G('accuracy')} "
        f"{percent(summ['evening'][view]['accuracy'], lang)}"
        for view in VIEWS if summ["evening"][view]["judged"]))
    out.append("  " + enclosed(G("accuracy_help"), lang))
    out += ["", G("leaks") + END]
    out += [f"  {_leak_text(x, reviews, lang)}" for x in summ["leaks"]] or [
        "  " + G("no_mistakes")]
    if errors:
        out += ["", G("errors") + END] + [f"  {name}: {msg}" for name, msg in errors]
    out = fit(out, width)
    for data in reviews:
        out += ["", "=" * min(72, width or 72), _render_text(data, lang, width).rstrip()]
    return "\n".join(out) + "\n"


# the leak table's filter: rows carry data-player / data-view; plain ES5
_FILTER = """<script>
(function () {
  var t = document.getElementById('leaks');
  if (!t) return;
  var sel = document.querySelectorAll('select.leak-filter');
  function apply() {
    var want = {};
    for (var i = 0; i < sel.length; i++) want[sel[i].getAttribute('data-key')] = sel[i].value;
    var rows = t.querySelectorAll('tr[data-player]');
    for (var j = 0; j < rows.length; j++) {
      var r = rows[j], show = true;
      for (var k in want) {
        if (want[k] && r.getAttribute('data-' + k) !== want[k]) show = false;
      }
      r.style.display = show ? '' : 'none';
    }
  }
  for (var i = 0; i < sel.length; i++) sel[i].addEventListener('change', apply);
})();
</script>"""


def _players_html(summ: dict, reviews: list, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    h = [f'<h2>{_e(G("per_player"))}</h2><div class="scroll"><table class="players"><tr><th>{_e(G("player"))}</th>'
         f'<th>{_e(G("view"))}</th><th>{_e(G("judged"))}</th><th>{_e(G("accuracy"))}</th>'
         f'<th>{_e(G("mistakes"))}</th><th>{_e(G("levels_lost_per_deal"))}</th>'
         f'<th>{_e(G("largest"))}</th></tr>']
    for p in summ["players"]:
        for view in VIEWS:
            v = p[view]
            if not v["judged"]:
                continue
            cell = _e(G("none"))
            if v["largest"]:
                k, i, _ = v["largest"]
                d = reviews[k]["decisions"][i]
                cell = (f'<a href="#deal{k + 1}-d{i}">{_e(_title(reviews[k], lang))} '
                        f'{_e(decision_ref(d, reviews[k], lang))}</a>'
                        f'{_e(aside(loss_text(d[view], lang, tiers_of(reviews[k])), lang))}')
            h.append(f'<tr><td>{_e(p["name"])}</td>'
                     f'<td>{_e(G("dd" if view == "double" else "sd"))}</td>'
                     f'<td>{v["judged"]}</td><td>{_e(percent(v["accuracy"], lang))}</td>'
                     f'<td>{_e(_tiers_text(v, lang))}</td>'
                     f'<td>{_e(_per_deal(v, p["deals"], lang))}</td><td>{cell}</td></tr>')
    ev = summ["evening"]
    h.append(f'<tr class="total"><td>{_e(G("evening_accuracy"))}</td><td></td><td></td><td>'
             + " / ".join(f'{_e(G("dd" if view == "double" else "sd"))} '
                          f'{_e(percent(ev[view]["accuracy"], lang))}'
                          for view in VIEWS if ev[view]["judged"])
             + '</td><td></td><td></td><td></td></tr></table></div>')
    h.append(f'<p class="note">{_e(G("accuracy_help"))}</p>')
    return h


def _leaks_html(summ: dict, reviews: list, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    leaks = summ["leaks"]
    h = [f'<h2>{_e(G("leaks"))}</h2>']
    if not leaks:
        return h + [f'<p>{_e(G("no_mistakes"))}</p>']
    who = sorted({x["player"] for x in leaks})
    h.append('<p class="leak-filters">'
             f'<label>{_e(G("player"))} <select class="leak-filter" data-key="player">'
             f'<option value="">{_e(G("all"))}</option>'
             + "".join(f'<option value="{_e(n)}">{_e(n)}</option>' for n in who)
             + '</select></label> '
             f'<label>{_e(G("view"))} <select class="leak-filter" data-key="view">'
             f'<option value="">{_e(G("all"))}</option>'
             f'<option value="double">{_e(G("dd"))}</option>'
             f'<option value="single">{_e(G("sd"))}</option></select></label></p>')
    h.append(f'<div class="scroll"><table class="leaks" id="leaks"><tr><th>{_e(G("deal_col"))}</th>'
             f'<th>{_e(G("move"))}</th><th>{_e(G("player"))}</th><th>{_e(G("view"))}</th>'
             f'<th>{_e(G("tier"))}</th><th>{_e(G("loss"))}</th></tr>')
    for x in leaks:
        data = reviews[x["review"]]
        d = data["decisions"][x["index"]]
        kind = G("mark_proven" if x["mistake"] == "proven" else "mark_estimated")
        tier = G("tier_" + x["tier"]) if x.get("tier") else ""
        h.append(f'<tr data-player="{_e(x["player"])}" data-view="{x["view"]}">'
                 f'<td><a href="#deal{x["review"] + 1}">{_e(_title(data, lang))}</a></td>'
                 f'<td><a href="#deal{x["review"] + 1}-d{x["index"]}">'
                 f'{_e(decision_ref(d, data, lang))}</a> {_e(play_text(d["move"], lang))}</td>'
                 f'<td>{_e(x["player"])}</td>'
                 f'<td>{_e(G("dd" if x["view"] == "double" else "sd"))}</td>'
                 f'<td>{_e(tier)}</td><td>{_e(kind)}{punct("colon", lang)}{_e(loss_text(d[x["view"]], lang, tiers_of(data)))}</td>'
                 '</tr>')
    h.append('</table></div>')
    return h


def render_evening_html(reviews: list, lang: str = "en", errors: Optional[list] = None) -> str:
    """One page for a club evening: results by round, table and deal, the
    players per view (accuracy, mistakes by tier, the largest linked), every
    mistake of the evening by loss (a filter by player and view), each
    deal's review. ``reviews`` and ``errors`` are checked first
    (``analysis_json.validate_reviews``)."""
    reviews, errors = validate_reviews(reviews, errors)
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    reviews = _order(reviews)
    h = [f'<header><h1>{_e(G("evening"))}</h1></header>', f'<h2>{_e(G("results"))}</h2>',
         f'<div class="scroll"><table class="results"><tr><th>{_e(G("deal_col"))}</th>'
         f'<th>{_e(G("players"))}</th><th>{_e(G("result"))}</th></tr>']
    for k, data in enumerate(reviews):
        h.append(f'<tr><td><a href="#deal{k + 1}">{_e(_title(data, lang))}</a></td>'
                 f'<td>{_e(team_names(data, 0, lang))} / {_e(team_names(data, 1, lang))}</td>'
                 f'<td>{_e(_result_text(data, lang))}</td></tr>')
    h.append('</table></div>')
    summ = _summary(reviews, lang)
    h += _players_html(summ, reviews, lang)
    h += _leaks_html(summ, reviews, lang)
    if errors:
        h.append(f'<h2>{_e(G("errors"))}</h2><ul class="notes">'
                 + "".join(f"<li>{_e(name)}: {_e(msg)}</li>" for name, msg in errors) + '</ul>')
    for k, data in enumerate(reviews):
        h.append('<hr>')
        h.append(_deal_html(data, lang, f"deal{k + 1}", heading="h2"))
    h.append(_FILTER)
    return _page(G("evening"), "\n".join(h), lang)
