"""Bots: legal decisions over many seeded deals (tribute and return
included), bot specs, SearchBot and suggest (with the estimator)."""


import numpy as np
import pytest

from conftest import by_run
from guandan_fast import (BotSpecError, GreedyBot, RandomBot, Rules, View, hints, make_bot,
                          read_play, sample_deals)
from guandan_fast.bots import Bot, SearchBot, suggest
from guandan_fast.engine.value import MoveValue
from guandan_fast.bots.match import deal_for, match
from guandan_fast.formats.record import loads
from guandan_fast.game.record import replay
from guandan_fast.game.state import GameState, partner, team
from guandan_fast.game.tribute import check_return_card, check_tribute_card



LOG: list = []     # module level: the match copies its bots


class CheckingBot(Bot):
    """Wraps a bot and checks every decision against the GameState rules,
    rebuilt from the view alone, and the tribute rules."""

    def __init__(self, inner):
        self.inner, self.log = inner, LOG
        self.spec = inner.spec

    def reset(self, seed):
        self.inner.reset(seed)

    def __deepcopy__(self, memo):
        import copy
        return CheckingBot(copy.deepcopy(self.inner, memo))

    def choose(self, view):
        action = self.inner.choose(view)
        # the seat's own cards and the table are all the rules need
        hands = [view.hand_counts if s == view.seat else np.zeros(54, np.uint8)
                 for s in range(4)]
        state = GameState(hands, view.rules, turn=view.seat, table=view.table,
                          owner=view.owner, passes=view.passes)
        assert state.why_illegal(action) is None, (action, view)
        assert action in view.legal_actions()
        self.log.append(("play", action))
        return action

    def tribute(self, view, candidates):
        card = self.inner.tribute(view, candidates)
        assert check_tribute_card(view.hand, card, view.rules) is None
        self.log.append(("tribute", card))
        return card

    def give_back(self, view, candidates):
        card = self.inner.give_back(view, candidates)
        assert check_return_card(view.hand, card, view.rules) is None
        self.log.append(("return", card))
        return card


@pytest.mark.parametrize("inner", [pytest.param(RandomBot(seed=3), marks=pytest.mark.slow),
                                   GreedyBot()], ids=["random", "greedy"])
def test_bots_never_move_illegally_in_whole_games(inner):
    LOG.clear()
    bot = CheckingBot(inner)
    result = match(bot, CheckingBot(RandomBot(seed=8)), deals=1, seed=41, games=True, jobs=1)
    assert len(result.plays) > 4
    kinds = {k for k, _ in LOG}
    assert kinds == {"play", "tribute", "return"}
    # every record replays under the record's own checks (tribute, return, plays)
    for p in result.plays:
        rec = loads(p.record)
        assert rec.result() == (-p.gain_a if p.swapped else p.gain_a)
        assert sum(1 for _ in replay(rec)) == len(rec.moves)


def test_many_seeded_single_deals_are_legal():
    deals = by_run(4, 12)
    result = match("random:1", "greedy", deals=deals, seed=7, jobs=1)
    assert len(result.plays) == 2 * deals
    for p in result.plays:
        assert loads(p.record).result() is not None


def test_greedy_plays_the_first_hint_and_leaves_the_partner_alone():
    rules = Rules(level=2)
    v = View(0, "S3 S4 S5 S6 S7 D9 D9", rules, [7, 27, 27, 27])
    assert GreedyBot().choose(v) == hints("S3 S4 S5 S6 S7 D9 D9", rules)[0]
    table = read_play("C8", rules)
    mine = View(0, "S9 ST", rules, [2, 5, 5, 5], table=table, owner=partner(0), passes=1,
                turn=0)
    assert GreedyBot().choose(mine) is None
    theirs = View(0, "S9 ST", rules, [2, 5, 5, 5], table=table, owner=1, passes=2)
    assert GreedyBot().choose(theirs) == read_play("S9", rules)
    out = View(0, "S9", rules, [1, 5, 5, 5], table=table, owner=2, passes=1)
    assert GreedyBot().choose(out) == read_play("S9", rules)   # plays out


