"""DealState (game/deal.py): every phase of a deal, a rejection for each
error its steps name, and seeded whole deals driven with random legal
actions from random previous finishing orders, checked step by step against
the independent reference (tests/reference_state.py: the exchange of
RULES 7 and the play of RULES 6)."""

import random

import pytest

import reference_state as rs
from conftest import by_run, slow_beyond
from guandan_fast import Card, Rules
from guandan_fast.errors import DealError
from guandan_fast.formats import record, record_json
from guandan_fast.game.deal import DealState
from guandan_fast.game.record import Move, Transfer, final_state, replay


def cards(text):
    return [Card(t) for t in text.split()]


def tokens(cs):
    return sorted(str(c) for c in cs)


def deck_hands(rng):
    deck = [f"{s}{r}" for s in "SHCD" for r in "23456789TJQKA"] + ["SB", "HR"]
    deck = deck * 2
    rng.shuffle(deck)
    return [sorted(deck[27 * s:27 * (s + 1)]) for s in range(4)]


# -- the phases -----------------------------------------------------------------

def test_no_previous_order_starts_with_the_play():
    d = DealState(["S3", "S4", "S5", "S6"], Rules(level=2), leader=2)
    assert (d.phase, d.actor, d.payments, d.plan) == ("play", 2, [], None)
    assert d.legal_actions() == d.game.legal_actions()
    m = d.play(2, d.game.find("S5"))
    assert m == Move(2, d.game.table) and d.phase == "play" and d.actor == 3
    d.play(3, d.game.find("S6"))
    d.play(0, None)
    d.play(1, None)
    assert d.actor == 1               # seat 3 went out: its partner leads (接风)
    d.play(1, d.game.find("S4"))
    assert d.phase == "done" and d.actor is None and d.over
    assert d.order == (2, 3, 1, 0) and d.result() == 1     # seat 2 went out first


def test_single_down_tribute_return_and_the_payer_leads():
    hands = ["SA S3 D9", "S4 S5 S6", "SK S6 D7", "SB S8 H2 H2"]
    d = DealState(hands, Rules(level=2), [0, 1, 2, 3])
    assert d.phase == "tribute" and d.actor == 3
    assert d.legal_actions() == [Card("SB")]       # the wilds H2 are never paid
    t = d.pay_tribute(3, Card("SB"))
    assert t == Transfer(3, 0, Card("SB"))
    with pytest.raises(AttributeError):            # a frozen operation record
        t.card = Card("S3")
    assert d.phase == "return" and d.actor == 0
    assert tokens(d.hand(0)) == tokens(cards("SA S3 D9 SB"))
    assert d.legal_actions() == [Card("S3"), Card("D9")]
    d.give_back(0, Card("D9"))
    assert d.phase == "play" and d.actor == 3
    assert tokens(d.hand(3)) == tokens(cards("S8 H2 H2 D9"))
    rec = d.record()
    assert rec.tributes == [Transfer(3, 0, Card("SB"))] and rec.returns == [Transfer(0, 3, Card("D9"))]
    assert rec.previous == [0, 1, 2, 3] and not rec.anti_tribute


def test_double_down_the_tributes_are_paid_together():
    hands = ["S3 S4", "SA S7", "S5 S6", "SK S8"]
    d = DealState(hands, Rules(level=2), [0, 2, 1, 3])
    # seat 1 pays A (the higher) to seat 0, seat 3 pays K to seat 2
    assert d.payments == [(1, 0), (3, 2)] and d.actor == 1
    d.pay_tribute(1, Card("SA"))
    assert d.phase == "tribute" and d.actor == 3
    assert tokens(d.hand(0)) == ["S3", "S4"]          # not yet in the receiver's hand
    d.pay_tribute(3, Card("SK"))
    assert d.phase == "return" and d.actor == 0 and tokens(d.hand(0)) == ["S3", "S4", "SA"]
    d.give_back(0, Card("S3"))
    assert d.actor == 2 and tokens(d.hand(1)) == ["S7"]     # the returns go together too
    d.give_back(2, Card("S5"))
    assert d.phase == "play" and d.actor == 1             # the payer of the higher tribute
    assert tokens(d.hand(1)) == ["S3", "S7"] and tokens(d.hand(3)) == ["S5", "S8"]
    # the two tributes go together: either payer may give first, as may the returners
    e = DealState(hands, Rules(level=2), [0, 2, 1, 3])
    assert e.waiting() == [1, 3] and e.legal_actions(3) == [Card("SK")]
    assert e.legal_actions(0) == []
    e.pay_tribute(3, Card("SK"))
    assert e.waiting() == [1] and e.actor == 1
    e.pay_tribute(1, Card("SA"))
    assert e.waiting() == [2, 0]                        # in the order of the tributes
    e.give_back(0, Card("S3"))
    e.give_back(2, Card("S5"))
    assert [tokens(e.hand(s)) for s in range(4)] == [tokens(d.hand(s)) for s in range(4)]
    assert e.actor == 1 and e.record().tributes == [Transfer(3, 2, Card("SK")),
                                                    Transfer(1, 0, Card("SA"))]


