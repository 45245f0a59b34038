"""The double-dummy endgame solver: hand-made positions argued on paper,
position validation, limits, the text format, the CLI, and a randomized
differential test against the plain-minimax reference (reference_endgame)."""

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

import reference as ref
import reference_endgame as ref_end
from conftest import by_run, core_pattern, flag_kwargs, play_values, slow

from guandan_fast import (Position, PositionError, Rules, beating_plays, plays, read_play,
                          solve)
from guandan_fast import _core
from guandan_fast.engine.endgame import EndgameResult
from guandan_fast.formats.position import dumps_position, loads_position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
R2 = Rules(level=2)


def line(result):
    """The principal variation as (seat, cards text or '-')."""
    return [(s, "-" if p is None else str(p)) for s, p in result.pv]


def move_values(result):
    return {("-" if p is None else str(p)): v for p, v in play_values(result)}


# ---------------------------------------------------------------------------
# Hand-made positions
# ---------------------------------------------------------------------------

def test_jiefeng_partner_takes_the_lead():
    # Seat 0 leads its last card, SA. At level 2 only a 2 or a joker beats an
    # ace and nobody holds one, so seats 1, 2 and 3 pass. Seat 0 is out, so
    # the lead goes to its partner, seat 2 (接风), not to the next seat 1:
    # seat 2 plays the pair of 3s and is out second: +3. (Had the lead gone
    # to seat 1, its pair of 4s would have gone out first.)
    pos = Position(["SA", "C4 D4", "S3 D3", "C5 D5"], R2, turn=0)
    res = solve(pos)
    assert res.value == 3 and res.exact
    assert line(res) == [(0, "SA"), (1, "-"), (2, "-"), (3, "-"), (2, "S3 D3")]


def test_jiefeng_after_the_owner_went_out_mid_round():
    # Seat 0 went out with SK (first); seat 1 passed; seat 2 to act. Seats 2
    # and 3 pass too (nobody holds an ace, a 2 or a joker): the round ends and
    # seat 2 leads as partner of the owner, plays S3 and is out second: +3.
    # If seat 2 played its S3... it cannot: a 3 does not beat a king.
    pos = Position(["", "S4 S5", "S3", "C6"], R2, turn=2, table="SK", owner=0,
                   passes=1, finished=[0])
    res = solve(pos)
    assert res.value == 3
    assert move_values(res) == {"-": 3}
    assert line(res) == [(2, "-"), (3, "-"), (2, "S3")]


def test_partner_must_pass_to_let_the_other_go_out():
    # Seat 0 played SK and holds S3; seat 1 passed; seat 2 (S4 SA) to act.
    # Pass: seat 3 (S5) cannot beat the king, the round ends, seat 0 leads S3
    # and is out first; seat 2 later wins the lead with SA and goes out with
    # S4 while seat 1 (two singles) and seat 3 are still in: +3.
    # SA instead: nobody beats it, seat 2 leads S4 and is out first, but then
    # seat 0's S3 is below every opponent's card: seat 3 plays S5 or seat 1
    # its singles, and seat 0 never leads again: the opponents both finish
    # before it: +1.
    pos = Position(["S3", "S6 S7", "S4 SA", "S5"], R2, turn=2, table="SK", owner=0,
                   passes=1)
    res = solve(pos)
    assert res.value == 3
    assert move_values(res) == {"-": 3, "SA": 1}
    assert res.best == [None]
    assert line(res)[:3] == [(2, "-"), (3, "-"), (0, "S3")]


def test_bomb_kept_for_the_right_moment():
    # Seat 2 is out first. Seat 0 (bomb 3333, C4, C8) follows seat 3's D8;
    # seat 1 holds C4, seat 3 D9. Team 0 wants seat 0 out before both
    # opponents (+3 would need seat 0 second; +2 third; +1 last).
    # Bomb now: seat 0 leads C4 or C8, seat 3's D9 beats either and goes out,
    # seat 0 cannot beat D9, the lead passes to seat 1 (接风), which goes out
    # with C4: +1.
    # Pass: seat 1 passes, seat 3 leads D9 and goes out; now the bomb: nobody
    # beats it, seat 0 leads C4 (seat 1's C4 does not beat an equal card),
    # then C8, and is out third: +2. Without the bomb on D9 seat 1 would
    # take the lead (接风) and go out: +1.
    pos = Position(["S3 H3 C3 D3 C4 C8", "C4", "", "D9"], R2, turn=0, table="D8",
                   owner=3, finished=[2])
    res = solve(pos)
    assert res.value == 2
    assert move_values(res) == {"-": 2, "S3 H3 C3 D3": 1}
    pv = line(res)
    assert pv[:3] == [(0, "-"), (1, "-"), (3, "D9")]
    assert pv[3] == (0, "S3 H3 C3 D3")


def test_going_out_when_the_partner_is_out_ends_the_deal():
    # Seat 2 is out first; seat 0 can go out at once with its pair: +3
    # (partner first, seat 0 second); any single leaves a card behind.
    pos = Position(["S9 D9", "SA", "", "SK"], R2, turn=0, finished=[2])
    res = solve(pos)
    assert res.value == 3
    assert res.best and str(res.best[0]) == "S9 D9"
    assert line(res) == [(0, "S9 D9")]


def test_values_are_for_team_0_when_team_1_acts():
    # Seat 1 leads its last card (a joker, unbeatable here) and is out first;
    # seat 3 then gets the lead (接风) and goes out with its pair: -3.
    pos = Position(["S3 S4", "HR", "S5 S6", "C7 D7"], R2, turn=1)
    res = solve(pos)
    assert res.value == -3
    assert line(res)[0] == (1, "HR")
    assert line(res)[-1] == (3, "C7 D7")


def test_result_shape():
    pos = Position(["S3 S4", "S5", "S6 D6", "S7"], R2, turn=0)
    res = solve(pos)
    assert isinstance(res, EndgameResult)
    assert res.exact and res.value in (3, 2, 1, -1, -2, -3)
    assert len(res.moves) == len(plays("S3 S4", R2)) == 2
    assert all(v is not None for _, v in play_values(res))
    # best first for the mover (team 0 maximises)
    vals = [v for _, v in play_values(res)]
    assert vals == sorted(vals, reverse=True)
    assert res.best == [p for p, v in play_values(res) if v == res.value]
    assert res.nodes > 0 and res.seconds >= 0
    data = res.to_dict()
    json.dumps(data)
    assert data["value"] == res.value and len(data["moves"]) == 2
    assert sum(m["best"] for m in data["moves"]) == len(res.best)


# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------

def _big_position():
    rng = random.Random(11)
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    return Position([deck[i * 9:(i + 1) * 9] for i in range(4)], Rules(level=5))


def test_node_limit_returns_what_is_proven():
    res = solve(_big_position(), max_nodes=200)
    assert not res.exact
    assert res.stopped == "limit"
    assert res.nodes <= 200 + 5
    assert -3 <= res.lower <= res.upper <= 3
    if res.value is None:
        assert res.lower < res.upper
    for p, v, lo, hi in [(m.move, m.value, *m.bounds) for m in res.moves]:
        assert lo <= hi and (v is None) == (lo != hi)


