# Keys of the endgame search (included by _core.pyx; see _state.pxi):
# the Zobrist tables, the key of a position (exact, or relabelled once no
# sequence play can be formed) and the hash of a move.

cdef uint64_t Z_HAND[4][54][3]
cdef uint64_t Z_TURN[4]
cdef uint64_t Z_FIRST[5]
cdef uint64_t Z_LEAD
cdef uint64_t Z_SEAT[4]
cdef uint64_t NIBBLES[128]       # bit b of i set: nibble b all ones
cdef uint64_t Z_MC[4][2]         # lead_plays: the key part of (seat, type mask)
cdef uint64_t Z_LVL[14]          # st_key_relabeled: the level rank's label


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
    for s in range(4):
        seed += 1
        Z_SEAT[s] = smix(seed)
    for c in range(128):
        NIBBLES[c] = 0
        for k in range(7):
            if (c >> k) & 1:
                NIBBLES[c] |= (<uint64_t>0xF) << (4 * k)


_init_zobrist()


cdef inline uint64_t beat_code(const CPlay* t, int rank) noexcept nogil:
    """What matters of a standing play t is what beats it: its type, size
    and rank (rank: the one the caller compares by), packed in one number."""
    return (<uint64_t>t.type * 128 + rank) * 32 + t.size


cdef inline uint64_t st_key_rest(const SState* st, int table_rank) noexcept nogil:
    """The key of everything but the hands."""
    cdef uint64_t k = Z_TURN[st.turn]
    k ^= Z_FIRST[st.fin[0] + 1 if st.nfin else 0]
    if st.owner < 0:
        k ^= Z_LEAD
    else:
        k ^= smix((beat_code(&st.table, table_rank) * 8 + st.owner) * 8
                  + st.passes + 1000003)
    return k


cdef uint64_t st_key_relabeled_by(const SState* st, int lv, int use_pext) noexcept nogil:
    """Key of a position where nobody can form a sequence play any more:
    then only the single-card order of the ranks matters (every other type
    compares by that order, and a wild always joins a natural rank held or
    stands as the level card), so the ranks present (in the hands, the level
    rank and the standing play's rank) are renumbered 0, 1, 2... in that
    order. Order-isomorphic positions (e.g. after playing the 8 or the 9 of
    8 9 when nobody else holds a card between them) share a key. Suits do
    not matter either: no straight flush can be formed. The key holds each
    hand's counts in label order (its rank-count nibbles at the ranks
    present, packed: a parallel bit extract), the wilds apart, the jokers
    as themselves, the table's label and the level's label."""
    cdef unsigned int m = (1u << 13), mo = (1u << 13), bits
    cdef int s, trank, ot, o
    cdef uint64_t k = 0, nm, c
    # each hand's term is kept in the state (rkh) and computed again only
    # when that hand changed or the set of ranks present did (the state is
    # a search's own copy: writing these cache fields changes no position)
    cdef SState* w = <SState*>st
    for s in range(4):
        m |= st.om[s]
        if s != st.owner:
            mo |= st.om[s]
    if m != w.rkm:
        w.rkm = m
        w.rkdirty = 15
    nm = NIBBLES[m & 0x7F] | (NIBBLES[m >> 7] << 28)
    for s in range(4):
        if not (w.rkdirty >> s) & 1:
            continue
        w.rkh[s] = 0
        if st.ncards[s] == 0:
            continue
        # at most 13 ranks present: 52 bits of counts, then the wilds and
        # the two jokers (0..2 each) in bits 56..61
        if use_pext:
            c = pext_hw(st.nib[s], nm)
        else:
            # the same packing by a loop over the ranks the seat holds
            c = 0
            bits = st.om[s]
            while bits:
                o = ctz(bits)
                bits &= bits - 1
                c |= ((st.nib[s] >> (4 * o)) & 0xF) << (4 * popcount(m & ((1u << o) - 1)))
        c |= (<uint64_t>st.hand[s][SUIT_H * 13 + lv] | (<uint64_t>st.hand[s][52] << 2)
              | (<uint64_t>st.hand[s][53] << 4)) << 56
        w.rkh[s] = smix(c ^ Z_SEAT[s])
    w.rkdirty = 0
    k = w.rkh[0] ^ w.rkh[1] ^ w.rkh[2] ^ w.rkh[3]
    # the standing play: only what the other seats can beat it with matters
    # (its owner never plays on it: the round ends or someone beats it first),
    # so its rank is placed among the ranks the others hold (and the level
    # rank): the number of those labels below it, twice, plus one when it
    # equals one of them. Leading the 5 or the 6 of a 5 6 that nobody else
    # holds gives one key.
    trank = 0
    if st.owner >= 0:
        if is_seq_type(st.table.type):
            trank = 0
        elif st.table.rank >= 13:
            trank = 64 + st.table.rank
        else:
            ot = order_of(st.table.rank, lv)
            trank = 2 * popcount(mo & m & ((1u << ot) - 1)) + ((mo >> ot) & 1)
    # where the level rank sits among the labels: a wild played as itself
    # is a level card, so its order against the table matters even when no
    # natural level card is held (e.g. wild vs a table ace or a table level card)
    k ^= Z_LVL[popcount(m & ((1u << 13) - 1))]
    return k ^ st_key_rest(st, trank) ^ 0x51AB31EDULL


