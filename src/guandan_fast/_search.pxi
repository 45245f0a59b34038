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
    int nfin
    int fin[4]         # finishing order
    CPlay table
    uint64_t hkey      # Zobrist key of the hands


ctypedef struct TTEntry:
    uint64_t key
    int8_t lo
    int8_t hi
    uint32_t best      # hash of the best (or refuting) move found


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


cdef uint64_t Z_HAND[4][54][3]
cdef uint64_t Z_TURN[4]
cdef uint64_t Z_FIRST[5]
cdef uint64_t Z_LEAD


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


_init_zobrist()


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


cdef inline uint64_t st_key(const SState* st) noexcept nogil:
    cdef uint64_t k = st.hkey ^ Z_TURN[st.turn]
    k ^= Z_FIRST[st.fin[0] + 1 if st.nfin else 0]
    if st.owner < 0:
        k ^= Z_LEAD
    else:
        # what matters of the standing play is what beats it: type, size, rank
        k ^= smix(<uint64_t>(((((st.table.type * 16 + st.table.rank) * 16
                                + st.table.size) * 8 + st.owner) * 8
                              + st.passes) + 1000003))
    return k


cdef inline void st_play(SState* st, const CPlay* p) noexcept nogil:
    """The seat to act plays p (size > 0). The caller checks st_team_out."""
    cdef int s = st.turn, i, c, old
    for i in range(p.size):
        c = p.cards[i]
        old = st.hand[s][c]
        st.hand[s][c] = <u8>(old - 1)
        st.hkey ^= Z_HAND[s][c][old] ^ Z_HAND[s][c][old - 1]
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


cdef inline uint32_t move_hash(const CPlay* p) noexcept nogil:
    cdef uint64_t h = <uint64_t>(p.type * 256 + p.rank) * 64 + p.size + 1
    cdef int i
    h = h * 1000003 + p.suit
    for i in range(p.size):
        h += smix(<uint64_t>p.cards[i] + 7777)
    return <uint32_t>(smix(h) | 2)   # 1 is the pass


# ----------------------------------------------------------------------------
# Move generation and ordering
# ----------------------------------------------------------------------------

cdef int gen_moves(SCtx* cx, const SState* st, CPlay* buf, int cap) noexcept nogil:
    """The moves of the seat to act into buf: plays, then a pass (size 0)
    when following. Returns the count, or -1 on overflow."""
    cdef int n
    if st.owner < 0:
        return enumerate_plays(st.hand[st.turn], cx.lv, cx.flags, ALL_TYPES, buf, cap)
    n = beating_plays_c(st.hand[st.turn], cx.lv, cx.flags, &st.table, buf, cap - 1)
    if n < 0:
        return -1
    memset(&buf[n], 0, sizeof(CPlay))
    return n + 1


cdef inline int move_score(const SState* st, const CPlay* p, uint32_t besth,
                           int lv) noexcept nogil:
    cdef int me = st.turn, s, bc
    if besth and ((p.size == 0 and besth == 1) or
                  (p.size and move_hash(p) == besth)):
        return 4000000
    if p.size == 0:
        # pass: first when the partner owns the table, else after the plays
        if (st.owner & 1) == (me & 1):
            return 1000000
        return -20000
    if p.size == st.ncards[me]:
        return 2000000
    bc = bomb_class(p)
    s = p.size * 1000 - rank_key(p, lv) * 10
    if bc:
        s -= 30000 + bc * 100
    return s


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
                     uint32_t besth) noexcept nogil:
    cdef int i
    for i in range(n):
        sc[i] = move_score(st, &buf[i], besth, cx.lv)
    return n


# ----------------------------------------------------------------------------
# Alpha-beta
# ----------------------------------------------------------------------------

cdef inline int check_limits(SCtx* cx) noexcept nogil:
    if cx.max_nodes > 0 and cx.nodes >= cx.max_nodes:
        cx.abort = 1
    elif cx.deadline > 0 and (cx.nodes & 1023) == 0 and now_seconds() > cx.deadline:
        cx.abort = 1
    return cx.abort


cdef int search(SCtx* cx, const SState* st, int alpha, int beta, int sp) noexcept nogil:
    """Fail-soft alpha-beta value (team 0) of a non-terminal position."""
    cdef int lo_s, hi_s, n, i, v, best, maxi, a0 = alpha, b0 = beta
    cdef uint64_t key
    cdef TTEntry* e
    cdef uint32_t besth = 0, bh = 0
    cdef CPlay* buf
    cdef int* sc
    cdef SState child
    cx.nodes += 1
    if check_limits(cx):
        return 0
    st_static_bounds(st, &lo_s, &hi_s)
    if lo_s >= beta:
        return lo_s
    if hi_s <= alpha:
        return hi_s
    key = st_key(st)
    e = &cx.tt[key & cx.ttmask]
    if e.key == key:
        if e.lo >= beta:
            return e.lo
        if e.hi <= alpha:
            return e.hi
        if e.lo == e.hi:
            return e.lo
        if e.lo > lo_s:
            lo_s = e.lo
        if e.hi < hi_s:
            hi_s = e.hi
        besth = e.best
    buf = cx.pool + sp
    sc = cx.scores + sp
    n = gen_moves(cx, st, buf, SPOOL - sp)
    if n < 0:
        cx.abort = 2
        return 0
    order_moves(cx, st, buf, sc, n, besth)
    maxi = (st.turn & 1) == 0
    best = -VINF if maxi else VINF
    for i in range(n):
        pick_next(buf, sc, i, n)
        child = st[0]
        st_apply(&child, &buf[i])
        if st_team_out(&child):
            v = st_final_value(&child)
        else:
            v = search(cx, &child, alpha, beta, sp + n)
            if cx.abort:
                return 0
        if maxi:
            if v > best:
                best = v
                bh = move_hash(&buf[i]) if buf[i].size else 1
                if best >= beta or best >= hi_s:
                    break
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bh = move_hash(&buf[i]) if buf[i].size else 1
                if best <= alpha or best <= lo_s:
                    break
                if best < beta:
                    beta = best
    # store the bound
    if e.key != key:
        st_static_bounds(st, &lo_s, &hi_s)
        e.key = key
        e.lo = <int8_t>lo_s
        e.hi = <int8_t>hi_s
    if best >= b0:
        if best > e.lo:
            e.lo = <int8_t>best
    elif best <= a0:
        if best < e.hi:
            e.hi = <int8_t>best
    else:
        e.lo = <int8_t>best
        e.hi = <int8_t>best
    e.best = bh
    return best


