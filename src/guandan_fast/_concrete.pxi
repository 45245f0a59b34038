# Concrete plays: the competition platform's action lists (docs/platform.md).
# Included by _core.pyx.
#
# The pattern enumeration (enumerate_plays) lists one play per pattern
# (RULES §8): the suits of the non-wild cards outside straight flushes are a
# choice of which physical cards to give. The platform lists every such
# choice separately. This second enumeration mode expands each pattern into
# its concrete choices: for every group of natural cards of one rank that the
# pattern uses (k cards of rank r), every distinct sub-multiset of size k of
# the hand's natural cards of rank r; the product over the pattern's groups.
#
# Why the expansion lists each concrete play exactly once, and every one:
# - a concrete play (reading + cards) has exactly one pattern: the cards fix
#   the multiset of ranks with the wilds as W (the heart level card is always
#   counted as a wild, RULES §8), and the reading fixes type, rank and suit;
#   so the expansions of two different patterns never meet;
# - within one pattern, the groups have distinct ranks (a straight's, tube's
#   or plate's positions are distinct ranks, a full house's triple and pair
#   differ, the other types have one rank), so distinct choices per group
#   give distinct card multisets; and every legal choice of cards for the
#   pattern picks, per group, some sub-multiset of the naturals of its rank;
# - a choice is a legal play of the pattern's reading whatever suits it
#   takes, except the straight under flush_is_always_bomb: then a straight
#   whose naturals are all of one suit is only a straight flush (the pattern
#   enumeration applies the same test), so those choices are skipped;
# - a straight flush's cards are fixed by its suit and its wild positions,
#   and the joker cards are one slot each: one choice.

DEF MAXSUB = 20         # sub-multisets of one rank of one size: at most 19 (4 suits x 2)
DEF MAXCONC = 65536     # capacity of the concrete buffer
DEF T_PASS = 10         # the pass row of an action array

ctypedef struct SubSets:
    u8 n[15][11]                 # number of choices of k naturals of rank r
    u8 ch[15][11][MAXSUB][8]     # the card slots of each choice


cdef void build_subsets(const HandInfo* h, SubSets* ss) noexcept nogil:
    """Every distinct sub-multiset of the natural cards of each rank, by size."""
    cdef int r, x0, x1, x2, x3, k, i, m, s
    cdef int c[4]
    cdef int x[4]
    memset(ss.n, 0, sizeof(ss.n))
    for r in range(13):
        if h.nat[r] == 0:
            continue
        for s in range(4):
            c[s] = h.scnt[s][r]
        for x0 in range(c[0], -1, -1):
            for x1 in range(c[1], -1, -1):
                for x2 in range(c[2], -1, -1):
                    for x3 in range(c[3], -1, -1):
                        k = x0 + x1 + x2 + x3
                        if k == 0:
                            continue
                        x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3
                        m = ss.n[r][k]
                        ss.n[r][k] = m + 1
                        i = 0
                        for s in range(4):
                            while x[s]:
                                ss.ch[r][k][m][i] = <u8>(s * 13 + r)
                                i += 1
                                x[s] -= 1
    for r in range(13, 15):
        for k in range(1, h.nat[r] + 1):
            ss.n[r][k] = 1
            for i in range(k):
                ss.ch[r][k][0][i] = <u8>(52 + r - 13)


cdef int expand_pattern(const HandInfo* h, const SubSets* ss, const CPlay* p,
                        CPlay* out, int n, int cap) noexcept nogil:
    """Append every concrete choice of cards of pattern p to out[n:]; the new
    count, or -1 when cap is reached."""
    cdef int ng = 0, i, j, g, r, k, s0, same, nat_seen
    cdef int gstart[10]
    cdef int grank[10]
    cdef int glen[10]
    cdef int idx[10]
    cdef CPlay* q
    cdef const u8* chosen
    if p.type == T_STRAIGHT_FLUSH or p.type == T_JOKER_BOMB:
        if n >= cap:
            return -1
        out[n] = p[0]
        return n + 1
    # the groups: maximal runs of natural cards of one rank in the template
    i = 0
    while i < p.size:
        if p.cards[i] == h.wild_id:
            i += 1
            continue
        r = card_rank(p.cards[i])
        j = i + 1
        while j < p.size and p.cards[j] != h.wild_id and card_rank(p.cards[j]) == r:
            j += 1
        gstart[ng] = i
        grank[ng] = r
        glen[ng] = j - i
        idx[ng] = 0
        ng += 1
        i = j
    while True:
        if n >= cap:
            return -1
        q = &out[n]
        q[0] = p[0]
        for g in range(ng):
            chosen = ss.ch[grank[g]][glen[g]][idx[g]]
            for j in range(glen[g]):
                q.cards[gstart[g] + j] = chosen[j]
        same = 0
        if p.type == T_STRAIGHT and (h.flags & F_FLUSH_ALWAYS_BOMB):
            same = 1
            s0 = -1
            for j in range(q.size):
                if q.cards[j] == h.wild_id:
                    continue
                if s0 < 0:
                    s0 = card_suit(q.cards[j])
                elif card_suit(q.cards[j]) != s0:
                    same = 0
                    break
        if not same:
            n += 1
        # next choice (odometer over the groups)
        g = 0
        while g < ng:
            idx[g] += 1
            if idx[g] < ss.n[grank[g]][glen[g]]:
                break
            idx[g] = 0
            g += 1
        if g == ng:
            return n


cdef SubSets _subsets
cdef CPlay* _pat_buf = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
cdef CPlay* _conc_buf = <CPlay*>malloc(MAXCONC * sizeof(CPlay))


