"""The pieces of a review that the text and the page both write: names,
values with their intervals, plays, decisions' short names, losses.

Data in (the JSON form of a review, ``Analysis.to_dict()``), text out, no
rules here; the words come from ``i18n``. The helpers that read a document
take one already checked (the renderers of ``text``, ``html``, ``evening``
and ``drills`` check theirs with ``analysis_json.validate``); they are the
renderers' parts, not entry points.
"""

from __future__ import annotations

from typing import Optional

from .i18n import (aside, at_least_levels, bound, card_label, cards_label, count_of, estimate_text,
                   game_label, levels, interval_text, levels_estimate, number, punct,
                   rank_label, seat_label, structure_text, type_name, type_name_acc)

__all__ = ["names", "team_names", "signed", "value_text", "type_rank", "play_text",
           "decision_ref", "loss_text", "lost_text", "move_key", "unclear_mark", "opening_value_text",
           "chosen_text", "budget_text", "paired_marks",
           "line_text", "line_moves", "line_hands", "breaks_text", "rounds", "LINE_SHOWN", "VIEWS",
           "DIFFERS"]

VIEWS = ("double", "single")

def names(data: dict, lang: str = "en") -> list:
    """The players' names, or the seats in the language where none are known."""
    players = data.get("players")
    return list(players) if players else [seat_label(s, lang) for s in range(4)]


def team_names(data: dict, team: int, lang: str = "en") -> str:
    n = names(data, lang)
    return f"{n[team]} & {n[team + 2]}"


def signed(v, lang: str = "en", is_bound: bool = False) -> str:
    """A value with its sign (a true minus); ``is_bound``: an interval's
    bound, which never reads 0 unless it is 0 (``i18n.bound``)."""
    if v is None:
        return "?"
    text = bound(abs(v), lang) if is_bound else number(abs(v), lang)
    if text == "0":                  # rounds to no sign
        return text
    if float(v) > 0:
        return "+" + text
    if float(v) < 0:
        return "−" + text
    return text


def value_text(mv: Optional[dict], lang: str = "en", interval: bool = True) -> str:
    """``=+2`` for a proven value, ``≈+0.4 [−0.2, +1]`` for an estimate
    (``≈+0,4 [−0,2; +1]`` in Russian), ``not valued`` for an estimate of no
    sample (its mean is no result, only the middle of its bounds)."""
    if mv is None:
        return ""
    if mv.get("exact"):
        return "=" + signed(mv["mean"], lang)
    if mv.get("samples") == 0:
        return game_label("not_solved", lang)
    text = "≈" + signed(mv["mean"], lang)
    if interval and mv.get("low") is not None:
        text += " " + interval_text(signed(mv["low"], lang, True), signed(mv["high"], lang, True),
                                    lang)
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
    """A play (``{cards, type, rank}``), a card given, or a pass: ``S5 D5
    (pair 5)``, in Chinese ``♠5 ♦5（对子 5）``.

    >>> play_text({"cards": "S5 D5", "type": "pair", "rank": "5"}, "zh")
    '♠5 ♦5（对子 5）'
    """
    if p is None or p == "pass":
        return type_name("pass", lang)
    if p.get("type") == "card":
        return cards_label(p["cards"], lang)
    return cards_label(p["cards"], lang) + aside(type_rank(p["type"], p["rank"], lang), lang)


def move_key(p) -> str:
    """A play (``{cards, type, rank}``) or a pass as a key that does not
    depend on the order its cards are written in: the cards as a multiset
    (sorted), then the type and the rank (the same cards can make two
    plays when a wild card stands in).

    >>> move_key({"cards": "H6 C6", "type": "pair", "rank": "6"})
    'C6 H6|pair|6'
    >>> move_key(None)
    'pass'
    """
    if p is None or p == "pass":
        return "pass"
    return " ".join(sorted(p["cards"].split())) + "|" + p["type"] + "|" + p["rank"]


def rounds(data: dict) -> list:
    """Per decision, the round so far before it, as the table shows it to
    everyone: ``(plays, owner)``, the plays since the last lead
    (``[(seat, move or None)]``, passes included) and the seat whose play
    is on the table (None at a lead and at the tribute and the return)."""
    out = []
    owner: Optional[int] = None
    trick: list = []
    for d in data["decisions"]:
        if d["kind"] != "play" or d["table"] is None:
            owner, trick = None, []
        out.append((list(trick), owner))
        if d["kind"] == "play":
            trick.append((d["seat"], d["move"]))
            if d["move"] is not None:
                owner = d["seat"]
    return out


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


def _mark(val: Optional[dict], lang: str, tiers: Optional[dict] = None) -> str:
    """``✗ proven loss: 2 levels`` for a marked mistake of one view (the
    size: ``loss_text``; ``tiers``: the review's ``settings.tiers``)."""
    if not val or not val.get("mistake"):
        return ""
    kind = game_label("mark_proven" if val["mistake"] == "proven" else "mark_estimated", lang)
    tier = game_label("tier_" + val["tier"], lang) + punct("list", lang) if val.get("tier") else ""
    return f"✗ {tier}{kind}{punct('colon', lang)}{loss_text(val, lang, tiers)}"


