# The sure run-out bound of the endgame search (included by _core.pyx; see
# _state.pxi): when the seat to act can play out its hand with nobody able
# to interfere, the order of finishing is partly known, which bounds the
# value without a search. The claim and its proof come first.

# ----------------------------------------------------------------------------
# Sure run-out (a bound: a cheap exact cut-off)
# ----------------------------------------------------------------------------
#
# Claim. Let seat m be on lead (a free lead: the first lead, the lead after a
# round, or the lead taken over by 接风). Call a play of m *safe* when no
# opponent of m holding cards can beat it (RULES §4, bombs included). If m's
# hand can be split into plays P1..Pk of which P1..Pk-1 are safe (Pk may be
# anything), then m's team can make sure that m is the next player to finish.
# Proof. m leads P1. Each opponent in turn cannot beat it and must pass; m's
# partner passes too (the team chooses the partner's moves as well: the value
# is a two-team minimax, RULES §8, and passing is always legal when following).
# So every other holder passes, the round ends and m, still holding cards,
# leads again (RULES §6), with every other hand unchanged. The same holds for
# P2..Pk-1 (safety is judged against the opponents' current hands, which do
# not change while they pass). Then m leads Pk, the rest of the hand, and is
# out: nobody else has played a card meanwhile, so m finishes next.
# Answered plays. The split may also hold pairs (U, A) of non-bombs of one
# type (so of one size), U unsafe and A *dominant*: its rank key above that
# of every play of the type any opponent holding cards can make (and, A
# being safe, no opponent holds a bomb). m leads U first. An opponent may
# beat it, by a play of U's type (no bombs), and the other one may beat that;
# m's partner passes. When m's turn comes back, the table is m's own U (all
# passed: the round ended and m leads, A kept for later, as a safe play) or
# an opponent's play of U's type, which A beats; m plays A, nobody can beat
# it, and m leads again. Each opponent plays at most once per pair, U.size
# cards, so while the sizes of the Us add up to less than every opponent's
# card count, no opponent goes out meanwhile: m still finishes next (but the
# other hands may have changed, so only the bounds below hold, not the
# continuation of st_after_runout). Safety only shrinks as the opponents'
# hands do, so the other plays of the split stay safe.
# Consequences (value for m's team; the deal is not over at the node):
#   - nobody out yet: m finishes first, m's team wins: value >= +1;
#   - m's partner is first: m is second, m's team gains exactly +3;
#   - an opponent is first (one out): m is second, so the first finisher's
#     partner is third at best: the opponents gain +1 or +2 (not +3);
#   - two out (necessarily one of each team): m is third, the last holder is
#     last: exactly +2 for the first finisher's team if m is its partner,
#     else exactly +1 for the first finisher's team.
# The split is searched over the plays enumerate_plays lists for m's hand,
# counting cards by rank slot (the 13 natural ranks, the wild, the two
# jokers; see ro_slot): plays other than straight flushes depend only on the ranks of
# their natural cards (RULES §8: suits are a choice of which physical cards to
# give), and the straight flushes of a split also draw on the concrete cards
# (each must find its own suited cards), which is checked separately. A split
# found is thus a real sequence of legal plays; failing to find one (or
# running out of the step budget) only means no bound is claimed.

cdef inline int ro_slot(int c, int lv) noexcept nogil:
    """The nibble of card c in a rank-count word: a natural card at its
    single-card order (the nib words of SState), a wild at the level rank's
    own index (free: the natural level cards sit at order 13), the jokers at
    14 and 15."""
    if c == SUIT_H * 13 + lv:
        return lv
    if c >= 52:
        return c - 38           # 52 -> 14, 53 -> 15
    return order_of(c % 13, lv)


cdef inline uint64_t ro_word(const CPlay* p, int lv) noexcept nogil:
    """p's cards counted by slot, 4 bits a slot (at most 8 of a slot)."""
    cdef uint64_t w = 0
    cdef int j
    for j in range(p.size):
        w += (<uint64_t>1) << (4 * ro_slot(p.cards[j], lv))
    return w


cdef inline int nib_fits(uint64_t c, uint64_t p) noexcept nogil:
    """Is every 4-bit count of p at most the one of c? (Each nibble moved
    to an 8-bit lane of its own, where a subtraction cannot borrow across.)"""
    cdef uint64_t m = 0x0F0F0F0F0F0F0F0FULL, h = 0x8080808080808080ULL
    return ((((c & m) | h) - (p & m)) & ((((c >> 4) & m) | h) - ((p >> 4) & m)) & h) == h


cdef inline uint64_t nib_nonzero(uint64_t w) noexcept nogil:
    """The low bit of every nonzero nibble of w."""
    return (w | (w >> 1) | (w >> 2) | (w >> 3)) & 0x1111111111111111ULL


