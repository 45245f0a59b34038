# Exact minimum number of plays (RULES §8), included by _core.pyx.
#
# The count depends only on ranks: a straight flush is a straight by its
# ranks and either way one play, so suits never change the minimum. The hand
# is scanned along the sequence line A(low) 2 3 ... K A(high) with a forward
# dynamic programme whose state holds
#   s1..s4  straights still open, started 1..4 positions back,
#   t1, t2  tubes started 1 or 2 positions back,
#   p1      plates started at the previous position,
#   wl      wilds not yet placed,
#   ah      natural aces left for the high end (some may open A-low runs),
# and, per state, a vector over D = (triples - pairs) of the least
#   cost2 = 2*(sequences + singles + bombs) + triples + pairs.
# Triples and pairs are matched into full houses at the end, which costs
# max(T, P) = (T + P + |D|) / 2 plays; a triple matched with a pair of its own
# rank is five of a kind, a bomb, so the relaxation is exact. What is left of
# each rank (after the sequences it feeds) is split by a small table of the
# Pareto-optimal (cost2, dD) splits into singles, pairs, triples and bombs.
# Wilds are extra cards of any natural rank (placed where the DP chooses; at
# the level rank they are themselves); the jokers close the scan.

DEF DW = 32            # D vector width, D in -16..15
DEF DOFF = 16
DEF INF8 = 200         # no value (any sum with it stays >= INF8; min() keeps it there)
DEF DPAD = 8           # padding either side of a vector read shifted by a split's dD
DEF LAYER_CAP = 8192
DEF HASH_BITS = 14
DEF HASH_SIZE = 16384

ctypedef struct Layer:
    int n
    int nused                    # hash slots taken (a layer loaded from a snapshot has none)
    unsigned int keys[LAYER_CAP]
    u8 vec[LAYER_CAP][DW]
    int slot[HASH_SIZE]          # index + 1, 0 = empty
    int used[LAYER_CAP]          # hash slots in use (to clear them)

ctypedef struct DecompWork:
    Layer a
    Layer b

# group split table: for m cards of one rank, options (cost2, dD)
cdef int GOPT_N[11]
cdef int GOPT_C[11][8]
cdef int GOPT_D[11][8]


cdef void _init_group_options():
    cdef int m, a, b, c, d, cost, dd, i, j, n, keep
    cdef int cc[64]
    cdef int cd[64]
    for m in range(11):
        n = 0
        # a singles, b pairs, c triples, d bombs (one bomb takes the rest >= 4)
        for d in range(2):
            for c in range(4):
                for b in range(6):
                    a = m - 2 * b - 3 * c
                    if a < 0:
                        continue
                    if d == 1:
                        # the bomb takes the rest of the cards; no singles then
                        if a < 4:
                            continue
                        cost = 2 + b + c
                    else:
                        cost = 2 * a + b + c
                    dd = c - b
                    cc[n] = cost; cd[n] = dd; n += 1
        # keep the options not dominated: (c', d') is dominated by (c, d)
        # when c' >= c + |d - d'|
        GOPT_N[m] = 0
        for i in range(n):
            keep = 1
            for j in range(n):
                if j == i:
                    continue
                if cc[i] >= cc[j] + abs(cd[i] - cd[j]):
                    if cc[i] > cc[j] or cd[i] != cd[j] or j < i:
                        keep = 0
                        break
            if keep:
                GOPT_C[m][GOPT_N[m]] = cc[i]
                GOPT_D[m][GOPT_N[m]] = cd[i]
                GOPT_N[m] += 1

_init_group_options()


cdef inline unsigned int pack_key(int s1, int s2, int s3, int s4, int t1, int t2,
                                  int p1, int wl, int ah) noexcept nogil:
    return (s1 | (s2 << 3) | (s3 << 6) | (s4 << 9) | (t1 << 12) | (t2 << 15)
            | (p1 << 18) | (wl << 20) | (ah << 22))


cdef inline void layer_clear(Layer* L) noexcept nogil:
    cdef int i
    for i in range(L.nused):
        L.slot[L.used[i]] = 0
    L.n = 0
    L.nused = 0


