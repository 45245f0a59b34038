"""The single-dummy value of the tribute and the return (analysis/exchange.py):
what the giver knows, the exchange completed on each drawn deal, the
rejection of drawn anti-tributes, the budget, the marking, the report, and
the blindness to hidden cards (the hands the giver cannot see dealt again
consistently leave the values unchanged)."""

import random
import zlib
from pathlib import Path

import pytest
from fake_engines import FakeEstimate, FakeMove

from guandan_fast import Card, Rules
from guandan_fast.analysis.exchange import (_deals, exchange_seat, finishing_order,
                                            start_position)
from guandan_fast.analysis.review import MIN_CANDIDATE_SECONDS, analyse
from guandan_fast.formats.record import load
from guandan_fast.errors import DealError
from guandan_fast.game.record import Record, Transfer, final_state
from guandan_fast.bots.advice import suggest_return, suggest_tribute
from guandan_fast.game.tribute import return_candidates, tribute_plan
from guandan_fast.game.view import sample_deals

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TRIBUTE = EXAMPLES / "record_tribute.txt"
HR, SB = Card("HR"), Card("SB")


def _digest(state) -> int:
    return zlib.crc32("|".join(" ".join(map(str, state.cards(s))) for s in range(4)).encode()
                      + bytes([state.turn]))


def _hand_estimator(state, max_seconds=None, seed=0):
    """A value made of all four hands and the leader: it sees every card,
    so whatever reaches it from a hidden hand shows."""
    v = (_digest(state) % 2001) / 1000.0 - 1.0
    return FakeEstimate(v, [FakeMove(None, v, v - 0.1, v + 0.1)])


def _exchange_only(rec: Record, hands=None) -> Record:
    """The record up to the start of the play (the play would not fit
    hands dealt again)."""
    return Record(hands=[sorted(h) for h in (hands or rec.hands)], rules=rec.rules,
                  tags=dict(rec.tags), players=rec.players, previous=rec.previous,
                  tributes=list(rec.tributes), returns=list(rec.returns), moves=[])


def _legal(rec, hands):
    """Whether the record's exchange is legal on these hands as dealt."""
    try:
        final_state(_exchange_only(rec, hands))
    except DealError:
        return False
    return True


def _redeal(hands, seats, fixed, ok, rng):
    """``hands`` with the cards of ``seats`` dealt again among them (each
    keeping its number), the ``fixed`` (seat, card) pairs left in place,
    until ``ok(hands)``."""
    while True:
        h = [list(x) for x in hands]
        pool = []
        for s in seats:
            keep = [c for (t, c) in fixed if t == s]
            rest = list(h[s])
            for c in keep:
                rest.remove(c)
            pool += rest
            h[s] = keep
        rng.shuffle(pool)
        k = 0
        for s in seats:
            n = len(hands[s]) - len(h[s])
            h[s] += pool[k:k + n]
            k += n
        if ok(h) and h != [list(x) for x in hands]:
            return [sorted(x) for x in h]


def _after_tribute(rec):
    h = [list(x) for x in rec.hands]
    for t in rec.tributes:
        h[t.giver].remove(t.card)
        h[t.receiver].append(t.card)
    return h


KW = dict(opening=False, tribute=False, min_plays=False, solve_cards=0, suggester=None)


# -- what the giver knows, and the exchange completed -------------------------------

def test_the_giver_knows_its_hand_and_only_the_tributes_it_has_seen():
    rec = load(TRIBUTE)
    pay = exchange_seat(rec, "tribute", 0)
    assert (pay.seat, pay.hand, pay.tributes) == (3, tuple(rec.hands[3]), ())
    assert pay.counts == (27, 27, 27, 27) and pay.candidates == (Card("S7"),)
    assert pay.payments == ((3, 0),) and pay.order == (0, 1, 2, 3)
    ret = exchange_seat(rec, "return", 0)
    assert ret.seat == 0 and Card("S7") in ret.hand and len(ret.hand) == 28
    assert ret.tributes == ((3, 0, Card("S7")),) and ret.counts == (28, 27, 27, 26)
    assert list(ret.candidates) == return_candidates(list(ret.hand), rec.rules)
    v = ret.view()
    assert v.phase == "return" and SB.id in v.forbidden[3] and HR.id in v.forbidden[3]


