# The alpha-beta search of the endgame (included by _core.pyx; see
# _state.pxi): search() values one node, drive() proves a value by
# null-window tests, pv_line() follows a principal variation.
#
# search() is fail-soft alpha-beta at team level: a value v <= alpha is an
# upper bound of the node's value, v >= beta a lower bound, alpha < v < beta
# the exact value. Each pruning rule below returns or skips only what the
# argument beside it shows cannot change that contract; the order of the
# moves (_movegen.pxi) never changes a value, only the work.

ctypedef struct Node:
    # what search() knows of the node it is valuing
    int lo                 # proven bounds on the node's value (static, then
    int hi                 # narrowed by the run-out and the table)
    uint64_t key           # transposition-table key (st_key)
    TTEntry* e             # the key's two-entry bucket
    uint64_t rk            # refutation-table key
    uint32_t besth         # the table's best move for the node (0: none)


cdef inline int pass_forced(SCtx* cx, SState* st, int sp) noexcept nogil:
    """A follower who cannot beat the table passes, and so does every seat
    after it that cannot beat it either: st moves on to the first seat with
    a choice (or to the next lead). The number of passes made; -1 on a
    buffer overflow.

    Soundness of the forced-pass shortcut: following, a seat either beats
    the standing play or passes (RULES §6), so a seat with no beating play
    has one legal move, and a node with one move has its child's value.
    can_beat is exact in that direction: a non-bomb is beaten only by a
    bomb or by a play of its type (one size per type) of a higher rank key,
    a bomb only by a stronger bomb, and the hand summary holds the highest
    key per type and the strongest bomb the hand can play; so no pass is
    made where the seat could beat the table. (Where it says "can beat" and
    no play actually does, the move generation finds the lone pass.) The
    passes are made without a node each, which changes the node count only."""
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


cdef inline void node_keys(SCtx* cx, const SState* st, int beta, Node* nd,
                           uint64_t* rok) noexcept nogil:
    """The node's keys: the run-out cache's (rok), the table's and the
    refutation table's, each entry prefetched as soon as its key is known
    (they are cache misses; the run-out test and the keys overlap them)."""
    rok[0] = runout_key(cx, st)
    prefetch(&cx.roc[rok[0] & ((1 << ROC_BITS) - 1)])
    nd.key = st_key(st, cx.lv)
    nd.e = &cx.tt[nd.key & cx.ttmask & ~(<uint64_t>1)]
    prefetch(nd.e)
    # the goal (beta) is part of the key: see refutation_key
    nd.rk = refutation_key(cx, st, beta)
    prefetch(&cx.kt[nd.rk & ((1 << KT_BITS) - 1)])


cdef inline int runout_step(SCtx* cx, const SState* st, Node* nd, uint64_t rok,
                            int alpha, int beta, int sp, int* out) noexcept nogil:
    """The sure run-out bound at the node (soundness: the claim in
    _runout.pxi and runout_cut). 1 with the fail-soft value in out when it
    decides the node, else 0 with nd.lo / nd.hi narrowed."""
    cdef int ro, v
    cdef SState child
    ro = runout(cx, st, sp, rok)
    if ro < 0:
        set_abort(cx, 2)
        out[0] = 0
        return 1
    if ro == 0:
        return 0
    ro = runout_cut(cx, st, ro, alpha, beta, sp, &nd.lo, &nd.hi, out)
    if ro == 1:
        return 1
    if ro == 2:
        # all-safe split: the position after the run-out is one the mover's
        # team can force, so its value bounds the node's from the mover's
        # side; a test of it failing on that side cuts (runout_cut)
        st_after_runout(st, &child)
        v = search(cx, &child, alpha, beta, sp)
        if aborted(cx):
            out[0] = 0
            return 1
        if runout_after_cuts(st, v, alpha, beta):
            out[0] = v
            return 1
    return 0


cdef inline int table_probe(Node* nd, int alpha, int beta, int* out) noexcept nogil:
    """Probe the table's bucket (the deeper entry and an always-replace one).
    1 with the fail-soft value in out when a stored bound decides the node,
    else 0 with nd.lo / nd.hi narrowed to the stored bounds and nd.besth
    set (soundness: the table bounds, _ttable.pxi)."""
    cdef int elo, ehi, ework
    if tt_get(nd.e, nd.key, &elo, &ehi, &ework, &nd.besth) or \
            tt_get(nd.e + 1, nd.key, &elo, &ehi, &ework, &nd.besth):
        if elo >= beta:
            out[0] = elo
            return 1
        if ehi <= alpha:
            out[0] = ehi
            return 1
        if elo == ehi:
            out[0] = elo
            return 1
        if elo > nd.lo:
            nd.lo = elo
        if ehi < nd.hi:
            nd.hi = ehi
    return 0