cdef inline int layer_get(Layer* L, unsigned int key) noexcept nogil:
    """Index of the state with this key, added (all INF) if new; -1 if full."""
    cdef unsigned int h = (key * 2654435761u) >> (32 - HASH_BITS)
    cdef int idx
    while True:
        idx = L.slot[h]
        if idx == 0:
            break
        if L.keys[idx - 1] == key:
            return idx - 1
        h = (h + 1) & (HASH_SIZE - 1)
    if L.n >= LAYER_CAP:
        return -1
    idx = L.n
    L.n += 1
    L.slot[h] = idx + 1
    L.used[L.nused] = h
    L.nused += 1
    L.keys[idx] = key
    memset(&L.vec[idx][0], INF8, DW)
    return idx


cdef inline void relax(u8* dst, const u8* src, int base, int m) noexcept nogil:
    """dst[d + dD] = min(dst, src[d] + base + cost) over the split options of
    m, for every d (src: a vector padded with DPAD values INF8 either side,
    so a shifted read never leaves it; |dD| <= 5 < DPAD). The fixed-length
    loops compile to vector min() instructions; no sum reaches 256 (values
    are <= INF8 = 200, costs <= 44)."""
    cdef int g, nd
    cdef u8 c, v
    cdef const u8* sh
    for g in range(GOPT_N[m]):
        c = <u8>(GOPT_C[m][g] + base)
        sh = src + DPAD - GOPT_D[m][g]
        for nd in range(DW):
            v = sh[nd] + c
            dst[nd] = v if v < dst[nd] else dst[nd]


ctypedef struct Snap:
    # the DP layers of one hand after each line position 0..13, for reuse by
    # hands that differ from it only at higher positions (or in the jokers)
    int ok
    int cap
    int total
    int off[15]              # layer after position p: states off[p] .. off[p+1]-1
    unsigned int* keys
    u8* vec                  # DW bytes per state


cdef int snap_alloc(Snap* sn, int cap) noexcept nogil:
    sn.cap = cap
    sn.total = 0
    sn.ok = 1
    sn.keys = <unsigned int*>malloc(cap * sizeof(unsigned int))
    sn.vec = <u8*>malloc(cap * DW)
    if sn.keys == NULL or sn.vec == NULL:
        sn.ok = 0
        return -1
    return 0


cdef void snap_free(Snap* sn) noexcept nogil:
    free(sn.keys); free(sn.vec)
    sn.keys = NULL; sn.vec = NULL
    sn.ok = 0


cdef void snap_save(Snap* sn, const Layer* L, int pos) noexcept nogil:
    cdef int i, b = sn.total
    sn.off[pos] = b
    if not sn.ok or b + L.n > sn.cap:
        sn.ok = 0
        return
    for i in range(L.n):
        sn.keys[b + i] = L.keys[i]
        memcpy(&sn.vec[(b + i) * DW], &L.vec[i][0], DW)
    sn.total = b + L.n
    sn.off[pos + 1] = sn.total


cdef void snap_load(const Snap* sn, Layer* L, int pos) noexcept nogil:
    cdef int i, b = sn.off[pos], n = sn.off[pos + 1] - sn.off[pos]
    layer_clear(L)
    for i in range(n):
        L.keys[i] = sn.keys[b + i]
        memcpy(&L.vec[i][0], &sn.vec[(b + i) * DW], DW)
    L.n = n


cdef int c_min_plays_ranks(const u8* nat, int w, int flags, DecompWork* ws) noexcept nogil:
    """Minimum plays of a hand given natural counts per rank (nat[0..12] for
    2..A, nat[13] small jokers, nat[14] big jokers) and w wilds. Returns -1
    only if the work space overflows (never seen on 27-card hands)."""
    return dp_min_plays(nat, w, flags, ws, NULL, NULL, 0)


