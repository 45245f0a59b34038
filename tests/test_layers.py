"""The layer contract (pyproject.toml, [tool.importlinter]) covers the whole
package, and the one import it ignores is what it says it is. The contract
itself is checked by ``lint-imports`` in .ci/run."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "guandan_fast"


def _contracts():
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def test_every_package_and_top_level_module_is_a_layer():
    main = _contracts()[0]
    assert main["type"] == "layers"
    named = {m.strip() for layer in main["layers"] for m in layer.split("|")}
    present = {"cli"}
    for p in SRC.iterdir():
        if p.is_dir() and (p / "__init__.py").exists():
            present.add(f"guandan_fast.{p.name}")
        elif p.suffix == ".py" and p.name != "__init__.py":
            present.add(f"guandan_fast.{p.stem}")
    assert present == named, "a package or module outside the layers (or a layer that is gone)"


def test_the_ignored_import_of_the_package_itself_is_only_the_compiled_core():
    """`from .. import X` is seen as an import of the package's __init__
    (the public façade, which imports every layer), so the contracts ignore
    it: it must only ever fetch the compiled core."""
    seen = 0
    for path in list(SRC.rglob("*.py")) + list((ROOT / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (
                    (node.level == 2 and node.module is None and path.parent != SRC)
                    or (node.level == 1 and node.module is None and path.parent == SRC)
                    or (node.level == 0 and node.module == "guandan_fast")):
                assert [a.name for a in node.names] == ["_core"], (path, node.lineno)
                seen += 1
    assert seen > 0
