"""Run the doctests of the installed package's modules."""

import doctest
import importlib
import pkgutil

import pytest

import guandan_fast

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(guandan_fast.__path__, "guandan_fast.")
    if not name.endswith(("._core", "__main__"))
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_core_doctests():
    from guandan_fast import _core
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(_core.Card, "Card", globs={"Card": _core.Card})
    assert tests and any(t.examples for t in tests)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_readme_examples():
    from pathlib import Path
    readme = Path(__file__).resolve().parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
