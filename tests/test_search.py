"""The rollout search (bots/search.py): each candidate's value is the plain
average of whole-deal playouts of the house policy after it, on the same
sampled deals for every candidate; deterministic under a playout budget;
SearchBot plays its first move."""

import numpy as np
import pytest

from guandan_fast import Rules, classify
from guandan_fast.bots import SearchBot, make_bot, suggest
from guandan_fast.bots.match import deal_for, match
from guandan_fast.bots.policy import PolicyBot
import hashlib

from guandan_fast.bots import search
from guandan_fast.bots.search import (_pick, _plan, candidates, compare_moves, evaluate_moves,
                                      evaluate_position, fresh_seed)
from guandan_fast.errors import BotSpecError, ViewError
from guandan_fast.game.state import GameState, team
from guandan_fast.game.view import View, sample_deals

VALUES = {-3, -2, -1, 1, 2, 3}


def _reference(view, deal, move):
    """The mover's team's result on ``deal`` after ``move``: PolicyBot in
    every seat, each deciding from its View of a plain GameState (no code
    of the compiled rollout driver): its hand and the public record, the
    cards out of the hands in the view (two decks less the cards its seat
    has not seen and its hand) and every move since."""
    bot = PolicyBot()
    out = 2 - view.pool.astype(np.int64) - view.hand_counts.astype(np.int64)
    state = view.state(deal)
    action = move
    while True:
        if action is not None:
            for c in action.card_ids:
                out[c] += 1
        state = state.apply(action)
        if state.over:
            break
        hand = np.asarray(state.hands[state.turn], dtype=np.int64)
        unseen = (2 - out - hand).astype(np.uint8)
        action = bot.choose(View.from_state(state, unseen=unseen))
    r = state.result()
    return r if team(view.seat) == 0 else -r


def _views(seed, n_deals=2, every=9):
    """Views of seeded policy deals: leads and follows, early and late."""
    bot = PolicyBot()
    out = []
    for d in range(n_deals):
        hands, level, leader = deal_for(seed, d)
        s = GameState.start(hands, Rules(level=level), leader)
        history: list = []
        while not s.over:
            v = View.from_state(s, history=history)
            if len(history) % every == 0 and len(v.legal_actions()) > 1:
                out.append(v)
            action = bot.choose(v)
            history.append((s.turn, action))
            s = s.apply(action)
    return out


@pytest.fixture(scope="module")
def views():
    return _views(5)


def test_values_are_the_average_of_policy_playouts_on_the_same_deals(views):
    checked = 0
    for k, v in enumerate(views[::3][:6]):
        samples, playouts = 3, 3 * 4
        got = evaluate_moves(v, max_seconds=1.0, samples=samples, seed=k,
                             max_playouts=playouts)
        n, width = _plan(len(candidates(v)), samples, playouts, v.perfect)
        deals = sample_deals(v, n, seed=k)
        valued = [m for m in got if m.valued]
        assert len(valued) == width
        for m in valued:
            ref = [_reference(v, d, m.move) for d in deals]
            assert m.samples == len(deals)
            assert m.mean == pytest.approx(np.mean(ref), abs=1e-12)
            assert m.team == team(v.seat) and m.low <= m.mean <= m.high
            checked += 1
    assert checked >= 12


def test_the_candidates_valued_are_the_first_in_the_policy_order(views):
    bot = PolicyBot()
    for v in views[:8]:
        c = candidates(v)
        assert c[0] == bot.choose(v)
        assert sorted(map(repr, c)) == sorted(map(repr, v.legal_actions()))
        assert len(set(c)) == len(c)
        if v.table is not None and c[0] is not None:
            assert c[1] is None
        got = evaluate_moves(v, max_seconds=1.0, samples=2, seed=1, max_playouts=2 * 3)
        assert {m.move for m in got if m.valued} == set(c[:min(3, len(c))])