@pytest.mark.parametrize("upper, payments, leader", [
    (True, [(1, 0), (3, 2)], 1),      # each pays its upper hand; who paid the first leads
    (False, [(3, 0), (1, 2)], 3),     # the finishing order decides; the last leads
])
def test_equal_tributes(upper, payments, leader):
    hands = ["S3 S4", "SA S5", "S6 S7", "HA S8"]
    d = DealState(hands, Rules(level=2, equal_tribute_to_upper_hand=upper), [0, 2, 1, 3])
    assert d.payments == payments and d.plan.equal_tributes
    for p, _ in payments:
        d.pay_tribute(p, d.legal_actions()[0])
    while d.phase == "return":
        d.give_back(d.actor, d.legal_actions()[0])
    assert d.actor == leader


@pytest.mark.parametrize("hands, previous", [
    (["S3", "S4 HR", "S5", "HR S6"], [0, 2, 1, 3]),   # double down: the jokers split
    (["S3", "S4", "S5", "HR HR S6"], [0, 1, 2, 3]),   # single down: one payer holds both
])
def test_anti_tribute_nothing_is_paid_and_the_first_finisher_leads(hands, previous):
    d = DealState(hands, Rules(level=2), previous)
    assert d.anti_tribute and d.phase == "play" and d.actor == previous[0]
    assert d.payments == [] and sum(d.anti_holders.values()) == 2
    assert d.record().anti_tribute


def test_no_tribute_when_partner_last():
    hands = ["S3", "S4", "S5", "S6"]
    d = DealState(hands, Rules(level=2, no_tribute_when_partner_last=True), [0, 1, 3, 2])
    assert d.phase == "play" and d.actor == 0 and not d.anti_tribute
    d2 = DealState(hands, Rules(level=2), [0, 1, 3, 2])
    assert d2.phase == "tribute" and d2.payments == [(2, 0)]   # the partner pays (RULES 7)


def test_a_given_exchange_without_the_previous_order():
    d = DealState(["SA S3", "S4", "S5", "S6 S7"], Rules(level=2), payments=[(3, 0)])
    d.pay_tribute(3, Card("S7"))
    d.give_back(0, Card("S3"))
    assert d.actor == 3 and d.previous is None


def test_the_record_round_trips_and_replays():
    rng = random.Random(4)
    d = DealState(deck_hands(rng), Rules(level="9"), [3, 1, 0, 2])
    while not d.over:
        acts = d.legal_actions()
        a = rng.choice(acts)
        {"tribute": d.pay_tribute, "return": d.give_back, "play": d.play}[d.phase](d.actor, a)
    rec = d.record(tags={"event": "test"}, players=["a", "b", "c", "d"])
    assert record.loads(record.dumps(rec)) == rec == record_json.loads(record_json.dumps(rec))
    assert final_state(rec).finished == d.game.finished and rec.result() == d.result()
    assert [s.move for s in replay(rec)] == d.moves


# -- rejections -------------------------------------------------------------------

def _tribute_deal():
    return DealState(["SA S3 D9", "S4 S5 S6", "SK S6 D7", "SB S8 H2 H2"], Rules(level=2),
                     [0, 1, 2, 3])


