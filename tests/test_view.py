"""One seat's View and the exact-uniform sampler of the hidden hands.

The uniformity reference enumerates every assignment of the physical unseen
cards to the seats (brute force, no code shared with the sampler) and the
sampler's frequencies are compared with it by a chi-square test on a seeded
run.
"""

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from guandan_fast import Card, Rules, View, ViewError, classify, parse_cards, sample_deals
from guandan_fast.bots import RandomBot
from guandan_fast.bots.match import deal_for, play_deal
from guandan_fast.formats.record import dumps, loads
from guandan_fast.game.deal import DealState
from guandan_fast.game.record import Record
from guandan_fast.game.state import GameState

from scipy import stats as scipy_stats  # noqa: E402


def _cards(text):
    return sorted(parse_cards(text))


def _multiset(counts):
    return tuple(int(x) for x in counts)


# -- consistency over many seeded positions ------------------------------------------

def _exchanged_deal(seed, unit):
    """A seeded deal with a tribute exchange, from a random previous order:
    (hands after, rules, leader, tributes, returns, order, the DealState at
    the start of the play)."""
    hands, level, leader = deal_for(seed, unit)
    rules = Rules(level=level)
    rng = random.Random(unit)
    order = rng.sample(range(4), 4)
    deal = DealState(hands, rules, order)
    while deal.phase in ("tribute", "return"):
        card = rng.choice(deal.legal_actions())
        if deal.phase == "tribute":
            deal.pay_tribute(deal.actor, card)
        else:
            deal.give_back(deal.actor, card)
    return (deal.hands(), rules, deal.actor, list(deal.tributes), list(deal.returns), order,
            deal)


def _check_deal(view, deal, state=None):
    assert len(deal) == 4
    assert np.array_equal(deal[view.seat], view.hand_counts)
    total = np.zeros(54, dtype=np.int64)
    for s in range(4):
        assert int(deal[s].sum()) == view.counts[s]
        assert deal[s].max(initial=0) <= 2
        for c in view.known[s]:
            assert deal[s][c.id] >= sum(k == c for k in view.known[s])
        for cid in view.forbidden[s]:
            assert deal[s][cid] == 0, (s, cid)
        total += deal[s]
    for _, p in view.history:
        if p is not None:
            for cid in p.card_ids:
                total[cid] += 1
    assert (total == 2).all()          # every card of the two decks exactly twice
    if state is not None:
        # the truth is itself consistent with the view
        for s in range(4):
            for c in view.known[s]:
                assert state.hands[s][c.id] >= 1
            for cid in view.forbidden[s]:
                assert state.hands[s][cid] == 0


def test_sampled_deals_consistent_over_seeded_deals():
    checked = 0
    for unit in range(12):
        hands, rules, leader, tributes, returns, _, deal = _exchanged_deal(11, unit)
        bots = [RandomBot(seed=unit * 4 + s) for s in range(4)]
        moves = play_deal(bots, deal).moves
        # revisit a few decisions of this deal
        s = GameState.start(hands, rules, leader)
        history = []
        for i, m in enumerate(moves):
            if i % 17 == 3:
                for seat in range(4):
                    if s.count(seat) == 0:
                        continue
                    v = View(seat, s.hands[seat], rules, [s.count(x) for x in range(4)],
                             history=history, table=s.table, owner=s.owner, passes=s.passes,
                             finished=s.finished, tributes=tributes, returns=returns,
                             turn=s.turn)
                    for deal in sample_deals(v, 5, seed=i):
                        _check_deal(v, deal, s)
                        checked += 1
                    # the view is of the seat's own cards only
                    assert v.hand == tuple(sorted(s.cards(seat)))
            history.append((m.seat, m.play))
            s = s.apply(m.play)
    assert checked > 300


