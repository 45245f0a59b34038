"""Fuzzing every loader and every public function that reaches the core:
whatever the input, the answer is a result or a ValueError
subclass; never another exception, a crash of the process or a hang.

The targets are registered in tests/fuzz_targets.py (add new loaders and
functions there). The default run is short (hypothesis profile "dev");
``--slow`` runs the "ci" profile, forty times longer.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_targets import CALLS, LOADERS

# a third of the profile's examples a test: 5 a test by default ("dev"),
# 200 and a few minutes in all with --slow ("ci")
FUZZ = settings(max_examples=max(5, settings.default.max_examples // 3),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])


def _ok(fn, *args):
    try:
        fn(*args)
    except ValueError:
        pass


# -- mutations of valid files ----------------------------------------------------

JUNK = ["", ":", "::", "level: 7", "level: ²", "level: ٣", "turn: 9", "turn:", "0:", "4: S3",
        "order: 0 0 1 2", "previous: 3 2 1 0", "hands:", "play:", "tribute:", "return:",
        "3 -> 0: HR", "0: pass", "x" * 300, "9" * 5000, "\x00", "\ufeff", "#", "S3 " * 40,
        "players: a, b, c, d", "seat0: Ann", "table: S3 S3 S3", "finished: 0 0",
        "tribute: anti", "1 -> 1: S2", "2: S3 | 3: pass | 0: S4", "{", "}", "[", "null",
        '{"type": "notify"}', '{"stage": "play", "curPos": null}', "NaN", "[[[[[[[[",
        '{"stage": "episodeOver", "order": "0123"}', '{"stage": "tribute", "result": [[0]]}',
        '{"stage": "beginning", "myPos": [1], "handCards": 5}',
        # rejections of the JSON record and the platform log (formats.md): unknown keys,
        # versions, passes, readings, action objects, orders the play did not produce
        ' "version": 99,', ' "bogus": 1,', ' "play": [],', '  {"seat": 1, "pass": "no"},',
        '  {"seat": 1, "pass": true, "cards": "S9"},', '  {"seat": 1, "pass": false},',
        '  {"seat": 0, "cards": "S3", "type": "single", "rank": "Z"},',
        '  {"seat": 0, "cards": "S3", "rank": "3", "typ": "pair"},', '"tags": {"level": 3},',
        '{"type": "notify", "stage": "play", "curPos": 1, "curAction": {}}',
        '{"type": "notify", "stage": "play", "curPos": 1, "curAction": {"type": "PASS"}}',
        '{"type": "notify", "stage": "episodeOver", "order": [3, 2, 1, 0], "curRank": "2", '
        '"restCards": []}', "1e999", "[-1E400]"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i = rng.randrange(len(lines) + 1)
        if op == 0 and lines:
            del lines[min(i, len(lines) - 1)]
        elif op == 1 and lines:
            lines.insert(i, lines[rng.randrange(len(lines))])       # a duplicate line
        elif op == 2:
            lines.insert(i, rng.choice(JUNK))
        elif op == 3 and lines:
            k = min(i, len(lines) - 1)
            line = lines[k]
            j = rng.randrange(len(line) + 1)
            lines[k] = line[:j] + rng.choice(JUNK + list(":#|,-> 0123")) + line[j + 1:]
        elif op == 4 and lines:
            k = min(i, len(lines) - 1)
            lines[k] = lines[k][:rng.randrange(len(lines[k]) + 1)]   # truncated
        elif op == 5:
            lines = lines[:i]
        elif op == 6 and len(lines) > 1:
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
        else:
            # a number anywhere replaced by an absurd one
            k = rng.randrange(len(lines)) if lines else 0
            if lines:
                lines[k] = "".join(rng.choice(["9" * 30, "-1", "4", "²"]) if c.isdigit()
                                   and rng.random() < 0.3 else c for c in lines[k])
    return "\n".join(lines) + rng.choice(["", "\n"])


def json_shapes():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-10, 10 ** 6),
                     st.floats(allow_nan=False), st.text(max_size=8),
                     st.sampled_from(["S3", "HR", "PASS", "play", "beginning", "episodeOver",
                                      "tribute", "back", "notify", "anti-tribute", "2"]))
    keys = st.sampled_from(["type", "stage", "curPos", "curAction", "myPos", "handCards",
                            "order", "restCards", "result", "curRank", "hands", "plays",
                            "seat", "cards", "tribute", "return", "level", "rules",
                            "players", "previous", "tags", "format", "from", "to", "card",
                            "pass", "rank", "antiPos", "greaterPos", "greaterAction",
                            "version", "actions", "bogus"])
    return st.recursive(leaf, lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=6)), max_leaves=25)


NAMES = sorted(LOADERS)


@pytest.mark.parametrize("name", NAMES)
def test_samples_load(name):
    parse, samples = LOADERS[name]
    for text in samples():
        parse(text)                 # the starting points are valid


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes(name, data):
    parse, _ = LOADERS[name]
    _ok(parse, data)
    _ok(parse, data.decode("latin-1"))


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), encoding=st.sampled_from(
    ["utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16", "cp1251"]))
def test_mutated_files(name, seed, encoding):
    parse, samples = LOADERS[name]
    rng = random.Random(seed)
    text = mutate(rng.choice(samples()), rng)
    _ok(parse, text)
    if encoding != "utf-8":
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError:
            return
        _ok(parse, data)


@pytest.mark.parametrize("name", [n for n in NAMES if "json" in n or "platform" in n])
@FUZZ
@given(shape=json_shapes(), lines=st.integers(1, 3))
def test_random_json_shapes(name, shape, lines):
    parse, _ = LOADERS[name]
    text = "\n".join(json.dumps(shape) for _ in range(lines))
    _ok(parse, text)


@pytest.mark.parametrize("name", sorted(CALLS))
@FUZZ
@given(data=st.data())
def test_public_functions(name, data):
    _ok(CALLS[name], data.draw)
