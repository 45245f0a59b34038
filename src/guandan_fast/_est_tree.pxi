# Perfect-information estimator beyond the exact horizon (issue 18).
# Included by _core.pyx after the search.
#
# A team-level Monte Carlo tree search over the same positions (SState) and
# moves (gen_moves, one per pattern, plus the pass when following) as the
# exact search:
#   - a node keeps its moves in the hint order of the search (order_moves:
#     going out, then fewest plays left after the move, ...) and expands them
#     in that order, progressively: an inner node may try 2 + sqrt(visits) of
#     them, the root all of them (every root move gets a sample);
#   - selection is UCB1 on the mean of team 0's result, from the mover's
#     side, with the proven bounds of the children (score-bounded search: a
#     child whose upper bound, for team 0 to move, cannot beat the node's
#     proven lower bound is never selected; symmetrically for team 1);
#   - the exact search (drive, over the same context and transposition table)
#     is tried at a node holding at most SOLVE_CARDS cards, first at its first
#     visit and again, with four times the node budget, each time its visits
#     reach the next power of four: the proof effort at a node grows with the
#     time the tree spends there; a proven node is a leaf with its exact value;
#   - a leaf that is not proven is valued by one playout: every seat plays by
#     the fixed policy below to the end of the deal, and the result (-3..+3)
#     is backed up along the path.
# Bounds: after each iteration, a node's proven range is recomputed from its
# children (team 0 to move: lo = max of the expanded children's lo, hi = max
# of every child's hi, an unexpanded child counting as +3; min for team 1)
# and intersected with what the solver proved for the node itself. Both
# rules only combine proofs, so [lo, hi] always holds the exact value.
#
# The playout policy (one move, no search), for the seat to act. It sees
# every hand (the estimate is perfect-information): an "out play" of a seat
# is a play of its whole hand at once (looked for in hands of at most 10
# cards whose minimum plays is 1).
#   - a play that goes out at once is made;
#   - leading: if the partner has an out play, the play that it beats and no
#     opponent's out play beats (fewest plays left, then tie order; bombs
#     last); else the non-bomb play that leaves the fewest plays by the
#     exact decomposition (ties: fewer wilds, lower rank key, more cards),
#     tried in tie order, the first that leaves min_plays - 1 taken, among
#     the plays no opponent's out play beats when there is one; a hand of
#     bombs leads its smallest bomb;
#   - following the partner: pass, unless an opponent's out play beats the
#     table: then the cheapest non-bomb (tie order) that no opponent's out
#     play beats, if there is one;
#   - following an opponent: there is a threat when the owner has an out
#     play (it leads next if all pass) or an opponent's out play beats the
#     table. With no threat and a partner's out play that beats the table:
#     pass. Else the non-bomb that beats the table and leaves the fewest
#     plays (then fewer wilds, lower key; under a threat, only those no
#     opponent's out play beats) when it keeps the shape (leaves
#     min_plays - 1, or min_plays when the owner holds 8 cards or fewer, any
#     when 3 or fewer or under a threat); else the smallest beating bomb
#     when the owner holds 5 cards or fewer, under a threat, or when the
#     bomb leaves at most one play; else pass.
# (docs/performance.md, "The playout policy sees the other hands": each rule
# measured as an evaluator against exact values.)
# Nothing here touches a Python object; est_run runs without the GIL.

from libc.stdlib cimport realloc
from libc.math cimport sqrt, log

DEF EST_MAXDEPTH = 1024


ctypedef struct ENode:
    SState st
    int nmoves        # -1: not generated yet
    int mstart        # its moves: E.moves[mstart .. mstart + nmoves), children in E.child
    int nexp          # moves expanded so far (the first nexp, in order)
    int visits
    double sum        # team 0's results backed up through the node
    double sumsq
    double mm         # implicit minimax value: the leaf's result, then max/min of the children's
    int lo, hi        # proven bounds on the exact value (team 0)
    int cards         # cards in the hands
    int solve_at      # visits at which the solver is tried next (-1: never)
    long long budget  # the node budget of that attempt


