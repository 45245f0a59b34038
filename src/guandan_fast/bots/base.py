"""The bot interface, the two simple bots, and bot specs.

A bot decides from one seat's :class:`~guandan_fast.game.view.View` only:

- ``choose(view)``: a legal ``Play`` for the seat to act, or None to pass;
- ``tribute(view, candidates)``: which of the legal tribute cards to pay;
- ``give_back(view, candidates)``: which of the legal return cards to give.

``reset(seed)`` is called by the match harness at the start of every deal
with a seed derived from the match seed and the deal, so a bot's random
choices depend on the deal, never on the worker that plays it.

Specs name bots on the command line: ``random``, ``random:7`` (seed 7),
``greedy``, ``search`` (0.2 s a decision), ``search:0.05``, ``policy`` (the
compiled house policy, bots/policy.py), ``rollout`` (rollouts of the policy,
bots/rollout.py), and keyword arguments after a comma:
``search:0.2,samples=12,playouts=400``.

>>> make_bot("random:7")
RandomBot(seed=7)
>>> make_bot("greedy")
GreedyBot()
>>> make_bot("minimax")
Traceback (most recent call last):
...
guandan_fast.errors.BotSpecError: unknown bot 'minimax' in spec 'minimax': use random, greedy, search, policy or rollout
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

from .._core import Card, Play
from ..engine.moves import hints
from ..errors import BotSpecError, GuandanError
from ..game.state import partner
from ..game.tribute import suggest_return, suggest_tribute
from ..game.view import View

__all__ = ["Bot", "RandomBot", "GreedyBot", "make_bot", "BOT_NAMES"]

BOT_NAMES = ("random", "greedy", "search", "policy", "rollout")


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
        self.seed = seed
        self.spec = f"random:{seed}"
        self._rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"{self.seed}:{seed}")

    def choose(self, view: View) -> Optional[Play]:
        return self._rng.choice(view.legal_actions())

    def tribute(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._rng.choice(list(candidates))

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return self._rng.choice(list(candidates))

    def __repr__(self):
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
        if view.turn != view.seat:
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
        return _advised(suggest_tribute(view.hand_counts, view.rules), candidates)

    def give_back(self, view: View, candidates: Sequence[Card]) -> Card:
        return _advised(suggest_return(view.hand_counts, view.rules), candidates)

    def __repr__(self):
        return "GreedyBot()"


def _advised(advice, candidates: Sequence[Card]) -> Card:
    """The first advised card among the candidates (the advice lists the
    same legal cards; the candidates decide if they ever differ)."""
    allowed = set(candidates)
    for a in advice:
        if a.card in allowed:
            return a.card
    return list(candidates)[0]


def _number(text: str, spec: str, what: str, kind=float):
    try:
        value = kind(text)
    except ValueError:
        raise BotSpecError(f"{what} must be a number, not {text!r} in spec {spec!r}", spec) from None
    if value < 0 or (kind is float and not value < float("inf")):
        raise BotSpecError(f"{what} must be >= 0, not {text!r} in spec {spec!r}", spec)
    return value


def make_bot(spec) -> Bot:
    """A bot from its spec (see the module docstring); a Bot is returned as
    it is. A bad spec is a BotSpecError naming it."""
    if isinstance(spec, Bot):
        return spec
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot spec is a string such as 'greedy', not {spec!r}", str(spec))
    text = spec.strip()
    name, sep, args = text.partition(":")
    name = name.strip().lower()
    parts = [a.strip() for a in args.split(",")] if args.strip() else []
    if sep and not args.strip():
        raise BotSpecError(f"nothing after ':' in spec {spec!r}", spec)
    positional = [p for p in parts if "=" not in p]
    keywords = {}
    for p in parts:
        if "=" in p:
            k, _, v = p.partition("=")
            k = k.strip().lower()
            if k in keywords:
                raise BotSpecError(f"{k} given twice in spec {spec!r}", spec)
            keywords[k] = v.strip()
    if any(not p for p in parts):
        raise BotSpecError(f"an empty argument in spec {spec!r}", spec)
    if name == "random":
        _expect(spec, positional, keywords, max_positional=1, allowed={"seed"})
        seed = positional[0] if positional else keywords.get("seed", "0")
        return RandomBot(seed=int(_number(seed, spec, "the seed", int)))
    if name == "greedy":
        _expect(spec, positional, keywords, max_positional=0, allowed=set())
        return GreedyBot()
    if name == "policy":
        from .policy import PolicyBot
        _expect(spec, positional, keywords, max_positional=0, allowed=set())
        return PolicyBot()
    if name == "rollout":
        from .rollout import RolloutBot
        _expect(spec, positional, keywords, max_positional=1,
                allowed={"seconds", "deals", "width", "seed"})
        seconds = positional[0] if positional else keywords.get("seconds")
        kw = {}
        if seconds is not None:
            kw["max_seconds"] = _number(seconds, spec, "the seconds a decision")
            if kw["max_seconds"] <= 0:
                raise BotSpecError(f"the seconds a decision must be > 0 in spec {spec!r}", spec)
        for opt in ("deals", "width"):
            if opt in keywords:
                kw[opt] = int(_number(keywords[opt], spec, opt, int))
                if kw[opt] < 1:
                    raise BotSpecError(f"{opt} must be >= 1 in spec {spec!r}", spec)
        if "seed" in keywords:
            kw["seed"] = int(_number(keywords["seed"], spec, "the seed", int))
        return RolloutBot(**kw)
    if name == "search":
        from .search import SearchBot
        _expect(spec, positional, keywords, max_positional=1,
                allowed={"seconds", "samples", "playouts", "seed"})
        seconds = positional[0] if positional else keywords.get("seconds")
        kw = {}
        if seconds is not None:
            kw["max_seconds"] = _number(seconds, spec, "the seconds a decision")
            if kw["max_seconds"] <= 0:
                raise BotSpecError(f"the seconds a decision must be > 0 in spec {spec!r}", spec)
        if "samples" in keywords:
            kw["samples"] = int(_number(keywords["samples"], spec, "samples", int))
            if kw["samples"] < 1:
                raise BotSpecError(f"samples must be >= 1 in spec {spec!r}", spec)
        if "playouts" in keywords:
            kw["max_playouts"] = int(_number(keywords["playouts"], spec, "playouts", int))
            if kw["max_playouts"] < 1:
                raise BotSpecError(f"playouts must be >= 1 in spec {spec!r}", spec)
        if "seed" in keywords:
            kw["seed"] = int(_number(keywords["seed"], spec, "the seed", int))
        try:
            return SearchBot(**kw)
        except GuandanError as e:
            raise BotSpecError(f"{e} in spec {spec!r}"[:200], spec) from None
    raise BotSpecError(f"unknown bot {name!r} in spec {spec!r}: use random, greedy, search, "
                       "policy or rollout", spec)


def _expect(spec, positional, keywords, max_positional, allowed):
    if len(positional) > max_positional:
        raise BotSpecError(f"too many arguments in spec {spec!r}", spec)
    for k in keywords:
        if k not in allowed:
            raise BotSpecError(f"unknown option {k!r} in spec {spec!r}", spec)