cdef inline int take_known_first(const SState* st, CPlay* buf, int n, uint32_t besth,
                                 uint32_t refut) noexcept nogil:
    """Lazy ordering: when the table, a move that goes out or the refutation
    table names a move (in that order, the order of order_moves' scores), it
    is swapped to the front and searched before the other moves are scored
    (it cuts most nodes, and the scores cost more than a node). 1 when it
    did, 0 when the node needs order_moves for all its moves. Only the
    order is affected: the same order as scoring everything first."""
    cdef int j, jo = -1, jr = -1, first = -1
    cdef uint32_t mid
    cdef CPlay tmp
    if not (besth or refut):
        return 0
    for j in range(n):
        mid = move_id(&buf[j])
        if mid == besth:
            first = j
            break
        if jo < 0 and buf[j].size == st.ncards[st.turn]:
            jo = j
        elif jr < 0 and mid == refut:
            jr = j
    if first < 0:
        first = jo if jo >= 0 else jr
    if first < 0:
        return 0
    if first:
        tmp = buf[0]; buf[0] = buf[first]; buf[first] = tmp
    return 1


cdef inline int search_moves(SCtx* cx, const SState* st, Node* nd, CPlay* buf, int* sc,
                             int n, int lazy, uint32_t refut, int alpha, int beta,
                             int sp, uint32_t* bh) noexcept nogil:
    """The move loop: the best fail-soft value of the moves, bh its move.
    lazy: buf[0] is taken first and the others are scored after it (with
    the refutation move's bonus refut). Stops at the first move that fails
    high for the mover (>= beta for team 0, <= alpha for team 1), or that
    reaches the node's proven bound on its side (nd.hi for team 0, nd.lo
    for team 1): no move can do better than a proven bound, so the node's
    value is then known (soundness of that cut)."""
    cdef int i, v, maxi = (st.turn & 1) == 0
    cdef int best = -VINF if maxi else VINF
    cdef SState child
    for i in range(n):
        if lazy and i == 1:
            order_moves(cx, st, buf + 1, sc + 1, n - 1, 0, refut)
        if not lazy or i > 0:
            pick_next(buf, sc, i, n)
        child = st[0]
        st_apply_cx(cx, &child, &buf[i], sp + n)
        if st_team_out(&child):
            v = st_final_value(&child)
        else:
            # the child's forced passes made here (pass_forced), so it is
            # searched as the first seat with a choice
            if pass_forced(cx, &child, sp + n) < 0:
                set_abort(cx, 2)
                return 0
            v = search(cx, &child, alpha, beta, sp + n, 1)
            if aborted(cx):
                return 0
        if maxi:
            if v > best:
                best = v
                bh[0] = move_id(&buf[i])
                if best >= beta or best >= nd.hi:
                    refutation_store(cx, nd.rk, bh[0])
                    break
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bh[0] = move_id(&buf[i])
                if best <= alpha or best <= nd.lo:
                    refutation_store(cx, nd.rk, bh[0])
                    break
                if best < beta:
                    beta = best
    return best


cdef inline int work_level(long long work) noexcept nogil:
    """log2 of the nodes a node took (the table's replacement priority)."""
    cdef int wl = 0
    while work > 1 and wl < 60:
        work >>= 1
        wl += 1
    return wl


cdef void store_bound(const SState* st, Node* nd, int a0, int b0, int best,
                      uint32_t bh, int wl) noexcept nogil:
    """Store what the search of the node proved (its fail-soft value best
    against the window [a0, b0] it was searched with) in the table,
    narrowing the bounds an entry of the same key already holds."""
    cdef int elo, ehi, ework, maxi = (st.turn & 1) == 0
    cdef uint32_t eb
    cdef TTEntry* e = nd.e
    if tt_get(e, nd.key, &elo, &ehi, &ework, &eb):
        pass
    elif tt_get(e + 1, nd.key, &elo, &ehi, &ework, &eb):
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
    # The fail-low rule: a node where every move failed for the mover names
    # no best move (bh is then just the first move searched, and a later
    # search with another goal would try it first): the entry keeps the move
    # it had. Together with the goal in the refutation key, this keeps the
    # tests of one goal from ordering those of another (two threads
    # interleave them). Soundness: the stored move only orders moves.
    if (best <= a0) if maxi else (best >= b0):
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
    tt_put(e, nd.key, elo, ehi, ework, bh)


