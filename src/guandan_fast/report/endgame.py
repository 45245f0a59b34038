"""The endgame report (``gd-analyze endgame``) as text: the position, the
double-dummy value of every move (``render_endgame_text``) or its estimate
(``render_estimate_text``)."""

from __future__ import annotations

from .common import play_text
from .i18n import (aside, cards_label, count_of, enclosed, fixed, game_label, interval_text,
                   label, number, punct, rank_label, seat_label)

__all__ = ["render_endgame_text", "render_estimate_text"]


def _position_lines(position: dict, lang: str) -> list:
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    C = P("colon")
    turn = position["turn"]
    lines = [f"{G('level')}{C}{rank_label(position['level'], lang)}    "
             f"{G('to_act')}{C}{seat_label(turn, lang)}"
             + aside(G("team", t=turn % 2), lang)]
    for s, hand in enumerate(position["hands"]):
        mark = " *" if s == turn else ""
        lines.append(f"  {s}{C}{cards_label(hand, lang) or enclosed(G('out'), lang)}{mark}")
    if position.get("table") is not None:
        lines.append(f"{G('table')}{C}" + G("table_by", play=play_text(position["table"], lang),
                                           seat=seat_label(position["owner"], lang),
                                           passes=position["passes"],
                                           passes_n=count_of(position["passes"], "passes", lang)))
    else:
        lines.append(f"{G('table')}{C}{G('free_lead')}")
    if position.get("finished"):
        lines.append(f"{G('finished_seats')}{C}" + " ".join(map(str, position["finished"])))
    return lines


def render_endgame_text(position: dict, result: dict, lang: str = "en") -> str:
    """The double-dummy value of a position and of every move, as text:
    ``position`` holds level, turn, hands, table, owner, passes, finished;
    ``result`` is ``EndgameResult.to_dict()``."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    C = P("colon")

    def play(p):
        return play_text(p, lang)

    def val(v):
        return "?" if v is None else f"{v:+d}"

    lines = _position_lines(position, lang)
    if result["value"] is not None:
        lines.append(f"{G('value_team0')}{C}{result['value']:+d}")
    else:
        lines.append(f"{G('value_team0')}{C}" + G("not_proven", lo=f"{result['lower']:+d}",
                                                 hi=f"{result['upper']:+d}"))
    lines.append(G("moves") + C.rstrip())
    for m in result["moves"]:
        v, (lo, hi) = m["value"], m["bounds"]
        vt = val(v) if v is not None else f"{lo:+d}..{hi:+d}"
        lines.append(f"  {vt:>6}{' *' if m['best'] else '  '} {play(m['play'])}")
    if result.get("pv"):
        lines.append(G("best_line") + C.rstrip())
        for step in result["pv"]:
            lines.append(f"  {step['seat']}{C}{play(step['play'])}")
    tail = ""
    if not result["exact"]:
        tail = "    " + enclosed(G("interrupted" if result.get("stopped") == "interrupted"
                                   else "stopped"), lang)
    lines.append(f"{G('nodes')}{C}{result['nodes']}    {G('time')}{C}"
                 f"{number(result['seconds'], lang, 3)} {G('sec')}{tail}")
    return "\n".join(lines)


def render_estimate_text(position: dict, est: dict, lang: str = "en") -> str:
    """An estimate of a position (``Estimate.to_dict()``) as text, marked as
    estimated unless proven."""
    G = lambda k, **p: game_label(k, lang, **p)  # noqa: E731
    P = lambda k: punct(k, lang)  # noqa: E731
    C = P("colon")

    def sg(x, digits=2):
        return fixed(x, lang, digits, signed=True)

    lines = _position_lines(position, lang)
    if est["exact"]:
        lines.append(f"{G('value_team0')}{C}{sg(est['value'], 0)}    {enclosed(G('est_proven'), lang)}")
    elif est["lower"] == est["upper"]:
        lines.append(f"{G('value_team0')}{C}{sg(est['lower'], 0)}    "
                     f"{enclosed(G('est_value_proven'), lang)}")
    else:
        lines.append(f"{G('value_team0')}{C}{sg(est['value'])}    " + G(
            "est_estimated", c=f"{est['confidence']:.0%}", lo=f"{est['lower']:+d}",
            hi=f"{est['upper']:+d}"))
    lines.append(G("est_moves") + C.rstrip())
    for m in est["moves"]:
        if m["exact"]:
            vt = f"{sg(m['mean'], 0)} {label('exact', lang)}"
            lines.append(f"  {vt:>22}          {play_text(m['play'], lang)}")
        else:
            vt = f"{sg(m['mean'])} {interval_text(sg(m['low']), sg(m['high']), lang)}"
            lines.append(f"  {vt:>22} {m['samples']:>8} {play_text(m['play'], lang)}")
    lines.append(G("est_tail", playouts=est["playouts"], iterations=est["iterations"],
                   nodes=est["nodes"], t=number(est["seconds"], lang, 3))
                 + ("" if est["exact"] else "    " + enclosed(G("est_short"), lang)))
    return "\n".join(lines)