@pytest.mark.parametrize("playouts", [1, 4, 12])
def test_an_included_move_is_valued_whatever_the_budget(views, playouts):
    """``include``: the move a review judges, the last of the policy's order,
    is valued even where the budget holds only the first candidates; the
    others keep the policy's order; without it nothing changes."""
    checked = 0
    for v in views[:8]:
        c = candidates(v)
        if len(c) < 4:
            continue
        last = c[-1]
        got = evaluate_moves(v, max_seconds=1.0, samples=8, seed=2, max_playouts=playouts,
                             include=last)
        valued = [m.move for m in got if m.valued]
        assert last in valued and c[0] in valued
        plain = evaluate_moves(v, max_seconds=1.0, samples=8, seed=2, max_playouts=playouts)
        assert last not in [m.move for m in plain if m.valued]
        # under a clock too, however short (even one spent before the first call)
        for secs in (1e-3, 1e-9):
            timed = evaluate_moves(v, max_seconds=secs, samples=8, seed=2, include=last)
            assert last in [m.move for m in timed if m.valued]
        checked += 1
    assert checked >= 3


def test_deterministic_under_a_playout_budget_and_seeded(views):
    v = views[2]
    a = evaluate_moves(v, max_seconds=1e-6, samples=4, seed=7, max_playouts=60)
    b = evaluate_moves(v, max_seconds=50.0, samples=4, seed=7, max_playouts=60)
    c = evaluate_moves(v, max_seconds=1.0, samples=4, seed=8, max_playouts=60)
    assert a == b
    assert [m.samples for m in a] != [] and a != c or all(m.samples <= 1 for m in a)


def test_threads_change_nothing_under_a_playout_budget(views):
    # the rollouts shared out between threads give the same results, so a
    # playout budget gives the same answer (values, intervals, order)
    for i, v in enumerate(views[:6]):
        one = evaluate_moves(v, max_seconds=1.0, samples=4, seed=i, max_playouts=90)
        two = evaluate_moves(v, max_seconds=1.0, samples=4, seed=i, max_playouts=90, threads=2)
        assert one == two
    for bad in (0, 257, "2", 1.5, False):
        with pytest.raises(ValueError, match="threads"):
            evaluate_moves(views[0], max_seconds=0.1, threads=bad)
        with pytest.raises(ValueError, match="threads"):
            SearchBot(threads=bad)


def test_every_move_valued_when_the_budget_holds_them_then_more_deals(views):
    v = views[1]
    m = len(candidates(v))
    got = evaluate_moves(v, max_seconds=1.0, samples=4, seed=3, max_playouts=m * 10)
    assert all(x.valued for x in got)
    assert {x.samples for x in got} == {10}


def test_perfect_view_values_are_the_policy_results():
    # every card known: one deal, each move's value is the playout after it
    s = GameState.start(["S3 S4 H9 D7", "S5 S9 SJ C4", "SA SK D3 H5", "S6 S7 C8 DQ"],
                        Rules(level=2), leader=0)
    v = View.from_state(s, reveal=True)
    out = suggest(v, max_seconds=0.5)
    deal = sample_deals(v, 1, seed=0)[0]
    for m in out:
        assert m.valued and m.samples == 1
        assert m.mean == m.low == m.high == _reference(v, deal, m.move)
    assert out[0].mean == max(m.mean for m in out)


def test_pick_needs_a_margin_over_the_policy_move():
    rng = np.random.default_rng(3)
    base = rng.choice([-2, -1, 1, 2], size=40)
    # candidate 2 is better on every deal by 2: picked; candidate 1 is the
    # same as the policy's move but for two deals, better in three: not
    # picked (within one standard error)
    close = base.copy()
    close[:3] += 1
    close[3:5] -= 1
    values = np.stack([base, close, base + 2])
    assert _pick(values) == 2
    assert _pick(values[:2]) == 0
    # one deal tells nothing apart
    assert _pick(values[:, :1]) == 0


def test_the_first_move_is_the_policy_move_unless_clearly_beaten(views):
    bot = PolicyBot()
    for k, v in enumerate(views[:6]):
        got = evaluate_moves(v, max_seconds=1.0, samples=6, seed=k, max_playouts=6 * 4)
        mine = next(m for m in got if m.move == bot.choose(v))
        if got[0].move != mine.move:
            assert got[0].mean > mine.mean
        rest = [m.mean for m in got[1:] if m.valued]
        assert rest == sorted(rest, reverse=True)