cdef int search(SCtx* cx, const SState* st, int alpha, int beta, int sp,
                int passed=0) noexcept nogil:
    """Fail-soft alpha-beta value (team 0) of a non-terminal position.
    passed: the caller has made the forced passes already (pass_forced)."""
    cdef Node nd
    cdef int n, v, best, lazy = 0
    cdef long long nodes0 = cx.nodes
    cdef uint64_t rok
    cdef uint32_t refut, bh = 0
    cdef CPlay* buf
    cdef int* sc
    cdef SState child
    cx.nodes += 1
    if check_limits(cx):
        return 0
    # Static bounds (st_static_bounds): what the finishing order so far
    # already implies holds for every continuation, so a window outside
    # them is decided with that bound as the fail-soft value.
    st_static_bounds(st, &nd.lo, &nd.hi)
    if nd.lo >= beta:
        return nd.lo
    if nd.hi <= alpha:
        return nd.hi
    # forced passes (pass_forced): one node for the whole run, no key, no
    # table entry; the move loop makes them in its children before calling
    # search, so only the other callers get here with them to make
    if not passed and st.owner >= 0:
        child = st[0]
        n = pass_forced(cx, &child, sp)
        if n < 0:
            set_abort(cx, 2)
            return 0
        if n:
            return search(cx, &child, alpha, beta, sp, 1)
    nd.besth = 0
    node_keys(cx, st, beta, &nd, &rok)
    if runout_step(cx, st, &nd, rok, alpha, beta, sp, &v):
        return v
    if table_probe(&nd, alpha, beta, &v):
        return v
    buf = cx.pool + sp
    sc = cx.scores + sp
    n = gen_moves(cx, st, buf, SPOOL - sp)
    if n < 0:
        set_abort(cx, 2)
        return 0
    if n == 1 and buf[0].size == 0:
        # a lone pass (pass_forced's summary said "can beat", no play does):
        # one move, the child's value; nothing worth a table entry
        child = st[0]
        st_pass(&child)
        return search(cx, &child, alpha, beta, sp)
    refut = refutation_probe(cx, nd.rk)
    if take_known_first(st, buf, n, nd.besth, refut):
        lazy = 1
        # the others are scored after it with the refutation move's bonus,
        # unless that is the move taken first
        if move_id(&buf[0]) == refut:
            refut = 0
    else:
        order_moves(cx, st, buf, sc, n, nd.besth, refut)
    best = search_moves(cx, st, &nd, buf, sc, n, lazy, refut, alpha, beta, sp, &bh)
    if aborted(cx):
        return 0
    store_bound(st, &nd, alpha, beta, best, bh, work_level(cx.nodes - nodes0))
    return best


cdef void drive(SCtx* cx, const SState* st, int sp, int* plo, int* phi,
                int first=0) noexcept nogil:
    """Exact value of a position by null-window tests. On entry [plo, phi]
    is a range known to hold the value; on exit the proven range, a single
    value unless a limit stopped the search. first: 0, or the threshold of
    the first test (value >= first?), e.g. the bound a root move most likely
    reaches; the tests only choose the order of the proof, never the value:
    each test search(t - 1, t) proves value >= g (g >= t) or value <= g
    (g < t), and the range only shrinks to what was proven."""
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
    while lo < hi and not aborted(cx):
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
        if lo >= 1:
            t = vals[0]
        elif hi <= -1:
            t = vals[m - 1]
        if first and lo < first <= hi:
            t = first
        first = 0
        g = search(cx, st, t - 1, t, sp)
        if aborted(cx):
            break
        if g >= t:
            lo = g
        else:
            # no value is 0 (a deal has a winner): value < 0 means <= -1
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
    while length < maxlen and not st_team_out(&cur) and not aborted(cx):
        buf = cx.pool + sp
        sc = cx.scores + sp
        n = gen_moves(cx, &cur, buf, SPOOL - sp)
        if n < 0:
            set_abort(cx, 2)
            break
        order_moves(cx, &cur, buf, sc, n, 0)
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
            if aborted(cx):
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
