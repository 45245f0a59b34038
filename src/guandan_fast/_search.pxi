# Double-dummy endgame search (issue 6). Included at the end of _core.pyx.
#
# A node is an SState: the four hands as 54-count arrays, the seat to act,
# the standing play with its owner and the passes since it was played (or a
# free lead), and the finishing order so far. Play follows RULES 6:
#   - the leader must play; a follower beats the standing play or passes;
#   - after a play its player owns the table and the passes restart at 0;
#     a player left without cards is appended to the finishing order;
#   - the deal ends as soon as both players of one team are out; the team of
#     the first finisher gains 3 (partner second), 2 (third) or 1 (last);
#   - the turn goes to the next seat (s+1, s+2, ... mod 4) still holding cards;
#   - the round ends when every player still holding cards other than the
#     owner has passed in a row (all holders when the owner has played out);
#     then the owner leads, or the owner's partner when the owner is out (接风).
#
# Moves are patterns (RULES 8): one per pattern as enumerate_plays returns
# them, with the concrete cards it chooses (free copies before the cards of
# completable straight flushes). Plays that differ only in the suits of
# non-wild cards outside straight flushes are merged into that one move.
#
# The search is alpha-beta at team level (team 0 = seats 0 and 2 maximises
# the value, team 1 minimises it) over the six outcomes -3..-1, 1..3, driven
# by null-window tests, with a fixed-size transposition table of bounds keyed
# by a Zobrist hash of the position. No Python objects are touched inside;
# everything below `search` runs without the GIL.

from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.stdlib cimport calloc

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_ctzll(unsigned long long) nogil
    void __builtin_prefetch(const void*) nogil
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

DEF SPOOL = 1 << 18      # plays in the shared move pool (all plies together)
DEF VINF = 4
DEF MAXPV = 512

ctypedef struct SState:
    u8 hand[4][54]
    int ncards[4]
    int turn
    int owner          # seat owning the standing play, -1 on a free lead
    int passes         # passes in a row since the standing play
    int seqmask        # bit s: seat s may still form a sequence play
    int lv             # the level index
    int nfin
    int fin[4]         # finishing order
    CPlay table
    uint64_t hkey      # Zobrist key of the hands
    uint64_t skey[4]   # Zobrist key of each hand (hkey = their xor)
    uint64_t nib[4]    # natural (non-wild) cards per seat: 4 bits per order_of(rank)
    unsigned int om[4] # bit order_of(r) set when the seat holds a natural r
    uint64_t rkh[4]    # st_key_relabeled's term of each hand, for the rank mask rkm
    unsigned int rkm   # (0: none computed yet)
    int rkdirty        # bit s: seat s's hand changed since its term was computed


ctypedef struct TTEntry:
    # Two 64-bit words, so that threads sharing the table need no lock
    # (Hyatt and Mann's lockless hashing): data packs the bounds, the work
    # and the best move; kx = key ^ data. A probe takes an entry only when
    # kx ^ data equals its key, so an entry torn by two threads writing at
    # once (words from different writes) is never taken.
    uint64_t kx
    uint64_t data      # lo + 8 | (hi + 8) << 8 | work << 16 | best << 32


cdef inline uint64_t tt_pack(int lo, int hi, int work, uint32_t best) noexcept nogil:
    return (<uint64_t>(lo + 8) | (<uint64_t>(hi + 8) << 8) | (<uint64_t>work << 16)
            | (<uint64_t>best << 32))


cdef inline int tt_get(const TTEntry* e, uint64_t key, int* lo, int* hi, int* work,
                       uint32_t* best) noexcept nogil:
    """1 and the entry's fields when e holds key (read once: another thread
    may be writing it)."""
    cdef uint64_t d = (<volatile uint64_t*>&e.data)[0]
    cdef uint64_t kx = (<volatile uint64_t*>&e.kx)[0]
    if kx ^ d != key:
        return 0
    lo[0] = <int>(d & 0xFF) - 8
    hi[0] = <int>((d >> 8) & 0xFF) - 8
    work[0] = <int>((d >> 16) & 0xFF)
    best[0] = <uint32_t>(d >> 32)
    return 1


cdef inline int tt_work(const TTEntry* e) noexcept nogil:
    """The work of whatever e holds (0 when empty): replacement priority."""
    return <int>(((<volatile uint64_t*>&e.data)[0] >> 16) & 0xFF)


cdef inline void tt_put(TTEntry* e, uint64_t key, int lo, int hi, int work,
                        uint32_t best) noexcept nogil:
    cdef uint64_t d = tt_pack(lo, hi, work, best)
    (<volatile uint64_t*>&e.data)[0] = d
    (<volatile uint64_t*>&e.kx)[0] = key ^ d


ctypedef struct HSum:
    uint64_t key       # the seat's hand key (0: empty entry)
    short maxkey[7]    # per non-bomb type: the highest rank key it can play, -1
    short bomb         # the strongest bomb: class * 32 + key, -1 for none


ctypedef struct MPEntry:
    uint64_t key
    int mp


DEF HSUM_BITS = 14
DEF MC_BITS = 14         # move cache entries
DEF ARENA = 1 << 20      # plays kept by the move cache


ctypedef struct MCEntry:
    uint64_t key
    int start
    int n
    int gen
DEF MPC_BITS = 16


ctypedef struct ROEntry:
    uint64_t key
    int res


DEF ROC_BITS = 15
DEF KT_BITS = 16         # refutation table entries (see refutation_key)
DEF RO_STEPS = 300       # step budget of one run-out test (then: unknown)


ctypedef struct SCtx:
    int lv
    int flags
    TTEntry* tt
    uint64_t ttmask
    CPlay* pool
    int* scores
    long long nodes
    long long max_nodes     # <= 0: no limit
    double deadline         # <= 0: no limit (monotonic seconds)
    int abort               # 1: node or time limit, 2: move buffer overflow
    HSum* hsum              # per-hand summaries (direct-mapped cache)
    MPEntry* mpc            # min plays per hand (direct-mapped cache)
    DecompWork* dws
    MCEntry* mc             # lead plays per hand (direct-mapped cache)
    CPlay* arena            # ... stored here, as a ring
    int apos
    int agen
    void* progress_cb       # a Python callable(nodes) or NULL (borrowed)
    int order_flags         # experiment knobs
    int hist[4][NTYPE + 1][16][11]   # history: seat, type (NTYPE = pass), rank, size
    int safe_w
    int pass_w
    ROEntry* roc            # run-out test results (direct-mapped cache)
    long long runouts       # nodes cut by the run-out bound (statistics)
    uint64_t* kt            # refutation table: key high half | move hash


cdef uint64_t Z_HAND[4][54][3]
cdef uint64_t Z_TURN[4]
cdef uint64_t Z_FIRST[5]
cdef uint64_t Z_LEAD
cdef uint64_t Z_SEAT[4]
cdef uint64_t NIBBLES[128]       # bit b of i set: nibble b all ones
cdef uint64_t Z_MC[4][2]         # lead_plays: the key part of (seat, type mask)
cdef uint64_t Z_LVL[14]          # st_key_relabeled: the level rank's label


cdef inline uint64_t smix(uint64_t x) noexcept nogil:
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef void _init_zobrist() noexcept nogil:
    cdef uint64_t seed = 0x5EED0006ULL
    cdef int s, c, k
    for s in range(4):
        for c in range(54):
            Z_HAND[s][c][0] = 0
            for k in range(1, 3):
                seed += 1
                Z_HAND[s][c][k] = smix(seed)
    for s in range(4):
        seed += 1
        Z_TURN[s] = smix(seed)
    for s in range(5):
        seed += 1
        Z_FIRST[s] = smix(seed)
    seed += 1
    Z_LEAD = smix(seed)
    for s in range(4):
        seed += 1
        Z_SEAT[s] = smix(seed)
    for c in range(128):
        NIBBLES[c] = 0
        for k in range(7):
            if (c >> k) & 1:
                NIBBLES[c] |= (<uint64_t>0xF) << (4 * k)


_init_zobrist()


cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__unix__) || defined(__APPLE__)
    #include <sys/mman.h>
    #endif
    /* Memory for the transposition table and the other large tables read at
       random: aligned to 2 MiB and, from 2 MiB up, asked to live in huge
       pages where the system has them (Linux: with 4 KiB pages most random
       reads also miss the TLB; measured: the search runs ~14% faster).
       Freed with free(). */
    static void* gf_big_alloc(size_t n) {
    #if defined(_WIN32)
        return malloc(n);
    #else
        void* p = NULL;
        if (n < ((size_t)2 << 20))
            return malloc(n);
        if (posix_memalign(&p, (size_t)2 << 20, n) != 0)
            return NULL;
    #if defined(MADV_HUGEPAGE)
        madvise(p, n, MADV_HUGEPAGE);   /* advice only: may be refused */
    #endif
        return p;
    #endif
    }
    """
    void* big_alloc "gf_big_alloc"(size_t n) nogil


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# ----------------------------------------------------------------------------
# Rules of play on an SState
# ----------------------------------------------------------------------------

cdef inline int st_team_out(const SState* st) noexcept nogil:
    return (st.ncards[0] == 0 and st.ncards[2] == 0) or \
           (st.ncards[1] == 0 and st.ncards[3] == 0)


cdef inline int st_final_value(const SState* st) noexcept nogil:
    """Value for team 0 of a finished deal (one team out)."""
    cdef int f = st.fin[0], partner = st.fin[0] ^ 2, mag = 1
    if st.nfin >= 2 and st.fin[1] == partner:
        mag = 3
    elif st.nfin >= 3 and st.fin[2] == partner:
        mag = 2
    return mag if f % 2 == 0 else -mag


cdef inline void st_static_bounds(const SState* st, int* lo, int* hi) noexcept nogil:
    """Bounds on the value that the finishing order so far already implies."""
    cdef int f, sgn, mhi
    if st.nfin == 0:
        lo[0] = -3
        hi[0] = 3
        return
    f = st.fin[0]
    sgn = 1 if f % 2 == 0 else -1
    # not over: the partner of the first finisher is still in; one finisher
    # more (an opponent) means the partner can be third at best
    mhi = 3 if st.nfin == 1 else 2
    if sgn > 0:
        lo[0] = 1
        hi[0] = mhi
    else:
        lo[0] = -mhi
        hi[0] = -1


cdef inline int st_next_holder(const SState* st, int s) noexcept nogil:
    cdef int k, q
    for k in range(1, 5):
        q = (s + k) & 3
        if st.ncards[q]:
            return q
    return s


cdef inline uint64_t beat_code(const CPlay* t, int rank) noexcept nogil:
    """What matters of a standing play t is what beats it: its type, size
    and rank (rank: the one the caller compares by), packed in one number."""
    return (<uint64_t>t.type * 128 + rank) * 32 + t.size


cdef inline uint64_t st_key_rest(const SState* st, int table_rank) noexcept nogil:
    """The key of everything but the hands."""
    cdef uint64_t k = Z_TURN[st.turn]
    k ^= Z_FIRST[st.fin[0] + 1 if st.nfin else 0]
    if st.owner < 0:
        k ^= Z_LEAD
    else:
        k ^= smix((beat_code(&st.table, table_rank) * 8 + st.owner) * 8
                  + st.passes + 1000003)
    return k


cdef inline int is_seq_type(int t) noexcept nogil:
    return t == T_STRAIGHT or t == T_TUBE or t == T_PLATE or t == T_STRAIGHT_FLUSH


cdef extern from *:
    """
    /* Parallel bit extract (the bits of x where m has a one, packed low):
       the BMI2 instruction, used where the CPU has it and it is fast (Intel
       since Haswell, AMD since Zen 3; Zen 1 and 2 run it in microcode,
       slowly). gf_use_pext is set once, at import (gf_pext_init); without
       it the caller packs by a loop. */
    #include <stdint.h>
    static int gf_use_pext = 0;
    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    #include <cpuid.h>
    __attribute__((target("bmi2"))) static uint64_t gf_pext_hw(uint64_t x, uint64_t m) {
        return __builtin_ia32_pext_di(x, m);
    }
    static void gf_pext_init(void) {
        unsigned int a, b, c, d, family;
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi2") || !__get_cpuid(1, &a, &b, &c, &d))
            return;
        family = (a >> 8) & 0xF;
        if (family == 0xF)
            family += (a >> 20) & 0xFF;
        gf_use_pext = !__builtin_cpu_is("amd") || family >= 0x19;
    }
    #else
    static uint64_t gf_pext_hw(uint64_t x, uint64_t m) { (void)m; return x; }
    static void gf_pext_init(void) { }
    #endif
    """
    uint64_t pext_hw "gf_pext_hw"(uint64_t x, uint64_t m) nogil
    void gf_pext_init() nogil
    int gf_use_pext


gf_pext_init()


def _use_pext(on=None):
    """Whether the relabelled key uses the PEXT instruction (tests switch
    it off to check the portable path gives the same keys)."""
    global gf_use_pext
    old = gf_use_pext
    if on is not None:
        if on:
            gf_pext_init()
        else:
            gf_use_pext = 0
    return bool(old)


cdef uint64_t st_key_relabeled(const SState* st, int lv) noexcept nogil:
    """Key of a position where nobody can form a sequence play any more:
    then only the single-card order of the ranks matters (every other type
    compares by that order, and a wild always joins a natural rank held or
    stands as the level card), so the ranks present (in the hands, the level
    rank and the standing play's rank) are renumbered 0, 1, 2... in that
    order. Order-isomorphic positions (e.g. after playing the 8 or the 9 of
    8 9 when nobody else holds a card between them) share a key. Suits do
    not matter either: no straight flush can be formed. The key holds each
    hand's counts in label order (its rank-count nibbles at the ranks
    present, packed: a parallel bit extract), the wilds apart, the jokers
    as themselves, the table's label and the level's label."""
    cdef unsigned int m = (1u << 13), mo = (1u << 13), bits
    cdef int s, trank, ot, o
    cdef uint64_t k = 0, nm, c
    # each hand's term is kept in the state (rkh) and computed again only
    # when that hand changed or the set of ranks present did (the state is
    # a search's own copy: writing these cache fields changes no position)
    cdef SState* w = <SState*>st
    for s in range(4):
        m |= st.om[s]
        if s != st.owner:
            mo |= st.om[s]
    if m != w.rkm:
        w.rkm = m
        w.rkdirty = 15
    nm = NIBBLES[m & 0x7F] | (NIBBLES[m >> 7] << 28)
    for s in range(4):
        if not (w.rkdirty >> s) & 1:
            continue
        w.rkh[s] = 0
        if st.ncards[s] == 0:
            continue
        # at most 13 ranks present: 52 bits of counts, then the wilds and
        # the two jokers (0..2 each) in bits 56..61
        if gf_use_pext:
            c = pext_hw(st.nib[s], nm)
        else:
            # the same packing by a loop over the ranks the seat holds
            c = 0
            bits = st.om[s]
            while bits:
                o = __builtin_ctz(bits)
                bits &= bits - 1
                c |= ((st.nib[s] >> (4 * o)) & 0xF) << (4 * __builtin_popcount(m & ((1u << o) - 1)))
        c |= (<uint64_t>st.hand[s][SUIT_H * 13 + lv] | (<uint64_t>st.hand[s][52] << 2)
              | (<uint64_t>st.hand[s][53] << 4)) << 56
        w.rkh[s] = smix(c ^ Z_SEAT[s])
    w.rkdirty = 0
    k = w.rkh[0] ^ w.rkh[1] ^ w.rkh[2] ^ w.rkh[3]
    # the standing play: only what the other seats can beat it with matters
    # (its owner never plays on it: the round ends or someone beats it first),
    # so its rank is placed among the ranks the others hold (and the level
    # rank): the number of those labels below it, twice, plus one when it
    # equals one of them. Leading the 5 or the 6 of a 5 6 that nobody else
    # holds gives one key.
    trank = 0
    if st.owner >= 0:
        if is_seq_type(st.table.type):
            trank = 0
        elif st.table.rank >= 13:
            trank = 64 + st.table.rank
        else:
            ot = order_of(st.table.rank, lv)
            trank = 2 * __builtin_popcount(mo & m & ((1u << ot) - 1)) + ((mo >> ot) & 1)
    # where the level rank sits among the labels: a wild played as itself
    # is a level card, so its order against the table matters even when no
    # natural level card is held (e.g. wild vs a table ace or a table level card)
    k ^= Z_LVL[__builtin_popcount(m & ((1u << 13) - 1))]
    return k ^ st_key_rest(st, trank) ^ 0x51AB31EDULL


cdef int DEFAULT_ORDER = 5   # order_flags of new searches (see set_order)
def _set_default_order(int flags):
    global DEFAULT_ORDER
    DEFAULT_ORDER = flags


cdef int DRIVE_LOW = 1
def _set_drive_low(int on):
    global DRIVE_LOW
    DRIVE_LOW = on


cdef int RUNOUT_ON = 7      # bit 0: at lead nodes, bit 1: following, bit 2: search after it
def _set_runout(int on):
    global RUNOUT_ON
    RUNOUT_ON = on


cdef int RELABEL_ON = 1
def _set_relabel(int on):
    global RELABEL_ON
    RELABEL_ON = on


cdef inline uint64_t st_key(const SState* st, int lv) noexcept nogil:
    if st.seqmask == 0 and RELABEL_ON:
        return st_key_relabeled(st, lv)
    return st.hkey ^ st_key_rest(st, st.table.rank)


cdef int may_form_sequence(const u8* hand, int n, int lv, int flags,
                           CPlay* scratch, int cap) noexcept nogil:
    """Can this hand form a straight, tube, plate or straight flush?"""
    if n < 5:
        return 0
    return enumerate_plays(hand, lv, flags,
                           (1 << T_STRAIGHT) | (1 << T_TUBE) | (1 << T_PLATE)
                           | (1 << T_STRAIGHT_FLUSH), scratch, cap) != 0


cdef inline void st_play(SState* st, const CPlay* p) noexcept nogil:
    """The seat to act plays p (size > 0). The caller checks st_team_out."""
    cdef int s = st.turn, i, c, old, r, o
    for i in range(p.size):
        c = p.cards[i]
        old = st.hand[s][c]
        st.hand[s][c] = <u8>(old - 1)
        st.skey[s] ^= Z_HAND[s][c][old] ^ Z_HAND[s][c][old - 1]
        if c < 52 and c != SUIT_H * 13 + st.lv:
            r = c % 13
            o = order_of(r, st.lv)
            st.nib[s] -= (<uint64_t>1) << (4 * o)
            if not (st.nib[s] >> (4 * o)) & 0xF:
                st.om[s] &= ~(1u << o)
    st.hkey = st.skey[0] ^ st.skey[1] ^ st.skey[2] ^ st.skey[3]
    st.rkdirty |= 1 << s
    st.ncards[s] -= p.size
    st.table = p[0]
    st.owner = s
    st.passes = 0
    if st.ncards[s] == 0:
        st.fin[st.nfin] = s
        st.nfin += 1
    st.turn = st_next_holder(st, s)


cdef inline void st_pass(SState* st) noexcept nogil:
    """The seat to act passes (only when following)."""
    cdef int q, need = 0
    st.passes += 1
    for q in range(4):
        if q != st.owner and st.ncards[q]:
            need += 1
    if st.passes >= need:
        # round over: the owner leads, or the owner's partner (接风)
        st.turn = st.owner if st.ncards[st.owner] else st.owner ^ 2
        st.owner = -1
        st.passes = 0
    else:
        st.turn = st_next_holder(st, st.turn)


cdef inline void st_apply(SState* st, const CPlay* p) noexcept nogil:
    """A move: a play, or a pass when p.size == 0."""
    if p.size == 0:
        st_pass(st)
    else:
        st_play(st, p)


cdef inline void st_apply_cx(SCtx* cx, SState* st, const CPlay* p, int sp) noexcept nogil:
    """st_apply, then keep seqmask up to date (the hand that shrank may have
    lost its last sequence play)."""
    cdef int s = st.turn
    st_apply(st, p)
    if p.size and (st.seqmask >> s) & 1:
        if not may_form_sequence(st.hand[s], st.ncards[s], cx.lv, cx.flags,
                                 cx.pool + sp, SPOOL - sp):
            st.seqmask &= ~(1 << s)


cdef uint64_t MH_MASK0[11]      # move_hash: the bytes of a CPlay it reads,
cdef uint64_t MH_MASK1[11]      # by the play's size (see move_hash)


cdef inline uint64_t mh_byte(int k) noexcept nogil:
    """The mask of byte k (0..7) of a word copied from memory."""
    cdef uint64_t one = 1
    if (<u8*>&one)[0] == 1:       # little-endian
        return 0xFFULL << (8 * k)
    return 0xFFULL << (8 * (7 - k))


cdef void _init_move_hash() noexcept nogil:
    cdef int sz, k
    for sz in range(11):
        # bytes 0-2 (type, rank, size) and 4 (suit); the cards from byte 6
        MH_MASK0[sz] = mh_byte(0) | mh_byte(1) | mh_byte(2) | mh_byte(4)
        MH_MASK1[sz] = 0
        for k in range(sz):
            if k < 2:
                MH_MASK0[sz] |= mh_byte(6 + k)
            else:
                MH_MASK1[sz] |= mh_byte(k - 2)


_init_move_hash()


cdef inline uint32_t move_hash(const CPlay* p) noexcept nogil:
    """A hash of a play's type, rank, size, suit and cards (the CPlay's 16
    bytes read as two words, masked to those fields and the cards it holds)."""
    cdef uint64_t w0, w1
    memcpy(&w0, p, 8)
    memcpy(&w1, (<const char*>p) + 8, 8)
    w0 &= MH_MASK0[p.size]
    w1 &= MH_MASK1[p.size]
    return <uint32_t>(smix(w0 * 0x9E3779B97F4A7C15ULL + smix(w1 + 7777)) | 2)   # 1 is the pass


cdef inline uint32_t move_id(const CPlay* p) noexcept nogil:
    """What the table and the refutation table keep of a move: its hash,
    1 for the pass (0: none)."""
    return move_hash(p) if p.size else 1


# ----------------------------------------------------------------------------
# Move generation and ordering
# ----------------------------------------------------------------------------

DEF SEQ_TYPES = (1 << T_STRAIGHT) | (1 << T_TUBE) | (1 << T_PLATE) | (1 << T_STRAIGHT_FLUSH)


cdef void _init_key_tables() noexcept nogil:
    """Hash values the search would otherwise mix at every node."""
    cdef int s, k
    for s in range(4):
        Z_MC[s][0] = smix(<uint64_t>(s * 4096 + ALL_TYPES) + 99)
        Z_MC[s][1] = smix(<uint64_t>(s * 4096 + (ALL_TYPES & ~SEQ_TYPES)) + 99)
    for k in range(14):
        Z_LVL[k] = smix(<uint64_t>k + 0x1E7E1ULL)


_init_key_tables()


cdef int lead_plays(SCtx* cx, const SState* st, int mask, CPlay* buf, int cap) noexcept nogil:
    """enumerate_plays of the seat to act, through a cache keyed by the hand."""
    cdef uint64_t key = st.skey[st.turn]
    if mask == ALL_TYPES:
        key ^= Z_MC[st.turn][0]
    elif mask == ALL_TYPES & ~SEQ_TYPES:
        key ^= Z_MC[st.turn][1]
    else:
        key ^= smix(<uint64_t>(st.turn * 4096 + mask) + 99)
    cdef MCEntry* e = &cx.mc[key & ((1 << MC_BITS) - 1)]
    cdef int n
    if e.key == key and e.gen == cx.agen:
        if e.n > cap:
            return -1
        memcpy(buf, cx.arena + e.start, e.n * sizeof(CPlay))
        return e.n
    n = enumerate_plays(st.hand[st.turn], cx.lv, cx.flags, mask, buf, cap)
    if n < 0 or n > ARENA // 4:
        return n
    if cx.apos + n > ARENA:
        cx.apos = 0
        cx.agen += 1          # the ring wrapped: forget every entry
    memcpy(cx.arena + cx.apos, buf, n * sizeof(CPlay))
    e.key = key
    e.start = cx.apos
    e.n = n
    e.gen = cx.agen
    cx.apos += n
    return n


cdef int gen_moves(SCtx* cx, const SState* st, CPlay* buf, int cap) noexcept nogil:
    """The moves of the seat to act into buf: plays, then a pass (size 0)
    when following. Returns the count, or -1 on overflow. Sequence types are
    not generated for a hand that cannot form one (seqmask). Following, the
    lead plays (cached per hand) are filtered by c_beats: the same plays in
    the same order as beating_plays_c."""
    cdef int n, i, m = 0, mask = ALL_TYPES
    cdef const CPlay* table = &st.table
    if not (st.seqmask >> st.turn) & 1:
        mask &= ~SEQ_TYPES
    if st.owner < 0:
        return lead_plays(cx, st, mask, buf, cap)
    n = lead_plays(cx, st, mask, buf, cap - 1)
    if n < 0:
        return -1
    for i in range(n):
        if c_beats(&buf[i], table, cx.lv):
            if m != i:
                buf[m] = buf[i]
            m += 1
    memset(&buf[m], 0, sizeof(CPlay))
    return m + 1


cdef inline int play_strength(const CPlay* p, int lv) noexcept nogil:
    return bomb_class(p) * 32 + rank_key(p, lv)


cdef HSum* hand_summary(SCtx* cx, const SState* st, int q, CPlay* scratch,
                        int cap) noexcept nogil:
    """What seat q can beat with: the highest key per non-bomb type and the
    strongest bomb (cached by q's hand key). NULL on overflow."""
    cdef uint64_t key = st.skey[q] ^ (<uint64_t>q + 1)
    cdef HSum* h = &cx.hsum[key & ((1 << HSUM_BITS) - 1)]
    cdef int n, i, k, t
    if h.key == key:
        return h
    n = enumerate_plays(st.hand[q], cx.lv, cx.flags, ALL_TYPES, scratch, cap)
    if n < 0:
        return NULL
    h.key = key
    for t in range(7):
        h.maxkey[t] = -1
    h.bomb = -1
    for i in range(n):
        if bomb_class(&scratch[i]):
            k = play_strength(&scratch[i], cx.lv)
            if k > h.bomb:
                h.bomb = <short>k
        else:
            k = rank_key(&scratch[i], cx.lv)
            t = scratch[i].type
            if k > h.maxkey[t]:
                h.maxkey[t] = <short>k
    return h


cdef inline int can_beat(const HSum* h, const CPlay* p, int lv) noexcept nogil:
    if bomb_class(p):
        return h.bomb > play_strength(p, lv)
    return h.bomb >= 0 or h.maxkey[p.type] > rank_key(p, lv)


cdef int search_mp_after(SCtx* cx, const SState* st, int s, const CPlay* p) noexcept nogil:
    """Minimum plays of seat s's hand after playing p (p.size 0: as it is)."""
    cdef uint64_t key = st.skey[s]
    cdef u8 cnt[54]
    cdef int i, c, r
    cdef MPEntry* e
    memcpy(cnt, st.hand[s], 54)
    for i in range(p.size):
        c = p.cards[i]
        key ^= Z_HAND[s][c][cnt[c]] ^ Z_HAND[s][c][cnt[c] - 1]
        cnt[c] -= 1
    key ^= <uint64_t>s + 1
    e = &cx.mpc[key & ((1 << MPC_BITS) - 1)]
    if e.key == key:
        return e.mp
    r = c_min_plays(cnt, cx.lv, cx.flags, cx.dws)
    if r < 0:
        r = 27
    e.key = key
    e.mp = r
    return r


cdef inline int pick_next(CPlay* buf, int* sc, int i, int n) noexcept nogil:
    """Move the best-scored remaining move to position i (lazy selection)."""
    cdef int j, b = i, t
    cdef CPlay tmp
    for j in range(i + 1, n):
        if sc[j] > sc[b]:
            b = j
    if b != i:
        tmp = buf[i]; buf[i] = buf[b]; buf[b] = tmp
        t = sc[i]; sc[i] = sc[b]; sc[b] = t
    return i


cdef int order_moves(SCtx* cx, const SState* st, CPlay* buf, int* sc, int n,
                     uint32_t besth, int sp, uint32_t refut=0) noexcept nogil:
    """Scores for the moves (higher first): the transposition-table move,
    going out, the refutation-table move (refut, a move hash or 1 for the
    pass), then few plays left in the hand, plays nobody can beat, low
    ranks, bombs last; a pass first when the partner owns the table.
    Returns -1 on overflow."""
    cdef int me = st.turn, i, q, nq = 0, bc, safe, mp0, mp, s
    cdef uint32_t mid
    cdef HSum hs[3]          # copies: a later lookup may reuse a cache slot
    cdef HSum* h
    cdef CPlay* scratch = cx.pool + sp + n
    cdef int cap = SPOOL - sp - n
    cdef int partner_owns = st.owner >= 0 and (st.owner & 1) == (me & 1)
    for q in range(4):
        if cx.safe_w and q != me and st.ncards[q]:
            h = hand_summary(cx, st, q, scratch, cap)
            if h == NULL:
                return -1
            hs[nq] = h[0]
            nq += 1
    mp0 = -1
    for i in range(n):
        if besth or refut:
            mid = move_id(&buf[i])
            if mid == besth:
                sc[i] = 100000000
                continue
            if mid == refut:
                sc[i] = 70000000
                continue
        if buf[i].size == 0:
            if partner_owns:
                sc[i] = 50000000
            else:
                if mp0 < 0:
                    mp0 = 0 if not (cx.order_flags & 1) else search_mp_after(cx, st, me, &buf[i])
                sc[i] = -mp0 * 10000 - cx.pass_w
                if cx.order_flags & 2:
                    sc[i] += cx.hist[me][NTYPE][0][0]
            continue
        if buf[i].size == st.ncards[me]:
            sc[i] = 80000000
            continue
        mp = 0 if not (cx.order_flags & 1) else search_mp_after(cx, st, me, &buf[i])
        safe = ro_safe(hs, nq, &buf[i], cx.lv)
        bc = bomb_class(&buf[i])
        s = -mp * 10000 + safe * cx.safe_w + buf[i].size * 1000 - rank_key(&buf[i], cx.lv) * 10
        if bc:
            s -= 30000 + bc * 100
        if partner_owns:
            s -= 2000
        if cx.order_flags & 2:
            s += cx.hist[me][buf[i].type][buf[i].rank][buf[i].size]
        sc[i] = s
    return n


# ----------------------------------------------------------------------------
# Alpha-beta
# ----------------------------------------------------------------------------

cdef inline uint64_t refutation_key(const SCtx* cx, const SState* st, int goal) noexcept nogil:
    """The key of the refutation table: the hands of the seat to act and of
    its partner, and what beats the standing play and where its owner sits
    (or a free lead), who is out, and the goal (the test's threshold, beta:
    the move that refutes one goal is often wrong for another; see also
    search's fail-low rule). The move that cut a node is stored under it
    and tried early at every node with the same key: the other hands
    differ, but the same move often refutes again (a killer move made
    specific to the hands that decide it). Only the order of the moves
    depends on it. On 4x8 endgames: 10-40% fewer nodes in the tests that
    waste most (a pass that refutes, found after a play)."""
    cdef int me = st.turn
    # the two hand keys are Zobrist keys over tables of their own per seat
    cdef uint64_t c = 0
    if st.owner >= 0:
        c = beat_code(&st.table, rank_key(&st.table, cx.lv)) * 8 + ((st.owner - me) & 3) + 1
    # who finished so far (the goals of the test differ)
    c = (c * 8 + (st.fin[0] + 1 if st.nfin else 0)) * 8 + st.nfin
    c = c * 16 + <uint64_t>(goal + 8)
    return smix(st.skey[me] ^ st.skey[me ^ 2] ^ Z_TURN[me] ^ c)


cdef inline uint32_t refutation_probe(const SCtx* cx, uint64_t rk) noexcept nogil:
    """The refutation table's move hash under key rk (1: the pass), or 0."""
    cdef uint64_t kv = cx.kt[rk & ((1 << KT_BITS) - 1)]
    return <uint32_t>kv if (kv >> 32) == (rk >> 32) else 0


cdef inline void refutation_store(SCtx* cx, uint64_t rk, uint32_t move) noexcept nogil:
    cx.kt[rk & ((1 << KT_BITS) - 1)] = ((rk >> 32) << 32) | move


cdef void report_progress(SCtx* cx) noexcept nogil:
    """Every 2**18 nodes: take the GIL, let Python handle signals (Ctrl-C
    stops the search: abort = 3) and call the progress callback, if any."""
    with gil:
        try:
            if PyErr_CheckSignals() != 0:
                cx.abort = 3
                return
            if cx.progress_cb != NULL:
                (<object>cx.progress_cb)(cx.nodes)
        except BaseException:
            cx.abort = 3


cdef inline int check_limits(SCtx* cx) noexcept nogil:
    if cx.max_nodes > 0 and cx.nodes >= cx.max_nodes:
        cx.abort = 1
    elif cx.deadline > 0 and (cx.nodes & 1023) == 0 and now_seconds() > cx.deadline:
        cx.abort = 1
    elif (cx.nodes & 0x3FFFF) == 0:
        report_progress(cx)
    return cx.abort


cdef inline void hist_bump(SCtx* cx, int seat, const CPlay* p) noexcept nogil:
    cdef int* h
    if p.size == 0:
        h = &cx.hist[seat][NTYPE][0][0]
    else:
        h = &cx.hist[seat][p.type][p.rank][p.size]
    h[0] += 64
    if h[0] > 30000:
        h[0] = 30000



# ----------------------------------------------------------------------------
# Sure run-out (a bound, issue 6's "cheap exact cut-offs")
# ----------------------------------------------------------------------------
#
# Claim. Let seat m be on lead (a free lead: the first lead, the lead after a
# round, or the lead taken over by 接风). Call a play of m *safe* when no
# opponent of m holding cards can beat it (RULES 4, bombs included). If m's
# hand can be split into plays P1..Pk of which P1..Pk-1 are safe (Pk may be
# anything), then m's team can make sure that m is the next player to finish.
# Proof. m leads P1. Each opponent in turn cannot beat it and must pass; m's
# partner passes too (the team chooses the partner's moves as well: the value
# is a two-team minimax, RULES 8, and passing is always legal when following).
# So every other holder passes, the round ends and m, still holding cards,
# leads again (RULES 6), with every other hand unchanged. The same holds for
# P2..Pk-1 (safety is judged against the opponents' current hands, which do
# not change while they pass). Then m leads Pk, the rest of the hand, and is
# out: nobody else has played a card meanwhile, so m finishes next.
# Answered plays. The split may also hold pairs (U, A) of non-bombs of one
# type (so of one size), U unsafe and A *dominant*: its rank key above that
# of every play of the type any opponent holding cards can make (and, A
# being safe, no opponent holds a bomb). m leads U first. An opponent may
# beat it, by a play of U's type (no bombs), and the other one may beat that;
# m's partner passes. When m's turn comes back, the table is m's own U (all
# passed: the round ended and m leads, A kept for later, as a safe play) or
# an opponent's play of U's type, which A beats; m plays A, nobody can beat
# it, and m leads again. Each opponent plays at most once per pair, U.size
# cards, so while the sizes of the Us add up to less than every opponent's
# card count, no opponent goes out meanwhile: m still finishes next (but the
# other hands may have changed, so only the bounds below hold, not the
# continuation of st_after_runout). Safety only shrinks as the opponents'
# hands do, so the other plays of the split stay safe.
# Consequences (value for m's team; the deal is not over at the node):
#   - nobody out yet: m finishes first, m's team wins: value >= +1;
#   - m's partner is first: m is second, m's team gains exactly +3;
#   - an opponent is first (one out): m is second, so the first finisher's
#     partner is third at best: the opponents gain +1 or +2 (not +3);
#   - two out (necessarily one of each team): m is third, the last holder is
#     last: exactly +2 for the first finisher's team if m is its partner,
#     else exactly +1 for the first finisher's team.
# The split is searched over the plays enumerate_plays lists for m's hand,
# counting cards by rank slot (the 13 natural ranks, the wild, the two
# jokers; see ro_slot): plays other than straight flushes depend only on the ranks of
# their natural cards (RULES 8: suits are a choice of which physical cards to
# give), and the straight flushes of a split also draw on the concrete cards
# (each must find its own suited cards), which is checked separately. A split
# found is thus a real sequence of legal plays; failing to find one (or
# running out of the step budget) only means no bound is claimed.

cdef inline int ro_slot(int c, int lv) noexcept nogil:
    """The nibble of card c in a rank-count word: a natural card at its
    single-card order (the nib words of SState), a wild at the level rank's
    own index (free: the natural level cards sit at order 13), the jokers at
    14 and 15."""
    if c == SUIT_H * 13 + lv:
        return lv
    if c >= 52:
        return c - 38           # 52 -> 14, 53 -> 15
    return order_of(c % 13, lv)


cdef inline uint64_t ro_word(const CPlay* p, int lv) noexcept nogil:
    """p's cards counted by slot, 4 bits a slot (at most 8 of a slot)."""
    cdef uint64_t w = 0
    cdef int j
    for j in range(p.size):
        w += (<uint64_t>1) << (4 * ro_slot(p.cards[j], lv))
    return w


cdef inline int nib_fits(uint64_t c, uint64_t p) noexcept nogil:
    """Is every 4-bit count of p at most the one of c? (Each nibble moved
    to an 8-bit lane of its own, where a subtraction cannot borrow across.)"""
    cdef uint64_t m = 0x0F0F0F0F0F0F0F0FULL, h = 0x8080808080808080ULL
    return ((((c & m) | h) - (p & m)) & ((((c >> 4) & m) | h) - ((p >> 4) & m)) & h) == h


cdef inline uint64_t nib_nonzero(uint64_t w) noexcept nogil:
    """The low bit of every nonzero nibble of w."""
    return (w | (w >> 1) | (w >> 2) | (w >> 3)) & 0x1111111111111111ULL


cdef inline int ro_take_sf(const CPlay* p, u8* conc) noexcept nogil:
    """A straight flush also takes its concrete cards (0, with conc as it
    was, when some is not left); other plays take nothing here."""
    cdef int j, k
    if p.type != T_STRAIGHT_FLUSH:
        return 1
    for j in range(p.size):
        if conc[p.cards[j]] == 0:
            for k in range(j):
                conc[p.cards[k]] += 1
            return 0
        conc[p.cards[j]] -= 1
    return 1


cdef inline void ro_give_sf(const CPlay* p, u8* conc) noexcept nogil:
    cdef int j
    if p.type == T_STRAIGHT_FLUSH:
        for j in range(p.size):
            conc[p.cards[j]] += 1


cdef inline int ro_answerable(const CPlay* p, int budget) noexcept nogil:
    """May the (unsafe) play p be answered (see the claim): a non-bomb whose
    size the budget still covers?"""
    return not bomb_class(p) and p.size <= budget


cdef int ro_cover(const CPlay* plays, const uint64_t* pw, const u8* safe, int n,
                  uint64_t cnt, u8* conc, int unsafe_ok, int* steps, int got,
                  int budget) noexcept nogil:
    """Can the cards counted in cnt (a rank-count word, see ro_slot; pw: the
    words of the plays) be split into plays of `plays`: safe ones, at most
    one play of any kind (when unsafe_ok: the last one led), and unsafe
    non-bombs each answered by a safe play of its type (the pair takes both;
    the unsafe ones' sizes together at most `budget`); and (unless got is
    already 1) a first play that beats the table: safe (safe[i] & 2) or
    answered (safe[i] & 8, see the claim)? An answering
    play must beat every play of its type the opponents can make (safe[j] &
    4: safe alone lets them play the same rank). conc: the concrete counts
    left for straight flushes. -1: step budget exhausted."""
    cdef int i, j, r, pairable
    cdef uint64_t low, rest
    if cnt == 0:
        return got
    steps[0] -= 1
    if steps[0] < 0:
        return -1
    # every split has a play holding a card of the lowest slot left
    low = (<uint64_t>0xF) << (__builtin_ctzll(cnt) & ~3)
    for i in range(n):
        if not (pw[i] & low) or not nib_fits(cnt, pw[i]):
            continue
        pairable = not (safe[i] & 1) and ro_answerable(&plays[i], budget)
        if not (safe[i] & 1) and not unsafe_ok and not pairable:
            continue
        if not ro_take_sf(&plays[i], conc):
            continue
        rest = cnt - pw[i]
        r = 0
        if (safe[i] & 1) or unsafe_ok:
            r = ro_cover(plays, pw, safe, n, rest, conc, unsafe_ok and (safe[i] & 1), steps,
                         got or (safe[i] & 2), budget)
        if r == 0 and pairable:
            # led, and answered by a dominant play of its type if an opponent beats it
            for j in range(n):
                if not (safe[j] & 4) or plays[j].type != plays[i].type \
                        or plays[j].size != plays[i].size or not nib_fits(rest, pw[j]) \
                        or not ro_take_sf(&plays[j], conc):
                    continue
                r = ro_cover(plays, pw, safe, n, rest - pw[j], conc, unsafe_ok, steps,
                             got or (safe[i] & 8), budget - plays[i].size)
                ro_give_sf(&plays[j], conc)
                if r != 0:
                    break
        ro_give_sf(&plays[i], conc)
        if r != 0:
            return r
    return 0


cdef int RO_PAIRS = 1
def _set_ro_pairs(int on):
    global RO_PAIRS
    RO_PAIRS = on


cdef int RO_FILTER = 1
def _set_ro_filter(int on):
    global RO_FILTER
    RO_FILTER = on


cdef inline int ro_safe(const HSum* hs, int nq, const CPlay* p, int lv) noexcept nogil:
    """Can none of the nq opponents' summaries hs beat p?"""
    cdef int k
    for k in range(nq):
        if can_beat(&hs[k], p, lv):
            return 0
    return 1


cdef inline int ro_dominates(const HSum* hs, int nq, const CPlay* p, int lv) noexcept nogil:
    """Does the non-bomb p beat every play of its type the opponents (no
    bombs among them: p is safe) can make?"""
    cdef int k, key = rank_key(p, lv)
    for k in range(nq):
        if hs[k].maxkey[p.type] >= key:
            return 0
    return 1


cdef inline uint64_t runout_key(const SCtx* cx, const SState* st) noexcept nogil:
    """The key of the run-out cache: the mover's and the opponents' hands and,
    following, what beats the table (never 0)."""
    cdef int me = st.turn
    # the hand keys are Zobrist keys over tables of their own per seat: their
    # xor (with the mover's seat) is a Zobrist key of the three hands
    cdef uint64_t key = st.hkey ^ st.skey[me ^ 2] ^ Z_TURN[me]
    if st.owner >= 0:
        key ^= smix(beat_code(&st.table, rank_key(&st.table, cx.lv)) + 0x70117ULL)
    return key | 1


cdef int runout(SCtx* cx, const SState* st, int sp, uint64_t key) noexcept nogil:
    """1 when the seat to act, on lead, can split its hand into safe plays,
    answered plays and at most one last play of any kind (see the claim
    above), 3 when all the plays of the split are safe; 0 when no such split was found; -1 on a
    buffer overflow.
    Following (a standing play on the table), 1 when the hand is one play
    that beats the table (the mover goes out at once), or splits as above
    with one of the safe plays beating the table: the mover plays that one
    first; nobody beats it (the opponents cannot, the partner passes), so
    every other holder passes, the round ends and the mover, still holding
    cards, has the lead with the rest of the split: the claim above applies.
    The first play may also be the unsafe one of an answered pair, when it
    beats the table: the mover plays it; if an opponent beats it, the
    answer beats that, exactly as when it was led (see the claim)."""
    cdef int me = st.turn, q, nq = 0, n, i, k, mask = ALL_TYPES, r, left, budget, anydom = 0
    cdef int steps = RO_STEPS
    cdef uint64_t covered, bare, hw
    cdef uint64_t* pw
    cdef int all_safe_ok, one_unsafe_ok
    cdef ROEntry* e
    cdef HSum hs[2]
    cdef HSum* h
    cdef CPlay* buf = cx.pool + sp
    cdef u8* safe
    cdef u8 conc[54]
    e = &cx.roc[key & ((1 << ROC_BITS) - 1)]
    if e.key == key:
        return e.res
    for q in range(4):
        if (q & 1) != (me & 1) and st.ncards[q]:
            h = hand_summary(cx, st, q, buf, SPOOL - sp)
            if h == NULL:
                return -1
            hs[nq] = h[0]
            nq += 1
    if not (st.seqmask >> me) & 1:
        mask &= ~SEQ_TYPES
    n = lead_plays(cx, st, mask, buf, SPOOL - sp)
    if n < 0:
        return -1
    left = st.ncards[me]
    # answered plays (see the claim above): their sizes add up to less than
    # every opponent's card count, so that none goes out meanwhile
    budget = 0
    if RO_PAIRS:
        budget = 99
        for q in range(4):
            if (q & 1) != (me & 1) and st.ncards[q] and st.ncards[q] - 1 < budget:
                budget = st.ncards[q] - 1
    # the safety flags live in the score array of this ply (unused yet):
    # bit 0 safe, bit 1 safe and (following) beats the table, bit 2 safe and
    # dominant (it may answer an unsafe play, see the claim above), bit 3
    # (following) beats the table, safe or not
    safe = <u8*>(cx.scores + sp)
    if st.owner >= 0:
        # following: out at once with a play that beats the table (1), else
        # no split can work without a play that beats the table, safe or
        # answered (the cheap answer for most followers: no full safety, so
        # only the plays that beat the table are judged here)
        r = 0
        for i in range(n):
            safe[i] = 0
            if c_beats(&buf[i], &st.table, cx.lv):
                if buf[i].size == left:
                    r = 1
                    break
                safe[i] = 11 if ro_safe(hs, nq, &buf[i], cx.lv) else 8
                if (safe[i] & 1) or ro_answerable(&buf[i], budget):
                    r = 2
        if r != 2:
            e.key = key
            e.res = r
            return r
    for i in range(n):
        if st.owner < 0 or not (safe[i] & 8):   # judged above when beating the table
            safe[i] = ro_safe(hs, nq, &buf[i], cx.lv)
        if (safe[i] & 1) and not bomb_class(&buf[i]) and ro_dominates(hs, nq, &buf[i], cx.lv):
            safe[i] |= 4
            anydom = 1
    # the rank-count words of the hand and of its plays (after the plays)
    if (SPOOL - sp - n) * <int>sizeof(CPlay) < n * <int>sizeof(uint64_t):
        return -1
    pw = <uint64_t*>(buf + n)
    hw = (st.nib[me] | (<uint64_t>st.hand[me][SUIT_H * 13 + cx.lv] << (4 * cx.lv))
          | (<uint64_t>st.hand[me][52] << 56) | (<uint64_t>st.hand[me][53] << 60))
    for i in range(n):
        pw[i] = ro_word(&buf[i], cx.lv)
    memcpy(conc, st.hand[me], 54)
    # a quick necessary condition first: the cards of rank slots no safe
    # play touches must all go into the one play allowed to be unsafe
    covered = 0
    for i in range(n):
        if safe[i] & 1:
            covered |= nib_nonzero(pw[i])
    bare = nib_nonzero(hw) & ~covered
    # with bare slots there is no all-safe split, and a split with one
    # unsafe play needs a play holding every card of the bare slots
    all_safe_ok = not bare or not RO_FILTER
    one_unsafe_ok = all_safe_ok
    if not one_unsafe_ok:
        for i in range(n):
            if not (safe[i] & 1) and (pw[i] & (bare * 0xF)) == (hw & (bare * 0xF)):
                one_unsafe_ok = 1
                break
    # all plays safe first (3: then the continuation is known, see
    # st_after_runout), else one last play of any kind (1)
    r = 0
    if all_safe_ok:
        r = ro_cover(buf, pw, safe, n, hw, conc, 0, &steps, st.owner < 0, 0)
    if r > 0:
        r = 3
    else:
        # unsafe plays answered by dominant ones (budget above)
        if not anydom:
            budget = 0
        if one_unsafe_ok or budget > 0:
            steps = RO_STEPS
            r = ro_cover(buf, pw, safe, n, hw, conc, 1, &steps, st.owner < 0, budget)
            r = 1 if r > 0 else 0
    e.key = key
    e.res = r
    return r



cdef inline void st_after_runout(const SState* st, SState* out) noexcept nogil:
    """The position after the seat to act has run out with a split whose
    plays are ALL safe (runout() == 3): its cards gone, every other hand
    unchanged, the seat appended to the finishing order and its partner on
    lead (接风: nobody beat the last play either, and its owner is out).
    With an unsafe last play this is not the continuation (an opponent may
    beat that play), so it is only used for all-safe splits. The caller
    makes sure the partner still holds cards."""
    cdef int me = st.turn
    out[0] = st[0]
    memset(out.hand[me], 0, 54)
    out.nib[me] = 0
    out.om[me] = 0
    out.skey[me] = 0
    out.hkey = out.skey[0] ^ out.skey[1] ^ out.skey[2] ^ out.skey[3]
    out.ncards[me] = 0
    out.rkdirty |= 1 << me
    out.seqmask &= ~(1 << me)
    out.fin[out.nfin] = me
    out.nfin += 1
    out.owner = -1
    out.passes = 0
    out.turn = me ^ 2


cdef inline int runout_bounds(const SState* st, int* lo, int* hi) noexcept nogil:
    """Narrow [lo, hi] (value for team 0) given that the seat to act will
    finish next (see the claim above). Returns 1 when the value is exact."""
    cdef int me = st.turn, f, sgn, v
    if st.nfin == 0:
        if (me & 1) == 0:
            if lo[0] < 1:
                lo[0] = 1
        elif hi[0] > -1:
            hi[0] = -1
        return 0
    f = st.fin[0]
    sgn = 1 if f % 2 == 0 else -1
    if st.nfin == 1:
        if f == (me ^ 2):
            lo[0] = hi[0] = 3 * sgn
            return 1
        # an opponent of the mover is first: its team gains 1 or 2
        if sgn > 0:
            if hi[0] > 2:
                hi[0] = 2
        elif lo[0] < -2:
            lo[0] = -2
        return 0
    # two out, one per team: the mover is third
    v = 2 if f == (me ^ 2) else 1
    lo[0] = hi[0] = v * sgn
    return 1




cdef int runout_cut(SCtx* cx, const SState* st, int ro, int alpha, int beta, int sp,
                    int* lo_s, int* hi_s, int* out) noexcept nogil:
    """The run-out bound at a node (the seat to act can run out). Returns 1
    with out set to the node's (fail-soft) value when it decides the test
    [alpha, beta], else 0 or 2 with lo_s / hi_s narrowed; 2: the caller
    searches the position after the run-out (st_after_runout) and cuts when
    runout_after_cuts says so. Beyond runout_bounds:
    the mover's team can force the position after the run-out (see
    st_after_runout), so that position's value bounds the node's from the
    mover's side (a lower bound for team 0 movers, an upper one for team 1);
    a null-window search of it that fails on the mover's side (>= beta for
    team 0, <= alpha for team 1) cuts the node with the same fail-soft value."""
    cx.runouts += 1
    if runout_bounds(st, lo_s, hi_s):
        out[0] = lo_s[0]           # exact: a genuine terminal
        return 1
    if lo_s[0] >= beta:
        out[0] = lo_s[0]
        return 1
    if hi_s[0] <= alpha:
        out[0] = hi_s[0]
        return 1
    # 2: the caller searches the position after the run-out (all-safe
    # splits only: ro == 3)
    return 2 if (RUNOUT_ON & 4) and ro == 3 else 0


cdef inline int runout_after_cuts(const SState* st, int v, int alpha, int beta) noexcept nogil:
    """Does v, the fail-soft value of the position after the run-out, cut the
    node (see runout_cut)?"""
    if (st.turn & 1) == 0:
        return v >= beta
    return v <= alpha


cdef inline int pass_forced(SCtx* cx, SState* st, int sp) noexcept nogil:
    """A follower who cannot beat the table passes, and so does every seat
    after it that cannot beat it either: st moves on to the first seat with
    a choice (or to the next lead). The number of passes made; -1 on a
    buffer overflow."""
    cdef HSum* hs
    cdef int k = 0
    while st.owner >= 0:
        hs = hand_summary(cx, st, st.turn, cx.pool + sp, SPOOL - sp)
        if hs == NULL:
            return -1
        if can_beat(hs, &st.table, cx.lv):
            break
        st_pass(st)
        k += 1
    return k


cdef int GOAL_AWARE = 1    # the goal in the refutation key, no best move from fail-low nodes
def _set_goal_aware(int on):
    global GOAL_AWARE
    GOAL_AWARE = on


cdef int LAZY_ORDER = 1
def _set_lazy_order(int on):
    global LAZY_ORDER
    LAZY_ORDER = on


cdef int search(SCtx* cx, const SState* st, int alpha, int beta, int sp,
                int passed=0) noexcept nogil:
    """Fail-soft alpha-beta value (team 0) of a non-terminal position.
    passed: the caller has made the forced passes already (pass_forced)."""
    cdef int lo_s, hi_s, n, i, v, best, maxi, a0 = alpha, b0 = beta, wl, ro
    cdef int elo, ehi, ework
    cdef uint32_t eb
    cdef long long nodes0 = cx.nodes, work
    cdef uint64_t key, rok, rk = 0
    cdef uint32_t refut
    cdef TTEntry* e
    cdef uint32_t besth = 0, bh = 0
    cdef CPlay* buf
    cdef int* sc
    cdef SState child
    cdef CPlay tmpm
    cdef int j, jo, jr, lazy
    cdef uint32_t mid
    cx.nodes += 1
    if check_limits(cx):
        return 0
    st_static_bounds(st, &lo_s, &hi_s)
    if lo_s >= beta:
        return lo_s
    if hi_s <= alpha:
        return hi_s
    # forced passes (pass_forced): one node for the whole run, no key, no
    # table entry; the move loop below makes them in its children before
    # calling search, so only the other callers get here with them to make
    if not passed and st.owner >= 0:
        child = st[0]
        i = pass_forced(cx, &child, sp)
        if i < 0:
            cx.abort = 2
            return 0
        if i:
            return search(cx, &child, alpha, beta, sp, 1)
    # the run-out cache and table entries are fetched from memory while the
    # keys are computed and the run-out is tested (they are cache misses)
    rok = 0
    if RUNOUT_ON & (1 if st.owner < 0 else 2):
        rok = runout_key(cx, st)
        __builtin_prefetch(&cx.roc[rok & ((1 << ROC_BITS) - 1)])
    key = st_key(st, cx.lv)
    e = &cx.tt[key & cx.ttmask & ~(<uint64_t>1)]
    __builtin_prefetch(e)
    if cx.order_flags & 4:
        # the refutation table's entry too (another cache miss)
        rk = refutation_key(cx, st, beta if GOAL_AWARE else 0)
        __builtin_prefetch(&cx.kt[rk & ((1 << KT_BITS) - 1)])
    if rok:
        ro = runout(cx, st, sp, rok)
        if ro < 0:
            cx.abort = 2
            return 0
        if ro:
            ro = runout_cut(cx, st, ro, alpha, beta, sp, &lo_s, &hi_s, &v)
            if ro == 1:
                return v
            if ro == 2:
                st_after_runout(st, &child)
                v = search(cx, &child, alpha, beta, sp)
                if cx.abort:
                    return 0
                if runout_after_cuts(st, v, alpha, beta):
                    return v
    # two-entry buckets (e, fetched above): the deeper (more work) entry and
    # an always-replace one
    if tt_get(e, key, &elo, &ehi, &ework, &besth) or \
            tt_get(e + 1, key, &elo, &ehi, &ework, &besth):
        if elo >= beta:
            return elo
        if ehi <= alpha:
            return ehi
        if elo == ehi:
            return elo
        if elo > lo_s:
            lo_s = elo
        if ehi < hi_s:
            hi_s = ehi
    buf = cx.pool + sp
    sc = cx.scores + sp
    n = gen_moves(cx, st, buf, SPOOL - sp)
    if n < 0:
        cx.abort = 2
        return 0
    if n == 1 and buf[0].size == 0:
        # a forced pass: no choice, nothing worth a table entry
        child = st[0]
        st_pass(&child)
        return search(cx, &child, alpha, beta, sp)
    refut = 0
    if cx.order_flags & 4:
        refut = refutation_probe(cx, rk)
    # the move to try first when the table, a move that goes out or the
    # refutation table names one (in that order, as order_moves ranks
    # them): it is searched before the others are scored, since it cuts
    # most nodes and the scores (minimum plays after each move) cost more
    # than a node
    lazy = -1
    if LAZY_ORDER and (besth or refut):
        jo = -1
        jr = -1
        for j in range(n):
            mid = move_id(&buf[j])
            if mid == besth:
                lazy = j
                break
            if jo < 0 and buf[j].size == st.ncards[st.turn]:
                jo = j
            elif jr < 0 and mid == refut:
                jr = j
        if lazy < 0:
            lazy = jo if jo >= 0 else jr
    if lazy >= 0:
        if lazy:
            tmpm = buf[0]; buf[0] = buf[lazy]; buf[lazy] = tmpm
        # the others are scored after it (below) with the refutation move's
        # bonus, unless that is the move taken first
        if move_id(&buf[0]) == refut:
            refut = 0
    elif order_moves(cx, st, buf, sc, n, besth, sp, refut) < 0:
        cx.abort = 2
        return 0
    maxi = (st.turn & 1) == 0
    best = -VINF if maxi else VINF
    for i in range(n):
        if lazy >= 0 and i == 1:
            if order_moves(cx, st, buf + 1, sc + 1, n - 1, 0, sp + 1, refut) < 0:
                cx.abort = 2
                return 0
        if lazy < 0 or i > 0:
            pick_next(buf, sc, i, n)
        child = st[0]
        st_apply_cx(cx, &child, &buf[i], sp + n)
        if st_team_out(&child):
            v = st_final_value(&child)
        else:
            if pass_forced(cx, &child, sp + n) < 0:
                cx.abort = 2
                return 0
            v = search(cx, &child, alpha, beta, sp + n, 1)
            if cx.abort:
                return 0
        if maxi:
            if v > best:
                best = v
                bh = move_id(&buf[i])
                if best >= beta or best >= hi_s:
                    if i and (cx.order_flags & 2):
                        hist_bump(cx, st.turn, &buf[i])
                    if cx.order_flags & 4:
                        refutation_store(cx, rk, bh)
                    break
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bh = move_id(&buf[i])
                if best <= alpha or best <= lo_s:
                    if i and (cx.order_flags & 2):
                        hist_bump(cx, st.turn, &buf[i])
                    if cx.order_flags & 4:
                        refutation_store(cx, rk, bh)
                    break
                if best < beta:
                    beta = best
    # store the bound
    work = cx.nodes - nodes0
    wl = 0
    while work > 1 and wl < 60:
        work >>= 1
        wl += 1
    if tt_get(e, key, &elo, &ehi, &ework, &eb):
        pass
    elif tt_get(e + 1, key, &elo, &ehi, &ework, &eb):
        e = e + 1
    else:
        # a new entry: into the first slot when it holds less work (its
        # old entry moves to the second slot when that one holds even less),
        # else into the second slot
        if tt_work(e) <= wl:
            if tt_work(e + 1) < tt_work(e) or e[1].kx == 0:
                e[1] = e[0]
        else:
            e = e + 1
        st_static_bounds(st, &elo, &ehi)
        ework = 0
        eb = 0
    if wl > ework:
        ework = wl
    # a node where every move failed for the mover names no best move (bh
    # is then just the first move searched, and a later search with another
    # goal would try it first): the entry keeps the move it had. Together
    # with the goal in the refutation key, this keeps the tests of one goal
    # from ordering those of another (two threads interleave them)
    if GOAL_AWARE and ((best <= a0) if maxi else (best >= b0)):
        bh = eb
    if best >= b0:
        if best > elo:
            elo = best
    elif best <= a0:
        if best < ehi:
            ehi = best
    else:
        elo = best
        ehi = best
    tt_put(e, key, elo, ehi, ework, bh)
    return best


cdef inline int next_value_up(int t) noexcept nogil:
    return 1 if t == 0 else t


cdef void drive(SCtx* cx, const SState* st, int sp, int* plo, int* phi,
                int first=0) noexcept nogil:
    """Exact value of a position by null-window tests. On entry [plo, phi]
    is a range known to hold the value; on exit the proven range, a single
    value unless a limit stopped the search. first: 0, or the threshold of
    the first test (value >= first?), e.g. the bound a root move most likely
    reaches; the tests only choose the order of the proof, never the value."""
    cdef int lo, hi, t, g, k, m
    cdef int vals[6]
    if st_team_out(st):
        plo[0] = phi[0] = st_final_value(st)
        return
    st_static_bounds(st, &lo, &hi)
    if plo[0] > lo:
        lo = plo[0]
    if phi[0] < hi:
        hi = phi[0]
    while lo < hi and not cx.abort:
        # the median of the outcomes t with lo < t <= hi; test value >= t
        m = 0
        for k in range(-3, 4):
            if k != 0 and lo < k <= hi:
                vals[m] = k
                m += 1
        t = vals[m // 2]
        # once the sign is known, the smallest gain left first (+1 and -1
        # are the likeliest outcomes; the median would test >= 3 before
        # >= 2 and pay for both when the value is 1)
        if DRIVE_LOW and lo >= 1:
            t = vals[0]
        elif DRIVE_LOW and hi <= -1:
            t = vals[m - 1]
        if first and lo < first <= hi:
            t = first
        first = 0
        g = search(cx, st, t - 1, t, sp)
        if cx.abort:
            break
        if g >= t:
            lo = g
        else:
            hi = -1 if g == 0 else g
    plo[0] = lo
    phi[0] = hi


cdef int pv_line(SCtx* cx, const SState* start, int value, int sp, int* seats,
                 CPlay* plays, int maxlen) noexcept nogil:
    """A principal variation from a position of known value: at each node the
    first move (in search order) whose exact value equals the node's."""
    cdef SState cur = start[0], child
    cdef int n, i, g, length = 0, found
    cdef CPlay* buf
    cdef int* sc
    while length < maxlen and not st_team_out(&cur) and not cx.abort:
        buf = cx.pool + sp
        sc = cx.scores + sp
        n = gen_moves(cx, &cur, buf, SPOOL - sp)
        if n < 0:
            cx.abort = 2
            break
        if order_moves(cx, &cur, buf, sc, n, 0, sp) < 0:
            cx.abort = 2
            break
        found = 0
        for i in range(n):
            pick_next(buf, sc, i, n)
            child = cur
            st_apply_cx(cx, &child, &buf[i], sp + n)
            # every child is worth at most (at least, for team 1) the node's
            # value: one null-window test tells whether it reaches it
            if st_team_out(&child):
                g = st_final_value(&child)
            elif (cur.turn & 1) == 0:
                g = search(cx, &child, value - 1, value, sp + n)
            else:
                g = search(cx, &child, value, value + 1, sp + n)
            if cx.abort:
                break
            if g == value or ((cur.turn & 1) == 0 and g > value) or \
                    ((cur.turn & 1) == 1 and g < value):
                seats[length] = cur.turn
                plays[length] = buf[i]
                length += 1
                cur = child
                found = 1
                break
        if not found:
            break
    return length


# ----------------------------------------------------------------------------
# Python boundary
# ----------------------------------------------------------------------------

cdef class EndgameSearch:
    """The compiled search over one position (used by ``endgame.solve``).

    ``hands``: a (4, 54) uint8 count array; ``table``: the standing Play or
    None; ``finished``: the seats out, in order. The position must already be
    validated (``endgame.Position`` does that) and not be over.
    """
    cdef SCtx cx
    cdef SState root
    cdef CPlay* rootmoves
    cdef int nroot
    cdef int started
    cdef object _progress
    cdef EndgameSearch _shared     # the search whose table this one uses
    cdef int owns_tt
    cdef char* caches              # hsum, mpc, mc, roc and kt, one block

    def __cinit__(self, const u8[:, ::1] hands, int lv, int flags, int turn,
                  Play table=None, int owner=-1, int passes=0, finished=(),
                  int tt_bits=20, EndgameSearch share=None):
        cdef int s, c, i, n
        cdef u8 v
        cdef size_t sz_h, sz_m, sz_c, sz_r, sz_k, total
        memset(&self.cx, 0, sizeof(SCtx))
        memset(&self.root, 0, sizeof(SState))
        self.rootmoves = NULL
        if hands.shape[0] != 4 or hands.shape[1] != 54:
            raise ValueError("hands must be a (4, 54) count array")
        if not 10 <= tt_bits <= 28:
            raise ValueError("tt_bits must be in 10..28")
        self.cx.lv = lv
        self.cx.flags = flags
        if share is None:
            self.cx.tt = <TTEntry*>big_alloc((<size_t>1 << tt_bits) * sizeof(TTEntry))
            self.owns_tt = 1
        else:
            # a worker for another thread: the same position, its own
            # buffers and caches, the other search's transposition table
            if share.cx.lv != lv or share.cx.flags != flags:
                raise ValueError("a shared table needs the same rules")
            self._shared = share
            self.cx.tt = share.cx.tt
            self.cx.ttmask = share.cx.ttmask
        self.cx.pool = <CPlay*>malloc(SPOOL * sizeof(CPlay))
        self.cx.scores = <int*>malloc(SPOOL * sizeof(int))
        self.rootmoves = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
        # the per-hand caches, read at random, in one block (in huge pages
        # for large searches; small ones keep calloc's lazily zeroed pages,
        # cheaper to set up)
        sz_h = ((1 << HSUM_BITS) * sizeof(HSum) + 63) & ~(<size_t>63)
        sz_m = ((1 << MPC_BITS) * sizeof(MPEntry) + 63) & ~(<size_t>63)
        sz_c = ((1 << MC_BITS) * sizeof(MCEntry) + 63) & ~(<size_t>63)
        sz_r = ((1 << ROC_BITS) * sizeof(ROEntry) + 63) & ~(<size_t>63)
        sz_k = (<size_t>1 << KT_BITS) * sizeof(uint64_t)
        total = sz_h + sz_m + sz_c + sz_r + sz_k
        if tt_bits >= 20:
            if total < (2 << 20):
                total = 2 << 20
            self.caches = <char*>big_alloc(total)
            if self.caches != NULL:
                memset(self.caches, 0, total)
        else:
            self.caches = <char*>calloc(total, 1)
        if self.caches != NULL:
            self.cx.hsum = <HSum*>self.caches
            self.cx.mpc = <MPEntry*>(self.caches + sz_h)
            self.cx.mc = <MCEntry*>(self.caches + sz_h + sz_m)
            self.cx.roc = <ROEntry*>(self.caches + sz_h + sz_m + sz_c)
            self.cx.kt = <uint64_t*>(self.caches + sz_h + sz_m + sz_c + sz_r)
        self.cx.dws = new_decomp_work()
        self.cx.arena = <CPlay*>malloc(ARENA * sizeof(CPlay))
        self.cx.agen = 1
        if not (self.cx.tt and self.cx.pool and self.cx.scores and self.rootmoves
                and self.cx.hsum and self.cx.mpc and self.cx.dws and self.cx.mc
                and self.cx.arena and self.cx.roc and self.cx.kt):
            raise MemoryError()
        if share is None:
            memset(self.cx.tt, 0, (<size_t>1 << tt_bits) * sizeof(TTEntry))
            self.cx.ttmask = (<uint64_t>1 << tt_bits) - 1
        self.cx.order_flags = DEFAULT_ORDER
        self.cx.safe_w = 0
        self.cx.pass_w = 5000
        for s in range(4):
            n = 0
            for c in range(54):
                v = hands[s, c]
                self.root.hand[s][c] = v
                self.root.skey[s] ^= Z_HAND[s][c][v]
                n += v
            self.root.ncards[s] = n
            self.root.hkey ^= self.root.skey[s]
        self.root.turn = turn
        self.root.lv = lv
        for s in range(4):
            for c in range(52):
                if c != SUIT_H * 13 + lv and self.root.hand[s][c]:
                    self.root.nib[s] += (<uint64_t>self.root.hand[s][c]) << (4 * order_of(c % 13, lv))
                    self.root.om[s] |= 1u << order_of(c % 13, lv)
        for s in range(4):
            if may_form_sequence(self.root.hand[s], self.root.ncards[s], lv, flags,
                                 self.cx.pool, SPOOL):
                self.root.seqmask |= 1 << s
        self.root.owner = owner if table is not None else -1
        self.root.passes = passes
        if table is not None:
            self.root.table = table.p
        self.root.nfin = len(finished)
        for i in range(self.root.nfin):
            self.root.fin[i] = finished[i]
        n = gen_moves(&self.cx, &self.root, self.cx.pool, SPOOL)
        if n < 0:
            raise RuntimeError("play buffer overflow")
        if order_moves(&self.cx, &self.root, self.cx.pool, self.cx.scores, n, 0, 0) < 0:
            raise RuntimeError("play buffer overflow")
        for i in range(n):
            pick_next(self.cx.pool, self.cx.scores, i, n)
        memcpy(self.rootmoves, self.cx.pool, n * sizeof(CPlay))
        self.nroot = n

    def __dealloc__(self):
        if self.owns_tt:
            free(self.cx.tt)
        free(self.cx.pool)
        free(self.cx.scores)
        free(self.rootmoves)
        free(self.caches)
        free(self.cx.dws)
        free(self.cx.arena)

    def set_progress(self, callback):
        """callback(nodes), called about every 2**18 nodes during a search;
        an exception in it stops the search (aborted == 3)."""
        self._progress = callback
        self.cx.progress_cb = NULL if callback is None else <void*>callback

    def set_limits(self, max_nodes=None, max_seconds=None):
        """Limits for everything solved from now on (nodes counted in total)."""
        self.cx.max_nodes = 0 if max_nodes is None else max(1, int(max_nodes))
        self.cx.deadline = 0.0 if max_seconds is None else now_seconds() + float(max_seconds)
        self.cx.abort = 0

    def stop(self):
        """Make a running search (in another thread) stop soon (aborted == 3)."""
        self.cx.abort = 3

    def cancel(self):
        """Make a running search stop soon because its answer is no longer
        needed (another thread found it): aborted == 4 until resume()."""
        if self.cx.abort == 0:
            self.cx.abort = 4

    def resume(self):
        """Clear a cancel() (and nothing else)."""
        if self.cx.abort == 4:
            self.cx.abort = 0

    @property
    def nodes(self):
        return self.cx.nodes

    @property
    def runouts(self):
        """Nodes where the sure run-out bound applied (statistics)."""
        return self.cx.runouts

    @property
    def aborted(self):
        """0, 1 (node or time limit reached), 2 (move buffer overflow), 3
        (interrupted: a signal, or the progress callback raised) or 4
        (cancelled by another thread)."""
        return self.cx.abort

    @property
    def turn(self):
        return self.root.turn

    @property
    def maximizing(self):
        """True when the seat to act is on team 0 (it maximises the value)."""
        return (self.root.turn & 1) == 0

    def moves(self):
        """The legal moves at the root, in search order: Play, or None (pass)."""
        cdef int i
        return [make_play(&self.rootmoves[i], self.cx.lv) if self.rootmoves[i].size
                else None for i in range(self.nroot)]

    def static_bounds(self):
        cdef int lo, hi
        st_static_bounds(&self.root, &lo, &hi)
        return lo, hi

    @property
    def order(self):
        """(flags, safe_w, pass_w): the move ordering knobs (set_order)."""
        return (self.cx.order_flags, self.cx.safe_w, self.cx.pass_w)

    def set_order(self, int flags, int safe_w, int pass_w):
        """Tuning knobs of the move ordering (values never depend on them):
        flags bit 0 orders by the minimum plays left after a move; safe_w is
        the bonus of a play nobody can beat; pass_w the malus of a pass when
        an opponent owns the table; bit 1 adds a history heuristic; bit 2
        the refutation table (see refutation_key). The defaults (5, 0, 5000)
        measured best on random 4x6 and 4x8 endgames."""
        self.cx.order_flags = flags
        self.cx.safe_w = safe_w
        self.cx.pass_w = pass_w

    def solve_root(self):
        """(lo, hi): the proven bounds on the value of the root position."""
        cdef int lo = -3, hi = 3
        with nogil:
            drive(&self.cx, &self.root, 0, &lo, &hi)
        return lo, hi

    def solve_move(self, int i, int lo=-3, int hi=3, int first=0):
        """(lo, hi): the proven bounds on the value of root move i; lo and
        hi on entry: a range known to hold it (e.g. from the root value);
        first: the threshold of the first null-window test (0: the median)."""
        cdef SState child
        if not 0 <= i < self.nroot:
            raise IndexError(i)
        child = self.root
        st_apply_cx(&self.cx, &child, &self.rootmoves[i], 0)
        with nogil:
            drive(&self.cx, &child, 0, &lo, &hi, first)
        return lo, hi

    def line_after(self, int i, int value, int maxlen=MAXPV):
        """A principal variation after root move i, whose value is known:
        a list of (seat, Play or None)."""
        cdef SState child
        cdef int n, k
        cdef int seats[MAXPV]
        cdef CPlay* plays = <CPlay*>malloc(MAXPV * sizeof(CPlay))
        if plays == NULL:
            raise MemoryError()
        if maxlen > MAXPV:
            maxlen = MAXPV
        try:
            child = self.root
            st_apply_cx(&self.cx, &child, &self.rootmoves[i], 0)
            with nogil:
                n = pv_line(&self.cx, &child, value, 0, seats, plays, maxlen)
            return [(seats[k], make_play(&plays[k], self.cx.lv) if plays[k].size
                     else None) for k in range(n)]
        finally:
            free(plays)


def _debug_key(const u8[:, ::1] hands, int lv, int flags, int turn, Play table=None,
               int owner=-1, int passes=0, finished=()):
    """(relabeled key, exact key, seqmask) of a position (for tests)."""
    cdef EndgameSearch e = EndgameSearch(hands, lv, flags, turn, table, owner, passes,
                                         finished, 10)
    return (st_key_relabeled(&e.root, lv), e.root.hkey ^ st_key_rest(&e.root, e.root.table.rank),
            e.root.seqmask)


def _debug_child_keys(const u8[:, ::1] hands, int lv, int flags, int turn, Play table=None,
                      int owner=-1, int passes=0, finished=()):
    """The relabelled key of the position after each root move, the move
    played by the search's own state update (st_apply_cx: the rank-count
    words kept up to date play by play), deals over left out (for tests:
    they must equal the keys of the same positions built from scratch)."""
    cdef EndgameSearch e = EndgameSearch(hands, lv, flags, turn, table, owner, passes,
                                         finished, 10)
    cdef SState child
    cdef int i
    out = []
    for i in range(e.nroot):
        child = e.root
        st_apply_cx(&e.cx, &child, &e.rootmoves[i], 0)
        if not st_team_out(&child):
            out.append(st_key_relabeled(&child, lv))
    return out
