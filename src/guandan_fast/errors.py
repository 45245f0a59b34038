"""Errors raised on bad input. All are ``ValueError`` subclasses.

``shown`` cuts a piece of the input quoted in a message (a token, a value)
to a readable length: every loader quotes bad input through it."""

from __future__ import annotations

__all__ = [
    "GuandanError",
    "CardParseError",
    "HandError",
    "RulesError",
    "PlayError",
    "PositionError",
    "RecordError",
    "ProtocolError",
    "PlatformConnectionError",
    "EncodingError",
    "InputSizeError",
    "LimitError",
    "ViewError",
    "BotSpecError",
    "MatchError",
    "EstimateError",
    "ReviewError",
    "DealError",
]


SHOWN_CHARS = 30


def shown(text, limit: int = SHOWN_CHARS) -> str:
    """``text`` as an error message quotes it: its first ``limit`` characters
    and ``...`` when it is longer (the caller keeps the whole of it, in the
    exception's ``token`` say). Quote the result with ``!r``.

    >>> shown("S3"), shown("Q" * 40)
    ('S3', 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ...')
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


class GuandanError(ValueError):
    """Base class of every input error of guandan_fast."""


class CardParseError(GuandanError):
    """A token that is not a card. ``token``, ``position`` (1-based token
    index) and ``line`` (1-based, or None) say where."""

    def __init__(self, message: str, token: str = "", position: int | None = None,
                 line: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position
        self.line = line


class HandError(GuandanError):
    """A set of cards that cannot be a hand (a third copy, too many cards)."""


class RulesError(GuandanError):
    """An invalid level or rules setting."""


class PlayError(GuandanError):
    """Cards that are not a valid play, or an ambiguous reading."""


class PositionError(GuandanError):
    """An inconsistent endgame position."""


class RecordError(GuandanError):
    """An illegal or inconsistent deal record; ``line`` names where."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


class ProtocolError(GuandanError):
    """A competition-platform message that breaks its format (PLATFORM.md);
    ``field`` names the key (``actionList[3]``, ``curPos``...) when known."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message if field is None else f"{field}: {message}")
        self.field = field


class PlatformConnectionError(GuandanError):
    """A platform connection that cannot be made or that ends before the
    game result: a bad address, a refused handshake, a silent server, a
    connection closed early (the message says which, and the close code)."""


class EncodingError(GuandanError):
    """A file that is not UTF-8 text (the message says what was found)."""


class InputSizeError(GuandanError):
    """An input larger than any the loaders read
    (``formats.text.MAX_INPUT_BYTES``)."""


class LimitError(GuandanError):
    """A search limit, thread or job count that makes no sense (negative,
    infinite, NaN, or beyond what the machine can count)."""


class ViewError(GuandanError):
    """An inconsistent view of one seat (counts, history, known cards)."""


class BotSpecError(GuandanError):
    """A bot spec that names no bot or has a bad argument (``spec`` holds it)."""

    def __init__(self, message: str, spec: str = ""):
        super().__init__(message)
        self.spec = spec


class MatchError(GuandanError):
    """A bad match setting (deals, jobs, seed, records directory, cluster)."""


class EstimateError(LimitError):
    """An invalid budget or option of ``estimate`` (names the option); a
    LimitError, like the limits of ``solve``."""


class ReviewError(GuandanError):
    """A bad setting of the deal review (``analysis.review.analyse``): a
    view, a budget, a seed (names the option)."""


class DealError(GuandanError):
    """An action a deal does not allow now (``game.deal.DealState``): the
    wrong phase, the wrong seat, a card not held, not a legal tribute or
    return, an illegal play; or a deal that cannot be set up."""


class AnalysisFormatError(GuandanError):
    """A review's JSON document (``formats.analysis_json``) that is not
    JSON, not of this schema or version, or with a field missing or of the
    wrong kind (names the field, e.g. ``decisions[3].double.loss_low``)."""