@pytest.mark.parametrize("kwargs, match", [
    (dict(hands=["S3", "S4", "S5"]), "four hands"),
    (dict(hands=["S3 S3 S3", "S4", "S5", "S6"]), "third copy"),
    (dict(rules="Z"), "level"),
    (dict(previous=[0, 1, 2]), "previous: finishing order"),
    (dict(previous=[0, 1, 2, 3], payments=[(3, 0)]), "the tribute plan decides"),
    (dict(previous=[0, 1, 2, 3], leader=1), "seat 3 leads"),
    (dict(leader=4), "leader must be a seat"),
    (dict(payments=[(1, 1)]), "cannot pay tribute to itself"),
    (dict(payments=[(1, 0), (1, 2)]), "pays or receives twice"),
    (dict(payments=[(1, 0), (3, 2), (2, 1)]), "at most two tributes"),
    (dict(payments=[(1,)]), r"payments\[0\]: a \(payer, receiver\) pair"),
    (dict(payments="3 0"), "pairs"),
    (dict(payments=[(3, 0)], anti_tribute=True), "anti-tribute deal has no payments"),
    (dict(anti_tribute="yes"), "anti_tribute must be True or False"),
    (dict(hands=["H2", "S4", "S5", "H2"], previous=[0, 1, 2, 3]), "only wilds"),
])
def test_a_deal_that_cannot_be_set_up(kwargs, match):
    args = dict(hands=["S3", "S4", "S5", "S6"], rules=Rules(level=2))
    args.update(kwargs)
    with pytest.raises(DealError, match=match):
        DealState(args.pop("hands"), args.pop("rules"), **args)


@pytest.mark.parametrize("giver, card, match", [
    (0, Card("SA"), "seat 0 gives no tribute card now: seat 3 still to give"),
    (7, Card("SB"), "giver must be a seat"),
    (3, "SB", "a Card"),
    (3, Card("HR"), "does not hold HR"),
    (3, Card("S8"), "S8 is not the highest card"),
    (3, Card("H2"), "wild"),
])
def test_a_bad_tribute_is_refused(giver, card, match):
    d = _tribute_deal()
    with pytest.raises(DealError, match=match):
        d.verify_pay_tribute(giver, card)
    assert not d.can_pay_tribute(giver, card) and d.can_pay_tribute(3, Card("SB"))
    assert d.receiver(3) == 0
    with pytest.raises(DealError, match="seat 1 gives no card now"):
        d.receiver(1)
    with pytest.raises(DealError, match=match):
        d.pay_tribute(giver, card)
    assert d.tributes == [] and d.phase == "tribute"


@pytest.mark.parametrize("giver, card, match", [
    (3, Card("S8"), "seat 3 gives no return card now: seat 0 still to give"),
    (0, Card("S4"), "does not hold S4"),
    (0, Card("SA"), "the return must be 2..10"),
])
def test_a_bad_return_is_refused(giver, card, match):
    d = _tribute_deal()
    with pytest.raises(DealError, match="no return now: the deal is in its tribute phase"):
        d.give_back(0, Card("S3"))
    d.pay_tribute(3, Card("SB"))
    with pytest.raises(DealError, match="no tribute now"):
        d.pay_tribute(3, Card("S8"))
    with pytest.raises(DealError, match=match):
        d.verify_give_back(giver, card)
    assert not d.can_give_back(giver, card) and d.can_give_back(0, Card("S3"))


def test_a_return_of_the_lowest_card_when_no_2_to_10():
    d = DealState(["SA SK", "S4", "S5", "SQ S8"], Rules(level=2), [0, 1, 2, 3])
    d.pay_tribute(3, Card("SQ"))
    with pytest.raises(DealError, match="the lowest card is returned"):
        d.give_back(0, Card("SA"))
    d.give_back(0, Card("SQ"))


def test_a_bad_play_is_refused():
    d = _tribute_deal()
    with pytest.raises(DealError, match="no play now: the deal is in its tribute phase"):
        d.play(3, None)
    d.pay_tribute(3, Card("SB"))
    d.give_back(0, Card("S3"))
    g = d.game
    pair = g.find("H2 H2")
    with pytest.raises(DealError, match="turn out of order: seat 3 is to lead, not seat 0"):
        d.play(0, pair)
    with pytest.raises(DealError, match="seat must be a seat"):
        d.play(True, pair)
    with pytest.raises(DealError, match="a play is a Play or None"):
        d.play(3, "H2 H2")
    with pytest.raises(DealError, match="a pass on a free lead"):
        d.verify_play(3, None)
    sa = DealState(["SA", "S4", "S5", "S6"], Rules(level=2)).game.find("SA")
    with pytest.raises(DealError, match="seat 3 does not hold SA"):
        d.play(3, sa)
    assert d.can_play(3, pair) and not d.can_play(3, None)
    d.play(3, pair)
    with pytest.raises(DealError, match="does not beat the standing pair"):
        d.play(0, sa)
    other = DealState(["S9", "S5", "S6", "S7"], Rules(level=3)).game.find("S9")
    with pytest.raises(DealError, match="another level"):
        d.play(0, other)
    assert len(d.moves) == 1


