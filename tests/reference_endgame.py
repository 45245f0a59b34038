"""Pure-Python reference double-dummy solver for Guandan endgames.

Written only from docs/rules.md (section 6 "Play of a deal" and
section 8 "Double-dummy value"), on top of the combination rules of the
sibling module `reference` (tests/reference.py).  It is a test oracle for the
compiled engine, so it is plain exhaustive minimax with a memo: no pruning,
no heuristics, nothing that could change a value.

Public functions
----------------
solve(hands, level, turn=0, table=None, owner=None, passes=0, finished=(),
      joker_pair_in_full_house=False, flush_is_always_bomb=False)
    -> (value, moves)
solve_value(same arguments) -> value (solve's, without the move values)
random_position(rng, cards_per_hand, level) -> dict of solve() keyword args

Position
--------
* hands: 4 lists of canonical tokens; seat s+1 (mod 4) acts after seat s;
  partners are 0 & 2 and 1 & 3; team 0 = seats 0 and 2.
* turn: the seat to act; it must hold cards.
* table: None for a free lead, else the standing play (type, rank, size) --
  the form reference.beats takes -- owned by seat `owner`.
* passes: consecutive passes since `table` was played.  In any reachable
  position this is exactly the number of seats strictly between `owner` and
  `turn` (going owner+1, owner+2, ... mod 4) that still hold cards: every one
  of them has had its turn since the play and passed (had it played, it would
  be the owner), and a seat that is out now was already out at the time of
  the play (it could only have gone out by playing).  solve() checks this.
* finished: the seats already out, in finishing order (their hands empty).
  If the owner of the standing play is out, it went out with that play, so
  it is the last seat of `finished` (checked).

Rules played (RULES 6)
----------------------
* Free lead: the player must play some play (no pass).  Following: play a
  play that beats the table (reference.beats(new, table, level), new =
  (type, rank, number of cards)) or pass.  A pass does not stop the player
  from playing later in the same round.
* A move is a pattern (reference.plays / RULES 8).  A pattern may be realised
  by several distinct sub-multisets of the hand (which suits of the non-wild
  cards are given; for a straight flush the suit is part of the pattern).
  The player picks the cards, so a pattern's value is the best one, for the
  mover's team, over every distinct sub-multiset of the hand that has this
  pattern among its readings (reference.classify + reference.pattern).
* After a play by p: p owns the table, passes = 0; if p's hand is empty, p
  is appended to `finished`; if both players of a team are out, the deal
  ends.
* Turn order: the next seat after the actor (s+1, s+2, ... mod 4) that still
  holds cards.
* After a pass: if the consecutive passes now equal the number of players
  holding cards other than the owner (all holders when the owner is out),
  the round ends, the table is cleared and the owner leads; if the owner is
  out, the owner's partner leads (接风).
* End of the deal: as soon as both players of one team are out.  The team of
  the first finisher wins: 3 if its partner finished second, 2 if third, 1 if
  the partner is last (both opponents out before it).  Positive for team 0,
  negative for team 1.

Values: team 0 (seats 0, 2) maximises, team 1 (seats 1, 3) minimises.

Search
------
The value of a state is defined by plain minimax over every legal move and
every card choice (_PlainMinimax with cutoff=False, METHOD = "plain").  Two
exact speedups are used by default, and the tests check on random positions
that they give the same value and the same move dict as plain minimax:
* METHOD = "threshold": the value is found by yes/no searches "can team 0
  get at least x?" (an any()/all() tree with a memo per (state, x)), bisected
  over the six possible values -3..-1, 1..3.  The root's moves are each
  valued in full this way.
* CANONICAL_SUITS: when every hand has fewer than 5 cards no straight flush
  can ever be formed, and then suits of non-wild cards change no reading, no
  pattern and no comparison; the hands are re-suited canonically so that
  equivalent states share memo entries.
No pruning that depends on move ordering or on heuristics is used.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import product

import reference

__all__ = ["solve", "solve_value", "random_position", "deal_result", "hand_moves", "best_possible",
           "canonical_suits"]

SEATS = (0, 1, 2, 3)

# Exact speedup switches; the tests compare them against plain minimax.
CANONICAL_SUITS = True   # forget suits when no straight flush is possible
# "plain": minimax over everything; "cutoff": minimax that stops a node at
# best_possible(); "threshold": yes/no searches "value >= x?" (fastest).
METHOD = "threshold"

last_nodes = 0           # memo size of the last solve() (for benchmarks)


def partner(seat):
    return (seat + 2) % 4


def team_over(finished):
    """True when both players of one team are out."""
    return any(s in finished and partner(s) in finished for s in (0, 1))


def deal_result(finished):
    """Level gain of team 0 for a finished deal, from the finishing order."""
    first = finished[0]
    sign = 1 if first % 2 == 0 else -1
    mate = partner(first)
    if mate in finished:
        place = finished.index(mate)        # 1 = second, 2 = third
        gain = {1: 3, 2: 2}[place]
    else:
        # the deal ended with both opponents out: the partner is last
        assert all(s in finished for s in SEATS if s % 2 != first % 2)
        gain = 1
    return sign * gain


def _sub_multisets(hand):
    """Every distinct non-empty sub-multiset of the sorted tuple `hand`, as a
    pair (sub, rest) of sorted tuples."""
    counts = Counter(hand)
    distinct = sorted(counts)
    for mult in product(*(range(counts[t] + 1) for t in distinct)):
        if sum(mult) == 0:
            continue
        sub = tuple(t for t, m in zip(distinct, mult) for _ in range(m))
        rest = tuple(t for t, m in zip(distinct, mult) for _ in range(counts[t] - m))
        yield sub, rest


@lru_cache(maxsize=None)
def hand_moves(hand, level, joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """The plays of the sorted tuple `hand`, as a tuple of
    (pattern, (play, rests)): every pattern of reference.plays(hand) once;
    play = (type, rank, size) for reference.beats; rests = the sorted tuples
    of the cards left after each distinct sub-multiset realising the pattern.
    Ordered by decreasing size (only a search-order choice: playing out
    first tends to reach the best possible value early)."""
    moves = {}
    for sub, rest in _sub_multisets(hand):
        for reading in reference.classify(sub, level, joker_pair_in_full_house,
                                          flush_is_always_bomb):
            pat = reference.pattern(sub, reading, level)
            play = (pat[0], pat[1], len(sub))
            entry = moves.setdefault(pat, (play, []))
            assert entry[0] == play
            if rest not in entry[1]:
                entry[1].append(rest)
    return tuple(sorted(((pat, (play, tuple(rests))) for pat, (play, rests) in moves.items()),
                        key=lambda item: (-item[1][0][2], repr(item[0]))))


def best_possible(team, finished):
    """The best value (for team 0; team 1 wants it low) that `team` can still
    get in a deal that is not over, given who is out already: nobody out: 3;
    its own player first: 3, or 2 if an opponent is already second; an
    opponent first: it can at best lose by 1."""
    if not finished:
        gain = 3
    elif finished[0] % 2 == team:
        gain = 3 if len(finished) == 1 else 2
    else:
        gain = -1
    return gain if team == 0 else -gain


def canonical_suits(hand, level):
    """Re-suit the non-wild, non-joker cards of `hand` so that the k-th copy
    of a rank gets the k-th suit of S S C C D D H H.  Only valid when no
    straight flush can be formed, i.e. every hand has fewer than 5 cards:
    every other reading, every pattern and reference.beats depend on the
    ranks (and on which cards are wilds) only, never on suits."""
    wild = reference.wild_token(level)
    out, seen = [], Counter()
    for c in hand:
        if c == wild or c[1] in "BR":
            out.append(c)
        else:
            out.append("SSCCDDHH"[seen[c[1]]] + c[1])
            seen[c[1]] += 1
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def _beats(new, table, level):
    return reference.beats(new, table, level)


def _next_holder(hands, seat):
    """The next seat after `seat` (seat+1, seat+2, ...) that holds cards."""
    for k in (1, 2, 3):
        s = (seat + k) % 4
        if hands[s]:
            return s
    raise AssertionError("no other seat holds cards")


def _check_position(hands, turn, table, owner, passes, finished):
    if len(hands) != 4:
        raise ValueError("need 4 hands")
    if len(set(finished)) != len(finished) or any(s not in SEATS for s in finished):
        raise ValueError(f"bad finished order {finished!r}")
    for s in SEATS:
        if (s in finished) != (not hands[s]):
            raise ValueError(f"seat {s}: a seat is in `finished` iff its hand is empty")
    if team_over(finished):
        raise ValueError("the deal is already over")
    if turn not in SEATS or not hands[turn]:
        raise ValueError(f"turn seat {turn!r} must hold cards")
    for s in SEATS:
        for c in hands[s]:
            if c not in reference.TOKENS:
                raise ValueError(f"seat {s}: unknown card token {c!r}")
    all_cards = Counter(c for h in hands for c in h)
    for tok, k in all_cards.items():
        if k > 2:
            raise ValueError(f"card {tok!r} appears {k} times across the hands")
    if table is None:
        return
    if owner not in SEATS or owner == turn:
        raise ValueError(f"bad owner {owner!r} of the standing play")
    if not hands[owner] and finished[-1] != owner:
        raise ValueError("an owner who is out must be the last finisher")
    between = [(owner + k) % 4 for k in range(1, (turn - owner) % 4)]
    expected = sum(1 for s in between if hands[s])
    if passes != expected:
        raise ValueError(f"passes={passes} but {expected} holders sit between "
                         f"owner {owner} and turn {turn}")


class _Game:
    """The rules of play (RULES 6) for one level and one pair of flags.

    A state is (hands, turn, table, owner, passes, finished): hands a tuple of
    4 sorted token tuples, table None or (type, rank, size), owner None when
    table is None, finished the tuple of seats out in order.  A node is
    either a state or an int: the final value of a deal that is over."""

    def __init__(self, level, flags):
        self.level = level
        self.flags = flags

    def successors(self, state):
        """[(move, [node, ...]), ...]: every legal move of the seat to act
        (None = pass, else a pattern) with the node reached by each distinct
        choice of cards realising it (one node for a pass)."""
        hands, turn, table, owner, passes, finished = state
        out = []
        for pat, (play, rests) in hand_moves(hands[turn], self.level, *self.flags):
            if table is not None and not _beats(play, table, self.level):
                continue
            out.append((pat, [self.after_play(state, rest, play) for rest in rests]))
        if table is not None:     # following: passing is legal (pass last:
            out.append((None, [self.after_pass(state)]))   # search order only)
        return out

    @staticmethod
    def after_play(state, rest, play):
        """The seat to act plays `play`, keeping the cards `rest`."""
        hands, p, _table, _owner, _passes, finished = state
        hands = hands[:p] + (rest,) + hands[p + 1:]
        if not rest:
            finished = finished + (p,)
            if team_over(finished):
                return deal_result(finished)
        return (hands, _next_holder(hands, p), play, p, 0, finished)

    @staticmethod
    def after_pass(state):
        """The seat to act passes."""
        hands, p, table, owner, passes, finished = state
        passes += 1
        holders = sum(1 for h in hands if h)
        needed = holders - 1 if hands[owner] else holders
        assert passes <= needed
        if passes == needed:      # round over: owner leads, or partner (接风)
            leader = owner if hands[owner] else partner(owner)
            assert hands[leader]
            return (hands, leader, None, None, 0, finished)
        return (hands, _next_holder(hands, p), table, owner, passes, finished)


class _PlainMinimax:
    """value(node): plain minimax over every move and every card choice,
    memoised on the full state.  With cutoff=True a node's search stops once
    a move reaches best_possible() for the mover's team: no move can do
    better, so the value is unchanged."""

    def __init__(self, game, cutoff):
        self.game = game
        self.cutoff = cutoff
        self.memo = {}

    def value(self, node):
        if isinstance(node, int):
            return node
        v = self.memo.get(node)
        if v is None:
            turn, finished = node[1], node[5]
            best = max if turn % 2 == 0 else min
            bound = best_possible(turn % 2, finished)
            v = None
            for _move, children in self.game.successors(node):
                for child in children:
                    cv = self.value(child)
                    v = cv if v is None else best(v, cv)
                    if self.cutoff and v == bound:
                        break
                else:
                    continue
                break
            assert (v <= bound) if turn % 2 == 0 else (v >= bound)
            self.memo[node] = v
        return v


class _ThresholdSearch:
    """value(node) through yes/no questions: at_least(node, x) = "can team 0
    make the value >= x?", which is: at a leaf, value >= x; with team 0 to
    act, some move/card choice leads to a yes; with team 1 to act, every
    one does.  (And trivially no if x > best_possible(team 0), yes if
    x <= best_possible(team 1).)  value(node) = the largest x answered yes,
    found by bisection over the six possible values.  Exact: the same
    minimax value, computed with any()/all() short-circuits."""

    VALUES = (-3, -2, -1, 1, 2, 3)

    def __init__(self, game):
        self.game = game
        self.memo = {}

    def at_least(self, node, x):
        if isinstance(node, int):
            return node >= x
        key = (node, x)
        r = self.memo.get(key)
        if r is None:
            finished = node[5]
            if x > best_possible(0, finished):
                r = False
            elif x <= best_possible(1, finished):
                r = True
            else:
                children = (c for _m, cs in self.game.successors(node) for c in cs)
                if node[1] % 2 == 0:
                    r = any(self.at_least(c, x) for c in children)
                else:
                    r = all(self.at_least(c, x) for c in children)
            self.memo[key] = r
        return r

    def value(self, node):
        if isinstance(node, int):
            return node
        lo, hi = 0, len(self.VALUES) - 1     # value in VALUES[lo..hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.at_least(node, self.VALUES[mid]):
                lo = mid
            else:
                hi = mid - 1
        return self.VALUES[lo]


def _root_search(hands, level, turn, table, owner, passes, finished,
                 joker_pair_in_full_house, flush_is_always_bomb):
    """(search, root state) of a checked position (see solve)."""
    hands = tuple(tuple(sorted(h)) for h in hands)
    finished = tuple(finished)
    if table is not None:
        table = tuple(table)
    else:
        owner, passes = None, 0
    _check_position(hands, turn, table, owner, passes, finished)
    flags = (bool(joker_pair_in_full_house), bool(flush_is_always_bomb))
    if CANONICAL_SUITS and all(len(h) < 5 for h in hands):
        # No hand can ever form a straight flush (hands only shrink), so the
        # suits of non-wild cards are irrelevant: forget them (see
        # canonical_suits).  Same patterns, same values, fewer states.
        hands = tuple(canonical_suits(h, level) for h in hands)
    game = _Game(level, flags)
    if METHOD == "threshold":
        search = _ThresholdSearch(game)
    elif METHOD == "cutoff":
        search = _PlainMinimax(game, cutoff=True)
    elif METHOD == "plain":
        search = _PlainMinimax(game, cutoff=False)
    else:
        raise ValueError(f"unknown METHOD {METHOD!r}")
    return search, (hands, turn, table, owner, passes, finished)


def solve(hands, level, turn=0, table=None, owner=None, passes=0, finished=(),
          joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """Double-dummy value for team 0 of the position, and {move: value} for
    every legal move of the seat `turn` (None = pass, else the pattern tuple
    (type, rank, ranks, suit) of reference.plays).  A pattern's value is the
    best, for the mover's team, over the distinct card choices realising it."""
    search, root = _root_search(hands, level, turn, table, owner, passes, finished,
                                joker_pair_in_full_house, flush_is_always_bomb)
    best = max if turn % 2 == 0 else min
    moves = {move: best(search.value(c) for c in children)
             for move, children in search.game.successors(root)}
    value = best(moves.values())
    global last_nodes
    last_nodes = len(search.memo)
    return value, moves


