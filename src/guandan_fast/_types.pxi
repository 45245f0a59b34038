# Value types (Card, Play) and the boundary wrappers of the enumeration kernel.
# Included by _core.pyx.

import numpy as _np


@cython.final
cdef class Card:
    """One of the 54 distinct cards: ``Card("S3")``, ``Card(13)`` (a slot).

    Only canonical tokens are accepted here; ``parse_card`` reads aliases.
    Cards are immutable, hashable, and ordered by natural rank, then suit
    (S < H < C < D); the jokers come last.

    >>> Card("HT"), str(Card("sb")), Card("DA").rank, Card("DA").suit
    (Card('HT'), 'SB', 'A', 'D')
    """
    cdef readonly int id

    def __cinit__(self, token):
        cdef int i
        if isinstance(token, Card):
            self.id = (<Card>token).id
            return
        if isinstance(token, int) and not isinstance(token, bool):
            if not 0 <= token < NCARD:          # checked before it meets a C int
                raise CardParseError(f"card slot {token!r} is not in 0..53"[:80], str(token)[:40])
            self.id = token
            return
        i = _TOKEN_ID.get(token.upper(), -1) if isinstance(token, str) else -1
        if i < 0:
            raise CardParseError(f"{token!r} is not a canonical card token (S3, HT, SB, HR...)"
                                 [:120], str(token)[:40])
        self.id = i

    @property
    def rank(self):
        """'2'..'A', or 'B' / 'R' for the small / big joker."""
        return RANK_CHARS[card_rank(self.id)]

    @property
    def rank_index(self):
        """0..12 for 2..A, 13 small joker, 14 big joker."""
        return card_rank(self.id)

    @property
    def suit(self):
        """'S', 'H', 'C', 'D', or None for a joker."""
        if self.id >= 52:
            return None
        return SUIT_CHARS[card_suit(self.id)]

    @property
    def is_joker(self):
        return self.id >= 52

    def is_wild(self, level):
        """True when this card is a heart of the level rank (RULES §2)."""
        return self.id == SUIT_H * 13 + _level_index(level)

    cdef int _sort_key(self):
        if self.id >= 52:
            return 1000 + self.id
        return card_rank(self.id) * 4 + card_suit(self.id)

    def __hash__(self):
        return self.id

    def __richcmp__(self, other, int op):
        if not isinstance(other, Card):
            return NotImplemented
        cdef int a = self._sort_key(), b = (<Card>other)._sort_key()
        if op == 0: return a < b
        if op == 1: return a <= b
        if op == 2: return a == b
        if op == 3: return a != b
        if op == 4: return a > b
        return a >= b

    def __str__(self):
        return _TOKENS[self.id]

    def __repr__(self):
        return f"Card('{_TOKENS[self.id]}')"

    def __reduce__(self):
        return (Card, (self.id,))


def _make_tokens():
    toks = []
    for s in range(4):
        for r in range(13):
            toks.append(SUIT_CHARS[s] + RANK_CHARS[r])
    toks.append("SB")
    toks.append("HR")
    return tuple(toks)


_TOKENS = _make_tokens()
_TOKEN_ID = {t: i for i, t in enumerate(_TOKENS)}
CARDS = tuple(Card(i) for i in range(NCARD))
TOKENS = _TOKENS


cdef int _level_index(level) except -1:
    if isinstance(level, int) and 0 <= level < 13:
        return level
    raise ValueError(f"level index {level!r} is not in 0..12")