def test_time_limit_stops():
    res = solve(_big_position(), max_seconds=0.05)
    assert res.stopped == "limit" and not res.exact


@pytest.mark.parametrize("kwargs,needle", [
    ({"max_nodes": 0}, "max_nodes must be 1.."),
    ({"max_nodes": 2 ** 70}, "max_nodes must be 1.."),
    ({"max_nodes": 1.5}, "max_nodes must be an integer"),
    ({"max_nodes": True}, "max_nodes must be an integer"),
    ({"max_seconds": 0}, "max_seconds must be more than 0"),
    ({"max_seconds": -1}, "max_seconds must be more than 0"),
    ({"max_seconds": float("nan")}, "not nan"),
    ({"max_seconds": float("inf")}, "not inf"),
    ({"max_seconds": 1e300}, "at most"),
    ({"max_seconds": "1"}, "a number of seconds"),
    ({"threads": 0}, "threads must be 1.."),
    ({"threads": 10 ** 6}, "threads must be 1.."),
    ({"tt_bits": 40}, "tt_bits must be 10..28"),
])
def test_bad_limits(kwargs, needle):
    from guandan_fast.errors import LimitError
    pos = Position(["S3", "S4", "S5", "S6"], R2)
    with pytest.raises(LimitError, match=re.escape(needle)):
        solve(pos, **kwargs)


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,needle", [
    (dict(hands=["S3", "S4", "S5"]), "four hands"),
    (dict(hands=["S3 S3", "S3", "S5", "S6"]), "S3 appears 3 times"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S3 S3", owner=1, turn=2, passes=0),
     "S3 appears 3 times"),
    (dict(hands=["S3", "S4", "S5", "S6"], owner=1), "no table"),
    (dict(hands=["S3", "S4", "S5", "S6"], passes=1), "no table"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S9"), "needs its owner"),
    (dict(hands=["S3", "", "S5", "S6"], turn=1, finished=[1]), "seat to act (1)"),
    (dict(hands=["S3", "S4", "S5", "S6"], finished=[1]), "holds 1 cards"),
    (dict(hands=["S3", "", "S5", "S6"]), "not in finished"),
    (dict(hands=["", "S4", "", "S6"], turn=1, finished=[0, 2]), "deal is over"),
    (dict(hands=["S3", "S4", "S5", "S6"], turn=4), "seat 0..3"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S9", owner=1, turn=3, passes=0),
     "passes=0 is inconsistent"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S9", owner=1, turn=2, passes=1),
     "passes=1 is inconsistent"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S9", owner=1, turn=1), "its own"),
    (dict(hands=["S3", "", "S5", "S6"], table="S9", owner=1, turn=2, finished=[1, 0]),
     "seat 0 is in finished"),
    (dict(hands=["S3", "", "S5", ""], table="S9", owner=1, turn=2,
          finished=[1, 3]), "deal is over"),
    (dict(hands=["S3", "", "S5", "S6"], table="S9", owner=1, turn=3, passes=0,
          finished=[1]), "passes=0 is inconsistent"),
    (dict(hands=["S3", "X9", "S5", "S6"]), "seat 1"),
    (dict(hands=["S3", "S4", "S5", "S6"], table="S3 S4", owner=1, turn=2), "table"),
    (dict(hands=["S3", "S4", "S5", "S6"], finished=[1, 1]), "twice"),
])
def test_position_errors(kwargs, needle):
    hands = kwargs.pop("hands")
    with pytest.raises(PositionError) as e:
        Position(hands, R2, **kwargs)
    assert isinstance(e.value, ValueError)
    assert needle in str(e.value)


def test_owner_out_must_be_the_last_finisher():
    # seat 1 went out with the table play: fine when it is the last finisher
    Position(["S3", "", "S5", "S6"], R2, table="S9", owner=1, turn=2, finished=[1])
    with pytest.raises(PositionError, match="last of finished"):
        Position(["", "", "S5", "S6"], R2, table="S9", owner=1, turn=2,
                 finished=[1, 0])


def test_table_at_another_level():
    with pytest.raises(PositionError, match="level"):
        Position(["S3", "S4", "S5", "S6"], R2, table=read_play("S9", Rules(level=5)),
                 owner=1, turn=2)


# ---------------------------------------------------------------------------
# Text format and CLI
# ---------------------------------------------------------------------------

def test_position_text_round_trip():
    rng = random.Random(3)
    for _ in range(60):
        pos = random_position(rng, rng.randint(1, 6), rich=rng.random() < 0.5)
        text = dumps_position(pos)
        again = loads_position(text)
        assert again == pos, text
        assert dumps_position(again) == text


def test_position_text_ambiguous_table_and_flags():
    text = ("level: 2\njoker_pair_in_full_house: yes\n0: S9\n1: C9\n2: D9\n3: SK\n"
            "turn: 2\ntable: S3 D3 S4 D4 H2 H2\ntable_type: tube\ntable_rank: 5\n"
            "owner: 1\npasses: 0\n")
    pos = loads_position(text)
    assert (pos.table.type, pos.table.rank) == ("tube", "5")
    assert pos.rules.joker_pair_in_full_house
    assert dumps_position(pos) == text
    # the reading's words as a record takes them: the ten as 10 (or t), Russian names
    ten = "level: 2\n0: S3\n1: S4\n2: S5\n3: S6\nturn: 1\ntable: S6 S7 S8 S9 ST\n"
    for words in ("table_type: straight\ntable_rank: 10\n", "table_type: стрит\ntable_rank: t\n"):
        pos = loads_position(ten + words + "owner: 0\n")
        assert (pos.table.type, pos.table.rank) == ("straight", "T")
    with pytest.raises(PositionError, match="unknown rank '11'"):
        loads_position(ten + "table_type: straight\ntable_rank: 11\nowner: 0\n")


@pytest.mark.parametrize("text,needle", [
    ("level: 2\n0: S3\n1: S4\n2: S5\n", "seat 3"),
    ("level: 2\n0: S3\n1: S4\n2: S5\n3: S6\ncolour: red\n", "line 6: unknown key"),
    ("level: 2\n0: S3\n1: S4\n2: S5\n3: S6\n0: S7\n", "line 6: '0' given twice"),
    ("level: 2\n0: S3 X1\n1: S4\n2: S5\n3: S6\n", "line 2: seat 0"),
    ("level: 2\n0: S3\n1: S4\n2: S5\n3: S6\nturn: x\n", "line 6: turn"),
    ("level: 1\n0: S3\n1: S4\n2: S5\n3: S6\n", "line 1"),
    ("level: 2\n0: S3\n1: S4\n2: S5\n3: S6\nS7\n", "line 6"),
    ("level: 2\n0: S3\n1: S4\n2: S5\n3: S6\ntable: S3 S5\nowner: 1\nturn: 2\n",
     "line 6: table"),
])
def test_position_text_errors(text, needle):
    with pytest.raises(PositionError) as e:
        loads_position(text)
    assert needle in str(e.value)


from clirun import run as run_cli  # noqa: E402  (gd-analyze in process)


