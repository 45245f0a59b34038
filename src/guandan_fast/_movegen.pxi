# Move generation and move order of the endgame search (included by
# _core.pyx; see _state.pxi): the moves of a node, per-hand summaries (what
# a seat can beat with), the scores that order the moves and the refutation
# table. Only generation decides what is searched; everything else here
# orders moves, and the order of the moves never changes a value (alpha-beta
# returns the minimax value whatever the order; only the work differs).

cdef inline void st_apply_cx(SCtx* cx, SState* st, const CPlay* p, int sp) noexcept nogil:
    """st_apply, then keep seqmask up to date (the hand that shrank may have
    lost its last sequence play)."""
    cdef int s = st.turn
    st_apply(st, p)
    if p.size and (st.seqmask >> s) & 1:
        if not may_form_sequence(st.hand[s], st.ncards[s], cx.lv, cx.flags,
                                 cx.pool + sp, SPOOL - sp):
            st.seqmask &= ~(1 << s)


cdef int seat_plays(SCtx* cx, const SState* st, int q, int mask, CPlay* buf,
                    int cap) noexcept nogil:
    """enumerate_plays of seat q's hand, through a cache keyed by the hand."""
    cdef uint64_t key = st.skey[q]
    if mask == ALL_TYPES:
        key ^= Z_MC[q][0]
    elif mask == ALL_TYPES & ~SEQ_TYPES:
        key ^= Z_MC[q][1]
    else:
        key ^= smix(<uint64_t>(q * 4096 + mask) + 99)
    cdef MCEntry* e = &cx.mc[key & ((1 << MC_BITS) - 1)]
    cdef int n
    if e.key == key and e.gen == cx.agen:
        if e.n > cap:
            return -1
        memcpy(buf, cx.arena + e.start, e.n * sizeof(CPlay))
        return e.n
    n = enumerate_plays(st.hand[q], cx.lv, cx.flags, mask, buf, cap)
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


cdef inline int lead_plays(SCtx* cx, const SState* st, int mask, CPlay* buf,
                           int cap) noexcept nogil:
    """enumerate_plays of the seat to act, through a cache keyed by the hand."""
    return seat_plays(cx, st, st.turn, mask, buf, cap)


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
    for t in range(NTYPE):
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


cdef void order_moves(SCtx* cx, const SState* st, CPlay* buf, int* sc, int n,
                      uint32_t besth, uint32_t refut=0) noexcept nogil:
    """Scores for the moves (higher first): the transposition-table move
    (besth), going out, the refutation-table move (refut, a move hash or 1
    for the pass), then few plays left in the hand (the exact minimum number
    of plays after the move), more cards, low ranks, bombs last; a pass first
    when the partner owns the table, else last but for the pass weight.
    (Measured and kept out, see docs/performance.md: a history heuristic and
    a bonus for plays nobody can beat.)"""
    cdef int me = st.turn, i, bc, mp0 = -1, mp, s
    cdef uint32_t mid
    cdef int partner_owns = st.owner >= 0 and (st.owner & 1) == (me & 1)
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
                    mp0 = search_mp_after(cx, st, me, &buf[i])
                sc[i] = -mp0 * 10000 - cx.pass_w
            continue
        if buf[i].size == st.ncards[me]:
            sc[i] = 80000000
            continue
        mp = search_mp_after(cx, st, me, &buf[i])
        bc = bomb_class(&buf[i])
        s = -mp * 10000 + buf[i].size * 1000 - rank_key(&buf[i], cx.lv) * 10
        if bc:
            s -= 30000 + bc * 100
        if partner_owns:
            s -= 2000
        sc[i] = s


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

