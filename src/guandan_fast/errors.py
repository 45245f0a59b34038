"""Errors raised on bad input. All are ``ValueError`` subclasses.

``shown`` cuts a piece of the input quoted in a message (a token, a value)
to a readable length: every loader quotes bad input through it."""

from __future__ import annotations

from typing import Iterable

__all__ = [
    "GuandanError",
    "LanguageError",
    "CardParseError",
    "HandError",
    "RulesError",
    "PlayError",
    "PositionError",
    "RecordError",
    "MAX_RECORD_ERRORS",
    "ProtocolError",
    "PlatformConnectionError",
    "EncodingError",
    "InputSizeError",
    "LimitError",
    "ViewError",
    "BotSpecError",
    "ModelError",
    "MatchError",
    "ExternalTeamError",
    "EstimateError",
    "ReviewError",
    "DealError",
    "MoveValueError",
    "LayoutError",
    "AnalysisFormatError",
    "NotationWarning",
]


SHOWN_CHARS = 30


def shown(text: object, limit: int = SHOWN_CHARS) -> str:
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
    """A set of cards that cannot be a hand (a third copy, too many cards);
    ``line``: the line of the token that broke it, when read from text."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


class RulesError(GuandanError):
    """An invalid level or rules setting."""


class PlayError(GuandanError):
    """Cards that are not a valid play, or an ambiguous reading."""


class PositionError(GuandanError):
    """An inconsistent endgame position."""


MAX_RECORD_ERRORS = 20


class RecordError(GuandanError):
    """An illegal or inconsistent deal record. ``line`` names where (None
    for a JSON path, which the message names), ``seat`` the seat the line
    belongs to and ``name`` its player's name (the message reads ``line 22
    (Boris): ...``), ``reason`` the message without the place.

    A loader reports every error of a record it can find, up to
    MAX_RECORD_ERRORS: ``errors`` lists them (this error alone when there is
    one), ``more`` says whether some were left out; the message of several
    is a line of count, then one line per error.

    >>> e = RecordError.of([RecordError("unknown card token 'X9'", 3),
    ...                     RecordError("seat 1 does not hold S9", 9, seat=1, name="Boris")])
    >>> print(e)
    2 errors in the record:
    line 3: unknown card token 'X9'
    line 9 (Boris): seat 1 does not hold S9
    >>> e.line, [x.line for x in e.errors]
    (3, [3, 9])
    """

    def __init__(self, message: str, line: int | None = None, seat: int | None = None,
                 name: str | None = None):
        where = None if line is None else f"line {line}" + (f" ({name})" if name else "")
        super().__init__(message if where is None else f"{where}: {message}")
        self.line = line
        self.seat = seat
        self.name = name
        self.reason = message
        self.errors: list[RecordError] = [self]
        self.more = False

    @classmethod
    def of(cls, errors: Iterable[RecordError], more: bool = False) -> "RecordError":
        """One error standing for ``errors`` (each a RecordError): the error
        itself when there is one."""
        first = list(errors)[:MAX_RECORD_ERRORS]
        if len(first) == 1 and not more:
            return first[0]
        head = (f"{len(first)} errors in the record"
                + (f" (the first {len(first)}; more not listed)" if more else "") + ":")
        e = cls(head + "".join("\n" + str(x) for x in first))
        e.line, e.seat, e.name = first[0].line, first[0].seat, first[0].name
        e.errors, e.more = first, more
        return e


class ProtocolError(GuandanError):
    """A competition-platform message that breaks its format (docs/platform.md);
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


class ModelError(GuandanError):
    """A model file of the distilled policy that cannot be used (names the
    file and the array at fault)."""


class MatchError(GuandanError):
    """A bad match setting (deals, jobs, seed, records directory, cluster)."""


class ExternalTeamError(MatchError):
    """A bad external team (``exec:COMMAND``) of a match: names the option
    and the word of the command."""


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


class LanguageError(GuandanError):
    """A language the reports do not write (they write ``en``, ``ru``,
    ``zh``)."""


class MoveValueError(GuandanError):
    """A MoveValue that cannot be one: a team other than 0 or 1."""


class LayoutError(GuandanError):
    """A text width the reports cannot lay out to (not a whole number of
    columns, 0 for no wrapping or 20 and more)."""


class NotationWarning(UserWarning):
    """A card token read as the rules say but easy to misread: Latin and
    Cyrillic look-alike letters mixed (``SТ`` with a Cyrillic Т, the ace),
    or a Cyrillic ``С``/``Н`` for the Latin suit letter. The message names
    the token as typed and the card it was read as. A warning, not an
    error: the loaders collect them (``Record.warnings``) and the CLI prints
    them on stderr."""


class AnalysisFormatError(GuandanError):
    """A review's JSON document (``formats.analysis_json``) that is not
    JSON, not of this schema or version, or with a field missing or of the
    wrong kind (names the field, e.g. ``decisions[3].double.loss_low``)."""