def test_the_true_deal_with_the_card_played_gives_the_recorded_start():
    rec = load(TRIBUTE)
    ret = exchange_seat(rec, "return", 0)
    st = start_position(ret, _after_tribute(rec), rec.returns[0].card)
    want = rec.start_state()
    assert st.turn == want.turn == 3
    assert [st.cards(s) for s in range(4)] == [want.cards(s) for s in range(4)]
    # the payer does not see the return: the receiver returns the advice's card
    pay = exchange_seat(rec, "tribute", 0)
    st = start_position(pay, [list(h) for h in rec.hands], Card("S7"))
    back = suggest_return(sorted(rec.hands[0] + [Card("S7")]), rec.rules)[0].card
    h0 = sorted(rec.hands[0] + [Card("S7")])
    h0.remove(back)
    assert st.cards(0) == h0 and back in st.cards(3) and st.turn == 3


def _double_down_record(seed: int) -> Record:
    """A dealt record after a 0-2 finish (seats 1 and 3 pay), the exchange
    by the advice; a deal with an anti-tribute is dealt again."""
    rules = Rules(level=5)
    deck = [Card(s + r) for s in "SHCD" for r in "23456789TJQKA"] + [SB, HR]
    rng = random.Random(seed)
    while True:
        cards = deck * 2
        rng.shuffle(cards)
        hands = [sorted(cards[27 * s:27 * s + 27]) for s in range(4)]
        plan = tribute_plan([0, 2, 1, 3], hands, rules)
        if not plan.anti_tribute:
            break
    h = [list(x) for x in hands]
    trs = []
    for p, q in plan.payments:
        c = suggest_tribute(h[p], rules)[0].card
        trs.append(Transfer(p, q, c))
    for t in trs:
        h[t.giver].remove(t.card)
        h[t.receiver].append(t.card)
    rts = [Transfer(t.receiver, t.giver, suggest_return(sorted(h[t.receiver]), rules)[0].card)
           for t in trs]
    return Record(hands=hands, rules=rules, previous=[0, 2, 1, 3], tributes=trs, returns=rts)


def test_a_double_down_payer_sees_the_receivers_follow_the_ranks_on_each_deal():
    rec = _double_down_record(3)
    pay = exchange_seat(rec, "tribute", 0)
    other = 4 - pay.seat            # seats 1 and 3 pay
    assert pay.payers == (rec.tributes[0].giver, rec.tributes[1].giver)
    for hands in _deals(pay, pay.view(), 3, seed=11):
        plan = tribute_plan([0, 2, 1, 3], hands, rec.rules)
        st = start_position(pay, hands, pay.candidates[0])
        mine = dict(plan.payments)[pay.seat]
        theirs = dict(plan.payments)[other]
        oc = suggest_tribute(hands[other], rec.rules)[0].card
        assert st.turn == plan.leader
        # the receivers hold the two tributes less what they returned
        got = {mine: pay.candidates[0], theirs: oc}
        for q, c in got.items():
            back = suggest_return(sorted(hands[q] + [c]), rec.rules)[0].card
            assert st.count(q) == 27 and (c in st.cards(q) or c == back)


def test_drawn_deals_with_both_big_jokers_on_the_paying_side_are_rejected_uniformly():
    """A double-down payer without a big joker: its partner cannot hold both
    (no anti-tribute was declared). P(partner holds one | not two) =
    (27*54) / (27*54 + C(54, 2)) = 0.5047; 400 draws."""
    for seed in range(40):
        rec = _double_down_record(seed)
        pay = exchange_seat(rec, "tribute", 0)
        if HR not in pay.hand:
            break
    else:
        pytest.fail("no payer without a big joker")
    partner = 4 - pay.seat
    deals = _deals(pay, pay.view(), 400, seed=5)
    assert len(deals) == 400
    held = [d[partner].count(HR) for d in deals]
    assert max(held) <= 1
    share = held.count(1) / 400
    assert abs(share - 0.5047) < 0.1, share
    # the control: the View alone lets the partner hold both
    raw = sample_deals(pay.view(), 400, seed=5)
    assert any(int(d[partner][HR.id]) == 2 for d in raw)


