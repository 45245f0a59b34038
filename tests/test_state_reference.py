"""GameState (RULES 6, 8) against the independent reference
tests/reference_state.py: seeded random games from random deals, every
step applied to both and compared (seat to act, standing play and owner,
passes, hands, legal moves, finishing order, end of deal, result); plus
scripted games for 接风, bombs going out and two or three seats out."""

import random
from collections import Counter

import pytest

import reference as ref
import reference_state as rs
from conftest import by_run, core_pattern, slow_beyond
from guandan_fast import PlayError, Rules
from guandan_fast.game.state import GameState, level_gain


def core_key(play):
    return (play.type, play.rank, play.size)


def tokens(cards):
    return sorted(str(c) for c in cards)


class Game:
    """A GameState and a reference Deal moved in step; `moves` is the
    reproducing record (cards and declared reading, or None for a pass)."""

    def __init__(self, hands, level, leader, flags, exhaustive=True):
        self.setup = dict(hands=[" ".join(h) for h in hands], level=level,
                          leader=leader, flags=flags)
        self.gs = GameState.start([list(h) for h in hands], Rules(level=level, **flags),
                                  leader=leader)
        self.ref = rs.Deal(hands, level, leader, exhaustive=exhaustive, **flags)
        self.moves = []
        self.events = Counter()
        self.check()

    def where(self):
        return f"\ngame {self.setup}\nmoves {self.moves}"

    # --- both sides ------------------------------------------------------
    def play(self, cards, type_, rank):
        before = self._snapshot(self.gs)
        play = self.gs.find(" ".join(cards), type=type_, rank=rank)
        assert self.gs.why_illegal(play) is None, self.where()
        self.moves.append((" ".join(cards), type_, rank))
        new = self.gs.apply(play)
        assert self._snapshot(self.gs) == before, "apply changed the old state" + self.where()
        self.gs = new
        self.ref.play(cards, type_, rank)
        self.events.update(self.ref.events)
        self.check()

    def pass_(self):
        before = self._snapshot(self.gs)
        assert self.gs.why_illegal(None) is None, self.where()
        self.moves.append(None)
        new = self.gs.apply(None)
        assert self._snapshot(self.gs) == before, "apply changed the old state" + self.where()
        self.gs = new
        self.ref.pass_()
        self.events.update(self.ref.events)
        self.check()

    @staticmethod
    def _snapshot(gs):
        return (gs.turn, gs.table and core_key(gs.table), gs.owner, gs.passes,
                tuple(gs.finished), tuple(gs.count(s) for s in range(4)))

    # --- the comparison after every step ---------------------------------
    def check(self):
        gs, d, at = self.gs, self.ref, self.where()
        assert bool(gs.over) == d.over, at
        assert tuple(gs.finished) == tuple(d.finished), at
        places = list(gs.places())
        assert sorted(places) == [0, 1, 2, 3] and places[:len(d.finished)] == d.finished, at
        assert gs.result() == d.result(), at
        assert level_gain(list(gs.finished)) == d.result(), at
        for s in range(4):
            assert tokens(gs.cards(s)) == sorted(d.hands[s]), at
        if d.over:
            assert gs.legal_actions() == [], at
            assert gs.why_illegal(None) is not None, at
            return
        assert gs.turn == d.turn, at
        assert gs.owner == d.owner, at
        assert gs.passes == d.passes, at
        if d.table is None:
            assert gs.table is None, at
        else:
            assert gs.table is not None and core_key(gs.table) == d.table, at
            assert tokens(gs.table.cards) == d.table_cards, at
        actions = gs.legal_actions()
        plays = [a for a in actions if a is not None]
        assert actions.count(None) == (0 if d.table is None else 1), at
        assert len({core_pattern(p) for p in plays}) == len(plays), "one per pattern" + at
        core_keys = {core_key(p) for p in plays} | ({None} if None in actions else set())
        assert core_keys == d.legal_keys(), at
        if d.exhaustive:
            core_pats = {core_pattern(p) for p in plays} | ({None} if None in actions else set())
            assert core_pats == d.legal_patterns(), at

    # --- a random step ---------------------------------------------------
    def random_step(self, rng, p_pass, style="uniform", p_probe=0.3):
        """A random legal move of the reference's own list: a pass with
        probability p_pass when following; style 'uniform' (any play),
        'big' (weighted by size cubed) or 'out' (a play of the whole hand
        when there is one, else uniform)."""
        d = self.ref
        hand, level = d.hands[d.turn], d.level
        jp = d.flags["joker_pair_in_full_house"]
        if rng.random() < p_probe:
            self.probe_illegal(rng)
        if d.exhaustive:
            legal = d.legal_patterns()
        else:
            legal = d.legal_keys()
        moves = sorted((m for m in legal if m is not None), key=repr)
        if None in legal and (not moves or rng.random() < p_pass):
            self.pass_()
            return
        size = (lambda m: len(m[2])) if d.exhaustive else (lambda m: m[2])
        whole = [m for m in moves if size(m) == len(hand)]
        if style == "out" and whole:
            m = rng.choice(whole)
        elif style == "big":
            m = rng.choices(moves, weights=[size(m) ** 3 for m in moves])[0]
        else:
            m = rng.choice(moves)
        if d.exhaustive:
            cards = rs.realize_pattern(rng, hand, level, m)
        else:
            cards = rs.realize_key(rng, hand, level, m, jp)
            assert cards is not None, (m, hand)
        self.play(cards, m[0], m[1])

    def probe_illegal(self, rng):
        """A pass on a free lead, or a play of the hand that the reference
        says does not beat the table, must be refused by GameState."""
        d, gs = self.ref, self.gs
        if d.table is None:
            assert gs.why_illegal(None) is not None, self.where()
            with pytest.raises(PlayError):
                gs.apply(None)
            return
        hand, level = d.hands[d.turn], d.level
        if d.exhaustive:
            bad = sorted((p for p in d.hand_patterns() if not d.allowed(rs.key_of_pattern(p))), key=repr)
            if not bad:
                return
            p = rng.choice(bad)
            cards, t, r = rs.realize_pattern(rng, hand, level, p), p[0], p[1]
        else:
            bad = sorted((k for k in d.hand_keys() if not d.allowed(k)), key=repr)
            if not bad:
                return
            t, r, _n = k = rng.choice(bad)
            cards = rs.realize_key(rng, hand, level, k, d.flags["joker_pair_in_full_house"])
        plays = [p for p in gs.readings(" ".join(cards)) if p.type == t and p.rank == r]
        assert plays, (cards, t, r) + (self.where(),)
        assert gs.why_illegal(plays[0]) is not None, self.where()
        with pytest.raises(PlayError):
            gs.apply(plays[0])
        self.events["refused"] += 1


