"""A deal review as one JSON document (``gd-analyze game --json-out``).

The review (``analysis.review.analyse``) is computed once; the text, the
page in each language and the evening page are renderings of this document
(``report.text.render_text``, ``report.html.render_html``,
``report.evening``), which read nothing else. The document is
``Analysis.to_dict()``::

    {"schema": "guandan-review", "version": 2,
     "tags": {...}, "level": "7", "players": [...] | null, "hands": [...],
     "decisions": [{"index": 0, "kind": "tribute", "seat": 3, ...,
                    "double": {"value": .., "chosen": {..}, "loss": ..,
                               "mistake": "proven" | "likely" | null,
                    "tier": "inaccuracy" | "mistake" | "blunder" | null,
                    "unclear": false, "check": {...} | null,
                               ...} | null,
                    "single": {...} | null}, ...],
     "opening": {...}, "graph": {...}, "summary": [...], "accuracy": {...},
     "exchange": [...], "mistakes": [...], "first_mistake": 3 | null,
     "notes": [...], "settings": {...}}

``loads(text)`` (or ``validate(data)`` for data already parsed, as every
renderer calls it on the document it is given) checks the document: the
schema name and version, every field
a renderer reads with its kind (string, integer, number, list, object, null
where allowed; cards as canonical tokens, a play's type and rank, the level)
and the indices that refer to decisions. A document that is
not JSON, of another schema or version, or with a field missing or of the
wrong kind raises ``AnalysisFormatError`` naming the field
(``decisions[3].double.loss_low``). ``dumps(data)`` writes it (keys in the
order given, UTF-8 text, so two equal analyses are equal bytes).

Version 2 adds, per decision, ``breaks`` (the structure of the mover's hand
that the move breaks, or null: ``analysis.structure``) and, per view,
``line`` (a mark's better line, or null: ``analysis.engines.line_task``:
``source`` "solver" or "policy", the better ``move`` and its ``seat``, the
``hands`` after it, the ``plays`` after it, ``over``, ``result`` and the
proven ``value``); a line is checked move by move against its hands. A
version 1 document (without them) is still read.

>>> loads('{"schema": "guandan-review", "version": 9}')
Traceback (most recent call last):
...
guandan_fast.errors.AnalysisFormatError: version: this reader knows versions 1..2 of the guandan-review schema, not 9
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import AnalysisFormatError, shown
from ..model.cards import TOKENS
from ..model.rules import PLAY_TYPES
from .text import loads_json

__all__ = ["SCHEMA", "EVENING_SCHEMA", "VERSION", "VERSIONS", "loads", "dumps", "validate",
           "validate_evening", "validate_reviews", "load_path", "evening_document"]

SCHEMA = "guandan-review"
EVENING_SCHEMA = "guandan-evening"     # an evening: its reviews and the records that failed
VERSION = 2
VERSIONS = (1, 2)     # read: version 1 (no better lines, no broken structures) and 2
MAX_BYTES = 64 * 1024 * 1024        # a deal's review is well under 1 MB

KINDS = ("tribute", "return", "play")
VIEWS = ("double", "single")
TIERS = ("inaccuracy", "mistake", "blunder")
MAX_NUMBER = 10 ** 15     # a number of a document lies within ±MAX_NUMBER,
MAX_INTEGER = 2 ** 63 - 1  # an integer-only field (a count, an index, a seed) within ±MAX_INTEGER
CERTAINTY = ("proven", "likely")
METHODS = ("solve", "estimate", "suggest", "sample", "forced", "")


# -- the field kinds ---------------------------------------------------------------

class _Kind:
    """One kind of field: ``check(value, where)`` raises naming ``where``."""

    def check(self, value, where: str) -> None:          # pragma: no cover
        raise NotImplementedError


def _fail(where: str, what: str):
    raise AnalysisFormatError(f"{where}: {what}")


def _text(v) -> str:
    """A value as an error quotes it (``errors.shown``); an integer too long
    to write (Python refuses ints of more than 4,300 digits) by its size."""
    if isinstance(v, int) and v.bit_length() > 64:
        return f"an integer of {v.bit_length()} bits"
    return shown(str(v))


def _type_name(v) -> str:
    if v is None:
        return "null"
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


class _Scalar(_Kind):
    def __init__(self, name: str, types: tuple, choices=None, least=None, most=None):
        self.name, self.types, self.choices = name, types, choices
        self.least, self.most = least, most

    def check(self, value, where):
        if isinstance(value, bool) and bool not in self.types:
            _fail(where, f"expected {self.name}, not {_type_name(value)}")
        if not isinstance(value, self.types):
            _fail(where, f"expected {self.name}, not {_type_name(value)}")
        if isinstance(value, float) and value != value:
            _fail(where, "expected a number, not NaN")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            most = MAX_NUMBER if float in self.types else MAX_INTEGER
            if not -most <= value <= most:
                _fail(where, f"expected a number within ±{most}, not {_text(value)}")
        if self.choices is not None and value not in self.choices:
            _fail(where, f"{_text(value)!r} is not one of "
                         + ", ".join(repr(c) for c in self.choices))
        if self.least is not None and value < self.least:
            _fail(where, f"{value!r} is less than {self.least}")
        if self.most is not None and value > self.most:
            _fail(where, f"{value!r} is more than {self.most}")


def _choice(*choices):
    return _Scalar("one of " + ", ".join(repr(c) for c in choices), (str,), choices)


STR = _Scalar("a string", (str,))
INT = _Scalar("an integer", (int,))
NAT = _Scalar("an integer 0 or more", (int,), least=0)
SEAT = _Scalar("a seat 0..3", (int,), least=0, most=3)
NUM = _Scalar("a number", (int, float))
VALUE = _Scalar("a number -6..6", (int, float), least=-6, most=6)
BOOL = _Scalar("true or false", (bool,))


class _Cards(_Kind):
    """Cards as the document writes them: canonical tokens (``S3 HT SB``)
    separated by single spaces, none for an empty hand; ``one``: exactly
    one card."""

    _KNOWN = frozenset(TOKENS)

    def __init__(self, one: bool = False):
        self.one = one

    def check(self, value, where):
        STR.check(value, where)
        toks = value.split(" ") if value else []
        if self.one and len(toks) != 1:
            _fail(where, f"expected one card, not {shown(value)!r}")
        for t in toks:
            if t not in self._KNOWN:
                _fail(where, f"{shown(t)!r} is not a card (canonical tokens: S3, HT, SB, HR)")


class _Null(_Kind):
    def __init__(self, kind: _Kind):
        self.kind = kind

    def check(self, value, where):
        if value is not None:
            self.kind.check(value, where)


class _List(_Kind):
    def __init__(self, item: _Kind, length=None):
        self.item, self.length = item, length

    def check(self, value, where):
        if not isinstance(value, list):
            _fail(where, f"expected a list, not {_type_name(value)}")
        if self.length is not None and len(value) != self.length:
            _fail(where, f"expected {self.length} entries, not {len(value)}")
        for i, x in enumerate(value):
            self.item.check(x, f"{where}[{i}]")


class _Obj(_Kind):
    """An object with these keys (all required unless in ``optional``);
    other keys are allowed only with ``open``."""

    def __init__(self, fields: dict, optional: tuple = (), open: bool = False):
        self.fields, self.optional, self.open = fields, set(optional), open

    def check(self, value, where):
        if not isinstance(value, dict):
            _fail(where, f"expected an object, not {_type_name(value)}")
        for key, kind in self.fields.items():
            sub = f"{where}.{key}" if where else key
            if key not in value:
                if key in self.optional:
                    continue
                _fail(sub, "missing")
            kind.check(value[key], sub)
        if not self.open:
            for key in value:
                if key not in self.fields:
                    _fail(f"{where}.{key}" if where else str(key),
                          "unknown field (known: " + ", ".join(self.fields) + ")")


class _Map(_Kind):
    """An object of string keys (one of ``keys`` when given), each value of
    one kind."""

    def __init__(self, item: _Kind, keys: tuple = ()):
        self.item, self.keys = item, keys

    def check(self, value, where):
        if not isinstance(value, dict):
            _fail(where, f"expected an object, not {_type_name(value)}")
        for k, v in value.items():
            if not isinstance(k, str):
                _fail(where, f"a key that is not a string: {_text(k)}")
            if self.keys and k not in self.keys:
                _fail(f"{where}.{shown(k)}", "unknown field (known: " + ", ".join(self.keys) + ")")
            self.item.check(v, f"{where}.{k}")


class _Any(_Kind):
    def check(self, value, where):
        pass


ANY = _Any()

CARDS = _Cards()
CARD = _Cards(one=True)
RANK = _Scalar("a rank character", (str,), choices=tuple("23456789TJQKABR"))
LEVEL = _Scalar("a level 2..A", (str,), choices=tuple("23456789TJQKA"))
PLAY_TYPE = _choice(*PLAY_TYPES, "card")      # "card": a tribute or return card
MOVE = _Null(_Obj({"cards": CARDS, "type": PLAY_TYPE, "rank": RANK}))
MOVE_VALUE = _Obj({"move": MOVE, "mean": VALUE, "low": VALUE, "high": VALUE, "exact": BOOL,
                   "samples": _Null(NAT), "bounds": _List(VALUE, 2)})
RESULT = _Scalar("a result -3..3", (int,), least=-3, most=3)
LINE = _Obj({"source": _choice("solver", "policy"), "seat": SEAT, "move": MOVE,
             "hands": _List(CARDS, 4), "plays": _List(_Obj({"seat": SEAT, "move": MOVE})),
             "over": BOOL, "result": _Null(RESULT), "value": _Null(RESULT)})
BREAKS = _Null(_Obj({"cards": CARDS, "type": PLAY_TYPE, "rank": RANK, "size": NAT,
                     "low": _Null(RANK), "high": _Null(RANK)}))
VALUATION = _Null(_Obj({
    "view": _choice(*VIEWS), "method": _choice(*METHODS), "value": _Null(VALUE),
    "exact": BOOL, "chosen": _Null(MOVE_VALUE), "best": _List(MOVE_VALUE),
    "loss": VALUE, "loss_low": VALUE, "loss_high": VALUE, "loss_proven": VALUE,
    "mistake": _Null(_choice(*CERTAINTY)), "tier": _Null(_choice(*TIERS)), "unclear": BOOL,
    "check": _Null(_Obj({"factor": NUM, "screened": _Obj({"loss": VALUE, "loss_low": VALUE,
                                                          "loss_high": VALUE}),
                         "confirmed": BOOL, "samples": _Null(NAT), "paired": BOOL,
                         "error": _Null(STR)})),
    "moves": _List(MOVE_VALUE), "seconds": _Null(NUM), "line": _Null(LINE),
    "unclear_by": _Null(_Obj({"what": _choice("position", "move", "loss"), "low": VALUE,
                              "high": VALUE}))},
    optional=("line", "unclear_by")))
DECISION = _Obj({
    "index": NAT, "kind": _choice(*KINDS), "seat": SEAT, "move": MOVE,
    "move_index": _Null(NAT), "table": MOVE, "cards_left": NAT, "hands": _List(CARDS, 4),
    "legal": NAT, "forced": BOOL, "min_plays_before": _Null(NAT),
    "min_plays_after": _Null(NAT), "breaks": BREAKS, "double": VALUATION,
    "single": VALUATION}, optional=("breaks",))
POINT = _Null(_Obj({"mean": VALUE, "low": VALUE, "high": VALUE, "exact": BOOL}))
LOST = {"judged": NAT, "mistakes": NAT, "proven": NAT, "lost": NUM, "lost_low": NUM,
        "lost_high": NUM, "lost_proven": NUM, "largest": _Null(_List(NUM, 2)),
        "unclear": NAT, "accurate": NAT, "accuracy": _Null(NUM), "tiers": _Map(NAT, TIERS)}
SUMMARY = _Obj({"seat": SEAT, "decisions": NAT, "judged": NAT,
                "double": _Obj(LOST), "single": _Obj(LOST)})
class _OneOf(_Kind):
    """An object whose ``key`` field picks its kind among ``kinds``."""

    def __init__(self, key: str, kinds: dict):
        self.key, self.kinds = key, kinds

    def check(self, value, where):
        if not isinstance(value, dict):
            _fail(where, f"expected an object, not {_type_name(value)}")
        which = value.get(self.key)
        if not isinstance(which, str) or which not in self.kinds:
            _fail(f"{where}.{self.key}", f"{_text(which)!r} is not one of "
                                         + ", ".join(repr(k) for k in self.kinds))
        self.kinds[which].check(value, where)


def _note(**params) -> _Obj:
    """A note's fields: its key (chosen by NOTE) and these parameters."""
    return _Obj({"key": STR, "params": _Obj(params)})