def test_without_previous_the_finishing_order_is_rebuilt_from_the_exchange():
    rec = load(TRIBUTE)
    bare = Record(hands=rec.hands, rules=rec.rules, tributes=rec.tributes,
                  returns=rec.returns, moves=rec.moves)
    order = finishing_order(bare)
    assert order[0] == 0 and order[-1] == 3 and order[1] != 2      # single down
    assert tribute_plan(order, rec.hands, rec.rules).payments == [(3, 0)]
    dd = _double_down_record(3)
    bare = Record(hands=dd.hands, rules=dd.rules, tributes=dd.tributes, returns=dd.returns)
    order = finishing_order(bare)
    assert tribute_plan(order, dd.hands, dd.rules).payments == \
        tribute_plan([0, 2, 1, 3], dd.hands, dd.rules).payments


# -- the review ---------------------------------------------------------------------

def test_exchange_decisions_get_single_dummy_values_within_the_budget(monkeypatch):
    import types
    from guandan_fast.analysis import exchange
    rec = load(TRIBUTE)
    calls = []
    clock = [0.0]         # the estimator spends its budget on this clock
    monkeypatch.setattr(exchange, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))

    def est(state, max_seconds=None, seed=0):
        calls.append((state.count(0), max_seconds))
        clock[0] += max_seconds
        return _hand_estimator(state, max_seconds, seed)
    a = analyse(_exchange_only(rec), views=("single",), budget=1.0, estimator=est,
                check_factor=None, **KW)        # the screening's budget alone
    trib, ret = a.decisions[:2]
    assert trib.single is not None and ret.single is not None
    assert [str(m.move) for m in trib.single.moves] == ["S7"]
    assert {m.move for m in ret.single.moves} == set(exchange_seat(rec, "return", 0).candidates)
    assert all(-3 <= m.low <= m.mean <= m.high <= 3 and m.samples >= 1
               for d in (trib, ret) for m in d.single.moves)
    assert ret.single.chosen is not None and str(ret.single.chosen.move) == "S2"
    # every estimate is of a full start position; the tribute's one card
    # gets a quarter of the budget, the return's 14 cards share the budget
    # of one decision with a floor per card: what is left after drawing
    assert all(n == 27 for n, _ in calls)
    n = len(ret.single.moves)
    planned = 0.25 + max(1.0, n * MIN_CANDIDATE_SECONDS)
    spent = sum(s for _, s in calls)
    assert spent == pytest.approx(planned)
    assert len(calls) == 5 + 4 * n            # 0.25 s: 5 deals; 0.2 s a card: 4 deals
    data = a.to_dict()
    assert data["decisions"][1]["single"]["chosen"]["move"]["cards"] == "S2"
    assert len(a.graph()["single"]) == len(a.decisions) and a.graph()["single"][1] is not None


def test_the_single_dummy_exchange_values_never_use_a_hidden_card():
    """Deal again what the giver cannot see (consistently with what it saw):
    its values do not change; the double-dummy values, which see every hand,
    do (the estimator reads every card, so a leak would show)."""
    rec = load(TRIBUTE)
    rng = random.Random(7)
    kw = dict(views=("double", "single"), budget=0.1, estimator=_hand_estimator, **KW)
    base = analyse(_exchange_only(rec), **kw)
    # the payer (seat 3) sees only its hand: seats 0-2 dealt again (S2 kept
    # in seat 0, so that the recorded return stays legal)
    payer = _redeal(rec.hands, [0, 1, 2], [(0, Card("S2"))], lambda h: True, rng)
    assert payer[3] == sorted(rec.hands[3])
    # the returner (seat 0) saw S7 paid by seat 3, who held nothing higher
    # (wilds apart): seats 1-3 dealt again after the tribute, no joker in 3
    after = _redeal(_after_tribute(rec), [1, 2, 3], [],
                    lambda h: HR not in h[3] and SB not in h[3], rng)
    after[3].append(Card("S7"))
    after[0].remove(Card("S7"))
    for which, hands in ((0, payer), (1, after)):
        other = analyse(_exchange_only(rec, hands), **kw)
        x, y = base.decisions[which], other.decisions[which]
        key = lambda v: [(str(m.move), m.mean, m.low, m.high, m.samples) for m in v.moves]  # noqa: E731
        assert key(x.single) == key(y.single), which
        assert key(x.double) != key(y.double), which


