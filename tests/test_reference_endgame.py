"""Self-tests of the pure-Python reference double-dummy solver
(tests/reference_endgame.py).

Hand-made positions whose values are worked out on paper in the comments,
then cross-checks on random positions: the exact speedups against plain
minimax, a second, literal implementation of the round rules, and the
one-step consistency of every move value with the position it leads to.

All positions are at level 2 unless said otherwise, so the only wilds are
the hearts 2 ('H2') and none of the hand-made positions holds one unless
said.  Seats 0 & 2 are team 0 (values positive when they win).
"""

import random
from collections import Counter
from functools import lru_cache

import pytest

import reference
import reference_endgame as RE
from conftest import slow
from reference_endgame import random_position, solve


def H(*hands):
    return [h.split() for h in hands]


def single(r):
    return ("single", r, (r,), None)


def pair(r):
    return ("pair", r, (r, r), None)


# ---------------------------------------------------------------------------
# Hand-made positions
# ---------------------------------------------------------------------------

def test_single_last_card_on_free_lead_then_partner_takes_the_wind():
    # Seat 0 leads its last card S9 and is out first.  Nobody can beat a 9
    # (seat 1: 3 4, seat 2 is the partner, seat 3: 7 8), so all three pass;
    # the owner is out, so its partner seat 2 leads (接风) and plays out its
    # pair of 5s at once: finishing order 0, 2 -> +3.
    value, moves = solve(H("S9", "S3 S4", "S5 D5", "S7 S8"), "2")
    assert moves == {single("9"): 3}
    assert value == 3


def test_opponent_blocks_the_wind_with_a_big_joker():
    # Same, but seat 1 holds the big joker only.  Seat 0 plays out S9
    # (first).  If seat 1 passed, seat 2 passes, seat 3 cannot beat 9, and
    # seat 2 would lead its pair out: +3.  So seat 1 plays HR and is out
    # second; nobody beats it (seat 3's 7 8 are lower), the owner is out, so
    # its partner seat 3 leads 7 (seat 2 holds a pair only: pass) and then 8:
    # order 0, 1, 3 -> team 1 has both out, seat 0's partner is last: +1.
    value, moves = solve(H("S9", "HR", "S5 D5", "S7 S8"), "2")
    assert moves == {single("9"): 1}
    assert value == 1


def test_pair_out_beats_splitting_the_pair():
    # Seat 0 holds S3 D3.  Leading the pair: nobody holds a pair, all pass,
    # seat 2 leads (接风) S5 and is out: order 0, 2 -> +3.
    # Leading a single 3: seat 1 plays S4 and is out (if seat 1 passed,
    # seat 2 would play S5 out first, so team 0 would win).  Then seat 2
    # either passes (seat 3 plays S6 out: order 1, 3 -> -3) or plays S5 out;
    # then seat 3 plays S6 out: order 1, 2, 3 -> -2 (if seat 3 passed
    # instead, seat 0 would get the lead and go out: order 1, 2, 0 -> -1).
    # So the single is worth -2 and the pair +3.
    value, moves = solve(H("S3 D3", "S4", "S5", "S6"), "2")
    assert moves == {pair("3"): 3, single("3"): -2}
    assert value == 3


def test_partner_must_pass_to_let_the_owner_win_the_round():
    # Seat 0 played a single K; seat 1 passed; seat 2 (SA S4) to act.
    # Pass: seat 3 (8 9) cannot beat K, the round ends, seat 0 leads its
    # pair of 5s and is out; nobody has a pair, so seat 2 leads (接风) SA
    # (nobody beats it) and then S4: order 0, 2 -> +3.
    # SA over K: nobody beats it, seat 2 leads S4 and is out first.  Seat 3
    # plays S8 (seat 0 holds only a pair; seat 1's 6 7 are lower), leads S9
    # and is out; the owner is out, so seat 1 leads 6 and 7 (seat 0 cannot
    # answer singles with a pair): order 2, 3, 1 -> +1.
    value, moves = solve(H("S5 D5", "S6 S7", "SA S4", "S8 S9"), "2",
                         turn=2, table=("single", "K", 1), owner=0, passes=1)
    assert moves == {None: 3, single("A"): 1}
    assert value == 3