# the notes a review writes (analysis.review, analysis.engines), each with its
# parameters: a document's note is one of them, so the report can word it
_WHAT = _Obj({"kind": _choice("play", "tribute", "return"), "i": NAT})
_WHAT_OPENING = _Obj({"kind": _choice("opening"), "i": _choice("deal", "exchange", "start")})
NOTE = _OneOf("key", {
    "no_estimator": _note(), "no_suggest": _note(),
    "estimated": _note(n=NAT),
    "refused": _note(what=_OneOf("kind", {"play": _WHAT, "tribute": _WHAT,
                                                    "return": _WHAT,
                                                    "opening": _WHAT_OPENING}),
                     error=STR),
    "import": _note(text=STR)})
# the parts of a tribute advice's reason (bots.advice), each with its
# parameters: a bomb the card breaks or builds is a bomb dict
_NONE = _Scalar("null", (type(None),))
_BOMB = _OneOf("type", {
    "bomb": _Obj({"type": STR, "rank": _Scalar("a rank 2..A", (str,), tuple("23456789TJQKA")),
                  "suit": _NONE, "size": _Scalar("a size 4..10", (int,), least=4, most=10)}),
    "straight_flush": _Obj({"type": STR, "rank": _Scalar("a top 5..A", (str,),
                                                         tuple("56789TJQKA")),
                            "suit": _choice(*"SHCD"), "size": _Scalar("5", (int,), (5,))}),
    "joker_bomb": _Obj({"type": STR, "rank": _choice("R"), "suit": _NONE,
                        "size": _Scalar("4", (int,), (4,))})})
