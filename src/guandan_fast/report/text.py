"""The deal review as plain text (``gd-analyze game``): header, luck and
skill, the exchange, every decision with both views in aligned columns (by
the columns a text takes on a terminal, Chinese included), the mistakes.

The text fits a width (80 columns unless told, ``layout.wrap``): where a
decision's row would be wider, its values go on a second line and each mark
on a line of its own. With width 0, nothing is wrapped: a line a decision,
its marks at its end (one line to search for).
"""

from __future__ import annotations

from ..formats.analysis_json import validate
from .common import (VIEWS, _advice_verdict, _better, _flip, _mark, _result_text, _title_bits,
                     _view_labels, breaks_text, budget_text, chosen_text, decision_ref,
                     line_text, loss_text, lost_text, names, opening_value_text, paired_marks,
                     play_text, team_names, tiers_of, unclear_mark)
from .i18n import (advice_reason, aside, cards_label, count_of, enclosed, game_label, label,
                   note_text, percent, punct, rank_label)
from .layout import TEXT_WIDTH, check_width, columns, fit, ljust, rjust, wrap

__all__ = ["render_text"]


def render_text(data: dict, lang: str = "en", width: int = TEXT_WIDTH) -> str:
    """The review as plain text: header, luck and skill, the exchange, every
    decision with both views, the mistakes, the caveat and the notes; its
    lines at most ``width`` columns (0: not wrapped). ``data`` is checked
    first (``analysis_json.validate``: ``AnalysisFormatError`` names a bad
    field)."""
    return _render_text(validate(data), lang, check_width(width))


