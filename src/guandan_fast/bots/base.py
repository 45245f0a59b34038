"""The bot interface and the two simple bots.

A bot decides from one seat's :class:`~guandan_fast.game.view.View` only:

- ``choose(view)``: a legal ``Play`` for the seat to act, or None to pass;
- ``tribute(view, candidates)``: which of the legal tribute cards to pay;
- ``give_back(view, candidates)``: which of the legal return cards to give.

``reset(seed)`` is called by the match harness at the start of every deal
with a seed derived from the match seed and the deal, so a bot's random
choices depend on the deal, never on the worker that plays it.

Bots are named on the command line by specs (``random:7``, ``greedy``,
``search:0.2``): ``guandan_fast.bots.registry``.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

from .._core import Card, Play
from .advice import TributeAdvice, suggest_return, suggest_tribute
from ..engine.endgame import check_seed
from ..engine.moves import hints
from ..errors import BotSpecError, ViewError
from ..game.state import partner
from ..game.view import View

__all__ = ["Bot", "RandomBot", "GreedyBot", "checked_view", "checked_candidates"]


def checked_view(view) -> View:
    """``view`` when it is a View, else a ViewError: what every bot's
    ``choose``, ``tribute`` and ``give_back`` check first."""
    if not isinstance(view, View):
        raise ViewError(f"a bot decides on a View (game.view.View), not {type(view).__name__}")
    return view


def checked_candidates(view, candidates) -> list:
    """The candidates of ``tribute``/``give_back`` as a list: at least one
    Card, each in the view's hand (else a ViewError naming the problem)."""
    checked_view(view)
    if isinstance(candidates, (str, bytes)) or not hasattr(candidates, "__iter__"):
        raise ViewError(f"candidates: the legal cards, a sequence of Card, not "
                        f"{type(candidates).__name__}")
    cands = list(candidates)
    if not cands:
        raise ViewError("candidates: no legal card to give")
    for c in cands:
        if not isinstance(c, Card) or c not in view.hand:
            raise ViewError(f"candidates: {c!r} is not a card of the hand"[:100])
    return cands


class Bot:
    """The interface every bot implements (subclass and override)."""

    #: the spec that rebuilds this bot with make_bot (for records and reports)
    spec: str = "bot"

    def reset(self, seed: int) -> None:
        """Start a new deal; ``seed`` is the deal's seed for this seat."""

    def choose(self, view: View) -> Optional[Play]:
        """The play of the seat to act (``view.seat``); None passes."""
        raise NotImplementedError

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        """One of ``candidates`` (the legal tribute cards) to pay."""
        raise NotImplementedError

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        """One of ``candidates`` (the legal return cards) to give back."""
        raise NotImplementedError


class RandomBot(Bot):
    """Every legal action (each pattern, and the pass when following) with
    equal probability; tribute and return cards likewise."""

    def __init__(self, seed: int = 0):
        self.seed = check_seed(seed, "RandomBot seed", error=BotSpecError)
        self.spec = f"random:{seed}"
        self._rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"{self.seed}:{check_seed(seed, 'reset seed', error=ViewError)}")

    def choose(self, view: View) -> Optional[Play]:
        return self._rng.choice(checked_view(view).legal_actions())

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._rng.choice(checked_candidates(view, candidates))

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._rng.choice(checked_candidates(view, candidates))

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


class GreedyBot(Bot):
    """The hint order (``hints``): the first hint, leading or following.

    One rule on top (decision; the hint order alone would beat its own
    partner): when the partner owns the standing play, pass, unless the
    first hint plays the whole hand out. Tribute and return: the first card
    of ``suggest_tribute`` / ``suggest_return`` (fewest plays left, bombs
    kept).
    """

    spec = "greedy"

    def choose(self, view: View) -> Optional[Play]:
        if checked_view(view).phase != "play" or view.turn != view.seat:
            view.legal_actions()    # raises the ViewError
        order = hints(view.hand_counts, view.rules, view.table)
        if not order:
            return None
        first = order[0]
        if view.table is not None and view.owner == partner(view.seat) \
                and first.size < len(view.hand):
            return None
        return first

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        cands = checked_candidates(view, candidates)
        return _advised(suggest_tribute(view.hand_counts, view.rules), cands)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        cands = checked_candidates(view, candidates)
        return _advised(suggest_return(view.hand_counts, view.rules), cands)

    def __repr__(self) -> str:
        return "GreedyBot()"


def _advised(advice: Sequence[TributeAdvice], candidates: Sequence[Card]) -> Card:
    """The first advised card among the candidates (the advice lists the
    same legal cards; the candidates decide if they ever differ)."""
    allowed = set(candidates)
    for a in advice:
        if a.card in allowed:
            return a.card
    return list(candidates)[0]
