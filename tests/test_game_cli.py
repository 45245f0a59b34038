"""gd-analyze game and evening as a user runs them: the report in three
languages (golden-ish lines), JSON, the HTML page, batches, bad input.
In process (tests/clirun.py); the runs with worker processes (--jobs) start
the real command."""

import json
import shutil
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = EXAMPLES / "record_endgame_short.txt"
BOMB = EXAMPLES / "record_bomb_thrown.txt"
# the double-dummy view only, exact where the solver proves it: fast and fixed
FAST = ["--views", "double", "--budget", "0.05", "-q"]


from clirun import run, run_subprocess


def test_text_report_in_english():
    r = run("game", SHORT, *FAST, "--width", "0")      # a line a decision
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("Deal review — Endgame puzzle night")
    assert "Result: Boris & Dmitri win, +1    Finishing order: Dmitri, Chen, Anna" in out
    assert "  0 Anna    S3 C5 SK" in out
    assert "     #1  Anna    C5 (single 5)    3→2  DD =−1  DD ✗" in out
    assert ("DD ✗ blunder, proven loss: 2 levels; better: S3 (single 3) =+1  ← first mistake" in out)
    assert "Mistakes:\n  #1 Anna: C5 (single 5)  DD ✗ blunder, proven loss: 2 levels; better: S3 (single 3) =+1\n" in out
    assert "  Anna: judged 3; DD: 1 mistake, levels given away 2, largest mistake #1 (2 levels)" in out
    assert "Double-dummy values assume that every hand is seen" in out


def test_text_report_in_russian_and_chinese():
    ru = run("game", SHORT, *FAST, "--lang", "ru", "--width", "0").stdout
    assert ru.startswith("Разбор сдачи — Endgame puzzle night")
    assert "Итог: Boris & Dmitri: победа, +1" in ru
    assert "ОТК ✗ грубая ошибка, доказанная потеря: 2 уровня; лучше: 3♠ (одиночная 3) =+1  ← первая ошибка" in ru
    assert "  Anna: оценено 3; ОТК: 1 ошибка, отдано уровней 2, самая крупная ошибка №1 (2 уровня)" in ru
    assert "  Boris: оценено 2; ОТК: 0 ошибок" in ru
    assert "оценщик недоступен" in ru or "the estimator" not in ru     # notes translated too
    zh = run("game", SHORT, *FAST, "--lang", "zh", "--width", "0").stdout
    assert zh.startswith("牌局复盘")
    assert "Boris & Dmitri 胜，升1级" in zh and "过" in zh
    assert "明 ✗ 严重错误，已证明的损失：2级；更好：♠3（单张 3） =+1  ← 首个失误" in zh


@pytest.mark.slow
def test_joker_names_in_each_language():
    # move 52 of the club record: the small joker is among the better moves
    for lang, shown in (("en", "SB (single small joker)"),
                        ("ru", "Дж-м (одиночная, малый джокер)"), ("zh", "小王（单张 小王）")):
        out = run("game", EXAMPLES / "record_club.txt", "--views", "double", "--budget", "0.02",
                  "--lang", lang, "-q").stdout
        assert shown in out
        assert "JOKER" not in out