_COUNTS = {"before": NAT, "after": NAT}
REASON = _OneOf("key", {
    **{k: _note(**_COUNTS) for k in ("plays", "fewer_bombs", "receiver_plays", "more_bombs")},
    **{k: _note(bomb=_BOMB) for k in ("breaks", "weakens", "completes", "strengthens")},
    **{k: _note() for k in ("keeps_bombs", "mistake", "unavoidable")}})
ADVICE = _Obj({"kind": _choice("tribute", "return"), "giver": SEAT, "receiver": SEAT,
               "card": CARD, "best": _Null(CARD), "chosen_index": INT, "differs": BOOL,
               "reasons": _List(REASON),
               "choices": _List(_Obj({"card": CARD}, open=True))})
SETTINGS = _Obj({"views": _List(_choice(*VIEWS)), "budget": NUM, "playouts": _Null(NAT),
                 "seed": NAT,
                 "solve_cards": NAT, "check_factor": _Null(NUM), "tiers": _Map(NUM, TIERS),
                 "unclear_width": NUM, "seconds": _Null(NUM)})
DOCUMENT = _Obj({
    "schema": _choice(SCHEMA), "version": INT,
    "tags": _Map(STR), "level": LEVEL, "players": _Null(_List(STR, 4)),
    "hands": _List(CARDS, 4), "hands_after_tribute": _List(CARDS, 4), "anti_tribute": BOOL,
    "result": _Null(RESULT), "finished": _List(SEAT),
    "decisions": _List(DECISION), "exchange": _List(ADVICE),
    "opening": _Obj({"deal": _Null(MOVE_VALUE), "start": _Null(MOVE_VALUE),
                     "exchange": _Null(MOVE_VALUE)}),
    "graph": _Obj({"double": _List(POINT), "single": _List(POINT)}),
    "summary": _List(SUMMARY, 4),
    "mistakes": _List(NAT), "first_mistake": _Null(NAT),
    "notes": _List(NOTE),
    "settings": SETTINGS,
    "file": STR,
}, optional=("file",))


