"""The house policy (bots/policy.py, _policy.pxi): blind, legal, and its
rollouts reach the end of the deal, deterministically."""

import random

import numpy as np
import pytest

from conftest import by_run
from guandan_fast import Rules
from guandan_fast.bots import make_bot
from guandan_fast.bots.base import RandomBot
from guandan_fast.bots.match import deal_for, match, play_deal
from guandan_fast.bots.policy import (PolicyBot, _core_ctx, _played, playout, rollout_moves,
                                      rollouts)
from guandan_fast.errors import BotSpecError, ViewError
from guandan_fast.game.deal import DealState
from guandan_fast.game.state import GameState, partner
from guandan_fast.game.tribute import return_candidates, tribute_candidates
from guandan_fast.game.view import View, sample_deals

VALUES = {-3, -2, -1, 1, 2, 3}


def seeded_views(n_deals, seed, policy_share=0.5):
    """(state, view) at every decision of seeded deals, each seat played by
    the policy or a random bot (seeded), so that the positions vary."""
    rng = random.Random(seed)
    out = []
    for d in range(n_deals):
        hands, level, leader = deal_for(seed, d)
        rules = Rules(level=level)
        bots = [PolicyBot() if rng.random() < policy_share else RandomBot(rng.randrange(10**6))
                for _ in range(4)]
        state = GameState.start(hands, rules, leader)
        history = []
        while not state.over:
            view = View.from_state(state, history=history)
            out.append((state, view))
            action = bots[state.turn].choose(view)
            history.append((state.turn, action))
            state = state.apply(action)
    return out


@pytest.fixture(scope="module")
def views():
    return seeded_views(24, seed=11)


def test_every_play_is_legal(views):
    bot = PolicyBot()
    assert len(views) > 2000
    kinds = set()
    for state, view in views:
        action = bot.choose(view)
        assert state.why_illegal(action) is None, (view, action)
        assert action in state.legal_actions()
        kinds.add("pass" if action is None else action.type)
    # the sample has leads and follows of many kinds, passes and bombs
    assert {"pass", "single", "pair", "bomb"} <= kinds and len(kinds) >= 6


def test_tribute_and_return_are_legal():
    rng = random.Random(5)
    bot = PolicyBot()
    deck = [c for c in range(54) for _ in range(2)]
    for _ in range(by_run(30, 150)):
        level = rng.choice("23456789TJQKA")
        rules = Rules(level=level)
        rng.shuffle(deck)
        hand = np.bincount(deck[:27], minlength=54).astype(np.uint8)
        view = View(0, hand, rules, [27, 27, 27, 27], phase="tribute")
        cands = tribute_candidates(hand, rules)
        assert bot.tribute(view, cands) in cands
        hand28 = np.bincount(deck[27:55], minlength=54).astype(np.uint8)
        view = View(1, hand28, rules, [26, 28, 27, 27], phase="return")
        cands = return_candidates(hand28, rules)
        assert bot.give_back(view, cands) in cands


def varying_choices(views, peek_partner, per_view=6, limit=400):
    """How many views change the rollout driver's first decision when the
    cards the seat has not seen are redealt (sample_deals): 0 for a blind
    policy. ``peek_partner``: the test hook that also hands the policy the
    partner's real hand (a variant that reads a hidden hand)."""
    core = _core_ctx()
    varied = 0
    for state, view in views[:limit]:
        deals = np.array(sample_deals(view, per_view, seed=len(view.history)), dtype=np.uint8)
        r = view.rules
        picks = core.decide_in_deals(deals, _played(view), r.level_index, r.flags, view.turn,
                                     view.table, -1 if view.owner is None else view.owner,
                                     view.passes, tuple(view.finished),
                                     peek=partner(view.seat) if peek_partner else -1)
        keys = {None if p is None else (p.pattern, p.card_ids) for p in picks}
        varied += len(keys) > 1
    return varied


def test_blind_redealing_the_unseen_cards_changes_nothing(views):
    # a view of every fourth decision: leads, follows of the partner and of
    # an opponent, early and late in the deal
    sample = [v for i, v in enumerate(views) if i % 4 == 0 and v[1].counts[partner(v[1].seat)]]
    assert varying_choices(sample, peek_partner=False) == 0


def test_blindness_test_fails_on_a_variant_that_reads_a_hidden_hand(views):
    sample = [v for i, v in enumerate(views) if i % 4 == 0 and v[1].counts[partner(v[1].seat)]]
    assert varying_choices(sample, peek_partner=True) > 0


def test_rollout_driver_decides_as_the_bot(views):
    # the driver's view of a seat (public record + its hand) is the bot's View
    core = _core_ctx()
    bot = PolicyBot()
    for state, view in views[::7][:300]:
        r = view.rules
        deal = np.ascontiguousarray(np.stack(state.hands)[None].astype(np.uint8))
        got = core.decide_in_deals(deal, _played(view), r.level_index, r.flags, view.turn,
                                   view.table, -1 if view.owner is None else view.owner,
                                   view.passes, tuple(view.finished))[0]
        want = bot.choose(view)
        assert (got is None) == (want is None)
        if got is not None:
            assert got.card_ids == want.card_ids


