# cython: language_level=3
"""Compiled core of guandan_fast.

Everything in here works on the 54-count encoding of a hand (see ``model/counts.py``):
slot ``suit * 13 + rank`` for the 52 suited cards (suits S H C D, ranks 2..A as
0..12), slot 52 the small joker, slot 53 the big joker; each count is 0..2.

The kernels (enumeration, decomposition, search) use fixed C arrays and
``noexcept nogil`` helpers; Python objects are only made at the boundary, in
the ``Card`` and ``Play`` value types and the ``py_*`` wrappers that the
Python modules call.
"""

from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free

cimport cython

from .errors import CardParseError

# ----------------------------------------------------------------------------
# Constants
# ----------------------------------------------------------------------------

DEF NCARD = 54
DEF NRANK = 15          # 0..12 natural ranks 2..A, 13 small joker, 14 big joker
DEF RB = 13
DEF RR = 14
DEF SUIT_H = 1
DEF MAXPLAY = 4096      # capacity of a play buffer (a 27-card hand has < 2000)

# play types, in the order of RULES §3
DEF T_SINGLE = 0
DEF T_PAIR = 1
DEF T_TRIPLE = 2
DEF T_FULL_HOUSE = 3
DEF T_STRAIGHT = 4
DEF T_TUBE = 5
DEF T_PLATE = 6
DEF T_STRAIGHT_FLUSH = 7
DEF T_BOMB = 8
DEF T_JOKER_BOMB = 9
DEF NTYPE = 10

# rules flags (bit mask)
DEF F_JOKER_PAIR_FH = 1
DEF F_FLUSH_ALWAYS_BOMB = 2

DEF NOSUIT = 255
NO_SUIT = NOSUIT

RANK_CHARS = "23456789TJQKABR"
SUIT_CHARS = "SHCD"
TYPE_NAMES = ("single", "pair", "triple", "full_house", "straight", "tube",
              "plate", "straight_flush", "bomb", "joker_bomb")
FLAG_JOKER_PAIR_IN_FULL_HOUSE = F_JOKER_PAIR_FH
FLAG_FLUSH_IS_ALWAYS_BOMB = F_FLUSH_ALWAYS_BOMB
MAX_PLAYS = MAXPLAY

ctypedef unsigned char u8

# One play: its reading and the concrete cards (card slots 0..53).
ctypedef struct CPlay:
    u8 type
    u8 rank      # key rank: 0..12 natural, 13 B, 14 R; sequences: natural top
    u8 size
    u8 nwild     # wild cards (heart level cards) among the cards
    u8 suit      # straight flush suit, else 255
    u8 aux       # full house: the pair's rank (255 when the pair is two wilds)
    u8 cards[10]


# ----------------------------------------------------------------------------
# Small helpers on ranks and cards
# ----------------------------------------------------------------------------

cdef inline int card_rank(int c) noexcept nogil:
    if c >= 52:
        return c - 52 + 13
    return c % 13

cdef inline int card_suit(int c) noexcept nogil:
    if c >= 52:
        return -1
    return c // 13

cdef inline int order_of(int r, int lv) noexcept nogil:
    """Single-card order (RULES §2): 2<..<A<level<B<R."""
    if r == lv:
        return 13
    if r >= 13:
        return r + 1
    return r

cdef inline int line_rank(int pos) noexcept nogil:
    """Sequence line position 0..13 (A low, 2..K, A high) to natural rank."""
    if pos == 0:
        return 12
    return pos - 1

cdef inline int bomb_class(const CPlay* p) noexcept nogil:
    """0 for non-bombs; bombs on one scale: 4 < 5 < SF < 6 < ... < 10 < jokers."""
    if p.type == T_BOMB:
        if p.size <= 5:
            return p.size - 3          # 4 -> 1, 5 -> 2
        return p.size - 2              # 6 -> 4, ..., 10 -> 8
    if p.type == T_STRAIGHT_FLUSH:
        return 3
    if p.type == T_JOKER_BOMB:
        return 9
    return 0

cdef inline int rank_key(const CPlay* p, int lv) noexcept nogil:
    """The key compared between plays of one type (or bombs of one class)."""
    if p.type == T_STRAIGHT or p.type == T_TUBE or p.type == T_PLATE \
            or p.type == T_STRAIGHT_FLUSH:
        return p.rank            # natural top card (A-low straight top is 5)
    return order_of(p.rank, lv)