ctypedef struct ECtx:
    SCtx* cx
    ENode* nodes
    int nn
    int ncap
    CPlay* moves
    int* child
    int nm
    int mcap
    uint64_t rng
    long long playouts
    long long iterations
    long long solves          # solver attempts
    long long proofs          # attempts that proved the node
    long long search_nodes    # nodes spent by the solver
    long long playout_plies   # moves made in playouts
    double deadline           # <= 0: none
    long long max_iter        # <= 0: none
    long long base_budget     # the first attempt's node budget
    double explore            # UCB constant (in levels)
    int solve_cards           # the solver is tried at nodes with at most this many cards
    double widen              # inner nodes try 2 + widen * sqrt(visits) moves
    double mix                # selection's weight of the implicit minimax value (vs the mean)
    double root_floor         # root moves below root_floor * sqrt(root visits) visits first
    int root_stride           # this tree samples the root moves j with
    int root_offset           # j % root_stride == root_offset (threads split the root)
    int stop                  # 1: deadline, 2: out of memory, 3: interrupted
    int path[EST_MAXDEPTH]


cdef inline uint64_t est_rand(ECtx* E) noexcept nogil:
    E.rng += 0x9E3779B97F4A7C15ULL
    return smix(E.rng)


cdef int est_total_cards(const SState* st) noexcept nogil:
    return st.ncards[0] + st.ncards[1] + st.ncards[2] + st.ncards[3]


cdef int est_new_node(ECtx* E, const SState* st) noexcept nogil:
    """A new node for st (copied); its index, -1 when out of memory."""
    cdef ENode* nd
    cdef ENode* grown
    cdef int lo, hi
    if E.nn >= E.ncap:
        grown = <ENode*>realloc(E.nodes, <size_t>E.ncap * 2 * sizeof(ENode))
        if grown == NULL:
            return -1
        E.nodes = grown
        E.ncap *= 2
    nd = &E.nodes[E.nn]
    nd.st = st[0]
    nd.nmoves = -1
    nd.mstart = 0
    nd.nexp = 0
    nd.visits = 0
    nd.sum = 0.0
    nd.sumsq = 0.0
    nd.mm = 0.0
    nd.cards = est_total_cards(st)
    if st_team_out(st):
        nd.lo = nd.hi = st_final_value(st)
        nd.solve_at = -1
    else:
        st_static_bounds(st, &lo, &hi)
        nd.lo = lo
        nd.hi = hi
        nd.solve_at = 0 if nd.cards <= E.solve_cards else -1
        nd.budget = E.base_budget
    E.nn += 1
    return E.nn - 1


cdef int est_reserve_moves(ECtx* E, int n) noexcept nogil:
    cdef CPlay* gm
    cdef int* gc
    cdef int cap = E.mcap
    while E.nm + n > cap:
        cap *= 2
    if cap != E.mcap:
        gm = <CPlay*>realloc(E.moves, <size_t>cap * sizeof(CPlay))
        if gm == NULL:
            return -1
        E.moves = gm
        gc = <int*>realloc(E.child, <size_t>cap * sizeof(int))
        if gc == NULL:
            return -1
        E.child = gc
        E.mcap = cap
    return 0


cdef int est_gen(ECtx* E, int idx) noexcept nogil:
    """The moves of node idx, in the search's hint order. -1 on overflow."""
    cdef SCtx* cx = E.cx
    cdef int n, i
    cdef CPlay* buf = cx.pool
    cdef int* sc = cx.scores
    n = gen_moves(cx, &E.nodes[idx].st, buf, SPOOL)
    if n <= 0:
        return -1
    order_moves(cx, &E.nodes[idx].st, buf, sc, n, 0)
    for i in range(n):
        pick_next(buf, sc, i, n)
    if est_reserve_moves(E, n) < 0:
        return -1
    memcpy(E.moves + E.nm, buf, n * sizeof(CPlay))
    for i in range(n):
        E.child[E.nm + i] = -1
    E.nodes[idx].mstart = E.nm
    E.nodes[idx].nmoves = n
    E.nm += n
    return n


cdef int est_expand(ECtx* E, int idx) noexcept nogil:
    """Create the child of node idx for its next unexpanded move; its index
    (-1 when out of memory)."""
    cdef ENode* nd = &E.nodes[idx]
    cdef int j = nd.nexp, c
    cdef SState child = nd.st
    st_apply_cx(E.cx, &child, &E.moves[nd.mstart + j], 0)
    if not st_team_out(&child):
        if pass_forced(E.cx, &child, 0) < 0:
            return -1
    c = est_new_node(E, &child)
    if c < 0:
        return -1
    nd = &E.nodes[idx]
    E.child[nd.mstart + j] = c
    nd.nexp = j + 1
    return c


