"""gd-analyze as a user runs it: files, stdin, JSON, languages, bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "guandan_fast.cli.main", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=120)


def test_hand_file_is_the_default_command():
    r = run(EXAMPLES / "hand1.txt")
    assert r.returncode == 0, r.stderr
    assert "Level: 7" in r.stdout
    assert "Wild cards: H7 H7" in r.stdout
    assert "bomb 9 (4): S9 H9 C9 D9" in r.stdout


def test_json_output_and_stdin():
    r = run("--format", "json", "-", stdin="level: A\nSA DA CA HA SB\n")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["level"] == "A"
    assert data["wilds"] == ["HA"]
    assert data["groups"][0]["rank"] == "B"


def test_languages():
    ru = run(EXAMPLES / "hand_ru.txt", "--lang", "ru")
    zh = run(EXAMPLES / "hand_ru.txt", "--lang", "zh")
    assert ru.returncode == 0 and zh.returncode == 0
    assert "Уровень: T" in ru.stdout and "флеш-стрит" in ru.stdout
    assert "同花顺" in zh.stdout


@pytest.mark.parametrize("stdin,needle", [
    ("S3 X9", "'X9'"),
    ("level: 1\nS3", "level"),
    ("S3 S3 S3", "third copy"),
    ("", "no cards"),
    ("colour: red\nS3", "unknown setting"),
])
def test_bad_input_is_one_line_and_exit_2(stdin, needle):
    r = run("-", stdin=stdin)
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_missing_file_and_bad_option():
    r = run("no-such-file.txt")
    assert r.returncode == 2 and "no-such-file.txt" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run(EXAMPLES / "hand1.txt", "--format", "xml")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
