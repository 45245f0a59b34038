"""guandan_fast: a fast, exact analysis engine for Guandan (掼蛋).

>>> from guandan_fast import parse_cards, Rules, classify
>>> [(p.type, p.rank) for p in classify(parse_cards("S9 ST SJ SQ SK"), Rules(level=2))]
[('straight', 'K'), ('straight_flush', 'K')]
"""

from ._core import Card, Play
from .model.cards import CARDS, format_cards, parse_card, parse_cards
from .errors import (BotSpecError, CardParseError, GuandanError, HandError, MatchError,
                     PlayError, PositionError, RecordError, RulesError, ViewError,
                     EstimateError)
from .engine.decomposition import decompose, min_plays, min_plays_batch
from .engine.endgame import EndgameResult, Position, solve
from .engine.estimate import Estimate, estimate
from .engine.value import MoveValue
from .model.counts import from_counts, to_counts
from .engine.moves import beating_plays, hints, plays, plays_array
from .model.rules import Rules, beats, classify, read_play
from .game.view import View, sample_deals
from .bots import (Bot, GreedyBot, MatchResult, RandomBot, SearchBot, make_bot,
                   match, suggest)
from .bots.advice import TributeAdvice, suggest_return, suggest_tribute
from .game.tribute import (TributePlan, anti_tribute, return_candidates, tribute_candidates,
                           tribute_plan)

__version__ = "0.2.0.dev0"

__all__ = [
    "Card", "CARDS", "Play", "Rules", "parse_card", "parse_cards", "format_cards",
    "classify", "read_play", "beats", "to_counts", "from_counts",
    "plays", "beating_plays", "hints", "plays_array",
    "min_plays", "decompose", "min_plays_batch",
    "Position", "solve", "EndgameResult", "estimate", "Estimate", "MoveValue",
    "GuandanError", "CardParseError", "HandError", "RulesError", "PlayError",
    "PositionError", "RecordError", "ViewError", "BotSpecError", "MatchError", "EstimateError",
    "tribute_candidates", "return_candidates", "anti_tribute", "tribute_plan",
    "TributePlan", "suggest_tribute", "suggest_return", "TributeAdvice",
    "View", "sample_deals", "Bot", "RandomBot", "GreedyBot", "SearchBot", "make_bot",
    "suggest", "match", "MatchResult",
]
