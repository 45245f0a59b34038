"""Text rendering of the CLI's results (no rules here: data in, text out)."""

from __future__ import annotations

from guandan_fast.i18n import label, type_name


def hand_text(data: dict, lang: str = "en") -> str:
    L = lambda k: label(k, lang)  # noqa: E731
    lines = [f"{L('level')}: {data['level']}    {L('hand')}: {data['cards']} {L('cards')}"]
    for g in data["groups"]:
        lines.append(f"  {g['rank']:>2}  {' '.join(g['cards'])}")
    lines.append(f"{L('wilds')}: {' '.join(data['wilds']) or L('none')}")
    if data["bombs"]:
        lines.append(f"{L('bombs')}:")
        for b in data["bombs"]:
            lines.append(f"  {type_name(b['type'], lang)} {b['rank']} ({b['size']}): {b['cards']}")
    else:
        lines.append(f"{L('bombs')}: {L('none')}")
    if data.get("bombs_with_wilds"):
        lines.append(f"{L('bombs_with_wilds')}: " + ", ".join(
            f"{type_name(b['type'], lang)} {b['rank']} ({b['size']})"
            for b in data["bombs_with_wilds"]))
    if "min_plays" in data:
        lines.append(f"{L('min_plays')}: {data['min_plays']}")
        lines.append(f"{L('decomposition')}:")
        for p in data["decomposition"]:
            lines.append(f"  {type_name(p['type'], lang)} {p['rank']}: {p['cards']}")
    return "\n".join(lines)