def test_random_bot_is_seeded_per_deal():
    hands, level, leader = deal_for(1, 0)
    v = View.from_state(GameState.start(hands, Rules(level=level), leader))
    a, b = RandomBot(seed=5), RandomBot(seed=5)
    a.reset(10)
    b.reset(10)
    assert [a.choose(v) for _ in range(5)] == [b.choose(v) for _ in range(5)]


@pytest.mark.parametrize("spec,expected", [
    ("random", "RandomBot(seed=0)"), ("random:7", "RandomBot(seed=7)"),
    ("random:seed=9", "RandomBot(seed=9)"), ("greedy", "GreedyBot()"), ("Greedy", "GreedyBot()"),
    ("search", "SearchBot(max_seconds=0.2, samples=8, seed=0)"),
    ("search:0.05", "SearchBot(max_seconds=0.05, samples=8, seed=0)"),
    ("search:0.1,samples=4,playouts=50,seed=2",
     "SearchBot(max_seconds=0.1, samples=4, seed=2, max_playouts=50)"),
    ("search:0.1,threads=2", "SearchBot(max_seconds=0.1, samples=8, seed=0, threads=2)"),
])
def test_make_bot(spec, expected):
    assert repr(make_bot(spec)) == expected


@pytest.mark.parametrize("spec,needle", [
    ("minimax", "unknown bot 'minimax'"), ("", "unknown bot ''"),
    ("random:x", "the seed must be a number"), ("random:1:2", "the seed must be a number"),
    ("random:1,2", "too many arguments"), ("greedy:3", "too many arguments"),
    ("search:-1", "must be > 0"), ("search:0", "must be > 0"), ("search:nan", "must be > 0"),
    ("search:inf", "must be > 0"), ("search:0.2,samples=-1", "samples must be >= 1"),
    ("random:99999999999999999999999", "the seed must be at most"), ("random:-1", "must be >= 0"),
    ("random:1_0", "the seed must be a number"), (" Greedy ", "spaces around it"),
    ("search:0.2 ", "spaces around it"), (" search", "spaces around it"), ("search:0.2,samples=0", "samples must be >= 1"),
    ("search:0.2,threads=0", "threads must be >= 1"), ("search:threads=999", "threads must be 1..256"),
    ("search:0.2,depth=3", "unknown option 'depth'"), ("search:0.2,,", "an empty argument"),
    ("search:", "nothing after ':'"), ("search: ", "spaces around it"), ("search:samples=2,samples=3", "samples given twice"),
    (7, "a bot spec is a string"),
])
def test_make_bot_rejections(spec, needle):
    with pytest.raises(BotSpecError, match=needle) as e:
        make_bot(spec)
    assert isinstance(e.value, ValueError)
    if isinstance(spec, str) and spec:
        assert repr(spec) in str(e.value)


# -- with the estimator ---------------------------------------------------------------

def _views(n, seed=2):
    """Seeded views of the seat to act, early and late in greedy deals."""
    out = []
    for unit in range(n):
        hands, level, leader = deal_for(seed, unit)
        s = GameState.start(hands, Rules(level=level), leader)
        history = []
        k = 0
        while not s.over:
            if k in (0, 7, 40):
                out.append(View.from_state(s, history=history))
            v = View.from_state(s, history=history)
            a = GreedyBot().choose(v)
            history.append((s.turn, a))
            s = s.apply(a)
            k += 1
    return out


def _tribute_views(seed=3, at=(0, 9, 30)):
    """Views with a tribute exchange (known and forbidden cards): the deals
    after the first of a seeded greedy game, at a few decisions."""
    out = []
    result = match("greedy", "greedy", deals=1, seed=seed, games=True, duplicate=False, jobs=1)
    for p in result.plays:
        rec = loads(p.record)
        if not rec.tributes:
            continue
        for i in at:
            if i < len(rec.moves):
                out.append(View.from_record(rec, i))
    return out