cdef inline int c_beats(const CPlay* a, const CPlay* b, int lv) noexcept nogil:
    """RULES §4: does play a beat play b?"""
    cdef int ca = bomb_class(a), cb = bomb_class(b)
    if ca or cb:
        if ca != cb:
            return ca > cb
        if ca == 9:
            return 0
        return rank_key(a, lv) > rank_key(b, lv)
    if a.type != b.type or a.size != b.size:
        return 0
    return rank_key(a, lv) > rank_key(b, lv)


# ----------------------------------------------------------------------------
# Hand summary used by the enumeration
# ----------------------------------------------------------------------------

ctypedef struct HandInfo:
    int lv
    int flags
    int w                 # wilds held (0..2)
    int wild_id           # card slot of the wild (heart of the level rank)
    u8 nat[15]            # natural (non-wild) cards per rank
    u8 scnt[4][13]        # natural cards per suit and rank (wild slot is 0)
    u8 pick[15][8]        # card slots per rank, in the order they are given away
    u8 smask[13]          # bit s set when suit s holds a natural of this rank
    unsigned int lmask[4] # bit i set when suit s holds a natural at line position i


cdef void sf_protection(HandInfo* h, u8 prot[4][13]) noexcept nogil:
    """prot[s][r] = number of straight-flush windows of suit s through rank r
    that the hand can complete (with its wilds): a window of five line
    positions whose naturals of suit s number at least one and at least
    5 - wilds (``lmask``, one bit a position)."""
    cdef int s, st, i, win
    memset(prot, 0, 4 * 13)
    for s in range(4):
        for st in range(10):
            win = (h.lmask[s] >> st) & 31
            if win == 0 or 5 - popcount8(win) > h.w:
                continue
            for i in range(5):
                if (win >> i) & 1:
                    prot[s][line_rank(st + i)] += 1


cdef void hand_info(const u8* cnt, int lv, int flags, HandInfo* h) noexcept nogil:
    cdef int s, r, c, k, n, best, bi, j
    cdef u8 prot[4][13]
    cdef int keyv[8]
    cdef u8 ids[8]
    cdef int m
    memset(h, 0, sizeof(HandInfo))
    h.lv = lv
    h.flags = flags
    h.wild_id = SUIT_H * 13 + lv
    h.w = cnt[h.wild_id]
    for s in range(4):
        for r in range(13):
            c = s * 13 + r
            if c == h.wild_id:
                continue
            h.scnt[s][r] = cnt[c]
            h.nat[r] += cnt[c]
            if cnt[c]:
                h.smask[r] |= <u8>(1 << s)
                h.lmask[s] |= (1u << (r + 1)) | ((1u if r == 12 else 0u))
    h.nat[RB] = cnt[52]
    h.nat[RR] = cnt[53]
    for k in range(cnt[52]):
        h.pick[RB][k] = 52
    for k in range(cnt[53]):
        h.pick[RR][k] = 53
    sf_protection(h, prot)
    # order the copies of each rank: free copies first (cards in no
    # completable straight flush, or the spare copy of a doubled card), then
    # the last copies of straight-flush cards, fewest windows first.
    for r in range(13):
        if h.nat[r] <= 1:               # one copy or none: nothing to order
            for s in range(4):
                if (h.smask[r] >> s) & 1:
                    h.pick[r][0] = <u8>(s * 13 + r)
            continue
        m = 0
        for s in range(4):
            c = s * 13 + r
            if c == h.wild_id:
                continue
            for k in range(cnt[c]):
                ids[m] = <u8>c
                if prot[s][r] and k == cnt[c] - 1:
                    keyv[m] = 100 * prot[s][r] + s
                else:
                    keyv[m] = s - 10 * (cnt[c] - k)
                m += 1
        # selection sort (at most 8 entries)
        for n in range(m):
            bi = n
            for j in range(n + 1, m):
                if keyv[j] < keyv[bi]:
                    bi = j
            best = keyv[bi]; keyv[bi] = keyv[n]; keyv[n] = best
            best = ids[bi]; ids[bi] = ids[n]; ids[n] = <u8>best
            h.pick[r][n] = ids[n]


# ----------------------------------------------------------------------------
# Enumeration of plays (one per pattern, RULES §8)
# ----------------------------------------------------------------------------

ctypedef struct Out:
    CPlay* buf
    int n
    int cap
    int overflow