@pytest.mark.slow
def test_search_bot_spec_plays_legal_deterministic_deals():
    bot = make_bot("search:0.1,samples=4,playouts=12")
    assert isinstance(bot, SearchBot) and bot.max_playouts == 12 and bot.threads == 1
    two = make_bot("search:0.1,threads=2")
    assert two.threads == 2 and two.spec == "search:0.1,threads=2"
    assert make_bot(two.spec).threads == 2
    for bad in ("search:0", "search:playouts=0", "search:samples=x", "search:width=3",
                "search:threads=0", "search:threads=x", "search:threads=1.5",
                "search:threads=100000", "rollout"):
        with pytest.raises(BotSpecError):
            make_bot(bad)
    a = match("search:0.1,samples=4,playouts=12", "policy", deals=1, seed=6, jobs=1)
    b = match("search:0.1,samples=4,playouts=12", "policy", deals=1, seed=6, jobs=1)
    assert [p.finished for p in a.plays] == [p.finished for p in b.plays]
    assert all(p.gain_a in VALUES for p in a.plays)


# -- the review's position value (evaluate_position) ------------------------------

def test_the_position_is_the_choice_averaged_over_fresh_deals(views):
    """The position's value is the plain average of the search's choice's
    policy playouts (the reference through GameState) on deals drawn with
    ``fresh_seed``, as many as one more candidate would get; the moves are
    ``evaluate_moves`` with the rest of the budget."""
    checked = 0
    for k, v in enumerate(views[1::3][:6]):
        samples, playouts = 3, 3 * 5
        moves, pos = evaluate_position(v, max_seconds=1.0, samples=samples, seed=k,
                                       max_playouts=playouts)
        m = len(candidates(v))
        n, _ = _plan(m + 1, samples, playouts, False)
        assert moves == evaluate_moves(v, max_seconds=1.0, samples=samples, seed=k,
                                       max_playouts=playouts - n)
        assert pos is not None and pos.move == moves[0].move and pos.samples == n
        deals = sample_deals(v, n, seed=fresh_seed(k))
        ref = [_reference(v, d, pos.move) for d in deals]
        assert pos.mean == pytest.approx(np.mean(ref), abs=1e-12)
        assert pos.team == team(v.seat) and pos.low <= pos.mean <= pos.high
        # fresh: not the deals that chose the move
        first = sample_deals(v, 1, seed=k)[0]
        assert not all(np.array_equal(a, b) for a, b in zip(first, deals[0]))
        checked += 1
    assert checked >= 4


def test_forced_and_perfect_views():
    s = GameState.start(["S3 S4 H9 D7", "S5 S9 SJ C4", "SA SK D3 H5", "S6 S7 C8 DQ"],
                        Rules(level=2), leader=0)
    v = View.from_state(s, reveal=True)
    moves, pos = evaluate_position(v, max_seconds=0.5, max_playouts=40)
    assert pos == moves[0]          # exact results: the best is no noisy maximum


def _noise_rollouts(view, deals, moves, threads=1):
    """Every move worth 0 in truth: on each deal a result +-1 drawn from
    the deal and the move alone (paired, deterministic)."""
    out = np.empty((len(moves), len(deals)), dtype=np.int64)
    for j, d in enumerate(deals):
        key = b"".join(np.asarray(h, dtype=np.uint8).tobytes() for h in d)
        for i, mv in enumerate(moves):
            h = hashlib.blake2b(key + repr(mv).encode(), digest_size=2).digest()
            out[i, j] = 1 if h[0] & 1 else -1
    return list(moves), out


