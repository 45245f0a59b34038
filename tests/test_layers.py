"""The layer contract (pyproject.toml, [tool.importlinter]) covers the whole
package, and the one import it ignores is what it says it is. The contract
itself is checked by ``lint-imports`` in .ci/run."""

from __future__ import annotations

import ast
import re
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


def test_every_module_of_a_contracted_package_is_in_its_layers():
    """A package with its own layers contract (bots, analysis, cli) names
    every module it holds, so a new module cannot escape the order."""
    for c in _contracts()[1:]:
        if c["type"] != "layers":
            continue
        for container in c["containers"]:
            path = ROOT / "cli" if container == "cli" else SRC / container.split(".", 1)[1]
            named = {m.strip() for layer in c["layers"] for m in layer.split("|")}
            present = {p.stem for p in path.glob("*.py")} - {"__init__", "__main__"}
            assert present == named, f"{container}: modules outside its layers contract"


ARCH = ROOT / "docs" / "architecture.md"


def test_architecture_names_every_module_and_core_part():
    text = ARCH.read_text(encoding="utf-8")
    missing = []
    for p in sorted(SRC.rglob("*.py")) + sorted((ROOT / "cli").glob("*.py")):
        if p.name == "__init__.py":
            continue
        rel = p.relative_to(SRC if SRC in p.parents else ROOT)
        if p.name not in text and f"`{p.stem}`" not in text:
            missing.append(str(rel))
    for p in sorted(SRC.glob("*.pxi")) + [SRC / "_core.pyi", SRC / "gf_port.h"]:
        if f"`{p.name}`" not in text:
            missing.append(p.name)
    for p in sorted((SRC / "report" / "static").iterdir()):
        if f"`{p.name}`" not in text:
            missing.append(f"report/static/{p.name}")
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_architecture_lists_the_core_parts_in_their_include_order():
    text = ARCH.read_text(encoding="utf-8")
    table = text.split("## The compiled core", 1)[1]
    listed = re.findall(r"^\| `(_\w+\.pxi)` \|", table, re.M)
    core = (SRC / "_core.pyx").read_text(encoding="utf-8")
    assert listed == re.findall(r'^include "(_\w+\.pxi)"', core, re.M)


def test_architecture_draws_the_layers_in_the_contract_order():
    text = ARCH.read_text(encoding="utf-8")
    block = text.split("## Layers", 1)[1].split("```")[1]
    drawn = [line.split("  ")[0].strip() for line in block.strip().splitlines()]
    drawn = [[m.strip().rstrip("/") for m in d.split(",")] for d in drawn]
    layers = [[m.strip().replace("guandan_fast.", "") for m in layer.split("|")]
              for layer in _contracts()[0]["layers"]]
    assert [sorted(d) for d in reversed(drawn)] == [sorted(x) for x in layers]
