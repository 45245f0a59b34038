# The Python boundary of the endgame search (included by _core.pyx; see
# _state.pxi): EndgameSearch, used by engine/endgame.py.

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
                  int tt_bits=20, EndgameSearch share=None, int pass_weight=5000):
        cdef int i
        memset(&self.cx, 0, sizeof(SCtx))
        memset(&self.root, 0, sizeof(SState))
        self.rootmoves = NULL
        if hands.shape[0] != 4 or hands.shape[1] != 54:
            raise ValueError("hands must be a (4, 54) count array")
        if not 10 <= tt_bits <= 28:
            raise ValueError("tt_bits must be in 10..28")
        # what the search relies on (endgame.Position checks all of it with
        # clear errors; this is the last line for direct callers)
        if not 0 <= lv <= 12 or flags & ~(F_JOKER_PAIR_FH | F_FLUSH_ALWAYS_BOMB):
            raise ValueError("level index 0..12 and known flags expected")
        if not 0 <= turn <= 3 or not -1 <= owner <= 3 or not 0 <= passes <= 2:
            raise ValueError("turn 0..3, owner -1..3 and passes 0..2 expected")
        if (table is None) != (owner == -1) or (table is not None and table.level_index != lv):
            raise ValueError("a table play (at this level) goes with its owner")
        if len(finished) > 3 or len(set(finished)) != len(finished) or \
                any(not 0 <= x <= 3 for x in finished):
            raise ValueError("finished: at most three distinct seats 0..3")
        for s in range(4):
            n = 0
            for c in range(54):
                if hands[s, c] > 2:
                    raise ValueError("a hand holds 0..2 copies of a card")
                n += hands[s, c]
            if n > 27:
                raise ValueError("a hand holds at most 27 cards")
        if not any(hands[turn, c] for c in range(54)):
            raise ValueError("the seat to act holds no cards")
        self.cx.lv = lv
        self.cx.flags = flags
        self.cx.pass_w = pass_weight
        if share is not None:
            # a worker for another thread: the same position, its own
            # buffers and caches, the other search's transposition table
            if share.cx.lv != lv or share.cx.flags != flags:
                raise ValueError("a shared table needs the same rules")
            self._shared = share
            self.cx.tt = share.cx.tt
            self.cx.ttmask = share.cx.ttmask
        self.owns_tt = share is None
        self.rootmoves = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
        if ctx_alloc(&self.cx, tt_bits, self.owns_tt, &self.caches) < 0 or self.rootmoves == NULL:
            raise MemoryError()
        st_init_hands(&self.cx, &self.root, hands, turn)
        self.root.owner = owner if table is not None else -1
        self.root.passes = passes
        if table is not None:
            self.root.table = table.p
        self.root.nfin = len(finished)
        for i in range(self.root.nfin):
            self.root.fin[i] = finished[i]
        self.nroot = root_moves(&self.cx, &self.root, self.rootmoves)
        if self.nroot < 0:
            raise RuntimeError("play buffer overflow")

    def __dealloc__(self):
        if self.owns_tt:
            big_free(self.cx.tt)
        free(self.cx.pool)
        free(self.cx.scores)
        free(self.rootmoves)
        big_free(self.caches)
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
        set_abort(&self.cx, 0)

    def stop(self):
        """Make a running search (in another thread) stop soon (aborted == 3)."""
        set_abort(&self.cx, 3)

    def cancel(self):
        """Make a running search stop soon because its answer is no longer
        needed (another thread found it): aborted == 4 until resume(). An
        atomic compare-and-swap: a limit or an interruption the search has
        reported is never turned into a cancellation."""
        flag_cas(&self.cx.abort, 0, 4)

    def resume(self):
        """Clear a cancel() (and nothing else: compare-and-swap)."""
        flag_cas(&self.cx.abort, 4, 0)

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
        return aborted(&self.cx)

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
    def pass_weight(self):
        """The move order's malus of a pass when an opponent owns the table
        (order_moves; values never depend on it, only the work). 5000 by
        default; the scheduler of engine/endgame.py gives a thread helping
        another with the same move another weight, so the two drift apart."""
        return self.cx.pass_w

    @pass_weight.setter
    def pass_weight(self, int w):
        self.cx.pass_w = w

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
        if not 0 <= i < self.nroot:
            free(plays)
            raise IndexError(i)
        if not -3 <= value <= 3 or value == 0:
            free(plays)
            raise ValueError("a value is -3..-1 or 1..3")
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