cdef inline int next_value_up(int t) noexcept nogil:
    return 1 if t == 0 else t


cdef void drive(SCtx* cx, const SState* st, int sp, int* plo, int* phi) noexcept nogil:
    """Exact value of a position by null-window tests: [lo, hi] proven;
    lo == hi unless a limit stopped the search."""
    cdef int lo, hi, t, g, k, m
    cdef int vals[6]
    if st_team_out(st):
        plo[0] = phi[0] = st_final_value(st)
        return
    st_static_bounds(st, &lo, &hi)
    while lo < hi and not cx.abort:
        # the median of the outcomes t with lo < t <= hi; test value >= t
        m = 0
        for k in range(-3, 4):
            if k != 0 and lo < k <= hi:
                vals[m] = k
                m += 1
        t = vals[m // 2]
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
    cdef int n, i, lo, hi, length = 0, found
    cdef CPlay* buf
    cdef int* sc
    while length < maxlen and not st_team_out(&cur) and not cx.abort:
        buf = cx.pool + sp
        sc = cx.scores + sp
        n = gen_moves(cx, &cur, buf, SPOOL - sp)
        if n < 0:
            cx.abort = 2
            break
        order_moves(cx, &cur, buf, sc, n, 0)
        found = 0
        for i in range(n):
            pick_next(buf, sc, i, n)
            child = cur
            st_apply(&child, &buf[i])
            drive(cx, &child, sp + n, &lo, &hi)
            if cx.abort:
                break
            if lo == value and hi == value:
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

    def __cinit__(self, const u8[:, ::1] hands, int lv, int flags, int turn,
                  Play table=None, int owner=-1, int passes=0, finished=(),
                  int tt_bits=20):
        cdef int s, c, i, n
        cdef u8 v
        memset(&self.cx, 0, sizeof(SCtx))
        memset(&self.root, 0, sizeof(SState))
        self.rootmoves = NULL
        if hands.shape[0] != 4 or hands.shape[1] != 54:
            raise ValueError("hands must be a (4, 54) count array")
        if not 10 <= tt_bits <= 28:
            raise ValueError("tt_bits must be in 10..28")
        self.cx.lv = lv
        self.cx.flags = flags
        self.cx.tt = <TTEntry*>malloc((<size_t>1 << tt_bits) * sizeof(TTEntry))
        self.cx.pool = <CPlay*>malloc(SPOOL * sizeof(CPlay))
        self.cx.scores = <int*>malloc(SPOOL * sizeof(int))
        self.rootmoves = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
        if not (self.cx.tt and self.cx.pool and self.cx.scores and self.rootmoves):
            raise MemoryError()
        memset(self.cx.tt, 0, (<size_t>1 << tt_bits) * sizeof(TTEntry))
        self.cx.ttmask = (<uint64_t>1 << tt_bits) - 1
        for s in range(4):
            n = 0
            for c in range(54):
                v = hands[s, c]
                self.root.hand[s][c] = v
                self.root.hkey ^= Z_HAND[s][c][v]
                n += v
            self.root.ncards[s] = n
        self.root.turn = turn
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
        order_moves(&self.cx, &self.root, self.cx.pool, self.cx.scores, n, 0)
        for i in range(n):
            pick_next(self.cx.pool, self.cx.scores, i, n)
        memcpy(self.rootmoves, self.cx.pool, n * sizeof(CPlay))
        self.nroot = n

    def __dealloc__(self):
        free(self.cx.tt)
        free(self.cx.pool)
        free(self.cx.scores)
        free(self.rootmoves)

    def set_limits(self, max_nodes=None, max_seconds=None):
        """Limits for everything solved from now on (nodes counted in total)."""
        self.cx.max_nodes = 0 if max_nodes is None else max(1, int(max_nodes))
        self.cx.deadline = 0.0 if max_seconds is None else now_seconds() + float(max_seconds)
        self.cx.abort = 0

    @property
    def nodes(self):
        return self.cx.nodes

    @property
    def aborted(self):
        """0, 1 (node or time limit reached) or 2 (move buffer overflow)."""
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

    def solve_move(self, int i):
        """(lo, hi): the proven bounds on the value of root move i."""
        cdef SState child
        cdef int lo = -3, hi = 3
        if not 0 <= i < self.nroot:
            raise IndexError(i)
        child = self.root
        st_apply(&child, &self.rootmoves[i])
        with nogil:
            drive(&self.cx, &child, 0, &lo, &hi)
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
            st_apply(&child, &self.rootmoves[i])
            with nogil:
                n = pv_line(&self.cx, &child, value, 0, seats, plays, maxlen)
            return [(seats[k], make_play(&plays[k], self.cx.lv) if plays[k].size
                     else None) for k in range(n)]
        finally:
            free(plays)