cdef int est_try_solve(ECtx* E, int idx) noexcept nogil:
    """An attempt of the exact search at node idx within its node budget;
    tightens the node's bounds with what it proves. 1 when proven."""
    cdef SCtx* cx = E.cx
    cdef ENode* nd = &E.nodes[idx]
    cdef int lo = nd.lo, hi = nd.hi, why
    cdef long long n0 = cx.nodes
    cdef SState st = nd.st
    E.solves += 1
    set_abort(cx, 0)
    cx.max_nodes = cx.nodes + nd.budget
    cx.deadline = E.deadline
    drive(cx, &st, 0, &lo, &hi)
    E.search_nodes += cx.nodes - n0
    why = aborted(cx)
    if why == 3:
        E.stop = 3
    elif why == 2:
        lo = nd.lo
        hi = nd.hi
    elif why == 1 and E.deadline > 0 and now_seconds() > E.deadline:
        E.stop = 1
    set_abort(cx, 0)
    cx.max_nodes = 0
    nd = &E.nodes[idx]
    if lo > nd.lo:
        nd.lo = lo
    if hi < nd.hi:
        nd.hi = hi
    # the next attempt when the visits reach the next power of four, with
    # four times the budget
    nd.solve_at = 1 if nd.solve_at == 0 else nd.solve_at * 4
    nd.budget *= 4
    if nd.lo == nd.hi:
        E.proofs += 1
        return 1
    return 0


# ----------------------------------------------------------------------------
# Playout policy
# ----------------------------------------------------------------------------

DEF PBASE = SPOOL // 2      # the playouts' part of the move pool


cdef inline int est_tie_key(const CPlay* p, int lv) noexcept nogil:
    """Lower first: fewer wilds, lower rank key, more cards."""
    return (p.nwild * 32 + rank_key(p, lv)) * 16 + (15 - p.size)


cdef int est_out_plays(ECtx* E, const SState* st, int me, CPlay* scratch, int cap,
                       CPlay* outp, int* nout) noexcept nogil:
    """For each seat but me: the plays that empty its hand at once (at most 4
    kept, in outp[4 * s ..]; nout[s] of them; 0 for me and for a seat that
    is out). -1 on a buffer overflow."""
    cdef SCtx* cx = E.cx
    cdef CPlay empty
    cdef int s, n, i
    memset(&empty, 0, sizeof(CPlay))
    for s in range(4):
        nout[s] = 0
        if s == me or st.ncards[s] == 0 or st.ncards[s] > 10:
            continue
        if search_mp_after(cx, st, s, &empty) != 1:
            continue
        n = seat_plays(cx, st, s, ALL_TYPES, scratch, cap)
        if n < 0:
            return -1
        for i in range(n):
            if scratch[i].size == st.ncards[s] and nout[s] < 4:
                outp[4 * s + nout[s]] = scratch[i]
                nout[s] += 1
    return 0


cdef inline int est_out_beats(const CPlay* outp, const int* nout, int s,
                              const CPlay* p, int lv) noexcept nogil:
    """Can seat s go out at once over p?"""
    cdef int k
    for k in range(nout[s]):
        if c_beats(&outp[4 * s + k], p, lv):
            return 1
    return 0


cdef inline int est_opp_out_beats(const CPlay* outp, const int* nout, int me,
                                  const CPlay* p, int lv) noexcept nogil:
    """Can an opponent of me go out at once over p?"""
    return est_out_beats(outp, nout, (me + 1) & 3, p, lv) or \
        est_out_beats(outp, nout, (me + 3) & 3, p, lv)