cdef int ctx_alloc(SCtx* cx, int tt_bits, int own_tt, char** caches) noexcept nogil:
    """A search's buffers and caches, and its transposition table when
    own_tt (else cx.tt is another search's). -1 when an allocation failed
    (EndgameSearch.__dealloc__ frees whatever was allocated)."""
    cdef size_t sz_h, sz_m, sz_c, sz_r, sz_k, total
    cdef char* block
    if own_tt:
        cx.tt = <TTEntry*>big_alloc((<size_t>1 << tt_bits) * sizeof(TTEntry))
        if cx.tt != NULL:
            memset(cx.tt, 0, (<size_t>1 << tt_bits) * sizeof(TTEntry))
            cx.ttmask = (<uint64_t>1 << tt_bits) - 1
    cx.pool = <CPlay*>malloc(SPOOL * sizeof(CPlay))
    cx.scores = <int*>malloc(SPOOL * sizeof(int))
    # the per-hand caches, read at random, in one block (in huge pages for
    # large searches; small ones keep calloc's lazily zeroed pages, cheaper
    # to set up)
    sz_h = ((1 << HSUM_BITS) * sizeof(HSum) + 63) & ~(<size_t>63)
    sz_m = ((1 << MPC_BITS) * sizeof(MPEntry) + 63) & ~(<size_t>63)
    sz_c = ((1 << MC_BITS) * sizeof(MCEntry) + 63) & ~(<size_t>63)
    sz_r = ((1 << ROC_BITS) * sizeof(ROEntry) + 63) & ~(<size_t>63)
    sz_k = (<size_t>1 << KT_BITS) * sizeof(uint64_t)
    total = sz_h + sz_m + sz_c + sz_r + sz_k
    if tt_bits >= 20:
        if total < (2 << 20):
            total = 2 << 20
        block = <char*>big_alloc(total)
        if block != NULL:
            memset(block, 0, total)
    else:
        block = <char*>calloc(total, 1)
    caches[0] = block
    if block != NULL:
        cx.hsum = <HSum*>block
        cx.mpc = <MPEntry*>(block + sz_h)
        cx.mc = <MCEntry*>(block + sz_h + sz_m)
        cx.roc = <ROEntry*>(block + sz_h + sz_m + sz_c)
        cx.kt = <uint64_t*>(block + sz_h + sz_m + sz_c + sz_r)
    cx.dws = new_decomp_work()
    cx.arena = <CPlay*>malloc(ARENA * sizeof(CPlay))
    cx.agen = 1
    if not (cx.tt and cx.pool and cx.scores and block and cx.dws and cx.arena):
        return -1
    return 0


cdef void st_init_hands(SCtx* cx, SState* st, const u8[:, ::1] hands, int turn) noexcept nogil:
    """The hands of a root position and what the state keeps of them: card
    counts, Zobrist keys, rank-count words, who may still form a sequence."""
    cdef int s, c, n, lv = cx.lv
    cdef u8 v
    for s in range(4):
        n = 0
        for c in range(54):
            v = hands[s, c]
            st.hand[s][c] = v
            st.skey[s] ^= Z_HAND[s][c][v]
            n += v
        st.ncards[s] = n
        st.hkey ^= st.skey[s]
    st.turn = turn
    st.lv = lv
    for s in range(4):
        for c in range(52):
            if c != SUIT_H * 13 + lv and st.hand[s][c]:
                st.nib[s] += (<uint64_t>st.hand[s][c]) << (4 * order_of(c % 13, lv))
                st.om[s] |= 1u << order_of(c % 13, lv)
    for s in range(4):
        if may_form_sequence(st.hand[s], st.ncards[s], lv, cx.flags, cx.pool, SPOOL):
            st.seqmask |= 1 << s