STYLES = ("uniform", "big", "out")


def run_random_game(rng, hands, level, leader, flags, exhaustive, p_pass, style,
                    max_steps=3000):
    g = Game(hands, level, leader, flags, exhaustive)
    for _ in range(max_steps):
        if g.ref.over:
            break
        g.random_step(rng, p_pass, style)
        g.events["steps"] += 1
    assert g.ref.over, "the deal did not end" + g.where()
    g.events["games"] += 1
    g.events[f"out{len(g.ref.finished)}"] += 1
    g.events[f"result{g.ref.result():+d}"] += 1
    return g


# ---------------------------------------------------------------------------
# the move lists the reference uses
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", slow_beyond(range(8), 1))
def test_fast_keys_match_the_exhaustive_reference(seed):
    """reference_state.fast_keys (per rank, for 27-card hands) gives the same
    (type, rank, size) as reference.plays, and realize_key makes each one."""
    rng = random.Random(7100 + seed)
    for _ in range(by_run(50, 150)):
        level = rng.choice(ref.RANKS)
        n = rng.randint(1, 11)
        hand = (ref.random_rich_hand(rng, n, level) if rng.random() < 0.7
                else ref.random_hand(rng, n, level))
        jp = rng.random() < 0.3
        want = {rs.key_of_pattern(p) for p in ref.plays(hand, level, joker_pair_in_full_house=jp)}
        assert rs.fast_keys(hand, level, jp) == want, (hand, level, jp)
        for key in want:
            cards = rs.realize_key(rng, hand, level, key, jp)
            assert cards is not None and len(cards) == key[2], (hand, key)
            assert not Counter(cards) - Counter(hand), (hand, key, cards)
            assert any((t, r) == key[:2] for t, r, _s in
                       ref.classify(cards, level, joker_pair_in_full_house=jp)), (hand, key, cards)