def _check_suggestions(v, out):
    """Every legal move exactly once (the pass when following), as
    MoveValues for the mover's team; the search's choice first, then the
    other valued moves best first, then the unvalued in the hint order."""
    legal = v.legal_actions()
    plays = [s.move for s in out]
    assert len(out) == len(legal)
    assert len(set(plays)) == len(plays)                 # no move twice
    assert set(plays) == set(legal)                      # every legal move
    assert (None in plays) == (v.table is not None)      # the pass when following
    seen_none = False
    for s in out:
        assert isinstance(s, MoveValue) and s.team == team(v.seat)
        if not s.valued:
            seen_none = True
            assert (s.samples, s.low, s.high) == (0, -3, 3)
        else:
            assert not seen_none                         # valued moves first
            assert s.samples > 0
            assert -3 <= s.low <= s.mean <= s.high <= 3
    values = [s.mean for s in out if s.valued]
    assert values[1:] == sorted(values[1:], reverse=True)
    unvalued = [s.move for s in out if not s.valued]
    order = {p: i for i, p in enumerate(hints(v.hand_counts, v.rules, v.table))}
    ranks = [order.get(p, len(order)) for p in unvalued]
    assert ranks == sorted(ranks)


@pytest.mark.slow
def test_suggest_lists_every_legal_move_exactly_once():
    # openings (27-card hands), mid-deal and late views of seeded deals, views
    # with a tribute exchange, and perfect-information views; a budget below
    # the estimator's setup on a full deal (the hint order) and one above
    plain = _views(4, seed=7)
    tribute = _tribute_views()
    assert len(tribute) >= 3
    revealed = [View.from_state(v.state(sample_deals(v, 1, seed=4)[0]), reveal=True)
                for v in plain[1::3]]
    views = [v for v in plain + tribute + revealed if len(v.legal_actions()) > 1]
    assert sum(v.hand.__len__() == 27 for v in views) >= 3
    for i, v in enumerate(views):
        for budget in (0.01, 0.05):
            _check_suggestions(v, suggest(v, max_seconds=budget, seed=i))