cdef int dp_min_plays(const u8* nat, int w, int flags, DecompWork* ws,
                      Snap* save, const Snap* load, int start) noexcept nogil:
    """The DP. With ``save``, the layer after each position is kept in it.
    With ``load`` and 1 <= start <= 14, the layer after position start-1 is
    taken from ``load`` (a hand with the same wilds and aces and the same
    counts below that position; its layers can only hold extra states, which
    die or are genuinely feasible) and the scan resumes at ``start``."""
    cdef Layer* cur = &ws.a
    cdef Layer* nxt = &ws.b
    cdef Layer* tmp
    cdef int total = w, r
    for r in range(15):
        total += nat[r]
    if total == 0:
        return 0
    layer_clear(cur)
    layer_clear(nxt)
    if save != NULL:
        save.total = 0
        save.ok = save.keys != NULL

    cdef int nA = nat[12]
    cdef int ns, nt, np_, k, a, need, idx
    cdef int avail_next[14]
    cdef int i, j, n, req, cons, m, lim, s1, s2, s3, s4, t1, t2, p1, wl, ah
    cdef unsigned int key
    cdef int base
    cdef u8 padded[DW + 2 * DPAD]
    memset(padded, INF8, DW + 2 * DPAD)

    # sequence-line availability (naturals), for early pruning of starts
    for i in range(14):
        avail_next[i] = nat[line_rank(i)]

    cdef int first = 1
    if load != NULL and start >= 1:
        snap_load(load, cur, start - 1)
        first = start
    # position 0: A as the low end of sequences (no groups here)
    for ns in range(0, 6 if first == 1 else 0):
        for nt in range(0, 4):
            for np_ in range(0, 3):
                need = ns + 2 * nt + 3 * np_
                if need > nA + w:
                    continue
                if ns and (avail_next[1] + w < ns or avail_next[2] + w < ns
                           or avail_next[3] + w < ns or avail_next[4] + w < ns):
                    continue
                if nt and (avail_next[1] + w < 2 * nt or avail_next[2] + w < 2 * nt):
                    continue
                if np_ and avail_next[1] + w < 3 * np_:
                    continue
                for k in range(0, w + 1):
                    a = need - k
                    if a < 0 or a > nA:
                        continue
                    key = pack_key(ns, 0, 0, 0, nt, 0, np_, w - k, nA - a)
                    idx = layer_get(cur, key)
                    if idx < 0:
                        return -1
                    base = 2 * (ns + nt + np_)
                    if base < cur.vec[idx][DOFF]:
                        cur.vec[idx][DOFF] = <u8>base

    if save != NULL:
        snap_save(save, cur, 0)
    # positions 1..13: ranks 2..A
    global _dp_states
    _dp_states = 0
    cdef int si
    cdef int maxns, maxnt, maxnp
    for i in range(first, 14):
        layer_clear(nxt)
        _dp_states += cur.n
        for si in range(cur.n):
            key = cur.keys[si]
            s1 = key & 7; s2 = (key >> 3) & 7; s3 = (key >> 6) & 7; s4 = (key >> 9) & 7
            t1 = (key >> 12) & 7; t2 = (key >> 15) & 7; p1 = (key >> 18) & 3
            wl = (key >> 20) & 3; ah = (key >> 22) & 15
            n = ah if i == 13 else nat[i - 1]
            req = s1 + s2 + s3 + s4 + 2 * (t1 + t2) + 3 * p1
            if req > n + wl:
                continue
            memcpy(&padded[DPAD], &cur.vec[si][0], DW)
            maxns = 0
            if i <= 9:
                maxns = 5
                for j in range(1, 5):
                    lim = avail_next[i + j] + wl - (s1 + s2 + s3 if j == 1 else
                                                    (s1 + s2 if j == 2 else (s1 if j == 3 else 0)))
                    if lim < maxns:
                        maxns = lim
                if maxns < 0:
                    maxns = 0
            maxnt = 0
            if i <= 11:
                maxnt = 4
                for j in range(1, 3):
                    lim = (avail_next[i + j] + wl) // 2
                    if lim < maxnt:
                        maxnt = lim
            maxnp = 0
            if i <= 12:
                maxnp = (avail_next[i + 1] + wl) // 3
                if maxnp > 3:
                    maxnp = 3
            for k in range(0, wl + 1):
                for ns in range(0, maxns + 1):
                    for nt in range(0, maxnt + 1):
                        for np_ in range(0, maxnp + 1):
                            cons = req + ns + 2 * nt + 3 * np_
                            if cons > n + k:
                                break
                            m = n + k - cons
                            if m > 10:
                                continue
                            key = pack_key(ns, s1, s2, s3, nt, t1, np_, wl - k,
                                           0 if i == 13 else ah)
                            idx = layer_get(nxt, key)
                            if idx < 0:
                                return -1
                            base = 2 * (ns + nt + np_)
                            relax(&nxt.vec[idx][0], padded, base, m)
        tmp = cur; cur = nxt; nxt = tmp
        if save != NULL:
            snap_save(save, cur, i)

    # jokers, then full houses matched: plays = (cost2 + |D|) / 2
    cdef int best = 1000000, v, d, jc, jd, g
    cdef int nb = nat[13], nr = nat[14]
    cdef int jok_n = 0
    cdef int jok_c[3]
    cdef int jok_d[3]
    cdef int pair_c = 2, pair_d = 0
    if flags & F_JOKER_PAIR_FH:
        pair_c = 1; pair_d = -1
    # joker options (cost2, dD)
    jc = 0; jd = 0
    if nb == 1:
        jc += 2
    elif nb == 2:
        jc += pair_c; jd += pair_d
    if nr == 1:
        jc += 2
    elif nr == 2:
        jc += pair_c; jd += pair_d
    jok_c[0] = jc; jok_d[0] = jd; jok_n = 1
    if nb == 2 and nr == 2:
        jok_c[1] = 2; jok_d[1] = 0; jok_n = 2
    for si in range(cur.n):
        key = cur.keys[si]
        if (key >> 20) & 3:
            continue            # every wild must be placed
        for d in range(DW):
            if cur.vec[si][d] >= INF8:
                continue
            for g in range(jok_n):
                v = cur.vec[si][d] + jok_c[g] + abs(d - DOFF + jok_d[g])
                if v < best:
                    best = v
    if best >= 1000000:
        return -1
    return best // 2