def test_nothing_after_the_end():
    d = DealState(["S3", "S4", "S5", "S6"], Rules(level=2))
    d.play(0, d.game.find("S3"))
    d.play(1, d.game.find("S4"))
    d.play(2, d.game.find("S5"))
    assert d.over and d.order[:3] == (0, 1, 2) and d.legal_actions() == []
    with pytest.raises(DealError, match=r"no play now: the deal is in its done phase "
                                        r"\(finishing order 0 1 2 3\)"):
        d.play(3, None)
    assert not d.can_play(3, None)


# -- whole deals against the reference ---------------------------------------------

def _check_play(deal, ref):
    g = deal.game
    assert g.turn == ref.turn if not ref.over else True
    assert tuple(g.finished) == tuple(ref.finished)
    assert g.over == ref.over and g.result() == ref.result()
    for s in range(4):
        assert tokens(g.cards(s)) == sorted(ref.hands[s])
    if not ref.over:
        assert g.owner == ref.owner and g.passes == ref.passes
        assert (g.table is None) == (ref.table is None)
        keys = {(p.type, p.rank, p.size) if p is not None else None for p in deal.legal_actions()}
        assert keys == ref.legal_keys()


@pytest.mark.parametrize("seed", slow_beyond(range(60), 1))
def test_random_whole_deals_match_the_reference(seed):
    rng = random.Random(seed)
    kinds = {}
    for k in range(5):
        level = rng.choice("23456789TJQKA")
        flags = dict(equal_tribute_to_upper_hand=rng.random() < 0.7,
                     no_tribute_when_partner_last=rng.random() < 0.3,
                     joker_pair_in_full_house=rng.random() < 0.3)
        rules = Rules(level=level, **flags)
        hands = deck_hands(rng)
        if rng.random() < 0.25:     # plant both big jokers on one side now and then
            for s in (1, 3):
                if "HR" not in hands[s]:
                    donor = next(x for x in range(4) if x != s and hands[x].count("HR"))
                    i, j = hands[donor].index("HR"), next(
                        i for i, c in enumerate(hands[s]) if c != "HR")
                    hands[donor][i], hands[s][j] = hands[s][j], hands[donor][i]
            hands = [sorted(h) for h in hands]
        previous = None if rng.random() < 0.15 else rng.sample(range(4), 4)
        leader = rng.randrange(4)
        deal = DealState(hands, rules, previous, leader=None if previous else leader)
        if previous is None:
            want_pay, want_anti, want_lead = [], False, leader
        else:
            want_pay, want_anti, want_lead = rs.exchange_plan(
                previous, hands, level, flags["equal_tribute_to_upper_hand"],
                flags["no_tribute_when_partner_last"])
        assert deal.payments == want_pay and deal.anti_tribute == want_anti
        kinds[("anti" if want_anti else len(want_pay))] = True
        held = [list(h) for h in hands]
        paid = []
        for payer, receiver in want_pay:
            assert deal.phase == "tribute" and deal.actor == payer
            choices = rs.tribute_choices(held[payer], level)
            assert sorted(str(c) for c in deal.legal_actions()) == choices
            for c in set(held[payer]) - set(choices):
                assert not deal.can_pay_tribute(payer, Card(c))
            card = rng.choice(choices)
            assert deal.pay_tribute(payer, Card(card)) == Transfer(payer, receiver, Card(card))
            paid.append((payer, receiver, card))
        for payer, receiver, card in paid:
            held[payer].remove(card)
            held[receiver].append(card)
        back = []
        for payer, receiver, _ in paid:
            assert deal.phase == "return" and deal.actor == receiver
            assert tokens(deal.hand(receiver)) == sorted(held[receiver])
            choices = rs.return_choices(held[receiver], level)
            assert sorted(str(c) for c in deal.legal_actions()) == choices
            for c in set(held[receiver]) - set(choices):
                assert not deal.can_give_back(receiver, Card(c))
            card = rng.choice(choices)
            deal.give_back(receiver, Card(card))
            back.append((receiver, payer, card))
        for giver, to, card in back:
            held[giver].remove(card)
            held[to].append(card)
        assert deal.phase == "play" and deal.actor == want_lead
        ref = rs.Deal(held, level, want_lead, exhaustive=False,
                      joker_pair_in_full_house=flags["joker_pair_in_full_house"])
        _check_play(deal, ref)
        steps = 0
        while not deal.over:
            acts = deal.legal_actions()
            plays = [a for a in acts if a is not None]
            if None in acts and (not plays or rng.random() < 0.4):
                a = None
            else:
                a = rng.choice(plays)
            seat = deal.actor
            if rng.random() < 0.1:       # a wrong seat is refused, nothing changes
                with pytest.raises(DealError, match="turn out of order"):
                    deal.play((seat + 1) % 4, a)
            assert deal.play(seat, a) == Move(seat, a)
            if a is None:
                ref.pass_()
            else:
                ref.play([str(c) for c in a.cards], a.type, a.rank)
            steps += 1
            if steps % 3 == 0 or deal.over:
                _check_play(deal, ref)
        assert deal.order[:len(ref.finished)] == tuple(ref.finished)
        assert sorted(deal.order) == [0, 1, 2, 3]
        assert deal.result() == rs.deal_result(ref.finished)
        rec = deal.record()
        assert record.loads(record.dumps(rec)) == rec
        assert final_state(rec).finished == deal.game.finished
    assert kinds  # at least one deal was set up