def _take(hand, cards):
    h = list(hand)
    for c in cards:
        h.remove(c)
    return h


@pytest.mark.slow
def test_double_down_single_dummy_values_never_use_a_hidden_card():
    """The same on a double down (two tributes by rank, two returns at
    once): a payer's values, and a returner's, do not change when the hands
    they cannot see are dealt again consistently (the recorded exchange
    cards kept where they are, so that the record stays the same record)."""
    from guandan_fast.game.tribute import anti_tribute
    rec = _double_down_record(3)
    rules = rec.rules
    rng = random.Random(2)
    kw = dict(views=("double", "single"), budget=0.1, estimator=_hand_estimator, **KW)
    base = analyse(_exchange_only(rec), **kw)
    payers = [t.giver for t in rec.tributes]
    received = {t.receiver: t.card for t in rec.tributes}

    def no_anti(dealt):
        # and the recorded exchange still legal on these hands (DealState checks it)
        return not anti_tribute([dealt[p] for p in payers], rules) and _legal(rec, dealt)
    # the first payer sees only its own hand
    me = rec.tributes[0].giver
    fixed = [(t.giver, t.card) for t in rec.tributes if t.giver != me]
    fixed += [(r.giver, r.card) for r in rec.returns
              if r.card in rec.hands[r.giver] and r.card != received[r.giver]]
    dealt = _redeal(rec.hands, [s for s in range(4) if s != me], fixed, no_anti, rng)
    # the first returner saw both tributes; the payers held nothing above theirs
    ret = rec.returns[0].giver
    order = rules.order
    after = _after_tribute(rec)
    pay_top = {t.giver: order(t.card.rank) for t in rec.tributes}

    def fits(h):
        before = [list(x) for x in h]
        for t in rec.tributes:
            before[t.receiver].remove(t.card)
            before[t.giver].append(t.card)
        return no_anti(before) and all(
            c == rules.wild or order(c.rank) <= pay_top[p] for p in payers for c in h[p])
    fixed = [(t.receiver, t.card) for t in rec.tributes if t.receiver != ret]
    fixed += [(r.giver, r.card) for r in rec.returns if r.giver != ret
              and r.card != received[r.giver]]
    seen_after = _redeal(after, [s for s in range(4) if s != ret], fixed, fits, rng)
    back = [list(x) for x in seen_after]
    for t in rec.tributes:
        back[t.receiver].remove(t.card)
        back[t.giver].append(t.card)
    key = lambda v: [(str(m.move), m.mean, m.low, m.high, m.samples) for m in v.moves]  # noqa: E731
    for which, hands in ((0, dealt), (2, back)):
        assert [len(h) for h in hands] == [27] * 4
        assert hands[base.decisions[which].seat] == sorted(rec.hands[base.decisions[which].seat])
        other = analyse(_exchange_only(rec, hands), **kw)
        x, y = base.decisions[which], other.decisions[which]
        assert x.kind == ("tribute" if which == 0 else "return")
        assert x.single is not None and key(x.single) == key(y.single), which
        assert key(x.double) != key(y.double), which


def test_a_return_that_breaks_a_bomb_is_marked_from_the_giver_s_seat():
    """The estimator (by construction) gives Ирина's side +1 when she keeps
    her four 2s and -1 when she breaks them, whatever the hidden hands
    (a little noise from them): returning S2 is an estimated loss of 2."""
    rec = load(TRIBUTE)
    twos = [Card("S2"), Card("S2"), Card("H2"), Card("D2")]

    def est(state, max_seconds=None, seed=0):
        keeps = all(state.cards(0).count(c) >= twos.count(c) for c in set(twos))
        v = (1.0 if keeps else -1.0) + (_digest(state) % 11) / 100.0
        return FakeEstimate(v, [FakeMove(None, v, v - 0.1, v + 0.1)])
    a = analyse(_exchange_only(rec), views=("single",), budget=1.0, estimator=est,
                **{**KW, "tribute": True})
    ret = a.decisions[1]
    assert ret.single.mistake == "likely" and ret.single.check["confirmed"]
    assert ret.single.loss == pytest.approx(2.0, abs=0.15)
    best = {str(m.move) for m in ret.single.best}
    assert "ST" in best and not best & {"S2", "H2", "D2"}
    assert a.first_mistake() == 1 and a.mistakes("single")[0] is ret
    from guandan_fast.report.common import decision_ref
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    data = a.to_dict()
    for lang, sd in (("en", "SD"), ("ru", "СВОЁ"), ("zh", "暗")):
        text = render_text(data, lang)
        ref = decision_ref(data["decisions"][1], data, lang)
        line = next(x for x in text.splitlines() if x.strip().startswith(ref))
        assert f"{sd} " in line and "✗" in line, (lang, line)
        html = render_html(data, lang)
        assert f"{sd} " in html.split('class="exchange"')[1].split("</table>")[0]