cdef int est_policy(ECtx* E, SState* st, CPlay* out) noexcept nogil:
    """The playout policy's move for the seat to act (see the head of this
    file) into out (size 0: pass). -1 on a buffer overflow."""
    cdef SCtx* cx = E.cx
    cdef int me = st.turn, n, i, m, mp0, mp, best, bk, bmp, k, tries, safe, risky
    cdef int lv = cx.lv, owner = st.owner, oc, slack, threat
    cdef int partner = me ^ 2
    cdef CPlay* buf = cx.pool + PBASE
    cdef int* key = cx.scores + PBASE
    cdef CPlay empty
    cdef CPlay outp[16]
    cdef int nout[4]
    cdef HSum* hs
    memset(&empty, 0, sizeof(CPlay))
    if owner >= 0:
        hs = hand_summary(cx, st, me, buf, SPOOL - PBASE)
        if hs == NULL:
            return -1
        if not can_beat(hs, &st.table, lv):
            out[0] = empty
            return 0
    n = lead_plays(cx, st, ALL_TYPES, buf, SPOOL - PBASE)
    if n < 0:
        return -1
    if owner >= 0:
        m = 0
        for i in range(n):
            if c_beats(&buf[i], &st.table, lv):
                if m != i:
                    buf[m] = buf[i]
                m += 1
        n = m
    # going out at once
    for i in range(n):
        if buf[i].size == st.ncards[me]:
            out[0] = buf[i]
            return 0
    if n == 0:
        out[0] = empty
        return 0
    if est_out_plays(E, st, me, buf + n, SPOOL - PBASE - n, outp, nout) < 0:
        return -1
    if owner >= 0 and (owner & 1) == (me & 1):
        # following the partner: pass, unless an opponent goes out over the
        # table and a play of mine stops it (the cheapest such non-bomb)
        if est_opp_out_beats(outp, nout, me, &st.table, lv):
            best = -1
            for i in range(n):
                if bomb_class(&buf[i]) == 0 and \
                        not est_opp_out_beats(outp, nout, me, &buf[i], lv):
                    k = est_tie_key(&buf[i], lv)
                    if best < 0 or k < bk:
                        best = i
                        bk = k
            if best >= 0:
                out[0] = buf[best]
                return 0
        out[0] = empty
        return 0
    mp0 = search_mp_after(cx, st, me, &empty)
    if owner < 0:
        # lead: the partner goes out over it and no opponent can
        if nout[partner]:
            best = -1
            for i in range(n):
                if est_out_beats(outp, nout, partner, &buf[i], lv) and \
                        not est_opp_out_beats(outp, nout, me, &buf[i], lv):
                    k = (bomb_class(&buf[i]) * 32 + search_mp_after(cx, st, me, &buf[i])) \
                        * 100000 + est_tie_key(&buf[i], lv)
                    if best < 0 or k < bk:
                        best = i
                        bk = k
            if best >= 0:
                out[0] = buf[best]
                return 0
        # else tie order first, stop at the first play that leaves
        # mp0 - 1; plays an opponent goes out over are left out while
        # another play is left
        # (key: the tie key of a candidate, 1 << 30 for a bomb, -1 for a
        # non-bomb an opponent goes out over until it is known whether any
        # other non-bomb is left)
        safe = 0
        risky = 0
        for i in range(n):
            if bomb_class(&buf[i]):
                key[i] = 1 << 30
            elif est_opp_out_beats(outp, nout, me, &buf[i], lv):
                key[i] = -1
                risky += 1
            else:
                key[i] = est_tie_key(&buf[i], lv)
                safe += 1
        for i in range(n):
            if key[i] == -1:
                key[i] = (1 << 30) if safe else est_tie_key(&buf[i], lv)
        # the candidates: the safe non-bombs, or every non-bomb if none is
        m = safe if safe else risky
        if m == 0:
            best = 0
            for i in range(1, n):
                if play_strength(&buf[i], lv) < play_strength(&buf[best], lv):
                    best = i
            out[0] = buf[best]
            return 0
        best = -1
        bmp = 1 << 30
        for tries in range(m):
            k = -1
            for i in range(n):
                if key[i] < (1 << 30) and (k < 0 or key[i] < key[k]):
                    k = i
            key[k] = (1 << 30) + 1
            mp = search_mp_after(cx, st, me, &buf[k])
            if mp < bmp:
                bmp = mp
                best = k
            if mp <= mp0 - 1:
                break
        out[0] = buf[best]
        return 0
    # following an opponent: a threat when the owner leads next and goes
    # out, or an opponent goes out over the table
    threat = nout[owner] > 0 or est_opp_out_beats(outp, nout, me, &st.table, lv)
    if not threat and est_out_beats(outp, nout, partner, &st.table, lv):
        out[0] = empty
        return 0
    oc = st.ncards[owner]
    slack = 0
    if oc <= 8:
        slack = 1
    if oc <= 3 or threat:
        slack = 100
    best = -1
    bmp = 1 << 30
    bk = 1 << 30
    for i in range(n):
        if bomb_class(&buf[i]):
            continue
        if threat and est_opp_out_beats(outp, nout, me, &buf[i], lv):
            continue
        mp = search_mp_after(cx, st, me, &buf[i])
        k = est_tie_key(&buf[i], lv)
        if mp < bmp or (mp == bmp and k < bk):
            bmp = mp
            bk = k
            best = i
    if best >= 0 and bmp <= mp0 - 1 + slack:
        out[0] = buf[best]
        return 0
    best = -1
    for i in range(n):
        if bomb_class(&buf[i]) and (best < 0 or play_strength(&buf[i], lv)
                                    < play_strength(&buf[best], lv)):
            best = i
    if best >= 0:
        if oc <= 5 or threat or search_mp_after(cx, st, me, &buf[best]) <= 1:
            out[0] = buf[best]
            return 0
    out[0] = empty
    return 0