gf_pext_init()      # PEXT where the CPU has it and it is fast (gf_port.h)


cdef inline uint64_t st_key_relabeled(const SState* st, int lv) noexcept nogil:
    # use_pext: the packing by PEXT or by the loop (the same words; the
    # tests compare the two through _test_keys)
    return st_key_relabeled_by(st, lv, gf_use_pext)


cdef inline uint64_t st_key(const SState* st, int lv) noexcept nogil:
    # the relabelled key once nobody can form a sequence play (its argument
    # of soundness is st_key_relabeled's docstring), else the exact one
    if st.seqmask == 0:
        return st_key_relabeled(st, lv)
    return st.hkey ^ st_key_rest(st, st.table.rank)


cdef uint64_t MH_MASK0[11]      # move_hash: the bytes of a CPlay it reads,
cdef uint64_t MH_MASK1[11]      # by the play's size (see move_hash)


cdef inline uint64_t mh_byte(int k) noexcept nogil:
    """The mask of byte k (0..7) of a word copied from memory."""
    cdef uint64_t one = 1
    if (<u8*>&one)[0] == 1:       # little-endian
        return 0xFFULL << (8 * k)
    return 0xFFULL << (8 * (7 - k))


cdef void _init_move_hash() noexcept nogil:
    cdef int sz, k
    for sz in range(11):
        # bytes 0-2 (type, rank, size) and 4 (suit); the cards from byte 6
        MH_MASK0[sz] = mh_byte(0) | mh_byte(1) | mh_byte(2) | mh_byte(4)
        MH_MASK1[sz] = 0
        for k in range(sz):
            if k < 2:
                MH_MASK0[sz] |= mh_byte(6 + k)
            else:
                MH_MASK1[sz] |= mh_byte(k - 2)


_init_move_hash()


cdef inline uint32_t move_hash(const CPlay* p) noexcept nogil:
    """A hash of a play's type, rank, size, suit and cards (the CPlay's 16
    bytes read as two words, masked to those fields and the cards it holds)."""
    cdef uint64_t w0, w1
    memcpy(&w0, p, 8)
    memcpy(&w1, (<const char*>p) + 8, 8)
    w0 &= MH_MASK0[p.size]
    w1 &= MH_MASK1[p.size]
    return <uint32_t>(smix(w0 * 0x9E3779B97F4A7C15ULL + smix(w1 + 7777)) | 2)   # 1 is the pass


cdef inline uint32_t move_id(const CPlay* p) noexcept nogil:
    """What the table and the refutation table keep of a move: its hash,
    1 for the pass (0: none)."""
    return move_hash(p) if p.size else 1


cdef void _init_key_tables() noexcept nogil:
    """Hash values the search would otherwise mix at every node."""
    cdef int s, k
    for s in range(4):
        Z_MC[s][0] = smix(<uint64_t>(s * 4096 + ALL_TYPES) + 99)
        Z_MC[s][1] = smix(<uint64_t>(s * 4096 + (ALL_TYPES & ~SEQ_TYPES)) + 99)
    for k in range(14):
        Z_LVL[k] = smix(<uint64_t>k + 0x1E7E1ULL)


_init_key_tables()