cdef inline int ro_take_sf(const CPlay* p, u8* conc) noexcept nogil:
    """A straight flush also takes its concrete cards (0, with conc as it
    was, when some is not left); other plays take nothing here."""
    cdef int j, k
    if p.type != T_STRAIGHT_FLUSH:
        return 1
    for j in range(p.size):
        if conc[p.cards[j]] == 0:
            for k in range(j):
                conc[p.cards[k]] += 1
            return 0
        conc[p.cards[j]] -= 1
    return 1


cdef inline void ro_give_sf(const CPlay* p, u8* conc) noexcept nogil:
    cdef int j
    if p.type == T_STRAIGHT_FLUSH:
        for j in range(p.size):
            conc[p.cards[j]] += 1


cdef inline int ro_answerable(const CPlay* p, int budget) noexcept nogil:
    """May the (unsafe) play p be answered (see the claim): a non-bomb whose
    size the budget still covers?"""
    return not bomb_class(p) and p.size <= budget


cdef int ro_cover(const CPlay* plays, const uint64_t* pw, const u8* safe, int n,
                  uint64_t cnt, u8* conc, int unsafe_ok, int* steps, int got,
                  int budget) noexcept nogil:
    """Can the cards counted in cnt (a rank-count word, see ro_slot; pw: the
    words of the plays) be split into plays of `plays`: safe ones, at most
    one play of any kind (when unsafe_ok: the last one led), and unsafe
    non-bombs each answered by a safe play of its type (the pair takes both;
    the unsafe ones' sizes together at most `budget`); and (unless got is
    already 1) a first play that beats the table: safe (safe[i] & 2) or
    answered (safe[i] & 8, see the claim)? An answering
    play must beat every play of its type the opponents can make (safe[j] &
    4: safe alone lets them play the same rank). conc: the concrete counts
    left for straight flushes. -1: step budget exhausted."""
    cdef int i, j, r, pairable
    cdef uint64_t low, rest
    if cnt == 0:
        return got
    steps[0] -= 1
    if steps[0] < 0:
        return -1
    # every split has a play holding a card of the lowest slot left
    low = (<uint64_t>0xF) << (ctzll(cnt) & ~3)
    for i in range(n):
        if not (pw[i] & low) or not nib_fits(cnt, pw[i]):
            continue
        pairable = not (safe[i] & 1) and ro_answerable(&plays[i], budget)
        if not (safe[i] & 1) and not unsafe_ok and not pairable:
            continue
        if not ro_take_sf(&plays[i], conc):
            continue
        rest = cnt - pw[i]
        r = 0
        if (safe[i] & 1) or unsafe_ok:
            r = ro_cover(plays, pw, safe, n, rest, conc, unsafe_ok and (safe[i] & 1), steps,
                         got or (safe[i] & 2), budget)
        if r == 0 and pairable:
            # led, and answered by a dominant play of its type if an opponent beats it
            for j in range(n):
                if not (safe[j] & 4) or plays[j].type != plays[i].type \
                        or plays[j].size != plays[i].size or not nib_fits(rest, pw[j]) \
                        or not ro_take_sf(&plays[j], conc):
                    continue
                r = ro_cover(plays, pw, safe, n, rest - pw[j], conc, unsafe_ok, steps,
                             got or (safe[i] & 8), budget - plays[i].size)
                ro_give_sf(&plays[j], conc)
                if r != 0:
                    break
        ro_give_sf(&plays[i], conc)
        if r != 0:
            return r
    return 0



cdef inline int ro_safe(const HSum* hs, int nq, const CPlay* p, int lv) noexcept nogil:
    """Can none of the nq opponents' summaries hs beat p?"""
    cdef int k
    for k in range(nq):
        if can_beat(&hs[k], p, lv):
            return 0
    return 1


cdef inline int ro_dominates(const HSum* hs, int nq, const CPlay* p, int lv) noexcept nogil:
    """Does the non-bomb p beat every play of its type the opponents (no
    bombs among them: p is safe) can make?"""
    cdef int k, key = rank_key(p, lv)
    for k in range(nq):
        if hs[k].maxkey[p.type] >= key:
            return 0
    return 1


cdef inline uint64_t runout_key(const SCtx* cx, const SState* st) noexcept nogil:
    """The key of the run-out cache: the mover's and the opponents' hands and,
    following, what beats the table (never 0)."""
    cdef int me = st.turn
    # the hand keys are Zobrist keys over tables of their own per seat: their
    # xor (with the mover's seat) is a Zobrist key of the three hands
    cdef uint64_t key = st.hkey ^ st.skey[me ^ 2] ^ Z_TURN[me]
    if st.owner >= 0:
        key ^= smix(beat_code(&st.table, rank_key(&st.table, cx.lv)) + 0x70117ULL)
    return key | 1


