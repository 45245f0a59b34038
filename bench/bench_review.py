"""The whole-deal review of the example deal (examples/record_club.txt):
every decision valued both ways at the default budget on two processes (the
issue's target: within 60 s on this 2-core machine), the double-dummy view
alone, and the old exact-tail-only review (the solver alone, no estimator)
measured in the same run as the baseline.

    python -m pytest bench/bench_review.py -c bench/pytest.ini
"""

from pathlib import Path

import pytest

from guandan_fast.analysis.review import DEFAULT_BUDGET, analyse
from guandan_fast.formats.record import load

CLUB = load(Path(__file__).resolve().parent.parent / "examples" / "record_club.txt")


def _have(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _info(benchmark, a):
    d = [x for x in a.decisions if x.double is not None]
    benchmark.extra_info.update({
        "decisions": len(a.decisions),
        "double_exact": sum(1 for x in d if x.double.exact),
        "single_valued": sum(1 for x in a.decisions if x.single is not None),
        "mistakes_double": len(a.mistakes("double")),
        "mistakes_single": len(a.mistakes("single")),
        "budget": DEFAULT_BUDGET,
    })


def bench_review_exact_tail_only(benchmark):
    a = benchmark.pedantic(lambda: analyse(CLUB, views=("double",), estimator=None, jobs=2),
                           rounds=3, iterations=1)
    _info(benchmark, a)


@pytest.mark.skipif(not _have("guandan_fast.engine.estimate"), reason="no estimator")
def bench_review_double_dummy(benchmark):
    a = benchmark.pedantic(lambda: analyse(CLUB, views=("double",), jobs=2),
                           rounds=3, iterations=1)
    _info(benchmark, a)


@pytest.mark.skipif(not (_have("guandan_fast.engine.estimate") and _have("guandan_fast.bots")),
                    reason="no estimator or bots")
def bench_review_both_views(benchmark):
    a = benchmark.pedantic(lambda: analyse(CLUB, jobs=2), rounds=3, iterations=1)
    _info(benchmark, a)
