"""Bots that decide from one seat's view, the tribute advice, the hint call,
and matches."""

from .advice import TributeAdvice, exchange_advice, suggest_return, suggest_tribute
from .base import Bot, GreedyBot, RandomBot
from .match import MatchResult, match
from .registry import BotKind, bot_names, make_bot, register
from .search import SearchBot
from .suggest import suggest

__all__ = ["Bot", "RandomBot", "GreedyBot", "SearchBot", "make_bot", "register", "bot_names",
           "BotKind", "suggest", "match", "MatchResult", "TributeAdvice",
           "suggest_tribute", "suggest_return", "exchange_advice"]
