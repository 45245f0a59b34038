# A search's context (SCtx): its buffers and caches, its limits and the
# abort flag (included by _core.pyx; see _state.pxi).

ctypedef struct HSum:
    uint64_t key       # the seat's hand key (0: empty entry)
    short maxkey[NTYPE]  # per non-bomb type: the highest rank key it can play, -1
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
    gf_flag abort           # 0 running; 1 node or time limit, 2 move buffer
                            # overflow, 3 interrupted, 4 cancelled (gf_port.h:
                            # read and written only through the abort helpers)
    HSum* hsum              # per-hand summaries (direct-mapped cache)
    MPEntry* mpc            # min plays per hand (direct-mapped cache)
    DecompWork* dws
    MCEntry* mc             # lead plays per hand (direct-mapped cache)
    CPlay* arena            # ... stored here, as a ring
    int apos
    int agen
    void* progress_cb       # a Python callable(nodes) or NULL (borrowed)
    int pass_w              # order_moves: the malus of a pass when an
                            # opponent owns the table (see EndgameSearch)
    ROEntry* roc            # run-out test results (direct-mapped cache)
    long long runouts       # nodes cut by the run-out bound (statistics)
    uint64_t* kt            # refutation table: key high half | move hash


# ----------------------------------------------------------------------------
# The abort flag (an atomic: other threads stop or cancel a running search)
# ----------------------------------------------------------------------------

cdef inline int aborted(SCtx* cx) noexcept nogil:
    return flag_load(&cx.abort)


cdef inline void set_abort(SCtx* cx, int why) noexcept nogil:
    flag_store(&cx.abort, why)


cdef void report_progress(SCtx* cx) noexcept nogil:
    """Every 2**18 nodes: take the GIL, let Python handle signals (Ctrl-C
    stops the search: abort = 3) and call the progress callback, if any."""
    with gil:
        try:
            if PyErr_CheckSignals() != 0:
                set_abort(cx, 3)
                return
            if cx.progress_cb != NULL:
                (<object>cx.progress_cb)(cx.nodes)
        except BaseException:
            set_abort(cx, 3)


cdef inline int check_limits(SCtx* cx) noexcept nogil:
    if cx.max_nodes > 0 and cx.nodes >= cx.max_nodes:
        set_abort(cx, 1)
    elif cx.deadline > 0 and (cx.nodes & 1023) == 0 and now_seconds() > cx.deadline:
        set_abort(cx, 1)
    elif (cx.nodes & 0x3FFFF) == 0:
        report_progress(cx)
    return aborted(cx)
