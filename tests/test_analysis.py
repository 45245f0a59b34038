"""analyse(): a deal whose mistake is known by construction, with the plain
minimax of tests/minimax.py injected as the solver (and the compiled
endgame solver when it is there)."""

import sys
from pathlib import Path

import pytest

from guandan_fast.analysis.review import analyse
from guandan_fast.game.state import GameState
from guandan_fast.formats.record import load, loads

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minimax  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# examples/record_endgame_short.txt: Anna (seat 0) leads from S3 C5 SK at
# level 2. The S3 lets Boris win the round cheaply and keeps her SK to regain
# the lead: +1 for her side; the C5 gives -1, the SK -3 (the brute-force
# values are asserted in test_construction_values). She led the C5, and the
# rest of the record is perfect play by everybody (chosen by the minimax).
ENDGAME = """level: 2
players: Anna, Boris, Chen, Dmitri
hands:
0: S3 C5 SK
1: D4 CQ SK
2: H2 C4 D8
3: S2 S4 D9
play:
0: C5
1: CQ
2: pass
3: pass
0: pass
1: SK
2: H2
3: pass
0: pass
1: pass
2: C4
3: D9
0: SK
1: pass
2: pass
3: S2
0: pass
1: pass
2: pass
3: S4
0: pass
1: pass
2: D8
0: pass
1: pass
0: S3
"""


def test_construction_values():
    """The lead's values, by brute force: only the 3 wins (+1)."""
    rec = loads(ENDGAME)
    state = rec.start_state()
    values = {str(p): v for p, v in minimax.solve(state).moves}
    assert values == {"S3": 1, "C5": -1, "SK": -3}


def test_the_losing_lead_is_the_first_mistake():
    a = analyse(loads(ENDGAME), solver=minimax.solve)
    first = a.decisions[0]
    assert first.solved and first.exact
    assert str(first.play) == "C5"
    assert first.value == 1 and first.chosen_value == -1 and first.best_value == 1
    assert [str(p) for p in first.best_moves] == ["S3"]
    assert first.loss == 2 and first.mistake and first.first_mistake
    assert a.first_mistakes == {0: 0}
    # after the mistake the others play perfectly: no further loss
    assert [d.index for d in a.mistakes()] == [0]
    assert all(d.value == -1 for d in a.decisions[1:])
    assert a.result == -1 and a.finished == (3, 2, 0)
    # min plays of the mover, before and after
    assert (first.min_plays_before, first.min_plays_after) == (3, 2)
    assert (a.decisions[2].min_plays_before, a.decisions[2].min_plays_after) == (2, 2)  # a pass
    assert a.notes == []


def test_a_team1_mistake_counts_for_team1():
    """Boris (team 1) throws away his win: the loss is counted positive for him."""
    rec = loads(ENDGAME)
    state = rec.start_state().apply(rec.moves[0].play)         # after Anna's C5
    values = {("pass" if p is None else str(p)): v for p, v in minimax.solve(state).moves}
    worst = max(values, key=values.get)                        # best for team 0
    assert values[worst] > min(values.values())
    play = None if worst == "pass" else state.find(worst)
    text = ENDGAME.split("play:")[0] + "play:\n0: C5\n1: " + worst + "\n"
    a = analyse(loads(text), solver=minimax.solve)
    d = a.decisions[1]
    assert d.seat == 1 and d.mistake
    assert d.loss == values[worst] - min(values.values())
    assert a.first_mistakes == {0: 0, 1: 1}
    assert a.result is None                                     # the record stops early
    assert (play is None) == (d.play is None)


def test_solve_cards_threshold_and_no_solver_notes():
    rec = loads(ENDGAME)
    a = analyse(rec, solver=minimax.solve, solve_cards=6)
    assert not a.decisions[0].solved                            # 12 cards left
    assert all(d.solved for d in a.decisions if d.cards_left <= 6)
    b = analyse(rec, use_solver=False)
    assert not any(d.solved for d in b.decisions) and not b.mistakes()


def test_json_form_of_the_analysis():
    data = analyse(loads(ENDGAME), solver=minimax.solve).to_dict()
    first = data["decisions"][0]
    assert first["play"] == {"cards": "C5", "type": "single", "rank": "5"}
    assert first["loss"] == 2 and first["first_mistake"] is True
    assert first["best_moves"] == [{"cards": "S3", "type": "single", "rank": "3"}]
    assert {m["play"]["cards"]: m["value"] for m in first["moves"]} == {"S3": 1, "C5": -1, "SK": -3}
    assert data["first_mistakes"] == {"0": 0} and data["mistakes"] == [0]
    assert data["players"][0] == "Anna"