def test_json_report():
    r = run("game", SHORT, *FAST, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["result"] == -1 and data["finished"] == [3, 2, 0]
    assert len(data["decisions"]) == 26 and len(data["graph"]["double"]) == 26
    first = data["decisions"][0]
    assert first["move"] == {"cards": "C5", "type": "single", "rank": "5"}
    assert first["min_plays_before"] == 3 and first["double"]["mistake"] == "proven"


def test_html_file(tmp_path):
    page = tmp_path / "report.html"
    r = run("game", BOMB, *FAST, "--html", page, "--lang", "ru")
    assert r.returncode == 0, r.stderr
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="ru">' in html
    # self-contained: no external assets (the SVG namespace is not fetched)
    assert "src=" not in html and "<link" not in html and "@import" not in html
    assert "Noto Sans CJK SC" in html and "DejaVu Sans" in html
    assert "<svg" in html and 'class="viewer"' in html
    # the viewer's lines, with the Russian accusative: "Dmitri: одиночная 6 бьёт одиночную 3"
    assert "Dmitri: одиночная 6 бьёт одиночную 3" in html
    assert "Оценки «в открытую» предполагают" in html


@pytest.mark.slow
def test_batch_json_lines_with_jobs(tmp_path):
    for name in ("record_endgame_short.txt", "record_bomb_thrown.txt", "record_endgame_pair.txt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / "nested").mkdir()
    r = run_subprocess("game", tmp_path, "--jobs", "2", "--views", "double", "--budget", "0.05",
                       timeout=600)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [Path(d["file"]).name for d in lines] == [
        "record_bomb_thrown.txt", "record_endgame_pair.txt", "record_endgame_short.txt"]
    assert [d["result"] for d in lines] == [-3, lines[1]["result"], -1]
    assert "[##############################] 3/3 records" in r.stderr


@pytest.mark.slow
def test_evening_page_and_json(tmp_path):
    night = tmp_path / "night"
    night.mkdir()
    for name in ("record_endgame_short.txt", "record_bomb_thrown.txt"):
        shutil.copy(EXAMPLES / name, night / name)
    page = tmp_path / "evening.html"
    r = run_subprocess("evening", night, "--html", page, "--views", "double", "--budget",
                       "0.05", "--lang", "zh", "--jobs", "2", timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("俱乐部牌会")
    html = page.read_text(encoding="utf-8")
    assert html.count('class="viewer"') == 2 and html.count('<svg class="graph wide"') == 2
    assert 'href="#deal1-d0"' in html        # Anna's largest mistake, linked
    j = run("evening", night, "--format", "json", "--views", "double", "--budget", "0.05", "-q")
    data = json.loads(j.stdout)
    anna = next(p for p in data["summary"]["players"] if p["name"] == "Anna")
    dd = anna["double"]
    assert anna["deals"] == 2 and dd["mistakes"] == 2 and dd["lost"] == 6.0
    assert dd["lost_per_deal"] == 3.0 and dd["largest"][2] == 4.0


def test_batch_reports_a_broken_record_and_goes_on(tmp_path):
    good = tmp_path / "a.txt"
    shutil.copy(SHORT, good)
    bad = tmp_path / "b.txt"
    bad.write_text(SHORT.read_text().replace("1: CQ", "2: CQ"), encoding="utf-8")
    r = run("game", good, bad, *FAST)
    assert r.returncode == 2
    assert len(r.stdout.splitlines()) == 1
    assert f"gd-analyze: error: {bad}: line 17 (Chen): turn out of order: seat 1 is to act, not seat 2" in r.stderr


@pytest.mark.parametrize("args,needle", [
    (["game", "-"], "line 1: expected a 'key: value' tag"),
    (["game", "no-such-record.txt"], "No such file"),
    (["game", SHORT, SHORT, "--html", "x.html"], "--html takes a single record"),
    (["game", SHORT, "--views", "triple"], "--views"),
    (["game", SHORT, "--budget", "0"], "--budget"),
    (["evening", "no-such-dir"], "No such file"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    r = run(*args, stdin="S3 S4\n")
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_platform_logs(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from platform_logs import log_of as platform_log

    from guandan_fast.formats.record import load
    log = tmp_path / "bot.log"
    log.write_text("\n".join(json.dumps(m) for m in platform_log(load(SHORT))) + "\n")
    r = run("game", log, "--platform", *FAST, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["hands"][0] == "S3 C5 SK" and data["tags"]["source"].startswith("Guandan AI")
    # no names in a platform log: the seats, in the language
    zh = run("game", log, "--platform", *FAST, "--lang", "zh").stdout
    assert "0 0号位" in zh and "1号位 & 3号位 胜" in zh
    # names for the platform's seats
    named = run("game", log, "--platform", *FAST, "--players", "Ann, Bo, Cy, Di").stdout
    assert "Players: 0 Ann, 1 Bo, 2 Cy, 3 Di" in named and "Bo & Di win, +1" in named
    bad = run("game", log, "--platform", *FAST, "--players", "Ann,Bo")
    assert bad.returncode == 2 and "--players" in bad.stderr


def test_the_progress_bar_goes_to_stderr():
    r = run("game", SHORT, "--views", "double", "--budget", "0.05")
    assert r.returncode == 0
    assert "26/26 positions" in r.stderr and "positions" not in r.stdout   # one per decision


def test_endgame_in_three_languages():
    en = run("endgame", EXAMPLES / "endgame2.txt")
    assert en.returncode == 0, en.stderr
    assert "Table: D8 (single 8) by seat 3, 0 passes" in en.stdout
    ru = run("endgame", EXAMPLES / "endgame2.txt", "--lang", "ru").stdout
    assert "Уровень: 2    ходит: место 0 (команда 0)" in ru and "  2: (вышел)" in ru
    assert "Стол: 8♦ (одиночная 8), сыграл: место 3" in ru and "+2 * пас" in ru
    zh = run("endgame", EXAMPLES / "endgame1.txt", "--lang", "zh").stdout
    assert "出牌方：0号位（0队）" in zh and "桌面：自由出牌" in zh and "♠3 ♦3（对子 3）" in zh


def test_a_record_with_several_errors_prints_a_line_for_each():
    text = SHORT.read_text(encoding="utf-8").replace("0: S3 C5 SK", "0: S3 C5 XK", 1) \
        .replace("1: D4 CQ SK", "1: D4 CQ 大猫", 1)
    r = run("game", "-", *FAST, stdin=text)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and all(x.startswith("gd-analyze: error: line ") for x in lines)
    assert "(Anna): unknown card token 'XK'" in lines[0]
    assert "(Boris): unknown card token '大猫'" in lines[1]


def test_a_look_alike_token_is_warned_of_on_stderr_and_the_review_goes_on():
    text = SHORT.read_text(encoding="utf-8").replace("0: S3 C5 SK", "0: S3 С5 SK", 1)
    r = run("game", "-", *FAST, stdin=text)
    assert r.returncode == 0, r.stderr
    assert "gd-analyze: warning: -: line " in r.stderr
    assert "(Anna): 'С5' (token 2) writes Cyrillic С for Latin C: read as C5" in r.stderr
    assert "Deal review" in r.stdout


def test_a_hand_file_warning_is_one_line_on_stderr(tmp_path):
    hand = tmp_path / "hand.txt"
    hand.write_text("level: 2\nS3 S4 SТ\n", encoding="utf-8")
    r = run(str(hand))
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [
        "gd-analyze: warning: 'SТ' (line 2, token 3) mixes Latin letters (S) and Cyrillic "
        "letters (Т): read as SA, the ace of spades (Cyrillic Т is туз, the ace; Latin T is "
        "the ten)"]


@pytest.mark.slow
def test_the_russian_text_writes_russian_ranks_and_ten_as_10():
    ru = run("game", EXAMPLES / "record_club.txt", "--views", "double", "--budget", "0.01",
             "--lang", "ru", "-q").stdout
    hands = ru.split("Руки при раздаче:")[1].split("\n\n")[0]
    assert "10♠" in hands and "Т♦" in hands and "В♥" in hands
    assert "T" not in hands.replace("Anna", "").replace("Boris", "").replace("Chen", "") \
        .replace("Dmitri", "")
    assert "одиночная T" not in ru and "пара T" not in ru


@pytest.mark.parametrize("old,new,needle", [
    ("\nplay:\n", "\nplya:\n", "line 15: 'plya:' is not a known section"),
    ("\nhands:\n", "\n\n", "line 10 (Anna): a hand line ('0: S3 C5 SK') before any section"),
])
def test_a_bad_section_header_is_one_line_and_exit_2(tmp_path, old, new, needle):
    bad = tmp_path / "bad.txt"
    bad.write_text(SHORT.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    r = run("game", bad, *FAST)
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_an_evening_lists_a_record_that_does_not_load(tmp_path):
    # in the JSON, the --json-out document and the report, not on stderr alone
    night = tmp_path / "night"
    night.mkdir()
    shutil.copy(SHORT, night / "a.txt")
    (night / "bad.txt").write_text("level: 2\nhands:\n0: XX\n", encoding="utf-8")
    doc = tmp_path / "evening.json"
    j = run("evening", night, "--format", "json", "--views", "double", "--playouts", "5",
            "-j", "1", "-q", "--no-cache", "--json-out", doc)
    assert j.returncode == 2 and "bad.txt" in j.stderr
    errors = json.loads(j.stdout)["errors"]
    assert [e["file"] for e in errors] == [str(night / "bad.txt")]
    assert "unknown card token 'XX'" in errors[0]["error"]
    assert json.loads(doc.read_text(encoding="utf-8"))["errors"] == errors
    text = run("render", doc).stdout
    assert "bad.txt" in text and "unknown card token" in text
