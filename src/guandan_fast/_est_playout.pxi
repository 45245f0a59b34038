# The estimator's playout policy (included by _core.pyx after _est_tree.pxi;
# see there for the tree that calls it).
#
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
# (docs/estimator_tuning.md, "The playout policy sees the other hands": each rule
# measured as an evaluator against exact values.)
# Nothing here touches a Python object.

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