def test_evaluate_moves_with_a_playout_budget_uses_the_planned_deals_only():
    # no deal is added for time left with a playout budget (the result must
    # not depend on the machine's speed); a small endgame
    from guandan_fast.bots.search import evaluate_moves
    s = GameState.start(["S3 S4 H9", "S5 S9 SJ", "SA SK D3", "S6 S7 C8"], Rules(level=2),
                        leader=0)
    v = View.from_state(s)
    a = evaluate_moves(v, max_seconds=0.2, samples=3, seed=1, max_playouts=50)
    b = evaluate_moves(v, max_seconds=0.2, samples=3, seed=1, max_playouts=50)
    # every move fits on the first 3 deals: the rest of the 50 rollouts as
    # more deals, the same for every move
    assert {m.samples for m in a} == {50 // len(v.legal_actions())}
    assert a == b


@pytest.mark.slow
def test_search_bot_plays_legal_deals():
    bot = SearchBot(max_seconds=0.01, samples=2, max_playouts=20)
    result = match(bot, "greedy", deals=1, seed=9, jobs=1)
    for p in result.plays:
        assert loads(p.record).result() is not None


def test_docs_examples():
    import doctest
    from pathlib import Path
    doc = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
    result = doctest.testfile(str(doc), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_a_playout_budget_does_not_read_the_clock():
    # with max_playouts the clock is not read: a budget far too small for
    # the rollouts still values every move on every planned deal, the same
    # values as with a large budget
    from guandan_fast.bots.search import evaluate_moves
    s = GameState.start(["S3 S4 H9 D7", "S5 S9 SJ C4", "SA SK D3 H5", "S6 S7 C8 DQ"],
                        Rules(level=2), leader=0)
    v = View.from_state(s)
    tiny = evaluate_moves(v, max_seconds=1e-6, samples=3, seed=2, max_playouts=40)
    large = evaluate_moves(v, max_seconds=50.0, samples=3, seed=2, max_playouts=40)
    assert all(m.valued and m.samples == tiny[0].samples >= 3 for m in tiny)
    assert tiny == large


def test_search_arguments_are_checked_at_the_boundary():
    from guandan_fast.errors import LimitError
    v = View(0, "S3 S4 S5", Rules(level=2), [3, 3, 3, 3], unseen="S6 S7 S8 S9 ST SJ SQ SK SA")
    for kw, needle in [({"samples": 10 ** 6}, "samples must be 1..100000"),
                       ({"samples": 0}, "samples must be 1"), ({"samples": 1.5}, "samples"),
                       ({"seed": 1.5}, "seed"), ({"seed": None}, "seed"), ({"seed": -1}, "seed"),
                       ({"max_seconds": 10 ** 400}, "max_seconds"),
                       ({"max_seconds": 1e300}, "max_seconds"),
                       ({"max_seconds": float("nan")}, "max_seconds")]:
        with pytest.raises(LimitError, match=needle):
            suggest(v, **kw)
    assert len(suggest(v, max_seconds=0.05, seed=np.int64(3), samples=np.int64(2))) > 1
    for kw in ({"max_seconds": -1}, {"max_seconds": 0}, {"max_seconds": None},
               {"max_playouts": 0}, {"samples": 10 ** 9}):
        with pytest.raises(LimitError):
            SearchBot(**kw)
    for spec in ("search:1e300", "search:0.1,playouts=99999999999999999999",
                 "search:0.1,samples=99999999999"):
        with pytest.raises(BotSpecError, match="in spec"):
            make_bot(spec)


def test_match_settings_fail_before_any_deal(tmp_path):
    from guandan_fast.errors import MatchError
    afile = tmp_path / "afile"
    afile.write_text("")
    for kw, needle in [({"records_dir": str(afile / "sub")}, "cannot be written"),
                       ({"records_dir": 5}, "records_dir must be the path"),
                       ({"records_dir": ""}, "records_dir must be the path"),
                       ({"records_dir": "a\0b"}, "cannot be written"),
                       ({"progress": 5}, "progress must be a callable"),
                       ({"duplicate": "no"}, "duplicate must be True or False"),
                       ({"games": None}, "games must be True or False"),
                       ({"deals": 10 ** 9}, "deals must be a number 1..1000000"),
                       ({"dask": "tcp://[::1"}, "not an address"),
                       ({"dask": "tcp://localhost:abc"}, "not an address"),
                       ({"dask": "tcp://127.0.0.1:99999"}, "not an address"),
                       ({"dask": "tcp://127.0.0.1"}, "not an address"),
                       ({"dask": "inproc://x"}, "scheduler address such as"),
                       ({"dask": "tcp:// "}, "not an address")]:
        with pytest.raises(MatchError, match=needle):
            match("greedy", "random", **dict(dict(deals=1, jobs=1), **kw))
    assert match("greedy", "random", deals=1, jobs=np.int64(1)).units == 1


@pytest.mark.slow
def test_match_intervals_stay_honest_at_the_extremes():
    # one unit: the whole range of a deal's gain, never infinite; a rate won
    # in every unit keeps a Wilson interval, not a point
    one = match("greedy", "random", deals=1, seed=3, jobs=1)
    assert (one.low, one.high) == (-3.0, 3.0)
    import json
    json.loads(json.dumps(one.to_dict(), allow_nan=False))
    many = match("greedy", "random", deals=20, seed=3, jobs=1)
    if many.win_rate == 1.0:
        assert many.win_high == 1.0 and 0.8 < many.win_low < 0.9
    assert 0.0 <= many.win_low <= many.win_rate <= many.win_high <= 1.0


def test_one_bot_object_for_both_teams_is_four_bots():
    b = RandomBot(5)
    deals = by_run(2, 6)
    assert match(b, b, deals=deals, seed=1, jobs=1).mean == \
        match(RandomBot(5), RandomBot(5), deals=deals, seed=1, jobs=1).mean == \
        match("random:5", "random:5", deals=deals, seed=1, jobs=1).mean


# ---------------------------------------------------------------------------
# The bot registry: one table behind make_bot, the CLI help and docs/bots.md
# ---------------------------------------------------------------------------

def _docs_bot_rows():
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text("utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = cells
    return rows


def test_the_docs_table_lists_every_registered_bot_with_its_grammar_and_examples():
    from guandan_fast.bots.registry import bot_kinds
    rows = _docs_bot_rows()
    kinds = bot_kinds()
    assert [k.grammar for k in kinds] == list(rows), "docs/bots.md's table vs the registry"
    for k in kinds:
        listed = [e.strip().strip("`") for e in rows[k.grammar][1].split(",") if e.strip()]
        # the examples column splits at commas inside a spec too: rejoin them
        assert ",".join(listed) == ",".join(k.examples), k.name
        for spec in k.examples:
            assert make_bot(spec).spec.split(":")[0] == k.name, spec


def test_the_cli_help_and_the_error_name_every_registered_bot():
    from clirun import run
    from guandan_fast.bots.registry import bot_names, specs_help
    names = bot_names()
    with pytest.raises(BotSpecError) as e:
        make_bot("nosuchbot")
    assert all(n in str(e.value) for n in names)
    for args in (["match", "--help"], ["bot", "--help"]):
        out = " ".join(run(*args).stdout.split())
        assert " ".join(specs_help().split()).replace(" ", "") in out.replace(" ", ""), args


def test_registering_a_bot_is_one_call():
    from guandan_fast.bots import registry

    class Echo(Bot):
        def __init__(self, n):
            self.n, self.spec = n, f"echo:{n}"

    kind = registry.register("echo", lambda args, spec: Echo(int(args.get("n", "1"))),
                             params=("n",), positional=1, grammar="echo[:N]",
                             examples=("echo:2",), help="test bot")
    try:
        assert make_bot("echo:3").n == 3 and make_bot("echo:n=4").n == 4
        assert "echo" in registry.bot_names() and "echo[:N]" in registry.specs_help()
        with pytest.raises(BotSpecError, match="unknown option 'm'"):
            make_bot("echo:m=1")
        with pytest.raises(ValueError, match="new lower-case"):
            registry.register("echo", kind.factory, grammar="echo", help="again")
    finally:
        registry._KINDS.pop("echo")
    assert "echo" not in registry.bot_names()


@pytest.mark.parametrize("spec,needle", [
    ("random:1,seed=2", "seed given twice"), ("search:0.1,seconds=0.2", "seconds given twice"),
])
def test_a_parameter_given_by_position_and_by_name_is_an_error(spec, needle):
    with pytest.raises(BotSpecError, match=needle):
        make_bot(spec)


def test_bots_refuse_what_is_no_view_and_no_legal_card():
    # the public boundary of every bot: a View, and candidates that are cards of the hand
    from guandan_fast import Card, Rules, View, make_bot
    from guandan_fast.errors import ViewError
    pay = View(0, "S3 S4", Rules(level=2), [2, 2, 2, 2], phase="tribute")
    for spec in ("random:1", "greedy", "policy", "search:0.01", "distilled"):
        bot = make_bot(spec)
        for bad in ("x", None, 5):
            with pytest.raises(ViewError, match="a View"):
                bot.choose(bad)
        if spec == "distilled":
            continue
        for cands, needle in (([], "no legal card"), (None, "a sequence of Card"),
                              ([Card("SA")], "not a card of the hand")):
            with pytest.raises(ViewError, match=needle):
                bot.tribute(pay, cands)
            with pytest.raises(ViewError, match=needle):
                bot.give_back(pay, cands)
        assert bot.tribute(pay, [Card("S4")]) == Card("S4")


def test_seeds_are_checked_where_they_enter():
    from guandan_fast import RandomBot, Rules, SearchBot, View, sample_deals
    from guandan_fast.errors import BotSpecError, ViewError
    v = View(0, "S3 S4", Rules(level=2), [2, 2, 2, 2])
    for bad in (-1, None, 1.5, "abc", True):
        with pytest.raises(ViewError, match="seed"):
            sample_deals(v, 1, seed=bad)
        with pytest.raises(BotSpecError, match="seed"):
            RandomBot(seed=bad)
        with pytest.raises(ViewError, match="seed"):
            SearchBot().reset(bad)
    a, b = sample_deals(v, 3, seed=7), sample_deals(v, 3, seed=7)
    assert all((x == y).all() for da, db in zip(a, b) for x, y in zip(da, db))