cdef int runout(SCtx* cx, const SState* st, int sp, uint64_t key) noexcept nogil:
    """1 when the seat to act, on lead, can split its hand into safe plays,
    answered plays and at most one last play of any kind (see the claim
    above), 3 when all the plays of the split are safe; 0 when no such split was found; -1 on a
    buffer overflow.
    Following (a standing play on the table), 1 when the hand is one play
    that beats the table (the mover goes out at once), or splits as above
    with one of the safe plays beating the table: the mover plays that one
    first; nobody beats it (the opponents cannot, the partner passes), so
    every other holder passes, the round ends and the mover, still holding
    cards, has the lead with the rest of the split: the claim above applies.
    The first play may also be the unsafe one of an answered pair, when it
    beats the table: the mover plays it; if an opponent beats it, the
    answer beats that, exactly as when it was led (see the claim)."""
    cdef int me = st.turn, q, nq = 0, n, i, k, mask = ALL_TYPES, r, left, budget, anydom = 0
    cdef int steps = RO_STEPS
    cdef uint64_t covered, bare, hw
    cdef uint64_t* pw
    cdef int all_safe_ok, one_unsafe_ok
    cdef ROEntry* e
    cdef HSum hs[2]
    cdef HSum* h
    cdef CPlay* buf = cx.pool + sp
    cdef u8* safe
    cdef u8 conc[54]
    e = &cx.roc[key & ((1 << ROC_BITS) - 1)]
    if e.key == key:
        return e.res
    for q in range(4):
        if (q & 1) != (me & 1) and st.ncards[q]:
            h = hand_summary(cx, st, q, buf, SPOOL - sp)
            if h == NULL:
                return -1
            hs[nq] = h[0]
            nq += 1
    if not (st.seqmask >> me) & 1:
        mask &= ~SEQ_TYPES
    n = lead_plays(cx, st, mask, buf, SPOOL - sp)
    if n < 0:
        return -1
    left = st.ncards[me]
    # answered plays (see the claim above): their sizes add up to less than
    # every opponent's card count, so that none goes out meanwhile
    budget = 99
    for q in range(4):
        if (q & 1) != (me & 1) and st.ncards[q] and st.ncards[q] - 1 < budget:
            budget = st.ncards[q] - 1
    # the safety flags live in the score array of this ply (unused yet):
    # bit 0 safe, bit 1 safe and (following) beats the table, bit 2 safe and
    # dominant (it may answer an unsafe play, see the claim above), bit 3
    # (following) beats the table, safe or not
    safe = <u8*>(cx.scores + sp)
    if st.owner >= 0:
        # following: out at once with a play that beats the table (1), else
        # no split can work without a play that beats the table, safe or
        # answered (the cheap answer for most followers: no full safety, so
        # only the plays that beat the table are judged here)
        r = 0
        for i in range(n):
            safe[i] = 0
            if c_beats(&buf[i], &st.table, cx.lv):
                if buf[i].size == left:
                    r = 1
                    break
                safe[i] = 11 if ro_safe(hs, nq, &buf[i], cx.lv) else 8
                if (safe[i] & 1) or ro_answerable(&buf[i], budget):
                    r = 2
        if r != 2:
            e.key = key
            e.res = r
            return r
    for i in range(n):
        if st.owner < 0 or not (safe[i] & 8):   # judged above when beating the table
            safe[i] = ro_safe(hs, nq, &buf[i], cx.lv)
        if (safe[i] & 1) and not bomb_class(&buf[i]) and ro_dominates(hs, nq, &buf[i], cx.lv):
            safe[i] |= 4
            anydom = 1
    # the rank-count words of the hand and of its plays (after the plays)
    if (SPOOL - sp - n) * <int>sizeof(CPlay) < n * <int>sizeof(uint64_t):
        return -1
    pw = <uint64_t*>(buf + n)
    hw = (st.nib[me] | (<uint64_t>st.hand[me][SUIT_H * 13 + cx.lv] << (4 * cx.lv))
          | (<uint64_t>st.hand[me][52] << 56) | (<uint64_t>st.hand[me][53] << 60))
    for i in range(n):
        pw[i] = ro_word(&buf[i], cx.lv)
    memcpy(conc, st.hand[me], 54)
    # a quick necessary condition first: the cards of rank slots no safe
    # play touches must all go into the one play allowed to be unsafe
    covered = 0
    for i in range(n):
        if safe[i] & 1:
            covered |= nib_nonzero(pw[i])
    bare = nib_nonzero(hw) & ~covered
    # with bare slots there is no all-safe split, and a split with one
    # unsafe play needs a play holding every card of the bare slots
    all_safe_ok = not bare
    one_unsafe_ok = all_safe_ok
    if not one_unsafe_ok:
        for i in range(n):
            if not (safe[i] & 1) and (pw[i] & (bare * 0xF)) == (hw & (bare * 0xF)):
                one_unsafe_ok = 1
                break
    # all plays safe first (3: then the continuation is known, see
    # st_after_runout), else one last play of any kind (1)
    r = 0
    if all_safe_ok:
        r = ro_cover(buf, pw, safe, n, hw, conc, 0, &steps, st.owner < 0, 0)
    if r > 0:
        r = 3
    else:
        # unsafe plays answered by dominant ones (budget above)
        if not anydom:
            budget = 0
        if one_unsafe_ok or budget > 0:
            steps = RO_STEPS
            r = ro_cover(buf, pw, safe, n, hw, conc, 1, &steps, st.owner < 0, budget)
            r = 1 if r > 0 else 0
    e.key = key
    e.res = r
    return r