def test_reference_result_table():
    """RULES 6 by hand: 3 / 2 / 1 levels, signed for team 0 (RULES 8)."""
    assert rs.deal_result([0, 2]) == 3 and rs.deal_result([3, 1]) == -3
    assert rs.deal_result([0, 1, 2]) == 2 and rs.deal_result([1, 2, 3]) == -2
    assert rs.deal_result([0, 1, 3]) == 1 and rs.deal_result([3, 2, 0]) == -1
    assert rs.deal_result([2, 3, 0]) == 2 and rs.deal_result([0, 3]) is None
    assert rs.deal_gains([1, 0, 3]) == (0, 2)
    assert rs.next_levels(("K", "5"), [0, 2]) == ("A", "5")


# ---------------------------------------------------------------------------
# scripted games (each step also compared with the reference)
# ---------------------------------------------------------------------------

def scripted(hands, level, leader, moves, flags=None):
    """Play `moves` (card strings, or None for a pass) in both; the reading
    is the only one GameState.find accepts for those cards."""
    g = Game([h.split() for h in hands], level, leader, flags or {})
    for m in moves:
        if m is None:
            g.pass_()
        else:
            p = g.gs.find(m)
            g.play(m.split(), p.type, p.rank)
    return g


def test_jiefeng_goes_to_the_partner_not_the_next_seat():
    g = scripted(["S9", "S3 S4", "S5 S6", "S7 S8"], "2", 0, ["S9", None, None, None])
    assert g.events["jiefeng"] == 1 and g.ref.finished == [0]
    assert (g.gs.turn, g.gs.table, g.gs.owner) == (2, None, None)


def test_jiefeng_after_a_beaten_play_goes_out_with_the_last_owner():
    # seat 1 goes out with SK over S9; 2 passes, 3 passes, 0 passes: seat 3 leads
    g = scripted(["S9 S3", "SK", "S5 S6", "S7 S8"], "2", 0, ["S9", "SK", None, None, None])
    assert g.ref.finished == [1] and g.gs.turn == 3 and g.events["jiefeng"] == 1


def test_owner_still_holding_cards_leads_again():
    g = scripted(["S9 S3", "S4 S5", "S6 S2", "S7 S8"], "2", 0, ["S9", None, None, None])
    assert g.gs.turn == 0 and g.events["jiefeng"] == 0 and g.gs.table is None


def test_going_out_by_a_bomb_then_the_opponents_complete():
    # 1 goes out with a bomb nobody beats: 接风 to 3; 0 goes out with SQ, 2 and
    # 3 pass: 接风 to 2; 3 goes out third: team 1 first and third, -2
    g = scripted(["S3 D3 SQ", "S5 D5 C5 H5", "S4 SJ", "S6 S7"], "2", 0,
                 ["S3 D3", "S5 D5 C5 H5", None, None, None, "S6", "SQ", None, None])
    assert g.ref.finished == [1, 0] and g.events["out_by_bomb"] == 1
    assert g.events["jiefeng"] == 2 and g.gs.turn == 2 and g.gs.table is None
    g.play(["S4"], "single", "4")
    g.play(["S7"], "single", "7")
    assert g.ref.finished == [1, 0, 3] and g.gs.over and g.gs.result() == -2


def test_three_out_two_levels():
    # 0 out (接风 to 2), 1 out (接风 to 3), 2 out third: team 0 +2
    g = scripted(["SA", "SK SQ", "SJ S6", "S4 S5"], "2", 0,
                 ["SA", None, None, None, "SJ", None, "SK", None, None,
                  "SQ", None, None, "S4", "S6"])
    assert g.events["jiefeng"] == 2 and g.events["jiefeng_skip"] == 2
    assert g.ref.finished == [0, 1, 2] and g.gs.over and g.gs.result() == 2


