"""gd-analyze game as a user runs it: report, JSON, languages, HTML, batch."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "guandan_fast.cli", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=300)


def test_text_report():
    r = run("game", SHORT, "--no-solver")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("Deal analysis — Endgame puzzle night")
    assert "Result: Boris & Dmitri win, +1    Finishing order: Dmitri, Chen, Anna" in out
    assert "  0 Anna    S3 C5 SK" in out
    assert "    1  Anna    C5 (single 5)" in out and "3→2" in out
    assert "Mistakes:\n  no mistakes found" in out


def test_json_report_and_languages():
    r = run("game", SHORT, "--no-solver", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["result"] == -1 and data["finished"] == [3, 2, 0]
    assert len(data["decisions"]) == 26
    assert data["decisions"][0]["play"] == {"cards": "C5", "type": "single", "rank": "5"}
    assert data["decisions"][0]["min_plays_before"] == 3
    ru = run("game", EXAMPLES / "record_tribute.txt", "--no-solver", "--lang", "ru")
    assert ru.returncode == 0, ru.stderr
    assert "Разбор сдачи" in ru.stdout and "Ответная дань: Ирина → Сергей S2   ✗ совет: ST" in ru.stdout
    zh = run("game", SHORT, "--no-solver", "--lang", "zh")
    assert "牌局复盘" in zh.stdout and "Boris & Dmitri 胜，升1级" in zh.stdout and "过" in zh.stdout


def test_html_file(tmp_path):
    page = tmp_path / "report.html"
    r = run("game", EXAMPLES / "record_tribute.txt", "--no-solver", "--html", page)
    assert r.returncode == 0, r.stderr
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert "<style>" in html and "http" not in html.lower().replace("http-equiv", "")  # no external assets
    assert html.count('class="seat t') == 4
    assert 'title="S7"' in html and "as advised" in html


def test_batch_json_lines_with_jobs(tmp_path):
    for name in ("record_endgame_short.txt", "record_tribute.txt", "record_club.txt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / "nested").mkdir()
    r = run("game", tmp_path, "--jobs", "2", "--no-solver")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [Path(d["file"]).name for d in lines] == [
        "record_club.txt", "record_endgame_short.txt", "record_tribute.txt"]
    assert [d["result"] for d in lines] == [3, -1, 3]
    assert "[##############################] 3/3" in r.stderr


def test_batch_reports_a_broken_record_and_goes_on(tmp_path):
    good = tmp_path / "a.txt"
    shutil.copy(SHORT, good)
    bad = tmp_path / "b.txt"
    bad.write_text(SHORT.read_text().replace("1: CQ", "2: CQ"), encoding="utf-8")
    r = run("game", good, bad, "--no-solver")
    assert r.returncode == 2
    assert len(r.stdout.splitlines()) == 1
    assert f"gd-analyze: error: {bad}: line 17: turn out of order: seat 1 is to act, not seat 2" in r.stderr


@pytest.mark.parametrize("args,needle", [
    (["game", "-"], "line 1: expected a 'key: value' tag"),
    (["game", "no-such-record.txt"], "No such file"),
    (["game", SHORT, SHORT, "--html", "x.html"], "--html takes a single record"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    r = run(*args, stdin="S3 S4\n")
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_platform_logs(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_platform import platform_log

    from guandan_fast.formats.record import load
    log = tmp_path / "bot.log"
    log.write_text("\n".join(json.dumps(m) for m in platform_log(load(SHORT))) + "\n")
    r = run("game", log, "--platform", "--no-solver", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["hands"][0] == "S3 C5 SK" and data["tags"]["source"].startswith("Guandan AI")


def test_report_with_the_endgame_solver(tmp_path):
    pytest.importorskip("guandan_fast.engine.endgame", reason="the endgame solver is not merged")
    page = tmp_path / "r.html"
    r = run("game", SHORT, "--html", page)
    assert r.returncode == 0, r.stderr
    assert ("    1  Anna    C5 (single 5)                         3→2   −1  ✗ loses 2; "
            "better: S3 (single 3) (+1)  ← first mistake") in r.stdout
    assert "Mistakes:\n  #1 Anna: C5 (single 5)  ✗ loses 2; better: S3 (single 3) (+1)\n" in r.stdout
    html = page.read_text(encoding="utf-8")
    assert '<tr id="m1" class="mistake">' in html and html.count('class="mistake"') == 1
    j = run("game", EXAMPLES / "record_endgame_pair.txt", "--format", "json", "--threads", "1")
    data = json.loads(j.stdout)
    first = data["decisions"][0]
    assert first["loss"] == 4 and first["best_moves"][0]["type"] == "pair"
    assert data["first_mistakes"] == {"0": 0}