cdef inline void nat_counts(const u8* cnt, int lv, u8* nat, int* w) noexcept nogil:
    cdef int s, r
    memset(nat, 0, 15)
    for s in range(4):
        for r in range(13):
            nat[r] += cnt[s * 13 + r]
    nat[lv] -= cnt[SUIT_H * 13 + lv]
    nat[13] = cnt[52]
    nat[14] = cnt[53]
    w[0] = cnt[SUIT_H * 13 + lv]


cdef int c_min_plays(const u8* cnt, int lv, int flags, DecompWork* ws) noexcept nogil:
    """Minimum plays of a 54-count hand (-1 on work-space overflow)."""
    cdef u8 nat[15]
    cdef int w
    nat_counts(cnt, lv, nat, &w)
    return c_min_plays_ranks(nat, w, flags, ws)


cdef DecompWork* new_decomp_work() noexcept nogil:
    cdef DecompWork* ws = <DecompWork*>malloc(sizeof(DecompWork))
    if ws != NULL:
        memset(&ws.a.slot[0], 0, sizeof(ws.a.slot))
        memset(&ws.b.slot[0], 0, sizeof(ws.b.slot))
        ws.a.n = 0
        ws.b.n = 0
        ws.a.nused = 0
        ws.b.nused = 0
    return ws


cdef DecompWork* _decomp_ws = new_decomp_work()
cdef int _dp_states = 0


def _last_dp_states():
    """States the last single-threaded min_plays call expanded (profiling)."""
    return _dp_states


def _py_min_plays(const u8[::1] counts, int lv, int flags):
    """Exact minimum number of plays of a 54-count hand."""
    assert core_args_ok(counts, lv, flags, 28), "invalid core arguments"
    cdef int r = c_min_plays(&counts[0], lv, flags, _decomp_ws)
    if r < 0:
        raise RuntimeError("decomposition work space overflow")
    return r


def _py_min_plays_batch(const u8[:, ::1] counts, const long[::1] levels, int flags):
    """Minimum plays of each row of an (N, 54) uint8 array; GIL released."""
    cdef Py_ssize_t n = counts.shape[0], i
    if counts.shape[1] != NCARD:
        raise ValueError("counts must have 54 columns")
    if levels.shape[0] != n:
        raise ValueError("levels must have one entry per row")
    for i in range(n):
        assert core_args_ok(counts[i], <int>levels[i], flags, 28), "invalid core arguments"
    out = _np.empty(n, dtype=_np.int32)
    cdef int[::1] o = out
    cdef DecompWork* ws = new_decomp_work()
    cdef int bad = 0
    if ws == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                o[i] = c_min_plays(&counts[i, 0], <int>levels[i], flags, ws)
                if o[i] < 0:
                    bad = 1
    finally:
        free(ws)
    if bad:
        raise RuntimeError("decomposition work space overflow")
    return out


def group_split_options():
    """The (cost2, dD) split table, for tests: {m: [(cost2, dD), ...]}."""
    return {m: [(GOPT_C[m][g], GOPT_D[m][g]) for g in range(GOPT_N[m])] for m in range(11)}