def test_bomb_kept_for_the_right_moment():
    # Seat 0: bomb 7777 and S3.  Seat 1: A 5, seat 2: pair 9, seat 3: K 6.
    # Lead S3 first: nobody from team 1 can go out before seat 0's next turn
    # (each holds 2 cards and plays at most one card in between), and at
    # that turn seat 0 bombs (or leads the bomb if everyone passed) and is
    # out.  Nobody holds a bomb, so all pass and seat 2 leads (接风) its pair
    # of 9s and is out: +3.
    # Lead the bomb first: all pass, seat 0 leads S3 and is out, seat 1
    # plays SA (nobody beats it: seat 2 holds a pair, seat 3's best is K),
    # leads S5 and is out; seat 2 cannot answer a single with a pair, seat 3
    # plays 6 or K and is out: order 0, 1, 3 -> +1.
    value, moves = solve(H("S7 S7 D7 D7 S3", "SA S5", "S9 D9", "SK S6"), "2")
    assert moves[("bomb", "7", ("7", "7", "7", "7"), None)] == 1
    assert moves[single("3")] == 3
    assert value == 3


def test_bomb_now_stops_the_opponent_going_out():
    # Seat 3 led a single A and holds one card (S4); seat 0 to act with a
    # bomb 7777 and HR.  Beating with HR or with the bomb, seat 0 keeps the
    # lead (nobody else holds a bomb), plays out its other part (the bomb
    # or HR; unbeatable) and is out first; seat 2 then leads (接风) its
    # pair of 9s: +3.  Passing: seats 1 (Q J) and 2 (pair) cannot beat A, the
    # round ends and seat 3 plays S4 out first, so team 1 wins.
    value, moves = solve(H("S7 S7 D7 D7 HR", "SQ SJ", "S9 D9", "S4"), "2",
                         turn=0, table=("single", "A", 1), owner=3, passes=0)
    assert moves[("bomb", "7", ("7", "7", "7", "7"), None)] == 3
    assert moves[single("R")] == 3
    assert moves[None] < 0
    assert value == 3


def test_team_one_wins_on_its_own_lead():
    # Seat 1 leads HR and is out; nobody beats it (no bombs), so seat 3
    # leads (接风) its pair of 3s and is out (seats 0 and 2 have no pair):
    # order 1, 3 -> -3.
    value, moves = solve(H("S4 S6", "HR", "S5 S8", "S3 D3"), "2", turn=1)
    assert moves == {single("R"): -3}
    assert value == -3


def test_team_one_wins_although_team_zero_leads():
    # Seat 0 must lead a single (3 or 5); seat 1 plays HR over it and is out,
    # nobody beats HR (SB is lower, no bombs), and seat 3 leads (接风) its
    # pair of small jokers: order 1, 3 -> -3 whatever seat 0 does.
    value, moves = solve(H("S3 S5", "HR", "S4 S6", "SB SB"), "2", turn=0)
    assert moves == {single("3"): -3, single("5"): -3}
    assert value == -3


def test_finished_seat_given():
    # Seat 1 is already out (first): team 1 has won; the question is by how
    # much.  Seat 0 plays out S3 (second).  Seat 2 holds a pair: pass.  If
    # seat 3 passed, seat 2 would lead (接风) its 4s and be out: order 1, 0,
    # 2 -> -1.  So seat 3 plays S5 over S3, nobody beats it, it leads D5 and
    # is out: order 1, 0, 3 -> -2.
    value, moves = solve(H("S3", "", "S4 D4", "S5 D5"), "2", turn=0, finished=(1,))
    assert moves == {single("3"): -2}
    assert value == -2


def test_wind_after_the_owner_went_out_with_the_standing_play():
    # Seats 1 then 0 are out; seat 0 went out with a single K that still
    # stands.  Seat 2 (S3) cannot beat it and must pass.  Seat 3 (SA) then
    # either plays A and is out (order 1, 0, 3 -> -2) or passes: every
    # holder has passed, the owner is out, so its partner seat 2 leads S3
    # and is out (order 1, 0, 2 -> -1).  Team 1 takes -2.
    value, moves = solve(H("", "", "S3", "SA"), "2", turn=2, finished=(1, 0),
                         table=("single", "K", 1), owner=0, passes=0)
    assert moves == {None: -2}
    assert value == -2
    # The same after seat 2's pass: seat 3 to act, one pass made.
    value, moves = solve(H("", "", "S3", "SA"), "2", turn=3, finished=(1, 0),
                         table=("single", "K", 1), owner=0, passes=1)
    assert moves == {single("A"): -2, None: -1}
    assert value == -2