def test_no_winners_curse_when_every_move_is_worth_the_same(views, monkeypatch):
    """Candidates of one true value (0), valued with noise: the best of
    their means is well above 0 (the winner's curse: what the position's
    value was), the choice's mean on the deals that chose it is above 0
    too, the position's value is not."""
    monkeypatch.setattr(search, "rollout_moves", _noise_rollouts)
    many = [v for v in views if len(v.legal_actions()) >= 8][:4]
    assert len(many) >= 3
    pos, top, choice = [], [], []
    for v in many:
        for k in range(60):
            moves, p = evaluate_position(v, max_seconds=1.0, samples=8, seed=k,
                                         max_playouts=200)
            pos.append(p.mean)
            top.append(max(m.mean for m in moves if m.valued))
            choice.append(moves[0].mean)
    n = len(pos)
    se = 1 / np.sqrt(8 * n)                 # +-1 results, 8 fresh deals each
    assert abs(np.mean(pos)) < 4 * se
    assert np.mean(top) > 0.3
    assert np.mean(choice) > np.mean(pos) + 4 * se


# -- compare_moves: the paired re-check of a move against the best ones --------------

def test_compare_one_candidate_is_the_mean_paired_difference(views):
    """One candidate: the loss is the mean over the deals of the
    reference's result after the candidate minus its result after the
    move played (the same deals, drawn with the seed), with a t-interval
    around it."""
    checked = 0
    for k, v in enumerate(views[:5]):
        legal = v.legal_actions()
        a, b = legal[0], legal[-1]
        got = compare_moves(v, [a], b, max_seconds=1.0, seed=k, max_playouts=12)
        deals = sample_deals(v, 6, seed=k)
        diffs = [_reference(v, d, a) - _reference(v, d, b) for d in deals]
        assert got["best"] == a and got["samples"] == 6
        assert got["loss"] == pytest.approx(np.mean(diffs), abs=1e-12)
        assert got["low"] <= got["loss"] <= got["high"]
        if len(set(diffs)) > 1:
            assert got["low"] < got["loss"] < got["high"]
        checked += 1
    assert checked == 5


@pytest.mark.slow
def test_compare_chooses_on_even_deals_and_measures_on_odd_ones(views):
    """Several candidates: the one of the best mean on the even deals is
    chosen; its loss is measured on the odd deals only (not the deals
    that chose it)."""
    checked = 0
    for k, v in enumerate(v for v in views if len(v.legal_actions()) >= 4):
        if checked == 4:
            break
        legal = v.legal_actions()
        cands, played = legal[:3], legal[3]
        got = compare_moves(v, cands, played, max_seconds=1.0, seed=k, max_playouts=32)
        deals = sample_deals(v, 8, seed=k)
        res = {m: [_reference(v, d, m) for d in deals] for m in cands + [played]}
        even = [np.mean(res[m][0::2]) for m in cands]
        best = cands[int(np.argmax(even))]
        assert got["best"] == best and got["samples"] == 4
        odd = np.array(res[best][1::2]) - np.array(res[played][1::2])
        assert got["loss"] == pytest.approx(odd.mean(), abs=1e-12)
        checked += 1
    assert checked == 4


def test_compare_is_deterministic_under_playouts_and_refuses_bad_moves(views):
    v = next(v for v in views if len(v.legal_actions()) >= 3)
    legal = v.legal_actions()
    one = compare_moves(v, legal[:2], legal[2], max_seconds=1.0, seed=9, max_playouts=60)
    assert one == compare_moves(v, legal[:2], legal[2], max_seconds=1.0, seed=9,
                                max_playouts=60)
    with pytest.raises(ViewError, match="no candidate"):
        compare_moves(v, [], legal[0], max_seconds=1.0, max_playouts=10)
    with pytest.raises(ViewError, match="among the candidates"):
        compare_moves(v, legal[:2], legal[1], max_seconds=1.0, max_playouts=10)


