# The endgame search's position (SState) and the rules of play on it
# (RULES §6). Included by _core.pyx; the search is split into:
#   _state.pxi     the position and how a move changes it (this file)
#   _keys.pxi      Zobrist keys, the relabelled key, move hashes
#   _ttable.pxi    the lockless transposition table
#   _context.pxi   a search's context (SCtx): caches, limits, the abort flag
#   _movegen.pxi   move generation, hand summaries, move order, refutations
#   _runout.pxi    the sure run-out bound and its proof
#   _search.pxi    the alpha-beta search, its pruning rules, the driver
#   _driver.pxi    EndgameSearch, the Python boundary
#
# A node is an SState: the four hands as 54-count arrays, the seat to act,
# the standing play with its owner and the passes since it was played (or a
# free lead), and the finishing order so far. Play follows RULES §6:
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
# Moves are patterns (RULES §8): one per pattern as enumerate_plays returns
# them, with the concrete cards it chooses (free copies before the cards of
# completable straight flushes). Plays that differ only in the suits of
# non-wild cards outside straight flushes are merged into that one move.
# Soundness of the merge: two such plays have the same type, rank and size,
# so they beat and are beaten by the same plays (RULES §4 compares those
# only), and they leave hands that differ only in which suited copies of
# the same ranks remain. Outside straight flushes no rule reads a natural
# card's suit, so the two continuations are the same game up to renaming
# suits, except for straight flushes the hand could still form; the
# enumeration's choice keeps exactly those cards (it spends free copies
# first), so the merged move is at least as good for the mover as any play
# it stands for and the value of the node is unchanged.
#
# The search is alpha-beta at team level (team 0 = seats 0 and 2 maximises
# the value, team 1 minimises it) over the six outcomes -3..-1, 1..3, driven
# by null-window tests, with a fixed-size transposition table of bounds keyed
# by a Zobrist hash of the position. No Python objects are touched inside;
# everything below `search` runs without the GIL.

from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.stdlib cimport calloc
from cpython.exc cimport PyErr_CheckSignals

cdef extern from "gf_port.h":
    # compiler builtins and system calls (gf_port.h: GCC, clang and MSVC)
    int popcount "gf_popcount"(unsigned int) nogil
    int ctz "gf_ctz"(unsigned int) nogil
    int ctzll "gf_ctzll"(unsigned long long) nogil
    void prefetch "gf_prefetch"(const void*) nogil
    uint64_t pext_hw "gf_pext_hw"(uint64_t x, uint64_t m) nogil
    void gf_pext_init() nogil
    int gf_use_pext
    double now_seconds "gf_now_seconds"() nogil
    void* big_alloc "gf_big_alloc"(size_t n) nogil
    void big_free "gf_big_free"(void* p) nogil
    ctypedef int gf_flag
    int flag_load "gf_flag_load"(const gf_flag* p) nogil
    void flag_store "gf_flag_store"(gf_flag* p, int v) nogil
    int flag_cas "gf_flag_cas"(gf_flag* p, int expected, int desired) nogil

DEF SPOOL = 1 << 18      # plays in the shared move pool (all plies together)
DEF VINF = 4
DEF MAXPV = 512
DEF SEQ_TYPES = (1 << T_STRAIGHT) | (1 << T_TUBE) | (1 << T_PLATE) | (1 << T_STRAIGHT_FLUSH)

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


cdef inline int is_seq_type(int t) noexcept nogil:
    return t == T_STRAIGHT or t == T_TUBE or t == T_PLATE or t == T_STRAIGHT_FLUSH


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