def test_tribute_review_flags_a_return_that_breaks_a_bomb():
    a = analyse(load(EXAMPLES / "record_tribute.txt"), use_solver=False)
    trib, ret = a.exchange
    assert (trib.kind, trib.giver, trib.receiver, str(trib.card)) == ("tribute", 3, 0, "S7")
    assert not trib.mistake and trib.chosen_index == 0
    # Ирина returned S2 from her four 2s (a bomb at level 7 is four 2s): ST was better
    assert (ret.kind, str(ret.card), ret.mistake) == ("return", "S2", True)
    assert str(ret.best.card) != "S2" and ret.chosen_index > 0
    assert "bomb 2 (4)" in ret.reason
    d = a.to_dict("ru")
    assert "бомба 2 (4)" in d["exchange"][1]["reason"]


def test_min_plays_on_a_full_deal():
    a = analyse(load(EXAMPLES / "record_club.txt"), use_solver=False, tribute=False)
    assert len(a.decisions) == 79
    assert all(d.min_plays_before is not None and d.min_plays_after is not None for d in a.decisions)
    # a pass never changes the mover's minimum plays; the last play of a seat empties it
    assert all(d.min_plays_after == d.min_plays_before for d in a.decisions if d.play is None)
    last = a.decisions[-1]
    assert last.min_plays_after == 0


def test_with_the_compiled_endgame_solver():
    pytest.importorskip("guandan_fast.engine.endgame", reason="the endgame solver is not merged yet")
    rec = load(EXAMPLES / "record_endgame_pair.txt")
    a = analyse(rec)
    first = a.decisions[0]
    assert str(first.play) == "H5" and first.exact
    # breaking the pair of fives: -3 instead of +1 (the minimax agrees, see the record)
    assert first.chosen_value == -3 and first.best_value == 1
    assert [p.type for p in first.best_moves] == ["pair"]
    assert first.loss == 4 and a.first_mistakes[0] == 0
    short = analyse(loads(ENDGAME))
    ref = analyse(loads(ENDGAME), solver=minimax.solve)
    assert [(d.value, d.chosen_value, d.loss) for d in short.decisions] == \
        [(d.value, d.chosen_value, d.loss) for d in ref.decisions]
    two = analyse(loads(ENDGAME), threads=2)
    assert [(d.value, d.chosen_value, d.loss, d.exact) for d in two.decisions] == \
        [(d.value, d.chosen_value, d.loss, d.exact) for d in short.decisions]


def test_state_machine_agrees_with_the_reference_solver():
    """GameState (through tests/minimax.py) against tests/reference_endgame.py,
    written separately from RULES.md: same value on seeded random positions."""
    import random
    ref = pytest.importorskip("reference_endgame")
    from guandan_fast import Rules
    rng = random.Random(7)
    checked = 0
    for _ in range(25):
        pos = ref.random_position(rng, 2, rng.choice("2357A"))
        rules = Rules(level=pos["level"])
        table = None
        if pos.get("table") is not None:
            continue                      # free leads only: the reference's table is a (type, rank, size)
        state = GameState(pos["hands"], rules, turn=pos["turn"], passes=pos["passes"],
                          finished=pos["finished"], owner=pos["owner"], table=table)
        value, _ = ref.solve(**pos)
        assert minimax.value(state) == value, pos
        checked += 1
    assert checked >= 5


def test_a_move_the_solver_merged_away_is_valued_by_its_child():
    """A solver that lists only one of two equivalent moves: the move played
    is valued by solving the position after it."""
    def merging(state, max_nodes=None, max_seconds=None):
        res = minimax.solve(state)
        res.moves = [(p, v) for p, v in res.moves if p is None or str(p) != "C5"]
        return res
    a = analyse(loads(ENDGAME), solver=merging)
    first = a.decisions[0]
    assert first.chosen_value == -1 and first.loss == 2 and a.first_mistakes == {0: 0}


def test_a_position_the_solver_refuses_is_noted_not_fatal():
    from guandan_fast import PositionError

    def refusing(state, max_nodes=None, max_seconds=None):
        if state.turn == 1:
            raise PositionError("made-up refusal")
        return minimax.solve(state)
    a = analyse(loads(ENDGAME), solver=refusing)
    assert not a.decisions[1].solved and a.decisions[0].solved
    assert "move 2: the solver refused the position: made-up refusal" in a.notes