def solve_value(hands, level, turn=0, table=None, owner=None, passes=0, finished=(),
                joker_pair_in_full_house=False, flush_is_always_bomb=False):
    """solve()'s value alone: the root's value by the same search, without
    valuing every move of the seat to act (far cheaper with the threshold
    search, which then stops at the first move that answers each question)."""
    search, root = _root_search(hands, level, turn, table, owner, passes, finished,
                                joker_pair_in_full_house, flush_is_always_bomb)
    value = search.value(root)
    global last_nodes
    last_nodes = len(search.memo)
    return value


def random_seating(rng: random.Random, deck: list, cards_per_hand: int, deal=None):
    """(finished, hands, turn) of a random position (see random_position):
    the seats out, the hands (deal() when given, else cards_per_hand cards
    popped from deck) and a random seat holding cards to act."""
    finished = []
    r = rng.random()
    if r >= 0.5:
        a = rng.choice(SEATS)
        finished.append(a)
        if r >= 0.75:
            finished.append(rng.choice([s for s in SEATS if s % 2 != a % 2]))
            rng.shuffle(finished)
    hands = []
    for s in SEATS:
        if s in finished:
            hands.append([])
        elif deal is not None:
            hands.append(deal())
        else:
            hands.append([deck.pop() for _ in range(cards_per_hand)])
    turn = rng.choice([s for s in SEATS if hands[s]])
    return finished, hands, turn