def test_round_lasts_until_every_holder_has_passed():
    # Seat 2 went out (first) with a single T that still stands; seat 3 has
    # passed since; seat 0 (S3) to act.  Holders: 0, 1, 3; the owner is out,
    # so the round ends only after all three have passed in a row.
    # Seat 0 cannot beat T: pass (2 passes).  The round is not over: seat 1
    # (SQ SK) acts.  Were seat 1 to pass, the round would end and seat 0,
    # partner of the out owner, would lead S3 and be out: order 2, 0 -> +3.
    # So seat 1 plays K (or Q): seat 3 (4 J) and seat 0 cannot beat it, seat
    # 1 leads its other card and is out; nobody beats that either, so seat 3
    # (partner of the out owner) leads 4 (seat 0's 3 cannot beat it), then
    # J, and is out: order 2, 1, 3 -> +1.
    value, moves = solve(H("S3", "SQ SK", "", "S4 SJ"), "2", turn=0, finished=(2,),
                         table=("single", "T", 1), owner=2, passes=1)
    assert moves == {None: 1}
    assert value == 1
    # seat 1's own choice, after seat 0's pass
    value, moves = solve(H("S3", "SQ SK", "", "S4 SJ"), "2", turn=1, finished=(2,),
                         table=("single", "T", 1), owner=2, passes=2)
    assert moves == {None: 3, single("Q"): 1, single("K"): 1}
    assert value == 1


def test_wild_as_substitute_makes_a_pair():
    # Level 2, seat 0 holds H2 (wild) and S5: the pair 5W is a legal play;
    # nobody holds a pair, all pass, seat 2 leads (接风) its last card: +3.
    value, moves = solve(H("H2 S5", "S3 S4", "SK", "S6 S7"), "2")
    assert moves[("pair", "5", ("5", "W"), None)] == 3
    assert value == 3
    # the wild also plays as what it is, a level-2 single, and as a pair of
    # 2s only together with another natural 2 (not here)
    assert single("W") not in moves
    assert ("single", "2", ("W",), None) in moves


# ---------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    dict(hands=H("", "S3", "S4", "S5"), level="2", turn=0, finished=(0,)),   # turn seat out
    dict(hands=H("", "S3", "", "S5"), level="2", turn=1, finished=(0, 2)),   # deal over
    dict(hands=H("", "S3", "S4", "S5"), level="2", turn=1),                  # empty, not finished
    dict(hands=H("S3", "S3", "S3", "S5"), level="2", turn=0),                # third copy
    dict(hands=H("S3", "S4", "S6", "S5"), level="2", turn=2,                 # passes should be 1
         table=("single", "2", 1), owner=0, passes=0),
    dict(hands=H("S3", "S4", "S6", "S5"), level="2", turn=0,                 # owner == turn
         table=("single", "2", 1), owner=0, passes=0),
])
def test_bad_positions_are_rejected(kwargs):
    with pytest.raises(ValueError):
        solve(**kwargs)


# ---------------------------------------------------------------------------
# random_position
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("count", [15, slow(60), slow(300)])
def test_random_position_is_consistent(count):
    rng = random.Random(7)
    for _ in range(count):
        n = rng.randint(1, 4)
        level = rng.choice(reference.RANKS)
        pos = random_position(rng, n, level)
        hands, fin = pos["hands"], pos["finished"]
        assert len(hands) == 4
        for s in range(4):
            assert len(hands[s]) == (0 if s in fin else n)
        assert not RE.team_over(fin)
        assert hands[pos["turn"]]
        assert max(Counter(c for h in hands for c in h).values()) <= 2
        if pos["table"] is not None:
            o, t = pos["owner"], pos["turn"]
            assert o != t and (hands[o] or fin[-1] == o)
            between = [(o + k) % 4 for k in range(1, (t - o) % 4)]
            assert pos["passes"] == sum(1 for s in between if hands[s])
        solve(**pos)   # accepted


# ---------------------------------------------------------------------------
# Cross-checks on random positions
# ---------------------------------------------------------------------------

def _legal_moves(pos, flags):
    hand, table = pos["hands"][pos["turn"]], pos["table"]
    out = set()
    for p in reference.plays(hand, pos["level"], **flags):
        if table is None or reference.beats((p[0], p[1], len(p[2])), table, pos["level"]):
            out.add(p)
    if table is not None:
        out.add(None)
    return out


def _random_flags(rng):
    return dict(joker_pair_in_full_house=rng.random() < 0.3,
                flush_is_always_bomb=rng.random() < 0.3)


def _random_cases(seed, n, count):
    """count seeded random (position, rule flags) pairs with n cards a hand."""
    rng = random.Random(seed)
    for _ in range(count):
        level = rng.choice(reference.RANKS)
        pos = random_position(rng, n, level)
        yield pos, _random_flags(rng)