cdef int est_playout(ECtx* E, const SState* start, int* value) noexcept nogil:
    """Play the policy from start to the end of the deal: team 0's result
    in value. -1 on a buffer overflow."""
    cdef SState st = start[0]
    cdef CPlay mv
    while not st_team_out(&st):
        if est_policy(E, &st, &mv) < 0:
            return -1
        st_apply(&st, &mv)
        E.playout_plies += 1
    E.playouts += 1
    value[0] = st_final_value(&st)
    return 0


# ----------------------------------------------------------------------------
# The tree
# ----------------------------------------------------------------------------

cdef inline double est_child_q(const ENode* c, double mix) noexcept nogil:
    """A child's value estimate for selection: exact when proven, else
    (1 - mix) * its mean + mix * its implicit minimax value, clipped to its
    proven bounds."""
    cdef double q
    if c.lo == c.hi:
        return c.lo
    if c.visits == 0:
        return 0.0
    q = (1.0 - mix) * c.sum / c.visits + mix * c.mm
    if q < c.lo:
        q = c.lo
    if q > c.hi:
        q = c.hi
    return q


cdef inline int est_allowed(const ENode* nd, int is_root, double widen) noexcept nogil:
    """Progressive widening: how many of the node's moves it may try."""
    cdef int k
    if is_root:
        return nd.nmoves
    k = 2 + <int>(widen * sqrt(<double>nd.visits))
    return k if k < nd.nmoves else nd.nmoves


cdef int est_select(ECtx* E, int idx, int is_root) noexcept nogil:
    """UCB1 among the node's expanded children, from the mover's side; a
    child proven no better than what the node already has is skipped (at the
    root: a proven child, whose value is known). At the root, a child with
    fewer than root_floor * sqrt(root visits) visits comes first (the least
    visited of them): the root's choice needs every move's value, and UCB1
    on the implicit minimax value starves a move whose first results were
    bad. -1 when none is left."""
    cdef ENode* nd = &E.nodes[idx]
    cdef ENode* c
    cdef int j, best = -1, maxi = (nd.st.turn & 1) == 0, ci
    cdef double sg = 1.0 if maxi else -1.0, s, bs = -1e300, lnn, floor_n = 0.0
    lnn = log(<double>(nd.visits + 1))
    if is_root:
        floor_n = E.root_floor * sqrt(<double>nd.visits)
    for j in range(nd.nexp):
        ci = E.child[nd.mstart + j]
        c = &E.nodes[ci]
        if is_root:
            if c.lo == c.hi or j % E.root_stride != E.root_offset:
                continue
        elif maxi:
            if c.hi <= nd.lo:
                continue
        else:
            if c.lo >= nd.hi:
                continue
        if c.visits == 0:
            s = 1e200
        elif c.visits < floor_n:
            s = 1e100 - c.visits
        else:
            s = sg * est_child_q(c, E.mix) + E.explore * sqrt(lnn / c.visits)
        if s > bs:
            bs = s
            best = ci
    return best


cdef void est_bounds(ECtx* E, int idx) noexcept nogil:
    """Tighten node idx's proven range from its children's."""
    cdef ENode* nd = &E.nodes[idx]
    cdef ENode* c
    cdef int j, lo, hi, maxi = (nd.st.turn & 1) == 0
    if nd.nmoves <= 0 or nd.nexp == 0:
        return
    if maxi:
        lo = -3
        hi = -3 if nd.nexp == nd.nmoves else 3
        for j in range(nd.nexp):
            c = &E.nodes[E.child[nd.mstart + j]]
            if c.lo > lo:
                lo = c.lo
            if c.hi > hi:
                hi = c.hi
    else:
        hi = 3
        lo = 3 if nd.nexp == nd.nmoves else -3
        for j in range(nd.nexp):
            c = &E.nodes[E.child[nd.mstart + j]]
            if c.hi < hi:
                hi = c.hi
            if c.lo < lo:
                lo = c.lo
    if lo > nd.lo:
        nd.lo = lo
    if hi < nd.hi:
        nd.hi = hi