def test_known_cards_follow_the_exchange_and_the_plays():
    rules = Rules(level=2)
    # seat 1 paid SA to seat 0, which returned S3: from seat 2's view, seat 0
    # holds SA and seat 1 holds S3, until they play them
    tributes, returns = [(1, 0, Card("SA"))], [(0, 1, Card("S3"))]
    hand2 = _cards("S4 S5 S6")
    v = View(2, hand2, rules, [5, 5, 3, 5], tributes=tributes, returns=returns,
             unseen="SA S3 S7 S8 S9 ST SJ SQ SK HK C7 C8 C9 CT D7 D8 D9 DT")
    assert v.known[0] == (Card("SA"),) and v.known[1] == (Card("S3"),)
    # seat 1 paid its highest card (SA; H2 is wild): it holds no 2 but H2, no joker
    assert Card("S2").id in v.forbidden[1] and Card("SB").id in v.forbidden[1]
    assert Card("H2").id not in v.forbidden[1] and Card("SK").id not in v.forbidden[1]
    assert not v.forbidden[0] and not v.forbidden[3]
    a = rules
    sa = next(p for p in GameState.start(["SA", "S3", "S4", "S9"], a).legal_actions())
    v2 = View(2, hand2, rules, [4, 5, 3, 5], history=[(0, sa)], table=sa, owner=0,
              passes=0, tributes=tributes, returns=returns, turn=1,
              unseen="S3 S7 S8 S9 ST SJ SQ SK HK C7 C8 C9 CT D7 D8 D9 DT")
    assert v2.known[0] == () and v2.known[1] == (Card("S3"),)


def test_perfect_view_samples_the_truth():
    hands, level, leader = deal_for(5, 0)
    s = GameState.start(hands, Rules(level=level), leader)
    v = View.from_state(s, reveal=True)
    assert v.perfect
    deals = sample_deals(v, 3, seed=9)
    for d in deals:
        for seat in range(4):
            assert np.array_equal(d[seat], s.hands[seat])


