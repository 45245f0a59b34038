"""A plain double-dummy minimax over ``GameState`` (no pruning, memoised):
the solver the analysis tests inject, so that they check the analysis
without depending on the compiled endgame search. Only for tiny positions.

NOT an independent reference: ``GameState.legal_actions`` takes its moves
from the compiled core (``_core._py_plays`` / ``_py_beating_plays``), so a
mistake in move generation would be shared by this minimax and the search.
It checks the search's pruning, table and ordering, and the analysis around
them, against the core's own moves. The independent reference is
``tests/reference_endgame.py`` (its own move generation, from the rules),
which ``test_state_machine_agrees_with_the_reference_solver`` compares this
minimax with, and the endgame tests compare the solver with."""

from __future__ import annotations

from dataclasses import dataclass, field

from guandan_fast.engine.value import MoveValue
from guandan_fast.game.state import GameState, team


def _key(s: GameState):
    table = None if s.table is None else (s.table.pattern, tuple(sorted(s.table.card_ids)))
    return (s.rules.level_index, s.rules.flags, tuple(bytes(h) for h in s.hands), s.turn,
            table, s.owner, s.passes, s.finished)


_MEMO: dict = {}   # positions are values: one table for the whole test run


def value(state: GameState, memo=None) -> int:
    """Team 0's level gain under perfect play by all four players."""
    memo = _MEMO if memo is None else memo
    k = _key(state)
    if k in memo:
        return memo[k]
    if state.over:
        v = state.result()
    else:
        vals = [value(state.apply(a), memo) for a in state.legal_actions()]
        v = max(vals) if team(state.turn) == 0 else min(vals)
    memo[k] = v
    return v


@dataclass
class Result:
    value: int
    exact: bool = True
    moves: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    nodes: int = 0


def solve(state: GameState, max_nodes=None, max_seconds=None) -> Result:
    """The solver interface analysis/review.py expects, on a GameState."""
    before = len(_MEMO)
    moves = [MoveValue.proven(a, value(state.apply(a))) for a in state.legal_actions()]
    best = max(m.mean for m in moves) if team(state.turn) == 0 else min(m.mean for m in moves)
    return Result(value=best, moves=moves, nodes=len(_MEMO) - before)
