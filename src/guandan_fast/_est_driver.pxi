# The estimator's Python face (included by _core.pyx after _est_playout.pxi):
# EstimatorCore, used by engine/estimate.py, and the private hooks of the
# benchmarks and tests (_playouts, _playout_line, _move_playouts).


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