cdef int root_moves(SCtx* cx, const SState* st, CPlay* out) noexcept nogil:
    """The root's moves in search order (order_moves' scores) into out; their
    count, or -1 on a buffer overflow."""
    cdef int i, n = gen_moves(cx, st, cx.pool, SPOOL)
    if n < 0:
        return -1
    order_moves(cx, st, cx.pool, cx.scores, n, 0)
    for i in range(n):
        pick_next(cx.pool, cx.scores, i, n)
    memcpy(out, cx.pool, n * sizeof(CPlay))
    return n


def _test_keys(const u8[:, ::1] hands, int lv, int flags, int turn, Play table=None,
               int owner=-1, int passes=0, finished=(), int portable=0):
    """Test hook (tests/test_endgame.py): (relabelled key, exact key,
    seqmask) of a position; portable=1 packs the relabelled key by the loop
    instead of PEXT (where the CPU has PEXT; the same key either way)."""
    cdef EndgameSearch e = EndgameSearch(hands, lv, flags, turn, table, owner, passes,
                                         finished, 10)
    return (st_key_relabeled_by(&e.root, lv, 0 if portable else gf_use_pext),
            e.root.hkey ^ st_key_rest(&e.root, e.root.table.rank), e.root.seqmask)


def _test_child_keys(const u8[:, ::1] hands, int lv, int flags, int turn, Play table=None,
                     int owner=-1, int passes=0, finished=(), int portable=0):
    """Test hook: the relabelled key of the position after each root move,
    the move played by the search's own state update (st_apply_cx: the
    rank-count words kept up to date play by play), deals over left out
    (they must equal the keys of the same positions built from scratch)."""
    cdef EndgameSearch e = EndgameSearch(hands, lv, flags, turn, table, owner, passes,
                                         finished, 10)
    cdef SState child
    cdef int i
    out = []
    for i in range(e.nroot):
        child = e.root
        st_apply_cx(&e.cx, &child, &e.rootmoves[i], 0)
        if not st_team_out(&child):
            out.append(st_key_relabeled_by(&child, lv, 0 if portable else gf_use_pext))
    return out


def _test_runout(const u8[:, ::1] hands, int lv, int flags, int turn, Play table=None,
                 int owner=-1, int passes=0, finished=()):
    """Test hook (tests/test_runout.py): what the sure run-out test
    (_runout.pxi) concludes at the root for the seat to act, by the calls
    runout_step makes (runout, runout_cut, st_after_runout) and nothing
    else: (ro, lo, hi, exact, after).
    ro: runout()'s answer, 0 (no split found), 1 (a split with answered
    plays or one unsafe last play) or 3 (every play of the split safe).
    lo, hi: when ro > 0, the bounds on team 0's value that runout_cut
    narrows [-3, 3] to (runout_bounds: the claim's consequences), with a
    window (-4, 4) that no bound decides, so that its answer only says
    whether they are exact (a terminal: exact) or, for an all-safe split,
    that the search values the position after the run-out as a bound from
    the mover's side (after); else -3, 3.
    after: then that position (st_after_runout) as (hands, turn, finished),
    hands four tuples of card ids, one per copy; else None."""
    cdef EndgameSearch e = EndgameSearch(hands, lv, flags, turn, table, owner, passes,
                                         finished, 10)
    cdef SState child
    cdef int ro, cut, v = 0, lo = -3, hi = 3, s, c, k
    ro = runout(&e.cx, &e.root, 0, runout_key(&e.cx, &e.root))
    if ro < 0:
        raise RuntimeError("play buffer overflow")
    if ro == 0:
        return 0, -3, 3, False, None
    cut = runout_cut(&e.cx, &e.root, ro, -4, 4, 0, &lo, &hi, &v)
    after = None
    if cut == 2:
        st_after_runout(&e.root, &child)
        out_hands = []
        for s in range(4):
            ids = []
            for c in range(54):
                for k in range(child.hand[s][c]):
                    ids.append(c)
            out_hands.append(tuple(ids))
        fin = []
        for k in range(child.nfin):
            fin.append(child.fin[k])
        after = (tuple(out_hands), child.turn, tuple(fin))
    return ro, lo, hi, cut == 1, after