def tiers_of(data: dict) -> Optional[dict]:
    """A review document's tier thresholds (``settings.tiers``), or None."""
    return (data.get("settings") or {}).get("tiers")


def _digits(x: float, tiers: Optional[dict]) -> int:
    """The decimals that show ``x`` without its rounding crossing a tier's
    threshold (``tiers``: name to least loss): 1, or more near a threshold
    (0.651 next to 0.7 reads 0.65, not 0.7, beside its tier's name).

    >>> _digits(0.651, {"mistake": 0.7}), _digits(0.64, {"mistake": 0.7}), _digits(0.651, None)
    (2, 1, 1)
    """
    for d in (1, 2, 3):
        r = round(x, d)
        if not tiers or not any(min(x, r) < t <= max(x, r) or min(x, r) <= t - 1e-9 < max(x, r)
                                for t in tiers.values() if isinstance(t, (int, float))):
            return d
    return 3


def opening_value_text(data: dict, key: str, mv: dict, lang: str) -> str:
    """An opening value (``deal``, ``exchange``, ``start``) as text; the
    tribute's luck (``exchange``, a difference of two estimates) is
    ``? unclear`` when its interval holds 0 and is wider than the review's
    ``unclear_width``: it then says nothing, and no numbers are shown."""
    width = (data.get("settings") or {}).get("unclear_width")
    if key == "exchange" and width is not None and not mv.get("exact") \
            and mv["low"] < 0 < mv["high"] and mv["high"] - mv["low"] > width:
        return f"? {game_label('unclear', lang)}"
    return value_text(mv, lang)


def chosen_text(d: dict, view: str, lang: str) -> str:
    """The value of the move played in one view of decision ``d``
    (``value_text``), or ``not valued`` when the view judged the decision
    (not forced) without a value of the move played; empty without the
    view."""
    val = d.get(view)
    if not val:
        return ""
    if val.get("chosen"):
        return value_text(val["chosen"], lang)
    return "" if d.get("forced") else game_label("not_solved", lang)


def budget_text(settings: dict, lang: str) -> str:
    """What each decision got: ``50 playouts`` a decision and view in the
    deterministic mode (``settings.playouts``), else the time budget;
    empty without a budget."""
    seed = settings.get("seed", 0)
    if settings.get("playouts") is not None:
        return game_label("budget_playouts", lang, seed=seed,
                          playouts=count_of(int(settings["playouts"]), "playouts", lang))
    if settings.get("budget") is not None:
        return game_label("budget", lang, s=number(settings["budget"], lang, 2), seed=seed)
    return ""


def paired_marks(data: dict) -> bool:
    """Whether a mark of the review has a paired loss (``check.paired``: a
    likely loss re-checked with both moves on the same deals, whose
    interval may lie above 0 where the two moves' own intervals overlap):
    the report then says so (``paired_help``)."""
    return any((d.get(v) or {}).get("mistake") == "likely"
               and ((d.get(v) or {}).get("check") or {}).get("paired")
               for d in data["decisions"] for v in VIEWS)


def unclear_mark(val: Optional[dict], lang: str, width: Optional[float]) -> str:
    """``? unclear`` for a view whose interval says nothing (not a mark),
    with the interval that decided it (``unclear_by``: the position's
    value, the move's or the re-checked loss, wider than ``width`` levels,
    the review's ``settings.unclear_width``): ``? unclear: the position's
    value [−1.9, +3] is wider than 3 levels``; without ``unclear_by`` or a
    width, ``? unclear`` alone; else empty."""
    if not val or val.get("mistake") or not val.get("unclear"):
        return ""
    chosen = val.get("chosen")
    if chosen is None or (not chosen.get("exact") and chosen.get("samples") == 0):
        return ""                  # the move played not valued: not judged, so not unclear
    by = val.get("unclear_by")
    if not by or width is None:
        return f"? {game_label('unclear', lang)}"
    return "? " + game_label(
        "unclear_by", lang, what=game_label("unclear_" + by["what"], lang),
        interval=interval_text(signed(by["low"], lang, True), signed(by["high"], lang, True),
                               lang),
        width=number(width, lang))