def random_owner(rng: random.Random, hands, turn: int, finished):
    """(owner, passes) of a standing play in a random position (see
    random_position)."""
    owners = [s for s in SEATS if hands[s] and s != turn]
    if finished:
        owners.append(finished[-1])
    owner = rng.choice(owners)
    passes = sum(1 for k in range(1, (turn - owner) % 4) if hands[(owner + k) % 4])
    return owner, passes


def random_position(rng: random.Random, cards_per_hand: int, level: str):
    """A random small, reachable position, as a dict of solve() keyword
    arguments (hands, level, turn, table, owner, passes, finished).

    * All cards (the hands and the cards that made the standing play) are
      drawn without replacement from one 108-card double deck.
    * With probability 1/2 nobody is out; else one seat, or (1/4) two seats of
      different teams, are out, in random order: their hands are empty.  The
      other seats hold `cards_per_hand` cards each.
    * turn: a random seat holding cards.
    * With probability 1/2 a free lead; else a standing play: a random pattern
      of reference.plays() of 1..5 extra drawn cards, as (type, rank, size).
      Its owner is a random seat other than `turn` that holds cards, or the
      last finisher (who went out with that play).
    * passes: the number of seats strictly between owner and turn (owner+1,
      owner+2, ... mod 4) that hold cards -- each of them has acted since
      the play and passed; a seat that is out now was out already (it could
      only go out by playing, which would have made it the owner).
    The position is never over: no team has both players out.
    """
    deck = [t for t in reference.TOKENS for _ in range(2)]
    rng.shuffle(deck)
    finished, hands, turn = random_seating(rng, deck, cards_per_hand)
    table, owner, passes = None, None, 0
    if rng.random() < 0.5:
        extra = [deck.pop() for _ in range(rng.randint(1, 5))]
        pat = rng.choice(sorted(reference.plays(extra, level), key=repr))
        table = (pat[0], pat[1], len(pat[2]))
        owner, passes = random_owner(rng, hands, turn, finished)
    return dict(hands=hands, level=level, turn=turn, table=table, owner=owner,
                passes=passes, finished=tuple(finished))
