"""Levels from deal to deal (RULES 6): up by the gain, stop at A, the game
won at one's own A with the partner not last; the drop-back variant and the
platform's draw after 50 falls."""

import pytest

from guandan_fast import Rules
from guandan_fast.game.progress import MAX_FALLS, GameProgress

WIN3, WIN2, WIN1 = [0, 2, 1, 3], [0, 1, 2, 3], [0, 1, 3, 2]
LOSE3 = [1, 3, 0, 2]


def test_levels_go_up_by_the_gain_and_stop_at_a():
    g = GameProgress(Rules())
    assert g.level == "2"
    g.end_deal(WIN3)
    assert g.levels == [3, 0] and g.level == "5" and g.owner == 0
    g.end_deal(LOSE3)
    assert g.levels == [3, 3] and g.level == "5" and g.owner == 1
    for _ in range(3):
        g.end_deal(WIN3)
    assert g.levels[0] == 12 and g.level == "A" and not g.over
    assert g.end_deal(WIN3) == 0 and g.over


def test_the_game_is_won_at_a_with_the_partner_not_last():
    g = GameProgress(Rules(), levels=[12, 0])
    assert g.end_deal(WIN1) is None and g.levels == [12, 0] and g.failures == [1, 0]
    assert g.end_deal(WIN2) == 0 and g.over and g.winner == 0


def test_a_win_by_the_other_team_while_at_a_is_not_a_game_win():
    g = GameProgress(Rules(), levels=[12, 11], owner=1)
    assert g.end_deal(WIN3) is None      # team 0 wins, but the deal was at team 1's K
    assert g.level == "A" and g.owner == 0


def test_drop_after_three_failures_and_the_draw():
    g = GameProgress(Rules(drop_after_three_failures_at_a=True), levels=[12, 0])
    g.end_deal(WIN1)
    g.end_deal(WIN1)
    assert g.levels[0] == 12
    g.end_deal(WIN1)
    assert g.levels[0] == 0 and g.falls == 1 and g.failures == [0, 0]
    assert not GameProgress(Rules(), levels=[12, 0], failures=[5, 0]).rules.drop_after_three_failures_at_a
    g = GameProgress(Rules(drop_after_three_failures_at_a=True), levels=[12, 0], falls=MAX_FALLS - 1,
                     failures=[2, 0])
    g.end_deal(LOSE3)
    assert g.draw and g.over and g.winner is None


def test_bad_orders():
    with pytest.raises(ValueError):
        GameProgress(Rules()).end_deal([0, 1])