cdef inline void st_after_runout(const SState* st, SState* out) noexcept nogil:
    """The position after the seat to act has run out with a split whose
    plays are ALL safe (runout() == 3): its cards gone, every other hand
    unchanged, the seat appended to the finishing order and its partner on
    lead (接风: nobody beat the last play either, and its owner is out).
    With an unsafe last play this is not the continuation (an opponent may
    beat that play), so it is only used for all-safe splits. The caller
    makes sure the partner still holds cards."""
    cdef int me = st.turn
    out[0] = st[0]
    memset(out.hand[me], 0, 54)
    out.nib[me] = 0
    out.om[me] = 0
    out.skey[me] = 0
    out.hkey = out.skey[0] ^ out.skey[1] ^ out.skey[2] ^ out.skey[3]
    out.ncards[me] = 0
    out.rkdirty |= 1 << me
    out.seqmask &= ~(1 << me)
    out.fin[out.nfin] = me
    out.nfin += 1
    out.owner = -1
    out.passes = 0
    out.turn = me ^ 2


cdef inline int runout_bounds(const SState* st, int* lo, int* hi) noexcept nogil:
    """Narrow [lo, hi] (value for team 0) given that the seat to act will
    finish next (see the claim above). Returns 1 when the value is exact."""
    cdef int me = st.turn, f, sgn, v
    if st.nfin == 0:
        if (me & 1) == 0:
            if lo[0] < 1:
                lo[0] = 1
        elif hi[0] > -1:
            hi[0] = -1
        return 0
    f = st.fin[0]
    sgn = 1 if f % 2 == 0 else -1
    if st.nfin == 1:
        if f == (me ^ 2):
            lo[0] = hi[0] = 3 * sgn
            return 1
        # an opponent of the mover is first: its team gains 1 or 2
        if sgn > 0:
            if hi[0] > 2:
                hi[0] = 2
        elif lo[0] < -2:
            lo[0] = -2
        return 0
    # two out, one per team: the mover is third
    v = 2 if f == (me ^ 2) else 1
    lo[0] = hi[0] = v * sgn
    return 1




cdef int runout_cut(SCtx* cx, const SState* st, int ro, int alpha, int beta, int sp,
                    int* lo_s, int* hi_s, int* out) noexcept nogil:
    """The run-out bound at a node (the seat to act can run out). Returns 1
    with out set to the node's (fail-soft) value when it decides the test
    [alpha, beta], else 0 or 2 with lo_s / hi_s narrowed; 2: the caller
    searches the position after the run-out (st_after_runout) and cuts when
    runout_after_cuts says so. Beyond runout_bounds:
    the mover's team can force the position after the run-out (see
    st_after_runout), so that position's value bounds the node's from the
    mover's side (a lower bound for team 0 movers, an upper one for team 1);
    a null-window search of it that fails on the mover's side (>= beta for
    team 0, <= alpha for team 1) cuts the node with the same fail-soft value."""
    cx.runouts += 1
    if runout_bounds(st, lo_s, hi_s):
        out[0] = lo_s[0]           # exact: a genuine terminal
        return 1
    if lo_s[0] >= beta:
        out[0] = lo_s[0]
        return 1
    if hi_s[0] <= alpha:
        out[0] = hi_s[0]
        return 1
    # 2: the caller searches the position after the run-out (all-safe
    # splits only: ro == 3)
    return 2 if ro == 3 else 0


cdef inline int runout_after_cuts(const SState* st, int v, int alpha, int beta) noexcept nogil:
    """Does v, the fail-soft value of the position after the run-out, cut the
    node (see runout_cut)?"""
    if (st.turn & 1) == 0:
        return v >= beta
    return v <= alpha

