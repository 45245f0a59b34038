"""``bench/match_external.py``'s table: a match whose every deal was
abandoned (our bot's processes failing before they connect, say) prints a
row saying so, where it once stopped the script with a TypeError."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from match_external import _row  # noqa: E402


def _result(played: int, gain, win, abandoned: int) -> dict:
    side = {"invalid_answers": 0, "abandoned": abandoned}
    return {"deals_played": played, "mean_gain": gain, "win_rate": win,
            "ci95": [-3.0, 3.0] if not played else [gain - 0.5, gain + 0.5],
            "a": side, "b": {"invalid_answers": 1, "abandoned": 0},
            "abandoned_without_fault": 0, "seconds_per_deal": 0.25 if played else 0.0}


def test_a_match_without_deals_says_so():
    row = _row("ai1", _result(0, None, None, 2))
    assert row.startswith("ai1")
    assert "no deal played" in row
    assert row.split()[-3:] == ["0", "1", "2"]      # invalid ours, theirs, abandoned


def test_a_played_match_shows_its_figures():
    row = _row("ai1", _result(40, 0.25, 0.55, 0))
    assert "+0.25 [-0.25, +0.75]" in row
    assert "55.0%" in row and row.endswith("0.25")
