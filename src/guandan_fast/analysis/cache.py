"""Reviews kept on disk: a record reviewed once with given settings is not
reviewed again (``gd-analyze evening``, ``analysis.batch.review_records``).

A cached review is a file ``KEY.json`` in the cache directory, the review's
JSON document (``formats.analysis_json``) without the ``file`` it came from.
``KEY`` is the SHA-256 of the record's content (its canonical JSON form,
``formats.record_json.dumps``: the same deal in a text file or a JSON file,
under any name, is one key), the settings that change the analysis (views,
budget, playouts, seed, solve_cards, the check factor) and the mark rule's
constants (the re-check's factor and deals, the tiers, the unclear width),
the schema version and the package's version. So a cached review is used only
for the same record, the same settings and the same version of the program:
any change of one gives another key (the old file is then not read again;
delete the directory to reclaim the space). A file that does not load as a
valid document is ignored and written again.

Where: ``--cache DIR``; by default ``$XDG_CACHE_HOME/guandan_fast/reviews``
(``~/.cache/guandan_fast/reviews`` without ``XDG_CACHE_HOME``);
``--no-cache`` turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Optional

from ..errors import GuandanError

__all__ = ["cache_key", "default_cache_dir", "ReviewCache", "KEYED_OPTIONS"]

# the options of analyse() that change the analysis (jobs, dask and progress do not)
KEYED_OPTIONS = ("views", "budget", "playouts", "seed", "solve_cards", "check_factor",
                 "min_plays", "tribute", "opening")


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("guandan_fast")
    except Exception:          # pragma: no cover - not installed (a source tree)
        return "unknown"


def cache_key(record, options: dict) -> str:
    """The key of a record's review with these ``analyse`` options (the
    module docstring)."""
    from ..formats.analysis_json import VERSION
    from ..formats.record_json import dumps
    from .engines import CHECK_DEALS, CHECK_FACTOR, CHECK_MOVES
    from .judge import TIERS, UNCLEAR_WIDTH
    settings = {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in sorted(options.items()) if k in KEYED_OPTIONS}
    # the defaults of the mark's rule too: a change of them is another key
    rule = {"check_factor": CHECK_FACTOR, "check_deals": CHECK_DEALS,
            "check_moves": CHECK_MOVES, "tiers": TIERS,
            "unclear_width": UNCLEAR_WIDTH}
    blob = json.dumps({"record": dumps(record), "settings": settings, "rule": rule,
                       "schema": VERSION, "program": _version()},
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "guandan_fast" / "reviews"


class ReviewCache:
    """The cached reviews of one directory (created when first written)."""

    def __init__(self, directory):
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> Optional[dict]:
        """The cached document, or None (none, or one that does not load)."""
        from ..formats.analysis_json import load_path
        p = self.path(key)
        if not p.is_file():
            return None
        try:
            return load_path(str(p))
        except (GuandanError, OSError):
            return None

    def put(self, key: str, data: dict) -> None:
        """Keep a document (written to a temporary name, then renamed, so a
        reader never sees half a file)."""
        from ..formats.analysis_json import dumps
        self.directory.mkdir(parents=True, exist_ok=True)
        doc = {k: v for k, v in data.items() if k != "file"}
        tmp = self.path(key).with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(dumps(doc), encoding="utf-8")
        os.replace(tmp, self.path(key))
