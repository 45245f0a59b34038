# Perfect-information estimator beyond the exact horizon (issue 18).
# Included by _core.pyx after the search, before _est_playout.pxi (the
# playout policy) and _est_driver.pxi (EstimatorCore, the Python face).
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
# A leaf's playout is est_playout (_est_playout.pxi).
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