@pytest.mark.slow
def test_compare_stops_once_the_edges_are_decided(views):
    """With ``edges``, the comparison looks after each block from
    ``FIRST_LOOK`` deals on: an edge no loss can reach (15 levels) is
    decided at the first look, and the answer is then the answer of a
    budget of exactly those deals; edges every 0.001 level from -6 to 6
    are never all outside a 99.9% interval of a varying loss, so the whole
    budget is used, as without edges."""
    grid = [i / 1000 for i in range(-6000, 6001)]
    checked = 0
    for k, v in enumerate(v for v in views if len(v.legal_actions()) >= 3):
        if checked == 2:
            break
        legal = v.legal_actions()
        for cands in (legal[:1], legal[:2]):
            m = len(cands) + 1
            cap = 100 * m                       # 100 deals: blocks 16, 16, 32, 36
            far = compare_moves(v, cands, legal[2], max_seconds=1.0, seed=k,
                                max_playouts=cap, edges=[15.0])
            first = compare_moves(v, cands, legal[2], max_seconds=1.0, seed=k,
                                  max_playouts=search.FIRST_LOOK * m)
            assert far == first
            assert far["samples"] == search.FIRST_LOOK // (1 if m == 2 else 2)
            full = compare_moves(v, cands, legal[2], max_seconds=1.0, seed=k, max_playouts=cap)
            assert full["samples"] == 100 // (1 if m == 2 else 2)
            near = compare_moves(v, cands, legal[2], max_seconds=1.0, seed=k,
                                 max_playouts=cap, edges=grid)
            if full["high"] > full["low"]:       # a loss that varies from deal to deal
                assert near == full
        checked += 1
    assert checked == 2


@pytest.mark.slow
def test_compare_plays_only_the_chosen_candidate_after_the_choosing_deals(views):
    """Several candidates: every move on the first ``CHOOSE_DEALS`` deals
    (blocks 16, 16, 32, 64, 128, each with its seed), the candidate chosen
    on their even deals; then blocks of the chosen candidate and the move
    played only, every deal measuring. Recomputed here from the rollouts
    of every move on every block's deals."""
    from guandan_fast.bots.policy import rollout_moves
    v = next(v for v in views if len(v.legal_actions()) >= 4 and not v.perfect)
    legal = v.legal_actions()
    cands, played = legal[:3], legal[3]
    seed = 5
    budget = search.CHOOSE_DEALS * 4 + 2 * 60         # then a block of 60 deals
    got = compare_moves(v, cands, played, max_seconds=1.0, seed=seed, max_playouts=budget)
    sizes = [16, 16, 32, 64, 128, 60]
    blocks = [rollout_moves(v, sample_deals(v, size, seed=seed if r == 0 else
                                            (seed * 7919 + r) & 0x7FFFFFFF),
                            cands + [played])[1].astype(float)
              for r, size in enumerate(sizes)]
    first = np.concatenate(blocks[:5], axis=1)
    assert first.shape[1] == search.CHOOSE_DEALS
    k = int(np.argmax(first[:3, 0::2].mean(axis=1)))
    diffs = np.concatenate([first[k, 1::2] - first[3, 1::2]]
                           + [b[k] - b[3] for b in blocks[5:]])
    assert got["best"] == cands[k] and got["samples"] == 128 + 60 == len(diffs)
    assert got["loss"] == pytest.approx(diffs.mean(), abs=1e-12)
    half = (got["high"] - got["low"]) / 2
    from scipy import stats
    t = stats.t.ppf(0.975, len(diffs) - 1)
    assert half == pytest.approx(t * diffs.std(ddof=1) / np.sqrt(len(diffs)), rel=1e-3)


def test_compare_stops_on_the_99_9_interval():
    """``_decided`` against the interval recomputed here with scipy's t."""
    from scipy import stats
    rng = np.random.default_rng(4)
    for _ in range(200):
        diffs = rng.integers(-3, 4, size=int(rng.integers(31, 300))).astype(float)
        edge = float(rng.uniform(-1.5, 1.5))
        lo, hi = stats.t.interval(0.999, len(diffs) - 1, loc=diffs.mean(),
                                  scale=stats.sem(diffs))
        if min(abs(edge - lo), abs(edge - hi)) < 1e-2:
            continue                              # too close to call
        assert search._decided(diffs, [edge]) == (not lo <= edge <= hi)
        assert search._decided(diffs, [edge, 99.0]) == (not lo <= edge <= hi)


