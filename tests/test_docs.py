"""The documentation is checked: every example of docs/formats.md loads with
the loader it names, and every "RULES §n" of the code names a section of
docs/rules.md."""

import re
from pathlib import Path

import pytest

from guandan_fast.formats.deal import loads_deal
from guandan_fast.formats.hand import loads_hand
from guandan_fast.platform.log import import_platform_log
from guandan_fast.formats.position import dumps_position, loads_position
from guandan_fast.formats.record import dumps, loads
from guandan_fast.formats.record_json import dumps as dumps_json, loads as loads_json

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"<!-- example: ([\w-]+) -->\n```\w*\n(.*?)```", re.S)


def _examples():
    return EXAMPLE.findall((ROOT / "docs" / "formats.md").read_text(encoding="utf-8"))


def _load(kind, text):
    if kind == "hand":
        hand = loads_hand(text)
        assert hand.cards
    elif kind == "deal":
        deal = loads_deal(text)
        assert all(len(h) == 27 for h in deal.hands) and deal.order
    elif kind == "position":
        pos = loads_position(text)
        assert loads_position(dumps_position(pos)) == pos
    elif kind == "record":
        rec = loads(text)
        assert rec.moves and loads(dumps(rec)) == rec
    elif kind == "record-json":
        rec = loads_json(text)
        assert rec.result() is not None and loads_json(dumps_json(rec)) == rec
    elif kind == "platform-log":
        recs = import_platform_log(text)
        assert len(recs) == 1 and recs[0].moves
    else:
        raise AssertionError(f"docs/formats.md: no loader for example kind {kind!r}")


def test_every_format_has_an_example():
    kinds = {k for k, _ in _examples()}
    assert kinds == {"hand", "deal", "position", "record", "record-json", "platform-log"}


@pytest.mark.parametrize("kind,text", _examples(), ids=[k for k, _ in _examples()])
def test_format_example_loads(kind, text):
    _load(kind, text)


def test_rules_references_resolve():
    sections = set(re.findall(r"^## (\d+)\. ", (ROOT / "docs" / "rules.md").read_text(
        encoding="utf-8"), re.M))
    assert {str(n) for n in range(1, 10)} <= sections
    cited = set()
    for path in list((ROOT / "src").rglob("*.py")) + list((ROOT / "src").rglob("*.pxi")) \
            + list((ROOT / "src").rglob("*.pyx")) + list((ROOT / "cli").rglob("*.py")):
        cited |= set(re.findall(r"RULES §(\d+)", path.read_text(encoding="utf-8")))
    assert cited, "no RULES § reference found"
    assert cited <= sections, sorted(cited - sections)