@cython.final
cdef class Play:
    """A play: a reading (``type``, ``rank``) and the concrete ``cards``.

    ``rank`` is the key of RULES §3: the rank for groups and bombs, the top
    card for sequences (A2345 has rank '5'). Two plays are equal when they
    have the same pattern (RULES §8): type, rank, the ranks of the cards with
    every wild counted as 'W', and the suit of a straight flush.
    """
    cdef CPlay p
    cdef readonly int level_index

    def __init__(self, *args, **kwargs):
        raise TypeError("Play objects come from classify(), plays() and the "
                        "other analysis functions")

    @property
    def type(self):
        """One of single pair triple full_house straight tube plate
        straight_flush bomb joker_bomb."""
        return TYPE_NAMES[self.p.type]

    @property
    def type_index(self):
        return self.p.type

    @property
    def rank(self):
        return RANK_CHARS[self.p.rank]

    @property
    def rank_index(self):
        return self.p.rank

    @property
    def size(self):
        return self.p.size

    @property
    def wilds(self):
        """How many wild cards (hearts of the level rank) the play uses."""
        return self.p.nwild

    @property
    def suit(self):
        """The suit of a straight flush, else None."""
        if self.p.suit == NOSUIT:
            return None
        return SUIT_CHARS[self.p.suit]

    @property
    def level(self):
        """The level rank ('2'..'A') the play was read at."""
        return RANK_CHARS[self.level_index]

    @property
    def cards(self):
        """The concrete cards, a tuple of Card."""
        cdef int i
        return tuple([CARDS[self.p.cards[i]] for i in range(self.p.size)])

    @property
    def card_ids(self):
        """The card slots (0..53) of the concrete cards."""
        cdef int i
        return tuple([self.p.cards[i] for i in range(self.p.size)])

    @property
    def is_bomb(self):
        return bomb_class(&self.p) > 0

    @property
    def strength(self):
        """(bomb class, key): bombs on one scale 1..9, non-bombs 0."""
        return (bomb_class(&self.p), rank_key(&self.p, self.level_index))

    @property
    def pattern(self):
        """(type, rank, ranks with wilds as 'W' sorted, suit or None)."""
        cdef int i, c
        cdef int wid = SUIT_H * 13 + self.level_index
        codes = []
        for i in range(self.p.size):
            c = self.p.cards[i]
            codes.append(15 if c == wid else card_rank(c))
        codes.sort()
        ranks = "".join(["W" if x == 15 else RANK_CHARS[x] for x in codes])
        return (self.type, self.rank, ranks, self.suit)

    def beats(self, Play other):
        """True when this play beats ``other`` (RULES §4)."""
        return bool(c_beats(&self.p, &other.p, self.level_index))

    def __hash__(self):
        return hash((self.level_index, self.pattern))

    def __richcmp__(self, other, int op):
        if op not in (2, 3):
            return NotImplemented
        if not isinstance(other, Play):
            return NotImplemented
        same = (self.level_index == (<Play>other).level_index
                and self.pattern == (<Play>other).pattern)
        return same if op == 2 else not same

    def __str__(self):
        return " ".join([_TOKENS[self.p.cards[i]] for i in range(self.p.size)])

    def __repr__(self):
        return f"<Play {self.type} {self.rank}: {self}>"

    def __reduce__(self):
        return (_play_from_state, (self.p.type, self.p.rank, self.p.suit,
                                   self.p.aux, self.card_ids, self.level_index))


cdef Play make_play(const CPlay* p, int lv):
    cdef Play o = Play.__new__(Play)
    o.p = p[0]
    o.level_index = lv
    return o


def _play_from_state(int typ, int rank, int suit, int aux, ids, int lv):
    cdef CPlay p
    cdef int i, wid = SUIT_H * 13 + lv
    memset(&p, 0, sizeof(CPlay))
    p.type = typ; p.rank = rank; p.suit = suit; p.aux = aux
    p.size = len(ids)
    for i in range(p.size):
        p.cards[i] = ids[i]
        if ids[i] == wid:
            p.nwild += 1
    return make_play(&p, lv)


cdef list plays_to_list(const CPlay* buf, int n, int lv):
    cdef int i
    cdef list out = [None] * n
    for i in range(n):
        out[i] = make_play(&buf[i], lv)
    return out


cdef CPlay* _scratch = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))