cdef void est_minimax(ECtx* E, int idx) noexcept nogil:
    """The implicit minimax value of an inner node: the best, for the
    mover, of its visited children's (clipped to the node's proven bounds)."""
    cdef ENode* nd = &E.nodes[idx]
    cdef ENode* c
    cdef int j, seen = 0, maxi = (nd.st.turn & 1) == 0
    cdef double m = 0.0, q
    if nd.lo == nd.hi:
        nd.mm = nd.lo
        return
    for j in range(nd.nexp):
        c = &E.nodes[E.child[nd.mstart + j]]
        if c.visits == 0:
            continue
        q = c.lo if c.lo == c.hi else c.mm
        if not seen or (maxi and q > m) or (not maxi and q < m):
            m = q
            seen = 1
    if seen:
        if m < nd.lo:
            m = nd.lo
        if m > nd.hi:
            m = nd.hi
        nd.mm = m


cdef int est_iterate(ECtx* E) noexcept nogil:
    """One iteration: select down the tree, expand, value the leaf (a proof
    or a playout), back up. 0, or -1 on a buffer overflow or out of memory."""
    cdef int idx = 0, depth = 0, c, v, k, is_root
    cdef ENode* nd
    cdef double dv
    while True:
        E.path[depth] = idx
        depth += 1
        nd = &E.nodes[idx]
        if nd.lo == nd.hi and idx != 0:
            v = nd.lo
            break
        if nd.solve_at >= 0 and nd.visits >= nd.solve_at:
            if est_try_solve(E, idx):
                v = E.nodes[idx].lo
                break
            if E.stop:
                return 0
            nd = &E.nodes[idx]
        if nd.visits == 0 and idx != 0:
            if est_playout(E, &nd.st, &v) < 0:
                return -1
            break
        if nd.nmoves < 0:
            if est_gen(E, idx) < 0:
                return -1
            nd = &E.nodes[idx]
        is_root = idx == 0
        if nd.nexp < est_allowed(nd, is_root, E.widen):
            if is_root and nd.nexp % E.root_stride != E.root_offset:
                # another thread's root move: created (for its bounds), not
                # sampled here
                if est_expand(E, idx) < 0:
                    return -1
                depth = 0
                continue
            c = est_expand(E, idx)
            if c < 0:
                return -1
            idx = c
            continue
        c = est_select(E, idx, is_root)
        if c < 0:
            # every child proven or dominated: value the node by its proof
            # bounds' side (the bounds update below settles it)
            nd = &E.nodes[idx]
            v = nd.lo if (nd.st.turn & 1) == 0 else nd.hi
            break
        if depth >= EST_MAXDEPTH - 1:
            v = 0
            break
        idx = c
    dv = v
    for k in range(depth - 1, -1, -1):
        nd = &E.nodes[E.path[k]]
        if nd.visits == 0:
            nd.mm = dv
        nd.visits += 1
        nd.sum += dv
        nd.sumsq += dv * dv
        est_bounds(E, E.path[k])
        if k < depth - 1:
            est_minimax(E, E.path[k])
        elif nd.lo == nd.hi:
            nd.mm = nd.lo
    E.iterations += 1
    return 0


cdef int est_root_done(ECtx* E) noexcept nogil:
    """Every root move this tree samples proven (then nothing is left for
    it to estimate)."""
    cdef ENode* r = &E.nodes[0]
    cdef int j
    if r.nmoves < 0 or r.nexp < r.nmoves:
        return 0
    for j in range(r.nmoves):
        if j % E.root_stride == E.root_offset and \
                E.nodes[E.child[r.mstart + j]].lo != E.nodes[E.child[r.mstart + j]].hi:
            return 0
    return 1


cdef int est_run(ECtx* E) noexcept nogil:
    """Iterate until the deadline, the iteration count or every root move is
    proven. 0, or -1 on a buffer overflow / out of memory (E.stop = 2)."""
    cdef long long k = 0
    while not E.stop:
        if E.max_iter > 0 and E.iterations >= E.max_iter:
            break
        if est_root_done(E):
            break
        if E.deadline > 0 and now_seconds() > E.deadline:
            E.stop = 1
            break
        if est_iterate(E) < 0:
            E.stop = 2
            return -1
        k += 1
    return 0


