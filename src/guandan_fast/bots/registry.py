"""The bot registry: each bot's spec name, factory, one-line help and spec
grammar, in one table. ``make_bot``, the CLI's help texts, its error text and
the table of docs/bots.md all read it; adding a bot is one ``register``
call at the end of this module.

A spec is ``NAME``, ``NAME:ARG`` or ``NAME:ARG,KEY=VALUE,...``: the
positional arguments fill the bot's named parameters in order, keywords
name them; names are case-insensitive.

>>> make_bot("random:7")
RandomBot(seed=7)
>>> make_bot("greedy")
GreedyBot()
>>> make_bot("minimax")
Traceback (most recent call last):
...
guandan_fast.errors.BotSpecError: unknown bot 'minimax' in spec 'minimax': use random, greedy, policy, distilled or search
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from ..errors import BotSpecError, GuandanError
from .base import Bot, GreedyBot, RandomBot
from .search import SearchBot

__all__ = ["BotKind", "register", "make_bot", "bot_names", "bot_kinds", "specs_help"]

#: a factory: the spec's arguments by parameter name (text as written) and
#: the spec itself (for error messages) -> the bot
Factory = Callable[[dict[str, str], str], Bot]


@dataclass(frozen=True)
class BotKind:
    """One registered bot: ``name`` (the spec's first word), ``factory``,
    ``help`` (one line), ``grammar`` (the spec's shape, e.g.
    ``random[:SEED]``), ``examples`` (specs, for the docs), ``params`` (the
    parameter names, positional order first ``positional`` of them)."""

    name: str
    factory: Factory
    help: str
    grammar: str
    examples: tuple[str, ...]
    params: tuple[str, ...] = ()
    positional: int = 0


_KINDS: dict[str, BotKind] = {}


def register(name: str, factory: Factory, *, help: str, grammar: str,
             examples: tuple[str, ...] = (), params: tuple[str, ...] = (),
             positional: int = 0) -> BotKind:
    """Add a bot to the registry (its name must be new, lower case, one word)."""
    if not name.isidentifier() or name != name.lower() or name in _KINDS:
        raise ValueError(f"bot name {name!r}: a new lower-case identifier")
    if not 0 <= positional <= len(params):
        raise ValueError(f"bot {name!r}: positional exceeds the {len(params)} parameters")
    kind = BotKind(name, factory, help, grammar, examples or (name,), params, positional)
    _KINDS[name] = kind
    return kind


def bot_names() -> list[str]:
    """The registered names, in registration order."""
    return list(_KINDS)


def bot_kinds() -> list[BotKind]:
    """The registered bots, in registration order."""
    return list(_KINDS.values())


def specs_help() -> str:
    """The spec grammars, for CLI help: ``random[:SEED], greedy, ...``."""
    return ", ".join(k.grammar for k in _KINDS.values())


def _names_text() -> str:
    names = bot_names()
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _arguments(kind: BotKind, parts: list[str], spec: str) -> dict[str, str]:
    """The spec's arguments by parameter name; BotSpecError on too many,
    unknown or repeated ones."""
    args: dict[str, str] = {}
    positional = [p for p in parts if "=" not in p]
    if len(positional) > kind.positional:
        raise BotSpecError(f"too many arguments in spec {spec!r}", spec)
    for name, value in zip(kind.params, positional):
        args[name] = value
    for p in parts:
        if "=" not in p:
            continue
        k, _, v = p.partition("=")
        k = k.strip().lower()
        if k not in kind.params:
            raise BotSpecError(f"unknown option {k!r} in spec {spec!r}", spec)
        if k in args:
            raise BotSpecError(f"{k} given twice in spec {spec!r}", spec)
        args[k] = v.strip()
    return args


def make_bot(spec: Union[str, Bot]) -> Bot:
    """A bot from its spec (see the module docstring); a Bot is returned as
    it is. A bad spec is a BotSpecError naming it."""
    if isinstance(spec, Bot):
        return spec
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot spec is a string such as 'greedy', not {spec!r}", str(spec))
    if spec != spec.strip():
        raise BotSpecError(f"spec {spec!r} has spaces around it", spec)
    name, sep, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if sep and not rest.strip():
        raise BotSpecError(f"nothing after ':' in spec {spec!r}", spec)
    kind = _KINDS.get(name)
    if kind is None:
        raise BotSpecError(f"unknown bot {name!r} in spec {spec!r}: use {_names_text()}", spec)
    parts = [a.strip() for a in rest.split(",")] if rest.strip() else []
    if any(not p for p in parts):
        raise BotSpecError(f"an empty argument in spec {spec!r}", spec)
    args = _arguments(kind, parts, spec)
    try:
        return kind.factory(args, spec)
    except BotSpecError:
        raise
    except GuandanError as e:
        raise BotSpecError(f"{e} in spec {spec!r}"[:200], spec) from None


# a seed in a spec, as every seed of the project (SearchBot's, a platform match's)
MAX_SEED = 2 ** 63 - 1


def number(text: str, spec: str, what: str, kind: type = float,
           positive: bool = False, most: float = float("inf")) -> float:
    """A spec's number argument in ASCII (no ``_``), finite, >= 0 (> 0 when
    ``positive``) and at most ``most``; BotSpecError naming ``what`` with
    the range it takes."""
    least = ("> 0" if kind is float else ">= 1") if positive else ">= 0"
    try:
        if not text.isascii() or "_" in text:
            raise ValueError(text)
        value = kind(text)
    except ValueError:
        raise BotSpecError(f"{what} must be a number, not {text!r} in spec {spec!r}", spec) from None
    if value < 0 or (positive and value <= 0) or not value < float("inf"):
        raise BotSpecError(f"{what} must be {least}, not {text!r} in spec {spec!r}", spec)
    if value > most:
        raise BotSpecError(f"{what} must be at most {most}, not {text!r} in spec {spec!r}", spec)
    return float(value) if kind is float else int(value)


def _random(args: dict[str, str], spec: str) -> Bot:
    return RandomBot(seed=int(number(args.get("seed", "0"), spec, "the seed", int,
                                     most=MAX_SEED)))


def _greedy(args: dict[str, str], spec: str) -> Bot:
    return GreedyBot()


def _policy(args: dict[str, str], spec: str) -> Bot:
    from .policy import PolicyBot
    return PolicyBot()


def _distilled(args: dict[str, str], spec: str) -> Bot:
    from .distilled import DistilledBot
    return DistilledBot()


def _search(args: dict[str, str], spec: str) -> Bot:
    kw: dict[str, Any] = {}      # SearchBot's keywords; its defaults for the others
    if "seconds" in args:
        kw["max_seconds"] = number(args["seconds"], spec, "the seconds a decision",
                                   positive=True)
    for key, param, what in (("samples", "samples", "samples"),
                             ("playouts", "max_playouts", "playouts"),
                             ("threads", "threads", "threads")):
        if key in args:
            kw[param] = int(number(args[key], spec, what, int, positive=True))
    if "seed" in args:
        kw["seed"] = int(number(args["seed"], spec, "the seed", int, most=MAX_SEED))
    return SearchBot(**kw)


register("random", _random, params=("seed",), positional=1,
         grammar="random[:SEED]", examples=("random", "random:7"),
         help="every legal action (pattern, pass) equally likely")
register("greedy", _greedy, grammar="greedy", examples=("greedy",),
         help="the first of `hints`; passes on its partner's standing play unless that "
              "plays out its hand; tribute/return by the advice")
register("policy", _policy, grammar="policy", examples=("policy",),
         help="the blind house policy (compiled): a plan of the hand by the exact "
              "decomposition, the cards still out, the partner's standing and the "
              "opponents' card counts; the tribute by the advice, the return by its "
              "rollouts")
register("distilled", _distilled, grammar="distilled", examples=("distilled",),
         help="the house policy with a learned correction: a forest fitted to the rollout "
              "search's values picks another of the first candidates when it predicts a "
              "gain; tribute and return as the policy")
register("search", _search, params=("seconds", "samples", "playouts", "seed", "threads"),
         positional=1,
         grammar="search[:SECONDS][,samples=N][,playouts=N][,seed=N][,threads=N]",
         examples=("search", "search:0.2", "search:0.2,samples=8,playouts=400,seed=1",
                   "search:0.2,threads=2"),
         help="the rollout search: each move, then the house policy in every seat, played "
              "on the same sampled deals; the policy's move unless another beats it by one "
              "standard error (playouts: rollouts a decision, deterministic; threads: the "
              "rollouts shared out between that many threads)")