def loss_text(val: dict, lang: str = "en", tiers: Optional[dict] = None) -> str:
    """The size of a loss (a view's JSON: ``loss``, ``loss_low``,
    ``loss_high``, ``loss_proven``): ``2 levels`` when it is proven
    exactly; ``at least 2 levels (estimate ≈5.4 [2.1, 6])`` when the proven
    bounds show part of it (the proven part, then the estimate); else the
    estimate with its interval, ``≈2.8 [0.4, 5.2] levels`` (an estimate
    is never a plain number, even with an interval of no width). With the
    review's ``tiers``, a mean near a tier's threshold gets the decimals
    that keep it on its side (``_digits``)."""
    mean = val.get("loss") or 0.0
    low, high = val.get("loss_low", mean), val.get("loss_high", mean)
    proven = val.get("loss_proven") or 0.0
    if low == high and round(proven, 3) == round(mean, 3):
        return levels(round(mean, _digits(mean, tiers)), lang)
    est = levels_estimate(mean, low, high, lang, _digits(mean, tiers))
    if proven > 0:
        return at_least_levels(round(proven, 1), lang) + aside(
            game_label("estimate_of", lang, est=estimate_text(mean, low, high, lang)), lang)
    return est


def lost_text(v: dict, lang: str = "en", digits: int = 1, per: int = 1) -> str:
    """A sum of losses (``lost``, ``lost_low``, ``lost_high``), divided by
    ``per``: the number when every loss in it is proven exactly, else the
    sum of the estimates with its interval, ``≈3.2 [0.4, 5.2]``."""
    mean = (v.get("lost") or 0.0) / per
    low, high = v.get("lost_low", v.get("lost") or 0.0) / per, \
        v.get("lost_high", v.get("lost") or 0.0) / per
    proven = v.get("lost_proven")
    proven = mean if proven is None else proven / per
    if round(low, 3) == round(high, 3) and round(proven, 3) == round(mean, 3):
        return number(round(mean, digits), lang, digits)
    return estimate_text(mean, low, high, lang, digits)


def _better(val: dict, lang: str) -> str:
    best = val.get("best") or []
    return punct("list", lang).join(f"{play_text(b['move'], lang)} {value_text(b, lang)}"
                                    for b in best)


DIFFERS = "≠"       # a card that differs from the tribute advice: not a mistake mark


def _advice_verdict(e: dict, lang: str) -> str:
    """``≠ differs from the advice: ST`` or ``as advised``: the advice is a
    heuristic, so a difference from it is shown as such, never as a mistake
    (only the decision's values mark one)."""
    if e.get("differs"):
        return f"{DIFFERS} {game_label('differs_from_advice', lang, card=card_label(e['best'], lang))}"
    return game_label("as_advised", lang)



def _view_labels(G) -> tuple:
    """(view, its short label) for the two views, double-dummy first."""
    return (("double", G("dd")), ("single", G("sd")))



def _flip(mv: dict, sign: int) -> dict:
    if sign > 0:
        return mv
    return {**mv, "mean": -mv["mean"], "low": -mv["high"], "high": -mv["low"]}



LINE_SHOWN = 12     # the plays of a better line written in the text (the viewer steps through all)


def line_moves(line: dict) -> list:
    """A better line (a view's ``line``) as ``[(seat, move or None)]``: the
    better move first, then the plays after it."""
    return [(line["seat"], line["move"])] + [(p["seat"], p["move"]) for p in line["plays"]]


def line_hands(line: dict) -> list:
    """The four hands after each play of a better line after the better
    move (the first entry: ``line["hands"]``, after the better move)."""
    hands = [h.split() for h in line["hands"]]
    out = [[" ".join(h) for h in hands]]
    for p in line["plays"]:
        if p["move"] is not None:
            for c in p["move"]["cards"].split():
                hands[p["seat"]].remove(c)
        out.append([" ".join(h) for h in hands])
    return out


def _short_play(p, lang: str) -> str:
    if p is None:
        return type_name("pass", lang)
    return cards_label(p["cards"], lang)


def line_end_text(line: dict, data: dict, lang: str) -> str:
    """How a better line ends: the deal's result when it ends the deal, the
    proven value when the solver's line stops where the result is decided,
    else nothing."""
    r = line.get("result") if line.get("over") else None
    if r is not None:
        team = 0 if r > 0 else 1
        return game_label("line_end", lang, result=game_label(
            "wins", lang, names=team_names(data, team, lang), gain=abs(r)))
    if line.get("value") is not None:
        return "=" + signed(line["value"], lang)
    return ""


def line_text(line: dict, data: dict, lang: str = "en", limit: int = LINE_SHOWN) -> str:
    """A better line in one line of text: what it is (the solver's proven
    line, or the better move then the house policy in every seat), its
    first ``limit`` plays (the cards as the language writes them), how
    many more, and how it ends."""
    n = names(data, lang)
    head = game_label("line_solver" if line["source"] == "solver" else "line_policy", lang)
    items = [f"{n[s]} {_short_play(m, lang)}" for s, m in line_moves(line)]
    text = head + punct("colon", lang) + " · ".join(items[:limit])
    if len(items) > limit:
        text += " " + game_label("line_more", lang, n=len(items) - limit)
    end = line_end_text(line, data, lang)
    return text + (f" → {end}" if end else "")


def breaks_text(d: dict, lang: str = "en") -> str:
    """The structure a decision's move breaks in words (``breaks the
    straight 7–J``), or empty."""
    b = d.get("breaks")
    return structure_text(b, lang) if b else ""