def test_partner_last_one_level():
    g = scripted(["SA", "SK SQ", "SJ S3", "S4 S5"], "2", 0,
                 ["SA", None, None, None, "SJ", None, "SK", None, None,
                  "SQ", None, None, "S4", None, "S5"])
    assert g.ref.finished == [0, 1, 3] and g.gs.over and g.gs.result() == 1


def test_double_down_and_a_pass_then_a_play_in_the_same_round():
    # 1 passes on S3, then beats S9 in the same round; 1 and 3 go out: -3
    g = scripted(["S3 S9 S2", "ST SA", "S5 S6", "S4 SK"], "8", 0,
                 ["S3", None, "S5", None, "S9", "ST", None, "SK", None, "SA",
                  None, None, None, "S4"])
    assert g.events["jiefeng"] == 1
    assert g.ref.finished == [1, 3] and g.gs.over and g.gs.result() == -3


# ---------------------------------------------------------------------------
# random games
# ---------------------------------------------------------------------------

P_PASS = (0.0, 0.2, 0.5, 0.8, 0.95)


def random_small_game(rng):
    level = rng.choice(ref.RANKS)
    lo = 1 if rng.random() < 0.25 else 3
    sizes = [rng.randint(lo, 9) for _ in range(4)]
    hands = rs.random_deal(rng, sizes, level, biased=rng.random() < 0.6)
    flags = {"joker_pair_in_full_house": rng.random() < 0.25,
             "flush_is_always_bomb": rng.random() < 0.25}
    return run_random_game(rng, hands, level, rng.randrange(4), flags,
                           exhaustive=True, p_pass=rng.choice(P_PASS),
                           style=rng.choice(STYLES))


@pytest.mark.parametrize("batch", slow_beyond(range(40), 1))
def test_random_small_games(batch):
    """50 games a batch: 4 hands of 3-9 cards (1-9 in a quarter of the
    games), random levels, flags, leaders and pass rates; half the deals
    weighted toward wilds, jokers, bombs and flushes. (The default run:
    the first 10 games of batch 0, where every event has occurred by the
    4th.)"""
    rng = random.Random(880000 + batch)
    events = Counter()
    for _ in range(by_run(10, 50)):
        events += random_small_game(rng).events
    for what in ("jiefeng", "jiefeng_skip", "out_by_bomb", "out2", "out3",
                 "round_end", "refused"):
        assert events[what] > 0, (what, events)


@pytest.mark.parametrize("batch", slow_beyond(range(40), 1))
def test_random_full_deals(batch):
    """27-card deals played out by random legal moves (the fast per-rank
    move list)."""
    rng = random.Random(990000 + batch)
    events = Counter()
    for _ in range(4):
        level = rng.choice(ref.RANKS)
        hands = rs.random_deal(rng, [27] * 4, level)
        flags = {"joker_pair_in_full_house": rng.random() < 0.25}
        events += run_random_game(rng, hands, level, rng.randrange(4), flags,
                                  exhaustive=False, p_pass=rng.choice(P_PASS),
                                  style=rng.choice(STYLES)).events
    assert events["games"] == 4 and events["round_end"] > 0, events


@pytest.mark.parametrize("batch", slow_beyond(range(40), 0))
def test_random_medium_deals(batch):
    """10 games a batch: 4 hands of 8-20 cards with planted bombs, runs and
    wilds, the fast per-rank move list."""
    rng = random.Random(770000 + batch)
    events = Counter()
    for _ in range(10):
        level = rng.choice(ref.RANKS)
        hands = rs.random_deal(rng, [rng.randint(8, 20) for _ in range(4)], level, biased=True)
        flags = {"joker_pair_in_full_house": rng.random() < 0.25}
        events += run_random_game(rng, hands, level, rng.randrange(4), flags,
                                  exhaustive=False, p_pass=rng.choice(P_PASS),
                                  style=rng.choice(STYLES)).events
    assert events["games"] == 10 and events["jiefeng"] > 0, events