@pytest.fixture
def restore_switches():
    saved = RE.METHOD, RE.CANONICAL_SUITS
    yield
    RE.METHOD, RE.CANONICAL_SUITS = saved


@pytest.mark.parametrize("n, count, seed", [(1, 150, 1), (2, 40, 2), slow(2, 200, 2),
                                             slow(3, 4, 3), slow(3, 25, 3)])
def test_speedups_agree_with_plain_minimax(n, count, seed, restore_switches):
    for pos, flags in _random_cases(seed, n, count):
        results = []
        for method in ("plain", "cutoff", "threshold"):
            for canon in (False, True):
                RE.METHOD, RE.CANONICAL_SUITS = method, canon
                results.append(solve(**pos, **flags))
                # the root's value alone (the search of every move skipped)
                assert RE.solve_value(**pos, **flags) == results[-1][0], pos
        assert all(r == results[0] for r in results), pos
        value, moves = results[0]
        assert set(moves) == _legal_moves(pos, flags)
        best = max if pos["turn"] % 2 == 0 else min
        assert value == best(moves.values())
        assert value in (-3, -2, -1, 1, 2, 3)


# A second, literal implementation of the play of a deal, written without
# the solver's helpers: the round is tracked by the SET of seats that have
# passed since the standing play (RULES 6: the round ends "when every other
# player still holding cards has passed in a row after a play"), card
# choices are every distinct combination of card positions in the hand, and
# the result is computed from the finishing order.

def _literal_solve(hands, level, turn, table, owner, passed, finished, flags):
    hands = tuple(tuple(sorted(h)) for h in hands)

    def result(fin):
        win_team = fin[0] % 2
        mate_place = fin.index((fin[0] + 2) % 4) + 1 if (fin[0] + 2) % 4 in fin else 4
        gain = {2: 3, 3: 2, 4: 1}[mate_place]
        return gain if win_team == 0 else -gain

    def over(fin):
        return {0, 2} <= set(fin) or {1, 3} <= set(fin)

    def nxt(hs, s):
        s = (s + 1) % 4
        while not hs[s]:
            s = (s + 1) % 4
        return s

    @lru_cache(maxsize=None)
    def options(hand):
        """{pattern: [rest, ...]} over every distinct choice of cards."""
        out = {}
        n = len(hand)
        for mask in range(1, 1 << n):
            sub = tuple(hand[i] for i in range(n) if mask >> i & 1)
            rest = tuple(hand[i] for i in range(n) if not mask >> i & 1)
            for rd in reference.classify(sub, level, **flags):
                p = reference.pattern(sub, rd, level)
                if rest not in out.setdefault(p, []):
                    out[p].append(rest)
        return out

    @lru_cache(maxsize=None)
    def node(hs, turn, table, owner, passed, fin):
        best = max if turn % 2 == 0 else min
        vals = {}
        for p, rests in options(hs[turn]).items():
            if table is not None and not reference.beats((p[0], p[1], len(p[2])), table, level):
                continue
            vs = []
            for rest in rests:
                h2 = list(hs)
                h2[turn] = rest
                h2 = tuple(h2)
                f2 = fin + ((turn,) if not rest else ())
                if over(f2):
                    vs.append(result(f2))
                else:
                    vs.append(node(h2, nxt(h2, turn), (p[0], p[1], len(p[2])), turn,
                                   frozenset(), f2)[0])
            vals[p] = best(vs)
        if table is not None:
            p2 = passed | {turn}
            others = {s for s in range(4) if hs[s] and s != owner}
            if p2 >= others:                 # round over
                lead = owner if hs[owner] else (owner + 2) % 4
                vals[None] = node(hs, lead, None, None, frozenset(), fin)[0]
            else:
                vals[None] = node(hs, nxt(hs, turn), table, owner, p2, fin)[0]
        return best(vals.values()), vals

    return node(hands, turn, table, owner, frozenset(passed), tuple(finished))


def _passed_seats(pos):
    """The seats that passed since the standing play (random_position's
    rule: the holders strictly between owner and turn)."""
    if pos["table"] is None:
        return frozenset()
    o, t = pos["owner"], pos["turn"]
    return frozenset((o + k) % 4 for k in range(1, (t - o) % 4)
                     if pos["hands"][(o + k) % 4])


@pytest.mark.parametrize("n, count, seed", [(1, 200, 11), (2, 15, 12), slow(2, 60, 12),
                                             slow(2, 200, 12), slow(3, 3, 13),
                                             slow(3, 15, 13)])