def validate(data: Any) -> dict:
    """``data`` checked as a review document (the module docstring); returns
    it. ``AnalysisFormatError`` names the first bad field."""
    if not isinstance(data, dict):
        _fail("document", f"expected an object, not {_type_name(data)}")
    if data.get("schema") != SCHEMA:
        _fail("schema", f"expected {SCHEMA!r} (a review made by gd-analyze game --json-out), "
                        f"not {_text(data.get('schema'))!r}")
    _check_version(data, SCHEMA)
    DOCUMENT.check(data, "")
    decisions = data["decisions"]
    if len(set(data["finished"])) != len(data["finished"]):
        _fail("finished", f"a seat twice in {data['finished']}")
    for i, d in enumerate(decisions):
        if d["index"] != i:
            _fail(f"decisions[{i}].index", f"expected {i}, not {d['index']}")
        _check_kinds(d, f"decisions[{i}]")
        if data["version"] >= 2 and "breaks" not in d:
            _fail(f"decisions[{i}].breaks", "missing")
        for view in VIEWS:
            v = d[view]
            if v is not None and v["view"] != view:
                _fail(f"decisions[{i}].{view}.view", f"expected {view!r}")
            if v is not None and data["version"] >= 2 and "line" not in v:
                _fail(f"decisions[{i}].{view}.line", "missing")
            if v is not None and v.get("line") is not None:
                _check_line(v["line"], f"decisions[{i}].{view}.line")
    n = len(decisions)
    for key in ("double", "single"):
        if len(data["graph"][key]) != n:
            _fail(f"graph.{key}", f"expected one point per decision ({n}), "
                                  f"not {len(data['graph'][key])}")
    for k, i in enumerate(data["mistakes"]):
        if i >= n:
            _fail(f"mistakes[{k}]", f"no decision {i}")
        if not any(decisions[i][v] and decisions[i][v]["mistake"] for v in VIEWS):
            _fail(f"mistakes[{k}]", f"decision {i} has no mark")
    if data["first_mistake"] is not None and data["first_mistake"] not in data["mistakes"]:
        _fail("first_mistake", f"{data['first_mistake']} is not among the mistakes")
    for k, e in enumerate(data["exchange"]):
        if e["differs"] and e["best"] is None:
            _fail(f"exchange[{k}].best", "missing for a card that differs from the advice")
    for s, row in enumerate(data["summary"]):
        if row["seat"] != s:
            _fail(f"summary[{s}].seat", f"expected {s}")
        for view in VIEWS:
            big = row[view]["largest"]
            if big is not None and not (isinstance(big[0], int) and 0 <= big[0] < n):
                _fail(f"summary[{s}].{view}.largest", f"no decision {big[0]}")
    return data