def _render_text(data: dict, lang: str, width: int) -> str:
    """``render_text`` on a checked document and width."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    C, END = P("colon"), P("colon").rstrip()       # after a label; at a line's end
    n = names(data, lang)
    bits = _title_bits(data, lang)
    out = [G("title") + (" — " + P("list").join(bits) if bits else "")]
    out.append(f"{G('level')}{C}{rank_label(data['level'], lang)}    {G('players')}{C}"
               + P("list").join(f"{s} {n[s]}" for s in range(4))
               + "  " + enclosed(f"{team_names(data, 0, lang)} / {team_names(data, 1, lang)}", lang))
    fin = data.get("finished") or []
    out.append(f"{G('result')}{C}{_result_text(data, lang)}"
               + (f"    {G('finishing')}{C}" + P("list").join(n[s] for s in fin) if fin else ""))
    out.append(G("value_legend", names=team_names(data, 0, lang)))
    out.append(f"{G('dd')} = {G('double')}{aside(G('double_help'), lang)}{P('clause')}"
               f"{G('sd')} = {G('single')}{aside(G('single_help'), lang)}")
    out.append(f"{G('min_plays_help')}{P('clause')}{G('forced_help')}")
    out.append("")
    out.append(G("hands") + END)
    wide = max(columns(x) for x in n)
    for s in range(4):       # a hand's cards continue under its cards
        out += wrap(f"  {s} {ljust(n[s], wide)}  {cards_label(data['hands'][s], lang)}",
                    width, hang=4 + wide + 2)
    out += ["", f"{G('opening')}{END}"] + ["  " + line for line in _opening_lines(data, lang)]
    if data.get("anti_tribute"):
        out += ["", f"{G('exchange')}{C}{G('anti_tribute')}"]
    ex_decisions = [d for d in data["decisions"] if d["kind"] != "play"]
    if ex_decisions:
        out += ["", G("exchange") + END]
        if any(d.get("single") for d in ex_decisions):
            out.append("  " + enclosed(G("exchange_sd_help"), lang))
        advice = data.get("exchange") or []
        for k, d in enumerate(ex_decisions):
            kind = label("tribute" if d["kind"] == "tribute" else "return", lang)
            rec = next((e for e in advice if e["kind"] == d["kind"] and e["giver"] == d["seat"]
                        and e["card"] == d["move"]["cards"]), None)
            to = n[rec["receiver"]] if rec else ""
            line = (f"  {rjust(decision_ref(d, data, lang), 4)}  {kind}{C}{n[d['seat']]} → {to} "
                    f"{cards_label(d['move']['cards'], lang)}")
            for view, short in _view_labels(G):
                val = d.get(view)
                if chosen_text(d, view, lang):
                    line += f"   {short} {chosen_text(d, view, lang)}"
                if val and val.get("mistake"):
                    line += (f"  {_mark(val, lang, tiers_of(data))}{P('clause')}{G('better')}{C}"
                             f"{_better(val, lang)}")
            out.append(line)
            if rec and len(rec.get("choices") or []) == 1:    # nothing to advise
                out.append(f"        {G('only_card')}")
            elif rec:
                verdict = _advice_verdict(rec, lang)
                reason = advice_reason(rec, lang)
                out.append(f"        {verdict}"
                           + ("  " + enclosed(reason, lang) if reason else ""))
    out = fit(out, width)
    out += ["", G("play") + END] + _play_lines(data, lang, width)
    tail = len(out)
    out += ["", G("mistakes") + END]
    marked = [d for d in data["decisions"] if any(
        d.get(v) and d[v].get("mistake") for v in VIEWS)]
    if not marked:
        out.append("  " + G("no_mistakes"))
    for d in marked:
        for view, short in _view_labels(G):
            val = d.get(view)
            if val and val.get("mistake"):
                out.append(f"  {decision_ref(d, data, lang)} {n[d['seat']]}{C}"
                           f"{play_text(d['move'], lang)}  {short} {_mark(val, lang, tiers_of(data))}"
                           f"{P('clause')}{G('better')}{C}{_better(val, lang)}")
                if val.get("line"):
                    out.append(f"      {short} {line_text(val['line'], data, lang)}")
    out += ["", G("per_player") + END] + ["  " + line for line in _player_lines(data, lang)]
    out += ["", G("caveat")]
    if paired_marks(data):
        out.append(G("paired_help"))
    if any((d.get(v) or {}).get("unclear") for d in data["decisions"] for v in VIEWS):
        out.append(G("unclear_help"))
    settings = data.get("settings") or {}
    if budget_text(settings, lang):
        out.append(budget_text(settings, lang))
    if data.get("notes"):
        out += ["", G("notes") + END] + [f"  {note_text(x, lang)}" for x in data["notes"]]
    out[tail:] = fit(out[tail:], width)
    return "\n".join(out) + "\n"


_MOVE_COLUMN = 12      # the narrowest move column that keeps the plays left in theirs


def _play_lines(data: dict, lang: str, width: int) -> list:
    """The play, a row per decision in aligned columns (by the columns the
    text takes, Chinese included): the move, the plays left, each view's
    value of the move played with its interval, the marks. Where the rows
    are wider than ``width``, the values go on a second line, aligned, and
    each mark on its own lines below."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    n = names(data, lang)
    rows = []
    P = lambda k: punct(k, lang)  # noqa: E731
    too_wide = (data.get("settings") or {}).get("unclear_width")
    for d in data["decisions"]:
        if d["kind"] != "play":
            continue
        mp = ""
        if d.get("min_plays_before") is not None:
            mp = f"{d['min_plays_before']}→{d['min_plays_after']}"
        vals = []
        for view, short in _view_labels(G):
            c = chosen_text(d, view, lang)
            vals.append(f"{short} {c}" if c else "")
        marks = [enclosed(G("forced_help"), lang)] if d.get("forced") else []
        for view, short in _view_labels(G):
            val = d.get(view)
            if val and val.get("mistake"):
                marks.append(f"{short} {_mark(val, lang, tiers_of(data))}{P('clause')}"
                             f"{G('better')}{P('colon')}{_better(val, lang)}")
            elif not d.get("forced") and (unclear := unclear_mark(val, lang, too_wide)):
                marks.append(f"{short} {unclear}")      # a forced move is not judged
        broke = breaks_text(d, lang)
        if broke:
            marks.insert(0, broke)
        arrow = ""
        if d["index"] == data.get("first_mistake") and any("✗" in m for m in marks):
            arrow = f"  ← {G('first_mistake')}"
        cells = [decision_ref(d, data, lang), n[d["seat"]], play_text(d["move"], lang), mp] + vals
        rows.append((d["table"] is None and d["move_index"] > 0, cells, marks, arrow))
    if not rows:
        return []
    w = [max(columns(c[k]) for _, c, _, _ in rows) for k in range(6)]
    head = [f"  {rjust(ref, max(5, w[0]))}  {ljust(who, w[1])}  {ljust(move, w[2])} "
            f"{rjust(mp, max(6, w[3]))}" for _, (ref, who, move, mp, _, _), _, _ in rows]
    values = [[ljust(v, w[k]) for k, v in ((4, dd), (5, sd)) if w[k]]
              for _, (_, _, _, _, dd, sd), _, _ in rows]
    one_line = width <= 0 or max(columns((h + "".join("  " + v for v in vs)).rstrip())
                                 for h, vs in zip(head, values)) <= width
    indent = " " * (2 + max(5, w[0]) + 2)
    out = []
    for (gap, (ref, who, move, mp, _, _), marks, arrow), h, vs in zip(rows, head, values):
        if gap:
            out.append("")
        if one_line:
            line = h + "".join("  " + v for v in vs)
            whole = (line + ("  " + " | ".join(marks) + arrow if marks else "")).rstrip()
            if width <= 0 or columns(whole) <= width:
                out.append(whole)
                continue
            out.append(line.rstrip())
        else:                   # the move, then its values, each on its lines
            lead = f"  {rjust(ref, max(5, w[0]))}  {ljust(who, w[1])}  "
            room = width - columns(lead) - 1 - max(6, w[3])     # the move's column, narrowed
            if room >= min(w[2], _MOVE_COLUMN):     # the plays left stay in their column
                if columns(move) <= room:
                    out.append(f"{lead}{ljust(move, room)} {rjust(mp, max(6, w[3]))}".rstrip())
                else:                               # under the move, in the same column
                    out += wrap(lead + move, width, hang=len(indent))
                    if mp:
                        out.append(" " * (columns(lead) + room + 1) + rjust(mp, max(6, w[3])))
            else:
                out += wrap(f"{lead}{move}  {mp}", width, hang=len(indent))
            both = (indent + "  ".join(vs)).rstrip()
            out += [both] if columns(both) <= width else [
                part for v in vs if v.strip() for part in wrap(indent + v.rstrip(), width)]
        out += [part for m in marks for part in wrap(indent + m, width)]
        if arrow:               # after the last mark, or under it
            fits = columns(out[-1] + arrow) <= width
            out[-1:] = [out[-1] + arrow] if fits else [out[-1], *wrap(indent + arrow.strip(), width)]
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
            parts.append(f"{G(lab)} {opening_value_text(data, key, _flip(mv, sign), lang)}")
        rows.append(f"{team_names(data, team, lang)}{punct('colon', lang)}"
                    + (punct("list", lang).join(parts) or G("none")))
    return rows


def _player_lines(data: dict, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    n = names(data, lang)
    by_index = {d["index"]: d for d in data["decisions"]}
    out = []
    for row in data.get("summary") or []:
        parts = [f"{G('judged')} {row['judged']}"]
        for view, short in _view_labels(G):
            v = row.get(view) or {}
            if not v.get("judged"):
                continue
            text = f"{short}{P('colon')}{count_of(v['mistakes'], 'mistakes', lang)}"
            if v["mistakes"]:
                text += f"{P('list')}{G('lost')} {lost_text(v, lang)}"
                if v.get("largest"):
                    d = by_index[v["largest"][0]]
                    text += (f"{P('list')}{G('largest')} {decision_ref(d, data, lang)}"
                             + aside(loss_text(d[view], lang, tiers_of(data)), lang))
            if "accuracy" in v:
                text += f"{P('list')}{G('accuracy')} {percent(v['accuracy'], lang)}"
            parts.append(text)
        out.append(f"{n[row['seat']]}{P('colon')}" + P("clause").join(parts))
    return out