def test_agrees_with_literal_implementation(n, count, seed):
    for pos, flags in _random_cases(seed, n, count):
        expected = _literal_solve(pos["hands"], pos["level"], pos["turn"], pos["table"],
                                  pos["owner"], _passed_seats(pos), pos["finished"], flags)
        assert solve(**pos, **flags) == expected, pos


def _successor(pos, move, cards=None):
    """The position after the seat to act plays `cards` (pattern `move`) or
    passes (move None): a solve() kwargs dict, or the final value."""
    hands = [list(h) for h in pos["hands"]]
    turn, fin = pos["turn"], tuple(pos.get("finished", ()))

    def next_holder(s):
        for k in (1, 2, 3):
            if hands[(s + k) % 4]:
                return (s + k) % 4

    if move is None:
        o = pos["owner"]
        passes = pos["passes"] + 1
        holders = [s for s in range(4) if hands[s]]
        if passes == len([s for s in holders if s != o]):
            lead = o if hands[o] else (o + 2) % 4
            return dict(hands=hands, level=pos["level"], turn=lead, finished=fin)
        return dict(pos, hands=hands, turn=next_holder(turn), passes=passes)
    for c in cards:
        hands[turn].remove(c)
    if not hands[turn]:
        fin = fin + (turn,)
        if RE.team_over(fin):
            return RE.deal_result(fin)
    return dict(hands=hands, level=pos["level"], turn=next_holder(turn),
                table=(move[0], move[1], len(cards)), owner=turn, passes=0, finished=fin)


def _realisations(hand, move, level, flags):
    """Every distinct sub-multiset of `hand` that has pattern `move`."""
    out = set()
    n = len(hand)
    for mask in range(1, 1 << n):
        sub = tuple(sorted(hand[i] for i in range(n) if mask >> i & 1))
        if len(sub) != len(move[2]):
            continue
        for rd in reference.classify(sub, level, **flags):
            if reference.pattern(sub, rd, level) == move:
                out.add(sub)
    return out


@pytest.mark.parametrize("n, count, seed", [(2, 120, 21), (3, 15, 22)])
def test_move_values_are_values_of_the_next_positions(n, count, seed):
    # moves[m] == best over the card choices realising m of the value of the
    # position reached, that position being rebuilt here from RULES 6.
    for pos, flags in _random_cases(seed, n, count):
        value, moves = solve(**pos, **flags)
        best = max if pos["turn"] % 2 == 0 else min
        for move, v in moves.items():
            if move is None:
                succ = [_successor(pos, None)]
            else:
                subs = _realisations(pos["hands"][pos["turn"]], move, pos["level"], flags)
                assert subs
                succ = [_successor(pos, move, sub) for sub in subs]
            vals = [s if isinstance(s, int) else solve(**s, **flags)[0] for s in succ]
            assert v == best(vals), (pos, move)


def test_card_choice_matters_for_a_straight_flush():
    # Six cards in seat 0's hand, so suits matter.  Seat 0 (S3 S4 S5 S6 S7
    # D7) follows seat 3's single 6; seat 1: SA DA, seat 2: S9, seat 3: SK DK.
    # * single 7 giving D7 (keeps the spade straight flush 3-7, a bomb):
    #   seat 1 either plays SA (seats 2, 3 cannot beat it; seat 0 bombs and
    #   is out; nobody holds a bomb, so seat 2 leads (接风) S9 and is out) or
    #   passes (seat 2 plays S9 out first; nobody of team 1 can go out before
    #   seat 0's turn, when it bombs, then leads D7 out second): +3.
    # * single 7 giving S7 (left: S3 S4 S5 S6 D7, no bomb): seat 1 plays SA,
    #   nobody can beat it, seat 1 leads DA and is out; nobody beats an A, so
    #   seat 3 leads (接风) its pair of Ks and is out: -3.
    #   The move "single 7" is worth the better choice: +3.
    # * the straight flush now: seat 0 leads D7 and is out first, seat 1
    #   plays SA, nobody beats it, leads DA and is out, then seat 3 (接风)
    #   plays out its Ks: order 0, 1, 3 -> +1.
    pos = dict(hands=H("S3 S4 S5 S6 S7 D7", "SA DA", "S9", "SK DK"), level="2",
               turn=0, table=("single", "6", 1), owner=3, passes=0)
    value, moves = solve(**pos)
    assert solve(**_successor(pos, single("7"), ["D7"]))[0] == 3
    assert solve(**_successor(pos, single("7"), ["S7"]))[0] == -3
    assert moves[single("7")] == 3
    assert moves[("straight_flush", "7", ("3", "4", "5", "6", "7"), "S")] == 1
    assert value == 3