def test_compare_on_a_perfect_view_is_the_exact_difference():
    s = GameState.start(["S3 S4 H9 D7", "S5 S9 SJ C4", "SA SK D3 H5", "S6 S7 C8 DQ"],
                        Rules(level=2), leader=0)
    v = View.from_state(s, reveal=True)
    legal = v.legal_actions()
    got = compare_moves(v, legal[:2], legal[2], max_seconds=0.5, max_playouts=30)
    deal = sample_deals(v, 1, seed=0)[0]
    ref = {m: _reference(v, deal, m) for m in legal[:3]}
    best = max(legal[:2], key=lambda m: ref[m])
    assert got["best"] == best
    assert got["loss"] == got["low"] == got["high"] == ref[best] - ref[legal[2]]
    # the better candidate is chosen whichever place it is given
    worse = [m for m in legal[:2] if m != best]
    again = compare_moves(v, worse + [best], legal[2], max_seconds=0.5, max_playouts=30)
    assert again["best"] == best and again["loss"] == got["loss"]


@pytest.mark.parametrize("arg", [None, "S3", 0])
def test_evaluate_moves_and_suggest_need_a_view(arg):
    for f in (evaluate_moves, suggest):
        with pytest.raises(ViewError, match="needs a View"):
            f(arg, max_seconds=0.05)


def test_an_ended_deal_has_no_view_to_value():
    # seats 0 and 2 are out: the deal is over (RULES 6), nothing is left to value
    st = GameState([[], "S3 S4", [], "S5 S6 S7"], Rules(level=2), turn=1, finished=[0, 2])
    assert st.over and st.legal_actions() == []
    with pytest.raises(ViewError, match="the deal is over: seats 0 and 2 are out"):
        View.from_state(st, unseen="S5 S6 S7")


def test_include_must_be_a_legal_move():
    view = View(0, "S3 S4", Rules(level=2), [2, 2, 2, 2])     # a free lead: no pass
    with pytest.raises(ViewError, match="include: None is not a legal move of seat 0"):
        evaluate_moves(view, max_seconds=0.05, include=None)
    with pytest.raises(ViewError, match="is not a legal move of seat 0"):
        evaluate_moves(view, max_seconds=0.05, include=classify("S9", Rules(level=2))[0])
    got = evaluate_moves(view, max_seconds=0.05, max_playouts=4,
                         include=classify("S4", Rules(level=2))[0])
    assert any(m.valued and str(m.move) == "S4" for m in got)


def test_a_playout_budget_past_the_deal_cap_is_capped_not_refused():
    # every candidate fits: the rest of the budget is more deals, at most
    # MAX_SAMPLE_DEALS of them (sample_deals refuses more in one call)
    from guandan_fast.game.view import MAX_SAMPLE_DEALS
    n, width = _plan(2, 8, 3 * MAX_SAMPLE_DEALS, False)
    assert width == 2 and n == MAX_SAMPLE_DEALS
    assert _plan(2, 8, 1000, False) == (500, 2)


def test_the_first_call_is_made_whatever_the_clock_and_its_deals_fit_the_budget(views,
                                                                                monkeypatch):
    # the policy's move and the next candidate are valued however short the
    # budget (docs/bots.md, "The hint call"); the deals drawn for that first
    # call are at most one per _MIN_CALL of the budget (20,000 asked for at
    # 0.01 s took 0.7 s to draw before)
    drawn = []
    real = search.sample_deals

    def counting(view, n, seed=0, unseen=None):
        drawn.append(n)
        return real(view, n, seed=seed, unseen=unseen)
    monkeypatch.setattr(search, "sample_deals", counting)
    checked = 0
    for v in views[:8]:
        c = candidates(v)
        if len(c) < 2 or v.perfect:
            continue
        for secs, samples in ((1e-9, 8), (1e-3, 8), (0.01, 20000)):
            drawn.clear()
            got = evaluate_moves(v, max_seconds=secs, samples=samples, seed=3)
            valued = [m.move for m in got if m.valued]
            assert got[0].valued and c[0] in valued and c[1] in valued
            assert drawn[0] <= max(1, int(secs / search._MIN_CALL))
        checked += 1
    assert checked >= 3


def test_suggest_under_a_playout_budget_is_reproducible(views):
    for v in views[:4]:
        a = suggest(v, max_seconds=1e-3, seed=5, max_playouts=120)
        b = suggest(v, max_seconds=5.0, seed=5, max_playouts=120)
        assert a == b and a == evaluate_moves(v, max_seconds=1.0, seed=5, max_playouts=120)