def test_cli_endgame_text_and_json():
    r = run_cli("endgame", EXAMPLES / "endgame1.txt")
    assert r.returncode == 0, r.stderr
    assert "Value (team 0): +3" in r.stdout
    assert "+3 * SA (single A)" in r.stdout
    assert "2: S3 D3 (pair 3)" in r.stdout
    r = run_cli("endgame", EXAMPLES / "endgame1.txt", "--format", "json")
    data = json.loads(r.stdout)
    assert data["value"] == 3 and data["exact"] and data["level"] == "2"
    assert [m["seat"] for m in data["pv"]] == [0, 1, 2, 3, 2]


def test_cli_endgame_limits_and_stdin():
    text = dumps_position(_big_position())
    r = run_cli("endgame", "-", "--max-nodes", "100", "--format", "json", "--exact-only",
                stdin=text)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["exact"] is False and data["stopped"] == "limit"
    # without --exact-only: the estimate, marked as estimated
    r = run_cli("endgame", "-", "--max-nodes", "100", "--max-seconds", "0.2", "--format",
                "json", stdin=text)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["estimated"] is True and data["exact"] is False
    assert all(m["low"] <= m["mean"] <= m["high"] for m in data["moves"])
    r = run_cli("endgame", "-", "--max-nodes", "100", "--max-seconds", "0.2", stdin=text)
    assert r.returncode == 0, r.stderr
    assert "ESTIMATED" in r.stdout and "[" in r.stdout
    r = run_cli("endgame", "-", "--estimate", "--exact-only", stdin=text)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--exact-only" in r.stderr
    # a node limit alone: the partial answer it asked for, on one thread (no estimate)
    r = run_cli("endgame", "-", "--max-nodes", "100", "--format", "json", stdin=text)
    data = json.loads(r.stdout)
    assert r.returncode == 0 and "estimated" not in data and data["stopped"] == "limit"
    assert data["nodes"] <= 100