def test_whole_deal_playout_is_the_match_of_four_policy_bots():
    for unit in range(by_run(8, 25)):
        hands, level, leader = deal_for(3, unit)
        rules = Rules(level=level)
        final = play_deal([PolicyBot() for _ in range(4)], DealState(hands, rules, leader=leader))
        assert playout(GameState.start(hands, rules, leader)) == final.result()
        assert final.result() in VALUES


def test_rollouts_reach_the_end_and_are_deterministic(views):
    # the default run leaves out the first view, an opening (a 27-card hand,
    # hundreds of moves: a second of rollouts)
    for state, view in by_run(views[150::600], views[::150]):
        deals = sample_deals(view, 12, seed=1)
        a = rollouts(view, deals)
        assert a.shape == (12,) and set(a.tolist()) <= VALUES
        assert (rollouts(view, deals) == a).all()
        moves, table = rollout_moves(view, deals)
        assert moves == view.legal_actions() and table.shape == (len(moves), 12)
        assert set(table.ravel().tolist()) <= VALUES
        # the policy's own move, made first, is the plain rollout
        mine = PolicyBot().choose(view)
        assert (table[moves.index(mine)] == a).all()


def test_rollouts_on_threads_are_the_one_thread_rollouts(views):
    # each deal's result depends on the deal alone: sharing the deals out
    # between threads (contiguous parts, a policy context each) gives the
    # one-thread table column for column, also with fewer deals than threads
    picked = [v for _, v in views[7::90]][:by_run(12, 30)]
    assert len(picked) >= 12
    for i, view in enumerate(picked):
        moves = view.legal_actions()[:6]
        for n in (1, 2, 5, 16):
            deals = sample_deals(view, n, seed=i)
            _, one = rollout_moves(view, deals, moves)
            for threads in (2, 3, 8):
                _, many = rollout_moves(view, deals, moves, threads=threads)
                assert many.shape == one.shape and (many == one).all(), (i, n, threads)


def test_rollouts_from_concurrent_callers_keep_their_contexts(views):
    # Python threads calling at once each get a policy context of their own
    # (one context shared by two GIL-free rollouts would mix its caches), and
    # callers asking for different thread counts share the pool safely
    import threading
    picked = [v for _, v in views[30::200]][:4]
    jobs = [(v, sample_deals(v, 6, seed=5)) for v in picked]
    alone = [rollout_moves(v, d)[1] for v, d in jobs]
    got: dict = {}

    def work(k):
        got[k] = [rollout_moves(v, d, threads=2 + k + r)[1] for v, d in jobs for r in range(3)]

    ts = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert sorted(got) == [0, 1, 2]
    for k in got:
        for j, table in enumerate(got[k]):
            assert (table == alone[j // 3]).all()


def test_whole_deal_rollouts_from_the_start():
    before = _core_ctx().plies
    hands, level, leader = deal_for(9, 0)
    view = View.from_state(GameState.start(hands, Rules(level=level), leader))
    values = rollouts(view, sample_deals(view, 50, seed=3))
    assert set(values.tolist()) <= VALUES and len(set(values.tolist())) > 1
    # every rollout played the 108 cards down to a team out: tens of moves each
    assert _core_ctx().plies - before > 50 * 30


def test_rollout_arguments_are_checked():
    hands, level, leader = deal_for(9, 1)
    state = GameState.start(hands, Rules(level=level), leader)
    view = View.from_state(state)
    deals = np.array(sample_deals(view, 2, seed=0), dtype=np.uint8)
    with pytest.raises(ViewError, match="deals"):
        rollouts(view, deals[:, :3])
    other = deals.copy()
    other[:, view.seat] = np.roll(other[:, view.seat], 1, axis=1)
    with pytest.raises(ViewError, match="own hand"):
        rollouts(view, other)
    with pytest.raises(ViewError, match="not a legal action"):
        rollout_moves(view, deals, [state.legal_actions()[0], "S3"])
    for bad in (0, -1, 257, 2.0, "2", True, None):
        with pytest.raises(ValueError, match="threads"):
            rollout_moves(view, deals, threads=bad)


def test_spec_and_matches():
    assert isinstance(make_bot("policy"), PolicyBot)
    with pytest.raises(BotSpecError):
        make_bot("policy:3")
    deals = by_run(1, 3)
    a = match("policy", "greedy", deals=deals, seed=4, jobs=1)
    b = match("policy", "greedy", deals=deals, seed=4, jobs=1)
    assert [p.gain_a for p in a.plays] == [p.gain_a for p in b.plays]
    g = match("policy", "random", deals=1, seed=2, jobs=1, games=by_run(False, True))  # a game: --slow
    assert g.plays and all(p.gain_a in VALUES for p in g.plays)