cdef class EstimatorCore:
    """The compiled estimator over one EndgameSearch's position, context and
    transposition table (used by ``estimate.estimate``; one per thread)."""
    cdef ECtx E
    cdef EndgameSearch search

    def __cinit__(self, EndgameSearch search, unsigned long long seed,
                  long long base_budget=1000, double explore=1.0, int solve_cards=40,
                  double widen=1.0, double mix=0.0, double root_floor=0.0,
                  int root_stride=1, int root_offset=0):
        cdef int i, r
        memset(&self.E, 0, sizeof(ECtx))
        self.search = search
        self.E.cx = &search.cx
        self.E.ncap = 1024
        self.E.nodes = <ENode*>malloc(self.E.ncap * sizeof(ENode))
        self.E.mcap = 4096
        self.E.moves = <CPlay*>malloc(self.E.mcap * sizeof(CPlay))
        self.E.child = <int*>malloc(self.E.mcap * sizeof(int))
        if self.E.nodes == NULL or self.E.moves == NULL or self.E.child == NULL:
            raise MemoryError()
        self.E.rng = smix(seed ^ 0xE57173A7ULL)
        self.E.base_budget = base_budget
        self.E.explore = explore
        self.E.solve_cards = solve_cards
        self.E.widen = widen
        self.E.mix = mix
        self.E.root_floor = root_floor
        if root_stride < 1 or not 0 <= root_offset < root_stride:
            raise ValueError("root_offset must be in 0..root_stride-1")
        self.E.root_stride = root_stride
        self.E.root_offset = root_offset
        r = est_new_node(&self.E, &search.root)
        # the root's moves are the search's root moves, in its order
        if est_reserve_moves(&self.E, search.nroot) < 0:
            raise MemoryError()
        memcpy(self.E.moves, search.rootmoves, search.nroot * sizeof(CPlay))
        for i in range(search.nroot):
            self.E.child[i] = -1
        self.E.nodes[r].mstart = 0
        self.E.nodes[r].nmoves = search.nroot
        self.E.nm = search.nroot
        # the root itself was given to the caller's exact attempt
        self.E.nodes[r].solve_at = -1

    def prove_root_moves(self, bounds):
        """Give the tree what an exact search proved of the root moves:
        bounds[i] = (lo, hi) for root move i (in the search's order); every
        root move is expanded (not yet visited) and its range tightened."""
        cdef int j, c
        cdef ENode* nd
        if len(bounds) > self.E.nodes[0].nmoves:
            raise ValueError("more bounds than root moves")
        for j in range(len(bounds)):
            while self.E.nodes[0].nexp <= j:
                c = est_expand(&self.E, 0)
                if c < 0:
                    raise MemoryError()
            nd = &self.E.nodes[self.E.child[self.E.nodes[0].mstart + j]]
            lo, hi = bounds[j]
            if lo > nd.lo:
                nd.lo = lo
            if hi < nd.hi:
                nd.hi = hi
            if nd.lo == nd.hi:
                nd.mm = nd.lo
        est_bounds(&self.E, 0)

    def stop(self):
        """Make a running tree (in another thread) stop after its current
        iteration (run() then raises KeyboardInterrupt): for an interrupted
        estimate, whose signal only the main thread sees."""
        self.E.stop = 3
        set_abort(self.E.cx, 3)

    def __dealloc__(self):
        free(self.E.nodes)
        free(self.E.moves)
        free(self.E.child)

    def run(self, max_seconds=None, max_iterations=None):
        """Iterate (without the GIL) until max_seconds from now, the total
        iteration count max_iterations, or every root move is proven."""
        self.E.deadline = 0.0 if max_seconds is None else now_seconds() + float(max_seconds)
        self.E.max_iter = 0 if max_iterations is None else int(max_iterations)
        if self.E.stop == 1:
            self.E.stop = 0
        with nogil:
            est_run(&self.E)
        if self.E.stop == 2:
            raise MemoryError("estimator: out of memory or move buffer overflow")
        if self.E.stop == 3:
            self.E.stop = 0
            raise KeyboardInterrupt("estimate interrupted")

    def root_stats(self):
        """Per root move (in the search's root order): (samples, sum, sum of
        squares, lo, hi, minimax), lo/hi the proven bounds (team 0), minimax
        the implicit minimax value of its subtree."""
        cdef ENode* r = &self.E.nodes[0]
        cdef ENode* c
        cdef int j, ci
        out = []
        for j in range(r.nmoves):
            ci = self.E.child[r.mstart + j] if j < r.nexp else -1
            if ci < 0:
                out.append((0, 0.0, 0.0, -3, 3, 0.0))
            else:
                c = &self.E.nodes[ci]
                out.append((c.visits, c.sum, c.sumsq, c.lo, c.hi, c.mm))
        return out

    @property
    def root_bounds(self):
        return (self.E.nodes[0].lo, self.E.nodes[0].hi)

    @property
    def playouts(self):
        return self.E.playouts

    @property
    def iterations(self):
        return self.E.iterations

    @property
    def tree_nodes(self):
        return self.E.nn

    @property
    def search_nodes(self):
        return self.E.search_nodes

    @property
    def solves(self):
        return (self.E.solves, self.E.proofs)

    @property
    def playout_plies(self):
        return self.E.playout_plies


