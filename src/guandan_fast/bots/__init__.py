"""Bots that decide from one seat's view, the hint call, and matches."""

from .base import Bot, GreedyBot, RandomBot, make_bot
from .match import MatchResult, match
from .search import SearchBot
from .suggest import suggest

__all__ = ["Bot", "RandomBot", "GreedyBot", "SearchBot", "make_bot", "suggest",
           "match", "MatchResult"]