def _check_kinds(d: dict, where: str) -> None:
    """What a decision's kind implies: a play has its place in the play
    (``move_index``) and its moves, table and broken structure are plays; a
    tribute or return gives a card."""
    play = d["kind"] == "play"
    if play and d["move_index"] is None:
        _fail(f"{where}.move_index", "a play's place in the play is missing (null)")
    for key in ("move", "table", "breaks"):
        m = d.get(key)
        if m is not None and (m["type"] == "card") != (not play and key == "move"):
            _fail(f"{where}.{key}.type", f"{m['type']!r} in a {d['kind']} decision"
                  + (" (a play has a play type)" if play or key != "move" else
                     " (a tribute or return gives a card: 'card')"))


def _check_version(data: dict, schema: str) -> None:
    v = data.get("version")
    if type(v) is not int or v not in VERSIONS:
        _fail("version", f"this reader knows versions {VERSIONS[0]}..{VERSIONS[-1]} of the "
                         f"{schema} schema, not {_text(v)}")


def _check_line(line: dict, where: str) -> None:
    """A better line's own consistency: each seat in turn holds the cards
    it plays (from ``hands``, the hands after the better move), and the
    result only where the line ends the deal."""
    held = [h.split() for h in line["hands"]]
    for k, p in enumerate(line["plays"]):
        if p["move"] is None:
            continue
        hand = held[p["seat"]]
        for c in p["move"]["cards"].split():
            if c not in hand:
                _fail(f"{where}.plays[{k}].move", f"seat {p['seat']} does not hold "
                                                  f"{shown(c)!r} at this point of the line")
            hand.remove(c)
    if line["result"] is not None and not line["over"]:
        _fail(f"{where}.result", "a result for a line that does not end the deal")