cdef int est_random_plies(ECtx* E, SState* st, int k) noexcept nogil:
    """k uniformly random legal moves (fewer if the deal ends). -1 on overflow."""
    cdef int i, n
    cdef CPlay* buf = E.cx.pool
    for i in range(k):
        if st_team_out(st):
            break
        n = gen_moves(E.cx, st, buf, SPOOL)
        if n <= 0:
            return -1
        st_apply_cx(E.cx, st, &buf[est_rand(E) % <uint64_t>n], n)
    return 0


def _playouts(EndgameSearch search, long long n, unsigned long long seed=0,
              int random_plies=0):
    """Run n playouts of the policy from the search's root (benchmarks and
    tests): (team 0's results as a list, plies made by the policy). With
    random_plies, each playout first makes that many uniformly random legal
    moves (seeded), so that the playouts start from different positions."""
    cdef EstimatorCore ec = EstimatorCore(search, seed)
    cdef long long i
    cdef int rc = 0
    cdef SState st
    cdef int* vals = <int*>malloc((n + 1) * sizeof(int))
    if vals == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                st = search.root
                if est_random_plies(&ec.E, &st, random_plies) < 0:
                    rc = -1
                    break
                if st_team_out(&st):
                    vals[i] = st_final_value(&st)
                    continue
                if est_playout(&ec.E, &st, &vals[i]) < 0:
                    rc = -1
                    break
        if rc < 0:
            raise RuntimeError("play buffer overflow")
        return [vals[i] for i in range(n)], ec.E.playout_plies
    finally:
        free(vals)


def _playout_line(EndgameSearch search, unsigned long long seed=0, int random_plies=0):
    """One playout from the search's root, move by move (for tests): (the
    moves as (seat, Play or None for a pass), team 0's result). The first
    random_plies moves are uniformly random legal moves, then the policy's;
    forced passes included."""
    cdef EstimatorCore ec = EstimatorCore(search, seed)
    cdef SState st = search.root
    cdef CPlay mv
    cdef int k = 0, n, seat
    cdef CPlay* buf = search.cx.pool
    line = []
    while not st_team_out(&st):
        seat = st.turn
        if k < random_plies:
            n = gen_moves(&search.cx, &st, buf, SPOOL)
            if n <= 0:
                raise RuntimeError("play buffer overflow")
            mv = buf[est_rand(&ec.E) % <uint64_t>n]
        elif est_policy(&ec.E, &st, &mv) < 0:
            raise RuntimeError("play buffer overflow")
        line.append((seat, make_play(&mv, search.cx.lv) if mv.size else None))
        st_apply(&st, &mv)
        k += 1
    return line, st_final_value(&st)


def _move_playouts(EndgameSearch search, unsigned long long seed=0):
    """Each root move's playout result (team 0's), in the search's order: the
    move, then the policy to the end of the deal (benchmarks: the policy's
    quality as an evaluator against exact values)."""
    cdef EstimatorCore ec = EstimatorCore(search, seed)
    cdef SState st
    cdef int i, v = 0
    out = []
    for i in range(search.nroot):
        st = search.root
        st_apply(&st, &search.rootmoves[i])
        if st_team_out(&st):
            v = st_final_value(&st)
        elif est_playout(&ec.E, &st, &v) < 0:
            raise RuntimeError("play buffer overflow")
        out.append(v)
    return out

