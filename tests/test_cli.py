"""gd-analyze as a user runs it: files, stdin, JSON, languages, bad input.
In process (tests/clirun.py), with a few smoke tests of the real command."""

import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


from clirun import run, run_subprocess


def test_smoke_the_real_command():
    # the installed entry point as a process: output, exit status, and a bad
    # input's one line on stderr with exit status 2
    r = run_subprocess(EXAMPLES / "hand1.txt")
    assert r.returncode == 0, r.stderr
    assert "Level: 7" in r.stdout and "Wild cards: H7 H7" in r.stdout
    r = run_subprocess("-", stdin="S3 XX\n")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


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
    assert "Уровень: 10" in ru.stdout and "флеш-стрит" in ru.stdout
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


def test_hand_analysis_prints_min_plays_and_decomposition():
    r = run("--format", "json", EXAMPLES / "hand1.txt")
    data = json.loads(r.stdout)
    from guandan_fast import min_plays, parse_cards
    from guandan_fast.formats.hand import load_hand
    hand = load_hand(EXAMPLES / "hand1.txt")
    assert data["min_plays"] == min_plays(hand.cards, hand.rules)
    assert len(data["decomposition"]) == data["min_plays"]
    used = sorted(str(c) for p in data["decomposition"] for c in parse_cards(p["cards"]))
    assert used == sorted(str(c) for c in hand.cards)
    text = run(EXAMPLES / "hand1.txt", "--lang", "ru").stdout
    assert f"Минимум ходов: {data['min_plays']}" in text


def test_plays_command():
    r = run("plays", "--format", "json", "-", stdin="level: 2\nS5 D5 S9 D9 SB SB")
    data = json.loads(r.stdout)
    assert r.returncode == 0
    assert {p["cards"] for p in data["plays"] if p["type"] == "pair"} == {"S5 D5", "S9 D9", "SB SB"}
    r = run("plays", "--beat", "S7 D7", "--hint", "-", stdin="level: 2\nS5 D5 S9 D9 SB SB")
    lines = r.stdout.splitlines()
    assert "S9 D9" in lines[1] and "SB SB" in lines[2] and len(lines) == 3


def _ru_cards(n: int) -> str:
    # Russian agreement of "карта" with a count, written apart from i18n
    if n % 10 == 1 and n % 100 != 11:
        return "карта"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "карты"
    return "карт"


@pytest.mark.parametrize("n", [1, 2, 5, 11, 21, 22, 27])
def test_hand_counts_its_cards_in_agreement(n):
    deck = [s + r for r in "3456789TJQKA" for s in "SHCD"]
    hand = " ".join(deck[:n])
    assert f"Рука: {n} {_ru_cards(n)}" in run("-", "--lang", "ru", stdin=hand).stdout
    en = run("-", stdin=hand).stdout
    assert f"Hand: {n} card{'' if n == 1 else 's'}" in en
    assert f"手牌：{n}张" in run("-", "--lang", "zh", stdin=hand).stdout


def test_hand_and_plays_name_plays_as_the_reports_do():
    # a straight flush by its first and last cards, in the language's notation;
    # in Russian the beaten play in the accusative, a joker's rank after a comma
    hand = "level: 10\nS3 S4 S5 S6 S7 SB D9"
    assert "straight flush S3–S7: S3 S4 S5 S6 S7" in run("-", stdin=hand).stdout
    assert "同花顺 ♠3–♠7：♠3 ♠4 ♠5 ♠6 ♠7" in run("-", "--lang", "zh", stdin=hand).stdout
    assert "одиночная, малый джокер: Дж-м" in run("-", "--lang", "ru", stdin=hand).stdout
    ru = run("plays", "--beat", "S2 D2", "--lang", "ru", "-", stdin="level: 10\nS5 D5 S9").stdout
    assert ru.startswith("Ходы, которые бьют пару 2 (2♠ 2♦)")
    ru = run("plays", "--beat", "S4 H4 C4 D4", "--lang", "ru", "-", stdin="level: 10\nS5 D5").stdout
    assert ru.startswith("Ходы, которые бьют бомбу 4 (4) (4♠ 4♥ 4♣ 4♦): 0")


def test_the_beaten_plays_reading_takes_a_records_words():
    # --type and --rank as a record reads a reading: the ten as 10 or t,
    # Russian and Chinese type names; an unknown word is one line, exit 2
    for args in (("--type", "pair", "--rank", "10"), ("--type", "пара", "--rank", "t"),
                 ("--type", "对子",)):
        r = run("plays", "--beat", "ST ST", *args, "-", stdin="S3 S4")
        assert r.returncode == 0 and r.stdout.startswith("Plays that beat pair 10"), (args, r)
    for args, needle in ((("--type", "foo"), "unknown play type 'foo'"),
                         (("--rank", "11"), "unknown rank '11'")):
        r = run("plays", "--beat", "ST ST", *args, "-", stdin="S3 S4")
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.splitlines()) == 1