def test_from_record_matches_the_replay():
    hands, rules, leader, tributes, returns, order, deal = _exchanged_deal(3, 1)
    bots = [RandomBot(seed=s) for s in range(4)]
    moves = play_deal(bots, deal).moves
    before = [list(h) for h in hands]
    for t in reversed(returns):
        before[t.receiver].remove(t.card)
        before[t.giver].append(t.card)
    for t in reversed(tributes):
        before[t.receiver].remove(t.card)
        before[t.giver].append(t.card)
    rec = Record(hands=[sorted(h) for h in before], rules=rules, tributes=tributes,
                 returns=returns, moves=moves, previous=order)
    rec = loads(dumps(rec))
    s = rec.start_state()
    for i in (0, 5, len(moves) // 2, len(moves) - 1):
        s = rec.start_state()
        for m in rec.moves[:i]:
            s = s.apply(m.play)
        v = View.from_record(rec, i)
        assert v.seat == s.turn == rec.moves[i].seat
        assert v.hand == tuple(sorted(s.cards(v.seat)))
        assert v.counts == tuple(s.count(x) for x in range(4))
        assert [(a, b) for a, b in v.history] == [(m.seat, m.play) for m in rec.moves[:i]]
        assert v.table == s.table and v.owner == s.owner and v.finished == s.finished
        assert rec.moves[i].play in v.legal_actions()
        for d in sample_deals(v, 4, seed=i):
            _check_deal(v, d, s)
    with pytest.raises(ViewError, match="decision_index"):
        View.from_record(rec, len(rec.moves) + 1)


def test_from_record_first_decision_is_the_leaders():
    """A record with no previous finishing order says who leads only by its
    first action: the view before that action is the leader's, whoever it
    is (before, decision 0 was always seat 0's)."""
    for leader in range(4):
        hands, level, _ = deal_for(11, leader)
        deal = DealState(hands, Rules(level=level), leader=leader)
        bots = [RandomBot(seed=s) for s in range(4)]
        moves = play_deal(bots, deal).moves
        rec = loads(dumps(Record(hands=[sorted(h) for h in hands], rules=Rules(level=level),
                                 moves=moves)))
        assert rec.moves[0].seat == leader
        for i in (0, 1, 2):
            v = View.from_record(rec, i)
            assert v.seat == rec.moves[i].seat
            played = [c for m in rec.moves[:i] if m.seat == v.seat and m.play is not None
                      for c in m.play.cards]
            rest = sorted(hands[v.seat])
            for c in played:
                rest.remove(c)
            assert list(v.hand) == rest
            assert rec.moves[i].play in v.legal_actions()


# -- exact uniformity on small cases ----------------------------------------------------

def _reference_distribution(pool, needs, fixed, forbidden):
    """Exact probabilities of the hidden hands: every assignment of the
    physical copies (pool: list of tokens, each list entry one copy) to the
    seats in ``needs`` (seat -> number of free slots), the copies in
    ``fixed`` (pool index -> seat) placed, none where ``forbidden`` (seat ->
    set of tokens) says no; counted as multisets per seat."""
    seats = sorted(needs)
    free = [i for i in range(len(pool)) if i not in fixed]
    counts = Counter()
    for choice in itertools.product(seats, repeat=len(free)):
        per = Counter(choice)
        if any(per[s] != needs[s] for s in seats):
            continue
        hands = {s: [] for s in seats}
        for i, s in zip(free, choice):
            hands[s].append(pool[i])
        if any(tok in forbidden.get(s, ()) for s in seats for tok in hands[s]):
            continue
        for i, s in fixed.items():
            hands[s].append(pool[i])
        counts[tuple(tuple(sorted(hands[s])) for s in seats)] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def _sampled(view, n, seed):
    out = Counter()
    seats = [s for s in range(4) if s != view.seat and view.counts[s]]
    for d in sample_deals(view, n, seed=seed):
        key = tuple(tuple(sorted(str(c) for c in _from(d[s]))) for s in seats)
        out[key] += 1
    return out


def _from(counts):
    from guandan_fast import from_counts
    return from_counts(counts)


def _chi_square(view, ref, n=6000, seed=2026):
    got = _sampled(view, n, seed)
    assert set(got) <= set(ref), "a sampled deal the reference calls impossible"
    keys = sorted(ref)
    obs = [got.get(k, 0) for k in keys]
    exp = [ref[k] * n for k in keys]
    assert min(exp) >= 5, "the case is too small for the chi-square test"
    return scipy_stats.chisquare(obs, exp).pvalue


def test_uniform_without_constraints():
    # two copies of S7: the posterior of a shuffle weighs the multisets
    view = View(0, _cards("S3"), Rules(level=2), [1, 2, 2, 1],
                unseen="S7 S7 S8 S9 ST")
    pool = ["S7", "S7", "S8", "S9", "ST"]
    ref = _reference_distribution(pool, {1: 2, 2: 2, 3: 1}, {}, {})
    assert _chi_square(view, ref) > 1e-3


def test_uniform_with_tribute_constraint_and_known_card():
    rules = Rules(level=2)
    # seat 1 paid SK to seat 0 (so it holds no A, no 2 but H2, no joker);
    # seat 0 returned S3 to seat 1 (known there)
    view = View(0, _cards("SK S4"), rules, [2, 3, 2, 2],
                tributes=[(1, 0, Card("SK"))], returns=[(0, 1, Card("S3"))],
                unseen="S3 SA DA SB S5 C5 H2")
    pool = ["S3", "SA", "DA", "SB", "S5", "C5", "H2"]
    forbidden = {1: {"SA", "DA", "SB"}}
    ref = _reference_distribution(pool, {1: 2, 2: 2, 3: 2}, {0: 1}, forbidden)
    assert _chi_square(view, ref) > 1e-3


@pytest.mark.slow
def test_uniform_with_two_payers_and_surplus():
    rules = Rules(level=5)
    # double down: seat 1 paid SA to seat 0, seat 3 paid SQ to seat 2; the
    # view is seat 0's, and one unseen card is out of play (surplus)
    view = View(0, _cards("SA S6"), rules, [2, 2, 2, 2],
                tributes=[(1, 0, Card("SA")), (3, 2, Card("SQ"))],
                unseen="SQ HA S5 SK D9 C9 S8")
    pool = ["SQ", "HA", "S5", "SK", "D9", "C9", "S8"]
    forbidden = {1: {"S5"}, 3: {"HA", "S5", "SK"}}   # level 5: S5 above every other rank
    # the surplus is a pseudo-seat 4 with one place
    ref = _reference_distribution(pool, {1: 2, 2: 1, 3: 2, 4: 1}, {0: 2}, forbidden)
    ref3 = Counter()
    for k, p in ref.items():
        ref3[k[:3]] += p
    assert _chi_square(view, dict(ref3)) > 1e-3


def test_sampler_is_reproducible_and_rejects_bad_n():
    view = View(0, _cards("S3"), Rules(level=2), [1, 2, 2, 1], unseen="S7 S7 S8 S9 ST")
    a = [tuple(map(_multiset, d)) for d in sample_deals(view, 20, seed=4)]
    b = [tuple(map(_multiset, d)) for d in sample_deals(view, 20, seed=4)]
    assert a == b
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ViewError, match="n must be"):
            sample_deals(view, bad)