def test_the_exchange_of_many_seeded_deals_matches_the_reference():
    """The exchange alone (plan, candidates, leader) on 400 seeded deals from
    random previous orders, levels and flags: every kind of RULES 7 occurs
    (the default run: the first 150 deals, the last kind at deal 149)."""
    rng = random.Random(2026)
    kinds = set()
    for _ in range(by_run(150, 400)):
        level = rng.choice("23456789TJQKA")
        flags = dict(equal_tribute_to_upper_hand=rng.random() < 0.5,
                     no_tribute_when_partner_last=rng.random() < 0.5)
        hands = deck_hands(rng)
        previous = rng.sample(range(4), 4)
        deal = DealState(hands, Rules(level=level, **flags), previous)
        pay, anti, lead = rs.exchange_plan(previous, hands, level, **flags)
        assert (deal.payments, deal.anti_tribute) == (pay, anti)
        kinds.add("anti" if anti else "none" if not pay else
                  "equal" if deal.plan.equal_tributes else len(pay))
        while deal.phase in ("tribute", "return"):
            hand = [str(c) for c in deal.hand(deal.actor)]
            want = (rs.tribute_choices if deal.phase == "tribute" else rs.return_choices)(
                hand, level)
            assert sorted(str(c) for c in deal.legal_actions()) == want
            card = Card(rng.choice(want))
            (deal.pay_tribute if deal.phase == "tribute" else deal.give_back)(deal.actor, card)
        assert deal.phase == "play" and deal.actor == lead
        assert sum(map(len, deal.hands())) == 108
    assert kinds == {"anti", "none", "equal", 1, 2}, kinds


def test_a_record_whose_exchange_breaks_rules_7_does_not_replay():
    from guandan_fast.game.record import Record
    hands = [cards(h) for h in ("SA S3 D9", "S4 S5 S6", "SK S6 D7", "SB S8 H2 H2")]
    rules = Rules(level=2)
    wrong_receiver = Record(hands=hands, rules=rules, previous=[0, 1, 2, 3],
                            tributes=[Transfer(3, 1, Card("SB"))],
                            returns=[Transfer(1, 3, Card("S4"))])
    with pytest.raises(DealError, match=r"the tribute 3 -> 1: SB: seat 3 pays seat 0"):
        final_state(wrong_receiver)
    not_highest = Record(hands=hands, rules=rules, previous=[0, 1, 2, 3],
                         tributes=[Transfer(3, 0, Card("S8"))], returns=[Transfer(0, 3, Card("S3"))])
    with pytest.raises(DealError, match="S8 is not the highest card"):
        list(replay(not_highest))
    ok = Record(hands=hands, rules=rules, previous=[0, 1, 2, 3],
                tributes=[Transfer(3, 0, Card("SB"))], returns=[Transfer(0, 3, Card("S3"))])
    assert final_state(ok).turn == 3
