"""The distilled policy (bots/distilled.py): the compiled forest against a
plain tree walk, the model loader's checks, legal and blind choices."""

import io
import random

import numpy as np
import pytest

from conftest import by_run
from guandan_fast.bots import make_bot
from guandan_fast.bots.distilled import (CANDIDATES, FEATURES, DistilledBot, bombs_held,
                                         features, load_model, predict)
from guandan_fast.bots.match import match
from guandan_fast.bots.search import candidates
from guandan_fast.errors import ModelError
from guandan_fast.game.state import partner
from guandan_fast.game.view import View, sample_deals
from guandan_fast.model.cards import CARDS
from test_policy import seeded_views


# -- the forest: a reference walk over nested dicts ---------------------------

def random_tree(rng, nfeat, depth=0):
    """A random tree as nested dicts (leaf: {"value"}; inner: feature,
    threshold, left, right)."""
    if depth >= 6 or rng.random() < 0.25:
        return {"value": rng.uniform(-1, 1)}
    return {"feature": rng.randrange(nfeat), "threshold": rng.choice([-1.0, 0.0, 0.5, 3.0, 7.5]),
            "left": random_tree(rng, nfeat, depth + 1), "right": random_tree(rng, nfeat, depth + 1)}


def walk(tree, x):
    while "value" not in tree:
        tree = tree["left"] if x[tree["feature"]] <= tree["threshold"] else tree["right"]
    return tree["value"]


def flatten(trees, base):
    """The trees as load_model's arrays, nodes numbered depth first."""
    a = {k: [] for k in ("feature", "threshold", "left", "right", "value")}
    roots = []

    def add(t):
        i = len(a["feature"])
        for k in a:
            a[k].append(0)
        if "value" in t:
            a["left"][i] = a["right"][i] = -1
            a["value"][i] = t["value"]
        else:
            a["feature"][i], a["threshold"][i] = t["feature"], t["threshold"]
            a["left"][i] = add(t["left"])
            a["right"][i] = add(t["right"])
        return i

    for t in trees:
        roots.append(add(t))
    return {"feature": np.array(a["feature"], np.int32), "threshold": np.array(a["threshold"], float),
            "left": np.array(a["left"], np.int32), "right": np.array(a["right"], np.int32),
            "value": np.array(a["value"], float), "roots": np.array(roots, np.int32),
            "base": np.array([base])}


