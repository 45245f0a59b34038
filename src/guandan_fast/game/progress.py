"""A game: deals from level 2 until a team wins at its A (RULES §6).

``GameProgress`` carries what passes from deal to deal: each team's level,
the team whose level is played (the winner of the last deal), the previous
finishing order (for the tribute, RULES §7), the failures at A and, for the
platform's server, the falls from A back to 2 (the game is a draw after
``MAX_FALLS`` of them, as the platform scores it).

- The first deal is played at level 2; each deal at the level of the team
  that won the previous one.
- The winner goes up by the gain of RULES §6 (3, 2 or 1), stopping at A.
- A team playing at its A (the deal's level is its own A) wins the game by
  taking first place with its partner not last.
- Flag ``drop_after_three_failures_at_a``: a team that plays at its A three
  times without winning the game drops back to 2 (a fall).

>>> from guandan_fast import Rules
>>> g = GameProgress(Rules())
>>> g.level, g.end_deal([0, 2, 1, 3]), g.levels, g.level
('2', None, [3, 0], '5')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from ..model.rules import RANKS, Rules
from .state import level_gain, team

__all__ = ["GameProgress", "MAX_FALLS", "A"]

A = 12            # the level index of A
MAX_FALLS = 50


@dataclass
class GameProgress:
    """The state of a game between deals. ``levels``: level index (0..12 for
    2..A) of team 0 (seats 0, 2) and team 1; ``owner``: the team whose level
    the next deal is played at; ``previous``: the last finishing order."""

    rules: Rules
    levels: list = field(default_factory=lambda: [0, 0])
    owner: int = 0
    previous: Optional[list] = None
    failures: list = field(default_factory=lambda: [0, 0])
    falls: int = 0
    deals: int = 0
    winner: Optional[int] = None      # the team that won the game
    draw: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.draw

    @property
    def level(self) -> str:
        """The level of the next deal."""
        return RANKS[self.levels[self.owner]]

    def deal_rules(self) -> Rules:
        """The rules of the next deal: its level and the game's flags."""
        return replace(self.rules, level=self.level)

    def end_deal(self, order) -> Optional[int]:
        """Record a deal's finishing order (all four seats, first to last);
        the winning team of the game when it ends with this deal, else None."""
        order = [int(s) for s in order]
        gain = level_gain(order)
        if gain is None or sorted(order) != [0, 1, 2, 3]:
            raise ValueError(f"a finished deal's order lists the four seats, not {order}")
        win = team(order[0])
        at_a = self.levels[self.owner] == A
        self.deals += 1
        self.previous = order
        if at_a and win == self.owner and abs(gain) >= 2:
            self.winner = win
            return win
        if at_a:
            self.failures[self.owner] += 1
            if self.rules.drop_after_three_failures_at_a and self.failures[self.owner] >= 3:
                self.levels[self.owner] = 0
                self.failures[self.owner] = 0
                self.falls += 1
                if self.falls >= MAX_FALLS:
                    self.draw = True
                if win == self.owner:       # a +1 win at A that was its third failure
                    return None
        self.levels[win] = min(A, self.levels[win] + abs(gain))
        self.owner = win
        return None
