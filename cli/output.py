"""Text rendering of the CLI's results (no rules here: data in, text out)."""

from __future__ import annotations

from guandan_fast.report.common import type_rank
from guandan_fast.report.i18n import (aside, cards_label, count_of, describe_bomb, label, punct,
                                      rank_label, type_name)
from guandan_fast.report.layout import TEXT_WIDTH, fit, wrap

_BOMBS = ("bomb", "straight_flush", "joker_bomb")


def _name(p: dict, lang: str, acc: bool = False) -> str:
    """A play's type and rank as the reports write them: a bomb with its
    size, a straight flush by its first and last cards (``S3–S7``: several of
    one rank differ by the suit), a Russian joker rank after a comma; ``acc``:
    as the object of "beats"."""
    if p["type"] in _BOMBS and (p["type"] != "straight_flush" or p.get("suit")):
        return describe_bomb(p, lang, acc)
    return type_rank(p["type"], p["rank"], lang, acc)


def hand_text(data: dict, lang: str = "en", width: int = TEXT_WIDTH) -> str:
    L = lambda k: label(k, lang)  # noqa: E731
    C = lambda c: cards_label(c if isinstance(c, str) else " ".join(c), lang)  # noqa: E731
    R = lambda r: rank_label(r, lang)  # noqa: E731
    K, END, LIST = punct("colon", lang), punct("colon", lang).rstrip(), punct("list", lang)
    lines = [f"{L('level')}{K}{R(data['level'])}    "
             f"{L('hand')}{K}{count_of(data['cards'], 'cards', lang)}"]
    for g in data["groups"]:
        lines.append(f"  {R(g['rank']):>2}  {C(g['cards'])}")
    lines.append(f"{L('wilds')}{K}{C(data['wilds']) or L('none')}")
    if data["bombs"]:
        lines.append(f"{L('bombs')}{END}")
        for b in data["bombs"]:
            lines.append(f"  {_name(b, lang)}{K}{C(b['cards'])}")
    else:
        lines.append(f"{L('bombs')}{K}{L('none')}")
    if data.get("bombs_with_wilds"):
        lines += wrap(f"{L('bombs_with_wilds')}{K}" + LIST.join(      # a bomb's name whole
            _name(b, lang) for b in data["bombs_with_wilds"]), width, at=LIST)
    if "min_plays" in data:
        lines.append(f"{L('min_plays')}{K}{data['min_plays']}")
        lines.append(f"{L('decomposition')}{END}")
        for p in data["decomposition"]:
            lines.append(f"  {_name(p, lang)}{K}{C(p['cards'])}")
    return "\n".join(fit(lines, width))


def plays_text(data: dict, lang: str = "en") -> str:
    L = lambda k: label(k, lang)  # noqa: E731
    C = lambda c: cards_label(c, lang)  # noqa: E731
    R = lambda r: rank_label(r, lang)  # noqa: E731
    K, END = punct("colon", lang), punct("colon", lang).rstrip()
    lines = []
    if data["table"] is not None:
        t = data["table"]
        head = f"{L('beats')} {_name(t, lang, acc=True)}{aside(C(t['cards']), lang)}"
    else:
        head = L("hints") if data["mode"] == "hint" else L("plays")
    lines.append(f"{head}{K}{data['count']}    {L('level')}{K}{R(data['level'])}")
    if data["mode"] == "hint":
        for i, p in enumerate(data["plays"], 1):
            lines.append(f"{i:>4}. {_name(p, lang)}{K}{C(p['cards'])}"
                         f"   [{L('plays_left')}{K}{p['plays_left']}]")
        return "\n".join(lines)
    current = None
    for p in data["plays"]:
        if p["type"] != current:
            current = p["type"]
            lines.append(f"{type_name(current, lang)}{END}")
        lines.append(f"  {R(p['rank']):>2}  {C(p['cards'])}")
    return "\n".join(lines)


def _match_rows(data: dict, wins: str, of_deals: str = "", scored: bool = False) -> list:
    """The rows a match table and a platform match table share: the teams,
    what was played, A's gain and A's share of deals (``wins``), the games."""
    unit = "game" if data["games"] else "deal"
    pairs = f"{data['units']} {unit}{'s' if data['units'] != 1 else ''}"
    if data["duplicate"]:
        pairs += " x 2 (duplicate)"
    lo, hi = data["ci95"]
    wlo, whi = data["win_ci95"]
    played = f"{pairs}, {data['deals_played']} deals, "
    if scored:
        played += f"{data['pairs_scored']} scored, "
    rows = [
        ("team A", data["team_a"]),
        ("team B", data["team_b"]),
        ("played", f"{played}seed {data['seed']}"),
        ("A's gain / deal", "none scored" if data["mean_gain"] is None else
         f"{data['mean_gain']:+.3f}  (95% CI {lo:+.3f} .. {hi:+.3f})"),
        (wins, "none scored" if data["win_rate"] is None else
         f"{100 * data['win_rate']:.1f}%{of_deals}  (95% CI {100 * wlo:.1f}% .. "
         f"{100 * whi:.1f}%)"),
    ]
    if "games_won" in data:
        g = data["games_won"]
        rows.append(("games won", f"A {g['a']}, B {g['b']}, unfinished {g['unfinished']}"))
    return rows


def _aligned(rows: list) -> list:
    width = max(len(k) for k, _ in rows)
    return [f"{k:<{width}}  {v}" for k, v in rows]


def match_text(data: dict) -> str:
    """The table of a match result (``MatchResult.to_dict()``)."""
    rows = _match_rows(data, "A's deal wins")
    for side in ("a", "b"):
        rows.append((f"time / decision {side.upper()}",
                     f"{1000 * data['seconds_per_decision'][side]:.2f} ms over "
                     f"{data['decisions'][side]} decisions (longest "
                     f"{1000 * data['max_decision_seconds'][side]:.1f} ms)"))
    rows.append(("elapsed", f"{data['elapsed_seconds']:.1f} s"))
    return "\n".join(_aligned(rows))


def external_match_text(data: dict) -> str:
    """The table of a platform match (``ExternalMatchResult.to_dict()``)."""
    rows = _match_rows(data, "A first out", " of deals", scored=True)
    for side in ("a", "b"):
        c = data[side]
        rows.append((f"team {side.upper()}", f"{c['decisions']} answers, {c['invalid_answers']} "
                     f"invalid; abandoned {c['abandoned']} (crashes {c['crashes']}, timeouts "
                     f"{c['timeouts']}, invalid {c['stopped_for_invalid']})"))
    if data["abandoned_without_fault"]:
        rows.append(("abandoned", f"{data['abandoned_without_fault']} (no seat at fault)"))
    rows.append(("time / deal", f"{data['seconds_per_deal']:.2f} s"))
    rows.append(("elapsed", f"{data['elapsed_seconds']:.1f} s"))
    lines = _aligned(rows)
    lines += [f"  {f['table']}{f['unit']}: team {f['team'] or '-'} {f['kind']}: {f['reason']}"
              for f in data["faults"]]
    return "\n".join(lines)