def saved(arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    buf.seek(0)
    return buf


def test_forest_matches_the_reference_walk():
    rng = random.Random(3)
    nfeat = len(FEATURES)
    for case in range(by_run(60, 600)):
        trees = [random_tree(rng, nfeat) for _ in range(rng.randint(1, 12))]
        base = rng.uniform(-0.5, 0.5)
        model = load_model(saved(flatten(trees, base)))
        X = np.array([[rng.choice([-1, 0, 0.5, 1, 3, 7.5, 8, 27]) for _ in range(nfeat)]
                      for _ in range(rng.randint(1, 9))], dtype=float)
        want = [base + sum(walk(t, x) for t in trees) for x in X]
        assert np.allclose(predict(model, X), want, rtol=0, atol=1e-12), case


def test_no_rows_give_no_predictions():
    model = load_model(saved(flatten([{"value": 1.0}], 0.0)))
    assert predict(model, np.zeros((0, len(FEATURES)))).shape == (0,)


@pytest.mark.parametrize("shape", [(3, len(FEATURES) - 1), (len(FEATURES),), (2, 2, 2)])
def test_predict_rejects_rows_of_the_wrong_width(shape):
    model = load_model(saved(flatten([{"value": 1.0}], 0.0)))
    with pytest.raises(ModelError, match="must have 29 features"):
        predict(model, np.zeros(shape))


# -- the loader's checks --------------------------------------------------------

def good_arrays():
    return flatten([{"feature": 2, "threshold": 0.5, "left": {"value": 1.0},
                     "right": {"value": -1.0}}], 0.25)


@pytest.mark.parametrize("change, named", [
    (lambda a: a.pop("left"), "'left' is missing"),
    (lambda a: a.update(value=a["value"][:-1]), "'value' must have one entry a node"),
    (lambda a: a.update(left=a["left"].reshape(1, -1)), "'left' must be 1-D"),
    (lambda a: a.update(feature=a["feature"].astype(float)), "'feature' must be 1-D int32"),
    (lambda a: a.update(left=np.array([0, -1, -1], np.int32)), "'left' must name a later node"),
    (lambda a: a.update(right=np.array([7, -1, -1], np.int32)), "'right' must name a later node"),
    (lambda a: a.update(feature=np.array([len(FEATURES), 0, 0], np.int32)),
     "'feature' must name a feature"),
    (lambda a: a.update(roots=np.array([3], np.int32)), "'roots' must name nodes"),
    (lambda a: a.update(roots=np.array([], np.int32)), "'roots' must name nodes"),
    (lambda a: a.update(base=np.array([0.0, 1.0])), "'base' must hold one number"),
    (lambda a: a.update(threshold=np.array([np.nan, 0, 0])), "'threshold' holds a number"),
])
def test_load_model_rejects_a_bad_array(change, named):
    a = good_arrays()
    load_model(saved(a))                      # the unchanged arrays load
    change(a)
    with pytest.raises(ModelError, match=named):
        load_model(saved(a))


def test_load_model_rejects_a_file_that_is_not_npz(tmp_path):
    p = tmp_path / "model.npz"
    p.write_bytes(b"not a zip")
    with pytest.raises(ModelError, match="model.npz: not a readable .npz"):
        load_model(p)
    with pytest.raises(ModelError, match="not a readable"):
        load_model(tmp_path / "missing.npz")


# -- the features and the bot ---------------------------------------------------------

def reference_bombs(counts, level):
    """Bombs without wilds, from the cards themselves."""
    ranks = {}
    for card in CARDS:
        for _ in range(int(counts[card.id])):
            if card.is_joker:
                ranks["jokers"] = ranks.get("jokers", 0) + 1
            elif not (card.suit == "H" and card.rank_index == level):
                ranks[card.rank_index] = ranks.get(card.rank_index, 0) + 1
    return sum(1 for r, n in ranks.items() if n >= 4)


def test_bombs_held_matches_counting_the_cards():
    rng = random.Random(8)
    deck = [c for c in range(54) for _ in range(2)]
    for _ in range(by_run(300, 3000)):
        rng.shuffle(deck)
        n = rng.randint(0, 28)
        counts = np.bincount(deck[:n], minlength=54).astype(np.uint8)
        level = rng.randrange(13)
        assert bombs_held(counts, level) == reference_bombs(counts, level)


@pytest.fixture(scope="module")
def views():
    return seeded_views(8, seed=21)


def test_features_describe_each_candidate_against_the_policy(views):
    for state, view in views[::5]:
        moves = candidates(view)[:CANDIDATES]
        if len(moves) < 2:
            continue
        X = features(view, moves)
        assert X.shape == (len(moves) - 1, len(FEATURES))
        col = {f: i for i, f in enumerate(FEATURES)}
        assert (X[:, col["index"]] == np.arange(1, len(moves))).all()
        for row, m in zip(X, moves[1:]):
            assert row[col["move_size"]] == (0 if m is None else m.size)
            assert row[col["move_goes_out"]] == (m is not None and m.size == view.counts[view.seat])
            assert row[col["own"]] == view.counts[view.seat]


def test_every_choice_is_legal_and_the_same_again(views):
    bot = DistilledBot()
    deviations = 0
    policy = make_bot("policy")
    for state, view in views:
        action = bot.choose(view)
        assert state.why_illegal(action) is None, (view, action)
        assert bot.choose(view) == action
        deviations += action != policy.choose(view)
    # the correction does change some choices, not most
    assert 0 < deviations < len(views) // 2


def redealt_views(view, n):
    """The same seat's view built from states whose hidden hands are
    redealt (sample_deals): all it may know is the same."""
    return [(View.from_state(view.state(d), view.seat, history=view.history), d)
            for d in sample_deals(view, n, seed=len(view.history))]


def test_blind_redealing_the_unseen_cards_changes_nothing(views):
    bot = DistilledBot()
    for state, view in views[::9]:
        if not view.counts[partner(view.seat)]:
            continue
        picks = {bot.choose(v) for v, _ in redealt_views(view, 4)}
        assert picks == {bot.choose(view)}


def test_blindness_test_fails_on_a_variant_that_reads_a_hidden_hand(views):
    # the variant plays the first candidate when the partner holds a joker
    bot = DistilledBot()
    varied = 0
    for state, view in views[::9]:
        if not view.counts[partner(view.seat)]:
            continue
        picks = set()
        for v, deal in redealt_views(view, 4):
            peek = deal[partner(view.seat)][52:].sum() > 0
            picks.add(candidates(v)[1] if peek and len(candidates(v)) > 1 else bot.choose(v))
        varied += len(picks) > 1
    assert varied > 0


def test_spec_and_match():
    bot = make_bot("distilled")
    assert isinstance(bot, DistilledBot) and repr(bot) == "DistilledBot()"
    a = match("distilled", "policy", deals=2, seed=4)
    b = match("distilled", "policy", deals=2, seed=4)
    keys = ("deals_played", "mean_gain", "win_rate", "decisions")
    assert [a.to_dict()[k] for k in keys] == [b.to_dict()[k] for k in keys]
    assert a.to_dict()["deals_played"] == 4