def test_ambiguous_table_play_lists_readings():
    r = run("plays", "--beat", "S3 D3 S4 D4 H2 H2", "-", stdin="level: 2\nS5 D5")
    assert r.returncode == 2
    assert "tube 4" in r.stderr and "plate 4" in r.stderr
    r = run("plays", "--beat", "S3 D3 S4 D4 H2 H2", "--type", "plate", "--format", "json", "-",
            stdin="level: 2\nS5 D5 C5 S6 D6 C6")
    assert r.returncode == 0
    assert [p["type"] for p in json.loads(r.stdout)["plays"]] == ["plate"]


def test_every_language_has_every_label():
    from guandan_fast.report import i18n
    keys = {lang: set(i18n._LABELS[lang]) for lang in i18n.LANGS}
    assert keys["en"] == keys["ru"] == keys["zh"]
    types = {lang: set(i18n._TYPES[lang]) for lang in i18n.LANGS}
    assert types["en"] == types["ru"] == types["zh"]


def test_binary_file_and_directory_are_one_line_errors(tmp_path):
    binary = tmp_path / "hand.bin"
    binary.write_bytes(bytes(range(128, 256)) * 3)
    for arg in (binary, tmp_path):
        r = run(arg)
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_endgame_splits_max_seconds_between_the_solver_and_the_estimate(monkeypatch):
    """--max-seconds S is the whole command's: the solver gets S/2 when the
    estimate may follow (and all of S with --exact-only), the estimate what
    is left of S, never a whole S again."""
    import guandan_fast.engine.endgame as endgame
    import guandan_fast.engine.estimate as estimate
    asked = {}
    real_solve, real_estimate = endgame.solve, estimate.estimate

    def solve(position, **kw):
        asked["solve"] = kw["max_seconds"]
        return real_solve(position, max_nodes=1, all_moves=kw.get("all_moves", True))

    def est(position, **kw):
        asked["estimate"] = kw["max_seconds"]
        return real_estimate(position, max_seconds=None, max_playouts=50)

    monkeypatch.setattr(endgame, "solve", solve)
    monkeypatch.setattr(estimate, "estimate", est)
    pos = "level: 2\n0: S3 S4 S9\n1: S5 S6 SA\n2: D3 D7 DK\n3: H4 H8 CQ\nturn: 0\n"
    r = run("endgame", "-", "--max-seconds", "8", "-q", "-t", "1", stdin=pos)
    assert r.returncode == 0, r.stderr
    # (the stand-in solver stops at once: the estimate gets nearly all of S,
    # what is left of it, and never more)
    assert asked["solve"] == 4.0 and 7.0 < asked["estimate"] < 8.0
    asked.clear()
    r = run("endgame", "-", "--max-seconds", "8", "-q", "-t", "1", "--exact-only", stdin=pos)
    assert r.returncode == 0 and asked == {"solve": 8.0}


def test_an_output_never_overwrites_an_input_or_the_other_output(tmp_path):
    rec = tmp_path / "r.txt"
    rec.write_text((EXAMPLES / "record_endgame_short.txt").read_text(encoding="utf-8"),
                   encoding="utf-8")
    before = rec.read_bytes()
    for args, needle in (
            (("game", rec, "--html", rec), "--html"),
            (("game", rec, "--json-out", rec), "--json-out"),
            (("game", rec, "--html", tmp_path / "x.html", "--json-out", tmp_path / "x.html"),
             "the same file"),
            (("render", rec, "--html", rec), "--html")):
        r = run(*args, "-q", "--playouts", "2") if args[0] == "game" else run(*args)
        assert r.returncode == 2 and needle in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
        assert rec.read_bytes() == before
    assert not (tmp_path / "x.html").exists()


def test_an_empty_file_name_is_named_not_skipped():
    for args in (("",), ("tribute", EXAMPLES / "tribute_give.txt", "--give", "--receiver", ""),
                 ("serve", "--port", "0", "--records", "")):
        r = run(*args)
        assert r.returncode == 2 and "''" in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_output_that_cannot_be_written_is_named(tmp_path):
    """A full disk gives an error of no file name of its own: the message
    names the output file (--html, --json-out), on one line, exit 2."""
    short = Path(__file__).resolve().parent.parent / "examples" / "record_endgame_short.txt"
    doc = tmp_path / "r.json"
    assert run("game", short, "--views", "double", "--budget", "0.05", "-q",
               "--json-out", doc).returncode == 0
    for args in (("render", doc, "--html", "/dev/full"),
                 ("game", short, "--views", "double", "--budget", "0.05", "-q",
                  "--json-out", "/dev/full"),
                 ("drills", doc, "--html", "/dev/full")):
        r = run(*args)
        err = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(err) == 1, (args, r.stderr)
        assert "/dev/full" in err[0] and "No space left" in err[0], err