DEF AFTER_CACHE = 2048


cdef int min_plays_after(const u8* cnt, int lv, int flags, const CPlay* buf, int n,
                         int* out, DecompWork* ws) noexcept nogil:
    """out[i] = minimum plays of the hand once play i is made (0 if it goes
    out). The DP layers of the whole hand (and of it without one and two
    wilds) are kept, and a play that leaves the aces resumes the scan at the
    lowest rank it changes.
    Plays that leave the same rank counts share one result (a small cache
    keyed on the 15 natural counts and the wilds). Returns -1 on work-space
    overflow."""
    cdef u8 local[NCARD]
    cdef u8 nat[15]
    cdef u8 nat0[15]
    cdef int i, j, w, w0, r, slot, start, rc = 0
    cdef unsigned long long key, h
    cdef Snap sn[3]            # the whole hand's layers with 0, 1, 2 wilds taken out
    cdef int d
    cdef unsigned long long* keys = <unsigned long long*>malloc(
        AFTER_CACHE * sizeof(unsigned long long))
    cdef int* vals = <int*>malloc(AFTER_CACHE * sizeof(int))
    if keys == NULL or vals == NULL:
        free(keys); free(vals)
        return -1
    memset(keys, 0, AFTER_CACHE * sizeof(unsigned long long))
    memcpy(local, cnt, NCARD)
    nat_counts(local, lv, nat0, &w0)
    for d in range(3):
        sn[d].keys = NULL; sn[d].vec = NULL
        sn[d].ok = 0
        if d <= w0:
            snap_alloc(&sn[d], 16384)
            if dp_min_plays(nat0, w0 - d, flags, ws, &sn[d], NULL, 0) < 0:
                sn[d].ok = 0
    for i in range(n):
        for j in range(buf[i].size):
            local[buf[i].cards[j]] -= 1
        nat_counts(local, lv, nat, &w)
        key = <unsigned long long>w + 1       # never 0: 0 marks an empty slot
        for r in range(15):
            key = key * 11 + nat[r]           # counts <= 8, wilds <= 2: exact
        h = (key * 0x9E3779B97F4A7C15ULL) >> 53
        slot = <int>h
        while keys[slot] != 0 and keys[slot] != key:
            slot = (slot + 1) & (AFTER_CACHE - 1)
        if keys[slot] == key:
            out[i] = vals[slot]
        else:
            start = 0
            d = w0 - w                        # wilds the play used
            if 0 <= d <= 2 and sn[d].ok and nat[12] == nat0[12]:
                start = 14                    # only jokers changed: final layer
                for r in range(12):
                    if nat[r] != nat0[r]:
                        start = r + 1         # line position of rank r
                        break
            if start:
                out[i] = dp_min_plays(nat, w, flags, ws, NULL, &sn[d], start)
            else:
                out[i] = dp_min_plays(nat, w, flags, ws, NULL, NULL, 0)
            keys[slot] = key
            vals[slot] = out[i]
        for j in range(buf[i].size):
            local[buf[i].cards[j]] += 1
        if out[i] < 0:
            rc = -1
            break
    for d in range(3):
        snap_free(&sn[d])
    free(keys); free(vals)
    return rc


def _py_plays_after(const u8[::1] counts, int lv, int flags, Play table=None):
    """The plays of a hand (those beating ``table`` when given) and, for each,
    the minimum plays left afterwards: (list[Play], list[int])."""
    cdef int n
    assert core_args_ok(counts, lv, flags, 28), "invalid core arguments"
    assert table is None or table.level_index == lv, "a table play at another level"
    if table is None:
        n = enumerate_plays(&counts[0], lv, flags, ALL_TYPES, _scratch, MAXPLAY)
    else:
        n = beating_plays_c(&counts[0], lv, flags, &table.p, _scratch, MAXPLAY)
    if n < 0:
        raise RuntimeError("play buffer overflow")
    cdef int* after = <int*>malloc((n + 1) * sizeof(int))
    if after == NULL:
        raise MemoryError()
    cdef int rc
    try:
        rc = min_plays_after(&counts[0], lv, flags, _scratch, n, after, _decomp_ws)
        if rc < 0:
            raise RuntimeError("decomposition work space overflow")
        return plays_to_list(_scratch, n, lv), [after[i] for i in range(n)]
    finally:
        free(after)