@pytest.mark.slow
def test_the_real_estimator_values_the_exchange_the_same_from_a_redealt_table():
    """With the real estimator (stopped on time) each giver's values on the
    record and with the hands it cannot see dealt again lie within each
    other's intervals."""
    rec = load(TRIBUTE)
    rng = random.Random(11)
    payer = _redeal(rec.hands, [0, 1, 2], [(0, Card("S2"))], lambda h: True, rng)
    after = _redeal(_after_tribute(rec), [1, 2, 3], [],
                    lambda h: HR not in h[3] and SB not in h[3], rng)
    after[3].append(Card("S7"))
    after[0].remove(Card("S7"))
    kw = dict(views=("single",), budget=0.5, opening=False, tribute=False, min_plays=False,
              suggester=None)
    a = analyse(_exchange_only(rec), **kw)
    compared = 0
    for which, hands in ((0, payer), (1, after)):
        x = a.decisions[which]
        y = analyse(_exchange_only(rec, hands), **kw).decisions[which]
        assert x.single is not None and y.single is not None
        mx = {str(m.move): m for m in x.single.moves}
        my = {str(m.move): m for m in y.single.moves}
        assert mx.keys() == my.keys()
        for k in mx:
            p, q = mx[k], my[k]
            assert -3 <= p.low <= p.mean <= p.high <= 3 and p.samples >= 1
            assert q.low - 1e-9 <= p.mean <= q.high + 1e-9 or \
                p.low - 1e-9 <= q.mean <= p.high + 1e-9, (which, k)
            compared += 1
    assert compared == 15


def _flat_estimator(state, max_seconds=None, seed=0):
    """Every position worth 0 [-1, 1]: no card's loss can be shown."""
    return FakeEstimate(0.0, [FakeMove(None, 0.0, -1.0, 1.0)])


def test_a_card_that_differs_from_the_advice_is_not_a_mistake_by_itself():
    """Ирина returns S2 where the tribute advice says ST, but the values
    show no loss: the report says the card differs from the advice and
    lists no mistake, in the text, the page and the JSON (the advice is a
    heuristic; only the rule of judge marks a mistake)."""
    from guandan_fast.report.html import render_html
    from guandan_fast.report.text import render_text
    a = analyse(_exchange_only(load(TRIBUTE)), views=("double", "single"), budget=0.1,
                estimator=_flat_estimator, **{**KW, "tribute": True})
    ret = a.exchange[1]
    assert (ret.kind, str(ret.card), str(ret.best.card), ret.differs) == ("return", "S2", "ST", True)
    assert not a.mistakes() and a.first_mistake() is None
    data = a.to_dict()
    assert data["exchange"][1]["differs"] is True and "mistake" not in data["exchange"][1]
    assert data["mistakes"] == []
    for lang, differs, none, s2 in (
            ("en", "≠ differs from the advice: S10", "no mistakes found", "S2"),
            ("ru", "≠ отличается от совета: 10♠", "ошибок не найдено", "2♠"),
            ("zh", "≠ 与建议不同：♠10", "未发现失误", "♠2")):
        text = render_text(data, lang)
        assert differs in text and "✗" not in text, lang
        mistakes = next(part for part in text.split("\n\n") if none in part)
        assert s2 not in mistakes, lang
        html = render_html(data, lang)
        table = html.split('class="exchange"')[1].split("</table>")[0]
        assert 'class="mistake"' not in table and "✗" not in table, lang
        assert '<span class="differs">≠ ' in table, lang
