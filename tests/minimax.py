"""A plain double-dummy minimax over ``GameState`` (no pruning, memoised):
the reference the analysis tests inject as their solver, so they do not
depend on the compiled endgame solver. Only for tiny positions."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """The solver interface analysis.py expects, on a GameState."""
    before = len(_MEMO)
    moves = [(a, value(state.apply(a))) for a in state.legal_actions()]
    best = max(v for _, v in moves) if team(state.turn) == 0 else min(v for _, v in moves)
    return Result(value=best, moves=moves, nodes=len(_MEMO) - before)