EVENING = _Obj({"schema": _choice(EVENING_SCHEMA), "version": INT,
                "records": _List(_Obj({"file": STR}, open=True)),
                "errors": _List(_Obj({"file": STR, "error": STR}))})


def evening_document(reviews: list, errors: list) -> dict:
    """An evening as one document: its reviews (each a review document with
    its ``file``) and the records that did not load or review."""
    return {"schema": EVENING_SCHEMA, "version": VERSION, "records": list(reviews),
            "errors": [{"file": n, "error": m} for n, m in errors]}


def validate_evening(data: Any) -> dict:
    """An evening document checked (each review as ``validate`` checks
    one; a bad field is named with its place, ``records[2].decisions[0]...``)."""
    if not isinstance(data, dict):
        _fail("document", f"expected an object, not {_type_name(data)}")
    _check_version(data, EVENING_SCHEMA)
    EVENING.check(data, "")
    validate_reviews(data["records"])
    return data


def validate_reviews(reviews: Any, errors: Any = None) -> tuple[list, list]:
    """What the evening's renderers take, checked: ``reviews`` a list of
    review documents (each as ``validate`` checks one; a bad field is named
    ``records[2].decisions[0]...``) and ``errors`` None or a list of
    (file, message) pairs of strings, the records that failed
    (``errors[1]``). Returns both as lists."""
    if not isinstance(reviews, (list, tuple)):
        _fail("records", f"expected a list of review documents, not {_type_name(reviews)}")
    failed = [] if errors is None else errors
    if not isinstance(failed, (list, tuple)):
        _fail("errors", f"expected a list of (file, message) pairs, not {_type_name(errors)}")
    for i, e in enumerate(failed):
        if not (isinstance(e, (list, tuple)) and len(e) == 2
                and all(isinstance(x, str) for x in e)):
            _fail(f"errors[{i}]", "expected a (file, message) pair of strings")
    for i, r in enumerate(reviews):
        try:
            validate(r)
        except AnalysisFormatError as e:
            raise AnalysisFormatError(f"records[{i}].{e}") from None
    return list(reviews), [(e[0], e[1]) for e in failed]


def loads(text, evening: bool = False) -> dict:
    """A review document from its JSON text (str or UTF-8 bytes), validated;
    with ``evening``, either a review or an evening document (which one:
    its ``schema``)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            _fail("document", f"more than {MAX_BYTES} bytes")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            _fail("document", f"not UTF-8 text ({e.reason} at byte {e.start})")
    if not isinstance(text, str):
        _fail("document", f"expected JSON text, not {type(text).__name__}")
    if len(text) > MAX_BYTES:
        _fail("document", f"more than {MAX_BYTES} characters")
    try:        # a key given twice, a huge number, NaN, deep nesting: refused
        data = loads_json(text, error=AnalysisFormatError)
    except AnalysisFormatError as e:
        _fail("document", f"not JSON: {e}" if "not valid JSON" in str(e) else str(e))
    if evening and isinstance(data, dict) and data.get("schema") == EVENING_SCHEMA:
        return validate_evening(data)
    return validate(data)


def dumps(data: dict) -> str:
    """The document as JSON text (UTF-8 characters, indented, a final
    newline): equal documents give equal text."""
    return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def load_path(path: str, evening: bool = False) -> dict:
    """A review document read from a file (see ``loads``)."""
    with open(path, "rb") as f:
        return loads(f.read(MAX_BYTES + 1), evening=evening)