cdef int core_args_ok(const u8[::1] counts, int lv, int flags, int max_cards) noexcept:
    """What every entry point relies on (checked once, at the Python
    boundary, by the public functions): 54 slots of 0..2 copies, at most
    max_cards cards (the enumeration's fixed arrays hold 8 cards a rank),
    a level index 0..12 and known flags."""
    cdef int i, total = 0
    if counts.shape[0] != NCARD or not 0 <= lv <= 12:
        return 0
    if flags & ~(F_JOKER_PAIR_FH | F_FLUSH_ALWAYS_BOMB):
        return 0
    for i in range(NCARD):
        if counts[i] > 2:
            return 0
        total += counts[i]
    return total <= max_cards


def _py_plays(const u8[::1] counts, int lv, int flags, int typemask=ALL_TYPES):
    """All plays (one per pattern) of a 54-count hand, as Play objects."""
    assert core_args_ok(counts, lv, flags, 28), "invalid core arguments"
    cdef int n = enumerate_plays(&counts[0], lv, flags, typemask, _scratch, MAXPLAY)
    if n < 0:
        raise RuntimeError("play buffer overflow")
    return plays_to_list(_scratch, n, lv)


def _py_beating_plays(const u8[::1] counts, int lv, int flags, Play table):
    """The plays of a 54-count hand that beat ``table``."""
    assert core_args_ok(counts, lv, flags, 28) and table.level_index == lv, \
        "invalid core arguments"
    cdef int n = beating_plays_c(&counts[0], lv, flags, &table.p, _scratch, MAXPLAY)
    if n < 0:
        raise RuntimeError("play buffer overflow")
    return plays_to_list(_scratch, n, lv)


def _py_classify(const u8[::1] counts, int lv, int flags):
    """Every reading of exactly these cards (plays that use them all)."""
    cdef int total = 0, i, n, m = 0
    assert core_args_ok(counts, lv, flags, 108), "invalid core arguments"
    for i in range(NCARD):
        total += counts[i]
    if total == 0 or total > 10:
        return []
    n = enumerate_plays(&counts[0], lv, flags, ALL_TYPES, _scratch, MAXPLAY)
    for i in range(n):
        if _scratch[i].size == total:
            _scratch[m] = _scratch[i]
            m += 1
    return plays_to_list(_scratch, m, lv)


PLAY_ARRAY_COLUMNS = ("type", "rank", "size", "wilds", "suit") + tuple(
    "n_" + t for t in _TOKENS)


cdef void fill_play_rows(const CPlay* buf, int n, u8[:, ::1] arr) noexcept nogil:
    cdef int i, j
    for i in range(n):
        arr[i, 0] = buf[i].type
        arr[i, 1] = buf[i].rank
        arr[i, 2] = buf[i].size
        arr[i, 3] = buf[i].nwild
        arr[i, 4] = buf[i].suit
        for j in range(buf[i].size):
            arr[i, 5 + buf[i].cards[j]] += 1


def _py_plays_array(const u8[::1] counts, int lv, int flags, int typemask=ALL_TYPES):
    """All plays of a 54-count hand as an (n, 59) uint8 array: type, rank,
    size, wilds, suit (255 = none), then the count used of each card slot."""
    cdef int n
    assert core_args_ok(counts, lv, flags, 28), "invalid core arguments"
    cdef CPlay* buf = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
    if buf == NULL:
        raise MemoryError()
    try:
        with nogil:
            n = enumerate_plays(&counts[0], lv, flags, typemask, buf, MAXPLAY)
        if n < 0:
            raise RuntimeError("play buffer overflow")
        arr = _np.zeros((n, 59), dtype=_np.uint8)
        if n:
            fill_play_rows(buf, n, arr)
        return arr
    finally:
        free(buf)


def _py_beats(Play a, Play b):
    assert a.level_index == b.level_index, "plays read at different levels"
    return bool(c_beats(&a.p, &b.p, a.level_index))


def _py_check_counts(const u8[::1] counts, int max_cards):
    """-1 when a 54-count array is a valid holding of at most ``max_cards``;
    else the first slot holding more than 2 copies, or -2 when too many cards."""
    cdef int i, total = 0
    if counts.shape[0] != NCARD:
        return -3
    for i in range(NCARD):
        if counts[i] > 2:
            return i
        total += counts[i]
    if total > max_cards:
        return -2
    return -1