cdef int concrete_plays_c(const u8* cnt, int lv, int flags, const CPlay* table,
                          CPlay* pat, CPlay* out, int cap) noexcept nogil:
    """Every concrete play of the hand (those beating ``table`` when not NULL),
    into out; the count, or -1 on overflow."""
    cdef HandInfo h
    cdef int np_, i, n = 0
    if table == NULL:
        np_ = enumerate_plays(cnt, lv, flags, ALL_TYPES, pat, MAXPLAY)
    else:
        np_ = beating_plays_c(cnt, lv, flags, table, pat, MAXPLAY)
    if np_ < 0:
        return -1
    hand_info(cnt, lv, flags, &h)
    build_subsets(&h, &_subsets)
    for i in range(np_):
        n = expand_pattern(&h, &_subsets, &pat[i], out, n, cap)
        if n < 0:
            return -1
    return n


# -- the platform's names -------------------------------------------------------

PLATFORM_TYPE_NAMES = ("Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "ThreePair",
                       "TwoTrips", "StraightFlush", "Bomb", "Bomb")
_PASS_ACTION_ITEMS = ("PASS", "PASS", "PASS")

cdef inline int platform_rank(const CPlay* p) noexcept nogil:
    """The rank index the platform writes: the lowest card of a sequence
    (A-low as A, i.e. 12), the play's key rank otherwise; 15 for the joker bomb."""
    cdef int top
    if p.type == T_JOKER_BOMB:
        return 15
    if p.type == T_STRAIGHT or p.type == T_STRAIGHT_FLUSH:
        top = 13 if p.rank == 12 else p.rank + 1     # line position of the top card
        return line_rank(top - 4)
    if p.type == T_TUBE:
        top = 13 if p.rank == 12 else p.rank + 1
        return line_rank(top - 2)
    if p.type == T_PLATE:
        top = 13 if p.rank == 12 else p.rank + 1
        return line_rank(top - 1)
    return p.rank

_PRANK_CHARS = tuple("23456789TJQKABR") + ("JOKER",)


cdef int _run_concrete(const u8[::1] counts, int lv, int flags, Play table) except -2:
    cdef int n
    cdef const CPlay* tp = NULL
    assert core_args_ok(counts, lv, flags, 28), "invalid core arguments"
    assert table is None or table.level_index == lv, "a table play at another level"
    if table is not None:
        tp = &table.p
    n = concrete_plays_c(&counts[0], lv, flags, tp, _pat_buf, _conc_buf, MAXCONC)
    if n < 0:
        raise RuntimeError("concrete play buffer overflow")
    return n


def _py_concrete_list(const u8[::1] counts, int lv, int flags, Play table=None):
    """The platform's actionList of a 54-count hand: ``[type, rank, cards]``
    lists (PASS first when following ``table``)."""
    cdef int n = _run_concrete(counts, lv, flags, table)
    cdef int i, j, k = 0
    cdef CPlay* p
    cdef list out, cards
    cdef tuple toks = _TOKENS
    cdef tuple tnames = PLATFORM_TYPE_NAMES
    cdef tuple rchars = _PRANK_CHARS
    if table is not None:
        out = [None] * (n + 1)
        out[0] = ["PASS", "PASS", "PASS"]
        k = 1
    else:
        out = [None] * n
    for i in range(n):
        p = &_conc_buf[i]
        cards = [None] * p.size
        for j in range(p.size):
            cards[j] = toks[p.cards[j]]
        out[k + i] = [tnames[p.type], rchars[platform_rank(p)], cards]
    return out


def _py_concrete_plays(const u8[::1] counts, int lv, int flags, Play table=None):
    """The Play of each entry of ``_py_concrete_list`` (None for the PASS)."""
    cdef int n = _run_concrete(counts, lv, flags, table)
    cdef int i, k = 0
    cdef list out
    if table is not None:
        out = [None] * (n + 1)
        k = 1
    else:
        out = [None] * n
    for i in range(n):
        out[k + i] = make_play(&_conc_buf[i], lv)
    return out


ACTION_ARRAY_COLUMNS = ("type", "rank", "platform_rank", "size", "wilds", "suit") + tuple(
    "n_" + t for t in _TOKENS)


cdef void fill_action_rows(const CPlay* buf, int n, int first, u8[:, ::1] arr) noexcept nogil:
    cdef int i, j, row
    cdef const CPlay* p
    for i in range(n):
        p = &buf[i]
        row = first + i
        arr[row, 0] = p.type
        arr[row, 1] = p.rank
        arr[row, 2] = <u8>platform_rank(p)
        arr[row, 3] = p.size
        arr[row, 4] = p.nwild
        arr[row, 5] = p.suit
        for j in range(p.size):
            arr[row, 6 + p.cards[j]] += 1


def _py_concrete_array(const u8[::1] counts, int lv, int flags, Play table=None):
    """The actionList as an (n, 60) uint8 array, one row per entry in the
    order of ``_py_concrete_list`` (row 0 the pass, type 10, when following)."""
    cdef int n = _run_concrete(counts, lv, flags, table)
    cdef int first = 0 if table is None else 1
    arr = _np.zeros((n + first, 60), dtype=_np.uint8)
    cdef u8[:, ::1] view = arr
    if first:
        view[0, 0] = T_PASS
        view[0, 1] = 255
        view[0, 2] = 255
        view[0, 5] = NOSUIT
    fill_action_rows(_conc_buf, n, first, view)
    return arr


def _py_concrete_count(const u8[::1] counts, int lv, int flags, Play table=None):
    """The number of concrete plays (no PASS), without building anything."""
    return _run_concrete(counts, lv, flags, table)
