"""Shared helpers for the tests: converting between the engine and the
pure-Python reference (tests/reference.py), random hands."""

import itertools
import os
import random
from pathlib import Path

import numpy as np
import pytest

import reference as ref

from guandan_fast import Rules

LEVELS = ref.RANKS


def play_values(result):
    """The (move, proven value or None) pairs of a solve() result's moves."""
    return [(m.move, m.value) for m in result.moves]


def core_pattern(play):
    """The engine's Play as the reference's pattern tuple."""
    t, r, ranks, suit = play.pattern
    return (t, r, tuple(ranks), suit)


def flag_kwargs(rules):
    return {"joker_pair_in_full_house": rules.joker_pair_in_full_house,
            "flush_is_always_bomb": rules.flush_is_always_bomb}


def random_case(rng, max_cards, rich_share=0.5):
    """(tokens, rules) with a random level, size and flags."""
    level = rng.choice(LEVELS)
    n = rng.randint(1, max_cards)
    hand = (ref.random_rich_hand(rng, n, level) if rng.random() < rich_share
            else ref.random_hand(rng, n, level))
    rules = Rules(level=level, joker_pair_in_full_house=rng.random() < 0.25,
                  flush_is_always_bomb=rng.random() < 0.25)
    return hand, rules


def random_counts(rng, n=27):
    deck = list(range(54)) * 2
    counts = np.zeros(54, dtype=np.uint8)
    for slot in rng.sample(deck, n):
        counts[slot] += 1
    return counts


@pytest.fixture
def rng():
    return random.Random(20261129)


# --- slow tests and hypothesis profiles -------------------------------------
# `python -m pytest -q` runs the fast suite; `--slow` (what .ci/run uses) adds
# the tests marked `@pytest.mark.slow` and the long hypothesis profile "ci".

def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow, and hypothesis's long profile")


# Whether this run is the full one (--slow): set by pytest_configure, read
# by by_run() when a test runs.
FULL = False


def pytest_configure(config):
    global FULL
    FULL = bool(config.getoption("--slow"))
    config.addinivalue_line("markers", "slow: long differential or fuzz suites (run with --slow)")
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    settings.register_profile("dev", max_examples=15, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("ci", max_examples=600, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("ci" if config.getoption("--slow") else
                          os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def slow_beyond(values, fast):
    """pytest parameters: the first `fast` values in the default run, the rest
    marked slow (run with --slow): a seeded subset of a differential suite
    that stays fast, the whole suite in CI. A tuple is the values of
    several argument names, as in `slow`."""
    return [v if i < fast else slow(*v) if isinstance(v, tuple) else slow(v)
            for i, v in enumerate(values)]


def slow(*values):
    """One slow pytest parameter (a tuple of values or a single value)."""
    return pytest.param(*values, marks=pytest.mark.slow)


def by_run(fast, full):
    """`full` under --slow (what CI runs), `fast` in the default run: the
    size of a seeded workload (or the part of it to check) in a test whose
    assertions hold whatever the size, so that the default run checks a
    smaller workload (mostly the first cases of the same seeded sequence)
    with the same assertions, and CI the whole. Call it in the test body,
    never in a parameter (the test ids stay the same in both runs)."""
    return full if FULL else fast


_CACHE_DIRS = itertools.count()


@pytest.fixture(scope="session")
def _cache_root(tmp_path_factory):
    return tmp_path_factory.mktemp("xdg_cache")


@pytest.fixture(autouse=True)
def _review_cache_in_tmp(_cache_root, monkeypatch):
    """The evening's review cache (analysis.cache, under XDG_CACHE_HOME by
    default) in a temporary directory of each test's own, never the user's:
    a new path under one session directory, made only when the cache first
    writes (analysis.cache makes its parents), not a directory per test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(_cache_root / f"t{next(_CACHE_DIRS)}"))


@pytest.fixture(scope="session")
def tribute_review():
    """The tribute record reviewed in the deterministic mode (4 playouts,
    seed 1, one job), both views: the exchange with the advice's reasons,
    likely mistakes, Cyrillic names. Shared by the report tests, read only
    (copy it to change it)."""
    from guandan_fast.analysis.review import analyse
    from guandan_fast.formats.record import load
    examples = Path(__file__).resolve().parent.parent / "examples"
    return analyse(load(examples / "record_tribute.txt"), playouts=4, seed=1, jobs=1).to_dict()
