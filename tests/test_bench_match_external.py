"""``bench/match_external.py``'s table: a match whose every deal was
abandoned (our bot's processes failing before they connect, say) prints a
row saying so, where it once stopped the script with a TypeError; under
the row, the first faults and how many more, not one line each; a
``--python`` that cannot run the clients is refused before any match."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from match_external import SHOWN_FAULTS, _fault_lines, _python_lacks, _row, main  # noqa: E402


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


def _faults(n: int) -> list:
    return [{"table": "ab"[k % 2], "unit": k + 1, "team": "b", "kind": "crash",
             "reason": f"seat {k % 2} exited with status 1 before it connected"}
            for k in range(n)]


def test_a_few_faults_are_each_shown():
    lines = _fault_lines(_faults(2))
    assert len(lines) == 2
    assert "abandoned a1: b crash: seat 0 exited" in lines[0]
    assert "abandoned b2: b crash: seat 1 exited" in lines[1]


def test_many_faults_show_the_first_and_a_count():
    lines = _fault_lines(_faults(200))
    assert len(lines) == SHOWN_FAULTS + 1
    assert all("abandoned" in x and "crash" in x for x in lines[:SHOWN_FAULTS])
    assert f"and {200 - SHOWN_FAULTS} more abandoned deals" in lines[-1]
    assert _fault_lines([]) == []
    assert len(_fault_lines(_faults(SHOWN_FAULTS))) == SHOWN_FAULTS


def _fake_python(tmp_path, body: str, name: str = "python") -> str:
    exe = tmp_path / name
    exe.write_text("#!/bin/sh\n" + body + "\n")
    exe.chmod(0o755)
    return str(exe)


def test_a_python_without_the_clients_modules_is_refused(tmp_path, capsys):
    bad = _fake_python(tmp_path, "echo \"ModuleNotFoundError: No module named 'numpy'\" >&2; exit 1")
    assert "No module named 'numpy'" in _python_lacks(bad)
    assert "does not run" in _python_lacks(str(tmp_path / "absent"))
    assert _python_lacks(_fake_python(tmp_path, "exit 0", "good")) == ""
    with pytest.raises(SystemExit) as e:
        main(["--mcc", str(tmp_path), "--python", bad, "--opponents", "ai1"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--python" in err and "cannot import ws4py, numpy" in err