def test_cli_endgame_threads():
    rng = random.Random(8)
    deck = [t for t in ref.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    pos = Position([deck[i * 4:(i + 1) * 4] for i in range(4)], Rules(level=9), turn=1)
    text = dumps_position(pos)
    one = json.loads(run_cli("endgame", "-", "-t", "1", "--format", "json", stdin=text).stdout)
    two = json.loads(run_cli("endgame", "-", "--threads", "2", "--format", "json",
                             stdin=text).stdout)
    assert one["value"] == two["value"] == solve(pos).value
    assert [(m["play"], m["value"]) for m in one["moves"]] == \
        [(m["play"], m["value"]) for m in two["moves"]]
    bad = run_cli("endgame", "-", "--threads", "0", stdin=text)
    assert bad.returncode == 2 and "threads" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("text,needle", [
    ("level: 2\n0: S3\n1: S4\n2:\n3: S5\nturn: 0\n", "seat 2 holds no cards"),
    ("level: 2\n0: S3\n1: S4\n2: S6\n3: S5\n", "no 'turn:' line"),
    ("level: 2\n0: S3\n", "no line for seat 1"),
])
def test_cli_endgame_bad_input(text, needle):
    r = run_cli("endgame", "-", stdin=text)
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# Differential test against the plain-minimax reference
# ---------------------------------------------------------------------------

SEATS = (0, 1, 2, 3)


def random_flags(rng):
    """Rules flags that change what can be played (RULES 5), each on half of
    the time: joker_pair_in_full_house, flush_is_always_bomb. (The other
    flags of Rules are about tributes and levels between deals.)"""
    return {"joker_pair_in_full_house": rng.random() < 0.5,
            "flush_is_always_bomb": rng.random() < 0.5}


def random_position(rng, k, level=None, rich=False, flags=False):
    """A random reachable position with k cards in each hand still in, drawn
    as reference_endgame.random_position draws them, with optional rich
    hands (wilds, near-bombs, pairs in sequence...) and a real table Play.
    flags: random rules flags (random_flags, drawn first); without, the
    default Rules and the same draws as before the option. Returns a
    Position."""
    level = level or rng.choice(ref.RANKS)
    rules = Rules(level=level, **random_flags(rng)) if flags else Rules(level=level)
    for _ in range(100):
        deck = [t for t in ref.TOKENS for _ in range(2)]
        rng.shuffle(deck)
        deal = (lambda: ref.random_rich_hand(rng, k, level)) if rich else None
        finished, hands, turn = ref_end.random_seating(rng, deck, k, deal)
        used = Counter(c for h in hands for c in h)
        if max(used.values()) > 2:
            continue
        rest = [t for t in ref.TOKENS for _ in range(2 - used[t])]
        rng.shuffle(rest)
        table, owner, passes = None, None, 0
        if rng.random() < 0.5:
            table = rng.choice(plays(rest[:rng.randint(1, 5)], rules))
            owner, passes = ref_end.random_owner(rng, hands, turn, finished)
        return Position(hands, rules, turn=turn, table=table, owner=owner,
                        passes=passes, finished=finished)
    raise AssertionError("could not draw a position")


def reference_solve(pos):
    """The reference's (value, {pattern: value}) of pos, under its rules
    flags."""
    t = pos.table
    return ref_end.solve(
        [[str(c) for c in h] for h in pos.hands], pos.rules.level, turn=pos.turn,
        table=None if t is None else (t.type, t.rank, t.size), owner=pos.owner,
        passes=pos.passes, finished=pos.finished, **flag_kwargs(pos.rules))


def check_against_reference(pos, threads=1):
    value, ref_moves = reference_solve(pos)
    res = solve(pos, threads=threads)
    assert res.exact
    mine = {None if p is None else core_pattern(p): v for p, v in play_values(res)}
    assert len(mine) == len(res.moves), "two moves with one pattern"
    assert mine == ref_moves, pos
    assert res.value == value, pos
    # the principal variation is legal and starts with a best move
    assert res.pv and res.pv[0][0] == pos.turn
    assert res.pv[0][1] in res.best


def check_principal_line(pos, res):
    """Replay the principal variation res.pv of solve(pos) with the
    reference's rules of play (reference_endgame._Game) and values: each
    move is made by the seat to act, is legal, its cards realise its
    pattern, and it keeps the value: the pattern is a best move (its
    reference value is res.value) and the position after these very cards
    is still worth res.value, so the core's choice of cards loses nothing.
    The line ends when the deal is over (_search.pxi, pv_line: it stops
    there, or after MAXPV moves, far more than these deals last), with the
    deal's result res.value. Returns the number of moves replayed."""
    flags = flag_kwargs(pos.rules)
    level, t = pos.rules.level, pos.table
    node = (tuple(tuple(sorted(str(c) for c in h)) for h in pos.hands), pos.turn,
            None if t is None else (t.type, t.rank, t.size), pos.owner, pos.passes,
            tuple(pos.finished))
    for seat, play in res.pv:
        assert not isinstance(node, int), ("a move after the end of the deal", pos)
        hands, turn, table, owner, passes, finished = node
        assert seat == turn, pos
        value, moves = ref_end.solve(hands, level, turn=turn, table=table, owner=owner,
                                     passes=passes, finished=finished, **flags)
        assert value == res.value, (node, pos)
        if play is None:
            assert moves.get(None) == value, (node, pos)
            node = ref_end._Game.after_pass(node)
            continue
        pat = core_pattern(play)
        assert moves.get(pat) == value, (node, play, pos)
        left = Counter(hands[turn])
        left.subtract(str(c) for c in play.cards)
        assert min(left.values()) >= 0, (node, play, pos)
        rest = tuple(sorted(left.elements()))
        realised = dict(ref_end.hand_moves(hands[turn], level, *flags.values()))
        assert rest in realised[pat][1], (node, play, pos)
        node = ref_end._Game.after_play(node, rest, (pat[0], pat[1], len(play.cards)))
    assert node == res.value, ("the line stops before the end of the deal", node, pos)
    return len(res.pv)


@pytest.mark.parametrize("k,count,rich", [
    (1, 300, False), slow(2, 200, False), slow(2, 500, False), (2, 300, True),
    slow(3, 100, False), slow(3, 400, False), (3, 100, True), slow(3, 400, True),
    slow(4, 10, False), (4, 10, True),
])
def test_differential_against_reference(k, count, rich):
    rng = random.Random(1000 * k + 7 * count + rich)
    for _ in range(count):
        check_against_reference(random_position(rng, k, rich=rich))


@pytest.mark.parametrize("k,count,rich", [slow(3, 150, True), slow(4, 10, False), (4, 10, True)])
def test_differential_threads(k, count, rich):
    # the root moves shared out between threads over one table: same values
    rng = random.Random(31 * k + count + rich)
    for _ in range(count):
        check_against_reference(random_position(rng, k, rich=rich), threads=3)


def test_threads_match_one_thread_on_bigger_positions():
    rng = random.Random(5)
    for _ in range(6):
        deck = [t for t in ref.TOKENS for _ in range(2)]
        rng.shuffle(deck)
        pos = Position([deck[i * 5:(i + 1) * 5] for i in range(4)],
                       Rules(level=rng.choice(ref.RANKS)), turn=rng.randrange(4))
        one, two = solve(pos), solve(pos, threads=2)
        assert two.exact and two.value == one.value
        assert dict((str(p), v) for p, v in play_values(two)) == \
            dict((str(p), v) for p, v in play_values(one))
        assert two.pv[0][1] in two.best


def test_threads_stop_on_a_progress_error_and_on_limits():
    class Stop(Exception):
        pass

    def progress(done, total, nodes):
        raise Stop

    with pytest.raises(Stop):
        solve(_big_position(), threads=2, progress=progress)
    res = solve(_big_position(), max_seconds=0.05, threads=2)
    assert res.stopped == "limit" and not res.exact
    with pytest.raises(ValueError, match="threads"):
        solve(_big_position(), threads=0)


def test_differential_mixed_hand_sizes():
    # hands of different sizes (1..4 cards), wild-rich at times
    rng = random.Random(99)
    for _ in range(by_run(50, 150)):
        level = rng.choice(ref.RANKS)
        pos = random_position(rng, 4, level, rich=rng.random() < 0.5)
        hands = [list(h)[:rng.randint(1, 3)] if h else [] for h in pos.hands]
        table = pos.table
        try:
            pos = Position(hands, pos.rules, turn=pos.turn, table=table, owner=pos.owner,
                           passes=pos.passes, finished=pos.finished)
        except PositionError:
            continue
        check_against_reference(pos)


def bomb_hand(rng, level):
    """Four cards that make a bomb: four of a rank (with 0-2 wilds) or the
    four jokers."""
    if rng.random() < 0.15:
        return ["SB", "SB", "HR", "HR"]
    r = rng.choice(ref.RANKS)
    w = rng.choice((0, 0, 1, 2)) if r != level else 0
    nat = [s + r for s in "SCDH" if s + r != "H" + level]
    return rng.sample(nat * 2, 4 - w) + ["H" + level] * w


def test_differential_with_bombs():
    # one seat holds a bomb (four of a kind, wilds in it at times, or the
    # joker bomb), the others 1..3 cards: when to bomb, and whom to stop
    rng = random.Random(4242)
    done = 0
    while done < by_run(60, 200):
        level = rng.choice(ref.RANKS)
        pos = random_position(rng, 3, level, rich=rng.random() < 0.5)
        holders = [s for s in SEATS if pos.hands[s]]
        b = rng.choice(holders)
        hands = [[str(c) for c in h][:rng.randint(1, 3)] if h else [] for h in pos.hands]
        hands[b] = bomb_hand(rng, level)
        try:
            pos = Position(hands, pos.rules, turn=pos.turn, table=pos.table,
                           owner=pos.owner, passes=pos.passes, finished=pos.finished)
        except PositionError:
            continue        # a third copy of a card
        check_against_reference(pos)
        done += 1


def test_small_transposition_table_changes_nothing():
    # a 2**10-entry table (constant replacement) must give the same values
    rng = random.Random(5)
    for _ in range(25):
        pos = random_position(rng, 4, rich=rng.random() < 0.5)
        a = solve(pos)
        b = solve(pos, tt_bits=10)
        assert [(core_pattern(p) if p else None, v) for p, v in play_values(a)] == \
               [(core_pattern(p) if p else None, v) for p, v in play_values(b)]


def test_progress_reports_during_and_between_moves():
    seen = []
    res = solve(_big_position(), max_nodes=600_000,
                progress=lambda done, total, nodes: seen.append((done, total, nodes)))
    total = len(res.moves)
    assert seen and all(t == total for _, t, _ in seen)
    assert seen[-1][0] == total
    assert [n for _, _, n in seen] == sorted(n for _, _, n in seen)
    assert any(n % (1 << 18) == 0 and n for _, _, n in seen)   # from inside a search


def test_progress_callback_can_stop_the_search():
    calls = []

    def stop(done, total, nodes):
        calls.append(nodes)
        raise RuntimeError("enough")
    with pytest.raises(RuntimeError, match="enough"):
        solve(_big_position(), max_nodes=2_000_000, progress=stop)
    assert calls == [1 << 18]       # raised inside the root search, which stopped


def flags_matter(pos):
    """Whether the rules flags of pos change the plays of some hand (a full
    house with a joker pair, a same-suit run that is no straight)."""
    plain = Rules(level=pos.rules.level)
    return any({core_pattern(p) for p in plays(h, pos.rules)} !=
               {core_pattern(p) for p in plays(h, plain)} for h in pos.hands if h)


@pytest.mark.parametrize("flags,seed", [slow(False, 77), slow(True, 78)])
def test_differential_two_hands_with_sequences(flags, seed):
    # two seats out (one per team), two hands of 5-6 cards rich in runs,
    # wilds and same-suit runs: straights, tubes, plates and straight
    # flushes are possible, so the search keys positions by the exact cards
    # (the renumbered keys only start once nobody can form a sequence).
    # flags: random rules flags (random_flags), both sides play by them
    rng = random.Random(seed)
    done = seq = mattered = 0
    while done < 150:
        level = rng.choice(ref.RANKS)
        a = rng.randrange(4)
        b = rng.choice([s for s in SEATS if s % 2 != a % 2])
        finished = [a, b]
        rng.shuffle(finished)
        hands = [[] if s in finished else ref.random_rich_hand(rng, rng.randint(5, 6), level)
                 for s in SEATS]
        if max(Counter(c for h in hands for c in h).values()) > 2:
            continue
        turn = rng.choice([s for s in SEATS if hands[s]])
        rules = Rules(level=level, **random_flags(rng)) if flags else Rules(level=level)
        pos = Position(hands, rules, turn=turn, finished=finished)
        check_against_reference(pos)
        done += 1
        seq += any(p.type in ("straight", "tube", "plate", "straight_flush")
                   for p in plays(pos.hands[turn], pos.rules))
        mattered += flags_matter(pos)
    assert seq >= 30        # the sample really exercises sequences
    assert mattered >= (15 if flags else 0), mattered    # and the flags


@pytest.mark.parametrize("k,count,seed", [
    slow(3, 100, 1), slow(5, 100, 2), slow(6, 40, 3), slow(5, 600, 4), slow(6, 200, 5)])
def test_differential_with_rule_flags(k, count, seed):
    # random positions (random_position: 0-2 seats out, a standing play
    # half of the time) with random rules flags, both sides playing by them.
    # The flags change only plays of five cards (RULES 5), hence hands of 5
    # and 6 cards; in the 3-card row they change no play (checked) and the
    # row checks only that they are passed through on both sides.
    # Rich hands only: four plain hands of 5-6 cards take the reference
    # seconds each (a 4-seat position without bombs is a long game).
    rng = random.Random(7700 + seed)
    mattered = 0
    for _ in range(count):
        pos = random_position(rng, k, rich=True, flags=True)
        check_against_reference(pos)
        mattered += flags_matter(pos)
    if k >= 5:
        assert mattered >= count // 10, mattered
    else:
        assert mattered == 0


def flush_rich_hand(rng, n, level):
    """n cards (at most two copies of a card) biased towards straight
    flushes and the choice of their cards: a same-suit run of 4-6 ranks (a
    straight flush, or one a wild completes), then cards of the run's ranks
    in other suits or second copies (a straight, a pair or a bomb can take
    either copy, and only one keeps the flush), wilds, joker pairs and
    random cards."""
    hand = Counter()

    def add(tok):
        if hand[tok] < 2 and sum(hand.values()) < n:
            hand[tok] += 1
    # most of the time at least one card beside the run
    length = min(rng.choice((4, 5, 5, 6)), n - (rng.random() < 0.7))
    start = rng.randrange(len(ref.SEQ) - length + 1)
    suit = rng.choice(ref.SUITS)
    run = ref.SEQ[start:start + length]
    for r in run:
        add(suit + r)
    while sum(hand.values()) < n:
        x = rng.random()
        if x < 0.45:
            add(rng.choice(ref.SUITS) + rng.choice(run))
        elif x < 0.6:
            add("H" + level)
        elif x < 0.67:
            joker = rng.choice(("SB", "HR"))
            add(joker)
            add(joker)
        else:
            add(rng.choice(ref.NON_JOKER_CARDS))
    out = list(hand.elements())
    rng.shuffle(out)
    return out


def sequence_position(rng, seats, deal=flush_rich_hand, sizes=(5, 6), flags=True):
    """A random reachable position where `seats` seats (2..4) hold
    deal(rng, n, level) cards, n from `sizes`, and the others are out, in
    random order (never both of a team); a random seat to act; half of the
    time a standing play drawn from the rest of the deck, its owner and
    passes as in random_position. flags: random rules flags (random_flags)."""
    level = rng.choice(ref.RANKS)
    rules = Rules(level=level, **random_flags(rng)) if flags else Rules(level=level)
    while True:
        out = []
        if seats <= 3:
            out.append(rng.randrange(4))
        if seats == 2:
            out.append(rng.choice([s for s in SEATS if s % 2 != out[0] % 2]))
            rng.shuffle(out)
        hands = [[] if s in out else deal(rng, rng.choice(sizes), level) for s in SEATS]
        used = Counter(c for h in hands for c in h)
        if max(used.values()) <= 2:
            break
    turn = rng.choice([s for s in SEATS if hands[s]])
    table, owner, passes = None, None, 0
    if rng.random() < 0.5:
        rest = [t for t in ref.TOKENS for _ in range(2 - used[t])]
        rng.shuffle(rest)
        table = rng.choice(plays(rest[:rng.randint(1, 5)], rules))
        owner, passes = ref_end.random_owner(rng, hands, turn, out)
    return Position(hands, rules, turn=turn, table=table, owner=owner, passes=passes,
                    finished=out)


def sequence_choices(pos):
    """(straight flushes, card choices) at the root of pos: whether some
    hand can play a straight flush, and whether the mover has a pattern that
    distinct cards realise, some of which leave a hand that can still play a
    straight flush and some not (the reference's hand_moves)."""
    flags = tuple(flag_kwargs(pos.rules).values())
    level = pos.rules.level

    def can_flush(hand):
        return any(p[0] == "straight_flush" for p in ref.plays(hand, level, *flags))
    sf = any(can_flush([str(c) for c in h]) for h in pos.hands if h)
    hand = tuple(sorted(str(c) for c in pos.hands[pos.turn]))
    choice = any(len({can_flush(rest) for rest in rests}) == 2
                 for _pat, (_play, rests) in ref_end.hand_moves(hand, level, *flags))
    return sf, choice


@pytest.mark.parametrize("seats,count,seed", [
    (3, 4, 1), slow(3, 40, 1), slow(4, 30, 2), slow(3, 400, 3), slow(4, 300, 4)])
def test_differential_three_and_four_hands_with_straight_flushes(seats, count, seed):
    # three or four seats of 5-6 cards built around same-suit runs, with
    # other suits and second copies of the run's ranks, wilds and joker
    # pairs, random rules flags: straight flushes can be formed, and which
    # concrete cards a straight, a pair or a bomb takes decides whether one
    # still can. The core plays one move per pattern with the cards it
    # chooses (_state.pxi, the merge); the reference values each pattern by
    # its best card choice: the values agree only if the core's choice is
    # never worse.
    rng = random.Random(9000 + seed)
    sf = choice = 0
    for _ in range(count):
        pos = sequence_position(rng, seats)
        check_against_reference(pos)
        a, b = sequence_choices(pos)
        sf += a
        choice += b
    # the sample really has straight flushes, and card choices that keep
    # or spend one at the root (many more arise inside the search)
    assert sf >= count // 2 and choice >= count // 10, (sf, choice)


def _small_flagged_position(rng):
    return random_position(rng, rng.randint(2, 4), rich=rng.random() < 0.5, flags=True)


@pytest.mark.parametrize("make,count,seed", [
    slow(_small_flagged_position, 150, 1),
    slow(lambda rng: sequence_position(rng, 3), 30, 2),
    (lambda rng: sequence_position(rng, 2, deal=ref.random_rich_hand), 40, 3),
    slow(_small_flagged_position, 1000, 4),
    slow(lambda rng: sequence_position(rng, 3), 300, 5),
    slow(lambda rng: sequence_position(rng, 4), 100, 6),
], ids=["small", "flush3", "rich2", "small-slow", "flush3-slow", "flush4-slow"])
def test_principal_line_keeps_the_value(make, count, seed):
    # the whole principal variation, not only its first move, replayed
    # against the reference (check_principal_line): random 2-4-card
    # positions, and 5-6-card ones with straight flushes and card choices
    # (sequence_position), random rules flags
    rng = random.Random(9900 + seed)
    moves = 0
    for _ in range(count):
        pos = make(rng)
        res = solve(pos)
        assert res.exact
        moves += check_principal_line(pos, res)
    assert moves >= 3 * count, moves      # lines longer than a move or two


def test_wild_against_a_table_ace_or_level_card():
    # Regression: seat 0 holds a lone wild (a level card when played alone).
    # Against a table ace it can play; against a table level card it cannot.
    # The renumbered key must tell these apart even though no natural level
    # card is held (it keys where the level rank sits among the ranks).
    pos = Position(["S5 C5 D6 H9 H9", "", "", "S2 H2 D9 HA CA DA"], Rules(level=9),
                   turn=0, finished=[1, 2])
    check_against_reference(pos)
    assert move_values(solve(pos))["H9"] == -1


def _children(pos):
    """Every position one move after pos (RULES 6), deals not over."""
    rules, s = pos.rules, pos.turn
    hands = [list(h) for h in pos.hands]
    out = []
    moves = plays(hands[s], rules) if pos.table is None else beating_plays(
        hands[s], pos.table, rules)
    for m in moves:
        h2 = [list(h) for h in hands]
        left = Counter(h2[s])
        left.subtract(m.cards)
        h2[s] = sorted(left.elements())
        fin = list(pos.finished) + ([s] if not h2[s] else [])
        if any(a in fin and a + 2 in fin for a in (0, 1)):
            continue
        nxt = next((s + k) % 4 for k in (1, 2, 3) if h2[(s + k) % 4])
        out.append(Position(h2, rules, turn=nxt, table=m, owner=s, finished=fin))
    if pos.table is not None:
        holders = sum(1 for h in hands if h)
        need = holders - 1 if hands[pos.owner] else holders
        if pos.passes + 1 == need:
            lead = pos.owner if hands[pos.owner] else (pos.owner + 2) % 4
            out.append(Position(hands, rules, turn=lead, finished=pos.finished))
        else:
            nxt = next((s + k) % 4 for k in (1, 2, 3) if hands[(s + k) % 4])
            out.append(Position(hands, rules, turn=nxt, table=pos.table, owner=pos.owner,
                                passes=pos.passes + 1, finished=pos.finished))
    return out


SEQUENCE_TYPES = ("straight", "tube", "plate", "straight_flush")


def _key_content(p):
    """What the exact key must tell apart: the hands card by card, the seat
    to act, what beats the standing play (type, rank, size), its owner and
    the passes, the finishing order. (Only the standing play's own cards
    are left out: they are out of the game.)"""
    t = p.table
    return (tuple(tuple(sorted(str(c) for c in h)) for h in p.hands), p.turn,
            None if t is None else (t.type, t.rank, t.size), p.owner, p.passes,
            tuple(p.finished))


def _renumbered_root(rng):
    """A small wild-rich position (3 cards a hand): a wild in some hand,
    and no natural level card at times. None when the draw fails."""
    root = random_position(rng, 3, rich=rng.random() < 0.5)
    wild = "H" + root.rules.level
    hands = [[str(c) for c in h] for h in root.hands]
    s = rng.choice([s for s in SEATS if hands[s]])
    hands[s][0] = wild
    if rng.random() < 0.5:
        hands = [[c for c in h if c[1] != root.rules.level or c == wild] or
                 ([] if not h else [wild]) for h in hands]
    try:
        return Position(hands, root.rules, turn=root.turn, table=root.table,
                        owner=root.owner, passes=root.passes, finished=root.finished)
    except PositionError:
        return None


def _sequence_root(rng):
    """Two or three seats of 5 cards built around same-suit runs
    (sequence_position, random rules flags): sequences, straight flushes
    among them, can be formed at first and not after some plays."""
    return sequence_position(rng, rng.choice((2, 3)), sizes=(5,))


def _resuited(rng, pos):
    """pos with random suits on the natural cards (not the wilds, not the
    jokers): the same ranks, so the same renumbered key while the suits are
    forgotten, but other straight flushes. None when the draw fails."""
    wild = "H" + pos.rules.level
    for _ in range(20):
        hands = [[c if c == wild or c[1] in "BR" else
                  rng.choice([u for u in ref.SUITS if u + c[1] != wild]) + c[1]
                  for c in map(str, h)] for h in pos.hands]
        if hands == [[str(c) for c in h] for h in pos.hands]:
            continue
        try:
            return Position(hands, pos.rules, turn=pos.turn, table=pos.table,
                            owner=pos.owner, passes=pos.passes, finished=pos.finished)
        except PositionError:
            continue        # a third copy of a card
    return None


@pytest.mark.parametrize("n_roots,min_groups,sequences", [
    slow(8, 4, False), slow(40, 20, False), slow(4, 4, True), slow(30, 30, True)])
def test_renumbered_keys_only_merge_positions_of_equal_value(n_roots, min_groups,
                                                             sequences):
    # Every position reachable from a few small positions (up to 600 each),
    # grouped by the key the search stores it under (_keys.pxi, st_key): the
    # renumbered key when nobody can form a sequence play (seqmask 0), else
    # the exact key. Within a group the reference values must agree. The
    # exact key may only merge positions that agree in everything but the
    # standing play's own cards (_key_content): checked on every position,
    # whichever key the search uses, and such positions must have one value.
    # And seqmask must hold every seat whose hand has a sequence play
    # (the reference's plays): else the renumbered key, which forgets
    # suits and which ranks are next to each other, would be used too early.
    # sequences=False: 3-card wild-rich roots, where no sequence can ever be
    # formed (seqmask 0 throughout); True: 5-card roots built around
    # same-suit runs, where the search goes from exact to renumbered keys,
    # explored together with a re-suited twin (_resuited): where a straight
    # flush can still be formed, a key that forgot suits too early would
    # merge the two.
    rng = random.Random(8 if not sequences else 18)
    groups_checked = exact_merges = seq_positions = 0
    roots = 0
    while roots < n_roots:
        root = _sequence_root(rng) if sequences else _renumbered_root(rng)
        if root is None:
            continue
        stack = [root]
        if sequences:
            twin = _resuited(rng, root)
            if twin is None:
                continue
            stack.append(twin)
        roots += 1
        level, flags = root.rules.level, tuple(flag_kwargs(root.rules).values())
        seen, by_key, by_exact = set(), {}, {}
        while stack and len(seen) < 600:
            # depth first; breadth first from sequence roots (the positions
            # near the root are those where sequences can still be formed)
            p = stack.pop(0 if sequences else -1)
            if repr(p) in seen:
                continue
            seen.add(repr(p))
            rk, xk, seqmask = _keys(p)
            for q in SEATS:
                if any(pat[0] in SEQUENCE_TYPES
                       for pat in ref.plays([str(c) for c in p.hands[q]], level, *flags)):
                    assert (seqmask >> q) & 1, (q, p)
            if not sequences:
                assert seqmask == 0
            seq_positions += seqmask != 0
            by_key.setdefault(rk if seqmask == 0 else xk, []).append(p)
            by_exact.setdefault(xk, []).append(p)
            stack.extend(_children(p))
        for group in by_exact.values():
            assert len({_key_content(p) for p in group}) == 1, group
            if len(group) > 1:
                exact_merges += 1
                assert len({reference_solve(p)[0] for p in group}) == 1, group
        for group in by_key.values():
            if len(group) > 1:
                values = {reference_solve(p)[0] for p in group}
                assert len(values) == 1, group
                groups_checked += 1
    assert groups_checked > min_groups and exact_merges > 0, (groups_checked, exact_merges)
    if sequences:       # positions where the exact key is the one used
        assert seq_positions > 25 * n_roots, seq_positions


def _key_args(p):
    """A position as the arguments of the core's key test hooks."""
    return (p.counts(), p.rules.level_index, p.rules.flags, p.turn, p.table,
            -1 if p.owner is None else p.owner, p.passes, p.finished)


def _keys(p):
    return _core._test_keys(*_key_args(p))


def test_relabelled_key_kept_up_to_date_by_the_search():
    # The search keeps each seat's rank counts (the words the relabelled key
    # packs) up to date play by play; the key of every child it reaches must
    # equal the key of the same position built from scratch, with the PEXT
    # instruction (where the CPU has it) and with the portable packing alike.
    rng = random.Random(23)
    checked = 0
    for k in range(150):
        pos = random_position(rng, rng.choice((3, 4, 6)), rich=k % 2 == 0)
        args = _key_args(pos)
        expected = sorted(_keys(c)[0] for c in _children(pos))
        for portable in (0, 1):
            assert sorted(_core._test_child_keys(*args, portable=portable)) == expected
            checked += len(expected)
    assert checked > 500


def test_relabelled_key_same_with_and_without_pext():
    # The PEXT path and the portable loop pack the same words: the same keys
    # for every position (so a search runs the same on a CPU without PEXT).
    rng = random.Random(24)
    for _ in range(200):
        pos = random_position(rng, rng.choice((3, 5)), rich=rng.random() < 0.5)
        args = _key_args(pos)
        assert _core._test_keys(*args, portable=0) == _core._test_keys(*args, portable=1)


# ---------------------------------------------------------------------------
# The sure run-out bound (_search.pxi, "Sure run-out"): hand-made positions
# where it fires, argued on paper, and checks that it never changes a value
# ---------------------------------------------------------------------------

def _root_search(pos):
    """(lo, hi, nodes, run-outs) of the root value alone."""
    from guandan_fast.engine import endgame
    s = endgame._search(pos, 16)
    lo, hi = s.solve_root()
    return lo, hi, s.nodes, s.runouts


def test_runout_exact_when_the_partner_is_first():
    # Seat 2 is out first. Seat 0 leads SA DA (a pair of aces: seats 1 and 3
    # hold no pair and no bomb, and nothing beats an ace pair but a pair of
    # 2s or jokers), everyone passes, seat 0 leads again and plays out C4:
    # second behind its partner, +3 whatever the others do. The root is a
    # run-out terminal: one node.
    pos = Position(["SA DA C4", "S5 D6", "", "S7 C8"], R2, turn=0, finished=[2])
    assert _root_search(pos)[:3] == (3, 3, 1)
    res = solve(pos)
    assert res.value == 3 and res.exact
    assert reference_solve(pos)[0] == 3


def test_runout_bound_nobody_out():
    # Seat 1 (team 1) leads SA DA (no pair or bomb among seats 0 and 2), then
    # C4 and is out first: team 1 wins, value <= -1 (the bound). On paper the
    # value is -3: after C4 seat 3's SK beats anything team 0 plays (its best
    # is a 7) and goes out second, whatever seat 2 and seat 0 do.
    pos = Position(["S3 S5", "SA DA C4", "D6 C7", "SK"], R2, turn=1)
    lo, hi, nodes, runouts = _root_search(pos)
    assert runouts >= 1 and (lo, hi) == (-3, -3)
    res = solve(pos)
    assert res.value == -3 and res.exact
    assert reference_solve(pos)[0] == -3


def test_runout_when_following():
    # Seat 1 played S9; seats 2 and 3 passed; seat 0 to act with SA DA HK.
    # HK beats S9 and nobody on team 1 (S4 S6, C5 C7) can beat a king; then
    # the pair of aces, which they cannot beat either: seat 0 is out first.
    # Seat 2 takes the lead (接风) and plays D3: out second, +3. Every move of
    # team 1 is a forced pass, so +3 is the value; the run-out fires at the
    # root (following) and proves value >= 1 there.
    pos = Position(["SA DA HK", "S4 S6", "D3", "C5 C7"], R2, turn=0,
                   table="S9", owner=1, passes=2)
    lo, hi, nodes, runouts = _root_search(pos)
    assert runouts >= 1 and (lo, hi) == (3, 3)
    res = solve(pos)
    assert res.value == 3 and res.exact
    assert reference_solve(pos)[0] == 3


def test_runout_third_place_is_exact():
    # Seats 0 then 1 are out. Seat 3 leads SA DA (seat 2's S3 S4 cannot beat
    # it) and is out third; seat 2 is last: team 0 (seat 0 first) gains +1.
    # The run-out makes the root a terminal: one node.
    pos = Position(["", "", "S3 S4", "SA DA"], R2, turn=3, finished=[0, 1])
    assert _root_search(pos)[:3] == (1, 1, 1)
    assert solve(pos).value == 1
    assert reference_solve(pos)[0] == 1


def test_runout_opponent_first_caps_the_loss():
    # Seat 1 is out first; seat 0 leads SA DA and is out second, so seat 3
    # can be third at best: team 1 gains 1 or 2 (bound [-2, -1]). On paper:
    # seat 2 takes the lead (接风) and plays S3, out third: -1.
    pos = Position(["SA DA", "", "S3", "S4 S5"], R2, turn=0, finished=[1])
    lo, hi, nodes, runouts = _root_search(pos)
    assert runouts >= 1 and (lo, hi) == (-1, -1)
    assert solve(pos).value == -1
    assert reference_solve(pos)[0] == -1


def test_runout_needs_every_card_covered():
    # Seat 0: SA DA C4 S3. After the aces, two singles remain; C4 and S3 are
    # both beatable (seat 1 holds S5), so only one of them can be the last
    # play. Nor can the aces answer the other one: seats 1 and 3 hold one
    # card each, and the one who beats it is out at once. No run-out at the
    # root (and the value is whatever play gives).
    pos = Position(["SA DA C4 S3", "S5", "", "S7"], R2, turn=0, finished=[2])
    lo, hi, nodes, runouts = _root_search(pos)
    assert nodes > 1
    assert solve(pos).value == reference_solve(pos)[0]


def _check_answered_runout(pos):
    """The root is a run-out worth +3 (the reference agrees), proven in one
    node: only answered plays make it one (argued beside each position)."""
    lo, hi, nodes, runouts = _root_search(pos)
    assert (lo, hi) == (3, 3) and nodes == 1 and runouts == 1
    assert reference_solve(pos)[0] == 3


def test_runout_with_an_unsafe_play_answered():
    # Seat 0: SA DA C4 S3, seats 1 and 3 two cards each. Seat 0 leads S3; if
    # an opponent beats it (keeping a card), SA beats whatever single they
    # play and nobody beats SA: seat 0 leads again, DA, then C4, out second
    # behind its partner: +3 at the root, without a search.
    pos = Position(["SA DA C4 S3", "S5 D6", "", "S7 C8"], R2, turn=0, finished=[2])
    _check_answered_runout(pos)


def test_runout_following_with_an_answered_play():
    # Seat 1 led S3 (seat 2 is out, seat 3 passed). Seat 0 beats it with C4;
    # whatever single seat 1 or seat 3 puts on the C4 (each keeps a card),
    # SA beats it, nobody beats SA, and seat 0 leads S5 and is out second,
    # behind its partner: +3 at the root, without a search (before answered
    # plays, a follower needed a safe play beating the table, SA, and then
    # C4 and S5 were two unsafe plays).
    pos = Position(["SA C4 S5", "D6 D7", "", "S8 C9"], R2, turn=0, table="S3", owner=1,
                   passes=1, finished=[2])
    _check_answered_runout(pos)


def test_runout_answer_must_beat_every_play_of_its_type():
    # After seat 3's 555 and seat 0's 88 + wild, seat 2 leads S4 C5 H6 with
    # seat 1 holding 666. Nobody can beat seat 2's H6, but seat 1 can play
    # a 6 on the S4 and H6 does not beat that: no run-out (seat 1 plays
    # 6, 66 out third: -2).
    pos = Position(["S8 C8 HK", "H6 D6 D6", "S4 C5 H6", "S5 S5 H5"], Rules(level="K"), turn=3)
    assert solve(pos).value == reference_solve(pos)[0] == -2


def test_runout_answer_only_while_no_opponent_goes_out():
    # Seat 0: SA C4 S3; seat 1 holds one card, S5: it beats either single
    # and is out at once, so the ace cannot answer in time (value below +3).
    pos = Position(["SA C4 S3", "S5", "", "S7 C8"], R2, turn=0, finished=[2])
    value = reference_solve(pos)[0]
    assert value < 3
    assert solve(pos).value == value


def test_runout_continuation_after_an_all_safe_split():
    # Nobody out; seat 0 leads SA DA, which seats 1 and 3 cannot beat, and is
    # out first; every play of the split was safe, so nobody played meanwhile
    # and seat 2 takes the lead (接风) with S3: out second, +3. The bound
    # alone says >= +1; the search of the position after the run-out proves
    # +3 (the test "value >= 3" is cut there).
    pos = Position(["SA DA", "S5 D6", "S3", "S7 C8"], R2, turn=0)
    lo, hi, nodes, runouts = _root_search(pos)
    assert runouts >= 1 and (lo, hi) == (3, 3)
    assert solve(pos).value == 3
    assert reference_solve(pos)[0] == 3


def test_runout_continuation_not_after_an_unsafe_last_play():
    # Seat 0 holds SA DA C4: a split with an unsafe last play (C4, which seat
    # 1's S5 beats). Seat 0 is out first all the same, but seat 1 may beat
    # the C4 and keep the lead, so the 接风 position (seat 2 to lead) is NOT
    # the continuation: here seat 1 beats C4 with S5, and plays D6 out
    # second... unless seat 2 (S3 S9) beats S5 with S9 first. The value is
    # whatever the reference says; the solver must agree with it.
    pos = Position(["SA DA C4", "S5 D6", "S3 S9", "S7 C8"], R2, turn=0)
    assert solve(pos).value == reference_solve(pos)[0]


def test_runout_fires_in_the_differential_positions():
    # the differential test's positions do exercise the bound
    from guandan_fast.engine import endgame
    rng = random.Random(77)
    fired = 0
    for _ in range(200):
        pos = random_position(rng, 4, rich=True)
        s = endgame._search(pos, 16)
        s.solve_root()
        fired += s.runouts > 0
        check = rng.random() < 0.1
        if check:
            check_against_reference(pos)
    assert fired >= 20


def test_value_only_solve_agrees_with_the_full_solve():
    """solve(all_moves=False): the same value, and its best moves (the one
    it searched, and any the root value alone proves: with team 0 to act at
    -3 every move is -3) are best moves of the full solve."""
    rng = random.Random(8080)
    for i in range(60):
        pos = random_position(rng, 3 + i % 3, rich=i % 2 == 0)
        full = solve(pos)
        quick = solve(pos, all_moves=False)
        assert quick.value == full.value and quick.exact
        assert quick.best and quick.pv[0][1] is quick.best[0]
        full_best = {None if m is None else m.pattern for m in full.best}
        assert {None if m is None else m.pattern for m in quick.best} <= full_best
        assert quick.nodes <= full.nodes
        full_values = {(None if m is None else m.pattern): v for m, v in play_values(full)}
        for m, v in play_values(quick):       # what it did value agrees with the full solve
            if v is not None:
                assert v == full_values[None if m is None else m.pattern]


def test_cli_endgame_value_only():
    full = json.loads(run_cli("endgame", EXAMPLES / "endgame2.txt", "--format", "json").stdout)
    r = run_cli("endgame", EXAMPLES / "endgame2.txt", "--format", "json", "--value-only")
    assert r.returncode == 0, r.stderr
    quick = json.loads(r.stdout)
    assert quick["value"] == full["value"]
    assert quick["nodes"] <= full["nodes"]


def test_abort_flag_cancel_never_hides_a_limit():
    # EndgameSearch's abort flag (atomic, gf_port.h): cancel() turns only a
    # running search (0) into a cancelled one (4), resume() clears only a
    # cancellation; a limit the search reported (1) stays a limit, and
    # stop() (3) stays an interruption.
    from guandan_fast.engine import endgame
    pos = random_position(random.Random(99), 6)
    s = endgame._search(pos, 16)
    s.cancel()
    assert s.aborted == 4
    s.resume()
    assert s.aborted == 0
    s.set_limits(max_nodes=5)
    s.solve_root()
    assert s.aborted == 1
    s.cancel()
    assert s.aborted == 1
    s.resume()
    assert s.aborted == 1
    s.set_limits()
    s.stop()
    s.cancel()
    s.resume()
    assert s.aborted == 3


def test_a_position_is_never_changed_after_it_is_checked():
    import copy
    import pickle
    p = Position(["S3", "S4", "S5", "S6"], Rules(level=2), turn=1, table="S7", owner=0)
    for name, value in (("turn", 2 ** 70), ("owner", 1), ("passes", 2), ("table", "x"),
                        ("hands", None), ("rules", "2")):
        with pytest.raises(PositionError, match="never changed"):
            setattr(p, name, value)
    assert (p.turn, p.owner, p.passes) == (1, 0, 0)
    # a copy is made, and checked, as the position was
    assert pickle.loads(pickle.dumps(p)) == p == copy.deepcopy(p) == copy.copy(p)


@pytest.mark.parametrize("finished", [None, 1, "0"])
def test_a_finished_that_is_no_sequence_is_named(finished):
    with pytest.raises(PositionError, match="finished must be a sequence"):
        Position(["S3", "S4", "S5", "S6"], Rules(level=2), finished=finished)