cdef inline CPlay* new_play(Out* o, int typ, int rank, int suit, int aux) noexcept nogil:
    cdef CPlay* p
    if o.n >= o.cap:
        o.overflow = 1
        return NULL
    p = &o.buf[o.n]
    o.n += 1
    p.type = <u8>typ
    p.rank = <u8>rank
    p.size = 0
    p.nwild = 0
    p.suit = <u8>suit
    p.aux = <u8>aux
    return p

cdef inline void add_nat(CPlay* p, const HandInfo* h, int r, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        p.cards[p.size] = h.pick[r][i]
        p.size += 1

cdef inline void add_wild(CPlay* p, const HandInfo* h, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        p.cards[p.size] = <u8>h.wild_id
        p.size += 1
    p.nwild += <u8>k


cdef inline void add_line_five(CPlay* p, HandInfo* h, int st, int mask, int suit) noexcept nogil:
    """The five cards of line positions st..st+4: a wild where ``mask`` has
    the position's bit, else a natural of its rank: the card of ``suit``
    (a straight flush), or with suit < 0 the first copy in ``pick`` order."""
    cdef int i, r
    for i in range(5):
        r = line_rank(st + i)
        if (mask >> i) & 1:
            add_wild(p, h, 1)
        elif suit < 0:
            add_nat(p, h, r, 1)
        else:
            p.cards[p.size] = <u8>(suit * 13 + r)
            p.size += 1


cdef void gen_groups(const HandInfo* h, Out* o, int typemask) noexcept nogil:
    """Singles, pairs, triples, bombs of one rank, joker bomb."""
    cdef int r, k, n, lv = h.lv, w = h.w
    cdef CPlay* p
    if typemask & (1 << T_SINGLE):
        for r in range(NRANK):
            if h.nat[r]:
                p = new_play(o, T_SINGLE, r, NOSUIT, NOSUIT)
                if p == NULL:
                    return
                add_nat(p, h, r, 1)
        if w:
            p = new_play(o, T_SINGLE, lv, NOSUIT, NOSUIT)
            if p == NULL:
                return
            add_wild(p, h, 1)
    if typemask & (1 << T_PAIR):
        for r in range(13):
            for k in range(2, -1, -1):
                if h.nat[r] < k or 2 - k > w:
                    continue
                if k == 0 and r != lv:
                    continue        # two wilds alone are only a level pair
                p = new_play(o, T_PAIR, r, NOSUIT, NOSUIT)
                if p == NULL:
                    return
                add_nat(p, h, r, k)
                add_wild(p, h, 2 - k)
        for r in range(13, 15):
            if h.nat[r] >= 2:
                p = new_play(o, T_PAIR, r, NOSUIT, NOSUIT)
                if p == NULL:
                    return
                add_nat(p, h, r, 2)
    if typemask & (1 << T_TRIPLE):
        for r in range(13):
            for k in range(3, 0, -1):
                if h.nat[r] < k or 3 - k > w:
                    continue
                p = new_play(o, T_TRIPLE, r, NOSUIT, NOSUIT)
                if p == NULL:
                    return
                add_nat(p, h, r, k)
                add_wild(p, h, 3 - k)
    if typemask & ((1 << T_BOMB) | (1 << T_JOKER_BOMB)):
        for r in range(13):
            if h.nat[r] + w < 4:
                continue
            for n in range(4, h.nat[r] + w + 1):
                for k in range(min(n, h.nat[r]), n - w - 1, -1):
                    if k < 1:
                        break
                    p = new_play(o, T_BOMB, r, NOSUIT, NOSUIT)
                    if p == NULL:
                        return
                    add_nat(p, h, r, k)
                    add_wild(p, h, n - k)
        if h.nat[RB] == 2 and h.nat[RR] == 2:
            p = new_play(o, T_JOKER_BOMB, RR, NOSUIT, NOSUIT)
            if p == NULL:
                return
            add_nat(p, h, RB, 2)
            add_nat(p, h, RR, 2)


cdef void gen_full_houses(const HandInfo* h, Out* o) noexcept nogil:
    cdef int t, kt, wt, p, kp, wp, w = h.w
    cdef CPlay* q
    cdef int pmax = 13
    if h.flags & F_JOKER_PAIR_FH:
        pmax = 15
    for t in range(13):
        for kt in range(3, 0, -1):
            wt = 3 - kt
            if h.nat[t] < kt or wt > w:
                continue
            # pair made of two wilds: one pattern whatever rank they stand for
            if wt + 2 <= w:
                q = new_play(o, T_FULL_HOUSE, t, NOSUIT, NOSUIT)
                if q == NULL:
                    return
                add_nat(q, h, t, kt)
                add_wild(q, h, wt + 2)
            for p in range(pmax):
                if p == t:
                    continue
                for kp in range(2, 0, -1):
                    wp = 2 - kp
                    if h.nat[p] < kp or wt + wp > w:
                        continue
                    if p >= 13 and kp != 2:
                        continue
                    q = new_play(o, T_FULL_HOUSE, t, NOSUIT, p)
                    if q == NULL:
                        return
                    add_nat(q, h, t, kt)
                    add_nat(q, h, p, kp)
                    add_wild(q, h, wt + wp)


cdef inline int popcount8(int x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef void gen_straights(const HandInfo* h, Out* o) noexcept nogil:
    """Straights: 5 consecutive natural ranks, each position a natural or a wild."""
    cdef int st, mask, i, r, ok, nw, s, same, common
    cdef CPlay* p
    cdef int flushflag = h.flags & F_FLUSH_ALWAYS_BOMB
    cdef int alt_i, alt_s, j
    cdef u8 tmp
    for st in range(10):
        for mask in range(32):
            nw = popcount8(mask)
            if nw > h.w:
                continue
            ok = 1
            common = 15
            for i in range(5):
                if not (mask >> i) & 1:
                    r = line_rank(st + i)
                    if h.nat[r] == 0:
                        ok = 0
                        break
                    common &= h.smask[r]
            if not ok:
                continue
            if flushflag:
                # a straight reading needs naturals that are not all one suit
                same = 1
                for i in range(5):
                    if not (mask >> i) & 1:
                        r = line_rank(st + i)
                        if popcount8(h.smask[r]) != 1 or h.smask[r] != common:
                            same = 0
                if same:
                    continue
            p = new_play(o, T_STRAIGHT, line_rank(st + 4), NOSUIT, NOSUIT)
            if p == NULL:
                return
            add_line_five(p, h, st, mask, -1)
            if flushflag:
                # make sure the chosen naturals are not all of one suit
                s = -1
                same = 1
                for i in range(p.size):
                    if p.cards[i] == h.wild_id:
                        continue
                    if s < 0:
                        s = card_suit(p.cards[i])
                    elif card_suit(p.cards[i]) != s:
                        same = 0
                if same:
                    # swap one natural for a copy of another suit
                    for i in range(p.size):
                        if p.cards[i] == h.wild_id:
                            continue
                        r = card_rank(p.cards[i])
                        for j in range(h.nat[r]):
                            if card_suit(h.pick[r][j]) != s:
                                p.cards[i] = h.pick[r][j]
                                same = 0
                                break
                        if not same:
                            break


cdef void gen_straight_flushes(const HandInfo* h, Out* o) noexcept nogil:
    cdef int s, st, mask, nw, forced, others, x
    cdef CPlay* p
    for s in range(4):
        for st in range(10):
            # the positions with no natural of the suit (the heart level
            # card is the wild itself, never a natural: lmask leaves it out)
            forced = ~(h.lmask[s] >> st) & 31
            if popcount8(forced) > h.w:
                continue
            # the wild slots: forced plus any subset of the other positions,
            # in increasing order of the mask (x runs over the subsets of
            # the others, ~forced & 31, in increasing order)
            others = ~forced & 31
            x = 0
            while True:
                mask = forced | x
                nw = popcount8(mask)
                if nw <= h.w and nw < 5:
                    p = new_play(o, T_STRAIGHT_FLUSH, line_rank(st + 4), s, NOSUIT)
                    if p == NULL:
                        return
                    add_line_five(p, h, st, mask, s)
                if x == others:
                    break
                x = ((x | ~others) + 1) & others


cdef void gen_tubes(const HandInfo* h, Out* o) noexcept nogil:
    cdef int st, k0, k1, k2, r0, r1, r2, nw
    cdef CPlay* p
    for st in range(12):
        r0 = line_rank(st); r1 = line_rank(st + 1); r2 = line_rank(st + 2)
        if h.nat[r0] + h.nat[r1] + h.nat[r2] + h.w < 6:
            continue
        for k0 in range(min(2, h.nat[r0]), -1, -1):
            for k1 in range(min(2, h.nat[r1]), -1, -1):
                for k2 in range(min(2, h.nat[r2]), -1, -1):
                    nw = 6 - k0 - k1 - k2
                    if nw > h.w:
                        continue
                    p = new_play(o, T_TUBE, r2, NOSUIT, NOSUIT)
                    if p == NULL:
                        return
                    add_nat(p, h, r0, k0)
                    add_nat(p, h, r1, k1)
                    add_nat(p, h, r2, k2)
                    add_wild(p, h, nw)


cdef void gen_plates(const HandInfo* h, Out* o) noexcept nogil:
    cdef int st, k0, k1, r0, r1, nw
    cdef CPlay* p
    for st in range(13):
        r0 = line_rank(st); r1 = line_rank(st + 1)
        if h.nat[r0] + h.nat[r1] + h.w < 6:
            continue
        for k0 in range(min(3, h.nat[r0]), -1, -1):
            for k1 in range(min(3, h.nat[r1]), -1, -1):
                nw = 6 - k0 - k1
                if nw > h.w:
                    continue
                p = new_play(o, T_PLATE, r1, NOSUIT, NOSUIT)
                if p == NULL:
                    return
                add_nat(p, h, r0, k0)
                add_nat(p, h, r1, k1)
                add_wild(p, h, nw)


cdef int enumerate_plays_h(const HandInfo* h, int typemask, CPlay* buf, int cap) noexcept nogil:
    """All plays of the hand summarised in h whose type is in typemask (bit
    per type), one per pattern. Returns the number written, or -1 when cap
    was too small. The generators only read h."""
    cdef Out o
    o.buf = buf
    o.n = 0
    o.cap = cap
    o.overflow = 0
    gen_groups(h, &o, typemask)
    if typemask & (1 << T_FULL_HOUSE):
        gen_full_houses(h, &o)
    if typemask & (1 << T_STRAIGHT):
        gen_straights(h, &o)
    if typemask & (1 << T_TUBE):
        gen_tubes(h, &o)
    if typemask & (1 << T_PLATE):
        gen_plates(h, &o)
    if typemask & (1 << T_STRAIGHT_FLUSH):
        gen_straight_flushes(h, &o)
    if o.overflow:
        return -1
    return o.n


cdef int enumerate_plays(const u8* cnt, int lv, int flags, int typemask,
                         CPlay* buf, int cap) noexcept nogil:
    """All plays of the hand whose type is in typemask (bit per type), one per
    pattern. Returns the number written, or -1 when cap was too small."""
    cdef HandInfo h
    hand_info(cnt, lv, flags, &h)
    return enumerate_plays_h(&h, typemask, buf, cap)


DEF ALL_TYPES = (1 << NTYPE) - 1
DEF BOMB_TYPES = (1 << T_BOMB) | (1 << T_STRAIGHT_FLUSH) | (1 << T_JOKER_BOMB)


cdef int beating_plays_h(const HandInfo* h, const CPlay* table, CPlay* buf, int cap) noexcept nogil:
    """Plays of the hand summarised in h that beat the table play
    (compacted in place)."""
    cdef int n, i, m = 0
    cdef int mask = BOMB_TYPES
    if bomb_class(table) == 0:
        mask |= 1 << table.type
    n = enumerate_plays_h(h, mask, buf, cap)
    if n < 0:
        return -1
    for i in range(n):
        if c_beats(&buf[i], table, h.lv):
            if m != i:
                buf[m] = buf[i]
            m += 1
    return m


cdef int beating_plays_c(const u8* cnt, int lv, int flags, const CPlay* table,
                         CPlay* buf, int cap) noexcept nogil:
    """Plays of the hand that beat the table play (compacted in place)."""
    cdef HandInfo h
    hand_info(cnt, lv, flags, &h)
    return beating_plays_h(&h, table, buf, cap)


include "_types.pxi"
include "_decomp.pxi"
include "_state.pxi"
include "_keys.pxi"
include "_ttable.pxi"
include "_context.pxi"
include "_movegen.pxi"
include "_runout.pxi"
include "_search.pxi"
include "_driver.pxi"
include "_concrete.pxi"
include "_est_tree.pxi"
include "_est_playout.pxi"
include "_est_driver.pxi"
include "_policy.pxi"
include "_forest.pxi"
