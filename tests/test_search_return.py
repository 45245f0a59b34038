"""The return card of PolicyBot and SearchBot (``bots.policy._choose_return``):
each card's value by whole-deal rollouts of the policy after it, checked
against plain play through GameState, and the choice against those values."""

import random

import numpy as np
import pytest

from guandan_fast import Rules
from guandan_fast.bots import GreedyBot, SearchBot
from guandan_fast.bots.match import deal_for
from guandan_fast.bots.policy import RETURN_DEALS, PolicyBot, _choose_return, _return_means
from guandan_fast.game.deal import DealState
from guandan_fast.game.state import GameState, team
from guandan_fast.game.view import View, sample_deals


def _returns(seed, n, payments=1):
    """Up to n return decisions of seeded deals with ``payments`` tributes,
    the tributes paid by the advice: (deal, view, candidates)."""
    advice = GreedyBot()
    out = []
    for i in range(400):
        hands, level, _ = deal_for(seed, i)
        previous = list(range(4))
        random.Random(f"{seed}:{i}").shuffle(previous)
        rules = Rules(level=level)
        deal = DealState(hands, rules, previous)
        if len(deal.payments) != payments:
            continue
        while deal.phase == "tribute":
            seat, h = deal.actor, deal.hands()
            view = View(seat, h[seat], rules, [len(x) for x in h], phase="tribute")
            deal.pay_tribute(seat, advice.tribute(view, deal.legal_actions()))
        if deal.phase != "return":
            continue
        seat, h = deal.actor, deal.hands()
        view = View(seat, h[seat], rules, [len(x) for x in h], tributes=list(deal.tributes),
                    phase="return")
        out.append((deal, view, deal.legal_actions()))
        if len(out) == n:
            break
    return out


def _reference(view, deal_hands, card, payer):
    """The returner's team's result: ``card`` moved to the payer, who leads;
    PolicyBot in every seat deciding from its View of a plain GameState
    (its hand, what it has not seen, every move since)."""
    hands = [np.asarray(h, dtype=np.int64).copy() for h in deal_hands]
    hands[view.seat][card.id] -= 1
    hands[payer][card.id] += 1
    state = GameState.start([h.astype(np.uint8) for h in hands], view.rules, payer)
    out = np.zeros(54, dtype=np.int64)
    bot = PolicyBot()
    while not state.over:
        hand = np.asarray(state.hands[state.turn], dtype=np.int64)
        action = bot.choose(View.from_state(state, unseen=(2 - out - hand).astype(np.uint8)))
        if action is not None:
            for c in action.card_ids:
                out[c] += 1
        state = state.apply(action)
    r = state.result()
    return r if team(view.seat) == 0 else -r


def test_return_means_are_the_average_of_plain_play_after_each_card():
    cases = _returns(301, 6)
    assert len(cases) == 6
    for k, (_deal, view, cands) in enumerate(cases):
        payer = view.tributes[0][0]
        cards = list(dict.fromkeys(cands))[:4]
        deals = sample_deals(view, 3, seed=k)
        got = _return_means(view, cards, payer, deals)
        want = [np.mean([_reference(view, d, c, payer) for d in deals]) for c in cards]
        assert got.tolist() == pytest.approx(want)


def test_the_choice_is_the_best_mean_ties_to_the_advice():
    for k, (_deal, view, cands) in enumerate(_returns(302, 8)):
        advised = GreedyBot().give_back(view, cands)
        cards = [advised] + [c for c in dict.fromkeys(cands) if c != advised]
        payer = view.tributes[0][0]
        # one round: the first RETURN_DEALS deals of the seed's draw
        means = _return_means(view, cards, payer,
                             sample_deals(view, RETURN_DEALS, seed=(k * 7919) & 0x7FFFFFFF))
        best = cards[int(np.argmax(means))]
        assert means[cards.index(best)] == means.max()
        assert _choose_return(view, cands, 1.0, k, max_playouts=1) == best


@pytest.mark.parametrize("make", [lambda: SearchBot(max_playouts=200, seed=3), PolicyBot])
def test_deterministic_and_legal(make):
    bot_a, bot_b = make(), make()
    for _deal, view, cands in _returns(303, 10):
        a, b = bot_a.give_back(view, cands), bot_b.give_back(view, cands)
        assert a == b and a in cands


def test_the_advice_with_two_tributes_or_none_seen():
    advice = GreedyBot()
    cases = _returns(304, 4, payments=2)
    assert cases
    for _deal, view, cands in cases:
        assert _choose_return(view, cands, 0.2, 1) == advice.give_back(view, cands)
    _deal, view, cands = _returns(305, 1)[0]
    blind = View(view.seat, view.hand, view.rules, view.counts, phase="return")
    assert _choose_return(blind, cands, 0.2, 1) == advice.give_back(blind, cands)