# -- rejections ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,needle", [
    (dict(seat=4), "seat must be a seat"),
    (dict(counts=[1, 2, 2]), "counts: four numbers"),
    (dict(counts=[2, 2, 2, 2]), r"counts\[0\] is 2 but the hand holds 1"),
    (dict(counts=[1, 2, 2, 40]), r"counts\[3\] must be"),
    (dict(phase="bidding"), "phase must be one of"),
    (dict(hand="S3 XX"), "hand:"),
    (dict(owner=1), "owner must be given exactly"),
    (dict(passes=2), "passes must be"),
    (dict(known={1: "SA SA SA"}), "known"),
    (dict(known={1: "SA S7"}, unseen="S7 S8 S9 ST SJ"), "SA is known in a hand but not"),
    (dict(unseen="S7 S8"), "hold 5 cards but only 2 are unseen"),
    (dict(tributes=[(1, 1, "SA")]), "gives a card to itself"),
    (dict(tributes=[(1, 0, "SA SK")]), "one card is given"),
    (dict(history=[(5, None)]), "history"),
    (dict(finished=[1]), "out but holds cards"),
    (dict(rules=2), "rules must be a Rules"),
    (dict(unseen="S3 S3 S4 S5 S6"), "S3 appears more than twice in the hand, the cards played"),
    (dict(unseen="S4 S5 S6 S7 S8", history=[(1, classify("S3 S3", Rules(level=2))[0])]),
     "S3 appears more than twice"),
    (dict(counts=[1, 2, 2, 28]),
     r"counts\[3\] is 28: at most 27 in the play phase"),
    (dict(counts=[1, 0, 2, 0], finished=[1, 3]), "the deal is over: seats 1 and 3 are out"),
    (dict(counts=[1, 0, 2, 1], finished=[1], turn=1), "turn: seat 1 is out and cannot act"),
])
def test_view_rejections(kwargs, needle):
    base = dict(seat=0, hand="S3", rules=Rules(level=2), counts=[1, 2, 2, 1])
    base.update(kwargs)
    with pytest.raises(ViewError, match=needle):
        View(**base)


def test_view_inconsistent_constraints():
    # seat 1 paid SK, so it cannot hold the one unseen card SA, yet it needs a card
    view = View(0, _cards("SK"), Rules(level=2), [1, 1, 0, 0], tributes=[(1, 0, "SK")],
                unseen="SA", phase="return")
    with pytest.raises(ViewError, match="SA is unseen but no seat may hold it"):
        sample_deals(view, 1)


def test_legal_actions_only_on_own_turn():
    v = View(0, _cards("S3"), Rules(level=2), [1, 2, 2, 1], turn=1)
    with pytest.raises(ViewError, match="not to act"):
        v.legal_actions()
    t = View(0, _cards("S3"), Rules(level=2), [1, 2, 2, 1], phase="tribute")
    with pytest.raises(ViewError, match="no plays in the tribute phase"):
        t.legal_actions()


def test_from_exchange_shows_the_hand_as_it_stands_and_the_tributes_once_paid():
    hands = ["SA S3", "S4 S5", "SK S6", "S8 S7"]
    deal = DealState(hands, Rules(level=2), previous=[0, 1, 2, 3])     # seat 3 pays seat 0
    v = View.from_exchange(deal)
    assert (v.seat, v.phase, v.tributes, v.counts) == (3, "tribute", (), (2, 2, 2, 2))
    assert sorted(v.hand) == _cards("S8 S7")
    deal.pay_tribute(3, Card("S8"))
    v = View.from_exchange(deal)
    assert (v.seat, v.phase, v.counts) == (0, "return", (3, 2, 2, 1))
    assert sorted(v.hand) == _cards("SA S3 S8")
    assert v.tributes == ((3, 0, Card("S8")),)
    other = View.from_exchange(deal, 2)
    assert other.seat == 2 and other.known[0] == (Card("S8"),)
    deal.give_back(0, Card("S3"))
    with pytest.raises(ViewError, match="no exchange in the play phase"):
        View.from_exchange(deal)


@pytest.mark.parametrize("kw, needle", [
    (dict(finished=None), "finished must be a sequence"),
    (dict(tributes=None), "tributes must be a sequence"),
    (dict(returns=5), "returns must be a sequence"),
    (dict(table="S5", owner=0), "its own standing play"),
    (dict(table="S5", owner=1, passes=0), "passes=0 is inconsistent"),
    (dict(table="S5", owner=2, passes=0), "passes=0 is inconsistent"),
])
def test_a_view_refuses_what_a_position_refuses(kw, needle):
    from guandan_fast import Rules, View, read_play
    from guandan_fast.errors import ViewError
    if "table" in kw:
        kw = dict(kw, table=read_play(kw["table"], Rules(level=2)))
    with pytest.raises(ViewError, match=needle):
        View(0, "S3 S4", Rules(level=2), [2, 2, 2, 2], **kw)
